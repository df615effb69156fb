//! The compact move type and its ICCS text form.

use crate::square::{ParseSquareError, Square};
use std::fmt;
use std::num::NonZeroU16;
use std::str::FromStr;

/// A move from one square to another, packed in 16 bits.
///
/// Bit layout ([`Move::to_u16`]): bits 0-7 hold the 16x16 mailbox index of the origin
/// square (`0x33` for `a0` up to `0xcb` for `i9`: file + 3 in the low nibble, rank + 3 in
/// the high one), bits 8-15 that of the destination. A board square's mailbox index is
/// never 0, so the value is never zero and `Option<Move>` is also two bytes. A `Move` can
/// only be built from two squares, so its squares are always on the board.
///
/// A `Move` says nothing about whether it is legal in some position; see
/// `xq_movegen::is_legal` for that. Its text form is ICCS without the dash: `h2e2`.
///
/// ```
/// use xq_core::{Move, Square};
/// let m: Move = "h2e2".parse().unwrap();
/// assert_eq!(m.from(), Square::H2);
/// assert_eq!(m.to(), Square::E2);
/// assert_eq!(m.to_string(), "h2e2");
/// assert_eq!(Move::from_u16(m.to_u16()), Some(m));
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Move(NonZeroU16);

const _: () = assert!(std::mem::size_of::<Option<Move>>() == 2);

impl Move {
    /// The move from `from` to `to`.
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        let v = from.mailbox() as u16 | (to.mailbox() as u16) << 8;
        match NonZeroU16::new(v) {
            Some(v) => Move(v),
            // A board square's mailbox index is never 0.
            None => unreachable!(),
        }
    }

    /// The origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        // Every `Move` is built from two board squares ([`Move::new`], or
        // [`Move::from_u16`], which checks), so no re-validation is needed.
        Square::from_mailbox_unchecked(self.0.get() as u8)
    }

    /// The destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_mailbox_unchecked((self.0.get() >> 8) as u8)
    }

    /// The raw 16-bit encoding (see the type's documentation), for compact storage such
    /// as a transposition table.
    #[inline(always)]
    pub const fn to_u16(self) -> u16 {
        self.0.get()
    }

    /// The move with raw encoding `v`, or `None` if either byte is not a board square.
    #[inline]
    pub const fn from_u16(v: u16) -> Option<Move> {
        match (
            Square::from_mailbox((v & 0xff) as usize),
            Square::from_mailbox((v >> 8) as usize),
        ) {
            (Some(from), Some(to)) => Some(Move::new(from, to)),
            _ => None,
        }
    }

    /// The same move seen from the other side of the board (both squares rotated by 180
    /// degrees).
    pub const fn rotate_180(self) -> Move {
        Move::new(self.from().rotate_180(), self.to().rotate_180())
    }

    /// The same move mirrored across the river (as in the colour-flipped position).
    ///
    /// ```
    /// use xq_core::Move;
    /// let m: Move = "h2e2".parse().unwrap();
    /// assert_eq!(m.flip_vertical().to_string(), "h7e7");
    /// assert_eq!(m.flip_horizontal().to_string(), "b2e2");
    /// assert_eq!(m.rotate_180().to_string(), "b7e7");
    /// ```
    pub const fn flip_vertical(self) -> Move {
        Move::new(self.from().flip_vertical(), self.to().flip_vertical())
    }

    /// The same move mirrored left to right.
    pub const fn flip_horizontal(self) -> Move {
        Move::new(self.from().flip_horizontal(), self.to().flip_horizontal())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a move text did not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseMoveError {
    /// The text is not four characters (`h2e2`), or five with a dash (`h2-e2`).
    WrongLength(usize),
    /// The origin square is malformed.
    BadFrom(ParseSquareError),
    /// The destination square is malformed.
    BadTo(ParseSquareError),
    /// Origin and destination are the same square.
    NullMove,
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::WrongLength(n) => {
                write!(
                    f,
                    "a move is four characters in ICCS like `h2e2`, found {n}"
                )
            }
            ParseMoveError::BadFrom(e) => write!(f, "bad origin square: {e}"),
            ParseMoveError::BadTo(e) => write!(f, "bad destination square: {e}"),
            ParseMoveError::NullMove => f.write_str("origin and destination are the same square"),
        }
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Parses ICCS `h2e2` (also `H2-E2`: case and one dash are tolerated).
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        if !s.is_ascii() {
            return Err(ParseMoveError::WrongLength(s.chars().count()));
        }
        let (a, b) = match s.len() {
            4 => (&s[..2], &s[2..]),
            5 if s.as_bytes()[2] == b'-' => (&s[..2], &s[3..]),
            n => return Err(ParseMoveError::WrongLength(n)),
        };
        let from: Square = a.parse().map_err(ParseMoveError::BadFrom)?;
        let to: Square = b.parse().map_err(ParseMoveError::BadTo)?;
        if from == to {
            return Err(ParseMoveError::NullMove);
        }
        Ok(Move::new(from, to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::square::ParseSquareError;

    #[test]
    fn parse() {
        assert_eq!("H2-E2".parse::<Move>(), "h2e2".parse::<Move>());
        assert_eq!("h2e".parse::<Move>(), Err(ParseMoveError::WrongLength(3)));
        assert_eq!(
            "z2e2".parse::<Move>(),
            Err(ParseMoveError::BadFrom(ParseSquareError::BadFile('z')))
        );
        assert_eq!(
            "h2ex".parse::<Move>(),
            Err(ParseMoveError::BadTo(ParseSquareError::BadRank('x')))
        );
        assert_eq!("h2h2".parse::<Move>(), Err(ParseMoveError::NullMove));
        assert_eq!("h2éé".parse::<Move>(), Err(ParseMoveError::WrongLength(4)));
        for a in Square::ALL {
            for b in Square::ALL {
                if a != b {
                    let m = Move::new(a, b);
                    assert_eq!((m.from(), m.to()), (a, b));
                    assert_eq!(m.to_string().parse::<Move>(), Ok(m));
                }
            }
        }
        assert_eq!(Move::from_u16(0), None);
        assert_eq!(Move::from_u16(0x0033), None);
    }
}
