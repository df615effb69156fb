//! The UCCI engine loop, driven through pipes as a GUI would.

mod common;

use common::*;
use std::time::{Duration, Instant};
use xq_core::Position;
use xq_movegen::Game;

fn after(moves: &[&str]) -> Game {
    Game::from_fen_moves(xq_core::START_FEN, moves).unwrap()
}

/// The answer of a search: `bestmove X ...` or `nobestmove`.
fn answer(e: &mut Engine, go: &str) -> (Option<String>, Vec<String>) {
    e.send(go);
    let lines = e.until_any(&["bestmove", "nobestmove"], T);
    let last = lines.last().unwrap();
    let best = last
        .strip_prefix("bestmove ")
        .map(|r| r.split_whitespace().next().unwrap().to_string());
    (best, lines)
}

#[test]
fn handshake() {
    let mut e = Engine::start(&["ucci"]);
    e.send("ucci");
    let lines = e.until("ucciok", T);
    assert_eq!(
        lines[0],
        format!("id name xq {}", env!("CARGO_PKG_VERSION"))
    );
    assert!(lines.iter().any(|l| l == "id author The xq developers"));
    for name in ["usemillisec", "hashsize", "threads", "ponder", "newgame"] {
        let prefix = format!("option {name} type ");
        assert!(
            lines.iter().any(|l| l.starts_with(&prefix)),
            "no {name} in {lines:?}"
        );
    }
    assert!(
        !lines.iter().any(|l| l.starts_with("option name ")),
        "UCI syntax in {lines:?}"
    );
    for option in [
        "option usebook type check default true",
        "option bookfiles type string default <empty>",
    ] {
        assert!(
            lines.iter().any(|l| l == option),
            "no {option} in {lines:?}"
        );
    }
    e.ready();
}

#[test]
fn setoption_forms_and_unknown_options() {
    let mut e = Engine::ucci();
    for ok in [
        "setoption usemillisec true",
        "setoption hashsize 16",
        "setoption hashsize 0",
        "setoption threads 2",
        "setoption ponder false",
        "setoption newgame",
        "setoption usebook false",
        "setoption style risky",
        "setoption nosuchthing 7",
    ] {
        e.send(ok);
    }
    e.send("isready");
    let lines = e.until("readyok", T);
    assert_eq!(
        lines,
        vec!["readyok".to_string()],
        "options produced output"
    );
    for bad in [
        "setoption hashsize lots",
        "setoption threads 1025",
        "setoption usemillisec maybe",
        "setoption",
    ] {
        e.send(bad);
        let lines = e.until("info string", T);
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
    }
    e.send("position startpos");
    let (best, _) = answer(&mut e, "go depth 4");
    assert!(legal(&Position::startpos(), &best.unwrap()));
}

#[test]
fn info_lines_and_a_short_game() {
    let mut e = Engine::ucci();
    e.send("setoption newgame");
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..16 {
        let strs: Vec<&str> = moves.iter().map(String::as_str).collect();
        let g = after(&strs);
        e.send(&format!(
            "position fen {} moves {}",
            xq_core::START_FEN,
            strs.join(" ")
        ));
        let (best, lines) = answer(&mut e, "go depth 3");
        let best = best.expect("a move");
        assert!(legal(g.position(), &best), "{best} after {moves:?}");
        let info = lines
            .iter()
            .find(|l| l.starts_with("info depth 3 "))
            .expect("depth 3 info");
        let words: Vec<&str> = info.split_whitespace().collect();
        assert_eq!(words[3], "score", "{info}");
        assert!(
            words[4].parse::<i32>().is_ok(),
            "UCCI scores are plain numbers: {info}"
        );
        assert_eq!(words[5], "pv", "{info}");
        assert_eq!(words[6], best);
        assert!(lines
            .iter()
            .any(|l| l.starts_with("info time ") && l.contains(" nodes ")));
        moves.push(best);
    }
}

#[test]
fn times_are_seconds_unless_usemillisec() {
    let mut e = Engine::ucci();
    e.send("position startpos");
    // One second for this move: it thinks for a good part of it.
    let t = Instant::now();
    let (best, _) = answer(&mut e, "go time 1");
    let took = t.elapsed();
    assert!(legal(&Position::startpos(), &best.unwrap()));
    // A lower bound only (a loaded machine makes searches longer, never shorter); the
    // units themselves are unit-tested on `read_go` in src/ucci.rs.
    assert!(
        took >= Duration::from_millis(300),
        "seconds read as ms? {took:?}"
    );
    e.send("setoption usemillisec true");
    let (best, _) = answer(&mut e, "go time 400 increment 0");
    assert!(legal(&Position::startpos(), &best.unwrap()));
    let (best, _) = answer(
        &mut e,
        "go time 20000 movestogo 40 opptime 20000 oppmovestogo 40",
    );
    assert!(legal(&Position::startpos(), &best.unwrap()));
}

#[test]
fn banmoves_are_not_played_and_cleared_by_position() {
    let mut e = Engine::ucci();
    e.send(&format!("position fen {MATE_IN_ONE}"));
    let pos = Position::from_fen(MATE_IN_ONE).unwrap();
    let all_mates: Vec<String> = xq_movegen::legal_moves(&pos)
        .into_iter()
        .map(|m| m.to_string())
        .filter(|m| mates(m))
        .collect();
    assert!(all_mates.len() >= 2, "{all_mates:?}");
    e.send(&format!("banmoves {}", all_mates.join(" ")));
    let (best, _) = answer(&mut e, "go depth 3");
    let best = best.unwrap();
    assert!(!mates(&best), "banned move {best} played");
    assert!(legal(&pos, &best));
    // A new position forgets them.
    e.send(&format!("position fen {MATE_IN_ONE}"));
    let (best, _) = answer(&mut e, "go depth 3");
    assert!(mates(&best.unwrap()));
    // A bad move in banmoves is reported.
    e.send("banmoves a8a9 zz");
    let lines = e.until("info string", T);
    assert_eq!(lines.len(), 1);
}

