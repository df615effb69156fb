//! Test support shared by the xq crates' tests (not published): the positions of the
//! perft suite, random games played from them, the property-test configuration, and
//! reference versions of the repetition rules written apart from the crates under test,
//! and a beginner-like opponent for measuring the lowest playing levels ([`beginner`],
//! the `xq-beginner` UCI engine).
//!
//! ```
//! use proptest::prelude::*;
//! let fens = xq_testkit::start_fens();
//! assert_eq!(fens[0], xq_core::START_FEN);
//! // A strategy for random games; each is the list of its positions, start included.
//! proptest!(|(positions in xq_testkit::game())| {
//!     prop_assert!(!positions.is_empty());
//! });
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod beginner;
pub mod conformance;
pub mod mate;

use proptest::prelude::*;
use proptest::test_runner::Config;
use xq_core::{Color, Fen, Piece, Position, SplitMix64, Square, START_FEN};
use xq_movegen::legal_moves;

/// The perft suite (`data/perft.epd`): one `FEN ;D1 n ;D2 n ...` line per position.
pub const SUITE: &str = include_str!("../../data/perft.epd");

/// The start position's FEN followed by the FEN of every position of the perft suite:
/// openings, middlegames, checks, mates and sparse endgames.
pub fn start_fens() -> Vec<&'static str> {
    let suite = SUITE
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    let mut out = vec![START_FEN];
    out.extend(suite.map(|l| l.split(';').next().unwrap_or(l).trim()));
    out
}

/// Every position of the game `choices` plays from `fen` (the start included): the
/// `i`-th move is `choices[i]` modulo the number of legal moves. Stops early at a
/// position without a legal move.
///
/// # Panics
/// If `fen` is not a valid position.
pub fn play(fen: &str, choices: &[u16]) -> Vec<Position> {
    let mut pos = Position::from_fen(fen).expect("a valid start FEN");
    let mut out = vec![pos.clone()];
    for &c in choices {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        pos.make_move(moves[c as usize % moves.len()]);
        out.push(pos.clone());
    }
    out
}

/// A random placement of `pieces` (FEN letters, Red's general and pieces first, then
/// Black's from the second `K`: `"KRKA"` is a chariot against a general with an advisor),
/// each on a free point it may stand on, and the side to move drawn at random; `None` if
/// the placement is not a legal position (facing generals, the side not to move in check).
///
/// ```
/// let mut rng = xq_core::SplitMix64::new(1);
/// let pos = std::iter::from_fn(|| Some(xq_testkit::random_position("KRKA", &mut rng)))
///     .flatten()
///     .next()
///     .unwrap();
/// let fen = pos.to_fen();
/// let mut letters: Vec<char> = fen.split(' ').next().unwrap().chars().filter(char::is_ascii_alphabetic).collect();
/// letters.sort();
/// assert_eq!(letters, ['K', 'R', 'a', 'k']);
/// ```
///
/// # Panics
/// If `pieces` has no second `K` or a letter that is not a piece.
pub fn random_position(pieces: &str, rng: &mut SplitMix64) -> Option<Position> {
    let second = pieces[1..].find('K').expect("two generals") + 1;
    let mut fen = Fen::empty();
    for (i, c) in pieces.chars().enumerate() {
        let c = if i < second {
            c
        } else {
            c.to_ascii_lowercase()
        };
        let piece = Piece::from_char(c).expect("a piece letter");
        let free: Vec<Square> = Square::ALL
            .into_iter()
            .filter(|&s| piece.can_stand_on(s) && fen.piece_on(s).is_none())
            .collect();
        fen.set(free[rng.below(free.len() as u64) as usize], Some(piece));
    }
    fen.side_to_move = if rng.below(2) == 0 {
        Color::Red
    } else {
        Color::Black
    };
    Position::try_from(&fen).ok()
}

/// `n` random legal positions of `pieces` (as [`random_position`]), drawn from `seed`,
/// half of them with the colours swapped: tables and their probes must answer for either
/// side attacking.
///
/// ```
/// let positions = xq_testkit::random_positions("KRKA", 10, 7);
/// assert_eq!(positions.len(), 10);
/// // The same seed, the same positions.
/// assert_eq!(positions, xq_testkit::random_positions("KRKA", 10, 7));
/// ```
///
/// # Panics
/// As [`random_position`].
pub fn random_positions(pieces: &str, n: usize, seed: u64) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        if let Some(pos) = random_position(pieces, &mut rng) {
            out.push(if rng.below(2) == 0 {
                pos
            } else {
                pos.color_flipped()
            });
        }
    }
    out
}

/// The repetition cases (`data/repetition.epd`): one per line,
/// `FEN ; moves m1 m2 ... ; result red-wins|black-wins|draw ; kind <tag> ; note <text>`.
pub const REPETITION: &str = include_str!("../../data/repetition.epd");

/// One case of `data/repetition.epd`: a game and the ruling Pikafish gives at its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepetitionCase {
    /// The line number in the file (from 1).
    pub line: usize,
    /// The start position.
    pub fen: String,
    /// The moves, ICCS.
    pub moves: Vec<String>,
    /// `red-wins`, `black-wins` or `draw`.
    pub result: String,
    /// What the case tests (`perpetual-check`, `chase-unprotected`, ...).
    pub kind: String,
    /// The explanation, with `[DISAGREEMENT: ...]` where other judges differ.
    pub note: String,
}

