//! ElephantEye's `BOOK.DAT`: the layout of its records, its position keys and its moves.
//!
//! The file is an array of 8-byte records, little-endian, sorted by key (ElephantEye's
//! `BookStruct`):
//!
//! | bytes | field | what it holds |
//! |---|---|---|
//! | 0-3 | `dwLock` | the position's key: the third 32-bit word (`dwLock1`) of ElephantEye's Zobrist hash |
//! | 4-5 | `wmv` | the move: origin square in the low byte, destination in the high byte |
//! | 6-7 | `wvl` | the move's weight |
//!
//! A position's moves are the consecutive records with its key. A position and its
//! left-right mirror share their records: ElephantEye's book maker stores a position
//! under the smaller key of the two (both when they are equal), and its reader looks up
//! the position and, only when that finds nothing, its mirror, mirroring the moves it
//! finds there.
//!
//! Squares are those of ElephantEye's 16x16 board: `x + 16 * y`, with `x` from 3 (file
//! `a`) to 11 (file `i`) and `y` from 3 (rank 9, Black's back rank) to 12 (rank 0), so
//! ICCS `h2` is `0xaa`.
//!
//! The keys: ElephantEye draws its Zobrist table from RC4 keyed with four zero bytes: the
//! side-to-move key first, then a key for each of 14 piece types (Red's general,
//! advisor, elephant, horse, chariot, cannon and soldier, then Black's) on each of 256
//! squares, each key three 32-bit words (`dwKey`, `dwLock0`, `dwLock1`) of four bytes,
//! little-endian. A position's lock is the XOR of its pieces' `dwLock1` words, and of
//! the side-to-move word when Black is to move. The table here is computed the same way
//! at compile time, keeping the `dwLock1` words only.

use xq_core::{Color, File, Move, Position, Rank, Square};

/// ElephantEye's `dwLock1` words: the side to move's, and each piece type's on each
/// square of its 16x16 board.
struct Locks {
    side: u32,
    pieces: [[u32; 256]; 14],
}

/// RC4 keyed with four zero bytes, as ElephantEye's `RC4Struct::InitZero`.
struct Rc4 {
    s: [u8; 256],
    x: usize,
    y: usize,
}

impl Rc4 {
    const fn new() -> Rc4 {
        let mut s = [0u8; 256];
        let mut i = 0;
        while i < 256 {
            s[i] = i as u8;
            i += 1;
        }
        // The key bytes are all zero: j moves by s[i] alone.
        let mut j = 0usize;
        let mut i = 0;
        while i < 256 {
            j = (j + s[i] as usize) & 255;
            let t = s[i];
            s[i] = s[j];
            s[j] = t;
            i += 1;
        }
        Rc4 { s, x: 0, y: 0 }
    }

    const fn next_byte(mut self) -> (Rc4, u8) {
        self.x = (self.x + 1) & 255;
        self.y = (self.y + self.s[self.x] as usize) & 255;
        let t = self.s[self.x];
        self.s[self.x] = self.s[self.y];
        self.s[self.y] = t;
        let b = self.s[(self.s[self.x] as usize + self.s[self.y] as usize) & 255];
        (self, b)
    }

    /// Four bytes, the first the lowest (a little-endian `uint32_t`).
    const fn next_u32(self) -> (Rc4, u32) {
        let (r, b0) = self.next_byte();
        let (r, b1) = r.next_byte();
        let (r, b2) = r.next_byte();
        let (r, b3) = r.next_byte();
        (
            r,
            b0 as u32 | (b1 as u32) << 8 | (b2 as u32) << 16 | (b3 as u32) << 24,
        )
    }

    /// One Zobrist key's three words; the third (`dwLock1`) is returned.
    const fn next_lock1(self) -> (Rc4, u32) {
        let (r, _key) = self.next_u32();
        let (r, _lock0) = r.next_u32();
        r.next_u32()
    }
}

static LOCKS: Locks = {
    let (mut rc4, side) = Rc4::new().next_lock1();
    let mut pieces = [[0u32; 256]; 14];
    let mut p = 0;
    while p < 14 {
        let mut sq = 0;
        while sq < 256 {
            let (next, lock) = rc4.next_lock1();
            pieces[p][sq] = lock;
            rc4 = next;
            sq += 1;
        }
        p += 1;
    }
    Locks { side, pieces }
};

