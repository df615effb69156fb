//! The beginner-like player as a UCI engine: the `xq-beginner` binary through pipes.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use xq_movegen::Game;

#[test]
fn the_beginner_plays_as_a_uci_engine() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xq-beginner"))
        .args(["--seed", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("xq-beginner runs");
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut until = |prefix: &str| -> Vec<String> {
        let mut lines = Vec::new();
        for line in out.by_ref() {
            let line = line.unwrap();
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return lines;
            }
        }
        panic!("no '{prefix}' in {lines:?}");
    };
    writeln!(stdin, "uci").unwrap();
    let lines = until("uciok");
    assert_eq!(lines[0], "id name xq beginner");
    // A free horse is taken, whatever the clock says.
    writeln!(stdin, "position fen 3k5/9/9/9/n8/9/9/9/9/R3K4 w").unwrap();
    writeln!(stdin, "go wtime 1000 btime 1000 winc 0 binc 0").unwrap();
    assert_eq!(until("bestmove").last().unwrap(), "bestmove a0a5");
    // A game's moves are legal.
    let mut game = Game::startpos();
    for _ in 0..30 {
        let moves: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
        writeln!(stdin, "position startpos moves {}", moves.join(" ")).unwrap();
        writeln!(stdin, "go movetime 10").unwrap();
        let best = until("bestmove").pop().unwrap();
        let m = best.split_whitespace().nth(1).unwrap();
        game.play_text(m)
            .unwrap_or_else(|e| panic!("{m} after {moves:?}: {e}"));
    }
    writeln!(stdin, "quit").unwrap();
    assert!(child.wait().unwrap().success());
    // Bad arguments are refused with the usage.
    let bad = Command::new(env!("CARGO_BIN_EXE_xq-beginner"))
        .args(["--seed", "x"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&bad.stderr),
        "usage: xq-beginner [--seed N]\n"
    );
}
