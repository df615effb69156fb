//! The search: principal variation search (negamax over a zero window for every move
//! after the first) with the table, the selectivity and the extensions, and the
//! searcher's state along the current path (making and unmaking moves, the evaluation).

use crate::correction::CorrectionHistory;
use crate::history::{Continuation, Heuristics};
use crate::limits::{Limits, SearchConfig, StopSignal};
use crate::params::SearchParams;
use crate::picker::{MovePicker, Stage};
use crate::repetition::PositionHistory;
use crate::score::{self, is_mate, mate_in, mated_in, INFINITE, MAX_PLY};
use crate::see::see_ge;
use crate::stack::{Pending, StackEntry, STACK_SIZE};
use crate::time::Budget;
use crate::time::Instant;
use crate::tt::{Bound, TranspositionTable};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use xq_core::{Color, Move, Piece, PieceKind, Position};
use xq_eval::nnue::{MoveChange, Network};
use xq_eval::Eval;
use xq_movegen::legal_moves;
use xq_movegen::rules::NO_CAPTURE_DRAW_PLIES;
use xq_tablebase::{TableValue, Tablebases, WdlValue};

/// A lead (in centipawns, for the side to move) beyond which no move near the leaves is
/// pruned as hopeless (quiet moves, losing captures): that far ahead the static
/// evaluation no longer tells the moves apart, but a mate still does.
const DECISIVE: i32 = 2000;

/// How many chariots, horses and cannons `color` has: null-move pruning is unsafe
/// without one (zugzwang), and needs checking with only one.
fn major_pieces(pos: &Position, color: Color) -> usize {
    [PieceKind::Horse, PieceKind::Chariot, PieceKind::Cannon]
        .iter()
        .map(|&kind| pos.squares_of(Piece::new(color, kind)).count())
        .sum()
}

/// A search thread's state: the shared table, its own ordering tables and counters.
///
/// ```
/// use xq_movegen::Game;
/// use xq_search::{Limits, Searcher, Score};
/// use std::sync::atomic::AtomicBool;
/// // Red mates at once: the chariot goes to e9, guarded by its own general along the
/// // open file, and the other chariot holds rank 8.
/// let game = Game::from_fen_moves("3k5/R8/9/9/9/9/9/9/4R4/4K4 w", &[] as &[&str]).unwrap();
/// let mut searcher = Searcher::new(16);
/// let result = searcher.search(&game, &Limits::depth(3), &AtomicBool::new(false), |_| {});
/// assert_eq!(result.score, Score::Mate(1));
/// assert_eq!(result.best_move.unwrap().to_string(), "e1e9");
/// ```
#[derive(Debug)]
pub struct Searcher {
    /// The transposition table, shared with the other threads of a parallel search.
    pub(crate) tt: Arc<TranspositionTable>,
    /// The selective-search switches.
    pub(crate) config: SearchConfig,
    /// The margins, depth limits and reductions.
    pub(crate) params: SearchParams,
    /// How many root moves to report, each with its line.
    pub(crate) multipv: usize,
    // Per-search state.
    /// The position of the current node.
    pub(crate) pos: Position,
    /// The positions since the last capture before the root, for the rules.
    pub(crate) positions: PositionHistory,
    /// The search stack: one entry a ply of the current path.
    pub(crate) stack: Box<[StackEntry]>,
    /// The correction history, kept from search to search until a new game.
    pub(crate) correction: CorrectionHistory,
    /// Killers, counter moves and histories, kept from search to search (aged) until a
    /// new game.
    pub(crate) heuristics: Heuristics,
    /// Nodes searched so far (in the tree and in quiescence).
    pub(crate) nodes: u64,
    /// Which thread of a parallel search this is (0: the main thread, which reports).
    pub(crate) thread: usize,
    /// The nodes the helper threads of a parallel search have searched so far, shared by
    /// its threads: each helper adds its own every 1,024 nodes and when it ends.
    pub(crate) helper_nodes: Arc<AtomicU64>,
    /// A helper's nodes already added to `helper_nodes`.
    pub(crate) published: u64,
    /// The main thread's last reading of `helper_nodes` (taken every 1,024 nodes; 0
    /// with one thread, so a node limit is exact then).
    pub(crate) others: u64,
    /// The deepest ply reached in the current iteration.
    pub(crate) seldepth: usize,
    /// No null move before this ply (inside a null move's verification search).
    pub(crate) null_min_ply: usize,
    /// Set once a limit or the stop flag ends the search: every node returns at once.
    pub(crate) stopped: bool,
    /// When the search began.
    pub(crate) start: Instant,
    /// The search's limits.
    pub(crate) limits: Limits,
    /// The time this search may take (none: no time limit).
    pub(crate) budget: Option<Budget>,
    /// The root moves of the lines already found in this iteration (MultiPV): the next
    /// line's search leaves them out.
    pub(crate) root_excluded: Vec<Move>,
    /// The late move reductions by depth and move index, from `params`.
    pub(crate) lmr: Box<[[u8; 64]; 64]>,
    /// Static evaluations by key, see [`Searcher::evaluate`].
    pub(crate) eval_cache: Box<[(u64, i32)]>,
    /// The network the search evaluates with (`None`: the classical evaluation).
    pub(crate) net: Option<Arc<Network>>,
    /// Endgame tables consulted inside the search and at the root (`None`: none).
    pub(crate) tablebases: Option<Arc<Tablebases>>,
    /// The root moves the tables allow (empty: every move), set at each search's start.
    pub(crate) tablebase_root: Vec<Move>,
}

/// Entries of the evaluation cache (256 KiB, small enough for a CPU's L2 cache): about a
/// third of the evaluations in `xq bench` are found there (positions the search reaches
/// again, in the next iteration or by another move order).
const EVAL_CACHE_ENTRIES: usize = 1 << 14;

