//! The rules inside the tree: repetitions (perpetual check and perpetual chase lose,
//! other repetitions draw) and the 60-move rule, applied at every node after the root.
//!
//! The game's own referee is `xq_movegen::Game::outcome`; the search asks the same
//! rules whether the current node repeats a position of its path, with the rules crate's
//! [`find_repetition`] (a single repetition after the root decides), its cycle ruling
//! ([`rule_cycle`]) and its 60-move count ([`move_rule_plies`]). It keeps one fast helper
//! of its own, [`perpetual_check`], which reads the checks of the path instead of
//! replaying the cycle.

use crate::score::{mate_in, mated_in};
use xq_core::{Move, Position};
use xq_movegen::rules::{find_repetition, move_rule_plies, rule_cycle, NO_CAPTURE_DRAW_PLIES};
use xq_movegen::{Game, Termination};

/// The ruling of the perpetual-check rule on a position that repeats an earlier one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Repetition {
    /// Neither side (or both) checked with every move of the cycle: a draw (unless one
    /// side chased perpetually, which the chase ruling decides).
    Draw,
    /// The side to move checked with every one of its moves in the cycle and the other
    /// side did not: the side to move loses.
    SideToMoveLoses,
    /// The other side checked perpetually: the side to move wins.
    SideToMoveWins,
}

/// The perpetual-check rule on the cycle from position `first` to the last position of
/// `checks` (`checks[i]` says whether the move leading to position `i` gave check): the
/// side that checked with every one of its moves loses unless the other did too.
///
/// # Panics
/// If `first` is not an index of `checks`.
pub(crate) fn perpetual_check(checks: &[bool], first: usize) -> Repetition {
    let n = checks.len().saturating_sub(1);
    assert!(
        first < checks.len(),
        "the cycle starts after the last position"
    );
    // Moves by the side that just moved lead to n, n-2, ...; by the side to move to
    // n-1, n-3, ...
    let them = (first + 1..=n).rev().step_by(2).all(|j| checks[j]);
    let us = (first + 1..n).rev().step_by(2).all(|j| checks[j]);
    match (us, them) {
        (true, false) => Repetition::SideToMoveLoses,
        (false, true) => Repetition::SideToMoveWins,
        _ => Repetition::Draw,
    }
}

/// The positions the rules look back over: from the last capture before the root to the
/// current node, with the moves between them. Indexed by position (the root's index is
/// the number of game positions kept before it), not by ply.
#[derive(Debug)]
pub(crate) struct PositionHistory {
    /// The key of each position.
    keys: Vec<u64>,
    /// Whether the move that led to each position gave check.
    checks: Vec<bool>,
    /// The moves between the positions of `keys` (`None` for a null move): what the
    /// chase rule replays when a cycle repeats.
    moves: Vec<Option<Move>>,
    /// The position of `keys[0]`, where the replay starts.
    base: Position,
    /// The index of the root position.
    root: usize,
    /// The index of the position the last null move on the current path led to: no
    /// repetition cycle may contain a pass.
    null_at: Option<usize>,
}

impl PositionHistory {
    /// An empty history (a searcher that has not searched yet).
    pub(crate) fn new() -> PositionHistory {
        PositionHistory {
            keys: Vec::new(),
            checks: Vec::new(),
            moves: Vec::new(),
            base: Position::startpos(),
            root: 0,
            null_at: None,
        }
    }

    /// The history of a search from the current position of `game`: the positions since
    /// its last capture (no earlier one can repeat), the current one the root.
    pub(crate) fn start(&mut self, game: &Game) {
        let keep = (game.position().halfmove_clock() as usize + 1).min(game.keys().len());
        let from = game.keys().len() - keep;
        self.keys = game.keys()[from..].to_vec();
        self.checks = game.checks()[from..].to_vec();
        self.moves = game.moves()[from..].iter().map(|&m| Some(m)).collect();
        self.base = game.position_at(from).expect("within the game");
        self.root = self.keys.len() - 1;
        self.null_at = None;
    }

    /// Did the position with `key` occur in the game before the root (since its last
    /// capture)?
    pub(crate) fn occurred_before_root(&self, key: u64) -> bool {
        self.keys[..self.root].contains(&key)
    }

    /// Does the side to move at the current position stand in check?
    #[inline]
    pub(crate) fn in_check(&self) -> bool {
        self.checks[self.keys.len() - 1]
    }

    /// Was the current position reached by a null move?
    #[inline]
    pub(crate) fn after_null(&self) -> bool {
        self.null_at == Some(self.keys.len() - 1)
    }

    /// Adds the position with `key` that `m` led to, giving check or not.
    #[inline]
    pub(crate) fn push(&mut self, key: u64, check: bool, m: Move) {
        self.keys.push(key);
        self.checks.push(check);
        self.moves.push(Some(m));
    }

