//! Property tests (proptest) of the evaluation over random games from the start position
//! and from every position of `data/perft.epd`: colour-flip and left-right mirror
//! symmetry, the incremental evaluation, and the agreement of the full evaluation with
//! its trace. Each property runs 256 cases (set `PROPTEST_CASES` to run more).

use proptest::prelude::*;
use xq_eval::params::PARAMS;
use xq_eval::{breakdown, evaluate, evaluate_full, trace, Eval};
use xq_movegen::legal_moves;
use xq_testkit::game;

proptest! {
    #![proptest_config(xq_testkit::proptest_config(256))]

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
            for (x, y) in a.terms.iter().zip(&b.terms) {
                prop_assert_eq!(x.name, y.name);
                prop_assert_eq!((x.mg, x.eg, x.value), (-y.mg, -y.eg, -y.value), "{} in {}", x.name, pos);
            }
            prop_assert_eq!(a.phase, b.phase);
            prop_assert_eq!(a.scale, b.scale);
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
            for m in legal_moves(pos) {
                let child = e.after(pos, m);
                let mut p = pos.clone();
                p.make_move(m);
                prop_assert_eq!(child, Eval::new(&p), "{} after {}", pos, m);
            }
        }
    }

    /// A position mirrored left to right (file a <-> i) is the same game: every term is
    /// unchanged.
    #[test]
    fn eval_is_symmetric_under_left_right_mirror(positions in game()) {
        for pos in &positions {
            let mirrored = pos.flip_horizontal();
            prop_assert_eq!(evaluate(pos), evaluate(&mirrored), "{} vs {}", pos, mirrored);
            prop_assert_eq!(breakdown(pos), breakdown(&mirrored));
        }
    }

    /// The evaluation a search calls (incremental part kept move by move, per-node part
    /// added) equals the one from scratch and the trace's arithmetic.
    #[test]
    fn full_evaluation_matches_scratch_and_trace(positions in game()) {
        let mut inc = Eval::new(&positions[0]);
        for (i, pos) in positions.iter().enumerate() {
            if i > 0 {
                prop_assert_eq!(inc, Eval::new(pos));
            }
            let e = evaluate(pos);
            prop_assert_eq!(evaluate_full(pos, &inc), e);
            prop_assert_eq!(trace(pos).red_score(&PARAMS) * pos.side_to_move().sign(), e);
            if let Some(next) = positions.get(i + 1) {
                let m = legal_moves(pos)
                    .into_iter()
                    .find(|&m| {
                        let mut p = pos.clone();
                        p.make_move(m);
                        &p == next
                    })
                    .expect("consecutive positions of a game");
                inc = inc.after(pos, m);
            }
        }
    }
}
