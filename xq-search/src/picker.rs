//! Move ordering: the move picker that hands a node its moves best first, by what the
//! search has learnt ([`Heuristics`], which it only reads).
//!
//! At most nodes the search cuts off after one or two moves, so the picker does as little
//! as it can up front: at a node out of check the table's move is tried before anything
//! is generated, and the other moves are tested for legality only when their turn comes.

use crate::history::{Continuation, Heuristics};
use crate::see::see_ge;
use crate::values::piece_value;
use xq_core::{Move, Piece, Position};
use xq_movegen::{pseudo_legal_into, CheckTest, Gen, LegalityFilter, MoveList, MAX_MOVES};

/// Appends the legal moves of the side to move, which is in check: the filter is built
/// knowing it (no attack test), and the generator is one copy for both pickers that
/// need it.
#[inline(never)]
fn evasions_into(pos: &Position, list: &mut MoveList) {
    LegalityFilter::with_check(pos, true).legal_into(pos, Gen::Evasions, list);
}

/// Ordering scores, one per move of a list.
type Scores = arrayvec::ArrayVec<i32, MAX_MOVES>;

/// Ordering score of the table's move.
const TT_MOVE: i32 = 1 << 30;
/// Ordering score base of a capture (plus MVV/LVA).
const CAPTURE: i32 = 1 << 24;
/// Ordering score of the first killer (the second scores one less).
const KILLER: i32 = 1 << 22;
/// A capture's ordering score is its victim's value times this (most valuable victim
/// first), less its capturer's value divided by [`ATTACKER_DIVISOR`] (least valuable
/// attacker first), plus its capture history divided by [`CAPTURE_HISTORY_DIVISOR`].
const VICTIM_WEIGHT: i32 = 16;
/// See [`VICTIM_WEIGHT`].
const ATTACKER_DIVISOR: i32 = 16;
/// See [`VICTIM_WEIGHT`].
const CAPTURE_HISTORY_DIVISOR: i32 = 8;

/// Appends to `scores` the ordering score of each move: the table's move first, then
/// captures by victim (and their history), the killers, and the quiet moves by
/// history.
fn score_moves(
    heuristics: &Heuristics,
    pos: &Position,
    moves: &[Move],
    tt_move: Option<Move>,
    ply: usize,
    cont: &Continuation,
    scores: &mut Scores,
) {
    let rows = heuristics.continuation_rows(cont);
    let killers = heuristics.killers(ply);
    scores.extend(moves.iter().map(|&m| {
        if Some(m) == tt_move {
            return TT_MOVE;
        }
        let attacker = pos
            .piece_on(m.from())
            .expect("a generated move has a piece to move");
        if let Some(victim) = pos.piece_on(m.to()) {
            CAPTURE + piece_value(victim.kind) * VICTIM_WEIGHT
                - piece_value(attacker.kind) / ATTACKER_DIVISOR
                + heuristics.capture_score(attacker, m, victim.kind) / CAPTURE_HISTORY_DIVISOR
        } else if killers[0] == Some(m) {
            KILLER
        } else if killers[1] == Some(m) {
            KILLER - 1
        } else {
            heuristics.quiet_score_in(&rows, attacker, m)
        }
    }));
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
        score_moves(
            heuristics,
            pos,
            &picker.moves,
            tt_move,
            ply,
            &cont,
            &mut picker.scores,
        );
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
        evasions_into(pos, &mut moves);
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
            evasions_into(pos, &mut self.moves);
        } else {
            self.filter = Some(LegalityFilter::without_pins(pos));
            pseudo_legal_into(pos, Gen::Captures, &mut self.moves);
        }
        score_moves(
            heuristics,
            pos,
            &self.moves,
            None,
            ply,
            &cont,
            &mut self.scores,
        );
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
        self.filter.as_ref().is_none_or(|f| f.is_legal(pos, m))
    }

    /// The captures generated and scored, the legality filter built (kept out of line:
    /// `next` is called for every move, this once a node).
    #[inline(never)]
    fn generate_captures(&mut self, pos: &Position, heuristics: &Heuristics) {
        pseudo_legal_into(pos, Gen::Captures, &mut self.moves);
        score_moves(
            heuristics,
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
        score_moves(
            heuristics,
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
                        let [first, second] = heuristics.killers(self.ply);
                        self.refutations = [first, second, self.counter];
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
    /// whose victim is worth at least `floor` ([`piece_value`]). The others are
    /// passed over before their legality test: the search would prune them (delta
    /// pruning), and the test is the dearer part.
    #[inline]
    pub(crate) fn next_capture(&mut self, pos: &Position, floor: i32) -> Option<Move> {
        debug_assert!(matches!(self.stage, Stage::Listed | Stage::Done));
        self.next_listed(pos, |m| {
            let victim = pos.piece_on(m.to()).expect("a capture has a victim");
            piece_value(victim.kind) >= floor
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
    let value = |sq| pos.piece_on(sq).map_or(0, |p: Piece| piece_value(p.kind));
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

    /// The history bonus of a cutoff at `depth`, as the search gives it.
    fn bonus(depth: i32) -> i32 {
        crate::params::SearchParams::default().history_bonus(depth)
    }

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
        h.reward(&pos, killer, bonus(4), 3, &[None; 2], &[], &[]);
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
        #![proptest_config(xq_testkit::proptest_config(64))]

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
                let prev = (Piece::new(!pos.side_to_move(), xq_core::PieceKind::Horse), any(choices[3]));
                let cont = [Some(prev), None];
                h.reward(pos, any(choices[0]), bonus(3), 2, &[None; 2], &[], &[]);
                h.reward(pos, any(choices[1]), bonus(3), 2, &[None; 2], &[], &[]);
                // A counter move to `prev`, legal or not here.
                h.set_counter(prev, any(choices[2]));
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
                    h.reward(pos, best, bonus((depth % 8) as i32), 60, &[None; 2], tried, &[]);
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
                    if piece_value(victim.kind) >= floor {
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
