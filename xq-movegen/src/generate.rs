//! Pseudo-legal move generation: the rules of movement of every piece, ignoring whether
//! the mover's general is left attacked (the legality filter's job).

use crate::MoveList;
use xq_core::attacks::{Direction, Step, ELEPHANT_MOVES, HORSE_MOVES};
use xq_core::{Color, Move, Piece, PieceKind, Position, Square};

/// Which moves a generator produces.
pub(crate) const ALL: u8 = 0;
pub(crate) const CAPTURES: u8 = 1;
pub(crate) const QUIETS: u8 = 2;

/// Pushes the pseudo-legal moves of the side to move selected by `KIND` ([`ALL`],
/// [`CAPTURES`] or [`QUIETS`]).
#[inline(always)]
pub(crate) fn generate<const KIND: u8>(pos: &Position, list: &mut MoveList) {
    generate_where::<KIND>(pos, list, |_, _| true);
}

/// [`generate`], keeping only the moves `keep` accepts (by origin and destination), in
/// the same order.
#[inline(always)]
pub(crate) fn generate_where<const KIND: u8>(
    pos: &Position,
    list: &mut MoveList,
    keep: impl Fn(Square, Square) -> bool,
) {
    let us = pos.side_to_move();
    let them = !us;
    // May a step-moving piece land on `to`? Own pieces never; then by kind.
    let ok = |to: Square| -> bool {
        match KIND {
            ALL => !pos.is_occupied_by(to, us),
            CAPTURES => pos.is_occupied_by(to, them),
            _ => pos.is_empty(to),
        }
    };
    // A position has fewer pseudo-legal moves than MAX_MOVES, so `push` never overflows.
    let mut push = |from: Square, to: Square| {
        if keep(from, to) {
            list.push(Move::new(from, to));
        }
    };
    let own = |kind: PieceKind| pos.squares_of(Piece::new(us, kind));

    // General: one step inside the palace.
    let k = pos.general(us);
    for step in Step::ORTHOGONAL {
        if let Some(to) = k.offset(step) {
            if to.in_palace() && ok(to) {
                push(k, to);
            }
        }
    }
    // Advisors: one diagonal step inside the palace.
    for from in own(PieceKind::Advisor) {
        for step in Step::DIAGONAL {
            if let Some(to) = from.offset(step) {
                if to.in_palace() && ok(to) {
                    push(from, to);
                }
            }
        }
    }
    // Elephants: two diagonal steps, the eye empty, never across the river.
    for from in own(PieceKind::Elephant) {
        for (eye, step) in ELEPHANT_MOVES {
            if let (Some(eye), Some(to)) = (from.offset(eye), from.offset(step)) {
                if to.half() == us && pos.is_empty(eye) && ok(to) {
                    push(from, to);
                }
            }
        }
    }
    // Horses: one orthogonal step (the leg must be empty), then one diagonal outward.
    for from in own(PieceKind::Horse) {
        for (leg, targets) in HORSE_MOVES {
            match from.offset(leg) {
                Some(leg) if pos.is_empty(leg) => {}
                // Off the board: so are both targets.
                _ => continue,
            }
            for step in targets {
                if let Some(to) = from.offset(step) {
                    if ok(to) {
                        push(from, to);
                    }
                }
            }
        }
    }
    // Chariots: slide to the first piece, capture it if it is an enemy.
    for from in own(PieceKind::Chariot) {
        for dir in Direction::ALL {
            if KIND == CAPTURES {
                if let Some(target) = pos.occupied_along(from, dir).next() {
                    if pos.is_occupied_by(target, them) {
                        push(from, target);
                    }
                }
                continue;
            }
            let step = dir.step();
            let mut sq = from;
            while let Some(to) = sq.offset(step) {
                match pos.color_on(to) {
                    None => push(from, to),
                    Some(c) => {
                        if KIND != QUIETS && c == them {
                            push(from, to);
                        }
                        break;
                    }
                }
                sq = to;
            }
        }
    }
    // Cannons: slide like a chariot, capture by jumping exactly one screen.
    for from in own(PieceKind::Cannon) {
        for dir in Direction::ALL {
            if KIND == CAPTURES {
                let mut along = pos.occupied_along(from, dir);
                if let (Some(_), Some(target)) = (along.next(), along.next()) {
                    if pos.is_occupied_by(target, them) {
                        push(from, target);
                    }
                }
                continue;
            }
            let step = dir.step();
            let mut sq = from;
            let screen = loop {
                match sq.offset(step) {
                    Some(to) if pos.is_empty(to) => {
                        push(from, to);
                        sq = to;
                    }
                    other => break other,
                }
            };
            if KIND == QUIETS {
                continue;
            }
            if let Some(screen) = screen {
                let mut along = pos.occupied_along(screen, dir);
                if let Some(target) = along.next() {
                    if pos.is_occupied_by(target, them) {
                        push(from, target);
                    }
                }
            }
        }
    }
    // Soldiers: forward, and sideways once across the river.
    let forward = Step::forward(us);
    for from in own(PieceKind::Soldier) {
        if let Some(to) = from.offset(forward) {
            if ok(to) {
                push(from, to);
            }
        }
        if from.half() != us {
            for step in [Step::LEFT, Step::RIGHT] {
                if let Some(to) = from.offset(step) {
                    if ok(to) {
                        push(from, to);
                    }
                }
            }
        }
    }
}

