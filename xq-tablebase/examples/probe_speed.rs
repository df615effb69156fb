//! Probes per second: random legal positions of every table in a directory, probed for
//! their distance to mate (`probe_dtm`, the same read as `probe_wdl`).
//!
//!     cargo run --release -p xq-tablebase --example probe_speed -- DIR [PROBES [DISTINCT]]
//!
//! With DISTINCT, the probes cycle through that many random positions (a small number
//! measures probes answered from the block cache).

use std::time::Instant;
use xq_core::SplitMix64;
use xq_tablebase::Tablebases;

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().expect("usage: probe_speed DIR [PROBES]");
    let probes: usize = args
        .next()
        .map_or(1_000_000, |n| n.parse().expect("a number"));
    let distinct: usize = args.next().map_or(probes, |n| n.parse().expect("a number"));
    let tb = Tablebases::open(&dir).expect("a directory of tables");
    let endings = tb.endings();
    let mut rng = SplitMix64::new(1);
    // Positions first, so that only the probes are timed.
    let mut positions = Vec::with_capacity(distinct);
    while positions.len() < distinct {
        let ending = endings[rng.below(endings.len() as u64) as usize].to_string();
        if let Some(pos) = xq_testkit::random_position(&ending, &mut rng) {
            positions.push(pos);
        }
    }
    let start = Instant::now();
    let mut wins = 0;
    for pos in positions.iter().cycle().take(probes) {
        let v = tb
            .probe_dtm(pos)
            .expect("a good table")
            .expect("in the set");
        wins += usize::from(v.result() == xq_tablebase::TableResult::Win);
    }
    let t = start.elapsed().as_secs_f64();
    println!(
        "{probes} probes of {} tables in {t:.2} s: {:.0} probes/s ({wins} wins)",
        endings.len(),
        probes as f64 / t
    );
}
