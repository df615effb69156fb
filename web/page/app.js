// The xq analysis board: the rules from the xq-wasm package, the engine in a Web Worker
// (pkg/xq-engine.js) spoken to in UCI. Plain ES module, no framework.
import init, { Board, Tablebase, readPgn, readPgnBytes, readXqf, bench, judgeGame } from './pkg/xq_wasm.js';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
const FILES = 'abcdefghi';
const CELL = 60;
const MARGIN = 60; // around the grid, for the coordinates
const WIDTH = 2 * MARGIN + 8 * CELL;
const HEIGHT = 2 * MARGIN + 9 * CELL + 20;
const RED_CHARS = { K: '帥', A: '仕', B: '相', N: '傌', R: '俥', C: '炮', P: '兵' };
const BLACK_CHARS = { k: '將', a: '士', b: '象', n: '馬', r: '車', c: '砲', p: '卒' };
const RED_NUMBERS = '九八七六五四三二一';
// The eval bar and the graph show scores up to ±CAP centipawns (a mate at the edge), as
// `xq annotate` clamps them; the moves are judged by its own code (judgeGame, from
// xq_analysis through the wasm).
const CAP = 1000;
const GRAPH_DEPTH = 10;

const state = {
  startFen: '',
  moves: [],          // the game's main line, ICCS
  ply: 0,             // the position shown: after moves[0..ply]
  board: null,        // Board at ply
  flipped: false,
  selected: null,     // square
  dests: [],          // legal moves of the selected piece
  tags: [],
  comments: [],
  graph: null,        // { values: red-side cp per ply, classes: per move, by, scores, bests }
  play: null,         // { human: 'red' | 'black', level }
};

// ---------------------------------------------------------------- the board drawing

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/** Board coordinates of a square (ICCS: file a-i, rank 0-9, Red at the bottom). */
function xy(sq) {
  let f = FILES.indexOf(sq[0]);
  let r = Number(sq[1]);
  if (state.flipped) { f = 8 - f; r = 9 - r; }
  return [MARGIN + f * CELL, MARGIN + (9 - r) * CELL];
}

function squareAt(px, py) {
  let f = Math.round((px - MARGIN) / CELL);
  let r = 9 - Math.round((py - MARGIN) / CELL);
  if (f < 0 || f > 8 || r < 0 || r > 9) return null;
  if (state.flipped) { f = 8 - f; r = 9 - r; }
  return FILES[f] + r;
}

