//! Zobrist hashing keys.
//!
//! The keys are generated at compile time by SplitMix64 from a fixed seed, so they are
//! the same in every build and on every platform: a position's [`key`](crate::Position::key)
//! is stable and may be stored (for an opening book, say). A test pins reference values.
//!
//! A position's key is the XOR of [`piece_square`] for every piece on the board, XORed
//! with [`side_to_move`] when Black is to move.

use crate::piece::Piece;
use crate::square::Square;

const SEED: u64 = 0x5851_f42d_4c95_7f2d;

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

struct Keys {
    piece_square: [[u64; 256]; 14],
    side: u64,
}

static KEYS: Keys = {
    let mut piece_square = [[0u64; 256]; 14];
    let mut state = SEED;
    let mut p = 0;
    while p < 14 {
        let mut i = 0;
        while i < 90 {
            let sq = Square::ALL[i].mailbox();
            let (s, k) = splitmix(state);
            state = s;
            piece_square[p][sq] = k;
            i += 1;
        }
        p += 1;
    }
    let (_, side) = splitmix(state);
    Keys { piece_square, side }
};

/// The key of `piece` standing on `square`.
///
/// ```
/// use xq_core::{zobrist, Piece, Square};
/// let red_cannon = Piece::from_char('C').unwrap();
/// assert_ne!(zobrist::piece_square(red_cannon, Square::H2), zobrist::piece_square(red_cannon, Square::E2));
/// ```
#[inline(always)]
pub fn piece_square(piece: Piece, square: Square) -> u64 {
    KEYS.piece_square[piece.index()][square.mailbox()]
}

/// Key by dense piece index and mailbox index (hot path, no conversions).
#[inline(always)]
pub(crate) fn raw(piece_index: usize, mailbox: usize) -> u64 {
    KEYS.piece_square[piece_index][mailbox]
}

/// The key XORed in when Black is to move.
#[inline(always)]
pub fn side_to_move() -> u64 {
    KEYS.side
}
