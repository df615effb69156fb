//! Playing levels through the protocols: the options, legal moves at every level in
//! every kind of position, full strength unchanged.

mod common;

use common::*;
use xq_movegen::Game;

/// (name, `position` arguments, FEN and moves for the referee).
const POSITIONS: &[(&str, &str, &str, &str)] = &[
    ("start", "startpos", xq_core::START_FEN, ""),
    (
        "middlegame",
        "startpos moves h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 h7i7 h0h4 c6c5",
        xq_core::START_FEN,
        "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 h7i7 h0h4 c6c5",
    ),
    (
        "endgame",
        "fen 3k5/9/4P4/9/9/2B6/9/4B4/4A4/3AK4 w",
        "3k5/9/4P4/9/9/2B6/9/4B4/4A4/3AK4 w",
        "",
    ),
    (
        "in check",
        "fen 5k3/9/9/9/9/9/9/9/3r5/3K5 w",
        "5k3/9/9/9/9/9/9/9/3r5/3K5 w",
        "",
    ),
    (
        "one legal move",
        "fen 5k3/9/9/9/9/9/9/9/r8/3K5 w",
        "5k3/9/9/9/9/9/9/9/r8/3K5 w",
        "",
    ),
];

fn game(fen: &str, moves: &str) -> Game {
    let mut g = Game::from_fen_moves(fen, &[] as &[&str]).unwrap();
    g.play_text(moves).unwrap();
    g
}

#[test]
fn the_uci_options_are_announced() {
    let mut e = Engine::start(&["uci"]);
    e.send("uci");
    let lines = e.until("uciok", T);
    for want in [
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 1783 min 1000 max 2764",
    ] {
        assert!(lines.iter().any(|l| l == want), "no {want:?} in {lines:#?}");
    }
    let mut e = Engine::start(&["ucci"]);
    e.send("ucci");
    let lines = e.until("ucciok", T);
    let want = "option skill type spin min 0 max 20 default 20";
    assert!(lines.iter().any(|l| l == want), "{lines:#?}");
}

#[test]
fn every_uci_level_plays_legal_moves_everywhere() {
    let mut e = Engine::uci();
    for level in 0..=20 {
        e.send(&format!("setoption name Skill Level value {level}"));
        for &(name, position, fen, moves) in POSITIONS {
            e.send(&format!("position {position}"));
            // The level's own limits end the search below 20; full strength needs one.
            let (best, lines) = e.go("nodes 30000");
            assert!(
                legal(game(fen, moves).position(), &best),
                "level {level}, {name}: {best}"
            );
            assert!(
                !lines.iter().any(|l| l.starts_with("info string")),
                "level {level}, {name}: {lines:?}"
            );
            // The lines the level searches beyond the one asked for are not shown.
            assert!(
                !lines.iter().any(|l| l.contains(" multipv 2 ")),
                "level {level}, {name}: {lines:?}"
            );
        }
    }
}

#[test]
fn limit_strength_plays_at_the_elo_and_bad_values_are_refused() {
    let mut e = Engine::uci();
    e.send("setoption name UCI_LimitStrength value true");
    for elo in [1000, 1800, 2700] {
        e.send(&format!("setoption name UCI_Elo value {elo}"));
        e.send("position startpos moves h2e2");
        let (best, _) = e.go("nodes 20000");
        assert!(legal(game(xq_core::START_FEN, "h2e2").position(), &best));
    }
    e.send("setoption name UCI_Elo value 999");
    e.send("setoption name Skill Level value 21");
    e.send("isready");
    assert_eq!(
        e.until("readyok", T),
        [
            "info string setoption: UCI_Elo must be between 1000 and 2764, not 999 (in: setoption name UCI_Elo value 999)",
            "info string setoption: Skill Level must be between 0 and 20, not 21 (in: setoption name Skill Level value 21)",
            "readyok",
        ]
    );
}

#[test]
fn every_ucci_level_plays_legal_moves() {
    let mut e = Engine::ucci();
    for level in [0, 5, 10, 15, 19, 20] {
        e.send(&format!("setoption skill {level}"));
        for &(name, position, fen, moves) in POSITIONS {
            e.send(&format!("position {position}"));
            let (best, _) = e.go("nodes 30000");
            assert!(
                legal(game(fen, moves).position(), &best),
                "level {level}, {name}: {best}"
            );
        }
    }
    e.send("setoption skill 21");
    e.send("isready");
    assert_eq!(
        e.until("readyok", T),
        [
            "info string setoption: skill must be between 0 and 20, not 21 (in: setoption skill 21)",
            "readyok",
        ]
    );
}

/// The node counts and moves of the info lines of `go depth 6` from a fresh engine.
fn depth_six(options: &[&str]) -> (String, Vec<String>) {
    let mut e = Engine::uci();
    for o in options {
        e.send(o);
    }
    e.send("position startpos moves h2e2 h9g7");
    let (best, lines) = e.go("depth 6");
    let searched: Vec<String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| {
            // Leave out what depends on the clock.
            let w: Vec<&str> = l.split_whitespace().collect();
            let at = |k: &str| w.iter().position(|x| *x == k).unwrap();
            format!(
                "{} nodes {} pv {}",
                w[..at("nodes")].join(" "),
                w[at("nodes") + 1],
                w[at("pv") + 1..].join(" ")
            )
        })
        .collect();
    (best, searched)
}

#[test]
fn full_strength_is_unchanged() {
    let plain = depth_six(&[]);
    assert_eq!(plain.1.len(), 6, "{:?}", plain.1);
    assert_eq!(depth_six(&["setoption name Skill Level value 20"]), plain);
    // With UCI_LimitStrength off, UCI_Elo does nothing.
    assert_eq!(depth_six(&["setoption name UCI_Elo value 1000"]), plain);
    // A level changes the search (its node and depth caps, its lines).
    let weak = depth_six(&["setoption name Skill Level value 0"]);
    assert_ne!(weak.1, plain.1);
    assert!(weak.1.len() <= 5, "{:?}", weak.1);
}
