//! [`SearchEngine`]: what runs the engine's jobs, and the setters of every option, so that
//! an option's effect lives with the engine (as Stockfish's `Engine` owns what its UCI
//! options do) and every host (the protocols, a program, Python, a web page, self-play)
//! sets it the same way with the same errors.

use super::{Core, EngineError, Files, Listener, Options, TableError};
use crate::skill::Skill;
use crate::tt::TtEntry;
use crate::{Limits, SearchParams, SearchResult};
use std::sync::Arc;
use std::time::Duration;
use xq_book::{Book, BookError};
use xq_eval::nnue::Network;
use xq_movegen::Game;
use xq_tablebase::Tablebases;

/// The name that means the built-in network where a network file is asked for (UCI's
/// `EvalFile` default); the empty name means the same.
pub const BUILT_IN_NETWORK: &str = "<built-in>";

/// Reads the network file `path` from `files` (a program's [`Disk`](super::Disk)): what
/// [`SearchEngine::load_network`] does, for the hosts that keep a network apart from an
/// engine (self-play, the trainer's starting weights), with the same error.
///
/// # Errors
/// [`EngineError::Network`]: the file cannot be read, or is not a network.
///
/// ```
/// use xq_search::engine::{read_network, Disk};
/// let e = read_network(&Disk, "no/such.nnue").unwrap_err();
/// assert!(e.to_string().starts_with("cannot load the network no/such.nnue: "));
/// ```
pub fn read_network(files: &dyn Files, path: &str) -> Result<Arc<Network>, EngineError> {
    let fail = |reason: String| EngineError::Network {
        path: path.to_string(),
        reason,
    };
    let bytes = files.read(path).map_err(fail)?;
    let net = Network::from_bytes(&bytes).map_err(|e| fail(e.to_string()))?;
    Ok(Arc::new(net))
}

/// Reads the opening book at `path` from `files` (xq's format or ElephantEye's
/// `BOOK.DAT`): what [`SearchEngine::load_book`] does, with the same error.
///
/// # Errors
/// [`EngineError::Book`]: the file cannot be read, or is not a book.
pub fn read_book(files: &dyn Files, path: &str) -> Result<Arc<Book>, EngineError> {
    files
        .read(path)
        .map_err(|message| BookError::Io {
            path: path.into(),
            message,
        })
        .and_then(|bytes| Book::from_bytes(&bytes))
        .map(Arc::new)
        .map_err(|error| EngineError::Book {
            path: path.to_string(),
            error,
        })
}

/// Opens the endgame tables of the directory `path` (from the disk; files are read as
/// they are probed): what [`SearchEngine::load_tablebases`] does, with the same error.
///
/// # Errors
/// [`EngineError::Tablebases`]: the directory cannot be listed.
///
/// ```
/// use xq_search::engine::open_tablebases;
/// let e = open_tablebases("no/such/dir").unwrap_err();
/// assert!(e.to_string().starts_with("cannot read the tablebases no/such/dir: "), "{e}");
/// ```
pub fn open_tablebases(path: &str) -> Result<Arc<Tablebases>, EngineError> {
    Tablebases::open(path)
        .map(Arc::new)
        .map_err(|error| EngineError::Tablebases {
            path: path.to_string(),
            error,
        })
}

/// What the protocols drive: an engine that runs [`Job`](super::Job)s of its [`Core`],
/// on threads ([`Engine`](super::Engine)) or on the caller's thread
/// ([`Stepper`](super::Stepper)). The game, the options' values, the book, the tables
/// and the seed are the core's; a runner adds the table, the searchers and the search in
/// progress.
///
/// The setters (`set_hash`, `load_network`, `load_book`, `load_tablebases`, ...) are
/// the one way an option takes effect, for every host; each says what happens on an
/// error ([`EngineError`]).
///
/// ```
/// use xq_search::engine::{Engine, Options, SearchEngine};
/// use xq_search::skill::Skill;
/// let mut engine = Engine::new(Options { hash_mib: 1, ..Options::default() });
/// engine.set_hash(4).unwrap();
/// engine.set_multipv(3);
/// engine.set_skill(Skill::new(5));
/// assert_eq!((engine.options().hash_mib, engine.options().multipv), (4, 3));
/// // A book that is not there: the engine plays without one.
/// assert!(engine.load_book("no/such.xqb").is_err());
/// assert!(engine.book().is_none());
/// ```
pub trait SearchEngine: std::fmt::Debug + Send {
    /// The game, options, book, tables, seed and parameters.
    fn core(&self) -> &Core;

