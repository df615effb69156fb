//! Squares, files and ranks in ICCS coordinates, laid out in a padded 16x16 mailbox.
//!
//! The 9x10 board sits inside a 16-wide, 16-tall array (the layout ElephantEye made
//! classic): file `a`..`i` is mailbox column 3..11 and rank `0`..`9` is mailbox row
//! 3..12. The margin of at least two squares on every side means a horse or elephant
//! step from any board square stays inside the array, so off-board tests are a single
//! table look-up.
//!
//! A [`Square`] is stored as its mailbox index, so moving "one rank towards Black" is
//! `+16` and "one file to the right" is `+1`: [`Square::offset`] takes a typed
//! [`Step`](crate::attacks::Step) and costs one addition and one table look-up. The
//! index itself is private to this crate; [`SquareMap`] is the typed array keyed by
//! squares that uses it directly.

use crate::piece::Color;
use std::fmt;
use std::str::FromStr;

/// A file (column) of the board, `a` (Red's left) to `i`.
///
/// ```
/// use xq_core::File;
/// assert_eq!(File::E.to_char(), 'e');
/// assert_eq!(File::from_char('h'), Some(File::H));
/// assert_eq!(File::E.flip_horizontal(), File::E);
/// assert_eq!(File::A.flip_horizontal(), File::I);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct File(u8);

/// A rank (row) of the board, `0` (Red's back rank) to `9` (Black's back rank).
///
/// ```
/// use xq_core::Rank;
/// assert_eq!(Rank::R4.to_char(), '4');
/// assert_eq!(Rank::R0.flip_vertical(), Rank::R9);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

impl File {
    /// Number of files.
    pub const COUNT: usize = 9;
    /// File `a`.
    pub const A: File = File(0);
    /// File `b`.
    pub const B: File = File(1);
    /// File `c`.
    pub const C: File = File(2);
    /// File `d`.
    pub const D: File = File(3);
    /// File `e` (the central file).
    pub const E: File = File(4);
    /// File `f`.
    pub const F: File = File(5);
    /// File `g`.
    pub const G: File = File(6);
    /// File `h`.
    pub const H: File = File(7);
    /// File `i`.
    pub const I: File = File(8);
    /// All files from `a` to `i`.
    pub const ALL: [File; 9] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
        File::I,
    ];

    /// The file with index `0..9`, or `None`.
    #[inline]
    pub const fn from_index(index: usize) -> Option<File> {
        if index < 9 {
            Some(File(index as u8))
        } else {
            None
        }
    }
    /// Index `0..9` (`a` is 0).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The file named by an ICCS letter `a`..`i` (lower or upper case).
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='i' => Some(File(c as u8 - b'a')),
            'A'..='I' => Some(File(c as u8 - b'A')),
            _ => None,
        }
    }
    /// The ICCS letter of the file.
    pub const fn to_char(self) -> char {
        (b'a' + self.0) as char
    }
    /// The file mirrored left to right (`a` <-> `i`).
    #[inline]
    pub const fn flip_horizontal(self) -> File {
        File(8 - self.0)
    }
}

impl Rank {
    /// Number of ranks.
    pub const COUNT: usize = 10;
    /// Rank 0, Red's back rank.
    pub const R0: Rank = Rank(0);
    /// Rank 1.
    pub const R1: Rank = Rank(1);
    /// Rank 2.
    pub const R2: Rank = Rank(2);
    /// Rank 3.
    pub const R3: Rank = Rank(3);
    /// Rank 4, the last rank on Red's side of the river.
    pub const R4: Rank = Rank(4);
    /// Rank 5, the first rank on Black's side of the river.
    pub const R5: Rank = Rank(5);
    /// Rank 6.
    pub const R6: Rank = Rank(6);
    /// Rank 7.
    pub const R7: Rank = Rank(7);
    /// Rank 8.
    pub const R8: Rank = Rank(8);
    /// Rank 9, Black's back rank.
    pub const R9: Rank = Rank(9);
    /// All ranks from 0 to 9.
    pub const ALL: [Rank; 10] = [
        Rank::R0,
        Rank::R1,
        Rank::R2,
        Rank::R3,
        Rank::R4,
        Rank::R5,
        Rank::R6,
        Rank::R7,
        Rank::R8,
        Rank::R9,
    ];

