//! The engine: the search on a pool of threads (Lazy SMP) over one shared table, run in
//! the background so that it can be stopped, pondered and held, at a playing level, with
//! a clock turned into a time budget. GUIs play with it through the `xq` binary's
//! protocols, and a program takes it from here.
//!
//! [`Engine::go`] starts a search of the current game on its own thread (and helper
//! threads for Lazy SMP) and returns at once; the engine reports each completed
//! iteration and the final answer to a [`Listener`]. [`Engine::stop`] stops it and
//! returns the answer; [`Engine::wait`] waits for the search to end by its limits.
//!
//! Infinite and ponder searches are *held*: when such a search ends by itself, its
//! thread waits for [`Engine::stop`] (or [`Engine::ponderhit`]) before it answers, as
//! the protocols ask.
//!
//! Pondering: a ponder search is started without any time limit (depth and node limits
//! still apply), and the time budget the clock would give is remembered. On
//! [`Engine::ponderhit`] the clock starts: the soft limit becomes a deadline checked after
//! every completed iteration (no new iteration after it), and a timer thread sets the
//! stop flag at the hard deadline. The search itself is not restarted, so nothing it
//! learnt is lost.
//!
//! Playing levels ([`Options::strength`]): below full strength the search is capped by
//! the level's depth and nodes and searches the level's number of lines (not reported
//! beyond the [`Options::multipv`] asked for); the move answered is the one the level
//! picks from the last completed iteration, with a seed drawn from the engine's own
//! generator ([`Engine::set_seed`]).
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

use crate::time::Instant;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;
use xq_core::{Move, Position, SplitMix64};
use xq_movegen::Game;

use crate::skill::{LastIteration, Skill, ELO_OF_LEVEL, MAX_ELO, MIN_ELO};
use crate::time::{time_budget, Budget};
pub use crate::tt::TableError;
use crate::tt::TranspositionTable;
use crate::{Info, Limits, SearchParams, SearchResult, Searcher};
use xq_book::{Book, BookMove};
use xq_core::Color;
use xq_eval::nnue::Network;

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
    /// to it without a word (the default table is never larger).
    pub max_hash_mib: usize,
    /// Most search threads.
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

#[derive(Debug, Default)]
struct ControlState {
    /// An infinite or ponder search must not answer yet.
    hold: bool,
    /// After `ponderhit`: no new iteration after this.
    soft_deadline: Option<Instant>,
    /// The search thread has answered.
    done: bool,
}

/// What the engine and a running search share.
#[derive(Debug, Default)]
struct Control {
    stop: AtomicBool,
    /// Answer nothing (after `abandon`).
    quiet: AtomicBool,
    state: Mutex<ControlState>,
    cv: Condvar,
}

impl Control {
    fn lock(&self) -> MutexGuard<'_, ControlState> {
        // A poisoned lock only means a panicking thread; the state is still usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// What the search thread hands back: its searchers and its answer.
type Finished = (Vec<Searcher>, SearchResult);

struct Running {
    ctl: Arc<Control>,
    handle: JoinHandle<Finished>,
    ponder: bool,
    /// `go ponder infinite`: still held after `ponderhit`.
    infinite: bool,
    /// The clock's budget, to start at `ponderhit`.
    budget: Option<Budget>,
}

impl Running {
    /// Has the search answered (its thread is then about to end)?
    fn answered(&self) -> bool {
        self.handle.is_finished() || self.ctl.lock().done
    }
}

/// The engine: the game, the options, the searchers and the running search.
///
/// See the [module docs](self) for an example.
pub struct Engine {
    game: Game,
    banned: Vec<Move>,
    options: Options,
    tt: Arc<TranspositionTable>,
    tt_mib: usize,
    searchers: Vec<Searcher>,
    pending_new_game: bool,
    running: Option<Running>,
    caps: Caps,
    /// A minimal table the searchers hold while the real one is replaced or cleared.
    spare: Arc<TranspositionTable>,
    /// The generator of the seeds of the level's choices and of book picks.
    seeds: SplitMix64,
    /// The opening book, if one is set.
    book: Option<Arc<Book>>,
    /// The search's margins, depth limits and reductions.
    params: SearchParams,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("fen", &self.game.position().to_fen())
            .field("options", &self.options)
            .field("searching", &self.running.is_some())
            .finish()
    }
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new(Options::default())
    }
}

