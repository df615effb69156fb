//! An exhaustive mate prover, written apart from the search: the shortest forced mate of
//! a position by plain AND/OR search over every legal move, no pruning and no evaluation.
//! The forced-mate suite's lengths are proven with it.
//!
//! Under xq's rules a side with no legal move loses (mate and stalemate alike). The
//! 120-ply rule (no capture) draws: a mate that would come after it is none. Repetitions
//! are not looked at: a shortest mate never repeats a position, and a defence that
//! repeats only lengthens the attacker's line, which then is not a mate in the given
//! number of moves anyway.

use std::collections::HashMap;
use xq_core::Position;
use xq_movegen::{legal_moves, rules::NO_CAPTURE_DRAW_PLIES};

/// The smallest `n <= max` such that the side to move mates in `n` moves (its `n`-th move
/// leaves the opponent without a legal move) whatever the opponent does; `None` when there
/// is none within `max`.
///
/// ```
/// use xq_core::Position;
/// // The chariot mates at once on e9 (the other holds rank 8).
/// let pos = Position::from_fen("3k5/R8/9/9/9/9/9/9/4R4/4K4 w").unwrap();
/// assert_eq!(xq_testkit::mate::shortest_mate(&pos, 3), Some(1));
/// assert_eq!(xq_testkit::mate::shortest_mate(&Position::startpos(), 1), None);
/// ```
pub fn shortest_mate(pos: &Position, max: u32) -> Option<u32> {
    let mut prover = Prover::default();
    let mut pos = pos.clone();
    (1..=max).find(|&n| prover.mates(&mut pos, n))
}

/// The memory of the proofs: by position key and moves left, whether the side to move
/// mates.
#[derive(Default)]
struct Prover {
    known: HashMap<(u64, u32), bool>,
}

impl Prover {
    /// Does the side to move mate in at most `n` moves?
    fn mates(&mut self, pos: &mut Position, n: u32) -> bool {
        // The rule would draw before the mate is given.
        if pos.halfmove_clock() as usize + 2 * n as usize - 1 > NO_CAPTURE_DRAW_PLIES as usize {
            return false;
        }
        let key = (
            pos.key() ^ u64::from(pos.halfmove_clock()).rotate_left(17),
            n,
        );
        if let Some(&known) = self.known.get(&key) {
            return known;
        }
        let mut found = false;
        for m in legal_moves(pos) {
            let undo = pos.make_move(m);
            let replies = legal_moves(pos);
            let wins = replies.is_empty()
                || (n > 1
                    && replies.iter().all(|&r| {
                        let undo_r = pos.make_move(r);
                        let mated = self.mates(pos, n - 1);
                        pos.unmake_move(r, undo_r);
                        mated
                    }));
            pos.unmake_move(m, undo);
            if wins {
                found = true;
                break;
            }
        }
        self.known.insert(key, found);
        found
    }
}
