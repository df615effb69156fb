#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

/// Writes a formatted line to a [`Sink`].
macro_rules! say {
    ($sink:expr, $($arg:tt)*) => {
        $sink.line(format_args!($($arg)*))
    };
}

pub mod auto;
mod error;
mod io;
pub mod options;
mod parse;
mod session;
pub mod ucci;
pub mod uci;
pub mod xboard;

pub use auto::Auto;
pub use error::CommandError;
pub use io::{printable, read_line, report_error, run, write_line, Flow, Protocol, Sink};
pub use parse::{
    parse_check, parse_go, parse_legal_moves, parse_num, parse_position, parse_spin, Arity, GoArg,
};
pub use session::{uci_info_line, AUTHOR, NAME};
pub use ucci::Ucci;
pub use uci::Uci;
pub use xboard::XBoard;
