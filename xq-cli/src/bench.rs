//! `xq bench`: the project's functional fingerprint and speed check
//! ([`xq_search::bench`]).

use anyhow::Result;

/// Search a fixed list of positions to a fixed depth.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Depth of each search (1 to 20).
    #[arg(default_value_t = xq_search::bench::DEPTH, value_parser = crate::depth_within(xq_search::bench::DEPTHS))]
    depth: u32,
    /// Transposition table size in MiB, 1 to 2048 (a fresh table for each position).
    #[arg(long, default_value_t = xq_search::bench::HASH_MIB, value_name = "MB", value_parser = crate::hash_mib())]
    hash: usize,
    #[command(flatten)]
    net: crate::NetArgs,
}

/// Runs the bench; returns the exit code. Each position's line goes to standard error,
/// the total (`<nodes> nodes <nps> nps`) to standard output.
pub fn run(args: &BenchArgs) -> Result<i32> {
    let network = args.net.network()?;
    let count = xq_search::bench::run(args.depth, args.hash, network, &mut |i, fen, r| {
        eprintln!(
            "{:>2} {:>10} nodes  {:<5} {:<10}  {}",
            i,
            r.nodes,
            r.best_move.map(|m| m.to_string()).unwrap_or("-".into()),
            r.score.to_string(),
            fen
        );
    })?;
    outln!("{} nodes {} nps", count.nodes, count.nps())?;
    Ok(0)
}
