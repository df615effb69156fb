//! FEN text, parsed in two stages.
//!
//! [`Fen`] is the syntax stage: `"...".parse::<Fen>()` checks only that the text is well
//! formed and reports a [`ParseFenError`] naming what is wrong and where. Turning a
//! [`Fen`] into a [`Position`](crate::Position) checks that the placement can arise in a
//! game and reports a [`PositionError`](crate::PositionError) otherwise.
//!
//! The accepted form is `<board> <side> [- - <halfmove clock> <move number>]`:
//! ten ranks from Black's back rank (rank 9) down to Red's (rank 0) separated by `/`,
//! upper case for Red and lower case for Black, digits for runs of empty squares. The side
//! is `w` (or `r`) for Red and `b` for Black. The letters `H` and `E` are accepted as
//! aliases of `N` (horse) and `B` (elephant). The short form with board and side only is
//! accepted (counters 0 and 1). The two `-` placeholders (castling and en passant in
//! chess) may be left out before the counters.

use crate::piece::{Color, Piece};
use crate::square::{File, Rank, Square};
use std::fmt;
use std::str::FromStr;

/// The FEN of the standard starting position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// The largest halfmove clock or move number a FEN may give: far beyond any real game,
/// and far enough below `u32::MAX` that counting moves from it can never overflow.
pub const MAX_COUNTER: u32 = 1_000_000_000;

/// A syntactically valid FEN: a placement, a side to move and two counters.
///
/// Nothing here checks that the placement is reachable in a game; convert it into a
/// [`Position`](crate::Position) for that.
///
/// ```
/// use xq_core::{Fen, Square, Piece, Color};
/// let fen: Fen = "4k4/9/9/9/9/9/9/9/9/4K4 r".parse().unwrap();
/// assert_eq!(fen.side_to_move, Color::Red);
/// assert_eq!(fen.piece_on(Square::E9), Piece::from_char('k'));
/// assert_eq!(fen.to_string(), "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Fen {
    /// What stands on each square, by dense square index ([`Square::index`]): read and
    /// written through [`Fen::piece_on`] and [`Fen::set`].
    board: [Option<Piece>; 90],
    /// The side to move.
    pub side_to_move: Color,
    /// Plies since the last capture (the 60-move rule counts 120 of them).
    pub halfmove_clock: u32,
    /// The move number, starting at 1 and increased after each Black move.
    pub fullmove_number: u32,
}

impl Fen {
    /// An empty board with Red to move.
    pub fn empty() -> Fen {
        Fen {
            board: [None; 90],
            side_to_move: Color::Red,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }

    /// The piece on `sq`, if any.
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Places `piece` (or nothing) on `sq`.
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        self.board[sq.index()] = piece;
    }

    /// The placement field alone (`rnbakabnr/9/...`).
    pub fn board_text(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in Rank::ALL.iter().rev() {
            let mut empty = 0;
            for file in File::ALL {
                match self.board[Square::new(file, *rank).index()] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(p.to_char());
                    }
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank.index() > 0 {
                s.push('/');
            }
        }
        s
    }
}

impl Default for Fen {
    fn default() -> Fen {
        START_FEN.parse().expect("the start FEN parses")
    }
}

impl fmt::Display for Fen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} - - {} {}",
            self.board_text(),
            self.side_to_move.to_char(),
            self.halfmove_clock,
            self.fullmove_number
        )
    }
}

impl fmt::Debug for Fen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fen(\"{self}\")")
    }
}

