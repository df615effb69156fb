// xq-search-worker.js: the search side of xq-engine.js (which starts this worker and
// relays the page's UCI lines to it). Not for pages to start themselves.
//
// The first message is { init: true, flag } where `flag` is an Int32Array over a
// SharedArrayBuffer, or null. With a flag, a `go` runs to its end in one call and polls
// `Atomics.load(flag, 0) >= its number` every 1,024 nodes (the relay stores the number
// of the last `go` to stop). Without, it runs one iteration at a time and reads the
// lines that came in between: `stop` (or any other command) ends it there.
(function () {
  'use strict';
  const inBrowser = typeof self === 'object' && typeof WorkerGlobalScope !== 'undefined';
  let post;            // (line) => void
  let wasm = null;     // the module's exports
  let engine = null;   // UciEngine
  let flag = null;
  let gos = 0;         // `go` lines taken
  let stepping = false;
  let searchingGo = 0;
  const queue = [];
  const out = (line) => post(line);

  function fail(e) {
    // A trap leaves the engine's state unknown: start a fresh one, and answer a `go`.
    post('info string internal error: ' + (e && e.message ? e.message : String(e)));
    const wasSearching = engine && (() => { try { return engine.searching; } catch (_) { return true; } })();
    try { engine = new wasm.UciEngine(); } catch (_) { engine = null; }
    stepping = false;
    if (wasSearching || searchingGo) post('bestmove (none)');
    searchingGo = 0;
  }

  function pump() {
    if (!engine || stepping) return;
    while (queue.length > 0) {
      const line = queue.shift();
      try {
        if (/^go\b/.test(line)) gos += 1;
        if (engine.command(line, out)) {
          searchingGo = gos;
          if (flag) {
            const mine = gos;
            engine.search(() => Atomics.load(flag, 0) >= mine, out);
            searchingGo = 0;
          } else {
            stepping = true;
            setTimeout(step, 0);
            return;
          }
        } else if (!engine.searching) {
          searchingGo = 0;
        } else if (!flag) {
          // `isready` between two iterations: the search goes on.
          stepping = true;
          setTimeout(step, 0);
          return;
        }
      } catch (e) {
        fail(e);
      }
    }
  }

  function step() {
    if (queue.length > 0) {
      // A line came in: `stop` ends the search, any other command ends it too, first.
      stepping = false;
      pump();
      return;
    }
    try {
      if (engine.step(out)) {
        stepping = false;
        searchingGo = 0;
        pump();
      } else {
        setTimeout(step, 0);
      }
    } catch (e) {
      fail(e);
      pump();
    }
  }

  function onMessage(data) {
    if (data && typeof data === 'object' && data.init) {
      flag = data.flag || null;
      load().then((exports) => {
        wasm = exports;
        engine = new wasm.UciEngine();
        pump();
      }, (e) => post('info string could not load the engine: ' + (e && e.message ? e.message : e)));
      return;
    }
    if (typeof data === 'string') {
      queue.push(data);
      pump();
    }
  }

  let load;
  if (inBrowser) {
    post = (line) => self.postMessage(line);
    self.onmessage = (e) => onMessage(e.data);
    load = () => import('./xq_wasm.js').then(async (m) => { await m.default(); return m; });
  } else {
    import('node:worker_threads').then((wt) => {
      post = (line) => wt.parentPort.postMessage(line);
      wt.parentPort.on('message', onMessage);
    });
    load = () => import('./xq-node.js').then((m) => m.init());
  }
}());