#[test]
fn depth_zero_and_no_move_give_nobestmove() {
    let mut e = Engine::ucci();
    e.send("position startpos");
    let (best, _) = answer(&mut e, "go depth 0");
    assert_eq!(best, None);
    e.send(&format!("position fen {MATED}"));
    let (best, _) = answer(&mut e, "go depth 3");
    assert_eq!(best, None);
    // Every move banned.
    e.send("position fen 3k5/9/9/9/9/9/9/9/9/4K4 w");
    e.send("banmoves e0d0 e0f0 e0e1");
    let (best, _) = answer(&mut e, "go depth 2");
    assert_eq!(best, None);
}

#[test]
fn probe_reads_the_hash_table() {
    let mut e = Engine::ucci();
    e.send("position startpos");
    let (best, _) = answer(&mut e, "go depth 5");
    e.send("probe");
    let lines = e.until("pophash", T);
    let line = lines.last().unwrap();
    assert!(line.starts_with("pophash bestmove "), "{line}");
    assert!(line.contains("bound "), "{line}");
    assert!(line.contains(&best.unwrap()), "{line}");
    // A position never searched: nothing.
    e.send("probe fen 3k5/9/9/9/9/9/9/9/4A4/4K4 w");
    assert_eq!(e.until("pophash", T), vec!["pophash".to_string()]);
    // A new game clears the table.
    e.send("setoption newgame");
    e.send("probe startpos");
    assert_eq!(e.until("pophash", T), vec!["pophash".to_string()]);
}

#[test]
fn ponder_ponderhit_and_stop() {
    let mut e = Engine::ucci();
    e.send("setoption usemillisec true");
    e.send("position startpos moves h2e2 h9g7");
    e.send("go ponder time 2000 increment 0");
    let lines = e.lines_for(Duration::from_millis(1200));
    assert!(
        lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("bestmove")), "{lines:?}");
    let t = Instant::now();
    e.send("ponderhit draw");
    let lines = e.until("bestmove", Duration::from_secs(5));
    assert!(
        t.elapsed() < Duration::from_millis(1500),
        "{:?}",
        t.elapsed()
    );
    let best = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    assert!(legal(after(&["h2e2", "h9g7"]).position(), &best));

    e.send("go depth infinite");
    let lines = e.lines_for(Duration::from_millis(400));
    assert!(!lines.iter().any(|l| l.contains("bestmove")), "{lines:?}");
    let t = Instant::now();
    e.send("stop");
    let lines = e.until("bestmove", Duration::from_secs(2));
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "{:?}",
        t.elapsed()
    );
    let best = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    assert!(legal(after(&["h2e2", "h9g7"]).position(), &best));
}

#[test]
fn garbage_is_reported_and_ignored() {
    let mut e = Engine::ucci();
    e.send("position startpos moves h2e2");
    for bad in [
        "what",
        "position fen 9/9 w",
        "position startpos moves h2e2 h2e2",
        "go depth",
        "go sideways",
    ] {
        e.send(bad);
        let lines = e.until("info string", T);
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
        if bad.starts_with("go") {
            answer(&mut e, "stop");
        }
    }
    e.ready();
    let (best, _) = answer(&mut e, "go depth 2");
    assert!(legal(after(&["h2e2"]).position(), &best.unwrap()));
}

#[test]
fn quit_says_bye_and_nothing_else() {
    let mut e = Engine::ucci();
    e.send("position startpos");
    e.send("go depth infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.lines_for(Duration::from_millis(50));
    e.send("quit");
    let lines = e.lines_for(Duration::from_millis(800));
    let bye = lines.iter().position(|l| l == "bye").expect("bye");
    assert_eq!(bye, lines.len() - 1, "output after bye: {lines:?}");
    assert!(!lines.iter().any(|l| l.contains("bestmove")), "{lines:?}");
    let t = Instant::now();
    while e.child.try_wait().unwrap().is_none() {
        assert!(t.elapsed() < Duration::from_secs(5), "xq did not exit");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_hashsize_the_machine_refuses_is_reported() {
    use xq_protocol::{Protocol, Sink};
    use xq_search::engine::{Caps, Options};
    let (sink, lines) = Sink::buffer();
    let caps = Caps {
        max_threads: 2,
        table_limit_mib: Some(100),
        ..Caps::default()
    };
    let mut ucci =
        xq_protocol::Ucci::new(sink, xq_search::Engine::with_caps(Options::default(), caps));
    ucci.handle("setoption hashsize 65536");
    ucci.handle("setoption hashsize 32");
    ucci.handle("setoption threads 2");
    ucci.handle("setoption threads 3");
    assert_eq!(
        *lines.lock().unwrap(),
        [
            "info string setoption: cannot allocate a hash table of 65536 MiB; keeping 64 MiB (in: setoption hashsize 65536)",
            "info string setoption: threads must be between 0 and 2, not 3 (in: setoption threads 3)",
        ]
    );
}
