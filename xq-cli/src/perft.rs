//! `xq perft`: count the legal move tree, or validate a suite.

use crate::PositionArgs;
use anyhow::{bail, Context, Result};
use std::time::Instant;
use xq_perft::suite::{format_nps, parse_suite, run_suite, RunOptions};

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
    #[arg(long, value_name = "FILE", conflicts_with_all = ["depth", "divide", "fen", "moves"])]
    suite: Option<String>,
    /// With --suite: skip depths above this.
    #[arg(long, value_name = "D", requires = "suite")]
    max_depth: Option<u32>,
}

/// Runs perft; returns the exit code.
pub fn run(args: &PerftArgs) -> Result<i32> {
    let threads = args.threads.max(1);
    if let Some(file) = &args.suite {
        let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {file}"))?;
        let suite = parse_suite(&text).with_context(|| format!("in {file}"))?;
        let opts = RunOptions {
            max_depth: args.max_depth,
            threads,
            ..RunOptions::default()
        };
        let report = run_suite(&suite, &opts, &mut std::io::stdout().lock())?;
        return Ok(if report.ok() { 0 } else { 1 });
    }
    let Some(depth) = args.depth else {
        bail!("give a depth (`xq perft 5`) or a suite (`xq perft --suite data/perft.epd`)");
    };
    let game = args.position.game().context("bad position")?;
    let mut pos = game.position().clone();
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
