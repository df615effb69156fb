//! Attack geometry: the steps pieces move by, the horse's legs, the elephant's eyes, the
//! lines through a square, and a set of squares.
//!
//! This is the one home of the board's geometry: the check test of
//! [`Position`](crate::Position) (behind FEN validation) and the move generators of
//! `xq-movegen` are both written with it.
//!
//! A [`Step`] moves a [`Square`] by [`Square::offset`], which returns `None` when the
//! step leaves the board. The board sits in a padded 16x16 mailbox, so every step here is
//! one addition and one table look-up.
//!
//! ```
//! use xq_core::attacks::{horse_leg, Step, HORSE_MOVES};
//! use xq_core::Square;
//! // The horse on b0 has two moves through its leg b1 (c2 and a2); c0 blocks the third.
//! let (leg, targets) = HORSE_MOVES[0];
//! assert_eq!(leg, Step::UP);
//! assert_eq!(Square::B0.offset(leg), Some(Square::B1));
//! let to: Vec<_> = targets.iter().filter_map(|&t| Square::B0.offset(t)).collect();
//! assert_eq!(to, [Square::C2, Square::A2]);
//! assert_eq!(horse_leg(Square::B0, Square::D1), Some(Square::C0));
//! assert_eq!(horse_leg(Square::B0, Square::B2), None);
//! ```

use crate::piece::Color;
use crate::square::{in_board, Square};
use std::fmt;

/// A step from one square to another: a direction and distance on the board, such as one
/// rank up or a horse's jump.
///
/// ```
/// use xq_core::attacks::Step;
/// use xq_core::{Color, Square};
/// assert_eq!(Step::forward(Color::Black), Step::DOWN);
/// assert_eq!(Square::E4.offset(Step::UP.then(Step::UP)), Some(Square::E6));
/// assert_eq!((Step::UP_RIGHT.files(), Step::UP_RIGHT.ranks()), (1, 1));
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Step(i8);

impl Step {
    /// One rank towards Black (rank + 1).
    pub const UP: Step = Step(16);
    /// One rank towards Red (rank - 1).
    pub const DOWN: Step = Step(-16);
    /// One file towards `a`.
    pub const LEFT: Step = Step(-1);
    /// One file towards `i`.
    pub const RIGHT: Step = Step(1);
    /// Diagonally up and towards `a`.
    pub const UP_LEFT: Step = Step(15);
    /// Diagonally up and towards `i`.
    pub const UP_RIGHT: Step = Step(17);
    /// Diagonally down and towards `a`.
    pub const DOWN_LEFT: Step = Step(-17);
    /// Diagonally down and towards `i`.
    pub const DOWN_RIGHT: Step = Step(-15);

    /// The four orthogonal steps (the general's, a soldier's, the start of a horse's).
    pub const ORTHOGONAL: [Step; 4] = [Step::UP, Step::RIGHT, Step::LEFT, Step::DOWN];
    /// The four diagonal steps (the advisor's, half an elephant's).
    pub const DIAGONAL: [Step; 4] = [
        Step::UP_RIGHT,
        Step::UP_LEFT,
        Step::DOWN_RIGHT,
        Step::DOWN_LEFT,
    ];

    /// The step towards the enemy for a soldier of `color`.
    #[inline(always)]
    pub const fn forward(color: Color) -> Step {
        match color {
            Color::Red => Step::UP,
            Color::Black => Step::DOWN,
        }
    }

    /// This step followed by `other`.
    #[inline(always)]
    pub const fn then(self, other: Step) -> Step {
        Step(self.0 + other.0)
    }

    /// The step back.
    #[inline(always)]
    pub const fn reverse(self) -> Step {
        Step(-self.0)
    }

    /// Files moved towards `i` (negative towards `a`).
    pub const fn files(self) -> i32 {
        // Each rank is 16 wide and no step here moves more than 7 files.
        ((self.0 as i32 + 8).rem_euclid(16)) - 8
    }

    /// Ranks moved towards Black (negative towards Red).
    pub const fn ranks(self) -> i32 {
        (self.0 as i32 - self.files()) / 16
    }

    /// The change of mailbox index.
    #[inline(always)]
    pub(crate) const fn mailbox_delta(self) -> i32 {
        self.0 as i32
    }
}

