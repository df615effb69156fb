//! The perpetual-check rule, for tables where both sides have attacking pieces.
//!
//! The retrograde analysis ([`generate`](crate::generate)) finds every forced mate; what
//! is left is a draw *without* the rule. Under the Asian rules that xq applies, a side
//! that checks with every move of a repetition loses, unless the other side does too.
//! Among those draws, this pass finds the positions where one side (the winner `W`) can
//! play so that every endless line ends in a cycle in which the other side (`L`) checks
//! with every move and `W` does not; or where `L` must step out of the draws into a
//! loss, or into a capture that leads to a position of a smaller table that `W` wins by
//! the rule. Those become [`TableValue::RuleWin`] for `W` to move and
//! [`TableValue::RuleLoss`] for `L` to move.
//!
//! This is a parity game on the drawn positions, with the priority of a position given
//! by the move that reached it: 2 when `L` has just moved without giving check (good for
//! `L`: it is not checking perpetually), 1 when `W` has (good for `W`: it is not), 0 when
//! the move gave check. `W` wins an endless line when the highest priority seen
//! infinitely often is 1. It is solved by Zielonka's algorithm, whose attractors walk
//! backwards with the generator's unmoves and move counters. Both players have
//! positional winning strategies in a parity game, so every cycle of `W`'s strategy
//! against any defence has `L` checking with every move and `W` not: the repetition the
//! referee judges.
//!
//! Chases are not counted: a side that chases an unprotected piece with every move also
//! loses under the Asian rules, and this pass ignores it (docs/tablebases.md says which
//! results that can change).

use crate::gen::{capture_value, split, unmove_weight, unmoves, Table};
use crate::index::{Cursor, Placement, MAX_PIECES};
use crate::value::{TableValue, CODE_RULE_LOSS, CODE_RULE_WIN};
use xq_core::{Color, Square};

/// A drawn position's facts, as bits.
const BLACK_TO_MOVE: u8 = 1;
const IN_CHECK: u8 = 2;
/// A capture leads to a position the mover wins by the rule.
const RULE_WIN_EXIT: u8 = 4;
/// A capture leads to a drawn position.
const DRAW_EXIT: u8 = 8;

/// No node: the entry is no drawn position.
const NONE: u32 = u32::MAX;

