//! The engine: what a GUI, a program or a web page plays and analyses with.
//!
//! Three parts:
//!
//! - [`Core`], without threads or clocks of its own: the game, the options, the opening
//!   book, the playing level's seeds and the search's parameters. It turns a `go` into a
//!   [`Job`]: the limits within the level and the caps, the time budget, the book's answer
//!   (the book is asked once, here), and at the end the move the level picks and a
//!   ponder move checked for legality.
//! - [`Engine`], which runs a job on a pool of threads (Lazy SMP) over one shared table,
//!   in the background so that it can be stopped, pondered and held.
//! - [`Stepper`], which runs a job on the caller's thread, to its end or one iteration
//!   at a time (a browser's Web Worker, which has no threads to spare).
//!
//! Both runners are [`SearchEngine`]s: the protocols of `xq-protocol` drive either, so
//! that the binary, the web worker and an embedding program speak the same UCI.
//!
//! [`Engine::go`] starts a search of the current game on its own thread (and helper
//! threads for Lazy SMP) and returns at once; the engine reports each completed
//! iteration and the final answer to a [`Listener`]. [`Engine::stop`] stops it and
//! returns the answer; [`Engine::wait`] waits for the search to end by its limits.
//!
//! Infinite and ponder searches are *held*: when such a search ends by itself, it waits
//! for [`Engine::stop`] (or [`Engine::ponderhit`]) before it answers, as the protocols
//! ask.
//!
//! Pondering: a ponder search is started without any time limit (depth and node limits
//! still apply), and the time budget the clock would give is remembered. On
//! [`Engine::ponderhit`] the clock starts: the soft limit becomes a deadline checked after
//! every completed iteration (no new iteration after it), and the search is stopped at
//! the hard deadline. The search itself is not restarted, so nothing it learnt is lost.
//!
//! Playing levels ([`Options::strength`]): below full strength the search is capped by
//! the level's depth and nodes and searches the level's number of lines (not reported
//! beyond the [`Options::multipv`] asked for); the move answered is the one the level
//! picks from the last completed iteration, with a seed drawn from the engine's own
//! generator ([`Core::set_seed`]).
//!
//! ```
//! use std::sync::mpsc;
//! use xq_movegen::Game;
//! use xq_search::engine::{Engine, Options};
//! use xq_search::{Info, Limits};
//!
//! // Two threads and a 16 MiB table.
//! let mut engine = Engine::new(Options { threads: 2, hash_mib: 16, ..Options::default() });
//! engine.set_game(Game::startpos());
//!
//! // Search without a limit of its own; the infos arrive on a channel while it thinks.
//! let (tx, infos) = mpsc::channel::<Info>();
//! engine.go(Limits::infinite(), move |info: &Info| {
//!     let _ = tx.send(info.clone());
//! });
//! let first_five: Vec<Info> = infos.iter().take(5).collect();
//! assert_eq!(first_five[0].depth, 1);
//!
//! // Stop it and read the answer.
//! let result = engine.stop().expect("a search was running");
//! assert!(result.depth >= 5);
//! assert_eq!(result.pv.first(), result.best_move.as_ref());
//! ```

mod core;
mod error;
mod files;
mod runner;
mod stepper;
mod threads;

pub use self::core::{Core, Job};
pub use self::error::EngineError;
pub use self::files::{Disk, Files, Memory};
pub use self::runner::{open_tablebases, read_book, read_network, SearchEngine, BUILT_IN_NETWORK};
pub use self::stepper::{Signals, StepState, Stepper};
pub use self::threads::Engine;
pub use crate::skill::{Skill, ELO_OF_LEVEL, MAX_ELO, MIN_ELO};
pub use crate::tt::TableError;
use crate::tt::TranspositionTable;
use crate::{Info, SearchResult};
use std::sync::Arc;
use std::time::Duration;
pub use xq_book::BookMove;

use xq_eval::nnue::Network;
use xq_movegen::Game;

