//! Legality: which pseudo-legal moves leave the mover's general safe, cheaply.

use std::fmt;
use xq_core::attacks::{Direction, SquareSet, HORSE_ATTACKS};
use xq_core::{Color, Move, Piece, PieceKind, Position, Square, Undo};

use crate::check::insert_ray;
use crate::generate::is_pseudo_legal;

/// What a move must do to answer a single check: land on one of `targets` (capture the
/// checker, block its line or its horse leg, add a second screen in front of a cannon)
/// or move the cannon's screen away. With two checkers only a general move can help, and
/// every move is tested in full.
#[derive(Copy, Clone, Debug, Default)]
struct Evasion {
    targets: SquareSet,
    screen: Option<Square>,
    double: bool,
}

impl Evasion {
    #[inline(always)]
    fn may_resolve(&self, from: Square, to: Square) -> bool {
        self.double || Some(from) == self.screen || self.targets.contains(to)
    }

    /// The checks on the general of the side to move, standing on `k`.
    fn new(pos: &Position, k: Square) -> Evasion {
        let them = !pos.side_to_move();
        let enemy = |sq: Square, kind: PieceKind| pos.holds(sq, Piece::new(them, kind));
        let mut e = Evasion::default();
        let mut checkers = 0;
        for step in [
            xq_core::attacks::Step::forward(pos.side_to_move()),
            xq_core::attacks::Step::LEFT,
            xq_core::attacks::Step::RIGHT,
        ] {
            if let Some(sq) = k.offset(step).filter(|&sq| enemy(sq, PieceKind::Soldier)) {
                checkers += 1;
                e.targets.insert(sq);
            }
        }
        for (leg, horses) in HORSE_ATTACKS {
            let Some(leg) = k.offset(leg).filter(|&leg| pos.is_empty(leg)) else {
                continue;
            };
            for step in horses {
                if let Some(sq) = k.offset(step).filter(|&sq| enemy(sq, PieceKind::Horse)) {
                    checkers += 1;
                    e.targets.insert(sq);
                    e.targets.insert(leg);
                }
            }
        }
        for dir in Direction::ALL {
            let mut along = pos.occupied_along(k, dir);
            let Some(first) = along.next() else {
                continue;
            };
            let checker = if enemy(first, PieceKind::Chariot)
                || (dir.is_vertical() && enemy(first, PieceKind::General))
            {
                first
            } else {
                match along.next() {
                    Some(second) if enemy(second, PieceKind::Cannon) => {
                        e.screen = Some(first);
                        second
                    }
                    _ => continue,
                }
            };
            checkers += 1;
            insert_ray(&mut e.targets, k, dir, Some(checker));
        }
        e.double = checkers > 1;
        e
    }
}

/// Out of check: the own pieces whose leaving their square may expose the general
/// (pinned against a chariot or the enemy general, one of two screens in front of a
/// cannon, the leg of a horse aimed at the general), and the empty squares where a piece
/// would become the screen of a cannon aimed at the general. Every other move by a
/// piece other than the general is legal.
#[derive(Copy, Clone, Debug, Default)]
struct Pins {
    from: SquareSet,
    to: SquareSet,
}

impl Pins {
    fn new(pos: &Position, k: Square) -> Pins {
        let us = pos.side_to_move();
        let them = !us;
        let enemy = |sq: Square, kind: PieceKind| pos.holds(sq, Piece::new(them, kind));
        let mine = |sq: Square| pos.is_occupied_by(sq, us);
        let mut p = Pins::default();
        for dir in Direction::ALL {
            let mut along = pos.occupied_along(k, dir);
            let Some(first) = along.next() else {
                continue;
            };
            if enemy(first, PieceKind::Cannon) {
                // A piece landing between would become the cannon's screen.
                let mut sq = k;
                while let Some(next) = sq.offset(dir.step()).filter(|&n| n != first) {
                    p.to.insert(next);
                    sq = next;
                }
            }
            let Some(second) = along.next() else {
                continue;
            };
            if mine(first)
                && (enemy(second, PieceKind::Chariot)
                    || (dir.is_vertical() && enemy(second, PieceKind::General)))
            {
                p.from.insert(first);
            }
            if along
                .next()
                .is_some_and(|third| enemy(third, PieceKind::Cannon))
            {
                for screen in [first, second] {
                    if mine(screen) {
                        p.from.insert(screen);
                    }
                }
            }
        }
        for (leg, horses) in HORSE_ATTACKS {
            if let Some(leg) = k.offset(leg).filter(|&leg| mine(leg)) {
                if horses
                    .iter()
                    .any(|&h| k.offset(h).is_some_and(|sq| enemy(sq, PieceKind::Horse)))
                {
                    p.from.insert(leg);
                }
            }
        }
        p
    }
}