impl fmt::Debug for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Step({:+} files, {:+} ranks)",
            self.files(),
            self.ranks()
        )
    }
}

impl Square {
    /// The square one [`Step`] away, or `None` off the board.
    ///
    /// ```
    /// use xq_core::{attacks::Step, Square};
    /// assert_eq!(Square::E0.offset(Step::UP), Some(Square::E1));
    /// assert_eq!(Square::E0.offset(Step::DOWN), None);
    /// assert_eq!(Square::A4.offset(Step::LEFT), None);
    /// assert_eq!(Square::B0.offset(Step::UP.then(Step::UP_RIGHT)), Some(Square::C2));
    /// ```
    #[inline(always)]
    pub const fn offset(self, step: Step) -> Option<Square> {
        let to = (self.mailbox() as i32 + step.0 as i32) as usize & 255;
        if in_board(to) {
            Some(Square::from_mailbox_unchecked(to as u8))
        } else {
            None
        }
    }
}

/// The four lines out of a square, along which chariots, cannons and the flying general
/// attack.
///
/// ```
/// use xq_core::attacks::Direction;
/// use xq_core::Square;
/// assert_eq!(Direction::between(Square::E0, Square::E7), Some(Direction::Up));
/// assert_eq!(Direction::between(Square::E0, Square::A0), Some(Direction::Left));
/// assert_eq!(Direction::between(Square::E0, Square::F1), None);
/// assert!(Direction::Down.is_vertical());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Towards rank 9.
    Up,
    /// Towards file `i`.
    Right,
    /// Towards file `a`.
    Left,
    /// Towards rank 0.
    Down,
}

impl Direction {
    /// All four, in the order of [`Step::ORTHOGONAL`].
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Right,
        Direction::Left,
        Direction::Down,
    ];

    /// The one-square step in this direction.
    #[inline(always)]
    pub const fn step(self) -> Step {
        match self {
            Direction::Up => Step::UP,
            Direction::Right => Step::RIGHT,
            Direction::Left => Step::LEFT,
            Direction::Down => Step::DOWN,
        }
    }

    /// Along a file (up or down)?
    #[inline(always)]
    pub const fn is_vertical(self) -> bool {
        matches!(self, Direction::Up | Direction::Down)
    }

    /// The direction from `from` to `to`, when they share a file or a rank and differ.
    #[inline]
    pub fn between(from: Square, to: Square) -> Option<Direction> {
        if from == to {
            None
        } else if from.file() == to.file() {
            Some(if to.rank() > from.rank() {
                Direction::Up
            } else {
                Direction::Down
            })
        } else if from.rank() == to.rank() {
            Some(if to.file() > from.file() {
                Direction::Right
            } else {
                Direction::Left
            })
        } else {
            None
        }
    }
}

/// The horse's moves: for each of its four legs (the orthogonal step that must be empty),
/// the two steps from the horse's square to the squares it reaches through that leg.
pub const HORSE_MOVES: [(Step, [Step; 2]); 4] = [
    (Step::UP, [Step(33), Step(31)]),
    (Step::RIGHT, [Step(18), Step(-14)]),
    (Step::LEFT, [Step(14), Step(-18)]),
    (Step::DOWN, [Step(-31), Step(-33)]),
];

/// The squares a horse attacks a square from, grouped by the horse's leg: for each of the
/// four squares diagonally next to the target (the legs, which must be empty), the two
/// steps from the target to the horses that would use that leg. This is how a general's
/// horse checks are found.
///
/// ```
/// use xq_core::attacks::{horse_leg, HORSE_ATTACKS};
/// use xq_core::Square;
/// for (leg, from) in HORSE_ATTACKS {
///     for f in from {
///         let horse = Square::E4.offset(f).unwrap();
///         assert_eq!(horse_leg(horse, Square::E4), Square::E4.offset(leg));
///     }
/// }
/// ```
pub const HORSE_ATTACKS: [(Step, [Step; 2]); 4] = [
    (Step::DOWN_LEFT, [Step(-33), Step(-18)]),
    (Step::DOWN_RIGHT, [Step(-31), Step(-14)]),
    (Step::UP_LEFT, [Step(31), Step(14)]),
    (Step::UP_RIGHT, [Step(33), Step(18)]),
];

