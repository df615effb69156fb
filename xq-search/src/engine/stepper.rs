//! [`Stepper`]: a core's jobs run on the caller's thread, to their end or one iteration
//! at a time, for a host without threads to spare (a browser's Web Worker).

use super::core::{Core, Job};
use super::{Caps, Listener, Options, SearchEngine, TableError, DEFAULT_HASH_MIB};
use crate::limits::StopSignal;
use crate::score::MAX_PLY;
use crate::skill::LastIteration;
use crate::time::{Budget, Instant};
use crate::tt::{TranspositionTable, TtEntry};
use crate::{Info, Limits, SearchParams, SearchResult, Searcher};
use std::cell::Cell;
use std::sync::Arc;

/// What a host tells a search while it runs, polled every 1,024 nodes: a shared flag the
/// page sets, for example. A closure `Fn() -> bool` is a stop signal that never says
/// `ponderhit`.
pub trait Signals {
    /// Stop the search now.
    fn stop(&self) -> bool;

    /// The move pondered on was played: the ponder search goes on as a normal one with
    /// the clock's budget from now. Read only while pondering.
    fn ponderhit(&self) -> bool {
        false
    }
}

impl<F: Fn() -> bool> Signals for F {
    fn stop(&self) -> bool {
        self()
    }
}

/// Where a [`Stepper`]'s search stands after [`Stepper::run`] or [`Stepper::step`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepState {
    /// There is more to search: step again (or stop).
    Searching,
    /// Searched to its limits, but held (infinite, or pondering): it answers at
    /// [`Stepper::stop`] (or, pondering, at [`Stepper::ponderhit`]).
    Held,
    /// No search runs: the last one has answered (or none was started).
    Idle,
}

/// A search in progress.
struct Stepping {
    job: Job,
    listener: Box<dyn Listener>,
    start: Instant,
    /// The nodes of the searches done for this job.
    nodes: u64,
    /// The next iteration, in step mode.
    next_depth: u32,
    max_depth: u32,
    /// The answer of the last search done.
    last: Option<SearchResult>,
    /// The lines of the last completed iteration (a level chooses among them).
    lines: LastIteration,
    /// When the move pondered on was played.
    hit: Option<Instant>,
    /// Searched to its limits; waiting to be released.
    exhausted: bool,
}

impl Stepping {
    /// Still pondering: no `ponderhit` yet.
    fn pondering(&self) -> bool {
        self.job.limits().ponder && self.hit.is_none()
    }

    /// Held: infinite, or still pondering.
    fn held(&self) -> bool {
        self.job.limits().infinite || self.pondering()
    }

    /// The time the next search may take: the job's, or after `ponderhit` what is left
    /// of the clock's budget since then; none while held.
    fn budget(&self) -> Option<Budget> {
        if self.held() {
            return None;
        }
        match self.hit {
            Some(hit) => self.job.clock_budget().map(|b| {
                let spent = hit.elapsed();
                let left = |t: std::time::Duration| {
                    t.saturating_sub(spent)
                        .max(std::time::Duration::from_millis(1))
                };
                Budget {
                    soft: left(b.soft),
                    hard: left(b.hard),
                }
            }),
            None => self.job.search_budget(),
        }
    }
}

/// The stop signal a search of the stepper polls: the host's signals, a listener nobody
/// reads, and the deadlines of a ponder search that the host's `ponderhit` started.
struct Poll<'a> {
    signals: &'a dyn Signals,
    listener: &'a dyn Listener,
    /// Pondering when the search began: the host's `ponderhit` is read.
    pondering: bool,
    /// The clock's budget, from `ponderhit` on.
    budget: Option<Budget>,
    hit: Cell<Option<Instant>>,
    /// Set after an iteration past the soft deadline, or when the host said stop.
    stopped: Cell<bool>,
}

impl StopSignal for Poll<'_> {
    fn is_set(&self) -> bool {
        if self.stopped.get() || self.signals.stop() || self.listener.is_closed() {
            self.stopped.set(true);
            return true;
        }
        if self.pondering && self.hit.get().is_none() && self.signals.ponderhit() {
            self.hit.set(Some(Instant::now()));
        }
        match (self.hit.get(), self.budget) {
            (Some(hit), Some(b)) => hit.elapsed() >= b.hard,
            _ => false,
        }
    }
}

