//! Endgame knowledge: how far the score of a position is to be believed.
//!
//! The evaluation ends with `score * scale / SCALE_MAX`. The scale is not a weight of
//! [`PARAMS`](crate::params::PARAMS): it is decided by rules of Xiangqi endgame theory,
//! and the tuner takes it as given for each position. It looks at the side the score
//! favours (the *strong* side):
//!
//! - **No mating force**: a side with no chariot, horse or cannon, and no soldier short of
//!   the enemy's back rank (a soldier there, 底兵, can no longer reach the general's
//!   squares from the front), cannot win: scale 0. Nor can a lone cannon (no other
//!   attacker, no soldier) without an own advisor to use as a screen (单炮不胜).
//! - **Drawish balances**: a lone chariot (no other attacker, no soldier) against full
//!   advisors and elephants (士象全) is a draw with correct defence (单车难胜士象全):
//!   1/4. A lone horse or cannon (no soldier) against at least three of those
//!   defenders: 1/8. A horse or cannon with one soldier against all four: 3/8.
//! - **The 60-move rule**: after 60 plies without a capture the score fades linearly, to
//!   0 at 120 plies (when the game is drawn). The clock is the position's plies since the
//!   last capture; the rule's special counting of checks is left to the search.

use std::cmp::Ordering;
use xq_core::{Color, Piece, PieceKind, Position};

/// The scale of a position whose score stands: the evaluation is multiplied by
/// `scale / SCALE_MAX`.
pub const SCALE_MAX: i32 = 64;

/// The plies without a capture after which the score starts to fade (the 60-move rule).
/// Up to this clock the evaluation does not depend on the clock at all, which a cache of
/// evaluations may use.
///
/// ```
/// use xq_core::Position;
/// use xq_eval::endgame::FADE_START;
/// let at = |clock: u32| {
///     let fen = format!("3k5/9/9/9/9/9/9/9/9/R3K4 w - - {clock} 1");
///     xq_eval::evaluate(&Position::from_fen(&fen).unwrap())
/// };
/// assert_eq!(at(0), at(FADE_START));
/// assert!(at(FADE_START + 1) < at(FADE_START));
/// ```
pub const FADE_START: u32 = 60;

/// What one side has, as the endgame rules count it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Material {
    chariots: i32,
    horses: i32,
    cannons: i32,
    /// Soldiers short of the enemy's back rank.
    soldiers: i32,
    advisors: i32,
    elephants: i32,
}

impl Material {
    fn of(pos: &Position, color: Color) -> Material {
        let n = |kind| pos.count(Piece::new(color, kind)) as i32;
        let back = match color {
            Color::Red => 9,
            Color::Black => 0,
        };
        Material {
            chariots: n(PieceKind::Chariot),
            horses: n(PieceKind::Horse),
            cannons: n(PieceKind::Cannon),
            soldiers: pos
                .squares_of(Piece::new(color, PieceKind::Soldier))
                .filter(|sq| sq.rank().index() != back)
                .count() as i32,
            advisors: n(PieceKind::Advisor),
            elephants: n(PieceKind::Elephant),
        }
    }

    fn attackers(&self) -> i32 {
        self.chariots + self.horses + self.cannons
    }

    fn defenders(&self) -> i32 {
        self.advisors + self.elephants
    }
}

/// The scale for the side `strong` (the one the score favours) from material alone.
fn material_scale(strong: &Material, weak: &Material) -> i32 {
    let lone = strong.attackers() == 1;
    if strong.attackers() == 0 && strong.soldiers == 0 {
        return 0;
    }
    if lone && strong.soldiers == 0 {
        if strong.cannons == 1 && strong.advisors == 0 {
            return 0;
        }
        if strong.chariots == 1
            && weak.advisors == 2
            && weak.elephants == 2
            && weak.attackers() == 0
        {
            return SCALE_MAX / 4;
        }
        if strong.chariots == 0 && weak.defenders() >= 3 {
            return SCALE_MAX / 8;
        }
    }
    if lone && strong.chariots == 0 && strong.soldiers == 1 && weak.defenders() == 4 {
        return SCALE_MAX * 3 / 8;
    }
    SCALE_MAX
}

/// The scale factor of `pos` (0 to [`SCALE_MAX`]) for a Red-relative score `red_score`
/// before scaling: the endgame rules above, for the side the score favours (the side to
/// move when the score is 0, which any scale leaves 0), times the fade of the 60-move
/// rule.
///
/// ```
/// use xq_core::Position;
/// use xq_eval::endgame::{scale, SCALE_MAX};
/// assert_eq!(scale(&Position::startpos(), 100), SCALE_MAX);
/// // Red has advisors and elephants only: whatever they are worth, Red cannot win.
/// let pos = Position::from_fen("4k4/9/9/9/9/9/9/4B4/4A4/3AK4 w").unwrap();
/// assert_eq!(scale(&pos, 250), 0);
/// // But Black, a soldier up, could (and a score in Black's favour stands).
/// let pos = Position::from_fen("4k4/9/9/9/9/9/4p4/4B4/4A4/3AK4 w").unwrap();
/// assert_eq!(scale(&pos, -50), SCALE_MAX);
/// ```
#[inline]
pub fn scale(pos: &Position, red_score: i32) -> i32 {
    // A score of 0 favours neither side and any scale leaves it 0; take the side to
    // move's rules then, so that swapping the colours gives the same scale.
    let strong = match red_score.cmp(&0) {
        Ordering::Greater => Color::Red,
        Ordering::Less => Color::Black,
        Ordering::Equal => pos.side_to_move(),
    };
    // Every rule above is about a side with at most one attacker: with two, only the
    // clock is left to look at (the common case, a few comparisons).
    let attackers = [PieceKind::Chariot, PieceKind::Horse, PieceKind::Cannon]
        .iter()
        .map(|&k| pos.count(Piece::new(strong, k)))
        .sum::<usize>();
    let material = if attackers >= 2 {
        SCALE_MAX
    } else {
        material_scale(&Material::of(pos, strong), &Material::of(pos, !strong))
    };
    let clock = pos.halfmove_clock();
    if clock <= FADE_START {
        material
    } else {
        let fade = FADE_START as i32;
        material * (2 * fade - clock as i32).max(0) / fade
    }
}
