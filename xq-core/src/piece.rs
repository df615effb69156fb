//! Colours, piece kinds and pieces.

use std::fmt;
use std::ops::{Index, IndexMut, Not};

/// The two sides. Red moves first and sits on ranks 0-4.
///
/// ```
/// use xq_core::Color;
/// assert_eq!(!Color::Red, Color::Black);
/// assert_eq!(Color::from_char('r'), Some(Color::Red));
/// assert_eq!(Color::Black.to_char(), 'b');
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Color {
    /// Red, the side that moves first (written `w` in FEN, also accepted as `r`).
    Red = 0,
    /// Black.
    Black = 1,
}

impl Color {
    /// Number of colours.
    pub const COUNT: usize = 2;
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// The colour with index 0 (Red) or 1 (Black).
    pub const fn from_index(index: usize) -> Option<Color> {
        match index {
            0 => Some(Color::Red),
            1 => Some(Color::Black),
            _ => None,
        }
    }
    /// 0 for Red, 1 for Black.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
    /// The FEN side-to-move letter: `w` for Red (`r` is accepted on input), `b` for Black.
    pub const fn from_char(c: char) -> Option<Color> {
        match c {
            'w' | 'r' | 'W' | 'R' => Some(Color::Red),
            'b' | 'B' => Some(Color::Black),
            _ => None,
        }
    }
    /// The FEN letter written for this side (`w` or `b`).
    pub const fn to_char(self) -> char {
        match self {
            Color::Red => 'w',
            Color::Black => 'b',
        }
    }
    /// +1 for Red, -1 for Black: the sign of a Red-relative score.
    pub const fn sign(self) -> i32 {
        match self {
            Color::Red => 1,
            Color::Black => -1,
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Red => "red",
            Color::Black => "black",
        })
    }
}

/// A value for each colour, indexed by [`Color`].
///
/// ```
/// use xq_core::{ByColor, Color};
/// let mut material = ByColor::new(0, 0);
/// material[Color::Black] += 3;
/// assert_eq!(material.red, 0);
/// assert_eq!(material[Color::Black], 3);
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T> {
    /// Red's value.
    pub red: T,
    /// Black's value.
    pub black: T,
}

impl<T> ByColor<T> {
    /// A pair from Red's and Black's values.
    pub const fn new(red: T, black: T) -> ByColor<T> {
        ByColor { red, black }
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, c: Color) -> &T {
        match c {
            Color::Red => &self.red,
            Color::Black => &self.black,
        }
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline(always)]
    fn index_mut(&mut self, c: Color) -> &mut T {
        match c {
            Color::Red => &mut self.red,
            Color::Black => &mut self.black,
        }
    }
}

/// The seven kinds of Xiangqi piece.
///
/// xq uses the Xiangqi names throughout. For readers coming from chess: the general is
/// the king (`K`), the advisor the guard (`A`), the elephant the minister or bishop (`B`,
/// also `E`), the horse the knight (`N`, also `H`), the chariot the rook (`R`), and the
/// soldier the pawn (`P`).
///
/// ```
/// use xq_core::PieceKind;
/// assert_eq!(PieceKind::from_char('H'), Some(PieceKind::Horse));
/// assert_eq!(PieceKind::from_char('n'), Some(PieceKind::Horse));
/// assert_eq!(PieceKind::Chariot.to_char(), 'r');
/// assert_eq!(PieceKind::Soldier.max_count(), 5);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PieceKind {
    /// The general (king), `K`.
    General = 0,
    /// The advisor (guard), `A`.
    Advisor = 1,
    /// The elephant (minister), `B` or `E`.
    Elephant = 2,
    /// The horse (knight), `N` or `H`.
    Horse = 3,
    /// The chariot (rook), `R`.
    Chariot = 4,
    /// The cannon, `C`.
    Cannon = 5,
    /// The soldier (pawn), `P`.
    Soldier = 6,
}

