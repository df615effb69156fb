//! The chase rule: which attacks count as a chase, which pieces a move newly chases, and
//! the judge of a repetition cycle (perpetual check, then perpetual chase).
//!
//! These are the Asian (AXF) and Chinese rules as the strongest engine, Pikafish, applies
//! them; `data/repetition.epd` holds the cases they are tested against.
//!
//! # What counts as a chase
//!
//! A side *chases* an enemy piece when one of its pieces attacks it and the attack is a
//! threat by the rules:
//!
//! - the attacker is never a general or a soldier (they may attack as often as they like),
//!   and the victim is never the general (that is a check) nor a soldier that has not
//!   crossed the river;
//! - the capture must be legal: an attack that would expose the attacker's own general
//!   does not count, so a pinned piece only chases its pinner;
//! - a weaker piece attacking a stronger one always chases, protected or not: a horse or a
//!   cannon attacking a chariot, an advisor or an elephant attacking a chariot, a horse or
//!   a cannon;
//! - any other attack chases only an *unprotected* piece: after the capture the defender
//!   has no legal recapture on that square (a general that would face the other general,
//!   or a defender that is pinned, protects nothing);
//! - an attack between two pieces of the same kind is mutual, not a chase, unless the
//!   victim cannot capture back (it is pinned, or it is a horse with its leg blocked).
//!
//! A move *newly chases* the pieces it chases after it is played that it did not chase
//! before ([`chases`]): discovered attacks count, and so do attacks that appear because a
//! protector was pinned or driven away.
//!
//! # Judging a cycle
//!
//! [`judge_cycle`] takes the position at the first occurrence of a repeated position and
//! the moves since. A side that gave check with every one of its moves loses (perpetual
//! check; both sides doing so is a draw). Otherwise any check in the cycle makes it a
//! draw. Otherwise each side's chases are followed through the cycle: a side chases
//! perpetually when some enemy piece, followed as a piece from square to square as it
//! moves, is newly chased by every one of that side's moves. One side chasing
//! perpetually loses; both or neither draw.

use crate::attack::attackers;
use crate::game::GameError;
use crate::generate::{generate, CAPTURES};
use crate::{is_legal, is_pseudo_legal, try_play, MoveList};
use std::fmt;
use xq_core::attacks::SquareSet;
use xq_core::{ByColor, Color, Move, Piece, PieceKind, Position, Square};

/// The enemy pieces that `by` chases in `pos` as it stands, whoever is to move (the rules
/// of the [module docs](self)).
///
/// ```
/// use xq_core::{Color, Position, Square};
/// use xq_movegen::chase::chase_targets;
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
/// use xq_movegen::chase::chases;
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
fn play_and_chase(p: &mut Position, m: Move) -> SquareSet {
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

/// The verdict of the repetition rules on a cycle of moves (see [`judge_cycle`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CycleRuling {
    /// Nobody broke a rule, or both sides did the same: a draw.
    Draw,
    /// `by` gave check with every one of its moves and the other side did not: `by` loses.
    PerpetualCheck {
        /// The side that checked.
        by: Color,
    },
    /// `by` newly chased the same enemy piece with every one of its moves, nobody checked,
    /// and the other side did not chase perpetually: `by` loses.
    PerpetualChase {
        /// The side that chased.
        by: Color,
        /// The piece it chased (an enemy piece).
        piece: Piece,
        /// Where that piece stands at the end of the cycle. (When several pieces were
        /// chased throughout, the first by square, `a0` to `i9`.)
        square: Square,
    },
}

impl CycleRuling {
    /// The side that loses by this ruling, if any.
    ///
    /// ```
    /// use xq_core::Color;
    /// use xq_movegen::chase::CycleRuling;
    /// assert_eq!(CycleRuling::PerpetualCheck { by: Color::Red }.loser(), Some(Color::Red));
    /// assert_eq!(CycleRuling::Draw.loser(), None);
    /// ```
    pub fn loser(&self) -> Option<Color> {
        match *self {
            CycleRuling::Draw => None,
            CycleRuling::PerpetualCheck { by } | CycleRuling::PerpetualChase { by, .. } => Some(by),
        }
    }
}

