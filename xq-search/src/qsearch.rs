//! Quiescence search: captures (every evasion in check) until the position is quiet,
//! so that the static evaluation is asked only where nothing hangs.

use crate::limits::StopSignal;
use crate::picker::{wins_or_holds, MovePicker};
use crate::score::{is_mate, mated_in, INFINITE, MAX_PLY};
use crate::search::Searcher;
use crate::see::see_ge;
use crate::values::piece_value;
use xq_core::{Move, PieceKind};

/// Quiescence's delta pruning: the least a capture's victim must be worth
/// ([`piece_value`]) to be searched, with the side to move standing at `stand` and
/// `alpha` to reach (`margin` for what else the capture may win). Against a mate score
/// every capture is searched.
#[inline]
fn delta_floor(alpha: i32, stand: i32, margin: i32) -> i32 {
    if is_mate(alpha) {
        i32::MIN
    } else {
        alpha - stand - margin
    }
}

impl Searcher {
    /// Searches `m` from the quiescence node at `ply` and folds its value into `best`,
    /// `alpha` and the PV; returns whether the node is done (a cutoff, or the search
    /// stopped).
    #[inline]
    fn qsearch_move(
        &mut self,
        m: Move,
        ply: usize,
        best: &mut i32,
        alpha: &mut i32,
        beta: i32,
        stop: &dyn StopSignal,
    ) -> bool {
        let undo = self.push(m, ply);
        let v = -self.qsearch(-beta, -*alpha, ply + 1, false, stop);
        self.pop(m, undo);
        if self.stopped {
            return true;
        }
        if v > *best {
            *best = v;
            if v > *alpha {
                *alpha = v;
                self.update_pv(ply, m);
                return v >= beta;
            }
        }
        false
    }

    /// Quiescence's captures (every move in check), best first, as long as they may
    /// reach alpha and do not lose material.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn qsearch_captures(
        &mut self,
        best: &mut i32,
        alpha: &mut i32,
        beta: i32,
        stand: i32,
        in_check: bool,
        ply: usize,
        stop: &dyn StopSignal,
    ) {
        let cont = self.continuation(ply);
        // The ply's picker from the pool, reset in place (the borrows of the pool and of
        // the position are of different fields).
        self.stack[ply]
            .qpicker
            .reset_quiescence(&self.pos, in_check, ply, cont, &self.heuristics);
        loop {
            let picker = &mut self.stack[ply].qpicker;
            let next = if in_check {
                picker.next(&self.pos, &self.heuristics)
            } else {
                // Delta pruning: a capture whose victim, even won, cannot reach alpha is
                // not searched; the picker passes over them.
                picker.next_capture(
                    &self.pos,
                    delta_floor(*alpha, stand, self.params.delta_margin),
                )
            };
            let Some(m) = next else {
                break;
            };
            // A capture that loses material is not worth resolving.
            if !in_check && !wins_or_holds(&self.pos, m) {
                continue;
            }
            if self.qsearch_move(m, ply, best, alpha, beta, stop) {
                break;
            }
        }
    }

    /// Quiescence: captures (every move in check) until the position is quiet. At its
    /// first ply (`checks`), quiet checks that do not lose the piece are searched too:
    /// in Xiangqi a quiet check (a cannon's, a horse's) is often the start of a mate.
    pub(crate) fn qsearch(
        &mut self,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        checks: bool,
        stop: &dyn StopSignal,
    ) -> i32 {
        if let Some(v) = self.enter(ply, stop) {
            return v;
        }
        if !self.config.quiescence || ply >= MAX_PLY - 2 {
            return self.evaluate(ply);
        }
        let in_check = self.positions.in_check();
        // In check every evasion is searched: no standing pat, so no evaluation.
        let stand = if in_check {
            -INFINITE
        } else {
            let raw = self.evaluate(ply);
            self.corrected(raw, ply)
        };
        if !in_check {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        }
        let mut best = stand;
        // Delta pruning of every capture at once: not even a chariot reaches alpha (then
        // none is generated).
        let no_capture_reaches = !in_check
            && delta_floor(alpha, stand, self.params.delta_margin)
                > piece_value(PieceKind::Chariot);
        if !no_capture_reaches {
            self.qsearch_captures(&mut best, &mut alpha, beta, stand, in_check, ply, stop);
        } else {
            // The picker would have handed out nothing: no victim is worth more.
            debug_assert!(MovePicker::quiescence(
                &self.pos,
                false,
                ply,
                [None; 2],
                &self.heuristics
            )
            .next_capture(
                &self.pos,
                delta_floor(alpha, stand, self.params.delta_margin)
            )
            .is_none());
        }
        if self.stopped {
            return 0;
        }
        if checks && !in_check && best < beta {
            let mut quiet_checks = xq_movegen::MoveList::new();
            xq_movegen::pseudo_legal_into(
                &self.pos,
                xq_movegen::Gen::QuietChecks,
                &mut quiet_checks,
            );
            let filter = xq_movegen::LegalityFilter::without_pins(&self.pos);
            for m in quiet_checks {
                if !filter.is_legal(&self.pos, m) || !see_ge(&self.pos, m, 0) {
                    continue;
                }
                if self.qsearch_move(m, ply, &mut best, &mut alpha, beta, stop) {
                    break;
                }
            }
            if self.stopped {
                return 0;
            }
        }
        if best == -INFINITE {
            // In check with no legal move: mated (no move at all loses in Xiangqi).
            return mated_in(ply);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score;
    use crate::Limits;
    use xq_movegen::Game;

    #[test]
    fn quiescence_finds_a_mate_by_a_quiet_check_at_its_first_ply_only() {
        // No capture anywhere; the red chariot mates from the d file (the black general
        // may not step to e9, facing the red one).
        let game = Game::from_fen_moves("3k5/9/9/9/9/9/9/9/R8/4K4 w", &[] as &[&str]).unwrap();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let mut searcher = Searcher::new(1);
        // A search sets the searcher up on the position (and leaves it there).
        searcher.search(&game, &Limits::depth(1), &stop, |_| {});
        let with_checks = searcher.qsearch(-INFINITE, INFINITE, 0, true, &stop);
        assert_eq!(with_checks, score::mate_in(1));
        let without = searcher.qsearch(-INFINITE, INFINITE, 0, false, &stop);
        assert!(!is_mate(without), "{without}");
    }
}