impl Engine {
    /// An engine at the start position with `options`. If the table cannot have the size
    /// asked for, it has the default size (or less): [`Engine::options`] says which.
    pub fn new(options: Options) -> Engine {
        Engine::with_caps(options, Caps::default())
    }

    /// An engine at the start position with `options`, or the error when its table
    /// cannot be allocated.
    ///
    /// # Errors
    /// The system refuses the memory of the table.
    ///
    /// ```
    /// use xq_search::engine::{Engine, Options, MAX_HASH_MIB};
    /// let engine = Engine::try_new(Options { hash_mib: 4, ..Options::default() }).unwrap();
    /// assert_eq!(engine.table().size_mib(), 4);
    /// ```
    pub fn try_new(options: Options) -> Result<Engine, TableError> {
        Engine::try_with_caps(options, Caps::default())
    }

    /// An engine at the start position with `options`, within `caps`. If the table
    /// cannot have the size asked for, it has the default size (or less):
    /// [`Engine::options`] says which.
    pub fn with_caps(options: Options, caps: Caps) -> Engine {
        let smaller = Options {
            hash_mib: options.hash_mib.min(DEFAULT_HASH_MIB),
            ..options.clone()
        };
        Engine::try_with_caps(options.clone(), caps)
            .or_else(|_| Engine::try_with_caps(smaller, caps))
            .unwrap_or_else(|_| {
                let caps = caps.clamped();
                Engine::build(options, caps, Arc::new(TranspositionTable::new(1)), 1)
            })
    }

    /// An engine at the start position with `options`, within `caps`, or the error when
    /// its table cannot be allocated.
    ///
    /// # Errors
    /// The system (or [`Caps::table_limit_mib`]) refuses the memory of the table.
    ///
    /// ```
    /// use xq_search::engine::{Caps, Engine, Options, TableError};
    /// let caps = Caps { table_limit_mib: Some(8), ..Caps::default() };
    /// let big = Options { hash_mib: 16, ..Options::default() };
    /// assert_eq!(Engine::try_with_caps(big, caps).unwrap_err(), TableError { mib: 16 });
    /// ```
    pub fn try_with_caps(options: Options, caps: Caps) -> Result<Engine, TableError> {
        let caps = caps.clamped();
        let mib = options.clamped(&caps).hash_mib;
        let tt = caps.table(mib)?;
        Ok(Engine::build(options, caps, Arc::new(tt), mib))
    }

    /// The engine with its table made.
    fn build(options: Options, caps: Caps, tt: Arc<TranspositionTable>, tt_mib: usize) -> Engine {
        let options = Options {
            hash_mib: tt_mib,
            ..options.clamped(&caps)
        };
        let mut engine = Engine {
            game: Game::startpos(),
            banned: Vec::new(),
            tt,
            tt_mib,
            options,
            searchers: Vec::new(),
            pending_new_game: false,
            running: None,
            caps,
            spare: Arc::new(TranspositionTable::new(1)),
            seeds: SplitMix64::new(clock_seed()),
            book: None,
            params: SearchParams::default(),
        };
        // The table has its size already: nothing to allocate.
        let _ = engine.sync();
        engine
    }

    /// The current game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The resource caps.
    pub fn caps(&self) -> &Caps {
        &self.caps
    }

    /// Changes the options, brought within their ranges and the caps; they take effect
    /// now if the engine is idle, else when the running search has ended.
    ///
    /// # Errors
    /// The table of the new size cannot be allocated: the engine keeps a table of the
    /// size it had (and [`Engine::options`] says that size), the other options are
    /// taken. (When the engine is searching, the table is made when the search has
    /// ended, and a refusal then leaves the old size without a word.)
    pub fn set_options(&mut self, options: Options) -> Result<(), TableError> {
        self.options = options.clamped(&self.caps);
        self.sync()
    }

    /// The search's margins, depth limits and reductions.
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Sets the search's margins, depth limits and reductions on every thread (a tuner's
    /// way in: see [`SearchParams::set`]); they take effect now if the engine is idle,
    /// else when the running search has ended. The engine plays at full strength with
    /// [`SearchParams::default`].
    ///
    /// ```
    /// use xq_search::engine::{Engine, Options};
    /// use xq_search::{Limits, SearchParams};
    /// let mut engine = Engine::new(Options { hash_mib: 1, ..Options::default() });
    /// let mut params = SearchParams::default();
    /// params.set("rfp_margin", 80).unwrap();
    /// engine.set_params(params);
    /// assert_eq!(engine.params().get("rfp_margin"), Some(80));
    /// assert_eq!(engine.search(Limits::depth(4), |_| true).depth, 4);
    /// ```
    pub fn set_params(&mut self, params: SearchParams) {
        self.params = params;
        // Only a table that cannot be had fails, and the table's size is not changed.
        let _ = self.sync();
    }