/// A cheap legality test for pseudo-legal moves of one position, for searches that
/// generate pseudo-legal moves and test each only when it is about to be tried (most
/// nodes are cut off after a move or two).
///
/// ```
/// use xq_core::Position;
/// use xq_movegen::{legal_moves, pseudo_legal, Gen, LegalityFilter};
/// // Red's cannon on e1 stands between the two generals: moving it off the file would
/// // let them face each other, so it may only move along the file.
/// let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4C4/4K4 w").unwrap();
/// let filter = LegalityFilter::new(&pos);
/// let legal: Vec<_> = pseudo_legal(&pos, Gen::All).into_iter().filter(|&m| filter.is_legal(&pos, m)).collect();
/// assert_eq!(legal.len(), legal_moves(&pos).len());
/// assert!(!filter.is_legal(&pos, "e1d1".parse().unwrap()));
/// assert!(filter.is_legal(&pos, "e1e5".parse().unwrap()));
/// ```
#[derive(Copy, Clone, Debug)]
pub struct LegalityFilter {
    general: Square,
    in_check: bool,
    evasion: Evasion,
    pins: Option<Pins>,
}

impl LegalityFilter {
    /// The filter for the side to move in `pos`.
    #[inline(always)]
    pub fn new(pos: &Position) -> LegalityFilter {
        LegalityFilter::with_check(pos, pos.is_check())
    }

    /// The filter when the caller already knows whether the side to move is in check
    /// (saves an attack test). `in_check` must be right, or legal moves may be refused
    /// and illegal ones accepted.
    ///
    /// # Panics
    /// In debug builds, if `in_check` is wrong.
    #[inline]
    pub fn with_check(pos: &Position, in_check: bool) -> LegalityFilter {
        debug_assert_eq!(in_check, pos.is_check());
        let general = pos.general(pos.side_to_move());
        let (evasion, pins) = if in_check {
            (Evasion::new(pos, general), None)
        } else {
            (Evasion::default(), Some(Pins::new(pos, general)))
        };
        LegalityFilter {
            general,
            in_check,
            evasion,
            pins,
        }
    }

    /// A filter that skips the per-position pin analysis: cheaper to build, slower per
    /// move. The better choice when only a few moves will be tested (captures in a
    /// quiescence search). Out of check only.
    ///
    /// # Panics
    /// In debug builds, if the side to move is in check.
    #[inline]
    pub fn without_pins(pos: &Position) -> LegalityFilter {
        debug_assert!(!pos.is_check());
        LegalityFilter {
            general: pos.general(pos.side_to_move()),
            in_check: false,
            evasion: Evasion::default(),
            pins: None,
        }
    }

    /// Is the side to move in check?
    #[inline(always)]
    pub(crate) fn in_check(&self) -> bool {
        self.in_check
    }

    /// In check, may a move from `from` to `to` be legal? False only for a move by a
    /// piece other than the general that neither captures the checker, nor blocks it,
    /// nor takes a cannon's screen away (such a move is never legal). Out of check, true.
    #[inline(always)]
    pub(crate) fn may_evade(&self, from: Square, to: Square) -> bool {
        !self.in_check || from == self.general || self.evasion.may_resolve(from, to)
    }

    /// Is the pseudo-legal move `m` legal? (For any other move use [`is_legal`].)
    #[inline(always)]
    pub fn is_legal(&self, pos: &Position, m: Move) -> bool {
        // The common cases, answered inline: out of check, a piece that is no pin's and
        // lands on no cannon line; in check, a piece other than the general that can
        // neither capture the checker, block it, nor take a cannon's screen away.
        let (from, to) = (m.from(), m.to());
        if let Some(pins) = &self.pins {
            if from != self.general && !pins.from.contains(from) && !pins.to.contains(to) {
                return true;
            }
        } else if !self.may_evade(from, to) {
            return false;
        }
        self.is_legal_slow(pos, m)
    }

    /// [`LegalityFilter::is_legal`] past its inline answers: with the pin analysis, or in
    /// check, every move that gets here needs the attack test.
    #[inline(never)]
    fn is_legal_slow(&self, pos: &Position, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let k = self.general;
        if from != k && !self.in_check && self.pins.is_none() {
            // Without the pin analysis: only a move touching the general's lines or
            // leaving a horse leg next to it can expose it.
            let on_lines = |sq: Square| sq.file() == k.file() || sq.rank() == k.rank();
            let leg = from.file().index().abs_diff(k.file().index()) == 1
                && from.rank().index().abs_diff(k.rank().index()) == 1;
            if !on_lines(from) && !on_lines(to) && !leg {
                return true;
            }
        }
        !pos.general_attacked_after(m)
    }
}

