//! What a search is asked: its limits, and which selective parts it uses.

use crate::time::Clock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use xq_core::Move;

/// The deepest iteration a search runs: a larger [`Limits::depth`] is read as this.
///
/// ```
/// assert_eq!(xq_search::MAX_DEPTH, 124);
/// ```
pub const MAX_DEPTH: u32 = crate::score::MAX_PLY as u32 - 4;

/// What a running search polls (every 1,024 nodes) to know whether it must stop: an
/// [`AtomicBool`] set from another thread, or any `Fn() -> bool` (a flag a web page shares
/// with its worker, say).
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use xq_movegen::Game;
/// use xq_search::{Limits, Searcher, StopSignal};
/// let flag = AtomicBool::new(false);
/// assert!(!flag.is_set());
/// // A search that stops after 5,000 nodes by its own signal.
/// let mut searcher = Searcher::new(1);
/// let nodes = std::cell::Cell::new(0u32);
/// let signal = || {
///     nodes.set(nodes.get() + 1024);
///     nodes.get() >= 5000
/// };
/// let result = searcher.search(&Game::startpos(), &Limits::default(), &signal, |_| {});
/// assert!(result.best_move.is_some());
/// ```
pub trait StopSignal {
    /// Must the search stop now?
    fn is_set(&self) -> bool;
}

impl StopSignal for AtomicBool {
    #[inline]
    fn is_set(&self) -> bool {
        self.load(Ordering::Relaxed)
    }
}

impl<F: Fn() -> bool> StopSignal for F {
    #[inline]
    fn is_set(&self) -> bool {
        self()
    }
}

/// What a search is asked to do, as a GUI's `go` says it: when to stop (every limit that
/// is set applies), how the clock stands, and which root moves to consider. With no
/// limit the search runs until stopped (or to [`MAX_PLY`](crate::score::MAX_PLY)).
///
/// With a [`clock`](Limits::clock) the search plans its time as the
/// [`time`](crate::time) module says; [`movetime`](Limits::movetime) is a fixed time for
/// this move; with both the tighter applies. [`infinite`](Limits::infinite) and
/// [`ponder`](Limits::ponder) searches ignore the clock (the [engine](crate::engine)
/// holds their answer until it is stopped, or until `ponderhit` starts the clock).
///
/// ```
/// use std::time::Duration;
/// use xq_search::{Clock, Limits};
/// let quick = Limits::depth(6);
/// // Limits combine: at most 8 plies, 100,000 nodes or half a second, whichever first.
/// let mixed = Limits {
///     depth: Some(8),
///     nodes: Some(100_000),
///     ..Limits::movetime(Duration::from_millis(500))
/// };
/// assert_eq!(mixed.depth, Some(8));
/// assert_eq!(quick.nodes, None);
/// // A minute left and a second a move, as `go wtime 60000 winc 1000` says.
/// let clock = Limits::clock(Clock { time: Duration::from_secs(60), inc: Duration::from_secs(1), movestogo: None });
/// assert!(clock.clock.is_some());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration to complete, at most [`MAX_DEPTH`]. 0 is read as 1: every
    /// search finishes depth 1, so that its move is a searched one.
    pub depth: Option<u32>,
    /// Stop after about this many nodes (all threads' together in a parallel search:
    /// they exchange their counts every 1,024 nodes; exact with one thread), but never
    /// before depth 1 is done: no limit and no stop flag cuts the first iteration's first
    /// line (a few dozen nodes; at most 453 on `xq bench`'s positions), so that the move
    /// is a searched one.
    pub nodes: Option<u64>,
    /// Stop once a mate in at most this many moves is found.
    pub mate: Option<u32>,
    /// A fixed time for this move.
    pub movetime: Option<Duration>,
    /// The side to move's clock: the search plans its time from it.
    pub clock: Option<Clock>,
    /// Search until stopped, whatever the clock says; the engine answers only when
    /// stopped.
    pub infinite: bool,
    /// Search on the opponent's time, expecting the move before this position: no clock
    /// until the engine's `ponderhit`.
    pub ponder: bool,
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
    /// A fixed time for this move.
    pub fn movetime(t: Duration) -> Limits {
        Limits {
            movetime: Some(t),
            ..Limits::default()
        }
    }
    /// Time planned from the side to move's clock.
    pub fn clock(clock: Clock) -> Limits {
        Limits {
            clock: Some(clock),
            ..Limits::default()
        }
    }
    /// No limit: until stopped.
    pub fn infinite() -> Limits {
        Limits {
            infinite: true,
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
    /// Internal iterative reduction: a node four or more plies from the horizon (the
    /// tunable `iir_depth`) with no move from the table (searched by no earlier
    /// iteration, or failed low there) is searched a ply shallower.
    pub iir: bool,
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
            iir: true,
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
    /// Plain fixed-depth alpha-beta: no pruning, reductions (internal iterative ones
    /// included), extensions, table cutoffs or quiescence.
    pub fn plain() -> SearchConfig {
        SearchConfig {
            tt_cutoffs: false,
            null_move: false,
            lmr: false,
            extensions: false,
            iir: false,
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