impl fmt::Display for CycleRuling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            CycleRuling::Draw => f.write_str("draw by repetition"),
            CycleRuling::PerpetualCheck { by } => write!(f, "perpetual check by {by}"),
            CycleRuling::PerpetualChase { by, piece, square } => write!(
                f,
                "perpetual chase by {by} of the {} {} on {square}",
                piece.color,
                kind_name(piece.kind)
            ),
        }
    }
}

/// The English name of a kind, as the docs use it.
pub(crate) fn kind_name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::General => "general",
        PieceKind::Advisor => "advisor",
        PieceKind::Elephant => "elephant",
        PieceKind::Horse => "horse",
        PieceKind::Chariot => "chariot",
        PieceKind::Cannon => "cannon",
        PieceKind::Soldier => "soldier",
    }
}

/// Judges a repetition cycle: `start` is the position at the first occurrence of the
/// repeated position and `moves` the moves played since (the rules of the
/// [module docs](self)). Both the game record and the search call it.
///
/// # Errors
/// [`GameError::IllegalMove`] (with the index of the move in `moves`) if a move is not
/// legal where it is played.
///
/// ```
/// use xq_core::{Color, Piece, Position, Square};
/// use xq_movegen::chase::{judge_cycle, CycleRuling};
/// // Red's chariot follows the unprotected black horse b7 <-> c9: Red chases.
/// let start = Position::from_fen("9/5k3/1n5R1/p8/9/9/8P/9/9/3K5 b").unwrap();
/// let cycle: Vec<_> = "b7c9 h7h9 c9b7 h9h7".split(' ').map(|m| m.parse().unwrap()).collect();
/// assert_eq!(
///     judge_cycle(&start, &cycle).unwrap(),
///     CycleRuling::PerpetualChase {
///         by: Color::Red,
///         piece: Piece::from_char('n').unwrap(),
///         square: Square::B7,
///     }
/// );
/// ```
pub fn judge_cycle(start: &Position, moves: &[Move]) -> Result<CycleRuling, GameError> {
    // Checks first: replay the cycle, noting who checked with every move.
    let mut p = start.clone();
    let mut moved = ByColor::new(false, false);
    let mut always = ByColor::new(true, true);
    let mut any_check = false;
    for (index, &m) in moves.iter().enumerate() {
        let mover = p.side_to_move();
        try_play(&mut p, m).map_err(|error| GameError::IllegalMove { index, error })?;
        let check = p.is_check();
        moved[mover] = true;
        always[mover] &= check;
        any_check |= check;
    }
    let checker = |c: Color| moved[c] && always[c];
    match (checker(Color::Red), checker(Color::Black)) {
        (true, false) => return Ok(CycleRuling::PerpetualCheck { by: Color::Red }),
        (false, true) => return Ok(CycleRuling::PerpetualCheck { by: Color::Black }),
        (true, true) => return Ok(CycleRuling::Draw),
        (false, false) if any_check => return Ok(CycleRuling::Draw),
        (false, false) => {}
    }

    // Then chases: what each side has newly chased with every one of its moves so far
    // (`None` before its first move), by the squares the victims stand on now.
    let mut p = start.clone();
    let mut chased: ByColor<Option<SquareSet>> = ByColor::new(None, None);
    for &m in moves {
        let mover = p.side_to_move();
        let new = match chased[mover] {
            Some(set) if set.is_empty() => {
                p.make_move(m);
                set
            }
            Some(set) => set & play_and_chase(&mut p, m),
            None => play_and_chase(&mut p, m),
        };
        chased[mover] = Some(new);
        // The mover's piece is a victim the other side may be following.
        if let Some(set) = &mut chased[!mover] {
            if set.contains(m.from()) {
                set.remove(m.from());
                set.insert(m.to());
            }
        }
        if chased.red.is_some_and(|s| s.is_empty()) && chased.black.is_some_and(|s| s.is_empty()) {
            return Ok(CycleRuling::Draw);
        }
    }
    let chaser = |c: Color| chased[c].and_then(|s| s.iter().next());
    Ok(match (chaser(Color::Red), chaser(Color::Black)) {
        (Some(square), None) | (None, Some(square)) => {
            let piece = p
                .piece_on(square)
                .expect("a chased piece stands on its square");
            CycleRuling::PerpetualChase {
                by: !piece.color,
                piece,
                square,
            }
        }
        _ => CycleRuling::Draw,
    })
}
