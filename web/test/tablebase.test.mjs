// Endgame tables in the browser package: table files given as bytes (a page fetches
// them), probed as Python's xq.Tablebase and `xq tb probe` probe a directory; bad bytes
// and names are thrown as Errors that name the file, the tables left as they were.
// Run: node --test web/test/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const { init } = await import(new URL('../dist/pkg/xq-node.js', import.meta.url));
const { Board, Tablebase } = await init();
const bytes = (path) => new Uint8Array(readFileSync(new URL(`../../${path}`, import.meta.url)));
// KRKN.xqtb is the kept test table of xq-tablebase; KRKN.xqwdl its WDL file
// (`xq tb verify DIR --wdl`).
const KRKN_DISTANCE = bytes('xq-tablebase/tests/data/KRKN.xqtb');
const KRKN_WDL = bytes('web/test/data/KRKN.xqwdl');

// The horse on e3 checks and can check forever: a win for the chariot by the rule of
// perpetual check (d1d2 keeps it); after d1e1 or d1d0 Black mates in 11 plies (xq-search's
// a_win_by_the_perpetual_check_rule_is_kept_at_the_root says the same of these positions).
const RULE_WIN = '9/9/5k3/9/9/1R7/4n4/9/3K5/9 w';
const MATE_IN_11 = '9/9/5k3/9/9/1R7/4n4/9/4K4/9 b';

test('the ending of a position names the file to fetch', () => {
  assert.equal(Tablebase.endingOf(new Board(RULE_WIN)), 'KRKN');
  // Black attacking: the same table, the attacking side's pieces first.
  assert.equal(Tablebase.endingOf(new Board('5k3/9/9/9/8r/9/9/4N4/9/3K5 w')), 'KRKN');
  assert.equal(Tablebase.endingOf(new Board()), undefined);
});

test('a WDL file alone gives the result and which rule decides it; the distance file adds the distance', () => {
  const tb = new Tablebase();
  assert.deepEqual(tb.wdlEndings(), []);
  const rule = new Board(RULE_WIN), mate = new Board(MATE_IN_11);
  assert.equal(tb.probeWdl(rule), undefined);
  assert.equal(tb.describe(rule), undefined);

  assert.equal(tb.addFile('KRKN.xqwdl', KRKN_WDL), 'KRKN');
  assert.deepEqual(tb.wdlEndings(), ['KRKN']);
  assert.deepEqual(tb.endings(), []);
  assert.equal(tb.probeWdl(rule), 1);
  // The horse holds only by checking forever, and the WDL file (format version 5) says so.
  assert.equal(tb.describe(rule), 'tablebase win by the perpetual-check rule (no forced mate)');
  assert.equal(tb.probeRule(rule), 'perpetual-check');
  assert.equal(tb.probeWdl(mate), 1);
  assert.equal(tb.describe(mate), 'tablebase win, mate within 120 plies');
  assert.equal(tb.probeDtm(mate), undefined);
  assert.equal(tb.probeRule(mate), undefined);

  assert.equal(tb.addFile('KRKN.xqtb', KRKN_DISTANCE), 'KRKN');
  assert.deepEqual(tb.endings(), ['KRKN']);
  assert.equal(tb.probeDtm(mate), 11);
  assert.equal(tb.describe(mate), 'tablebase win, mate in 6 (11 plies)');
  // The distance file says the same.
  assert.equal(tb.describe(rule), 'tablebase win by the perpetual-check rule (no forced mate)');
  assert.throws(() => tb.probeDtm(rule), {
    message: 'win by the perpetual-check rule: no distance to mate (probeWdl gives the result)',
  });
  assert.equal(tb.probeRule(rule), 'perpetual-check');
  assert.equal(tb.probeRule(mate), undefined);
  // MATE_IN_11 is the rule win's position after d1e1.
  rule.push('d1e1');
  assert.equal(rule.fen(), `${MATE_IN_11} - - 1 1`);
});

test('bad names and bad bytes are Errors naming the file; the tables are unchanged', () => {
  const tb = new Tablebase();
  tb.addFile('KRKN.xqwdl', KRKN_WDL);
  assert.throws(() => tb.addFile('KRKN.txt', KRKN_WDL), { message: 'KRKN.txt: not an xq tablebase file' });
  assert.throws(() => tb.addFile('KRKN.xqtb', KRKN_DISTANCE.subarray(0, 1000)), {
    message: `KRKN.xqtb: truncated or damaged, 1000 bytes where ${KRKN_DISTANCE.length} were expected`,
  });
  assert.throws(() => tb.addFile('KRK.xqwdl', KRKN_WDL), /KRK\.xqwdl: .*ending name/);
  assert.throws(() => tb.addFile('KRKN.xqtb', KRKN_WDL), /KRKN\.xqtb: .*a WDL file where a distance file was wanted/);
  assert.deepEqual(tb.endings(), []);
  assert.deepEqual(tb.wdlEndings(), ['KRKN']);
  assert.equal(tb.probeWdl(new Board(RULE_WIN)), 1);
});
