//! The engine side of the `xq` binary as a library: the UCI and UCCI command handlers
//! and the protocol-independent engine behind them.
//!
//! The handlers write to a [`engine::Sink`] (standard output for the binary, a buffer
//! for tests and fuzzing) and take one line at a time through
//! [`engine::Protocol::handle`], so a session can be driven without real standard input
//! and output:
//!
//! ```
//! use xq_cli::engine::{Auto, Caps, Protocol, Sink};
//! let (sink, lines) = Sink::buffer();
//! let mut engine = Auto::new(sink, Caps::default());
//! engine.handle("uci");
//! engine.handle("isready");
//! engine.handle("quit");
//! let lines = lines.lock().unwrap();
//! assert!(lines.contains(&"uciok".to_string()));
//! assert_eq!(lines.last().unwrap(), "readyok");
//! ```

pub mod engine;
pub mod ucci;
pub mod uci;
