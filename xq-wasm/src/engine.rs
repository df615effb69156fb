//! The engine for JavaScript: [`UciEngine`], the UCI core that the worker script
//! `xq-engine.js` drives, and [`bench`].

use crate::uci::Uci;
use wasm_bindgen::prelude::*;

/// The UCI engine of a worker. Lines go in with [`UciEngine::command`]; the engine's
/// lines come out through the `out` callback, one string per line. A `go` returns
/// `true` and waits: run it with [`UciEngine::search`] (to its end, polling `stop()`,
/// a function that says whether to stop) or [`UciEngine::step`] (one iteration a call).
/// Bad input is an `info string` line, never an exception.
#[wasm_bindgen]
#[derive(Debug, Default)]
pub struct UciEngine {
    uci: Uci,
}

fn emit(out: &js_sys::Function) -> impl FnMut(&str) + '_ {
    move |line: &str| {
        // A throwing callback is the page's business; the engine goes on.
        let _ = out.call1(&JsValue::NULL, &JsValue::from_str(line));
    }
}

#[wasm_bindgen]
impl UciEngine {
    /// An engine at the start position, `Hash` 16 MiB, full strength.
    #[wasm_bindgen(constructor)]
    pub fn new() -> UciEngine {
        UciEngine::default()
    }

    /// Handles one UCI line; returns `true` when a search now waits to be run.
    pub fn command(&mut self, line: &str, out: &js_sys::Function) -> bool {
        self.uci.command(line, &mut emit(out))
    }

    /// Runs the waiting search to its end; `stop()` is called every 1,024 nodes and
    /// ends the search when it returns a true value.
    pub fn search(&mut self, stop: &js_sys::Function, out: &js_sys::Function) {
        let signal = || {
            stop.call0(&JsValue::NULL)
                .map(|v| v.is_truthy())
                .unwrap_or(false)
        };
        self.uci.search(&signal, &mut emit(out));
    }

    /// Runs one iteration of the waiting search; `true` when it is over (its `bestmove`
    /// written).
    pub fn step(&mut self, out: &js_sys::Function) -> bool {
        self.uci.step(&mut emit(out))
    }

    /// Ends the waiting search now (its `bestmove` from the iterations done).
    pub fn finish(&mut self, out: &js_sys::Function) {
        self.uci.finish(&mut emit(out));
    }

    /// Does a search wait to be run?
    #[wasm_bindgen(getter)]
    pub fn searching(&self) -> bool {
        self.uci.is_searching()
    }

    /// Seeds the choices of a playing level (the same seed, the same moves).
    #[wasm_bindgen(js_name = setSeed)]
    pub fn set_seed(&mut self, seed: f64) {
        self.uci.set_seed(seed as u64);
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

/// `xq bench` in the page: the same 40 positions, depth (9 when omitted), 16 MiB table,
/// so the node count equals the native one's; the time is the page's clock.
#[wasm_bindgen]
pub fn bench(depth: Option<u32>) -> BenchResult {
    let c = crate::run_bench(depth.unwrap_or(crate::BENCH_DEPTH), &mut |_, _, _| {});
    BenchResult {
        nodes: c.nodes as f64,
        ms: c.time.as_secs_f64() * 1000.0,
        nps: c.nps() as f64,
    }
}
