#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod files;
pub mod pgn;
mod record;
pub mod xqf;

pub use pgn::{PgnError, PgnErrorKind};
pub use record::{Line, Node, Record, ReplayError};
pub use xqf::{XqfError, XqfErrorKind};
