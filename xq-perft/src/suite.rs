//! Perft suites: files of `FEN ;D1 n ;D2 n ...` lines, and a validator that checks
//! move generation against them.
//!
//! The validator prints nothing: [`run_suite`] yields one [`EntryReport`] per position as
//! it is checked (a front end prints it, moves a progress bar), and the reports collect
//! into a [`SuiteReport`] with the totals. `xq perft --suite FILE` is such a front end.

use crate::{divide_with_progress, perft_threads};
use std::fmt;
use std::time::{Duration, Instant};
use xq_core::{FenError, Move, Position};

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
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            max_depth: None,
            max_nodes: None,
            threads: 1,
        }
    }
}

/// One depth of one position, counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DepthCheck {
    /// Depth counted.
    pub depth: u32,
    /// The count the suite gives.
    pub expected: u64,
    /// The count found.
    pub actual: u64,
    /// Time spent counting.
    pub elapsed: Duration,
}

impl DepthCheck {
    /// Did the count match?
    pub fn passed(&self) -> bool {
        self.actual == self.expected
    }
}

/// Perft split by root move at one depth: where a wrong count comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divide {
    /// Depth counted.
    pub depth: u32,
    /// `(root move, nodes below it)` pairs, in generation order.
    pub moves: Vec<(Move, u64)>,
}

/// The result of checking one suite entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryReport {
    /// Index of the entry in the suite, from 0.
    pub index: usize,
    /// Line number of the entry in its file, from 1.
    pub line: usize,
    /// The position.
    pub fen: String,
    /// The FEN gave no position, so nothing was counted. ([`parse_suite`] rejects such
    /// lines; entries built by hand may have them.)
    pub error: Option<FenError>,
    /// The depths counted, in the order the entry lists them.
    pub checks: Vec<DepthCheck>,
    /// Depths skipped by [`RunOptions::max_depth`] and [`RunOptions::max_nodes`].
    pub skipped: usize,
    /// The divide at the first depth whose count is wrong, if any.
    pub divide: Option<Divide>,
}

impl EntryReport {
    /// Did the position parse and every counted depth match?
    pub fn passed(&self) -> bool {
        self.error.is_none() && self.checks.iter().all(DepthCheck::passed)
    }

    /// The counted depths whose count is wrong.
    pub fn failures(&self) -> impl Iterator<Item = &DepthCheck> + '_ {
        self.checks.iter().filter(|c| !c.passed())
    }

    /// Nodes counted over every depth.
    pub fn nodes(&self) -> u64 {
        self.checks.iter().map(|c| c.actual).sum()
    }

    /// Time spent counting (the divide not included).
    pub fn elapsed(&self) -> Duration {
        self.checks.iter().map(|c| c.elapsed).sum()
    }

    /// The deepest depth counted (0 when none was).
    pub fn deepest(&self) -> u32 {
        self.checks.iter().map(|c| c.depth).max().unwrap_or(0)
    }
}

