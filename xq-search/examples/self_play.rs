//! A game between two search instances, each with its own transposition table, as a game
//! server would run an engine-versus-engine match. The searches are depth-limited, so
//! the game is the same on every run and every machine.
//!
//! ```sh
//! cargo run --release -p xq-search --example self_play              # 40 plies, depth 3
//! cargo run --release -p xq-search --example self_play -- 200 5     # up to 200 plies, depth 5
//! ```
//!
//! Prints one line per move (ply, side, ICCS move, Chinese notation, score), then
//! `result: ...` (the referee's verdict, `xq_movegen::adjudicate`) and the final FEN.

use std::error::Error;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use xq_core::Color;
use xq_movegen::notation::{write_move, Notation};
use xq_movegen::Game;
use xq_movegen::{GameResult, Termination};
use xq_search::{Limits, Searcher};

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// The referee ended the game (mate, perpetual check or chase, repetition, the
    /// 60-move rule, insufficient material): the result and why.
    Over(GameResult, Termination),
    /// The ply limit was reached with the game still going.
    PlyLimit,
}

/// Plays up to `max_plies` plies from the start position, both sides searching to
/// `depth`, writing the moves to `out`. Returns the game and how it ended.
///
/// # Errors
/// A failed write.
pub fn run(
    max_plies: usize,
    depth: u32,
    out: &mut dyn Write,
) -> Result<(Game, End), Box<dyn Error>> {
    run_from(xq_core::START_FEN, max_plies, depth, out)
}

/// As [`run`], from the position `fen`.
///
/// # Errors
/// A malformed or impossible FEN, or a failed write.
pub fn run_from(
    fen: &str,
    max_plies: usize,
    depth: u32,
    out: &mut dyn Write,
) -> Result<(Game, End), Box<dyn Error>> {
    let mut game = Game::from_fen_moves(fen, &[] as &[&str])?;
    // One engine per side: separate tables, killers and history.
    let mut red = Searcher::new(16);
    let mut black = Searcher::new(16);
    let stop = AtomicBool::new(false); // never set: the depth limit ends each search
    let limits = Limits::depth(depth);
    let end = loop {
        let pos = game.position().clone();
        if let Some(outcome) = game.outcome() {
            break End::Over(outcome.result, outcome.termination);
        }
        if game.moves().len() >= max_plies {
            break End::PlyLimit;
        }
        let searcher = match pos.side_to_move() {
            Color::Red => &mut red,
            Color::Black => &mut black,
        };
        let result = searcher.search(&game, &limits, &stop, |_| {});
        // The referee has seen that the side to move has a legal move.
        let m = result.best_move.expect("a legal move to play");
        let chinese = write_move(&pos, m, Notation::Chinese)?;
        writeln!(
            out,
            "{:3}. {:5} {m} {chinese} {}",
            game.moves().len() + 1,
            pos.side_to_move(),
            result.score
        )?;
        // The search only returns legal moves; `play` checks anyway.
        game.play(m)?;
    };
    match &end {
        End::Over(result, reason) => writeln!(out, "result: {result} {reason}")?,
        End::PlyLimit => writeln!(out, "result: unfinished after {} plies", game.moves().len())?,
    }
    writeln!(out, "final position {}", game.position())?;
    Ok((game, end))
}

fn main() {
    let mut args = std::env::args().skip(1);
    let max_plies = args.next().and_then(|a| a.parse().ok()).unwrap_or(40);
    let depth = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    if let Err(e) = run(max_plies, depth, &mut std::io::stdout().lock()) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