/// Why a FEN text is malformed. Indices are character positions in the whole text,
/// counted from 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseFenError {
    /// The text is empty or only white space.
    Empty,
    /// The placement does not have ten ranks separated by `/`.
    WrongRankCount(usize),
    /// A rank does not describe exactly nine files. `rank` is the ICCS rank (9 is the
    /// first one written).
    WrongRankWidth {
        /// The ICCS rank, 0-9.
        rank: usize,
        /// How many files the text described.
        width: usize,
    },
    /// A character that is neither a piece letter, a digit 1-9 nor `/`.
    UnexpectedChar {
        /// The character.
        ch: char,
        /// Its position in the text.
        index: usize,
    },
    /// The side-to-move field is missing.
    MissingSide,
    /// The side-to-move field is not `w`, `r` or `b`.
    BadSide(String),
    /// The halfmove clock is not a number from 0 to [`MAX_COUNTER`].
    BadHalfmoveClock(String),
    /// The move number is not a number from 1 to [`MAX_COUNTER`].
    BadFullmoveNumber(String),
    /// Something follows the last field.
    TrailingText(String),
}

impl fmt::Display for ParseFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseFenError::Empty => f.write_str("the FEN is empty"),
            ParseFenError::WrongRankCount(n) => {
                write!(f, "the board has {n} ranks separated by '/', expected 10")
            }
            ParseFenError::WrongRankWidth { rank, width } => {
                write!(f, "rank {rank} describes {width} files, expected 9")
            }
            ParseFenError::UnexpectedChar { ch, index } => {
                write!(
                    f,
                    "unexpected character '{ch}' at index {index} of the board"
                )
            }
            ParseFenError::MissingSide => {
                f.write_str("the side to move is missing (expected 'w', 'r' or 'b')")
            }
            ParseFenError::BadSide(s) => {
                write!(f, "bad side to move '{s}' (expected 'w', 'r' or 'b')")
            }
            ParseFenError::BadHalfmoveClock(s) => write!(f, "bad halfmove clock '{s}'"),
            ParseFenError::BadFullmoveNumber(s) => write!(f, "bad move number '{s}'"),
            ParseFenError::TrailingText(s) => write!(f, "unexpected text after the FEN: '{s}'"),
        }
    }
}

impl std::error::Error for ParseFenError {}

impl FromStr for Fen {
    type Err = ParseFenError;

