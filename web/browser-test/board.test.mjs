// The analysis board in a real browser: Debian's chromium, driven over WebDriver
// (chromedriver, plain HTTP from Node's fetch), against the page served by `xq serve`.
// It clicks squares to play, watches the engine's line appear and change, loads a PGN
// and steps through it, plays into a checkmate and reads the result, and saves
// screenshots to target/web-test/. Also measures bench() in the page.
//
// Chromium runs as on a machine without a Chinese font, whatever this machine has: its
// fontconfig leaves out every font with a CJK ideograph, and it reaches no host but
// 127.0.0.1. The pieces, the river and the notation must then come from the font the page
// serves (web/page/fonts): the fonts API says it loaded, every character the page writes
// is drawn by it (not as the empty box of a missing glyph), and a piece on the screen
// shows its glyph's ink.
//
// Run (after web/build.sh and a build of xq-cli that embedded web/dist):
//   node --test web/browser-test/
// Environment: XQ_BIN (default target/release/xq), CHROMIUM (/usr/bin/chromium),
// CHROMEDRIVER (/usr/bin/chromedriver).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';

const root = fileURLToPath(new URL('../../', import.meta.url));
const XQ = process.env.XQ_BIN || join(root, 'target/release/xq');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const CHROMEDRIVER = process.env.CHROMEDRIVER || '/usr/bin/chromedriver';
const OUT = join(root, 'target/web-test');
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const { init } = await import(new URL('../dist/pkg/xq-node.js', import.meta.url));
const { Board, judgeGame } = await init();

let server, driver, profile, fontDir, site, wdBase, session;

/** A fontconfig setup for Chromium with the system's fonts less every one that has the
 * ideograph 車 (U+8ECA): a machine without a Chinese font. */
function fontsWithoutCjk(dir) {
  const cjk = execFileSync('fc-list', [':charset=8eca', 'file'], { encoding: 'utf8' })
    .split('\n').map((l) => l.trim().replace(/:$/, '')).filter(Boolean);
  const esc = (t) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const conf = join(dir, 'fonts.conf');
  writeFileSync(conf, `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <cachedir>${esc(join(dir, 'cache'))}</cachedir>
  <selectfont><rejectfont>${cjk.map((f) => `<glob>${esc(f)}</glob>`).join('')}</rejectfont></selectfont>
</fontconfig>
`);
  const left = execFileSync('fc-list', [':charset=8eca', 'file'], { encoding: 'utf8', env: { ...process.env, FONTCONFIG_FILE: conf } }).trim();
  assert.equal(left, '', `fonts with CJK ideographs left for Chromium: ${left}`);
  return { conf, hidden: cjk.length };
}

/** The pixels of a PNG (8-bit RGB or RGBA, not interlaced, as Chromium's screenshots
 * are): { width, height, rgba }. */
function decodePng(buf) {
  assert.equal(buf.toString('latin1', 1, 4), 'PNG');
  let pos = 8, width, height, type;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const kind = buf.toString('latin1', pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (kind === 'IHDR') {
      width = data.readUInt32BE(0); height = data.readUInt32BE(4);
      assert.equal(data[8], 8, 'bit depth'); type = data[9];
      assert.ok(type === 2 || type === 6, `colour type ${type}`); assert.equal(data[12], 0, 'interlace');
    } else if (kind === 'IDAT') idat.push(data);
    pos += 12 + len;
  }
  const bpp = type === 6 ? 4 : 3;
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * bpp;
  const px = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const v = raw[y * (stride + 1) + 1 + x];
      const a = x >= bpp ? px[y * stride + x - bpp] : 0;
      const b = y > 0 ? px[(y - 1) * stride + x] : 0;
      const c = x >= bpp && y > 0 ? px[(y - 1) * stride + x - bpp] : 0;
      const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
      const pred = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][f];
      px[y * stride + x] = (v + pred) & 0xff;
    }
  }
  const rgba = Buffer.alloc(width * height * 4, 255);
  for (let i = 0; i < width * height; i++) px.copy(rgba, i * 4, i * bpp, i * bpp + 3);
  return { width, height, rgba };
}

