#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod binary;
pub mod data;
pub mod nnue;
pub mod selfplay;
pub mod text;
pub mod tune;
pub mod wdl;
