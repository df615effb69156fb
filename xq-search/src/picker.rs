//! Move ordering: the heuristics the search learns (killer moves, the history of quiet
//! moves) and the move picker that hands a node its moves best first.
//!
//! At most nodes the search cuts off after one or two moves, so the picker does as little
//! as it can up front: at a node out of check the table's move is tried before anything
//! is generated, and the other moves are tested for legality only when their turn comes.

use crate::score::MAX_PLY;
use crate::see::{see_ge, SEE_VALUE};
use xq_core::{Move, Piece, PieceKind, Position, Square, SquareMap};
use xq_movegen::{pseudo_legal_into, CheckTest, Gen, LegalityFilter, MoveList, MAX_MOVES};

/// Ordering scores, one per move of a list.
type Scores = arrayvec::ArrayVec<i32, MAX_MOVES>;

/// The value of a piece for move ordering (most valuable victim first, least valuable
/// attacker first).
pub(crate) const fn ordering_value(kind: PieceKind) -> i32 {
    [10000, 120, 120, 400, 900, 420, 80][kind as usize]
}

/// Ordering score of the table's move.
const TT_MOVE: i32 = 1 << 30;
/// Ordering score base of a capture (plus MVV/LVA).
const CAPTURE: i32 = 1 << 24;
/// Ordering score of the first killer (the second scores one less).
const KILLER: i32 = 1 << 22;

/// The most a history score reaches (in absolute value): each update moves a score part
/// of the way towards it, so old results fade as new ones come in.
const HISTORY_MAX: i32 = 16384;

/// A dense index for a piece on a square (continuation history keys).
#[inline(always)]
fn piece_square(piece: Piece, sq: Square) -> usize {
    piece.index() * Square::COUNT + sq.index()
}

/// Moves the history score `h` towards `HISTORY_MAX` by `bonus` (or towards
/// `-HISTORY_MAX` for a negative bonus): the "gravity" update.
#[inline]
fn update(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}

/// The history bonus of a move that cut off at `depth`.
#[inline]
pub(crate) fn history_bonus(depth: i32) -> i32 {
    (150 * depth - 100).clamp(0, 1500)
}

/// The moves that led to a node, as the continuation histories use them: the move one
/// ply before and two plies before, each with its piece (`None` at the root, after a null
/// move, or before the root).
pub(crate) type Continuation = [Option<(Piece, Move)>; 2];

/// What the search has learnt about move order:
/// - two killer moves per ply (quiet moves that cut off a sibling node);
/// - the counter move to each move (by its piece and destination);
/// - the history of quiet moves by piece and destination, and their continuation history
///   by the move one and two plies before (a quiet move good after a given move);
/// - the history of captures by piece, destination and victim.
///
/// Every history is raised for a move that cut off and lowered for the moves of the same
/// kind tried before it.
#[derive(Clone, Debug)]
pub(crate) struct Heuristics {
    killers: Box<[[Option<Move>; 2]; MAX_PLY + 2]>,
    history: Box<[SquareMap<i32>; 14]>,
    /// Indexed by [`piece_square`] of the earlier move, then of the move.
    continuation: Box<[[i16; 14 * Square::COUNT]]>,
    /// Indexed by [`piece_square`] of the capture, then by the victim's kind.
    captures: Box<[[i16; 7]; 14 * Square::COUNT]>,
    /// The quiet move that last refuted a move, by that move's piece and destination.
    counters: Box<[SquareMap<Option<Move>>; 14]>,
}

impl Heuristics {
    pub(crate) fn new() -> Heuristics {
        Heuristics {
            killers: Box::new([[None; 2]; MAX_PLY + 2]),
            history: Box::new([SquareMap::new(0); 14]),
            continuation: vec![[0; 14 * Square::COUNT]; 14 * Square::COUNT].into_boxed_slice(),
            captures: Box::new([[0; 7]; 14 * Square::COUNT]),
            counters: Box::new([SquareMap::new(None); 14]),
        }
    }

    /// Forgets everything (a new game).
    pub(crate) fn clear(&mut self) {
        *self = Heuristics::new();
    }

    /// Halves the quiet history at the start of a search, so that recent results weigh
    /// more.
    pub(crate) fn age(&mut self) {
        for map in self.history.iter_mut() {
            for sq in Square::ALL {
                map[sq] /= 2;
            }
        }
    }

