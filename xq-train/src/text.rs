//! Training data as text: one position per line,
//!
//! ```text
//! <FEN> | <score> | <result>
//! ```
//!
//! `<FEN>` is the full six-field FEN, `<score>` the search's score in centipawns from
//! Red's point of view (an integer), `<result>` the game's result from Red's point of view:
//! `1.0` Red won, `0.5` a draw, `0.0` Black won (`1`, `1/2`, `0`, `1-0`, `1/2-1/2`, `0-1`
//! are read too). Blank lines and lines starting with `#` are skipped. [`format_sample`]
//! writes a line, [`parse_sample`] reads one; [`samples`] gives the lines of a self-play
//! game, the ones `xq datagen` writes.
//!
//! A [`Sample`] is also what [`crate::data`] reads from either form: the binary one
//! holds whole games, and a game's samples are the positions the text form would hold.
//!
//! ```
//! use xq_core::Position;
//! use xq_train::text::{format_sample, parse_sample};
//! let line = format_sample(&Position::startpos(), 12, 0.5);
//! assert_eq!(line, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 | 12 | 0.5");
//! let sample = parse_sample(&line).unwrap().unwrap();
//! assert_eq!((sample.pos, sample.score, sample.result), (Position::startpos(), 12, 0.5));
//! ```

use crate::selfplay::SelfPlayGame;
use std::fmt;
use xq_core::{FenError, Position};
use xq_movegen::GameResult;

/// One position of training data: the position, the search's score and the game's
/// result, both from Red's point of view (a line of the text form).
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The position.
    pub pos: Position,
    /// The search's score, centipawns, Red's point of view.
    pub score: i32,
    /// The game's result for Red: 1.0, 0.5 or 0.0.
    pub result: f64,
}

/// What is wrong with a line of a data file.
#[derive(Clone, Debug, PartialEq)]
pub enum SampleError {
    /// Not three fields separated by `|`: the number found.
    Fields(usize),
    /// The FEN is malformed or illegal.
    Fen(FenError),
    /// The score is not an integer.
    Score(String),
    /// The result is not `1.0`, `0.5` or `0.0` (or `1`, `0`, `1/2`).
    Result(String),
}

impl fmt::Display for SampleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SampleError::Fields(n) => {
                write!(f, "expected 3 fields `FEN | score | result`, found {n}")
            }
            SampleError::Fen(e) => write!(f, "bad FEN: {e}"),
            SampleError::Score(s) => write!(f, "bad score `{s}`: expected an integer"),
            SampleError::Result(s) => {
                write!(f, "bad result `{s}`: expected 1.0, 0.5 or 0.0")
            }
        }
    }
}

impl std::error::Error for SampleError {}

/// Writes a data line (without the newline).
///
/// ```
/// use xq_core::Position;
/// let line = xq_train::text::format_sample(&Position::startpos(), 12, 0.5);
/// assert_eq!(line, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 | 12 | 0.5");
/// ```
pub fn format_sample(pos: &Position, score: i32, result: f64) -> String {
    format!("{} | {score} | {result:.1}", pos.to_fen())
}

/// Reads a data line: `None` for a blank line or a comment (`#`).
///
/// # Errors
/// The [`SampleError`] of the first field that is wrong.
///
/// ```
/// use xq_train::text::{parse_sample, SampleError};
/// let r = parse_sample("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1 | 1200 | 1.0").unwrap().unwrap();
/// assert_eq!((r.score, r.result), (1200, 1.0));
/// assert_eq!(parse_sample("# a comment"), Ok(None));
/// assert_eq!(parse_sample("4k4/9/9/9/9/9/9/9/4R4/3K5 b | 12"), Err(SampleError::Fields(2)));
/// assert_eq!(
///     parse_sample("4k4/9/9/9/9/9/9/9/4R4/3K5 b | 12 | 2"),
///     Err(SampleError::Result("2".into()))
/// );
/// ```
pub fn parse_sample(line: &str) -> Result<Option<Sample>, SampleError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    let [fen, score, result] = fields[..] else {
        return Err(SampleError::Fields(fields.len()));
    };
    let pos = Position::from_fen(fen).map_err(SampleError::Fen)?;
    let score = score
        .parse::<i32>()
        .map_err(|_| SampleError::Score(score.to_string()))?;
    let result = match result {
        "1.0" | "1" | "1-0" => 1.0,
        "0.5" | "1/2" | "1/2-1/2" => 0.5,
        "0.0" | "0" | "0-1" => 0.0,
        _ => return Err(SampleError::Result(result.to_string())),
    };
    Ok(Some(Sample { pos, score, result }))
}

/// A game's result for Red: 1.0 Red won, 0.5 a draw, 0.0 Black won.
pub fn result_for_red(result: GameResult) -> f64 {
    match result {
        GameResult::RedWins => 1.0,
        GameResult::Draw => 0.5,
        GameResult::BlackWins => 0.0,
    }
}

/// The samples of a self-play game: its quiet positions
/// ([`SelfPlayGame::quiet_positions`]) with their scores and the result from Red's
/// point of view, the lines `xq datagen --format text` writes for it.
///
/// ```
/// use xq_core::Position;
/// use xq_movegen::GameResult;
/// use xq_train::selfplay::{SelfPlayGame, NO_SCORE};
/// use xq_train::text::samples;
/// let game = SelfPlayGame {
///     start: Position::startpos(),
///     result: GameResult::BlackWins,
///     plies: vec![("h2e2".parse().unwrap(), NO_SCORE), ("h9g7".parse().unwrap(), 25)],
/// };
/// let lines: Vec<_> = samples(&game).collect();
/// assert_eq!(lines.len(), 1);
/// // Black was to move and 25 up: -25 from Red's point of view.
/// assert_eq!((lines[0].score, lines[0].result), (-25, 0.0));
/// ```
pub fn samples(game: &SelfPlayGame) -> impl Iterator<Item = Sample> + '_ {
    let result = result_for_red(game.result);
    game.quiet_positions().map(move |(pos, score)| {
        let score = i32::from(score) * pos.side_to_move().sign();
        Sample { pos, score, result }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_back_and_errors_say_what_is_wrong() {
        assert!(matches!(
            parse_sample("4k4/9/9 w | 1 | 0.5"),
            Err(SampleError::Fen(_))
        ));
        assert_eq!(
            parse_sample("4k4/9/9 w | 1 | 0.5").unwrap_err().to_string(),
            "bad FEN: malformed FEN: the board has 3 ranks separated by '/', expected 10"
        );
        assert_eq!(
            parse_sample("4k4/9/9/9/9/9/9/9/4R4/3K5 b | x | 1.0"),
            Err(SampleError::Score("x".into()))
        );
        assert_eq!(parse_sample("   "), Ok(None));
        // What format_sample writes, parse_sample reads back.
        let pos = Position::from_fen("4k4/9/3nb4/4p4/9/9/9/9/4C4/3K5 b - - 7 30").unwrap();
        let back = parse_sample(&format_sample(&pos, -35, 0.0))
            .unwrap()
            .unwrap();
        assert_eq!((back.pos, back.score, back.result), (pos, -35, 0.0));
        for (text, result) in [("1-0", 1.0), ("1/2-1/2", 0.5), ("0-1", 0.0), ("1/2", 0.5)] {
            let line = format!("4k4/9/9/9/9/9/9/9/4R4/3K5 b | 0 | {text}");
            assert_eq!(parse_sample(&line).unwrap().unwrap().result, result);
        }
    }
}
