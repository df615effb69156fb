//! `xq bench`: the project's functional fingerprint and speed check.

use anyhow::Result;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use xq_movegen::Game;
use xq_search::{Limits, Searcher};

/// The bench positions: openings, middlegames, endgames and tactics.
pub const POSITIONS: &str = include_str!("bench.fens");

/// Search a fixed list of positions to a fixed depth.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Depth of each search.
    #[arg(default_value_t = 9)]
    depth: u32,
    /// Transposition table size in MiB, 1 to 2048 (cleared between positions).
    #[arg(long, default_value_t = 16, value_name = "MB", value_parser = crate::hash_mib())]
    hash: usize,
    #[command(flatten)]
    net: crate::NetArgs,
}

/// Runs the bench; returns the exit code. The speed is the nodes over the time spent
/// searching: making each position's searcher and table (a fresh one per position, so
/// that the node count does not depend on the order) is not counted, as Stockfish's
/// bench leaves out clearing its table.
pub fn run(args: &BenchArgs) -> Result<i32> {
    let mut nodes = 0u64;
    let mut searching = Duration::ZERO;
    let stop = AtomicBool::new(false);
    let network = args.net.network()?;
    for (i, fen) in POSITIONS
        .lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
    {
        let game = Game::from_fen_moves(fen, &[] as &[&str])?;
        let mut searcher = Searcher::try_new(args.hash)?;
        searcher.set_network(network.clone());
        let start = Instant::now();
        let r = searcher.search(&game, &Limits::depth(args.depth), &stop, |_| {});
        searching += start.elapsed();
        nodes += r.nodes;
        eprintln!(
            "{:>2} {:>10} nodes  {:<5} {:<10}  {}",
            i + 1,
            r.nodes,
            r.best_move.map(|m| m.to_string()).unwrap_or("-".into()),
            r.score.to_string(),
            fen
        );
    }
    let nps = (nodes as f64 / searching.as_secs_f64().max(1e-9)) as u64;
    outln!("{nodes} nodes {nps} nps")?;
    Ok(0)
}
