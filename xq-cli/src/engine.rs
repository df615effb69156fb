//! The protocol-independent engine behind every protocol: the game, the options, and
//! the control of the search threads.
//!
//! The main thread reads commands; a search runs on its own thread (with helper threads
//! for Lazy SMP), so that `isready` and `stop` are answered while it thinks. The search
//! thread prints the info lines and the final best move through an [`Output`], which is
//! where the protocols differ.
//!
//! Infinite and ponder searches are *held*: when such a search ends by itself, its thread
//! waits until `stop` (or `ponderhit`) before printing the best move.
//!
//! Pondering: a ponder search is started without any time limit (depth and node limits
//! still apply), and the time budget the clock would give is remembered. On `ponderhit`
//! the clock starts: the soft limit becomes a deadline checked after every completed
//! iteration (no new iteration after it), and a timer thread sets the stop flag at the
//! hard deadline. The search itself is not restarted, so nothing it learnt is lost.
//!
//! Playing levels ([`Options::strength`]): below full strength the search is capped by the
//! level's depth and nodes and searches the level's number of lines (hidden from the GUI
//! beyond the `MultiPV` it asked for); the move answered is the one
//! [`Skill::choose`](xq_search::skill::Skill::choose) picks from the last completed
//! iteration, with a seed drawn from the engine's own generator ([`Engine::set_seed`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use xq_core::{Move, Position};
use xq_movegen::Game;
use xq_search::skill::{LastIteration, Skill, MAX_ELO, MIN_ELO};
use xq_search::tt::TranspositionTable;
use xq_search::{Info, Limits, SearchResult, Searcher};

use crate::time::{time_budget, Budget, Clock};

/// The engine's name and version, as protocols announce it.
pub const NAME: &str = concat!("xq ", env!("CARGO_PKG_VERSION"));
/// The engine's authors, as protocols announce them.
pub const AUTHOR: &str = "The xq developers";

/// Default transposition table size, MiB.
pub const DEFAULT_HASH: usize = 64;
/// Largest transposition table, MiB.
pub const MAX_HASH: usize = 2048;
/// Most search threads.
pub const MAX_THREADS: usize = 16;
/// Most MultiPV lines.
pub const MAX_MULTIPV: usize = 16;
/// Default time kept back from every move for communication delays, ms.
pub const DEFAULT_OVERHEAD: u64 = 30;
/// Largest move overhead, ms.
pub const MAX_OVERHEAD: u64 = 5000;
/// Default `UCI_Elo` (used only with `UCI_LimitStrength`): level 10's Elo.
pub const DEFAULT_ELO: u32 = xq_search::skill::ELO_OF_LEVEL[10];

/// Resource caps for an embedded engine: the option maxima a GUI may set, and an
/// optional node cap on every search (fuzzing and tests use small ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    /// Largest transposition table, MiB (the default table is never larger).
    pub max_hash_mib: usize,
    /// Most search threads.
    pub max_threads: usize,
    /// Every search stops after this many nodes, whatever `go` asked for.
    pub max_nodes: Option<u64>,
}

impl Default for Caps {
    fn default() -> Caps {
        Caps {
            max_hash_mib: MAX_HASH,
            max_threads: MAX_THREADS,
            max_nodes: None,
        }
    }
}

/// Where the search thread's reports go; each protocol formats them its own way.
pub trait Output: Send + Sync {
    /// A completed iteration (one line of MultiPV).
    fn info(&self, info: &Info);
    /// The final answer for `game`'s current position (`best_move` is `None` when there
    /// is no legal, unbanned move).
    fn bestmove(&self, result: &SearchResult, game: &Game);
    /// Nobody reads the reports any more (a closed pipe): a running search stops.
    fn closed(&self) -> bool {
        false
    }
}

/// The engine's settings, as set by `setoption`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size, MiB.
    pub hash_mib: usize,
    /// Search threads (Lazy SMP).
    pub threads: usize,
    /// Lines to report.
    pub multipv: usize,
    /// The GUI may ask the engine to ponder (only announced; pondering is driven by `go
    /// ponder`).
    pub ponder: bool,
    /// Time kept back from every move, ms.
    pub move_overhead: u64,
    /// The playing level (UCI `Skill Level`, UCCI `skill`); level 20 is full strength.
    pub skill: Skill,
    /// Play at the level of [`elo`](Options::elo) instead of [`skill`](Options::skill)
    /// (UCI `UCI_LimitStrength`).
    pub limit_strength: bool,
    /// The Elo to play at with [`limit_strength`](Options::limit_strength) (UCI
    /// `UCI_Elo`), mapped onto a level by [`Skill::from_elo`].
    pub elo: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mib: DEFAULT_HASH,
            threads: 1,
            multipv: 1,
            ponder: false,
            move_overhead: DEFAULT_OVERHEAD,
            skill: Skill::FULL,
            limit_strength: false,
            elo: DEFAULT_ELO,
        }
    }
}

