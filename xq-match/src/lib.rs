#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod cli;
pub mod engine;
pub mod game;
pub mod openings;
pub mod runner;
pub mod stats;
pub mod tc;

pub use engine::{EngineConfig, Fault, Protocol};
pub use game::{Adjudication, Ending, Opening, PlayedGame, Seat};
pub use runner::{describe, pgn_text, play_pair, run, GameCount, GameReport, MatchConfig, Summary};
pub use stats::{Pentanomial, Sprt, Verdict};
pub use tc::{Limits, TimeControl};

use std::fmt;
use std::path::PathBuf;

/// What stops a match from being played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchError {
    /// The openings cannot be read.
    Openings {
        /// The file.
        path: PathBuf,
        /// What is wrong (with the line or game).
        what: String,
    },
    /// The PGN cannot be read (to resume) or written.
    Pgn {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// The match's settings do not fit together.
    Config(String),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Openings { path, what } => write!(f, "openings {}: {what}", path.display()),
            MatchError::Pgn { path, what } => write!(f, "{}: {what}", path.display()),
            MatchError::Config(what) => f.write_str(what),
        }
    }
}

impl std::error::Error for MatchError {}
