//! The rules that end a game, as functions for programs that keep their own history (an
//! engine's search, a game server); a [`Game`](crate::Game) applies them all in
//! [`Game::outcome`](crate::Game::outcome).
//!
//! # The rules as implemented
//!
//! These are the Asian (AXF) and Chinese rules as Pikafish applies them
//! (`Position::rule_judge`); `data/repetition.epd` holds the cases they are tested
//! against, each ruled by Pikafish.
//!
//! - **No legal move** loses, in check ([`Termination::Checkmate`]) or not
//!   ([`Termination::Stalemate`]).
//! - **Repetition** is ruled when a position occurs for the third time, looking back no
//!   further than the last capture (inside a search one repetition after the root is
//!   enough). The cycle from the first occurrence is ruled by [`rule_cycle`]:
//!   - **perpetual check**: a side that gave check with every one of its moves loses; if
//!     both did, it is a draw;
//!   - otherwise, if any move of the cycle gave check, it is a draw;
//!   - **perpetual chase**: a side that newly chased the same enemy piece (followed as a
//!     piece, not a square) with every one of its moves loses, unless the other side did
//!     too (then a draw). What counts as a chase is below;
//!   - everything else that repeats is a draw ([`Termination::Repetition`]).
//! - **The 60-move rule**: 120 plies without a capture draw, counted as Pikafish counts
//!   them: each side's checks beyond its tenth, and the replies to them, do not count
//!   ([`move_rule_plies`]). Mate on the 120th ply still wins.
//! - **Insufficient material**: with no chariot, horse, cannon or soldier on the board,
//!   neither side can mate: a draw ([`insufficient_material`]). (Pikafish also draws some
//!   positions with one cannon and no advisors to screen it; xq does not.)
//!
//! # What counts as a chase
//!
//! A side *chases* an enemy piece when one of its pieces attacks it and the attack is a
//! threat by the rules ([`chase_targets`]):
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
//! # Where other referees differ
//!
//! The rule books (and Fairy-Stockfish) are stricter or looser than Pikafish in a few
//! cases of `data/repetition.epd`; xq follows Pikafish in each:
//!
//! - *chase-vs-check* (`5k3/9/9/p3c4/4R4/...`): a chariot chases a cannon with every move
//!   while the cannon answers with one check and one idle move. Pikafish, and xq, rule a
//!   draw because a check occurs in the cycle; Fairy-Stockfish and the AXF diagrams 37-38
//!   rule that the chariot must change (Black wins).
//! - *check-chase* (`5k3/9/9/5C3/5c3/...`): every Red move newly attacks the same soldier
//!   and one of them also checks. A draw here (a check in the cycle); Fairy-Stockfish
//!   counts the chase (Black wins); the rule books are ambiguous.
//! - *pinned-by-horse* (`2baka1r1/C4rN2/...`): a Black chariot pinned by a Red horse is
//!   attacked by Red's chariot with every move, while Black's advisor moves renew the
//!   pinned chariot's threat on the unprotected horse. A mutual chase and a draw here;
//!   Fairy-Stockfish and AXF rule 19 do not count the pinned chariot's threat (Black
//!   wins).
//! - *flying-general* (`4k4/9/9/9/4n4/...`): the general's moves alternately unpin a horse
//!   and pin the protector of its target, so the horse newly threatens an unprotected
//!   cannon with every move: Black loses here; Fairy-Stockfish rules a draw.
//! - *real-game*, Fairy-Stockfish issue 570: the cycle is entered by a king move that
//!   chases nothing; only the moves after the first occurrence are ruled, so Black's
//!   perpetual chase loses (Fairy-Stockfish also counts the entering move: a draw).
//! - *real-game*, Pikafish issue 28: both sides chase (one by removing a screen and so a
//!   protection): a draw here; Fairy-Stockfish sees only one chase (Red wins).

mod chase;

pub use chase::{chase_targets, chases};

pub use crate::outcome::NO_CAPTURE_DRAW_PLIES;
use crate::outcome::{Outcome, Termination};
use crate::{try_play, IllegalMoveError};
use std::fmt;
use xq_core::attacks::SquareSet;
use xq_core::{ByColor, Color, Move, Piece, PieceKind, Position};

/// Checks beyond its tenth (since the last capture) that a side gives do not count
/// toward the 60-move rule, nor do the replies to them (see [`move_rule_plies`]).
pub const COUNTED_CHECKS: u32 = 10;

