//! Move ordering: the heuristics the search learns (killer moves, the history of quiet
//! moves) and the move picker that hands a node its moves best first.
//!
//! At most nodes the search cuts off after one or two moves, so the picker does as little
//! as it can up front: at a node out of check the table's move is tried before anything
//! is generated, and the other moves are tested for legality only when their turn comes.

use crate::score::MAX_PLY;
use xq_core::{Move, PieceKind, Position, SquareMap};
use xq_movegen::{
    legal_moves, pseudo_legal_captures_into, pseudo_legal_moves_into, LegalityFilter, MoveList,
    MAX_MOVES,
};

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

/// What the search has learnt about move order: two killer moves per ply (quiet moves
/// that cut off a sibling node) and a history score per piece and destination for quiet
/// moves (raised when a move cuts off, lowered for the quiet moves tried before it).
#[derive(Clone, Debug)]
pub(crate) struct Heuristics {
    killers: Box<[[Option<Move>; 2]; MAX_PLY + 2]>,
    history: Box<[SquareMap<i32>; 14]>,
}

impl Heuristics {
    pub(crate) fn new() -> Heuristics {
        Heuristics {
            killers: Box::new([[None; 2]; MAX_PLY + 2]),
            history: Box::new([SquareMap::new(0); 14]),
        }
    }

    /// Forgets everything (a new game).
    pub(crate) fn clear(&mut self) {
        *self = Heuristics::new();
    }

    /// Halves the history at the start of a search, so that recent results weigh more.
    pub(crate) fn age(&mut self) {
        for map in self.history.iter_mut() {
            for sq in xq_core::Square::ALL {
                map[sq] /= 2;
            }
        }
    }

    /// Is `m` one of the killer moves at `ply`?
    #[inline]
    pub(crate) fn is_killer(&self, ply: usize, m: Move) -> bool {
        self.killers[ply].contains(&Some(m))
    }

    /// The quiet move `m` cut off at `ply` after `tried` failed: make it a killer, raise
    /// its history and lower theirs. `pos` is the node's position (before `m`).
    pub(crate) fn reward(
        &mut self,
        pos: &Position,
        m: Move,
        depth: i32,
        ply: usize,
        tried: &[Move],
    ) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        let bonus = (depth * depth).min(400);
        let h = self.history_mut(pos, m);
        *h += bonus - *h * bonus / 16384;
        for &q in tried {
            let h = self.history_mut(pos, q);
            *h -= bonus + *h * bonus / 16384;
        }
    }

    fn history_mut(&mut self, pos: &Position, m: Move) -> &mut i32 {
        let piece = pos
            .piece_on(m.from())
            .expect("a tried move has a piece to move");
        &mut self.history[piece.index()][m.to()]
    }

    /// Fills `scores` with the ordering score of each move: the table's move first, then
    /// captures by MVV/LVA, the killers, and the other quiet moves by history.
    fn score(
        &self,
        pos: &Position,
        moves: &MoveList,
        tt_move: Option<Move>,
        ply: usize,
        scores: &mut Scores,
    ) {
        scores.clear();
        scores.extend(moves.iter().map(|&m| {
            if Some(m) == tt_move {
                return TT_MOVE;
            }
            let attacker = pos
                .piece_on(m.from())
                .expect("a generated move has a piece to move");
            if let Some(victim) = pos.piece_on(m.to()) {
                CAPTURE + ordering_value(victim.kind) * 16 - ordering_value(attacker.kind) / 16
            } else if self.killers[ply][0] == Some(m) {
                KILLER
            } else if self.killers[ply][1] == Some(m) {
                KILLER - 1
            } else {
                self.history[attacker.index()][m.to()]
            }
        }));
    }
}

/// Where a picker is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Stage {
    /// The table's move, before anything is generated.
    TableMove,
    /// Generate, score and build the legality filter.
    Generate,
    /// Hand out the generated moves, best first.
    Moves,
}

