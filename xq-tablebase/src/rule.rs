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

use crate::ending::MAX_ATTACKERS;
use crate::gen::{for_chunks, split, unmove_weight, unmoves, CaptureValues, FirstError, Table};
use crate::index::{Cursor, Layout, Placement, MAX_PIECES};
use crate::value::{rule_code, Rule, TableValue};
use crate::TablebaseError;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};
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
/// entry, where a table of nodes took four); and, back from nodes to entries, the word
/// that holds every 64th node (an eighth of a byte a node).
struct Nodes {
    words: Vec<(u64, u64)>,
    /// The word of node `64 * k`, for each `k`.
    select: Vec<usize>,
}

impl Nodes {
    /// The map of the entries whose code is 1 (a draw before the rules), numbered in
    /// order.
    fn new(codes: &[u16]) -> Nodes {
        let mut before = 0u64;
        let mut select = Vec::new();
        let words = codes
            .chunks(64)
            .enumerate()
            .map(|(w, chunk)| {
                let bits = chunk
                    .iter()
                    .enumerate()
                    .filter(|(_, &c)| c == 1)
                    .fold(0u64, |word, (i, _)| word | 1 << i);
                let word = (bits, before);
                let after = before + u64::from(bits.count_ones());
                // The multiples of 64 in `before..after` are nodes of this word.
                for _ in before.div_ceil(64)..after.div_ceil(64) {
                    select.push(w);
                }
                before = after;
                word
            })
            .collect();
        Nodes { words, select }
    }

    /// How many nodes there are.
    fn len(&self) -> usize {
        self.words.last().map_or(0, |&(bits, before)| {
            (before + u64::from(bits.count_ones())) as usize
        })
    }

    /// The node of entry `e`, if it is one.
    #[inline]
    fn get(&self, e: u64) -> Option<usize> {
        let (bits, before) = self.words[(e / 64) as usize];
        let bit = 1u64 << (e % 64);
        (bits & bit != 0).then(|| (before + u64::from((bits & (bit - 1)).count_ones())) as usize)
    }

    /// The entry of node `v`: found in the words between those of the nodes of
    /// `select` around it.
    #[inline]
    fn entry(&self, v: usize) -> u64 {
        let k = v / 64;
        let first = self.select[k];
        let last = self.select.get(k + 1).map_or(self.words.len(), |&w| w + 1);
        let v = v as u64;
        // The last word that starts at or before node `v` holds it.
        let w = first + self.words[first..last].partition_point(|&(_, before)| before <= v) - 1;
        let (mut bits, before) = self.words[w];
        for _ in before..v {
            bits &= bits - 1;
        }
        64 * w as u64 + u64::from(bits.trailing_zeros())
    }
}

/// Nodes handed to a thread at a time.
const NODE_CHUNK: usize = 1024;

/// The fewest nodes of a level of a backward walk shared among the threads; a smaller
/// level is walked on one. One in the unit tests, whose tables are small, so that their
/// walks run on threads.
const WALK_SHARED: usize = if cfg!(test) { 1 } else { 256 };

/// Words of a level of a backward walk (64 nodes each) handed to a thread at a time.
const WALK_WORDS: usize = if cfg!(test) { 1 } else { 64 };

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
    let game = Game::new(table, subs, threads)?;
    // The two winners' games are independent: with more than one thread, each on a
    // thread of its own (whose scans take `threads` more), so that the one left running
    // has the machine.
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
    // What is kept of the game to write the results: the nodes' entries and sides.
    let Game { node, facts, .. } = game;
    let mut decided = 0;
    for (winner, won, chase) in results {
        for v in won.members() {
            let rule = if chase.has(v) {
                Rule::PerpetualChase
            } else {
                Rule::PerpetualCheck
            };
            let e = node.entry(v) as usize;
            assert_eq!(
                table.codes[e], 1,
                "a drawn position is won by one side only"
            );
            table.codes[e] = rule_code(rule, facts[v].side() == winner);
            decided += 1;
        }
    }
    Ok(decided)
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
    /// The node of each entry that is a drawn position, and the entry of each node.
    node: Nodes,
    /// Each drawn position's facts.
    facts: Vec<Facts>,
    /// How many pieces of each kind each side has, in two-bit fields as `Facts::chased`.
    armies: [u16; 2],
    /// Threads for the scans over all nodes.
    threads: usize,
}

// A side has at most three pieces of a kind (two advisors, two elephants, three
// attackers in all), so a count of them fits in the two bits of `Facts::chased` and
// `Game::armies`.
const _: () = assert!(MAX_ATTACKERS <= 3);