    /// The game, options, book, tables, seed and parameters, to change (the options
    /// through [`SearchEngine::set_options`] or the setters, which the runner must see).
    fn core_mut(&mut self) -> &mut Core;

    /// Changes the options, brought within their ranges and the caps: now if the engine
    /// is idle, else when the running search has ended.
    ///
    /// # Errors
    /// The table of the new size cannot be allocated: the engine keeps a table of the
    /// size it had ([`Core::options`] says that size); the other options are taken.
    fn set_options(&mut self, options: Options) -> Result<(), TableError>;

    /// Sets the search's margins, depth limits and reductions (a tuner's way in).
    fn set_params(&mut self, params: SearchParams);

    /// Forgets everything learnt (a new game): the table and the histories.
    fn new_game(&mut self);

    /// Starts a search of the core's game within `limits`, reporting to `listener`. A
    /// search already running is stopped first (and answers).
    fn go(&mut self, limits: Limits, listener: Box<dyn Listener>);

    /// Stops the search (if any) and returns its answer, which its listener has been
    /// given too; `None` when no search was running.
    fn stop(&mut self) -> Option<SearchResult>;

    /// The opponent played the expected move: the ponder search goes on as a normal one
    /// with the clock's budget from now. `false` when not pondering.
    fn ponderhit(&mut self) -> bool;

    /// Stops the search (if any) without an answer.
    fn abandon(&mut self);

    /// Lets a running search end by its own limits and returns its answer (a held one,
    /// infinite or pondering, is stopped instead).
    fn wait(&mut self) -> Option<SearchResult>;

    /// Has a search been started that has not answered yet?
    fn is_searching(&mut self) -> bool;

    /// What the transposition table holds for the position of `key` (UCCI's `probe`).
    fn probe(&self, key: u64) -> Option<TtEntry>;

