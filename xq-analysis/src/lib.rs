#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod judge;
mod report;

pub use judge::{
    Class, GameAnalysis, Judge, JudgeError, Measure, PositionSearch, Searched, Tally,
    UnknownMeasure, Verdict,
};
pub use report::{for_red, loss_text, Field, GameReport, MoveReport};
