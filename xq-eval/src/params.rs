//! Every weight of the evaluation, in one table: [`PARAMS`].
//!
//! **The numbers of [`PARAMS`] are written by `xq tune --write`** (the Texel tuner fits
//! them to self-play games, see `xq_train::tune`); edit them by hand only to try a
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
    S(52, -5),
    // material: general, advisor, elephant, horse, chariot, cannon, soldier
    S(0, 0), S(215, 78), S(212, 82), S(631, 376), S(1677, 999), S(804, 360), S(108, 82),
    // pst_general: d2 e2, d1 e1, d0 e0
    S(-406, 41), S(-255, 30),
    S(-110, 28), S(-7, 11),
    S(85, -11), S(106, -32),
    // pst_advisor: d2, e1, d0
    S(-13, -34), S(90, -33), S(26, -36),
    // pst_elephant: c4, a2, e2, c0
    S(-21, -21), S(-22, -30), S(102, -41), S(35, -33),
    // pst_horse: files a-e (f-i mirror them), one line per rank from 9 down to 0
    S(234, 79), S(147, 97), S(311, 50), S(439, 25), S(398, 39),
    S(202, 66), S(267, 75), S(382, 44), S(205, 46), S(620, -113),
    S(367, 24), S(269, 37), S(241, 49), S(560, -47), S(493, 19),
    S(134, 70), S(360, 40), S(225, 56), S(399, 36), S(167, 75),
    S(142, 72), S(214, 36), S(228, 62), S(306, 42), S(321, 47),
    S(115, -21), S(22, 26), S(149, 6), S(56, 23), S(116, 14),
    S(-67, 64), S(20, -41), S(-12, 24), S(49, -2), S(81, 27),
    S(-25, -10), S(-36, 17), S(-26, 16), S(65, 13), S(-63, 41),
    S(-31, -79), S(-91, 42), S(-100, 10), S(-26, 7), S(-48, -14),
    S(-168, -129), S(-122, 18), S(-21, -32), S(-31, 62), S(-112, 127),
    // pst_chariot: files a-e (f-i mirror them), one line per rank from 9 down to 0
    S(51, 55), S(140, 19), S(175, 11), S(243, -11), S(214, 8),
    S(97, 34), S(196, 7), S(195, 12), S(210, 18), S(290, 38),
    S(104, 54), S(130, 51), S(172, 33), S(198, 57), S(254, 15),
    S(149, 25), S(172, 26), S(215, 28), S(213, 23), S(207, 27),
    S(73, 62), S(131, 38), S(154, 25), S(156, 47), S(120, 57),
    S(-30, 7), S(4, 9), S(23, 9), S(46, -2), S(33, 24),
    S(-81, 52), S(1, 11), S(34, 18), S(29, 11), S(13, 39),
    S(-70, 15), S(0, -12), S(-71, 69), S(-21, 41), S(-109, 109),
    S(-94, -13), S(-28, -50), S(-81, 12), S(-43, 36), S(-99, 54),
    S(-125, -32), S(-21, -47), S(-45, -64), S(-19, 8), S(-378, -147),
    // pst_cannon: files a-e (f-i mirror them), one line per rank from 9 down to 0
    S(169, -48), S(26, 43), S(-77, 54), S(-159, 57), S(34, -125),
    S(82, 13), S(12, 54), S(37, -1), S(54, -53), S(11, -47),
    S(97, -1), S(33, 22), S(25, 18), S(21, 7), S(-81, 90),
    S(66, 45), S(56, 48), S(69, 8), S(47, 47), S(74, 13),
    S(103, 32), S(20, 35), S(109, -14), S(45, 39), S(184, -20),
    S(-11, -20), S(31, -37), S(51, -65), S(38, -12), S(106, -54),
    S(62, -26), S(-26, 4), S(36, -21), S(15, 21), S(64, -35),
    S(47, -24), S(5, 9), S(38, -12), S(71, 3), S(104, -24),
    S(25, 13), S(25, 11), S(61, 5), S(52, 23), S(101, 5),
    S(-88, 21), S(-56, -1), S(-71, 23), S(35, 20), S(175, -3),
    // soldier_home: a4 c4 e4, a3 c3 e3
    S(-20, 13), S(20, 20), S(33, 26),
    S(-43, 43), S(-41, 36), S(64, 21),
    // soldier_crossed: files a-e (f-i mirror them), one line per rank from 8 down to 5
    S(124, 93), S(279, 79), S(374, 59), S(584, 53), S(971, 50),
    S(-43, 142), S(122, 105), S(215, 117), S(393, 186), S(276, 155),
    S(-13, 88), S(5, 133), S(98, 134), S(156, 122), S(148, 104),
    S(-43, 117), S(5, 130), S(50, 122), S(126, 133), S(64, 141),
    // soldier_bottom: files a-e (f-i mirror them) on rank 9
    S(-95, 28), S(-49, -18), S(151, -23), S(555, -148), S(574, -142),
    // advisor_defence: per advisor, by the enemy's attack level 0..=8
    S(-24, -71), S(-23, -1), S(10, -31), S(4, 23), S(8, 10), S(25, 44), S(53, -30), S(117, -39), S(161, -225),
    // elephant_defence: per elephant, by the enemy's attack level 0..=8
    S(-22, -65), S(1, -27), S(13, -29), S(19, -16), S(42, -9), S(38, 8), S(55, 24), S(24, 13), S(-46, 154),
    // general_exposed: general off its home square, by the enemy's attack level 0..=8
    S(-57, -16), S(-59, -10), S(-49, 7), S(-105, 45), S(-125, 45), S(-146, -16), S(-9, -151), S(37, -186), S(254, -212),
    // soldier_attack: per crossed soldier, by its side's attack level 0..=8
    S(0, 0), S(128, -12), S(162, -54), S(97, 28), S(89, 33), S(14, 115), S(40, 59), S(40, 112), S(-31, 31),
    // soldier_connected: per pair of crossed soldiers side by side
    S(88, -77),
    // hollow_cannon: cannon on the general's file, nothing between, general and both advisors at home
    S(300, -23),
    // palace_heart_horse: central cannon aiming over one screen at a horse on the palace heart
    S(137, 120),
    // lopsided_advisors: central cannon against lopsided advisors
    S(-15, 16),
    // lopsided_door: ... with the general's door square attacked
    S(5, 49),
    // lopsided_stuck_chariot: ... with the defender's chariot on the door square
    S(-13, 112),
    // bottom_cannon: cannon on the enemy's back rank, clear line to the general
    S(171, -65),
    // missing_advisors: per enemy advisor missing, with both own chariots on the board
    S(6, 412),
    // chariot_mobility: per chariot, by empty squares along its rank and file 0..=17
    S(-8, -440), S(18, -190), S(1, -83), S(14, -35), S(25, -1), S(41, 15),
    S(50, 22), S(56, 21), S(65, 25), S(64, 32), S(56, 34), S(72, 36),
    S(53, 38), S(74, 46), S(91, 35), S(97, 26), S(107, 30), S(80, 47),
    // horse_mobility: per horse, by safe squares 1..=8
    S(45, -42), S(65, -20), S(82, -4), S(102, -9), S(123, -14), S(134, -11), S(160, -18), S(166, -34),
    // trapped_horse: per horse with no safe square
    S(3, -94),
    // cannon_platform: per enemy piece a cannon attacks over a screen
    S(3, 31),
    // pin_general: per enemy piece pinned against its general: horse, chariot, cannon
    S(129, 58), S(166, -19), S(27, 77),
    // pin_chariot: per enemy horse or cannon pinned against an unprotected chariot
    S(84, 141),
    // hanging: per enemy piece attacked and unprotected: advisor, elephant, horse, chariot, cannon, soldier
    S(71, 4), S(48, 20), S(77, 39), S(-31, 25), S(92, 33), S(14, 44),
    // threat_by_lower: per enemy piece attacked by a lower-valued one: chariot, horse, cannon
    S(121, -65), S(162, -38), S(89, 1),
];
// @generated-end
