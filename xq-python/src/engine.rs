//! `xq.EmbeddedEngine`: xq's search in-process (python-chess's `engine.analyse`, `play` and
//! `analysis`), on its own threads, with the GIL released while it thinks. It takes and
//! returns the types of `xq.engine` (`Limit`, `PlayResult`, `PovScore`, `BestMove`), so
//! that a program moves between it and an outside engine
//! (`xq.engine.SimpleEngine.popen_uci`) by changing one line.
//!
//! The search runs in the background (`xq_search::engine::Engine::go`); its listener
//! sends each completed iteration and the final answer down a channel. The Python thread
//! that waits reads the channel with the GIL released and calls the `info` callback
//! itself, holding the GIL, so a callback's exception comes back to the caller. The
//! engine sits behind a mutex that is only held for short calls (start, stop, join), so
//! `stop()` from another thread always gets through.

use crate::args::{self, seconds, type_name};
use crate::board::Board;
use crate::errors::{invalid_limit, invalid_option};
use crate::types::{is_red, Move};
use pyo3::exceptions::PyStopIteration;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use xq_protocol::options::{find, uci_options, EngineOption, Kind, Setting, Settings};
use xq_protocol::CommandError;
use xq_search::engine::{Listener, Options, SearchEngine, MAX_HASH_MIB, MAX_MULTIPV, MAX_THREADS};
use xq_search::skill::{Skill, MAX_LEVEL};
use xq_search::time::Clock;
use xq_search::{Info, Limits, Score, SearchResult};

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
    /// What the options set beyond the engine's own (the evaluation chosen, the book).
    settings: Settings,
    search: u64,
}

fn lock(shared: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    shared.lock().unwrap_or_else(|e| e.into_inner())
}

/// What the dicts of a search need to know about its position: whose view the scores
/// are from and the material (for the win/draw/loss chances).
#[derive(Copy, Clone, Debug)]
struct View {
    turn: bool,
    material: u32,
}

impl View {
    fn of(board: &Board) -> View {
        View {
            turn: is_red(board.pos().side_to_move()),
            material: xq_search::wdl::material(board.pos()),
        }
    }
}

/// A class of `xq.engine` (the module is imported once, then found in `sys.modules`).
fn engine_type<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("xq.engine")?.getattr(name)
}

/// `PovScore(Cp(..) or Mate(..), turn)`.
fn pov_score<'py>(py: Python<'py>, score: Score, view: View) -> PyResult<Bound<'py, PyAny>> {
    let relative = match score {
        Score::Cp(v) => engine_type(py, "Cp")?.call1((v,))?,
        Score::Mate(m) => engine_type(py, "Mate")?.call1((m,))?,
    };
    engine_type(py, "PovScore")?.call1((relative, view.turn))
}

/// `PovWdl(Wdl(win, draw, loss), turn)`, per mille by the engine's model.
fn pov_wdl<'py>(py: Python<'py>, score: Score, view: View) -> PyResult<Bound<'py, PyAny>> {
    let w = xq_search::wdl::MODEL.wdl(score, view.material);
    let wdl = engine_type(py, "Wdl")?.call1((w.win, w.draw, w.loss))?;
    engine_type(py, "PovWdl")?.call1((wdl, view.turn))
}

/// The info dict of an iteration (python-chess's InfoDict keys).
fn info_dict<'py>(py: Python<'py>, info: &Info, view: View) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("depth", info.depth)?;
    d.set_item("seldepth", info.seldepth)?;
    d.set_item("multipv", info.multipv)?;
    d.set_item("score", pov_score(py, info.score, view)?)?;
    d.set_item("wdl", pov_wdl(py, info.score, view)?)?;
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
fn result_dict<'py>(py: Python<'py>, r: &SearchResult, view: View) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("depth", r.depth)?;
    d.set_item("seldepth", r.seldepth)?;
    d.set_item("multipv", 1)?;
    d.set_item("score", pov_score(py, r.score, view)?)?;
    d.set_item("wdl", pov_wdl(py, r.score, view)?)?;
    d.set_item("nodes", r.nodes)?;
    let ms = r.time.as_millis().max(1) as u64;
    d.set_item("nps", r.nodes * 1000 / ms)?;
    d.set_item("time", r.time.as_secs_f64())?;
    d.set_item("pv", r.pv.iter().map(|&m| Move::of(m)).collect::<Vec<_>>())?;
    Ok(d)
}