    /// The rank with index `0..10`, or `None`.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Rank> {
        if index < 10 {
            Some(Rank(index as u8))
        } else {
            None
        }
    }
    /// Index `0..10` (Red's back rank is 0).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The rank named by an ICCS digit `0`..`9`.
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '0'..='9' => Some(Rank(c as u8 - b'0')),
            _ => None,
        }
    }
    /// The ICCS digit of the rank.
    pub const fn to_char(self) -> char {
        (b'0' + self.0) as char
    }
    /// The rank mirrored top to bottom, across the river (`0` <-> `9`).
    #[inline]
    pub const fn flip_vertical(self) -> Rank {
        Rank(9 - self.0)
    }
}

/// A square of the board, stored as its index in the 16x16 mailbox.
///
/// The constants `Square::A0` .. `Square::I9` name every square; `A0` is Red's
/// bottom-left corner and `I9` Black's.
///
/// ```
/// use xq_core::{File, Rank, Square};
/// let sq: Square = "h2".parse().unwrap();
/// assert_eq!(sq, Square::H2);
/// assert_eq!(sq.file(), File::H);
/// assert_eq!(sq.rank(), Rank::R2);
/// assert_eq!(sq.rotate_180(), Square::B7);
/// assert_eq!(sq.flip_vertical(), Square::H7);
/// assert_eq!(sq.flip_horizontal(), Square::B2);
/// assert_eq!(sq.to_string(), "h2");
/// assert_eq!(Square::from_index(sq.index()), Some(sq));
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Square(u8);

macro_rules! squares {
    ($($name:ident = $file:literal, $rank:literal;)*) => {
        impl Square {
            $(
                #[doc = concat!("The square `", stringify!($name), "`.")]
                pub const $name: Square = Square::new(File($file), Rank($rank));
            )*
        }
    };
}

squares! {
    A0 = 0, 0; B0 = 1, 0; C0 = 2, 0; D0 = 3, 0; E0 = 4, 0; F0 = 5, 0; G0 = 6, 0; H0 = 7, 0; I0 = 8, 0;
    A1 = 0, 1; B1 = 1, 1; C1 = 2, 1; D1 = 3, 1; E1 = 4, 1; F1 = 5, 1; G1 = 6, 1; H1 = 7, 1; I1 = 8, 1;
    A2 = 0, 2; B2 = 1, 2; C2 = 2, 2; D2 = 3, 2; E2 = 4, 2; F2 = 5, 2; G2 = 6, 2; H2 = 7, 2; I2 = 8, 2;
    A3 = 0, 3; B3 = 1, 3; C3 = 2, 3; D3 = 3, 3; E3 = 4, 3; F3 = 5, 3; G3 = 6, 3; H3 = 7, 3; I3 = 8, 3;
    A4 = 0, 4; B4 = 1, 4; C4 = 2, 4; D4 = 3, 4; E4 = 4, 4; F4 = 5, 4; G4 = 6, 4; H4 = 7, 4; I4 = 8, 4;
    A5 = 0, 5; B5 = 1, 5; C5 = 2, 5; D5 = 3, 5; E5 = 4, 5; F5 = 5, 5; G5 = 6, 5; H5 = 7, 5; I5 = 8, 5;
    A6 = 0, 6; B6 = 1, 6; C6 = 2, 6; D6 = 3, 6; E6 = 4, 6; F6 = 5, 6; G6 = 6, 6; H6 = 7, 6; I6 = 8, 6;
    A7 = 0, 7; B7 = 1, 7; C7 = 2, 7; D7 = 3, 7; E7 = 4, 7; F7 = 5, 7; G7 = 6, 7; H7 = 7, 7; I7 = 8, 7;
    A8 = 0, 8; B8 = 1, 8; C8 = 2, 8; D8 = 3, 8; E8 = 4, 8; F8 = 5, 8; G8 = 6, 8; H8 = 7, 8; I8 = 8, 8;
    A9 = 0, 9; B9 = 1, 9; C9 = 2, 9; D9 = 3, 9; E9 = 4, 9; F9 = 5, 9; G9 = 6, 9; H9 = 7, 9; I9 = 8, 9;
}

/// `true` for the 90 mailbox indices that are on the board.
const IN_BOARD: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let (row, col) = (i >> 4, i & 15);
        t[i] = row >= 3 && row <= 12 && col >= 3 && col <= 11;
        i += 1;
    }
    t
};

