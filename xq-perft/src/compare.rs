//! xq's perft beside another engine's: on one position ([`compare`]) or on a suite's
//! lines ([`compare_entry`]). When the counts differ, the comparison descends by divide
//! (into the first root move whose count differs, then the first below it, ...) to the
//! first position where the engine's moves or leaf counts are not xq's, and says which
//! moves it lacks or has too many: the [`Difference`].
//!
//! ```
//! use xq_perft::compare::{compare, DifferenceKind};
//! use xq_perft::engine::EngineCommand;
//! // A stand-in engine whose generals never step sideways: it knows only e0e1.
//! let script = r#"while read cmd rest; do case $cmd in
//!     uci) echo uciok;;
//!     isready) echo readyok;;
//!     go) echo "e0e1: 1"; echo "Nodes searched: 1";;
//! esac; done"#;
//! let mut engine = EngineCommand::new("sh").arg("-c").arg(script).start()?;
//! let pos = xq_core::Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w")?;
//! let result = compare(&mut engine, &pos, 1, 1)?;
//! // e0d0 would face the general on d9: xq has e0e1 and e0f0.
//! assert_eq!((result.engine, result.xq), (1, 2));
//! let difference = result.difference.unwrap();
//! assert!(matches!(&difference.kind, DifferenceKind::Moves { missing, .. } if missing.len() == 1));
//! assert_eq!(
//!     difference.to_string(),
//!     "first difference at depth 1 of FEN 3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1: the engine lacks e0f0"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::divide_with_progress;
use crate::engine::{EngineDivide, EngineError, PerftEngine, Ranks};
use crate::suite::{RunOptions, SuiteEntry};
use std::collections::HashMap;
use std::fmt;
use xq_core::{FenError, Move, Position};

/// A root move that both have, counted differently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountDifference {
    /// The move.
    pub mv: Move,
    /// The engine's count below it.
    pub engine: u64,
    /// xq's count below it.
    pub xq: u64,
}

/// What differs at the position of a [`Difference`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DifferenceKind {
    /// The engine's moves are not xq's (or, at depth 1, it counts a move as other than
    /// one leaf).
    Moves {
        /// Legal moves the engine does not list, in xq's order.
        missing: Vec<Move>,
        /// Moves the engine lists that are not legal (or name no move, or come twice),
        /// as it wrote them.
        extra: Vec<String>,
        /// Moves both have whose subtrees the engine counts differently.
        counts: Vec<CountDifference>,
    },
    /// The engine's divide one ply up gave the last move of the path `said` nodes, but
    /// its perft of the position after that move counts `found` (xq counts `xq`): its
    /// count depends on how the position was reached (a FEN read differently from the
    /// moves played, a move not taken back cleanly).
    Inconsistent {
        /// The engine's count for the move one ply up.
        said: u64,
        /// Its total here.
        found: u64,
        /// xq's total here.
        xq: u64,
    },
    /// The engine's moves add up to `listed`, but it prints `Nodes searched: total`.
    Total {
        /// The sum of its moves' counts.
        listed: u64,
        /// The total it printed.
        total: u64,
    },
}

/// The first position where the engine and xq differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// The position, as FEN.
    pub fen: String,
    /// The moves from the compared position to it.
    pub path: Vec<Move>,
    /// The depth counted there.
    pub depth: u32,
    /// How the engine numbers ranks: the moves are written its way.
    pub ranks: Ranks,
    /// What differs.
    pub kind: DifferenceKind,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = |m: &Move| self.ranks.write(*m);
        let list = |moves: &[Move]| moves.iter().map(w).collect::<Vec<_>>().join(", ");
        write!(
            f,
            "first difference at depth {} of FEN {}",
            self.depth, self.fen
        )?;
        if !self.path.is_empty() {
            write!(f, " (after {})", list(&self.path).replace(", ", " "))?;
        }
        f.write_str(": ")?;
        match &self.kind {
            DifferenceKind::Moves {
                missing,
                extra,
                counts,
            } => {
                let mut parts = Vec::new();
                if !missing.is_empty() {
                    parts.push(format!("the engine lacks {}", list(missing)));
                }
                if !extra.is_empty() {
                    let who = if missing.is_empty() {
                        "the engine"
                    } else {
                        "it"
                    };
                    let be = if extra.len() == 1 { "is" } else { "are" };
                    parts.push(format!(
                        "{who} has {} that {be} not legal",
                        extra.join(", ")
                    ));
                }
                for c in counts {
                    parts.push(format!(
                        "below {} the engine counts {}, xq {}",
                        w(&c.mv),
                        c.engine,
                        c.xq
                    ));
                }
                f.write_str(&parts.join("; "))?;
            }
            DifferenceKind::Inconsistent { said, found, xq } => {
                let last = self.path.last().map(w).unwrap_or_default();
                write!(
                    f,
                    "the engine's divide one ply up counts {said} below {last}, but its perft {} \
                     of this position counts {found} (xq {xq}): its count depends on how it reached \
                     the position",
                    self.depth
                )?;
            }
            DifferenceKind::Total { listed, total } => write!(
                f,
                "the engine's moves add up to {listed} but it says `Nodes searched: {total}`"
            )?,
        }
        if self.ranks == Ranks::OneToTen {
            f.write_str(" (moves as the engine writes them, ranks 1-10)")?;
        }
        Ok(())
    }
}