/// The elephant's moves: the eye (the diagonal step that must be empty) and the
/// destination two diagonal steps away. An elephant never crosses the river.
pub const ELEPHANT_MOVES: [(Step, Step); 4] = [
    (Step::UP_RIGHT, Step(34)),
    (Step::UP_LEFT, Step(30)),
    (Step::DOWN_RIGHT, Step(-30)),
    (Step::DOWN_LEFT, Step(-34)),
];

/// Indexed by `to - from + 34` (mailbox): the leg of a horse jumping from `from` to `to`,
/// as a mailbox offset from `from` plus 34; 0 when `to` is not a horse's jump away.
pub(crate) const HORSE_LEG: [u8; 69] = {
    let mut t = [0u8; 69];
    let mut i = 0;
    while i < 4 {
        let (leg, to) = HORSE_MOVES[i];
        let mut j = 0;
        while j < 2 {
            t[(to[j].0 as i32 + 34) as usize] = (leg.0 as i32 + 34) as u8;
            j += 1;
        }
        i += 1;
    }
    t
};

/// The leg of a horse's jump from `from` to `to` (the square that must be empty), or
/// `None` when `to` is not a horse's jump from `from`.
#[inline(always)]
pub fn horse_leg(from: Square, to: Square) -> Option<Square> {
    let d = to.mailbox() as i32 - from.mailbox() as i32 + 34;
    if !(0..69).contains(&d) {
        return None;
    }
    match HORSE_LEG[d as usize] {
        0 => None,
        leg => from.offset(Step(leg as i8 - 34)),
    }
}

/// A set of squares.
///
/// ```
/// use xq_core::attacks::SquareSet;
/// use xq_core::Square;
/// let mut set = SquareSet::EMPTY;
/// set.insert(Square::E4);
/// set.insert(Square::A0);
/// assert!(set.contains(Square::E4) && !set.contains(Square::E5));
/// assert_eq!(set.len(), 2);
/// assert_eq!(set.iter().collect::<Vec<_>>(), [Square::A0, Square::E4]);
/// ```
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash)]
pub struct SquareSet([u64; 4]);

impl SquareSet {
    /// No square.
    pub const EMPTY: SquareSet = SquareSet([0; 4]);

    /// Adds `sq`.
    #[inline(always)]
    pub fn insert(&mut self, sq: Square) {
        let m = sq.mailbox();
        self.0[m >> 6] |= 1 << (m & 63);
    }

    /// The set with `sq` added: [`insert`](SquareSet::insert) for tables built at compile
    /// time.
    ///
    /// ```
    /// use xq_core::attacks::SquareSet;
    /// use xq_core::Square;
    /// const CORNERS: SquareSet = SquareSet::EMPTY.with(Square::A0).with(Square::I9);
    /// assert!(CORNERS.contains(Square::I9) && !CORNERS.contains(Square::E4));
    /// ```
    #[must_use]
    #[inline(always)]
    pub const fn with(mut self, sq: Square) -> SquareSet {
        let m = sq.mailbox();
        self.0[m >> 6] |= 1 << (m & 63);
        self
    }

    /// Removes `sq`.
    #[inline(always)]
    pub fn remove(&mut self, sq: Square) {
        let m = sq.mailbox();
        self.0[m >> 6] &= !(1 << (m & 63));
    }

    /// The squares of `self` not in `other`.
    ///
    /// ```
    /// use xq_core::attacks::SquareSet;
    /// use xq_core::Square;
    /// let a = SquareSet::EMPTY.with(Square::A0).with(Square::E4);
    /// let b = SquareSet::EMPTY.with(Square::E4).with(Square::I9);
    /// assert_eq!(a.difference(b), SquareSet::EMPTY.with(Square::A0));
    /// ```
    #[inline(always)]
    pub const fn difference(self, other: SquareSet) -> SquareSet {
        let mut out = self;
        let mut i = 0;
        while i < 4 {
            out.0[i] &= !other.0[i];
            i += 1;
        }
        out
    }

    /// Is `sq` in the set?
    #[inline(always)]
    pub fn contains(&self, sq: Square) -> bool {
        let m = sq.mailbox();
        self.0[m >> 6] & (1 << (m & 63)) != 0
    }

