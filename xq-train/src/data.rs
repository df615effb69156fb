//! The one reader of training data, for every trainer: `xq datagen`'s text form
//! ([`crate::text`], `FEN | score | result` lines) and its binary form
//! ([`crate::binary`], whole games), told apart by the file's first bytes (`XQSP`).
//!
//! It hands over the data game by game, each game as the [`Sample`]s of its positions in
//! order:
//!
//! - **binary**: each game of the file, with the positions the text form would hold
//!   ([`SelfPlayGame::quiet_positions`](crate::selfplay::SelfPlayGame::quiet_positions):
//!   searched, not in check, the move played not a capture, the score not a mate). A
//!   game none of whose positions passes is handed over empty, so that game numbers
//!   count every game of the file.
//! - **text**: the lines cut into games by one rule: `xq datagen` writes a game's
//!   positions together, in the order played, all with the game's result; so a new game
//!   starts where the ply (from the move number and the side to move) does not rise, or
//!   where the result changes. The first line of a file starts a game.
//!
//! Errors say where: the file, and the line (text) or the byte offset and game (binary).
//!
//! ```
//! use xq_train::data::read_bytes;
//! let text = "\
//! rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 | 10 | 0.5
//! rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1 | 20 | 0.5
//! rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 | 30 | 0.5
//! rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1 | 40 | 1.0
//! ";
//! let mut games = Vec::new();
//! read_bytes(text.as_bytes(), |game| {
//!     games.push(game.iter().map(|s| s.score).collect::<Vec<_>>())
//! })
//! .unwrap();
//! // The ply falls at the third line, the result changes at the fourth.
//! assert_eq!(games, [vec![10, 20], vec![30], vec![40]]);
//! let err = read_bytes(b"# data\n4k4/9 w | 1 | 1.0\n", |_| {}).unwrap_err();
//! assert_eq!(err.line(), Some(2));
//! assert!(err.to_string().starts_with("line 2: bad FEN: "));
//! ```

use crate::binary::{self, ReadError};
use crate::text::{self, parse_sample, Sample, SampleError};
use std::fmt;
use std::path::{Path, PathBuf};
use xq_core::Color;

/// Why training data could not be read, and where.
#[derive(Debug)]
pub struct DataError {
    /// The file (`None` for bytes read by [`read_bytes`]).
    pub path: Option<PathBuf>,
    /// What is wrong, and where in the file.
    pub kind: DataErrorKind,
}

/// What is wrong with training data.
#[derive(Debug)]
pub enum DataErrorKind {
    /// The file cannot be read.
    Io(std::io::Error),
    /// A line of a text file is not a sample; `line` counts from 1.
    Line {
        /// The line.
        line: usize,
        /// What is wrong with it.
        error: SampleError,
    },
    /// A line of a file that is not binary (no `XQSP` magic) is not UTF-8 text.
    NotText {
        /// The line, from 1.
        line: usize,
    },
    /// A binary file is damaged (the error has the byte offset and the game).
    Binary(ReadError),
}

impl DataError {
    /// The line of a text file the error is on (from 1).
    pub fn line(&self) -> Option<usize> {
        match self.kind {
            DataErrorKind::Line { line, .. } | DataErrorKind::NotText { line } => Some(line),
            _ => None,
        }
    }

    /// The byte offset in a binary file the error is at.
    pub fn offset(&self) -> Option<usize> {
        match &self.kind {
            DataErrorKind::Binary(e) => Some(e.offset),
            _ => None,
        }
    }

    fn with_path(mut self, path: &Path) -> DataError {
        self.path = Some(path.to_path_buf());
        self
    }
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.as_deref().map(Path::display);
        match (&self.kind, path) {
            (DataErrorKind::Io(e), Some(p)) => write!(f, "cannot read {p}: {e}"),
            (DataErrorKind::Io(e), None) => write!(f, "cannot read the data: {e}"),
            (DataErrorKind::Line { line, error }, Some(p)) => write!(f, "{p}:{line}: {error}"),
            (DataErrorKind::Line { line, error }, None) => write!(f, "line {line}: {error}"),
            (DataErrorKind::NotText { line }, Some(p)) => write!(
                f,
                "{p}:{line}: not UTF-8: neither xq datagen text nor binary (XQSP)"
            ),
            (DataErrorKind::NotText { line }, None) => write!(
                f,
                "line {line}: not UTF-8: neither xq datagen text nor binary (XQSP)"
            ),
            (DataErrorKind::Binary(e), Some(p)) => write!(f, "{p}: {e}"),
            (DataErrorKind::Binary(e), None) => e.fmt(f),
        }
    }
}

