//! Composed positions (a piece on a square no game brings it to, accepted as
//! `Ignore::PLAYABLE`) with endgame tables set: every way into the engine answers, none
//! panics. The tables of xq-tablebase's tests have no number for a soldier on its own
//! back rank, so the engine searches without them there.

mod common;
use common::{stdout, xq, Engine, T};

/// A soldier on its own back rank: KPK material, not in KPK's table.
const COMPOSED: &str = "3k5/9/9/9/9/9/9/9/9/4KP3 w";

fn tables() -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../xq-tablebase/tests/data");
    dir.to_str().unwrap().to_string()
}

#[test]
fn analyze_searches_a_composed_position_with_tables_set() {
    let dir = tables();
    let out = xq(&[
        "analyze",
        "--fen",
        COMPOSED,
        "--tablebases",
        &dir,
        "--depth",
        "4",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let text = stdout(&out);
    assert!(text.contains("bestmove "), "{text}");
    // No table line: the tables do not hold the position.
    assert!(!text.contains("win, mate in"), "{text}");
    let json = stdout(&xq(&[
        "analyze",
        "--fen",
        COMPOSED,
        "--tablebases",
        &dir,
        "--depth",
        "3",
        "--json",
    ]));
    assert!(json.lines().any(|l| l.contains("\"bestmove\"")), "{json}");
}

#[test]
fn tb_probe_says_the_position_is_not_in_the_table() {
    let out = xq(&["tb", "probe", &tables(), "--fen", COMPOSED]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "xq: KPK has no table entry for this position: 'P' can never stand on f0"
    );
}

#[test]
fn uci_ucci_and_xboard_engines_search_it_with_tables_set() {
    let dir = tables();
    let mut e = Engine::uci();
    e.send(&format!("setoption name TablebasePath value {dir}"));
    e.send(&format!("position fen {COMPOSED}"));
    let (best, _) = e.go("depth 3");
    assert!(common::legal(&composed(), &best), "{best}");
    // The engine lives on: the next search of a position in the tables.
    e.send("position fen 3k5/9/9/9/9/9/9/9/4R4/4K4 w");
    let (best, _) = e.go("depth 2");
    assert_ne!(best, "(none)");

    let mut e = Engine::ucci();
    e.send(&format!("setoption tablebasepath {dir}"));
    e.send(&format!("position fen {COMPOSED}"));
    let (best, _) = e.go("depth 3");
    assert!(common::legal(&composed(), &best), "{best}");

    let mut e = Engine::start(&["xboard"]);
    for line in [
        "xboard",
        "protover 2",
        "variant xiangqi",
        &format!("egtpath xiangqi {dir}"),
        &format!("setboard {COMPOSED}"),
        "sd 3",
        "go",
    ] {
        e.send(line);
    }
    let lines = e.until("move ", T);
    let best = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    assert!(common::legal(&composed(), &best), "{best} {lines:?}");
}

fn composed() -> xq_core::Position {
    xq_core::Position::from_fen_with(COMPOSED, xq_core::Ignore::PLAYABLE).unwrap()
}
