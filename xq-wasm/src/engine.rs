//! The engine for JavaScript: [`UciEngine`], the UCI session that the worker script
//! `xq-search-worker.js` drives (xq-protocol's UCI over a [`Stepper`], the same protocol
//! and options as the native engine), and [`bench`].

use std::sync::{Arc, Mutex};
use wasm_bindgen::prelude::*;
use xq_protocol::{Protocol, Sink, Uci};
use xq_search::engine::{Caps, Memory, Options, SearchEngine, StepState, Stepper};

/// The largest `Hash` in MiB (a wasm32 memory holds at most 4 GiB).
pub const MAX_HASH_MIB: usize = 1024;
/// The default `Hash` in MiB.
pub const DEFAULT_HASH_MIB: usize = 16;

/// The UCI engine of a worker. Lines go in with [`UciEngine::command`]; the engine's
/// lines come out through the `out` callback, one string per line. After a `go` the
/// search waits for the worker to run it: with [`UciEngine::search`] (to its end,
/// polling two functions that say whether to stop and whether the move pondered on was
/// played) or [`UciEngine::step`] (one iteration a call, the worker reading its
/// messages in between). Bad input is an `info string` line, never an exception.
/// Files the options name (`EvalFile`, `BookFile`) are handed over first with
/// [`UciEngine::put_file`]: a page has no disk.
#[wasm_bindgen]
#[derive(Debug)]
pub struct UciEngine {
    uci: Uci<Stepper>,
    lines: Arc<Mutex<Vec<String>>>,
}

impl Default for UciEngine {
    fn default() -> UciEngine {
        UciEngine::new()
    }
}

/// Hands the lines of `lines` to `out`, emptying it.
fn flush(lines: &Mutex<Vec<String>>, out: &js_sys::Function) {
    let lines = std::mem::take(&mut *lines.lock().unwrap_or_else(|e| e.into_inner()));
    for line in lines {
        // A throwing callback is the page's business; the engine goes on.
        let _ = out.call1(&JsValue::NULL, &JsValue::from_str(&line));
    }
}

/// A `Signals` that calls the page's two functions, and hands the lines written so far
/// to the page each time it is polled (every 1,024 nodes), so that a search run to its end
/// in one call reports its iterations as they complete.
struct PageSignals<'a> {
    stop: &'a js_sys::Function,
    ponderhit: Option<&'a js_sys::Function>,
    lines: &'a Mutex<Vec<String>>,
    out: &'a js_sys::Function,
}

fn truthy(f: &js_sys::Function) -> bool {
    f.call0(&JsValue::NULL)
        .map(|v| v.is_truthy())
        .unwrap_or(false)
}

impl xq_search::engine::Signals for PageSignals<'_> {
    fn stop(&self) -> bool {
        flush(self.lines, self.out);
        truthy(self.stop)
    }

    fn ponderhit(&self) -> bool {
        self.ponderhit.is_some_and(truthy)
    }
}

#[wasm_bindgen]
impl UciEngine {
    /// An engine at the start position, `Hash` 16 MiB, one thread, full strength.
    #[wasm_bindgen(constructor)]
    pub fn new() -> UciEngine {
        let caps = Caps {
            max_hash_mib: MAX_HASH_MIB,
            max_threads: 1,
            ..Caps::default()
        };
        let options = Options {
            hash_mib: DEFAULT_HASH_MIB,
            ..Options::default()
        };
        let (sink, lines) = Sink::buffer();
        let mut engine = Stepper::new(options, caps);
        engine.core_mut().set_files(Box::new(Memory::default()));
        UciEngine {
            uci: Uci::new(sink, engine),
            lines,
        }
    }

    /// Hands the lines written so far to `out`.
    fn flush(&self, out: &js_sys::Function) {
        flush(&self.lines, out);
    }

    /// Does the search want to be run (a `go` that has not searched to its limits)?
    fn wants_cpu(&self) -> bool {
        self.uci.engine().state() == StepState::Searching
    }

    /// Handles one UCI line; returns `true` when a search now waits to be run by
    /// [`UciEngine::search`] or [`UciEngine::step`].
    pub fn command(&mut self, line: &str, out: &js_sys::Function) -> bool {
        let line = line.trim();
        if !line.is_empty() {
            self.uci.handle(line);
        }
        self.flush(out);
        self.wants_cpu()
    }

    /// Runs the waiting search to its end; `stop()` is called every 1,024 nodes and
    /// ends the search when it returns a true value, and while pondering so is
    /// `ponderhit()` (optional), which turns the search into a timed one.
    pub fn search(
        &mut self,
        stop: &js_sys::Function,
        ponderhit: Option<js_sys::Function>,
        out: &js_sys::Function,
    ) {
        let signals = PageSignals {
            stop,
            ponderhit: ponderhit.as_ref(),
            lines: &self.lines,
            out,
        };
        self.uci.engine_mut().run(&signals);
        self.flush(out);
    }

    /// Runs one iteration of the waiting search; `true` when it wants no more steps (it
    /// has answered, or it is held until `stop` or `ponderhit`).
    pub fn step(&mut self, out: &js_sys::Function) -> bool {
        let never = || false;
        self.uci.engine_mut().step(&never);
        self.flush(out);
        !self.wants_cpu()
    }

    /// Has a search been started that has not answered yet?
    #[wasm_bindgen(getter)]
    pub fn searching(&mut self) -> bool {
        self.uci.engine_mut().is_searching()
    }

    /// Keeps `bytes` as the file `name`, for `setoption name EvalFile value NAME` (a
    /// network written by `xq train`) or `setoption name BookFile value NAME` (a book).
    #[wasm_bindgen(js_name = putFile)]
    pub fn put_file(&mut self, name: &str, bytes: Vec<u8>) {
        self.uci
            .engine_mut()
            .core_mut()
            .files_mut()
            .put(name, bytes);
    }

    /// Seeds the choices of a playing level and of the book (the same seed, the same
    /// moves).
    #[wasm_bindgen(js_name = setSeed)]
    pub fn set_seed(&mut self, seed: f64) {
        self.uci.engine_mut().core_mut().set_seed(seed as u64);
    }
}

/// What [`bench()`] measured.
#[wasm_bindgen]
#[derive(Clone, Copy, Debug)]
pub struct BenchResult {
    /// Nodes searched over the 40 positions.
    pub nodes: f64,
    /// Milliseconds spent searching.
    pub ms: f64,
    /// Nodes per second.
    pub nps: f64,
}

/// `xq bench` in the page: the same 40 positions, depth (9 when omitted; 1 to 20), 16 MiB
/// table and network, so the node count equals the native one's; the time is the page's
/// clock. A depth outside 1 to 20 is an error that says so.
#[wasm_bindgen]
pub fn bench(depth: Option<u32>) -> Result<BenchResult, JsError> {
    let depth = depth.unwrap_or(xq_search::bench::DEPTH);
    let depths = xq_search::bench::DEPTHS;
    if !depths.contains(&depth) {
        return Err(JsError::new(&format!(
            "bench depth {depth}: {} to {}",
            depths.start(),
            depths.end()
        )));
    }
    let c = xq_search::bench::run(
        depth,
        xq_search::bench::HASH_MIB,
        xq_eval::nnue::default_network(),
        &mut |_, _, _| {},
    )
    .map_err(crate::js_error)?;
    Ok(BenchResult {
        nodes: c.nodes as f64,
        ms: c.time.as_secs_f64() * 1000.0,
        nps: c.nps() as f64,
    })
}
