//! `xq analyze`: search one position and explain the result.

use crate::board::diagram;
use crate::{depth_within, hash_mib, positive, NetArgs, PositionArgs, StdoutClosed};
use anyhow::{Context, Result};
use serde_json::json;
use std::time::Duration;
use xq_core::{Ignore, Move, Position};
use xq_movegen::notation::{write_line, Notation};
use xq_search::engine::DEFAULT_HASH_MIB;
use xq_search::engine::{Engine, Options, SearchEngine, MAX_MULTIPV, MAX_THREADS};
use xq_search::{Info, Limits, Score, SearchResult};
use xq_tablebase::TableValue;

/// Analyse a position.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("limit").args(["depth", "movetime", "nodes"])))]
pub struct AnalyzeArgs {
    #[command(flatten)]
    position: PositionArgs,
    #[command(flatten)]
    net: NetArgs,
    /// Search to this depth (1 to 124).
    #[arg(long, value_parser = depth_within(1..=xq_search::MAX_DEPTH))]
    depth: Option<u32>,
    /// Search for this many milliseconds (the default is 3000 when no limit is given).
    #[arg(long, value_name = "MS", value_parser = positive)]
    movetime: Option<u64>,
    /// Search about this many nodes.
    #[arg(long, value_parser = positive)]
    nodes: Option<u64>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = DEFAULT_HASH_MIB, value_name = "MB", value_parser = hash_mib())]
    hash: usize,
    /// Report the best N moves, each with its own line (1 to 16).
    #[arg(long, default_value_t = 1, value_name = "N",
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_MULTIPV as u64))]
    multipv: usize,
    /// Search threads (Lazy SMP, 1 to 1024).
    #[arg(long, default_value_t = 1, value_name = "N",
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_THREADS as u64))]
    threads: usize,
    /// Draw the board with Chinese piece characters.
    #[arg(long)]
    unicode: bool,
    /// Write lines in WXF notation (C2=5 H8+7) instead of Chinese (炮二平五 马8进7).
    #[arg(long)]
    wxf: bool,
    /// One JSON object per line: one per iteration, then the result.
    #[arg(long)]
    json: bool,
    /// An opening book (xq's or ElephantEye's): its moves in the position are listed
    /// before the search.
    #[arg(long, value_name = "FILE")]
    book: Option<std::path::PathBuf>,
    /// Endgame tables (a directory of `xq tb gen`): the search uses them, and a position
    /// in them is reported first ("tablebase win, mate in N").
    #[arg(long, value_name = "DIR")]
    tablebases: Option<std::path::PathBuf>,
}

fn tablebase_json(v: TableValue, clock: u32) -> serde_json::Value {
    json!({ "wdl": v.result().to_string(), "mate": v.mate(), "plies": v.plies(),
            "beyond_rule": v.beyond_rule(clock), "by_rule": v.by_rule(), "rule": v.rule().map(|r| r.tag()) })
}

fn score_json(s: Score) -> serde_json::Value {
    match s {
        Score::Cp(v) => json!({ "cp": v }),
        Score::Mate(n) => json!({ "mate": n }),
    }
}

/// The chances of a score, per mille: `[win, draw, loss]` for the side to move.
fn wdl_json(s: Score, material: u32) -> serde_json::Value {
    let w = xq_search::wdl::MODEL.wdl(s, material);
    json!([w.win, w.draw, w.loss])
}

/// The chances of a score as the text columns write them: `win/draw/loss` per mille.
fn wdl_text(s: Score, material: u32) -> String {
    let w = xq_search::wdl::MODEL.wdl(s, material);
    format!("{}/{}/{}", w.win, w.draw, w.loss)
}

fn notation(pos: &Position, line: &[Move], notation: Notation) -> Vec<String> {
    write_line(pos, line, notation).unwrap_or_default()
}

/// The search limit the arguments ask for: 3 seconds when none is given.
fn limits(args: &AnalyzeArgs) -> Limits {
    match (args.depth, args.movetime, args.nodes) {
        (Some(d), _, _) => Limits::depth(d),
        (_, Some(ms), _) => Limits::movetime(Duration::from_millis(ms)),
        (_, _, Some(n)) => Limits::nodes(n),
        _ => Limits::movetime(Duration::from_millis(3000)),
    }
}

/// What a line of the search says, in JSON: an iteration (`info`) or the answer
/// (`bestmove`) share these fields.
fn line_json(kind: &str, r: &SearchResult, pos: &Position, style: Notation) -> serde_json::Value {
    let material = xq_search::wdl::material(pos);
    json!({
        "type": kind,
        "depth": r.depth,
        "seldepth": r.seldepth,
        "score": score_json(r.score),
        "wdl": wdl_json(r.score, material),
        "nodes": r.nodes,
        "time_ms": r.time.as_millis() as u64,
        "pv": r.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "pv_notation": notation(pos, &r.pv, style),
    })
}

/// An iteration's line as a result, for [`line_json`].
fn as_result(info: &Info) -> SearchResult {
    SearchResult {
        best_move: info.pv.first().copied(),
        score: info.score,
        value: info.value,
        depth: info.depth,
        seldepth: info.seldepth,
        nodes: info.nodes,
        time: info.time,
        pv: info.pv.clone(),
        ..SearchResult::default()
    }
}

