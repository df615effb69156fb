//! `xq.Engine`: xq's search in-process (python-chess's `engine.analyse`, `play` and
//! `analysis`), on its own threads, with the GIL released while it thinks.
//!
//! The search runs in the background (`xq_search::engine::Engine::go`); its listener
//! sends each completed iteration and the final answer down a channel. The Python thread
//! that waits reads the channel with the GIL released and calls the `info` callback
//! itself, holding the GIL, so a callback's exception comes back to the caller. The
//! engine sits behind a mutex that is only held for short calls (start, stop, join), so
//! `stop()` from another thread always gets through.

use crate::board::Board;
use crate::errors::value_error;
use crate::types::Move;
use crate::types::Reduced;
use pyo3::basic::CompareOp;
use pyo3::exceptions::PyStopIteration;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::IntoPyObjectExt;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use xq_search::engine::{Listener, Options, MAX_HASH_MIB, MAX_MULTIPV, MAX_THREADS};
use xq_search::skill::{Skill, MAX_LEVEL};
use xq_search::{Info, Limits, SearchResult};

/// A score as engines report it, from the side to move's point of view: centipawns
/// (`cp`) or mate in a number of moves (`mate`, negative when the side to move is
/// mated). One of the two is None. `-score` is the score for the other side.
#[pyclass(module = "xq", frozen)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Score {
    inner: xq_search::Score,
}

#[pymethods]
impl Score {
    #[new]
    #[pyo3(signature = (*, cp = None, mate = None))]
    fn new(cp: Option<i32>, mate: Option<i32>) -> PyResult<Score> {
        let inner = match (cp, mate) {
            (Some(cp), None) => xq_search::Score::Cp(cp),
            (None, Some(m)) => xq_search::Score::Mate(m),
            _ => return Err(value_error("give exactly one of cp and mate")),
        };
        Ok(Score { inner })
    }

    /// Centipawns, or None for a mate score.
    #[getter]
    fn cp(&self) -> Option<i32> {
        match self.inner {
            xq_search::Score::Cp(v) => Some(v),
            xq_search::Score::Mate(_) => None,
        }
    }

    /// Moves to mate (negative: being mated), or None for a centipawn score.
    #[getter]
    fn mate(&self) -> Option<i32> {
        match self.inner {
            xq_search::Score::Mate(v) => Some(v),
            xq_search::Score::Cp(_) => None,
        }
    }

    /// Is it a mate score?
    fn is_mate(&self) -> bool {
        matches!(self.inner, xq_search::Score::Mate(_))
    }

    /// The score for the other side.
    fn __neg__(&self) -> Score {
        let inner = match self.inner {
            xq_search::Score::Cp(v) => xq_search::Score::Cp(-v),
            xq_search::Score::Mate(v) => xq_search::Score::Mate(-v),
        };
        Score { inner }
    }

    /// `cp 35` or `mate -2`, as UCI says it.
    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        match self.inner {
            xq_search::Score::Cp(v) => format!("Score(cp={v})"),
            xq_search::Score::Mate(v) => format!("Score(mate={v})"),
        }
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let Ok(other) = other.extract::<PyRef<'_, Score>>() else {
            return Ok(py.NotImplemented());
        };
        match op {
            CompareOp::Eq => (self.inner == other.inner).into_py_any(py),
            CompareOp::Ne => (self.inner != other.inner).into_py_any(py),
            _ => Ok(py.NotImplemented()),
        }
    }

    fn __hash__(&self) -> u64 {
        match self.inner {
            xq_search::Score::Cp(v) => v as u32 as u64,
            xq_search::Score::Mate(v) => (1 << 40) | v as u32 as u64,
        }
    }

    /// Rebuilds a pickled score.
    #[staticmethod]
    #[pyo3(signature = (cp, mate))]
    fn _restore(cp: Option<i32>, mate: Option<i32>) -> PyResult<Score> {
        Score::new(cp, mate)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduced<'py, (Option<i32>, Option<i32>)> {
        let s = slf.get();
        Ok((
            slf.py().get_type::<Score>().getattr("_restore")?,
            (s.cp(), s.mate()),
        ))
    }
}

/// What the search thread sends the waiting Python thread.
enum Msg {
    Info(Info),
    Done(SearchResult),
}

struct ChannelListener(Mutex<Sender<Msg>>);

impl ChannelListener {
    fn send(&self, msg: Msg) {
        let tx = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = tx.send(msg);
    }
}

