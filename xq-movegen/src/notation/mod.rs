//! Moves as players write them, read and written side by side: ICCS coordinates
//! (`h2e2`), the WXF's letters and digits (`C2=5`) and Chinese (`炮二平五`).
//!
//! [`read_move`] takes the text of one move in any of the three (it recognises which)
//! and the position it is played in, and returns the legal [`Move`] it names;
//! [`write_move`] writes a legal move in the [`Notation`] asked for, and [`write_line`] a
//! line of them. Anything that goes wrong is one [`NotationError`].
//!
//! ```
//! use xq_core::{Move, Position};
//! use xq_movegen::notation::{read_move, write_move, Notation, NotationError};
//!
//! let pos = Position::startpos();
//! let m: Move = "h2e2".parse().unwrap();
//! for text in ["h2e2", "H2-E2", "C2=5", "C2.5", "炮二平五", "砲2平5", "包２平５"] {
//!     assert_eq!(read_move(&pos, text), Ok(m), "{text}");
//! }
//! assert_eq!(write_move(&pos, m, Notation::Chinese).unwrap(), "炮二平五");
//! assert_eq!(write_move(&pos, m, Notation::Wxf).unwrap(), "C2=5");
//! assert_eq!(write_move(&pos, m, Notation::Iccs).unwrap(), "h2e2");
//!
//! assert_eq!(
//!     read_move(&pos, "炮二进十"),
//!     Err(NotationError::Unknown { text: "炮二进十".to_string() })
//! );
//! ```
//!
//! # The three notations
//!
//! * **ICCS** coordinates, origin then destination, files `a`-`i` from Red's left and
//!   ranks `0`-`9` from Red's side: `h2e2`, also read as `H2-E2` (the dash and upper case
//!   of the ICCS PGN format).
//! * **WXF** and **Chinese** describe a move relative to the side that makes it, in four
//!   parts: the piece, the file it stands on, the direction, and a number.
//!   - **Files** are numbered 1-9 from the mover's own right: for Red file `i` is 1 and
//!     file `a` is 9, for Black file `a` is 1 and file `i` is 9. In Chinese, Red writes
//!     the numbers as the numerals 一二三四五六七八九 and Black as the ASCII digits 1-9;
//!     WXF uses digits for both sides.
//!   - **Direction**: 进 / `+` towards the opponent, 退 / `-` back towards the mover's own
//!     back rank, 平 / `=` sideways along the rank.
//!   - **Number**: for the pieces that move in straight lines (general, chariot, cannon,
//!     soldier) going forward or back it is the number of ranks travelled; going
//!     sideways, and always for the diagonal movers (horse, elephant, advisor), it is the
//!     file the piece arrives on.
//!
//! So from the start position `h2e2` is `炮二平五` / `C2=5` and Black's reply `h9g7` is
//! `马8进7` / `H8+7`.
//!
//! | Notation | General | Advisor | Elephant | Horse | Chariot | Cannon | Soldier |
//! |---|---|---|---|---|---|---|---|
//! | [`Chinese`](Notation::Chinese), Red | 帅 | 仕 | 相 | 马 | 车 | 炮 | 兵 |
//! | [`Chinese`](Notation::Chinese), Black | 将 | 士 | 象 | 马 | 车 | 炮 | 卒 |
//! | [`ChineseTraditional`](Notation::ChineseTraditional), Red | 帥 | 仕 | 相 | 傌 | 俥 | 炮 | 兵 |
//! | [`ChineseTraditional`](Notation::ChineseTraditional), Black | 將 | 士 | 象 | 馬 | 車 | 砲 | 卒 |
//! | [`Wxf`](Notation::Wxf) | K | A | E | H | R | C | P |
//!
//! The traditional style also writes 進 for 进 and 後 for 后.
//!
//! # Pieces on the same file
//!
//! When two chariots, horses or cannons of the mover stand on one file, the file number
//! is replaced by 前 / `+` for the front one (the one further towards the opponent) and
//! 后 / `-` for the rear one, and in Chinese the piece character moves to second place:
//! `前炮平五` / `C+=5`, `后车退一` / `R--1`. As in the WXF's own examples the mark takes
//! the place of the file digit, after the letter (`C+=5`, not `+C=5`); the WXF papers
//! write `.` for a sideways move where xq writes the equally common `=`.
//!
//! Two advisors or two elephants on one file are *not* marked: the one in front can only
//! retreat and the one behind can only advance, so `仕六进五` / `A6+5` and `仕六退五` /
//! `A6-5` already say which one moves (the rule of the xqbase notation specification
//! and of common software). Only in a composed position (an elephant across the river)
//! can two of them make the same move; they are then marked like chariots (`前相退五` /
//! `E+-5`).
//!
//! Soldiers follow the WXF rules for tandem pawns and their Chinese counterparts:
//!
//! | On the file, front to back | Chinese | WXF (file 7 shown) |
//! |---|---|---|
//! | 2 | 前兵, 后兵 | `P+`, `P-` |
//! | 3 | 前兵, 中兵, 后兵 | `P+`, `P7`, `P-` |
//! | 4 | 一兵, 二兵, 三兵, 四兵 | `++`, `P+`, `P-`, `--` |
//! | 5 | 一兵, 二兵, 三兵, 四兵, 五兵 | `++`, `P+`, `P7`, `P-`, `--` |
//!
//! (the ordinals 一二三四五 are written the same way for both sides). When *two* files
//! each hold two or more of the mover's soldiers, the file number takes the place of the
//! piece: Chinese `前七平六`, `中三平四`, and WXF `7+=6`, `33=4`, `3-=4` (the WXF rule
//! for tandem pawns on two files; five soldiers allow at most three on one file then).
//!
//! # What reading accepts
//!
//! More than writing produces, since files come from many programs:
//!
//! * WXF letters `K A E H R C P`, also `B` for the elephant and `N` for the horse, and
//!   lower case; `=` or `.` for a sideways move; `C+=5` also written `+C=5`.
//! * Chinese piece characters in simplified or traditional form and their variants:
//!   帅帥将將 (general), 仕士 (advisor), 相象 (elephant), 马馬傌 (horse), 车車俥
//!   (chariot), 炮砲包 (cannon), 兵卒 (soldier). Directions 进進 (also 上), 退 (also 下),
//!   平. Numbers as Chinese numerals 一 to 九, ASCII digits or full-width digits, for
//!   either side. 前 / 中 / 后 (後) before the piece, or before the file number when two
//!   files hold several soldiers; the ordinals 一二三四五 for four or five soldiers.
//!
//! For the diagonal movers the destination file fixes the move: `马二进三` goes up two
//! ranks, `相三进五` two, `仕四进五` one. The description has to name exactly one legal
//! move. A piece named by its file when two of its kind share that file is accepted when
//! only one of them can make the move; otherwise it is [`NotationError::Ambiguous`].