    /// The counter move to `prev` (the move that led to the node, and its piece).
    #[inline]
    pub(crate) fn counter(&self, prev: Option<(Piece, Move)>) -> Option<Move> {
        prev.and_then(|(piece, m)| self.counters[piece.index()][m.to()])
    }

    /// The refutations to try at `ply`: its killers, then `counter`.
    fn refutations(&self, ply: usize, counter: Option<Move>) -> [Option<Move>; 3] {
        let [a, b] = self.killers[ply];
        [a, b, counter]
    }

    /// Is `m` one of the killer moves at `ply`?
    #[inline]
    pub(crate) fn is_killer(&self, ply: usize, m: Move) -> bool {
        self.killers[ply].contains(&Some(m))
    }

    /// The history of the quiet move `m` (by `piece`) after `cont`: its own history and
    /// its two continuation histories.
    #[inline]
    pub(crate) fn quiet_score(&self, piece: Piece, m: Move, cont: &Continuation) -> i32 {
        self.quiet_score_in(&self.continuation_rows(cont), piece, m)
    }

    /// The continuation-history rows of the moves in `cont` (the same for every move of
    /// a node: looked up once).
    #[inline]
    fn continuation_rows(&self, cont: &Continuation) -> [Option<&[i16; 14 * Square::COUNT]>; 2] {
        cont.map(|c| c.map(|(p, prev)| &self.continuation[piece_square(p, prev.to())]))
    }

    /// [`quiet_score`](Heuristics::quiet_score) with the continuation rows at hand.
    #[inline(always)]
    fn quiet_score_in(
        &self,
        rows: &[Option<&[i16; 14 * Square::COUNT]>; 2],
        piece: Piece,
        m: Move,
    ) -> i32 {
        let here = piece_square(piece, m.to());
        let mut score = self.history[piece.index()][m.to()];
        for row in rows.iter().flatten() {
            score += row[here] as i32;
        }
        score
    }

    /// The history of the capture `m` by `piece` of `victim`.
    #[inline]
    pub(crate) fn capture_score(&self, piece: Piece, m: Move, victim: PieceKind) -> i32 {
        self.captures[piece_square(piece, m.to())][victim.index()] as i32
    }

    fn update_quiet(&mut self, pos: &Position, m: Move, cont: &Continuation, bonus: i32) {
        let piece = pos
            .piece_on(m.from())
            .expect("a tried move has a piece to move");
        update(&mut self.history[piece.index()][m.to()], bonus);
        let here = piece_square(piece, m.to());
        for (p, prev) in cont.iter().flatten() {
            let h = &mut self.continuation[piece_square(*p, prev.to())][here];
            let mut v = *h as i32;
            update(&mut v, bonus);
            *h = v as i16;
        }
    }

    fn update_capture(&mut self, pos: &Position, m: Move, bonus: i32) {
        let piece = pos
            .piece_on(m.from())
            .expect("a tried move has a piece to move");
        let Some(victim) = pos.piece_on(m.to()) else {
            return;
        };
        let h = &mut self.captures[piece_square(piece, m.to())][victim.kind.index()];
        let mut v = *h as i32;
        update(&mut v, bonus);
        *h = v as i16;
    }

    /// `best` cut off at `ply` (depth `depth`) after the quiet moves `quiets` and the
    /// captures `captures` failed to: a quiet `best` becomes a killer and the counter move
    /// to the move before, and its histories rise while those of the other quiets fall; a
    /// capture's capture history rises. The captures that failed lose in every case.
    /// `pos` is the node's position (before `best`).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn reward(
        &mut self,
        pos: &Position,
        best: Move,
        depth: i32,
        ply: usize,
        cont: &Continuation,
        quiets: &[Move],
        captures: &[Move],
    ) {
        let bonus = history_bonus(depth);
        if pos.is_empty(best.to()) {
            if let Some((piece, p)) = cont[0] {
                self.counters[piece.index()][p.to()] = Some(best);
            }
            let k = &mut self.killers[ply];
            if k[0] != Some(best) {
                k[1] = k[0];
                k[0] = Some(best);
            }
            self.update_quiet(pos, best, cont, bonus);
            for &q in quiets {
                self.update_quiet(pos, q, cont, -bonus);
            }
        } else {
            self.update_capture(pos, best, bonus);
        }
        for &c in captures {
            self.update_capture(pos, c, -bonus);
        }
    }

    /// Appends to `scores` the ordering score of each move: the table's move first, then
    /// captures by victim (and their history), the killers, and the quiet moves by
    /// history.
    fn score(
        &self,
        pos: &Position,
        moves: &[Move],
        tt_move: Option<Move>,
        ply: usize,
        cont: &Continuation,
        scores: &mut Scores,
    ) {
        let rows = self.continuation_rows(cont);
        scores.extend(moves.iter().map(|&m| {
            if Some(m) == tt_move {
                return TT_MOVE;
            }
            let attacker = pos
                .piece_on(m.from())
                .expect("a generated move has a piece to move");
            if let Some(victim) = pos.piece_on(m.to()) {
                CAPTURE + ordering_value(victim.kind) * 16 - ordering_value(attacker.kind) / 16
                    + self.capture_score(attacker, m, victim.kind) / 8
            } else if self.killers[ply][0] == Some(m) {
                KILLER
            } else if self.killers[ply][1] == Some(m) {
                KILLER - 1
            } else {
                self.quiet_score_in(&rows, attacker, m)
            }
        }));
    }
}

