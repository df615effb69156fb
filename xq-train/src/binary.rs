//! Self-play games in a compact binary form: what `xq datagen --format binary` and
//! [`crate::selfplay`] write and every trainer reads (through [`crate::data`]). A game is
//! stored as its start, its result and one move and score per ply: four bytes a
//! position, against some sixty for a line of FEN.
//!
//! # The format
//!
//! Little-endian. A file is the magic `XQSP`, a version (`u16`, 1), then games one after
//! the other until the end of the file:
//!
//! | bytes | what |
//! |---|---|
//! | 1 | flags: bit 0 set when the game starts from a FEN, else from the standard start |
//! | 1 + n | with bit 0: the FEN's length `n` (`u8`) and its text |
//! | 1 | the result: 0 Black won, 1 a draw, 2 Red won |
//! | 2 | the number of plies (`u16`) |
//! | 4 per ply | the move (`u16`, [`Move::to_u16`]) and the search's score of the position before it, from its side to move's view, in centipawns (`i16`; [`NO_SCORE`](crate::selfplay::NO_SCORE) for a move that was not searched, such as a random opening move) |
//!
//! Every move is checked for legality when the file is read.
//!
//! ```
//! use xq_core::Position;
//! use xq_movegen::GameResult;
//! use xq_train::binary::{read, Writer};
//! use xq_train::selfplay::{SelfPlayGame, NO_SCORE};
//! let mut w = Writer::new();
//! let game = SelfPlayGame {
//!     start: Position::startpos(),
//!     result: GameResult::Draw,
//!     plies: vec![("h2e2".parse().unwrap(), NO_SCORE), ("h9g7".parse().unwrap(), -12)],
//! };
//! w.push(&game).unwrap();
//! let bytes = w.into_bytes();
//! assert_eq!(bytes.len(), 6 + 4 + 2 * 4);
//! assert_eq!(read(&bytes).unwrap(), [game]);
//! ```

use crate::selfplay::SelfPlayGame;
use std::fmt;
use xq_core::{Move, Position, START_FEN};
use xq_movegen::{is_legal, GameResult};

/// The first bytes of a file in this form.
pub const MAGIC: &[u8; 4] = b"XQSP";
/// The format's version.
pub const VERSION: u16 = 1;
/// The most plies a game of the format holds.
pub const MAX_PLIES: usize = u16::MAX as usize;

/// A game the format cannot hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriteError {
    /// More plies than [`MAX_PLIES`] (no game under the rules comes near).
    TooManyPlies(usize),
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::TooManyPlies(n) => {
                write!(
                    f,
                    "a game of {n} plies: the format holds at most {MAX_PLIES}"
                )
            }
        }
    }
}

impl std::error::Error for WriteError {}

/// Writes games into a buffer in the format (see the [module docs](self)).
#[derive(Debug)]
pub struct Writer {
    bytes: Vec<u8>,
}

impl Default for Writer {
    fn default() -> Writer {
        Writer::new()
    }
}

impl Writer {
    /// A buffer with the file's header.
    pub fn new() -> Writer {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        Writer { bytes }
    }

    /// The bytes of one game alone, without the header (to append to a file that has
    /// it).
    ///
    /// # Errors
    /// The game has more than [`MAX_PLIES`] plies.
    pub fn game_bytes(game: &SelfPlayGame) -> Result<Vec<u8>, WriteError> {
        let n = u16::try_from(game.plies.len())
            .map_err(|_| WriteError::TooManyPlies(game.plies.len()))?;
        let mut out = Vec::with_capacity(4 + 4 * game.plies.len());
        let fen = game.start.to_fen();
        if fen == START_FEN {
            out.push(0);
        } else {
            out.push(1);
            // A legal position's FEN has at most 90 squares, 9 slashes and the counters.
            out.push(u8::try_from(fen.len()).expect("a FEN is shorter than 256 bytes"));
            out.extend_from_slice(fen.as_bytes());
        }
        out.push(match game.result {
            GameResult::BlackWins => 0,
            GameResult::Draw => 1,
            GameResult::RedWins => 2,
        });
        out.extend_from_slice(&n.to_le_bytes());
        for &(m, score) in &game.plies {
            out.extend_from_slice(&m.to_u16().to_le_bytes());
            out.extend_from_slice(&score.to_le_bytes());
        }
        Ok(out)
    }