    fn from_str(text: &str) -> Result<Fen, ParseFenError> {
        let mut fields = text.split_whitespace();
        let placement = fields.next().ok_or(ParseFenError::Empty)?;
        // Character index of the placement field inside `text`.
        let start = text.len() - text.trim_start().len();
        let start = text[..start].chars().count();

        let ranks = placement.split('/').count();
        if ranks != 10 {
            // A bad character is more informative than a rank count it caused.
            if let Some((i, ch)) = placement
                .chars()
                .enumerate()
                .find(|(_, c)| *c != '/' && !c.is_ascii_digit() && Piece::from_char(*c).is_none())
            {
                return Err(ParseFenError::UnexpectedChar {
                    ch,
                    index: start + i,
                });
            }
            return Err(ParseFenError::WrongRankCount(ranks));
        }

        let mut fen = Fen::empty();
        let mut rank = 9usize;
        let mut file = 0usize;
        for (i, ch) in placement.chars().enumerate() {
            match ch {
                '/' => {
                    if file != 9 {
                        return Err(ParseFenError::WrongRankWidth { rank, width: file });
                    }
                    rank -= 1;
                    file = 0;
                }
                '1'..='9' => file += ch as usize - '0' as usize,
                _ => {
                    let piece = Piece::from_char(ch).ok_or(ParseFenError::UnexpectedChar {
                        ch,
                        index: start + i,
                    })?;
                    if file < 9 {
                        fen.board[rank * 9 + file] = Some(piece);
                    }
                    file += 1;
                }
            }
            if file > 9 {
                // Keep counting to report the full width of the rank.
                let width = file
                    + placement
                        .chars()
                        .skip(i + 1)
                        .take_while(|c| *c != '/')
                        .map(|c| c.to_digit(10).map_or(1, |d| d as usize))
                        .sum::<usize>();
                return Err(ParseFenError::WrongRankWidth { rank, width });
            }
        }
        if file != 9 {
            return Err(ParseFenError::WrongRankWidth { rank, width: file });
        }

        let side = fields.next().ok_or(ParseFenError::MissingSide)?;
        let mut sc = side.chars();
        fen.side_to_move = match (sc.next().and_then(Color::from_char), sc.next()) {
            (Some(c), None) => c,
            _ => return Err(ParseFenError::BadSide(side.to_string())),
        };

        let mut rest: Vec<&str> = fields.collect();
        // Drop the chess placeholders for castling and en passant.
        let mut dashes = 0;
        while dashes < 2 && rest.first() == Some(&"-") {
            rest.remove(0);
            dashes += 1;
        }
        if let Some(h) = rest.first() {
            fen.halfmove_clock = match h.parse() {
                Ok(v) if v <= MAX_COUNTER => v,
                _ => return Err(ParseFenError::BadHalfmoveClock(h.to_string())),
            };
        }
        if let Some(n) = rest.get(1) {
            fen.fullmove_number = match n.parse() {
                Ok(v) if v > 0 && v <= MAX_COUNTER => v,
                _ => return Err(ParseFenError::BadFullmoveNumber(n.to_string())),
            };
        }
        if rest.len() > 2 {
            return Err(ParseFenError::TrailingText(rest[2..].join(" ")));
        }
        Ok(fen)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(s: &str) -> ParseFenError {
        s.parse::<Fen>().unwrap_err()
    }

    #[test]
    fn round_trip_start() {
        let fen: Fen = START_FEN.parse().unwrap();
        assert_eq!(fen.to_string(), START_FEN);
        assert_eq!(Fen::default(), fen);
    }

    #[test]
    fn short_forms() {
        let fen: Fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"
            .parse()
            .unwrap();
        assert_eq!(fen.to_string(), START_FEN);
        let fen: Fen = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r 3 7"
            .parse()
            .unwrap();
        assert_eq!(
            fen.to_string(),
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 3 7"
        );
        let fen: Fen = "  4k4/9/9/9/9/9/9/9/9/4K4 b - - 12 40  ".parse().unwrap();
        assert_eq!((fen.halfmove_clock, fen.fullmove_number), (12, 40));
    }

    #[test]
    fn errors() {
        assert_eq!(err(""), ParseFenError::Empty);
        assert_eq!(err("   "), ParseFenError::Empty);
        assert_eq!(err("9/9/9 w"), ParseFenError::WrongRankCount(3));
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/4K3 w"),
            ParseFenError::WrongRankWidth { rank: 0, width: 8 }
        );
        assert_eq!(
            err("4k5/9/9/9/9/9/9/9/9/4K4 w"),
            ParseFenError::WrongRankWidth { rank: 9, width: 10 }
        );
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/4K4p w"),
            ParseFenError::WrongRankWidth { rank: 0, width: 10 }
        );
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/4X4 w"),
            ParseFenError::UnexpectedChar { ch: 'X', index: 21 }
        );
        assert_eq!(
            err(" 4k4/9/9/9/9/9/9/9/9/4X4 w"),
            ParseFenError::UnexpectedChar { ch: 'X', index: 22 }
        );
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/40K4 w"),
            ParseFenError::UnexpectedChar { ch: '0', index: 21 }
        );
        assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K4"), ParseFenError::MissingSide);
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/4K4 x"),
            ParseFenError::BadSide("x".into())
        );
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/4K4 wb"),
            ParseFenError::BadSide("wb".into())
        );
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/4K4 w - - x 1"),
            ParseFenError::BadHalfmoveClock("x".into())
        );
        // Found by fuzzing: a clock near u32::MAX overflowed when a move was made.
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/3K5 w - - 4294967295 9999999"),
            ParseFenError::BadHalfmoveClock("4294967295".into())
        );
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1000000001"),
            ParseFenError::BadFullmoveNumber("1000000001".into())
        );
        assert!("4k4/9/9/9/9/9/9/9/9/3K5 w - - 1000000000 1000000000"
            .parse::<Fen>()
            .is_ok());
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 0"),
            ParseFenError::BadFullmoveNumber("0".into())
        );
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1 extra"),
            ParseFenError::TrailingText("extra".into())
        );
    }
}
