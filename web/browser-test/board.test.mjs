// The analysis board in a real browser: Debian's chromium, driven over WebDriver
// (chromedriver, plain HTTP from Node's fetch), against the page served by `xq serve`.
// It clicks squares to play, watches the engine's line appear and change, loads a PGN
// and steps through it, plays into a checkmate and reads the result, and saves
// screenshots to target/web-test/. Also measures bench() in the page.
//
// Run (after web/build.sh and a build of xq-cli that embedded web/dist):
//   node --test web/browser-test/
// Environment: XQ_BIN (default target/release/xq), CHROMIUM (/usr/bin/chromium),
// CHROMEDRIVER (/usr/bin/chromedriver).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const XQ = process.env.XQ_BIN || join(root, 'target/release/xq');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const CHROMEDRIVER = process.env.CHROMEDRIVER || '/usr/bin/chromedriver';
const OUT = join(root, 'target/web-test');
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const { init } = await import(new URL('../dist/pkg/xq-node.js', import.meta.url));
const { Board } = await init();

let server, driver, profile, site, wdBase, session;

/** Starts a process and resolves with it and the first stdout line matching `re`. */
function startProcess(cmd, args, re) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => reject(new Error(`${cmd}: no line matching ${re}`)), 20000);
    let err = '';
    child.stderr.on('data', (d) => { err += d; });
    child.on('exit', (code) => reject(new Error(`${cmd} exited ${code}: ${err}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = line.match(re);
      if (m) { clearTimeout(timer); resolve({ child, match: m }); }
    });
  });
}

async function wd(method, path, body) {
  const r = await fetch(wdBase + path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const j = await r.json();
  if (j.value && j.value.error) throw new Error(`${method} ${path}: ${j.value.error}: ${j.value.message}`);
  return j.value;
}
const s = (path) => `/session/${session}${path}`;
const find = async (css) => (await wd('POST', s('/element'), { using: 'css selector', value: css }))[ELEMENT];
const findAll = async (css) => (await wd('POST', s('/elements'), { using: 'css selector', value: css })).map((e) => e[ELEMENT]);
const click = async (css) => wd('POST', s(`/element/${await find(css)}/click`), {});
// Read in one script (the lists re-render while the engine reports: an element found in
// one request may be gone by the next).
const textOf = async (css) => {
  const t = await wd('POST', s('/execute/sync'), { script: 'const e = document.querySelector(arguments[0]); return e ? e.innerText : null;', args: [css] });
  if (t === null) throw new Error(`no element ${css}`);
  return t;
};
const exec = (script, args = []) => wd('POST', s('/execute/sync'), { script, args });
const execAsync = (script, args = []) => wd('POST', s('/execute/async'), { script, args });
const clickSquare = (sq) => click(`rect.hit[data-sq="${sq}"]`);
const fenShown = () => exec('return document.getElementById("fen").value');
async function waitFor(what, fn, ms = 20000) {
  const end = Date.now() + ms;
  let last;
  while (Date.now() < end) {
    last = await fn();
    if (last) return last;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
}
async function screenshot(name) {
  const png = await wd('GET', s('/screenshot'));
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, name), Buffer.from(png, 'base64'));
}
/** The engine's first line: { depth, text } or null. */
const firstLine = () => exec(`const li = document.querySelector('#lines li');
  return li ? { depth: Number(li.dataset.depth), text: li.textContent } : null;`);

before(async () => {
  const s1 = await startProcess(XQ, ['serve', '--port', '0'], /(http:\/\/127\.0\.0\.1:\d+\/)/);
  server = s1.child;
  site = s1.match[1];
  const port = 20000 + Math.floor(Math.random() * 20000);
  const s2 = await startProcess(CHROMEDRIVER, [`--port=${port}`], /started successfully|ChromeDriver was started/);
  driver = s2.child;
  wdBase = `http://127.0.0.1:${port}`;
  profile = mkdtempSync(join(tmpdir(), 'xq-chromium-'));
  const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    `--user-data-dir=${profile}`, '--window-size=1400,1050', '--disable-dev-shm-usage'];
  const created = await wd('POST', '/session', {
    capabilities: { alwaysMatch: { browserName: 'chrome', 'goog:chromeOptions': { binary: CHROMIUM, args } } },
  });
  session = created.sessionId;
  await wd('POST', s('/timeouts'), { script: 120000 });
});

after(async () => {
  if (session) await wd('DELETE', s('')).catch(() => {});
  for (const p of [driver, server]) if (p) { p.removeAllListeners('exit'); p.kill(); }
  if (profile) rmSync(profile, { recursive: true, force: true });
});

test('the page loads from xq serve, cross-origin isolated, with the engine ready', async () => {
  await wd('POST', s('/url'), { url: site });
  await waitFor('the engine', async () => /engine ready/.test(await textOf('#status')));
  assert.equal(await exec('return self.crossOriginIsolated'), true);
  assert.equal((await findAll('g.piece')).length, 32);
  assert.equal(await textOf('#result'), 'Red to move');
});