/// An iteration as the text columns write it.
fn info_text(info: &Info, pos: &Position, style: Notation, multipv: usize) -> String {
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    let multi = if info.multipv > 1 || multipv > 1 {
        format!("#{} ", info.multipv)
    } else {
        String::new()
    };
    format!(
        "{:>2}/{:<2} {:>10} {:>11} {:>11} {:>8} {:>7.2}s {:>4}‰  {multi}{}  ({})",
        info.depth,
        info.seldepth,
        info.score.to_string(),
        wdl_text(info.score, xq_search::wdl::material(pos)),
        info.nodes,
        info.nps() / 1000,
        info.time.as_secs_f64(),
        info.hashfull,
        pv.join(" "),
        notation(pos, &info.pv, style).join(" ")
    )
}

/// The answer as the text ends with it.
fn result_text(result: &SearchResult, pos: &Position, style: Notation) -> String {
    let Some(m) = result.best_move else {
        let side = match pos.side_to_move() {
            xq_core::Color::Red => "Red",
            xq_core::Color::Black => "Black",
        };
        let how = if pos.is_check() {
            "checkmate"
        } else {
            "stalemate"
        };
        return format!("no legal move: {side} has lost ({how})");
    };
    format!(
        "bestmove {m} ({}) score {} wdl {} depth {} nodes {} time {:.2}s{}",
        notation(pos, &[m], style).join(""),
        result.score,
        wdl_text(result.score, xq_search::wdl::material(pos)),
        result.depth,
        result.nodes,
        result.time.as_secs_f64(),
        result
            .ponder
            .map(|p| format!(" ponder {p}"))
            .unwrap_or_default()
    )
}

/// The book's moves in the position, before the search.
fn print_book(path: &std::path::Path, pos: &Position, json: bool) -> Result<()> {
    let book = crate::book::open(path)?;
    let moves = book.probe(pos);
    if json {
        let obj = json!({ "type": "book", "moves": crate::book::moves_json(pos, &moves) });
        outln!("{obj}")?;
    } else {
        outln!("book: {} moves", moves.len())?;
        for line in crate::book::lines(pos, &moves, book.format()) {
            outln!("  {line}")?;
        }
    }
    Ok(())
}

/// Runs the analysis; returns the exit code.
///
/// A composed position no game can reach but that can be played (a soldier behind its
/// start, say) is analysed, with a warning on stderr for each unusual piece, and in
/// the `warnings` field of the JSON result.
pub fn run(args: &AnalyzeArgs) -> Result<i32> {
    let game = args
        .position
        .game_with(Ignore::PLAYABLE)
        .context("bad position")?;
    let warnings: Vec<String> = game
        .start()
        .irregularities()
        .iter()
        .map(|e| format!("unusual position: {e} in a game"))
        .collect();
    for w in &warnings {
        eprintln!("xq: warning: {w}; analysing it as given");
    }
    let pos = game.position().clone();
    let style = if args.wxf {
        Notation::Wxf
    } else {
        Notation::Chinese
    };
    let mut engine = Engine::try_new(Options {
        hash_mib: args.hash,
        threads: args.threads,
        multipv: args.multipv,
        move_overhead: Duration::ZERO,
        network: args.net.network()?,
        ..Options::default()
    })?;
    engine.set_game(game);
    if let Some(dir) = &args.tablebases {
        engine.load_tablebases(&dir.to_string_lossy())?;
    }
    if let Some(path) = &args.book {
        print_book(path, &pos, args.json)?;
    }
    let table_value = match engine.core().tablebases() {
        Some(tb) => tb.probe_dtm(&pos)?,
        None => None,
    };
    let clock = pos.halfmove_clock();
    let json = args.json;
    if json {
        if let Some(v) = table_value {
            let mut obj = tablebase_json(v, clock);
            obj["type"] = json!("tablebase");
            outln!("{obj}")?;
        }
    } else {
        outln!("{}", diagram(&pos, args.unicode))?;
        if let Some(v) = table_value {
            outln!("{}", v.describe(clock))?;
        }
        outln!(
            "{:>5} {:>10} {:>11} {:>11} {:>8} {:>8} {:>5}  pv",
            "depth",
            "score",
            "w/d/l ‰",
            "nodes",
            "knps",
            "time",
            "hash"
        )?;
    }
    // A failed write means nobody reads any more: stop the search, say nothing more.
    let mut closed = false;
    let report = |info: &Info| {
        if closed {
            return false;
        }
        let written = if json {
            let mut obj = line_json("info", &as_result(info), &pos, style);
            obj["multipv"] = json!(info.multipv);
            obj["nps"] = json!(info.nps());
            obj["hashfull"] = json!(info.hashfull);
            outln!("{obj}")
        } else {
            outln!("{}", info_text(info, &pos, style, args.multipv))
        };
        closed = written.is_err();
        !closed
    };
    let result = engine.search(limits(args), report);
    if closed {
        return Err(StdoutClosed.into());
    }
    if json {
        let mut obj = line_json("bestmove", &result, &pos, style);
        obj["bestmove"] = json!(result.best_move.map(|m| m.to_string()));
        obj["ponder"] = json!(result.ponder.map(|m| m.to_string()));
        obj["warnings"] = json!(warnings);
        obj["tablebase"] = json!(table_value.map(|v| tablebase_json(v, clock)));
        outln!("{obj}")?;
    } else {
        outln!("{}", result_text(&result, &pos, style))?;
    }
    Ok(0)
}