    /// Seeds the generator of the level's choices: after the same seed, the same
    /// searches choose the same moves (a reproducible game). The engine starts from a
    /// seed taken from the clock.
    pub fn set_seed(&mut self, seed: u64) {
        self.seeds = SplitMix64::new(seed);
    }

    /// Sets the opening book (`None`: none). The engine plays from it when
    /// [`Options::own_book`] is on; see [`Engine::go`].
    ///
    /// ```
    /// use std::sync::Arc;
    /// use xq_book::{BookBuilder, BuildOptions};
    /// use xq_search::Engine;
    /// let mut engine = Engine::default();
    /// assert!(engine.book().is_none());
    /// engine.set_book(Some(Arc::new(BookBuilder::new(BuildOptions::default()).finish())));
    /// assert!(engine.book().unwrap().is_empty());
    /// ```
    pub fn set_book(&mut self, book: Option<Arc<Book>>) {
        self.book = book;
    }

    /// The opening book, if one is set.
    pub fn book(&self) -> Option<&Book> {
        self.book.as_deref()
    }

    /// The book's answer for the current game within `limits`: the moves it offers (of
    /// those `limits` allow, not banned, not repeating a position of the game) and the
    /// one picked, with the book's reply to it as the move to ponder on.
    fn book_answer(&mut self, limits: &Limits) -> Option<BookAnswer> {
        // Analysis (infinite, mate) and pondering search.
        if !self.options.own_book || limits.infinite || limits.ponder || limits.mate.is_some() {
            return None;
        }
        let book = self.book.clone()?;
        let pos = self.game.position();
        let ply = 2 * pos.fullmove_number().saturating_sub(1)
            + u32::from(pos.side_to_move() == Color::Black);
        if ply >= self.options.book_depth {
            return None;
        }
        let earlier: Vec<u64> = (0..self.game.moves().len())
            .filter_map(|i| self.game.position_at(i).map(|p| p.key()))
            .collect();
        let moves: Vec<BookMove> = book
            .probe(pos)
            .into_iter()
            .filter(|b| limits.root_moves.is_empty() || limits.root_moves.contains(&b.mv))
            .filter(|b| !limits.banned_moves.contains(&b.mv) && !self.banned.contains(&b.mv))
            .filter(|b| {
                let mut after = pos.clone();
                after.make_move(b.mv);
                !earlier.contains(&after.key()) && after.key() != pos.key()
            })
            .collect();
        let chosen = if self.options.best_book_move {
            *moves.first()?
        } else {
            let sum: u64 = moves.iter().map(|b| u64::from(b.weight)).sum();
            let mut r = self.seeds.next_u64() % sum.max(1);
            *moves.iter().find(|b| {
                let here = r < u64::from(b.weight);
                r = r.saturating_sub(u64::from(b.weight));
                here
            })?
        };
        let mut after = pos.clone();
        after.make_move(chosen.mv);
        let ponder = book.probe(&after).first().map(|b| b.mv);
        Some(BookAnswer {
            moves,
            chosen,
            ponder,
        })
    }

    /// The shared transposition table (to probe it).
    pub fn table(&self) -> &TranspositionTable {
        &self.tt
    }

    /// Sets the game to search from (a GUI's `position`); clears the banned moves.
    pub fn set_game(&mut self, game: Game) {
        self.game = game;
        self.banned.clear();
    }

    /// Forbids these moves in the current position (UCCI `banmoves`), until the next
    /// [`Engine::set_game`].
    pub fn set_banned(&mut self, moves: Vec<Move>) {
        self.banned = moves;
    }

    /// Forgets everything learnt (a new game): clears the table and the searchers'
    /// histories, now or when the running search has ended.
    pub fn new_game(&mut self) {
        self.pending_new_game = true;
        // The size is unchanged: the table is cleared, not made again.
        let _ = self.sync();
    }