/// Where a picker is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Stage {
    /// The table's move, before anything is generated.
    TableMove,
    /// Generate and score the captures; build the legality filter.
    GenerateCaptures,
    /// Captures that do not lose material (static exchange >= 0), best victim first.
    GoodCaptures,
    /// The killer moves and the counter move, if they are legal quiet moves here.
    Refutations,
    /// Generate and score the quiet moves.
    GenerateQuiets,
    /// Quiet moves by history.
    Quiets,
    /// Captures that lose material, in the order they were found.
    BadCaptures,
    /// A list known to be legal, best first (root, check, quiescence).
    Listed,
    /// Nothing left.
    Done,
}

/// Hands out the moves of one node, best first, each legal move exactly once.
///
/// At a node out of check it works in stages, generating only what the next stage
/// needs: the table's move, the captures that win or hold material, the killers and the
/// counter move, the quiet moves by history, and the captures that lose material.
#[derive(Debug)]
pub(crate) struct MovePicker {
    stage: Stage,
    /// Tried first, before generation (lazy pickers only; already known legal).
    tt_move: Option<Move>,
    ply: usize,
    /// The moves that led here, for the continuation histories.
    cont: Continuation,
    /// The counter move to the previous move, if any.
    counter: Option<Move>,
    moves: MoveList,
    scores: Scores,
    next: usize,
    /// The ordering score of the move handed out last (its history, for a quiet move
    /// from the quiet stage).
    last_score: i32,
    /// Where the quiet moves start in `moves`.
    quiets_start: usize,
    /// The refutations handed out (or to hand out), and how many are done.
    refutations: [Option<Move>; 3],
    refutation_next: usize,
    bad_captures: arrayvec::ArrayVec<Move, MAX_MOVES>,
    bad_next: usize,
    /// Tests a generated move when its turn comes; `None` when every move is legal.
    filter: Option<LegalityFilter>,
    /// Have the quiet moves that give no check been dropped (see
    /// [`drop_quiets_without_check`](MovePicker::drop_quiets_without_check))?
    quiets_sifted: bool,
}

impl MovePicker {
    fn with_stage(stage: Stage, ply: usize, cont: Continuation) -> MovePicker {
        MovePicker {
            stage,
            tt_move: None,
            ply,
            cont,
            counter: None,
            moves: MoveList::new(),
            scores: Scores::new(),
            next: 0,
            last_score: 0,
            quiets_start: 0,
            refutations: [None; 3],
            refutation_next: 0,
            bad_captures: arrayvec::ArrayVec::new(),
            bad_next: 0,
            filter: None,
            quiets_sifted: false,
        }
    }

    /// A staged picker for a node out of check: the table's move (if it is legal) is
    /// tried before anything is generated, and legality is tested lazily. `cont` holds
    /// the moves that led here.
    pub(crate) fn staged(
        pos: &Position,
        tt_move: Option<Move>,
        cont: Continuation,
        ply: usize,
        heuristics: &Heuristics,
    ) -> MovePicker {
        MovePicker {
            tt_move: tt_move.filter(|&m| xq_movegen::is_legal(pos, m)),
            counter: heuristics.counter(cont[0]),
            ..MovePicker::with_stage(Stage::TableMove, ply, cont)
        }
    }