/** Starts a process and resolves with it and the first stdout line matching `re`. */
function startProcess(cmd, args, re, env = process.env) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
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
  profile = mkdtempSync(join(tmpdir(), 'xq-chromium-'));
  fontDir = mkdtempSync(join(tmpdir(), 'xq-fonts-'));
  const { conf, hidden } = fontsWithoutCjk(fontDir);
  console.log(`# Chromium without the ${hidden} CJK font files of this machine`);
  const port = 20000 + Math.floor(Math.random() * 20000);
  // Chromium inherits chromedriver's environment, and with it the fontconfig set-up.
  const s2 = await startProcess(CHROMEDRIVER, [`--port=${port}`], /started successfully|ChromeDriver was started/,
    { ...process.env, FONTCONFIG_FILE: conf });
  driver = s2.child;
  wdBase = `http://127.0.0.1:${port}`;
  const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    // No network: every name but the test server's resolves to nothing.
    '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
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
  if (fontDir) rmSync(fontDir, { recursive: true, force: true });
});

test('the page loads from xq serve, cross-origin isolated, with the engine ready', async () => {
  await wd('POST', s('/url'), { url: site });
  await waitFor('the engine', async () => /engine ready/.test(await textOf('#status')));
  assert.equal(await exec('return self.crossOriginIsolated'), true);
  assert.equal((await findAll('g.piece')).length, 32);
  assert.equal(await textOf('#result'), 'Red to move');
});

/** Every character outside ASCII that the page writes: its own text (index.html, app.js)
 * and the Chinese notations of every legal move of many positions, both forms. */
function pageCharacters() {
  const chars = new Set();
  for (const f of ['index.html', 'app.js']) {
    for (const ch of readFileSync(join(root, 'web/page', f), 'utf8')) if (ch.codePointAt(0) > 127) chars.add(ch);
  }
  const fens = readFileSync(join(root, 'data/perft.epd'), 'utf8').split('\n')
    .filter((l) => l.trim() && !l.startsWith('#')).map((l) => l.split(';')[0].trim());
  // Tandem pieces: three soldiers on a file (前, 中, 后), two files of two (前七, 后三...).
  fens.push('4k4/9/9/4P4/4P4/4P4/9/9/9/3K5 w', '3k5/9/9/2P1P4/2P1P4/9/9/9/9/4K4 w',
    '4k4/9/9/9/9/2p1p4/2p1p4/9/9/3K5 b', '3k5/9/9/9/9/4p4/4p4/4p4/9/5K3 b');
  for (const fen of fens) {
    const b = new Board(fen);
    for (const m of b.legalMoves()) {
      for (const n of ['chinese', 'chinese-traditional']) {
        for (const ch of b.notation(m, n)) if (ch.codePointAt(0) > 127) chars.add(ch);
      }
    }
    b.free();
  }
  return [...chars].sort();
}

/** The pixels of `css`'s box on the screen, from a screenshot of the whole window. */
async function pixelsOf(css) {
  const r = await exec(`const r = document.querySelector(arguments[0]).getBoundingClientRect();
    return [r.left, r.top, r.width, r.height].map((v) => v * devicePixelRatio);`, [css]);
  const shot = decodePng(Buffer.from(await wd('GET', s('/screenshot')), 'base64'));
  const [x0, y0, w, h] = r.map(Math.round);
  const out = [];
  for (let y = y0; y < y0 + h; y++) {
    for (let x = x0; x < x0 + w; x++) {
      const i = (y * shot.width + x) * 4;
      out.push([shot.rgba[i], shot.rgba[i + 1], shot.rgba[i + 2]]);
    }
  }
  return out;
}

