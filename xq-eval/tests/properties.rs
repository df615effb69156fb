//! Property tests (proptest) of the evaluation over random games from the start position
//! and from every position of `data/perft.epd`: colour-flip symmetry and the incremental
//! evaluation. Each property runs 256 cases (set `PROPTEST_CASES` to run more).

use proptest::prelude::*;
use xq_eval::{breakdown, evaluate, Eval};
use xq_movegen::legal_moves;
use xq_testkit::game;

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
