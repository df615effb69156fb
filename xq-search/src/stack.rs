//! The search stack: what the search keeps for each ply of the current path, one entry a
//! ply (Stockfish's `Stack`, Viridithas' `StackEntry`). The node at ply `p` owns entry
//! `p`; it writes its child's incremental state into entry `p + 1` when it makes a move,
//! and reads its ancestors' entries (the moves that led to it, their static evaluations).

use crate::correction::CorrectionKeys;
use crate::picker::MovePicker;
use crate::score::MAX_PLY;
use xq_core::{Move, Piece};
use xq_eval::nnue::{Accumulator, MoveChange};
use xq_eval::Eval;

/// A principal variation: the line the search expects from a node.
pub(crate) type Pv = arrayvec::ArrayVec<Move, MAX_PLY>;

/// How many entries the stack has: one a ply up to [`MAX_PLY`], and the children of the
/// deepest nodes.
pub(crate) const STACK_SIZE: usize = MAX_PLY + 2;

/// What the search keeps for one ply of the current path.
#[derive(Debug)]
pub(crate) struct StackEntry {
    /// The incremental part of the node's evaluation, updated with each move.
    pub(crate) eval: Eval,
    /// The network's accumulators of the node's position (when the search evaluates
    /// with a network), computed from the parent's when the node is first evaluated or
    /// a descendant is: see `pending`.
    pub(crate) acc: Accumulator,
    /// How `acc` follows from the parent's, until it is computed: most nodes are cut off
    /// (the table, a repetition) or evaluated from the cache before they need it.
    pub(crate) pending: Pending,
    /// The correction history's keys of the node's position, updated with each move.
    pub(crate) corr_keys: CorrectionKeys,
    /// The node's corrected static evaluation (`None` in check), for the "improving"
    /// test of the nodes two and four plies further: is the side to move better off
    /// than it was?
    pub(crate) static_eval: Option<i32>,
    /// The move being searched from the node and its piece (`None` for a null move): the
    /// counter moves and the continuation histories of the nodes below are keyed by it.
    pub(crate) current_move: Option<(Piece, Move)>,
    /// The move a singular-extension search of the node leaves out.
    pub(crate) excluded: Option<Move>,
    /// The node's principal variation, built from its best child's.
    pub(crate) pv: Pv,
    /// Quiescence's move picker at this ply, reset in place at each quiescence node (a
    /// picker returned by value was copied, its lists and all, at every node).
    pub(crate) qpicker: MovePicker,
}

/// Whether a stack entry's accumulators are computed, and if not, how they follow from
/// the entry below's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pending {
    /// Computed (the root's always are).
    Ready,
    /// The parent's changed by a move.
    Move(MoveChange),
    /// The parent's (a null move).
    Null,
}

impl StackEntry {
    /// An entry for a ply the search has not reached yet.
    pub(crate) fn new() -> StackEntry {
        StackEntry {
            eval: Eval::default(),
            acc: Accumulator::default(),
            pending: Pending::Ready,
            corr_keys: CorrectionKeys::default(),
            static_eval: None,
            current_move: None,
            excluded: None,
            pv: Pv::new(),
            qpicker: MovePicker::idle(),
        }
    }
}
