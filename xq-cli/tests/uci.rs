//! The UCI engine loop, driven through pipes as a GUI would.

mod common;

use common::*;
use std::time::{Duration, Instant};
use xq_core::Position;
use xq_movegen::Game;

fn game(fen: &str, moves: &[String]) -> Game {
    Game::from_fen_moves(fen, moves).unwrap()
}

#[test]
fn handshake() {
    let mut e = Engine::start(&["uci"]);
    e.send("uci");
    let lines = e.until("uciok", T);
    assert_eq!(
        lines[0],
        format!("id name xq {}", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(lines[1], "id author The xq developers");
    for name in [
        "Hash",
        "Threads",
        "MultiPV",
        "Ponder",
        "Clear Hash",
        "Move Overhead",
    ] {
        let prefix = format!("option name {name} type ");
        assert!(
            lines.iter().any(|l| l.starts_with(&prefix)),
            "no {name} in {lines:?}"
        );
    }
    assert!(lines
        .iter()
        .any(|l| l == "option name Hash type spin default 64 min 1 max 33554432"));
    assert!(lines
        .iter()
        .any(|l| l == "option name Threads type spin default 1 min 1 max 1024"));
    assert!(lines
        .iter()
        .any(|l| l == "option name UCI_Variant type combo default xiangqi var xiangqi"));
    for option in [
        "option name OwnBook type check default false",
        "option name BookFile type string default <empty>",
        "option name BookDepth type spin default 40 min 0 max 1000",
        "option name Best Book Move type check default false",
        "option name UCI_ShowWDL type check default false",
    ] {
        assert!(
            lines.iter().any(|l| l == option),
            "no {option} in {lines:?}"
        );
    }
    e.ready();
}

#[test]
fn plain_xq_picks_the_protocol_from_the_first_command() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    let lines = e.until("uciok", T);
    assert!(lines[0].starts_with("id name xq"));
    e.send("position startpos");
    let (best, _) = e.go("depth 2");
    assert!(legal(&Position::startpos(), &best));

    let mut e = Engine::start(&[]);
    e.send("ucci");
    let lines = e.until("ucciok", T);
    assert!(lines.iter().any(|l| l.starts_with("option usemillisec")));
}

#[test]
fn a_game_of_40_plies_gets_legal_moves() {
    let mut e = Engine::uci();
    e.send("ucinewgame");
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..40 {
        let g = game(xq_core::START_FEN, &moves);
        if xq_movegen::count_legal(g.position()) == 0 {
            break;
        }
        if moves.is_empty() {
            e.send("position startpos");
        } else {
            e.send(&format!("position startpos moves {}", moves.join(" ")));
        }
        let (best, lines) = e.go("depth 3");
        assert!(legal(g.position(), &best), "{best} illegal after {moves:?}");
        let info = lines
            .iter()
            .find(|l| l.starts_with("info depth 3 "))
            .expect("depth 3 info");
        for key in [
            " seldepth ",
            " multipv 1 ",
            " score ",
            " nodes ",
            " nps ",
            " hashfull ",
            " time ",
            " pv ",
        ] {
            assert!(info.contains(key), "{key} missing in {info}");
        }
        // The pv starts with the best move and is legal.
        let pv: Vec<&str> = info
            .split(" pv ")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .collect();
        let mut line = g.clone();
        for m in &pv {
            assert!(legal(line.position(), m), "pv {pv:?}");
            line.play(m.parse().unwrap()).unwrap();
        }
        moves.push(best);
    }
    assert!(moves.len() >= 20, "game ended too early: {moves:?}");
}

#[test]
fn long_move_lists_work_and_keep_repetitions() {
    let mut e = Engine::uci();
    // 200 plies of shuffling horses back to the start position.
    let cycle = ["h0g2", "h9g7", "g2h0", "g7h9"];
    let moves: Vec<&str> = cycle.iter().cycle().take(200).copied().collect();
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.ready();
    let (best, lines) = e.go("depth 3");
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
    assert!(legal(&Position::startpos(), &best));

    // Red has a chariot against a lone general: winning, unless every winning try
    // repeats. The engine must still find a legal move after a long repetitive history.
    let fen = "4k4/9/9/9/9/9/9/9/4A4/R3K4 w";
    let shuffle = ["a0a1", "e9d9", "a1a0", "d9e9"];
    let moves: Vec<&str> = shuffle.iter().cycle().take(300).copied().collect();
    e.send(&format!("position fen {fen} moves {}", moves.join(" ")));
    let (best, lines) = e.go("depth 4");
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
    let g = Game::from_fen_moves(fen, &moves).unwrap();
    assert!(legal(g.position(), &best));
}

#[test]
fn stop_answers_an_infinite_search_quickly() {
    let mut e = Engine::uci();
    e.send("position startpos moves h2e2");
    e.send("go infinite");
    // It thinks, reports, and answers isready meanwhile, but gives no best move.
    let lines = e.lines_for(Duration::from_millis(400));
    assert!(
        lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("isready");
    let lines = e.until("readyok", Duration::from_secs(1));
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")));
    // Without `stop` there would be no answer at all (`until` gives up after `T`).
    e.send("stop");
    let lines = e.until("bestmove", T);
    let best = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    let g = game(xq_core::START_FEN, &["h2e2".to_string()]);
    assert!(legal(g.position(), &best), "{best}");
}

#[test]
fn an_infinite_search_that_ends_early_waits_for_stop() {
    let mut e = Engine::uci();
    e.send(&format!("position fen {MATE_IN_ONE}"));
    e.send("go infinite");
    let lines = e.lines_for(Duration::from_millis(700));
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("stop");
    let lines = e.until("bestmove", Duration::from_secs(2));
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(mates(best), "{lines:?}");
}

#[test]
fn ponder_then_ponderhit() {
    let mut e = Engine::uci();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves h2e2 h9g7");
    e.send("go ponder wtime 2000 btime 2000 winc 0 binc 0");
    let lines = e.lines_for(Duration::from_millis(1500));
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "pondering answered: {lines:?}"
    );
    // At ponderhit the search goes on under the clock, so it ends by itself.
    e.send("ponderhit");
    let lines = e.until("bestmove", T);
    let best = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    let g = game(xq_core::START_FEN, &["h2e2".into(), "h9g7".into()]);
    assert!(legal(g.position(), &best));

    // Pondering on a miss: stop answers, then a new search.
    e.send("go ponder wtime 2000 btime 2000");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    e.until("bestmove", Duration::from_secs(2));
    e.send("position startpos moves h2e2 h9g7 h0g2");
    let (best, _) = e.go("depth 2");
    let g = game(
        xq_core::START_FEN,
        &["h2e2".into(), "h9g7".into(), "h0g2".into()],
    );
    assert!(legal(g.position(), &best));
}

#[test]
fn multipv_gives_distinct_ordered_lines() {
    let mut e = Engine::uci();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    let (best, lines) = e.go("depth 4");
    let last: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 4 "))
        .collect();
    assert_eq!(last.len(), 3, "{lines:?}");
    let field = |l: &str, key: &str| -> String {
        let words: Vec<&str> = l.split_whitespace().collect();
        let i = words.iter().position(|w| *w == key).unwrap();
        words[i + 1].to_string()
    };
    let mut firsts = Vec::new();
    let mut scores = Vec::new();
    for (i, l) in last.iter().enumerate() {
        assert_eq!(field(l, "multipv"), (i + 1).to_string());
        assert_eq!(field(l, "score"), "cp");
        scores.push(field(l, "cp").parse::<i32>().unwrap());
        firsts.push(field(l, "pv"));
    }
    assert!(
        scores[0] >= scores[1] && scores[1] >= scores[2],
        "{scores:?}"
    );
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert_eq!(best, firsts[0]);
}

#[test]
fn garbage_is_reported_and_ignored() {
    let mut e = Engine::uci();
    e.send("position startpos moves h2e2");
    for bad in [
        "hello world",
        "position",
        "position fen xyz w",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w moves e0e9",
        "position startpos moves h2e2 zz99",
        "setoption name Hash value lots",
        "setoption name Threads value 1025",
        "setoption name NoSuchOption value 1",
        "setoption",
        "ponderhit",
        "\u{1}\u{2}\u{3}",
    ] {
        e.send(bad);
        let lines = e.until("info string", T);
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
    }
    e.ready();
    // The bad positions kept the last good one: Black to move after h2e2.
    let (best, _) = e.go("depth 2");
    let g = game(xq_core::START_FEN, &["h2e2".into()]);
    assert!(legal(g.position(), &best), "{best}");
    // A bad go parameter is reported but the search still answers.
    e.send("go depth x nodes 5000");
    let lines = e.until("bestmove", T);
    assert!(
        lines.iter().any(|l| l.starts_with("info string go")),
        "{lines:?}"
    );
    e.ready();
}

#[test]
fn no_legal_move_gives_bestmove_none() {
    let mut e = Engine::uci();
    e.send(&format!("position fen {MATED}"));
    let (best, lines) = e.go("depth 3");
    assert_eq!(best, "(none)");
    assert!(
        lines.iter().any(|l| l.contains("score mate 0")),
        "{lines:?}"
    );
    e.send(&format!("position fen {MATED}"));
    let (best, _) = e.go("wtime 1000 btime 1000");
    assert_eq!(best, "(none)");
}

#[test]
fn searchmoves_and_mate() {
    let mut e = Engine::uci();
    e.send(&format!("position fen {MATE_IN_ONE}"));
    let (best, lines) = e.go("mate 1");
    assert!(mates(&best), "{best}");
    assert!(lines.iter().any(|l| l.contains("score mate 1")));
    let (best, _) = e.go("depth 3 searchmoves e1e2 a8a7");
    assert!(best == "e1e2" || best == "a8a7", "{best}");
}

#[test]
fn threads_and_hash_changes() {
    let mut e = Engine::uci();
    e.send("setoption name Threads value 3");
    e.send("setoption name Hash value 8");
    e.send("setoption name Clear Hash");
    e.ready();
    e.send("position startpos moves b2e2 b9c7");
    let (best, lines) = e.go("depth 5");
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
    let g = game(xq_core::START_FEN, &["b2e2".into(), "b9c7".into()]);
    assert!(legal(g.position(), &best));
    e.send("setoption name Threads value 1");
    e.send("ucinewgame");
    let (best, _) = e.go("depth 3");
    assert!(legal(g.position(), &best));
}

#[test]
fn clock_limits_are_kept() {
    let mut e = Engine::uci();
    e.send("position startpos");
    // How a clock becomes a budget is unit-tested (xq-search's `time`, and `read_go`
    // here); this checks the protocol obeys one: with no other limit, a search that
    // ignored the clock would never answer (`go` gives up after `T`).
    let (best, _) = e.go("wtime 600 btime 600");
    assert!(legal(&Position::startpos(), &best));
    // Time trouble: far below the move overhead, still a legal move.
    let (best, _) = e.go("wtime 5 btime 5 winc 0 binc 0");
    assert!(legal(&Position::startpos(), &best));
    // A fixed time is used, not skipped (a lower bound only: a loaded machine makes
    // every search longer, never shorter).
    let t = Instant::now();
    let (best, _) = e.go("movetime 300");
    let took = t.elapsed();
    assert!(
        took >= Duration::from_millis(150),
        "movetime ignored: {took:?}"
    );
    assert!(legal(&Position::startpos(), &best));
}

#[test]
fn nothing_after_quit() {
    let mut e = Engine::uci();
    e.ready();
    e.send("quit");
    assert_eq!(
        e.lines_for(Duration::from_millis(500)),
        Vec::<String>::new()
    );
    let t = Instant::now();
    while e.child.try_wait().unwrap().is_none() {
        assert!(t.elapsed() < Duration::from_secs(5), "xq did not exit");
        std::thread::sleep(Duration::from_millis(10));
    }

    // Quitting during a search: no best move, and a prompt exit.
    let mut e = Engine::uci();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("quit");
    let lines = e.lines_for(Duration::from_millis(500));
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    let t = Instant::now();
    while e.child.try_wait().unwrap().is_none() {
        assert!(t.elapsed() < Duration::from_secs(5), "xq did not exit");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn uci_variant_is_xiangqi_and_nothing_else() {
    let mut e = Engine::uci();
    e.send("setoption name UCI_Variant value xiangqi");
    e.send("isready");
    assert_eq!(e.until("readyok", T), ["readyok"]);
    for (bad, said) in [
        (
            "setoption name UCI_Variant value chess",
            "info string setoption: unsupported variant 'chess' (in: setoption name UCI_Variant value chess)",
        ),
        (
            "setoption name UCI_Variant value janggi",
            "info string setoption: unsupported variant 'janggi' (in: setoption name UCI_Variant value janggi)",
        ),
        (
            "setoption name UCI_Variant",
            "info string setoption: missing value for UCI_Variant (in: setoption name UCI_Variant)",
        ),
    ] {
        e.send(bad);
        assert_eq!(e.until("info string", T), [said]);
    }
    // Still a Xiangqi engine.
    e.send("position startpos");
    let (best, _) = e.go("depth 2");
    assert!(legal(&Position::startpos(), &best), "{best}");
}

/// A UCI session in this process, its table allowed at most 100 MiB, at most two
/// threads: the binary with a machine that refuses bigger tables.
fn small_machine() -> (
    xq_protocol::Uci<xq_search::Engine>,
    std::sync::Arc<std::sync::Mutex<Vec<String>>>,
) {
    use xq_protocol::Sink;
    use xq_search::engine::{Caps, Options};
    let (sink, lines) = Sink::buffer();
    let caps = Caps {
        max_threads: 2,
        table_limit_mib: Some(100),
        ..Caps::default()
    };
    (
        xq_protocol::Uci::new(sink, xq_search::Engine::with_caps(Options::default(), caps)),
        lines,
    )
}

#[test]
fn a_hash_the_machine_refuses_is_reported_and_the_engine_plays_on() {
    use xq_protocol::Protocol;
    let (mut uci, lines) = small_machine();
    uci.handle("uci");
    lines.lock().unwrap().clear();
    // 32 GiB is a value the option takes; this machine refuses it.
    uci.handle("setoption name Hash value 32768");
    assert_eq!(
        *lines.lock().unwrap(),
        ["info string setoption: cannot allocate a hash table of 32768 MiB; keeping 64 MiB (in: setoption name Hash value 32768)"]
    );
    lines.lock().unwrap().clear();
    // A size it gives is taken without a word; the largest value is in range.
    uci.handle("setoption name Hash value 16");
    uci.handle("setoption name Hash value 33554432");
    uci.handle("setoption name Hash value 33554433");
    assert_eq!(
        *lines.lock().unwrap(),
        [
            "info string setoption: cannot allocate a hash table of 33554432 MiB; keeping 16 MiB (in: setoption name Hash value 33554432)",
            "info string setoption: Hash must be between 1 and 33554432, not 33554433 (in: setoption name Hash value 33554433)",
        ]
    );
    lines.lock().unwrap().clear();
    uci.handle("position startpos moves h2e2");
    uci.handle("go depth 3");
    let deadline = std::time::Instant::now() + T;
    while !lines
        .lock()
        .unwrap()
        .iter()
        .any(|l| l.starts_with("bestmove"))
    {
        assert!(
            std::time::Instant::now() < deadline,
            "{:?}",
            lines.lock().unwrap()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let lines = lines.lock().unwrap();
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3 ")),
        "{lines:?}"
    );
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    let g = game(xq_core::START_FEN, &["h2e2".into()]);
    assert!(legal(g.position(), best), "{best}");
}

#[test]
fn threads_go_up_to_the_caps() {
    use xq_protocol::Protocol;
    let (mut uci, lines) = small_machine();
    // An engine whose caps allow two threads announces and takes at most two.
    uci.handle("uci");
    assert!(lines
        .lock()
        .unwrap()
        .contains(&"option name Threads type spin default 1 min 1 max 2".to_string()));
    lines.lock().unwrap().clear();
    uci.handle("setoption name Threads value 2");
    uci.handle("setoption name Threads value 3");
    assert_eq!(
        *lines.lock().unwrap(),
        ["info string setoption: Threads must be between 1 and 2, not 3 (in: setoption name Threads value 3)"]
    );
}

/// A mate in 2 from data/mates.epd: the chariot's a0a8 only.
const MATE_IN_TWO: &str = "9/9/3k5/9/9/4P4/3N5/3K5/9/R8 w - - 41 56";

/// The words after `key` in an info line.
fn after_key<'a>(line: &'a str, key: &str) -> Vec<&'a str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.iter().position(|w| *w == key) {
        Some(i) => words[i + 1..].to_vec(),
        None => Vec::new(),
    }
}

/// Plays `pv` from `fen`: the position at its end (the line must be legal).
fn play_line(fen: &str, pv: &[&str]) -> Position {
    let g = Game::from_fen_moves(fen, pv).unwrap_or_else(|e| panic!("{pv:?}: {e}"));
    g.position().clone()
}

#[test]
fn go_mate_finds_the_mate_and_answers_by_itself() {
    let mut e = Engine::uci();
    e.send(&format!("position fen {MATE_IN_TWO}"));
    // No stop is sent: the search ends when it has the mate.
    let (best, lines) = e.go("mate 2");
    assert_eq!(best, "a0a8");
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert_eq!(after_key(last, "score")[..2], ["mate", "2"], "{last}");
    // The whole mating line: three plies, and the side to move is then mated.
    let pv = after_key(last, "pv");
    assert_eq!(pv.len(), 3, "{last}");
    assert_eq!(xq_movegen::count_legal(&play_line(MATE_IN_TWO, &pv)), 0);
    // Asked for a mate in 1 where there is none, it still answers with the mate in 2
    // once deeper searches cannot shorten it.
    let (best, lines) = e.go("mate 1");
    assert_eq!(best, "a0a8");
    assert!(
        lines.iter().any(|l| l.contains(" score mate 2 ")),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains(" score mate 1 ")),
        "{lines:?}"
    );
}