    /// Appends a game.
    ///
    /// # Errors
    /// As [`Writer::game_bytes`]; nothing is appended then.
    pub fn push(&mut self, game: &SelfPlayGame) -> Result<(), WriteError> {
        self.bytes.extend_from_slice(&Writer::game_bytes(game)?);
        Ok(())
    }

    /// The file's bytes.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// The header alone (for a file written game by game with [`Writer::game_bytes`]).
    pub fn header() -> Vec<u8> {
        Writer::new().into_bytes()
    }
}

/// What is wrong with a self-play file, and where (a byte offset).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// The byte offset of the problem.
    pub offset: usize,
    /// The game it is in, counted from 1 (0: the header).
    pub game: usize,
    /// What is wrong.
    pub kind: ReadErrorKind,
}

/// What is wrong with a self-play file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadErrorKind {
    /// The file does not start with `XQSP`.
    BadMagic,
    /// A version this build does not read.
    UnsupportedVersion(u16),
    /// The file ends inside a game.
    Truncated,
    /// The start FEN is not a valid position.
    BadFen(String),
    /// A result byte other than 0, 1 or 2.
    BadResult(u8),
    /// A move is not a move, or not legal where it is played; `ply` counts from 1.
    IllegalMove {
        /// The ply.
        ply: usize,
        /// The raw move.
        raw: u16,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}", self.offset)?;
        if self.game > 0 {
            write!(f, " (game {})", self.game)?;
        }
        f.write_str(": ")?;
        match &self.kind {
            ReadErrorKind::BadMagic => f.write_str("not a self-play file (no XQSP magic)"),
            ReadErrorKind::UnsupportedVersion(v) => {
                write!(
                    f,
                    "self-play format version {v}, this build reads {VERSION}"
                )
            }
            ReadErrorKind::Truncated => f.write_str("the file ends inside a game"),
            ReadErrorKind::BadFen(e) => write!(f, "bad start position: {e}"),
            ReadErrorKind::BadResult(b) => write!(f, "bad result byte {b}"),
            ReadErrorKind::IllegalMove { ply, raw } => {
                write!(f, "ply {ply}: move {raw:#06x} is not legal there")
            }
        }
    }
}

impl std::error::Error for ReadError {}

/// Reads every game of a self-play file.
///
/// # Errors
/// A [`ReadError`] with the byte offset of the first problem.
///
/// ```
/// use xq_train::binary::{read, ReadErrorKind};
/// assert_eq!(read(b"XQSP\x01\x00").unwrap(), []);
/// let err = read(b"XQSP\x01\x00\x00\x01\x02\x00").unwrap_err();
/// assert_eq!((err.offset, err.game, err.kind), (10, 1, ReadErrorKind::Truncated));
/// ```
pub fn read(bytes: &[u8]) -> Result<Vec<SelfPlayGame>, ReadError> {
    let mut games = Vec::new();
    read_each(bytes, |g| games.push(g))?;
    Ok(games)
}

