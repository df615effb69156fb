//! `xq book`: builds an opening book from game files (`build`) and lists a position's
//! book moves (`show`). The book itself is `xq_book`'s.

use crate::convert::read_games;
use crate::PositionArgs;
use anyhow::{bail, Context, Result};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::Instant;
use xq_book::{Book, BookBuilder, BookMove, BuildOptions, Format};
use xq_core::Position;
use xq_movegen::notation::{write_move, Notation};
use xq_records::pgn::Encoding;

/// Build or read an opening book.
#[derive(clap::Args, Debug)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(clap::Subcommand, Debug)]
enum BookCommand {
    /// Build a book from game files (PGN or XQF) and directories of them.
    Build(BuildArgs),
    /// List the book's moves in a position, with their weights.
    Show(ShowArgs),
}

/// `xq book build`.
#[derive(clap::Args, Debug)]
struct BuildArgs {
    /// Game files (PGN in UTF-8 or GBK, or XQF) or directories (searched for `.pgn` and
    /// `.xqf` files, subdirectories too).
    #[arg(required = true, value_name = "GAMES")]
    inputs: Vec<PathBuf>,
    /// Where to write the book.
    #[arg(short, long, value_name = "BOOK")]
    output: PathBuf,
    /// Plies of each game taken, from its start.
    #[arg(long, default_value_t = BuildOptions::default().max_ply, value_name = "N")]
    max_ply: u16,
    /// Leave out moves played in fewer games.
    #[arg(long, default_value_t = BuildOptions::default().min_games, value_name = "N")]
    min_games: u16,
}

/// `xq book show`.
#[derive(clap::Args, Debug)]
struct ShowArgs {
    /// The book: xq's format or ElephantEye's BOOK.DAT.
    book: PathBuf,
    #[command(flatten)]
    position: PositionArgs,
    /// One JSON object: the book and the position's moves.
    #[arg(long)]
    json: bool,
}

/// Runs `xq book`; returns the exit code.
pub fn run(args: &BookArgs) -> Result<i32> {
    match &args.command {
        BookCommand::Build(a) => build(a),
        BookCommand::Show(a) => show(a),
    }
}

fn build(args: &BuildArgs) -> Result<i32> {
    let start = Instant::now();
    let mut files = Vec::new();
    for input in &args.inputs {
        files.extend(xq_records::files::game_files(input)?);
    }
    if files.is_empty() {
        bail!("no game files (.pgn, .xqf) in {}", args.inputs[0].display());
    }
    let mut builder = BookBuilder::new(BuildOptions {
        max_ply: args.max_ply,
        min_games: args.min_games,
    });
    let mut skipped = 0usize;
    for file in &files {
        // A file that cannot be read is skipped, and said so: a collection has some.
        let games = match read_games(file, Encoding::Auto) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("xq: skipping {}: {e:#}", file.display());
                skipped += 1;
                continue;
            }
        };
        for (i, g) in games.iter().enumerate() {
            if let Err(e) = builder.add_game(&g.start, &g.main_line(), g.result) {
                eprintln!("xq: skipping game {} of {}: {e}", i + 1, file.display());
                skipped += 1;
            }
        }
    }
    let games = builder.games();
    if games == 0 {
        bail!("no game could be read");
    }
    let book = builder.finish();
    book.save(&args.output)
        .with_context(|| "cannot write the book")?;
    let bytes = std::fs::metadata(&args.output).map_or(0, |m| m.len());
    outln!(
        "{}: {} games from {} files{}, {} positions, {} moves, {} bytes, {:.2} s",
        args.output.display(),
        games,
        files.len(),
        if skipped > 0 {
            format!(" ({skipped} skipped)")
        } else {
            String::new()
        },
        book.positions(),
        book.len(),
        bytes,
        start.elapsed().as_secs_f64()
    )?;
    Ok(0)
}

/// A move in Chinese notation, or in ICCS if it cannot be written.
fn chinese(pos: &Position, b: &BookMove) -> String {
    write_move(pos, b.mv, Notation::Chinese).unwrap_or_else(|_| b.mv.to_string())
}

/// The lines `xq analyze` and `xq book show` print for a position's book moves: one a
/// move, with its weight, its share and (from xq's books) its games.
pub fn lines(pos: &Position, moves: &[BookMove], format: Format) -> Vec<String> {
    let sum: u64 = moves
        .iter()
        .map(|b| u64::from(b.weight))
        .sum::<u64>()
        .max(1);
    moves
        .iter()
        .map(|b| {
            let share = 100.0 * f64::from(b.weight) / sum as f64;
            let games = match format {
                Format::Xq => format!(
                    "  {} games: +{} ={} -{}{}",
                    b.stats.games(),
                    b.stats.wins,
                    b.stats.draws,
                    b.stats.losses,
                    if b.stats.unfinished > 0 {
                        format!(" *{}", b.stats.unfinished)
                    } else {
                        String::new()
                    }
                ),
                Format::ElephantEye => String::new(),
            };
            format!(
                "{} {} weight {:>6} {:>5.1}%{games}",
                b.mv,
                chinese(pos, b),
                b.weight,
                share
            )
        })
        .collect()
}

/// A position's book moves as JSON.
pub fn moves_json(pos: &Position, moves: &[BookMove]) -> serde_json::Value {
    json!(moves
        .iter()
        .map(|b| json!({
            "move": b.mv.to_string(),
            "notation": chinese(pos, b),
            "weight": b.weight,
            "games": b.stats.games(),
            "wins": b.stats.wins,
            "draws": b.stats.draws,
            "losses": b.stats.losses,
            "unfinished": b.stats.unfinished,
        }))
        .collect::<Vec<_>>())
}

/// The book at `path`, or an error that names it.
pub fn open(path: &Path) -> Result<std::sync::Arc<Book>> {
    let disk = xq_search::engine::Disk;
    Ok(xq_search::engine::read_book(
        &disk,
        &path.to_string_lossy(),
    )?)
}

fn show(args: &ShowArgs) -> Result<i32> {
    let book = open(&args.book)?;
    let game = args.position.game().context("bad position")?;
    let pos = game.position();
    let moves = book.probe(pos);
    if args.json {
        let obj = json!({
            "format": book.format().to_string(),
            "positions": book.positions(),
            "records": book.len(),
            "games": book.info().games,
            "fen": pos.to_fen(),
            "moves": moves_json(pos, &moves),
        });
        outln!("{obj}")?;
        return Ok(0);
    }
    let info = book.info();
    let built = match book.format() {
        Format::Xq => format!(
            ", built from {} games (--max-ply {}, --min-games {})",
            info.games, info.max_ply, info.min_games
        ),
        Format::ElephantEye => String::new(),
    };
    outln!(
        "{}: {} book, {} positions, {} moves{built}",
        args.book.display(),
        book.format(),
        book.positions(),
        book.len()
    )?;
    outln!("{}", pos.to_fen())?;
    if moves.is_empty() {
        outln!("no book move")?;
    }
    for line in lines(pos, &moves, book.format()) {
        outln!("{line}")?;
    }
    Ok(0)
}