/// Is `m` a legal move in `pos`? Works for any move at all (a move from a hash table or
/// a killer slot, or typed by a user), checking every rule.
///
/// ```
/// use xq_core::Position;
/// let pos = Position::startpos();
/// assert!(xq_movegen::is_legal(&pos, "h2e2".parse().unwrap()));
/// assert!(xq_movegen::is_legal(&pos, "b0c2".parse().unwrap()));
/// assert!(!xq_movegen::is_legal(&pos, "b0d1".parse().unwrap())); // the horse's leg c0 is blocked
/// assert!(!xq_movegen::is_legal(&pos, "e3e5".parse().unwrap()));
/// ```
pub fn is_legal(pos: &Position, m: Move) -> bool {
    is_pseudo_legal(pos, m) && !pos.general_attacked_after(m)
}

/// Why a move could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMoveError {
    /// There is no piece of the side to move on the origin square.
    NoPieceToMove(Move),
    /// The piece cannot move that way.
    BadMovement(Move),
    /// The move would leave the mover's general attacked (or facing the other general).
    LeavesGeneralAttacked(Move),
}

impl fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMoveError::NoPieceToMove(m) => {
                write!(
                    f,
                    "illegal move {m}: no piece of the side to move on {}",
                    m.from()
                )
            }
            IllegalMoveError::BadMovement(m) => {
                write!(
                    f,
                    "illegal move {m}: the piece on {} cannot move there",
                    m.from()
                )
            }
            IllegalMoveError::LeavesGeneralAttacked(m) => {
                write!(f, "illegal move {m}: it leaves the general in check")
            }
        }
    }
}

impl std::error::Error for IllegalMoveError {}

/// Plays `m` if it is legal.
///
/// # Errors
/// An [`IllegalMoveError`] saying why the move is not legal; the position is unchanged.
///
/// ```
/// use xq_core::Position;
/// use xq_movegen::{try_play, IllegalMoveError};
/// let mut pos = Position::startpos();
/// assert!(try_play(&mut pos, "h2e2".parse().unwrap()).is_ok());
/// let m = "e2e9".parse().unwrap();
/// assert_eq!(try_play(&mut pos, m), Err(IllegalMoveError::NoPieceToMove(m)));
/// ```
pub fn try_play(pos: &mut Position, m: Move) -> Result<Undo, IllegalMoveError> {
    let us: Color = pos.side_to_move();
    if pos.color_on(m.from()) != Some(us) {
        return Err(IllegalMoveError::NoPieceToMove(m));
    }
    if !is_pseudo_legal(pos, m) {
        return Err(IllegalMoveError::BadMovement(m));
    }
    if pos.general_attacked_after(m) {
        return Err(IllegalMoveError::LeavesGeneralAttacked(m));
    }
    Ok(pos.make_move(m))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{pseudo_legal, Gen};

    /// The filter answers as the attack test does, for every pseudo-legal move of the
    /// positions of random games, in check and out of it, and of two positions where a
    /// shortcut for single checks (capture the checker or block it, the piece not
    /// pinned) went wrong while it was tried.
    #[test]
    fn the_filter_answers_as_the_attack_test() {
        let mut in_check = 0;
        let mut fens: Vec<String> = vec![
            // The black horse h9 may not take the red chariot g7 that checks: the red
            // cannon i7 would have the horse as its screen.
            "2ba2bn1/4a4/2rk2R1C/p1p1p4/7c1/P1PCP1B2/6P1P/N8/3K5/2BA1A3 b".into(),
            // The red chariot a3 may not take the horse e3, the screen of the cannon e5
            // that checks: the chariot would be the screen.
            "3k5/9/9/9/4c4/9/R3n4/9/9/4K4 w".into(),
        ];
        fens.extend(xq_testkit::start_fens().into_iter().map(String::from));
        for fen in &fens {
            let choices: Vec<u16> = (0..80u16).map(|i| i.wrapping_mul(31_337)).collect();
            for pos in xq_testkit::play(fen, &choices) {
                let filter = LegalityFilter::new(&pos);
                in_check += usize::from(pos.is_check());
                for m in pseudo_legal(&pos, Gen::All) {
                    let expected = !pos.general_attacked_after(m);
                    assert_eq!(filter.is_legal(&pos, m), expected, "{m} in {pos}");
                }
            }
        }
        assert!(in_check > 50, "{in_check}");
    }
}