/// `PlayResult(move, ponder, info)`.
fn play_result<'py>(py: Python<'py>, r: &SearchResult, view: View) -> PyResult<Bound<'py, PyAny>> {
    let info = result_dict(py, r, view)?;
    engine_type(py, "PlayResult")?.call1((r.best_move.map(Move::of), r.ponder.map(Move::of), info))
}

/// An int `name` from `min` to `max` (None: not given), or the error `error` makes:
/// the package's one check ([`crate::args`]).
fn whole(
    name: &str,
    obj: Option<&Bound<'_, PyAny>>,
    min: u64,
    max: u64,
    error: fn(String) -> PyErr,
) -> PyResult<Option<u64>> {
    let v = args::opt_int_in(name, obj, i128::from(min), i128::from(max), &error)?;
    Ok(v.map(|v| v as u64))
}

/// What a search is limited by: an `xq.engine.Limit` or the keyword arguments (depth,
/// nodes, movetime in seconds, mate), for the side `turn` (whose clock counts). `needed`
/// refuses a search without any limit.
struct LimitArgs<'a, 'py> {
    limit: Option<&'a Bound<'py, PyAny>>,
    depth: Option<&'a Bound<'py, PyAny>>,
    nodes: Option<&'a Bound<'py, PyAny>>,
    movetime: Option<&'a Bound<'py, PyAny>>,
    mate: Option<&'a Bound<'py, PyAny>>,
}

impl LimitArgs<'_, '_> {
    fn limits(&self, turn: bool, needed: bool) -> PyResult<Limits> {
        let limit = self.limit.filter(|l| !l.is_none());
        let keywords = [self.depth, self.nodes, self.movetime, self.mate]
            .iter()
            .any(|k| k.is_some_and(|k| !k.is_none()));
        let mut out = Limits {
            // Not `infinite`: a search without limits runs until stopped, but one that can
            // go no deeper (the end of the tree, a mate seen to its end) answers by itself
            // instead of waiting for `stop()`, so that an iterator over it ends.
            infinite: false,
            ..Limits::default()
        };
        let u32max = u64::from(u32::MAX);
        if let Some(limit) = limit {
            if keywords {
                return Err(invalid_limit(
                    "give a Limit or the keywords depth, nodes, movetime and mate, not both",
                ));
            }
            if !limit.is_instance(&engine_type(limit.py(), "Limit")?)? {
                return Err(invalid_limit(format!(
                    "the limit must be an xq.engine.Limit, not a {}",
                    type_name(limit)
                )));
            }
            let get = |name: &str| limit.getattr(name);
            let (depth, nodes, mate) = (get("depth")?, get("nodes")?, get("mate")?);
            out.depth = whole("depth", Some(&depth), 1, u32max, invalid_limit)?.map(|v| v as u32);
            out.nodes = whole("nodes", Some(&nodes), 1, u64::MAX, invalid_limit)?;
            out.mate = whole("mate", Some(&mate), 1, u32max, invalid_limit)?.map(|v| v as u32);
            out.movetime = seconds("time", Some(&get("time")?), true)?;
            let (clock, inc, other) = if turn {
                ("red_clock", "red_inc", "black_clock")
            } else {
                ("black_clock", "black_inc", "red_clock")
            };
            let own = seconds(clock, Some(&get(clock)?), false)?;
            let inc = seconds(inc, Some(&get(inc)?), false)?;
            // The other side's clock is checked too, though only the mover's counts.
            seconds(other, Some(&get(other)?), false)?;
            let opp_inc = if turn { "black_inc" } else { "red_inc" };
            seconds(opp_inc, Some(&get(opp_inc)?), false)?;
            let togo = get("remaining_moves")?;
            let movestogo =
                whole("remaining_moves", Some(&togo), 1, u32max, invalid_limit)?.map(|v| v as u32);
            if let Some(time) = own {
                out.clock = Some(Clock {
                    time,
                    inc: inc.unwrap_or_default(),
                    movestogo,
                });
            }
        } else {
            out.depth = whole("depth", self.depth, 1, u32max, invalid_limit)?.map(|v| v as u32);
            out.nodes = whole("nodes", self.nodes, 1, u64::MAX, invalid_limit)?;
            out.mate = whole("mate", self.mate, 1, u32max, invalid_limit)?.map(|v| v as u32);
            out.movetime = seconds("movetime", self.movetime, true)?;
        }
        let none = out.depth.is_none()
            && out.nodes.is_none()
            && out.movetime.is_none()
            && out.mate.is_none()
            && out.clock.is_none();
        if needed && none {
            return Err(invalid_limit(
                "give a limit: Limit(depth=..., nodes=..., time=..., mate=... or a clock), or the keywords depth, nodes, movetime (seconds), mate",
            ));
        }
        Ok(out)
    }
}

