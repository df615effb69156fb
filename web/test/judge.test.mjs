// The score graph's judgement (judgeGame, xq_analysis through the wasm) against
// `xq annotate --json` on the shared games (xq-records/tests/data/games: ten PGN files and
// an XQF), by centipawns and by the expected result: the positions' scores and best moves
// that xq annotate searched are fed to judgeGame as the page feeds the engine worker's, and
// every move's loss, class, scores and chances, and each side's totals, must be the same.
// It fails if either side's judgement drifts from the other's.
//
// Needs the xq binary (XQ_BIN, or target/release/xq, as .ci/run builds it before) and the
// wasm package (web/build.sh).
// Run: node --test web/test/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('../../', import.meta.url));
const XQ = process.env.XQ_BIN || join(root, 'target/release/xq');
const GAMES = join(root, 'xq-records/tests/data/games');
const DEPTH = '6';

const { init } = await import(new URL('../dist/pkg/xq-node.js', import.meta.url));
const { judgeGame, readPgnBytes, readXqf } = await init();

/** `xq annotate --json` of `file` by `by`: the move objects per game, and the summaries. */
function annotate(file, by) {
  if (!existsSync(XQ)) {
    throw new Error(`no xq binary at ${XQ}: build it (cargo build --release -p xq-cli) or set XQ_BIN`);
  }
  const out = execFileSync(XQ, ['annotate', file, '--depth', DEPTH, '--json', '--by', by, '--notation', 'iccs'],
    { encoding: 'utf8', maxBuffer: 64 << 20 });
  const games = [];
  for (const line of out.split('\n').filter(Boolean)) {
    const o = JSON.parse(line);
    if (!games[o.game - 1]) games[o.game - 1] = { moves: [], summary: null };
    if (o.type === 'move') games[o.game - 1].moves.push(o);
    else games[o.game - 1].summary = o;
  }
  return games;
}

/** A score as xq annotate writes it (Red's view: `+0.35`, `-1.20`, `#3`, `#-2`, `#0` when
 * Red has mated, `#-0` when Black has) as UCI's info line says it for the side to move. */
