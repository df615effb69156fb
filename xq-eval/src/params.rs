//! Every weight of the evaluation, in one table: [`PARAMS`].
//!
//! **The numbers of [`PARAMS`] are written by `xq tune --write`** (the Texel tuner fits
//! them to self-play games, see [`tune`](crate::tune)); edit them by hand only to try a
//! guess. The *layout* is the code's: the named index ranges below and [`TERMS`] say
//! which entries belong to which term, and the tuner keeps them.
//!
//! Each weight is an [`S`]: a middlegame and an endgame value in centipawns, blended by
//! the game phase. The evaluation is linear in the weights: every term counts how often
//! a feature occurs (+1 for each occurrence on Red's side, -1 on Black's) and adds
//! `count * weight`; the module docs of [`terms`](crate::terms) describe each feature.
//!
//! Piece-square tables are kept as Red sees them, files `a` to `e` only (files `f` to
//! `i` mirror them, so the evaluation is left-right symmetric by construction) and only
//! on the squares the piece can reach, listed from Black's side of the board (rank 9)
//! down to Red's back rank (rank 0), as the board is drawn.
//!
//! ```
//! use xq_eval::params::{S, MATERIAL, PARAMS, TERMS};
//! use xq_core::PieceKind;
//! let chariot: S = PARAMS[MATERIAL.start + PieceKind::Chariot.index()];
//! assert!(chariot.mg() > 2 * PARAMS[MATERIAL.start + PieceKind::Horse.index()].mg() - 100);
//! // The terms cover the table exactly, in order.
//! assert_eq!(TERMS.first().unwrap().range.start, 0);
//! assert_eq!(TERMS.last().unwrap().range.end, PARAMS.len());
//! ```

use std::ops::Range;

/// A weight: (middlegame, endgame) centipawns.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct S(pub i32, pub i32);

impl S {
    /// The middlegame value.
    #[inline(always)]
    pub const fn mg(self) -> i32 {
        self.0
    }
    /// The endgame value.
    #[inline(always)]
    pub const fn eg(self) -> i32 {
        self.1
    }
}

/// A named group of weights: one entry of [`TERMS`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    /// The term's name, as `xq eval` shows it and `xq tune --freeze` takes it.
    pub name: &'static str,
    /// Its entries in [`PARAMS`].
    pub range: Range<usize>,
    /// What the entries are, in order (written above them in this file).
    pub layout: &'static str,
    /// How many entries this file writes on one line.
    pub per_line: usize,
}

/// The range of `len` entries after `prev`.
const fn after(prev: Range<usize>, len: usize) -> Range<usize> {
    prev.end..prev.end + len
}

/// Posture levels 0..=8: how many attackers a side has across the river (see
/// [`terms`](crate::terms)).
pub const LEVELS: usize = 9;