#[test]
fn go_searchmoves_searches_only_those_moves() {
    let mut e = Engine::uci();
    e.send("setoption name MultiPV value 2");
    e.send(&format!("position fen {MATE_IN_TWO}"));
    // The mate is left out: the two moves given are the two lines.
    let (best, lines) = e.go("depth 4 searchmoves a0a1 e4e5");
    assert!(best == "a0a1" || best == "e4e5", "{best}");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!infos.is_empty());
    for l in &infos {
        let first = after_key(l, "pv")[0];
        assert!(first == "a0a1" || first == "e4e5", "{l}");
        assert_ne!(after_key(l, "score")[0], "mate", "{l}");
    }
    let depth4: Vec<&str> = infos
        .iter()
        .filter(|l| l.starts_with("info depth 4 "))
        .map(|l| after_key(l, "pv")[0])
        .collect();
    assert_eq!(depth4.len(), 2, "{infos:?}");
    assert_ne!(depth4[0], depth4[1]);
    // Bad moves in the list are reported; the good one is searched alone.
    e.send("setoption name MultiPV value 1");
    let (best, lines) = e.go("depth 3 searchmoves a0a8 zz99 a9a8");
    assert_eq!(
        lines[0],
        "info string go: bad move 'zz99': bad origin square: `z` is not a file letter a-i; illegal move a9a8 (in: go depth 3 searchmoves a0a8 zz99 a9a8)"
    );
    assert_eq!(best, "a0a8");
    // With mate: the mate among the moves given.
    let (best, _) = e.go("mate 2 searchmoves e4e5 a0a8");
    assert_eq!(best, "a0a8");
}

