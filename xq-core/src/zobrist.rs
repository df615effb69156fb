//! Zobrist hashing keys.
//!
//! The keys are generated at compile time by SplitMix64 from a fixed seed, so they are
//! the same in every build and on every platform: a position's [`key`](crate::Position::key)
//! is stable and may be stored (for an opening book, say). A test pins reference values.
//!
//! A position's key is the XOR of [`piece_square`] for every piece on the board, XORed
//! with [`side_to_move`] when Black is to move.

use crate::piece::Piece;
use crate::random::SplitMix64;
use crate::square::Square;

const SEED: u64 = 0x5851_f42d_4c95_7f2d;

struct Keys {
    piece_square: [[u64; 256]; 14],
    side: u64,
}

static KEYS: Keys = {
    let mut piece_square = [[0u64; 256]; 14];
    let mut rng = SplitMix64::new(SEED);
    let mut p = 0;
    while p < 14 {
        let mut i = 0;
        while i < 90 {
            let sq = Square::ALL[i].mailbox();
            let (next, key) = rng.next_const();
            piece_square[p][sq] = key;
            rng = next;
            i += 1;
        }
        p += 1;
    }
    Keys {
        piece_square,
        side: rng.next_const().1,
    }
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
