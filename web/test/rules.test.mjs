// The rules package (web/dist/pkg, built by web/build.sh) under Node: perft through the
// bindings, the 41 repetition rulings, notation, PGN and XQF, and errors that are thrown
// as JavaScript Errors with the Rust message, leaving the board as it was.
// Run: node --test web/test/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const { init } = await import(new URL('../dist/pkg/xq-node.js', import.meta.url));
const { Board, readPgn, readPgnBytes, readXqf, writePgn } = await init();
const repo = (path) => new URL(`../../${path}`, import.meta.url);
const text = (path) => readFileSync(repo(path), 'utf8');

/** The suite `FEN ;D1 n ;D2 n ...` as [{ fen, counts: [n1, n2, ...] }]. */
function perftSuite() {
  return text('data/perft.epd').split('\n').filter((l) => l.trim() && !l.startsWith('#')).map((l) => {
    const [fen, ...fields] = l.split(';').map((s) => s.trim());
    return { fen, counts: fields.map((f) => Number(f.split(/\s+/)[1])) };
  });
}

/** Perft in JavaScript over legalMoves/push/pop: the bindings, move by move. */
function jsPerft(board, depth) {
  if (depth === 0) return 1;
  const moves = board.legalMoves();
  if (depth === 1) return moves.length;
  let n = 0;
  for (const m of moves) {
    board.push(m);
    n += jsPerft(board, depth - 1);
    board.pop();
  }
  return n;
}

test('perft through the bindings equals the suite, every position, up to 300,000 nodes', () => {
  const suite = perftSuite();
  assert.equal(suite.length, 50);
  let checked = 0;
  for (const { fen, counts } of suite) {
    const board = new Board(fen);
    counts.forEach((expected, i) => {
      if (expected > 300000) return;
      assert.equal(board.perft(i + 1), expected, `${fen} depth ${i + 1}`);
      checked += 1;
    });
    assert.equal(board.fen(), new Board(fen).fen(), 'perft leaves the board alone');
    board.free();
  }
  assert.ok(checked >= 100, `${checked} counts checked`);
});

test('perft by legalMoves/push/pop in JavaScript equals the suite at depth 1 and 2', () => {
  for (const { fen, counts } of perftSuite().slice(0, 20)) {
    const board = new Board(fen);
    assert.equal(jsPerft(board, 1), counts[0], fen);
    if (counts[1] <= 5000) assert.equal(jsPerft(board, 2), counts[1], fen);
    assert.equal(board.moves().length, 0);
    board.free();
  }
});

test('the 41 repetition rulings of data/repetition.epd', () => {
  const cases = text('data/repetition.epd').split('\n').filter((l) => l.trim() && !l.startsWith('#'));
  assert.equal(cases.length, 41);
  const wanted = { 'red-wins': '1-0', 'black-wins': '0-1', draw: '1/2-1/2' };
  for (const line of cases) {
    const fields = Object.fromEntries(line.split(' ; ').slice(1).map((f) => {
      const i = f.indexOf(' ');
      return [f.slice(0, i), f.slice(i + 1)];
    }));
    const fen = line.split(' ; ')[0];
    const moves = fields.moves.split(' ');
    const board = new Board(fen);
    moves.forEach((m, i) => {
      assert.equal(board.outcome(), undefined, `${fields.kind}: ruled after ${i} moves`);
      board.push(m);
    });
    const o = board.outcome();
    assert.ok(o, `${fields.kind}: no ruling`);
    const tag = fields.result === 'draw' ? 'repetition'
      : (['perpetual-check', 'check-vs-chase'].includes(fields.kind) ? 'perpetual-check' : 'perpetual-chase');
    assert.equal(o.result, wanted[fields.result], `${fields.kind}: ${line}`);
    assert.equal(o.termination, tag, `${fields.kind}: ${line}`);
    if (tag === 'perpetual-chase') {
      assert.match(o.toString(), /^(1-0|0-1) perpetual chase by (red|black) of the (red|black) \w+ on [a-i][0-9]$/);
      assert.match(o.chased, /^[RNBAKCPrnbakcp][a-i][0-9]$/);
    }
    assert.equal(board.isGameOver(), true);
    board.free();
  }
});