/// The plies that count toward the 60-move rule ([`NO_CAPTURE_DRAW_PLIES`]) at the last
/// position of `checks`, given its halfmove clock (plies since the last capture).
/// `checks[i]` says whether the move leading to position `i` gave check, as
/// [`Game::checks`](crate::Game::checks) keeps them.
///
/// Pikafish's convention, which follows the Chinese rules: every ply since the last
/// capture counts, except that each side's checks beyond its tenth do not, and neither
/// does a reply to such a check (a move made in check while the checker is past its
/// ten). Plies older than `checks` (a FEN's clock) count in full. The rule is applied
/// after mate: a side with no legal move on the 120th ply has still lost.
///
/// ```
/// use xq_movegen::rules::move_rule_plies;
/// // Twelve plies, the side to move never checks, the other side checks with each of its
/// // six moves: all count (six checks, fewer than ten).
/// let checks: Vec<bool> = (0..13).map(|i| i % 2 == 1).collect();
/// assert_eq!(move_rule_plies(12, &checks), 12);
/// assert_eq!(move_rule_plies(100, &checks), 100); // 88 older plies count in full
/// // Thirty plies of checks and replies: checks 11 to 15 and their replies do not count.
/// let checks: Vec<bool> = (0..31).map(|i| i % 2 == 1).collect();
/// assert_eq!(move_rule_plies(30, &checks), 20);
/// ```
pub fn move_rule_plies(halfmove: u32, checks: &[bool]) -> u32 {
    let Some(n) = checks.len().checked_sub(1) else {
        return halfmove;
    };
    let covered = n.min(halfmove as usize);
    let mut plies = halfmove - covered as u32;
    // Check counts of the side that made the last move (0) and of the other side (1).
    let mut counted = [0u32; 2];
    for j in n - covered + 1..=n {
        let us = (n - j) % 2;
        let counts = !checks[j] || {
            counted[us] += 1;
            counted[us] <= COUNTED_CHECKS
        };
        if counts {
            if counted[1 - us] > COUNTED_CHECKS && checks[j - 1] {
                counted[1 - us] += 1;
            } else {
                plies += 1;
            }
        }
    }
    plies
}

/// Can neither side ever give mate? True when no chariot, horse, cannon or soldier is
/// left on the board (advisors, elephants and a general cannot mate a general; every
/// soldier can cross the river and stays able to attack the palace).
///
/// ```
/// use xq_core::Position;
/// use xq_movegen::rules::insufficient_material;
/// assert!(insufficient_material(&Position::from_fen("3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w").unwrap()));
/// assert!(!insufficient_material(&Position::from_fen("3ak4/9/9/9/9/9/9/9/p8/3K5 w").unwrap()));
/// ```
pub fn insufficient_material(pos: &Position) -> bool {
    use PieceKind::*;
    Color::ALL.iter().all(|&c| {
        [Chariot, Horse, Cannon, Soldier]
            .iter()
            .all(|&k| pos.squares_of(Piece::new(c, k)).next().is_none())
    })
}

/// A move of a repetition cycle that cannot be played where it stands.
///
/// ```
/// use xq_core::Position;
/// use xq_movegen::rules::{rule_cycle, CycleError};
/// use xq_movegen::IllegalMoveError;
/// let m = "e2e3".parse().unwrap();
/// let err = rule_cycle(&Position::startpos(), &[m]).unwrap_err();
/// assert_eq!(err, CycleError { index: 0, error: IllegalMoveError::NoPieceToMove(m) });
/// assert_eq!(err.to_string(), "move 1 of the cycle: illegal move e2e3: no piece of the side to move on e2");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CycleError {
    /// Which move of the cycle, counted from 0.
    pub index: usize,
    /// Why it cannot be played.
    pub error: IllegalMoveError,
}

impl fmt::Display for CycleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {} of the cycle: {}", self.index + 1, self.error)
    }
}

// `Display` includes the wrapped error, so `source` stays `None`.
impl std::error::Error for CycleError {}

