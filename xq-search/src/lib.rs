#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
// One exception, allowed where it stands: the transposition table asks Linux for huge
// pages (`madvise`, in `tt.rs`).
#![deny(unsafe_code)]

pub mod bench;
mod correction;
pub mod engine;
mod history;
mod info;
mod limits;
mod params;
mod picker;
mod qsearch;
mod repetition;
mod root;
pub mod score;
mod search;
mod see;
pub mod skill;
mod stack;
pub mod time;
pub mod tt;
mod values;
pub mod wdl;

pub use engine::Engine;
pub use info::{Info, SearchResult};
pub use limits::{Limits, SearchConfig, StopSignal, MAX_DEPTH};
pub use params::{SearchParams, UnknownParam};
pub use score::Score;
pub use search::Searcher;
pub use time::Clock;
