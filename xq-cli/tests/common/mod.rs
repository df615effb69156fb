//! The engine driven through pipes as a GUI would: shared by the UCI and UCCI tests.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};
use xq_core::{Move, Position};

pub const T: Duration = Duration::from_secs(20);
pub const MATE_IN_ONE: &str = "3k5/R8/9/9/9/9/9/9/4R4/4K4 w";
pub const MATED: &str = "R3k4/1R7/9/9/9/9/9/9/9/3K5 b";

/// The engine as a child process; lines are read by a thread so reads can time out.
pub struct Engine {
    pub child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<String>,
}

impl Engine {
    pub fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_xq"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start xq");
        let stdout = child.stdout.take().unwrap();
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, rx }
    }

    /// The engine after the UCI handshake.
    pub fn uci() -> Engine {
        let mut e = Engine::start(&["uci"]);
        e.send("uci");
        e.until("uciok", T);
        e
    }

    /// The engine after the UCCI handshake.
    pub fn ucci() -> Engine {
        let mut e = Engine::start(&["ucci"]);
        e.send("ucci");
        e.until("ucciok", T);
        e
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to engine");
        stdin.flush().unwrap();
    }

    /// The next line, or `None` after `timeout` (or at the end of output).
    pub fn line(&mut self, timeout: Duration) -> Option<String> {
        self.rx.recv_timeout(timeout).ok()
    }

    /// Lines up to and including the first starting with `prefix`; panics after `timeout`.
    pub fn until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.line(left) {
                Some(l) => {
                    let done = l.starts_with(prefix);
                    lines.push(l);
                    if done {
                        return lines;
                    }
                }
                None => panic!("no '{prefix}' within {timeout:?}; got {lines:#?}"),
            }
        }
    }

    /// Lines up to and including the first starting with one of `prefixes`.
    pub fn until_any(&mut self, prefixes: &[&str], timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.line(left) {
                Some(l) => {
                    let done = prefixes.iter().any(|p| l.starts_with(p));
                    lines.push(l);
                    if done {
                        return lines;
                    }
                }
                None => panic!("none of {prefixes:?} within {timeout:?}; got {lines:#?}"),
            }
        }
    }

    /// Lines arriving within `d`.
    pub fn lines_for(&mut self, d: Duration) -> Vec<String> {
        let deadline = Instant::now() + d;
        let mut lines = Vec::new();
        while let Some(l) = self.line(deadline.saturating_duration_since(Instant::now())) {
            lines.push(l);
        }
        lines
    }

    /// The best move of `go <args>`, with the info lines before it.
    pub fn go(&mut self, args: &str) -> (String, Vec<String>) {
        self.send(&format!("go {args}"));
        let lines = self.until("bestmove", T);
        let best = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        (best, lines)
    }

    pub fn ready(&mut self) {
        self.send("isready");
        self.until("readyok", T);
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Does `m` mate at once in MATE_IN_ONE? (There are several: a8a9, e1e9, e1d1.)
pub fn mates(m: &str) -> bool {
    let mut pos = Position::from_fen(MATE_IN_ONE).unwrap();
    let Ok(m) = m.parse::<Move>() else {
        return false;
    };
    xq_movegen::try_play(&mut pos, m).is_ok() && xq_movegen::count_legal(&pos) == 0
}

pub fn legal(pos: &Position, m: &str) -> bool {
    m.parse::<Move>()
        .is_ok_and(|m| xq_movegen::is_legal(pos, m))
}

/// Runs `xq` with `args` to the end.
pub fn xq(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xq"))
        .args(args)
        .output()
        .expect("the xq binary runs")
}

/// A command's standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// A fresh, empty scratch directory for one test (`suite`: the test file's name).
pub fn scratch(suite: &str, test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xq-{suite}-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
