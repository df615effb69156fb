//! Which pieces attack a square: the general attack query behind the chase rule (and any
//! static exchange or hanging-piece test).
//!
//! "Attack" here is the rules of movement only (pseudo-legal): a piece attacks a square
//! when it could capture a piece standing there if it were its side's turn, ignoring
//! whether its own general would be left attacked. Whether such a capture is legal is a
//! separate question ([`is_legal`](crate::is_legal)). The flying-general rule is not a
//! move of the general, so the general attacks only the squares next to it in its palace.

use xq_core::attacks::{Direction, SquareSet, Step, HORSE_ATTACKS};
use xq_core::{Color, Piece, PieceKind, Position, Square};

/// Every piece of `by` that attacks `sq` by the rules of movement, whatever stands on
/// `sq` (an enemy piece, an own piece, nothing) and whoever is to move:
///
/// - a chariot with nothing between, a cannon over exactly one screen;
/// - a horse whose leg (the square next to it on the way) is empty;
/// - an elephant whose eye is empty, on its own side of the river;
/// - an advisor and the general one step away inside their palace;
/// - a soldier from behind, or from beside once it has crossed the river.
///
/// ```
/// use xq_core::{Color, Position, Square};
/// use xq_movegen::attackers;
/// let at = |pos: &Position, sq, by| attackers(pos, sq, by).iter().collect::<Vec<Square>>();
/// // Each side's cannon reaches the horse behind the other's cannon, over it as a screen.
/// let pos = Position::startpos();
/// assert_eq!(at(&pos, Square::B9, Color::Red), [Square::B2]);
/// assert_eq!(at(&pos, Square::B0, Color::Black), [Square::B7]);
/// assert_eq!(at(&pos, Square::E4, Color::Black), []);
/// // A horse attacks over an empty leg; the general and advisors one step in the palace.
/// let pos = Position::from_fen("4k4/9/9/9/9/9/9/2n6/4A4/4K4 w").unwrap();
/// assert_eq!(at(&pos, Square::E1, Color::Black), [Square::C2]);
/// assert_eq!(at(&pos, Square::D0, Color::Red), [Square::E0, Square::E1]);
/// assert_eq!(at(&pos, Square::D2, Color::Red), [Square::E1]);
/// ```
pub fn attackers(pos: &Position, sq: Square, by: Color) -> SquareSet {
    let mut set = SquareSet::EMPTY;
    let is = |s: Square, kind: PieceKind| pos.holds(s, Piece::new(by, kind));

    // Lines: the first piece is a chariot's target, the second a cannon's.
    for dir in Direction::ALL {
        let mut along = pos.occupied_along(sq, dir);
        if let Some(first) = along.next() {
            if is(first, PieceKind::Chariot) {
                set.insert(first);
            }
            if let Some(second) = along.next() {
                if is(second, PieceKind::Cannon) {
                    set.insert(second);
                }
            }
        }
    }
    // Horses, through the legs diagonally next to the target.
    for (leg, horses) in HORSE_ATTACKS {
        if sq.offset(leg).is_some_and(|l| pos.is_empty(l)) {
            for step in horses {
                if let Some(h) = sq.offset(step).filter(|&h| is(h, PieceKind::Horse)) {
                    set.insert(h);
                }
            }
        }
    }
    // Elephants: two diagonal steps over an empty eye, never across the river.
    if sq.half() == by {
        for step in Step::DIAGONAL {
            if let Some(eye) = sq.offset(step).filter(|&e| pos.is_empty(e)) {
                if let Some(e) = eye.offset(step).filter(|&e| is(e, PieceKind::Elephant)) {
                    set.insert(e);
                }
            }
        }
    }
    // Advisors and the general: one step inside the palace (they never leave their own,
    // so a target in a palace next to them is in theirs).
    if sq.in_palace() {
        for step in Step::DIAGONAL {
            if let Some(a) = sq.offset(step).filter(|&a| is(a, PieceKind::Advisor)) {
                set.insert(a);
            }
        }
        for step in Step::ORTHOGONAL {
            if let Some(k) = sq.offset(step).filter(|&k| is(k, PieceKind::General)) {
                set.insert(k);
            }
        }
    }
    // Soldiers: from behind (they move forward), and from beside once across the river.
    if let Some(s) = sq
        .offset(Step::forward(by).reverse())
        .filter(|&s| is(s, PieceKind::Soldier))
    {
        set.insert(s);
    }
    for step in [Step::LEFT, Step::RIGHT] {
        if let Some(s) = sq
            .offset(step)
            .filter(|&s| s.half() != by && is(s, PieceKind::Soldier))
        {
            set.insert(s);
        }
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(fen: &str, sq: Square, by: Color) -> Vec<Square> {
        attackers(&Position::from_fen(fen).unwrap(), sq, by)
            .iter()
            .collect()
    }

    #[test]
    fn soldiers_attack_forward_and_sideways_once_across() {
        // Red soldiers on e3 (home side) and c5 (across); Black's on g4 (across).
        let fen = "4k4/9/9/9/2P6/6p2/4P4/9/9/3K5 w";
        assert_eq!(at(fen, Square::E4, Color::Red), [Square::E3]);
        assert_eq!(at(fen, Square::D3, Color::Red), []); // e3 has not crossed
        assert_eq!(at(fen, Square::D5, Color::Red), [Square::C5]);
        assert_eq!(at(fen, Square::C6, Color::Red), [Square::C5]);
        assert_eq!(at(fen, Square::C4, Color::Red), []); // never backwards
        assert_eq!(at(fen, Square::G3, Color::Black), [Square::G4]);
        assert_eq!(at(fen, Square::F4, Color::Black), [Square::G4]);
        assert_eq!(at(fen, Square::G5, Color::Black), []);
    }

    #[test]
    fn elephants_need_an_empty_eye_and_stay_home() {
        let fen = "4k4/9/9/9/9/2B6/9/9/9/3K5 w";
        assert_eq!(at(fen, Square::E2, Color::Red), [Square::C4]);
        assert_eq!(at(fen, Square::A2, Color::Red), [Square::C4]);
        assert_eq!(at(fen, Square::E6, Color::Red), []); // across the river
        let blocked = "4k4/9/9/9/9/2B6/3p5/9/9/3K5 w";
        assert_eq!(at(blocked, Square::E2, Color::Red), []);
    }

    #[test]
    fn cannons_need_exactly_one_screen() {
        let fen = "4k4/9/9/9/C1p1p1r2/9/9/9/9/4K4 w";
        assert_eq!(at(fen, Square::E5, Color::Red), [Square::A5]);
        assert_eq!(at(fen, Square::C5, Color::Red), []);
        assert_eq!(at(fen, Square::G5, Color::Red), []);
        // Whatever stands on the square: here Black's own soldier.
        assert_eq!(at(fen, Square::E5, Color::Black), [Square::G5]);
    }
}