/// `true` for the 18 mailbox indices inside either palace.
const IN_PALACE: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let (row, col) = (i >> 4, i & 15);
        t[i] = col >= 6 && col <= 8 && ((row >= 3 && row <= 5) || (row >= 10 && row <= 12));
        i += 1;
    }
    t
};

/// The dense index (`0..90`, rank-major from `a0`) of each board square's mailbox index.
const DENSE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let (row, col) = (i >> 4, i & 15);
        if row >= 3 && row <= 12 && col >= 3 && col <= 11 {
            t[i] = ((row - 3) * 9 + col - 3) as u8;
        }
        i += 1;
    }
    t
};

/// Is mailbox index `sq` one of the 90 board squares?
#[inline(always)]
pub(crate) const fn in_board(sq: usize) -> bool {
    IN_BOARD[sq & 255]
}

impl Square {
    /// Number of squares on the board.
    pub const COUNT: usize = 90;

    /// All 90 squares, rank by rank from `a0` to `i9`.
    pub const ALL: [Square; 90] = {
        let mut t = [Square(0); 90];
        let mut i = 0;
        while i < 90 {
            t[i] = Square::new(File((i % 9) as u8), Rank((i / 9) as u8));
            i += 1;
        }
        t
    };

    /// The square on `file` and `rank`.
    #[inline]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square(((rank.0 + 3) << 4) | (file.0 + 3))
    }

    /// The square with dense index `0..90` (`a0` = 0, `i0` = 8, `a1` = 9, ..., `i9` = 89).
    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 90 {
            Some(Square::new(
                File((index % 9) as u8),
                Rank((index / 9) as u8),
            ))
        } else {
            None
        }
    }

    /// Dense index `0..90`, rank-major from `a0`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        DENSE[self.0 as usize] as usize
    }

    /// The square at a mailbox index, or `None` if the index is off the board.
    #[inline]
    pub(crate) const fn from_mailbox(index: usize) -> Option<Square> {
        if index < 256 && in_board(index) {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square at a mailbox index known to be on the board (the byte of a [`Move`](crate::Move)).
    #[inline(always)]
    pub(crate) const fn from_mailbox_unchecked(index: u8) -> Square {
        debug_assert!(in_board(index as usize));
        Square(index)
    }

    /// The 16x16 mailbox index of the square.
    #[inline(always)]
    pub(crate) const fn mailbox(self) -> usize {
        self.0 as usize
    }

    /// The file of the square.
    #[inline]
    pub const fn file(self) -> File {
        File((self.0 & 15) - 3)
    }

    /// The rank of the square.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank((self.0 >> 4) - 3)
    }

    /// The square seen from the other side of the board (rotated 180 degrees): `a0` <-> `i9`.
    #[inline]
    pub const fn rotate_180(self) -> Square {
        Square(254 - self.0)
    }

    /// The square mirrored left to right: `a0` <-> `i0`.
    #[inline]
    pub const fn flip_horizontal(self) -> Square {
        Square::new(self.file().flip_horizontal(), self.rank())
    }

    /// The square mirrored top to bottom, across the river (`a0` <-> `a9`), as in a
    /// colour-flipped position.
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square::new(self.file(), self.rank().flip_vertical())
    }

    /// Is the square inside a palace (either side's)?
    #[inline(always)]
    pub const fn in_palace(self) -> bool {
        IN_PALACE[self.0 as usize]
    }

    /// The side of the river the square is on: [`Color::Red`] for ranks 0-4,
    /// [`Color::Black`] for ranks 5-9. An elephant stays on its own half; a soldier on the
    /// other half has crossed the river.
    ///
    /// ```
    /// use xq_core::{Color, Square};
    /// assert_eq!(Square::E4.half(), Color::Red);
    /// assert_eq!(Square::E5.half(), Color::Black);
    /// ```
    #[inline(always)]
    pub const fn half(self) -> Color {
        if self.0 < 0x80 {
            Color::Red
        } else {
            Color::Black
        }
    }
}