/// The counts of one position at one depth, and where they first differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// The depth counted.
    pub depth: u32,
    /// The engine's total (`Nodes searched`).
    pub engine: u64,
    /// xq's total.
    pub xq: u64,
    /// The first position where the two differ, if any.
    pub difference: Option<Difference>,
}

impl Comparison {
    /// Did the engine count what xq counts, move by move?
    pub fn agrees(&self) -> bool {
        self.difference.is_none()
    }
}

/// Counts `pos` to `depth` with the engine and with xq (on `threads` threads), and when
/// they differ descends to the first position where they do. Depth 0 asks nothing: the
/// position is one node for both.
///
/// # Errors
/// The engine fails to answer (see [`PerftEngine::divide`]).
pub fn compare(
    engine: &mut PerftEngine,
    pos: &Position,
    depth: u32,
    threads: usize,
) -> Result<Comparison, EngineError> {
    if depth == 0 {
        return Ok(Comparison {
            depth,
            engine: 1,
            xq: 1,
            difference: None,
        });
    }
    let theirs = engine.divide(pos, depth)?;
    let ours = divide_with_progress(&mut pos.clone(), depth, threads, |_, _| {});
    let (engine_nodes, xq) = (theirs.total, ours.iter().map(|(_, n)| n).sum());
    let mut path = Vec::new();
    let mut pos = pos.clone();
    let difference = descend(engine, &mut pos, depth, threads, &mut path, theirs, ours)?;
    Ok(Comparison {
        depth,
        engine: engine_nodes,
        xq,
        difference,
    })
}

/// Compares the two divides of `pos` at `depth` (reached by `path`) and, where they
/// differ only in counts, goes down the first move counted differently.
fn descend(
    engine: &mut PerftEngine,
    pos: &mut Position,
    depth: u32,
    threads: usize,
    path: &mut Vec<Move>,
    theirs: EngineDivide,
    ours: Vec<(Move, u64)>,
) -> Result<Option<Difference>, EngineError> {
    let xq: HashMap<Move, u64> = ours.iter().copied().collect();
    let mut listed: HashMap<Move, u64> = HashMap::new();
    let mut extra = Vec::new();
    for m in &theirs.moves {
        match m
            .mv
            .filter(|mv| xq.contains_key(mv) && !listed.contains_key(mv))
        {
            Some(mv) => {
                listed.insert(mv, m.nodes);
            }
            None => extra.push(m.text.clone()),
        }
    }
    let missing: Vec<Move> = ours
        .iter()
        .filter(|(m, _)| !listed.contains_key(m))
        .map(|&(m, _)| m)
        .collect();
    let counts: Vec<CountDifference> = ours
        .iter()
        .filter_map(|&(mv, n)| {
            let e = *listed.get(&mv)?;
            (e != n).then_some(CountDifference {
                mv,
                engine: e,
                xq: n,
            })
        })
        .collect();
    let here = |kind| Difference {
        fen: pos.to_fen(),
        path: path.clone(),
        depth,
        ranks: theirs.ranks,
        kind,
    };
    if !missing.is_empty() || !extra.is_empty() || (depth == 1 && !counts.is_empty()) {
        return Ok(Some(here(DifferenceKind::Moves {
            missing,
            extra,
            counts,
        })));
    }
    if theirs.listed() != theirs.total {
        return Ok(Some(here(DifferenceKind::Total {
            listed: theirs.listed(),
            total: theirs.total,
        })));
    }
    let Some(first) = counts.first().cloned() else {
        return Ok(None);
    };
    let fallback = here(DifferenceKind::Moves {
        missing,
        extra,
        counts,
    });
    let undo = pos.make_move(first.mv);
    path.push(first.mv);
    let result = descend_into(engine, pos, depth - 1, threads, path, first.engine);
    path.pop();
    pos.unmake_move(first.mv, undo);
    // The engine cannot agree with xq below a move it counted differently, unless its
    // counts change from one question to the next: then the difference is here.
    Ok(result?.or(Some(fallback)))
}