impl Listener for ChannelListener {
    fn info(&self, info: &Info) {
        self.send(Msg::Info(info.clone()));
    }
    fn best_move(&self, result: &SearchResult, _game: &xq_movegen::Game) {
        self.send(Msg::Done(result.clone()));
    }
}

/// The engine and the number of the search it last started.
struct Shared {
    engine: xq_search::Engine,
    search: u64,
}

fn lock(shared: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    shared.lock().unwrap_or_else(|e| e.into_inner())
}

/// The info dict of an iteration (python-chess's InfoDict keys).
fn info_dict<'py>(py: Python<'py>, info: &Info) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("depth", info.depth)?;
    d.set_item("seldepth", info.seldepth)?;
    d.set_item("multipv", info.multipv)?;
    d.set_item("score", Score { inner: info.score })?;
    d.set_item("nodes", info.nodes)?;
    d.set_item("nps", info.nps())?;
    d.set_item("time", info.time.as_secs_f64())?;
    d.set_item("hashfull", info.hashfull)?;
    d.set_item(
        "pv",
        info.pv.iter().map(|&m| Move::of(m)).collect::<Vec<_>>(),
    )?;
    Ok(d)
}

/// The info dict of the final answer.
fn result_dict<'py>(py: Python<'py>, r: &SearchResult) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("depth", r.depth)?;
    d.set_item("seldepth", r.seldepth)?;
    d.set_item("multipv", 1)?;
    d.set_item("score", Score { inner: r.score })?;
    d.set_item("nodes", r.nodes)?;
    let ms = r.time.as_millis().max(1) as u64;
    d.set_item("nps", r.nodes * 1000 / ms)?;
    d.set_item("time", r.time.as_secs_f64())?;
    d.set_item("pv", r.pv.iter().map(|&m| Move::of(m)).collect::<Vec<_>>())?;
    Ok(d)
}

/// Limits from the keyword arguments; `needed` refuses a search without any.
fn limits(
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<f64>,
    mate: Option<u32>,
    needed: bool,
) -> PyResult<Limits> {
    if depth == Some(0) {
        return Err(value_error("depth must be at least 1"));
    }
    if nodes == Some(0) {
        return Err(value_error("nodes must be at least 1"));
    }
    if mate == Some(0) {
        return Err(value_error("mate must be at least 1"));
    }
    let movetime = match movetime {
        None => None,
        Some(t) if t.is_finite() && t > 0.0 && t < 1e7 => Some(Duration::from_secs_f64(t)),
        Some(t) => {
            return Err(value_error(format!(
                "movetime must be a positive number of seconds, not {t}"
            )))
        }
    };
    let none = depth.is_none() && nodes.is_none() && movetime.is_none() && mate.is_none();
    if needed && none {
        return Err(value_error(
            "give a limit: depth, nodes, movetime (seconds) or mate",
        ));
    }
    Ok(Limits {
        depth,
        nodes,
        movetime,
        mate,
        // Not `infinite`: a search without limits runs until stopped, but one that can
        // go no deeper (the end of the tree, a mate seen to its end) answers by itself
        // instead of waiting for `stop()`, so that an iterator over it ends.
        infinite: false,
        ..Limits::default()
    })
}

/// xq's engine in-process: `Engine(threads=1, hash_mb=16, skill=None)`.
///
/// `threads` search threads (Lazy SMP, 1 to 1024) over a `hash_mb` MiB table (1 to
/// 33554432; a size the system refuses raises `ValueError`);
/// `skill` a playing level for people, 0 to 20 (None or 20: full strength). Searches
/// release the GIL. `analyse(board, depth=.., nodes=.., movetime=.., mate=..)` returns
/// an info dict (python-chess's keys: `score`, `pv`, `depth`, `seldepth`, `nodes`, `nps`,
/// `time`, `hashfull`, `multipv`); `play(board, ...)` the best move;
/// `analysis(board, ...)` an iterator of infos while it thinks; `stop()` stops a search
/// from another thread. Dropping the engine stops its search.
#[pyclass(module = "xq", frozen)]
pub struct Engine {
    shared: Arc<Mutex<Shared>>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("engine", &lock(&self.shared).engine)
            .finish()
    }
}

