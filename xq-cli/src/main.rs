//! `xq`: the command-line face of the xq Xiangqi engine.

/// Prints a line to standard output; exits quietly when the reader has gone away (a
/// closed pipe, as with `xq analyze | head`), instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut out = std::io::stdout().lock();
        if writeln!(out, $($arg)*).and_then(|_| out.flush()).is_err() {
            std::process::exit(0);
        }
    }};
}

pub(crate) use outln;

mod analyze;
mod bench;
mod board;
mod convert;
mod perft;

use xq_cli::{engine, ucci, uci};

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use xq_search::Game;

/// xq, a Xiangqi (Chinese chess) engine.
///
/// With no command, xq starts as an engine speaking UCI or UCCI (chosen by the first
/// command a GUI sends).
#[derive(Parser, Debug)]
#[command(name = "xq", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// A position given on the command line: a FEN and moves played from it.
#[derive(clap::Args, Debug, Clone)]
pub struct PositionArgs {
    /// The position, as FEN (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves (ICCS, like h2e2) played from the position.
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
}

impl PositionArgs {
    /// The game these arguments describe, or an error naming what is wrong.
    pub fn game(&self) -> Result<Game> {
        let fen = self.fen.as_deref().unwrap_or(xq_core::START_FEN);
        // Allow `--moves "h2e2 h9g7"` as well as `--moves h2e2 h9g7`.
        let moves: Vec<&str> = self
            .moves
            .iter()
            .flat_map(|m| m.split_whitespace())
            .collect();
        Game::from_fen_moves(fen, &moves).map_err(anyhow::Error::from)
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Analyse a position: best move, score and principal variation, depth by depth.
    Analyze(analyze::AnalyzeArgs),
    /// Count the leaf nodes of the legal move tree (move generation check and speed).
    Perft(perft::PerftArgs),
    /// Search a fixed set of positions to a fixed depth: node count and speed.
    Bench(bench::BenchArgs),
    /// Show the static evaluation of a position and its parts.
    Eval(EvalArgs),
    /// Convert a game file (PGN in UTF-8 or GBK, or XQF) to PGN in the notation asked for.
    Convert(convert::ConvertArgs),
    /// Run as a UCI engine (standard input and output).
    Uci,
    /// Run as a UCCI engine (standard input and output).
    Ucci,
}

#[derive(clap::Args, Debug)]
struct EvalArgs {
    #[command(flatten)]
    position: PositionArgs,
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        None => Ok(engine::run_auto()),
        Some(Command::Uci) => Ok(run_protocol(&mut uci::Uci::new())),
        Some(Command::Ucci) => Ok(run_protocol(&mut ucci::Ucci::new())),
        Some(Command::Analyze(a)) => analyze::run(&a),
        Some(Command::Perft(a)) => perft::run(&a),
        Some(Command::Bench(a)) => bench::run(&a),
        Some(Command::Eval(a)) => eval(&a),
        Some(Command::Convert(a)) => convert::run(&a),
    };
    match result {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("xq: {e:#}");
            std::process::exit(2);
        }
    }
}

fn run_protocol(proto: &mut dyn engine::Protocol) -> i32 {
    engine::run(proto, &mut std::io::stdin().lock());
    0
}

fn eval(args: &EvalArgs) -> Result<i32> {
    let game = args.position.game().context("bad position")?;
    let pos = game.position();
    outln!("{}", board::diagram(pos, false).trim_end());
    let b = xq_eval::breakdown(pos);
    outln!(
        "phase      {:>6}  (48 = every chariot, horse and cannon on the board)",
        b.phase
    );
    outln!("material   {:>6}", b.material);
    for kind in xq_core::PieceKind::ALL {
        outln!(
            "{:<10} {:>6}",
            format!("{kind:?}").to_lowercase(),
            b.placement[kind.index()]
        );
    }
    outln!("tempo      {:>6}", b.tempo);
    outln!("total      {:>6}  (Red's view)", b.total_red);
    outln!(
        "eval       {:>6}  ({} to move)",
        b.total,
        if pos.side_to_move() == xq_core::Color::Red {
            "Red"
        } else {
            "Black"
        }
    );
    Ok(0)
}