impl Options {
    /// The level the engine plays at: the level of [`elo`](Options::elo) when
    /// [`limit_strength`](Options::limit_strength) is on, else [`skill`](Options::skill).
    ///
    /// ```
    /// use xq_cli::engine::Options;
    /// use xq_search::skill::Skill;
    /// let mut o = Options { skill: Skill::new(5), ..Options::default() };
    /// assert_eq!(o.strength(), Skill::new(5));
    /// o.limit_strength = true;
    /// o.elo = Skill::new(12).elo();
    /// assert_eq!(o.strength(), Skill::new(12));
    /// ```
    pub fn strength(&self) -> Skill {
        if self.limit_strength {
            Skill::from_elo(self.elo)
        } else {
            self.skill
        }
    }
}

/// What `go` asks for, protocol-independently.
#[derive(Clone, Debug, Default)]
pub struct GoRequest {
    /// Depth, nodes, mate, root move restrictions; the time fields are filled in from
    /// `clock` and `movetime`.
    pub limits: Limits,
    /// The side to move's clock, if given.
    pub clock: Option<Clock>,
    /// A fixed time for this move.
    pub movetime: Option<Duration>,
    /// Search until `stop`; do not answer before it.
    pub infinite: bool,
    /// Ponder: search without a clock until `ponderhit` (then the clock runs) or `stop`.
    pub ponder: bool,
}

#[derive(Debug, Default)]
struct ControlState {
    /// An infinite or ponder search must not answer yet.
    hold: bool,
    /// After `ponderhit`: no new iteration after this.
    soft_deadline: Option<Instant>,
    /// The search thread has printed its answer.
    done: bool,
}

/// What the main thread and a running search share.
#[derive(Debug, Default)]
struct Control {
    stop: AtomicBool,
    /// Print nothing more (after `quit`).
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

#[derive(Debug)]
struct Running {
    ctl: Arc<Control>,
    handle: JoinHandle<Vec<Searcher>>,
    ponder: bool,
    /// `go ponder infinite`: still held after `ponderhit`.
    infinite: bool,
    /// The clock's budget, to start at `ponderhit`.
    budget: Option<Budget>,
}

impl Running {
    /// Has the search printed its answer (its thread is then about to end)?
    fn answered(&self) -> bool {
        self.handle.is_finished() || self.ctl.lock().done
    }
}

/// The engine: the game, the options, the searchers and the running search.
pub struct Engine {
    game: Game,
    banned: Vec<Move>,
    options: Options,
    tt: Arc<TranspositionTable>,
    tt_mib: usize,
    searchers: Vec<Searcher>,
    pending_new_game: bool,
    running: Option<Running>,
    output: Arc<dyn Output>,
    caps: Caps,
    /// A minimal table the searchers hold while the real one is replaced or cleared.
    spare: Arc<TranspositionTable>,
    /// The generator of the seeds of the level's choices.
    seeds: xq_core::SplitMix64,
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

impl Engine {
    /// An engine at the start position with default options.
    pub fn new(output: Arc<dyn Output>) -> Engine {
        Engine::with_caps(output, Caps::default())
    }

