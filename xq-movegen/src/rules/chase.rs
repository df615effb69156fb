//! What counts as a chase, and what a move newly chases (see the [module docs](super)).

use crate::attack::attackers;
use crate::generate::{generate, CAPTURES};
use crate::{is_legal, is_pseudo_legal, MoveList};
use xq_core::attacks::SquareSet;
use xq_core::{Color, Move, PieceKind, Position};

/// The enemy pieces that `by` chases in `pos` as it stands, whoever is to move (the rules
/// of the [module docs](super)).
///
/// ```
/// use xq_core::{Color, Position, Square};
/// use xq_movegen::rules::chase_targets;
/// // On h6 Red's chariot attacks only the black soldier on a6, which has not crossed the
/// // river: no chase.
/// let pos = Position::from_fen("9/5k3/1n7/p6R1/9/9/8P/9/9/3K5 w").unwrap();
/// assert!(chase_targets(&pos, Color::Red).is_empty());
/// // On h7 it attacks the unprotected black horse on b7: a chase, whoever is to move.
/// let pos = Position::from_fen("9/5k3/1n5R1/p8/9/9/8P/9/9/3K5 b").unwrap();
/// assert_eq!(chase_targets(&pos, Color::Red).iter().collect::<Vec<_>>(), [Square::B7]);
/// assert!(chase_targets(&pos, Color::Black).is_empty());
/// ```
pub fn chase_targets(pos: &Position, by: Color) -> SquareSet {
    let mut p = pos.clone();
    if p.side_to_move() != by {
        p.make_null();
    }
    targets(&mut p)
}

/// The enemy pieces that the legal move `m` newly chases: chased after it, not before, by
/// squares after the move. An illegal move chases nothing.
///
/// ```
/// use xq_core::{Position, Square};
/// use xq_movegen::rules::chases;
/// let pos = Position::from_fen("9/5k3/1n7/p6R1/9/9/8P/9/9/3K5 w").unwrap();
/// // h6h7 attacks the unprotected horse on b7; h6h8 attacks nothing.
/// assert_eq!(chases(&pos, "h6h7".parse().unwrap()).iter().collect::<Vec<_>>(), [Square::B7]);
/// assert!(chases(&pos, "h6h8".parse().unwrap()).is_empty());
/// ```
pub fn chases(pos: &Position, m: Move) -> SquareSet {
    if !is_legal(pos, m) {
        return SquareSet::EMPTY;
    }
    play_and_chase(&mut pos.clone(), m)
}

/// Plays the legal move `m` on `p` and returns what it newly chases.
pub(super) fn play_and_chase(p: &mut Position, m: Move) -> SquareSet {
    let before = targets(p);
    p.make_move(m);
    let undo = p.make_null();
    let after = targets(p);
    p.unmake_null(undo);
    after.iter().filter(|&sq| !before.contains(sq)).collect()
}

/// The enemy pieces the side to move chases in `p` (left as it was found).
fn targets(p: &mut Position) -> SquareSet {
    use PieceKind::*;
    let by = p.side_to_move();
    let mut captures = MoveList::new();
    generate::<CAPTURES>(p, &mut captures);
    let mut set = SquareSet::EMPTY;
    for m in captures {
        let (from, to) = (m.from(), m.to());
        let (Some(attacker), Some(victim)) = (p.piece_on(from), p.piece_on(to)) else {
            continue;
        };
        let (attacker, victim) = (attacker.kind, victim.kind);
        if matches!(attacker, General | Soldier)
            || victim == General
            || (victim == Soldier && to.half() != by)
            || set.contains(to)
            || p.general_attacked_after(m)
        {
            continue;
        }
        let stronger = match attacker {
            Horse | Cannon => victim == Chariot,
            Advisor | Elephant => matches!(victim, Chariot | Horse | Cannon),
            _ => false,
        };
        if stronger || (!protected_after(p, m) && (attacker != victim || !captures_back(p, m))) {
            set.insert(to);
        }
    }
    set
}

/// After the capture `m` by the side to move, can the other side legally recapture?
fn protected_after(p: &mut Position, m: Move) -> bool {
    let to = m.to();
    let undo = p.make_move(m);
    let defender = p.side_to_move();
    let protected = attackers(p, to, defender)
        .iter()
        .any(|s| !p.general_attacked_after(Move::new(s, to)));
    p.unmake_move(m, undo);
    protected
}

/// Could the piece that `m` attacks capture the attacker back, if it were its turn?
fn captures_back(p: &mut Position, m: Move) -> bool {
    let back = Move::new(m.to(), m.from());
    let undo = p.make_null();
    let legal = is_pseudo_legal(p, back) && !p.general_attacked_after(back);
    p.unmake_null(undo);
    legal
}
