//! What the examples share: random positions of an ending.

use xq_core::{Color, Fen, Piece, Position, SplitMix64, Square};

/// A random placement of `ending`'s pieces (named by FEN letters, the attacking side first:
/// it is Red), the side to move drawn at random; `None` if the placement is illegal.
pub fn random_position(ending: &str, rng: &mut SplitMix64) -> Option<Position> {
    let second = ending[1..].find('K').expect("two generals") + 1;
    let mut fen = Fen::empty();
    for (i, c) in ending.chars().enumerate() {
        let c = if i < second {
            c
        } else {
            c.to_ascii_lowercase()
        };
        let piece = Piece::from_char(c).expect("a piece letter");
        let free: Vec<Square> = Square::ALL
            .into_iter()
            .filter(|&s| piece.can_stand_on(s) && fen.piece_on(s).is_none())
            .collect();
        fen.set(free[rng.below(free.len() as u64) as usize], Some(piece));
    }
    fen.side_to_move = if rng.below(2) == 0 {
        Color::Red
    } else {
        Color::Black
    };
    Position::try_from(&fen).ok()
}
