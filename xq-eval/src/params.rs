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
    S(36, -1),
    // material: general, advisor, elephant, horse, chariot, cannon, soldier
    S(0, 0), S(173, 113), S(169, 104), S(510, 407), S(1351, 951), S(641, 374), S(89, 110),
    // pst_general: d2 e2, d1 e1, d0 e0
    S(-252, 40), S(-193, 33),
    S(-121, 24), S(-9, -6),
    S(55, -21), S(80, -12),
    // pst_advisor: d2, e1, d0
    S(-1, -22), S(53, -21), S(13, -15),
    // pst_elephant: c4, a2, e2, c0
    S(-16, -16), S(-39, -9), S(72, -30), S(18, -19),
    // pst_horse: files a-e (f-i mirror them), one line per rank from 9 down to 0
    S(-45, 237), S(137, -29), S(-28, 191), S(329, 35), S(506, -75),
    S(-247, 170), S(61, 88), S(249, 20), S(105, 60), S(658, -142),
    S(248, 66), S(78, 9), S(120, 22), S(299, 27), S(359, 16),
    S(18, 77), S(338, 0), S(140, 48), S(287, 13), S(111, 55),
    S(57, 42), S(117, 44), S(141, 32), S(212, 33), S(165, 42),
    S(116, -53), S(31, 16), S(108, -12), S(67, -11), S(143, -22),
    S(-24, -12), S(-38, -18), S(0, 9), S(67, -26), S(68, 8),
    S(-10, -4), S(20, -26), S(2, 5), S(90, -31), S(27, -5),
    S(-23, -54), S(-52, -39), S(-47, -11), S(10, 1), S(-12, 1),
    S(-69, -97), S(-65, 36), S(-15, -6), S(-23, 21), S(85, -78),
    // pst_chariot: files a-e (f-i mirror them), one line per rank from 9 down to 0
    S(17, 46), S(62, 39), S(93, 2), S(144, -17), S(-59, 129),
    S(84, 9), S(150, -20), S(111, 12), S(146, -19), S(274, 4),
    S(109, -10), S(118, -40), S(67, 46), S(119, 31), S(98, 38),
    S(53, 63), S(105, 27), S(113, 34), S(120, 15), S(78, 78),
    S(15, 67), S(102, 21), S(108, 19), S(92, 33), S(48, 93),
    S(-9, 2), S(8, 0), S(43, -21), S(56, -8), S(40, 10),
    S(-46, 31), S(17, -23), S(-8, 6), S(10, -10), S(23, 29),
    S(-43, -2), S(4, -14), S(-30, 22), S(6, 20), S(-35, 70),
    S(-47, -33), S(-18, -48), S(6, -15), S(-5, 2), S(-26, -29),
    S(-50, -16), S(-6, -16), S(-27, -37), S(-4, -14), S(-131, 85),
    // pst_cannon: files a-e (f-i mirror them), one line per rank from 9 down to 0
    S(34, 0), S(-24, 28), S(-13, 15), S(-119, 7), S(142, -124),
    S(69, -24), S(12, 26), S(-11, 23), S(45, 22), S(-132, 91),
    S(1, 63), S(30, 30), S(-20, 25), S(13, -7), S(-62, 58),
    S(40, 17), S(38, 53), S(36, 29), S(13, 64), S(36, 28),
    S(32, 51), S(12, 54), S(19, 33), S(7, 46), S(115, 5),
    S(4, -14), S(33, -30), S(28, -32), S(19, -23), S(71, -43),
    S(7, -3), S(-3, -2), S(85, -24), S(14, -11), S(69, -42),
    S(33, -9), S(22, 7), S(44, -9), S(48, 0), S(102, -19),
    S(43, -16), S(24, 8), S(37, -4), S(75, 1), S(106, -33),
    S(-61, -33), S(-79, 0), S(-12, -20), S(43, -4), S(175, -26),
    // soldier_home: a4 c4 e4, a3 c3 e3
    S(-10, 11), S(24, 4), S(33, 44),
    S(-27, 34), S(-8, 2), S(51, 33),
    // soldier_crossed: files a-e (f-i mirror them), one line per rank from 8 down to 5
    S(42, 148), S(56, 124), S(179, 115), S(300, 112), S(985, 100),
    S(39, 86), S(39, 122), S(144, 101), S(302, 174), S(323, 131),
    S(-10, 90), S(30, 104), S(62, 133), S(126, 112), S(49, 142),
    S(-3, 78), S(-11, 109), S(38, 110), S(121, 108), S(81, 138),
    // soldier_bottom: files a-e (f-i mirror them) on rank 9
    S(157, -81), S(-16, -49), S(54, -25), S(281, -96), S(24, -22),
    // advisor_defence: per advisor, by the enemy's attack level 0..=8
    S(-10, -63), S(7, -14), S(-8, -24), S(-11, 22), S(31, 14), S(-14, 65), S(24, -2), S(48, 20), S(191, -131),
    // elephant_defence: per elephant, by the enemy's attack level 0..=8
    S(-12, -49), S(-24, -14), S(18, -27), S(22, -8), S(-10, 6), S(16, -1), S(40, 5), S(100, -5), S(-55, 186),
    // general_exposed: general off its home square, by the enemy's attack level 0..=8
    S(-31, 10), S(-55, 19), S(-38, 32), S(-75, 33), S(-42, -26), S(-68, -56), S(-41, -159), S(-295, -25), S(94, -363),
    // soldier_attack: per crossed soldier, by its side's attack level 0..=8
    S(0, 0), S(62, 1), S(89, -33), S(39, 43), S(40, 39), S(-26, 113), S(-58, 70), S(125, 77), S(33, 85),
    // soldier_connected: per pair of crossed soldiers side by side
    S(159, -65),
    // hollow_cannon: cannon on the general's file, nothing between, general and both advisors at home
    S(188, -25),
    // palace_heart_horse: central cannon aiming over one screen at a horse on the palace heart
    S(91, 175),
    // lopsided_advisors: central cannon against lopsided advisors
    S(22, 7),
    // lopsided_door: ... with the general's door square attacked
    S(29, 22),
    // lopsided_stuck_chariot: ... with the defender's chariot on the door square
    S(-43, 35),
    // bottom_cannon: cannon on the enemy's back rank, clear line to the general
    S(138, -25),
    // missing_advisors: per enemy advisor missing, with both own chariots on the board
    S(20, 191),
    // chariot_mobility: per chariot, by empty squares along its rank and file 0..=17
    S(-38, -267), S(16, -110), S(-10, -71), S(-12, -15), S(-7, 3), S(10, 12),
    S(26, -6), S(44, -1), S(31, -2), S(35, 23), S(35, 11), S(42, 21),
    S(38, 20), S(61, 9), S(70, 3), S(61, 27), S(79, 21), S(59, 29),
    // horse_mobility: per horse, by safe squares 1..=8
    S(24, -26), S(36, -1), S(42, 6), S(50, 8), S(76, 5), S(81, 6), S(103, -2), S(104, -18),
    // trapped_horse: per horse with no safe square
    S(15, -105),
    // cannon_platform: per enemy piece a cannon attacks over a screen
    S(2, 26),
    // pin_general: per enemy piece pinned against its general: horse, chariot, cannon
    S(126, -7), S(111, -4), S(22, 74),
    // pin_chariot: per enemy horse or cannon pinned against an unprotected chariot
    S(41, 121),
    // hanging: per enemy piece attacked and unprotected: advisor, elephant, horse, chariot, cannon, soldier
    S(80, 21), S(44, 17), S(43, 47), S(-25, 11), S(81, 18), S(19, 39),
    // threat_by_lower: per enemy piece attacked by a lower-valued one: chariot, horse, cannon
    S(101, -51), S(140, -50), S(80, -11),
];
// @generated-end
