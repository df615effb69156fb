//! The rules of repetition, perpetual check and perpetual chase, for tables where both
//! sides have attacking pieces.
//!
//! The retrograde analysis ([`generate`](crate::generate)) finds every forced mate; what
//! is left is a draw *without* the rules. Under the Asian rules that xq's referee applies
//! ([`xq_movegen::rules`]), a side that checks with every move of a repetition loses,
//! unless the other side does too; with no check in the cycle, a side that newly chases
//! the same enemy piece with every move loses, unless the other side also chases with
//! every move. Among those draws, this pass finds the positions where one side (the
//! winner `W`) can play so that every endless line ends in a cycle that the referee rules
//! as the other side's (`L`'s) loss; or where `L` must step out of the draws into a loss,
//! or into a capture that leads to a position of a smaller table that `W` wins by the
//! rules. Those become [`TableValue::RuleWin`] for `W` to move and
//! [`TableValue::RuleLoss`] for `L` to move.
//!
//! Each rule is a parity game on the drawn positions with priorities 0, 1 and 2 on the
//! moves; `W` wins an endless line when the highest priority seen infinitely often is 1.
//!
//! - **Perpetual check.** 2 for a move of `L` without check (`L` is not checking
//!   perpetually), 1 for a move of `W` without check, 0 for a check. The priority of a
//!   move is that of the position it reaches (in check or not, and whose turn it is), so
//!   this game is solved by Zielonka's algorithm on positions.
//! - **Perpetual chase of one piece** of `W`, for each kind of which `W` has one piece
//!   (so that a chase of that kind is a chase of the same piece, wherever it stands): 0
//!   for a move of `L` that newly chases that piece and gives no check, 1 for a move of
//!   `W` that newly chases nothing and gives no check, 2 for a check or any other move of
//!   `L`, 0 for the other moves of `W`. A cycle won by `W` then has no check, `L` chasing
//!   the piece with every move and `W` idle at least once: the referee's perpetual chase.
//!   What a move newly chases depends on the positions before and after it, so this game
//!   is solved by the nested fixpoint μZ₂. νZ₁. μZ₀ over moves.
//!
//! The games are solved in turn, each also won by forcing the play into what the others
//! have won, until none adds a position. A winner's strategy is then a sequence of
//! positional winning strategies, each leading only into the regions found before it, so
//! every cycle its play can close lies in one game and is ruled as that game says: the
//! repetition that the referee judges. The attractors walk backwards with the
//! generator's unmoves and move counters.
//!
//! Where the rules leave room the pass takes the side of a draw, so that a rule win it
//! finds is a win under the referee: a move of `W` that chases a piece of a kind `L` has
//! two of, while another of that kind was chased before, counts as a chase (it may be a
//! new one); a chase of a piece of which `W` has two is not counted for `W`; a line where
//! both sides check or chase in other patterns is a draw.

use crate::gen::{for_chunks, split, unmove_weight, unmoves, CaptureValues, FirstError, Table};
use crate::index::{Cursor, Layout, Placement, MAX_PIECES};
use crate::value::{rule_code, Rule, TableValue};
use crate::TablebaseError;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering::Relaxed};
use xq_core::{Color, PieceKind, Square};
use xq_movegen::rules::chase_targets;

/// A drawn position's facts, as bits.
const BLACK_TO_MOVE: u8 = 1;
const IN_CHECK: u8 = 2;
/// A capture leads to a position the mover wins by the perpetual-check rule.
const CHECK_WIN_EXIT: u8 = 4;
/// A capture leads to a drawn position.
const DRAW_EXIT: u8 = 8;
/// A capture leads to a position the mover wins by the perpetual-chase rule (or by a
/// rule that a file of version 3 did not record).
const CHASE_WIN_EXIT: u8 = 16;
/// A capture leads to a position the mover loses by the perpetual-chase rule (or by a
/// rule not recorded): a draw where that rule is left out.
const CHASE_LOSS_EXIT: u8 = 32;
/// What the winner's outright escapes are, and the loser's besides a capture into a
/// draw or its own rule win: with both rules, or with perpetual check alone (a capture
/// into a smaller table's result of the chase rule is then worth a draw).
#[derive(Copy, Clone, PartialEq, Eq)]
enum Rules {
    Both,
    CheckOnly,
}

/// Where each drawn position's node is: a bit an entry (set for a drawn position) and,
/// beside each word of 64 bits, how many bits are set before it, so that a node is the
/// count before its word and the bits below it in the word (a quarter of a byte an
/// entry, where a table of nodes took four).
struct Nodes {
    words: Vec<(u64, u64)>,
}

impl Nodes {
    /// The map of the entries whose code `is_node` accepts, numbered in order.
    fn new(codes: &[u16], is_node: impl Fn(u16) -> bool) -> Nodes {
        let mut before = 0u64;
        let words = codes
            .chunks(64)
            .map(|chunk| {
                let bits = chunk
                    .iter()
                    .enumerate()
                    .filter(|(_, &c)| is_node(c))
                    .fold(0u64, |w, (i, _)| w | 1 << i);
                let word = (bits, before);
                before += u64::from(bits.count_ones());
                word
            })
            .collect();
        Nodes { words }
    }

    /// The node of entry `e`, if it is one.
    #[inline]
    fn get(&self, e: u64) -> Option<usize> {
        let (bits, before) = self.words[(e / 64) as usize];
        let bit = 1u64 << (e % 64);
        (bits & bit != 0).then(|| (before + u64::from((bits & (bit - 1)).count_ones())) as usize)
    }
}