mod read;
mod write;

use crate::{is_legal, try_play, IllegalMoveError};
use std::fmt;
use std::str::FromStr;
use xq_core::{Color, File, Move, Position, Square};

/// Which way a piece goes, from the mover's point of view: the third part of a move in
/// the descriptive notations (进 / `+`, 退 / `-`, 平 / `=`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Direction {
    Forward,
    Backward,
    Sideways,
}

/// The number of `file` counted from `color`'s right, 1..=9.
fn file_number(color: Color, file: File) -> usize {
    match color {
        Color::Red => 9 - file.index(),
        Color::Black => file.index() + 1,
    }
}

/// The file numbered `n` (1..=9) from `color`'s right.
fn file_of_number(color: Color, n: usize) -> Option<File> {
    match color {
        Color::Red => File::from_index(9usize.checked_sub(n)?),
        Color::Black => File::from_index(n.checked_sub(1)?),
    }
}

/// How far `sq` is from `color`'s back rank, 0..=9.
fn advance(color: Color, sq: Square) -> usize {
    match color {
        Color::Red => sq.rank().index(),
        Color::Black => 9 - sq.rank().index(),
    }
}

/// The notations moves are written in.
///
/// ```
/// use xq_movegen::notation::Notation;
/// assert_eq!(Notation::default(), Notation::Chinese);
/// assert_eq!(Notation::Wxf.format_tag(), "WXF");
/// assert_eq!("chinese-traditional".parse(), Ok(Notation::ChineseTraditional));
/// assert_eq!(Notation::Iccs.to_string(), "iccs");
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Notation {
    /// ICCS coordinates, `h2e2`.
    Iccs,
    /// The World Xiangqi Federation's letters and digits, `C2=5`, `H8+7`, with `=` for a
    /// sideways move.
    Wxf,
    /// Chinese with simplified characters, as most software prints it: `炮二平五`,
    /// `马8进7` (the default).
    #[default]
    Chinese,
    /// Chinese with traditional characters: `炮二平五`, `馬8進7`.
    ChineseTraditional,
}