function uciScore(text, side) {
  if (text.startsWith('#')) {
    const redMates = !text.startsWith('#-');
    const moves = Number(text.replace(/^#-?/, ''));
    return redMates === (side === 'red') ? `mate ${moves}` : `mate ${-moves || 0}`;
  }
  const cp = Math.round(Number(text) * 100);
  return `cp ${side === 'red' ? cp : -cp || 0}`;
}

const other = (side) => (side === 'red' ? 'black' : 'red');

/** The games of a file as the page reads them. */
function records(file) {
  const bytes = new Uint8Array(readFileSync(file));
  return file.endsWith('.xqf') ? [readXqf(bytes)] : readPgnBytes(bytes);
}

const files = readdirSync(GAMES).filter((f) => /\.(pgn|xqf)$/.test(f)).sort().map((f) => join(GAMES, f));

test('the shared games are all there', () => {
  assert.equal(files.length, 11);
});

const seen = { cp: {}, wdl: {}, mates: 0, moves: 0 };

for (const by of ['cp', 'wdl']) {
  test(`judgeGame equals xq annotate --by ${by} on every move of the shared games`, () => {
    for (const file of files) {
      const games = annotate(file, by);
      const recs = records(file);
      assert.equal(games.length, recs.length, file);
      games.forEach((game, g) => {
        const where = `${file} game ${g + 1}`;
        const rec = recs[g];
        const moves = rec.moves();
        const startFen = rec.startFen();
        rec.free();
        assert.deepEqual(game.moves.map((o) => o.move), moves, `${where}: the same main line`);
        assert.equal(game.summary.by, by);
        // The score of every position from its side to move, and its best move.
        const scores = [];
        const bests = [];
        game.moves.forEach((o, k) => {
          if (k === 0) scores.push(uciScore(o.best_score, o.side));
          else assert.equal(o.best_score, game.moves[k - 1].score, `${where} ply ${k + 1}: one search per position`);
          scores.push(uciScore(o.score, other(o.side)));
          bests.push(o.best ?? '');
        });
        assert.ok(game.moves.length > 0, `${where}: moves`);
        seen.mates += scores.filter((s) => s.startsWith('mate')).length;
        const judged = judgeGame(startFen, moves, scores, bests, by);
        assert.equal(judged.by, by);
        const verdicts = judged.moves();
        assert.equal(verdicts.length, game.moves.length);
        verdicts.forEach((v, k) => {
          const o = game.moves[k];
          const at = `${where} ply ${k + 1} (${o.move})`;
          assert.deepEqual(
            { loss: v.loss, class: v.class ?? null, cp: v.cp, best_cp: v.bestCp, expected: v.expected,
              best_expected: v.bestExpected, wdl: Array.from(v.wdl), best_wdl: Array.from(v.bestWdl),
              side: v.side, best: v.best ?? null },
            { loss: o.loss, class: o.class, cp: o.cp, best_cp: o.best_cp, expected: o.expected,
              best_expected: o.best_expected, wdl: o.wdl, best_wdl: o.best_wdl, side: o.side, best: o.best },
            at);
          if (o.class) seen[by][o.class] = (seen[by][o.class] ?? 0) + 1;
          seen.moves += 1;
          v.free();
        });
        // Each position's value on the graph: Red's view, clamped as the JSON's cp.
        assert.deepEqual(Array.from(judged.values), [game.moves[0].best_cp, ...game.moves.map((o) => o.cp)], where);
        for (const side of ['red', 'black']) {
          const t = judged[side];
          assert.deepEqual(
            { moves: t.moves, average_loss: t.averageLoss, inaccuracies: t.inaccuracies, mistakes: t.mistakes, blunders: t.blunders },
            game.summary[side], `${where}: ${side}'s totals`);
          t.free();
        }
        judged.free();
      });
    }
    // Not a comparison of nothing: every class occurs.
    for (const c of ['inaccuracy', 'mistake', 'blunder']) assert.ok(seen[by][c] > 0, `no ${c} by ${by}: ${JSON.stringify(seen[by])}`);
  });
}

test('the comparison covered mates and every move of both measures', () => {
  assert.ok(seen.mates > 0, 'a game ends in mate');
  assert.ok(seen.moves > 1500, `${seen.moves} moves compared`);
  console.log(`# ${seen.moves} moves compared, ${seen.mates} mate scores; by cp ${JSON.stringify(seen.cp)}, by wdl ${JSON.stringify(seen.wdl)}`);
});

test('bad input to judgeGame is an Error that names it', () => {
  const start = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w';
  assert.throws(() => judgeGame(start, ['h2e2'], ['cp 1'], ['h2e2']),
    /a game of 1 moves needs 2 scores \(the start and after every move\), not 1/);
  assert.throws(() => judgeGame(start, ['h2e2'], ['cp 1', 'cp x'], ['h2e2']), /scores\[1\]: 'cp x' is not a score/);
  assert.throws(() => judgeGame(start, ['h2e2'], ['cp 1', ''], ['h2e2']), /scores\[1\]: no score, and the side to move has moves there/);
  assert.throws(() => judgeGame(start, ['h2h8'], ['cp 1', 'cp 2'], ['h2e2']), /move 1 \(h2h8\): /);
  assert.throws(() => judgeGame(start, ['h2e2'], ['cp 1', 'cp 2'], ['h2e2'], 'pawns'), /unknown measure "pawns" \(cp or wdl\)/);
  assert.throws(() => judgeGame('not a fen', [], ['cp 0'], []), Error);
  // The judge still works after its errors.
  const j = judgeGame(start, ['h2e2'], ['cp 30', 'cp 260'], ['b0c2', 'h9g7']);
  assert.equal(j.moves()[0].class, 'blunder');
  assert.equal(j.moves()[0].loss, 290);
});