#[test]
fn multipv_lines_that_end_in_mate_show_the_whole_line() {
    // A mate in 3 (two ways) and mates in 4 (data/mates.epd).
    let fen = "9/9/3k5/4P4/9/p2p5/5R3/9/9/4K4 w - - 6 36";
    let mut e = Engine::uci();
    e.send("setoption name MultiPV value 4");
    e.send(&format!("position fen {fen}"));
    let (_, lines) = e.go("depth 12");
    let mates: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth") && l.contains(" score mate "))
        .collect();
    assert!(mates.len() >= 4, "{lines:?}");
    for l in mates {
        let n: i32 = after_key(l, "mate")[0].parse().unwrap();
        assert!(n > 0, "{l}");
        let pv = after_key(l, "pv");
        assert_eq!(pv.len() as i32, 2 * n - 1, "{l}");
        assert_eq!(xq_movegen::count_legal(&play_line(fen, &pv)), 0, "{l}");
    }
}

#[test]
fn uci_show_wdl_adds_the_chances_to_the_info_lines() {
    let mut e = Engine::uci();
    e.send("position startpos moves h2e2");
    let (_, lines) = e.go("depth 3");
    assert!(
        !lines.iter().any(|l| l.contains(" wdl ")),
        "off by default: {lines:?}"
    );
    e.send("setoption name UCI_ShowWDL value true");
    e.send("setoption name MultiPV value 2");
    let (_, lines) = e.go("depth 4");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 8, "{lines:?}");
    let pos = game(xq_core::START_FEN, &["h2e2".into()])
        .position()
        .clone();
    for l in infos {
        // "score cp V wdl W D L", from the side to move's view, by the model.
        let score = after_key(l, "score");
        assert_eq!(score[0], "cp", "{l}");
        assert_eq!(score[2], "wdl", "{l}");
        let w = xq_search::wdl::wdl(xq_search::Score::Cp(score[1].parse().unwrap()), &pos);
        let said: Vec<u32> = score[3..6].iter().map(|n| n.parse().unwrap()).collect();
        assert_eq!(said, [w.win, w.draw, w.loss], "{l}");
        assert_eq!(said.iter().sum::<u32>(), 1000);
        assert_eq!(score[6], "nodes", "{l}");
    }
    // A mate: certain.
    e.send(&format!("position fen {MATE_IN_ONE}"));
    let (_, lines) = e.go("depth 3");
    assert!(
        lines
            .iter()
            .any(|l| l.contains(" score mate 1 wdl 1000 0 0 nodes ")),
        "{lines:?}"
    );
    e.send("setoption name UCI_ShowWDL value false");
    let (_, lines) = e.go("depth 2");
    assert!(!lines.iter().any(|l| l.contains(" wdl ")), "{lines:?}");
}