impl Notation {
    /// Every notation.
    pub const ALL: [Notation; 4] = [
        Notation::Iccs,
        Notation::Wxf,
        Notation::Chinese,
        Notation::ChineseTraditional,
    ];

    /// The lower-case name: `iccs`, `wxf`, `chinese`, `chinese-traditional` (also the
    /// `Display`; `FromStr` reads it in any case).
    pub const fn name(self) -> &'static str {
        match self {
            Notation::Iccs => "iccs",
            Notation::Wxf => "wxf",
            Notation::Chinese => "chinese",
            Notation::ChineseTraditional => "chinese-traditional",
        }
    }

    /// The value of the PGN `Format` tag for this notation: `ICCS`, `WXF` or `Chinese`.
    pub const fn format_tag(self) -> &'static str {
        match self {
            Notation::Iccs => "ICCS",
            Notation::Wxf => "WXF",
            Notation::Chinese | Notation::ChineseTraditional => "Chinese",
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a notation's ([`Notation::name`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseNotationNameError(pub String);

impl fmt::Display for ParseNotationNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown notation '{}' (iccs, wxf, chinese or chinese-traditional)",
            self.0.escape_debug()
        )
    }
}

impl std::error::Error for ParseNotationNameError {}

impl FromStr for Notation {
    type Err = ParseNotationNameError;

    fn from_str(s: &str) -> Result<Notation, ParseNotationNameError> {
        Notation::ALL
            .into_iter()
            .find(|n| n.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| ParseNotationNameError(s.to_string()))
    }
}

/// Why a move could not be read or written.
///
/// ```
/// use xq_core::Position;
/// use xq_movegen::notation::{read_move, NotationError};
/// use xq_movegen::IllegalMoveError;
/// let pos = Position::startpos();
/// assert_eq!(read_move(&pos, "xyz"), Err(NotationError::Unknown { text: "xyz".into() }));
/// // Well formed, but Red has no chariot on file 5.
/// assert_eq!(
///     read_move(&pos, "车五进一"),
///     Err(NotationError::NoSuchMove { text: "车五进一".into() })
/// );
/// // A cannon captures by jumping one piece, but cannot jump to an empty square.
/// let m = "h2h8".parse().unwrap();
/// assert_eq!(
///     read_move(&pos, "C2+6"),
///     Err(NotationError::Illegal { text: "C2+6".into(), error: IllegalMoveError::BadMovement(m) })
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// Reading: the text is in none of the notations.
    Unknown {
        /// The text.
        text: String,
    },
    /// Reading: the text is well formed but no piece of the side to move fits it.
    NoSuchMove {
        /// The text.
        text: String,
    },
    /// Reading: the text fits several legal moves.
    Ambiguous {
        /// The text.
        text: String,
        /// The legal moves it fits.
        candidates: Vec<Move>,
    },
    /// The move is not legal where it is played: read from `text`, or written (then
    /// `text` is its ICCS form).
    Illegal {
        /// The text of the move.
        text: String,
        /// Why the move is illegal.
        error: IllegalMoveError,
    },
    /// A move of a line could not be written; `ply` counts from 0.
    AtPly {
        /// Index of the offending move in the line.
        ply: usize,
        /// What was wrong with it.
        error: Box<NotationError>,
    },
}

