//! Perft suites: files of `FEN ;D1 n ;D2 n ...` lines, and a validator that checks
//! move generation against them.

use crate::{divide_with_progress, perft_threads};
use std::fmt;
use std::io::{self, IsTerminal, Write};
use std::time::{Duration, Instant};
use xq_core::{FenError, Position};

/// One suite line: a position and its known perft counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteEntry {
    /// Line number in the file, from 1.
    pub line: usize,
    /// The position.
    pub fen: String,
    /// `(depth, nodes)` pairs in the order written.
    pub counts: Vec<(u32, u64)>,
}

/// Why a suite file did not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SuiteError {
    /// A line has a FEN but no `;Dn count` field.
    NoCounts {
        /// Line number, from 1.
        line: usize,
    },
    /// A field is not of the form `Dn count`.
    BadField {
        /// Line number, from 1.
        line: usize,
        /// The field as written.
        field: String,
    },
    /// The FEN is malformed or illegal.
    BadFen {
        /// Line number, from 1.
        line: usize,
        /// What is wrong with it.
        error: FenError,
    },
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SuiteError::NoCounts { line } => write!(f, "line {line}: no ';D<depth> <nodes>' field"),
            SuiteError::BadField { line, field } => {
                write!(
                    f,
                    "line {line}: bad field '{field}', expected 'D<depth> <nodes>'"
                )
            }
            SuiteError::BadFen { line, error } => write!(f, "line {line}: {error}"),
        }
    }
}

impl std::error::Error for SuiteError {}

/// Parses a suite. Blank lines and lines starting with `#` are skipped.
///
/// # Errors
/// The first malformed line, as a [`SuiteError`].
///
/// ```
/// use xq_perft::suite::{parse_suite, SuiteError};
/// let s = parse_suite("# comment\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 ;D1 44 ;D2 1920\n").unwrap();
/// assert_eq!(s[0].counts, vec![(1, 44), (2, 1920)]);
/// assert_eq!(s[0].line, 2);
/// assert_eq!(parse_suite("4k4/9/9/9/9/9/9/9/9/3K5 w ;D1 x"),
///            Err(SuiteError::BadField { line: 1, field: "D1 x".into() }));
/// ```
pub fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let mut parts = trimmed.split(';');
        let fen = parts.next().unwrap_or("").trim().to_string();
        Position::from_fen(&fen).map_err(|error| SuiteError::BadFen { line, error })?;
        let mut counts = Vec::new();
        for field in parts {
            let field = field.trim();
            let bad = || SuiteError::BadField {
                line,
                field: field.to_string(),
            };
            let mut words = field.split_whitespace();
            let (Some(d), Some(n), None) = (words.next(), words.next(), words.next()) else {
                return Err(bad());
            };
            let depth = d
                .strip_prefix(['D', 'd'])
                .and_then(|d| d.parse::<u32>().ok())
                .filter(|d| *d > 0)
                .ok_or_else(bad)?;
            let nodes = n.parse::<u64>().map_err(|_| bad())?;
            counts.push((depth, nodes));
        }
        if counts.is_empty() {
            return Err(SuiteError::NoCounts { line });
        }
        out.push(SuiteEntry { line, fen, counts });
    }
    Ok(out)
}

/// How much of a suite to run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Skip depths above this.
    pub max_depth: Option<u32>,
    /// Skip depths whose expected count is above this (keeps debug-build runs short).
    pub max_nodes: Option<u64>,
    /// Threads per perft (root moves are split).
    pub threads: usize,
    /// Show a progress bar when standard error is a terminal.
    pub progress: bool,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            max_depth: None,
            max_nodes: None,
            threads: 1,
            progress: true,
        }
    }
}

/// The result of one `(position, depth)` check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    /// Index of the entry in the suite.
    pub entry: usize,
    /// Depth checked.
    pub depth: u32,
    /// Expected count.
    pub expected: u64,
    /// Counted.
    pub actual: u64,
}

/// Totals of a suite run.
#[derive(Clone, Debug, Default)]
pub struct SuiteReport {
    /// Positions whose every checked depth matched.
    pub passed: usize,
    /// Positions with at least one mismatch.
    pub failed: usize,
    /// Every mismatch.
    pub failures: Vec<Check>,
    /// Depth checks made.
    pub checks: usize,
    /// Depth checks skipped by `max_depth` / `max_nodes`.
    pub skipped: usize,
    /// Nodes counted.
    pub nodes: u64,
    /// Time spent counting.
    pub elapsed: Duration,
}

