//! A search with a custom stop condition: a watcher thread receives every completed
//! iteration and sets the stop flag after a number of iterations, or as soon as the score
//! passes a threshold. Then the principal variation is read from the result.
//!
//! ```sh
//! cargo run --release -p xq-search --example custom_stop
//! ```
//!
//! Prints the iterations the watcher saw, why it stopped the search, the best move and
//! the principal variation in ICCS and Chinese notation.

use std::error::Error;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use xq_movegen::notation::{write_line, Notation};
use xq_movegen::Game;
use xq_search::{Info, Limits, Score, SearchResult, Searcher};

/// When the watcher stops the search.
#[derive(Copy, Clone, Debug)]
pub struct StopRule {
    /// After this many completed iterations.
    pub iterations: usize,
    /// As soon as the score for the side to move is at least this (centipawns; any mate
    /// for the side to move counts as passing it).
    pub threshold: i32,
}

/// Searches the position of `fen` until `rule` stops it, writing what happens to `out`.
/// Returns the search result and how many iterations the watcher saw.
///
/// # Errors
/// A malformed or impossible FEN, or a failed write.
pub fn run(
    fen: &str,
    rule: StopRule,
    out: &mut dyn Write,
) -> Result<(SearchResult, usize), Box<dyn Error>> {
    let game = Game::from_fen_moves(fen, &[] as &[&str])?;
    let mut searcher = Searcher::new(16);
    let stop = AtomicBool::new(false);
    // No limit of its own apart from a generous safety net: the watcher decides.
    let limits = Limits {
        depth: Some(64),
        ..Limits::default()
    };
    let (tx, rx) = mpsc::channel::<Info>();

    let (result, (seen, lines)) = std::thread::scope(|s| {
        let stop = &stop;
        let watcher = s.spawn(move || {
            let mut lines = Vec::new();
            let mut seen = 0;
            // Ends when the rule fires or when the search ends and drops the sender.
            for info in rx {
                seen += 1;
                lines.push(format!(
                    "iteration {seen}: depth {} score {} pv {:?}",
                    info.depth, info.score, info.pv
                ));
                let passed = match info.score {
                    Score::Cp(cp) => cp >= rule.threshold,
                    Score::Mate(n) => n > 0,
                };
                if passed || seen >= rule.iterations {
                    lines.push(if passed {
                        format!("stop: score {} passed the threshold", info.score)
                    } else {
                        format!("stop: {seen} iterations done")
                    });
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
            }
            (seen, lines)
        });
        // The report callback runs on the search thread: hand each iteration over.
        let result = searcher.search(&game, &limits, stop, |info| {
            let _ = tx.send(info.clone()); // the watcher may have hung up already
        });
        drop(tx);
        (result, watcher.join().expect("the watcher does not panic"))
    });

    for line in lines {
        writeln!(out, "{line}")?;
    }
    let best = result
        .best_move
        .map_or("(none)".to_string(), |m| m.to_string());
    writeln!(
        out,
        "best move {best} score {} depth {}",
        result.score, result.depth
    )?;
    let pv: Vec<String> = result.pv.iter().map(|m| m.to_string()).collect();
    writeln!(out, "pv {}", pv.join(" "))?;
    writeln!(
        out,
        "pv {}",
        write_line(game.position(), &result.pv, Notation::Chinese)?.join(" ")
    )?;
    Ok((result, seen))
}

fn main() {
    let start = xq_core::START_FEN;
    // Red mates in one here (a0d0): the first iteration passes the threshold.
    let mate = "3k5/9/9/9/9/9/9/9/R8/R3K4 w";
    let runs = [
        (
            start,
            StopRule {
                iterations: 4,
                threshold: 500,
            },
        ),
        (
            mate,
            StopRule {
                iterations: 20,
                threshold: 500,
            },
        ),
    ];
    for (fen, rule) in runs {
        println!("== {fen}");
        if let Err(e) = run(fen, rule, &mut std::io::stdout().lock()) {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}
