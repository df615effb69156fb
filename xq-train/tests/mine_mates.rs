//! Not a test: a miner of forced mates for `data/mates.epd`, run by hand. Reads self-play
//! files (the paths in `XQ_MINE_FILES`, separated by spaces), takes the positions whose
//! search saw a mate, proves the shortest mate with xq-testkit's exhaustive prover, and
//! prints those the engine with the network finds late (not exactly at depth 2N+8) as EPD
//! lines with the depths each evaluation needs.
//!
//! `XQ_MINE_FILES="a.xqsp b.xqsp" cargo test --release -p xq-train --test mine_mates -- --ignored --nocapture`
//! (`XQ_MINE_MAX=N` stops after N proven mates; 200 by default).

use std::sync::atomic::AtomicBool;
use xq_movegen::Game;
use xq_search::{Limits, Score, Searcher};
use xq_train::binary;
use xq_train::selfplay::NO_SCORE;

/// The first depth from which the search reports exactly `mate N` (and keeps it), up to
/// `max`.
fn first_depth(game: &Game, n: i32, max: u32, classical: bool) -> Option<u32> {
    let mut s = Searcher::new(16);
    if classical {
        s.set_network(None);
    }
    let mut first = None;
    s.search(game, &Limits::depth(max), &AtomicBool::new(false), |info| {
        if info.score == Score::Mate(n) {
            first = first.or(Some(info.depth));
        } else {
            first = None;
        }
    });
    first
}

#[test]
#[ignore]
fn mine() {
    let files = std::env::var("XQ_MINE_FILES").unwrap_or_default();
    let max: usize = std::env::var("XQ_MINE_MAX")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(200);
    let mut seen = std::collections::HashSet::new();
    let mut found = 0;
    for file in files.split_whitespace() {
        let bytes = std::fs::read(file).unwrap();
        for g in binary::read(&bytes).unwrap() {
            for (i, (pos, _, score)) in g.positions().enumerate() {
                if found >= max {
                    break;
                }
                if i < 8 || score != NO_SCORE || !seen.insert(pos.key()) {
                    continue;
                }
                let Some(n) = xq_testkit::mate::shortest_mate(&pos, 4) else {
                    continue;
                };
                let game = Game::new(pos.clone());
                let limit = 2 * n + 8;
                let nn = first_depth(&game, n as i32, limit + 6, false);
                let cl = first_depth(&game, n as i32, limit + 6, true);
                let late = nn.is_none_or(|d| d > limit);
                found += 1;
                if late {
                    println!(
                        "{} ;mate {n} ;network {:?} ;classical {:?}",
                        pos.to_fen(),
                        nn,
                        cl
                    );
                }
            }
        }
    }
    println!("{found} mates proven");
}