    /// An engine at the start position with default options, within `caps`.
    pub fn with_caps(output: Arc<dyn Output>, caps: Caps) -> Engine {
        let caps = Caps {
            max_hash_mib: caps.max_hash_mib.clamp(1, MAX_HASH),
            max_threads: caps.max_threads.clamp(1, MAX_THREADS),
            max_nodes: caps.max_nodes.map(|n| n.max(1)),
        };
        let options = Options {
            hash_mib: DEFAULT_HASH.min(caps.max_hash_mib),
            ..Options::default()
        };
        let tt = Arc::new(TranspositionTable::new(options.hash_mib));
        let mut engine = Engine {
            game: Game::startpos(),
            banned: Vec::new(),
            tt_mib: options.hash_mib,
            options,
            tt,
            searchers: Vec::new(),
            pending_new_game: false,
            running: None,
            output,
            caps,
            spare: Arc::new(TranspositionTable::new(1)),
            seeds: xq_core::SplitMix64::new(clock_seed()),
        };
        engine.sync();
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

    /// Changes the options; they take effect now if the engine is idle, else at the next
    /// `go`.
    pub fn set_options(&mut self, options: Options) {
        self.options = Options {
            hash_mib: options.hash_mib.clamp(1, self.caps.max_hash_mib),
            threads: options.threads.clamp(1, self.caps.max_threads),
            multipv: options.multipv.clamp(1, MAX_MULTIPV),
            ponder: options.ponder,
            move_overhead: options.move_overhead.min(MAX_OVERHEAD),
            skill: options.skill,
            limit_strength: options.limit_strength,
            elo: options.elo.clamp(MIN_ELO, MAX_ELO),
        };
        self.sync();
    }

    /// Seeds the generator of the level's choices: after the same seed, the same
    /// searches choose the same moves (a reproducible game). The engine starts from a
    /// seed taken from the clock.
    pub fn set_seed(&mut self, seed: u64) {
        self.seeds = xq_core::SplitMix64::new(seed);
    }

    /// The next seed for a level's choice.
    fn next_seed(&mut self) -> u64 {
        self.seeds.next_u64()
    }

    /// The resource caps.
    pub fn caps(&self) -> &Caps {
        &self.caps
    }

    /// The shared transposition table (for `probe`).
    pub fn table(&self) -> &Arc<TranspositionTable> {
        &self.tt
    }

    /// Sets the game (a new `position`); clears the banned moves.
    pub fn set_game(&mut self, game: Game) {
        self.game = game;
        self.banned.clear();
    }

    /// Forbids these moves in the current position (UCCI `banmoves`).
    pub fn set_banned(&mut self, moves: Vec<Move>) {
        self.banned = moves;
    }

    /// Forgets everything learnt (a new game): clears the table and the searchers'
    /// history, now or when the running search has ended.
    pub fn new_game(&mut self) {
        self.pending_new_game = true;
        self.sync();
    }

    /// Joins a search thread that has finished by itself.
    fn reap(&mut self) {
        if self.running.as_ref().is_some_and(Running::answered) {
            self.join();
        }
    }

    fn join(&mut self) {
        self.take_back();
        self.sync();
    }

    /// Waits for the search thread and takes its searchers back.
    fn take_back(&mut self) {
        if let Some(r) = self.running.take() {
            match r.handle.join() {
                Ok(searchers) => self.searchers = searchers,
                // Cannot happen unless the search has a bug; start afresh.
                Err(_) => {
                    self.searchers.clear();
                    self.pending_new_game = true;
                }
            }
        }
    }

    /// Applies the options and a pending new game, unless a search is running.
    fn sync(&mut self) {
        if self.running.as_ref().is_some_and(Running::answered) {
            self.take_back();
        }
        if self.running.is_some() {
            return;
        }
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
                    // Release the old table before allocating the new one.
                    self.tt = self.spare.clone();
                    self.tt = Arc::new(TranspositionTable::new(self.options.hash_mib));
                    self.tt_mib = self.options.hash_mib;
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
        }
    }

    /// Starts a search of the current position. A search already running is stopped
    /// first (and answers).
    pub fn go(&mut self, req: GoRequest) {
        self.stop();
        let overhead = Duration::from_millis(self.options.move_overhead);
        let budget = time_budget(req.clock.as_ref(), req.movetime, overhead);
        let mut limits = req.limits.clone();
        limits.banned_moves.extend(self.banned.iter().copied());
        let skill = self.options.strength();
        skill.restrict(&mut limits);
        if let Some(cap) = self.caps.max_nodes {
            limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
        }
        if let (Some(b), false) = (budget, req.ponder) {
            limits.soft_time = Some(b.soft);
            limits.hard_time = Some(b.hard);
        }
        let ctl = Arc::new(Control::default());
        ctl.lock().hold = req.infinite || req.ponder;
        let mut searchers = std::mem::take(&mut self.searchers);
        if searchers.is_empty() {
            searchers.push(Searcher::with_table(self.tt.clone()));
        }
        let level = Level {
            skill,
            seed: self.next_seed(),
            shown: self.options.multipv,
        };
        searchers[0].set_multipv(self.options.multipv.max(skill.lines()));
        let game = self.game.clone();
        let output = self.output.clone();
        let thread_ctl = ctl.clone();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || search_thread(searchers, game, limits, level, thread_ctl, output));
        match handle {
            Ok(handle) => {
                self.running = Some(Running {
                    ctl,
                    handle,
                    ponder: req.ponder,
                    infinite: req.infinite,
                    budget,
                });
            }
            Err(_) => {
                // The searchers went with the failed closure; rebuild them.
                self.pending_new_game = true;
                self.sync();
            }
        }
    }

