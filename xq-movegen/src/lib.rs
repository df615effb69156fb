#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod attack;
pub mod chase;
mod check;
pub mod game;
mod generate;
mod legality;
pub mod notation;
pub mod pgn;
pub mod record;
pub mod xqf;

pub use attack::attackers;
pub use check::{gives_check, in_check, in_check_after, CheckTest};
pub use game::{adjudicate, Adjudication, Game, GameError, GameResult, Reason};
pub use generate::is_pseudo_legal;
pub use legality::{is_legal, try_play, IllegalMoveError, LegalityFilter};

use arrayvec::ArrayVec;
use generate::{generate, generate_where, ALL, CAPTURES, QUIETS};
use xq_core::{Move, Position};

/// More than the most moves any Xiangqi position has (the known maximum is well under 128).
pub const MAX_MOVES: usize = 128;

/// A list of moves on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

#[inline(always)]
fn generate_legal_kind<const KIND: u8>(pos: &Position, list: &mut MoveList) {
    let filter = LegalityFilter::new(pos);
    if filter.in_check() {
        // Only the moves that may answer the check are made at all.
        generate_where::<KIND>(pos, list, |from, to| filter.may_evade(from, to));
    } else {
        generate::<KIND>(pos, list);
    }
    list.retain(|m| filter.is_legal(pos, *m));
}

/// All legal moves of the side to move.
///
/// ```
/// use xq_core::Position;
/// let pos = Position::startpos();
/// let moves = xq_movegen::legal_moves(&pos);
/// assert_eq!(moves.len(), 44);
/// assert!(moves.contains(&"h2e2".parse().unwrap()));
/// ```
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_legal_kind::<ALL>(pos, &mut list);
    list
}

/// Legal captures only.
///
/// ```
/// use xq_core::Position;
/// let pos = Position::startpos();
/// let caps: Vec<String> = xq_movegen::legal_captures(&pos).iter().map(|m| m.to_string()).collect();
/// assert_eq!(caps, ["b2b9", "h2h9"]);
/// ```
pub fn legal_captures(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_legal_kind::<CAPTURES>(pos, &mut list);
    list
}

/// Legal non-captures only.
///
/// ```
/// use xq_core::Position;
/// assert_eq!(xq_movegen::legal_quiets(&Position::startpos()).len(), 42);
/// ```
pub fn legal_quiets(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_legal_kind::<QUIETS>(pos, &mut list);
    list
}

/// The moves that get the side to move out of check: all its legal moves when it is in
/// check, none otherwise (see [`legal_evasions_into`]).
///
/// ```
/// use xq_core::Position;
/// // Black's general on e9 is checked by the chariot on e1; it can step aside.
/// let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4R4/3K5 b").unwrap();
/// let mut ev: Vec<String> = xq_movegen::evasions(&pos).iter().map(|m| m.to_string()).collect();
/// ev.sort();
/// assert_eq!(ev, ["e9f9"]); // e9d9 would face Red's general on d0
/// assert!(xq_movegen::evasions(&Position::startpos()).is_empty());
/// ```
pub fn evasions(pos: &Position) -> MoveList {
    if pos.is_check() {
        legal_moves(pos)
    } else {
        MoveList::new()
    }
}

/// Pseudo-legal moves (the rules of movement, ignoring whether the general is left
/// attacked). Mostly useful for testing; engines want [`legal_moves`].
pub fn pseudo_legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate::<ALL>(pos, &mut list);
    list
}

/// Appends the pseudo-legal moves to `list` (the allocation-free, copy-free form of
/// [`pseudo_legal_moves`] for searches that reuse one list per ply).
///
/// # Panics
/// If `list` has fewer than about 120 free slots (a position never has more).
#[inline]
pub fn pseudo_legal_moves_into(pos: &Position, list: &mut MoveList) {
    generate::<ALL>(pos, list);
}

/// Appends the pseudo-legal captures to `list` (see [`pseudo_legal_moves_into`]).
///
/// # Panics
/// As [`pseudo_legal_moves_into`].
#[inline]
pub fn pseudo_legal_captures_into(pos: &Position, list: &mut MoveList) {
    generate::<CAPTURES>(pos, list);
}

/// Appends the pseudo-legal non-captures to `list` (see [`pseudo_legal_moves_into`]): with
/// [`pseudo_legal_captures_into`], every pseudo-legal move exactly once, for searches that
/// try captures before they generate anything else.
///
/// ```
/// use xq_core::Position;
/// use xq_movegen::{pseudo_legal_captures_into, pseudo_legal_quiets_into, MoveList};
/// let pos = Position::startpos();
/// let mut list = MoveList::new();
/// pseudo_legal_captures_into(&pos, &mut list);
/// pseudo_legal_quiets_into(&pos, &mut list);
/// assert_eq!(list.len(), 44);
/// ```
///
/// # Panics
/// As [`pseudo_legal_moves_into`].
#[inline]
pub fn pseudo_legal_quiets_into(pos: &Position, list: &mut MoveList) {
    generate::<QUIETS>(pos, list);
}