/// A value for every square: the typed array keyed by [`Square`] (no index arithmetic at
/// the call site, no bounds check: the key is always in range).
///
/// ```
/// use xq_core::{Square, SquareMap};
/// let mut visits = SquareMap::new(0u32);
/// visits[Square::E4] += 2;
/// assert_eq!(visits[Square::E4], 2);
/// assert_eq!(visits[Square::E5], 0);
/// // Built in a `const` context, as evaluation tables are.
/// const CENTRE: SquareMap<bool> = SquareMap::new(false).with(Square::E4, true);
/// assert!(CENTRE[Square::E4] && !CENTRE[Square::D4]);
/// ```
#[derive(Copy, Clone, PartialEq, Eq)]
pub struct SquareMap<T>([T; 256]);

impl<T: Copy> SquareMap<T> {
    /// Every square holding `value`.
    pub const fn new(value: T) -> SquareMap<T> {
        SquareMap([value; 256])
    }

    /// The same map with `value` on `sq` (for building tables at compile time).
    #[must_use]
    pub const fn with(mut self, sq: Square, value: T) -> SquareMap<T> {
        self.0[sq.0 as usize] = value;
        self
    }

    /// Sets every square to `value`.
    pub fn fill(&mut self, value: T) {
        self.0.fill(value);
    }
}

impl<T: Copy + Default> Default for SquareMap<T> {
    fn default() -> SquareMap<T> {
        SquareMap([T::default(); 256])
    }
}

impl<T> std::ops::Index<Square> for SquareMap<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, sq: Square) -> &T {
        &self.0[sq.0 as usize]
    }
}

impl<T> std::ops::IndexMut<Square> for SquareMap<T> {
    #[inline(always)]
    fn index_mut(&mut self, sq: Square) -> &mut T {
        &mut self.0[sq.0 as usize]
    }
}

impl<T: fmt::Debug> fmt::Debug for SquareMap<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(Square::ALL.iter().map(|&sq| (sq, &self[sq])))
            .finish()
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().to_char(), self.rank().to_char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a square name did not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseSquareError {
    /// The text is not two characters long.
    WrongLength(usize),
    /// The first character is not a file letter `a`..`i`.
    BadFile(char),
    /// The second character is not a rank digit `0`..`9`.
    BadRank(char),
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseSquareError::WrongLength(n) => {
                write!(f, "a square is two characters like `e0`, found {n}")
            }
            ParseSquareError::BadFile(c) => write!(f, "`{c}` is not a file letter a-i"),
            ParseSquareError::BadRank(c) => write!(f, "`{c}` is not a rank digit 0-9"),
        }
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        let (Some(f), Some(r), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(ParseSquareError::WrongLength(s.chars().count()));
        };
        let file = File::from_char(f).ok_or(ParseSquareError::BadFile(f))?;
        let rank = Rank::from_char(r).ok_or(ParseSquareError::BadRank(r))?;
        Ok(Square::new(file, rank))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout() {
        assert_eq!(Square::A0.mailbox(), 0x33);
        assert_eq!(Square::I9.mailbox(), 0xcb);
        assert_eq!(Square::E0.rotate_180(), Square::E9);
        assert_eq!(Square::A0.rotate_180(), Square::I9);
        assert_eq!((0..256).filter(|&i| in_board(i)).count(), 90);
        assert_eq!(IN_PALACE.iter().filter(|&&p| p).count(), 18);
        for (i, sq) in Square::ALL.iter().enumerate() {
            assert_eq!(sq.index(), i);
            assert_eq!(Square::from_mailbox(sq.mailbox()), Some(*sq));
            assert_eq!(sq.to_string().parse::<Square>(), Ok(*sq));
            assert_eq!(sq.rotate_180().rotate_180(), *sq);
            assert_eq!(sq.rotate_180(), sq.flip_vertical().flip_horizontal());
            assert_eq!(sq.half() == Color::Red, sq.rank().index() <= 4);
        }
        assert!(Square::D0.in_palace() && Square::F9.in_palace() && !Square::C0.in_palace());
        assert!(!Square::D3.in_palace() && Square::D7.in_palace());
    }

    #[test]
    fn parse_errors() {
        assert_eq!("e".parse::<Square>(), Err(ParseSquareError::WrongLength(1)));
        assert_eq!("j0".parse::<Square>(), Err(ParseSquareError::BadFile('j')));
        assert_eq!("ex".parse::<Square>(), Err(ParseSquareError::BadRank('x')));
        assert_eq!(
            "e10".parse::<Square>(),
            Err(ParseSquareError::WrongLength(3))
        );
    }
}
