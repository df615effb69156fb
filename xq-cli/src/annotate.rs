//! `xq annotate`: analyses every move of every game of a file and writes the games back
//! with the engine's opinion: a comment after each move (the score, the expected line,
//! and when the move was not the engine's choice, the best move and its line), a glyph
//! on inaccuracies, mistakes and blunders, and a summary per game.
//!
//! How a move is judged is `xq_analysis`'s (the analysis board's score graph judges
//! by the same code): every position of the main line is searched once, to the same
//! limit; the best score of a position is its own search, the score of the move played
//! the search of the position after it. One search per position serves twice (as "after"
//! for one move and "before" for the next), so a game of N moves costs N + 1 searches
//! instead of the 2N a separate search of the played move (MultiPV or `searchmoves`)
//! would, and both scores come from searches of the same limit at a root, not one of
//! them from inside the other's tree. The loss is in centipawns (scores clamped to
//! ±1000), or with `--by wdl` in the expected result by the win/draw/loss model.

use crate::convert::{read_games, EncodingArg, NotationArg};
use crate::{depth_within, hash_mib, positive, StdoutClosed};
use anyhow::{anyhow, Context, Result};
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;
use xq_analysis::{Class, Field, GameReport, Judge, Measure, MoveReport, Tally};
use xq_core::{Move, Position};
use xq_movegen::notation::Notation;
use xq_records::pgn::{self, WriteOptions};
use xq_records::Record;
use xq_search::engine::MAX_THREADS;
use xq_search::Limits;

/// The time per position when no limit is given.
pub const DEFAULT_MOVETIME_MS: u64 = 500;

/// What a move's loss is measured in (`xq_analysis::Measure`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum By {
    /// Centipawns, scores clamped to ±1000.
    Cp,
    /// The expected result by the win/draw/loss model, per mille.
    Wdl,
}

impl From<By> for Measure {
    fn from(by: By) -> Measure {
        match by {
            By::Cp => Measure::Cp,
            By::Wdl => Measure::Wdl,
        }
    }
}

/// Analyse every move of every game; write the games annotated.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("limit").args(["depth", "movetime", "nodes"])))]
pub struct AnnotateArgs {
    /// The game file: PGN (UTF-8 or GBK, one or more games) or XQF.
    pub input: PathBuf,
    /// Where to write the annotated PGN (or the JSON lines) (default: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Search each position for this many milliseconds (the default: 500).
    #[arg(long, value_name = "MS", value_parser = positive)]
    pub movetime: Option<u64>,
    /// Search each position to this depth (1 to 124).
    #[arg(long, value_parser = depth_within(1..=xq_search::MAX_DEPTH))]
    pub depth: Option<u32>,
    /// Search each position for about this many nodes.
    #[arg(long, value_parser = positive)]
    pub nodes: Option<u64>,
    /// Games analysed at once, each on its own thread with its own table.
    #[arg(long, default_value_t = 1, value_name = "N",
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_THREADS as u64))]
    pub threads: usize,
    /// Transposition table size per thread, MiB.
    #[arg(long, default_value_t = 16, value_name = "MB", value_parser = hash_mib())]
    pub hash: usize,
    /// The notation of the moves written (the games' moves and the engine's lines).
    #[arg(long, value_enum, default_value = "chinese")]
    pub notation: NotationArg,
    /// Write one JSON object per move (and one summary per game) instead of PGN.
    #[arg(long)]
    pub json: bool,
    /// Also write a score graph per game, as SVG, into this directory.
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,
    /// The encoding of a PGN input (an XQF file is always GBK).
    #[arg(long, value_enum, default_value = "auto")]
    pub input_encoding: EncodingArg,
    /// What a move's loss is measured in: centipawns (`cp`), or the expected result by
    /// the win/draw/loss model (`wdl`), which judges won and lost positions' moves by
    /// what they change in the result.
    #[arg(long, value_enum, default_value = "cp")]
    pub by: By,
    /// Endgame tables (a directory of `xq tb gen`): a position in them is valued exactly
    /// (a won ending thrown away to a draw is a blunder).
    #[arg(long, value_name = "DIR")]
    pub tablebases: Option<PathBuf>,
}

fn tally_json(t: &Tally) -> serde_json::Value {
    json!({ "moves": t.moves, "average_loss": t.average(), "inaccuracies": t.count(Class::Inaccuracy),
            "mistakes": t.count(Class::Mistake), "blunders": t.count(Class::Blunder) })
}