    /// Starts a search of the current game within `limits`, reporting to `listener`, and
    /// returns at once. A search already running is stopped first (and answers).
    ///
    /// With [`Options::own_book`] on and a book set, a game still within
    /// [`Options::book_depth`] plies is answered from the book when it has a move for
    /// the position (among `limits`' root moves, not banned, not repeating a position
    /// of the game): picked by weight with the engine's generator ([`Engine::set_seed`]),
    /// or the heaviest with [`Options::best_book_move`]. Nothing is searched: the
    /// listener hears [`Listener::book`], then the answer, which says
    /// [`from_book`](SearchResult::from_book). Infinite, ponder and mate searches are
    /// analysis: they always search.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use xq_book::{BookBuilder, BuildOptions};
    /// use xq_search::engine::{Engine, Options};
    /// use xq_search::Limits;
    /// let mut builder = BookBuilder::new(BuildOptions::default());
    /// let start = xq_core::Position::startpos();
    /// builder.add_game(&start, &["h0g2".parse().unwrap()], None).unwrap();
    /// let mut engine = Engine::new(Options { own_book: true, hash_mib: 1, ..Options::default() });
    /// engine.set_book(Some(Arc::new(builder.finish())));
    /// let answer = engine.search(Limits::depth(20), |_| true);
    /// assert!(answer.from_book);
    /// assert!(["h0g2", "b0c2"].contains(&answer.best_move.unwrap().to_string().as_str()));
    /// assert_eq!(answer.nodes, 0);
    /// ```
    pub fn go(&mut self, limits: Limits, listener: impl Listener + 'static) {
        self.stop();
        let book = self.book_answer(&limits);
        let budget = time_budget(
            limits.clock.as_ref(),
            limits.movetime,
            self.options.move_overhead,
        );
        let mut limits = limits;
        limits.banned_moves.extend(self.banned.iter().copied());
        let skill = self.options.strength();
        skill.restrict(&mut limits);
        if let Some(cap) = self.caps.max_nodes {
            limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
        }
        // The searchers read the time from the budget given here, and none when
        // pondering or searching forever.
        let held = limits.infinite || limits.ponder;
        let search_budget = budget.filter(|_| !held);
        let ctl = Arc::new(Control::default());
        ctl.lock().hold = held;
        let mut searchers = std::mem::take(&mut self.searchers);
        if searchers.is_empty() {
            let mut s = Searcher::with_table(self.tt.clone());
            s.set_network(self.options.network.clone());
            s.set_params(self.params.clone());
            searchers.push(s);
        }
        let level = Level {
            skill,
            seed: self.seeds.next_u64(),
            shown: self.options.multipv,
        };
        searchers[0].set_multipv(self.options.multipv.max(skill.lines()));
        let (ponder, infinite) = (limits.ponder, limits.infinite);
        let job = Job {
            game: self.game.clone(),
            limits,
            budget: search_budget,
            level,
            book,
        };
        let thread_ctl = ctl.clone();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || search_thread(searchers, job, thread_ctl, listener));
        match handle {
            Ok(handle) => {
                self.running = Some(Running {
                    ctl,
                    handle,
                    ponder,
                    infinite,
                    budget,
                });
            }
            Err(_) => {
                // The searchers went with the failed closure; rebuild them.
                self.pending_new_game = true;
                let _ = self.sync();
            }
        }
    }

    /// Searches the current game within `limits` on the engine's threads and returns the
    /// answer, calling `report` on this thread for each completed iteration (which may
    /// stop it by returning `false`).
    ///
    /// ```
    /// use xq_search::engine::{Engine, Options};
    /// use xq_search::Limits;
    /// let mut engine = Engine::new(Options { threads: 2, hash_mib: 16, ..Options::default() });
    /// let mut depths = Vec::new();
    /// let result = engine.search(Limits::depth(6), |info| {
    ///     depths.push(info.depth);
    ///     true
    /// });
    /// assert_eq!(result.depth, 6);
    /// assert_eq!(depths.last(), Some(&6));
    /// ```
    pub fn search(
        &mut self,
        limits: Limits,
        mut report: impl FnMut(&Info) -> bool,
    ) -> SearchResult {
        let (tx, rx) = std::sync::mpsc::channel::<Info>();
        self.go(limits, move |info: &Info| {
            let _ = tx.send(info.clone());
        });
        // The channel closes when the search thread ends (its listener is dropped).
        for info in rx {
            if !report(&info) {
                return self.stop().unwrap_or_default();
            }
        }
        self.wait().unwrap_or_default()
    }

    /// Stops the search (if any) and waits for its answer, which its listener has been
    /// given too; `None` when no search was running.
    pub fn stop(&mut self) -> Option<SearchResult> {
        if let Some(r) = &self.running {
            r.ctl.stop.store(true, Ordering::SeqCst);
            r.ctl.lock().hold = false;
            r.ctl.cv.notify_all();
        }
        self.join()
    }

    /// The opponent played the expected move: the ponder search becomes a normal one
    /// with the clock's budget from now. Returns `false` when not pondering.
    pub fn ponderhit(&mut self) -> bool {
        self.reap();
        let Some(r) = self.running.as_mut().filter(|r| r.ponder) else {
            return false;
        };
        r.ponder = false;
        let now = Instant::now();
        let budget = r.budget;
        {
            let mut st = r.ctl.lock();
            st.hold = r.infinite;
            st.soft_deadline = budget.map(|b| now + b.soft);
        }
        r.ctl.cv.notify_all();
        // Without a clock (e.g. `go ponder depth 8`) the search ends by its own limits.
        if let Some(Budget { hard, .. }) = budget {
            let ctl = r.ctl.clone();
            let deadline = now + hard;
            let timer = std::thread::Builder::new()
                .name("timer".into())
                .spawn(move || timer_thread(ctl, deadline));
            if timer.is_err() {
                // No timer: stop at once rather than risk the clock.
                r.ctl.stop.store(true, Ordering::SeqCst);
            }
        }
        true
    }

    /// Is a search running (it has not answered yet)?
    pub fn is_searching(&mut self) -> bool {
        self.reap();
        self.running.is_some()
    }

    /// Waits until a running search has answered by its own limits and returns the
    /// answer. A held search (infinite, or pondering) would never answer by itself: it
    /// is stopped instead.
    pub fn wait(&mut self) -> Option<SearchResult> {
        if self.running.as_ref().is_some_and(|r| r.ctl.lock().hold) {
            self.stop()
        } else {
            self.join()
        }
    }

    /// Stops the search (if any) without an answer: its listener is given nothing more.
    pub fn abandon(&mut self) {
        if let Some(r) = &self.running {
            r.ctl.quiet.store(true, Ordering::SeqCst);
        }
        self.stop();
    }

    /// Joins a search thread that has answered by itself.
    fn reap(&mut self) {
        if self.running.as_ref().is_some_and(Running::answered) {
            self.join();
        }
    }

    fn join(&mut self) -> Option<SearchResult> {
        let result = self.take_back();
        // A table refused now keeps the old size; nobody is asking.
        let _ = self.sync();
        result
    }

    /// Waits for the search thread, takes its searchers back and returns its answer.
    fn take_back(&mut self) -> Option<SearchResult> {
        let r = self.running.take()?;
        match r.handle.join() {
            Ok((searchers, result)) => {
                self.searchers = searchers;
                Some(result)
            }
            // Cannot happen unless the search has a bug; start afresh.
            Err(_) => {
                self.searchers.clear();
                self.pending_new_game = true;
                None
            }
        }
    }

    /// Applies the options and a pending new game, unless a search is running. A table
    /// of the new size that cannot be had is the error; the old size is kept.
    fn sync(&mut self) -> Result<(), TableError> {
        if self.running.as_ref().is_some_and(Running::answered) {
            self.take_back();
        }
        if self.running.is_some() {
            return Ok(());
        }
        // The table keeps static evaluations: another evaluation starts afresh.
        let same_net = |s: &Searcher| match (&s.net, &self.options.network) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
        if !self.searchers.iter().all(same_net) {
            self.pending_new_game = true;
        }
        let mut refused = None;
        if self.pending_new_game || self.tt_mib != self.options.hash_mib {
            // Detach the searchers, so that the engine holds the only reference.
            for s in &mut self.searchers {
                s.set_table(self.spare.clone());
            }
            let same_size = self.tt_mib == self.options.hash_mib;
            match Arc::get_mut(&mut self.tt) {
                // A new game: clear the table in place. Freeing it and allocating
                // another left freed tables resident in the allocator's heap, so that
                // memory grew past the hash size over many games.
                Some(tt) if same_size => tt.clear(),
                _ => {
                    // Release the old table before allocating the new one; if the new
                    // one is refused, make the old size again (or the smallest).
                    self.tt = self.spare.clone();
                    let (tt, mib) = match self.caps.table(self.options.hash_mib) {
                        Ok(tt) => (tt, self.options.hash_mib),
                        Err(e) => {
                            refused = Some(e);
                            match self.caps.table(self.tt_mib) {
                                Ok(tt) => (tt, self.tt_mib),
                                Err(_) => (TranspositionTable::new(1), 1),
                            }
                        }
                    };
                    self.tt = Arc::new(tt);
                    self.tt_mib = mib;
                    self.options.hash_mib = mib;
                }
            }
            for s in &mut self.searchers {
                s.set_table(self.tt.clone());
            }
        }
        if self.pending_new_game {
            for s in &mut self.searchers {
                s.new_game();
            }
            self.pending_new_game = false;
        }
        self.searchers.truncate(self.options.threads);
        while self.searchers.len() < self.options.threads {
            self.searchers.push(Searcher::with_table(self.tt.clone()));
        }
        for (i, s) in self.searchers.iter_mut().enumerate() {
            s.set_multipv(if i == 0 { self.options.multipv } else { 1 });
            if !same_net(s) {
                s.set_network(self.options.network.clone());
            }
            if s.params != self.params {
                s.set_params(self.params.clone());
            }
        }
        refused.map_or(Ok(()), Err)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.abandon();
    }
}

