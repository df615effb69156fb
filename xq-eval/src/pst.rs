//! Material values and piece-square tables.
//!
//! Values are in centipawns (on this scale a soldier at home is worth
//! about 60, one that has crossed the river and nears the palace up to about 200), a horse
//! about 400, a cannon about 420 in the middlegame, a chariot about 900.
//!
//! Tables are written as Red sees the board, rank 9 (Black's back rank) at the top and
//! rank 0 (Red's back rank) at the bottom, files `a` to `i` from left to right. Black uses
//! the same tables mirrored across the river. Every entry is added to the kind's
//! material value; `mg` applies with the board full, `eg` in the endgame, and the
//! evaluation interpolates between them by the game phase ([`Eval::phase`](crate::Eval::phase)).

use xq_core::{File, PieceKind, Rank, Square, SquareMap};

/// Material value of each kind in the middlegame (general, advisor, elephant, horse,
/// chariot, cannon, soldier).
pub const MATERIAL_MG: [i32; 7] = [0, 120, 120, 380, 900, 430, 60];
/// Material value of each kind in the endgame: the horse gains on the cannon as the
/// board empties (a cannon needs screens), and soldiers gain.
pub const MATERIAL_EG: [i32; 7] = [0, 140, 140, 420, 950, 380, 90];

/// Phase weight of each kind: the phase is the sum over the board, 48 with every
/// chariot, horse and cannon present, 0 with none.
pub const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 3, 6, 3, 0];
/// The phase of a full board.
pub const PHASE_MAX: i32 = 48;

type Table = [[i32; 9]; 10];