impl NotationError {
    /// The text of the move the error is about.
    pub fn text(&self) -> &str {
        match self {
            NotationError::Unknown { text }
            | NotationError::NoSuchMove { text }
            | NotationError::Ambiguous { text, .. }
            | NotationError::Illegal { text, .. } => text,
            NotationError::AtPly { error, .. } => error.text(),
        }
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Unknown { text } => {
                write!(f, "'{text}' is not a move in ICCS, WXF or Chinese notation")
            }
            NotationError::NoSuchMove { text } => {
                write!(f, "no piece of the side to move can play '{text}'")
            }
            NotationError::Ambiguous { text, candidates } => {
                write!(f, "'{text}' is ambiguous: it fits")?;
                for m in candidates {
                    write!(f, " {m}")?;
                }
                Ok(())
            }
            NotationError::Illegal { text, error } => {
                // The error names the move: the text is said once when it is that move.
                if text.parse::<Move>().ok() == Some(illegal_move(error)) {
                    write!(f, "{error}")
                } else {
                    write!(f, "'{text}': {error}")
                }
            }
            NotationError::AtPly { ply, error } => {
                write!(f, "move {} of the line: {error}", ply + 1)
            }
        }
    }
}

/// The move an [`IllegalMoveError`] is about.
fn illegal_move(error: &IllegalMoveError) -> Move {
    match *error {
        IllegalMoveError::NoPieceToMove(m)
        | IllegalMoveError::BadMovement(m)
        | IllegalMoveError::LeavesGeneralAttacked(m) => m,
    }
}

// `Display` includes every wrapped error, so `source` stays `None`.
impl std::error::Error for NotationError {}

/// Reads the move `text` (ICCS, WXF or Chinese, recognised by itself) played in `pos`.
/// Surrounding white space is ignored.
///
/// # Errors
/// [`NotationError::Unknown`] for text in no notation, [`NotationError::NoSuchMove`] when
/// no piece fits, [`NotationError::Ambiguous`] when several legal moves fit and
/// [`NotationError::Illegal`] when the only moves that fit are illegal.
///
/// ```
/// use xq_core::{Move, Position};
/// use xq_movegen::notation::read_move;
/// let m = |s: &str| s.parse::<Move>().unwrap();
///
/// // Two Red chariots on file 8 (b): 前 / + is the one further up.
/// let pos = Position::from_fen("5k3/9/9/9/9/1R7/9/9/1R7/3K5 w").unwrap();
/// assert_eq!(read_move(&pos, "前车平五"), Ok(m("b4e4")));
/// assert_eq!(read_move(&pos, "後俥退一"), Ok(m("b1b0")));
/// assert_eq!(read_move(&pos, "R+=5"), Ok(m("b4e4")));
/// assert_eq!(read_move(&pos, "-R-1"), Ok(m("b1b0")));
///
/// // Black counts files from its own right, with Arabic or full-width digits.
/// let pos = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b").unwrap();
/// assert_eq!(read_move(&pos, "马８进７"), Ok(m("h9g7")));
/// assert_eq!(read_move(&pos, "馬8進7"), Ok(m("h9g7")));
/// assert_eq!(read_move(&pos, "h8+7"), Ok(m("h9g7")));
/// ```
pub fn read_move(pos: &Position, text: &str) -> Result<Move, NotationError> {
    read::read(pos, text)
}