/// The search limit of every position, and its description.
fn limits(args: &AnnotateArgs) -> (Limits, String) {
    if let Some(d) = args.depth {
        (Limits::depth(d), format!("depth {d}"))
    } else if let Some(n) = args.nodes {
        (Limits::nodes(n), format!("nodes {n}"))
    } else {
        let ms = args.movetime.unwrap_or(DEFAULT_MOVETIME_MS);
        (
            Limits::movetime(Duration::from_millis(ms)),
            format!("movetime {ms} ms"),
        )
    }
}

fn mv_json(r: &MoveReport, game: usize, ply: usize, notation: Notation) -> serde_json::Value {
    let mut obj = serde_json::Map::new();
    obj.insert("type".into(), json!("move"));
    obj.insert("game".into(), json!(game));
    obj.insert("ply".into(), json!(ply));
    for (name, field) in r.fields(notation) {
        let value = match field {
            Field::Int(n) => json!(n),
            Field::Text(t) => json!(t),
            Field::None => serde_json::Value::Null,
            Field::Moves(pv) => json!(pv.iter().map(|m| m.to_string()).collect::<Vec<_>>()),
            Field::Chances(w) => json!(w),
        };
        obj.insert(name.into(), value);
    }
    serde_json::Value::Object(obj)
}

/// The games analysed (`xq_analysis::Judge`), in file order, `threads` at a time, with a
/// progress bar on a terminal.
fn analyse_all(games: &[Record], args: &AnnotateArgs, limits: &Limits) -> Result<Vec<GameReport>> {
    let total: usize = games.iter().map(|g| g.main.nodes.len() + 1).sum();
    let bar = crate::progress_bar(
        total as u64,
        "{bar:40} {pos}/{len} positions {elapsed} (eta {eta})",
    );
    let lines: Vec<(Position, Vec<Move>)> = games
        .iter()
        .map(|g| (g.start.clone(), g.main_line()))
        .collect();
    let judge = Judge::new(args.by.into());
    let tablebases = crate::open_tablebases(args.tablebases.as_deref())?;
    let tick = || bar.inc(1);
    let (threads, hash) = (args.threads, args.hash);
    let analyses = judge.analyse_all(&lines, threads, hash, tablebases.as_ref(), limits, &tick)?;
    bar.finish_and_clear();
    games
        .iter()
        .zip(analyses)
        .enumerate()
        .map(|(i, (record, a))| {
            a.map(|a| GameReport::new(&record.start, &record.main_line(), judge.measure, a))
                .map_err(|e| anyhow!("{}: game {}: {e}", args.input.display(), i + 1))
        })
        .collect()
}

/// Writes `bytes` to the output file or standard output.
fn emit(output: Option<&Path>, bytes: &[u8]) -> Result<()> {
    match output {
        Some(path) => {
            std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
        }
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(bytes)
                .and_then(|_| out.flush())
                .map_err(|_| anyhow::Error::new(StdoutClosed))
        }
    }
}

pub fn run(args: &AnnotateArgs) -> Result<i32> {
    // Say now if the system will not give a table of this size.
    drop(xq_search::tt::TranspositionTable::try_new(args.hash)?);
    let mut games = read_games(&args.input, args.input_encoding.into())?;
    let (limits, limit) = limits(args);
    let notation: Notation = args.notation.into();
    let reports = analyse_all(&games, args, &limits)?;
    if let Some(dir) = &args.svg {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let stem = args
            .input
            .file_stem()
            .map_or("game".into(), |s| s.to_string_lossy().into_owned());
        for (i, (record, report)) in games.iter().zip(&reports).enumerate() {
            let path = dir.join(format!("{stem}-{}.svg", i + 1));
            let title = format!(
                "{} - {}",
                record.tag("Red").unwrap_or("Red"),
                record.tag("Black").unwrap_or("Black")
            );
            let text = report.svg_graph(&title);
            std::fs::write(&path, text)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
    }
    let bytes = if args.json {
        let mut out = String::new();
        for (g, report) in reports.iter().enumerate() {
            for (i, r) in report.moves.iter().enumerate() {
                out.push_str(&mv_json(r, g + 1, i + 1, notation).to_string());
                out.push('\n');
            }
            let sum = json!({
                "type": "summary",
                "game": g + 1,
                "limit": limit,
                "by": Measure::from(args.by).name(),
                "red": tally_json(&report.red),
                "black": tally_json(&report.black),
            });
            out.push_str(&sum.to_string());
            out.push('\n');
        }
        out.into_bytes()
    } else {
        for (record, report) in games.iter_mut().zip(&reports) {
            report.annotate(record, notation, &limit, xq_protocol::NAME);
        }
        pgn::write_all(&games, &WriteOptions { notation })
            .map_err(|e| anyhow!("{}: cannot write {e}", args.input.display()))?
            .into_bytes()
    };
    emit(args.output.as_deref(), &bytes)?;
    Ok(0)
}
