//! Self-play games in a compact binary form: what `xq datagen --format binary` writes and
//! the network trainer reads. A game is stored as its start, its result and one move
//! and score per ply: four bytes a position, against some sixty for a line of FEN.
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
//! | 4 per ply | the move (`u16`, [`Move::to_u16`]) and the search's score of the position before it, from its side to move's view, in centipawns (`i16`; [`NO_SCORE`] for a move that was not searched, such as a random opening move) |
//!
//! Every move is checked for legality when the file is read.
//!
//! ```
//! use xq_core::Position;
//! use xq_eval::selfplay::{read, GameRecord, Writer, NO_SCORE};
//! use xq_movegen::GameResult;
//! let mut w = Writer::new();
//! let game = GameRecord {
//!     start: Position::startpos(),
//!     result: GameResult::Draw,
//!     plies: vec![("h2e2".parse().unwrap(), NO_SCORE), ("h9g7".parse().unwrap(), -12)],
//! };
//! w.push(&game);
//! let bytes = w.into_bytes();
//! assert_eq!(bytes.len(), 6 + 4 + 2 * 4);
//! assert_eq!(read(&bytes).unwrap(), [game]);
//! ```

use std::fmt;
use xq_core::{Move, Position, START_FEN};
use xq_movegen::{is_legal, GameResult};

const MAGIC: &[u8; 4] = b"XQSP";
/// The format's version.
pub const VERSION: u16 = 1;
/// The score of a move that was not searched.
pub const NO_SCORE: i16 = i16::MIN;

/// One self-play game: its start, its result, and each ply's move with the score of the
/// position it was played in (side to move's view, centipawns, or [`NO_SCORE`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The position before the first move.
    pub start: Position,
    /// How the game ended.
    pub result: GameResult,
    /// The moves, each with the score of the position before it.
    pub plies: Vec<(Move, i16)>,
}

impl GameRecord {
    /// Every position of the game with the move played from it and that move's score:
    /// `(position, move, score)`, the start first.
    pub fn positions(&self) -> impl Iterator<Item = (Position, Move, i16)> + '_ {
        let mut pos = self.start.clone();
        self.plies.iter().map(move |&(m, score)| {
            let before = pos.clone();
            pos.make_move(m);
            (before, m, score)
        })
    }

    /// The positions a tuner learns from, as `xq datagen`'s text form keeps them: those
    /// with a score (not a random opening move, not a mate), not in check, and whose
    /// move is not a capture. Each with its score, from its side to move's view.
    ///
    /// ```
    /// use xq_core::Position;
    /// use xq_eval::selfplay::{GameRecord, NO_SCORE};
    /// use xq_movegen::GameResult;
    /// let game = GameRecord {
    ///     start: Position::startpos(),
    ///     result: GameResult::Draw,
    ///     plies: ["h2e2", "h9g7", "b0c2", "i9h9", "e2e6"]
    ///         .iter()
    ///         .zip([NO_SCORE, 10, -20, 5, 30])
    ///         .map(|(m, s)| (m.parse().unwrap(), s))
    ///         .collect(),
    /// };
    /// // The random first move has no score and the last move captures a soldier.
    /// let kept: Vec<i16> = game.quiet_positions().map(|(_, score)| score).collect();
    /// assert_eq!(kept, [10, -20, 5]);
    /// ```
    pub fn quiet_positions(&self) -> impl Iterator<Item = (Position, i16)> + '_ {
        self.positions().filter_map(|(pos, m, score)| {
            (score != NO_SCORE && !pos.is_check() && pos.is_empty(m.to())).then_some((pos, score))
        })
    }
}

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
    /// # Panics
    /// If the game has more than 65,535 plies or starts from a FEN longer than 255 bytes
    /// (no legal position's FEN is).
    pub fn game_bytes(game: &GameRecord) -> Vec<u8> {
        let mut out = Vec::with_capacity(4 + 4 * game.plies.len());
        let fen = game.start.to_fen();
        if fen == START_FEN {
            out.push(0);
        } else {
            out.push(1);
            out.push(u8::try_from(fen.len()).expect("a FEN is shorter than 256 bytes"));
            out.extend_from_slice(fen.as_bytes());
        }
        out.push(match game.result {
            GameResult::BlackWins => 0,
            GameResult::Draw => 1,
            GameResult::RedWins => 2,
        });
        let n = u16::try_from(game.plies.len()).expect("at most 65,535 plies");
        out.extend_from_slice(&n.to_le_bytes());
        for &(m, score) in &game.plies {
            out.extend_from_slice(&m.to_u16().to_le_bytes());
            out.extend_from_slice(&score.to_le_bytes());
        }
        out
    }

    /// Appends a game.
    ///
    /// # Panics
    /// As [`Writer::game_bytes`].
    pub fn push(&mut self, game: &GameRecord) {
        self.bytes.extend_from_slice(&Writer::game_bytes(game));
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
/// use xq_eval::selfplay::{read, ReadErrorKind};
/// assert_eq!(read(b"XQSP\x01\x00").unwrap(), []);
/// let err = read(b"XQSP\x01\x00\x00\x01\x02\x00").unwrap_err();
/// assert_eq!((err.offset, err.game, err.kind), (10, 1, ReadErrorKind::Truncated));
/// ```
pub fn read(bytes: &[u8]) -> Result<Vec<GameRecord>, ReadError> {
    let mut games = Vec::new();
    read_each(bytes, |g| games.push(g))?;
    Ok(games)
}

/// Reads the games of a self-play file one by one, handing each to `each` (a large file
/// need not be held as records).
///
/// # Errors
/// As [`read`]; the games before the problem have been handed over.
pub fn read_each(bytes: &[u8], mut each: impl FnMut(GameRecord)) -> Result<(), ReadError> {
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
        each(GameRecord {
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
        let game = GameRecord {
            start,
            result: GameResult::RedWins,
            plies: vec![("e1e9".parse().unwrap(), 29_999)],
        };
        let mut w = Writer::new();
        w.push(&game);
        w.push(&game);
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
}