/// What the pass needs to know of a drawn position besides its moves (6 bytes).
#[derive(Copy, Clone, Default)]
struct Facts {
    /// `BLACK_TO_MOVE`, `IN_CHECK` and the exits.
    flags: u8,
    /// What each side (Red, Black) chases: for each kind of the other side's pieces, how
    /// many of them, in two bits from `2 * kind.index()`.
    chased: [u16; 2],
}

impl Facts {
    /// The side to move.
    fn side(&self) -> Color {
        if self.flags & BLACK_TO_MOVE != 0 {
            Color::Black
        } else {
            Color::Red
        }
    }
}

/// A set of nodes, a bit a node.
#[derive(Clone, PartialEq, Eq)]
struct Set {
    words: Vec<u64>,
}

impl Set {
    /// No node of `n`.
    fn empty(n: usize) -> Set {
        Set {
            words: vec![0; n.div_ceil(64)],
        }
    }

    /// The nodes `v` of `0..n` for which `member(v)`.
    fn from_fn(n: usize, member: impl Fn(usize) -> bool) -> Set {
        let words = (0..n.div_ceil(64))
            .map(|w| {
                (64 * w..n.min(64 * w + 64))
                    .filter(|&v| member(v))
                    .fold(0u64, |word, v| word | 1 << (v % 64))
            })
            .collect();
        Set { words }
    }

    /// Is `v` in the set?
    #[inline]
    fn has(&self, v: usize) -> bool {
        self.words[v / 64] & (1 << (v % 64)) != 0
    }

    /// Is any node in the set?
    fn any(&self) -> bool {
        self.words.iter().any(|&w| w != 0)
    }

    /// The nodes of the set, in order.
    fn members(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let v = 64 * w + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    v
                })
            })
        })
    }

    /// The nodes of `self` not in `other`.
    fn minus(&self, other: &Set) -> Set {
        self.zip(other, |a, b| a & !b)
    }

    /// The nodes of `self` or `other`.
    fn union(&self, other: &Set) -> Set {
        self.zip(other, |a, b| a | b)
    }

    fn zip(&self, other: &Set, op: impl Fn(u64, u64) -> u64) -> Set {
        let words = self
            .words
            .iter()
            .zip(&other.words)
            .map(|(&a, &b)| op(a, b))
            .collect();
        Set { words }
    }
}

/// A node at the start of an attractor, and as the backward walk finds it, in a byte:
/// the moves left to the opponent at one of its nodes before it falls (0 for a node not
/// in play, or the attracting player's, not yet attracted), or one of these two.
type State = u8;
/// Attracted.
const ATTRACTED: State = u8::MAX;
/// A node of the opponent, which it can always leave: never attracted.
const BLOCKED: State = u8::MAX - 1;