// The message has the inner error's own text: no `source`, or it would be said twice.
impl std::error::Error for DataError {}

/// The two forms of training data.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Form {
    /// `FEN | score | result` lines ([`crate::text`]).
    Text,
    /// Whole games ([`crate::binary`]).
    Binary,
}

/// The form of data that starts with `bytes`: binary when it has the magic `XQSP`.
///
/// ```
/// use xq_train::data::{form, Form};
/// assert_eq!(form(b"XQSP\x01\x00"), Form::Binary);
/// assert_eq!(form(b"# a comment\n"), Form::Text);
/// ```
pub fn form(bytes: &[u8]) -> Form {
    if bytes.starts_with(binary::MAGIC) {
        Form::Binary
    } else {
        Form::Text
    }
}

/// The ply of a position from its move number and side to move, for the rule that cuts
/// text into games.
fn ply(sample: &Sample) -> u64 {
    2 * u64::from(sample.pos.fullmove_number())
        + u64::from(sample.pos.side_to_move() == Color::Black)
}

/// Does `next`, the line after `prev`, go on `prev`'s game? (See the [module docs](self).)
fn same_game(prev: &Sample, next: &Sample) -> bool {
    ply(next) > ply(prev) && next.result == prev.result
}

/// Reads training data of either form from memory, handing each game's samples to
/// `each` in order (see the [module docs](self)).
///
/// # Errors
/// The first problem, with its line or byte offset; the games before it have been
/// handed over.
pub fn read_bytes(bytes: &[u8], mut each: impl FnMut(&[Sample])) -> Result<(), DataError> {
    let error = |kind| DataError { path: None, kind };
    let mut game: Vec<Sample> = Vec::new();
    if form(bytes) == Form::Binary {
        return binary::read_each(bytes, |g| {
            game.clear();
            game.extend(text::samples(&g));
            each(&game);
        })
        .map_err(|e| error(DataErrorKind::Binary(e)));
    }
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let line =
            std::str::from_utf8(line).map_err(|_| error(DataErrorKind::NotText { line: i + 1 }))?;
        match parse_sample(line) {
            Ok(Some(s)) => {
                if game.last().is_some_and(|prev| !same_game(prev, &s)) {
                    each(&game);
                    game.clear();
                }
                game.push(s);
            }
            Ok(None) => {}
            Err(e) => {
                return Err(error(DataErrorKind::Line {
                    line: i + 1,
                    error: e,
                }))
            }
        }
    }
    if !game.is_empty() {
        each(&game);
    }
    Ok(())
}