/// The number of lines asked for: None is 1.
fn multipv_of(obj: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    Ok(whole("multipv", obj, 1, MAX_MULTIPV as u64, invalid_limit)?.map_or(1, |v| v as usize))
}

/// The info callback, if `info` is one (python-chess's `info` flags, an int, are taken
/// and ignored: every key is always there).
fn callback<'a, 'py>(info: Option<&'a Bound<'py, PyAny>>) -> Option<&'a Bound<'py, PyAny>> {
    info.filter(|i| i.is_callable())
}

/// xq's engine in-process: `EmbeddedEngine(threads=1, hash_mb=16, skill=None)` (`xq.Engine`
/// is its old, deprecated name: the module `xq.engine` drives outside engines).
///
/// `threads` search threads (Lazy SMP, 1 to 1024) over a `hash_mb` MiB table (1 to
/// 33554432; a size the system refuses raises `InvalidOption`);
/// `skill` a playing level for people, 0 to 20 (None or 20: full strength). Searches
/// release the GIL.
///
/// In python-chess's shape, with `xq.engine`'s types: `analyse(board, Limit(depth=12))`
/// returns an info dict (`score`, a `PovScore`; `wdl`, a `PovWdl`; `pv`, `depth`,
/// `seldepth`, `nodes`, `nps`, `time`, `hashfull`, `multipv`), a list of them with
/// `multipv=k`; `play(board, limit)` a `PlayResult`; `analysis(board)` an iterator of
/// infos while it thinks; `configure({"Threads": 2})`; `stop()` stops a search from
/// another thread. The keywords `depth=`, `nodes=`, `movetime=` (seconds), `mate=` work
/// in place of a `Limit`. Bad limits raise `InvalidLimit`, bad options `InvalidOption`.
/// Dropping the engine stops its search.
#[pyclass(module = "xq", name = "EmbeddedEngine", frozen)]
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

/// The options `configure` takes: the engine's UCI options, from the one table the
/// binary and the web worker announce (`xq_protocol::options`), but for those each search
/// sets (`MultiPV`: `analyse(multipv=N)`; `Ponder`), as python-chess manages them.
fn option_table(engine: &xq_search::Engine) -> Vec<EngineOption> {
    uci_options(engine.caps(), engine.options().hash_mib)
        .into_iter()
        .filter(|o| !matches!(o.setting, Setting::MultiPv | Setting::Ponder))
        .collect()
}

