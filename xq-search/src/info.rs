//! What a search reports: one [`Info`] per completed iteration, and the final
//! [`SearchResult`].

use crate::Score;
use std::time::Duration;
use xq_core::Move;

/// What one completed iteration found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// Which line this is (1 for the best; see [`Searcher::set_multipv`](crate::Searcher::set_multipv)).
    pub multipv: usize,
    /// The score from the side to move's point of view.
    pub score: Score,
    /// The raw search value behind `score`.
    pub value: i32,
    /// Nodes searched so far, by all threads of a parallel search.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Transposition table use, permille.
    pub hashfull: u32,
    /// The principal variation, a legal line from the root.
    pub pv: Vec<Move>,
}

impl Info {
    /// Nodes per second so far.
    pub fn nps(&self) -> u64 {
        let ms = self.time.as_millis().max(1) as u64;
        self.nodes * 1000 / ms
    }
}

/// The search's answer (the default: no move, nothing searched).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only when the side to move has no legal move (or every
    /// legal move is banned).
    pub best_move: Option<Move>,
    /// The expected reply, when known.
    pub ponder: Option<Move>,
    /// The score of the best move.
    pub score: Score,
    /// The raw value behind `score`.
    pub value: i32,
    /// The last completed depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched, by all threads of a parallel search.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// The move comes from the opening book: nothing was searched (the score, depths
    /// and nodes are zero). See [`Engine::go`](crate::Engine::go).
    pub from_book: bool,
}

impl SearchResult {
    /// Takes a completed line as the answer: its first move, line, score and depths.
    pub(crate) fn follow(&mut self, line: &Info) {
        self.best_move = line.pv.first().copied();
        self.pv = line.pv.clone();
        self.value = line.value;
        self.score = line.score;
        self.depth = line.depth;
        self.seldepth = line.seldepth;
    }
}