/// ElephantEye's square for `sq`.
///
/// ```
/// use xq_core::Square;
/// assert_eq!(xq_book::eleeye::square(Square::H2), 0xaa);
/// assert_eq!(xq_book::eleeye::square(Square::A9), 0x33);
/// ```
pub fn square(sq: Square) -> u8 {
    let x = sq.file().index() as u8 + 3;
    let y = 12 - sq.rank().index() as u8;
    x | y << 4
}

/// The square of ElephantEye's board index `index`, if it is on the board.
pub fn from_square(index: u8) -> Option<Square> {
    let (x, y) = (index & 15, index >> 4);
    if !(3..=11).contains(&x) || !(3..=12).contains(&y) {
        return None;
    }
    let file = File::from_index(usize::from(x - 3))?;
    let rank = Rank::from_index(usize::from(12 - y))?;
    Some(Square::new(file, rank))
}

/// ElephantEye's encoding of `m` (`wmv`).
///
/// ```
/// let m = "h2e2".parse().unwrap();
/// assert_eq!(xq_book::eleeye::encode_move(m), 0xa7aa);
/// assert_eq!(xq_book::eleeye::decode_move(0xa7aa), Some(m));
/// ```
pub fn encode_move(m: Move) -> u16 {
    u16::from(square(m.from())) | u16::from(square(m.to())) << 8
}

/// The move ElephantEye encodes as `wmv`, if both its squares are on the board.
pub fn decode_move(wmv: u16) -> Option<Move> {
    let from = from_square((wmv & 0xff) as u8)?;
    let to = from_square((wmv >> 8) as u8)?;
    Some(Move::new(from, to))
}

/// ElephantEye's key of `pos` as its book stores it (`dwLock1`); `mirrored` gives the
/// key of the position mirrored left to right.
///
/// ```
/// use xq_core::Position;
/// let start = Position::startpos();
/// // The start position is its own mirror.
/// assert_eq!(xq_book::eleeye::lock(&start, false), xq_book::eleeye::lock(&start, true));
/// assert_eq!(xq_book::eleeye::lock(&start, false), 0x0526_56d5);
/// ```
pub fn lock(pos: &Position, mirrored: bool) -> u32 {
    let mut lock = if pos.side_to_move() == Color::Black {
        LOCKS.side
    } else {
        0
    };
    for sq in Square::ALL {
        if let Some(p) = pos.piece_on(sq) {
            let at = if mirrored { sq.flip_horizontal() } else { sq };
            let kind = p.kind.index() + if p.color == Color::Black { 7 } else { 0 };
            lock ^= LOCKS.pieces[kind][usize::from(square(at))];
        }
    }
    lock
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip_and_only_board_squares_decode() {
        for sq in Square::ALL {
            assert_eq!(from_square(square(sq)), Some(sq));
        }
        let on_board = (0..=255u8).filter(|&i| from_square(i).is_some()).count();
        assert_eq!(on_board, 90);
        assert_eq!(from_square(0x32), None);
        assert_eq!(from_square(0xcb), Some(Square::I0));
        assert_eq!(decode_move(0), None);
    }

    #[test]
    fn keys_are_elephanteyes() {
        // Computed by an independent implementation and found in ElephantEye 3.3's own
        // BOOK.DAT: the start position (16 moves, h2e2 and b2e2 weighted 1473), the
        // position after h2e2 (not stored) and its mirror, after b2e2 (stored: b9c7 761,
        // h9g7 172, b7e7 97, h7e7 1).
        let start = Position::startpos();
        assert_eq!(lock(&start, false), 0x0526_56d5);
        let mut after = start.clone();
        after.make_move("h2e2".parse().unwrap());
        assert_eq!(lock(&after, false), 0xeb50_5d7d);
        assert_eq!(lock(&after, true), 0x5396_644f);
        let mut mirror = start;
        mirror.make_move("b2e2".parse().unwrap());
        assert_eq!(lock(&mirror, false), 0x5396_644f);
    }

    #[test]
    fn rc4_starts_as_rc4_with_a_zero_key() {
        // RC4 with the key 00 00 00 00: its first output bytes are de 18 89 41.
        let (r, a) = Rc4::new().next_byte();
        let (r, b) = r.next_byte();
        let (r, c) = r.next_byte();
        let (_, d) = r.next_byte();
        assert_eq!([a, b, c, d], [0xde, 0x18, 0x89, 0x41]);
    }
}
