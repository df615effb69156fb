//! `xq adjudicate`: exact text and JSON, errors with their ply and exit code 2, and every
//! case of `data/repetition.epd` through the binary.

use std::process::{Command, Output};

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

const CHASE_FEN: &str = "9/5k3/1n7/p6R1/9/9/8P/9/9/3K5 w";
const CHASE: [&str; 9] = [
    "h6h7", "b7c9", "h7h9", "c9b7", "h9h7", "b7c9", "h7h9", "c9b7", "h9h7",
];

fn run(fen: Option<&str>, moves: &[&str], json: bool) -> Output {
    let mut args = vec!["adjudicate"];
    if let Some(fen) = fen {
        args.extend(["--fen", fen]);
    }
    if !moves.is_empty() {
        args.push("--moves");
        args.extend(moves);
    }
    if json {
        args.push("--json");
    }
    xq(&args)
}

#[test]
fn text_output() {
    let o = run(Some(CHASE_FEN), &CHASE, false);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "0-1 perpetual chase by red of the black horse on b7\n"
    );
    // One move short: the position has occurred only twice.
    let o = run(Some(CHASE_FEN), &CHASE[..8], false);
    assert_eq!(stdout(&o), "* the game goes on (red to move)\n");
    // The moves may also come as one string.
    let o = xq(&[
        "adjudicate",
        "--fen",
        CHASE_FEN,
        "--moves",
        &CHASE.join(" "),
    ]);
    assert_eq!(
        stdout(&o),
        "0-1 perpetual chase by red of the black horse on b7\n"
    );
    let o = run(Some("R3k4/1R7/9/9/9/9/9/9/9/3K5 b"), &[], false);
    assert_eq!(stdout(&o), "1-0 checkmate\n");
    let o = run(Some("3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w"), &[], false);
    assert_eq!(stdout(&o), "1/2-1/2 insufficient material\n");
    let o = run(
        Some("5k3/9/9/9/9/9/9/9/9/R2K5 w - - 119 80"),
        &["a0a1"],
        false,
    );
    assert_eq!(
        stdout(&o),
        "1/2-1/2 60-move rule (120 plies without a capture)\n"
    );
    let o = run(
        None,
        &[
            "h0g2", "h9g7", "g2h0", "g7h9", "h0g2", "h9g7", "g2h0", "g7h9",
        ],
        false,
    );
    assert_eq!(stdout(&o), "1/2-1/2 repetition\n");
}

#[test]
fn json_output() {
    let o = run(Some(CHASE_FEN), &CHASE, true);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        v,
        serde_json::json!({
            "result": "0-1",
            "termination": "perpetual-chase",
            "by": "red",
            "piece": "n",
            "square": "b7",
            "text": "perpetual chase by red of the black horse on b7",
            "plies": 9,
            "fen": "9/5k3/1n5R1/p8/9/9/8P/9/9/3K5 b - - 9 5",
        })
    );
    let o = run(None, &["h2e2"], true);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        v,
        serde_json::json!({
            "result": "*",
            "termination": null,
            "text": "the game goes on",
            "side_to_move": "black",
            "plies": 1,
            "fen": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
        })
    );
    let o = run(Some("R3k4/1R7/9/9/9/9/9/9/9/3K5 b"), &[], true);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        (&v["result"], &v["termination"], &v["loser"]),
        (&"1-0".into(), &"checkmate".into(), &"black".into())
    );
    let o = run(
        Some("9/4k4/R8/9/9/9/8P/9/9/3K5 w - - 0 1"),
        &[
            "a7a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8",
        ],
        true,
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        (&v["result"], &v["termination"], &v["by"]),
        (&"0-1".into(), &"perpetual-check".into(), &"red".into())
    );
}

#[test]
fn errors_name_the_ply() {
    for (args, err) in [
        (
            vec!["adjudicate", "--fen", "4k4/9/9 w"],
            "xq: bad position: malformed FEN: the board has 3 ranks separated by '/', expected 10\n",
        ),
        (
            vec!["adjudicate", "--moves", "h2e2", "h2e3"],
            "xq: bad position: move 2: illegal move h2e3: no piece of the side to move on h2\n",
        ),
        (
            vec!["adjudicate", "--moves", "h2e2", "h9g7", "e2e9x"],
            "xq: bad position: move 3: 'e2e9x' is not a move in ICCS, WXF or Chinese notation\n",
        ),
    ] {
        let o = xq(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr(&o), err, "{args:?}");
        assert_eq!(stdout(&o), "", "{args:?}");
    }
    // A move after the end of the game is refused, with the verdict that ended it.
    let mut moves = CHASE.to_vec();
    moves.push("b7c9");
    let o = run(Some(CHASE_FEN), &moves, true);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "xq: bad position: move 10: the game is already over \
         (0-1 perpetual chase by red of the black horse on b7)\n"
    );
}

#[test]
fn every_repetition_case_through_the_binary() {
    let cases = xq_testkit::repetition_cases();
    assert_eq!(cases.len(), 41);
    let mut failures = Vec::new();
    for case in &cases {
        let moves: Vec<&str> = case.moves.iter().map(String::as_str).collect();
        let o = run(Some(&case.fen), &moves, true);
        assert_eq!(
            o.status.code(),
            Some(0),
            "line {}: {}",
            case.line,
            stderr(&o)
        );
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        let expected = match case.result.as_str() {
            "red-wins" => "1-0",
            "black-wins" => "0-1",
            _ => "1/2-1/2",
        };
        let reason = match (case.result.as_str(), case.kind.as_str()) {
            ("draw", _) => "repetition",
            (_, "perpetual-check" | "check-vs-chase") => "perpetual-check",
            _ => "perpetual-chase",
        };
        if v["result"] != expected || v["termination"] != reason {
            failures.push(format!(
                "line {} ({}): expected {expected} {reason}, got {v}",
                case.line, case.kind
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