/// Does `m` follow the rules of movement for the piece on its origin square (ignoring
/// whether the mover's general is left attacked)?
///
/// ```
/// use xq_core::Position;
/// use xq_movegen::is_pseudo_legal;
/// let pos = Position::startpos();
/// assert!(is_pseudo_legal(&pos, "h2h9".parse().unwrap())); // the cannon jumps its screen
/// assert!(!is_pseudo_legal(&pos, "h2h8".parse().unwrap()));
/// assert!(!is_pseudo_legal(&pos, "b0d1".parse().unwrap())); // the horse's leg c0 is blocked
/// ```
pub fn is_pseudo_legal(pos: &Position, m: Move) -> bool {
    let us = pos.side_to_move();
    let (from, to) = (m.from(), m.to());
    let Some(piece) = pos.piece_on(from).filter(|p| p.color == us) else {
        return false;
    };
    if pos.color_on(to) == Some(us) {
        return false;
    }
    let df = to.file().index() as i32 - from.file().index() as i32;
    let dr = to.rank().index() as i32 - from.rank().index() as i32;
    match piece.kind {
        PieceKind::General => to.in_palace() && df.abs() + dr.abs() == 1,
        PieceKind::Advisor => to.in_palace() && df.abs() == 1 && dr.abs() == 1,
        PieceKind::Elephant => {
            to.half() == us
                && df.abs() == 2
                && dr.abs() == 2
                && ELEPHANT_MOVES
                    .iter()
                    .find(|(_, step)| from.offset(*step) == Some(to))
                    .and_then(|(eye, _)| from.offset(*eye))
                    .is_some_and(|eye| pos.is_empty(eye))
        }
        PieceKind::Horse => {
            xq_core::attacks::horse_leg(from, to).is_some_and(|leg| pos.is_empty(leg))
        }
        PieceKind::Chariot | PieceKind::Cannon => {
            let Some(dir) = xq_core::attacks::Direction::between(from, to) else {
                return false;
            };
            // Pieces strictly between the two squares.
            let mut between = 0;
            let mut sq = from;
            while let Some(next) = sq.offset(dir.step()) {
                if next == to {
                    break;
                }
                between += !pos.is_empty(next) as u32;
                sq = next;
            }
            // A chariot never jumps; a cannon jumps exactly one screen, and only to capture.
            if piece.kind == PieceKind::Chariot || pos.is_empty(to) {
                between == 0
            } else {
                between == 1
            }
        }
        PieceKind::Soldier => {
            let forward = if us == Color::Red { 1 } else { -1 };
            let crossed = from.half() != us;
            (dr == forward && df == 0) || (crossed && dr == 0 && df.abs() == 1)
        }
    }
}
