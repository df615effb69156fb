//! Property tests (proptest) of the evaluation over random games from the start position
//! and from every position of `data/perft.epd`: colour-flip symmetry and the incremental
//! evaluation. Each property runs 256 cases (set `PROPTEST_CASES` to run more).

use proptest::prelude::*;
use xq_core::{Position, START_FEN};
use xq_eval::{breakdown, evaluate, Eval};
use xq_movegen::legal_moves;

const SUITE: &str = include_str!("../../data/perft.epd");

/// The start position's FEN followed by the FEN of every suite position.
fn start_fens() -> Vec<&'static str> {
    let mut out = vec![START_FEN];
    out.extend(
        SUITE
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|l| l.split(';').next().unwrap().trim()),
    );
    assert_eq!(out.len(), 51, "the start position and 50 suite positions");
    out
}

/// Every position of the game `choices` plays from `fen` (the start included), stopping
/// early at a position without a legal move.
fn play(fen: &str, choices: &[u16]) -> Vec<Position> {
    let mut pos = Position::from_fen(fen).unwrap();
    let mut out = vec![pos.clone()];
    for &c in choices {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        pos.make_move(moves[c as usize % moves.len()]);
        out.push(pos.clone());
    }
    out
}

/// A random game of up to 60 plies from the start position or a suite position.
fn game() -> impl Strategy<Value = Vec<Position>> {
    (
        prop::sample::select(start_fens()),
        prop::collection::vec(any::<u16>(), 0..60),
    )
        .prop_map(|(fen, choices)| play(fen, &choices))
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// Swapping the colours (every piece changes colour and is mirrored across the
    /// river, the other side moves) is the same game: the score for the side to move is
    /// unchanged and every Red-relative part changes sign.
    #[test]
    fn eval_is_symmetric_under_colour_flip(positions in game()) {
        for pos in &positions {
            let flipped = pos.color_flipped();
            prop_assert_eq!(flipped.side_to_move(), !pos.side_to_move());
            prop_assert_eq!(evaluate(pos), evaluate(&flipped), "{} vs {}", pos, flipped);
            let (a, b) = (breakdown(pos), breakdown(&flipped));
            prop_assert_eq!(a.total, b.total);
            prop_assert_eq!(a.total_red, -b.total_red);
            prop_assert_eq!(a.material, -b.material);
            prop_assert_eq!(a.placement, b.placement.map(|v| -v));
            prop_assert_eq!(a.phase, b.phase);
            prop_assert_eq!(Eval::new(pos).red_score(), -Eval::new(&flipped).red_score());
            // Flipping twice gives the position back, key included.
            let back = flipped.color_flipped();
            prop_assert_eq!(&back, pos);
            prop_assert_eq!(back.key(), pos.key());
        }
    }

    /// The evaluation kept move by move (`Eval::after`) equals the one computed from
    /// scratch, for every position of the game and every legal move from it.
    #[test]
    fn incremental_eval_matches_recomputed(positions in game()) {
        for pos in &positions {
            let e = Eval::new(pos);
            prop_assert_eq!(e.score(pos.side_to_move()), evaluate(pos));
            for m in legal_moves(pos) {
                let child = e.after(pos, m);
                let mut p = pos.clone();
                p.make_move(m);
                prop_assert_eq!(child, Eval::new(&p), "{} after {}", pos, m);
            }
        }
    }
}
