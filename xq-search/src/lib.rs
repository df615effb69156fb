#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod game;
pub mod score;
mod search;
pub mod tt;

pub use game::{Game, GameError};
pub use score::Score;
pub use search::{Info, Limits, SearchConfig, SearchResult, Searcher, NO_CAPTURE_DRAW_PLIES};