/// The nodes of the last `info depth` line of a search.
fn last_nodes(lines: &[String]) -> u64 {
    let last = lines
        .iter()
        .rfind(|l| l.starts_with("info depth"))
        .expect("an info line");
    after_key(last, "nodes")[0].parse().unwrap()
}

#[test]
fn search_parameters_are_options_in_a_tuning_build_only() {
    let tune = cfg!(feature = "tune");
    let mut e = Engine::uci();
    e.send("uci");
    let announced = e.until("uciok", T);
    let line = "option name rfp_margin type spin default 95 min 0 max 2147483647";
    assert_eq!(announced.iter().any(|l| l == line), tune, "{announced:?}");
    e.send("position startpos moves h2e2 h9g7");
    let (_, lines) = e.go("depth 8");
    let plain = last_nodes(&lines);
    e.send("ucinewgame");
    e.send("setoption name rfp_margin value 10");
    if tune {
        e.ready();
        // A smaller reverse-futility margin prunes more: another tree.
        e.send("position startpos moves h2e2 h9g7");
        let (_, lines) = e.go("depth 8");
        assert_ne!(last_nodes(&lines), plain);
        // Out of range: a negative margin, and a divisor of 0 (the search divides by
        // it); each is refused with a line and changes nothing.
        for bad in [
            "setoption name rfp_margin value -1",
            "setoption name nmp_depth_divisor value 0",
        ] {
            e.send(bad);
            let lines = e.until("info string", T);
            assert_eq!(lines.len(), 1, "{lines:?}");
        }
        let divisor = "option name nmp_depth_divisor type spin default 4 min 1 max 2147483647";
        assert!(announced.iter().any(|l| l == divisor), "{announced:?}");
    } else {
        let lines = e.until("info string", T);
        assert!(lines[0].contains("rfp_margin"), "{lines:?}");
    }
    // The same search as before after the default is set again (or nothing was set).
    e.send("ucinewgame");
    e.send("setoption name rfp_margin value 95");
    if !tune {
        e.until("info string", T);
    }
    e.send("position startpos moves h2e2 h9g7");
    let (_, lines) = e.go("depth 8");
    assert_eq!(last_nodes(&lines), plain);
}

#[test]
fn a_bench_depth_out_of_range_is_refused() {
    use xq_protocol::Protocol;
    let (mut uci, lines) = small_machine();
    uci.handle("bench 0");
    uci.handle("bench 21");
    assert_eq!(
        *lines.lock().unwrap(),
        [
            "info string bench: depth must be between 1 and 20, not 0 (in: bench 0)",
            "info string bench: depth must be between 1 and 20, not 21 (in: bench 21)",
        ]
    );
}
