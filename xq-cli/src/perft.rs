//! `xq perft`: count the legal move tree, or validate a suite.

use crate::PositionArgs;
use anyhow::{bail, Context, Result};
use std::time::{Duration, Instant};
use xq_perft::compare::{compare, compare_entry, SuiteComparison};
use xq_perft::engine::{EngineCommand, PerftEngine};
use xq_perft::suite::{parse_suite, run_suite, EntryReport, RunOptions, SuiteEntry, SuiteReport};

/// The arguments of a single count, which a suite run does not take. (The suite's own
/// options conflict with them too: `requires = "suite"` alone is not checked when the
/// missing `--suite` conflicts with an argument given.)
const NOT_WITH_SUITE: [&str; 4] = ["depth", "divide", "fen", "moves"];

/// Count leaf nodes of the legal move tree.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies (required unless --suite is given).
    depth: Option<u32>,
    #[command(flatten)]
    position: PositionArgs,
    /// Print the count below each root move (`h2e2: 1234`).
    #[arg(long)]
    divide: bool,
    /// Threads to split the root moves over.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Validate a suite file of `FEN ;D1 n ;D2 n ...` lines instead.
    #[arg(long, value_name = "FILE", conflicts_with_all = NOT_WITH_SUITE)]
    suite: Option<String>,
    /// With --suite: skip depths above this.
    #[arg(long, value_name = "D", requires = "suite", conflicts_with_all = NOT_WITH_SUITE)]
    max_depth: Option<u32>,
    /// With --suite: skip depths whose expected count is above this.
    #[arg(long, value_name = "N", requires = "suite", conflicts_with_all = NOT_WITH_SUITE)]
    max_nodes: Option<u64>,
    /// Compare with this UCI engine's `go perft` instead, down to the first difference.
    #[arg(long, value_name = "CMD", conflicts_with = "divide")]
    engine: Option<String>,
    /// With --engine: an argument for it (repeat for more).
    #[arg(long, requires = "engine", allow_hyphen_values = true)]
    engine_arg: Vec<String>,
    /// With --engine: a UCI option to set, as `UCI_Variant=xiangqi` (repeat for more).
    #[arg(long, value_name = "NAME=VALUE", requires = "engine", value_parser = name_value)]
    engine_option: Vec<(String, String)>,
    /// With --engine: the longest it may stay silent, in seconds.
    #[arg(long, value_name = "SECS", requires = "engine", default_value_t = 60)]
    engine_timeout: u64,
}

/// Reads `NAME=VALUE`.
fn name_value(s: &str) -> Result<(String, String), String> {
    let (n, v) = s.split_once('=').ok_or("expected NAME=VALUE")?;
    Ok((n.trim().to_string(), v.trim().to_string()))
}

/// Starts the engine of `--engine`.
fn start_engine(args: &PerftArgs, program: &str) -> Result<PerftEngine> {
    let cmd = EngineCommand::new(program).args(&args.engine_arg);
    let cmd = cmd.options(args.engine_option.iter().cloned());
    Ok(cmd
        .timeout(Duration::from_secs(args.engine_timeout))
        .start()?)
}

/// Runs perft; returns the exit code.
pub fn run(args: &PerftArgs) -> Result<i32> {
    let threads = args.threads.max(1);
    if let Some(file) = &args.suite {
        let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {file}"))?;
        let suite = parse_suite(&text).with_context(|| format!("in {file}"))?;
        let opts = RunOptions {
            max_depth: args.max_depth,
            max_nodes: args.max_nodes,
            threads,
        };
        if let Some(program) = &args.engine {
            return engine_suite(&mut start_engine(args, program)?, &suite, &opts);
        }
        let report = suite_report(&suite, &opts)?;
        return Ok(if report.ok() { 0 } else { 1 });
    }
    let Some(depth) = args.depth else {
        bail!("give a depth (`xq perft 5`) or a suite (`xq perft --suite data/perft.epd`)");
    };
    let game = args.position.game().context("bad position")?;
    let mut pos = game.position().clone();
    if let Some(program) = &args.engine {
        let engine = &mut start_engine(args, program)?;
        let c = compare(engine, &pos, depth, threads)?;
        outln!("{}: {} nodes; xq: {} nodes", engine.name(), c.engine, c.xq)?;
        let verdict = c.difference.as_ref().map(ToString::to_string);
        outln!("{}", verdict.as_deref().unwrap_or("they agree"))?;
        return Ok(i32::from(!c.agrees()));
    }
    let start = Instant::now();
    let nodes = if args.divide && depth > 0 {
        let div = xq_perft::divide_with_progress(&mut pos, depth, threads, |_, _| {});
        for (m, n) in &div {
            outln!("{m}: {n}")?;
        }
        outln!("")?;
        div.iter().map(|(_, n)| n).sum()
    } else {
        xq_perft::perft_threads(&pos, depth, threads)
    };
    let elapsed = start.elapsed();
    outln!("Nodes searched: {nodes}")?;
    outln!("Time: {:.3} s", elapsed.as_secs_f64())?;
    outln!("Speed: {}", format_nps(nodes, elapsed))?;
    Ok(0)
}