/// The bonus for having the move (counted +1 when Red is to move, -1 for Black).
pub const TEMPO: Range<usize> = 0..1;
/// Material, by [`PieceKind::index`](xq_core::PieceKind::index): general (always 0: both
/// sides always have one), advisor, elephant, horse, chariot, cannon, soldier.
pub const MATERIAL: Range<usize> = after(TEMPO, 7);
/// The general's placement: d2 e2, d1 e1, d0 e0.
pub const PST_GENERAL: Range<usize> = after(MATERIAL, 6);
/// The advisor's placement: d2, e1 (the palace heart), d0.
pub const PST_ADVISOR: Range<usize> = after(PST_GENERAL, 3);
/// The elephant's placement: c4, a2, e2, c0.
pub const PST_ELEPHANT: Range<usize> = after(PST_ADVISOR, 4);
/// The horse's placement: files a-e, ranks 9 down to 0.
pub const PST_HORSE: Range<usize> = after(PST_ELEPHANT, 50);
/// The chariot's placement: files a-e, ranks 9 down to 0.
pub const PST_CHARIOT: Range<usize> = after(PST_HORSE, 50);
/// The cannon's placement: files a-e, ranks 9 down to 0.
pub const PST_CANNON: Range<usize> = after(PST_CHARIOT, 50);
/// A soldier on its own side of the river: a4 c4 e4, a3 c3 e3.
pub const SOLDIER_HOME: Range<usize> = after(PST_CANNON, 6);
/// A crossed soldier by file and depth: files a-e, ranks 8 down to 5.
pub const SOLDIER_CROSSED: Range<usize> = after(SOLDIER_HOME, 20);
/// A soldier on the enemy's back rank (底兵, nearly worthless): files a-e.
pub const SOLDIER_BOTTOM: Range<usize> = after(SOLDIER_CROSSED, 5);
/// Each advisor, by the enemy's attack level 0..=8.
pub const ADVISOR_DEFENCE: Range<usize> = after(SOLDIER_BOTTOM, LEVELS);
/// Each elephant, by the enemy's attack level 0..=8.
pub const ELEPHANT_DEFENCE: Range<usize> = after(ADVISOR_DEFENCE, LEVELS);
/// A general off its home square, by the enemy's attack level 0..=8.
pub const GENERAL_EXPOSED: Range<usize> = after(ELEPHANT_DEFENCE, LEVELS);
/// Each crossed soldier short of the back rank, by its own side's attack level 0..=8.
pub const SOLDIER_ATTACK: Range<usize> = after(GENERAL_EXPOSED, LEVELS);
/// Each pair of crossed soldiers side by side.
pub const SOLDIER_CONNECTED: Range<usize> = after(SOLDIER_ATTACK, 1);
/// A hollow cannon (空头炮) against a general at home with both advisors at home.
pub const HOLLOW_CANNON: Range<usize> = after(SOLDIER_CONNECTED, 1);
/// A central cannon aiming over one screen at a horse on the palace heart (窝心马).
pub const PALACE_HEART_HORSE: Range<usize> = after(HOLLOW_CANNON, 1);
/// A central cannon against lopsided advisors.
pub const LOPSIDED_ADVISORS: Range<usize> = after(PALACE_HEART_HORSE, 1);
/// ... and the general's door square attacked.
pub const LOPSIDED_DOOR: Range<usize> = after(LOPSIDED_ADVISORS, 1);
/// ... and the defender's own chariot stuck on the door square.
pub const LOPSIDED_STUCK_CHARIOT: Range<usize> = after(LOPSIDED_DOOR, 1);
/// A bottom cannon (沉底炮): on the enemy's back rank with a clear line to its general.
pub const BOTTOM_CANNON: Range<usize> = after(LOPSIDED_STUCK_CHARIOT, 1);
/// Each advisor the enemy lacks while this side has both chariots.
pub const MISSING_ADVISORS: Range<usize> = after(BOTTOM_CANNON, 1);
/// Each chariot, by its mobility 0..=17 (empty squares along its rank and file).
pub const CHARIOT_MOBILITY: Range<usize> = after(MISSING_ADVISORS, 18);
/// Each horse, by its safe squares 1..=8.
pub const HORSE_MOBILITY: Range<usize> = after(CHARIOT_MOBILITY, 8);
/// Each horse with no safe square.
pub const TRAPPED_HORSE: Range<usize> = after(HORSE_MOBILITY, 1);
/// Each enemy piece a cannon attacks over a screen (a cannon platform, 炮架).
pub const CANNON_PLATFORM: Range<usize> = after(TRAPPED_HORSE, 1);
/// Each enemy horse, chariot or cannon pinned against its general.
pub const PIN_GENERAL: Range<usize> = after(CANNON_PLATFORM, 3);
/// Each enemy horse or cannon pinned against an unprotected chariot.
pub const PIN_CHARIOT: Range<usize> = after(PIN_GENERAL, 1);
/// Each enemy piece attacked and unprotected: advisor, elephant, horse, chariot,
/// cannon, soldier.
pub const HANGING: Range<usize> = after(PIN_CHARIOT, 6);
/// Each enemy piece attacked by a lower-valued piece: chariot (by a horse, cannon,
/// soldier, advisor or elephant), horse, cannon (by a soldier, advisor or elephant).
pub const THREAT_BY_LOWER: Range<usize> = after(HANGING, 3);

/// The number of weights.
pub const N: usize = THREAT_BY_LOWER.end;