impl Engine {
    /// Starts a search of `board` and returns the channel of its reports and its number.
    fn start(
        &self,
        py: Python<'_>,
        board: &Board,
        limits: Limits,
        multipv: usize,
    ) -> (Receiver<Msg>, u64) {
        let game = board.game.clone();
        let shared = self.shared.clone();
        py.detach(move || {
            let (tx, rx) = channel();
            let mut s = lock(&shared);
            let mut options = s.engine.options().clone();
            options.multipv = multipv;
            s.engine.stop();
            // The table's size is not changed here: nothing can be refused.
            let _ = s.engine.set_options(options);
            s.engine.set_game(game);
            s.engine.go(limits, ChannelListener(Mutex::new(tx)));
            s.search += 1;
            (rx, s.search)
        })
    }

    /// Stops the search numbered `search` if it is still the current one.
    fn stop_search(&self, py: Python<'_>, search: u64) {
        let shared = self.shared.clone();
        py.detach(move || {
            let mut s = lock(&shared);
            if s.search == search {
                s.engine.stop();
            }
        });
    }

    /// Waits for the next report, the GIL released, checking for Ctrl-C every 50 ms.
    /// `None` when the search ended without answering (stopped by another search).
    fn next(py: Python<'_>, rx: &Mutex<Receiver<Msg>>) -> PyResult<Option<Msg>> {
        loop {
            let wait = || {
                let rx = rx.lock().unwrap_or_else(|e| e.into_inner());
                rx.recv_timeout(Duration::from_millis(50))
            };
            match py.detach(wait) {
                Ok(msg) => return Ok(Some(msg)),
                Err(RecvTimeoutError::Timeout) => py.check_signals()?,
                Err(RecvTimeoutError::Disconnected) => return Ok(None),
            }
        }
    }

    /// Runs a search to its end, calling `info` for each iteration; returns the answer
    /// and the latest info of every line.
    #[allow(clippy::too_many_arguments)]
    fn run(
        &self,
        py: Python<'_>,
        board: &Board,
        limits: Limits,
        multipv: usize,
        info: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(SearchResult, Vec<Option<Info>>)> {
        let (rx, search) = self.start(py, board, limits, multipv);
        let rx = Mutex::new(rx);
        let mut lines: Vec<Option<Info>> = vec![None; multipv];
        let mut stopped = false;
        loop {
            let msg = match Engine::next(py, &rx) {
                Ok(m) => m,
                Err(e) => {
                    self.stop_search(py, search);
                    return Err(e);
                }
            };
            match msg {
                Some(Msg::Info(i)) => {
                    // After the callback has said stop, the iterations still queued are
                    // not shown to it.
                    if let Some(cb) = info.filter(|_| !stopped) {
                        let go_on = info_dict(py, &i).and_then(|d| cb.call1((d,)));
                        match go_on {
                            Ok(v) if v.is(&*pyo3::types::PyBool::new(py, false)) => {
                                stopped = true;
                                self.stop_search(py, search)
                            }
                            Ok(_) => {}
                            Err(e) => {
                                self.stop_search(py, search);
                                return Err(e);
                            }
                        }
                    }
                    if let Some(slot) = lines.get_mut(i.multipv.saturating_sub(1)) {
                        *slot = Some(i);
                    }
                }
                Some(Msg::Done(result)) => {
                    // The search thread is ending: join it.
                    self.stop_search(py, search);
                    return Ok((result, lines));
                }
                None => return Ok((SearchResult::default(), lines)),
            }
        }
    }
}

#[pymethods]
impl Engine {
    #[new]
    #[pyo3(signature = (threads = 1, hash_mb = 16, skill = None))]
    fn new(threads: usize, hash_mb: usize, skill: Option<u8>) -> PyResult<Engine> {
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(value_error(format!(
                "threads must be 1 to {MAX_THREADS}, not {threads}"
            )));
        }
        if !(1..=MAX_HASH_MIB).contains(&hash_mb) {
            return Err(value_error(format!(
                "hash_mb must be 1 to {MAX_HASH_MIB}, not {hash_mb}"
            )));
        }
        let skill = match skill {
            None => Skill::FULL,
            Some(l) if l <= MAX_LEVEL => Skill::new(l),
            Some(l) => {
                return Err(value_error(format!(
                    "skill must be 0 to {MAX_LEVEL}, not {l}"
                )))
            }
        };
        let engine = xq_search::Engine::try_new(Options {
            threads,
            hash_mib: hash_mb,
            skill,
            ..Options::default()
        })
        .map_err(|e| value_error(e.to_string()))?;
        Ok(Engine {
            shared: Arc::new(Mutex::new(Shared { engine, search: 0 })),
        })
    }