impl Poll<'_> {
    /// After an iteration: past the soft deadline of a search that `ponderhit` started,
    /// no new iteration.
    fn iteration_done(&self) {
        if let (Some(hit), Some(b)) = (self.hit.get(), self.budget) {
            if hit.elapsed() >= b.soft {
                self.stopped.set(true);
            }
        }
    }
}

/// The engine on the caller's thread: a [`Core`] and one searcher. [`Stepper::go`]
/// starts a search and returns; the host then runs it with [`Stepper::run`] (to its end,
/// polling [`Signals`]) or [`Stepper::step`] (one iteration a call, so that it can read
/// its messages between two), and may [`stop`](Stepper::stop) it between calls. Reports
/// and the answer go to the search's [`Listener`] as with [`Engine`](super::Engine);
/// the `nodes` and `time` of each report are those of the whole `go`.
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use xq_search::engine::{Caps, Options, StepState, Stepper};
/// use xq_search::{Info, Limits};
/// let mut stepper = Stepper::new(Options { hash_mib: 4, ..Options::default() }, Caps::default());
/// let depths = Arc::new(Mutex::new(Vec::new()));
/// let seen = depths.clone();
/// stepper.go(Limits::depth(4), move |info: &Info| seen.lock().unwrap().push(info.depth));
/// let mut steps = 1;
/// while stepper.step(&|| false) == StepState::Searching {
///     steps += 1;
/// }
/// assert_eq!(steps, 4);
/// assert_eq!(*depths.lock().unwrap(), [1, 2, 3, 4]);
/// ```
pub struct Stepper {
    core: Core,
    searcher: Searcher,
    tt_mib: usize,
    running: Option<Stepping>,
    /// A `ponderhit` the host's signals gave during a search that has since answered:
    /// the host's `ponderhit` command for it is taken without a word.
    hit_seen: bool,
    /// The last answer given, for [`Stepper::wait`].
    last_answer: Option<SearchResult>,
}

impl std::fmt::Debug for Stepper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stepper")
            .field("fen", &self.core.game().position().to_fen())
            .field("options", self.core.options())
            .field("searching", &self.running.is_some())
            .finish()
    }
}

impl Stepper {
    /// A stepper at the start position with `options`, within `caps`. If the table
    /// cannot have the size asked for, it has the default size (or less):
    /// [`Core::options`] says which. It searches on one thread whatever
    /// [`Options::threads`] says.
    pub fn new(options: Options, caps: Caps) -> Stepper {
        let mut core = Core::new(options, caps);
        let caps = *core.caps();
        let asked = core.options().hash_mib;
        let (tt, mib) = [asked, asked.min(DEFAULT_HASH_MIB)]
            .into_iter()
            .find_map(|mib| caps.table(mib).ok().map(|tt| (tt, mib)))
            .unwrap_or_else(|| (TranspositionTable::new(1), 1));
        core.set_hash_mib(mib);
        let mut searcher = Searcher::with_table(Arc::new(tt));
        searcher.set_network(core.options().network.clone());
        Stepper {
            core,
            searcher,
            tt_mib: mib,
            running: None,
            hit_seen: false,
            last_answer: None,
        }
    }

    /// Starts a search of the core's game within `limits`, reporting to `listener`; a
    /// search already running answers first. Nothing is searched until
    /// [`Stepper::run`] or [`Stepper::step`], except that an answer from the book is
    /// given at once.
    pub fn go(&mut self, limits: Limits, listener: impl Listener + 'static) {
        self.stop();
        self.hit_seen = false;
        let job = self.core.job(limits);
        if let Some(book) = job.book() {
            listener.book(&book.moves, &book.chosen);
            let result = job.answer(book.result(), &LastIteration::default());
            listener.best_move(&result, job.game());
            return;
        }
        self.searcher.set_multipv(job.lines());
        self.searcher
            .set_tablebases(self.core.tablebases().cloned());
        let max_depth = job
            .limits()
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        self.running = Some(Stepping {
            job,
            listener: Box::new(listener),
            start: Instant::now(),
            nodes: 0,
            next_depth: 1,
            max_depth,
            last: None,
            lines: LastIteration::default(),
            hit: None,
            exhausted: false,
        });
    }