test('a perpetual chase is named in words', () => {
  // The red chariot follows the black cannon, unprotected, g8 <-> i8 (xq-movegen's test).
  const board = new Board('5k3/8c/9/9/8R/9/6C1C/9/9/4K4 b');
  for (const m of 'i8g8 i5g5 g8i8 g5i5 i8g8 i5g5 g8i8 g5i5'.split(' ')) board.push(m);
  const o = board.outcome();
  assert.equal(o.toString(), '0-1 perpetual chase by red of the black cannon on i8');
  assert.equal(o.winner, 'black');
  assert.equal(o.by, 'red');
  assert.equal(o.terminationText, 'perpetual chase by red of the black cannon on i8');
});

test('checkmate, stalemate and the result', () => {
  const mate = new Board('R3k4/1R7/9/9/9/9/9/9/9/3K5 b');
  assert.ok(mate.isCheck() && mate.isCheckmate() && !mate.isStalemate());
  assert.equal(mate.result(), '1-0');
  assert.equal(mate.outcome().toString(), '1-0 checkmate');
  assert.deepEqual(mate.legalMoves(), []);
  const board = new Board('3k5/9/9/9/9/9/9/9/1R7/R3K4 w');
  assert.equal(board.result(), '*');
  board.push('a0a9');
  assert.equal(board.isCheck(), true);
  assert.equal(board.outcome(), undefined);
});

test('notation both ways: ICCS, WXF, Chinese', () => {
  const board = new Board();
  assert.equal(board.legalMoves().length, 44);
  assert.equal(board.notation('h2e2'), '炮二平五');
  assert.equal(board.notation('h2e2', 'wxf'), 'C2=5');
  assert.equal(board.notation('h2e2', 'iccs'), 'h2e2');
  assert.equal(board.notation('b0c2', 'chinese-traditional'), '傌八進七');
  assert.equal(board.parseMove('C2=5'), 'h2e2');
  assert.equal(board.pushNotation('炮二平五'), 'h2e2');
  assert.equal(board.pushNotation('H8+7'), 'h9g7');
  assert.deepEqual(board.lineNotation(['h0g2', 'i9h9']), ['马二进三', '车9平8']);
  assert.deepEqual(board.lineNotation(['h0g2', 'i9h9'], 'wxf'), ['H2+3', 'R9=8']);
  assert.deepEqual(board.movesNotation('wxf'), ['C2=5', 'H8+7']);
  assert.deepEqual(board.moves(), ['h2e2', 'h9g7']);
  assert.equal(board.turn, 'red');
  assert.deepEqual(board.legalMovesFrom('h0').sort(), ['h0g2', 'h0i2']);
  assert.equal(board.pieceAt('e2'), 'C');
  assert.equal(board.pieceAt('e5'), undefined);
  assert.equal(board.isCapture('e2e6'), true);
  assert.equal(board.givesCheck('e2e6'), false); // no screen left between e6 and e9
  assert.equal(board.givesCheck('h0g2'), false);
  assert.equal(board.pop(), 'h9g7');
  assert.equal(board.peek(), 'h2e2');
});

test('a composed position is refused unless strict is false, then it plays and says what is unusual', () => {
  const fen = '4k4/9/9/9/9/9/9/9/9/3K4P w';
  assert.throws(() => new Board(fen), (e) => e instanceof Error && e.message.includes("'P' can never stand on i0"));
  const b = new Board(fen, false);
  assert.deepEqual(b.irregularities(), ["'P' can never stand on i0"]);
  // The soldier behind its start steps forward, by the rules.
  assert.ok(b.legalMoves().includes('i0i1'));
  assert.deepEqual(new Board().irregularities(), []);
  const c = new Board();
  c.setFen(fen, false);
  assert.equal(c.fen(), b.fen());
});