test('moves by clicking squares; the engine line appears and changes', async () => {
  const first = await waitFor('an engine line', firstLine);
  assert.ok(first.depth >= 1);
  // 炮二平五: click the cannon, see its destinations, click e2.
  await clickSquare('h2');
  assert.ok((await findAll('circle.dest')).length >= 10);
  await clickSquare('e2');
  await waitFor('the move in the list', async () => (await findAll('#moves .mv')).length === 1);
  assert.equal(await textOf('#moves .mv.current'), '炮二平五');
  assert.equal(await exec('return document.querySelector(\'g[data-piece="e2"] text\').textContent'), '炮');
  assert.equal((await findAll('rect.last')).length, 2);
  // The line is now Black's, and it deepens.
  const a = await waitFor('a line for Black', async () => {
    const l = await firstLine();
    return l && (await exec('return document.getElementById("engine-info").textContent')).includes('depth') ? l : null;
  });
  const b = await waitFor('the line to change', async () => {
    const l = await firstLine();
    return l && (l.depth > a.depth || l.text !== a.text) ? l : null;
  });
  assert.notEqual(JSON.stringify(a), JSON.stringify(b));
  // Black answers 马8进7 by clicking; the line follows the new position.
  await clickSquare('h9');
  await clickSquare('g7');
  await waitFor('two moves', async () => (await findAll('#moves .mv')).length === 2);
  await waitFor('a line after 马8进7', async () => {
    const l = await firstLine();
    return l && l.text !== b.text;
  });
  // An illegal click changes nothing.
  await clickSquare('a0');
  await clickSquare('a5');
  assert.equal((await findAll('#moves .mv')).length, 2);
  // MultiPV 3 and WXF notation.
  await exec(`const m = document.getElementById('multipv'); m.value = '3'; m.dispatchEvent(new Event('change'));
    const n = document.getElementById('notation'); n.value = 'wxf'; n.dispatchEvent(new Event('change'));`);
  await waitFor('three lines', async () => (await findAll('#lines li')).length === 3);
  assert.match(await textOf('#lines li'), /[+-]?\d+\.\d\d d\d+ [A-Z][1-9+\-.][=+\-][1-9]/);
  assert.equal(await textOf('#moves .mv.current'), 'H8+7');
});

test('a PGN pasted and stepped through, with the score graph', async () => {
  const pgn = '[Event "Browser test"]\n[Red "红方"]\n[Black "黑方"]\n' +
    '1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 车一平二 马２进３ 4. 兵七进一 卒７进１ 5. 车二进六 炮８平９ 6. 车二平三 炮９退１ *';
  const expected = new Board();
  const fens = [expected.fen()];
  for (const m of ['h2e2', 'h9g7', 'h0g2', 'i9h9', 'i0h0', 'b9c7', 'c3c4', 'g6g5', 'h0h6', 'h7i7', 'h6g6', 'i7i8']) {
    expected.push(m);
    fens.push(expected.fen());
  }
  await exec(`const m = document.getElementById('notation'); m.value = 'chinese'; m.dispatchEvent(new Event('change'));`);
  const area = await find('#pgn');
  await wd('POST', s(`/element/${area}/clear`), {});
  await wd('POST', s(`/element/${area}/value`), { text: pgn });
  await click('#pgn-load');
  await waitFor('twelve moves', async () => (await findAll('#moves .mv')).length === 12);
  assert.equal(await textOf('#load-error'), '');
  assert.equal(await fenShown(), fens[0]);
  for (let ply = 1; ply <= 12; ply++) {
    await click('#next');
    assert.equal(await fenShown(), fens[ply], `after ply ${ply}`);
  }
  assert.equal(await textOf('#moves .mv.current'), '炮9退1');
  // Arrow keys step back; Home goes to the start.
  await wd('POST', s('/actions'), { actions: [{ type: 'key', id: 'kb', actions: [
    { type: 'keyDown', value: '\uE012' }, { type: 'keyUp', value: '\uE012' },
    { type: 'keyDown', value: '\uE012' }, { type: 'keyUp', value: '\uE012' }] }] });
  assert.equal(await fenShown(), fens[10]);
  await click('#first');
  assert.equal(await fenShown(), fens[0]);
  await click('#last');
  assert.equal(await fenShown(), fens[12]);
  // The score graph: every position searched, each move judged.
  await click('#graph-run');
  await waitFor('the graph', async () => /blunders/.test(await textOf('#graph-info')), 120000);
  assert.ok((await findAll('#graph polyline')).length === 1);
  // Back to a middle position for the picture, with two lines shown.
  await exec(`const m = document.getElementById('multipv'); m.value = '2'; m.dispatchEvent(new Event('change'));`);
  await exec('window.xq.goTo(9)');
  await waitFor('two deep lines', async () => {
    const lines = await exec(`return [...document.querySelectorAll('#lines li')].map((li) => Number(li.dataset.depth));`);
    return lines.length === 2 && lines[0] >= 12;
  }, 60000);
  await screenshot('board.png');
});

