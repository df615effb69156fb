// xq-search-worker.js: the search side of xq-engine.js (which starts this worker and
// relays the page's UCI lines and files to it). Not for pages to start themselves.
//
// The first message is { init: true, flag } where `flag` is an Int32Array of two over a
// SharedArrayBuffer, or null. With a flag, a search runs to its end in one call and
// polls it every 1,024 nodes: it stops once `flag[0]` reaches its `go`'s number (the
// relay stores the number of the last `go` to stop), and a ponder search turns into a
// timed one once `flag[1]` does (`ponderhit`). Without a flag, it runs one iteration at
// a time and reads the lines that came in between: `stop` ends it there, `ponderhit`
// starts its clock, other commands are taken as the native engine takes them.
// A message { file: NAME, data: ArrayBuffer or Uint8Array } keeps a file for
// `setoption name EvalFile value NAME` or `setoption name BookFile value NAME`.
(function () {
  'use strict';
  const inBrowser = typeof self === 'object' && typeof WorkerGlobalScope !== 'undefined';
  let post;            // (line) => void
  let wasm = null;     // the module's exports
  let engine = null;   // UciEngine
  let flag = null;
  let gos = 0;         // `go` lines taken
  let stepping = false;
  const queue = [];
  const out = (line) => post(line);

  function fail(e) {
    // A trap leaves the engine's state unknown: start a fresh one, and answer a `go`.
    post('info string internal error: ' + (e && e.message ? e.message : String(e)));
    let wasSearching = true;
    try { wasSearching = engine.searching; } catch (_) { /* the engine is gone */ }
    try { engine = new wasm.UciEngine(); } catch (_) { engine = null; }
    stepping = false;
    if (wasSearching) post('bestmove (none)');
  }

  // Runs the search the last command left waiting: to its end with the shared flag,
  // else one iteration now and the next after the messages that came in.
  function run() {
    if (flag) {
      const mine = gos;
      engine.search(() => Atomics.load(flag, 0) >= mine, () => Atomics.load(flag, 1) >= mine, out);
      return false;
    }
    stepping = true;
    setTimeout(step, 0);
    return true;
  }

  function pump() {
    if (!engine || stepping) return;
    while (queue.length > 0) {
      const msg = queue.shift();
      try {
        if (typeof msg === 'object') {
          engine.putFile(String(msg.file), msg.data instanceof Uint8Array ? msg.data : new Uint8Array(msg.data));
          continue;
        }
        if (/^go\b/.test(msg)) gos += 1;
        if (engine.command(msg, out) && run()) return;
      } catch (e) {
        fail(e);
      }
    }
  }

  function step() {
    stepping = false;
    if (queue.length > 0) {
      // Lines came in: take them first (`stop` ends the search); the search goes on
      // after them if it still wants to.
      pump();
      if (stepping) return;
    }
    try {
      if (!engine.step(out)) {
        stepping = true;
        setTimeout(step, 0);
        return;
      }
    } catch (e) {
      fail(e);
    }
    pump();
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
    if (typeof data === 'string' || (data && typeof data === 'object' && 'file' in data)) {
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