    /// Searches `board` (its whole game: the repetition rules see the moves played) within
    /// the limits given (at least one: `depth` plies, `nodes`, `movetime` seconds, or
    /// `mate` in so many moves) and returns the info dict of the answer: `score` (an
    /// `xq.Score` from the side to move's view), `pv` (a list of `Move`s), `depth`,
    /// `seldepth`, `nodes`, `nps`, `time` (seconds), `multipv`. With `multipv=k` it returns
    /// a list of the k best lines' dicts instead. `info`, if given, is called with each
    /// completed iteration's dict (from this thread, holding the GIL); returning False
    /// stops the search. The GIL is released while the engine thinks.
    #[pyo3(signature = (board, *, depth = None, nodes = None, movetime = None, mate = None, multipv = None, info = None))]
    #[allow(clippy::too_many_arguments)]
    fn analyse<'py>(
        &self,
        py: Python<'py>,
        board: PyRef<'py, Board>,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<f64>,
        mate: Option<u32>,
        multipv: Option<usize>,
        info: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let limits = limits(depth, nodes, movetime, mate, true)?;
        let k = match multipv {
            None => 1,
            Some(k) if (1..=MAX_MULTIPV).contains(&k) => k,
            Some(k) => {
                return Err(value_error(format!(
                    "multipv must be 1 to {MAX_MULTIPV}, not {k}"
                )))
            }
        };
        let board = board.clone();
        let (result, lines) = self.run(py, &board, limits, k, info.as_ref())?;
        if multipv.is_none() {
            return Ok(result_dict(py, &result)?.into_any());
        }
        let out = pyo3::types::PyList::empty(py);
        for line in lines.iter().flatten() {
            out.append(info_dict(py, line)?)?;
        }
        if out.is_empty() && result.best_move.is_some() {
            out.append(result_dict(py, &result)?)?;
        }
        Ok(out.into_any())
    }

    /// The move the engine plays in `board` within the limits given (as `analyse`), or
    /// None when the side to move has no legal move. At a `skill` below 20 it is the
    /// level's choice.
    #[pyo3(signature = (board, *, depth = None, nodes = None, movetime = None, mate = None))]
    fn play(
        &self,
        py: Python<'_>,
        board: PyRef<'_, Board>,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<f64>,
        mate: Option<u32>,
    ) -> PyResult<Option<Move>> {
        let limits = limits(depth, nodes, movetime, mate, true)?;
        let board = board.clone();
        let (result, _) = self.run(py, &board, limits, 1, None)?;
        Ok(result.best_move.map(Move::of))
    }

    /// Starts a search in the background and returns an iterator of its info dicts
    /// (python-chess's `engine.analysis`): iterating waits for each completed iteration
    /// with the GIL released, and ends when the search does. With no limit it thinks until
    /// `stop()` (or until it can go no deeper). Use it in a `with` block so that leaving
    /// the block stops it.
    #[pyo3(signature = (board, *, depth = None, nodes = None, movetime = None, mate = None, multipv = 1))]
    #[allow(clippy::too_many_arguments)]
    fn analysis(
        &self,
        py: Python<'_>,
        board: PyRef<'_, Board>,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<f64>,
        mate: Option<u32>,
        multipv: usize,
    ) -> PyResult<Analysis> {
        let limits = limits(depth, nodes, movetime, mate, false)?;
        if !(1..=MAX_MULTIPV).contains(&multipv) {
            return Err(value_error(format!(
                "multipv must be 1 to {MAX_MULTIPV}, not {multipv}"
            )));
        }
        let board = board.clone();
        let (rx, search) = self.start(py, &board, limits, multipv);
        Ok(Analysis {
            engine: Engine {
                shared: self.shared.clone(),
            },
            search,
            rx: Mutex::new(rx),
            state: Mutex::new(AnalysisState {
                result: None,
                last: None,
                done: false,
            }),
        })
    }

    /// Stops the running search, if any (from any thread); `analyse` and `play` then
    /// return what the search found so far.
    fn stop(&self, py: Python<'_>) {
        let shared = self.shared.clone();
        py.detach(move || lock(&shared).engine.stop());
    }

    /// Forgets what earlier searches learnt (clears the table and the histories): after
    /// it, the same search gives the same answer again (with one thread).
    fn new_game(&self, py: Python<'_>) {
        let shared = self.shared.clone();
        py.detach(move || {
            let mut s = lock(&shared);
            s.engine.stop();
            s.engine.new_game();
        });
    }

    /// Seeds the choices of a playing level below 20: the same seed, the same choices.
    fn set_seed(&self, py: Python<'_>, seed: u64) {
        let shared = self.shared.clone();
        py.detach(move || lock(&shared).engine.set_seed(seed));
    }

    /// Search threads.
    #[getter]
    fn threads(&self) -> usize {
        lock(&self.shared).engine.options().threads
    }

    /// Table size, MiB.
    #[getter]
    fn hash_mb(&self) -> usize {
        lock(&self.shared).engine.options().hash_mib
    }

    /// The playing level, 0 to 20.
    #[getter]
    fn skill(&self) -> u8 {
        lock(&self.shared).engine.options().skill.level()
    }

    fn __repr__(&self) -> String {
        let s = lock(&self.shared);
        let o = s.engine.options();
        format!(
            "Engine(threads={}, hash_mb={}, skill={})",
            o.threads,
            o.hash_mib,
            o.skill.level()
        )
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __exit__(
        &self,
        py: Python<'_>,
        _t: &Bound<'_, PyAny>,
        _v: &Bound<'_, PyAny>,
        _tb: &Bound<'_, PyAny>,
    ) -> bool {
        self.stop(py);
        false
    }
}

