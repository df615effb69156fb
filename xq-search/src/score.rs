//! Search values and the scores reported to users.
//!
//! Inside the search a value is an `i32` in centipawns from the side to move's point of
//! view. Mates are encoded relative to the root: [`mate_in`]`(ply)` is the value of
//! delivering mate `ply` plies from the root, [`mated_in`]`(ply)` of being mated there.
//! The transposition table stores mate values relative to the node instead (it converts
//! them on the way in and out), because the same position can be reached at different
//! distances from the root.

use std::fmt;

/// The deepest the search ever goes (plies from the root).
pub const MAX_PLY: usize = 128;
/// Value of mate at the root.
pub const MATE: i32 = 30_000;
/// Larger than any value the search returns.
pub const INFINITE: i32 = 31_000;
/// Values at or beyond this (in absolute value) are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// The score of an endgame table's win, just below the mate scores: a win found in the
/// tables at ply `p` scores `TB_WIN - p`, so that a nearer table win is preferred and
/// every mate the search proves ranks above it.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// The score of a table's win by the rules of perpetual check and chase (the loser avoids
/// mate only by checking, or chasing one piece, with every move): found at ply `p` it
/// scores `TB_RULE_WIN - p`, below every table mate and far above any evaluation.
pub const TB_RULE_WIN: i32 = TB_WIN - 2 * MAX_PLY as i32;

/// The value of giving mate `ply` plies from the root.
#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// The value of being mated `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// A value as game comments write it, in pawns or moves to mate: `+0.35`, `-1.20`,
/// `0.00`, `#3` (mates in 3), `#-2` (is mated in 2); a mate on the board is `#0` (given)
/// or `#-0` (received).
///
/// ```
/// use xq_search::score::{mate_in, mated_in, pawns};
/// assert_eq!(pawns(35), "+0.35");
/// assert_eq!(pawns(-120), "-1.20");
/// assert_eq!(pawns(0), "0.00");
/// assert_eq!(pawns(-5), "-0.05");
/// assert_eq!(pawns(mate_in(5)), "#3");
/// assert_eq!(pawns(mated_in(4)), "#-2");
/// assert_eq!(pawns(mate_in(0)), "#0");
/// assert_eq!(pawns(mated_in(0)), "#-0");
/// ```
pub fn pawns(value: i32) -> String {
    if is_mate(value) {
        let moves = (MATE - value.abs() + 1) / 2;
        let sign = if value > 0 { "" } else { "-" };
        format!("#{sign}{moves}")
    } else {
        let sign = match value.signum() {
            1 => "+",
            -1 => "-",
            _ => "",
        };
        let v = value.abs();
        format!("{sign}{}.{:02}", v / 100, v % 100)
    }
}

/// Is `v` a mate value (for either side)?
#[inline]
pub const fn is_mate(v: i32) -> bool {
    v >= MATE_BOUND || v <= -MATE_BOUND
}

/// Converts a root-relative value found `ply` plies from the root into the node-relative
/// form the transposition table keeps: a mate in 5 plies from the root found at ply 2
/// is a mate in 3 plies from that node, wherever it is reached again.
#[inline]
pub(crate) const fn to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

/// The inverse of [`to_tt`] for an entry probed `ply` plies from the root.
#[inline]
pub(crate) const fn from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v - ply as i32
    } else if v <= -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

/// A score as engines report it: centipawns, or mate in a number of moves.
///
/// ```
/// use xq_search::{Score, score};
/// assert_eq!(Score::from_value(score::mate_in(1)), Score::Mate(1));
/// assert_eq!(Score::from_value(score::mate_in(5)), Score::Mate(3));
/// assert_eq!(Score::from_value(score::mated_in(4)), Score::Mate(-2));
/// assert_eq!(Score::from_value(35), Score::Cp(35));
/// assert_eq!(Score::Mate(-2).to_string(), "mate -2");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in this many moves (the side to move mates when positive, is mated when
    /// negative; `Mate(0)` when the side to move is mated already).
    Mate(i32),
}

impl Default for Score {
    /// Level: `Cp(0)`.
    fn default() -> Score {
        Score::Cp(0)
    }
}

impl Score {
    /// The reported form of a root-relative search value.
    pub fn from_value(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Cp(v)
        }
    }
}

impl Score {
    /// A root value of this score: centipawns as they are, a mate in `n` moves as a mate
    /// in `2n - 1` plies, being mated in `n` moves as being mated in `2n` plies (`Mate(0)`:
    /// mated at the root). [`Score::from_value`] gives the score back.
    ///
    /// ```
    /// use xq_search::{score, Score};
    /// assert_eq!(Score::Mate(3).to_value(), score::mate_in(5));
    /// assert_eq!(Score::Mate(-2).to_value(), score::mated_in(4));
    /// assert_eq!(Score::Mate(0).to_value(), score::mated_in(0));
    /// for s in [Score::Cp(-35), Score::Mate(1), Score::Mate(-1), Score::Mate(0)] {
    ///     assert_eq!(Score::from_value(s.to_value()), s);
    /// }
    /// ```
    pub fn to_value(self) -> i32 {
        let far = (MAX_PLY as i32 + 1) / 2;
        match self {
            Score::Cp(v) => v.clamp(-MATE_BOUND + 1, MATE_BOUND - 1),
            Score::Mate(n) if n > 0 => mate_in((2 * n.min(far) - 1) as usize),
            Score::Mate(n) => mated_in((-2 * n.max(-far)) as usize),
        }
    }
}

/// A score that is not one, in [`Score`]'s `FromStr`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseScoreError {
    /// The text given.
    pub text: String,
}

impl fmt::Display for ParseScoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a score (cp N or mate N)", self.text)
    }
}

impl std::error::Error for ParseScoreError {}

impl std::str::FromStr for Score {
    type Err = ParseScoreError;

    /// A score as UCI's `info` line writes it after `score`, and `Display` writes it:
    /// `cp 35`, `mate -2`.
    ///
    /// ```
    /// use xq_search::Score;
    /// assert_eq!("cp 35".parse(), Ok(Score::Cp(35)));
    /// assert_eq!(" mate -2 ".parse(), Ok(Score::Mate(-2)));
    /// assert_eq!(Score::Mate(4).to_string().parse(), Ok(Score::Mate(4)));
    /// assert_eq!(
    ///     "cp x".parse::<Score>().unwrap_err().to_string(),
    ///     "'cp x' is not a score (cp N or mate N)"
    /// );
    /// ```
    fn from_str(text: &str) -> Result<Score, ParseScoreError> {
        let bad = || ParseScoreError {
            text: text.to_string(),
        };
        let mut words = text.split_whitespace();
        let (Some(kind), Some(n), None) = (words.next(), words.next(), words.next()) else {
            return Err(bad());
        };
        let n: i32 = n.parse().map_err(|_| bad())?;
        match kind {
            "cp" => Ok(Score::Cp(n)),
            "mate" => Ok(Score::Mate(n)),
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for Score {
    /// UCI style: `cp 35` or `mate -2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(v) => write!(f, "cp {v}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}