fn timer_thread(ctl: Arc<Control>, deadline: Instant) {
    let mut st = ctl.lock();
    loop {
        if st.done {
            return;
        }
        let now = Instant::now();
        if now >= deadline {
            ctl.stop.store(true, Ordering::SeqCst);
            return;
        }
        st = match ctl.cv.wait_timeout(st, deadline - now) {
            Ok((g, _)) => g,
            Err(e) => e.into_inner().0,
        };
    }
}

/// A seed from the clock, for an engine nobody seeded.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0x5EED, |d| d.as_nanos() as u64)
}

/// How a search plays at a level.
#[derive(Clone, Copy, Debug)]
struct Level {
    skill: Skill,
    /// The seed of this search's choice.
    seed: u64,
    /// The lines asked to be reported (the level may search more).
    shown: usize,
}

/// What one search is asked to do.
struct Job {
    game: Game,
    limits: Limits,
    budget: Option<Budget>,
    level: Level,
    /// The answer from the book, if there is one: then nothing is searched.
    book: Option<BookAnswer>,
}

/// The book's answer: the moves it offers, the one picked, and the book's reply to it.
#[derive(Clone, Debug)]
struct BookAnswer {
    moves: Vec<BookMove>,
    chosen: BookMove,
    ponder: Option<Move>,
}

