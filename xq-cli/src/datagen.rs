//! `xq datagen`: self-play games that give positions to train on, written to a file or
//! standard output. The games are `xq_train::selfplay`'s (how they are played, the win
//! adjudication, why they are the same for any `--threads`); this is the arguments, the
//! output and the progress bar. With `--openings FILE` the games start from the file's
//! openings in turn (read as `xq match` reads them, EPD or PGN), else from the start.
//!
//! Two formats. `--format text` (the default) writes the quiet positions of each game
//! with the search's score and the game's result (`xq_train::text`, `FEN | score |
//! result`, both from Red's point of view): not in check, the best move not a capture,
//! the score not a mate, not a random opening ply. `--format binary` writes whole games
//! in the compact form of `xq_train::binary` (about four bytes a position); the reader
//! (`xq train`, `xq tune`, `xq tune-wdl`) takes the same positions from them.

use crate::StdoutClosed;
use anyhow::{Context, Result};
use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Instant;
use xq_match::openings::{arrange, is_pgn, Order};
use xq_movegen::GameResult;
use xq_train::binary::Writer;
use xq_train::selfplay::{generate_each, Settings};
use xq_train::text::{format_sample, samples};

/// How the games are written.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `FEN | score | result` lines of quiet positions, for `xq tune` (and `xq train`).
    Text,
    /// Whole games in xq's binary self-play format, for `xq train`.
    Binary,
}

/// Play self-play games and write their positions for `xq tune` and `xq train`.
#[derive(clap::Args, Debug, Clone)]
pub struct DatagenArgs {
    /// Number of games.
    #[arg(long, value_name = "N")]
    games: u64,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000, value_name = "N")]
    nodes: u64,
    /// Random legal plies played at the start of each game (after the opening, if any).
    #[arg(long, default_value_t = 8, value_name = "K")]
    random_plies: usize,
    /// Seed of the random plies (the same seed gives the same games).
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_name = "T", value_parser = threads())]
    threads: usize,
    /// Output file (default: standard output).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// A game still going after this many plies is a draw.
    #[arg(long, default_value_t = 400, value_name = "PLIES")]
    max_plies: usize,
    /// Win adjudication threshold in centipawns (0: off).
    #[arg(long, default_value_t = 1500, value_name = "CP")]
    resign: i32,
    /// Transposition table size in MiB for each game (1 to 2048).
    #[arg(long, default_value_t = 16, value_name = "MB", value_parser = crate::hash_mib())]
    hash: usize,
    /// The output's form.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Openings to start from, in turn: EPD (`startpos moves ...`, a FEN and moves) or PGN.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// The opening the first game starts from, counted from 1 (`xq match -openings start=N`).
    #[arg(long, value_name = "N", requires = "openings", default_value_t = 1)]
    openings_start: usize,
    #[command(flatten)]
    net: crate::NetArgs,
}

fn threads() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(1..=256)
}

/// Where the data lines go.
enum Out {
    Stdout(std::io::Stdout),
    File(BufWriter<File>, PathBuf),
}

impl Out {
    fn line(&mut self, text: &str) -> Result<()> {
        self.bytes(format!("{text}\n").as_bytes())
    }

    fn bytes(&mut self, bytes: &[u8]) -> Result<()> {
        match self {
            Out::Stdout(s) => s.lock().write_all(bytes).map_err(|_| StdoutClosed.into()),
            Out::File(w, path) => w
                .write_all(bytes)
                .with_context(|| format!("cannot write {}", path.display())),
        }
    }

    fn finish(&mut self) -> Result<()> {
        match self {
            Out::Stdout(s) => s.flush().map_err(|_| StdoutClosed.into()),
            Out::File(w, path) => w
                .flush()
                .with_context(|| format!("cannot write {}", path.display())),
        }
    }
}

/// Runs the games; returns the exit code.
pub fn run(args: &DatagenArgs) -> Result<i32> {
    let start = Instant::now();
    let mut settings = Settings {
        nodes: args.nodes,
        random_plies: args.random_plies,
        max_plies: args.max_plies,
        resign: args.resign,
        hash_mib: args.hash,
        network: None,
        openings: Vec::new(),
    };
    if let Some(path) = &args.openings {
        anyhow::ensure!(args.openings_start > 0, "--openings-start counts from 1");
        let openings = xq_match::openings::read(path, is_pgn(path), None)?;
        let openings = arrange(openings, Order::Sequential, 0, args.openings_start);
        settings.openings = openings.iter().map(|o| o.game()).collect();
    }
    // Whether the system gives each game its table, before a network file is read.
    settings.check(args.threads)?;
    settings.network = args.net.network()?;
    if args.format == Format::Binary && args.output.is_none() && std::io::stdout().is_terminal() {
        anyhow::bail!("binary data is not for a terminal: give a file with -o FILE");
    }
    let mut out = match &args.output {
        Some(path) => Out::File(
            BufWriter::new(
                File::create(path).with_context(|| format!("cannot create {}", path.display()))?,
            ),
            path.clone(),
        ),
        None => Out::Stdout(std::io::stdout()),
    };
    if args.format == Format::Binary {
        out.bytes(&Writer::header())?;
    }
    let bar = crate::progress_bar(
        args.games,
        "{bar:40} {pos}/{len} games, {msg} positions {elapsed} (eta {eta})",
    );
    let (mut positions, mut results) = (0usize, [0u64; 3]);
    let mut failed = None;
    generate_each(&settings, args.seed, args.games, args.threads, |_, game| {
        // The positions written: the quiet ones as text, every ply in binary.
        let written = match args.format {
            Format::Text => samples(&game).try_fold(0, |n, s| {
                out.line(&format_sample(&s.pos, s.score, s.result))
                    .map(|()| n + 1)
            }),
            Format::Binary => Writer::game_bytes(&game)
                .map_err(anyhow::Error::from)
                .and_then(|bytes| out.bytes(&bytes))
                .map(|()| game.plies.len()),
        };
        match written {
            Ok(n) => positions += n,
            Err(e) => {
                failed = Some(e);
                return ControlFlow::Break(());
            }
        }
        results[match game.result {
            GameResult::RedWins => 0,
            GameResult::Draw => 1,
            GameResult::BlackWins => 2,
        }] += 1;
        bar.inc(1);
        bar.set_message(positions.to_string());
        ControlFlow::Continue(())
    })?;
    if let Some(e) = failed {
        return Err(e);
    }
    out.finish()?;
    bar.finish_and_clear();
    let summary = format!(
        "{} games, {positions} positions; Red won {}, drew {}, lost {}; {:.1} s",
        args.games,
        results[0],
        results[1],
        results[2],
        start.elapsed().as_secs_f64()
    );
    if args.output.is_some() {
        outln!("{summary}")?;
    } else {
        eprintln!("{summary}");
    }
    Ok(0)
}