/// Checks one entry (the `index`-th of its suite): counts every depth the options allow
/// and, when a count is wrong, the divide at the first wrong depth.
///
/// ```
/// use xq_perft::suite::{check_entry, parse_suite, RunOptions};
/// // The general on d0 can only step to d1: e0 would face the general on e9.
/// let suite = parse_suite("4k4/9/9/9/9/9/9/9/9/3K5 w ;D1 1 ;D2 3").unwrap();
/// let report = check_entry(0, &suite[0], &RunOptions::default());
/// assert!(!report.passed());
/// let wrong: Vec<_> = report.failures().map(|c| (c.depth, c.expected, c.actual)).collect();
/// assert_eq!(wrong, [(2, 3, 2)]);
/// let divide = report.divide.unwrap();
/// assert_eq!((divide.depth, divide.moves.len()), (2, 1));
/// assert_eq!(divide.moves[0].0.to_string(), "d0d1");
/// ```
pub fn check_entry(index: usize, entry: &SuiteEntry, opts: &RunOptions) -> EntryReport {
    let mut report = EntryReport {
        index,
        line: entry.line,
        fen: entry.fen.clone(),
        error: None,
        checks: Vec::new(),
        skipped: 0,
        divide: None,
    };
    let pos = match Position::from_fen(&entry.fen) {
        Ok(p) => p,
        Err(e) => {
            report.error = Some(e);
            return report;
        }
    };
    for &(depth, expected) in &entry.counts {
        if opts.max_depth.is_some_and(|d| depth > d) || opts.max_nodes.is_some_and(|n| expected > n)
        {
            report.skipped += 1;
            continue;
        }
        let start = Instant::now();
        let actual = perft_threads(&pos, depth, opts.threads);
        report.checks.push(DepthCheck {
            depth,
            expected,
            actual,
            elapsed: start.elapsed(),
        });
    }
    let first_wrong = report.failures().map(|c| c.depth).next();
    if let Some(depth) = first_wrong {
        let moves = divide_with_progress(&mut pos.clone(), depth, opts.threads, |_, _| {});
        report.divide = Some(Divide { depth, moves });
    }
    report
}

/// Checks `entries` one by one, lazily: each step counts one position and yields its
/// report, so a front end can print it and show progress. Collect the reports into a
/// [`SuiteReport`] for the totals.
///
/// ```
/// use xq_perft::suite::{parse_suite, run_suite, RunOptions, SuiteReport};
/// let suite = parse_suite("4k4/9/9/9/9/9/9/9/9/3K5 w ;D1 1 ;D2 2 ;D3 5").unwrap();
/// let opts = RunOptions { max_depth: Some(2), ..RunOptions::default() };
/// let report: SuiteReport = run_suite(&suite, &opts).collect();
/// assert!(report.ok());
/// assert_eq!((report.passed(), report.checks(), report.skipped()), (1, 2, 1));
/// assert_eq!(report.nodes(), 3);
/// ```
pub fn run_suite<'a>(
    entries: &'a [SuiteEntry],
    opts: &'a RunOptions,
) -> impl ExactSizeIterator<Item = EntryReport> + 'a {
    entries
        .iter()
        .enumerate()
        .map(move |(i, e)| check_entry(i, e, opts))
}

/// The reports of a suite run, with the totals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SuiteReport {
    /// One report per entry checked, in suite order.
    pub entries: Vec<EntryReport>,
}

impl FromIterator<EntryReport> for SuiteReport {
    fn from_iter<I: IntoIterator<Item = EntryReport>>(iter: I) -> SuiteReport {
        SuiteReport {
            entries: iter.into_iter().collect(),
        }
    }
}

impl Extend<EntryReport> for SuiteReport {
    fn extend<I: IntoIterator<Item = EntryReport>>(&mut self, iter: I) {
        self.entries.extend(iter);
    }
}

impl SuiteReport {
    /// Did every entry pass?
    pub fn ok(&self) -> bool {
        self.entries.iter().all(EntryReport::passed)
    }

    /// Entries whose every counted depth matched.
    pub fn passed(&self) -> usize {
        self.entries.iter().filter(|e| e.passed()).count()
    }

    /// Entries with a wrong count or a bad FEN.
    pub fn failed(&self) -> usize {
        self.entries.len() - self.passed()
    }

    /// Depths counted.
    pub fn checks(&self) -> usize {
        self.entries.iter().map(|e| e.checks.len()).sum()
    }

    /// Depths skipped by the options.
    pub fn skipped(&self) -> usize {
        self.entries.iter().map(|e| e.skipped).sum()
    }

    /// Nodes counted.
    pub fn nodes(&self) -> u64 {
        self.entries.iter().map(EntryReport::nodes).sum()
    }

    /// Time spent counting.
    pub fn elapsed(&self) -> Duration {
        self.entries.iter().map(EntryReport::elapsed).sum()
    }
}