/// Default transposition table size, MiB.
pub const DEFAULT_HASH_MIB: usize = 64;
/// Largest transposition table, MiB: 32 TiB on 64-bit systems (as Stockfish allows, for
/// the biggest machines), 2 GiB on 32-bit ones. Whether a size can be had is the
/// system's to say: a table it refuses is reported ([`TableError`]), and the engine
/// keeps the one it has.
#[cfg(target_pointer_width = "64")]
pub const MAX_HASH_MIB: usize = 1 << 25;
/// Largest transposition table, MiB: 32 TiB on 64-bit systems (as Stockfish allows, for
/// the biggest machines), 2 GiB on 32-bit ones. Whether a size can be had is the
/// system's to say: a table it refuses is reported ([`TableError`]), and the engine
/// keeps the one it has.
#[cfg(not(target_pointer_width = "64"))]
pub const MAX_HASH_MIB: usize = 2048;
/// Most search threads. A thread the system refuses to start is done without: the
/// search goes on with the threads it has.
pub const MAX_THREADS: usize = 1024;
/// Most MultiPV lines.
pub const MAX_MULTIPV: usize = 16;
/// Default time kept back from every move for communication delays.
pub const DEFAULT_OVERHEAD: Duration = Duration::from_millis(30);
/// Largest move overhead.
pub const MAX_OVERHEAD: Duration = Duration::from_millis(5000);
/// Default Elo for [`Options::limit_strength`]: level 10's.
pub const DEFAULT_ELO: u32 = ELO_OF_LEVEL[10];
/// Default [`Options::book_depth`]: the book for the first 20 moves of each side.
pub const DEFAULT_BOOK_DEPTH: u32 = 40;
/// Largest [`Options::book_depth`].
pub const MAX_BOOK_DEPTH: u32 = 1000;

/// The engine's settings (the protocols' options).
///
/// ```
/// use xq_search::engine::Options;
/// use xq_search::skill::Skill;
/// let mut o = Options { skill: Skill::new(5), ..Options::default() };
/// assert_eq!(o.strength(), Skill::new(5));
/// o.limit_strength = true;
/// o.elo = Skill::new(12).elo();
/// assert_eq!(o.strength(), Skill::new(12));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size, MiB (UCI `Hash`).
    pub hash_mib: usize,
    /// Search threads, Lazy SMP (UCI `Threads`).
    pub threads: usize,
    /// Lines to report (UCI `MultiPV`).
    pub multipv: usize,
    /// Time kept back from every move for communication delays (UCI `Move Overhead`).
    pub move_overhead: Duration,
    /// The playing level (UCI `Skill Level`, UCCI `skill`); level 20 is full strength.
    pub skill: Skill,
    /// Play at the level of [`elo`](Options::elo) instead of [`skill`](Options::skill)
    /// (UCI `UCI_LimitStrength`).
    pub limit_strength: bool,
    /// The Elo to play at with [`limit_strength`](Options::limit_strength) (UCI
    /// `UCI_Elo`), mapped onto a level by [`Skill::from_elo`].
    pub elo: u32,
    /// The network to evaluate with, or `None` for the classical evaluation (UCI
    /// `Use NNUE` and `EvalFile`). The default is [`xq_eval::nnue::default_network`].
    pub network: Option<Arc<Network>>,
    /// Play a move of the opening book ([`Engine::set_book`]) while it has one (UCI
    /// `OwnBook`): see [`Engine::go`].
    pub own_book: bool,
    /// The book is asked in the game's first this many plies, counted from the start
    /// of the game as the position's move number says (UCI `BookDepth`).
    pub book_depth: u32,
    /// Play the book's heaviest move instead of one picked by weight (UCI `Best Book
    /// Move`): the same game every time.
    pub best_book_move: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mib: DEFAULT_HASH_MIB,
            threads: 1,
            multipv: 1,
            move_overhead: DEFAULT_OVERHEAD,
            skill: Skill::FULL,
            limit_strength: false,
            elo: DEFAULT_ELO,
            network: xq_eval::nnue::default_network(),
            own_book: false,
            book_depth: DEFAULT_BOOK_DEPTH,
            best_book_move: false,
        }
    }
}

impl Options {
    /// The level the engine plays at: the level of [`elo`](Options::elo) when
    /// [`limit_strength`](Options::limit_strength) is on, else [`skill`](Options::skill).
    pub fn strength(&self) -> Skill {
        if self.limit_strength {
            Skill::from_elo(self.elo)
        } else {
            self.skill
        }
    }

    /// These options brought within their ranges and `caps`.
    fn clamped(&self, caps: &Caps) -> Options {
        Options {
            hash_mib: self.hash_mib.clamp(1, caps.max_hash_mib),
            threads: self.threads.clamp(1, caps.max_threads),
            multipv: self.multipv.clamp(1, MAX_MULTIPV),
            move_overhead: self.move_overhead.min(MAX_OVERHEAD),
            skill: self.skill,
            limit_strength: self.limit_strength,
            elo: self.elo.clamp(MIN_ELO, MAX_ELO),
            network: self.network.clone(),
            own_book: self.own_book,
            book_depth: self.book_depth.min(MAX_BOOK_DEPTH),
            best_book_move: self.best_book_move,
        }
    }
}

