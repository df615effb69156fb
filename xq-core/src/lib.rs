#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod attacks;
mod fen;
mod moves;
mod piece;
mod position;
mod random;
mod square;
pub mod zobrist;

pub use fen::{Fen, ParseFenError, MAX_COUNTER, START_FEN};
pub use moves::{Move, ParseMoveError};
pub use piece::{ByColor, Color, Piece, PieceKind};
pub use position::{FenError, Ignore, OccupiedAlong, Position, PositionError, Undo};
pub use random::SplitMix64;
pub use square::{File, ParseSquareError, Rank, Square, SquareMap};