/// Nodes handed to a thread at a time.
const NODE_CHUNK: usize = 1024;

/// The fewest nodes of a level of a backward walk shared among the threads; a smaller
/// level is walked on one. One in the unit tests, whose tables are small, so that their
/// walks run on threads.
const WALK_SHARED: usize = if cfg!(test) { 1 } else { 256 };

/// Applies the rules of perpetual check and chase to the draws of `table` (whose
/// captures lead to the positions `subs` values), rewriting them as rule wins and losses
/// where the rules decide them, each with its [`Rule`]: [`Rule::PerpetualCheck`] where
/// the winner wins with that rule alone, [`Rule::PerpetualChase`] where it needs the
/// chase rule too. Returns how many positions changed.
///
/// # Errors
/// From reading the values of the captures (files).
pub(crate) fn apply(
    table: &mut Table,
    subs: &dyn CaptureValues,
    threads: usize,
) -> Result<u64, TablebaseError> {
    let mut decided: Vec<(usize, u16)> = Vec::new();
    {
        let game = Game::new(table, subs, threads)?;
        // The two winners' games are independent: with more than one thread, each on a
        // thread of its own (whose scans take `threads` more), so that the one left
        // running has the machine.
        let solve = |winner| {
            let (won, chase) = game.solve(winner);
            (winner, won, chase)
        };
        let results: Vec<(Color, Set, Set)> = if threads <= 1 {
            Color::ALL.into_iter().map(solve).collect()
        } else {
            std::thread::scope(|s| {
                let solving: Vec<_> = Color::ALL
                    .into_iter()
                    .map(|winner| s.spawn(move || solve(winner)))
                    .collect();
                solving
                    .into_iter()
                    .map(|h| h.join().expect("a rule game's thread does not panic"))
                    .collect()
            })
        };
        for (winner, won, chase) in results {
            for (v, &w) in won.iter().enumerate() {
                if w {
                    let rule = if chase[v] {
                        Rule::PerpetualChase
                    } else {
                        Rule::PerpetualCheck
                    };
                    let code = rule_code(rule, game.side(v) == winner);
                    decided.push((game.entries[v] as usize, code));
                }
            }
        }
    }
    for &(e, code) in &decided {
        assert_eq!(
            table.codes[e], 1,
            "a drawn position is won by one side only"
        );
        table.codes[e] = code;
    }
    Ok(decided.len() as u64)
}

/// Runs `work` on every node `0..n` on `threads` threads, each with a placement and a
/// cursor of its own, and returns what it gave for each, in order.
fn map_nodes<T: Clone + Default + Send>(
    layout: &Layout,
    n: usize,
    threads: usize,
    work: impl Fn(usize, &mut Placement, &mut Cursor<'_>) -> T + Sync,
) -> Vec<T> {
    let mut out = vec![T::default(); n];
    for_chunks(
        threads,
        &mut out,
        NODE_CHUNK,
        || ([Square::A0; MAX_PIECES], Cursor::new(layout)),
        |(p, cursor), first, chunk| {
            for (i, slot) in chunk.iter_mut().enumerate() {
                *slot = work(first + i, p, cursor);
            }
        },
    );
    out
}

/// The drawn positions of a table as a game graph; its edges are found when needed
/// (moves forwards, unmoves backwards), so it costs a few bytes a position.
struct Game<'a> {
    table: &'a Table,
    /// The entry (side to move and number) of each node.
    entries: Vec<u64>,
    /// The node of each entry that is a drawn position.
    node: Nodes,
    flags: Vec<u8>,
    /// What each side (Red, Black) chases in each drawn position: for each kind of the
    /// other side's pieces, how many of them, in four bits from `4 * kind.index()`.
    chased: Vec<[u32; 2]>,
    /// How many pieces of each kind each side has, in the same four-bit fields.
    armies: [u32; 2],
    /// Threads for the scans over all nodes.
    threads: usize,
}

/// A set of nodes.
type Set = Vec<bool>;

/// A node at the start of an attractor.
#[derive(Copy, Clone, Default, PartialEq, Eq)]
enum Start {
    /// Not in play, or a node of the attracting player not yet attracted.
    #[default]
    Outside,
    /// Attracted from the start.
    Attracted,
    /// A node of the opponent, which it can always leave: never attracted.
    Blocked,
    /// A node of the opponent, attracted once this many of its moves are.
    Left(u8),
}

/// Who picks the move at a node, in the game of one winner.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Player {
    /// The side that would win by the rule.
    Winner,
    /// The other.
    Loser,
}