impl SuiteReport {
    /// Did every checked count match?
    pub fn ok(&self) -> bool {
        self.failed == 0
    }
}

/// Format a nodes-per-second figure.
pub fn format_nps(nodes: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    if secs <= 0.0 {
        return "- nps".to_string();
    }
    let nps = nodes as f64 / secs;
    if nps >= 1e6 {
        format!("{:.1} Mnps", nps / 1e6)
    } else {
        format!("{:.0} nps", nps)
    }
}

/// Runs `entries`, writing one pass/fail line per position to `out` (and the divide of
/// every failing depth, so the wrong root move can be found), and returns the totals.
///
/// # Errors
/// Only errors writing to `out`.
///
/// ```
/// use xq_perft::suite::{parse_suite, run_suite, RunOptions};
/// // The general on d0 can only step to d1: e0 would face the general on e9.
/// let suite = parse_suite("4k4/9/9/9/9/9/9/9/9/3K5 w ;D1 1 ;D2 2").unwrap();
/// let mut out = Vec::new();
/// let report = run_suite(&suite, &RunOptions { progress: false, ..Default::default() }, &mut out).unwrap();
/// assert!(report.ok());
/// assert_eq!(report.nodes, 3);
/// ```
pub fn run_suite(
    entries: &[SuiteEntry],
    opts: &RunOptions,
    out: &mut dyn Write,
) -> io::Result<SuiteReport> {
    let mut report = SuiteReport::default();
    let bar = (opts.progress && io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(entries.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} positions {elapsed}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    for (i, entry) in entries.iter().enumerate() {
        let pos = match Position::from_fen(&entry.fen) {
            Ok(p) => p,
            Err(e) => {
                writeln!(
                    out,
                    "FAIL {:>3}/{}  line {}: {e}",
                    i + 1,
                    entries.len(),
                    entry.line
                )?;
                report.failed += 1;
                continue;
            }
        };
        let mut pass = true;
        let mut nodes = 0;
        let mut deepest = 0;
        let start = Instant::now();
        let mut failed_at = Vec::new();
        for &(depth, expected) in &entry.counts {
            if opts.max_depth.is_some_and(|d| depth > d)
                || opts.max_nodes.is_some_and(|n| expected > n)
            {
                report.skipped += 1;
                continue;
            }
            let actual = perft_threads(&pos, depth, opts.threads);
            nodes += actual;
            deepest = deepest.max(depth);
            report.checks += 1;
            if actual != expected {
                pass = false;
                failed_at.push(depth);
                report.failures.push(Check {
                    entry: i,
                    depth,
                    expected,
                    actual,
                });
            }
        }
        let elapsed = start.elapsed();
        report.nodes += nodes;
        report.elapsed += elapsed;
        let line = format!(
            "{} {:>3}/{}  D{:<2} {:>12} nodes {:>8.3} s {:>12}  {}",
            if pass { "ok  " } else { "FAIL" },
            i + 1,
            entries.len(),
            deepest,
            nodes,
            elapsed.as_secs_f64(),
            format_nps(nodes, elapsed),
            entry.fen
        );
        match &bar {
            Some(bar) => bar.suspend(|| writeln!(out, "{line}"))?,
            None => writeln!(out, "{line}")?,
        }
        if pass {
            report.passed += 1;
        } else {
            report.failed += 1;
            for c in report.failures.iter().filter(|c| c.entry == i) {
                writeln!(
                    out,
                    "     depth {}: expected {}, counted {} ({:+})",
                    c.depth,
                    c.expected,
                    c.actual,
                    c.actual as i128 - c.expected as i128
                )?;
            }
            if let Some(&depth) = failed_at.first() {
                writeln!(out, "     divide at depth {depth}:")?;
                for (m, n) in divide_with_progress(&mut pos.clone(), depth, opts.threads, |_, _| {})
                {
                    writeln!(out, "     {m}: {n}")?;
                }
            }
        }
        if let Some(bar) = &bar {
            bar.inc(1);
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    writeln!(
        out,
        "{} passed, {} failed; {} depth checks ({} skipped); {} nodes in {:.3} s, {}",
        report.passed,
        report.failed,
        report.checks,
        report.skipped,
        report.nodes,
        report.elapsed.as_secs_f64(),
        format_nps(report.nodes, report.elapsed)
    )?;
    Ok(report)
}