test('a bad FEN throws an Error with the Rust message, and the board stays as it was', () => {
  assert.throws(() => new Board('rnbakabnr/9/1c5c1 w'), (e) => e instanceof Error && /rank/i.test(e.message));
  assert.throws(() => new Board('not a fen'), Error);
  const board = new Board();
  board.push('h2e2');
  const before = board.fen();
  assert.throws(() => board.setFen('4k4/9/9/9/9/9/9/9/9/4K4 w'), (e) => {
    assert.ok(e instanceof Error);
    assert.match(e.message, /general/i); // the generals face each other
    return true;
  });
  assert.equal(board.fen(), before);
  assert.deepEqual(board.moves(), ['h2e2']);
});

test('a bad move throws an Error with the Rust message, and the board stays as it was', () => {
  const board = new Board();
  const before = board.fen();
  assert.throws(() => board.push('h2g3'), { message: 'illegal move h2g3: the piece on h2 cannot move there' });
  assert.throws(() => board.push('e5e6'), { message: /no piece of the side to move on e5/ });
  assert.throws(() => board.push('zz'), Error);
  assert.throws(() => board.pushNotation('炮九平五'), Error);
  assert.throws(() => board.notation('h2g3'), /illegal/);
  assert.throws(() => board.notation('h2e2', 'klingon'), Error);
  assert.throws(() => board.lineNotation(['h2e2', 'h2e2']), /ply|illegal/);
  assert.throws(() => board.pop(), { message: 'no move to take back' });
  assert.throws(() => board.legalMovesFrom('z9'), Error);
  assert.equal(board.isLegal('h2g3'), false);
  assert.equal(board.isLegal('garbage'), false);
  assert.equal(board.fen(), before);
  assert.deepEqual(board.moves(), []);
  // And the board still works.
  board.push('h2e2');
  assert.equal(board.moves().length, 1);
});

test('PGN read, stepped, and written in each notation', () => {
  const pgn = '[Event "Test"]\n[Red "胡荣华"]\n1. 炮二平五 马８进７ {a comment} (1... 炮８平５) 2. 马二进三 *';
  const [game] = readPgn(pgn);
  assert.equal(game.tag('Red'), '胡荣华');
  assert.deepEqual(game.tagNames(), ['Event', 'Red']);
  assert.deepEqual(game.moves(), ['h2e2', 'h9g7', 'h0g2']);
  assert.deepEqual(game.comments(), ['', 'a comment', '']);
  assert.equal(game.result, '*');
  assert.equal(game.board().moves().length, 3);
  const wxf = game.toPgn('wxf');
  assert.match(wxf, /1\. C2=5 H8\+7 \{a comment\} \(1\.\.\. C8=5\)/);
  assert.deepEqual(readPgn(wxf)[0].moves(), game.moves());
  assert.deepEqual(readPgn(writePgn(game, 'iccs'))[0].moves(), game.moves());
  const bytes = new TextEncoder().encode(pgn);
  assert.deepEqual(readPgnBytes(bytes)[0].moves(), game.moves());
  assert.throws(() => readPgn('1. 炮二平五 马８进７ 2. 马二进四'),
    { message: "game 1, line 1, ply 3: '马二进四': illegal move h0f1: the piece on h0 cannot move there" });
});

test('a board written as PGN reads back', () => {
  const board = new Board();
  for (const m of ['h2e2', 'h9g7', 'h0g2']) board.push(m);
  const [again] = readPgn(board.toPgn());
  assert.deepEqual(again.moves(), board.moves());
});

test('XQF read from bytes', () => {
  const bytes = new Uint8Array(readFileSync(repo('xq-records/tests/data/games/sample.xqf')));
  const record = readXqf(bytes);
  const [comment, fen, moves] = text('xq-records/tests/data/games/sample.moves').split('\n');
  assert.ok(comment.startsWith('#'));
  assert.equal(record.startFen().split(' ').slice(0, 2).join(' '), fen.split(' ').slice(0, 2).join(' '));
  assert.deepEqual(record.moves(), moves.trim().split(/\s+/));
  assert.throws(() => readXqf(bytes.slice(0, 100)), Error);
  assert.throws(() => readXqf(new Uint8Array([1, 2, 3])), Error);
});
