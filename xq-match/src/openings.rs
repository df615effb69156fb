//! The openings a match is played from: an EPD file (one position a line: a FEN, and
//! optionally `moves ...` or an EPD `bm`/`id` part, which is ignored) or a PGN file (each
//! game's start and its first plies), in the file's order or shuffled by a seed.

use crate::game::Opening;
use crate::MatchError;
use std::path::Path;
use xq_core::{Ignore, Move, Position, SplitMix64};
use xq_movegen::notation::read_move;

/// Whether a file of openings is PGN by its name (`.pgn` in any case), else EPD: what
/// `xq match -openings` assumes without `format=`, and `xq datagen --openings`.
///
/// ```
/// use std::path::Path;
/// use xq_match::openings::is_pgn;
/// assert!(is_pgn(Path::new("games/2024.PGN")));
/// assert!(!is_pgn(Path::new("tools/openings-wide.txt")));
/// ```
pub fn is_pgn(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
}

/// The openings of a file: PGN when `pgn`, else EPD; `plies` keeps at most that many
/// plies of each PGN game (all of them when `None`).
///
/// # Errors
/// [`MatchError::Openings`] naming the file and the line (EPD) or game (PGN).
pub fn read(path: &Path, pgn: bool, plies: Option<usize>) -> Result<Vec<Opening>, MatchError> {
    let bad = |what: String| MatchError::Openings {
        path: path.to_path_buf(),
        what,
    };
    let bytes = std::fs::read(path).map_err(|e| bad(e.to_string()))?;
    let openings = if pgn {
        let games = xq_records::pgn::read(&bytes, &xq_records::pgn::ReadOptions::default())
            .map_err(|e| bad(e.to_string()))?;
        games
            .into_iter()
            .map(|g| {
                let mut moves = g.main_line();
                if let Some(p) = plies {
                    moves.truncate(p);
                }
                Opening {
                    start: g.start,
                    moves,
                }
            })
            .collect()
    } else {
        let text = String::from_utf8_lossy(&bytes);
        parse_epd(&text).map_err(|(line, what)| bad(format!("line {line}: {what}")))?
    };
    if openings.is_empty() {
        return Err(bad("no opening in the file".into()));
    }
    Ok(openings)
}

/// The openings of EPD text: a line is a FEN (its first four or six fields, or as
/// many as it has before `moves` or an EPD operation), then optionally `moves` and
/// moves in any notation; `startpos moves ...` is the start position's, and a FEN may
/// follow `fen`, as in UCI's `position fen ...` (the start files in `tools/` are written
/// so); blank lines and lines starting with `#` are skipped.
///
/// # Errors
/// The line (from 1) and what is wrong with it.
///
/// ```
/// use xq_match::openings::parse_epd;
/// let text = "# two openings\nstartpos moves h2e2 h9g7\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves b2e2\n";
/// let openings = parse_epd(text).unwrap();
/// assert_eq!(openings.len(), 2);
/// assert_eq!(openings[0].moves.len(), 2);
/// assert_eq!(parse_epd("startpos moves e2e3").unwrap_err().0, 1);
/// // UCI's form: `fen` before the FEN.
/// let ending = parse_epd("fen 3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1 moves e1e9").unwrap();
/// assert_eq!(ending[0].start.to_fen(), "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1");
/// assert_eq!(ending[0].moves.len(), 1);
/// ```
pub fn parse_epd(text: &str) -> Result<Vec<Opening>, (usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words: Vec<&str> = line.split_whitespace().collect();
        if words[0] == "fen" && words.len() > 1 {
            words.remove(0);
        }
        let (start, rest) = if words[0] == "startpos" {
            (Position::startpos(), &words[1..])
        } else {
            let fen_words = words
                .iter()
                .take(6)
                .take_while(|w| **w != "moves" && !w.ends_with(';'))
                .count();
            let fen = words[..fen_words].join(" ");
            let pos = Position::from_fen_with(&fen, Ignore::PLAYABLE)
                .map_err(|e| (i + 1, e.to_string()))?;
            (pos, &words[fen_words..])
        };
        let mut moves = Vec::new();
        if rest.first() == Some(&"moves") {
            let mut pos = start.clone();
            for text in &rest[1..] {
                let m: Move = read_move(&pos, text).map_err(|e| (i + 1, format!("{text}: {e}")))?;
                pos.make_move(m);
                moves.push(m);
            }
        }
        out.push(Opening { start, moves });
    }
    Ok(out)
}

/// The order openings are taken in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// The file's order, from the first (or the one `start` names).
    #[default]
    Sequential,
    /// Shuffled by a seed (the same seed, the same order).
    Random,
}

/// `openings` in `order` (shuffled by `seed` when random), from the `start`-th (1-based).
pub fn arrange(mut openings: Vec<Opening>, order: Order, seed: u64, start: usize) -> Vec<Opening> {
    if order == Order::Random {
        let mut rng = SplitMix64::new(seed);
        for i in (1..openings.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            openings.swap(i, j);
        }
    }
    let skip = start.saturating_sub(1) % openings.len().max(1);
    openings.rotate_left(skip);
    openings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_files_of_the_repository_are_read() {
        // The tablebase matches' start files put `fen` before each FEN; the openings
        // file is moves from the start.
        for (text, count) in [
            (include_str!("../../tools/openings-wide.txt"), 1080),
            (include_str!("../../tools/tb-starts.txt"), 110),
            (include_str!("../../tools/tb-starts-long.txt"), 130),
            (include_str!("../../tools/tb-starts-both.txt"), 100),
        ] {
            let openings = parse_epd(text).unwrap();
            assert_eq!(openings.len(), count);
        }
        let both = parse_epd(include_str!("../../tools/tb-starts-both.txt")).unwrap();
        assert_eq!(
            both[0].start.to_fen(),
            "9/5k3/2n6/9/2b3b2/7R1/9/9/3K5/9 w - - 0 1"
        );
        assert!(both[0].moves.is_empty());
    }

    #[test]
    fn a_bad_line_is_named() {
        let (line, what) = parse_epd("# a comment\nfen\nstartpos").unwrap_err();
        assert_eq!(line, 2);
        assert!(what.contains("malformed FEN"), "{what}");
        let (line, _) = parse_epd("startpos\nfen 9/9 w").unwrap_err();
        assert_eq!(line, 2);
    }
}
