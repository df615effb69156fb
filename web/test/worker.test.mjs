// The engine worker (web/dist/pkg/xq-engine.js) under Node's worker_threads, speaking
// UCI over postMessage as a page would: in both of its ways to stop (a shared flag, and
// iterations with the messages read between them, forced by ?nosab).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';

const script = new URL('../dist/pkg/xq-engine.js', import.meta.url);

/** An engine worker with a way to wait for the line a test wants. */
function engine(query = '') {
  const worker = new Worker(script, { workerData: { query } });
  const lines = [];
  let waiters = [];
  worker.on('message', (line) => {
    lines.push(line);
    waiters = waiters.filter((w) => !w(line));
  });
  return {
    lines,
    send: (line) => worker.postMessage(line),
    /** Resolves with the first line (from now on) for which `pred` holds. */
    until(pred, ms = 20000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out; last lines: ${lines.slice(-5).join(' | ')}`)), ms);
        waiters.push((line) => {
          if (!pred(line)) return false;
          clearTimeout(timer);
          resolve(line);
          return true;
        });
      });
    },
    close: () => worker.terminate(),
  };
}

const starts = (prefix) => (line) => line.startsWith(prefix);
const depthOf = (line) => Number(line.split(' ')[2]);

for (const [mode, query] of [['shared flag', ''], ['iterations (nosab)', 'nosab']]) {
  test(`${mode}: the handshake, a depth search, and its lines`, async () => {
    const e = engine(query);
    try {
      e.send('uci');
      await e.until((l) => l === 'uciok');
      assert.ok(e.lines.some((l) => l.startsWith('id name xq')));
      assert.ok(e.lines.some((l) => l.startsWith('option name MultiPV')));
      e.send('isready');
      await e.until((l) => l === 'readyok');
      e.send('position startpos moves h2e2');
      e.send('go depth 6');
      const best = await e.until(starts('bestmove'));
      const infos = e.lines.filter(starts('info depth'));
      assert.deepEqual(infos.map(depthOf), [1, 2, 3, 4, 5, 6]);
      assert.match(infos[5], /^info depth 6 seldepth \d+ multipv 1 score (cp|mate) -?\d+ nodes \d+ nps \d+ hashfull \d+ time \d+ pv( [a-i][0-9][a-i][0-9])+$/);
      assert.match(best, /^bestmove [a-i][0-9][a-i][0-9]( ponder [a-i][0-9][a-i][0-9])?$/);
    } finally {
      await e.close();
    }
  });

  test(`${mode}: stop while thinking on go infinite`, async () => {
    const e = engine(query);
    try {
      e.send('position startpos');
      e.send('go infinite');
      await e.until((l) => l.startsWith('info depth') && depthOf(l) >= 6);
      const sent = Date.now();
      e.send('stop');
      const best = await e.until(starts('bestmove'));
      const waited = Date.now() - sent;
      assert.match(best, /^bestmove [a-i][0-9][a-i][0-9]/);
      // With the shared flag the search stops within 1,024 nodes; without, at the end
      // of the iteration it is in.
      if (!query) assert.ok(waited < 500, `stop answered after ${waited} ms`);
      console.log(`# ${mode}: stop answered in ${waited} ms`);
      e.send('isready');
      await e.until((l) => l === 'readyok');
    } finally {
      await e.close();
    }
  });

  test(`${mode}: a new position and go while searching stop the old search first`, async () => {
    const e = engine(query);
    try {
      e.send('go infinite');
      await e.until(starts('info depth'));
      e.send('position startpos moves h2e2 h9g7');
      e.send('go depth 3');
      await e.until(starts('bestmove'));
      const second = await e.until(starts('bestmove'));
      assert.match(second, /^bestmove /);
    } finally {
      await e.close();
    }
  });
}

test('movetime, MultiPV, levels', async () => {
  const e = engine();
  try {
    e.send('setoption name MultiPV value 3');
    e.send('go movetime 300');
    const start = Date.now();
    await e.until(starts('bestmove'));
    assert.ok(Date.now() - start < 3000);
    assert.ok(e.lines.some((l) => / multipv 3 /.test(l)));
    e.send('setoption name MultiPV value 1');
    e.send('setoption name Skill Level value 0');
    e.send('position startpos moves h2e2');
    e.send('go');
    const best = await e.until(starts('bestmove'));
    assert.match(best, /^bestmove [a-i][0-9][a-i][0-9]/);
  } finally {
    await e.close();
  }
});

test('bad input is an info string and the worker lives on', async () => {
  const e = engine();
  try {
    e.send('position fen this is not a fen');
    assert.match(await e.until(starts('info string')), /^info string position: /);
    e.send('position startpos moves h2e2 h2e2');
    assert.match(await e.until(starts('info string')), /move 2: illegal move h2e2/);
    // A bad word of `go` is reported and the rest obeyed, as the native engine does:
    // here no limit is left, so the search goes on until `stop`.
    e.send('go depth banana');
    assert.equal(await e.until(starts('info string')), "info string go: bad value 'banana' for depth (in: go depth banana)");
    e.send('stop');
    assert.match(await e.until(starts('bestmove')), /^bestmove [a-i][0-9][a-i][0-9]/);
    e.send('setoption name Hash value 99999');
    assert.match(await e.until(starts('info string')), /Hash must be between 1 and 1024, not 99999/);
    e.send('xyzzy');
    assert.match(await e.until(starts('info string')), /unknown command/);
    e.send({ not: 'a string' });
    assert.match(await e.until(starts('info string')), /UCI text lines/);
    e.send('position fen R3k4/1R7/9/9/9/9/9/9/9/3K5 b');
    e.send('go depth 5');
    assert.equal(await e.until(starts('bestmove')), 'bestmove (none)');
    e.send('isready');
    await e.until((l) => l === 'readyok');
  } finally {
    await e.close();
  }
});

test('bench in the worker and bench() in the module give the signature of xq bench', async () => {
  const { init } = await import(new URL('../dist/pkg/xq-node.js', import.meta.url));
  const { bench } = await init();
  const e = engine();
  try {
    e.send('bench 4');
    const last = await e.until((l) => /^info string bench \d+ nodes \d+ nps$/.test(l));
    assert.equal(e.lines.filter((l) => /^info string bench +\d+ +\d+ nodes/.test(l)).length, 40);
    assert.equal(Number(last.split(' ')[3]), bench(4).nodes);
  } finally {
    await e.close();
  }
  // A depth that would search nothing, or never end, is refused with the range.
  assert.throws(() => bench(0), /^Error: bench depth 0: 1 to 20$/);
  assert.throws(() => bench(21), /^Error: bench depth 21: 1 to 20$/);
  const b = bench();
  assert.equal(b.nodes, 801383);
  console.log(`# wasm bench under Node: ${b.nodes} nodes ${Math.round(b.nps)} nps (${Math.round(b.ms)} ms)`);
});
