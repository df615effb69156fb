//! The incremental part of the evaluation: material plus piece-square tables, one
//! (middlegame, endgame) value per piece per square, built at compile time from
//! [`PARAMS`], so a retune changes them.
//!
//! Values are in centipawns, as the tuner fitted them (middlegame / endgame): a horse
//! 510 / 407, a cannon 641 / 374, a chariot 1351 / 951, a soldier at home about 90 / 110
//! and more once across the river, most near the enemy palace. The scale is the fit's:
//! the search only compares scores with each other.
//!
//! Every square a piece can reach has one weight in the table of its kind
//! ([`param`]): the soldier's table is split into three terms (at home, crossed, on the
//! enemy's back rank) so that each shows by name in `xq eval`. Black uses Red's tables
//! mirrored across the river, and files `f` to `i` mirror `a` to `d`.

use crate::params::{
    MATERIAL, PARAMS, PST_ADVISOR, PST_CANNON, PST_CHARIOT, PST_ELEPHANT, PST_GENERAL, PST_HORSE,
    SOLDIER_BOTTOM, SOLDIER_CROSSED, SOLDIER_HOME,
};
use xq_core::{Color, File, Piece, PieceKind, Rank, Square, SquareMap};

/// Phase weight of each kind: the phase is the sum over the board, 48 with every
/// chariot, horse and cannon present, 0 with none.
pub const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 3, 6, 3, 0];
/// The phase of a full board.
pub const PHASE_MAX: i32 = 48;

/// The placement weight of `kind` on `sq` as Red sees it (file, rank): an index into
/// `PARAMS`, or `None` where the piece can never stand.
const fn red_param(kind: PieceKind, file: usize, rank: usize) -> Option<usize> {
    // Files f-i mirror d-a.
    let f = if file > 4 { 8 - file } else { file };
    match kind {
        PieceKind::General if f >= 3 && rank <= 2 => {
            Some(PST_GENERAL.start + (2 - rank) * 2 + (f - 3))
        }
        PieceKind::Advisor => match (f, rank) {
            (3, 2) => Some(PST_ADVISOR.start),
            (4, 1) => Some(PST_ADVISOR.start + 1),
            (3, 0) => Some(PST_ADVISOR.start + 2),
            _ => None,
        },
        PieceKind::Elephant => match (f, rank) {
            (2, 4) => Some(PST_ELEPHANT.start),
            (0, 2) => Some(PST_ELEPHANT.start + 1),
            (4, 2) => Some(PST_ELEPHANT.start + 2),
            (2, 0) => Some(PST_ELEPHANT.start + 3),
            _ => None,
        },
        PieceKind::Horse => Some(PST_HORSE.start + (9 - rank) * 5 + f),
        PieceKind::Chariot => Some(PST_CHARIOT.start + (9 - rank) * 5 + f),
        PieceKind::Cannon => Some(PST_CANNON.start + (9 - rank) * 5 + f),
        PieceKind::Soldier if rank == 9 => Some(SOLDIER_BOTTOM.start + f),
        PieceKind::Soldier if rank >= 5 => Some(SOLDIER_CROSSED.start + (8 - rank) * 5 + f),
        PieceKind::Soldier if rank >= 3 && f % 2 == 0 => {
            Some(SOLDIER_HOME.start + (4 - rank) * 3 + f / 2)
        }
        _ => None,
    }
}

/// `NONE` marks a square a piece never reaches in [`PARAM`].
const NONE: u16 = u16::MAX;

/// The placement weight of each kind on each square, as Red sees it.
static PARAM: [SquareMap<u16>; 7] = {
    let mut t = [SquareMap::new(NONE); 7];
    let mut kind = 0;
    while kind < 7 {
        let mut i = 0;
        while i < 90 {
            let sq = Square::ALL[i];
            let k = PieceKind::ALL[kind];
            if let Some(p) = red_param(k, sq.file().index(), sq.rank().index()) {
                t[kind] = t[kind].with(sq, p as u16);
            }
            i += 1;
        }
        kind += 1;
    }
    t
};

