//! Lists the legal moves of a position, with nothing but `xq-core` and `xq-movegen`: what
//! a GUI, a game server or a puzzle site needs to validate what its users play.
//!
//! ```sh
//! cargo run -p xq-movegen --example legal_moves                       # the start position
//! cargo run -p xq-movegen --example legal_moves -- "4k4/9/9/9/9/9/9/9/4R4/3K5 b"
//! ```
//!
//! Prints one line per move (ICCS, Chinese and WXF notation, `check` when it gives
//! check), then `N legal moves`, or the result when the side to move has none. A bad FEN
//! is reported on stderr with exit code 1, never a panic.

use std::error::Error;
use std::io::Write;
use xq_core::{Position, START_FEN};
use xq_movegen::notation::{write_move, Notation};
use xq_movegen::{gives_check, legal_moves, outcome, Termination};

/// Writes the legal moves of the position `fen` to `out` and returns how many there are.
///
/// # Errors
/// A malformed or impossible FEN ([`xq_core::FenError`]), or a failed write.
pub fn run(fen: &str, out: &mut dyn Write) -> Result<usize, Box<dyn Error>> {
    // Stage one and two of FEN checking in one call: syntax, then legality.
    let pos = Position::from_fen(fen)?;
    writeln!(out, "position {pos}")?;
    writeln!(out, "{} to move", pos.side_to_move())?;
    let moves = legal_moves(&pos);
    for &m in &moves {
        // Generated moves are legal, so writing them down cannot fail.
        let chinese = write_move(&pos, m, Notation::Chinese)?;
        let wxf = write_move(&pos, m, Notation::Wxf)?;
        let check = if gives_check(&pos, m) { "  check" } else { "" };
        writeln!(out, "{m}  {chinese}  {wxf}{check}")?;
    }
    match outcome(&pos).map(|o| o.termination) {
        Some(Termination::Checkmate) => writeln!(
            out,
            "no legal move: checkmate, {} has lost",
            pos.side_to_move()
        )?,
        Some(Termination::Stalemate) => writeln!(
            out,
            "no legal move: stalemate, {} has lost",
            pos.side_to_move()
        )?,
        Some(drawn) => writeln!(out, "{} legal moves; drawn by {drawn}", moves.len())?,
        None => writeln!(out, "{} legal moves", moves.len())?,
    }
    Ok(moves.len())
}

fn main() {
    let fen = std::env::args()
        .nth(1)
        .unwrap_or_else(|| START_FEN.to_string());
    if let Err(e) = run(&fen, &mut std::io::stdout().lock()) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