/// Checks a suite, printing a line per position (and the divide of any failing depth)
/// and the totals, with a progress bar on standard error when it is a terminal.
fn suite_report(suite: &[xq_perft::suite::SuiteEntry], opts: &RunOptions) -> Result<SuiteReport> {
    let total = suite.len();
    let bar = crate::progress_bar(total as u64, "{bar:40} {pos}/{len} positions {elapsed}");
    let mut report = SuiteReport::default();
    for entry in run_suite(suite, opts) {
        // Lines go above the bar.
        let printed = bar.suspend(|| print_entry(&entry, total));
        bar.inc(1);
        printed?;
        report.entries.push(entry);
    }
    bar.finish_and_clear();
    outln!(
        "{} passed, {} failed; {} depth checks ({} skipped); {} nodes in {:.3} s, {}",
        report.passed(),
        report.failed(),
        report.checks(),
        report.skipped(),
        report.nodes(),
        report.elapsed().as_secs_f64(),
        format_nps(report.nodes(), report.elapsed())
    )?;
    Ok(report)
}

/// Compares a suite with `engine`: a line per position (with what differs), then the
/// totals; exit code 1 on a difference.
fn engine_suite(engine: &mut PerftEngine, suite: &[SuiteEntry], opts: &RunOptions) -> Result<i32> {
    let total = suite.len();
    let bar = crate::progress_bar(total as u64, "{bar:40} {pos}/{len} positions {elapsed}");
    let mut report = SuiteComparison::default();
    for (i, entry) in suite.iter().enumerate() {
        let r = compare_entry(engine, i, entry, opts)?;
        let printed = bar.suspend(|| -> Result<()> {
            let (ok, d, n) = (if r.agrees() { "ok  " } else { "DIFF" }, r.deepest(), i + 1);
            outln!(
                "{ok} {n:>3}/{total}  D{d:<2} {:>12} nodes  {}",
                r.nodes(),
                r.fen
            )?;
            Ok(r.notes()
                .iter()
                .try_for_each(|note| outln!("     {note}"))?)
        });
        bar.inc(1);
        printed?;
        report.entries.push(r);
    }
    bar.finish_and_clear();
    outln!("{}: {report}", engine.name())?;
    Ok(i32::from(!report.agrees()))
}

/// One position's line: pass or fail, deepest depth, nodes, time, speed, FEN; for a
/// failure, every wrong count and the divide at the first.
fn print_entry(r: &EntryReport, total: usize) -> Result<()> {
    let n = r.index + 1;
    if let Some(e) = &r.error {
        outln!("FAIL {n:>3}/{total}  line {}: {e}", r.line)?;
        return Ok(());
    }
    let (nodes, elapsed) = (r.nodes(), r.elapsed());
    outln!(
        "{} {n:>3}/{total}  D{:<2} {nodes:>12} nodes {:>8.3} s {:>12}  {}",
        if r.passed() { "ok  " } else { "FAIL" },
        r.deepest(),
        elapsed.as_secs_f64(),
        format_nps(nodes, elapsed),
        r.fen
    )?;
    for c in r.failures() {
        outln!(
            "     depth {}: expected {}, counted {} ({:+})",
            c.depth,
            c.expected,
            c.actual,
            c.actual as i128 - c.expected as i128
        )?;
    }
    if let Some(d) = &r.divide {
        outln!("     divide at depth {}:", d.depth)?;
        for (m, n) in &d.moves {
            outln!("     {m}: {n}")?;
        }
    }
    Ok(())
}

/// A nodes-per-second figure: `12.3 Mnps`, `4567 nps`, or `- nps` for no time.
fn format_nps(nodes: u64, elapsed: Duration) -> String {
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