test('the board reads without a Chinese font: the served font draws every character', async () => {
  // The fonts API: both faces of "XQ Board" loaded, from this server.
  const fonts = await execAsync(`const done = arguments[0];
    (async () => {
      await document.fonts.ready;
      const loaded = [];
      for (const w of [400, 700]) loaded.push((await document.fonts.load(w + ' 30px "XQ Board"', '帥車')).length);
      const faces = [...document.fonts].filter((f) => f.family.replace(/["']/g, '') === 'XQ Board')
        .map((f) => [f.weight, f.status]).sort();
      done({ loaded, faces, check: document.fonts.check('700 30px "XQ Board"', '帥車楚河'),
        pieceFont: getComputedStyle(document.querySelector('g.piece text')).fontFamily,
        resources: performance.getEntriesByType('resource').map((e) => e.name) });
    })().catch((e) => done({ failed: String(e) }));`);
  assert.equal(fonts.failed, undefined, 'the fonts API');
  assert.deepEqual(fonts.loaded, [1, 1]);
  assert.deepEqual(fonts.faces, [['400', 'loaded'], ['700', 'loaded']]);
  assert.equal(fonts.check, true);
  assert.match(fonts.pieceFont, /^"XQ Board"/);
  // Nothing from elsewhere: the page, the wasm, the worker and the fonts are the server's.
  assert.deepEqual(fonts.resources.filter((u) => !u.startsWith(site)), []);
  assert.ok(fonts.resources.some((u) => u.endsWith('/fonts/xq-board-700.woff2')), fonts.resources.join(' '));

  // Every character the page writes, drawn in "XQ Board" alone, is a glyph of its own, not
  // the box a missing glyph gets; an ideograph the font lacks (鬼) is that box, since no
  // font of the machine has it.
  const chars = pageCharacters();
  for (const ch of '帥將車馬炮砲兵卒楚河漢界进退平前后中一九') assert.ok(chars.includes(ch), `${ch} among ${chars.join('')}`);
  const drawn = await execAsync(`const [chars, done] = arguments;
    (async () => {
      const c = document.createElement('canvas');
      c.width = 48; c.height = 48;
      const ctx = c.getContext('2d', { willReadFrequently: true });
      const out = { missing: [], blank: [], control: [] };
      for (const w of [400, 700]) {
        // A font that fails to load is found below, by its characters' pixels.
        await document.fonts.load(w + ' 40px "XQ Board"', chars.join('')).catch(() => {});
        const draw = (ch) => {
          ctx.clearRect(0, 0, 48, 48);
          ctx.font = w + ' 40px "XQ Board"';
          ctx.textBaseline = 'middle';
          ctx.fillText(ch, 4, 24);
          return ctx.getImageData(0, 0, 48, 48).data;
        };
        const box = draw('\uE000');
        const same = (a) => a.every((v, i) => v === box[i]);
        for (const ch of chars) {
          const px = draw(ch);
          if (same(px)) out.missing.push(ch + '@' + w);
          if (!px.some((v, i) => i % 4 === 3 && v > 0)) out.blank.push(ch + '@' + w);
        }
        out.control.push(same(draw('鬼')));
      }
      done(out);
    })().catch((e) => done({ failed: String(e) }));`, [chars]);
  assert.equal(drawn.failed, undefined, 'drawing the characters');
  assert.deepEqual(drawn.missing, [], 'characters drawn as the missing-glyph box');
  assert.deepEqual(drawn.blank, [], 'characters drawn as nothing');
  assert.deepEqual(drawn.control, [true, true], 'this Chromium has a font with 鬼: the test would prove nothing');

  // A piece on the screen: 帥 on e0 against the same piece with a missing glyph (U+E000)
  // and with no text: its glyph puts red ink where neither has it.
  const piece = 'g[data-piece="e0"]';
  assert.equal(await exec(`return document.querySelector('${piece} text').textContent`), '帥');
  const glyph = await pixelsOf(piece);
  await exec(`document.querySelector('${piece} text').textContent = '\uE000'`);
  const box = await pixelsOf(piece);
  await exec(`document.querySelector('${piece} text').textContent = ''`);
  const empty = await pixelsOf(piece);
  await exec(`document.querySelector('${piece} text').textContent = '帥'`);
  const red = (p) => p[0] > 140 && p[1] < 110 && p[2] < 110;
  const differ = (a, b) => a.filter((p, i) => Math.max(...p.map((v, k) => Math.abs(v - b[i][k]))) > 64).length;
  const ink = glyph.filter(red).length - empty.filter(red).length;
  console.log(`# 帥 on e0: ${ink} pixels of red ink; ${differ(glyph, box)} pixels differ from a missing glyph, ${differ(glyph, empty)} from no text`);
  assert.ok(glyph.length > 2000, `the piece is ${glyph.length} pixels`);
  assert.ok(ink > 150, `the glyph's red ink: ${ink} pixels`);
  assert.ok(differ(glyph, box) > 150, `the glyph against a missing glyph's box: ${differ(glyph, box)} pixels differ`);
  assert.ok(differ(glyph, empty) > 150, `the glyph against no text: ${differ(glyph, empty)} pixels differ`);
  await screenshot('start.png');
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
  // The score graph: every position searched, each move judged by judgeGame (xq
  // annotate's judgement), by centipawns and by the expected result.
  for (const by of ['wdl', 'cp']) {
    await exec(`const b = document.getElementById('graph-by'); b.value = '${by}'; b.dispatchEvent(new Event('change'));`);
    await click('#graph-run');
    // The button sits below the engine's lines, which report all the while: it is hit
    // only if they keep their height. The graph says at once that it started.
    assert.match(await textOf('#graph-info'), /^\d+\/13 positions$/);
    let info = '';
    await waitFor(`the graph by ${by}`, async () => {
      info = await textOf('#graph-info');
      return new RegExp(`by ${by}: .*blunders`).test(info);
    }, 120000).catch((e) => { throw new Error(`${e.message}; the graph's line says: ${info}`); });
    assert.ok((await findAll('#graph polyline')).length === 1);
    const g = await exec(`const s = window.xq.state;
      return { ...s.graph, startFen: s.startFen, moves: s.moves };`);
    assert.equal(g.by, by);
    assert.equal(g.scores.length, 13);
    for (const score of g.scores) assert.match(score, /^(cp|mate) -?\d+$/);
    const j = judgeGame(g.startFen, g.moves, g.scores, g.bests, by);
    assert.deepEqual(g.classes.map((c) => c && [c.name, c.loss, c.nag]),
      j.moves().map((m) => (m.class ? [m.class, m.loss, m.glyph] : null)));
    assert.deepEqual(g.values, Array.from(j.values));
    assert.equal((await findAll('#moves .mv .nag')).length, g.classes.filter(Boolean).length);
    j.free();
  }
  // Back to a middle position for the picture, with two lines shown.
  await exec(`const m = document.getElementById('multipv'); m.value = '2'; m.dispatchEvent(new Event('change'));`);
  await exec('window.xq.goTo(9)');
  // The lines start empty at a new position and fill as the engine reports, in rows of
  // their own height: what is below them does not move (a click there hits).
  const graphTop = () => exec(`return document.getElementById('graph-run').getBoundingClientRect().top;`);
  const top = await graphTop();
  await waitFor('two deep lines', async () => {
    const lines = await exec(`return [...document.querySelectorAll('#lines li')].map((li) => Number(li.dataset.depth));`);
    return lines.length === 2 && lines[0] >= 12;
  }, 60000);
  assert.equal(await graphTop(), top);
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
  assert.equal(await exec('return document.getElementById("result").dataset.termination'), 'checkmate');
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

test('a composed position (a soldier behind its start) is analysed, with a note on what is unusual', async () => {
  await wd('POST', s('/url'), { url: site });
  await waitFor('the engine', async () => /engine ready/.test(await textOf('#status')));
  await exec(`document.getElementById('fen').value = '4k4/9/9/9/9/9/9/9/9/3K4P w'; document.getElementById('fen-load').click();`);
  assert.match(await textOf('#load-error'), /Unusual position, played as given: 'P' can never stand on i0/);
  assert.equal(await fenShown(), '4k4/9/9/9/9/9/9/9/9/3K4P w - - 0 1');
  await waitFor('a line for the composed position', async () => {
    const l = await firstLine();
    return l && l.depth >= 4 ? l : null;
  });
});

// The chariot against a horse that can check forever: a win by the rule of perpetual
// check (web/test/tablebase.test.mjs probes the same positions under Node).
const RULE_WIN = '9/9/5k3/9/9/1R7/4n4/9/3K5/9 w - - 0 1';

async function loadFen(fen) {
  await exec(`document.getElementById('fen').value = arguments[0]; document.getElementById('fen-load').click();`, [fen]);
  assert.equal(await fenShown(), fen);
}

/** With KRKN's two tables, RULE_WIN's value by the rule, then after d1e1 (which lets Black
 * mate) the distance to mate. */
async function ruleWinThenMate() {
  await waitFor('the value', async () => (await textOf('#tablebase')) !== '');
  assert.equal(await textOf('#tablebase'),
    'KRKN · Red to move: tablebase win by the perpetual-check rule (no forced mate)');
  assert.equal(await exec('return document.getElementById("tablebase").dataset.wdl'), '1');
  await clickSquare('d1');
  await clickSquare('e1');
  await waitFor('the value after d1e1', async () => /Black to move/.test(await textOf('#tablebase')));
  assert.equal(await textOf('#tablebase'), 'KRKN · Black to move: tablebase win, mate in 6 (11 plies)');
}

test('endgame tables opened from files: the rules\' results and the distance to mate', async () => {
  await wd('POST', s('/url'), { url: site });
  await waitFor('the engine', async () => /engine ready/.test(await textOf('#status')));
  // xq serve has no tables/: the page tried and shows nothing.
  await loadFen(RULE_WIN);
  await sleep(300);
  assert.equal(await textOf('#tablebase'), '');
  const input = await find('#tables');
  const files = [join(root, 'web/test/data/KRKN.xqwdl'), join(root, 'xq-tablebase/tests/data/KRKN.xqtb')];
  await wd('POST', s(`/element/${input}/value`), { text: files.join('\n') });
  await waitFor('the tables', async () => (await textOf('#tables-info')) === '1 ending: KRKN');
  await ruleWinThenMate();
  // A file that is no table is an error that names it; the tables stay.
  await wd('POST', s(`/element/${input}/value`), { text: join(root, 'xq-records/tests/data/games/sample.xqf') });
  await waitFor('the error', async () => (await textOf('#load-error')) !== '');
  assert.equal(await textOf('#load-error'), 'sample.xqf: not an xq tablebase file');
  assert.equal(await textOf('#tables-info'), '1 ending: KRKN');
  await screenshot('tablebase.png');
});

test('a site with tables/ beside the page: the page fetches the table it needs', async () => {
  // A static site as a user would host it: web/dist, and tables/ with a WDL file.
  const dir = mkdtempSync(join(tmpdir(), 'xq-site-'));
  cpSync(join(root, 'web/dist'), dir, { recursive: true });
  mkdirSync(join(dir, 'tables'));
  cpSync(join(root, 'web/test/data/KRKN.xqwdl'), join(dir, 'tables/KRKN.xqwdl'));
  const types = { html: 'text/html', js: 'text/javascript', css: 'text/css', wasm: 'application/wasm', woff2: 'font/woff2' };
  const asked = [];
  const http = await import('node:http');
  const static_ = http.createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/^\/$/, '/index.html');
    asked.push(path);
    const file = join(dir, path);
    if (path.includes('..') || !existsSync(file) || !/\.[a-z0-9]+$/.test(path)) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, {
      'content-type': types[path.split('.').pop()] || 'application/octet-stream',
      'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp',
    });
    res.end(readFileSync(file));
  });
  await new Promise((r) => static_.listen(0, '127.0.0.1', r));
  try {
    await wd('POST', s('/url'), { url: `http://127.0.0.1:${static_.address().port}/` });
    await waitFor('the engine', async () => /engine ready/.test(await textOf('#status')));
    await loadFen(RULE_WIN);
    await waitFor('the fetched table', async () => (await textOf('#tablebase')) !== '');
    // The WDL file alone: the result and which rule decides it (format version 5), no distance.
    assert.equal(await textOf('#tablebase'), 'KRKN · Red to move: tablebase win by the perpetual-check rule (no forced mate)');
    assert.equal(await textOf('#tables-info'), '1 ending: KRKN');
    assert.ok(asked.includes('/tables/KRKN.xqwdl') && asked.includes('/tables/KRKN.xqtb'), asked.join(' '));
    // Each ending is fetched once.
    await clickSquare('d1');
    await clickSquare('d2');
    await waitFor('the next value', async () => /Black to move/.test(await textOf('#tablebase')));
    assert.equal(asked.filter((p) => p.startsWith('/tables/')).length, 2);
  } finally {
    static_.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('xq serve --tablebases: the board fetches its ending\'s tables from the directory', async () => {
  // Tables as `xq tb gen` leaves them: the distance and WDL files side by side.
  const dir = mkdtempSync(join(tmpdir(), 'xq-tables-'));
  cpSync(join(root, 'web/test/data/KRKN.xqwdl'), join(dir, 'KRKN.xqwdl'));
  cpSync(join(root, 'xq-tablebase/tests/data/KRKN.xqtb'), join(dir, 'KRKN.xqtb'));
  const { child, match } = await startProcess(XQ, ['serve', '--port', '0', '--tablebases', dir], /(http:\/\/127\.0\.0\.1:\d+\/)/);
  try {
    await wd('POST', s('/url'), { url: match[1] });
    await waitFor('the engine', async () => /engine ready/.test(await textOf('#status')));
    await loadFen(RULE_WIN);
    // Both files came: the rule's result, then the distance to mate after d1e1.
    await ruleWinThenMate();
    assert.equal(await textOf('#tables-info'), '1 ending: KRKN');
  } finally {
    child.removeAllListeners('exit');
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
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
  for (const b of runs) assert.equal(b.nodes, 801383);
  console.log(`# wasm bench in Chromium: ${runs[0].nodes} nodes; nps ${runs.map((b) => Math.round(b.nps)).join(', ')} (first run cold)`);
});

test('the engine worker in the page answers every row of the UCI conformance table', async () => {
  // The same table the native binary and the Node tests answer, run in the page with the
  // same rules (web/test/conformance.mjs): through the shared flag, and one iteration at a
  // time (?nosab on the worker's URL).
  await wd('POST', s('/url'), { url: site });
  await waitFor('the engine', async () => /engine ready/.test(await textOf('#status')));
  await exec(`const a = document.getElementById('analyse'); a.checked = false; a.dispatchEvent(new Event('change'));`);
  const table = readFileSync(join(root, 'xq-protocol/tests/conformance.txt'), 'utf8');
  const rules = readFileSync(join(root, 'web/test/conformance.mjs'), 'utf8').replaceAll('export ', '');
  await wd('POST', s('/timeouts'), { script: 600000 });
  for (const query of ['', '?nosab']) {
    const failures = await execAsync(`const [table, rules, query, done] = arguments;
      const { parseTable, runCase, check } = new Function(rules + '; return { parseTable, runCase, check };')();
      (async () => {
        const failures = [];
        for (const c of parseTable(table)) {
          const worker = new Worker('pkg/xq-engine.js' + query);
          const lines = [];
          worker.onmessage = (e) => lines.push(e.data);
          try {
            check(c, await runCase(c, (l) => worker.postMessage(l), lines));
          } catch (e) {
            failures.push(String(e.message || e));
          } finally {
            worker.terminate();
          }
        }
        return failures;
      })().then(done, (e) => done([String(e)]));`, [table, rules, query]);
    assert.deepEqual(failures, [], `worker${query}`);
  }
});