/// Reads the games of a self-play file one by one, handing each to `each` (a large file
/// need not be held as records).
///
/// # Errors
/// As [`read`]; the games before the problem have been handed over.
pub fn read_each(bytes: &[u8], mut each: impl FnMut(SelfPlayGame)) -> Result<(), ReadError> {
    let err = |offset, game, kind| ReadError { offset, game, kind };
    if bytes.len() < 6 || &bytes[..4] != MAGIC {
        return Err(err(0, 0, ReadErrorKind::BadMagic));
    }
    let version = u16::from_le_bytes([bytes[4], bytes[5]]);
    if version != VERSION {
        return Err(err(4, 0, ReadErrorKind::UnsupportedVersion(version)));
    }
    let mut at = 6;
    let mut index = 0;
    while at < bytes.len() {
        index += 1;
        let need = |at: usize, n: usize| -> Result<&[u8], ReadError> {
            bytes
                .get(at..at + n)
                .ok_or_else(|| err(bytes.len(), index, ReadErrorKind::Truncated))
        };
        let flags = need(at, 1)?[0];
        at += 1;
        let start = if flags & 1 != 0 {
            let n = usize::from(need(at, 1)?[0]);
            let text = need(at + 1, n)?;
            let fen = String::from_utf8_lossy(text);
            let pos = Position::from_fen(&fen)
                .map_err(|e| err(at, index, ReadErrorKind::BadFen(e.to_string())))?;
            at += 1 + n;
            pos
        } else {
            Position::startpos()
        };
        let result = match need(at, 1)?[0] {
            0 => GameResult::BlackWins,
            1 => GameResult::Draw,
            2 => GameResult::RedWins,
            b => return Err(err(at, index, ReadErrorKind::BadResult(b))),
        };
        at += 1;
        let n = need(at, 2)?;
        let plies = usize::from(u16::from_le_bytes([n[0], n[1]]));
        at += 2;
        let body = need(at, 4 * plies)?;
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(plies);
        for (i, chunk) in body.chunks_exact(4).enumerate() {
            let raw = u16::from_le_bytes([chunk[0], chunk[1]]);
            let score = i16::from_le_bytes([chunk[2], chunk[3]]);
            let m = Move::from_u16(raw)
                .filter(|&m| is_legal(&pos, m))
                .ok_or_else(|| {
                    err(
                        at + 4 * i,
                        index,
                        ReadErrorKind::IllegalMove { ply: i + 1, raw },
                    )
                })?;
            pos.make_move(m);
            moves.push((m, score));
        }
        at += 4 * plies;
        each(SelfPlayGame {
            start,
            result,
            plies: moves,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_from_a_fen_round_trip_and_damage_is_found() {
        let start = Position::from_fen("3k5/R8/9/9/9/9/9/9/4R4/4K4 w").unwrap();
        let game = SelfPlayGame {
            start,
            result: GameResult::RedWins,
            plies: vec![("e1e9".parse().unwrap(), 29_999)],
        };
        let mut w = Writer::new();
        w.push(&game).unwrap();
        w.push(&game).unwrap();
        let bytes = w.into_bytes();
        assert_eq!(read(&bytes).unwrap(), [game.clone(), game.clone()]);
        let positions: Vec<_> = game.positions().collect();
        assert_eq!(positions.len(), 1);
        assert_eq!(positions[0].2, 29_999);
        // A move that is not legal, a bad result, a bad header.
        let mut bad = bytes.clone();
        let last = bad.len() - 4;
        bad[last..last + 2]
            .copy_from_slice(&"e1f2".parse::<Move>().unwrap().to_u16().to_le_bytes());
        let e = read(&bad).unwrap_err();
        assert_eq!((e.game, e.offset), (2, last));
        assert!(matches!(e.kind, ReadErrorKind::IllegalMove { ply: 1, .. }));
        assert!(e
            .to_string()
            .starts_with(&format!("byte {last} (game 2): ply 1: move")));
        let mut bad = bytes.clone();
        let fen_len = usize::from(bad[7]);
        bad[8 + fen_len] = 7;
        assert_eq!(read(&bad).unwrap_err().kind, ReadErrorKind::BadResult(7));
        assert_eq!(
            read(b"XQSP\x02\x00").unwrap_err().kind,
            ReadErrorKind::UnsupportedVersion(2)
        );
        assert_eq!(
            read(b"XQNN\x01\x00").unwrap_err().kind,
            ReadErrorKind::BadMagic
        );
    }

    #[test]
    fn a_game_too_long_for_the_format_is_refused() {
        let m: Move = "h2e2".parse().unwrap();
        let game = SelfPlayGame {
            start: Position::startpos(),
            result: GameResult::Draw,
            plies: vec![(m, 0); MAX_PLIES + 1],
        };
        let mut w = Writer::new();
        assert_eq!(w.push(&game), Err(WriteError::TooManyPlies(65_536)));
        assert_eq!(w.into_bytes(), Writer::header());
        assert_eq!(
            WriteError::TooManyPlies(65_536).to_string(),
            "a game of 65536 plies: the format holds at most 65535"
        );
    }
}