/// The state of an opponent's node with `moves` moves left in play (none: attracted).
fn moves_left(moves: u32) -> State {
    match moves {
        0 => ATTRACTED,
        _ => State::try_from(moves)
            .ok()
            .filter(|&k| k < BLOCKED)
            .expect("fewer than 254 moves"),
    }
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
        let node = Nodes::new(&table.codes);
        let ending = layout.ending;
        let failure = FirstError::default();
        let facts = map_nodes(layout, node.len(), threads, |v, p, cursor| {
            if failure.failed() {
                return Facts::default();
            }
            let (side, index) = split(node.entry(v), layout.size);
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
                        return Facts::default();
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
            let mut chased = [0u16; 2];
            for by in Color::ALL {
                for sq in chase_targets(pos, by).iter() {
                    let victim = pos.piece_on(sq).expect("a chased piece is on its square");
                    chased[by.index()] += 1 << (2 * victim.kind.index());
                }
            }
            Facts { flags: f, chased }
        });
        failure.or(())?;
        let army = |color: Color| {
            let army = ending.army(color);
            PieceKind::ALL
                .iter()
                .map(|&k| (army.count(k) as u16) << (2 * k.index()))
                .sum()
        };
        Ok(Game {
            table,
            node,
            facts,
            armies: [army(Color::Red), army(Color::Black)],
            threads,
        })
    }

    fn side(&self, v: usize) -> Color {
        self.facts[v].side()
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
        if self.facts[v].flags & IN_CHECK != 0 {
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
        let f = self.facts[v].flags;
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
        let (side, index) = split(self.node.entry(v), layout.size);
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
        let (side, index) = split(self.node.entry(v), layout.size);
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
            if !alive.has(v) {
                0
            } else if target.has(v) || self.escapes(v, winner, player, rules) {
                ATTRACTED
            } else if self.player(v, winner) == player {
                0
            } else if self.escapes(v, winner, other, rules) {
                BLOCKED
            } else {
                // Moves left to the opponent before it falls.
                let mut count = 0u32;
                self.successors(v, p, cursor, |w| count += u32::from(alive.has(w)));
                moves_left(count)
            }
        });
        self.attract(winner, player, start, |v, _| alive.has(v))
    }

    /// What `start` gives for every node, found on the game's threads.
    fn scan(
        &self,
        start: impl Fn(usize, &mut Placement, &mut Cursor<'_>) -> State + Sync,
    ) -> Vec<State> {
        map_nodes(&self.table.layout, self.node.len(), self.threads, start)
    }

    /// The attractor from the states `start`: the nodes attracted at the start, and
    /// every node the backward walk reaches from them over moves that `counts`.
    fn attract(
        &self,
        winner: Color,
        player: Player,
        start: Vec<State>,
        counts: impl Fn(usize, usize) -> bool + Sync,
    ) -> Set {
        let first = Set::from_fn(start.len(), |v| start[v] == ATTRACTED);
        let states: Vec<AtomicU8> = start.into_iter().map(AtomicU8::new).collect();
        self.walk_back(winner, player, first, &states, counts);
        Set::from_fn(states.len(), |v| states[v].load(Relaxed) == ATTRACTED)
    }

    /// The backward walk of the attractors: from the nodes of `first` (attracted
    /// already), each predecessor `v` of a node `u` taken in, over a move that
    /// `counts(v, u)`, is taken in too if it is `player`'s node, or once the moves left to
    /// it (in `states`, counted down by the unmoves' weights) are all spent; never if it
    /// is blocked.
    ///
    /// The walk goes level by level, each level a set of nodes (a bit a node, where a
    /// list would take four bytes), its words shared among the threads: the set it ends
    /// with is the same whatever the order (each node's moves are counted down once each,
    /// and a node is taken in once).
    fn walk_back(
        &self,
        winner: Color,
        player: Player,
        first: Set,
        states: &[AtomicU8],
        counts: impl Fn(usize, usize) -> bool + Sync,
    ) {
        let mut level = first.words;
        let mut size: usize = level.iter().map(|w| w.count_ones() as usize).sum();
        while size > 0 {
            let next: Vec<AtomicU64> = level.iter().map(|_| AtomicU64::new(0)).collect();
            let threads = if size < WALK_SHARED { 1 } else { self.threads };
            for_chunks(
                threads,
                &mut level,
                WALK_WORDS,
                || ([Square::A0; MAX_PIECES], Cursor::new(&self.table.layout)),
                |(p, cursor), first, words| {
                    for (i, &word) in words.iter().enumerate() {
                        let u0 = 64 * (first + i);
                        let mut bits = word;
                        while bits != 0 {
                            let u = u0 + bits.trailing_zeros() as usize;
                            bits &= bits - 1;
                            self.predecessors(u, p, cursor, |v, weight| {
                                let state = states[v].load(Relaxed);
                                if state == ATTRACTED || state == BLOCKED || !counts(v, u) {
                                    return;
                                }
                                let taken = if self.player(v, winner) == player {
                                    states[v].swap(ATTRACTED, Relaxed) != ATTRACTED
                                } else {
                                    // Every move of `v` counted is counted down once, so
                                    // the count reaches 0 once and never goes below.
                                    let before = states[v].fetch_sub(weight, Relaxed);
                                    debug_assert!(before >= weight, "move counter below zero");
                                    before == weight && {
                                        states[v].store(ATTRACTED, Relaxed);
                                        true
                                    }
                                };
                                if taken {
                                    next[v / 64].fetch_or(1 << (v % 64), Relaxed);
                                }
                            });
                        }
                    }
                },
            );
            level = next.into_iter().map(AtomicU64::into_inner).collect();
            size = level.iter().map(|w| w.count_ones() as usize).sum();
        }
    }

    /// The drawn positions that `winner` wins by the rules: by perpetual check, or by a
    /// perpetual chase of one of its pieces, or by forcing the play into positions won
    /// either way (see the module docs); and of them, those it does not win by perpetual
    /// check alone (the check game with no chase game, where a capture into a smaller
    /// table's result of the chase rule is worth a draw).
    fn solve(&self, winner: Color) -> (Set, Set) {
        let n = self.node.len();
        // The kinds of which the winner has exactly one piece: every chase of a piece of
        // such a kind is a chase of the same piece, as the referee follows it.
        let kinds: Vec<PieceKind> = PieceKind::ALL
            .into_iter()
            .filter(|&k| k != PieceKind::General && self.count(winner, k) == 1)
            .collect();
        let forced = self.must_chase(winner, &kinds);
        let none = Set::empty(n);
        let mut won = none.clone();
        let mut by_check = None;
        loop {
            won = self.solve_check(winner, &won, Rules::Both);
            let checked = won.clone();
            // Perpetual check alone: the first check game, unless a capture leads to a
            // smaller table's result of the chase rule (then solved again without it).
            let by_check = by_check.get_or_insert_with(|| {
                let chase_exits = CHASE_WIN_EXIT | CHASE_LOSS_EXIT;
                if self.facts.iter().any(|f| f.flags & chase_exits != 0) {
                    self.solve_check(winner, &none, Rules::CheckOnly)
                } else {
                    checked.clone()
                }
            });
            for (&kind, _) in kinds.iter().zip(&forced).filter(|(_, &f)| f) {
                won = self.solve_chase(winner, kind, &won);
            }
            if won == checked {
                let by_chase = won.minus(by_check);
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
            self.node.len(),
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
        u32::from(self.armies[side.index()] >> (2 * kind.index())) & 3
    }

    /// How many pieces of `kind` of the other side `by` chases in node `v`.
    fn chases(&self, v: usize, by: Color, kind: PieceKind) -> u32 {
        u32::from(self.facts[v].chased[by.index()] >> (2 * kind.index())) & 3
    }

    /// The drawn positions that `winner` wins by perpetual check, or by forcing the play
    /// into `target` (positions it wins already).
    fn solve_check(&self, winner: Color, target: &Set, rules: Rules) -> Set {
        let n = self.node.len();
        let all = Set::from_fn(n, |_| true);
        // Moves out of the draws first: what each side can force by them.
        let w0 = self.attractor(winner, Player::Winner, target, &all, rules);
        let d1 = all.minus(&w0);
        let l0 = self.attractor(winner, Player::Loser, &Set::empty(n), &d1, rules);
        let d2 = d1.minus(&l0);
        let w2 = self.zielonka(winner, d2, rules);
        w0.union(&w2)
    }

    /// The priority, in the game of the perpetual chase of the winner's piece of `kind`,
    /// of the move from node `v` to node `w`: 0 for a move of the loser that newly chases
    /// that piece without check, 1 for a move of the winner that newly chases nothing and
    /// gives no check, 2 for a check or any other move of the loser, 0 for any other move
    /// of the winner. The winner wins an endless play when the highest priority seen
    /// forever is 1.
    fn chase_priority(&self, v: usize, w: usize, winner: Color, kind: PieceKind) -> u8 {
        if self.facts[w].flags & IN_CHECK != 0 {
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
        let n = self.node.len();
        let mut z2 = Set::empty(n);
        loop {
            let mut z1 = Set::from_fn(n, |_| true);
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
            if target.has(v) || self.escapes(v, winner, Player::Winner, Rules::Both) {
                return ATTRACTED;
            }
            if self.escapes(v, winner, Player::Loser, Rules::Both) {
                return BLOCKED;
            }
            let (mut good, mut bad, mut zeros) = (false, false, 0u32);
            self.successors(v, p, cursor, |w| {
                let ok = match priority(v, w) {
                    2 => z2.has(w),
                    1 => z1.has(w),
                    _ => {
                        zeros += 1;
                        return;
                    }
                };
                good |= ok;
                bad |= !ok;
            });
            match self.player(v, winner) {
                Player::Winner if good => ATTRACTED,
                Player::Winner => 0,
                Player::Loser if bad => BLOCKED,
                Player::Loser => moves_left(zeros),
            }
        });
        self.attract(winner, Player::Winner, start, |v, u| priority(v, u) == 0)
    }

    /// Zielonka's algorithm for priorities 0, 1 and 2 on the closed set `alive`, in
    /// which no node can leave the draws: the nodes the winner wins.
    fn zielonka(&self, winner: Color, mut alive: Set, rules: Rules) -> Set {
        let n = self.node.len();
        let mut won = Set::empty(n);
        loop {
            let top = alive.members().map(|v| self.priority(v, winner)).max();
            match top {
                None | Some(0) => return won,
                Some(1) => {
                    let ones = Set::from_fn(n, |v| alive.has(v) && self.priority(v, winner) == 1);
                    let a = self.attractor(winner, Player::Winner, &ones, &alive, rules);
                    let rest = alive.minus(&a);
                    let rest_won = self.zielonka(winner, rest.clone(), rules);
                    let lost = rest.minus(&rest_won);
                    if !lost.any() {
                        return won.union(&alive);
                    }
                    let b = self.attractor(winner, Player::Loser, &lost, &alive, rules);
                    alive = alive.minus(&b);
                }
                Some(_) => {
                    let twos = Set::from_fn(n, |v| alive.has(v) && self.priority(v, winner) == 2);
                    let a = self.attractor(winner, Player::Loser, &twos, &alive, rules);
                    let rest = alive.minus(&a);
                    let rest_won = self.zielonka(winner, rest, rules);
                    if !rest_won.any() {
                        return won;
                    }
                    let b = self.attractor(winner, Player::Winner, &rest_won, &alive, rules);
                    won = won.union(&b);
                    alive = alive.minus(&b);
                }
            }
        }
    }
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
    /// has no node for any other entry, and gives each node's entry back.
    #[test]
    fn nodes_number_the_draws_in_order() {
        let mut codes = vec![0u16; 64 * 4 + 5];
        for e in (0..64).chain([130, 191]).chain(256..261) {
            codes[e] = 1;
        }
        codes[7] = 2; // a mate, not a draw
        assert_eq!(numbered(&codes), 63 + 1 + 1 + 5);
    }

    /// The same over many words, where the nodes back to entries start their search
    /// from every 64th node: runs of draws and gaps of every length up to 200, so that a
    /// 64th node falls in full words, after empty ones and at a word's last bit.
    #[test]
    fn nodes_give_back_the_entries_of_long_tables() {
        let mut codes = Vec::new();
        let mut x = 12345u32;
        while codes.len() < 100_000 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let (run, gap) = ((x >> 8) % 200, (x >> 20) % 200);
            codes.extend((0..run).map(|_| 1u16).chain((0..gap).map(|_| 0)));
        }
        assert!(numbered(&codes) > 40_000);
    }

    /// Checks the map of `codes`' draws both ways and returns how many draws it has.
    fn numbered(codes: &[u16]) -> usize {
        let nodes = Nodes::new(codes);
        let mut next = 0;
        for (e, &c) in codes.iter().enumerate() {
            if c == 1 {
                assert_eq!(nodes.get(e as u64), Some(next), "entry {e}");
                assert_eq!(nodes.entry(next), e as u64, "node {next}");
                next += 1;
            } else {
                assert_eq!(nodes.get(e as u64), None, "entry {e}");
            }
        }
        assert_eq!(nodes.len(), next);
        next
    }

    /// A set of nodes keeps its members in bits across words, and its difference and
    /// union are those of the sets.
    #[test]
    fn sets_of_nodes_are_sets() {
        let n = 200;
        let a = Set::from_fn(n, |v| v % 3 == 0);
        let b = Set::from_fn(n, |v| v % 5 == 0);
        assert_eq!(a.members().count(), 67);
        assert!(a.has(63) && a.has(198) && !a.has(199) && !a.has(64));
        let expect = |f: &dyn Fn(usize) -> bool| (0..n).filter(|&v| f(v)).collect::<Vec<_>>();
        assert_eq!(
            a.minus(&b).members().collect::<Vec<_>>(),
            expect(&|v| v % 3 == 0 && v % 5 != 0)
        );
        assert_eq!(
            a.union(&b).members().collect::<Vec<_>>(),
            expect(&|v| v % 3 == 0 || v % 5 == 0)
        );
        assert!(Set::from_fn(n, |_| true) == a.union(&Set::from_fn(n, |v| v % 3 != 0)));
        assert!(!Set::empty(n).any() && Set::from_fn(n, |v| v == 199).any());
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
                let none = Set::empty(game.node.len());
                for winner in Color::ALL {
                    let check = |v: usize, w: usize| {
                        if game.facts[w].flags & IN_CHECK != 0 {
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
                    compared += zielonka.members().count();
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
        for (b, a) in before.facts.iter().zip(&after.facts) {
            let (b, a) = (b.flags, a.flags);
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
        assert_eq!((before.facts.len(), win_exits, loss_exits), (11825, 0, 6));
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
                for v in 0..game.node.len() {
                    let (side, index) = split(game.node.entry(v), layout.size);
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
