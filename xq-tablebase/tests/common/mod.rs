//! What the integration tests share: the positions of a general and one piece a side, a
//! seeded random source, and the local check of rule results ([`local`]). Each test
//! binary compiles this module and uses a part of it.
#![allow(dead_code)]

pub mod local;

use xq_core::{Color, Fen, File, Piece, PieceKind, Position, Rank, Square};

/// The nine squares of `color`'s palace.
pub fn palace(color: Color) -> Vec<Square> {
    let ranks = match color {
        Color::Red => 0..3,
        Color::Black => 7..10,
    };
    ranks
        .flat_map(|r| {
            (3..6).map(move |f| {
                Square::new(File::from_index(f).unwrap(), Rank::from_index(r).unwrap())
            })
        })
        .collect()
}

/// Every legal position of a red general on one of `red_generals` and a piece `red`
/// against a black general on one of `black_generals` and a piece `black`, both sides to
/// move.
pub fn positions(
    red_generals: &[Square],
    black_generals: &[Square],
    red: PieceKind,
    black: PieceKind,
) -> Vec<Position> {
    let mut out = Vec::new();
    for &rk in red_generals {
        for &bk in black_generals {
            for r in Square::ALL {
                for x in Square::ALL {
                    if [rk, bk].contains(&r) || [rk, bk, r].contains(&x) {
                        continue;
                    }
                    let mut fen = Fen::empty();
                    fen.set(rk, Some(Piece::new(Color::Red, PieceKind::General)));
                    fen.set(bk, Some(Piece::new(Color::Black, PieceKind::General)));
                    fen.set(r, Some(Piece::new(Color::Red, red)));
                    fen.set(x, Some(Piece::new(Color::Black, black)));
                    for side in Color::ALL {
                        fen.side_to_move = side;
                        if let Ok(pos) = Position::try_from(&fen) {
                            out.push(pos);
                        }
                    }
                }
            }
        }
    }
    out
}

/// The bytes of a table file with its header's format version set to `version`, the
/// header's CRC-32 (ISO-HDLC, zlib's, computed here bit by bit) mended.
pub fn with_version(file: &[u8], version: u16) -> Vec<u8> {
    let mut b = file.to_vec();
    b[8..10].copy_from_slice(&version.to_le_bytes());
    let mut crc = !0u32;
    for &byte in &b[..124] {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    b[124..128].copy_from_slice(&(!crc).to_le_bytes());
    b
}

/// A seeded xorshift: a number below `n`.
pub fn xorshift(seed: u64) -> impl FnMut(usize) -> usize {
    let mut seed = seed;
    move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    }
}
