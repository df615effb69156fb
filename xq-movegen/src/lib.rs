#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod attack;
mod check;
mod game;
mod generate;
mod legality;
pub mod notation;
mod outcome;
pub mod rules;

pub use attack::attackers;
pub use check::{gives_check, in_check_after, CheckTest};
pub use game::{outcome, Game, GameError};
pub use generate::is_pseudo_legal;
pub use legality::{is_legal, try_play, IllegalMoveError, LegalityFilter};
pub use outcome::{GameResult, Outcome, ParseResultError, Termination};

use arrayvec::ArrayVec;
use generate::{generate, generate_where, ALL, CAPTURES, QUIETS};
use xq_core::{Move, Position};

/// More than the most moves any Xiangqi position has (the known maximum is well under 128).
pub const MAX_MOVES: usize = 128;

/// A list of moves on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// Which moves to generate (the crate docs have the table).
///
/// ```
/// use xq_core::Position;
/// use xq_movegen::{legal, pseudo_legal, Gen};
/// let pos = Position::startpos();
/// assert_eq!(legal(&pos, Gen::All).len(), 44);
/// assert_eq!(legal(&pos, Gen::Captures).len(), 2); // the cannons take the horses
/// assert_eq!(legal(&pos, Gen::Quiets).len(), 42);
/// assert!(legal(&pos, Gen::Evasions).is_empty()); // not in check
/// assert!(pseudo_legal(&pos, Gen::QuietChecks).is_empty());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Gen {
    /// Every move.
    All,
    /// The moves that capture a piece.
    Captures,
    /// The moves that capture nothing.
    Quiets,
    /// The moves that capture nothing and give check.
    QuietChecks,
    /// When the side to move is in check, the moves that may answer it (pseudo-legal: a
    /// general's move, or one that captures a checker, blocks a check or takes a cannon's
    /// screen away) or that do (legal); when it is not in check, none.
    Evasions,
}

impl Gen {
    /// Every kind, in the order of the crate docs' table.
    pub const ALL: [Gen; 5] = [
        Gen::All,
        Gen::Captures,
        Gen::Quiets,
        Gen::QuietChecks,
        Gen::Evasions,
    ];
}

/// The legal moves of the side to move: the same as [`legal`]`(pos, Gen::All)`.
///
/// ```
/// use xq_core::Position;
/// let pos = Position::startpos();
/// let moves = xq_movegen::legal_moves(&pos);
/// assert_eq!(moves.len(), 44);
/// assert!(moves.contains(&"h2e2".parse().unwrap()));
/// ```
#[inline]
pub fn legal_moves(pos: &Position) -> MoveList {
    legal(pos, Gen::All)
}

/// The legal moves of kind `gen`.
///
/// ```
/// use xq_core::Position;
/// use xq_movegen::{legal, Gen};
/// // Black's general on e9 is checked by the chariot on e1; it can step aside.
/// let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4R4/3K5 b").unwrap();
/// let ev: Vec<String> = legal(&pos, Gen::Evasions).iter().map(|m| m.to_string()).collect();
/// assert_eq!(ev, ["e9f9"]); // e9d9 would face Red's general on d0
/// ```
#[inline]
pub fn legal(pos: &Position, gen: Gen) -> MoveList {
    let mut list = MoveList::new();
    legal_into(pos, gen, &mut list);
    list
}

/// Appends the legal moves of kind `gen` to `list` (the form for searches that reuse one
/// list per ply; [`LegalityFilter::legal_into`] is the same for a search that already
/// knows whether the side to move is in check).
///
/// ```
/// use xq_core::Position;
/// use xq_movegen::{legal_into, legal_moves, Gen, MoveList};
/// // The red chariot e5 checks the black general e9.
/// let pos = Position::from_fen("4k4/9/9/9/4R4/9/9/9/9/3K5 b").unwrap();
/// let mut list = MoveList::new();
/// legal_into(&pos, Gen::Evasions, &mut list);
/// assert_eq!(list, legal_moves(&pos));
/// ```
///
/// # Panics
/// If `list` has fewer free slots than the moves to add (a list with room for
/// [`MAX_MOVES`] always has enough).
#[inline]
pub fn legal_into(pos: &Position, gen: Gen, list: &mut MoveList) {
    LegalityFilter::new(pos).legal_into(pos, gen, list);
}