    /// Is the set empty?
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    /// How many squares the set holds.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The squares in the set, from `a0` rank by rank to `i9`.
    ///
    /// ```
    /// use xq_core::attacks::SquareSet;
    /// use xq_core::Square;
    /// let set = SquareSet::EMPTY.with(Square::I9).with(Square::A0).with(Square::E4);
    /// let squares: Vec<Square> = set.iter().collect();
    /// assert_eq!(squares, [Square::A0, Square::E4, Square::I9]);
    /// ```
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = Square> + '_ {
        // One bit scan a square: the set's words, lowest bit first.
        let mut words = self.0;
        let mut w = 0;
        std::iter::from_fn(move || {
            while w < 4 {
                let bits = words[w];
                if bits != 0 {
                    words[w] = bits & (bits - 1);
                    let m = (w << 6) | bits.trailing_zeros() as usize;
                    // Only squares are ever inserted.
                    return Some(Square::from_mailbox_unchecked(m as u8));
                }
                w += 1;
            }
            None
        })
    }
}

impl std::ops::BitOr for SquareSet {
    type Output = SquareSet;
    fn bitor(self, other: SquareSet) -> SquareSet {
        let mut out = self;
        for (a, b) in out.0.iter_mut().zip(other.0) {
            *a |= b;
        }
        out
    }
}

impl std::ops::BitOrAssign for SquareSet {
    #[inline(always)]
    fn bitor_assign(&mut self, other: SquareSet) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
    }
}

impl std::ops::BitAnd for SquareSet {
    type Output = SquareSet;
    fn bitand(self, other: SquareSet) -> SquareSet {
        let mut out = self;
        for (a, b) in out.0.iter_mut().zip(other.0) {
            *a &= b;
        }
        out
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> SquareSet {
        let mut set = SquareSet::EMPTY;
        for sq in iter {
            set.insert(sq);
        }
        set
    }
}

impl fmt::Debug for SquareSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_know_their_files_and_ranks() {
        for (step, f, r) in [
            (Step::UP, 0, 1),
            (Step::DOWN, 0, -1),
            (Step::LEFT, -1, 0),
            (Step::DOWN_LEFT, -1, -1),
            (Step::DOWN_RIGHT, 1, -1),
            (Step(33), 1, 2),
            (Step(-14), 2, -1),
            (Step(-30), 2, -2),
        ] {
            assert_eq!((step.files(), step.ranks()), (f, r), "{step:?}");
        }
    }

    #[test]
    fn a_set_lists_exactly_its_squares_in_order() {
        // Sets of every size from random draws of the board's squares: `iter` gives the
        // squares `contains` answers for, in mailbox order, and `len` of them.
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for n in 0..=Square::COUNT {
            let mut set = SquareSet::EMPTY;
            for _ in 0..n {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                set.insert(Square::ALL[(seed % Square::COUNT as u64) as usize]);
            }
            let listed: Vec<Square> = set.iter().collect();
            let expected: Vec<Square> = Square::ALL
                .into_iter()
                .filter(|&sq| set.contains(sq))
                .collect();
            assert_eq!(listed, expected, "{n}");
            assert_eq!(listed.len(), set.len(), "{n}");
        }
        let all = Square::ALL
            .into_iter()
            .fold(SquareSet::EMPTY, SquareSet::with);
        assert_eq!(all.iter().collect::<Vec<_>>(), Square::ALL);
    }

    #[test]
    fn horse_tables_agree() {
        // Every horse move's leg is found by horse_leg, and the attack table is the move
        // table seen from the target.
        for from in Square::ALL {
            let mut n = 0;
            for (leg, to) in HORSE_MOVES {
                for t in to {
                    if let Some(dest) = from.offset(t) {
                        n += 1;
                        assert_eq!(horse_leg(from, dest), from.offset(leg), "{from}{dest}");
                        assert!(
                            (t.files().abs(), t.ranks().abs()) == (1, 2)
                                || (t.files().abs(), t.ranks().abs()) == (2, 1)
                        );
                        let back = HORSE_ATTACKS
                            .iter()
                            .find(|(_, f)| f.contains(&t.reverse()))
                            .unwrap();
                        assert_eq!(dest.offset(back.0), from.offset(leg));
                    }
                }
            }
            let far = Square::ALL
                .iter()
                .filter(|&&d| horse_leg(from, d).is_some())
                .count();
            assert_eq!(far, n);
        }
    }
}