impl<'a> Game<'a> {
    /// The game of `table`'s draws, whose captures lead to the positions `subs` values.
    ///
    /// # Errors
    /// The first error of `subs` (a file that cannot be read, a damaged block).
    fn new(
        table: &'a Table,
        subs: &dyn CaptureValues,
        threads: usize,
    ) -> Result<Game<'a>, TablebaseError> {
        let layout = &table.layout;
        let node = Nodes::new(&table.codes, |c| c == 1);
        let entries: Vec<u64> = (0..table.codes.len() as u64)
            .filter(|&e| table.codes[e as usize] == 1)
            .collect();
        let ending = layout.ending;
        let failure = FirstError::default();
        let facts = map_nodes(layout, entries.len(), threads, |v, p, cursor| {
            if failure.failed() {
                return (0, [0; 2]);
            }
            let (side, index) = split(entries[v], layout.size);
            let canonical = layout.decode(index, p);
            debug_assert!(canonical);
            let pos = cursor.position(p, side).expect("a drawn position is legal");
            let mut f = if side == Color::Black {
                BLACK_TO_MOVE
            } else {
                0
            };
            if pos.is_check() {
                f |= IN_CHECK;
            }
            for m in xq_movegen::legal_moves(pos) {
                let Some(captured) = pos.piece_on(m.to()) else {
                    continue;
                };
                let undo = pos.make_move(m);
                let child = subs.capture_value(&ending, pos, captured);
                pos.unmake_move(m, undo);
                let child = match child {
                    Ok(child) => child,
                    Err(e) => {
                        failure.set(e);
                        return (0, [0; 2]);
                    }
                };
                match child.for_mover() {
                    TableValue::RuleWin {
                        rule: Some(Rule::PerpetualCheck),
                    } => f |= CHECK_WIN_EXIT,
                    TableValue::RuleWin { .. } => f |= CHASE_WIN_EXIT,
                    TableValue::Draw => f |= DRAW_EXIT,
                    TableValue::Win { .. } => {
                        unreachable!("a drawn position has no winning capture")
                    }
                    TableValue::RuleLoss {
                        rule: Some(Rule::PerpetualCheck),
                    } => {}
                    TableValue::RuleLoss { .. } => f |= CHASE_LOSS_EXIT,
                    TableValue::Loss { .. } => {}
                }
            }
            let mut chased = [0u32; 2];
            for by in Color::ALL {
                for sq in chase_targets(pos, by).iter() {
                    let victim = pos.piece_on(sq).expect("a chased piece is on its square");
                    chased[by.index()] += 1 << (4 * victim.kind.index());
                }
            }
            (f, chased)
        });
        failure.or(())?;
        let (flags, chased) = facts.into_iter().unzip();
        let army = |color: Color| {
            let army = ending.army(color);
            PieceKind::ALL
                .iter()
                .map(|&k| (army.count(k) as u32) << (4 * k.index()))
                .sum()
        };
        Ok(Game {
            table,
            entries,
            node,
            flags,
            chased,
            armies: [army(Color::Red), army(Color::Black)],
            threads,
        })
    }

    fn side(&self, v: usize) -> Color {
        if self.flags[v] & BLACK_TO_MOVE != 0 {
            Color::Black
        } else {
            Color::Red
        }
    }

    fn player(&self, v: usize, winner: Color) -> Player {
        if self.side(v) == winner {
            Player::Winner
        } else {
            Player::Loser
        }
    }

    /// The priority of node `v` in the game of `winner`: what the move that reached it
    /// says (see the module docs).
    fn priority(&self, v: usize, winner: Color) -> u8 {
        if self.flags[v] & IN_CHECK != 0 {
            0
        } else if self.side(v) == winner {
            2
        } else {
            1
        }
    }

    /// Does `player` have a move out of the drawn positions that wins its game
    /// outright, under `rules`? The winner: a capture into a smaller table's rule win
    /// (by perpetual check alone, when `rules` is [`Rules::CheckOnly`]). The loser: a
    /// capture into a draw or into its own rule win (or, with perpetual check alone, into
    /// its loss by the chase rule, a draw without that rule).
    fn escapes(&self, v: usize, winner: Color, player: Player, rules: Rules) -> bool {
        if self.player(v, winner) != player {
            return false;
        }
        let f = self.flags[v];
        let exits = match (player, rules) {
            (Player::Winner, Rules::Both) => CHECK_WIN_EXIT | CHASE_WIN_EXIT,
            (Player::Winner, Rules::CheckOnly) => CHECK_WIN_EXIT,
            (Player::Loser, Rules::Both) => CHECK_WIN_EXIT | CHASE_WIN_EXIT | DRAW_EXIT,
            (Player::Loser, Rules::CheckOnly) => {
                CHECK_WIN_EXIT | CHASE_WIN_EXIT | DRAW_EXIT | CHASE_LOSS_EXIT
            }
        };
        f & exits != 0
    }

    /// Calls `found` with the node of every move (not a capture) from `v` that stays in
    /// the drawn positions, once a move.
    fn successors(
        &self,
        v: usize,
        p: &mut Placement,
        cursor: &mut Cursor<'_>,
        mut found: impl FnMut(usize),
    ) {
        let layout = &self.table.layout;
        let (side, index) = split(self.entries[v], layout.size);
        layout.decode(index, p);
        let pos = cursor.position(p, side).expect("a drawn position is legal");
        for m in xq_movegen::legal_moves(pos) {
            if pos.piece_on(m.to()).is_some() {
                continue;
            }
            let undo = pos.make_move(m);
            let q = layout.placement(pos, Color::Red);
            pos.unmake_move(m, undo);
            let c = layout.canon(&q).expect("a legal position has a number");
            let e = layout.entry(!side, c.index);
            if let Some(w) = self.node.get(e) {
                found(w);
            }
        }
    }

    /// Calls `found` with every node from which a move (not a capture) leads to `v`,
    /// with how many of that node's moves it stands for (see the generator's docs on
    /// symmetric positions).
    fn predecessors(
        &self,
        v: usize,
        p: &mut Placement,
        cursor: &mut Cursor<'_>,
        mut found: impl FnMut(usize, u8),
    ) {
        let layout = &self.table.layout;
        let (side, index) = split(self.entries[v], layout.size);
        layout.decode(index, p);
        let symmetric = layout.canon(p).is_some_and(|c| c.symmetric);
        let pos = cursor.position(p, side).expect("a drawn position is legal");
        let q = *p;
        unmoves(layout, pos, &q, |canon| {
            let Some(weight) = unmove_weight(symmetric, canon) else {
                return;
            };
            let e = layout.entry(!side, canon.index);
            if let Some(w) = self.node.get(e) {
                found(w, weight);
            }
        });
    }

    /// The nodes of `alive` from which `player` can force the play into `target` (or,
    /// for either player, out of the draws to its own advantage), staying in `alive`.
    /// `alive` must be closed for play: every node in it keeps a move in it.
    fn attractor(
        &self,
        winner: Color,
        player: Player,
        target: &Set,
        alive: &Set,
        rules: Rules,
    ) -> Set {
        let other = match player {
            Player::Winner => Player::Loser,
            Player::Loser => Player::Winner,
        };
        let start = self.scan(|v, p, cursor| {
            if !alive[v] {
                Start::Outside
            } else if target[v] || self.escapes(v, winner, player, rules) {
                Start::Attracted
            } else if self.player(v, winner) == player {
                Start::Outside
            } else if self.escapes(v, winner, other, rules) {
                Start::Blocked
            } else {
                // Moves left to the opponent before it falls.
                let mut count = 0u32;
                self.successors(v, p, cursor, |w| count += u32::from(alive[w]));
                if count == 0 {
                    Start::Attracted
                } else {
                    Start::Left(u8::try_from(count).expect("fewer than 256 moves"))
                }
            }
        });
        self.attract(winner, player, &start, |v, _| alive[v])
    }

    /// What `start` gives for every node, found on the game's threads.
    fn scan(
        &self,
        start: impl Fn(usize, &mut Placement, &mut Cursor<'_>) -> Start + Sync,
    ) -> Vec<Start> {
        map_nodes(&self.table.layout, self.entries.len(), self.threads, start)
    }

    /// The attractor from the starting states `start`: the nodes attracted at the
    /// start, and every node the backward walk reaches from them over moves that
    /// `counts`.
    fn attract(
        &self,
        winner: Color,
        player: Player,
        start: &[Start],
        counts: impl Fn(usize, usize) -> bool + Sync,
    ) -> Set {
        let attracted: Vec<AtomicBool> = start
            .iter()
            .map(|s| AtomicBool::new(*s == Start::Attracted))
            .collect();
        // Moves left to the opponent's nodes before they fall; 0 for `player`'s nodes
        // and for nodes the opponent can always leave.
        let left: Vec<AtomicU8> = start
            .iter()
            .map(|s| AtomicU8::new(if let Start::Left(k) = *s { k } else { 0 }))
            .collect();
        let queue = (0..start.len())
            .filter(|&v| start[v] == Start::Attracted)
            .collect();
        self.walk_back(winner, player, queue, &attracted, &left, |v, u| {
            start[v] != Start::Blocked && counts(v, u)
        });
        attracted.into_iter().map(AtomicBool::into_inner).collect()
    }

    /// The backward walk of the attractors: from the nodes of `queue` (in `taken`
    /// already), each predecessor `v` of a node `u` taken in, over a move that
    /// `counts(v, u)`, is taken in too if it is `player`'s node, or once the moves left to
    /// it (`moves_left`, by the unmoves' weights) are all spent.
    ///
    /// With more than one thread the walk goes level by level, each level's nodes shared
    /// among the threads: the set it ends with is the same whatever the order (each
    /// node's moves are counted down once each, and a node is taken in once).
    fn walk_back(
        &self,
        winner: Color,
        player: Player,
        queue: Vec<usize>,
        taken: &[AtomicBool],
        moves_left: &[AtomicU8],
        counts: impl Fn(usize, usize) -> bool + Sync,
    ) {
        // The nodes of `level` walked back from on one thread: those they take in.
        let walk = |level: &[usize]| {
            let mut p: Placement = [Square::A0; MAX_PIECES];
            let mut cursor = Cursor::new(&self.table.layout);
            let mut next = Vec::new();
            for &u in level {
                self.predecessors(u, &mut p, &mut cursor, |v, weight| {
                    if taken[v].load(Relaxed) || !counts(v, u) {
                        return;
                    }
                    if self.player(v, winner) == player {
                        if !taken[v].swap(true, Relaxed) {
                            next.push(v);
                        }
                    } else {
                        let before = moves_left[v].fetch_sub(weight, Relaxed);
                        debug_assert!(before >= weight, "move counter below zero");
                        if before == weight {
                            taken[v].store(true, Relaxed);
                            next.push(v);
                        }
                    }
                });
            }
            next
        };
        let mut level = queue;
        while !level.is_empty() {
            level = if self.threads <= 1 || level.len() < WALK_SHARED {
                walk(&level)
            } else {
                let share = level.len().div_ceil(self.threads);
                std::thread::scope(|s| {
                    let walking: Vec<_> = level
                        .chunks(share)
                        .map(|part| s.spawn(|| walk(part)))
                        .collect();
                    walking
                        .into_iter()
                        .flat_map(|h| h.join().expect("a backward walk does not panic"))
                        .collect()
                })
            };
        }
    }

    /// The drawn positions that `winner` wins by the rules: by perpetual check, or by a
    /// perpetual chase of one of its pieces, or by forcing the play into positions won
    /// either way (see the module docs); and of them, those it does not win by perpetual
    /// check alone (the check game with no chase game, where a capture into a smaller
    /// table's result of the chase rule is worth a draw).
    fn solve(&self, winner: Color) -> (Set, Set) {
        let n = self.entries.len();
        // The kinds of which the winner has exactly one piece: every chase of a piece of
        // such a kind is a chase of the same piece, as the referee follows it.
        let kinds: Vec<PieceKind> = PieceKind::ALL
            .into_iter()
            .filter(|&k| k != PieceKind::General && self.count(winner, k) == 1)
            .collect();
        let forced = self.must_chase(winner, &kinds);
        let none = vec![false; n];
        let mut won = none.clone();
        let mut by_check = None;
        loop {
            won = self.solve_check(winner, &won, Rules::Both);
            let checked = won.clone();
            // Perpetual check alone: the first check game, unless a capture leads to a
            // smaller table's result of the chase rule (then solved again without it).
            let by_check = by_check.get_or_insert_with(|| {
                let chase_exits = CHASE_WIN_EXIT | CHASE_LOSS_EXIT;
                if self.flags.iter().any(|&f| f & chase_exits != 0) {
                    self.solve_check(winner, &none, Rules::CheckOnly)
                } else {
                    checked.clone()
                }
            });
            for (&kind, _) in kinds.iter().zip(&forced).filter(|(_, &f)| f) {
                won = self.solve_chase(winner, kind, &won);
            }
            if won == checked {
                let by_chase = minus(&won, by_check);
                return (won, by_chase);
            }
        }
    }

    /// For each of `kinds`: is there a position where the loser must newly chase the
    /// winner's piece of that kind (it cannot leave the draws, and every move it has
    /// chases that piece without check)? If not, every cycle has a move of the loser of
    /// priority 2 in that chase game, and the winner wins nothing there but what it
    /// forces by other means. One pass over the loser's positions answers for all kinds.
    fn must_chase(&self, winner: Color, kinds: &[PieceKind]) -> Vec<bool> {
        // The kinds found forced so far, as bits: once all are, the scan has no more to do.
        let all = (1u8 << kinds.len()) - 1;
        let forced = AtomicU8::new(0);
        map_nodes(
            &self.table.layout,
            self.entries.len(),
            self.threads,
            |v, p, cursor| {
                let known = forced.load(Relaxed);
                if known == all
                    || self.side(v) == winner
                    || self.escapes(v, winner, Player::Loser, Rules::Both)
                {
                    return;
                }
                // The kinds still open that this position might force: a piece already
                // chased here cannot be newly chased.
                let mut open: u8 = (0..kinds.len())
                    .filter(|&i| known & (1 << i) == 0 && self.chases(v, !winner, kinds[i]) == 0)
                    .map(|i| 1 << i)
                    .sum();
                if open == 0 {
                    return;
                }
                let mut moves = 0;
                self.successors(v, p, cursor, |w| {
                    moves += 1;
                    for (i, &kind) in kinds.iter().enumerate() {
                        if self.chase_priority(v, w, winner, kind) != 0 {
                            open &= !(1 << i);
                        }
                    }
                });
                if moves > 0 {
                    forced.fetch_or(open, Relaxed);
                }
            },
        );
        let forced = forced.into_inner();
        (0..kinds.len()).map(|i| forced & (1 << i) != 0).collect()
    }

    /// How many pieces of `kind` `side` has.
    fn count(&self, side: Color, kind: PieceKind) -> u32 {
        (self.armies[side.index()] >> (4 * kind.index())) & 15
    }

    /// How many pieces of `kind` of the other side `by` chases in node `v`.
    fn chases(&self, v: usize, by: Color, kind: PieceKind) -> u32 {
        (self.chased[v][by.index()] >> (4 * kind.index())) & 15
    }

    /// The drawn positions that `winner` wins by perpetual check, or by forcing the play
    /// into `target` (positions it wins already).
    fn solve_check(&self, winner: Color, target: &Set, rules: Rules) -> Set {
        let n = self.entries.len();
        let all = vec![true; n];
        // Moves out of the draws first: what each side can force by them.
        let w0 = self.attractor(winner, Player::Winner, target, &all, rules);
        let d1 = minus(&all, &w0);
        let none = vec![false; n];
        let l0 = self.attractor(winner, Player::Loser, &none, &d1, rules);
        let d2 = minus(&d1, &l0);
        let w2 = self.zielonka(winner, d2, rules);
        union(&w0, &w2)
    }

    /// The priority, in the game of the perpetual chase of the winner's piece of `kind`,
    /// of the move from node `v` to node `w`: 0 for a move of the loser that newly chases
    /// that piece without check, 1 for a move of the winner that newly chases nothing and
    /// gives no check, 2 for a check or any other move of the loser, 0 for any other move
    /// of the winner. The winner wins an endless play when the highest priority seen
    /// forever is 1.
    fn chase_priority(&self, v: usize, w: usize, winner: Color, kind: PieceKind) -> u8 {
        if self.flags[w] & IN_CHECK != 0 {
            return 2;
        }
        let mover = self.side(v);
        if mover != winner {
            // The winner has one piece of `kind`, which the loser's move does not move.
            return if self.chases(w, mover, kind) > self.chases(v, mover, kind) {
                0
            } else {
                2
            };
        }
        // The loser's pieces stay where they were; the winner's move newly chases none of
        // them if every kind it chases now was chased to the last piece before. Two
        // pieces of a kind, one chased before and one after, may be a new chase: such a
        // move is not counted as idle, which can only cost the winner a rule win.
        let idle = PieceKind::ALL.into_iter().all(|k| {
            let after = self.chases(w, mover, k);
            after == 0 || self.chases(v, mover, k) == self.count(!mover, k)
        });
        u8::from(idle)
    }

    /// The drawn positions that `winner` wins by the loser's perpetual chase of the
    /// winner's one piece of `kind`, or by forcing the play into `target`: the nested
    /// fixpoint μZ₂. νZ₁. μZ₀ of the parity game whose priorities are on the moves
    /// ([`chase_priority`](Game::chase_priority)).
    fn solve_chase(&self, winner: Color, kind: PieceKind, target: &Set) -> Set {
        self.solve_edges(
            winner,
            &|v, w| self.chase_priority(v, w, winner, kind),
            target,
        )
    }

    /// The drawn positions that `winner` wins in the parity game whose moves have the
    /// priorities 0, 1, 2 that `priority` gives them (the winner needs the highest seen
    /// forever to be 1), or from which it forces the play into `target`: the nested
    /// fixpoint μZ₂. νZ₁. μZ₀.
    fn solve_edges(
        &self,
        winner: Color,
        priority: &(dyn Fn(usize, usize) -> u8 + Sync),
        target: &Set,
    ) -> Set {
        let n = self.entries.len();
        let mut z2 = vec![false; n];
        loop {
            let mut z1 = vec![true; n];
            loop {
                let z0 = self.edge_attractor(winner, priority, target, &z2, &z1);
                if z0 == z1 {
                    break;
                }
                z1 = z0;
            }
            if z1 == z2 {
                return z2;
            }
            z2 = z1;
        }
    }

    /// The least set `X` holding `target`, the winner's outright escapes and every node
    /// whose player can (the winner) or must (the loser) move along a move of priority 2
    /// into `z2`, of priority 1 into `z1` or of priority 0 into `X`.
    fn edge_attractor(
        &self,
        winner: Color,
        priority: &(dyn Fn(usize, usize) -> u8 + Sync),
        target: &Set,
        z2: &Set,
        z1: &Set,
    ) -> Set {
        let start = self.scan(|v, p, cursor| {
            if target[v] || self.escapes(v, winner, Player::Winner, Rules::Both) {
                return Start::Attracted;
            }
            if self.escapes(v, winner, Player::Loser, Rules::Both) {
                return Start::Blocked;
            }
            let (mut good, mut bad, mut zeros) = (false, false, 0u32);
            self.successors(v, p, cursor, |w| {
                let ok = match priority(v, w) {
                    2 => z2[w],
                    1 => z1[w],
                    _ => {
                        zeros += 1;
                        return;
                    }
                };
                good |= ok;
                bad |= !ok;
            });
            match self.player(v, winner) {
                Player::Winner if good => Start::Attracted,
                Player::Winner => Start::Outside,
                Player::Loser if bad => Start::Blocked,
                Player::Loser if zeros == 0 => Start::Attracted,
                Player::Loser => Start::Left(u8::try_from(zeros).expect("fewer than 256 moves")),
            }
        });
        self.attract(winner, Player::Winner, &start, |v, u| priority(v, u) == 0)
    }

    /// Zielonka's algorithm for priorities 0, 1 and 2 on the closed set `alive`, in
    /// which no node can leave the draws: the nodes the winner wins.
    fn zielonka(&self, winner: Color, mut alive: Set, rules: Rules) -> Set {
        let n = self.entries.len();
        let mut won = vec![false; n];
        loop {
            let top = (0..n)
                .filter(|&v| alive[v])
                .map(|v| self.priority(v, winner))
                .max();
            match top {
                None | Some(0) => return won,
                Some(1) => {
                    let ones: Set = (0..n)
                        .map(|v| alive[v] && self.priority(v, winner) == 1)
                        .collect();
                    let a = self.attractor(winner, Player::Winner, &ones, &alive, rules);
                    let rest = minus(&alive, &a);
                    let rest_won = self.zielonka(winner, rest.clone(), rules);
                    let lost = minus(&rest, &rest_won);
                    if !lost.iter().any(|&x| x) {
                        return union(&won, &alive);
                    }
                    let b = self.attractor(winner, Player::Loser, &lost, &alive, rules);
                    alive = minus(&alive, &b);
                }
                Some(_) => {
                    let twos: Set = (0..n)
                        .map(|v| alive[v] && self.priority(v, winner) == 2)
                        .collect();
                    let a = self.attractor(winner, Player::Loser, &twos, &alive, rules);
                    let rest = minus(&alive, &a);
                    let rest_won = self.zielonka(winner, rest, rules);
                    if !rest_won.iter().any(|&x| x) {
                        return won;
                    }
                    let b = self.attractor(winner, Player::Winner, &rest_won, &alive, rules);
                    won = union(&won, &b);
                    alive = minus(&alive, &b);
                }
            }
        }
    }
}