impl LegalityFilter {
    /// Appends the legal moves of kind `gen` to `list`, as [`legal_into`] does, for the
    /// position this filter was built for: a search that knows whether it is in check
    /// builds the filter with [`LegalityFilter::with_check`] and saves the attack test.
    ///
    /// ```
    /// use xq_core::Position;
    /// use xq_movegen::{legal_moves, Gen, LegalityFilter, MoveList};
    /// let pos = Position::from_fen("4k4/9/9/9/4R4/9/9/9/9/3K5 b").unwrap();
    /// let mut list = MoveList::new();
    /// LegalityFilter::with_check(&pos, true).legal_into(&pos, Gen::Evasions, &mut list);
    /// assert_eq!(list, legal_moves(&pos));
    /// ```
    ///
    /// # Panics
    /// As [`legal_into`]; in debug builds, if `pos` is not the filter's position (in check
    /// where the filter was built out of check, or the reverse).
    #[inline(always)]
    pub fn legal_into(&self, pos: &Position, gen: Gen, list: &mut MoveList) {
        debug_assert_eq!(self.in_check(), pos.is_check());
        let start = list.len();
        match gen {
            Gen::All => self.legal_of_kind::<ALL>(pos, list),
            Gen::Captures => self.legal_of_kind::<CAPTURES>(pos, list),
            Gen::Quiets => self.legal_of_kind::<QUIETS>(pos, list),
            Gen::QuietChecks => {
                let test = CheckTest::new(pos);
                // In check, a quiet check must also answer the check.
                generate_where::<QUIETS>(pos, list, |from, to| {
                    self.may_evade(from, to) && test.may_give_check(from, to)
                });
                retain_from(list, start, |m| {
                    test.gives_check(pos, m) && self.is_legal(pos, m)
                });
            }
            Gen::Evasions => {
                if self.in_check() {
                    self.legal_of_kind::<ALL>(pos, list);
                }
            }
        }
    }

    /// The legal moves of one kind of capture or non-capture: in check only the moves
    /// that may answer it are made at all.
    #[inline(always)]
    fn legal_of_kind<const KIND: u8>(&self, pos: &Position, list: &mut MoveList) {
        let start = list.len();
        if self.in_check() {
            generate_where::<KIND>(pos, list, |from, to| self.may_evade(from, to));
        } else {
            generate::<KIND>(pos, list);
        }
        retain_from(list, start, |m| self.is_legal(pos, m));
    }
}

/// The pseudo-legal moves of kind `gen`: the rules of movement, ignoring whether the
/// mover's general is left attacked (engines test that as late as they can, with a
/// [`LegalityFilter`]).
///
/// ```
/// use xq_core::Position;
/// use xq_movegen::{pseudo_legal, Gen};
/// // The red cannon e1 shields its general from the black chariot: it may not leave the
/// // file, but pseudo-legal generation moves it anywhere.
/// let pos = Position::from_fen("3k5/9/9/9/4r4/9/9/9/4C4/4K4 w").unwrap();
/// assert_eq!(pseudo_legal(&pos, Gen::All).len(), 13);
/// assert_eq!(xq_movegen::legal_moves(&pos).len(), 4); // e1e2, e1e3, e1e4, e0f0
/// ```
#[inline]
pub fn pseudo_legal(pos: &Position, gen: Gen) -> MoveList {
    let mut list = MoveList::new();
    pseudo_legal_into(pos, gen, &mut list);
    list
}

