//! The `xq` command line: output formats (insta snapshots, timing redacted), errors,
//! exit codes.

use std::io::Write;
use std::process::{ChildStdin, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn xq(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xq"))
        .args(args)
        .output()
        .expect("the xq binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// The notation `style` writes for the line `pv` (ICCS moves) played from `fen` + `moves`.
fn notation_of(
    fen: &str,
    moves: &[&str],
    pv: &[&str],
    style: xq_movegen::notation::Notation,
) -> Vec<String> {
    let mut pos = xq_core::Position::from_fen(fen).unwrap();
    for m in moves {
        pos.make_move(m.parse().unwrap());
    }
    let pv: Vec<xq_core::Move> = pv.iter().map(|m| m.parse().unwrap()).collect();
    xq_movegen::notation::write_line(&pos, &pv, style).unwrap()
}

/// The chances the model gives a score (`cp 35` or `mate 2`) in the position `fen` +
/// `moves`, as `xq analyze` writes them: `win/draw/loss` per mille.
fn wdl_of(fen: &str, moves: &[&str], kind: &str, value: i32) -> String {
    let mut pos = xq_core::Position::from_fen(fen).unwrap();
    for m in moves {
        pos.make_move(m.parse().unwrap());
    }
    let score = match kind {
        "cp" => xq_search::Score::Cp(value),
        _ => xq_search::Score::Mate(value),
    };
    let w = xq_search::wdl::wdl(score, &pos);
    format!("{}/{}/{}", w.win, w.draw, w.loss)
}

/// Replaces what depends on the machine's speed (knps, time) and on the search's exact
/// tree (seldepth, score, nodes, table use, the line) by placeholders, after checking
/// each iteration line's shape and that its notation (in parentheses) is the one `style`
/// writes for its line from the position `fen` + `moves`. What is left is the format.
fn redact(text: &str, fen: &str, moves: &[&str], style: xq_movegen::notation::Notation) -> String {
    text.lines()
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let is_iteration = words
                .first()
                .is_some_and(|w| w.contains('/') && w.split('/').all(|n| n.parse::<u32>().is_ok()));
            if is_iteration && words.len() > 7 {
                // depth/seldepth score(2 words) w/d/l nodes knps time hash pv... (notation...)
                assert!(matches!(words[1], "cp" | "mate"), "{line}");
                let value: i32 = words[2].parse().unwrap();
                assert_eq!(words[3], wdl_of(fen, moves, words[1], value), "{line}");
                assert!(words[4].parse::<u64>().is_ok(), "{line}");
                assert!(words[7].ends_with('‰'), "{line}");
                let open = line.find('(').expect("the line in notation");
                let pv: Vec<&str> = line[..open].split_whitespace().skip(8).collect();
                let written: Vec<&str> =
                    line[open + 1..line.len() - 1].split_whitespace().collect();
                assert_eq!(written, notation_of(fen, moves, &pv, style), "{line}");
                let depth = words[0].split('/').next().unwrap();
                format!(
                    "{depth}/<sel> {} <score> <wdl> <nodes> <knps> <time> <hash> <pv> (<notation>)",
                    words[1]
                )
            } else if line.starts_with("bestmove") {
                let mut w: Vec<String> = words.iter().map(|s| s.to_string()).collect();
                let at = |key: &str| words.iter().position(|x| *x == key).unwrap();
                let value: i32 = words[at("score") + 2].parse().unwrap();
                assert_eq!(
                    words[at("wdl") + 1],
                    wdl_of(fen, moves, words[at("score") + 1], value),
                    "{line}"
                );
                for (key, value) in [
                    ("bestmove", "<move>"),
                    ("wdl", "<wdl>"),
                    ("score", "<kind>"),
                    ("nodes", "<nodes>"),
                    ("time", "<time>"),
                    ("ponder", "<move>"),
                ] {
                    if let Some(i) = w.iter().position(|x| x == key) {
                        w[i + 1] = value.into();
                    }
                }
                // The move in notation after the best move, the score's value.
                w[2] = "(<notation>)".into();
                if let Some(i) = w.iter().position(|x| x == "score") {
                    w[i + 2] = "<score>".into();
                }
                w.join(" ")
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn analyze_text_format() {
    let o = xq(&["analyze", "--depth", "9", "--hash", "4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let start = xq_core::START_FEN;
    insta::assert_snapshot!(redact(
        &stdout(&o),
        start,
        &[],
        xq_movegen::notation::Notation::Chinese
    ));
}

#[test]
fn analyze_unicode_and_wxf() {
    let o = xq(&[
        "analyze",
        "--moves",
        "h2e2",
        "h9g7",
        "--depth",
        "3",
        "--unicode",
        "--wxf",
        "--hash",
        "4",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let start = xq_core::START_FEN;
    let moves = ["h2e2", "h9g7"];
    insta::assert_snapshot!(redact(
        &stdout(&o),
        start,
        &moves,
        xq_movegen::notation::Notation::Wxf
    ));
}

#[test]
fn analyze_json_lines() {
    let o = xq(&["analyze", "--depth", "4", "--json", "--hash", "4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(lines.len(), 5, "four iterations and the result");
    for (i, info) in lines[..4].iter().enumerate() {
        assert_eq!(info["type"], "info");
        assert_eq!(info["depth"], i as u64 + 1);
        assert!(info["score"]["cp"].is_i64());
        assert!(!info["pv"].as_array().unwrap().is_empty());
    }
    let last = &lines[4];
    assert_eq!(last["type"], "bestmove");
    assert_eq!(last["depth"], 4);
    assert_eq!(last["bestmove"], last["pv"][0]);
    assert_eq!(last["score"], lines[3]["score"]);
    // The chances of each score, per mille, by the model.
    let start = xq_core::Position::startpos();
    for line in &lines {
        let score = xq_search::Score::Cp(line["score"]["cp"].as_i64().unwrap() as i32);
        let w = xq_search::wdl::wdl(score, &start);
        assert_eq!(line["wdl"], serde_json::json!([w.win, w.draw, w.loss]));
    }
    // The line in notation is the line's; the rest depends on the search's tree and the
    // machine's speed, so the snapshot keeps the keys and the shape.
    let pv: Vec<&str> = last["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let written: Vec<String> = last["pv_notation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        written,
        notation_of(
            xq_core::START_FEN,
            &[],
            &pv,
            xq_movegen::notation::Notation::Chinese
        )
    );
    assert_eq!(last["ponder"], last["pv"][1]);
    let mut fixed = last.clone();
    for key in ["bestmove", "nodes", "ponder", "seldepth", "time_ms"] {
        fixed[key] = "<redacted>".into();
    }
    fixed["pv"] = serde_json::json!(["<line>"]);
    fixed["pv_notation"] = serde_json::json!(["<line>"]);
    fixed["score"]["cp"] = "<cp>".into();
    fixed["wdl"] = "<wdl>".into();
    insta::assert_snapshot!(fixed.to_string());
}

#[test]
fn analyze_searches_on_several_threads() {
    let o = xq(&[
        "analyze",
        "--depth",
        "7",
        "--threads",
        "2",
        "--json",
        "--hash",
        "4",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(lines.len(), 8, "seven iterations and the result");
    let last = &lines[7];
    assert_eq!(last["type"], "bestmove");
    assert_eq!(last["depth"], 7);
    assert_eq!(last["bestmove"], last["pv"][0]);
    // Threads within 1 to 1024.
    for bad in ["0", "1025", "x"] {
        let o = xq(&["analyze", "--threads", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(stderr(&o).contains("--threads"), "{}", stderr(&o));
    }
}

#[test]
fn analyze_reports_mate_and_no_move() {
    let o = xq(&[
        "analyze",
        "--fen",
        "3k5/R8/9/9/9/9/9/9/4R4/4K4 w",
        "--depth",
        "4",
        "--json",
    ]);
    let last: serde_json::Value = serde_json::from_str(stdout(&o).lines().last().unwrap()).unwrap();
    assert_eq!(last["score"]["mate"], 1);
    assert_eq!(last["bestmove"], "e1e9");
    let o = xq(&[
        "analyze",
        "--fen",
        "R3k4/1R7/9/9/9/9/9/9/9/3K5 b",
        "--depth",
        "2",
    ]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("no legal move: Black has lost (checkmate)"));
}

#[test]
fn eval_format() {
    let moves = ["h2e2", "h9g7", "h0g2"];
    let o = xq(&["eval", "--moves", &moves.join(" ")]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Every number is the library's (they change when the weights are retuned: the
    // snapshot keeps the format only).
    let game = xq_movegen::Game::from_fen_moves(xq_core::START_FEN, &moves).unwrap();
    let b = xq_eval::breakdown(game.position());
    let text = stdout(&o);
    let mut terms = b.terms.iter();
    let redacted: Vec<String> = text
        .lines()
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.first().copied() {
                Some("total") => {
                    assert_eq!(words[1], b.total_red.to_string(), "{line}");
                    line.replacen(words[1], "<red>", 1)
                }
                Some("eval") => {
                    assert_eq!(words[1], b.total.to_string(), "{line}");
                    line.replacen(words[1], "<eval>", 1)
                }
                Some("network") => {
                    let net = xq_eval::nnue::default_network().expect("a built-in network");
                    let pos = game.position();
                    let value = net.evaluate(pos, &xq_eval::nnue::Accumulator::new(&net, pos));
                    assert_eq!(words[1], value.to_string(), "{line}");
                    line.replacen(words[1], "<network>", 1)
                }
                Some(name) if b.term(name).is_some() => {
                    let t = terms.next().expect("a line per term, in order");
                    assert_eq!(name, t.name);
                    let numbers = [t.mg, t.eg, t.value].map(|n| n.to_string());
                    assert_eq!(words[1..], numbers.each_ref().map(String::as_str), "{line}");
                    format!("{:<24} <mg> <eg> <value>", t.name)
                }
                _ => line.to_string(),
            }
        })
        .collect();
    assert!(terms.next().is_none(), "every term is shown");
    insta::assert_snapshot!(redacted.join("\n"));
}

#[test]
fn eval_shows_the_network_unless_classical() {
    let o = xq(&["eval", "--classical"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("\neval "), "{text}");
    assert!(!text.contains("network"), "{text}");
    let o = xq(&["eval", "--eval-file", "no-such.nnue"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("xq: cannot load the network no-such.nnue: "),
        "{}",
        stderr(&o)
    );
}

/// A mate problem's position that no game reaches (Black's soldiers on its own back
/// rank): analysed with a warning, where the referee refuses it.
#[test]
fn analyze_takes_a_composed_position_with_a_warning() {
    let fen = "3pkp3/R8/9/9/9/9/9/8R/9/5K3 w";
    let o = xq(&["analyze", "--fen", fen, "--depth", "4", "--hash", "4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "xq: warning: unusual position: 'p' can never stand on d9 in a game; analysing it as given\n\
         xq: warning: unusual position: 'p' can never stand on f9 in a game; analysing it as given\n"
    );
    assert!(stdout(&o).contains("bestmove i2e2 "), "{}", stdout(&o));
    let o = xq(&["analyze", "--fen", fen, "--depth", "4", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let last: serde_json::Value = serde_json::from_str(stdout(&o).lines().last().unwrap()).unwrap();
    assert_eq!(last["score"]["mate"], 1);
    assert_eq!(last["bestmove"], "i2e2");
    assert_eq!(
        last["warnings"],
        serde_json::json!([
            "unusual position: 'p' can never stand on d9 in a game",
            "unusual position: 'p' can never stand on f9 in a game"
        ])
    );
    // The referee keeps the strict rule.
    let o = xq(&["adjudicate", "--fen", fen]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "xq: bad position: illegal position: 'p' can never stand on d9\n"
    );
    // What cannot be played is refused by analysis too.
    let o = xq(&["analyze", "--fen", "3k5/9/9/3A5/9/9/9/9/9/4K4 w"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "xq: bad position: illegal position: 'A' can never stand on d6\n"
    );
}

#[test]
fn bad_input_is_one_line_and_a_nonzero_exit() {
    let cases: [(&[&str], &str); 5] = [
        (&["analyze", "--fen", "4k4/9/9 w"], "xq: bad position: malformed FEN: the board has 3 ranks separated by '/', expected 10\n"),
        (&["analyze", "--fen", "4k4/9/9/9/9/9/9/9/9/4K4 w"], "xq: bad position: illegal position: the generals face each other on an open file\n"),
        (&["analyze", "--moves", "h2e2", "h2e3"], "xq: bad position: move 2: illegal move h2e3: no piece of the side to move on h2\n"),
        (&["analyze", "--moves", "h2x2"], "xq: bad position: move 1: 'h2x2' is not a move in ICCS, WXF or Chinese notation\n"),
        (&["perft", "3", "--moves", "b0b3"], "xq: bad position: move 1: illegal move b0b3: the piece on b0 cannot move there\n"),
    ];
    for (args, expected) in cases {
        let o = xq(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr(&o), expected, "{args:?}");
        assert!(stdout(&o).is_empty(), "{args:?}");
    }
}

/// Each command line of `cases` is refused by clap (exit code 2, nothing on standard
/// output) with the error given and clap's pointer to `--help`.
fn refused_by_clap(cases: &[(&[&str], &str)]) {
    for &(args, expected) in cases {
        let o = xq(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(
            stderr(&o),
            format!("{expected}\nFor more information, try '--help'.\n"),
            "{args:?}"
        );
        assert!(stdout(&o).is_empty(), "{args:?}");
    }
}

#[test]
fn hash_sizes_are_bounded_like_the_hash_option() {
    let cases: [(&[&str], &str); 4] = [
        (&["analyze", "--hash", "0"], "error: invalid value '0' for '--hash <MB>': 0 is not in 1..=33554432\n"),
        (&["analyze", "--hash", "33554433"], "error: invalid value '33554433' for '--hash <MB>': 33554433 is not in 1..=33554432\n"),
        (&["bench", "--hash", "40000000"], "error: invalid value '40000000' for '--hash <MB>': 40000000 is not in 1..=33554432\n"),
        (&["bench", "--hash", "99999999999999999999"], "error: invalid value '99999999999999999999' for '--hash <MB>': number too large to fit in target type\n"),
    ];
    refused_by_clap(&cases);
    // The largest size is accepted (the table is only allocated when searching).
    let o = xq(&["analyze", "--hash", "33554432", "--help"]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn search_limits_are_bounded() {
    // A depth is one the search completes (1 to 124); nodes and milliseconds are
    // positive; lines of MultiPV 1 to 16: before, `--depth 0` searched depth 1 and
    // `--multipv 0` one line, `--multipv 17` sixteen, without saying so, and `xq bench 0`
    // gave 0 nodes.
    let cases: [(&[&str], &str); 9] = [
        (
            &["analyze", "--depth", "0"],
            "error: invalid value '0' for '--depth <DEPTH>': 0 is not in 1..=124\n",
        ),
        (
            &["analyze", "--depth", "125"],
            "error: invalid value '125' for '--depth <DEPTH>': 125 is not in 1..=124\n",
        ),
        (
            &["analyze", "--nodes", "0"],
            "error: invalid value '0' for '--nodes <NODES>': 0 searches nothing: give 1 or more\n",
        ),
        (
            &["analyze", "--movetime", "0"],
            "error: invalid value '0' for '--movetime <MS>': 0 searches nothing: give 1 or more\n",
        ),
        (
            &["bench", "0"],
            "error: invalid value '0' for '[DEPTH]': 0 is not in 1..=20\n",
        ),
        (
            &["analyze", "--multipv", "0"],
            "error: invalid value '0' for '--multipv <N>': 0 is not in 1..=16\n",
        ),
        (
            &["analyze", "--multipv", "17"],
            "error: invalid value '17' for '--multipv <N>': 17 is not in 1..=16\n",
        ),
        (
            &["annotate", "game.pgn", "--depth", "0"],
            "error: invalid value '0' for '--depth <DEPTH>': 0 is not in 1..=124\n",
        ),
        (
            &["annotate", "game.pgn", "--nodes", "0"],
            "error: invalid value '0' for '--nodes <NODES>': 0 searches nothing: give 1 or more\n",
        ),
    ];
    refused_by_clap(&cases);
    // The deepest depth is accepted (a mate ends the search long before it).
    let o = xq(&[
        "analyze",
        "--fen",
        "3k5/9/9/9/9/9/9/9/9/R3K4 w",
        "--depth",
        "124",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn perft_output() {
    let o = xq(&["perft", "3"]);
    let out = stdout(&o);
    assert!(out.starts_with("Nodes searched: 79666\n"), "{out}");
    assert!(out.contains("Speed: "));
    let o = xq(&["perft", "2", "--divide", "--moves", "h2e2"]);
    let out = stdout(&o);
    let div: Vec<&str> = out
        .lines()
        .filter(|l| l.contains(": ") && !l.starts_with(char::is_uppercase))
        .collect();
    // The same lines, in the same order, as the library's divide.
    let mut pos = xq_core::Position::startpos();
    pos.make_move("h2e2".parse().unwrap());
    let expected: Vec<String> = xq_perft::divide(&mut pos, 2)
        .iter()
        .map(|(m, n)| format!("{m}: {n}"))
        .collect();
    assert_eq!(expected.len(), 45);
    assert_eq!(div, expected);
    let total: u64 = div
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert!(out.contains(&format!("Nodes searched: {total}\n")));
    let o = xq(&[
        "perft",
        "3",
        "--threads",
        "2",
        "--fen",
        "4k4/9/9/9/9/9/9/9/9/3K5 w",
    ]);
    assert!(stdout(&o).starts_with("Nodes searched: "));
}

#[test]
fn perft_suite_failure_prints_the_divide() {
    let dir = std::env::temp_dir().join(format!("xq-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.epd");
    let bad = dir.join("bad.epd");
    std::fs::write(&good, format!("{} ;D1 44 ;D2 1920\n", xq_core::START_FEN)).unwrap();
    std::fs::write(&bad, format!("{} ;D1 44 ;D2 1921\n", xq_core::START_FEN)).unwrap();
    let o = xq(&["perft", "--suite", good.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    let head = format!("ok     1/1  D{:<2} {:>12} nodes ", 2, 1964);
    assert!(lines[0].starts_with(&head), "{out}");
    assert!(lines[0].ends_with(xq_core::START_FEN), "{out}");
    assert!(
        lines[1].starts_with("1 passed, 0 failed; 2 depth checks (0 skipped); 1964 nodes in "),
        "{out}"
    );
    let o = xq(&[
        "perft",
        "--suite",
        good.to_str().unwrap(),
        "--max-nodes",
        "100",
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).contains("\n1 passed, 0 failed; 1 depth checks (1 skipped); 44 nodes in "),
        "{}",
        stdout(&o)
    );
    // The suite's options need a suite, and a single count takes none of them.
    for args in [
        &["perft", "2", "--max-depth", "3"][..],
        &["perft", "--max-nodes", "9"],
    ] {
        let o = xq(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).starts_with("error: "), "{args:?}");
    }
    let o = xq(&["perft", "--suite", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains("depth 2: expected 1921, counted 1920 (-1)"),
        "{out}"
    );
    assert!(
        out.contains("divide at depth 2:") && out.contains("h2e2: "),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bench_ends_with_nodes_and_nps() {
    let o = xq(&["bench", "2"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let last = out.lines().last().unwrap();
    let w: Vec<&str> = last.split_whitespace().collect();
    assert_eq!((w.len(), w[1], w[3]), (4, "nodes", "nps"), "{last}");
    let nodes: u64 = w[0].parse().unwrap();
    // The same fingerprint twice.
    let again = stdout(&xq(&["bench", "2"]));
    assert!(again
        .lines()
        .last()
        .unwrap()
        .starts_with(&format!("{nodes} nodes ")));
}

/// The write end of a pipe whose reader has already gone away: every write to it fails
/// (the reader was the standard input of an `xq --version` that has exited).
fn dead_pipe() -> ChildStdin {
    let mut reader = Command::new(env!("CARGO_BIN_EXE_xq"))
        .arg("--version")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("the xq binary runs");
    let pipe = reader.stdin.take().unwrap();
    reader.wait().unwrap();
    pipe
}

#[test]
fn a_closed_standard_output_ends_a_command_quietly() {
    // As in `xq analyze | head -1`, but with the reader gone before the first line.
    let cases: [&[&str]; 5] = [
        &["analyze", "--depth", "3", "--hash", "4"],
        &["analyze", "--depth", "3", "--hash", "4", "--json"],
        &["perft", "2", "--divide"],
        &["eval"],
        &["bench", "1", "--hash", "1"],
    ];
    for args in cases {
        let o = Command::new(env!("CARGO_BIN_EXE_xq"))
            .args(args)
            .stdout(dead_pipe())
            .stderr(Stdio::piped())
            .output()
            .expect("the xq binary runs");
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        // No panic message, no error: bench's per-position lines only.
        let err = stderr(&o);
        assert!(
            err.lines()
                .all(|l| !l.starts_with("xq:") && !l.contains("panic")),
            "{args:?}: {err}"
        );
        if args[0] != "bench" {
            assert_eq!(err, "", "{args:?}");
        }
    }
}

#[test]
fn a_closed_standard_output_ends_an_engine_session() {
    // The GUI keeps the engine's input open but no longer reads its output: the engine
    // ends at the first answer it cannot give, without waiting for more input.
    for (args, first) in [(&[][..], "uci"), (&["ucci"][..], "ucci")] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_xq"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(dead_pipe())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the xq binary runs");
        let mut stdin = child.stdin.take().unwrap();
        writeln!(stdin, "{first}").unwrap();
        stdin.flush().unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                child.kill().unwrap();
                panic!("{args:?}: still running with its output closed");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        assert_eq!(status.code(), Some(0), "{args:?}");
        let o = child.wait_with_output().unwrap();
        assert_eq!(stderr(&o), "", "{args:?}");
        drop(stdin);
    }
}