function drawGrid(svg) {
  const g = el('g', {}, svg);
  el('rect', { x: 0, y: 0, width: WIDTH, height: HEIGHT, fill: 'var(--wood)', rx: 10 }, g);
  const x0 = MARGIN, y0 = MARGIN, x1 = MARGIN + 8 * CELL, y1 = MARGIN + 9 * CELL;
  el('rect', { class: 'frame', x: x0 - 6, y: y0 - 6, width: x1 - x0 + 12, height: y1 - y0 + 12 }, g);
  let d = '';
  for (let r = 0; r < 10; r++) d += `M${x0} ${y0 + r * CELL}H${x1}`;
  d += `M${x0} ${y0}V${y1}M${x1} ${y0}V${y1}`;
  for (let f = 1; f < 8; f++) {
    const x = x0 + f * CELL;
    d += `M${x} ${y0}V${y0 + 4 * CELL}M${x} ${y0 + 5 * CELL}V${y1}`;
  }
  // The palaces' diagonals.
  for (const top of [y0, y0 + 7 * CELL]) {
    d += `M${x0 + 3 * CELL} ${top}L${x0 + 5 * CELL} ${top + 2 * CELL}`;
    d += `M${x0 + 5 * CELL} ${top}L${x0 + 3 * CELL} ${top + 2 * CELL}`;
  }
  el('path', { class: 'grid', d }, g);
  const ry = y0 + 4.5 * CELL;
  const [left, right] = state.flipped ? ['漢 界', '楚 河'] : ['楚 河', '漢 界'];
  el('text', { class: 'river', x: x0 + 2 * CELL, y: ry, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, g).textContent = left;
  el('text', { class: 'river', x: x0 + 6 * CELL, y: ry, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, g).textContent = right;
  // Coordinates: ICCS files and ranks; Red's file numbers (九…一) at Red's side, Black's
  // (1…9) at Black's.
  for (let i = 0; i < 9; i++) {
    const file = state.flipped ? 8 - i : i;
    const x = x0 + i * CELL;
    el('text', { class: 'coord', x, y: y1 + 47 }, g).textContent = FILES[file];
    const redNum = RED_NUMBERS[file];
    const blackNum = String(file + 1);
    el('text', { class: 'coord zh', x, y: y1 + 68 }, g).textContent = state.flipped ? blackNum : redNum;
    el('text', { class: 'coord zh', x, y: y0 - 36 }, g).textContent = state.flipped ? redNum : blackNum;
  }
  for (let i = 0; i < 10; i++) {
    const rank = state.flipped ? i : 9 - i;
    el('text', { class: 'coord', x: x0 - 44, y: y0 + i * CELL + 5 }, g).textContent = String(rank);
  }
}

function drawPiece(parent, letter, x, y, extra = '') {
  const red = letter === letter.toUpperCase();
  const g = el('g', { class: `piece ${red ? 'red' : 'black'} ${extra}`, transform: `translate(${x} ${y})` }, parent);
  el('circle', { class: 'body', r: 26 }, g);
  el('circle', { class: 'ring', r: 21.5 }, g);
  el('text', { y: 1 }, g).textContent = red ? RED_CHARS[letter] : BLACK_CHARS[letter];
  return g;
}

function render() {
  const svg = $('board');
  svg.replaceChildren();
  drawGrid(svg);
  const board = state.board;
  const last = state.ply > 0 ? state.moves[state.ply - 1] : null;
  if (last) {
    for (const sq of [last.slice(0, 2), last.slice(2, 4)]) {
      const [x, y] = xy(sq);
      el('rect', { class: 'last', x: x - 29, y: y - 29, width: 58, height: 58, rx: 6, 'data-last': sq }, svg);
    }
  }
  const checked = board.isCheck() ? (board.turn === 'red' ? 'K' : 'k') : null;
  for (let r = 0; r < 10; r++) {
    for (let f = 0; f < 9; f++) {
      const sq = FILES[f] + r;
      const p = board.pieceAt(sq);
      if (!p) continue;
      const [x, y] = xy(sq);
      const cls = [sq === state.selected ? 'selected' : '', p === checked ? 'check' : '',
        drag && drag.moved && drag.from === sq ? 'lifted' : ''].join(' ');
      drawPiece(svg, p, x, y, cls).setAttribute('data-piece', sq);
    }
  }
  for (const m of state.dests) {
    const to = m.slice(2, 4);
    const [x, y] = xy(to);
    if (board.pieceAt(to)) el('circle', { class: 'dest capture', cx: x, cy: y, r: 28 }, svg);
    else el('circle', { class: 'dest', cx: x, cy: y, r: 9 }, svg);
  }
  // Click targets, on top of everything.
  for (let r = 0; r < 10; r++) {
    for (let f = 0; f < 9; f++) {
      const sq = FILES[f] + r;
      const [x, y] = xy(sq);
      el('rect', { class: 'hit', x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL, 'data-sq': sq }, svg);
    }
  }
  if (drag && drag.moved) {
    drag.ghost = drawPiece(svg, board.pieceAt(drag.from), drag.x, drag.y, 'ghost');
  }
}

// ---------------------------------------------------------------- moving pieces

let drag = null; // { from, x, y, moved, ghost }

function svgPoint(evt) {
  const svg = $('board');
  const pt = svg.createSVGPoint();
  pt.x = evt.clientX; pt.y = evt.clientY;
  return pt.matrixTransform(svg.getScreenCTM().inverse());
}

function humanMayMove() {
  if (!state.play) return true;
  return state.board.turn === state.play.human && state.ply === state.moves.length && !state.board.isGameOver();
}

function select(sq) {
  state.selected = sq;
  state.dests = sq ? state.board.legalMovesFrom(sq) : [];
}

function onPointerDown(evt) {
  const p = svgPoint(evt);
  const sq = squareAt(p.x, p.y);
  if (!sq) return;
  evt.preventDefault();
  const move = state.dests.find((m) => m.slice(2, 4) === sq);
  if (state.selected && move) {
    select(null);
    userMove(move);
    return;
  }
  const piece = state.board.pieceAt(sq);
  const own = piece && ((piece === piece.toUpperCase()) === (state.board.turn === 'red'));
  if (own && humanMayMove()) {
    select(sq);
    drag = { from: sq, x: p.x, y: p.y, startX: p.x, startY: p.y, moved: false, ghost: null };
    $('board').setPointerCapture?.(evt.pointerId);
  } else {
    select(null);
  }
  render();
}

function onPointerMove(evt) {
  if (!drag) return;
  const p = svgPoint(evt);
  drag.x = p.x; drag.y = p.y;
  if (!drag.moved && Math.hypot(p.x - drag.startX, p.y - drag.startY) > 8) {
    drag.moved = true;
    render();
  } else if (drag.ghost) {
    drag.ghost.setAttribute('transform', `translate(${p.x} ${p.y})`);
  }
}

function onPointerUp(evt) {
  if (!drag) return;
  const d = drag;
  drag = null;
  if (d.moved) {
    const p = svgPoint(evt);
    const sq = squareAt(p.x, p.y);
    const move = state.dests.find((m) => m.slice(2, 4) === sq);
    if (move) {
      select(null);
      userMove(move);
      return;
    }
  }
  render();
}

function userMove(move) {
  if (!humanMayMove()) return;
  playMove(move);
}

/** Plays `move` at the shown position: the game goes on from here (a different move
 * than the game's next one replaces the rest of the game). */
function playMove(move) {
  if (state.moves[state.ply] === move) {
    state.ply += 1;
  } else {
    state.moves = state.moves.slice(0, state.ply);
    state.comments = state.comments.slice(0, state.ply);
    state.moves.push(move);
    state.ply += 1;
    if (state.graph) $('graph-info').textContent = 'the game changed: run the graph again';
    state.graph = null;
  }
  positionChanged();
}

// ---------------------------------------------------------------- the game

function boardAt(ply) {
  const b = new Board(state.startFen, false);
  for (const m of state.moves.slice(0, ply)) b.push(m);
  return b;
}

function setGame(startFen, moves, { tags = [], comments = [] } = {}) {
  const b = new Board(startFen, false); // throws on a bad FEN before anything changes
  for (const m of moves) b.push(m);
  state.startFen = b.startFen();
  state.moves = moves.slice();
  state.tags = tags;
  state.comments = comments;
  state.graph = null;
  $('graph-info').textContent = '';
  state.ply = 0;
  stopPlaying();
  positionChanged();
}

function goTo(ply) {
  ply = Math.max(0, Math.min(state.moves.length, ply));
  if (ply === state.ply) return;
  state.ply = ply;
  positionChanged();
}

function positionChanged() {
  if (state.board) state.board.free();
  state.board = boardAt(state.ply);
  select(null);
  $('fen').value = state.board.fen();
  render();
  renderMoves();
  renderGraph();
  renderResult();
  renderTablebase();
  engineFollow();
}

function notationName() {
  return $('notation').value;
}

function renderMoves() {
  const box = $('moves');
  box.replaceChildren();
  const tags = state.tags.filter(([k]) => ['Event', 'Red', 'Black', 'Date', 'Result'].includes(k));
  $('tags').textContent = tags.map(([k, v]) => `${k}: ${v}`).join(' · ');
  let texts;
  try {
    const b = new Board(state.startFen, false);
    texts = b.lineNotation(state.moves, notationName());
    b.free();
  } catch (e) {
    texts = state.moves.slice();
  }
  const start = new Board(state.startFen, false);
  const blackFirst = start.turn === 'black';
  let number = start.fullmoveNumber;
  start.free();
  let col = 0;
  const cell = (text, cls) => {
    const d = document.createElement('div');
    d.className = cls;
    d.textContent = text;
    box.appendChild(d);
    return d;
  };
  if (blackFirst && texts.length > 0) {
    cell(`${number}.`, 'num');
    cell('…', 'mv-empty');
    col = 2;
  }
  texts.forEach((t, i) => {
    if (col === 0) cell(`${number}.`, 'num');
    const d = cell(t, 'mv' + (i + 1 === state.ply ? ' current' : ''));
    d.dataset.ply = String(i + 1);
    const cls = state.graph && state.graph.classes[i];
    if (cls) {
      const nag = document.createElement('span');
      nag.className = `nag ${cls.name}`;
      nag.textContent = cls.nag;
      d.appendChild(nag);
      d.title = `${cls.name}: lost ${lossText(cls.loss, state.graph.by)}`;
    }
    if (state.comments[i]) d.title = (d.title ? d.title + ' · ' : '') + state.comments[i];
    d.addEventListener('click', () => goTo(i + 1));
    // Three grid columns: the number, Red's move, Black's move.
    col += 1;
    if (col === 2) { col = 0; number += 1; }
  });
  box.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
}

function renderResult() {
  const r = $('result');
  const o = state.board.outcome();
  if (o) {
    const who = o.winner ? `${o.winner === 'red' ? 'Red' : 'Black'} wins` : 'Draw';
    r.textContent = `${o.result} · ${who} by ${o.terminationText}`;
    r.dataset.result = o.result;
    r.dataset.termination = o.termination;
    r.className = 'over';
    o.free();
  } else {
    const t = state.board.turn === 'red' ? 'Red' : 'Black';
    r.textContent = `${t} to move${state.board.isCheck() ? ', in check' : ''}`;
    delete r.dataset.result;
    delete r.dataset.termination;
    r.className = '';
  }
}

// ---------------------------------------------------------------- endgame tables

// The tables the page has: files opened by the user, and those it fetched from tables/
// beside the page (tried once an ending; a site without them answers 404).
let tables = null;
const fetchedEndings = new Set();

function tablesInfo() {
  const wdl = tables.wdlEndings(), distance = tables.endings();
  const all = [...new Set([...wdl, ...distance])].sort();
  $('tables-info').textContent = all.length ? `${all.length} ending${all.length === 1 ? '' : 's'}: ${all.join(', ')}` : '';
}

/** Adds a table file (name and bytes); an error names the file and what is wrong. */
function addTableFile(name, bytes) {
  tables.addFile(name, bytes);
  tablesInfo();
}

async function fetchTables(ending) {
  fetchedEndings.add(ending);
  for (const ext of ['xqwdl', 'xqtb']) {
    let bytes;
    try {
      const r = await fetch(`tables/${ending}.${ext}`);
      if (!r.ok) continue;
      bytes = new Uint8Array(await r.arrayBuffer());
    } catch { continue; } // not on this site
    try { addTableFile(`${ending}.${ext}`, bytes); } catch (e) { showError(e); }
  }
}

function renderTablebase() {
  const t = $('tablebase');
  const board = state.board;
  const ending = Tablebase.endingOf(board);
  delete t.dataset.wdl;
  if (!ending) { t.textContent = ''; return; }
  const have = tables.wdlEndings().includes(ending) || tables.endings().includes(ending);
  if (!have) {
    t.textContent = '';
    if (!fetchedEndings.has(ending)) {
      fetchTables(ending).then(() => { if (state.board === board) renderTablebase(); });
    }
    return;
  }
  try {
    const side = board.turn === 'red' ? 'Red' : 'Black';
    t.textContent = `${ending} · ${side} to move: ${tables.describe(board)}`;
    t.dataset.wdl = String(tables.probeWdl(board));
  } catch (e) {
    t.textContent = `${ending}: ${e.message || e}`;
  }
}

// ---------------------------------------------------------------- the engine

const workerQuery = new URLSearchParams(location.search).has('nosab') ? '?nosab' : '';

/** A UCI engine worker: send lines, get lines; counts its searches so that lines of a
 * search that was stopped are not taken for the next one's. */
class Engine {
  constructor(onLine) {
    this.worker = new Worker('pkg/xq-engine.js' + workerQuery);
    this.pending = 0;   // searches started whose bestmove has not come yet
    this.onLine = onLine;
    this.worker.onmessage = (e) => {
      const line = String(e.data);
      // A bestmove is the current search's when no other is outstanding after it; an
      // info line when only one search is outstanding.
      let current;
      if (line.startsWith('bestmove')) {
        this.pending = Math.max(0, this.pending - 1);
        current = this.pending === 0;
      } else {
        current = this.pending <= 1;
      }
      this.onLine(line, current);
    };
  }
  send(line) { this.worker.postMessage(line); }
  go(position, goLine) {
    if (this.pending > 0) this.send('stop');
    this.send(position);
    this.send(goLine);
    this.pending += 1;
  }
  stop() { if (this.pending > 0) this.send('stop'); }
}

let engine = null;
let lines = [];        // per multipv: { depth, score: {cp|mate}, pv }
let searchFen = '';    // the position the current search is of
let searchTurn = 'red';
let searchMode = 'off'; // 'analyse' | 'play' | 'off'
let lastInfo = null;

function positionCommand() {
  const moves = state.moves.slice(0, state.ply);
  return `position fen ${state.startFen}` + (moves.length ? ` moves ${moves.join(' ')}` : '');
}

function engineFollow() {
  if (!engine) return;
  lines = [];
  renderLines();
  const over = state.board.isGameOver();
  if (state.play) {
    if (!over && state.board.turn !== state.play.human && state.ply === state.moves.length) {
      searchMode = 'play';
      searchFen = state.board.fen();
      searchTurn = state.board.turn;
      engine.send('setoption name MultiPV value 1');
      engine.send(`setoption name Skill Level value ${state.play.level}`);
      engine.go(positionCommand(), 'go movetime 1500');
      $('play-info').textContent = `The engine (level ${state.play.level}) thinks…`;
    } else {
      searchMode = 'off';
      engine.stop();
      if (!over) $('play-info').textContent = `Your move (${state.play.human}).`;
    }
    return;
  }
  if (over) {
    searchMode = 'off';
    engine.stop();
    const o = state.board.outcome();
    $('engine-info').textContent = 'The game is over.';
    setEvalBar(o.winner === 'red' ? 100000 : o.winner === 'black' ? -100000 : 0, o.result);
    o.free();
    return;
  }
  if ($('analyse').checked) {
    searchMode = 'analyse';
    searchFen = state.board.fen();
    searchTurn = state.board.turn;
    engine.send(`setoption name MultiPV value ${$('multipv').value}`);
    engine.send('setoption name Skill Level value 20');
    engine.go(positionCommand(), 'go infinite');
  } else {
    searchMode = 'off';
    engine.stop();
  }
}

function parseInfo(line) {
  const w = line.split(' ');
  const info = { multipv: 1 };
  for (let i = 1; i < w.length; i++) {
    switch (w[i]) {
      case 'depth': case 'seldepth': case 'multipv': case 'nodes': case 'nps': case 'time': case 'hashfull':
        info[w[i]] = Number(w[++i]); break;
      case 'score':
        info.score = { [w[i + 1]]: Number(w[i + 2]) }; i += 2; break;
      case 'pv':
        info.pv = w.slice(i + 1); i = w.length; break;
      default: break;
    }
  }
  return info;
}

function onEngineLine(line, current) {
  if (line.startsWith('info string')) {
    console.info('engine:', line);
    if (/^info string (could not load|search worker failed)/.test(line)) {
      $('engine-info').textContent = `The engine did not start: ${line.slice('info string '.length)}`;
    }
    return;
  }
  if (!current) return; // from a search stopped since
  if (line.startsWith('info depth')) {
    if (searchMode !== 'analyse') return;
    const info = parseInfo(line);
    if (!info.pv || !info.score) return;
    if (info.multipv === 1) lines = lines.slice(0, Number($('multipv').value));
    lines[info.multipv - 1] = info;
    lastInfo = info;
    renderLines();
  } else if (line.startsWith('bestmove')) {
    const move = line.split(' ')[1];
    if (searchMode === 'play' && state.play && move && move !== '(none)' && state.board.fen() === searchFen) {
      searchMode = 'off';
      playMove(move);
    }
  }
}

/** Red's view of a score from the side to move's: centipawns (mates as ±100000 − n). */
function redValue(score, turn) {
  let v = 'mate' in score ? (score.mate > 0 ? 100000 - score.mate : -100000 - score.mate) : score.cp;
  if (score.mate === 0) v = -100000;
  return turn === 'red' ? v : -v;
}

function scoreText(score, turn) {
  const sign = turn === 'red' ? 1 : -1;
  if ('mate' in score) {
    const m = score.mate * sign;
    return m > 0 ? `#${m}` : `#-${-m}`;
  }
  const cp = score.cp * sign / 100;
  return (cp > 0 ? '+' : '') + cp.toFixed(2);
}

function renderLines() {
  const ol = $('lines');
  ol.replaceChildren();
  const b = new Board(searchFen || state.board.fen(), false);
  for (const info of lines) {
    if (!info) continue;
    const li = document.createElement('li');
    const s = document.createElement('span');
    s.className = 'score';
    s.textContent = scoreText(info.score, searchTurn);
    const pv = document.createElement('span');
    pv.className = 'pv';
    let text;
    try { text = b.lineNotation(info.pv, notationName()).join(' '); } catch (e) { text = info.pv.join(' '); }
    pv.textContent = text;
    li.dataset.depth = String(info.depth);
    li.append(s, ` d${info.depth} `, pv);
    li.title = li.textContent;
    ol.appendChild(li);
  }
  b.free();
  ol.style.setProperty('--rows', searchMode === 'analyse' ? $('multipv').value : '0');
  const top = lines[0];
  if (top && searchMode === 'analyse') {
    const knps = top.nps ? `${(top.nps / 1000).toFixed(0)} kn/s` : '';
    $('engine-info').textContent = `depth ${top.depth}/${top.seldepth} · ${(top.nodes / 1e6).toFixed(2)} M nodes · ${knps}`;
    setEvalBar(redValue(top.score, searchTurn), scoreText(top.score, searchTurn));
  } else if (searchMode !== 'analyse') {
    $('engine-info').textContent = state.play ? '' : 'Analysis is off.';
  }
}

function setEvalBar(red, text) {
  const clamped = Math.max(-CAP, Math.min(CAP, red));
  const share = Math.abs(red) >= 90000 ? (red > 0 ? 1 : 0) : 1 / (1 + Math.exp(-clamped / 250));
  $('evalfill').style.height = `${(share * 100).toFixed(1)}%`;
  $('evaltext').textContent = text;
}

// ---------------------------------------------------------------- play against the engine

function startPlaying(human) {
  const level = Number($('level').value);
  state.play = { human, level };
  if (state.flipped !== (human === 'black')) { state.flipped = human === 'black'; }
  state.moves = state.moves.slice(0, state.ply);
  state.comments = state.comments.slice(0, state.ply);
  state.graph = null;
  $('stop-play').hidden = false;
  $('analyse').disabled = true;
  $('play-info').textContent = `You play ${human} against level ${level}.`;
  lines = [];
  positionChanged();
}

function stopPlaying() {
  if (!state.play) return;
  state.play = null;
  $('stop-play').hidden = true;
  $('analyse').disabled = false;
  $('play-info').textContent = 'Play against the engine from the position on the board.';
}

function takeBack() {
  if (state.ply === 0) return;
  let n = 1;
  // Against the engine, take back to the player's own turn.
  if (state.play && state.board.turn === state.play.human && state.ply >= 2) n = 2;
  state.moves = state.moves.slice(0, state.ply - n);
  state.comments = state.comments.slice(0, state.ply - n);
  state.ply -= n;
  state.graph = null;
  positionChanged();
}

// ---------------------------------------------------------------- the score graph

let graphEngine = null;

/** Searches every position of the game to a fixed depth and judges each move as
 * `xq annotate` does. */
function runGraph() {
  if (graphEngine) return;
  const startFen = state.startFen;
  const gameMoves = state.moves.slice();
  const n = gameMoves.length;
  const results = [];
  let i = 0;
  let current = null;
  $('graph-run').disabled = true;
  graphEngine = new Engine((line) => {
    if (line.startsWith('info depth')) {
      const info = parseInfo(line);
      if (info.multipv === 1 && info.score) current = info;
    } else if (line.startsWith('bestmove')) {
      results.push({ info: current, best: line.split(' ')[1] });
      current = null;
      i += 1;
      $('graph-info').textContent = `${i}/${n + 1} positions`;
      if (i <= n) next(); else finish();
    } else if (/^info string (could not load|search worker failed)/.test(line)) {
      // No search will answer: say why and let the button be pressed again.
      graphEngine.worker.terminate();
      graphEngine = null;
      $('graph-run').disabled = false;
      $('graph-info').textContent = `the engine did not start: ${line.slice('info string '.length)}`;
    }
  });
  $('graph-info').textContent = `0/${n + 1} positions`;
  const by = $('graph-by').value;
  const next = () => {
    const moves = gameMoves.slice(0, i);
    graphEngine.go(`position fen ${startFen}` + (moves.length ? ` moves ${moves.join(' ')}` : ''), `go depth ${GRAPH_DEPTH}`);
  };
  const finish = () => {
    graphEngine.worker.terminate();
    graphEngine = null;
    $('graph-run').disabled = false;
    if (state.startFen !== startFen || state.moves.join(' ') !== gameMoves.join(' ')) {
      $('graph-info').textContent = 'the game changed: run the graph again';
      return;
    }
    // Each position's score as the engine said it (the side to move's view), "" where it
    // said none (a mated side: bestmove (none)), and its best move.
    const scores = results.map((r) => (r.info ? Object.entries(r.info.score)[0].join(' ') : ''));
    const bests = results.map((r) => (r.best && r.best !== '(none)' ? r.best : ''));
    let judged;
    try {
      judged = judgeGame(startFen, gameMoves, scores, bests, by);
    } catch (e) {
      $('graph-info').textContent = `the moves could not be judged: ${e.message || e}`;
      return;
    }
    const classes = judged.moves().map((m) => {
      const c = m.class ? { loss: m.loss, name: m.class, nag: m.glyph } : null;
      m.free();
      return c;
    });
    const values = Array.from(judged.values);
    const totals = ['red', 'black'].map((side) => {
      const t = judged[side];
      const text = `${side === 'red' ? 'Red' : 'Black'} ${t.inaccuracies}/${t.mistakes}/${t.blunders}, average loss ${lossText(t.averageLoss, by)}`;
      t.free();
      return text;
    });
    judged.free();
    state.graph = { values, classes, by, scores, bests };
    const count = (name) => classes.filter((c) => c && c.name === name).length;
    $('graph-info').textContent = `depth ${GRAPH_DEPTH}, by ${by}: ${count('inaccuracy')} inaccuracies, ${count('mistake')} mistakes, ${count('blunder')} blunders`;
    $('graph-info').title = totals.join(' · ');
    renderGraph();
    renderMoves();
  };
  next();
}

/** A loss as `xq annotate` writes it in its summary: centipawns, or per mille of the
 * expected result. */
function lossText(loss, by) {
  return by === 'wdl' ? `${loss}‰ of the result` : `${loss} cp`;
}

function renderGraph() {
  const svg = $('graph');
  svg.replaceChildren();
  const W = 320, H = 120;
  el('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, stroke: '#c9bba6', 'stroke-width': 1 }, svg);
  const g = state.graph;
  const n = Math.max(1, state.moves.length);
  const x = (k) => (k / n) * (W - 8) + 4;
  const y = (v) => H / 2 - (H / 2 - 6) * (v / CAP);
  el('line', { x1: x(state.ply), y1: 0, x2: x(state.ply), y2: H, stroke: '#2f6fdb', 'stroke-width': 1.5 }, svg);
  if (!g) return;
  const pts = g.values.map((v, k) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  el('polygon', { points: `${x(0)},${H / 2} ${pts} ${x(g.values.length - 1)},${H / 2}`, fill: 'rgba(179,38,30,.15)' }, svg);
  el('polyline', { points: pts, fill: 'none', stroke: '#b3261e', 'stroke-width': 1.5 }, svg);
  g.classes.forEach((c, k) => {
    if (!c) return;
    const dot = el('circle', { cx: x(k + 1), cy: y(g.values[k + 1]), r: 3.5, class: c.name, fill: 'currentColor', 'data-class': c.name }, svg);
    const t = el('title', {}, dot);
    t.textContent = `move ${k + 1}: ${c.name} (${lossText(c.loss, g.by)})`;
  });
}

// ---------------------------------------------------------------- loading

function showError(e) {
  $('load-error').textContent = e ? (e.message || String(e)) : '';
}

function loadRecord(record) {
  const tags = record.tagNames().map((k) => [k, record.tag(k)]);
  setGame(record.startFen(), record.moves(), { tags, comments: record.comments() });
}

async function openFile(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const isXqf = /\.xqf$/i.test(file.name) || (bytes[0] === 0x58 && bytes[1] === 0x51);
  if (isXqf) loadRecord(readXqf(bytes));
  else {
    const games = readPgnBytes(bytes);
    if (games.length === 0) throw new Error('no game in the file');
    loadRecord(games[0]);
  }
}

// ---------------------------------------------------------------- start

function wire() {
  const svg = $('board');
  svg.addEventListener('pointerdown', onPointerDown);
  svg.addEventListener('pointermove', onPointerMove);
  svg.addEventListener('pointerup', onPointerUp);
  $('first').onclick = () => goTo(0);
  $('prev').onclick = () => goTo(state.ply - 1);
  $('next').onclick = () => goTo(state.ply + 1);
  $('last').onclick = () => goTo(state.moves.length);
  $('flip').onclick = () => { state.flipped = !state.flipped; render(); };
  $('takeback').onclick = takeBack;
  $('newgame').onclick = () => { stopPlaying(); setGame(new Board().fen(), []); };
  $('analyse').onchange = engineFollow;
  $('multipv').onchange = engineFollow;
  $('notation').onchange = () => { renderMoves(); renderLines(); };
  $('play-red').onclick = () => startPlaying('red');
  $('play-black').onclick = () => startPlaying('black');
  $('stop-play').onclick = () => { stopPlaying(); engineFollow(); };
  $('graph-run').onclick = runGraph;
  $('graph').addEventListener('click', (e) => {
    const r = $('graph').getBoundingClientRect();
    goTo(Math.round(((e.clientX - r.left) / r.width) * state.moves.length));
  });
  $('fen-load').onclick = () => {
    try {
      showError(null);
      setGame($('fen').value.trim(), []);
      // A composed position (a mate problem's soldier behind its start) is played as
      // given, with a word on what no game could reach.
      const unusual = new Board(state.startFen, false).irregularities();
      if (unusual.length) $('load-error').textContent = `Unusual position, played as given: ${unusual.join(', ')}`;
    } catch (e) { showError(e); }
  };
  $('pgn-load').onclick = () => {
    try {
      showError(null);
      const games = readPgn($('pgn').value);
      if (games.length === 0) throw new Error('no game in the text');
      loadRecord(games[0]);
    } catch (e) { showError(e); }
  };
  $('file').onchange = async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    try { showError(null); await openFile(file); } catch (err) { showError(err); }
  };
  $('tables').onchange = async (e) => {
    showError(null);
    for (const file of e.target.files) {
      try { addTableFile(file.name, new Uint8Array(await file.arrayBuffer())); } catch (err) { showError(err); }
    }
    renderTablebase();
  };
  $('pgn-copy').onclick = () => {
    const b = boardAt(state.moves.length);
    $('pgn').value = b.toPgn(notationName());
    b.free();
  };
  document.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
    const to = { ArrowLeft: state.ply - 1, ArrowRight: state.ply + 1, Home: 0, End: state.moves.length,
      ArrowUp: 0, ArrowDown: state.moves.length }[e.key];
    if (to !== undefined) { e.preventDefault(); goTo(to); }
  });
  for (let l = 0; l <= 20; l++) {
    const o = document.createElement('option');
    o.value = String(l);
    o.textContent = l === 20 ? '20 (full strength)' : String(l);
    if (l === 5) o.selected = true;
    $('level').appendChild(o);
  }
}

async function main() {
  await init();
  tables = new Tablebase();
  wire();
  engine = new Engine(onEngineLine);
  const isolated = self.crossOriginIsolated && !workerQuery;
  $('status').textContent = isolated
    ? 'engine ready · stop answered at once (shared memory)'
    : 'engine ready · stop answered between iterations (page not cross-origin isolated)';
  engine.send('uci');
  setGame(new Board().fen(), []);
  // For the console and the tests.
  window.xq = { state, bench, goTo, setGame, Board, judgeGame, tables: () => tables };
}

// A module of one SIMD function (wasm-feature-detect's test): the build needs WebAssembly
// SIMD, which a browser without it cannot compile.
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0,
  10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);

main().catch((e) => {
  const why = WebAssembly.validate(SIMD_PROBE)
    ? (e && e.message ? e.message : e)
    : 'this browser lacks WebAssembly SIMD (Chrome or Edge 91, Firefox 89, Safari 16.4 or newer)';
  $('status').textContent = 'could not start: ' + why;
  console.error(e);
});