/// The placement weight (an index into [`PARAMS`]) of `piece` on
/// `sq`: Black's pieces use the square mirrored across the river. `None` where the piece
/// can never stand (an advisor off its five squares, a soldier behind its start).
///
/// ```
/// use xq_core::{Piece, Square};
/// use xq_eval::params::{PST_HORSE, SOLDIER_BOTTOM};
/// use xq_eval::pst::param;
/// let horse = Piece::from_char('N').unwrap();
/// // b0 and h0 share a weight, and Black's horse on b9 uses it too.
/// assert_eq!(param(horse, Square::B0), Some(PST_HORSE.start + 45 + 1));
/// assert_eq!(param(horse, Square::H0), param(horse, Square::B0));
/// assert_eq!(param(Piece::from_char('n').unwrap(), Square::B9), param(horse, Square::B0));
/// assert_eq!(param(Piece::from_char('P').unwrap(), Square::E9), Some(SOLDIER_BOTTOM.start + 4));
/// assert_eq!(param(Piece::from_char('A').unwrap(), Square::E0), None);
/// ```
#[inline]
pub fn param(piece: Piece, sq: Square) -> Option<usize> {
    let red_sq = match piece.color {
        Color::Red => sq,
        Color::Black => sq.flip_vertical(),
    };
    match PARAM[piece.kind.index()][red_sq] {
        NONE => None,
        p => Some(p as usize),
    }
}

/// The (mg, eg) value of every piece on every square, Red-relative (Black's entries
/// negative), material included: `PSQ[piece index][square]`.
pub(crate) static PSQ: [SquareMap<(i32, i32)>; 14] = {
    let mut t = [const { SquareMap::new((0, 0)) }; 14];
    let mut kind = 0;
    while kind < 7 {
        let material = PARAMS[MATERIAL.start + kind];
        let mut i = 0;
        while i < 90 {
            let red_sq = Square::ALL[i];
            let mut v = (material.0, material.1);
            let (file, rank) = (red_sq.file().index(), red_sq.rank().index());
            if let Some(p) = red_param(PieceKind::ALL[kind], file, rank) {
                v.0 += PARAMS[p].0;
                v.1 += PARAMS[p].1;
            }
            // Black's piece on the square mirrored across the river.
            let black_sq = red_sq.flip_vertical();
            let (red_map, black_map) = (t[kind], t[7 + kind]);
            t[kind] = red_map.with(red_sq, v);
            t[7 + kind] = black_map.with(black_sq, (-v.0, -v.1));
            i += 1;
        }
        kind += 1;
    }
    t
};

/// The (middlegame, endgame) value of `kind` on a square given as Red sees it, file
/// `0..9` and rank `0..10` (clamped), material included.
///
/// ```
/// use xq_core::PieceKind;
/// let (_, home) = xq_eval::pst::value(PieceKind::Soldier, 4, 3);
/// let (_, crossed) = xq_eval::pst::value(PieceKind::Soldier, 4, 5);
/// assert!(crossed > home); // in the endgame
/// ```
pub fn value(kind: PieceKind, file: usize, rank: usize) -> (i32, i32) {
    let (Some(f), Some(r)) = (File::from_index(file.min(8)), Rank::from_index(rank.min(9))) else {
        unreachable!("clamped to the board")
    };
    PSQ[kind.index()][Square::new(f, r)]
}

/// The material value of `kind`: (middlegame, endgame).
///
/// ```
/// use xq_core::PieceKind;
/// let (chariot, horse) = (xq_eval::pst::material(PieceKind::Chariot), xq_eval::pst::material(PieceKind::Horse));
/// assert!(chariot.0 > horse.0 && chariot.1 > horse.1);
/// ```
pub fn material(kind: PieceKind) -> (i32, i32) {
    let s = PARAMS[MATERIAL.start + kind.index()];
    (s.0, s.1)
}