impl Searcher {
    /// A searcher with its own table of `hash_mib` MiB.
    ///
    /// # Panics
    /// If the table's memory cannot be allocated ([`Searcher::try_new`] says so instead).
    pub fn new(hash_mib: usize) -> Searcher {
        Searcher::with_table(Arc::new(TranspositionTable::new(hash_mib)))
    }

    /// A searcher with its own table of `hash_mib` MiB, or the error when the system
    /// refuses the table's memory.
    ///
    /// # Errors
    /// The table cannot be allocated.
    ///
    /// ```
    /// use xq_search::Searcher;
    /// assert_eq!(Searcher::try_new(2).unwrap().table().size_mib(), 2);
    /// assert!(Searcher::try_new(1 << 40).is_err());
    /// ```
    pub fn try_new(hash_mib: usize) -> Result<Searcher, crate::tt::TableError> {
        let tt = TranspositionTable::try_new(hash_mib)?;
        Ok(Searcher::with_table(Arc::new(tt)))
    }

    /// A searcher sharing `tt` (for parallel search).
    pub fn with_table(tt: Arc<TranspositionTable>) -> Searcher {
        let params = SearchParams::default();
        Searcher {
            tt,
            config: SearchConfig::default(),
            lmr: params.lmr_table(),
            params,
            multipv: 1,
            pos: Position::startpos(),
            positions: PositionHistory::new(),
            stack: (0..STACK_SIZE).map(|_| StackEntry::new()).collect(),
            correction: CorrectionHistory::new(),
            heuristics: Heuristics::new(),
            nodes: 0,
            thread: 0,
            helper_nodes: Arc::new(AtomicU64::new(0)),
            published: 0,
            others: 0,
            seldepth: 0,
            null_min_ply: 0,
            stopped: false,
            start: Instant::now(),
            limits: Limits::default(),
            budget: None,
            root_excluded: Vec::new(),
            eval_cache: vec![(0, 0); EVAL_CACHE_ENTRIES].into_boxed_slice(),
            net: xq_eval::nnue::default_network(),
            tablebases: None,
            tablebase_root: Vec::new(),
        }
    }

    /// The shared transposition table.
    pub fn table(&self) -> &Arc<TranspositionTable> {
        &self.tt
    }

    /// Replaces the transposition table (a new size).
    pub fn set_table(&mut self, tt: Arc<TranspositionTable>) {
        self.tt = tt;
    }