/// Below a move the engine counted `said` nodes under: its divide of `pos` must say
/// the same, and is compared with xq's.
fn descend_into(
    engine: &mut PerftEngine,
    pos: &mut Position,
    depth: u32,
    threads: usize,
    path: &mut Vec<Move>,
    said: u64,
) -> Result<Option<Difference>, EngineError> {
    let theirs = engine.divide(pos, depth)?;
    let ours = divide_with_progress(pos, depth, threads, |_, _| {});
    if theirs.total != said {
        return Ok(Some(Difference {
            fen: pos.to_fen(),
            path: path.clone(),
            depth,
            ranks: theirs.ranks,
            kind: DifferenceKind::Inconsistent {
                said,
                found: theirs.total,
                xq: ours.iter().map(|(_, n)| n).sum(),
            },
        }));
    }
    descend(engine, pos, depth, threads, path, theirs, ours)
}

/// One depth of a suite line, counted by both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DepthComparison {
    /// The depth.
    pub depth: u32,
    /// The count the suite gives.
    pub expected: u64,
    /// xq's count.
    pub xq: u64,
    /// The engine's count.
    pub engine: u64,
}

/// A suite line compared: the depths counted, up to the first that differs, and where
/// it differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryComparison {
    /// Index of the entry in the suite, from 0.
    pub index: usize,
    /// Line number of the entry in its file, from 1.
    pub line: usize,
    /// The position.
    pub fen: String,
    /// The FEN gave no position, so nothing was counted.
    pub error: Option<FenError>,
    /// The depths counted, in the entry's order, up to the first that differs.
    pub checks: Vec<DepthComparison>,
    /// Depths not counted: skipped by the options, or after a difference.
    pub skipped: usize,
    /// Where the first depth that differs first differs.
    pub difference: Option<Difference>,
}

impl EntryComparison {
    /// Did the position parse and the engine count what xq counts at every depth?
    pub fn agrees(&self) -> bool {
        self.error.is_none() && self.difference.is_none()
    }

    /// The deepest depth counted (0 when none was).
    pub fn deepest(&self) -> u32 {
        self.checks.iter().map(|c| c.depth).max().unwrap_or(0)
    }

    /// The engine's nodes over every depth counted.
    pub fn nodes(&self) -> u64 {
        self.checks.iter().map(|c| c.engine).sum()
    }

    /// What a report says below the entry's line: the FEN's error, each depth where the
    /// engine, xq and the suite do not all agree, and the first difference.
    ///
    /// ```
    /// use xq_perft::compare::{DepthComparison, EntryComparison};
    /// let entry = EntryComparison {
    ///     index: 0, line: 1, fen: "4k4/9/9/9/9/9/9/9/9/3K5 w".into(), error: None,
    ///     checks: vec![DepthComparison { depth: 2, expected: 2, xq: 2, engine: 3 }],
    ///     skipped: 0, difference: None,
    /// };
    /// assert_eq!(entry.notes(), ["depth 2: engine 3, xq 2, the suite 2"]);
    /// ```
    pub fn notes(&self) -> Vec<String> {
        let error = self
            .error
            .iter()
            .map(|e| format!("line {}: {e}", self.line));
        let depths = self
            .checks
            .iter()
            .filter(|c| c.engine != c.xq || c.xq != c.expected);
        let depths = depths.map(|c| {
            let (d, e, x, s) = (c.depth, c.engine, c.xq, c.expected);
            format!("depth {d}: engine {e}, xq {x}, the suite {s}")
        });
        let difference = self.difference.iter().map(Difference::to_string);
        error.chain(depths).chain(difference).collect()
    }
}

