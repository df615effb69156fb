// xq-engine.js: the xq Xiangqi engine as a Web Worker that speaks UCI over postMessage,
// as stockfish.js does:
//
//   const engine = new Worker('xq-engine.js');
//   engine.onmessage = (e) => console.log(e.data);   // 'info depth 9 ... pv h2e2 h9g7', 'bestmove h2e2'
//   engine.postMessage('uci');
//   engine.postMessage('position startpos moves h2e2');
//   engine.postMessage('go infinite');                // later: engine.postMessage('stop')
//
// This script only relays messages: the search runs in a second worker that it starts
// (xq-search-worker.js), so that this one stays free to read `stop` while the other
// thinks. When the page is cross-origin isolated (COOP same-origin and COEP
// require-corp, as `xq serve` sends), the two share a SharedArrayBuffer: on `stop` this
// script writes the number of the last `go` into it, and the search, which reads it
// with Atomics.load every 1,024 nodes, stops at once (`ponderhit` likewise). Without
// isolation there is no shared memory: the search runs one iteration at a time and reads
// its messages between two, so `stop` is answered at the end of the current iteration.
// `?nosab` on the script's URL forces that fallback.
//
// Options that name a file (`EvalFile`, a network written by `xq train`; `BookFile`, a
// book) take a file the page fetched and handed over first:
//
//   engine.postMessage({ file: 'my.nnue', data: await (await fetch('my.nnue')).arrayBuffer() });
//   engine.postMessage('setoption name EvalFile value my.nnue');
//
// The same file runs under Node's worker_threads (the package's tests do).
(function () {
  'use strict';
  const inBrowser = typeof self === 'object' && typeof self.postMessage === 'function' &&
    typeof WorkerGlobalScope !== 'undefined';
  let toPage;          // (line) => void
  let query;           // URLSearchParams of the script's URL
  let inner = null;    // the search worker
  let flag = null;     // Int32Array over a SharedArrayBuffer: the last stopped `go`
  let gos = 0;         // `go` commands relayed
  let answered = 0;    // `bestmove` lines relayed: a search runs while answered < gos
  const early = [];    // lines that came before the search worker was made

  function fromPage(data) {
    if (data && typeof data === 'object' && 'file' in data) {
      // A file for an option (a network, a book): kept by the search worker.
      if (inner) inner.postMessage(data); else early.push(data);
      return;
    }
    if (typeof data !== 'string') {
      toPage('info string xq-engine.js takes UCI text lines, or { file, data } objects');
      return;
    }
    for (const raw of data.split('\n')) {
      const line = raw.trim();
      if (!line) continue;
      const cmd = line.split(/\s+/, 1)[0];
      if (cmd === 'quit') {
        if (inner) inner.terminate();
        inner = null;
        if (inBrowser) self.close(); else process.exit(0);
        return;
      }
      const searching = answered < gos;
      if (searching && flag) {
        // The search worker is busy until its search ends: `isready` is answered here
        // (the lines queue in order), `stop` and a new `go` stop the search through the
        // shared flag, `ponderhit` starts its clock.
        if (cmd === 'isready') {
          toPage('readyok');
          continue;
        }
        if (cmd === 'stop' || cmd === 'go') Atomics.store(flag, 0, gos);
        if (cmd === 'ponderhit') Atomics.store(flag, 1, gos);
      }
      if (cmd === 'go') gos += 1;
      if (inner) inner.postMessage(line); else early.push(line);
    }
  }

  function fromSearch(line) {
    if (typeof line === 'string' && line.startsWith('bestmove')) answered += 1;
    toPage(line);
  }

  function start(workerUrl, WorkerClass, nodeOptions) {
    const shared = typeof SharedArrayBuffer === 'function' &&
      globalThis.crossOriginIsolated !== false && !query.has('nosab');
    flag = shared ? new Int32Array(new SharedArrayBuffer(8)) : null;
    inner = nodeOptions ? new WorkerClass(workerUrl, nodeOptions) : new WorkerClass(workerUrl);
    if (nodeOptions) {
      inner.on('message', fromSearch);
      inner.on('error', (e) => toPage('info string search worker failed: ' + e.message));
    } else {
      inner.onmessage = (e) => fromSearch(e.data);
      inner.onerror = (e) => {
        e.preventDefault();
        toPage('info string search worker failed: ' + (e.message || 'unknown error'));
      };
    }
    inner.postMessage({ init: true, flag });
    for (const line of early.splice(0)) inner.postMessage(line);
  }

  if (inBrowser) {
    toPage = (line) => self.postMessage(line);
    query = new URL(self.location.href).searchParams;
    self.onmessage = (e) => fromPage(e.data);
    start(new URL('xq-search-worker.js', self.location.href), Worker);
  } else {
    Promise.all([import('node:worker_threads'), import('./xq-node.js')]).then(([wt, node]) => {
      toPage = (line) => wt.parentPort.postMessage(line);
      query = new URLSearchParams((wt.workerData && wt.workerData.query) || '');
      wt.parentPort.on('message', fromPage);
      start(new URL('xq-search-worker.js', node.baseUrl), wt.Worker, {});
    });
  }
}());
