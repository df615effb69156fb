//! The value of each piece kind for the search's own arithmetic, in centipawns: one
//! table for the static exchange, the order of captures (most valuable victim first,
//! least valuable attacker first) and delta pruning. The evaluation's material is
//! `xq_eval`'s (tapered by phase and fitted); these stay fixed.

use xq_core::PieceKind;

/// By kind, in the order of [`PieceKind::index`]: general, advisor, elephant, horse,
/// chariot, cannon, soldier. The general's is never won: it only captures last.
const VALUE: [i32; 7] = [10000, 120, 120, 400, 900, 420, 80];

/// The value of a piece of `kind`.
#[inline(always)]
pub(crate) const fn piece_value(kind: PieceKind) -> i32 {
    VALUE[kind as usize]
}