/// A Python value as UCI's text for an option: a bool as `true`/`false`, an int in
/// decimal, a str as it is; `None` for a button.
fn option_text(name: &str, value: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    if value.is_none() {
        return Ok(None);
    }
    if let Ok(b) = value.cast::<PyBool>() {
        return Ok(Some(b.is_true().to_string()));
    }
    if value.cast::<PyInt>().is_ok() || value.cast::<PyString>().is_ok() {
        return Ok(Some(value.str()?.to_string()));
    }
    Err(invalid_option(format!(
        "{name} takes an int, a bool or a str, not {}",
        type_name(value)
    )))
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
    fn run(
        &self,
        py: Python<'_>,
        board: &Board,
        limits: Limits,
        multipv: usize,
        info: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(SearchResult, Vec<Option<Info>>)> {
        let view = View::of(board);
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
                        let go_on = info_dict(py, &i, view).and_then(|d| cb.call1((d,)));
                        match go_on {
                            Ok(v) if v.is(&*PyBool::new(py, false)) => {
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
    /// `EmbeddedEngine(threads=1, hash_mb=16, skill=20, *, eval_file=None,
    /// classical=False, book=None, tablebases=None)`: `eval_file` a network written by
    /// `xq train` (else the built-in one; `classical=True` evaluates without a network),
    /// `book` an opening book to play from, `tablebases` a directory of `xq tb gen`. Each is
    /// set by the engine's own setter, as UCI's options are; a file that cannot be loaded
    /// raises `InvalidOption` with the engine's message.
    #[new]
    #[pyo3(signature = (threads = None, hash_mb = None, skill = None, *, eval_file = None, classical = false, book = None, tablebases = None))]
    fn new(
        threads: Option<Bound<'_, PyAny>>,
        hash_mb: Option<Bound<'_, PyAny>>,
        skill: Option<Bound<'_, PyAny>>,
        eval_file: Option<std::path::PathBuf>,
        classical: bool,
        book: Option<std::path::PathBuf>,
        tablebases: Option<std::path::PathBuf>,
    ) -> PyResult<Engine> {
        let threads = whole(
            "threads",
            threads.as_ref(),
            1,
            MAX_THREADS as u64,
            invalid_option,
        )?
        .map_or(1, |v| v as usize);
        let hash_mib = whole(
            "hash_mb",
            hash_mb.as_ref(),
            1,
            MAX_HASH_MIB as u64,
            invalid_option,
        )?
        .map_or(16, |v| v as usize);
        let skill = whole(
            "skill",
            skill.as_ref(),
            0,
            u64::from(MAX_LEVEL),
            invalid_option,
        )?
        .map_or(Skill::FULL, |l| Skill::new(l as u8));
        let engine = xq_search::Engine::try_new(Options {
            threads,
            hash_mib,
            skill,
            ..Options::default()
        })
        .map_err(|e| invalid_option(e.to_string()))?;
        let mut engine = engine;
        if classical && eval_file.is_some() {
            return Err(invalid_option(
                "give classical=True or eval_file, not both: they choose the evaluation",
            ));
        }
        let text = |p: &std::path::Path| p.to_string_lossy().into_owned();
        engine.set_use_network(!classical);
        if let Some(path) = &eval_file {
            engine.load_network(&text(path)).map_err(invalid_option)?;
        }
        if let Some(path) = &book {
            engine.load_book(&text(path)).map_err(invalid_option)?;
            engine.set_own_book(true);
        }
        if let Some(path) = &tablebases {
            engine
                .load_tablebases(&text(path))
                .map_err(invalid_option)?;
        }
        Ok(Engine {
            shared: Arc::new(Mutex::new(Shared {
                engine,
                settings: Settings::new(),
                search: 0,
            })),
        })
    }

    /// Searches `board` (its whole game: the repetition rules see the moves played) within
    /// `limit` (an `xq.engine.Limit`: `depth` plies, `nodes`, `time` seconds, `mate` in
    /// so many moves, or the side to move's clock `red_clock`/`black_clock` with
    /// `red_inc`/`black_inc` and `remaining_moves`), or the keywords `depth`, `nodes`,
    /// `movetime` (seconds), `mate`; at least one limit. Returns the info dict of the
    /// answer: `score` (a `PovScore`: `.relative` from the side to move's view, `.red()`),
    /// `wdl` (a `PovWdl`, per mille), `pv` (a list of `Move`s), `depth`, `seldepth`,
    /// `nodes`, `nps`, `time` (seconds), `multipv`. With `multipv=k` it returns a list of
    /// the k best lines' dicts instead. `info`, if callable, is called with each completed
    /// iteration's dict (from this thread, holding the GIL); returning False stops the
    /// search (python-chess's `Info` flags are taken and ignored). The GIL is released
    /// while the engine thinks.
    ///
    /// Raises InvalidLimit for a bad limit or multipv.
    #[pyo3(signature = (board, limit = None, *, multipv = None, info = None, depth = None, nodes = None, movetime = None, mate = None, game = None))]
    #[allow(clippy::too_many_arguments)]
    fn analyse<'py>(
        &self,
        py: Python<'py>,
        board: PyRef<'py, Board>,
        limit: Option<Bound<'py, PyAny>>,
        multipv: Option<Bound<'py, PyAny>>,
        info: Option<Bound<'py, PyAny>>,
        depth: Option<Bound<'py, PyAny>>,
        nodes: Option<Bound<'py, PyAny>>,
        movetime: Option<Bound<'py, PyAny>>,
        mate: Option<Bound<'py, PyAny>>,
        game: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let _ = game;
        let view = View::of(&board);
        let args = LimitArgs {
            limit: limit.as_ref(),
            depth: depth.as_ref(),
            nodes: nodes.as_ref(),
            movetime: movetime.as_ref(),
            mate: mate.as_ref(),
        };
        let limits = args.limits(view.turn, true)?;
        let listed = multipv.as_ref().is_some_and(|m| !m.is_none());
        let k = multipv_of(multipv.as_ref())?;
        let board = board.clone();
        let (result, lines) = self.run(py, &board, limits, k, callback(info.as_ref()))?;
        if !listed {
            return Ok(result_dict(py, &result, view)?.into_any());
        }
        let out = PyList::empty(py);
        for line in lines.iter().flatten() {
            out.append(info_dict(py, line, view)?)?;
        }
        if out.is_empty() && result.best_move.is_some() {
            out.append(result_dict(py, &result, view)?)?;
        }
        Ok(out.into_any())
    }

    /// The move the engine plays in `board` within `limit` (as `analyse`), as a
    /// `PlayResult`: `move` (None when the side to move has no legal move), `ponder` (the
    /// reply it expects) and `info` (the answer's info dict). At a `skill` below 20 the
    /// move is the level's choice. `ponder` and python-chess's other keywords are taken
    /// and ignored.
    ///
    /// Raises InvalidLimit for a bad limit.
    #[pyo3(signature = (board, limit = None, *, info = None, ponder = false, depth = None, nodes = None, movetime = None, mate = None, game = None))]
    #[allow(clippy::too_many_arguments)]
    fn play<'py>(
        &self,
        py: Python<'py>,
        board: PyRef<'py, Board>,
        limit: Option<Bound<'py, PyAny>>,
        info: Option<Bound<'py, PyAny>>,
        ponder: bool,
        depth: Option<Bound<'py, PyAny>>,
        nodes: Option<Bound<'py, PyAny>>,
        movetime: Option<Bound<'py, PyAny>>,
        mate: Option<Bound<'py, PyAny>>,
        game: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let _ = (ponder, game);
        let view = View::of(&board);
        let args = LimitArgs {
            limit: limit.as_ref(),
            depth: depth.as_ref(),
            nodes: nodes.as_ref(),
            movetime: movetime.as_ref(),
            mate: mate.as_ref(),
        };
        let limits = args.limits(view.turn, true)?;
        let board = board.clone();
        let (result, _) = self.run(py, &board, limits, 1, callback(info.as_ref()))?;
        play_result(py, &result, view)
    }

    /// Starts a search in the background and returns an iterator of its info dicts
    /// (python-chess's `engine.analysis`): iterating waits for each completed iteration
    /// with the GIL released, and ends when the search does. With no limit it thinks until
    /// `stop()` (or until it can go no deeper). Use it in a `with` block so that leaving
    /// the block stops it.
    ///
    /// Raises InvalidLimit for a bad limit or multipv.
    #[pyo3(signature = (board, limit = None, *, multipv = None, info = None, depth = None, nodes = None, movetime = None, mate = None, game = None))]
    #[allow(clippy::too_many_arguments)]
    fn analysis<'py>(
        &self,
        py: Python<'py>,
        board: PyRef<'py, Board>,
        limit: Option<Bound<'py, PyAny>>,
        multipv: Option<Bound<'py, PyAny>>,
        info: Option<Bound<'py, PyAny>>,
        depth: Option<Bound<'py, PyAny>>,
        nodes: Option<Bound<'py, PyAny>>,
        movetime: Option<Bound<'py, PyAny>>,
        mate: Option<Bound<'py, PyAny>>,
        game: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Analysis> {
        let _ = (info, game);
        let view = View::of(&board);
        let args = LimitArgs {
            limit: limit.as_ref(),
            depth: depth.as_ref(),
            nodes: nodes.as_ref(),
            movetime: movetime.as_ref(),
            mate: mate.as_ref(),
        };
        let limits = args.limits(view.turn, false)?;
        let k = multipv_of(multipv.as_ref())?;
        let board = board.clone();
        let (rx, search) = self.start(py, &board, limits, k);
        Ok(Analysis {
            engine: Engine {
                shared: self.shared.clone(),
            },
            search,
            view,
            rx: Mutex::new(rx),
            state: Mutex::new(AnalysisState {
                result: None,
                lines: vec![None; k],
                done: false,
            }),
        })
    }

    /// Sets options by name, as python-chess's `configure` does: every option of the
    /// engine's UCI table (`options` lists them: `Threads`, `Hash`, `Skill Level`,
    /// `UCI_LimitStrength`, `UCI_Elo`, `Use NNUE`, `EvalFile`, `UCI_ShowWDL`, `OwnBook`,
    /// `BookFile`, ...), the names in any case, the values as ints, bools or strs (as UCI
    /// would take their text). Every name and value is checked before any is applied.
    ///
    /// Raises InvalidOption for a name the engine does not have (or `MultiPV`, which
    /// `analyse(multipv=...)` sets), a value out of range or of the wrong type, or a file
    /// (`EvalFile`, `BookFile`) that cannot be loaded.
    fn configure(&self, py: Python<'_>, options: &Bound<'_, PyDict>) -> PyResult<()> {
        let table = option_table(&lock(&self.shared).engine);
        let mut parsed = Vec::new();
        for (name, value) in options.iter() {
            let Ok(name) = name.cast::<PyString>() else {
                return Err(invalid_option(format!(
                    "option names are str, not {}",
                    type_name(&name)
                )));
            };
            let name = name.to_string();
            if name.eq_ignore_ascii_case("MultiPV") {
                return Err(invalid_option(
                    "MultiPV is set by each search: analyse(board, limit, multipv=N)",
                ));
            }
            let option = find(&table, &name)
                .ok_or_else(|| invalid_option(CommandError::UnknownOption(name.clone())))?;
            let text = option_text(option.name, &value)?;
            let value = option.parse(text.as_deref()).map_err(invalid_option)?;
            parsed.push((option.setting, value));
        }
        let shared = self.shared.clone();
        py.detach(move || {
            let mut s = lock(&shared);
            s.engine.stop();
            let Shared {
                engine, settings, ..
            } = &mut *s;
            for (setting, value) in parsed {
                settings.apply(engine, setting, value)?;
            }
            Ok(())
        })
        .map_err(|e: CommandError| invalid_option(e))
    }

    /// The options `configure` takes, by name: `xq.engine.Option`s (name, type,
    /// default, min, max, var), as a UCI engine announces them.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let make = engine_type(py, "Option")?;
        let none = || py.None().into_bound(py);
        for o in option_table(&lock(&self.shared).engine) {
            let (kind, default, min, max, vars): (&str, Bound<'py, PyAny>, _, _, Vec<&str>) =
                match o.kind {
                    Kind::Spin { default, min, max } => (
                        "spin",
                        default.into_pyobject(py)?.into_any(),
                        min.into_pyobject(py)?.into_any(),
                        max.into_pyobject(py)?.into_any(),
                        vec![],
                    ),
                    Kind::Check { default } => (
                        "check",
                        PyBool::new(py, default).to_owned().into_any(),
                        none(),
                        none(),
                        vec![],
                    ),
                    Kind::Button => ("button", none(), none(), none(), vec![]),
                    Kind::Combo { default, vars } => (
                        "combo",
                        PyString::new(py, default).into_any(),
                        none(),
                        none(),
                        vars.to_vec(),
                    ),
                    Kind::Text { default } => (
                        "string",
                        PyString::new(py, default).into_any(),
                        none(),
                        none(),
                        vec![],
                    ),
                };
            let o_py = make.call1((o.name, kind, default, min, max, PyList::new(py, vars)?))?;
            d.set_item(o.name, o_py)?;
        }
        Ok(d)
    }

    /// The engine's name and author, as a UCI engine says them (`id`).
    #[getter]
    fn id<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("name", format!("xq {}", env!("CARGO_PKG_VERSION")))?;
        d.set_item("author", "The xq developers")?;
        Ok(d)
    }

    /// Does nothing: the in-process engine is always ready (python-chess's `ping`).
    fn ping(&self) {}

    /// Stops the running search (python-chess's `quit` and `close`, so that the same
    /// program runs with an outside engine); the engine stays usable.
    fn quit(&self, py: Python<'_>) {
        self.stop(py);
    }

    /// The same as `quit()`.
    fn close(&self, py: Python<'_>) {
        self.stop(py);
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
    /// Any int is a seed (taken modulo 2**64).
    fn set_seed(&self, py: Python<'_>, seed: &Bound<'_, PyInt>) -> PyResult<()> {
        let seed: u64 = seed.call_method1("__and__", (u64::MAX,))?.extract()?;
        let shared = self.shared.clone();
        py.detach(move || lock(&shared).engine.set_seed(seed));
        Ok(())
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
            "EmbeddedEngine(threads={}, hash_mb={}, skill={})",
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
    /// The latest info of each line.
    lines: Vec<Option<Info>>,
    done: bool,
}

/// A search running in the background (from `Engine.analysis`; python-chess's
/// `AnalysisResult`): iterate over it for each completed iteration's info dict, or call
/// `next()` (None at the end) or `get()` (raises `xq.engine.AnalysisComplete` at the
/// end); `stop()` stops it; `wait()` waits for the end and returns the `BestMove`;
/// `info` is the latest dict of the first line, `multipv` the latest of every line.
/// Leaving a `with` block, or dropping the object, stops the search.
#[pyclass(module = "xq", frozen)]
pub struct Analysis {
    engine: Engine,
    search: u64,
    view: View,
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
                if let Some(slot) = st.lines.get_mut(i.multipv.saturating_sub(1)) {
                    *slot = Some(i.clone());
                }
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
            Some(i) => info_dict(py, &i, self.view),
            None => Err(PyStopIteration::new_err(())),
        }
    }

    /// The next info dict, waiting for it; None once the search has ended.
    fn next<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.advance(py)?
            .map(|i| info_dict(py, &i, self.view))
            .transpose()
    }

    /// The next info dict, waiting for it.
    ///
    /// Raises `xq.engine.AnalysisComplete` once the search has ended.
    fn get<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        match self.advance(py)? {
            Some(i) => info_dict(py, &i, self.view),
            None => {
                let complete = engine_type(py, "AnalysisComplete")?;
                Err(PyErr::from_value(complete.call0()?))
            }
        }
    }

    /// Stops the search (it then answers; iteration ends).
    fn stop(&self, py: Python<'_>) {
        self.engine.stop_search(py, self.search);
    }

    /// Waits for the search to end (by its limits, or `stop()`) and returns the
    /// `BestMove` (move and ponder; the move None when it ended without one).
    fn wait<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        while self.advance(py)?.is_some() {}
        let (best, ponder) = {
            let st = self.state();
            let r = st.result.as_ref();
            (
                r.and_then(|r| r.best_move).map(Move::of),
                r.and_then(|r| r.ponder).map(Move::of),
            )
        };
        engine_type(py, "BestMove")?.call1((best, ponder))
    }

    /// The latest iteration's info dict of the first line (an empty dict before the
    /// first, as python-chess's).
    #[getter]
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let first = self.state().lines.first().cloned().flatten();
        match first {
            Some(i) => info_dict(py, &i, self.view),
            None => Ok(PyDict::new(py)),
        }
    }

    /// The latest info dict of every line searched so far, best first.
    #[getter]
    fn multipv<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let lines = self.state().lines.clone();
        lines
            .iter()
            .flatten()
            .map(|i| info_dict(py, i, self.view))
            .collect()
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
