//! Runs the code of `examples/self_play.rs` and `examples/custom_stop.rs` (included as
//! modules, so `cargo test` needs no second cargo process) and checks what they print.

#[path = "../examples/custom_stop.rs"]
#[allow(dead_code)]
mod custom_stop;
#[path = "../examples/self_play.rs"]
#[allow(dead_code)]
mod self_play;

use xq_core::{Position, START_FEN};
use xq_movegen::try_play;

#[test]
fn self_play_is_legal_and_deterministic() {
    let mut out = Vec::new();
    let (game, end) = self_play::run(16, 2, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(end, self_play::End::PlyLimit, "{text}");
    assert_eq!(game.moves().len(), 16);
    assert!(
        text.contains("result: unfinished after 16 plies\n"),
        "{text}"
    );
    assert!(
        text.ends_with(&format!("final position {}\n", game.position())),
        "{text}"
    );
    // Every move is legal when replayed from the start, and the lines name them.
    let mut pos = Position::startpos();
    for (i, (&m, line)) in game.moves().iter().zip(text.lines()).enumerate() {
        assert!(line.starts_with(&format!("{:3}. ", i + 1)), "{line}");
        assert!(line.contains(&format!(" {m} ")), "{line}");
        try_play(&mut pos, m).unwrap();
    }
    assert_eq!(&pos, game.position());
    // Depth-limited searches give the same game every time.
    let mut again = Vec::new();
    self_play::run(16, 2, &mut again).unwrap();
    assert_eq!(String::from_utf8(again).unwrap(), text);
}

#[test]
fn self_play_reports_the_end_of_the_game() {
    // Black, to move, is mated: the game ends before any move.
    let mut out = Vec::new();
    let (game, end) = self_play::run_from("R3k4/1R7/9/9/9/9/9/9/9/3K5 b", 10, 2, &mut out).unwrap();
    assert_eq!(
        end,
        self_play::End::Over(
            xq_movegen::GameResult::RedWins,
            xq_movegen::Termination::Checkmate
        )
    );
    assert!(game.moves().is_empty());
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("result: 1-0 checkmate\n"), "{text}");
}

#[test]
fn custom_stop_after_iterations() {
    let rule = custom_stop::StopRule {
        iterations: 3,
        threshold: 500,
    };
    let mut out = Vec::new();
    let (result, seen) = custom_stop::run(START_FEN, rule, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(seen, 3, "{text}");
    assert!(text.contains("iteration 3: depth 3 "), "{text}");
    assert!(text.contains("stop: 3 iterations done\n"), "{text}");
    assert!(!text.contains("iteration 4"), "{text}");
    // The search noticed the flag: it did not run to its safety-net depth of 64.
    assert!(result.depth >= 3 && result.depth < 64, "{text}");
    // The principal variation is a legal line starting with the best move.
    assert_eq!(result.pv.first().copied(), result.best_move);
    let mut pos = Position::startpos();
    for &m in &result.pv {
        try_play(&mut pos, m).unwrap();
    }
    let pv: Vec<String> = result.pv.iter().map(|m| m.to_string()).collect();
    assert!(text.contains(&format!("\npv {}\n", pv.join(" "))), "{text}");
}

#[test]
fn custom_stop_at_a_threshold() {
    let rule = custom_stop::StopRule {
        iterations: 20,
        threshold: 500,
    };
    let mut out = Vec::new();
    let (result, seen) = custom_stop::run("3k5/9/9/9/9/9/9/9/R8/R3K4 w", rule, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(seen, 1, "{text}");
    assert!(
        text.contains("stop: score mate 1 passed the threshold\n"),
        "{text}"
    );
    assert_eq!(
        result.best_move.map(|m| m.to_string()).as_deref(),
        Some("a0d0")
    );
    assert!(text.contains("\npv a0d0\n"), "{text}");
}