/// Appends to `list` the pseudo-legal non-captures that give check, in the order of
/// [`pseudo_legal_quiets_into`]: only the moves that [`CheckTest`] cannot rule out at a
/// glance are made and tested (a search's quiet checks, without making every quiet
/// move).
///
/// ```
/// use xq_core::Position;
/// use xq_movegen::{gives_check, pseudo_legal_quiet_checks_into, pseudo_legal_quiets_into, MoveList};
/// let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4N4/3KR4 w").unwrap();
/// let mut checks = MoveList::new();
/// pseudo_legal_quiet_checks_into(&pos, &mut checks);
/// let mut quiets = MoveList::new();
/// pseudo_legal_quiets_into(&pos, &mut quiets);
/// quiets.retain(|m| gives_check(&pos, *m));
/// assert_eq!(checks, quiets);
/// assert_eq!(checks.len(), 6); // the horse uncovers the chariot e0, anywhere it goes
/// ```
///
/// # Panics
/// As [`pseudo_legal_moves_into`].
#[inline]
pub fn pseudo_legal_quiet_checks_into(pos: &Position, list: &mut MoveList) {
    let test = CheckTest::new(pos);
    let start = list.len();
    generate_where::<QUIETS>(pos, list, |from, to| test.may_give_check(from, to));
    retain_from(list, start, |m| test.gives_check(pos, m));
}

/// Pseudo-legal captures only (see [`pseudo_legal_moves`]).
pub fn pseudo_legal_captures(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate::<CAPTURES>(pos, &mut list);
    list
}

/// Appends every legal move of the side to move, which must be in check, to `list`: the
/// moves [`legal_moves`] finds, in the same order, without making the moves that cannot
/// answer the check.
///
/// ```
/// use xq_core::Position;
/// use xq_movegen::{legal_evasions_into, legal_moves, MoveList};
/// // The red chariot e5 checks the black general e9.
/// let pos = Position::from_fen("4k4/9/9/9/4R4/9/9/9/9/3K5 b").unwrap();
/// let mut list = MoveList::new();
/// legal_evasions_into(&pos, &mut list);
/// assert_eq!(list, legal_moves(&pos));
/// assert_eq!(list.len(), 1); // e9f9 (e9d9 would face Red's general on d0)
/// ```
///
/// # Panics
/// As [`pseudo_legal_moves_into`]; in debug builds, if the side to move is not in check.
#[inline]
pub fn legal_evasions_into(pos: &Position, list: &mut MoveList) {
    let filter = LegalityFilter::with_check(pos, true);
    let start = list.len();
    generate_where::<ALL>(pos, list, |from, to| filter.may_evade(from, to));
    retain_from(list, start, |m| filter.is_legal(pos, m));
}

/// Keeps, of the moves of `list` from `start` on, those `keep` accepts, in order (the
/// ones before `start` are the caller's).
#[inline(always)]
fn retain_from(list: &mut MoveList, start: usize, keep: impl Fn(Move) -> bool) {
    let mut kept = start;
    for i in start..list.len() {
        if keep(list[i]) {
            list[kept] = list[i];
            kept += 1;
        }
    }
    list.truncate(kept);
}

/// The number of legal moves (what perft counts at its last ply).
#[inline]
pub fn count_legal(pos: &Position) -> usize {
    let mut list = MoveList::new();
    generate::<ALL>(pos, &mut list);
    let filter = LegalityFilter::new(pos);
    list.iter().filter(|m| filter.is_legal(pos, **m)).count()
}

/// How a game ends when the side to move has no legal move. In Xiangqi both are losses
/// for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// No legal move and in check: the side to move is mated.
    Checkmate,
    /// No legal move and not in check: the side to move has lost too (unlike chess).
    Stalemate,
}

/// `Some(outcome)` when the side to move has no legal move, `None` otherwise.
///
/// ```
/// use xq_core::Position;
/// use xq_movegen::{outcome, Outcome};
/// let mate = Position::from_fen("R3k4/1R7/9/9/9/9/9/9/9/3K5 b").unwrap();
/// assert_eq!(outcome(&mate), Some(Outcome::Checkmate));
/// assert_eq!(outcome(&Position::startpos()), None);
/// ```
pub fn outcome(pos: &Position) -> Option<Outcome> {
    if count_legal(pos) > 0 {
        None
    } else if pos.is_check() {
        Some(Outcome::Checkmate)
    } else {
        Some(Outcome::Stalemate)
    }
}