const GENERAL_MG: Table = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, -30, -36, -30, 0, 0, 0],
    [0, 0, 0, -12, -16, -12, 0, 0, 0],
    [0, 0, 0, 2, 10, 2, 0, 0, 0],
];
const GENERAL_EG: Table = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, -8, -4, -8, 0, 0, 0],
    [0, 0, 0, -2, 4, -2, 0, 0, 0],
    [0, 0, 0, 0, 6, 0, 0, 0, 0],
];
const ADVISOR: Table = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, -6, 0, -6, 0, 0, 0],
    [0, 0, 0, 0, 12, 0, 0, 0, 0],
    [0, 0, 0, 2, 0, 2, 0, 0, 0],
];
const ELEPHANT: Table = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, -6, 0, 0, 0, -6, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [-8, 0, 0, 0, 14, 0, 0, 0, -8],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 4, 0, 0, 0, 4, 0, 0],
];
const HORSE_MG: Table = [
    [0, 0, 0, 24, 0, 24, 0, 0, 0],
    [0, 24, 52, 28, 16, 28, 52, 24, 0],
    [8, 32, 36, 52, 36, 52, 36, 32, 8],
    [12, 72, 40, 68, 40, 68, 40, 72, 12],
    [0, 40, 36, 52, 56, 52, 36, 40, 0],
    [0, 32, 44, 48, 52, 48, 44, 32, 0],
    [8, 16, 32, 20, 32, 20, 32, 16, 8],
    [12, 8, 16, 20, 8, 20, 16, 8, 12],
    [-20, 0, 8, 12, -48, 12, 8, 0, -20],
    [-8, -20, 0, -8, 0, -8, 0, -20, -8],
];
const HORSE_EG: Table = [
    [-10, 0, 4, 8, 8, 8, 4, 0, -10],
    [0, 12, 24, 20, 16, 20, 24, 12, 0],
    [4, 16, 24, 32, 32, 32, 24, 16, 4],
    [4, 24, 28, 36, 36, 36, 28, 24, 4],
    [0, 16, 24, 28, 32, 28, 24, 16, 0],
    [0, 12, 20, 24, 28, 24, 20, 12, 0],
    [-4, 8, 12, 16, 16, 16, 12, 8, -4],
    [-8, 0, 8, 8, 8, 8, 8, 0, -8],
    [-16, -8, 0, 0, -12, 0, 0, -8, -16],
    [-24, -16, -8, -8, -8, -8, -8, -16, -24],
];
const CHARIOT_MG: Table = [
    [0, 6, 3, 21, 24, 21, 3, 6, 0],
    [0, 18, 9, 30, 48, 30, 9, 18, 0],
    [0, 6, 3, 24, 30, 24, 3, 6, 0],
    [0, 21, 21, 30, 30, 30, 21, 21, 0],
    [6, 15, 15, 24, 27, 24, 15, 15, 6],
    [6, 18, 18, 24, 27, 24, 18, 18, 6],
    [-6, 9, -6, 18, 24, 18, -6, 9, -6],
    [-24, 6, -6, 18, 18, 18, -6, 6, -24],
    [-18, 6, 0, 18, -18, 18, 0, 6, -18],
    [-36, 0, -6, 18, -18, 18, -6, 0, -36],
];
const CHARIOT_EG: Table = [
    [8, 10, 10, 14, 14, 14, 10, 10, 8],
    [10, 14, 14, 18, 22, 18, 14, 14, 10],
    [8, 12, 12, 16, 18, 16, 12, 12, 8],
    [8, 12, 12, 16, 18, 16, 12, 12, 8],
    [6, 10, 10, 14, 16, 14, 10, 10, 6],
    [6, 10, 10, 14, 16, 14, 10, 10, 6],
    [0, 6, 6, 10, 12, 10, 6, 6, 0],
    [0, 4, 4, 8, 8, 8, 4, 4, 0],
    [-4, 0, 0, 4, 0, 4, 0, 0, -4],
    [-8, -4, -4, 0, -4, 0, -4, -4, -8],
];
const CANNON_MG: Table = [
    [16, 16, 0, -20, -24, -20, 0, 16, 16],
    [8, 8, 0, -16, -28, -16, 0, 8, 8],
    [4, 4, 0, -20, -16, -20, 0, 4, 4],
    [0, 12, 12, 8, 16, 8, 12, 12, 0],
    [0, 0, 0, 0, 16, 0, 0, 0, 0],
    [-4, 0, 12, 0, 16, 0, 12, 0, -4],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [4, 0, 16, 12, 20, 12, 16, 0, 4],
    [0, 4, 8, 8, 8, 8, 8, 4, 0],
    [0, 0, 4, 12, 12, 12, 4, 0, 0],
];
const CANNON_EG: Table = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 4, 0, 0, 0, 0],
    [0, 0, 0, 4, 8, 4, 0, 0, 0],
    [0, 0, 0, 4, 8, 4, 0, 0, 0],
    [0, 0, 0, 4, 8, 4, 0, 0, 0],
    [0, 0, 0, 0, 4, 0, 0, 0, 0],
    [0, 0, 0, 4, 12, 4, 0, 0, 0],
    [0, 0, 0, 8, 12, 8, 0, 0, 0],
    [0, 0, 0, 8, 8, 8, 0, 0, 0],
];
const SOLDIER_MG: Table = [
    [8, 8, 8, 16, 24, 16, 8, 8, 8],
    [48, 68, 108, 140, 148, 140, 108, 68, 48],
    [48, 68, 100, 120, 120, 120, 100, 68, 48],
    [48, 64, 80, 88, 92, 88, 80, 64, 48],
    [28, 44, 52, 80, 88, 80, 52, 44, 28],
    [0, 0, 24, 0, 36, 0, 24, 0, 0],
    [0, 0, 0, 0, 32, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
];
const SOLDIER_EG: Table = [
    [10, 20, 30, 40, 40, 40, 30, 20, 10],
    [70, 90, 120, 150, 160, 150, 120, 90, 70],
    [70, 90, 110, 130, 140, 130, 110, 90, 70],
    [60, 80, 90, 100, 110, 100, 90, 80, 60],
    [50, 60, 70, 80, 90, 80, 70, 60, 50],
    [0, 0, 10, 0, 20, 0, 10, 0, 0],
    [0, 0, 0, 0, 10, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
];

const TABLES: [(Table, Table); 7] = [
    (GENERAL_MG, GENERAL_EG),
    (ADVISOR, ADVISOR),
    (ELEPHANT, ELEPHANT),
    (HORSE_MG, HORSE_EG),
    (CHARIOT_MG, CHARIOT_EG),
    (CANNON_MG, CANNON_EG),
    (SOLDIER_MG, SOLDIER_EG),
];

/// The (mg, eg) value of every piece on every square, Red-relative (Black's entries
/// negative), material included: `PSQ[piece index][square]`.
pub(crate) static PSQ: [SquareMap<(i32, i32)>; 14] = {
    let mut t = [const { SquareMap::new((0, 0)) }; 14];
    let mut kind = 0;
    while kind < 7 {
        let mut rank = 0;
        while rank < 10 {
            let mut file = 0;
            while file < 9 {
                let (mg, eg) = (&TABLES[kind].0, &TABLES[kind].1);
                // Row 0 of a table is rank 9 as Red sees it.
                let red = (
                    MATERIAL_MG[kind] + mg[9 - rank][file],
                    MATERIAL_EG[kind] + eg[9 - rank][file],
                );
                let (Some(f), Some(r)) = (File::from_index(file), Rank::from_index(rank)) else {
                    unreachable!()
                };
                let red_sq = Square::new(f, r);
                // Black's piece on the square mirrored across the river.
                let black_sq = red_sq.flip_vertical();
                let (red_map, black_map) = (t[kind], t[7 + kind]);
                t[kind] = red_map.with(red_sq, red);
                t[7 + kind] = black_map.with(black_sq, (-red.0, -red.1));
                file += 1;
            }
            rank += 1;
        }
        kind += 1;
    }
    t
};

/// The (middlegame, endgame) value of `kind` on a square given as Red sees it, file
/// `0..9` and rank `0..10`, material included.
///
/// ```
/// use xq_core::{File, PieceKind, Rank, Square, SquareMap};
/// let (home, _) = xq_eval::pst::value(PieceKind::Soldier, 4, 3);
/// let (crossed, _) = xq_eval::pst::value(PieceKind::Soldier, 4, 6);
/// assert!(crossed > home);
/// ```
pub fn value(kind: PieceKind, file: usize, rank: usize) -> (i32, i32) {
    let k = kind.index();
    let (mg, eg) = (&TABLES[k].0, &TABLES[k].1);
    (
        MATERIAL_MG[k] + mg[9 - rank.min(9)][file.min(8)],
        MATERIAL_EG[k] + eg[9 - rank.min(9)][file.min(8)],
    )
}
