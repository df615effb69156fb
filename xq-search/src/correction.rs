//! Correction history: how far the static evaluation has been from what the search
//! found, remembered by the arrangement of pieces it was wrong about.
//!
//! Each node searched outside check whose result says more than its static evaluation
//! did (and whose best move is not a capture, which the evaluation cannot foresee)
//! moves the entries of its keys towards the difference. Later static evaluations with
//! the same keys are shifted by the entries: a position type the evaluation keeps
//! misjudging (a weakened palace, a soldier chain) is judged closer to its search value
//! everywhere the search meets it, which makes futility, null move and the other
//! margins more accurate. As in Stockfish, the table keeps the evaluation uncorrected
//! and the correction is applied when it is read.
//!
//! Two kinds of key, each with its own table per side to move:
//! - the *structure*: soldiers, advisors, elephants and both generals (what moves slowly,
//!   like the pawns in chess, and what the attacks on a general meet);
//! - each side's *pieces*: its chariots, horses and cannons.

use crate::params::SearchParams;
use xq_core::{zobrist, Color, Move, Piece, PieceKind, Position};

/// Entries per table.
const SIZE: usize = 1 << 14;
/// The largest entry.
const LIMIT: i32 = 1024;
/// The denominator of the correction's weights
/// ([`SearchParams::corr_structure_weight`], [`SearchParams::corr_pieces_weight`]).
const WEIGHT_SCALE: i32 = 96;

/// The keys a position's corrections are found by, updated with each move.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct CorrectionKeys {
    structure: u64,
    pieces: [u64; 2],
}

impl CorrectionKeys {
    /// The keys of `pos`, computed from scratch.
    pub(crate) fn new(pos: &Position) -> CorrectionKeys {
        let mut keys = CorrectionKeys::default();
        for color in Color::ALL {
            for (piece, sq) in pos.pieces(color) {
                keys.toggle(piece, zobrist::piece_square(piece, sq));
            }
        }
        keys
    }

    #[inline]
    fn toggle(&mut self, piece: Piece, z: u64) {
        match piece.kind {
            PieceKind::Chariot | PieceKind::Horse | PieceKind::Cannon => {
                self.pieces[piece.color.index()] ^= z
            }
            _ => self.structure ^= z,
        }
    }

    /// The keys after `moved` plays `m`, capturing `victim` if any (the caller has
    /// both pieces at hand already).
    #[inline]
    pub(crate) fn after(&self, moved: Piece, victim: Option<Piece>, m: Move) -> CorrectionKeys {
        let mut keys = *self;
        keys.toggle(
            moved,
            zobrist::piece_square(moved, m.from()) ^ zobrist::piece_square(moved, m.to()),
        );
        if let Some(victim) = victim {
            keys.toggle(victim, zobrist::piece_square(victim, m.to()));
        }
        keys
    }
}

#[inline]
fn slot(key: u64) -> usize {
    (key >> 50) as usize % SIZE
}

/// Moves `entry` towards `bonus`, less as it nears the limit.
#[inline]
fn update(entry: &mut i16, bonus: i32) {
    let e = *entry as i32;
    *entry = (e + bonus - e * bonus.abs() / LIMIT) as i16;
}

/// The correction tables of one searcher.
#[derive(Debug)]
pub(crate) struct CorrectionHistory {
    /// By side to move and structure key.
    structure: Box<[[i16; SIZE]; 2]>,
    /// By side to move, the colour whose pieces are keyed, and that key.
    pieces: Box<[[[i16; SIZE]; 2]; 2]>,
}

impl CorrectionHistory {
    pub(crate) fn new() -> CorrectionHistory {
        CorrectionHistory {
            structure: Box::new([[0; SIZE]; 2]),
            pieces: Box::new([[[0; SIZE]; 2]; 2]),
        }
    }

    pub(crate) fn clear(&mut self) {
        *self = CorrectionHistory::new();
    }

    /// How many entries hold something learnt.
    #[cfg(test)]
    pub(crate) fn learnt(&self) -> usize {
        let structure = self.structure.iter().flatten();
        let pieces = self.pieces.iter().flatten().flatten();
        structure.chain(pieces).filter(|&&e| e != 0).count()
    }