/// Every term with its name and its entries in [`PARAMS`], in order.
pub const TERMS: &[Term] = &[
    Term {
        name: "tempo",
        range: TEMPO,
        layout: "the side to move's bonus",
        per_line: 1,
    },
    Term {
        name: "material",
        range: MATERIAL,
        layout: "general, advisor, elephant, horse, chariot, cannon, soldier",
        per_line: 7,
    },
    Term {
        name: "pst_general",
        range: PST_GENERAL,
        layout: "d2 e2, d1 e1, d0 e0",
        per_line: 2,
    },
    Term {
        name: "pst_advisor",
        range: PST_ADVISOR,
        layout: "d2, e1, d0",
        per_line: 3,
    },
    Term {
        name: "pst_elephant",
        range: PST_ELEPHANT,
        layout: "c4, a2, e2, c0",
        per_line: 4,
    },
    Term {
        name: "pst_horse",
        range: PST_HORSE,
        layout: "files a-e (f-i mirror them), one line per rank from 9 down to 0",
        per_line: 5,
    },
    Term {
        name: "pst_chariot",
        range: PST_CHARIOT,
        layout: "files a-e (f-i mirror them), one line per rank from 9 down to 0",
        per_line: 5,
    },
    Term {
        name: "pst_cannon",
        range: PST_CANNON,
        layout: "files a-e (f-i mirror them), one line per rank from 9 down to 0",
        per_line: 5,
    },
    Term {
        name: "soldier_home",
        range: SOLDIER_HOME,
        layout: "a4 c4 e4, a3 c3 e3",
        per_line: 3,
    },
    Term {
        name: "soldier_crossed",
        range: SOLDIER_CROSSED,
        layout: "files a-e (f-i mirror them), one line per rank from 8 down to 5",
        per_line: 5,
    },
    Term {
        name: "soldier_bottom",
        range: SOLDIER_BOTTOM,
        layout: "files a-e (f-i mirror them) on rank 9",
        per_line: 5,
    },
    Term {
        name: "advisor_defence",
        range: ADVISOR_DEFENCE,
        layout: "per advisor, by the enemy's attack level 0..=8",
        per_line: 9,
    },
    Term {
        name: "elephant_defence",
        range: ELEPHANT_DEFENCE,
        layout: "per elephant, by the enemy's attack level 0..=8",
        per_line: 9,
    },
    Term {
        name: "general_exposed",
        range: GENERAL_EXPOSED,
        layout: "general off its home square, by the enemy's attack level 0..=8",
        per_line: 9,
    },
    Term {
        name: "soldier_attack",
        range: SOLDIER_ATTACK,
        layout: "per crossed soldier, by its side's attack level 0..=8",
        per_line: 9,
    },
    Term {
        name: "soldier_connected",
        range: SOLDIER_CONNECTED,
        layout: "per pair of crossed soldiers side by side",
        per_line: 1,
    },
    Term {
        name: "hollow_cannon",
        range: HOLLOW_CANNON,
        layout: "cannon on the general's file, nothing between, general and both advisors at home",
        per_line: 1,
    },
    Term {
        name: "palace_heart_horse",
        range: PALACE_HEART_HORSE,
        layout: "central cannon aiming over one screen at a horse on the palace heart",
        per_line: 1,
    },
    Term {
        name: "lopsided_advisors",
        range: LOPSIDED_ADVISORS,
        layout: "central cannon against lopsided advisors",
        per_line: 1,
    },
    Term {
        name: "lopsided_door",
        range: LOPSIDED_DOOR,
        layout: "... with the general's door square attacked",
        per_line: 1,
    },
    Term {
        name: "lopsided_stuck_chariot",
        range: LOPSIDED_STUCK_CHARIOT,
        layout: "... with the defender's chariot on the door square",
        per_line: 1,
    },
    Term {
        name: "bottom_cannon",
        range: BOTTOM_CANNON,
        layout: "cannon on the enemy's back rank, clear line to the general",
        per_line: 1,
    },
    Term {
        name: "missing_advisors",
        range: MISSING_ADVISORS,
        layout: "per enemy advisor missing, with both own chariots on the board",
        per_line: 1,
    },
    Term {
        name: "chariot_mobility",
        range: CHARIOT_MOBILITY,
        layout: "per chariot, by empty squares along its rank and file 0..=17",
        per_line: 6,
    },
    Term {
        name: "horse_mobility",
        range: HORSE_MOBILITY,
        layout: "per horse, by safe squares 1..=8",
        per_line: 8,
    },
    Term {
        name: "trapped_horse",
        range: TRAPPED_HORSE,
        layout: "per horse with no safe square",
        per_line: 1,
    },
    Term {
        name: "cannon_platform",
        range: CANNON_PLATFORM,
        layout: "per enemy piece a cannon attacks over a screen",
        per_line: 1,
    },
    Term {
        name: "pin_general",
        range: PIN_GENERAL,
        layout: "per enemy piece pinned against its general: horse, chariot, cannon",
        per_line: 3,
    },
    Term {
        name: "pin_chariot",
        range: PIN_CHARIOT,
        layout: "per enemy horse or cannon pinned against an unprotected chariot",
        per_line: 1,
    },
    Term {
        name: "hanging",
        range: HANGING,
        layout: "per enemy piece attacked and unprotected: advisor, elephant, horse, chariot, cannon, soldier",
        per_line: 6,
    },
    Term {
        name: "threat_by_lower",
        range: THREAT_BY_LOWER,
        layout: "per enemy piece attacked by a lower-valued one: chariot, horse, cannon",
        per_line: 3,
    },
];