/// Hands out the moves of one node, best first, each legal move exactly once.
#[derive(Debug)]
pub(crate) struct MovePicker {
    stage: Stage,
    /// Tried first, before generation (lazy pickers only; already known legal).
    tt_move: Option<Move>,
    /// Scored first among the generated moves, and skipped when it was tried already.
    tt_hint: Option<Move>,
    ply: usize,
    in_check: bool,
    captures_only: bool,
    moves: MoveList,
    scores: Scores,
    next: usize,
    /// Tests a generated move when its turn comes; `None` when every move is legal.
    filter: Option<LegalityFilter>,
}

impl MovePicker {
    /// A picker for a node out of check that generates only when the table's move (if it
    /// is legal) did not cut off, and tests legality lazily.
    pub(crate) fn lazy(pos: &Position, tt_move: Option<Move>, ply: usize) -> MovePicker {
        MovePicker {
            stage: Stage::TableMove,
            tt_move: tt_move.filter(|&m| xq_movegen::is_legal(pos, m)),
            tt_hint: tt_move,
            ply,
            in_check: false,
            captures_only: false,
            moves: MoveList::new(),
            scores: Scores::new(),
            next: 0,
            filter: None,
        }
    }

    /// A picker over moves known to be legal (the root's, or every legal move of a node
    /// in check), ordered with `tt_move` first.
    pub(crate) fn legal(
        pos: &Position,
        moves: MoveList,
        tt_move: Option<Move>,
        ply: usize,
        heuristics: &Heuristics,
    ) -> MovePicker {
        let mut scores = Scores::new();
        heuristics.score(pos, &moves, tt_move, ply, &mut scores);
        MovePicker {
            stage: Stage::Moves,
            tt_move: None,
            tt_hint: tt_move,
            ply,
            // Not read: an eager picker never builds a legality filter.
            in_check: false,
            captures_only: false,
            moves,
            scores,
            next: 0,
            filter: None,
        }
    }

    /// A picker for every legal move of a node in check.
    pub(crate) fn evasions(
        pos: &Position,
        tt_move: Option<Move>,
        ply: usize,
        heuristics: &Heuristics,
    ) -> MovePicker {
        MovePicker::legal(pos, legal_moves(pos), tt_move, ply, heuristics)
    }

    /// A picker for quiescence: every legal move in check, else the captures (legality
    /// tested lazily, without the pin analysis: few of them are tried).
    pub(crate) fn quiescence(
        pos: &Position,
        in_check: bool,
        ply: usize,
        heuristics: &Heuristics,
    ) -> MovePicker {
        let mut moves = MoveList::new();
        let filter = if in_check {
            let filter = LegalityFilter::with_check(pos, true);
            pseudo_legal_moves_into(pos, &mut moves);
            moves.retain(|m| filter.is_legal(pos, *m));
            None
        } else {
            pseudo_legal_captures_into(pos, &mut moves);
            Some(LegalityFilter::without_pins(pos))
        };
        let mut scores = Scores::new();
        heuristics.score(pos, &moves, None, ply, &mut scores);
        MovePicker {
            stage: Stage::Moves,
            tt_move: None,
            tt_hint: None,
            ply,
            in_check,
            captures_only: !in_check,
            moves,
            scores,
            next: 0,
            filter,
        }
    }

    /// How many moves are generated so far (all of them for the eager pickers).
    pub(crate) fn generated(&self) -> usize {
        self.moves.len()
    }

    /// The next move, or `None` when every move has been handed out. `pos` must be the
    /// node's position, as it was when the picker was made.
    #[inline]
    pub(crate) fn next(&mut self, pos: &Position, heuristics: &Heuristics) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = Stage::Generate;
                    if self.tt_move.is_some() {
                        return self.tt_move;
                    }
                }
                Stage::Generate => {
                    debug_assert!(!self.captures_only);
                    pseudo_legal_moves_into(pos, &mut self.moves);
                    heuristics.score(pos, &self.moves, self.tt_hint, self.ply, &mut self.scores);
                    self.filter = Some(LegalityFilter::with_check(pos, self.in_check));
                    self.stage = Stage::Moves;
                }
                Stage::Moves => {
                    if self.next >= self.moves.len() {
                        return None;
                    }
                    let m = pick(&mut self.moves, &mut self.scores, self.next);
                    self.next += 1;
                    if Some(m) == self.tt_move
                        || self.filter.as_ref().is_some_and(|f| !f.is_legal(pos, m))
                    {
                        continue;
                    }
                    return Some(m);
                }
            }
        }
    }
}