test('playing against the engine: it answers at the level chosen, take back', async () => {
  await click('#newgame');
  await exec(`document.getElementById('level').value = '3';`);
  await click('#play-red');
  await clickSquare('b2');
  await clickSquare('e2');
  await waitFor('the engine\'s reply', async () => (await findAll('#moves .mv')).length === 2, 30000);
  assert.match(await textOf('#play-info'), /Your move/);
  await click('#takeback');
  assert.equal((await findAll('#moves .mv')).length, 0);
  await click('#stop-play');
});

/** The centre of a square on the screen (viewport pixels). */
const centre = (sq) => exec(`const r = document.querySelector('rect.hit[data-sq="${sq}"]').getBoundingClientRect();
  return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)];`);

test('a move by dragging, the board flipped, a game opened from an XQF file', async () => {
  await click('#newgame');
  const [[x0, y0], [x1, y1]] = [await centre('b2'), await centre('b9')];
  await wd('POST', s('/actions'), { actions: [{ type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions: [
    { type: 'pointerMove', duration: 0, origin: 'viewport', x: x0, y: y0 },
    { type: 'pointerDown', button: 0 },
    { type: 'pointerMove', duration: 150, origin: 'viewport', x: x0, y: Math.round((y0 + y1) / 2) },
    { type: 'pointerMove', duration: 150, origin: 'viewport', x: x1, y: y1 },
    { type: 'pointerUp', button: 0 }] }] });
  await wd('DELETE', s('/actions'));
  await waitFor('the dragged move', async () => (await findAll('#moves .mv')).length === 1);
  assert.equal(await textOf('#moves .mv.current'), '炮八进七'); // b2b9 takes the horse
  // Flip: Black's side comes to the bottom.
  const before = await centre('a0');
  await click('#flip');
  const after = await centre('a0');
  assert.ok(after[1] < before[1] && after[0] > before[0], `a0 moved from ${before} to ${after}`);
  await click('#flip');
  // An XQF file through the file input (bytes read in the page).
  const input = await find('#file');
  await wd('POST', s(`/element/${input}/value`), { text: join(root, 'xq-records/tests/data/games/sample.xqf') });
  const expected = readFileSync(join(root, 'xq-records/tests/data/games/sample.moves'), 'utf8').split('\n')[2].trim().split(/\s+/);
  await waitFor('the XQF game', async () => (await findAll('#moves .mv')).length === expected.length);
  assert.equal(await textOf('#load-error'), '');
  await click('#last');
  const end = new Board((await exec('return window.xq.state.startFen')));
  for (const m of expected) end.push(m);
  assert.equal(await fenShown(), end.fen());
});

test('into a checkmate: the result and the rule', async () => {
  const fen = '4k4/1R7/9/9/9/9/9/9/R8/3K5 w - - 0 1';
  const fenBox = await find('#fen');
  await wd('POST', s(`/element/${fenBox}/clear`), {});
  await wd('POST', s(`/element/${fenBox}/value`), { text: fen });
  await click('#fen-load');
  assert.equal(await fenShown(), fen);
  await clickSquare('a1');
  await clickSquare('a9');
  await waitFor('the result', async () => (await textOf('#result')).includes('checkmate'));
  assert.equal(await textOf('#result'), '1-0 · Red wins by checkmate');
  assert.equal(await exec('return document.getElementById("result").dataset.reason'), 'checkmate');
  await screenshot('checkmate.png');
  // A bad FEN is an error message, and the board stays.
  await wd('POST', s(`/element/${fenBox}/clear`), {});
  await wd('POST', s(`/element/${fenBox}/value`), { text: 'not a fen' });
  await click('#fen-load');
  assert.notEqual(await textOf('#load-error'), '');
  assert.equal(await textOf('#result'), '1-0 · Red wins by checkmate');
});

test('without cross-origin isolation (?nosab) the engine still analyses and follows the moves', async () => {
  await wd('POST', s('/url'), { url: site + '?nosab' });
  await waitFor('the engine', async () => /between iterations/.test(await textOf('#status')));
  const a = await waitFor('a line', async () => {
    const l = await firstLine();
    return l && l.depth >= 8 ? l : null;
  });
  await clickSquare('h2');
  await clickSquare('e2');
  await waitFor('a line for Black', async () => {
    const l = await firstLine();
    return l && l.text !== a.text ? l : null;
  });
});

test('bench() in the page', async () => {
  await wd('POST', s('/url'), { url: site });
  await waitFor('the engine', async () => /engine ready/.test(await textOf('#status')));
  await exec(`const a = document.getElementById('analyse'); a.checked = false; a.dispatchEvent(new Event('change'));`);
  await sleep(500);
  // The first run includes V8's tier-up of the wasm to optimised code; the next are warm.
  const runs = [];
  for (let i = 0; i < 3; i++) {
    runs.push(await execAsync('const done = arguments[0]; const r = window.xq.bench(); done({ nodes: r.nodes, nps: r.nps, ms: r.ms });'));
  }
  for (const b of runs) assert.equal(b.nodes, 479109);
  console.log(`# wasm bench in Chromium: 479109 nodes; nps ${runs.map((b) => Math.round(b.nps)).join(', ')} (first run cold)`);
});
