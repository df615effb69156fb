//! The UCI conformance table (`xq-protocol/tests/conformance.txt`) against the binary:
//! `xq uci` driven through pipes as a GUI drives it.

mod common;

use common::{Engine, T};
use xq_testkit::conformance::{cases, Step};

/// Runs one case on a fresh `xq uci`; the lines it wrote before the final `readyok`.
fn transcript(steps: &[Step]) -> Vec<String> {
    let mut e = Engine::start(&["uci"]);
    let mut lines: Vec<String> = Vec::new();
    let mut seen = 0;
    let mut wait = |e: &mut Engine, lines: &mut Vec<String>, prefix: &str| loop {
        if let Some(at) = lines[seen..].iter().position(|l| l.starts_with(prefix)) {
            seen += at + 1;
            return;
        }
        let line = e
            .line(T)
            .unwrap_or_else(|| panic!("no '{prefix}' within {T:?}; wrote {lines:?}"));
        lines.push(line);
    };
    for step in steps {
        match step {
            Step::Send(line) => e.send(line),
            Step::Await(prefix) => wait(&mut e, &mut lines, prefix),
        }
    }
    e.send("isready");
    wait(&mut e, &mut lines, "readyok");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("readyok"),
        "{lines:?}"
    );
    lines.pop();
    e.send("quit");
    lines
}

#[test]
fn the_binary_answers_every_row_of_the_conformance_table() {
    let mut failures = Vec::new();
    for case in cases() {
        if let Err(e) = case.check(&transcript(&case.steps)) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