    /// Runs the search to its end, polling `signals` every 1,024 nodes; it answers
    /// unless it is held (infinite, or still pondering), which [`StepState::Held`] says.
    pub fn run(&mut self, signals: &dyn Signals) -> StepState {
        self.advance(signals, false)
    }

    /// Runs one iteration of the search (all of a search with a time limit, whose time
    /// management needs its iterations together), polling `signals`. The search answers
    /// when it is over; [`StepState`] says what is left.
    pub fn step(&mut self, signals: &dyn Signals) -> StepState {
        self.advance(signals, true)
    }

    /// Where the search stands.
    pub fn state(&self) -> StepState {
        match &self.running {
            None => StepState::Idle,
            Some(s) if s.exhausted => StepState::Held,
            Some(_) => StepState::Searching,
        }
    }

    fn advance(&mut self, signals: &dyn Signals, one_iteration: bool) -> StepState {
        let Some(mut s) = self.running.take() else {
            return StepState::Idle;
        };
        if s.exhausted {
            self.running = Some(s);
            return StepState::Held;
        }
        let budget = s.budget();
        let whole = !one_iteration || budget.is_some();
        let mut limits = s.job.limits().clone();
        let depth = (!whole).then_some(s.next_depth);
        if let Some(d) = depth {
            limits.depth = Some(d);
            // A step searches no further than the nodes left.
            if let Some(n) = limits.nodes {
                limits.nodes = Some(n.saturating_sub(s.nodes).max(1));
            }
        }
        let poll = Poll {
            signals,
            listener: &*s.listener,
            pondering: s.pondering(),
            budget: s.job.clock_budget(),
            hit: Cell::new(s.hit),
            stopped: Cell::new(false),
        };
        let (base, start) = (s.nodes, s.start);
        let (job, listener, lines) = (&s.job, &*s.listener, &mut s.lines);
        let result = self.searcher.search_within(
            job.game(),
            &limits,
            budget,
            &poll,
            0,
            &mut |info: &Info| {
                if depth.is_some_and(|d| info.depth != d) {
                    return; // a step repeats the iterations before its own: shown already
                }
                lines.add(info);
                if job.shows(info) {
                    let mut info = info.clone();
                    info.nodes += base;
                    info.time = start.elapsed();
                    listener.info(&info);
                }
                poll.iteration_done();
            },
        );
        s.hit = poll.hit.get();
        let stopped = poll.stopped.get();
        s.nodes += result.nodes;
        let reached = result.depth;
        let no_move = result.best_move.is_none();
        s.last = Some(result);
        if stopped {
            self.running = Some(s);
            self.answer();
            return StepState::Idle;
        }
        let over = whole
            || no_move
            || reached < s.next_depth
            || s.next_depth >= s.max_depth
            || s.job.limits().nodes.is_some_and(|n| s.nodes >= n);
        if !over {
            s.next_depth += 1;
            self.running = Some(s);
            return StepState::Searching;
        }
        if s.held() {
            s.exhausted = true;
            self.running = Some(s);
            return StepState::Held;
        }
        self.running = Some(s);
        self.answer();
        StepState::Idle
    }

    /// Ends the running search with its answer from what has been searched (before any
    /// search: the first legal move), given to its listener and returned.
    fn answer(&mut self) -> Option<SearchResult> {
        let s = self.running.take()?;
        if s.job.limits().ponder && s.hit.is_some() {
            self.hit_seen = true;
        }
        let mut result = s.last.unwrap_or_else(|| SearchResult {
            best_move: xq_movegen::legal_moves(s.job.game().position())
                .into_iter()
                .find(|m| !s.job.limits().banned_moves.contains(m)),
            ..SearchResult::default()
        });
        result.nodes = s.nodes;
        result.time = s.start.elapsed();
        let result = s.job.answer(result, &s.lines);
        s.listener.best_move(&result, s.job.game());
        self.last_answer = Some(result.clone());
        Some(result)
    }

    /// Stops the search (if any) and returns its answer, which its listener has been
    /// given too; `None` when no search was running.
    pub fn stop(&mut self) -> Option<SearchResult> {
        self.answer()
    }

    /// The move pondered on was played: the ponder search goes on as a normal one with
    /// the clock's budget from now (one that had searched to its limits answers now).
    /// `false` when not pondering.
    pub fn ponderhit(&mut self) -> bool {
        if std::mem::take(&mut self.hit_seen) {
            return true;
        }
        let Some(s) = self.running.as_mut().filter(|s| s.pondering()) else {
            return false;
        };
        s.hit = Some(Instant::now());
        if s.exhausted && !s.held() {
            self.answer();
        }
        true
    }