    /// The correction, in centipawns, for the side to move `us` at a node with `keys`
    /// (weighed by `params`).
    #[inline]
    pub(crate) fn value(&self, us: Color, keys: &CorrectionKeys, params: &SearchParams) -> i32 {
        let u = us.index();
        let s = self.structure[u][slot(keys.structure)] as i32;
        let r = self.pieces[u][0][slot(keys.pieces[0])] as i32;
        let b = self.pieces[u][1][slot(keys.pieces[1])] as i32;
        let pieces = params.corr_pieces_weight;
        (params.corr_structure_weight * s + pieces * r + pieces * b) / WEIGHT_SCALE
    }

    /// Learns from a node searched to `depth` whose result `best` differs from its
    /// corrected static evaluation `eval` (at the rate `params` say).
    #[inline]
    pub(crate) fn learn(
        &mut self,
        us: Color,
        keys: &CorrectionKeys,
        depth: i32,
        best: i32,
        eval: i32,
        params: &SearchParams,
    ) {
        let most = params.corr_update_max;
        let bonus = ((best - eval) * depth / params.corr_update_divisor).clamp(-most, most);
        let u = us.index();
        update(&mut self.structure[u][slot(keys.structure)], bonus);
        update(&mut self.pieces[u][0][slot(keys.pieces[0])], bonus);
        update(&mut self.pieces[u][1][slot(keys.pieces[1])], bonus);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xq_movegen::legal_moves;

    /// `keys` after `m` in `pos`, as the search calls it.
    fn after(keys: &CorrectionKeys, pos: &Position, m: Move) -> CorrectionKeys {
        keys.after(pos.piece_on(m.from()).unwrap(), pos.piece_on(m.to()), m)
    }

    #[test]
    fn the_keys_after_a_move_are_the_keys_of_the_position_it_leads_to() {
        // Through captures by and of every kind: a few hundred plies of a fixed game.
        let mut pos = Position::startpos();
        let mut keys = CorrectionKeys::new(&pos);
        for i in 0..300usize {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            // Prefer captures, so that pieces of every kind leave the board.
            let captures: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| !pos.is_empty(m.to()))
                .collect();
            let m = if captures.is_empty() {
                moves[i * 7 % moves.len()]
            } else {
                captures[i % captures.len()]
            };
            keys = after(&keys, &pos, m);
            pos.make_move(m);
            assert_eq!(keys, CorrectionKeys::new(&pos), "after {m}");
        }
    }

    #[test]
    fn a_soldier_move_changes_the_structure_key_and_a_chariot_move_its_sides_pieces_key() {
        let pos = Position::startpos();
        let keys = CorrectionKeys::new(&pos);
        let soldier = after(&keys, &pos, "e3e4".parse().unwrap());
        assert_ne!(soldier.structure, keys.structure);
        assert_eq!(soldier.pieces, keys.pieces);
        let chariot = after(&keys, &pos, "a0a1".parse().unwrap());
        assert_eq!(chariot.structure, keys.structure);
        assert_ne!(chariot.pieces[0], keys.pieces[0]);
        assert_eq!(chariot.pieces[1], keys.pieces[1]);
    }

    #[test]
    fn corrections_follow_the_errors_and_stay_bounded() {
        let pos = Position::startpos();
        let keys = CorrectionKeys::new(&pos);
        let mut history = CorrectionHistory::new();
        let params = SearchParams::default();
        assert_eq!(history.value(Color::Red, &keys, &params), 0);
        // The search keeps finding 100 more than the evaluation said.
        for _ in 0..50 {
            history.learn(Color::Red, &keys, 8, 100, 0, &params);
        }
        let up = history.value(Color::Red, &keys, &params);
        assert!(up > 0 && up <= 4 * LIMIT / 24, "{up}");
        // Only for the side it was learnt for.
        assert_eq!(history.value(Color::Black, &keys, &params), 0);
        // Huge errors cannot push an entry past the limit.
        for _ in 0..1000 {
            history.learn(Color::Red, &keys, 30, 30_000, 0, &params);
        }
        assert_eq!(history.value(Color::Red, &keys, &params), 4 * LIMIT / 24);
        for _ in 0..1000 {
            history.learn(Color::Red, &keys, 30, -30_000, 0, &params);
        }
        assert_eq!(history.value(Color::Red, &keys, &params), -4 * LIMIT / 24);
    }
}
