//! [`Engine`]: a [`Core`]'s jobs run on a pool of threads (Lazy SMP) over one shared
//! table, in the background.

use super::core::{Core, Job};
use super::{Caps, Listener, Options, SearchEngine, TableError, DEFAULT_HASH_MIB};
use crate::skill::LastIteration;
use crate::time::{Budget, Instant};
use crate::tt::{TranspositionTable, TtEntry};
use crate::{Info, Limits, SearchParams, SearchResult, Searcher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use xq_book::Book;
use xq_core::Move;
use xq_movegen::Game;

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

/// The engine: a [`Core`] (the game, the options, the book), the searchers and the
/// running search, on threads of its own.
///
/// See the [module docs](super) for an example.
pub struct Engine {
    core: Core,
    tt: Arc<TranspositionTable>,
    tt_mib: usize,
    searchers: Vec<Searcher>,
    pending_new_game: bool,
    running: Option<Running>,
    /// A minimal table the searchers hold while the real one is replaced or cleared.
    spare: Arc<TranspositionTable>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("fen", &self.core.game().position().to_fen())
            .field("options", self.core.options())
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
                Engine::build(
                    Core::new(options, caps),
                    Arc::new(TranspositionTable::new(1)),
                    1,
                )
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
        let core = Core::new(options, caps);
        let mib = core.options().hash_mib;
        let tt = core.caps().table(mib)?;
        Ok(Engine::build(core, Arc::new(tt), mib))
    }

    /// The engine with its table made.
    fn build(mut core: Core, tt: Arc<TranspositionTable>, tt_mib: usize) -> Engine {
        core.set_hash_mib(tt_mib);
        let mut engine = Engine {
            core,
            tt,
            tt_mib,
            searchers: Vec::new(),
            pending_new_game: false,
            running: None,
            spare: Arc::new(TranspositionTable::new(1)),
        };
        // The table has its size already: nothing to allocate.
        let _ = engine.sync();
        engine
    }

    /// The game, the options, the book, the seed and the parameters.
    pub fn core(&self) -> &Core {
        &self.core
    }

    /// The current game.
    pub fn game(&self) -> &Game {
        self.core.game()
    }

    /// Sets the game to search from (a GUI's `position`); clears the banned moves.
    pub fn set_game(&mut self, game: Game) {
        self.core.set_game(game);
    }

    /// Forbids these moves in the current position (UCCI `banmoves`), until the next
    /// [`Engine::set_game`].
    pub fn set_banned(&mut self, moves: Vec<Move>) {
        self.core.set_banned(moves);
    }

    /// The options.
    pub fn options(&self) -> &Options {
        self.core.options()
    }

    /// The resource caps.
    pub fn caps(&self) -> &Caps {
        self.core.caps()
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
        self.core.set_options(options);
        self.sync()
    }

    /// The search's margins, depth limits and reductions.
    pub fn params(&self) -> &SearchParams {
        self.core.params()
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
        self.core.set_params(params);
        // Only a table that cannot be had fails, and the table's size is not changed.
        let _ = self.sync();
    }

    /// Seeds the generator of the level's choices and of book picks (see
    /// [`Core::set_seed`]).
    pub fn set_seed(&mut self, seed: u64) {
        self.core.set_seed(seed);
    }

    /// Sets the opening book (see [`Core::set_book`]).
    pub fn set_book(&mut self, book: Option<Arc<Book>>) {
        self.core.set_book(book);
    }

    /// The opening book, if one is set.
    pub fn book(&self) -> Option<&Book> {
        self.core.book()
    }

    /// The shared transposition table (to probe it).
    pub fn table(&self) -> &TranspositionTable {
        &self.tt
    }

    /// Forgets everything learnt (a new game): clears the table and the searchers'
    /// histories, now or when the running search has ended.
    pub fn new_game(&mut self) {
        self.pending_new_game = true;
        // The size is unchanged: the table is cleared, not made again.
        let _ = self.sync();
    }

    /// Starts a search of the current game within `limits`, reporting to `listener`, and
    /// returns at once. A search already running is stopped first (and answers). What
    /// the search is (the level, the book's answer, the time) is [`Core::job`]'s.
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
        let job = self.core.job(limits);
        let held = job.is_held();
        let ctl = Arc::new(Control::default());
        ctl.lock().hold = held;
        let mut searchers = std::mem::take(&mut self.searchers);
        if searchers.is_empty() {
            let mut s = Searcher::with_table(self.tt.clone());
            s.set_network(self.core.options().network.clone());
            s.set_params(self.core.params().clone());
            searchers.push(s);
        }
        searchers[0].set_multipv(job.lines());
        for s in &mut searchers {
            s.set_tablebases(self.core.tablebases().cloned());
        }
        let (ponder, infinite) = (job.limits().ponder, job.limits().infinite);
        let budget = job.clock_budget();
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
        let options = self.core.options().clone();
        // The table keeps static evaluations: another evaluation starts afresh.
        let same_net = |s: &Searcher| match (&s.net, &options.network) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
        if !self.searchers.iter().all(same_net) {
            self.pending_new_game = true;
        }
        let mut refused = None;
        if self.pending_new_game || self.tt_mib != options.hash_mib {
            // Detach the searchers, so that the engine holds the only reference.
            for s in &mut self.searchers {
                s.set_table(self.spare.clone());
            }
            let same_size = self.tt_mib == options.hash_mib;
            match Arc::get_mut(&mut self.tt) {
                // A new game: clear the table in place. Freeing it and allocating
                // another left freed tables resident in the allocator's heap, so that
                // memory grew past the hash size over many games.
                Some(tt) if same_size => tt.clear(),
                _ => {
                    // Release the old table before allocating the new one; if the new
                    // one is refused, make the old size again (or the smallest).
                    self.tt = self.spare.clone();
                    let caps = *self.core.caps();
                    let (tt, mib) = match caps.table(options.hash_mib) {
                        Ok(tt) => (tt, options.hash_mib),
                        Err(e) => {
                            refused = Some(e);
                            match caps.table(self.tt_mib) {
                                Ok(tt) => (tt, self.tt_mib),
                                Err(_) => (TranspositionTable::new(1), 1),
                            }
                        }
                    };
                    self.tt = Arc::new(tt);
                    self.tt_mib = mib;
                    self.core.set_hash_mib(mib);
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
        self.searchers.truncate(options.threads);
        while self.searchers.len() < options.threads {
            self.searchers.push(Searcher::with_table(self.tt.clone()));
        }
        let params = self.core.params();
        for (i, s) in self.searchers.iter_mut().enumerate() {
            s.set_multipv(if i == 0 { options.multipv } else { 1 });
            if !same_net(s) {
                s.set_network(options.network.clone());
            }
            if &s.params != params {
                s.set_params(params.clone());
            }
        }
        refused.map_or(Ok(()), Err)
    }
}

impl SearchEngine for Engine {
    fn core(&self) -> &Core {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core {
        &mut self.core
    }

    fn set_options(&mut self, options: Options) -> Result<(), TableError> {
        Engine::set_options(self, options)
    }

    fn set_params(&mut self, params: SearchParams) {
        Engine::set_params(self, params);
    }

    fn new_game(&mut self) {
        Engine::new_game(self);
    }

    fn go(&mut self, limits: Limits, listener: Box<dyn Listener>) {
        Engine::go(self, limits, listener);
    }

    fn stop(&mut self) -> Option<SearchResult> {
        Engine::stop(self)
    }

    fn ponderhit(&mut self) -> bool {
        Engine::ponderhit(self)
    }

    fn abandon(&mut self) {
        Engine::abandon(self);
    }

    fn wait(&mut self) -> Option<SearchResult> {
        Engine::wait(self)
    }

    fn is_searching(&mut self) -> bool {
        Engine::is_searching(self)
    }

    fn probe(&self, key: u64) -> Option<TtEntry> {
        self.tt.probe(key, 0)
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

fn search_thread(
    mut searchers: Vec<Searcher>,
    job: Job,
    ctl: Arc<Control>,
    listener: impl Listener,
) -> Finished {
    let mut last = LastIteration::default();
    let result = if let Some(book) = job.book() {
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
        let (game, limits, budget) = (job.game(), job.limits(), job.search_budget());
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
                if !ctl.quiet.load(Ordering::Relaxed) && job.shows(info) {
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
    let result = job.answer(result, &last);
    let mut st = ctl.lock();
    while st.hold {
        st = match ctl.cv.wait(st) {
            Ok(g) => g,
            Err(e) => e.into_inner(),
        };
    }
    if !ctl.quiet.load(Ordering::SeqCst) {
        listener.best_move(&result, job.game());
    }
    st.done = true;
    drop(st);
    ctl.cv.notify_all();
    (searchers, result)
}
#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::{channel, Sender};
    use std::time::Duration;

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