fn minus(a: &Set, b: &Set) -> Set {
    a.iter().zip(b).map(|(&x, &y)| x && !y).collect()
}

fn union(a: &Set, b: &Set) -> Set {
    a.iter().zip(b).map(|(&x, &y)| x || y).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::InMemory;
    use crate::{generate, Ending};

    /// The tables of `done` that the captures of `ending` lead to.
    fn subs_of<'t>(done: &'t [Table], ending: &Ending) -> Vec<&'t Table> {
        let captures = ending.captures();
        done.iter()
            .filter(|t| captures.contains(&t.ending()))
            .collect()
    }

    /// The map from entries to nodes numbers the drawn entries in order, across the
    /// words of 64 (a full word, an empty one, a lone last bit, a last word cut short),
    /// and has no node for any other entry.
    #[test]
    fn nodes_number_the_draws_in_order() {
        let mut codes = vec![0u16; 64 * 4 + 5];
        for e in (0..64).chain([130, 191]).chain(256..261) {
            codes[e] = 1;
        }
        codes[7] = 2; // a mate, not a draw
        let nodes = Nodes::new(&codes, |c| c == 1);
        let mut next = 0;
        for (e, &c) in codes.iter().enumerate() {
            if c == 1 {
                assert_eq!(nodes.get(e as u64), Some(next), "entry {e}");
                next += 1;
            } else {
                assert_eq!(nodes.get(e as u64), None, "entry {e}");
            }
        }
        assert_eq!(next, 63 + 1 + 1 + 5);
    }

    /// The check game solved a second way, by the nested fixpoint over moves that the
    /// chase games use: both must find the same positions, so the fixpoint's move
    /// counters and its weights for mirror images are those of Zielonka's attractors.
    #[test]
    fn the_fixpoint_over_moves_agrees_with_zielonka() {
        let plan = Ending::plan(&["KRKNA".parse().unwrap(), "KRKCA".parse().unwrap()], None);
        let mut done: Vec<Table> = Vec::new();
        let mut compared = 0;
        for e in plan {
            let subs = subs_of(&done, &e);
            let plain = crate::gen::retrograde(&e, &InMemory(&subs), 2, &|_| {}).unwrap();
            if e.both_attack() {
                let game = Game::new(&plain, &InMemory(&subs), 2).unwrap();
                let none = vec![false; game.entries.len()];
                for winner in Color::ALL {
                    let check = |v: usize, w: usize| {
                        if game.flags[w] & IN_CHECK != 0 {
                            0
                        } else if game.side(v) == winner {
                            1
                        } else {
                            2
                        }
                    };
                    let zielonka = game.solve_check(winner, &none, Rules::Both);
                    let fixpoint = game.solve_edges(winner, &check, &none);
                    assert!(zielonka == fixpoint, "{e}, {winner:?} the winner");
                    compared += zielonka.iter().filter(|&&x| x).count();
                }
            }
            done.push(generate(&e, &subs, 2, &|_| {}).unwrap());
        }
        // KRKN 1,597, KRKNA 6,913 and KRKCA 270 positions won by the rule.
        assert_eq!(compared, 1597 + 6913 + 270);
    }

    /// A smaller table's rule result that does not say which rule (a file of version 3,
    /// rewritten) counts, for a capture into it, as the chase rule's. In KRAKN the horse
    /// can take the advisor into KRKN, where the chariot wins by perpetual check: once
    /// KRKN does not say so, that capture escapes the check game (it might be a loss by
    /// the chase rule only), so the wins that count it as the horse's loss become the
    /// chase rule's; the table decides the same positions with the same results.
    #[test]
    fn an_unrecorded_rule_in_a_smaller_table_counts_as_the_chase_rule() {
        use crate::value::{
            CODE_CHASE_LOSS, CODE_CHASE_WIN, CODE_CHECK_LOSS, CODE_CHECK_WIN, CODE_RULE_LOSS,
            CODE_RULE_WIN,
        };
        let krakn: Ending = "KRAKN".parse().unwrap();
        let krkn: Ending = "KRKN".parse().unwrap();
        let mut recorded: Vec<Table> = Vec::new();
        for e in Ending::plan(&[krakn], None) {
            let subs = subs_of(&recorded, &e);
            recorded.push(generate(&e, &subs, 2, &|_| {}).unwrap());
        }
        let table = recorded.pop().unwrap();
        assert_eq!(table.ending(), krakn);
        assert_eq!(
            (table.rule_decided(), table.chase_decided()),
            (8508, Some(0))
        );
        let mut unrecorded = recorded.clone();
        let sub = unrecorded.iter_mut().find(|t| t.ending() == krkn).unwrap();
        for c in &mut sub.codes {
            *c = match *c {
                CODE_CHECK_WIN | CODE_CHASE_WIN => CODE_RULE_WIN,
                CODE_CHECK_LOSS | CODE_CHASE_LOSS => CODE_RULE_LOSS,
                c => c,
            };
        }
        assert_eq!((sub.rule_decided(), sub.chase_decided()), (1597, None));
        let (recorded, unrecorded) = (subs_of(&recorded, &krakn), subs_of(&unrecorded, &krakn));
        let plain = crate::gen::retrograde(&krakn, &InMemory(&recorded), 2, &|_| {}).unwrap();
        let before = Game::new(&plain, &InMemory(&recorded), 2).unwrap();
        let after = Game::new(&plain, &InMemory(&unrecorded), 2).unwrap();
        let wins = CHECK_WIN_EXIT | CHASE_WIN_EXIT;
        let (mut win_exits, mut loss_exits) = (0, 0);
        for (&b, &a) in before.flags.iter().zip(&after.flags) {
            // Only the exits into KRKN change, and none is perpetual check's any more.
            assert_eq!(b & !(wins | CHASE_LOSS_EXIT), a & !(wins | CHASE_LOSS_EXIT));
            assert_eq!(
                (b & wins != 0, a & CHECK_WIN_EXIT),
                (a & CHASE_WIN_EXIT != 0, 0)
            );
            assert_eq!(b & CHASE_LOSS_EXIT, 0);
            win_exits += u32::from(b & CHECK_WIN_EXIT != 0);
            loss_exits += u32::from(a & CHASE_LOSS_EXIT != 0);
        }
        // 11,825 drawn positions; the horse's captures of the advisor into KRKN's rule
        // results are escapes of the check game from 6 of them; the chariot never
        // takes anything into a rule result (its one capture, the horse, wins plainly).
        assert_eq!((before.flags.len(), win_exits, loss_exits), (11825, 0, 6));
        let made = generate(&krakn, &unrecorded, 2, &|_| {}).unwrap();
        let mut moved = 0;
        for (&a, &b) in table.codes.iter().zip(&made.codes) {
            let (a, b) = (TableValue::from_code(a), TableValue::from_code(b));
            assert_eq!(a.map(TableValue::result), b.map(TableValue::result));
            assert_eq!(a.map(TableValue::by_rule), b.map(TableValue::by_rule));
            if a != b {
                assert_eq!(a.and_then(TableValue::rule), Some(Rule::PerpetualCheck));
                assert_eq!(b.and_then(TableValue::rule), Some(Rule::PerpetualChase));
                moved += 1;
            }
        }
        assert_eq!(
            (made.rule_decided(), made.chase_decided()),
            (8508, Some(moved))
        );
        assert_eq!(moved, 6);
    }

    /// The scans over all nodes, the backward walks and the two winners' games run on
    /// threads: one thread or three give the same table, rule wins included.
    #[test]
    fn threads_do_not_change_the_result() {
        let plan = Ending::plan(&["KRKN".parse().unwrap()], None);
        let mut done: Vec<Table> = Vec::new();
        for e in plan {
            let subs = subs_of(&done, &e);
            let one = generate(&e, &subs, 1, &|_| {}).unwrap();
            let three = generate(&e, &subs, 3, &|_| {}).unwrap();
            assert!(one.codes == three.codes, "{e}");
            if e.both_attack() {
                assert_eq!(one.rule_decided(), 1597, "{e}");
                assert_eq!(one.chase_decided(), Some(0), "{e}");
            }
            done.push(one);
        }
    }

    /// Every move between drawn positions gets, in each chase game, the priority that
    /// the referee's own `chases` (what a move newly chases) and the check after it give,
    /// through the fold of mirror images; KNKN and KNKC have positions where the loser
    /// must chase, KRKNA has an advisor to chase.
    #[test]
    fn chase_priorities_are_the_referees() {
        let plan = Ending::plan(&["KNKN", "KNKC", "KRKNA"].map(|n| n.parse().unwrap()), None);
        let mut done: Vec<Table> = Vec::new();
        let mut checked = [0u32; 3];
        for e in plan {
            let subs = subs_of(&done, &e);
            let table = generate(&e, &subs, 2, &|_| {}).unwrap();
            if e.both_attack() {
                let plain = crate::gen::retrograde(&e, &InMemory(&subs), 2, &|_| {}).unwrap();
                let game = Game::new(&plain, &InMemory(&subs), 2).unwrap();
                let layout = &plain.layout;
                let mut p: Placement = [Square::A0; MAX_PIECES];
                let mut cursor = Cursor::new(layout);
                for v in 0..game.entries.len() {
                    let (side, index) = split(game.entries[v], layout.size);
                    layout.decode(index, &mut p);
                    let pos = cursor.position(&p, side).unwrap().clone();
                    for m in xq_movegen::legal_moves(&pos) {
                        if pos.piece_on(m.to()).is_some() {
                            continue;
                        }
                        let newly = xq_movegen::rules::chases(&pos, m);
                        let mut after = pos.clone();
                        after.make_move(m);
                        let q = layout.placement(&after, Color::Red);
                        let c = layout.canon(&q).unwrap();
                        let Some(w) = game.node.get(layout.entry(!side, c.index)) else {
                            continue;
                        };
                        for winner in Color::ALL {
                            for kind in [
                                PieceKind::Chariot,
                                PieceKind::Horse,
                                PieceKind::Cannon,
                                PieceKind::Advisor,
                            ] {
                                if game.count(winner, kind) != 1 {
                                    continue;
                                }
                                let expected = if after.is_check() {
                                    2
                                } else if side != winner {
                                    let chased = newly
                                        .iter()
                                        .any(|sq| pos.piece_on(sq).unwrap().kind == kind);
                                    if chased {
                                        0
                                    } else {
                                        2
                                    }
                                } else {
                                    u8::from(newly.is_empty())
                                };
                                let found = game.chase_priority(v, w, winner, kind);
                                assert_eq!(
                                    found, expected,
                                    "{e}: {pos} {m}, {winner:?} the winner, {kind:?}"
                                );
                                checked[usize::from(expected)] += 1;
                            }
                        }
                    }
                }
            }
            done.push(table);
        }
        // Moves of each priority were compared.
        assert!(checked.iter().all(|&n| n > 1000), "{checked:?}");
    }
}