    /// Stops the search (if any) and waits for its answer to be printed.
    pub fn stop(&mut self) {
        if let Some(r) = &self.running {
            r.ctl.stop.store(true, Ordering::SeqCst);
            r.ctl.lock().hold = false;
            r.ctl.cv.notify_all();
        }
        self.join();
    }

    /// The opponent played the expected move: the ponder search becomes a normal one
    /// with the clock's budget from now. Returns false when not pondering.
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
    pub fn searching(&mut self) -> bool {
        self.reap();
        self.running.is_some()
    }

    /// Waits until a running search has answered by its own limits. A held search
    /// (infinite, or pondering) would never answer by itself: it is stopped instead.
    pub fn wait(&mut self) {
        if self.running.as_ref().is_some_and(|r| r.ctl.lock().hold) {
            self.stop();
        } else {
            self.join();
        }
    }

    /// Stops the search (if any) without an answer: nothing more is printed for it.
    pub fn abandon(&mut self) {
        if let Some(r) = &self.running {
            r.ctl.quiet.store(true, Ordering::SeqCst);
        }
        self.stop();
    }

    /// Stops everything and prints nothing more.
    pub fn quit(&mut self) {
        self.abandon();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.quit();
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
    /// The lines the GUI asked to see (the level may search more).
    shown: usize,
}

fn search_thread(
    mut searchers: Vec<Searcher>,
    game: Game,
    limits: Limits,
    level: Level,
    ctl: Arc<Control>,
    output: Arc<dyn Output>,
) -> Vec<Searcher> {
    let mut last = LastIteration::default();
    let mut result = {
        let (main, helpers) = match searchers.split_first_mut() {
            Some(x) => x,
            None => unreachable!("go always passes a searcher"),
        };
        let stop = &ctl.stop;
        let game = &game;
        std::thread::scope(|s| {
            for (i, h) in helpers.iter_mut().enumerate() {
                let limits = limits.clone();
                s.spawn(move || {
                    h.search_with(game, &limits, stop, i + 1, &mut |_| {});
                });
            }
            let mut report = |info: &Info| {
                if !ctl.quiet.load(Ordering::Relaxed) && info.multipv <= level.shown {
                    output.info(info);
                }
                last.add(info);
                let deadline = ctl.lock().soft_deadline;
                if output.closed() || deadline.is_some_and(|d| Instant::now() >= d) {
                    stop.store(true, Ordering::SeqCst);
                }
            };
            let result = main.search_with(game, &limits, stop, 0, &mut report);
            stop.store(true, Ordering::SeqCst);
            result
        })
    };
    if !level.skill.is_full_strength() {
        level.skill.choose(last.lines(), level.seed, &mut result);
    }
    let mut st = ctl.lock();
    while st.hold {
        st = match ctl.cv.wait(st) {
            Ok(g) => g,
            Err(e) => e.into_inner(),
        };
    }
    if !ctl.quiet.load(Ordering::SeqCst) {
        output.bestmove(&result, &game);
    }
    st.done = true;
    drop(st);
    ctl.cv.notify_all();
    searchers
}

/// The expected reply to `best` if it is legal after it.
pub fn legal_ponder(pos: &Position, best: Move, ponder: Option<Move>) -> Option<Move> {
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

    impl Output for ClosedAfterOne {
        fn info(&self, _: &Info) {
            *self.infos.lock().unwrap() += 1;
        }
        fn bestmove(&self, result: &SearchResult, _: &Game) {
            self.done.lock().unwrap().send(result.best_move).unwrap();
        }
        fn closed(&self) -> bool {
            *self.infos.lock().unwrap() > 0
        }
    }

    #[test]
    fn a_search_stops_when_nobody_reads_its_reports() {
        let (tx, rx) = channel();
        let output = Arc::new(ClosedAfterOne {
            infos: Mutex::new(0),
            done: Mutex::new(tx),
        });
        let caps = Caps {
            max_hash_mib: 1,
            max_threads: 1,
            max_nodes: None,
        };
        let mut engine = Engine::with_caps(output.clone(), caps);
        let mut req = GoRequest::default();
        // Far more than a test could finish: only the closed output can end it.
        req.limits.depth = Some(60);
        engine.go(req);
        let best = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("the search ended by itself");
        assert!(best.is_some());
        assert_eq!(*output.infos.lock().unwrap(), 1);
    }
}