/// Every case of `data/repetition.epd`.
///
/// # Panics
/// If a line does not have the five fields of the format.
pub fn repetition_cases() -> Vec<RepetitionCase> {
    REPETITION
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let fields: Vec<&str> = l.split(" ; ").collect();
            let field = |n: usize, name: &str| -> String {
                fields
                    .get(n)
                    .and_then(|f| f.strip_prefix(name))
                    .unwrap_or_else(|| panic!("line {}: no field '{name}'", i + 1))
                    .trim()
                    .to_string()
            };
            RepetitionCase {
                line: i + 1,
                fen: fields[0].trim().to_string(),
                moves: field(1, "moves")
                    .split_whitespace()
                    .map(str::to_string)
                    .collect(),
                result: field(2, "result"),
                kind: field(3, "kind"),
                note: field(4, "note"),
            }
        })
        .collect()
}

/// A random game of up to 60 plies from the start position or a suite position, as the
/// list of its positions.
pub fn game() -> impl Strategy<Value = Vec<Position>> {
    game_of(60)
}

/// A random game of fewer than `max_plies` plies from the start position or a suite
/// position, as the list of its positions.
pub fn game_of(max_plies: usize) -> impl Strategy<Value = Vec<Position>> {
    (
        prop::sample::select(start_fens()),
        prop::collection::vec(any::<u16>(), 0..max_plies),
    )
        .prop_map(|(fen, choices)| play(fen, &choices))
}

/// The property-test configuration of every crate: `cases` cases, or as many as the
/// environment variable `PROPTEST_CASES` asks for (to run more, or fewer).
///
/// ```
/// let config = xq_testkit::proptest_config(16);
/// assert!(config.cases > 0); // 16 unless PROPTEST_CASES says otherwise
/// ```
pub fn proptest_config(cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(cases);
    Config {
        cases,
        ..Config::default()
    }
}

/// The index of the first occurrence of the last key of `keys` when that position now
/// occurs for the third time within the last `reversible` plies (the referee's threefold
/// repetition), written as plainly as possible, as a reference for the rules crate.
///
/// ```
/// let keys = [1, 2, 3, 4, 1, 2, 3, 4, 1];
/// assert_eq!(xq_testkit::threefold(&keys, 100), Some(0));
/// assert_eq!(xq_testkit::threefold(&keys[..5], 100), None);
/// ```
pub fn threefold(keys: &[u64], reversible: usize) -> Option<usize> {
    let n = keys.len().checked_sub(1)?;
    let same: Vec<usize> = (0..n)
        .filter(|&i| n - i <= reversible && (n - i) % 2 == 0 && keys[i] == keys[n])
        .collect();
    (same.len() >= 2).then(|| same[same.len() - 2])
}

/// The perpetual-check rule alone on the cycle from position `first` to the last
/// position of `checks` (`checks[i]`: the move to position `i` gave check): the side
/// that checked with every one of its moves, unless both did; `None` for neither or
/// both. `side_to_move` is the side to move at the last position.
///
/// ```
/// use xq_core::Color;
/// let checks = [false, false, true, false, true];
/// assert_eq!(xq_testkit::perpetual_checker(&checks, 0, Color::Red), Some(Color::Black));
/// assert_eq!(xq_testkit::perpetual_checker(&[false; 5], 0, Color::Red), None);
/// ```
pub fn perpetual_checker(checks: &[bool], first: usize, side_to_move: Color) -> Option<Color> {
    let n = checks.len() - 1;
    // The moves to n, n-2, ... were made by the side that just moved.
    let them = (first + 1..=n).rev().step_by(2).all(|j| checks[j]);
    let us = (first + 1..n).rev().step_by(2).all(|j| checks[j]);
    match (us, them) {
        (true, false) => Some(side_to_move),
        (false, true) => Some(!side_to_move),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_suite_and_the_start_are_all_there() {
        let fens = super::start_fens();
        let lines = super::SUITE
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
        assert_eq!(fens.len(), 1 + lines.count());
        for fen in fens {
            assert!(xq_core::Position::from_fen(fen).is_ok(), "{fen}");
        }
    }

    #[test]
    fn the_repetition_cases_parse() {
        let cases = super::repetition_cases();
        assert_eq!(cases.len(), 41);
        assert_eq!(cases[0].kind, "perpetual-check");
        assert_eq!(cases[0].moves.len(), 9);
        assert!(cases
            .iter()
            .all(|c| ["red-wins", "black-wins", "draw"].contains(&c.result.as_str())));
    }

    #[test]
    fn play_follows_the_choices() {
        let game = super::play(xq_core::START_FEN, &[0, 0]);
        assert_eq!(game.len(), 3);
        // Mated positions end the game early.
        let mated = super::play("R3k4/1R7/9/9/9/9/9/9/9/3K5 b", &[0, 1, 2]);
        assert_eq!(mated.len(), 1);
    }
}