impl BookAnswer {
    /// The answer as a search result: the move, its expected reply, no search.
    fn result(&self) -> SearchResult {
        let mut pv = vec![self.chosen.mv];
        pv.extend(self.ponder);
        SearchResult {
            best_move: Some(self.chosen.mv),
            ponder: self.ponder,
            pv,
            from_book: true,
            ..SearchResult::default()
        }
    }
}

fn search_thread(
    mut searchers: Vec<Searcher>,
    job: Job,
    ctl: Arc<Control>,
    listener: impl Listener,
) -> Finished {
    let Job {
        game,
        limits,
        budget,
        level,
        book,
    } = job;
    let mut last = LastIteration::default();
    let mut result = if let Some(book) = book {
        if !ctl.quiet.load(Ordering::SeqCst) {
            listener.book(&book.moves, &book.chosen);
        }
        book.result()
    } else {
        let (main, helpers) = match searchers.split_first_mut() {
            Some(x) => x,
            None => unreachable!("go always passes a searcher"),
        };
        // One count of the helpers' nodes for this search: the main thread reports and
        // limits the whole search's nodes.
        let helper_nodes = Arc::new(AtomicU64::new(0));
        main.helper_nodes = helper_nodes.clone();
        for h in helpers.iter_mut() {
            h.helper_nodes = helper_nodes.clone();
        }
        let stop = &ctl.stop;
        let (game, limits) = (&game, &limits);
        let mut result = std::thread::scope(|s| {
            for (i, h) in helpers.iter_mut().enumerate() {
                // A helper the system will not start is done without.
                let _ = std::thread::Builder::new()
                    .name(format!("helper-{}", i + 1))
                    .spawn_scoped(s, move || {
                        h.search_within(game, limits, budget, stop, i + 1, &mut |_| {});
                    });
            }
            let mut report = |info: &Info| {
                if !ctl.quiet.load(Ordering::Relaxed) && info.multipv <= level.shown {
                    listener.info(info);
                }
                last.add(info);
                let deadline = ctl.lock().soft_deadline;
                if listener.is_closed() || deadline.is_some_and(|d| Instant::now() >= d) {
                    stop.store(true, Ordering::SeqCst);
                }
            };
            let result = main.search_within(game, limits, budget, stop, 0, &mut report);
            stop.store(true, Ordering::SeqCst);
            result
        });
        // The helpers have ended and added all their nodes.
        result.nodes = main.nodes + helper_nodes.load(Ordering::SeqCst);
        result
    };
    if !level.skill.is_full_strength() && !result.from_book {
        level.skill.choose(last.lines(), level.seed, &mut result);
    }
    if let Some(best) = result.best_move {
        result.ponder = legal_ponder(game.position(), best, result.ponder);
    }
    let mut st = ctl.lock();
    while st.hold {
        st = match ctl.cv.wait(st) {
            Ok(g) => g,
            Err(e) => e.into_inner(),
        };
    }
    if !ctl.quiet.load(Ordering::SeqCst) {
        listener.best_move(&result, &game);
    }
    st.done = true;
    drop(st);
    ctl.cv.notify_all();
    (searchers, result)
}