/// Resource caps for an embedded engine: the most a user of it may set, and an optional
/// node cap on every search (fuzzing and tests use small ones).
///
/// ```
/// use xq_search::engine::{Caps, Engine, Options, TableError};
/// // A process that gives its engine's table at most 16 MiB: a bigger one is refused
/// // as the system would refuse it, and the engine keeps its table.
/// let caps = Caps { table_limit_mib: Some(16), ..Caps::default() };
/// let mut engine = Engine::with_caps(Options { hash_mib: 8, ..Options::default() }, caps);
/// let refused = engine.set_options(Options { hash_mib: 64, ..engine.options().clone() });
/// assert_eq!(refused, Err(TableError { mib: 64 }));
/// assert_eq!(engine.options().hash_mib, 8);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    /// Largest transposition table, MiB: a larger [`Options::hash_mib`] is brought down
    /// to it without a word (the default table is never larger). The protocols announce
    /// it as the `Hash` option's maximum and refuse more.
    pub max_hash_mib: usize,
    /// Most search threads (the protocols' `Threads` maximum).
    pub max_threads: usize,
    /// Every search stops after this many nodes, whatever its limits say.
    pub max_nodes: Option<u64>,
    /// The memory the table may take, MiB: a larger table is refused as when the system
    /// refuses the memory (the engine keeps its table and reports a [`TableError`]).
    /// `None`: as much as the system gives.
    pub table_limit_mib: Option<usize>,
}

impl Default for Caps {
    fn default() -> Caps {
        Caps {
            max_hash_mib: MAX_HASH_MIB,
            max_threads: MAX_THREADS,
            max_nodes: None,
            table_limit_mib: None,
        }
    }
}

impl Caps {
    /// These caps within the engine's own limits.
    fn clamped(&self) -> Caps {
        Caps {
            max_hash_mib: self.max_hash_mib.clamp(1, MAX_HASH_MIB),
            max_threads: self.max_threads.clamp(1, MAX_THREADS),
            max_nodes: self.max_nodes.map(|n| n.max(1)),
            table_limit_mib: self.table_limit_mib,
        }
    }

    /// A table of `mib` MiB, unless it is over the limit or the system refuses it.
    fn table(&self, mib: usize) -> Result<TranspositionTable, TableError> {
        if self.table_limit_mib.is_some_and(|limit| mib > limit) {
            return Err(TableError { mib });
        }
        TranspositionTable::try_new(mib)
    }
}

/// Where a search's reports go. Both methods are called on the search thread. A closure
/// `Fn(&Info)` is a listener that takes the infos and ignores the answer (read it from
/// [`Engine::stop`] or [`Engine::wait`]).
pub trait Listener: Send + Sync {
    /// A completed iteration (one line of MultiPV).
    fn info(&self, info: &Info);

    /// The final answer for `game`'s current position (`best_move` is `None` when there
    /// is no legal, unbanned move; `ponder`, when set, is legal after `best_move`).
    fn best_move(&self, result: &SearchResult, game: &Game) {
        let _ = (result, game);
    }

    /// Nobody reads the reports any more (a closed pipe): a running search stops.
    fn is_closed(&self) -> bool {
        false
    }

    /// The move answered comes from the opening book: `chosen`, one of `moves` (the
    /// book's moves in the position, heaviest first). Called before
    /// [`best_move`](Listener::best_move), instead of any [`info`](Listener::info).
    fn book(&self, moves: &[BookMove], chosen: &BookMove) {
        let _ = (moves, chosen);
    }
}

impl<F: Fn(&Info) + Send + Sync> Listener for F {
    fn info(&self, info: &Info) {
        self(info)
    }
}

impl<L: Listener + ?Sized> Listener for Arc<L> {
    fn info(&self, info: &Info) {
        (**self).info(info)
    }
    fn best_move(&self, result: &SearchResult, game: &Game) {
        (**self).best_move(result, game)
    }
    fn is_closed(&self) -> bool {
        (**self).is_closed()
    }
    fn book(&self, moves: &[BookMove], chosen: &BookMove) {
        (**self).book(moves, chosen)
    }
}

impl Listener for Box<dyn Listener> {
    fn info(&self, info: &Info) {
        (**self).info(info)
    }
    fn best_move(&self, result: &SearchResult, game: &Game) {
        (**self).best_move(result, game)
    }
    fn is_closed(&self) -> bool {
        (**self).is_closed()
    }
    fn book(&self, moves: &[BookMove], chosen: &BookMove) {
        (**self).book(moves, chosen)
    }
}