/// The comparisons of a suite's lines, with the totals.
///
/// ```
/// use xq_perft::compare::{DepthComparison, EntryComparison, SuiteComparison};
/// let check = DepthComparison { depth: 1, expected: 44, xq: 44, engine: 44 };
/// let entry = EntryComparison {
///     index: 0, line: 1, fen: xq_core::START_FEN.into(), error: None,
///     checks: vec![check], skipped: 2, difference: None,
/// };
/// let report: SuiteComparison = [entry].into_iter().collect();
/// assert!(report.agrees());
/// assert_eq!(report.to_string(), "1 agree, 0 differ; 1 depth checks (2 skipped); 44 nodes");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SuiteComparison {
    /// One comparison per line, in suite order.
    pub entries: Vec<EntryComparison>,
}

impl FromIterator<EntryComparison> for SuiteComparison {
    fn from_iter<I: IntoIterator<Item = EntryComparison>>(iter: I) -> SuiteComparison {
        SuiteComparison {
            entries: iter.into_iter().collect(),
        }
    }
}

impl SuiteComparison {
    /// Did the engine agree on every line?
    pub fn agrees(&self) -> bool {
        self.entries.iter().all(EntryComparison::agrees)
    }
}

impl fmt::Display for SuiteComparison {
    /// The totals: lines that agree and differ, depths counted and skipped, the engine's
    /// nodes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let agree = self.entries.iter().filter(|e| e.agrees()).count();
        let checks: usize = self.entries.iter().map(|e| e.checks.len()).sum();
        let skipped: usize = self.entries.iter().map(|e| e.skipped).sum();
        let nodes: u64 = self.entries.iter().map(EntryComparison::nodes).sum();
        let differ = self.entries.len() - agree;
        write!(
            f,
            "{agree} agree, {differ} differ; {checks} depth checks ({skipped} skipped); {nodes} nodes"
        )
    }
}

/// Compares a suite line (the `index`-th of its suite) at every depth the options
/// allow, stopping at the first depth that differs.
///
/// # Errors
/// The engine fails to answer.
///
/// ```
/// use xq_perft::compare::compare_entry;
/// use xq_perft::engine::EngineCommand;
/// use xq_perft::suite::{parse_suite, RunOptions};
/// // A stand-in engine that always counts one move.
/// let script = r#"while read cmd rest; do case $cmd in
///     uci) echo uciok;; isready) echo readyok;;
///     go) echo "d0d1: 1"; echo "Nodes searched: 1";;
/// esac; done"#;
/// let mut engine = EngineCommand::new("sh").arg("-c").arg(script).start()?;
/// let suite = parse_suite("4k4/9/9/9/9/9/9/9/9/3K5 w ;D1 1 ;D2 2 ;D3 5")?;
/// let report = compare_entry(&mut engine, 0, &suite[0], &RunOptions::default())?;
/// assert!(!report.agrees());
/// // Depth 1 agrees; at depth 2 the engine counts 1, xq 2; depth 3 is not counted.
/// assert_eq!((report.checks.len(), report.skipped), (2, 1));
/// assert_eq!((report.checks[1].engine, report.checks[1].xq), (1, 2));
/// // Below d0d1 the engine still lists d0d1, and not the black general's moves.
/// let difference = report.difference.unwrap();
/// assert_eq!((difference.path[0].to_string(), difference.depth), ("d0d1".to_string(), 1));
/// let text = difference.to_string();
/// assert!(text.contains("(after d0d1): the engine lacks "), "{text}");
/// assert!(text.ends_with("; it has d0d1 that is not legal"), "{text}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn compare_entry(
    engine: &mut PerftEngine,
    index: usize,
    entry: &SuiteEntry,
    opts: &RunOptions,
) -> Result<EntryComparison, EngineError> {
    let mut report = EntryComparison {
        index,
        line: entry.line,
        fen: entry.fen.clone(),
        error: None,
        checks: Vec::new(),
        skipped: 0,
        difference: None,
    };
    let pos = match Position::from_fen(&entry.fen) {
        Ok(p) => p,
        Err(e) => {
            report.error = Some(e);
            return Ok(report);
        }
    };
    for &(depth, expected) in &entry.counts {
        let skip = opts.max_depth.is_some_and(|d| depth > d)
            || opts.max_nodes.is_some_and(|n| expected > n);
        if skip || report.difference.is_some() {
            report.skipped += 1;
            continue;
        }
        let c = compare(engine, &pos, depth, opts.threads)?;
        report.checks.push(DepthComparison {
            depth,
            expected,
            xq: c.xq,
            engine: c.engine,
        });
        report.difference = c.difference;
    }
    Ok(report)
}