/// The expected reply to `best` if it is legal after it.
fn legal_ponder(pos: &Position, best: Move, ponder: Option<Move>) -> Option<Move> {
    let p = ponder?;
    let mut after = pos.clone();
    xq_movegen::try_play(&mut after, best).ok()?;
    xq_movegen::is_legal(&after, p).then_some(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::{channel, Sender};

    /// Reports nothing; closed after the first iteration; sends the best move.
    struct ClosedAfterOne {
        infos: Mutex<usize>,
        done: Mutex<Sender<Option<Move>>>,
    }

    impl Listener for ClosedAfterOne {
        fn info(&self, _: &Info) {
            *self.infos.lock().unwrap() += 1;
        }
        fn best_move(&self, result: &SearchResult, _: &Game) {
            self.done.lock().unwrap().send(result.best_move).unwrap();
        }
        fn is_closed(&self) -> bool {
            *self.infos.lock().unwrap() > 0
        }
    }

    #[test]
    fn a_search_stops_when_nobody_reads_its_reports() {
        let (tx, rx) = channel();
        let listener = Arc::new(ClosedAfterOne {
            infos: Mutex::new(0),
            done: Mutex::new(tx),
        });
        let caps = Caps {
            max_hash_mib: 1,
            max_threads: 1,
            max_nodes: None,
            table_limit_mib: None,
        };
        let mut engine = Engine::with_caps(Options::default(), caps);
        // Far more than a test could finish: only the closed listener can end it.
        engine.go(Limits::depth(60), listener.clone());
        let best = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("the search ended by itself");
        assert!(best.is_some());
        assert_eq!(*listener.infos.lock().unwrap(), 1);
    }

    fn two_threads() -> Engine {
        Engine::new(Options {
            threads: 2,
            hash_mib: 16,
            ..Options::default()
        })
    }

    #[test]
    fn a_parallel_search_reports_every_threads_nodes() {
        let mut engine = two_threads();
        let mut last = 0;
        let result = engine.search(Limits::depth(8), |info| {
            assert!(info.nodes >= last, "{} after {last}", info.nodes);
            last = info.nodes;
            true
        });
        let (main, helper) = (engine.searchers[0].nodes, engine.searchers[1].nodes);
        assert!(main > 0 && helper > 0, "{main} {helper}");
        assert_eq!(result.nodes, main + helper);
        assert!(last <= result.nodes);
    }

    #[test]
    fn a_node_limit_is_of_the_whole_search() {
        let mut engine = two_threads();
        let n = 60_000;
        let result = engine.search(Limits::nodes(n), |_| true);
        let (main, helper) = (engine.searchers[0].nodes, engine.searchers[1].nodes);
        assert_eq!(result.nodes, main + helper);
        // The threads exchange their counts every 1,024 nodes, and a helper stops within
        // 1,024 nodes of the main thread.
        assert!(
            (n..n + 8 * 1024).contains(&result.nodes),
            "{} = {main} + {helper}",
            result.nodes
        );
        assert!(helper > 0, "{main} {helper}");
    }
}