impl PieceKind {
    /// Number of kinds.
    pub const COUNT: usize = 7;
    /// All kinds, in the order of their index.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::General,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Chariot,
        PieceKind::Cannon,
        PieceKind::Soldier,
    ];

    /// The kind with index `0..7`.
    pub const fn from_index(index: usize) -> Option<PieceKind> {
        if index < 7 {
            Some(PieceKind::ALL[index])
        } else {
            None
        }
    }
    /// Index `0..7`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
    /// The kind named by a FEN letter, in either case; `H` and `E` are accepted for the
    /// horse and the elephant.
    pub const fn from_char(c: char) -> Option<PieceKind> {
        match c.to_ascii_lowercase() {
            'k' => Some(PieceKind::General),
            'a' => Some(PieceKind::Advisor),
            'b' | 'e' => Some(PieceKind::Elephant),
            'n' | 'h' => Some(PieceKind::Horse),
            'r' => Some(PieceKind::Chariot),
            'c' => Some(PieceKind::Cannon),
            'p' => Some(PieceKind::Soldier),
            _ => None,
        }
    }
    /// The lower-case FEN letter of the kind.
    pub const fn to_char(self) -> char {
        ['k', 'a', 'b', 'n', 'r', 'c', 'p'][self as usize]
    }
    /// How many pieces of this kind a side starts with (and so may ever have).
    pub const fn max_count(self) -> usize {
        [1, 2, 2, 2, 2, 2, 5][self as usize]
    }

    /// The English name xq uses: `general`, `advisor`, `elephant`, `horse`, `chariot`,
    /// `cannon` or `soldier` (also the kind's `Display`).
    ///
    /// ```
    /// use xq_core::PieceKind;
    /// assert_eq!(PieceKind::Horse.name(), "horse");
    /// assert_eq!(PieceKind::Soldier.to_string(), "soldier");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::General => "general",
            PieceKind::Advisor => "advisor",
            PieceKind::Elephant => "elephant",
            PieceKind::Horse => "horse",
            PieceKind::Chariot => "chariot",
            PieceKind::Cannon => "cannon",
            PieceKind::Soldier => "soldier",
        }
    }
}

impl fmt::Display for PieceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece: a colour and a kind.
///
/// ```
/// use xq_core::{Color, Piece, PieceKind};
/// let p = Piece::from_char('C').unwrap();
/// assert_eq!(p, Piece::new(Color::Red, PieceKind::Cannon));
/// assert_eq!(p.to_char(), 'C');
/// assert_eq!(Piece::from_char('e').unwrap().to_char(), 'b');
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Piece {
    /// The side the piece belongs to.
    pub color: Color,
    /// What kind of piece it is.
    pub kind: PieceKind,
}

impl Piece {
    /// Number of distinct pieces (7 kinds x 2 colours).
    pub const COUNT: usize = 14;

    /// A piece of `color` and `kind`.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }
    /// Dense index `0..14`: Red's kinds then Black's.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.color as usize * 7 + self.kind as usize
    }
    /// The piece with dense index `0..14`.
    pub const fn from_index(index: usize) -> Option<Piece> {
        if index < 14 {
            Some(Piece::new(
                if index < 7 { Color::Red } else { Color::Black },
                PieceKind::ALL[index % 7],
            ))
        } else {
            None
        }
    }
    /// The piece named by a FEN letter: upper case Red, lower case Black; `H`/`E` are
    /// aliases of `N`/`B`.
    pub const fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        match PieceKind::from_char(c) {
            Some(kind) => Some(Piece::new(color, kind)),
            None => None,
        }
    }
    /// The FEN letter of the piece (always `N` and `B`, never the aliases).
    pub const fn to_char(self) -> char {
        let c = self.kind.to_char();
        match self.color {
            Color::Red => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }
    /// The Chinese character players use for the piece (帥仕相傌俥炮兵 / 將士象馬車砲卒).
    pub const fn to_chinese(self) -> char {
        match self.color {
            Color::Red => ['帥', '仕', '相', '傌', '俥', '炮', '兵'][self.kind as usize],
            Color::Black => ['將', '士', '象', '馬', '車', '砲', '卒'][self.kind as usize],
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for i in 0..14 {
            let p = Piece::from_index(i).unwrap();
            assert_eq!(p.index(), i);
            assert_eq!(Piece::from_char(p.to_char()), Some(p));
        }
        assert_eq!(Piece::from_index(14), None);
        assert_eq!(Piece::from_char('x'), None);
        assert_eq!(
            Piece::from_char('H'),
            Some(Piece::new(Color::Red, PieceKind::Horse))
        );
        assert_eq!(
            Piece::from_char('E'),
            Some(Piece::new(Color::Red, PieceKind::Elephant))
        );
        assert_eq!(Color::from_char('x'), None);
    }
}