/// The move to try `i`-th: the best-scored remaining one. The first few are found by
/// selection (most nodes cut off early); past them the rest is sorted once.
#[inline]
fn pick(moves: &mut MoveList, scores: &mut [i32], i: usize) -> Move {
    const SELECT: usize = 4;
    if i < SELECT {
        let mut best = i;
        for j in i + 1..moves.len() {
            if scores[j] > scores[best] {
                best = j;
            }
        }
        moves.swap(i, best);
        scores.swap(i, best);
    } else if i == SELECT && moves.len() > SELECT + 1 {
        let mut rest: arrayvec::ArrayVec<(i32, Move), MAX_MOVES> = scores[i..]
            .iter()
            .copied()
            .zip(moves[i..].iter().copied())
            .collect();
        // Stable, so equal scores keep generation order as selection would.
        rest.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        for (j, (s, m)) in rest.into_iter().enumerate() {
            scores[i + j] = s;
            moves[i + j] = m;
        }
    }
    moves[i]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn drain(picker: &mut MovePicker, pos: &Position, h: &Heuristics) -> Vec<Move> {
        std::iter::from_fn(|| picker.next(pos, h)).collect()
    }

    #[test]
    fn the_table_move_comes_first_before_generation_and_only_once() {
        let pos = Position::startpos();
        let h = Heuristics::new();
        let tt: Move = "b0c2".parse().unwrap();
        let mut picker = MovePicker::lazy(&pos, Some(tt), 1);
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
        let mut picker = MovePicker::lazy(&pos, Some(bad), 1);
        let got = drain(&mut picker, &pos, &h);
        assert!(!got.contains(&bad));
        let mut want: Vec<Move> = legal_moves(&pos).to_vec();
        let mut got_sorted = got.clone();
        want.sort();
        got_sorted.sort();
        assert_eq!(got_sorted, want);
    }

    #[test]
    fn captures_come_before_killers_before_quiets() {
        // Red's cannons can take a horse (b2b9, h2h9: equal, so in generation order), its
        // chariot on a5 a soldier (a5a6): the most valuable victim first, then the killer.
        let pos =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/R8/9/2P1P1P1P/1C5C1/9/1NBAKABNR w")
                .unwrap();
        let mut h = Heuristics::new();
        let killer: Move = "h0g2".parse().unwrap();
        h.reward(&pos, killer, 4, 3, &[]);
        assert!(h.is_killer(3, killer) && !h.is_killer(2, killer));
        let mut picker = MovePicker::lazy(&pos, None, 3);
        let order: Vec<String> = drain(&mut picker, &pos, &h)
            .iter()
            .map(|m| m.to_string())
            .collect();
        assert_eq!(order[..4], ["b2b9", "h2h9", "a5a6", "h0g2"]);
        assert_eq!(order.len(), legal_moves(&pos).len());
    }

    #[test]
    fn quiescence_hands_out_legal_captures_only() {
        // The red cannon on e1 stands between the generals and has no screen to jump;
        // the chariot can take on a9.
        let pos = Position::from_fen("r3k4/9/9/9/9/9/9/9/4C4/R3K4 w").unwrap();
        let h = Heuristics::new();
        let mut picker = MovePicker::quiescence(&pos, false, 0, &h);
        let got: Vec<String> = drain(&mut picker, &pos, &h)
            .iter()
            .map(|m| m.to_string())
            .collect();
        assert_eq!(got, ["a0a9"]);
    }
}