    /// Stops the search (if any) without an answer.
    pub fn abandon(&mut self) {
        self.running = None;
    }

    /// Runs a search that ends by its own limits to its end and returns its answer; a
    /// held one (infinite, or pondering) is stopped instead.
    pub fn wait(&mut self) -> Option<SearchResult> {
        let never = || false;
        self.last_answer = None;
        while self.state() == StepState::Searching
            && !self.running.as_ref().is_some_and(Stepping::held)
        {
            if self.run(&never) == StepState::Idle {
                return self.last_answer.take();
            }
        }
        self.answer()
    }

    /// Is a search running (it has not answered yet)?
    pub fn is_searching(&self) -> bool {
        self.running.is_some()
    }

    /// The game, the options, the book, the seed and the parameters.
    pub fn core(&self) -> &Core {
        &self.core
    }

    /// The game, the options, the book, the seed and the parameters, to change (the
    /// options through [`Stepper::set_options`]).
    pub fn core_mut(&mut self) -> &mut Core {
        &mut self.core
    }

    /// Changes the options, brought within their ranges and the caps. A search running
    /// goes on with the options it started with, but for the table and the evaluation,
    /// which change for its next step.
    ///
    /// # Errors
    /// The table of the new size cannot be allocated: the stepper keeps its table (and
    /// [`Core::options`] says its size); the other options are taken.
    pub fn set_options(&mut self, options: Options) -> Result<(), TableError> {
        self.core.set_options(options);
        let options = self.core.options().clone();
        let same_net = match (&self.searcher.net, &options.network) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
        if !same_net {
            // The table keeps static evaluations: another evaluation starts afresh.
            self.searcher.set_network(options.network.clone());
            self.searcher.new_game();
        }
        if options.hash_mib != self.tt_mib {
            // Release the old table before allocating the new one.
            self.searcher
                .set_table(Arc::new(TranspositionTable::new(1)));
            let caps = *self.core.caps();
            let made = caps.table(options.hash_mib);
            let refused = made.as_ref().err().cloned();
            let (tt, mib) = match made {
                Ok(tt) => (tt, options.hash_mib),
                Err(_) => match caps.table(self.tt_mib) {
                    Ok(tt) => (tt, self.tt_mib),
                    Err(_) => (TranspositionTable::new(1), 1),
                },
            };
            self.searcher.set_table(Arc::new(tt));
            self.tt_mib = mib;
            self.core.set_hash_mib(mib);
            if let Some(e) = refused {
                return Err(e);
            }
        }
        Ok(())
    }

    /// Sets the search's margins, depth limits and reductions.
    pub fn set_params(&mut self, params: SearchParams) {
        self.searcher.set_params(params.clone());
        self.core.set_params(params);
    }

    /// Forgets everything learnt (a new game): the table and the histories.
    pub fn new_game(&mut self) {
        self.searcher.new_game();
    }

    /// The transposition table.
    pub fn table(&self) -> &TranspositionTable {
        self.searcher.table()
    }
}

impl SearchEngine for Stepper {
    fn core(&self) -> &Core {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core {
        &mut self.core
    }

    fn set_options(&mut self, options: Options) -> Result<(), TableError> {
        Stepper::set_options(self, options)
    }

    fn set_params(&mut self, params: SearchParams) {
        Stepper::set_params(self, params);
    }

    fn new_game(&mut self) {
        Stepper::new_game(self);
    }

    fn go(&mut self, limits: Limits, listener: Box<dyn Listener>) {
        Stepper::go(self, limits, listener);
    }

    fn stop(&mut self) -> Option<SearchResult> {
        Stepper::stop(self)
    }

    fn ponderhit(&mut self) -> bool {
        Stepper::ponderhit(self)
    }

    fn abandon(&mut self) {
        Stepper::abandon(self);
    }

    fn wait(&mut self) -> Option<SearchResult> {
        Stepper::wait(self)
    }

    fn is_searching(&mut self) -> bool {
        Stepper::is_searching(self)
    }

    fn probe(&self, key: u64) -> Option<TtEntry> {
        self.searcher.table().probe(key, 0)
    }
}
