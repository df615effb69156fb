//! The engine side of the `xq` binary as a library: the UCI, UCCI and XBoard command
//! handlers, thin adapters over the engine of `xq-search` ([`xq_search::engine`]).
//!
//! The layers, from the bottom: [`protocol`] (where output goes, the line loop, parsing
//! what GUIs send, the typed [`protocol::CommandError`]); the core UCI and UCCI share
//! (the engine, its answers, the commands both answer alike); the protocols [`uci`],
//! [`ucci`] and [`xboard`]; and [`auto`], which picks a protocol from the first command.
//! Lower layers never name a higher one.
//!
//! The handlers write to a [`protocol::Sink`] (standard output for the binary, a buffer
//! for tests and fuzzing) and take one line at a time through
//! [`protocol::Protocol::handle`], so a session can be driven without real standard
//! input and output:
//!
//! ```
//! use xq_cli::auto::Auto;
//! use xq_cli::protocol::{Protocol, Sink};
//! use xq_search::engine::Caps;
//! let (sink, lines) = Sink::buffer();
//! let mut engine = Auto::new(sink, Caps::default());
//! engine.handle("uci");
//! engine.handle("isready");
//! engine.handle("quit");
//! let lines = lines.lock().unwrap();
//! assert!(lines.contains(&"uciok".to_string()));
//! assert_eq!(lines.last().unwrap(), "readyok");
//! ```

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod auto;
pub mod beginner;
pub mod protocol;
pub mod serve;
mod session;
pub mod ucci;
pub mod uci;
pub mod xboard;

pub use session::{AUTHOR, NAME};
