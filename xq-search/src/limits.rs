//! What a search is asked: its limits, and which selective parts it uses.

use std::time::Duration;
use xq_core::Move;

/// When to stop searching. Every limit that is set applies; with none the search runs
/// until stopped (or to [`MAX_PLY`](crate::score::MAX_PLY)).
///
/// ```
/// use std::time::Duration;
/// use xq_search::Limits;
/// let quick = Limits::depth(6);
/// // Limits combine: at most 8 plies, 100,000 nodes or half a second, whichever first.
/// let mixed = Limits {
///     nodes: Some(100_000),
///     ..Limits { depth: Some(8), ..Limits::movetime(Duration::from_millis(500)) }
/// };
/// assert_eq!(mixed.depth, Some(8));
/// assert_eq!(quick.nodes, None);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Deepest iteration to complete.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// The time this move should normally take (time management's soft limit). When it
    /// is less than [`Limits::hard_time`], the search treats it as a plan: it stretches it
    /// (up to the hard limit) while the best move keeps changing or the score falls,
    /// shrinks it once the best move has held for several iterations, starts no
    /// iteration past about half of it (one would not finish in time), and with a single
    /// legal move answers after the first iteration. Equal to the hard limit (a fixed
    /// time per move), it is used as it is.
    pub soft_time: Option<Duration>,
    /// Stop as soon as this much time has passed.
    pub hard_time: Option<Duration>,
    /// Stop once a mate in at most this many moves is found.
    pub mate: Option<u32>,
    /// Search only these root moves (UCI `searchmoves`); empty means all.
    pub root_moves: Vec<Move>,
    /// Never play these root moves (UCCI `banmoves`).
    pub banned_moves: Vec<Move>,
}

impl Limits {
    /// A fixed-depth limit.
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }
    /// A node limit.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }
    /// A fixed time per move.
    pub fn movetime(t: Duration) -> Limits {
        Limits {
            soft_time: Some(t),
            hard_time: Some(t),
            ..Limits::default()
        }
    }
}

/// Switches for the search's selective parts. [`SearchConfig::default`] is the engine;
/// [`SearchConfig::plain`] turns everything off that changes the value a search returns,
/// which leaves plain alpha-beta (Knuth and Moore: the same value as minimax).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Use transposition-table scores to cut off (the table's moves are always used
    /// for ordering).
    pub tt_cutoffs: bool,
    /// Null-move pruning.
    pub null_move: bool,
    /// Late move reductions.
    pub lmr: bool,
    /// Check and single-reply extensions.
    pub extensions: bool,
    /// Reverse futility pruning (static null move) near the leaves.
    pub futility: bool,
    /// Quiescence search at the horizon (off: the static evaluation).
    pub quiescence: bool,
    /// Aspiration windows around the last iteration's score.
    pub aspiration: bool,
    /// Mate-distance pruning.
    pub mate_distance: bool,
    /// Late move pruning, futility pruning and static-exchange pruning of quiet moves, and
    /// static-exchange pruning of losing captures, near the leaves (moves that give check
    /// are never pruned).
    pub quiet_pruning: bool,
    /// Correct the static evaluation by what the search found at nodes like this one
    /// (correction history: the errors of earlier evaluations, by soldiers, advisors,
    /// elephants and generals, and by each side's other pieces).
    pub correction: bool,
    /// Once late move pruning (or futility pruning at a zero-window node) holds for a
    /// quiet move, it holds for every later one: let the move picker drop the rest of
    /// the quiet moves that give no check instead of handing them out to be turned down
    /// one by one. The search is the same tree either way (a test compares them); off
    /// only to check that.
    pub drop_pruned_quiets: bool,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            tt_cutoffs: true,
            null_move: true,
            lmr: true,
            extensions: true,
            futility: true,
            quiescence: true,
            aspiration: true,
            mate_distance: true,
            quiet_pruning: true,
            correction: true,
            drop_pruned_quiets: true,
        }
    }
}

impl SearchConfig {
    /// Plain fixed-depth alpha-beta: no pruning, reductions, extensions, table cutoffs
    /// or quiescence.
    pub fn plain() -> SearchConfig {
        SearchConfig {
            tt_cutoffs: false,
            null_move: false,
            lmr: false,
            extensions: false,
            futility: false,
            quiescence: false,
            aspiration: false,
            mate_distance: false,
            quiet_pruning: false,
            correction: false,
            // The same tree either way: kept for speed.
            drop_pruned_quiets: true,
        }
    }
}