    /// The name the protocols announce for this engine, when it is not xq's own search
    /// (`None`: the protocol's name for xq).
    fn name(&self) -> Option<&'static str> {
        None
    }

    /// The current game.
    fn game(&self) -> &Game {
        self.core().game()
    }

    /// Sets the game to search from; clears the banned moves.
    fn set_game(&mut self, game: Game) {
        self.core_mut().set_game(game);
    }

    /// The options.
    fn options(&self) -> &Options {
        self.core().options()
    }

    /// The transposition table's size, MiB (UCI `Hash`; brought within the caps).
    ///
    /// # Errors
    /// [`EngineError::Table`]: the memory cannot be had; the engine keeps its table.
    fn set_hash(&mut self, mib: usize) -> Result<(), EngineError> {
        change(self, |o| o.hash_mib = mib)
    }

    /// Search threads (UCI `Threads`; at least one, at most the caps').
    fn set_threads(&mut self, threads: usize) {
        // The table's size is unchanged: nothing to refuse.
        let _ = change(self, |o| o.threads = threads);
    }

    /// Lines searched and reported (UCI `MultiPV`).
    fn set_multipv(&mut self, lines: usize) {
        let _ = change(self, |o| o.multipv = lines);
    }

    /// Time kept back from every move (UCI `Move Overhead`).
    fn set_move_overhead(&mut self, overhead: Duration) {
        let _ = change(self, |o| o.move_overhead = overhead);
    }

    /// The playing level (UCI `Skill Level`).
    fn set_skill(&mut self, skill: Skill) {
        let _ = change(self, |o| o.skill = skill);
    }

    /// Play at the level of [`Options::elo`] (UCI `UCI_LimitStrength`).
    fn set_limit_strength(&mut self, on: bool) {
        let _ = change(self, |o| o.limit_strength = on);
    }

    /// The Elo to play at with [`Options::limit_strength`] (UCI `UCI_Elo`).
    fn set_elo(&mut self, elo: u32) {
        let _ = change(self, |o| o.elo = elo);
    }

    /// Evaluate with a network (the one [`load_network`](SearchEngine::load_network)
    /// loaded, else the built-in one) or, when off, with the classical evaluation (UCI
    /// `Use NNUE`).
    fn set_use_network(&mut self, on: bool) {
        self.core_mut().use_network = on;
        let network = self.core().chosen_network();
        let _ = change(self, |o| o.network = network);
    }

    /// Evaluates with `network` from now on (while [`set_use_network`](SearchEngine::set_use_network)
    /// is on); `None` goes back to the built-in network. For a network a program holds
    /// in memory; [`load_network`](SearchEngine::load_network) reads one from a file.
    fn set_network(&mut self, network: Option<Arc<Network>>) {
        self.core_mut().network_file = network;
        let network = self.core().chosen_network();
        let _ = change(self, |o| o.network = network);
    }

    /// Loads the network file `path` through the core's [`Files`] and evaluates with it
    /// (UCI `EvalFile`); an empty path or [`BUILT_IN_NETWORK`] goes back to the built-in
    /// network. Returns the network loaded (`None`: the built-in one).
    ///
    /// # Errors
    /// [`EngineError::Network`]: the file cannot be read or is not a network; the
    /// evaluation is unchanged.
    fn load_network(&mut self, path: &str) -> Result<Option<Arc<Network>>, EngineError> {
        let network = if path.is_empty() || path == BUILT_IN_NETWORK {
            None
        } else {
            Some(read_network(self.core().files(), path)?)
        };
        self.set_network(network.clone());
        Ok(network)
    }

    /// Play from the opening book while it has a move (UCI `OwnBook`).
    fn set_own_book(&mut self, on: bool) {
        let _ = change(self, |o| o.own_book = on);
    }

    /// The book is asked in the game's first this many plies (UCI `BookDepth`).
    fn set_book_depth(&mut self, plies: u32) {
        let _ = change(self, |o| o.book_depth = plies);
    }

    /// Play the book's heaviest move (UCI `Best Book Move`).
    fn set_best_book_move(&mut self, on: bool) {
        let _ = change(self, |o| o.best_book_move = on);
    }

    /// Reads the opening book at `path` through the core's [`Files`] (xq's format or
    /// ElephantEye's `BOOK.DAT`) and sets it (UCI `BookFile`); an empty path sets no
    /// book.
    ///
    /// # Errors
    /// [`EngineError::Book`]: the file cannot be read or is not a book; the engine is
    /// left without a book.
    fn load_book(&mut self, path: &str) -> Result<(), EngineError> {
        self.core_mut().set_book(None);
        if path.is_empty() {
            return Ok(());
        }
        let book = read_book(self.core().files(), path)?;
        self.core_mut().set_book(Some(book));
        Ok(())
    }

    /// Opens the endgame tables of the directory `path` (`xq tb gen`; read from the disk
    /// as they are probed) and searches with them (UCI `TablebasePath`); an empty path
    /// sets none. Returns the number of endings found.
    ///
    /// # Errors
    /// [`EngineError::Tablebases`]: the directory cannot be read; the engine searches
    /// without tables.
    fn load_tablebases(&mut self, path: &str) -> Result<usize, EngineError> {
        self.core_mut().set_tablebases(None);
        if path.is_empty() {
            return Ok(0);
        }
        let tables = open_tablebases(path)?;
        let endings = tables.endings().len();
        self.core_mut().set_tablebases(Some(tables));
        Ok(endings)
    }

    /// Sets one search parameter by name (a tuning build's UCI option).
    ///
    /// # Errors
    /// [`EngineError::UnknownParam`]: no parameter has that name.
    fn set_param(&mut self, name: &str, value: i32) -> Result<(), EngineError> {
        let mut params = self.core().params().clone();
        params
            .set(name, value)
            .map_err(|_| EngineError::UnknownParam(name.to_string()))?;
        self.set_params(params);
        Ok(())
    }
}

/// Changes `engine`'s options with `f` (the setters' common step).
fn change<E: SearchEngine + ?Sized>(
    engine: &mut E,
    f: impl FnOnce(&mut Options),
) -> Result<(), EngineError> {
    let mut options = engine.options().clone();
    f(&mut options);
    let asked = options.hash_mib;
    engine.set_options(options).map_err(|_| EngineError::Table {
        asked,
        kept: engine.options().hash_mib,
    })
}
