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
    S(10, 10),
    // material: general, advisor, elephant, horse, chariot, cannon, soldier
    S(0, 0), S(120, 140), S(120, 140), S(380, 420), S(900, 950), S(430, 380), S(60, 90),
    // pst_general: d2 e2, d1 e1, d0 e0
    S(-30, -8), S(-36, -4),
    S(-12, -2), S(-16, 4),
    S(2, 0), S(10, 6),
    // pst_advisor: d2, e1, d0
    S(-6, -6), S(12, 12), S(2, 2),
    // pst_elephant: c4, a2, e2, c0
    S(-6, -6), S(-8, -8), S(14, 14), S(4, 4),
    // pst_horse: files a-e (f-i mirror them), one line per rank from 9 down to 0
    S(0, -10), S(0, 0), S(0, 4), S(24, 8), S(0, 8),
    S(0, 0), S(24, 12), S(52, 24), S(28, 20), S(16, 16),
    S(8, 4), S(32, 16), S(36, 24), S(52, 32), S(36, 32),
    S(12, 4), S(72, 24), S(40, 28), S(68, 36), S(40, 36),
    S(0, 0), S(40, 16), S(36, 24), S(52, 28), S(56, 32),
    S(0, 0), S(32, 12), S(44, 20), S(48, 24), S(52, 28),
    S(8, -4), S(16, 8), S(32, 12), S(20, 16), S(32, 16),
    S(12, -8), S(8, 0), S(16, 8), S(20, 8), S(8, 8),
    S(-20, -16), S(0, -8), S(8, 0), S(12, 0), S(-48, -12),
    S(-8, -24), S(-20, -16), S(0, -8), S(-8, -8), S(0, -8),
    // pst_chariot: files a-e (f-i mirror them), one line per rank from 9 down to 0
    S(0, 8), S(6, 10), S(3, 10), S(21, 14), S(24, 14),
    S(0, 10), S(18, 14), S(9, 14), S(30, 18), S(48, 22),
    S(0, 8), S(6, 12), S(3, 12), S(24, 16), S(30, 18),
    S(0, 8), S(21, 12), S(21, 12), S(30, 16), S(30, 18),
    S(6, 6), S(15, 10), S(15, 10), S(24, 14), S(27, 16),
    S(6, 6), S(18, 10), S(18, 10), S(24, 14), S(27, 16),
    S(-6, 0), S(9, 6), S(-6, 6), S(18, 10), S(24, 12),
    S(-24, 0), S(6, 4), S(-6, 4), S(18, 8), S(18, 8),
    S(-18, -4), S(6, 0), S(0, 0), S(18, 4), S(-18, 0),
    S(-36, -8), S(0, -4), S(-6, -4), S(18, 0), S(-18, -4),
    // pst_cannon: files a-e (f-i mirror them), one line per rank from 9 down to 0
    S(16, 0), S(16, 0), S(0, 0), S(-20, 0), S(-24, 0),
    S(8, 0), S(8, 0), S(0, 0), S(-16, 0), S(-28, 0),
    S(4, 0), S(4, 0), S(0, 0), S(-20, 0), S(-16, 4),
    S(0, 0), S(12, 0), S(12, 0), S(8, 4), S(16, 8),
    S(0, 0), S(0, 0), S(0, 0), S(0, 4), S(16, 8),
    S(-4, 0), S(0, 0), S(12, 0), S(0, 4), S(16, 8),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 4),
    S(4, 0), S(0, 0), S(16, 0), S(12, 4), S(20, 12),
    S(0, 0), S(4, 0), S(8, 0), S(8, 8), S(8, 12),
    S(0, 0), S(0, 0), S(4, 0), S(12, 8), S(12, 8),
    // soldier_home: a4 c4 e4, a3 c3 e3
    S(0, 0), S(24, 10), S(36, 20),
    S(0, 0), S(0, 0), S(32, 10),
    // soldier_crossed: files a-e (f-i mirror them), one line per rank from 8 down to 5
    S(48, 70), S(68, 90), S(108, 120), S(140, 150), S(148, 160),
    S(48, 70), S(68, 90), S(100, 110), S(120, 130), S(120, 140),
    S(48, 60), S(64, 80), S(80, 90), S(88, 100), S(92, 110),
    S(28, 50), S(44, 60), S(52, 70), S(80, 80), S(88, 90),
    // soldier_bottom: files a-e (f-i mirror them) on rank 9
    S(8, 10), S(8, 20), S(8, 30), S(16, 40), S(24, 40),
    // advisor_defence: per advisor, by the enemy's attack level 0..=8
    S(-20, -20), S(-15, -15), S(-10, -10), S(-5, -5), S(0, 0), S(5, 5), S(10, 10), S(15, 15), S(20, 20),
    // elephant_defence: per elephant, by the enemy's attack level 0..=8
    S(-20, -20), S(-15, -15), S(-10, -10), S(-5, -5), S(0, 0), S(5, 5), S(10, 10), S(15, 15), S(20, 20),
    // general_exposed: general off its home square, by the enemy's attack level 0..=8
    S(-5, 0), S(-10, -2), S(-15, -4), S(-20, -6), S(-25, -8), S(-30, -10), S(-35, -12), S(-40, -14), S(-45, -16),
    // soldier_attack: per crossed soldier, by its side's attack level 0..=8
    S(0, 0), S(2, 2), S(4, 4), S(6, 6), S(8, 8), S(10, 10), S(12, 12), S(14, 14), S(16, 16),
    // soldier_connected: per pair of crossed soldiers side by side
    S(10, 20),
    // hollow_cannon: cannon on the general's file, nothing between, general and both advisors at home
    S(80, 20),
    // palace_heart_horse: central cannon aiming over one screen at a horse on the palace heart
    S(50, 10),
    // lopsided_advisors: central cannon against lopsided advisors
    S(20, 5),
    // lopsided_door: ... with the general's door square attacked
    S(30, 0),
    // lopsided_stuck_chariot: ... with the defender's chariot on the door square
    S(30, 0),
    // bottom_cannon: cannon on the enemy's back rank, clear line to the general
    S(40, 10),
    // missing_advisors: per enemy advisor missing, with both own chariots on the board
    S(30, 20),
    // chariot_mobility: per chariot, by empty squares along its rank and file 0..=17
    S(-32, -24), S(-28, -21), S(-24, -18), S(-20, -15), S(-16, -12), S(-12, -9),
    S(-8, -6), S(-4, -3), S(0, 0), S(4, 3), S(8, 6), S(12, 9),
    S(16, 12), S(20, 15), S(24, 18), S(28, 21), S(32, 24), S(36, 27),
    // horse_mobility: per horse, by safe squares 1..=8
    S(-12, -12), S(-4, -4), S(2, 2), S(6, 6), S(10, 10), S(12, 12), S(14, 14), S(16, 16),
    // trapped_horse: per horse with no safe square
    S(-40, -30),
    // cannon_platform: per enemy piece a cannon attacks over a screen
    S(10, 5),
    // pin_general: per enemy piece pinned against its general: horse, chariot, cannon
    S(20, 10), S(40, 20), S(20, 10),
    // pin_chariot: per enemy horse or cannon pinned against an unprotected chariot
    S(30, 20),
    // hanging: per enemy piece attacked and unprotected: advisor, elephant, horse, chariot, cannon, soldier
    S(10, 10), S(10, 10), S(30, 30), S(60, 60), S(30, 30), S(10, 15),
    // threat_by_lower: per enemy piece attacked by a lower-valued one: chariot, horse, cannon
    S(40, 40), S(20, 20), S(20, 20),
];
// @generated-end