struct AnalysisState {
    result: Option<SearchResult>,
    last: Option<Info>,
    done: bool,
}

/// A search running in the background (from `Engine.analysis`): iterate over it for each
/// completed iteration's info dict; `stop()` stops it; `wait()` waits for the end and
/// returns the final info dict; `info` is the latest dict. Leaving a `with` block, or
/// dropping the object, stops the search.
#[pyclass(module = "xq", frozen)]
pub struct Analysis {
    engine: Engine,
    search: u64,
    rx: Mutex<Receiver<Msg>>,
    state: Mutex<AnalysisState>,
}

impl std::fmt::Debug for Analysis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Analysis")
            .field("search", &self.search)
            .field("done", &self.state().done)
            .finish()
    }
}

impl Analysis {
    fn state(&self) -> MutexGuard<'_, AnalysisState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The next report, or None at the end.
    fn advance(&self, py: Python<'_>) -> PyResult<Option<Info>> {
        if self.state().done {
            return Ok(None);
        }
        let msg = Engine::next(py, &self.rx)?;
        let mut st = self.state();
        match msg {
            Some(Msg::Info(i)) => {
                st.last = Some(i.clone());
                Ok(Some(i))
            }
            Some(Msg::Done(r)) => {
                st.result = Some(r);
                st.done = true;
                drop(st);
                self.engine.stop_search(py, self.search);
                Ok(None)
            }
            None => {
                st.done = true;
                Ok(None)
            }
        }
    }
}

#[pymethods]
impl Analysis {
    fn __iter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        match self.advance(py)? {
            Some(i) => info_dict(py, &i),
            None => Err(PyStopIteration::new_err(())),
        }
    }

    /// Stops the search (it then answers; iteration ends).
    fn stop(&self, py: Python<'_>) {
        self.engine.stop_search(py, self.search);
    }

    /// Waits for the search to end (by its limits, or `stop()`) and returns the final
    /// info dict (`pv` empty when it ended without answering).
    fn wait<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        while self.advance(py)?.is_some() {}
        let st = self.state();
        result_dict(py, &st.result.clone().unwrap_or_default())
    }

    /// The latest iteration's info dict, or None before the first.
    #[getter]
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let last = self.state().last.clone();
        last.map(|i| info_dict(py, &i)).transpose()
    }

    /// The best move once the search has ended, else None.
    #[getter]
    fn best_move(&self) -> Option<Move> {
        self.state()
            .result
            .as_ref()
            .and_then(|r| r.best_move)
            .map(Move::of)
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __exit__(
        &self,
        py: Python<'_>,
        _t: &Bound<'_, PyAny>,
        _v: &Bound<'_, PyAny>,
        _tb: &Bound<'_, PyAny>,
    ) -> bool {
        self.stop(py);
        false
    }
}

impl Drop for Analysis {
    fn drop(&mut self) {
        let mut s = lock(&self.engine.shared);
        if s.search == self.search {
            s.engine.stop();
        }
    }
}