    /// Takes back the last [`push`](PositionHistory::push).
    #[inline]
    pub(crate) fn pop(&mut self) {
        self.keys.pop();
        self.checks.pop();
        self.moves.pop();
    }

    /// Adds the position with `key` that a null move led to; returns what
    /// [`pop_null`](PositionHistory::pop_null) needs to take it back.
    #[inline]
    pub(crate) fn push_null(&mut self, key: u64) -> Option<usize> {
        self.keys.push(key);
        self.checks.push(false);
        self.moves.push(None);
        self.null_at.replace(self.keys.len() - 1)
    }

    /// Takes back the last [`push_null`](PositionHistory::push_null), which returned
    /// `null_before`.
    #[inline]
    pub(crate) fn pop_null(&mut self, null_before: Option<usize>) {
        self.null_at = null_before;
        self.keys.pop();
        self.checks.pop();
        self.moves.pop();
    }

    /// The value of the current position, `pos` at `ply`, if it is a repetition or falls
    /// under the 60-move rule.
    pub(crate) fn rule_value(&self, pos: &Position, ply: usize) -> Option<i32> {
        // In the referee's order: repetition first, then the 60-move rule (under which a
        // side with no legal move has still lost).
        // A cycle reaches back no further than the last capture, or the last null move.
        let n = self.keys.len() - 1;
        let reversible = (pos.halfmove_clock() as usize).min(n - self.null_at.unwrap_or(0));
        if reversible >= 4 {
            if let Some(first) = find_repetition(&self.keys, reversible, Some(self.root)) {
                return Some(match perpetual_check(&self.checks, first) {
                    // Perpetual check (and chase) loses like being mated there (as
                    // Pikafish scores it): a defender prefers a longer real mate to
                    // losing by rule sooner.
                    Repetition::SideToMoveWins => mate_in(ply),
                    Repetition::SideToMoveLoses => mated_in(ply),
                    Repetition::Draw => self.chase_value(pos, first, ply),
                });
            }
        }
        if pos.halfmove_clock() >= NO_CAPTURE_DRAW_PLIES
            && move_rule_plies(pos.halfmove_clock(), &self.checks) >= NO_CAPTURE_DRAW_PLIES
        {
            return Some(if xq_movegen::count_legal(pos) == 0 {
                mated_in(ply)
            } else {
                0
            });
        }
        None
    }

    /// The value of a repetition of `pos` (at `ply`) from `self.keys[first]` with no
    /// perpetual check: a draw unless one side chased perpetually. Any check in the cycle
    /// draws at once; the chase ruling (the cost: a few capture lists per move of the
    /// cycle) runs only on cycles without a check or a null move.
    fn chase_value(&self, pos: &Position, first: usize, ply: usize) -> i32 {
        if self.checks[first + 1..].contains(&true) {
            return 0;
        }
        let Some(cycle) = self.moves[first..]
            .iter()
            .copied()
            .collect::<Option<Vec<Move>>>()
        else {
            return 0;
        };
        let mut start = self.base.clone();
        for m in &self.moves[..first] {
            match *m {
                Some(m) => {
                    start.make_move(m);
                }
                None => {
                    start.make_null();
                }
            }
        }
        match rule_cycle(&start, &cycle) {
            Ok(outcome) => match outcome.termination {
                // Perpetual chase loses like being mated there, as perpetual check does.
                Termination::PerpetualChase { by, .. } if by == pos.side_to_move() => mated_in(ply),
                Termination::PerpetualChase { .. } => mate_in(ply),
                _ => 0,
            },
            Err(_) => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repetition_decides_at_the_third_occurrence_or_the_second_after_the_root() {
        let keys = [1, 2, 3, 4, 1, 2, 3, 4, 1];
        assert_eq!(find_repetition(&keys, 100, Some(8)), Some(0));
        // Twice is not enough in a game, nor when the first occurrence is the root.
        assert_eq!(find_repetition(&keys[..5], 100, Some(4)), None);
        assert_eq!(find_repetition(&keys[..5], 100, Some(0)), None);
        // After the root, twice is enough.
        assert_eq!(find_repetition(&[9, 1, 2, 3, 4, 1], 100, Some(0)), Some(1));
        // A capture 7 plies ago: the first occurrence is out of reach.
        assert_eq!(find_repetition(&keys, 7, Some(8)), None);
    }

    #[test]
    fn the_side_that_checked_with_every_move_loses() {
        // The side that just moved checked twice, the side to move never.
        let checks = [false, false, true, false, true];
        assert_eq!(perpetual_check(&checks, 0), Repetition::SideToMoveWins);
        // The side to move checked with both its moves.
        let checks = [false, true, false, true, false];
        assert_eq!(perpetual_check(&checks, 0), Repetition::SideToMoveLoses);
        // Both sides, or neither.
        assert_eq!(
            perpetual_check(&[false, true, true, true, true], 0),
            Repetition::Draw
        );
        assert_eq!(perpetual_check(&[false; 5], 0), Repetition::Draw);
    }
}