/// Judges a repetition cycle: `start` is the position at the first occurrence of the
/// repeated position and `moves` the moves played since (the rules of the
/// [module docs](self)). The outcome is a loss by [`Termination::PerpetualCheck`] or
/// [`Termination::PerpetualChase`], or a draw by [`Termination::Repetition`]. A game and the search
/// both call it.
///
/// # Errors
/// [`CycleError`] (with the index of the move in `moves`) if a move is not legal where it
/// is played.
///
/// ```
/// use xq_core::{Color, Piece, Position, Square};
/// use xq_movegen::rules::rule_cycle;
/// use xq_movegen::{Outcome, Termination};
/// // Red's chariot follows the unprotected black horse b7 <-> c9: Red chases.
/// let start = Position::from_fen("9/5k3/1n5R1/p8/9/9/8P/9/9/3K5 b").unwrap();
/// let cycle: Vec<_> = "b7c9 h7h9 c9b7 h9h7".split(' ').map(|m| m.parse().unwrap()).collect();
/// let chase = Termination::PerpetualChase { by: Color::Red, piece: Piece::from_char('n').unwrap(), square: Square::B7 };
/// assert_eq!(rule_cycle(&start, &cycle), Ok(Outcome::loss(Color::Red, chase)));
/// ```
pub fn rule_cycle(start: &Position, moves: &[Move]) -> Result<Outcome, CycleError> {
    let draw = Outcome::draw(Termination::Repetition);
    // Checks first: replay the cycle, noting who checked with every move.
    let mut p = start.clone();
    let mut moved = ByColor::new(false, false);
    let mut always = ByColor::new(true, true);
    let mut any_check = false;
    for (index, &m) in moves.iter().enumerate() {
        let mover = p.side_to_move();
        try_play(&mut p, m).map_err(|error| CycleError { index, error })?;
        let check = p.is_check();
        moved[mover] = true;
        always[mover] &= check;
        any_check |= check;
    }
    let checker = |c: Color| moved[c] && always[c];
    match (checker(Color::Red), checker(Color::Black)) {
        (true, false) => {
            let by = Color::Red;
            return Ok(Outcome::loss(by, Termination::PerpetualCheck { by }));
        }
        (false, true) => {
            let by = Color::Black;
            return Ok(Outcome::loss(by, Termination::PerpetualCheck { by }));
        }
        (true, true) => return Ok(draw),
        (false, false) if any_check => return Ok(draw),
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
            Some(set) => set & chase::play_and_chase(&mut p, m),
            None => chase::play_and_chase(&mut p, m),
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
            return Ok(draw);
        }
    }
    let chaser = |c: Color| chased[c].and_then(|s| s.iter().next());
    Ok(match (chaser(Color::Red), chaser(Color::Black)) {
        (Some(square), None) | (None, Some(square)) => {
            let piece = p
                .piece_on(square)
                .expect("a chased piece stands on its square");
            let by = !piece.color;
            Outcome::loss(by, Termination::PerpetualChase { by, piece, square })
        }
        _ => draw,
    })
}

/// The old name of [`rule_cycle`]: the rules *rule* a game; *judging* is what
/// `xq-analysis` does to a move.
///
/// # Errors
/// As [`rule_cycle`].
#[deprecated(since = "0.2.0", note = "renamed rule_cycle")]
pub fn judge_cycle(start: &Position, moves: &[Move]) -> Result<Outcome, CycleError> {
    rule_cycle(start, moves)
}

/// The index of the earlier occurrence that makes the last position of `keys` a decided
/// repetition, looking back over the positions since the last capture (`reversible`
/// plies), or `None`; the cycle to rule ([`rule_cycle`]) runs from that index to the last
/// position.
///
/// A position is repeated when it occurs for the third time (it occurred twice before:
/// the index is that of the first occurrence, and the cycle is gone round twice), as the
/// referee rules a game ([`Game::outcome`](crate::Game::outcome)). With `root`, a search
/// also takes a single earlier occurrence at an index after `root`: inside the tree the
/// first repetition is decisive already, since whoever could repeat once can repeat again
/// (as Stockfish and Pikafish rule it).
///
/// ```
/// use xq_movegen::rules::find_repetition;
/// let keys = [1, 2, 3, 4, 1, 2, 3, 4, 1];
/// assert_eq!(find_repetition(&keys, 100, None), Some(0)); // the third time
/// assert_eq!(find_repetition(&keys[..5], 100, None), None); // twice is not enough
/// assert_eq!(find_repetition(&keys, 7, None), None); // a capture 7 plies ago
/// // In a search from position 2, the repetition at 8 of 4 is decisive.
/// assert_eq!(find_repetition(&keys, 100, Some(2)), Some(4));
/// ```
#[inline]
pub fn find_repetition(keys: &[u64], reversible: usize, root: Option<usize>) -> Option<usize> {
    let n = keys.len().checked_sub(1)?;
    let key = keys[n];
    let oldest = n.saturating_sub(reversible);
    let root = root.unwrap_or(n);
    let mut seen = 0;
    // The same side is to move only every second ply, and no position repeats after
    // fewer than four.
    let mut earlier = n.checked_sub(4);
    while let Some(i) = earlier {
        if i < oldest {
            break;
        }
        if keys[i] == key {
            seen += 1;
            if seen == 2 || i > root {
                return Some(i);
            }
        }
        earlier = i.checked_sub(2);
    }
    None
}