/// Applies the perpetual-check rule to the draws of `table` (whose captures lead to the
/// tables `subs`), rewriting them as rule wins and losses where the rule decides them.
/// Returns how many positions changed.
pub(crate) fn apply(table: &mut Table, subs: &[&Table]) -> u64 {
    let mut decided: Vec<(usize, u16)> = Vec::new();
    {
        let game = Game::new(table, subs);
        for winner in Color::ALL {
            let won = game.solve(winner);
            for (v, &w) in won.iter().enumerate() {
                if w {
                    let code = if game.side(v) == winner {
                        CODE_RULE_WIN
                    } else {
                        CODE_RULE_LOSS
                    };
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
    decided.len() as u64
}

/// The drawn positions of a table as a game graph; its edges are found when needed
/// (moves forwards, unmoves backwards), so it costs a few bytes a position.
struct Game<'a> {
    table: &'a Table,
    /// The entry (side to move and number) of each node.
    entries: Vec<u64>,
    /// The node of each entry, [`NONE`] if it is no drawn position.
    node: Vec<u32>,
    flags: Vec<u8>,
}

/// A set of nodes.
type Set = Vec<bool>;

/// Who picks the move at a node, in the game of one winner.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Player {
    /// The side that would win by the rule.
    Winner,
    /// The other.
    Loser,
}

impl<'a> Game<'a> {
    fn new(table: &'a Table, subs: &[&Table]) -> Game<'a> {
        let layout = &table.layout;
        let mut node = vec![NONE; table.codes.len()];
        let mut entries = Vec::new();
        for (e, &c) in table.codes.iter().enumerate() {
            if c == 1 {
                node[e] = entries.len() as u32;
                entries.push(e as u64);
            }
        }
        let mut flags = vec![0u8; entries.len()];
        let mut p: Placement = [Square::A0; MAX_PIECES];
        let mut cursor = Cursor::new(layout);
        let ending = layout.ending;
        for (v, &e) in entries.iter().enumerate() {
            let (side, index) = split(e, layout.size);
            let canonical = layout.decode(index, &mut p);
            debug_assert!(canonical);
            let pos = cursor
                .position(&p, side)
                .expect("a drawn position is legal");
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
                let child = capture_value(&ending, subs, pos, captured);
                pos.unmake_move(m, undo);
                match child.for_mover() {
                    TableValue::RuleWin => f |= RULE_WIN_EXIT,
                    TableValue::Draw => f |= DRAW_EXIT,
                    TableValue::Win { .. } => {
                        unreachable!("a drawn position has no winning capture")
                    }
                    TableValue::Loss { .. } | TableValue::RuleLoss => {}
                }
            }
            flags[v] = f;
        }
        Game {
            table,
            entries,
            node,
            flags,
        }
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
    /// outright? The winner: a capture into a smaller table's rule win. The loser: a
    /// capture into a draw or into its own rule win.
    fn escapes(&self, v: usize, winner: Color, player: Player) -> bool {
        if self.player(v, winner) != player {
            return false;
        }
        let f = self.flags[v];
        match player {
            Player::Winner => f & RULE_WIN_EXIT != 0,
            Player::Loser => f & (RULE_WIN_EXIT | DRAW_EXIT) != 0,
        }
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
            let e = (!side).index() as u64 * layout.size + c.index;
            let w = self.node[e as usize];
            if w != NONE {
                found(w as usize);
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
            let e = (!side).index() as u64 * layout.size + canon.index;
            let w = self.node[e as usize];
            if w != NONE {
                found(w as usize, weight);
            }
        });
    }

    /// The nodes of `alive` from which `player` can force the play into `target` (or,
    /// for either player, out of the draws to its own advantage), staying in `alive`.
    /// `alive` must be closed for play: every node in it keeps a move in it.
    fn attractor(&self, winner: Color, player: Player, target: &Set, alive: &Set) -> Set {
        let layout = &self.table.layout;
        let mut p: Placement = [Square::A0; MAX_PIECES];
        let mut cursor = Cursor::new(layout);
        let n = self.entries.len();
        let mut attracted = vec![false; n];
        // Moves left to the opponent's nodes before they fall; 0 for `player`'s nodes
        // and for nodes the opponent can always leave.
        let mut left = vec![0u8; n];
        let mut blocked = vec![false; n];
        let mut queue = Vec::new();
        for v in 0..n {
            if !alive[v] {
                continue;
            }
            if target[v] || self.escapes(v, winner, player) {
                attracted[v] = true;
                queue.push(v);
            } else if self.player(v, winner) != player {
                let other = match player {
                    Player::Winner => Player::Loser,
                    Player::Loser => Player::Winner,
                };
                if self.escapes(v, winner, other) {
                    blocked[v] = true;
                    continue;
                }
                let mut count = 0u32;
                self.successors(v, &mut p, &mut cursor, |w| count += u32::from(alive[w]));
                if count == 0 {
                    attracted[v] = true;
                    queue.push(v);
                } else {
                    left[v] = u8::try_from(count).expect("fewer than 256 moves");
                }
            }
        }
        while let Some(u) = queue.pop() {
            self.predecessors(u, &mut p, &mut cursor, |v, weight| {
                if !alive[v] || attracted[v] || blocked[v] {
                    return;
                }
                if self.player(v, winner) == player {
                    attracted[v] = true;
                    queue.push(v);
                } else {
                    debug_assert!(left[v] >= weight, "move counter below zero");
                    left[v] -= weight;
                    if left[v] == 0 {
                        attracted[v] = true;
                        queue.push(v);
                    }
                }
            });
        }
        attracted
    }

    /// The drawn positions that `winner` wins by the rule.
    fn solve(&self, winner: Color) -> Set {
        let n = self.entries.len();
        let none = vec![false; n];
        let all = vec![true; n];
        // Moves out of the draws first: what each side can force by them.
        let w0 = self.attractor(winner, Player::Winner, &none, &all);
        let d1 = minus(&all, &w0);
        let l0 = self.attractor(winner, Player::Loser, &none, &d1);
        let d2 = minus(&d1, &l0);
        let w2 = self.zielonka(winner, d2);
        union(&w0, &w2)
    }

    /// Zielonka's algorithm for priorities 0, 1 and 2 on the closed set `alive`, in
    /// which no node can leave the draws: the nodes the winner wins.
    fn zielonka(&self, winner: Color, mut alive: Set) -> Set {
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
                    let a = self.attractor(winner, Player::Winner, &ones, &alive);
                    let rest = minus(&alive, &a);
                    let rest_won = self.zielonka(winner, rest.clone());
                    let lost = minus(&rest, &rest_won);
                    if !lost.iter().any(|&x| x) {
                        return union(&won, &alive);
                    }
                    let b = self.attractor(winner, Player::Loser, &lost, &alive);
                    alive = minus(&alive, &b);
                }
                Some(_) => {
                    let twos: Set = (0..n)
                        .map(|v| alive[v] && self.priority(v, winner) == 2)
                        .collect();
                    let a = self.attractor(winner, Player::Loser, &twos, &alive);
                    let rest = minus(&alive, &a);
                    let rest_won = self.zielonka(winner, rest);
                    if !rest_won.iter().any(|&x| x) {
                        return won;
                    }
                    let b = self.attractor(winner, Player::Winner, &rest_won, &alive);
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
