//! What the search learns about move order, as Stockfish's `history.h` keeps it: the
//! killer moves, the counter moves, and the histories of quiet moves (by piece and
//! destination, and after the moves one and two plies before) and of captures.
//!
//! The search writes these tables (a move that cut off is rewarded, the moves tried
//! before it are punished); the move picker only reads them.

use crate::score::MAX_PLY;
use xq_core::{Move, Piece, PieceKind, Position, Square, SquareMap};

/// The most a history score reaches (in absolute value): each update moves a score part
/// of the way towards it, so old results fade as new ones come in.
const HISTORY_MAX: i32 = 16384;

/// A dense index for a piece on a square (continuation history keys).
#[inline(always)]
fn piece_square(piece: Piece, sq: Square) -> usize {
    piece.index() * Square::COUNT + sq.index()
}

/// Moves the history score `h` towards `HISTORY_MAX` by `bonus` (or towards
/// `-HISTORY_MAX` for a negative bonus): the "gravity" update.
#[inline]
fn update(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}

/// The moves that led to a node, as the continuation histories use them: the move one
/// ply before and two plies before, each with its piece (`None` at the root, after a null
/// move, or before the root).
pub(crate) type Continuation = [Option<(Piece, Move)>; 2];

/// The continuation-history rows of a node's [`Continuation`] (`None` where it has no
/// move), looked up once for all the node's moves.
pub(crate) type ContinuationRows<'a> = [Option<&'a [i16; 14 * Square::COUNT]>; 2];

/// What the search has learnt about move order:
/// - two killer moves per ply (quiet moves that cut off a sibling node);
/// - the counter move to each move (by its piece and destination);
/// - the history of quiet moves by piece and destination, and their continuation history
///   by the move one and two plies before (a quiet move good after a given move);
/// - the history of captures by piece, destination and victim.
///
/// Every history is raised for a move that cut off and lowered for the moves of the same
/// kind tried before it.
#[derive(Clone, Debug)]
pub(crate) struct Heuristics {
    /// Two quiet moves per ply that cut off there, the latest first.
    killers: Box<[[Option<Move>; 2]; MAX_PLY + 2]>,
    /// By the moving piece, then its destination.
    history: Box<[SquareMap<i32>; 14]>,
    /// Indexed by [`piece_square`] of the earlier move, then of the move.
    continuation: Box<[[i16; 14 * Square::COUNT]]>,
    /// Indexed by [`piece_square`] of the capture, then by the victim's kind.
    captures: Box<[[i16; 7]; 14 * Square::COUNT]>,
    /// The quiet move that last refuted a move, by that move's piece and destination.
    counters: Box<[SquareMap<Option<Move>>; 14]>,
}

impl Heuristics {
    /// Tables that know nothing yet.
    pub(crate) fn new() -> Heuristics {
        Heuristics {
            killers: Box::new([[None; 2]; MAX_PLY + 2]),
            history: Box::new([SquareMap::new(0); 14]),
            continuation: vec![[0; 14 * Square::COUNT]; 14 * Square::COUNT].into_boxed_slice(),
            captures: Box::new([[0; 7]; 14 * Square::COUNT]),
            counters: Box::new([SquareMap::new(None); 14]),
        }
    }

    /// Forgets everything (a new game).
    pub(crate) fn clear(&mut self) {
        *self = Heuristics::new();
    }

    /// Halves the quiet history at the start of a search, so that recent results weigh
    /// more.
    pub(crate) fn age(&mut self) {
        for map in self.history.iter_mut() {
            for sq in Square::ALL {
                map[sq] /= 2;
            }
        }
    }

    /// The counter move to `prev` (the move that led to the node, and its piece).
    #[inline]
    pub(crate) fn counter(&self, prev: Option<(Piece, Move)>) -> Option<Move> {
        prev.and_then(|(piece, m)| self.counters[piece.index()][m.to()])
    }