    /// A picker over moves known to be legal (the root's, or every legal move of a node
    /// in check), ordered with `tt_move` first.
    pub(crate) fn legal(
        pos: &Position,
        moves: MoveList,
        tt_move: Option<Move>,
        ply: usize,
        cont: Continuation,
        heuristics: &Heuristics,
    ) -> MovePicker {
        let mut picker = MovePicker {
            moves,
            ..MovePicker::with_stage(Stage::Listed, ply, cont)
        };
        heuristics.score(pos, &picker.moves, tt_move, ply, &cont, &mut picker.scores);
        picker
    }

    /// A picker for every legal move of a node in check.
    pub(crate) fn evasions(
        pos: &Position,
        tt_move: Option<Move>,
        ply: usize,
        cont: Continuation,
        heuristics: &Heuristics,
    ) -> MovePicker {
        let mut moves = MoveList::new();
        LegalityFilter::with_check(pos, true).legal_into(pos, Gen::Evasions, &mut moves);
        MovePicker::legal(pos, moves, tt_move, ply, cont, heuristics)
    }

    /// A picker for quiescence: every legal move in check, else the captures (legality
    /// tested lazily, without the pin analysis: few of them are tried).
    pub(crate) fn quiescence(
        pos: &Position,
        in_check: bool,
        ply: usize,
        cont: Continuation,
        heuristics: &Heuristics,
    ) -> MovePicker {
        let mut picker = MovePicker::idle();
        picker.reset_quiescence(pos, in_check, ply, cont, heuristics);
        picker
    }

    /// A picker with nothing to hand out, for a pool of pickers reset in place.
    pub(crate) fn idle() -> MovePicker {
        MovePicker::with_stage(Stage::Done, 0, [None; 2])
    }

    /// Makes this picker [`quiescence`](MovePicker::quiescence)'s, in place: a picker
    /// returned by value was copied (a `memcpy` of its lists) at every quiescence node.
    #[inline]
    pub(crate) fn reset_quiescence(
        &mut self,
        pos: &Position,
        in_check: bool,
        ply: usize,
        cont: Continuation,
        heuristics: &Heuristics,
    ) {
        self.stage = Stage::Listed;
        self.tt_move = None;
        self.ply = ply;
        self.cont = cont;
        self.counter = None;
        self.moves.clear();
        self.scores.clear();
        self.next = 0;
        self.last_score = 0;
        self.quiets_start = 0;
        self.refutations = [None; 3];
        self.refutation_next = 0;
        self.bad_captures.clear();
        self.bad_next = 0;
        self.quiets_sifted = false;
        if in_check {
            self.filter = None;
            LegalityFilter::with_check(pos, true).legal_into(pos, Gen::Evasions, &mut self.moves);
        } else {
            self.filter = Some(LegalityFilter::without_pins(pos));
            pseudo_legal_into(pos, Gen::Captures, &mut self.moves);
        }
        heuristics.score(pos, &self.moves, None, ply, &cont, &mut self.scores);
    }

    /// How many moves are generated so far (all of them for a listed picker).
    pub(crate) fn generated(&self) -> usize {
        self.moves.len()
    }

    /// The stage of the move handed out last.
    #[inline]
    pub(crate) fn stage(&self) -> Stage {
        self.stage
    }

    /// The history score of the move handed out last, if it came from the quiet stage
    /// (the table's move, the refutations and the listed pickers' moves have none).
    pub(crate) fn quiet_history(&self) -> Option<i32> {
        (self.stage == Stage::Quiets).then_some(self.last_score)
    }

    fn is_legal(&self, pos: &Position, m: Move) -> bool {
        self.filter.as_ref().map_or(true, |f| f.is_legal(pos, m))
    }

    /// The captures generated and scored, the legality filter built (kept out of line:
    /// `next` is called for every move, this once a node).
    #[inline(never)]
    fn generate_captures(&mut self, pos: &Position, heuristics: &Heuristics) {
        pseudo_legal_into(pos, Gen::Captures, &mut self.moves);
        heuristics.score(
            pos,
            &self.moves,
            None,
            self.ply,
            &self.cont,
            &mut self.scores,
        );
        self.filter = Some(LegalityFilter::with_check(pos, false));
        self.stage = Stage::GoodCaptures;
    }

