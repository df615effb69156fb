//! The bench: 40 fixed positions (openings, middlegames, endgames and tactics), each
//! searched to a fixed depth by a fresh searcher with its own table. The total node
//! count is the project's functional fingerprint (a change that alters the search tree
//! changes it); `xq bench`, UCI's `bench` and the web package's `bench()` all run this.
//!
//! ```
//! use xq_search::bench;
//! assert_eq!(bench::positions().count(), 40);
//! let count = bench::run(2, bench::HASH_MIB, None, &mut |_, _, _| {}).unwrap();
//! assert!(count.nodes > 0);
//! ```

use crate::time::Instant;
use crate::tt::TableError;
use crate::{Limits, SearchResult, Searcher};
use std::sync::Arc;
use std::time::Duration;
use xq_eval::nnue::Network;
use xq_movegen::Game;

/// The bench positions, one FEN a line.
pub const POSITIONS: &str = include_str!("bench.fens");
/// The depth each position is searched to.
pub const DEPTH: u32 = 9;
/// The depths a bench may be asked for (`xq bench`, UCI's `bench`, the web package's
/// `bench()`): a bench at depth 0 would search nothing, and past 20 one would not end.
pub const DEPTHS: std::ops::RangeInclusive<u32> = 1..=20;
/// The table size of each position's searcher, MiB.
pub const HASH_MIB: usize = 16;

/// The bench positions' FENs.
pub fn positions() -> impl Iterator<Item = &'static str> {
    POSITIONS.lines().map(str::trim).filter(|l| !l.is_empty())
}

/// What a bench run counted: its nodes and the time spent searching.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BenchCount {
    /// Nodes over every position.
    pub nodes: u64,
    /// Time spent searching (making each position's searcher and table not counted, as
    /// Stockfish's bench leaves out clearing its table).
    pub time: Duration,
}

impl BenchCount {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-9)) as u64
    }
}

/// Searches every bench position to `depth` with a fresh searcher of `hash_mib` MiB
/// evaluating with `network` (`None`: the classical evaluation), calling `each(index
/// from 1, fen, result)` after each.
///
/// # Errors
/// The table of `hash_mib` MiB cannot be allocated.
pub fn run(
    depth: u32,
    hash_mib: usize,
    network: Option<Arc<Network>>,
    each: &mut dyn FnMut(usize, &str, &SearchResult),
) -> Result<BenchCount, TableError> {
    let mut count = BenchCount::default();
    let never = || false;
    for (i, fen) in positions().enumerate() {
        let Ok(game) = Game::from_fen_moves(fen, &[] as &[&str]) else {
            continue; // the file is the crate's own: every line parses (a test checks)
        };
        let mut searcher = Searcher::try_new(hash_mib)?;
        searcher.set_network(network.clone());
        let start = Instant::now();
        let r = searcher.search(&game, &Limits::depth(depth), &never, |_| {});
        count.time += start.elapsed();
        count.nodes += r.nodes;
        each(i + 1, fen, &r);
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_position_is_a_game() {
        for fen in super::positions() {
            assert!(
                xq_movegen::Game::from_fen_moves(fen, &[] as &[&str]).is_ok(),
                "{fen}"
            );
        }
    }
}