/// Reads a training data file of either form, handing each game's samples to `each` in
/// order (see the [module docs](self)).
///
/// # Errors
/// The file cannot be read, or its first problem, with the file's name and the line or
/// byte offset; the games before it have been handed over.
pub fn read_file(path: impl AsRef<Path>, each: impl FnMut(&[Sample])) -> Result<(), DataError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|e| DataError {
        path: Some(path.to_path_buf()),
        kind: DataErrorKind::Io(e),
    })?;
    read_bytes(&bytes, each).map_err(|e| e.with_path(path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binary::Writer;
    use crate::selfplay::{SelfPlayGame, NO_SCORE};
    use xq_core::Position;
    use xq_movegen::GameResult;

    fn games_of(bytes: &[u8]) -> Vec<Vec<i32>> {
        let mut games = Vec::new();
        read_bytes(bytes, |g| games.push(g.iter().map(|s| s.score).collect())).unwrap();
        games
    }

    #[test]
    fn text_is_cut_into_games_where_the_ply_stops_rising_or_the_result_changes() {
        let line = |fen: &str, score: i32, result: &str| format!("{fen} | {score} | {result}\n");
        let red5 = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 5";
        let black5 = "3k5/9/9/9/9/9/9/9/4R4/4K4 b - - 0 5";
        let red6 = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 6";
        let text = [
            line(red5, 1, "1.0"),
            line(black5, 2, "1.0"),
            "# a comment between\n\n".to_string(),
            line(red6, 3, "1.0"),
            // The same ply again: a new game.
            line(red6, 4, "1.0"),
            // Rising, but another result: a new game.
            line(black5.replace(" 5", " 9").as_str(), 5, "0.5"),
            // From Black's move 9 back to 5: a new game.
            line(black5, 6, "0.5"),
            // From Black's move 5 back to Red's: a new game.
            line(red5, 7, "0.5"),
        ]
        .concat();
        assert_eq!(
            games_of(text.as_bytes()),
            [vec![1, 2, 3], vec![4], vec![5], vec![6], vec![7]]
        );
        assert!(games_of(b"").is_empty());
        assert!(games_of(b"# nothing\n").is_empty());
    }

    #[test]
    fn binary_games_give_the_lines_the_text_form_holds() {
        let game = SelfPlayGame {
            start: Position::startpos(),
            result: GameResult::RedWins,
            plies: ["h2e2", "h9g7", "b0c2", "i9h9", "e2e6"]
                .iter()
                .zip([NO_SCORE, 10, -20, 5, 30])
                .map(|(m, s)| (m.parse().unwrap(), s))
                .collect(),
        };
        let empty = SelfPlayGame {
            plies: vec![("h2e2".parse().unwrap(), NO_SCORE)],
            ..game.clone()
        };
        let mut w = Writer::new();
        for g in [&game, &empty, &game] {
            w.push(g).unwrap();
        }
        let bytes = w.into_bytes();
        // Scores from Red's view: Black's 10 is -10; the capture and the random ply are
        // left out; the game without a kept position is handed over empty.
        assert_eq!(
            games_of(&bytes),
            [vec![-10, -20, -5], vec![], vec![-10, -20, -5]]
        );
        let mut lines = String::new();
        read_bytes(&bytes, |g| {
            for s in g {
                lines.push_str(&text::format_sample(&s.pos, s.score, s.result));
                lines.push('\n');
            }
        })
        .unwrap();
        // The lines read as text make the same two games.
        assert_eq!(
            games_of(lines.as_bytes()),
            [vec![-10, -20, -5], vec![-10, -20, -5]]
        );
    }

    #[test]
    fn errors_say_the_file_and_the_line_or_the_byte() {
        let dir = std::env::temp_dir().join(format!("xq-train-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text = dir.join("bad.txt");
        std::fs::write(
            &text,
            "4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1 | 12 | 1.0\n4k4/9/9/9/9/9/9/9/4R4/3K5 b | 12 | 2\n",
        )
        .unwrap();
        let mut seen = 0;
        let e = read_file(&text, |g| seen += g.len()).unwrap_err();
        assert_eq!(seen, 0, "the game was not over when the error came");
        assert_eq!(e.line(), Some(2));
        assert!(matches!(
            e.kind,
            DataErrorKind::Line {
                line: 2,
                error: SampleError::Result(_)
            }
        ));
        assert_eq!(
            e.to_string(),
            format!(
                "{}:2: bad result `2`: expected 1.0, 0.5 or 0.0",
                text.display()
            )
        );
        let latin = dir.join("latin.txt");
        std::fs::write(&latin, b"# ok\n# caf\xe9\n").unwrap();
        let e = read_file(&latin, |_| {}).unwrap_err();
        assert!(matches!(e.kind, DataErrorKind::NotText { line: 2 }));
        let bin = dir.join("short.xqsp");
        std::fs::write(&bin, b"XQSP\x01\x00\x00\x01\x02\x00").unwrap();
        let e = read_file(&bin, |_| {}).unwrap_err();
        assert_eq!(e.offset(), Some(10));
        assert_eq!(
            e.to_string(),
            format!(
                "{}: byte 10 (game 1): the file ends inside a game",
                bin.display()
            )
        );
        let missing = dir.join("missing.txt");
        let e = read_file(&missing, |_| {}).unwrap_err();
        assert!(matches!(e.kind, DataErrorKind::Io(_)));
        assert!(e
            .to_string()
            .starts_with(&format!("cannot read {}: ", missing.display())));
        std::fs::remove_dir_all(&dir).ok();
    }
}
