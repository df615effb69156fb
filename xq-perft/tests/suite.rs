//! Perft against `data/perft.epd`: every position at every listed depth whose expected
//! count is within a node cap (2 000 000 in debug builds, unlimited in release, or
//! `XQ_PERFT_MAX_NODES`), plus the start position, divide, the threaded perft and the
//! suite validator's reports.

use xq_core::{Move, Position};
use xq_movegen::legal_moves;
use xq_perft::suite::{parse_suite, run_suite, RunOptions, SuiteEntry, SuiteReport};
use xq_perft::{divide, divide_with_progress, perft, perft_threads};

use xq_testkit::SUITE;

/// One suite line, parsed by this test on its own (not by `xq_perft::suite`, so a bug
/// there cannot hide positions from the test).
struct Entry {
    line: usize,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn entries() -> Vec<Entry> {
    let mut out = Vec::new();
    for (i, raw) in SUITE.lines().enumerate() {
        let text = raw.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let mut fields = text.split(';');
        let fen = fields.next().unwrap().trim().to_string();
        let counts: Vec<(u32, u64)> = fields
            .map(|f| {
                let mut w = f.split_whitespace();
                let d = w.next().and_then(|d| d.strip_prefix('D'));
                let n = w.next();
                match (
                    d.and_then(|d| d.parse().ok()),
                    n.and_then(|n| n.parse().ok()),
                ) {
                    (Some(d), Some(n)) => (d, n),
                    _ => panic!("line {}: bad field '{f}'", i + 1),
                }
            })
            .collect();
        assert!(!counts.is_empty(), "line {}: no counts", i + 1);
        out.push(Entry {
            line: i + 1,
            fen,
            counts,
        });
    }
    out
}

fn position(e: &Entry) -> Position {
    Position::from_fen(&e.fen).unwrap_or_else(|err| panic!("line {}: {err}", e.line))
}

/// The largest expected count a depth may have to be run.
fn max_nodes() -> u64 {
    match std::env::var("XQ_PERFT_MAX_NODES") {
        Ok(v) => v
            .trim()
            .replace('_', "")
            .parse()
            .unwrap_or_else(|_| panic!("XQ_PERFT_MAX_NODES='{v}' is not a number")),
        Err(_) if cfg!(debug_assertions) => 2_000_000,
        Err(_) => u64::MAX,
    }
}

#[test]
fn suite_file_is_complete() {
    let entries = entries();
    assert_eq!(entries.len(), 50, "data/perft.epd should hold 50 positions");
    // The library's parser reads the same file the same way.
    let lib = parse_suite(SUITE).expect("xq_perft::suite parses data/perft.epd");
    assert_eq!(lib.len(), entries.len());
    for (a, b) in entries.iter().zip(&lib) {
        assert_eq!((a.line, &a.fen, &a.counts), (b.line, &b.fen, &b.counts));
    }
    for e in &entries {
        position(e);
        // Depths are listed 1, 2, 3, ... without gaps.
        let depths: Vec<u32> = e.counts.iter().map(|c| c.0).collect();
        let want: Vec<u32> = (1..=depths.len() as u32).collect();
        assert_eq!(depths, want, "line {}: depths out of order", e.line);
    }
}

#[test]
fn suite_counts() {
    let cap = max_nodes();
    let (mut checked, mut skipped, mut nodes) = (0, 0, 0u64);
    for e in entries() {
        let mut pos = position(&e);
        let before = pos.clone();
        for &(depth, expected) in &e.counts {
            if expected > cap {
                skipped += 1;
                continue;
            }
            let actual = perft(&mut pos, depth);
            assert_eq!(
                actual, expected,
                "perft.epd line {} depth {depth}: expected {expected}, counted {actual} ({})",
                e.line, e.fen
            );
            assert_eq!(pos, before, "line {}: perft changed the position", e.line);
            assert_eq!(pos.key(), before.key());
            checked += 1;
            nodes += actual;
        }
    }
    eprintln!(
        "perft suite: {checked} depth checks, {skipped} skipped above {cap} nodes, {nodes} nodes"
    );
    // Even the debug cap must leave a real test: every position to depth 2 at least.
    assert!(checked >= 150, "only {checked} depth checks ran");
}

#[test]
fn start_position() {
    let mut pos = Position::startpos();
    assert_eq!(perft(&mut pos, 0), 1);
    assert_eq!(perft(&mut pos, 1), 44);
    assert_eq!(perft(&mut pos, 2), 1920);
    assert_eq!(perft(&mut pos, 3), 79666);
    assert_eq!(perft(&mut pos, 4), 3_290_240);
    assert_eq!(pos, Position::startpos());
}

#[test]
fn divide_sums_to_perft() {
    let entries = entries();
    // A few positions of each sort: the opening, middlegames, endgames, one in check.
    for e in entries.iter().step_by(7) {
        let mut pos = position(e);
        let (depth, expected) = e.counts[e.counts.len().min(3) - 1];
        let div = divide(&mut pos, depth);
        let sum: u64 = div.iter().map(|(_, n)| n).sum();
        assert_eq!(sum, expected, "line {} depth {depth}: divide sum", e.line);
        assert_eq!(sum, perft(&mut pos, depth), "line {}", e.line);

        // One entry per legal move, in generation order, each the perft of its child.
        let moves: Vec<Move> = div.iter().map(|(m, _)| *m).collect();
        assert_eq!(moves, legal_moves(&pos).to_vec(), "line {}", e.line);
        for (m, n) in &div {
            let undo = pos.make_move(*m);
            assert_eq!(*n, perft(&mut pos, depth - 1), "line {} move {m}", e.line);
            pos.unmake_move(*m, undo);
        }

        // The threaded divide gives the same pairs.
        let mut calls = 0;
        let div2 = divide_with_progress(&mut pos.clone(), depth, 2, |done, total| {
            assert!(done <= total && total == moves.len());
            calls += 1;
        });
        assert_eq!(div2, div, "line {}", e.line);
        assert_eq!(calls, moves.len());
    }
}

#[test]
fn threaded_perft_equals_perft() {
    let entries = entries();
    for e in entries.iter().step_by(5) {
        let mut pos = position(e);
        for &(depth, expected) in e.counts.iter().take(3) {
            let single = perft(&mut pos, depth);
            assert_eq!(single, expected, "line {} depth {depth}", e.line);
            for threads in [2, 3] {
                assert_eq!(
                    perft_threads(&pos, depth, threads),
                    single,
                    "line {} depth {depth} with {threads} threads",
                    e.line
                );
            }
        }
        assert_eq!(perft_threads(&pos, 0, 2), 1);
    }
}

#[test]
fn no_moves_positions() {
    // The suite's positions with no legal move: perft is 0 at every depth >= 1, divide is
    // empty and the threaded perft does not hang or divide by zero.
    let mut found = 0;
    for e in entries().iter().filter(|e| e.counts[0].1 == 0) {
        let mut pos = position(e);
        assert_eq!(perft(&mut pos, 1), 0);
        assert_eq!(perft(&mut pos, 3), 0);
        assert!(divide(&mut pos, 2).is_empty());
        assert_eq!(perft_threads(&pos, 2, 2), 0);
        found += 1;
    }
    assert_eq!(found, 4);
}

#[test]
fn the_validator_reports_every_depth() {
    let file = entries();
    let suite = parse_suite(SUITE).unwrap();
    let opts = RunOptions {
        max_depth: Some(2),
        ..RunOptions::default()
    };
    let runs = run_suite(&suite, &opts);
    assert_eq!(runs.len(), 50);
    let report: SuiteReport = runs.collect();
    assert!(report.ok());
    assert_eq!((report.passed(), report.failed()), (50, 0));
    // Depths 1 and 2 (the positions with no move list depth 1 only).
    let shallow = |e: &Entry| e.counts.iter().take_while(|c| c.0 <= 2).count();
    let checks: usize = file.iter().map(shallow).sum();
    assert_eq!(checks, 96);
    assert_eq!(report.checks(), checks);
    let listed: usize = file.iter().map(|e| e.counts.len()).sum();
    assert_eq!(report.skipped(), listed - checks);
    let expected_nodes: u64 = file
        .iter()
        .flat_map(|e| &e.counts[..shallow(e)])
        .map(|c| c.1)
        .sum();
    assert_eq!(report.nodes(), expected_nodes);
    for (i, (r, e)) in report.entries.iter().zip(&file).enumerate() {
        assert_eq!((r.index, r.line, &r.fen), (i, e.line, &e.fen));
        let got: Vec<(u32, u64, u64)> = r
            .checks
            .iter()
            .map(|c| (c.depth, c.expected, c.actual))
            .collect();
        let want: Vec<(u32, u64, u64)> = e.counts[..shallow(e)]
            .iter()
            .map(|&(d, n)| (d, n, n))
            .collect();
        assert_eq!(got, want, "line {}", e.line);
        assert_eq!(r.deepest(), shallow(e) as u32);
        assert!(r.error.is_none() && r.divide.is_none());
    }

    // Only depths whose count is within max_nodes.
    let opts = RunOptions {
        max_nodes: Some(100),
        ..RunOptions::default()
    };
    let report: SuiteReport = run_suite(&suite, &opts).collect();
    let small = file
        .iter()
        .flat_map(|e| &e.counts)
        .filter(|c| c.1 <= 100)
        .count();
    assert_eq!(report.checks(), small);
    assert_eq!(report.skipped(), listed - small);
}

#[test]
fn the_validator_divides_a_wrong_count_and_reports_a_bad_fen() {
    let file = entries();
    let e = &file[3];
    let (depth, right) = e.counts[1];
    let wrong = SuiteEntry {
        line: e.line,
        fen: e.fen.clone(),
        counts: vec![e.counts[0], (depth, right + 1)],
    };
    let bad_fen = SuiteEntry {
        line: 99,
        fen: "4k4/9/9 w".into(),
        counts: vec![(1, 1)],
    };
    let good = parse_suite(SUITE).unwrap().swap_remove(0);
    let suite = [good, wrong, bad_fen];
    let report: SuiteReport = run_suite(&suite, &RunOptions::default()).collect();
    assert!(!report.ok());
    assert_eq!((report.passed(), report.failed()), (1, 2));

    let r = &report.entries[1];
    assert!(!r.passed());
    let failures: Vec<(u32, u64, u64)> = r
        .failures()
        .map(|c| (c.depth, c.expected, c.actual))
        .collect();
    assert_eq!(failures, [(depth, right + 1, right)]);
    let divide = r.divide.as_ref().expect("a divide at the wrong depth");
    assert_eq!(divide.depth, depth);
    assert_eq!(divide.moves, divide_of(&position(e), depth));
    assert_eq!(divide.moves.iter().map(|m| m.1).sum::<u64>(), right);

    let r = &report.entries[2];
    assert!(!r.passed() && r.error.is_some());
    assert_eq!((r.line, r.checks.len(), r.nodes()), (99, 0, 0));
    assert!(r.divide.is_none());
}

fn divide_of(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    divide(&mut pos.clone(), depth)
}