    /// Drops the quiet moves not handed out yet that give no check: the search prunes
    /// every one of them once late move pruning (or futility pruning at a zero-window
    /// node) has begun, so they need not be generated, picked, tested for legality and
    /// turned down one by one. Before the
    /// quiet stage, only the quiet moves that give check will be generated. [`pick`]
    /// keeps the moves it passes over in order, so the moves kept come in the very order
    /// they would have come. `test` must be `pos`'s.
    pub(crate) fn drop_quiets_without_check(&mut self, pos: &Position, test: &CheckTest) {
        if self.quiets_sifted {
            return;
        }
        self.quiets_sifted = true;
        if self.stage != Stage::Quiets {
            return;
        }
        let mut kept = self.next;
        for j in self.next..self.moves.len() {
            if test.gives_check(pos, self.moves[j]) {
                self.moves[kept] = self.moves[j];
                self.scores[kept] = self.scores[j];
                kept += 1;
            }
        }
        self.moves.truncate(kept);
        self.scores.truncate(kept);
    }

    /// The quiet moves generated after the captures and scored (out of line, as
    /// [`generate_captures`](MovePicker::generate_captures)).
    #[inline(never)]
    fn generate_quiets(&mut self, pos: &Position, heuristics: &Heuristics) {
        self.quiets_start = self.moves.len();
        if self.quiets_sifted {
            pseudo_legal_into(pos, Gen::QuietChecks, &mut self.moves);
        } else {
            pseudo_legal_into(pos, Gen::Quiets, &mut self.moves);
        }
        self.scores.truncate(self.quiets_start);
        heuristics.score(
            pos,
            &self.moves[self.quiets_start..],
            None,
            self.ply,
            &self.cont,
            &mut self.scores,
        );
        self.next = self.quiets_start;
        self.stage = Stage::Quiets;
    }

    /// The next move, or `None` when every move has been handed out. `pos` must be the
    /// node's position, as it was when the picker was made.
    #[inline]
    pub(crate) fn next(&mut self, pos: &Position, heuristics: &Heuristics) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = Stage::GenerateCaptures;
                    if self.tt_move.is_some() {
                        return self.tt_move;
                    }
                }
                Stage::GenerateCaptures => self.generate_captures(pos, heuristics),
                Stage::GoodCaptures => {
                    if self.next >= self.moves.len() {
                        self.stage = Stage::Refutations;
                        self.refutations = heuristics.refutations(self.ply, self.counter);
                        continue;
                    }
                    let m = pick(&mut self.moves, &mut self.scores, self.next);
                    self.next += 1;
                    if Some(m) == self.tt_move || !self.is_legal(pos, m) {
                        continue;
                    }
                    if !wins_or_holds(pos, m) {
                        self.bad_captures.push(m);
                        continue;
                    }
                    return Some(m);
                }
                Stage::Refutations => {
                    if self.refutation_next >= self.refutations.len() {
                        self.stage = Stage::GenerateQuiets;
                        continue;
                    }
                    let i = self.refutation_next;
                    self.refutation_next += 1;
                    let Some(m) = self.refutations[i] else {
                        continue;
                    };
                    if Some(m) == self.tt_move
                        || self.refutations[..i].contains(&Some(m))
                        || !pos.is_empty(m.to())
                        || !xq_movegen::is_pseudo_legal(pos, m)
                        || !self.is_legal(pos, m)
                    {
                        // Not handed out: the quiet stage must not skip it.
                        self.refutations[i] = None;
                        continue;
                    }
                    return Some(m);
                }
                Stage::GenerateQuiets => self.generate_quiets(pos, heuristics),
                Stage::Quiets => {
                    if self.next >= self.moves.len() {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    let m = pick(&mut self.moves, &mut self.scores, self.next);
                    self.last_score = self.scores[self.next];
                    self.next += 1;
                    if Some(m) == self.tt_move
                        || self.refutations.contains(&Some(m))
                        || !self.is_legal(pos, m)
                    {
                        continue;
                    }
                    return Some(m);
                }
                Stage::BadCaptures => {
                    if self.bad_next >= self.bad_captures.len() {
                        self.stage = Stage::Done;
                        continue;
                    }
                    self.bad_next += 1;
                    return Some(self.bad_captures[self.bad_next - 1]);
                }
                Stage::Listed => return self.next_listed(pos, |_| true),
                Stage::Done => return None,
            }
        }
    }
}

impl MovePicker {
    /// [`next`](Self::next) for a quiescence picker out of check: the next legal capture
    /// whose victim is worth at least `floor` ([`ordering_value`]). The others are
    /// passed over before their legality test: the search would prune them (delta
    /// pruning), and the test is the dearer part.
    #[inline]
    pub(crate) fn next_capture(&mut self, pos: &Position, floor: i32) -> Option<Move> {
        debug_assert!(matches!(self.stage, Stage::Listed | Stage::Done));
        self.next_listed(pos, |m| {
            let victim = pos.piece_on(m.to()).expect("a capture has a victim");
            ordering_value(victim.kind) >= floor
        })
    }