/// The term that owns entry `param` of [`PARAMS`].
///
/// ```
/// use xq_eval::params::{term_of, HOLLOW_CANNON};
/// assert_eq!(term_of(HOLLOW_CANNON.start).unwrap().name, "hollow_cannon");
/// assert!(term_of(usize::MAX).is_none());
/// ```
pub fn term_of(param: usize) -> Option<&'static Term> {
    TERMS.iter().find(|t| t.range.contains(&param))
}

/// The term named `name`.
///
/// ```
/// assert_eq!(xq_eval::params::term("material").unwrap().range, xq_eval::params::MATERIAL);
/// assert!(xq_eval::params::term("queen").is_none());
/// ```
pub fn term(name: &str) -> Option<&'static Term> {
    TERMS.iter().find(|t| t.name == name)
}

// @generated-begin by `xq tune --write`: everything down to @generated-end is rewritten.
/// Every weight, (middlegame, endgame), in the order of [`TERMS`].
#[rustfmt::skip]
pub const PARAMS: [S; N] = [
    // tempo: the side to move's bonus
    S(48, -6),
    // material: general, advisor, elephant, horse, chariot, cannon, soldier
    S(0, 0), S(217, 84), S(203, 84), S(601, 379), S(1619, 999), S(767, 358), S(112, 96),
    // pst_general: d2 e2, d1 e1, d0 e0
    S(-348, 39), S(-221, 30),
    S(-128, 26), S(-19, 11),
    S(88, -14), S(99, -31),
    // pst_advisor: d2, e1, d0
    S(-6, -28), S(87, -36), S(23, -39),
    // pst_elephant: c4, a2, e2, c0
    S(-31, -23), S(-22, -28), S(90, -46), S(33, -36),
    // pst_horse: files a-e (f-i mirror them), one line per rank from 9 down to 0
    S(250, 71), S(238, 37), S(320, 26), S(410, 112), S(472, 15),
    S(305, 44), S(193, 103), S(316, 42), S(202, 50), S(632, -133),
    S(363, 12), S(153, 53), S(164, 82), S(487, -17), S(431, 25),
    S(72, 81), S(333, 37), S(202, 59), S(373, 30), S(155, 77),
    S(101, 82), S(174, 75), S(208, 62), S(273, 46), S(281, 54),
    S(145, -44), S(25, 32), S(149, 4), S(48, 36), S(119, 25),
    S(-21, 12), S(3, -28), S(-24, 38), S(61, -18), S(85, 25),
    S(-17, -3), S(-20, 3), S(-21, 15), S(84, 7), S(-81, 65),
    S(-28, -83), S(-81, 35), S(-107, 21), S(-4, 3), S(-28, -28),
    S(-165, -165), S(-105, 28), S(3, -12), S(-31, 55), S(-58, 31),
    // pst_chariot: files a-e (f-i mirror them), one line per rank from 9 down to 0
    S(22, 55), S(92, 8), S(135, 28), S(185, 4), S(246, -13),
    S(92, 43), S(194, 14), S(201, 6), S(195, 25), S(456, -55),
    S(88, 50), S(94, 43), S(137, 33), S(177, 28), S(241, 20),
    S(134, 11), S(142, 28), S(190, 9), S(183, 21), S(174, 23),
    S(52, 49), S(112, 46), S(115, 53), S(124, 48), S(103, 58),
    S(-12, -2), S(23, 12), S(30, 21), S(34, 8), S(38, 35),
    S(-62, 48), S(9, 10), S(28, 38), S(47, 16), S(47, 45),
    S(-63, 11), S(11, -5), S(-45, 67), S(-7, 37), S(-95, 113),
    S(-84, -38), S(-11, -51), S(-42, 19), S(-24, 17), S(-97, 81),
    S(-113, -40), S(-8, -48), S(-38, -56), S(-4, 2), S(-245, -197),
    // pst_cannon: files a-e (f-i mirror them), one line per rank from 9 down to 0
    S(157, -62), S(13, 44), S(-58, 46), S(-133, 38), S(132, -99),
    S(60, 15), S(3, 46), S(43, 3), S(63, -47), S(1, -52),
    S(70, 19), S(23, 26), S(25, 104), S(18, 5), S(-58, 91),
    S(70, 25), S(56, 27), S(69, 22), S(39, 31), S(46, 15),
    S(81, 33), S(11, 32), S(67, 13), S(33, 57), S(157, -8),
    S(12, -15), S(41, -21), S(53, -52), S(49, -23), S(109, -69),
    S(28, -17), S(-13, -3), S(50, -10), S(21, 18), S(109, -52),
    S(45, -25), S(17, 3), S(46, -9), S(61, -6), S(97, -25),
    S(16, 7), S(34, 4), S(43, -3), S(56, 13), S(101, 2),
    S(-58, 8), S(-61, 5), S(-72, 9), S(36, 10), S(98, 10),
    // soldier_home: a4 c4 e4, a3 c3 e3
    S(-13, 20), S(28, 12), S(40, 21),
    S(-45, 44), S(-35, 38), S(62, 8),
    // soldier_crossed: files a-e (f-i mirror them), one line per rank from 8 down to 5
    S(99, 92), S(242, 81), S(352, 62), S(554, 63), S(963, 56),
    S(-130, 221), S(66, 109), S(163, 140), S(375, 204), S(204, 163),
    S(-3, 93), S(41, 123), S(106, 125), S(157, 117), S(145, 101),
    S(-21, 109), S(24, 126), S(46, 117), S(123, 129), S(62, 133),
    // soldier_bottom: files a-e (f-i mirror them) on rank 9
    S(96, -103), S(-240, -20), S(120, -37), S(629, -173), S(204, -96),
    // advisor_defence: per advisor, by the enemy's attack level 0..=8
    S(-3, -73), S(-24, -8), S(17, -35), S(-4, 31), S(-11, 28), S(14, 65), S(41, -13), S(149, -51), S(149, -278),
    // elephant_defence: per elephant, by the enemy's attack level 0..=8
    S(-32, -54), S(1, -20), S(12, -32), S(33, -19), S(62, -15), S(40, 1), S(62, 15), S(-19, 30), S(-128, 235),
    // general_exposed: general off its home square, by the enemy's attack level 0..=8
    S(-49, 0), S(-51, -16), S(-26, -2), S(-91, 28), S(-134, 34), S(-170, -9), S(-37, -127), S(-30, -155), S(388, -194),
    // soldier_attack: per crossed soldier, by its side's attack level 0..=8
    S(0, 0), S(115, -28), S(139, -60), S(87, 33), S(66, 42), S(5, 134), S(48, 60), S(74, 103), S(-87, 81),
    // soldier_connected: per pair of crossed soldiers side by side
    S(98, -68),
    // hollow_cannon: cannon on the general's file, nothing between, general and both advisors at home
    S(266, -15),
    // palace_heart_horse: central cannon aiming over one screen at a horse on the palace heart
    S(119, 119),
    // lopsided_advisors: central cannon against lopsided advisors
    S(-10, 14),
    // lopsided_door: ... with the general's door square attacked
    S(5, 32),
    // lopsided_stuck_chariot: ... with the defender's chariot on the door square
    S(-21, 114),
    // bottom_cannon: cannon on the enemy's back rank, clear line to the general
    S(127, -38),
    // missing_advisors: per enemy advisor missing, with both own chariots on the board
    S(-9, 394),
    // chariot_mobility: per chariot, by empty squares along its rank and file 0..=17
    S(11, -116), S(11, -126), S(10, -92), S(11, -41), S(20, -8), S(36, 1),
    S(43, 10), S(41, 20), S(48, 26), S(53, 31), S(44, 32), S(61, 29),
    S(56, 37), S(60, 41), S(76, 32), S(74, 27), S(89, 28), S(66, 38),
    // horse_mobility: per horse, by safe squares 1..=8
    S(41, -28), S(63, -22), S(77, -1), S(88, -10), S(116, -13), S(122, -12), S(140, -3), S(142, -11),
    // trapped_horse: per horse with no safe square
    S(3, -95),
    // cannon_platform: per enemy piece a cannon attacks over a screen
    S(10, 25),
    // pin_general: per enemy piece pinned against its general: horse, chariot, cannon
    S(134, 59), S(154, -28), S(24, 80),
    // pin_chariot: per enemy horse or cannon pinned against an unprotected chariot
    S(83, 123),
    // hanging: per enemy piece attacked and unprotected: advisor, elephant, horse, chariot, cannon, soldier
    S(88, 0), S(48, 16), S(78, 25), S(-33, 14), S(88, 33), S(12, 54),
    // threat_by_lower: per enemy piece attacked by a lower-valued one: chariot, horse, cannon
    S(124, -49), S(159, -39), S(94, 0),
];
// @generated-end
