#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod attacks;
pub mod fen;
pub mod moves;
pub mod notation;
pub mod piece;
pub mod position;
pub mod square;
pub mod zobrist;

pub use fen::{Fen, ParseFenError, MAX_COUNTER, START_FEN};
pub use moves::{Move, ParseMoveError};
pub use notation::{line_to_notation, move_to_notation, NotationError, NotationStyle};
pub use piece::{ByColor, Color, Piece, PieceKind};
pub use position::{FenError, OccupiedAlong, Position, PositionError, Undo};
pub use square::{File, ParseSquareError, Rank, Square, SquareMap};