/// The notation `text` is written in, from its form alone (no position is needed, and
/// the move need not be legal): [`Notation::Iccs`], [`Notation::Wxf`], or Chinese, which
/// is [`Notation::ChineseTraditional`] when it uses a character that only the traditional
/// style writes (帥 將 傌 俥 馬 車 砲 進 後) and [`Notation::Chinese`] otherwise. `None`
/// for text in no notation. [`read_move`] recognises the same forms.
///
/// ```
/// use xq_movegen::notation::{notation_of, Notation};
/// assert_eq!(notation_of("h2e2"), Some(Notation::Iccs));
/// assert_eq!(notation_of("H2-E2"), Some(Notation::Iccs));
/// assert_eq!(notation_of("C2=5"), Some(Notation::Wxf));
/// assert_eq!(notation_of("炮二平五"), Some(Notation::Chinese)); // the same in both styles
/// assert_eq!(notation_of("马８进７"), Some(Notation::Chinese));
/// assert_eq!(notation_of("馬８進７"), Some(Notation::ChineseTraditional));
/// assert_eq!(notation_of("xyz"), None);
/// ```
pub fn notation_of(text: &str) -> Option<Notation> {
    read::notation_of(text)
}

/// Writes the legal move `m` of `pos` in `notation`.
///
/// # Errors
/// [`NotationError::Illegal`] if `m` is not legal in `pos` (its `text` the move in ICCS).
///
/// ```
/// use xq_core::{Move, Position};
/// use xq_movegen::notation::{write_move, Notation};
/// let pos = Position::startpos();
/// let m: Move = "b0c2".parse().unwrap();
/// assert_eq!(write_move(&pos, m, Notation::Chinese).unwrap(), "马八进七");
/// assert_eq!(write_move(&pos, m, Notation::ChineseTraditional).unwrap(), "傌八進七");
/// assert_eq!(write_move(&pos, m, Notation::Wxf).unwrap(), "H8+7");
///
/// // Two chariots on Red's 8th file: the front one is marked 前 / `+`.
/// let pos = Position::from_fen("5k3/9/9/9/9/1R7/9/9/1R7/3K5 w").unwrap();
/// let m: Move = "b4e4".parse().unwrap();
/// assert_eq!(write_move(&pos, m, Notation::Chinese).unwrap(), "前车平五");
/// assert_eq!(write_move(&pos, m, Notation::Wxf).unwrap(), "R+=5");
/// ```
pub fn write_move(pos: &Position, m: Move, notation: Notation) -> Result<String, NotationError> {
    if !is_legal(pos, m) {
        let error = try_play(&mut pos.clone(), m).expect_err("an illegal move is refused");
        return Err(NotationError::Illegal {
            text: m.to_string(),
            error,
        });
    }
    Ok(write::write(pos, m, notation))
}

/// Writes each move of `moves` in `notation`, playing them one after the other from
/// `pos` (on a copy: `pos` itself is not changed).
///
/// # Errors
/// [`NotationError::AtPly`] for the first move that is not legal where it is played.
///
/// ```
/// use xq_core::{Move, Position};
/// use xq_movegen::notation::{write_line, Notation};
/// let line: Vec<Move> = ["h2e2", "h9g7", "h0g2", "i9h9"].iter().map(|s| s.parse().unwrap()).collect();
/// let pos = Position::startpos();
/// assert_eq!(write_line(&pos, &line, Notation::Chinese).unwrap(), ["炮二平五", "马8进7", "马二进三", "车9平8"]);
/// assert_eq!(write_line(&pos, &line, Notation::Wxf).unwrap(), ["C2=5", "H8+7", "H2+3", "R9=8"]);
/// ```
pub fn write_line(
    pos: &Position,
    moves: &[Move],
    notation: Notation,
) -> Result<Vec<String>, NotationError> {
    let mut pos = pos.clone();
    let mut out = Vec::with_capacity(moves.len());
    for (ply, &m) in moves.iter().enumerate() {
        let text = write_move(&pos, m, notation).map_err(|error| NotationError::AtPly {
            ply,
            error: Box::new(error),
        })?;
        pos.make_move(m);
        out.push(text);
    }
    Ok(out)
}
