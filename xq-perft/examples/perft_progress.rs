//! Counts perft with a progress callback, the way a GUI would drive a progress bar:
//! [`xq_perft::divide_with_progress`] calls back after each root move is counted.
//!
//! ```sh
//! cargo run --release -p xq-perft --example perft_progress            # depth 3, start position
//! cargo run --release -p xq-perft --example perft_progress -- 5 "FEN"
//! ```
//!
//! Prints a progress line at every tenth of the root moves, the divide (one line per
//! root move), then `Nodes searched: N`.

use std::error::Error;
use std::io::Write;
use xq_core::{Position, START_FEN};

/// Counts perft to `depth` below `fen` on two threads, writing progress and the divide
/// to `out`, and returns the node count.
///
/// # Errors
/// A malformed or impossible FEN, a depth of 0, or a failed write.
pub fn run(fen: &str, depth: u32, out: &mut dyn Write) -> Result<u64, Box<dyn Error>> {
    let mut pos = Position::from_fen(fen)?;
    if depth == 0 {
        return Err("the depth must be at least 1".into());
    }
    let mut last_tenth = 0;
    let mut write_error = None;
    // The callback runs on the calling thread, so it may borrow `out` mutably.
    let divide = xq_perft::divide_with_progress(&mut pos, depth, 2, |done, total| {
        let tenth = done * 10 / total;
        if tenth > last_tenth || done == total {
            last_tenth = tenth;
            if let Err(e) = writeln!(out, "progress {done}/{total} root moves") {
                write_error.get_or_insert(e);
            }
        }
    });
    if let Some(e) = write_error {
        return Err(e.into());
    }
    for (m, nodes) in &divide {
        writeln!(out, "{m}: {nodes}")?;
    }
    let total: u64 = divide.iter().map(|(_, n)| n).sum();
    writeln!(out, "Nodes searched: {total}")?;
    Ok(total)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let depth = args.next().map_or(Ok(3), |d| d.parse::<u32>());
    let fen = args.next().unwrap_or_else(|| START_FEN.to_string());
    let result = match depth {
        Ok(depth) => run(&fen, depth, &mut std::io::stdout().lock()),
        Err(e) => Err(format!("bad depth: {e}").into()),
    };
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
