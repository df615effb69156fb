//! The iterative deepening driver at the root: one search per depth (each line of a
//! MultiPV search in turn, the lines found before left out), each with an aspiration
//! window around the last iteration's value, the result kept from the last completed
//! iteration (or what an unfinished one proved), and the decision to go one ply deeper.

use crate::correction::CorrectionKeys;
use crate::info::{Info, SearchResult};
use crate::limits::{Limits, StopSignal, MAX_DEPTH};
use crate::score::{self, is_mate, mated_in, Score, INFINITE};
use crate::search::Searcher;
use crate::stack::Pv;
use crate::time::Instant;
use crate::time::{time_budget, Budget, TimeUse};
use std::time::Duration;
use xq_core::Move;
use xq_eval::nnue::Accumulator;
use xq_eval::Eval;
use xq_movegen::legal_moves;
use xq_movegen::Game;

impl Searcher {
    /// Searches the current position of `game` within `limits` on this thread until done
    /// or `stop` becomes true, calling `report` after every completed iteration (once per
    /// line with MultiPV).
    ///
    /// `stop` may be set from another thread or from `report` itself (see the
    /// `custom_stop` example for a watcher thread). A stopped search still returns the
    /// best move and line it has; `result.pv` starts with `result.best_move`. The clock
    /// and move time of `limits` are used in full (the [engine](crate::engine) keeps a
    /// move overhead back); an infinite or ponder search ignores them.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicBool, Ordering};
    /// use xq_movegen::Game;
    /// use xq_search::{Limits, Searcher};
    /// let game = Game::startpos();
    /// let stop = AtomicBool::new(false);
    /// let mut searcher = Searcher::new(16);
    /// // No limit of its own: the report callback stops the search after depth 3.
    /// let result = searcher.search(&game, &Limits::default(), &stop, |info| {
    ///     if info.depth >= 3 {
    ///         stop.store(true, Ordering::Relaxed);
    ///     }
    /// });
    /// assert!(result.depth >= 3);
    /// assert_eq!(result.pv.first(), result.best_move.as_ref());
    /// ```
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &dyn StopSignal,
        mut report: impl FnMut(&Info),
    ) -> SearchResult {
        let budget = time_budget(limits.clock.as_ref(), limits.movetime, Duration::ZERO)
            .filter(|_| !limits.infinite && !limits.ponder);
        self.search_within(game, limits, budget, stop, 0, &mut report)
    }

    /// As [`Searcher::search`], with the time `budget` given (the engine's, which keeps
    /// its overhead back and holds none while pondering), for the main thread (`thread`
    /// 0) or a helper of a parallel search, whose iteration depths are staggered.
    pub(crate) fn search_within(
        &mut self,
        game: &Game,
        limits: &Limits,
        budget: Option<Budget>,
        stop: &dyn StopSignal,
        thread: usize,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        self.start = Instant::now();
        self.limits = limits.clone();
        self.budget = budget;
        self.nodes = 0;
        self.thread = thread;
        self.published = 0;
        self.others = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.null_min_ply = 0;
        self.pos = game.position().clone();
        self.positions.start(game);
        self.stack[0].eval = Eval::new(&self.pos);
        if let Some(net) = &self.net {
            self.stack[0].acc = Accumulator::new(net, &self.pos);
        }
        self.stack[0].corr_keys = CorrectionKeys::new(&self.pos);
        if thread == 0 {
            self.tt.new_search();
        }
        self.heuristics.age();

        let mut root: Vec<Move> = legal_moves(&self.pos)
            .into_iter()
            .filter(|m| limits.root_moves.is_empty() || limits.root_moves.contains(m))
            .filter(|m| !limits.banned_moves.contains(m))
            .collect();
        self.tablebase_root_moves(&mut root);
        let mut result = SearchResult {
            best_move: root.first().copied(),
            ponder: None,
            score: Score::Cp(0),
            value: 0,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            time: Duration::ZERO,
            pv: root.first().copied().into_iter().collect(),
            from_book: false,
        };
        if root.is_empty() {
            let v = if legal_moves(&self.pos).is_empty() {
                mated_in(0)
            } else {
                0
            };
            result.value = v;
            result.score = Score::from_value(v);
            return result;
        }
        // Put the table's move first.
        if let Some(m) = self.tt.probe(self.pos.key(), 0).and_then(|e| e.mv) {
            if let Some(i) = root.iter().position(|&r| r == m) {
                root[..=i].rotate_right(1);
            }
        }

        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let lines = self.multipv.min(root.len());
        // Each line's value in the last iteration, in search order: the centre of its
        // aspiration window in the next.
        let mut prev_values = vec![0; lines];
        let mut clock = TimeUse::default();
        let mut depth = 1;
        while depth <= max_depth {
            let d = if thread > 0 && depth > 2 {
                depth + (thread as u32 % 2)
            } else {
                depth
            };
            self.root_excluded.clear();
            let mut infos = Vec::new();
            for (line, prev_value) in prev_values.clone().into_iter().enumerate().take(lines) {
                self.seldepth = 0;
                let value = if depth == 1 && line == 0 {
                    self.finish_first_line(prev_value)
                } else {
                    self.aspiration(d as i32, prev_value, stop)
                };
                if self.stopped {
                    // An unfinished iteration (never depth 1's first line, which is always
                    // finished): keep what it proved at the root.
                    if line == 0 && !self.stack[0].pv.is_empty() && value > -INFINITE {
                        let pv: Vec<Move> = self.stack[0].pv.to_vec();
                        if value > result.value - self.params.unfinished_iteration_margin
                            || pv[0] == result.pv[0]
                        {
                            result.best_move = Some(pv[0]);
                            result.pv = pv;
                        }
                    }
                    break;
                }
                let pv: Vec<Move> = self.stack[0].pv.to_vec();
                if pv.is_empty() {
                    break;
                }
                self.root_excluded.push(pv[0]);
                self.exchange_nodes();
                let info = Info {
                    depth: d,
                    seldepth: self.seldepth as u32,
                    multipv: line + 1,
                    score: Score::from_value(value),
                    value,
                    nodes: self.total_nodes(),
                    time: self.start.elapsed(),
                    hashfull: self.tt.hashfull(),
                    pv,
                };
                prev_values[line] = value;
                if line == 0 {
                    result.follow(&info);
                }
                infos.push(info);
                if self.stopped {
                    break;
                }
            }
            if !infos.is_empty() && (!self.stopped || infos.len() == lines) {
                infos.sort_by_key(|i| std::cmp::Reverse(i.value));
                // A later line may come out better than the first (which had the whole
                // root, but a search is not exact): the best line reported first is the
                // result.
                result.follow(&infos[0]);
                for (i, info) in infos.iter_mut().enumerate() {
                    info.multipv = i + 1;
                    report(info);
                }
            }
            if self.stopped || stop.is_set() {
                break;
            }
            if let (Some(n), Score::Mate(m)) = (limits.mate, result.score) {
                if m > 0 && m as u32 <= n {
                    break;
                }
            }
            // A forced mate found by a full-width iteration will not get shorter once
            // the search is deeper than the mate.
            if is_mate(result.value)
                && depth as i32 > 2 * (score::MATE - result.value.abs()) + 4
                && limits.depth.is_none()
            {
                break;
            }
            if let Some(Budget { soft, hard }) = budget {
                let elapsed = self.start.elapsed();
                if hard == soft {
                    // A fixed time per move: use it.
                    if elapsed >= soft {
                        break;
                    }
                } else {
                    if root.len() == 1 {
                        // The only legal move: answer at once.
                        break;
                    }
                    clock.record(result.best_move, result.value, depth);
                    let target = clock.target(soft, hard);
                    // The next iteration takes about as long as all before it together:
                    // past half the target it would not finish in time.
                    if elapsed.as_secs_f64() >= target.as_secs_f64() * 0.55 {
                        break;
                    }
                }
            }
            if limits.nodes.is_some_and(|n| self.total_nodes() >= n) {
                break;
            }
            depth += 1;
        }
        self.exchange_nodes();
        result.ponder = result.pv.get(1).copied();
        result.nodes = self.total_nodes();
        result.time = self.start.elapsed();
        result
    }

    /// The first line of the first iteration (depth 1), searched whatever the limits and
    /// the stop signal say, so that the answer is a searched move: depth 1 takes a few
    /// dozen nodes. The limits apply again from the next node on, which ends the search
    /// at once if one is already reached.
    fn finish_first_line(&mut self, prev: i32) -> i32 {
        let (nodes, budget) = (self.limits.nodes.take(), self.budget.take());
        let value = self.aspiration(1, prev, &|| false);
        (self.limits.nodes, self.budget) = (nodes, budget);
        value
    }

    /// One iteration at the root with an aspiration window around `prev`.
    ///
    /// If the search is stopped while a move that failed high is being searched again
    /// with a wider window, that move and its line (in the root's stack entry) and the
    /// bound it proved are what this returns: the fail high was real, the re-search just
    /// did not finish.
    pub(crate) fn aspiration(&mut self, depth: i32, prev: i32, stop: &dyn StopSignal) -> i32 {
        let mut delta = self.params.aspiration_window;
        let (mut alpha, mut beta) =
            if self.config.aspiration && depth >= self.params.aspiration_depth && !is_mate(prev) {
                (prev - delta, prev + delta)
            } else {
                (-INFINITE, INFINITE)
            };
        let mut failed_high: Option<(i32, Pv)> = None;
        loop {
            let v = self.negamax(alpha, beta, depth, 0, stop);
            if self.stopped {
                if let Some((bound, pv)) = failed_high {
                    if v < bound || self.stack[0].pv.is_empty() {
                        self.stack[0].pv = pv;
                        return bound;
                    }
                }
                return v;
            }
            if v <= alpha && alpha > -INFINITE {
                beta = (alpha + beta) / 2;
                alpha = (v - delta).max(-INFINITE);
                failed_high = None;
            } else if v >= beta && beta < INFINITE {
                failed_high = Some((v, self.stack[0].pv.clone()));
                beta = (v + delta).min(INFINITE);
            } else {
                return v;
            }
            delta +=
                delta / self.params.aspiration_widen_divisor + self.params.aspiration_widen_add;
            if delta > self.params.aspiration_max {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }
}