/// Appends the pseudo-legal moves of kind `gen` to `list`. With [`Gen::Captures`] then
/// [`Gen::Quiets`], every pseudo-legal move exactly once, for searches that try captures
/// before they generate anything else.
///
/// ```
/// use xq_core::Position;
/// use xq_movegen::{gives_check, pseudo_legal_into, Gen, MoveList};
/// let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4N4/3KR4 w").unwrap();
/// let mut list = MoveList::new();
/// pseudo_legal_into(&pos, Gen::Captures, &mut list);
/// pseudo_legal_into(&pos, Gen::Quiets, &mut list);
/// let mut checks = MoveList::new();
/// pseudo_legal_into(&pos, Gen::QuietChecks, &mut checks);
/// list.retain(|m| gives_check(&pos, *m));
/// assert_eq!(checks, list);
/// assert_eq!(checks.len(), 6); // the horse uncovers the chariot e0, anywhere it goes
/// ```
///
/// # Panics
/// As [`legal_into`].
#[inline(always)]
pub fn pseudo_legal_into(pos: &Position, gen: Gen, list: &mut MoveList) {
    match gen {
        Gen::All => generate::<ALL>(pos, list),
        Gen::Captures => generate::<CAPTURES>(pos, list),
        Gen::Quiets => generate::<QUIETS>(pos, list),
        Gen::QuietChecks => quiet_checks_into(pos, list),
        Gen::Evasions => {
            if pos.is_check() {
                let filter = LegalityFilter::with_check(pos, true);
                generate_where::<ALL>(pos, list, |from, to| filter.may_evade(from, to));
            }
        }
    }
}

/// The number of legal moves (what perft counts at its last ply): the length of
/// [`legal_moves`], without building the list.
///
/// ```
/// use xq_core::Position;
/// assert_eq!(xq_movegen::count_legal(&Position::startpos()), 44);
/// ```
#[inline]
pub fn count_legal(pos: &Position) -> usize {
    let mut list = MoveList::new();
    generate::<ALL>(pos, &mut list);
    let filter = LegalityFilter::new(pos);
    list.iter().filter(|m| filter.is_legal(pos, **m)).count()
}

/// Appends the pseudo-legal quiet moves that give check: only the moves that
/// [`CheckTest`] cannot rule out at a glance are made and tested.
#[inline]
fn quiet_checks_into(pos: &Position, list: &mut MoveList) {
    let test = CheckTest::new(pos);
    let start = list.len();
    generate_where::<QUIETS>(pos, list, |from, to| test.may_give_check(from, to));
    retain_from(list, start, |m| test.gives_check(pos, m));
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind, legal and pseudo-legal, against its definition by filtering every
    /// pseudo-legal move, over the positions of random games (in check and not).
    #[test]
    fn every_kind_is_its_definition() {
        let mut in_check = 0;
        for fen in xq_testkit::start_fens() {
            let choices: Vec<u16> = (0..60u16).map(|i| i.wrapping_mul(7919)).collect();
            for pos in xq_testkit::play(fen, &choices) {
                in_check += usize::from(pos.is_check());
                let all = pseudo_legal(&pos, Gen::All);
                let capture = |m: &Move| !pos.is_empty(m.to());
                let check = |m: &Move| gives_check(&pos, *m);
                let legal_ = |m: &Move| is_legal(&pos, *m);
                let evasion = |m: &Move| pos.is_check() && legal_(m);
                let want = |keep: &dyn Fn(&Move) -> bool| -> MoveList {
                    all.iter().copied().filter(|m| keep(m)).collect()
                };
                assert_eq!(legal(&pos, Gen::All), want(&legal_), "{pos}");
                assert_eq!(
                    legal(&pos, Gen::Captures),
                    want(&|m| legal_(m) && capture(m))
                );
                assert_eq!(
                    legal(&pos, Gen::Quiets),
                    want(&|m| legal_(m) && !capture(m))
                );
                assert_eq!(
                    legal(&pos, Gen::QuietChecks),
                    want(&|m| legal_(m) && !capture(m) && check(m)),
                    "{pos}"
                );
                assert_eq!(legal(&pos, Gen::Evasions), want(&evasion), "{pos}");
                assert_eq!(pseudo_legal(&pos, Gen::Captures), want(&capture));
                assert_eq!(pseudo_legal(&pos, Gen::Quiets), want(&|m| !capture(m)));
                assert_eq!(
                    pseudo_legal(&pos, Gen::QuietChecks),
                    want(&|m| !capture(m) && check(m))
                );
                // Pseudo-legal evasions: a subset of the moves that holds every legal one.
                let ev = pseudo_legal(&pos, Gen::Evasions);
                assert!(ev.iter().all(|m| all.contains(m)));
                assert!(legal(&pos, Gen::Evasions).iter().all(|m| ev.contains(m)));
                if !pos.is_check() {
                    assert!(ev.is_empty());
                }
                assert_eq!(count_legal(&pos), legal_moves(&pos).len());
            }
        }
        assert!(in_check > 50, "{in_check}");
    }
}