    /// The two killer moves at `ply`, the latest first.
    #[inline]
    pub(crate) fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply]
    }

    /// Is `m` one of the killer moves at `ply`?
    #[inline]
    pub(crate) fn is_killer(&self, ply: usize, m: Move) -> bool {
        self.killers[ply].contains(&Some(m))
    }

    /// The history of the quiet move `m` (by `piece`) after `cont`: its own history and
    /// its two continuation histories.
    #[inline]
    pub(crate) fn quiet_score(&self, piece: Piece, m: Move, cont: &Continuation) -> i32 {
        self.quiet_score_in(&self.continuation_rows(cont), piece, m)
    }

    /// The continuation-history rows of the moves in `cont` (the same for every move of
    /// a node: looked up once).
    #[inline]
    pub(crate) fn continuation_rows(&self, cont: &Continuation) -> ContinuationRows<'_> {
        cont.map(|c| c.map(|(p, prev)| &self.continuation[piece_square(p, prev.to())]))
    }

    /// [`quiet_score`](Heuristics::quiet_score) with the continuation rows at hand.
    #[inline(always)]
    pub(crate) fn quiet_score_in(&self, rows: &ContinuationRows<'_>, piece: Piece, m: Move) -> i32 {
        let here = piece_square(piece, m.to());
        let mut score = self.history[piece.index()][m.to()];
        for row in rows.iter().flatten() {
            score += row[here] as i32;
        }
        score
    }

    /// The history of the capture `m` by `piece` of `victim`.
    #[inline]
    pub(crate) fn capture_score(&self, piece: Piece, m: Move, victim: PieceKind) -> i32 {
        self.captures[piece_square(piece, m.to())][victim.index()] as i32
    }

    /// Moves the histories of the quiet move `m` (in `pos`, after `cont`) by `bonus`.
    fn update_quiet(&mut self, pos: &Position, m: Move, cont: &Continuation, bonus: i32) {
        let piece = pos
            .piece_on(m.from())
            .expect("a tried move has a piece to move");
        update(&mut self.history[piece.index()][m.to()], bonus);
        let here = piece_square(piece, m.to());
        for (p, prev) in cont.iter().flatten() {
            let h = &mut self.continuation[piece_square(*p, prev.to())][here];
            let mut v = *h as i32;
            update(&mut v, bonus);
            *h = v as i16;
        }
    }

    /// Moves the capture history of `m` (in `pos`) by `bonus`.
    fn update_capture(&mut self, pos: &Position, m: Move, bonus: i32) {
        let piece = pos
            .piece_on(m.from())
            .expect("a tried move has a piece to move");
        let Some(victim) = pos.piece_on(m.to()) else {
            return;
        };
        let h = &mut self.captures[piece_square(piece, m.to())][victim.kind.index()];
        let mut v = *h as i32;
        update(&mut v, bonus);
        *h = v as i16;
    }

    /// Makes `m` the counter move to `prev` (the tests' way to plant any move).
    #[cfg(test)]
    pub(crate) fn set_counter(&mut self, prev: (Piece, Move), m: Move) {
        self.counters[prev.0.index()][prev.1.to()] = Some(m);
    }

    /// `best` cut off at `ply` after the quiet moves `quiets` and the captures `captures`
    /// failed to: a quiet `best` becomes a killer and the counter move to the move
    /// before, and its histories rise by `bonus` (the search's
    /// [`history_bonus`](crate::params::SearchParams::history_bonus) for the node's depth)
    /// while those of the other quiets fall as much; a capture's capture history rises.
    /// The captures that failed lose in every case. `pos` is the node's position (before
    /// `best`).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn reward(
        &mut self,
        pos: &Position,
        best: Move,
        bonus: i32,
        ply: usize,
        cont: &Continuation,
        quiets: &[Move],
        captures: &[Move],
    ) {
        if pos.is_empty(best.to()) {
            if let Some((piece, p)) = cont[0] {
                self.counters[piece.index()][p.to()] = Some(best);
            }
            let k = &mut self.killers[ply];
            if k[0] != Some(best) {
                k[1] = k[0];
                k[0] = Some(best);
            }
            self.update_quiet(pos, best, cont, bonus);
            for &q in quiets {
                self.update_quiet(pos, q, cont, -bonus);
            }
        } else {
            self.update_capture(pos, best, bonus);
        }
        for &c in captures {
            self.update_capture(pos, c, -bonus);
        }
    }
}