    /// The listed stage: the next legal move of the list that `keep` accepts (asked
    /// first: it is the cheaper test), or `None` (and the picker is done).
    #[inline(always)]
    fn next_listed(&mut self, pos: &Position, keep: impl Fn(Move) -> bool) -> Option<Move> {
        while self.next < self.moves.len() {
            let m = pick(&mut self.moves, &mut self.scores, self.next);
            self.next += 1;
            if keep(m) && self.is_legal(pos, m) {
                return Some(m);
            }
        }
        self.stage = Stage::Done;
        None
    }
}

/// Does the capture `m` not lose material (static exchange at least 0)? A victim worth at
/// least its capturer needs no exchange evaluation: recaptured or not, the capture holds.
#[inline]
pub(crate) fn wins_or_holds(pos: &Position, m: Move) -> bool {
    let value = |sq| {
        pos.piece_on(sq)
            .map_or(0, |p: Piece| SEE_VALUE[p.kind.index()])
    };
    value(m.to()) >= value(m.from()) || see_ge(pos, m, 0)
}

/// The move to try `i`-th: the best-scored of those from `i` on, the first of them
/// when several score the same. It is moved to `i` with the moves before it kept in
/// order, so that the moves come as a stable sort would hand them out (most nodes cut off
/// after a move or two, and pruning drops the late quiet moves: sorting whole lists was
/// wasted work), and dropping some of the rest leaves the order of the others.
#[inline]
fn pick(moves: &mut MoveList, scores: &mut [i32], i: usize) -> Move {
    // The maximum in one pass the compiler vectorizes, then where it first occurs.
    let rest = &scores[i..moves.len()];
    let max = rest.iter().copied().fold(i32::MIN, i32::max);
    let best = i + rest.iter().position(|&s| s == max).unwrap_or(0);
    if best > i {
        moves[i..=best].rotate_right(1);
        scores[i..=best].rotate_right(1);
    }
    moves[i]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use xq_movegen::legal_moves;

    fn drain(picker: &mut MovePicker, pos: &Position, h: &Heuristics) -> Vec<Move> {
        std::iter::from_fn(|| picker.next(pos, h)).collect()
    }

    #[test]
    fn the_table_move_comes_first_before_generation_and_only_once() {
        let pos = Position::startpos();
        let h = Heuristics::new();
        let tt: Move = "b0c2".parse().unwrap();
        let mut picker = MovePicker::staged(&pos, Some(tt), [None; 2], 1, &h);
        assert_eq!(picker.next(&pos, &h), Some(tt));
        assert_eq!(
            picker.generated(),
            0,
            "nothing is generated before the table move"
        );
        let rest = drain(&mut picker, &pos, &h);
        assert_eq!(rest.len(), 43);
        assert!(
            !rest.contains(&tt),
            "the table move is skipped after generation"
        );
        let all: HashSet<Move> = rest.iter().copied().chain([tt]).collect();
        assert_eq!(all, legal_moves(&pos).into_iter().collect());
    }

    #[test]
    fn an_illegal_table_move_is_never_handed_out() {
        // The cannon on e1 is pinned between the generals: e1d1 is pseudo-legal only.
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4C4/4K4 w").unwrap();
        let h = Heuristics::new();
        let bad: Move = "e1d1".parse().unwrap();
        let mut picker = MovePicker::staged(&pos, Some(bad), [None; 2], 1, &h);
        let got = drain(&mut picker, &pos, &h);
        assert!(!got.contains(&bad));
        let mut want: Vec<Move> = legal_moves(&pos).to_vec();
        let mut got_sorted = got.clone();
        want.sort();
        got_sorted.sort();
        assert_eq!(got_sorted, want);
    }

    #[test]
    fn good_captures_then_killers_then_quiets_then_bad_captures() {
        // Red's cannons can take a horse (b2b9, h2h9), but each horse is guarded by a
        // chariot: both captures lose material, and so does the chariot a5 taking the
        // soldier a6 (guarded by the chariot a9). The only winning capture: the chariot
        // e4 takes the unguarded soldier e6.
        let pos =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/R8/4R4/2P3P1P/1C5C1/9/1NBAKABN1 w")
                .unwrap();
        let mut h = Heuristics::new();
        let killer: Move = "h0g2".parse().unwrap();
        h.reward(&pos, killer, 4, 3, &[None; 2], &[], &[]);
        assert!(h.is_killer(3, killer) && !h.is_killer(2, killer));
        let mut picker = MovePicker::staged(&pos, None, [None; 2], 3, &h);
        let mut order = Vec::new();
        while let Some(m) = picker.next(&pos, &h) {
            order.push((m.to_string(), picker.stage()));
        }
        assert_eq!(order[0], ("e4e6".to_string(), Stage::GoodCaptures));
        assert_eq!(order[1], ("h0g2".to_string(), Stage::Refutations));
        assert_eq!(order[2].1, Stage::Quiets);
        let n = order.len();
        let bad: Vec<&str> = order[n - 3..].iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(
            bad,
            ["b2b9", "h2h9", "a5a6"],
            "losing captures last, best victim first"
        );
        assert!(order[n - 3..]
            .iter()
            .all(|(_, stage)| *stage == Stage::BadCaptures));
        assert_eq!(n, legal_moves(&pos).len());
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config { cases: 64, ..Default::default() })]

        /// Over random positions, with random table moves, killers and counter moves
        /// (legal or not here), the staged picker hands out every legal move exactly
        /// once, stage by stage in order.
        #[test]
        fn the_staged_picker_hands_out_every_legal_move_once(
            positions in xq_testkit::game(),
            choices in proptest::collection::vec(proptest::prelude::any::<(u16, u16)>(), 4),
        ) {
            for pos in positions.iter().filter(|p| !p.is_check()) {
                let legal = legal_moves(pos);
                let all: Vec<Move> = xq_movegen::pseudo_legal(pos, xq_movegen::Gen::All).to_vec();
                if all.is_empty() {
                    continue;
                }
                let any = |(a, b): (u16, u16)| {
                    Move::new(all[a as usize % all.len()].from(), all[b as usize % all.len()].to())
                };
                let mut h = Heuristics::new();
                let prev = Some((Piece::new(!pos.side_to_move(), PieceKind::Horse), any(choices[3])));
                let cont = [prev, None];
                h.reward(pos, any(choices[0]), 3, 2, &[None; 2], &[], &[]);
                h.reward(pos, any(choices[1]), 3, 2, &[None; 2], &[], &[]);
                // A counter move to `prev`, legal or not here.
                h.counters[PieceKind::Horse as usize + 7 * (!pos.side_to_move()).index()][any(choices[3]).to()] = Some(any(choices[2]));
                let tt = Some(any(choices[2]));
                let mut picker = MovePicker::staged(pos, tt, cont, 2, &h);
                let mut seen = HashSet::new();
                let mut last = Stage::TableMove;
                while let Some(m) = picker.next(pos, &h) {
                    proptest::prop_assert!(seen.insert(m), "{} twice in {}", m, pos);
                    proptest::prop_assert!(legal.contains(&m), "{} is not legal in {}", m, pos);
                    proptest::prop_assert!(picker.stage() >= last, "stage went back in {}", pos);
                    last = picker.stage();
                }
                proptest::prop_assert_eq!(seen.len(), legal.len(), "{}", pos);
            }
        }

        /// Dropping the quiet moves without check, before the quiet stage (`from` 0) or
        /// after its `from`-th move, leaves the moves the picker would have handed out,
        /// less the later quiet ones that give no check, in the same order.
        #[test]
        fn dropping_the_quiets_without_check_keeps_the_order(
            positions in xq_testkit::game(),
            rewards in proptest::collection::vec(proptest::prelude::any::<(u16, u8)>(), 12),
            from in 0usize..10,
        ) {
            for pos in positions.iter().filter(|p| !p.is_check()) {
                let quiets = xq_movegen::legal(pos, xq_movegen::Gen::Quiets);
                if quiets.is_empty() {
                    continue;
                }
                // Histories with ties and without: some quiet moves rewarded, some
                // punished (the ones tried before a rewarded one).
                let mut h = Heuristics::new();
                for (i, &(m, depth)) in rewards.iter().enumerate() {
                    let best = quiets[m as usize % quiets.len()];
                    let before = [quiets[(m as usize + 1) % quiets.len()]];
                    let tried: &[Move] = if i % 3 == 0 { &before } else { &[] };
                    h.reward(pos, best, (depth % 8) as i32, 60, &[None; 2], tried, &[]);
                }
                let test = CheckTest::new(pos);
                let mut full = MovePicker::staged(pos, None, [None; 2], 2, &h);
                let mut want = Vec::new();
                let mut quiet = 0;
                while let Some(m) = full.next(pos, &h) {
                    if full.stage() == Stage::Quiets {
                        quiet += 1;
                        if quiet > from && !xq_movegen::gives_check(pos, m) {
                            continue;
                        }
                    }
                    want.push(m);
                }
                let mut sifted = MovePicker::staged(pos, None, [None; 2], 2, &h);
                if from == 0 {
                    sifted.drop_quiets_without_check(pos, &test);
                }
                let mut got = Vec::new();
                let mut quiet = 0;
                while let Some(m) = sifted.next(pos, &h) {
                    got.push(m);
                    if sifted.stage() == Stage::Quiets {
                        quiet += 1;
                        if quiet == from {
                            sifted.drop_quiets_without_check(pos, &test);
                        }
                    }
                }
                proptest::prop_assert_eq!(got, want, "{}", pos);
            }
        }

        /// Quiescence's `next_capture` hands out the captures `next` does, in the same
        /// order, less those whose victim is worth less than the floor, as the floor
        /// rises from one capture to the next (alpha only rises).
        #[test]
        fn next_capture_passes_over_the_victims_below_the_floor(
            positions in xq_testkit::game(),
            floors in proptest::collection::vec(
                proptest::sample::select(vec![i32::MIN, -50, 80, 100, 120, 400, 420, 900]),
                8,
            ),
        ) {
            let h = Heuristics::new();
            for (n, pos) in positions.iter().filter(|p| !p.is_check()).enumerate() {
                let mut floors = floors.clone();
                let shift = n % floors.len();
                floors.rotate_left(shift);
                let mut rising = floors.iter().scan(i32::MIN, |f, &next| {
                    *f = (*f).max(next);
                    Some(*f)
                });
                let mut full = MovePicker::quiescence(pos, false, 0, [None; 2], &h);
                let mut want = Vec::new();
                let mut floor = rising.next().unwrap();
                let mut floors_used = vec![floor];
                while let Some(m) = full.next(pos, &h) {
                    let victim = pos.piece_on(m.to()).unwrap();
                    if ordering_value(victim.kind) >= floor {
                        want.push(m);
                        floor = rising.next().unwrap_or(floor);
                        floors_used.push(floor);
                    }
                }
                let mut picker = MovePicker::quiescence(pos, false, 0, [None; 2], &h);
                let mut got = Vec::new();
                for &floor in &floors_used {
                    match picker.next_capture(pos, floor) {
                        Some(m) => got.push(m),
                        None => break,
                    }
                }
                proptest::prop_assert_eq!(got, want, "{}", pos);
            }
        }
    }

    /// A pooled quiescence picker reset in place, whatever it did before, hands out what
    /// a new one does (in check and out of it).
    #[test]
    fn a_reset_quiescence_picker_starts_afresh() {
        let h = Heuristics::new();
        let mut pooled = MovePicker::idle();
        let mut nodes = 0;
        for fen in xq_testkit::start_fens() {
            let choices: Vec<u16> = (0..50u16).map(|i| i.wrapping_mul(2_654)).collect();
            for (n, pos) in xq_testkit::play(fen, &choices).iter().enumerate() {
                let check = pos.is_check();
                let mut fresh = MovePicker::quiescence(pos, check, 3, [None; 2], &h);
                let want = drain(&mut fresh, pos, &h);
                pooled.reset_quiescence(pos, check, 3, [None; 2], &h);
                assert_eq!(drain(&mut pooled, pos, &h), want, "{pos}");
                // Leave it part-used, as a search that cut off would (or not at all).
                pooled.reset_quiescence(pos, check, 3, [None; 2], &h);
                if n % 2 == 0 {
                    pooled.next(pos, &h);
                }
                nodes += 1;
            }
        }
        assert!(nodes > 100, "{nodes}");
    }

    #[test]
    fn quiescence_hands_out_legal_captures_only() {
        // The red cannon on e1 stands between the generals and has no screen to jump;
        // the chariot can take on a9.
        let pos = Position::from_fen("r3k4/9/9/9/9/9/9/9/4C4/R3K4 w").unwrap();
        let h = Heuristics::new();
        let mut picker = MovePicker::quiescence(&pos, false, 0, [None; 2], &h);
        let got: Vec<String> = drain(&mut picker, &pos, &h)
            .iter()
            .map(|m| m.to_string())
            .collect();
        assert_eq!(got, ["a0a9"]);
    }
}