    /// Evaluates with `net` (a neural network), or with the classical evaluation
    /// (`None`). A new searcher evaluates with [`xq_eval::nnue::default_network`]. The
    /// transposition table keeps static evaluations: clear it (a new game) when the
    /// evaluation changes.
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        self.net = net;
        self.eval_cache.iter_mut().for_each(|e| *e = (0, 0));
    }

    /// Consults the endgame tables `tb` (or none): after a capture into an ending the
    /// tables hold, the search takes the table's result instead of searching on (a win
    /// scores just below the mate scores, [`score::TB_WIN`] less the ply; a draw 0), and
    /// at the root it plays only the moves that keep the best table value: the fastest
    /// mate, or the longest defence. Tables never change a search outside their endings:
    /// without them the search is the same node for node.
    ///
    /// A table win whose distance to mate does not fit in what the 60-move rule leaves
    /// (120 plies without a capture) may be a draw by the rule: inside the search it
    /// scores 1 (a loss -1), better than a draw but not a win. At the root the fastest
    /// mate is always the best try for a win within the rule. A win by the rules of
    /// perpetual check and chase (tables where both sides attack) scores
    /// [`score::TB_RULE_WIN`] less the ply, below every table mate.
    pub fn set_tablebases(&mut self, tb: Option<Arc<Tablebases>>) {
        self.tablebases = tb;
    }

    /// The endgame tables the search consults, if any.
    pub fn tablebases(&self) -> Option<&Arc<Tablebases>> {
        self.tablebases.as_ref()
    }

    /// The tables' value of the node at `ply` when it was just reached by a capture (at
    /// other nodes the root, or the capture that led into the ending, has probed
    /// already) and its material is in the tables.
    #[inline]
    fn tablebase_value(&self, ply: usize) -> Option<i32> {
        let tb = self.tablebases.as_ref()?;
        if self.pos.halfmove_clock() != 0 {
            return None;
        }
        let pieces = self.pos.pieces(Color::Red).count() + self.pos.pieces(Color::Black).count();
        if pieces > tb.max_pieces() {
            return None;
        }
        // A damaged file answers nothing rather than something wrong. The WDL file, kept
        // in memory, answers when there is one; a mate counts when it comes within the
        // 120-ply rule (the clock stands at 0 here).
        let value = tb.probe_wdl_value(&self.pos).ok().flatten()?;
        let win = score::TB_WIN - ply as i32;
        Some(match value {
            WdlValue::Win => win,
            WdlValue::Loss => -win,
            WdlValue::LongWin => 1,
            WdlValue::LongLoss => -1,
            // A win by the rules of perpetual check and chase: below every table mate, far
            // above any evaluation; the search's own repetition rulings carry it out.
            WdlValue::RuleWin { .. } => score::TB_RULE_WIN - ply as i32,
            WdlValue::RuleLoss { .. } => -(score::TB_RULE_WIN - ply as i32),
            WdlValue::Draw => 0,
        })
    }

    /// Keeps, of the root moves, those the tables rank best (when the root is in the
    /// tables): every drawing move of a draw, the fastest mates of a win, the longest
    /// defences of a loss. Nothing changes when the tables cannot say.
    ///
    /// The tables value a position without its history. So of the drawing moves of a
    /// draw, those that bring back a position the game has had since its last capture
    /// are dropped when another draws: a line the tables hold as a draw may, with the
    /// game's earlier visits, complete a repetition the rules rule against the side
    /// that keeps checking or chasing.
    pub(crate) fn tablebase_root_moves(&mut self, root: &mut Vec<Move>) {
        self.tablebase_root.clear();
        let Some(tb) = &self.tablebases else {
            return;
        };
        let Ok(Some(values)) = tb.root_moves(&self.pos) else {
            return;
        };
        let rank = |m: &Move| {
            values
                .iter()
                .find(|(mv, _)| mv == m)
                .map(|(_, value)| value.rank())
        };
        let Some(best) = root.iter().filter_map(rank).max() else {
            return;
        };
        root.retain(|m| rank(m) == Some(best));
        if best == TableValue::Draw.rank() {
            let fresh: Vec<Move> = root
                .iter()
                .copied()
                .filter(|&m| {
                    let undo = self.pos.make_move(m);
                    let seen = self.positions.occurred_before_root(self.pos.key());
                    self.pos.unmake_move(m, undo);
                    !seen
                })
                .collect();
            if !fresh.is_empty() {
                *root = fresh;
            }
        }
        self.tablebase_root.clone_from(root);
    }

    /// Sets the selective-search switches.
    pub fn set_config(&mut self, config: SearchConfig) {
        self.config = config;
    }

    /// Sets the margins, depth limits and reductions (a tuner's way in: see
    /// [`SearchParams::set`]).
    pub fn set_params(&mut self, params: SearchParams) {
        self.lmr = params.lmr_table();
        self.params = params;
    }

    /// Reports the best `n` root moves, each with its own score and line.
    pub fn set_multipv(&mut self, n: usize) {
        self.multipv = n.max(1);
    }

    /// Forgets what earlier searches learnt (history, killers and the correction history;
    /// the table is cleared by its owner, e.g. with `Arc::get_mut`). Call at a new game.
    pub fn new_game(&mut self) {
        self.heuristics.clear();
        self.correction.clear();
        if let Some(tt) = Arc::get_mut(&mut self.tt) {
            tt.clear();
        }
    }

    /// Stops the search when a limit is reached or `stop` is set (the flag and the clock
    /// are read every 1,024 nodes: reading them costs more than a node's other work; the
    /// threads' node counts are exchanged then too).
    #[inline]
    pub(crate) fn check_stop(&mut self, stop: &dyn StopSignal) {
        if self.nodes & 1023 == 0 {
            if stop.is_set() {
                self.stopped = true;
            }
            if let Some(budget) = self.budget {
                if self.start.elapsed() >= budget.hard {
                    self.stopped = true;
                }
            }
            self.exchange_nodes();
        }
        if self.limits.nodes.is_some_and(|n| self.total_nodes() >= n) {
            self.stopped = true;
        }
    }

    /// A helper adds its new nodes to the shared count; the main thread reads it.
    pub(crate) fn exchange_nodes(&mut self) {
        if self.thread == 0 {
            self.others = self.helper_nodes.load(Ordering::Relaxed);
        } else if self.nodes > self.published {
            self.helper_nodes
                .fetch_add(self.nodes - self.published, Ordering::Relaxed);
            self.published = self.nodes;
        }
    }

    /// The nodes of the whole search as this thread last knew them (the main thread's
    /// own and, in a parallel search, the helpers' at the last exchange).
    #[inline(always)]
    pub(crate) fn total_nodes(&self) -> u64 {
        self.nodes + self.others
    }

    /// The static evaluation of the node at `ply`, from the side to move's point of view:
    /// the incremental part kept in `evals` and the per-node terms.
    ///
    /// The evaluation depends on the position and its no-capture clock alone (the
    /// endgame rules fade the score once the clock passes
    /// [`FADE_START`](xq_eval::endgame::FADE_START)), so it is cached under the key mixed
    /// with the clock from there on; the whole key is kept, so that a hit is the same
    /// position.
    /// Searches are unchanged by the cache: `xq bench` counts the same nodes with it.
    #[inline]
    pub(crate) fn evaluate(&mut self, ply: usize) -> i32 {
        const CLOCK_MIX: u64 = 0x9e37_79b9_7f4a_7c15;
        // The evaluation reads the clock only once the score starts to fade: below that
        // every clock shares an entry.
        let clock = self.pos.halfmove_clock().max(xq_eval::endgame::FADE_START);
        let key = self.pos.key() ^ (clock as u64).wrapping_mul(CLOCK_MIX);
        let index = key as usize % EVAL_CACHE_ENTRIES;
        if self.eval_cache[index].0 == key {
            return self.eval_cache[index].1;
        }
        self.compute_accumulators(ply);
        if let Some(net) = &self.net {
            debug_assert!(
                self.stack[ply].acc == xq_eval::nnue::Accumulator::new(net, &self.pos),
                "the accumulators computed late at ply {ply} of {}",
                self.pos
            );
        }
        let value = match &self.net {
            Some(net) => net.evaluate(&self.pos, &self.stack[ply].acc),
            None => xq_eval::evaluate_full(&self.pos, &self.stack[ply].eval),
        };
        self.eval_cache[index] = (key, value);
        value
    }

    /// Computes the accumulators of the node at `ply` (when the search evaluates with a
    /// network): from the nearest entry below whose are computed (the root's always
    /// are), each entry's from its parent's by its pending change. The search does not
    /// change with this: only when the accumulators are computed.
    #[inline]
    pub(crate) fn compute_accumulators(&mut self, ply: usize) {
        let Some(net) = &self.net else {
            return;
        };
        let mut first = ply;
        while first > 0 && !matches!(self.stack[first].pending, Pending::Ready) {
            first -= 1;
        }
        for p in first + 1..=ply {
            let (below, above) = self.stack.split_at_mut(p);
            let (parent, node) = (&below[p - 1], &mut above[0]);
            match node.pending {
                Pending::Move(change) => node.acc.apply(&parent.acc, net, &change),
                Pending::Null => node.acc.copy_from(&parent.acc, net),
                Pending::Ready => {}
            }
            node.pending = Pending::Ready;
        }
    }

    /// The static evaluation `raw` of the node at `ply` shifted by the correction
    /// history, short of the mate scores.
    #[inline]
    pub(crate) fn corrected(&self, raw: i32, ply: usize) -> i32 {
        if !self.config.correction {
            return raw;
        }
        let us = self.pos.side_to_move();
        (raw + self
            .correction
            .value(us, &self.stack[ply].corr_keys, &self.params))
        .clamp(-score::MATE_BOUND + 1, score::MATE_BOUND - 1)
    }

    /// The moves that led to the node at `ply`, for the continuation histories.
    #[inline]
    pub(crate) fn continuation(&self, ply: usize) -> Continuation {
        [
            ply.checked_sub(1).and_then(|p| self.stack[p].current_move),
            ply.checked_sub(2).and_then(|p| self.stack[p].current_move),
        ]
    }

    /// Makes `m` at `ply`: the child's incremental evaluation and correction keys go to
    /// its stack entry, its key and check flag to the position history.
    #[inline]
    pub(crate) fn push(&mut self, m: Move, ply: usize) -> xq_core::Undo {
        let moved = self
            .pos
            .piece_on(m.from())
            .expect("a move has a piece to move");
        let victim = self.pos.piece_on(m.to());
        // The child's accumulators wait until something reads them, unless a general
        // changes its bucket (that needs the whole position: computed now).
        let pending = match &self.net {
            Some(net) => match MoveChange::new(net, &self.pos, m) {
                Some(change) => Pending::Move(change),
                None => {
                    self.compute_accumulators(ply);
                    let (node, child) = self.stack[ply..].split_at_mut(1);
                    let net = self.net.as_ref().expect("a network");
                    child[0].acc.set_after(&node[0].acc, net, &self.pos, m);
                    Pending::Ready
                }
            },
            None => Pending::Ready,
        };
        let (node, child) = self.stack[ply..].split_at_mut(1);
        let (node, child) = (&mut node[0], &mut child[0]);
        node.current_move = Some((moved, m));
        child.eval = node.eval.after(&self.pos, m);
        child.pending = pending;
        child.corr_keys = node.corr_keys.after(moved, victim, m);
        let undo = self.pos.make_move(m);
        debug_assert_eq!(
            self.stack[ply + 1].eval,
            Eval::new(&self.pos),
            "incremental eval after {m}"
        );
        let check = xq_movegen::in_check_after(&self.pos, m);
        debug_assert_eq!(check, self.pos.is_check());
        self.positions.push(self.pos.key(), check, m);
        undo
    }

    /// Takes back `m`, made by [`push`](Searcher::push) with `undo`.
    #[inline]
    pub(crate) fn pop(&mut self, m: Move, undo: xq_core::Undo) {
        self.pos.unmake_move(m, undo);
        self.positions.pop();
    }

    /// The PV of the node at `ply` becomes `m` followed by its child's.
    pub(crate) fn update_pv(&mut self, ply: usize, m: Move) {
        let (node, child) = self.stack[ply..].split_at_mut(1);
        let pv = &mut node[0].pv;
        pv.clear();
        pv.push(m);
        pv.try_extend_from_slice(&child[0].pv).ok();
    }

    /// What every node, of the main search or of quiescence, does first: its line is
    /// cleared, the rules are asked (check evasions can repeat a position too), the node
    /// is counted and the stop is checked. `Some(value)` when that decides the node (a
    /// rule, or the search stopped: then 0, which nothing reads).
    #[inline(always)]
    pub(crate) fn enter(&mut self, ply: usize, stop: &dyn StopSignal) -> Option<i32> {
        self.stack[ply].pv.clear();
        if ply > 0 {
            if let Some(v) = self.positions.rule_value(&self.pos, ply) {
                return Some(v);
            }
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        self.check_stop(stop);
        self.stopped.then_some(0)
    }

    /// The value of the node at `ply` searched to `depth` within (`alpha`, `beta`): the
    /// value itself inside the window, a bound at or outside it (fail-soft). Below depth
    /// 1 it is quiescence's.
    pub(crate) fn negamax(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        stop: &dyn StopSignal,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, true, stop);
        }
        if let Some(v) = self.enter(ply, stop) {
            return v;
        }
        let root = ply == 0;
        let pv_node = beta - alpha > 1;
        let in_check = self.positions.in_check();

        if !root {
            if self.config.mate_distance {
                alpha = alpha.max(mated_in(ply));
                beta = beta.min(mate_in(ply + 1));
                if alpha >= beta {
                    return alpha;
                }
            }
            if ply >= MAX_PLY - 2 {
                return self.evaluate(ply);
            }
        }

        let key = self.pos.key();
        // Inside a singular-extension search: one move left out, so neither a table
        // cutoff nor a store (the result is not the position's value).
        let excluded = self.stack[ply].excluded;
        let entry = self.tt.probe(key, ply).map(|mut e| {
            // A mate further away than the 60-move rule allows may be a draw by then:
            // not a mate score to cut off with.
            let distance = score::MATE - e.score.abs() - ply as i32;
            if is_mate(e.score)
                && distance + self.pos.halfmove_clock() as i32 > NO_CAPTURE_DRAW_PLIES as i32
            {
                e.score = e.score.signum() * (score::MATE_BOUND - 1);
            }
            e
        });
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry {
            // Near the 60-move rule a stored value may no longer hold: the rule can turn it
            // into a draw a few plies on.
            if self.config.tt_cutoffs
                && !pv_node
                && excluded.is_none()
                && e.depth >= depth
                && (self.pos.halfmove_clock() as i32)
                    < NO_CAPTURE_DRAW_PLIES as i32 - self.params.tt_rule_margin
            {
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.score >= beta,
                    Bound::Upper => e.score <= alpha,
                    Bound::None => false,
                };
                if cut {
                    return e.score;
                }
            }
        }

        // Endgame tables: the exact result of the ending a capture just led into.
        if !root && excluded.is_none() {
            if let Some(v) = self.tablebase_value(ply) {
                self.tt.store(key, None, v, 0, depth + 6, Bound::Exact, ply);
                return v;
            }
        }

        // Internal iterative reduction: with no move from the table, this node was not
        // searched before; search it shallower (the next iteration will have a move).
        let depth =
            if self.config.iir && depth >= self.params.iir_depth && tt_move.is_none() && !root {
                depth - 1
            } else {
                depth
            };

        // The table keeps the static evaluation: no need to compute it again. It keeps
        // it uncorrected: the correction history goes on learning. In check nothing reads
        // it (no pruning, no correction, and the position is in check whenever the
        // table gives it back), so it is neither computed nor corrected.
        let (raw_eval, static_eval) = if in_check {
            (0, 0)
        } else {
            let raw = entry.map_or_else(|| self.evaluate(ply), |e| e.eval);
            (raw, self.corrected(raw, ply))
        };
        let us = self.pos.side_to_move();
        self.stack[ply].static_eval = (!in_check).then_some(static_eval);
        // Better than two plies before (or than four, when in check then)?
        let improving = !in_check
            && match (ply >= 2)
                .then(|| self.stack[ply - 2].static_eval)
                .flatten()
            {
                Some(before) => static_eval > before,
                None => (ply >= 4)
                    .then(|| self.stack[ply - 4].static_eval)
                    .flatten()
                    .is_none_or(|before| static_eval > before),
            };
        if !pv_node && !in_check && !root && excluded.is_none() {
            // Reverse futility: far above beta near the leaves, a quiet move will not
            // bring the score back down. Not for a side with no chariot, horse or cannon:
            // in a won ending the search's values run far above the static evaluation,
            // and such a side, trusting its own, would cut off the quiet moves of a mate
            // against it (docs/search-experiments.md). The pieces are counted last, only
            // at a node that would otherwise be pruned.
            if self.config.futility
                && depth <= self.params.rfp_depth
                && !is_mate(beta)
                && static_eval - self.params.rfp_margin(depth, improving) >= beta
                && major_pieces(&self.pos, us) as i32 >= self.params.rfp_min_majors
            {
                return static_eval;
            }
            // Razoring: hopelessly below alpha near the leaves, only a capture sequence
            // could help; if quiescence cannot lift the score, believe it. Not once alpha
            // is decisive: in a won ending the search's values run far above the static
            // evaluation, and a quiet mate would be cut off with the rest, as quiet
            // pruning would (below).
            if self.config.futility
                && depth <= self.params.razor_depth
                && alpha < DECISIVE
                && !is_mate(alpha)
                && static_eval + self.params.razor_margin(depth) < alpha
            {
                let v = self.qsearch(alpha, alpha + 1, ply, true, stop);
                if v <= alpha {
                    return v;
                }
            }
            // Null move: if passing still beats beta, a real move surely does. Never two
            // passes in a row (that would search the same position again, shallower),
            // nor inside the verification search below.
            let majors = major_pieces(&self.pos, us);
            if self.config.null_move
                && !self.positions.after_null()
                && ply >= self.null_min_ply
                && depth >= self.params.nmp_depth
                && static_eval >= beta
                && !is_mate(beta)
                && majors > 0
            {
                // Deeper when far above beta.
                let r = self.params.nmp_reduction(depth, static_eval - beta);
                self.stack[ply + 1].eval = self.stack[ply].eval;
                self.stack[ply + 1].corr_keys = self.stack[ply].corr_keys;
                self.stack[ply + 1].pending = Pending::Null;
                let undo = self.pos.make_null();
                let null_before = self.positions.push_null(self.pos.key());
                self.stack[ply].current_move = None;
                let v = -self.negamax(-beta, -beta + 1, depth - 1 - r, ply + 1, stop);
                self.positions.pop_null(null_before);
                self.pos.unmake_null(undo);
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    let v = if is_mate(v) { beta } else { v };
                    // With little material zugzwang is real (a lone piece may have to
                    // give way): verify with a reduced search of the real moves, with no
                    // null move until past the reduced depth.
                    if majors as i32 >= self.params.nmp_trusted_majors
                        && depth < self.params.nmp_verify_depth
                    {
                        return v;
                    }
                    let min_ply = self.null_min_ply;
                    self.null_min_ply = ply + (3 * (depth - r) / 4) as usize;
                    let verified = self.negamax(beta - 1, beta, depth - r, ply, stop);
                    self.null_min_ply = min_ply;
                    if self.stopped {
                        return 0;
                    }
                    if verified >= beta {
                        return v;
                    }
                }
            }
        }

        // Outside the root and check, the picker tries the table's move before it
        // generates anything, and tests the others for legality only when their turn
        // comes: most nodes cut off after one or two moves.
        let cont = self.continuation(ply);
        let mut picker = if root {
            let mut moves = legal_moves(&self.pos);
            let limits = &self.limits;
            let root_excluded = &self.root_excluded;
            let tablebase_root = &self.tablebase_root;
            moves.retain(|m| {
                (limits.root_moves.is_empty() || limits.root_moves.contains(m))
                    && !limits.banned_moves.contains(m)
                    && !root_excluded.contains(m)
                    && (tablebase_root.is_empty() || tablebase_root.contains(m))
            });
            if moves.is_empty() {
                return -INFINITE;
            }
            MovePicker::legal(&self.pos, moves, tt_move, ply, cont, &self.heuristics)
        } else if in_check {
            let picker = MovePicker::evasions(&self.pos, tt_move, ply, cont, &self.heuristics);
            if picker.generated() == 0 {
                // No legal move loses, in check or not.
                return mated_in(ply);
            }
            picker
        } else {
            MovePicker::staged(
                &self.pos,
                tt_move.filter(|_| excluded.is_none()),
                cont,
                ply,
                &self.heuristics,
            )
        };
        let mut ext = 0;
        if self.config.extensions
            && (in_check || (root && picker.generated() == 1))
            && (ply as i32) < self.params.extension_max_ply
        {
            ext = 1;
        }

        let alpha0 = alpha;
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut best_is_capture = false;
        let mut quiets_tried: arrayvec::ArrayVec<Move, 64> = arrayvec::ArrayVec::new();
        // Built when the first pruned move needs its check test: the node's position is
        // the same again after every move.
        let mut check_test: Option<xq_movegen::CheckTest> = None;
        let mut captures_tried: arrayvec::ArrayVec<Move, 32> = arrayvec::ArrayVec::new();

        let mut legal = 0;
        while let Some(m) = picker.next(&self.pos, &self.heuristics) {
            if Some(m) == excluded {
                continue;
            }
            let i = legal;
            legal += 1;
            let capture = !self.pos.is_empty(m.to());
            // The history of a quiet move: how well it did here before (and after the
            // moves that led here).
            let history = if capture {
                0
            } else {
                picker.quiet_history().unwrap_or_else(|| {
                    let piece = self.pos.piece_on(m.from()).expect("a move has a piece");
                    self.heuristics.quiet_score(piece, m, &cont)
                })
            };
            // Near the leaves, once a move has been found that does not lose, a move is
            // pruned when it is hopeless and gives no check (a quiet check is often the
            // only move): a quiet move late in the list, unable to lift the static
            // evaluation to alpha, or putting its piece where it is simply lost; a
            // capture that loses more than a margin growing with the depth (by static
            // exchange). Not once the side to move is already winning by more than
            // `DECISIVE`: there the static evaluation no longer tells the moves apart,
            // and the move it would prune may be a mate (the defender's escape
            // from a mate in two is found only if the mate is; `escapes_two_move_mates`).
            if self.config.quiet_pruning
                && !root
                && !in_check
                && best > -score::MATE_BOUND
                && depth <= self.params.prune_depth
                && alpha < DECISIVE
            {
                let hopeless = if capture {
                    depth <= self.params.see_capture_depth
                        && picker.stage() == Stage::BadCaptures
                        && !see_ge(&self.pos, m, -self.params.see_capture_margin * depth)
                } else {
                    let tried = quiets_tried.len();
                    let lmr_depth =
                        (depth - 1 - self.lmr[depth.min(63) as usize][tried.min(63)] as i32).max(0);
                    let late = tried >= self.params.lmp_limit(depth, improving);
                    // Not against a mate score: a quiet move may still mate sooner.
                    let futile = lmr_depth <= self.params.futility_depth
                        && !is_mate(alpha)
                        && static_eval + self.params.futility_margin(lmr_depth) <= alpha;
                    // Either prunes every later quiet move that gives no check, once it
                    // holds: late move pruning since `tried` only grows; futility
                    // pruning since `lmr_depth` only shrinks with it, if alpha cannot
                    // change (a zero window: any better move cuts off). Late move
                    // pruning too needs alpha to stay below `DECISIVE`, which holds in
                    // a zero window or below a beta of at most `DECISIVE`: at a PV
                    // node a quiet check may raise alpha past it, and from then on
                    // no move is pruned here. So the picker need not hand those
                    // out. Each would have counted in `legal`, which past the first
                    // move only the reductions read, and the moves still searched
                    // (quiet checks, losing captures) are never reduced: the same
                    // tree.
                    let alpha_stays = beta - alpha == 1;
                    if self.config.drop_pruned_quiets
                        && ((late && (alpha_stays || beta <= DECISIVE)) || (futile && alpha_stays))
                    {
                        let test =
                            check_test.get_or_insert_with(|| xq_movegen::CheckTest::new(&self.pos));
                        picker.drop_quiets_without_check(&self.pos, test);
                    }
                    late || futile
                        || !see_ge(
                            &self.pos,
                            m,
                            -self.params.see_quiet_margin * lmr_depth * lmr_depth,
                        )
                };
                if hopeless
                    && !check_test
                        .get_or_insert_with(|| xq_movegen::CheckTest::new(&self.pos))
                        .gives_check(&self.pos, m)
                {
                    continue;
                }
            }
            // Singular extension: if every other move falls well short of the table's
            // value for the table's move, that move is singular: search it deeper. If
            // even without it the node beats beta, cut off at once (multi-cut).
            let mut move_ext = ext;
            if let Some(e) = entry.filter(|e| {
                self.config.extensions
                    && !root
                    && excluded.is_none()
                    && ext == 0
                    && depth >= self.params.singular_depth
                    && Some(m) == tt_move
                    && e.depth >= depth - self.params.singular_tt_depth
                    && matches!(e.bound, Bound::Lower | Bound::Exact)
                    && !is_mate(e.score)
                    && (ply as i32) < self.params.extension_max_ply
            }) {
                let singular_beta = e.score - self.params.singular_margin * depth;
                let singular_depth = (depth - 1) / self.params.singular_depth_divisor;
                self.stack[ply].excluded = Some(m);
                let v = self.negamax(singular_beta - 1, singular_beta, singular_depth, ply, stop);
                self.stack[ply].excluded = None;
                if self.stopped {
                    return 0;
                }
                if v < singular_beta {
                    move_ext = 1;
                } else if singular_beta >= beta {
                    return singular_beta;
                }
            }
            self.tt.prefetch(self.pos.key_after(m));
            let undo = self.push(m, ply);
            let gives_check = self.positions.in_check();
            let new_depth = depth - 1 + move_ext;
            let mut v;
            if i == 0 {
                v = -self.negamax(-beta, -alpha, new_depth, ply + 1, stop);
            } else {
                let mut r = 0;
                if self.config.lmr
                    && depth >= self.params.lmr_depth
                    && i as i32 >= self.params.lmr_moves
                    && !capture
                    && !in_check
                    && !gives_check
                {
                    r = self.lmr[depth.min(63) as usize][i.min(63)] as i32;
                    if pv_node {
                        r -= self.params.lmr_pv;
                    }
                    if self.heuristics.is_killer(ply, m) {
                        r -= self.params.lmr_killer;
                    }
                    // Less for moves with a good history, more for bad ones.
                    r -= self.params.lmr_history(history);
                    r = r.clamp(0, new_depth - 1);
                }
                v = -self.negamax(-alpha - 1, -alpha, new_depth - r, ply + 1, stop);
                if v > alpha && r > 0 {
                    v = -self.negamax(-alpha - 1, -alpha, new_depth, ply + 1, stop);
                }
                if v > alpha && v < beta {
                    v = -self.negamax(-beta, -alpha, new_depth, ply + 1, stop);
                }
            }
            self.pop(m, undo);
            if self.stopped {
                return if root { best.max(alpha0) } else { 0 };
            }
            if v > best {
                best = v;
                best_move = Some(m);
                best_is_capture = capture;
                if v > alpha {
                    alpha = v;
                    self.update_pv(ply, m);
                    if v >= beta {
                        self.heuristics.reward(
                            &self.pos,
                            m,
                            self.params.history_bonus(depth),
                            ply,
                            &cont,
                            &quiets_tried,
                            &captures_tried,
                        );
                        break;
                    }
                }
            }
            if !capture && quiets_tried.len() < quiets_tried.capacity() {
                quiets_tried.push(m);
            } else if capture && captures_tried.len() < captures_tried.capacity() {
                captures_tried.push(m);
            }
        }

        if legal == 0 {
            // Every pseudo-legal move was illegal: no legal move loses (unless the only
            // one is the move a singular search leaves out).
            return if excluded.is_some() {
                alpha
            } else {
                mated_in(ply)
            };
        }
        // Every result is stored with its bound, including those a repetition below
        // decided (as Stockfish and Pikafish do): dropping them lost most deep entries.
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // MultiPV lines after the first search a restricted root: not the position's value.
        if (!root || self.root_excluded.is_empty()) && excluded.is_none() {
            // After a fail low no move proved best: keep the table's move.
            let mv = if bound == Bound::Upper {
                None
            } else {
                best_move
            };
            self.tt.store(key, mv, best, raw_eval, depth, bound, ply);
            // What the search found beyond the static evaluation, unless the best move
            // is a capture (the evaluation cannot see one coming) or the bound says
            // nothing about the error.
            let capture_best = bound != Bound::Upper && best_is_capture;
            let says_more = match bound {
                Bound::Lower => best > static_eval,
                Bound::Upper => best < static_eval,
                Bound::Exact | Bound::None => true,
            };
            if self.config.correction && !in_check && !is_mate(best) && !capture_best && says_more {
                self.correction.learn(
                    us,
                    &self.stack[ply].corr_keys,
                    depth,
                    best,
                    static_eval,
                    &self.params,
                );
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xq_movegen::Game;

    /// A searcher with the classical evaluation, which the cache tests compare against.
    fn classical_searcher() -> Searcher {
        let mut searcher = Searcher::new(1);
        searcher.set_network(None);
        searcher
    }

    /// The searcher's evaluation of the position it stands on, through the cache.
    fn cached(searcher: &mut Searcher, pos: &Position) -> i32 {
        searcher.pos = pos.clone();
        searcher.stack[0].eval = Eval::new(pos);
        searcher.evaluate(0)
    }

    #[test]
    fn the_evaluation_cache_answers_what_the_evaluation_does() {
        let mut searcher = classical_searcher();
        let mut positions = 0;
        for fen in xq_testkit::start_fens() {
            let choices: Vec<u16> = (0..80u16).map(|i| i.wrapping_mul(7919)).collect();
            for pos in xq_testkit::play(fen, &choices) {
                let want = xq_eval::evaluate(&pos);
                // Computed, then found.
                assert_eq!(cached(&mut searcher, &pos), want, "{pos}");
                assert_eq!(cached(&mut searcher, &pos), want, "{pos}");
                positions += 1;
            }
        }
        assert!(positions > 500, "{positions}");
    }

    #[test]
    fn the_evaluation_cache_tells_the_no_capture_clock_apart() {
        // Red is a chariot up; far into the no-capture count the score fades.
        let fresh = Position::from_fen("5k3/9/9/9/9/9/9/9/R8/3K5 w - - 0 60").unwrap();
        let late = Position::from_fen("5k3/9/9/9/9/9/9/9/R8/3K5 w - - 110 60").unwrap();
        let (want_fresh, want_late) = (xq_eval::evaluate(&fresh), xq_eval::evaluate(&late));
        assert!(want_late < want_fresh, "{want_late} {want_fresh}");
        let mut searcher = classical_searcher();
        assert_eq!(cached(&mut searcher, &fresh), want_fresh);
        assert_eq!(cached(&mut searcher, &late), want_late);
        assert_eq!(cached(&mut searcher, &fresh), want_fresh);
    }

    #[test]
    fn the_evaluation_cache_keeps_one_entry_for_the_clocks_before_the_fade() {
        // The evaluation reads the clock only past FADE_START: up to it, one entry.
        let at = |clock: u32| {
            Position::from_fen(&format!("5k3/9/9/9/9/9/9/9/R8/3K5 w - - {clock} 60")).unwrap()
        };
        let fade = xq_eval::endgame::FADE_START;
        let mut searcher = classical_searcher();
        let used = |s: &Searcher| s.eval_cache.iter().filter(|e| e.0 != 0).count();
        for clock in [0, 31, fade] {
            assert_eq!(
                cached(&mut searcher, &at(clock)),
                xq_eval::evaluate(&at(clock))
            );
        }
        assert_eq!(used(&searcher), 1);
        let late = at(fade + 1);
        assert_eq!(cached(&mut searcher, &late), xq_eval::evaluate(&late));
        assert!(xq_eval::evaluate(&late) < xq_eval::evaluate(&at(0)));
        assert_eq!(used(&searcher), 2);
    }

    #[test]
    fn dropping_the_pruned_quiet_moves_leaves_the_tree_as_it_was() {
        // Openings, middlegames and endgames (the first lines of the bench), and the
        // positions of a few random games.
        let mut fens: Vec<String> = crate::bench::POSITIONS
            .lines()
            .take(12)
            .map(String::from)
            .collect();
        for (n, fen) in xq_testkit::start_fens().into_iter().take(4).enumerate() {
            let choices: Vec<u16> = (0..40u16)
                .map(|i| i.wrapping_mul(7919).wrapping_add(31 * n as u16))
                .collect();
            fens.extend(
                xq_testkit::play(fen, &choices)
                    .iter()
                    .step_by(10)
                    .map(|p| p.to_string()),
            );
        }
        let stop = std::sync::atomic::AtomicBool::new(false);
        for fen in &fens {
            let game = Game::from_fen_moves(fen, &[] as &[&str]).unwrap();
            let mut results = Vec::new();
            for drop in [true, false] {
                let mut searcher = Searcher::new(1);
                searcher.set_config(SearchConfig {
                    drop_pruned_quiets: drop,
                    ..SearchConfig::default()
                });
                let r = searcher.search(&game, &Limits::depth(8), &stop, |_| {});
                results.push((r.nodes, r.best_move, r.value, r.pv));
            }
            assert_eq!(results[0], results[1], "{fen}");
        }
    }

    #[test]
    fn the_parameters_reach_the_search() {
        let game = Game::startpos();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let nodes = |params: Option<SearchParams>| {
            let mut searcher = Searcher::new(4);
            if let Some(params) = params {
                searcher.set_params(params);
            }
            searcher
                .search(&game, &Limits::depth(7), &stop, |_| {})
                .nodes
        };
        let default = nodes(None);
        assert_eq!(nodes(Some(SearchParams::default())), default);
        // One read in the search, one through the reduction table.
        for (name, value) in [("rfp_margin", 40), ("lmr_base", 175)] {
            let mut params = SearchParams::default();
            params.set(name, value).unwrap();
            assert_ne!(nodes(Some(params)), default, "{name}");
        }
    }

    #[test]
    fn the_search_learns_corrections_that_a_new_game_forgets_and_the_switch_turns_off() {
        let game = Game::from_fen_moves(
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w",
            &[] as &[&str],
        )
        .unwrap();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let mut searcher = Searcher::new(4);
        assert_eq!(searcher.correction.learnt(), 0);
        searcher.search(&game, &Limits::depth(6), &stop, |_| {});
        assert!(searcher.correction.learnt() > 0);
        searcher.new_game();
        assert_eq!(searcher.correction.learnt(), 0);
        searcher.set_config(SearchConfig {
            correction: false,
            ..SearchConfig::default()
        });
        searcher.search(&game, &Limits::depth(6), &stop, |_| {});
        assert_eq!(searcher.correction.learnt(), 0);
    }

    #[test]
    fn a_search_with_a_network_keeps_its_accumulators_and_plays_legal_moves() {
        // Small networks with seeded weights, one with general buckets (a general moving
        // to another bucket has its side's accumulator computed at once, from the whole
        // position): the accumulators the search computes late, from the changes kept
        // on its stack, are checked against recomputed ones at every evaluation (a
        // debug assertion in `evaluate`), null moves and captures included.
        let nets = [
            Arc::new(Network::seeded(32, 9)),
            Arc::new(Network::seeded_with_general_buckets(32, 9)),
        ];
        let stop = std::sync::atomic::AtomicBool::new(false);
        for net in nets {
            let mut searched = 0;
            for fen in xq_testkit::start_fens().into_iter().take(6) {
                let game = Game::from_fen_moves(fen, &[] as &[&str]).unwrap();
                let mut searcher = Searcher::new(1);
                searcher.set_network(Some(net.clone()));
                let r = searcher.search(&game, &Limits::depth(5), &stop, |_| {});
                if let Some(m) = r.best_move {
                    assert!(xq_movegen::is_legal(game.position(), m), "{fen}: {m}");
                }
                searched += r.nodes;
                // The network's evaluation, not the classical one.
                searcher.pos = game.position().clone();
                searcher.stack[0].acc = xq_eval::nnue::Accumulator::new(&net, &searcher.pos);
                searcher.eval_cache.iter_mut().for_each(|e| *e = (0, 0));
                assert_eq!(
                    searcher.evaluate(0),
                    net.evaluate(&searcher.pos, &searcher.stack[0].acc),
                    "{fen}"
                );
            }
            assert!(searched > 1000, "{searched}");
        }
    }
}
