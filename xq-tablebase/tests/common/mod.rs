//! What the integration tests share: the positions of a general and one piece a side, a
//! seeded random source, the nested fixpoint of the rule solvers, and the local check of
//! rule results ([`local`]). Each test
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

/// A winning strategy: for each node the winner moves at, the index of the move to play.
pub type Strategy = Vec<Option<usize>>;

/// μZ₂. νZ₁. μZ₀. CPre over `n` nodes: the nodes the winner wins in a parity game of
/// priorities 0 to 2 (the highest seen forever must be 1), given `least(z1, z2)`, the
/// least fixpoint Z₀ for fixed Z₁ and Z₂ (a move of priority `i` leading into Zᵢ) with
/// the move by which each of its nodes entered. With them, the winner's move at each node
/// won: the one by which it entered Z₀ in the last round of the layer (the iteration of
/// Z₂) that won it. A move of priority 0 leads to a node that entered before, one of
/// priority 2 to a lower layer, so an endless play in a layer takes moves of priority 1
/// forever and of priority 2 never.
pub fn nested_fixpoint(
    n: usize,
    mut least: impl FnMut(&[bool], &[bool]) -> (Vec<bool>, Strategy),
) -> (Vec<bool>, Strategy) {
    let mut strategy = vec![None; n];
    let mut z2 = vec![false; n];
    loop {
        let mut z1 = vec![true; n];
        let choice = loop {
            let (z0, choice) = least(&z1, &z2);
            if z0 == z1 {
                break choice;
            }
            z1 = z0;
        };
        for v in 0..n {
            if z1[v] && !z2[v] {
                strategy[v] = choice[v];
            }
        }
        if z1 == z2 {
            return (z2, strategy);
        }
        z2 = z1;
    }
}
