//! `xq annotate`: analyses every move of every game of a file and writes the games back
//! with the engine's opinion: a comment after each move (the score, the expected line,
//! and when the move was not the engine's choice, the best move and its line), a glyph
//! on inaccuracies, mistakes and blunders, and a summary per game.
//!
//! How a move is judged: every position of the main line is searched once, to the same
//! limit. The best score of a position is its own search; the score of the move played
//! is the search of the position after it, negated. One search per position serves
//! twice (as "after" for one move and "before" for the next), so a game of N moves
//! costs N + 1 searches instead of the 2N a separate search of the played move (MultiPV
//! or `searchmoves`) would, and both scores come from searches of the same limit at a
//! root, not one of them from inside the other's tree.
//!
//! The loss of a move is best minus played, from the mover's point of view, with both
//! scores first clamped to +-[`CAP`] centipawns (a mate counts as the cap): a side
//! already more than a chariot up loses nothing by winning more slowly. A move that is
//! the engine's best loses 0; a move that searches better than the best (the deeper
//! root search of the position after it) loses 0 too. Classes by loss:
//! [`INACCURACY`] cp (`?!`, NAG 6), [`MISTAKE`] cp (`?`, NAG 2), [`BLUNDER`] cp (`??`,
//! NAG 4); on this scale a soldier is 60-200, a horse about 400, a chariot 900.
//!
//! With `--by wdl` the loss is in the expected result instead: each score is turned into
//! the chances of a win, a draw and a loss by the model of `xq_search::wdl` (at the
//! material of the position it belongs to), and the loss is the mover's expected result
//! (a win 1000, a draw 500 per mille) after the best move minus after the move played.
//! Losses of [`WDL_INACCURACY`], [`WDL_MISTAKE`] and [`WDL_BLUNDER`] per mille are an
//! inaccuracy, a mistake and a blunder (5, 10 and 15 points of expected result, as the
//! win-chance thresholds of Lichess). A move that throws away a chariot in a position
//! already lost, or already won twice over, then costs little, and the same centipawns
//! cost most where the game is in the balance. No clamping is needed: a mate is a
//! certain result.

use crate::convert::{read_games, EncodingArg, NotationArg};
use crate::{hash_mib, StdoutClosed};
use anyhow::{anyhow, Context, Result};
use serde_json::json;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;
use xq_core::{Color, Move, Position};
use xq_movegen::notation::{write_move, Notation};
use xq_movegen::Game;
use xq_records::pgn::{self, WriteOptions};
use xq_records::Record;
use xq_search::engine::MAX_THREADS;
use xq_search::score::{MATE, MATE_BOUND};
use xq_search::wdl::{Wdl, WdlModel, MODEL};
use xq_search::{Limits, Score, Searcher};

/// Scores are clamped to this (centipawns) before losses are taken.
pub const CAP: i32 = 1000;
/// A loss of at least this many centipawns is an inaccuracy.
pub const INACCURACY: i32 = 50;
/// A loss of at least this many centipawns is a mistake.
pub const MISTAKE: i32 = 100;
/// A loss of at least this many centipawns is a blunder.
pub const BLUNDER: i32 = 200;
/// The time per position when no limit is given.
pub const DEFAULT_MOVETIME_MS: u64 = 500;
/// With `--by wdl`, a loss of at least this much expected result (per mille) is an
/// inaccuracy.
pub const WDL_INACCURACY: i32 = 50;
/// With `--by wdl`, a loss of at least this much is a mistake.
pub const WDL_MISTAKE: i32 = 100;
/// With `--by wdl`, a loss of at least this much is a blunder.
pub const WDL_BLUNDER: i32 = 150;

/// What a move's loss is measured in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum By {
    /// Centipawns, scores clamped to +-[`CAP`].
    Cp,
    /// The expected result by the win/draw/loss model, per mille.
    Wdl,
}

impl By {
    /// The least losses of an inaccuracy, a mistake and a blunder.
    fn thresholds(self) -> [i32; 3] {
        match self {
            By::Cp => [INACCURACY, MISTAKE, BLUNDER],
            By::Wdl => [WDL_INACCURACY, WDL_MISTAKE, WDL_BLUNDER],
        }
    }

    fn name(self) -> &'static str {
        match self {
            By::Cp => "cp",
            By::Wdl => "wdl",
        }
    }
}

/// The chances of a search value (from its side's view) at `material`. A mate given is a
/// win, whatever its distance (`Score::from_value` calls a mate already on the board
/// `Mate(0)` for either side).
fn chances(model: &WdlModel, value: i32, material: u32) -> Wdl {
    if value >= MATE_BOUND {
        Wdl {
            win: 1000,
            draw: 0,
            loss: 0,
        }
    } else {
        model.wdl(Score::from_value(value), material)
    }
}

/// The loss of a move: `best` is the search value of the position before it (from the
/// mover's side, with `material` before), `played` the value after it from the mover's
/// side (with `material_after`), by `by`'s measure and `model`'s chances.
fn loss_of(
    by: By,
    model: &WdlModel,
    (best, material): (i32, u32),
    (played, material_after): (i32, u32),
) -> i32 {
    let lost = match by {
        By::Cp => clamped(best) - clamped(played),
        By::Wdl => {
            let expected = |v: i32, m: u32| chances(model, v, m).expected() as i32;
            expected(best, material) - expected(played, material_after)
        }
    };
    lost.max(0)
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
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Search each position to this depth.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Search each position for about this many nodes.
    #[arg(long)]
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
}

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// A loss of [`INACCURACY`] to [`MISTAKE`].
    Inaccuracy,
    /// A loss of [`MISTAKE`] to [`BLUNDER`].
    Mistake,
    /// A loss of [`BLUNDER`] or more.
    Blunder,
}

impl Class {
    /// The class of a loss measured `by`, if any.
    fn of(loss: i32, by: By) -> Option<Class> {
        let [inaccuracy, mistake, blunder] = by.thresholds();
        match loss {
            l if l >= blunder => Some(Class::Blunder),
            l if l >= mistake => Some(Class::Mistake),
            l if l >= inaccuracy => Some(Class::Inaccuracy),
            _ => None,
        }
    }

    /// The numeric annotation glyph: 6 (`?!`), 2 (`?`), 4 (`??`).
    fn nag(self) -> u8 {
        match self {
            Class::Inaccuracy => 6,
            Class::Mistake => 2,
            Class::Blunder => 4,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Class::Inaccuracy => "Inaccuracy",
            Class::Mistake => "Mistake",
            Class::Blunder => "Blunder",
        }
    }
}

/// One position's search: the value from the side to move's point of view and the line.
#[derive(Clone, Debug)]
struct Searched {
    value: i32,
    depth: u32,
    pv: Vec<Move>,
}

/// The verdict on one move.
#[derive(Clone, Debug)]
struct MoveReport {
    /// The position before the move.
    before: Position,
    mover: Color,
    played: Move,
    /// The search before the move (its line starts with the best move).
    best: Searched,
    /// The search after the move (its line is the expected continuation).
    after: Searched,
    /// From the mover's point of view: centipawns after clamping, or the expected
    /// result per mille (`--by wdl`).
    loss: i32,
    /// The chances after the best move and after the move played, mover's view.
    best_wdl: Wdl,
    played_wdl: Wdl,
    class: Option<Class>,
}

impl MoveReport {
    fn best_move(&self) -> Option<Move> {
        self.best.pv.first().copied()
    }

    fn is_best(&self) -> bool {
        self.best_move() == Some(self.played)
    }
}

/// A side's totals.
#[derive(Clone, Copy, Debug, Default)]
struct SideSummary {
    moves: usize,
    loss: i64,
    counts: [usize; 3],
}

impl SideSummary {
    fn add(&mut self, r: &MoveReport) {
        self.moves += 1;
        self.loss += i64::from(r.loss);
        if let Some(c) = r.class {
            self.counts[c as usize] += 1;
        }
    }

    /// Average loss per move, centipawns, rounded.
    fn average(&self) -> i64 {
        if self.moves == 0 {
            0
        } else {
            (self.loss + self.moves as i64 / 2) / self.moves as i64
        }
    }

    fn text(&self, by: By) -> String {
        let n = |count: usize, one: &str, many: &str| {
            format!("{count} {}", if count == 1 { one } else { many })
        };
        let unit = match by {
            By::Cp => " cp",
            By::Wdl => "‰ of the result",
        };
        format!(
            "average loss {}{unit}, {}, {}, {}",
            self.average(),
            n(self.counts[0], "inaccuracy", "inaccuracies"),
            n(self.counts[1], "mistake", "mistakes"),
            n(self.counts[2], "blunder", "blunders")
        )
    }

    fn json(&self) -> serde_json::Value {
        json!({
            "moves": self.moves,
            "average_loss": self.average(),
            "inaccuracies": self.counts[0],
            "mistakes": self.counts[1],
            "blunders": self.counts[2],
        })
    }
}

/// A game's analysis.
#[derive(Debug)]
struct GameReport {
    moves: Vec<MoveReport>,
    /// The search of every position of the main line, the last one included.
    searched: Vec<Searched>,
    /// The start position of every searched position's side to move.
    sides: Vec<Color>,
    red: SideSummary,
    black: SideSummary,
}

/// A value clamped for losses: mates count as [`CAP`].
fn clamped(v: i32) -> i32 {
    v.clamp(-CAP, CAP)
}

/// A value from Red's point of view, given the side it is from.
fn for_red(v: i32, side: Color) -> i32 {
    if side == Color::Red {
        v
    } else {
        -v
    }
}

/// A score as the comments write it, from Red's point of view: `+0.35`, `-1.20`, `0.00`,
/// `#3` (Red mates in 3), `#-2` (Black mates in 2); a mate on the board is `#0` (Red has
/// mated) or `#-0`.
fn score_text(red_value: i32) -> String {
    if red_value.abs() >= MATE_BOUND {
        let moves = (MATE - red_value.abs() + 1) / 2;
        let sign = if red_value > 0 { "" } else { "-" };
        format!("#{sign}{moves}")
    } else {
        let sign = if red_value > 0 {
            "+"
        } else if red_value < 0 {
            "-"
        } else {
            ""
        };
        let v = red_value.abs();
        format!("{sign}{}.{:02}", v / 100, v % 100)
    }
}

/// A line in `notation`, from `pos`.
fn line_text(pos: &Position, line: &[Move], notation: Notation) -> Vec<String> {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for &m in line {
        match write_move(&pos, m, notation) {
            Ok(t) => out.push(t),
            Err(_) => break,
        }
        pos.make_move(m);
    }
    out
}

fn move_text(pos: &Position, m: Move, notation: Notation) -> String {
    write_move(pos, m, notation).unwrap_or_else(|_| m.to_string())
}

/// The search limit of every position, and its description.
fn limits(args: &AnnotateArgs) -> (Limits, String) {
    if let Some(d) = args.depth {
        (Limits::depth(d.max(1)), format!("depth {}", d.max(1)))
    } else if let Some(n) = args.nodes {
        (Limits::nodes(n.max(1)), format!("nodes {}", n.max(1)))
    } else {
        let ms = args.movetime.unwrap_or(DEFAULT_MOVETIME_MS).max(1);
        (
            Limits::movetime(Duration::from_millis(ms)),
            format!("movetime {ms} ms"),
        )
    }
}

/// Searches every position of `record`'s main line and judges every move.
fn analyse(
    record: &Record,
    searcher: &mut Searcher,
    limits: &Limits,
    by: By,
    tick: &dyn Fn(),
) -> GameReport {
    searcher.new_game();
    let stop = AtomicBool::new(false);
    let mut game = Game::new(record.start.clone());
    let mut searched = Vec::new();
    let mut sides = Vec::new();
    let moves = record.main_line();
    for i in 0..=moves.len() {
        let r = searcher.search(&game, limits, &stop, |_| {});
        searched.push(Searched {
            value: r.value,
            depth: r.depth,
            pv: r.pv,
        });
        sides.push(game.position().side_to_move());
        tick();
        if let Some(&m) = moves.get(i) {
            // The readers only produce games whose moves are legal.
            let _ = game.play(m);
        }
    }
    let mut reports = Vec::new();
    let (mut red, mut black) = (SideSummary::default(), SideSummary::default());
    let mut pos = record.start.clone();
    for (i, &m) in moves.iter().enumerate() {
        let best = searched[i].clone();
        let after = searched[i + 1].clone();
        let mover = pos.side_to_move();
        let is_best = best.pv.first() == Some(&m);
        let material = xq_search::wdl::material(&pos);
        let mut next = pos.clone();
        next.make_move(m);
        let material_after = xq_search::wdl::material(&next);
        let loss = if is_best {
            0
        } else {
            loss_of(
                by,
                &MODEL,
                (best.value, material),
                (-after.value, material_after),
            )
        };
        let report = MoveReport {
            before: pos.clone(),
            mover,
            played: m,
            best_wdl: chances(&MODEL, best.value, material),
            played_wdl: chances(&MODEL, -after.value, material_after),
            best,
            after,
            loss,
            class: Class::of(loss, by),
        };
        match mover {
            Color::Red => red.add(&report),
            Color::Black => black.add(&report),
        }
        reports.push(report);
        pos.make_move(m);
    }
    GameReport {
        moves: reports,
        searched,
        sides,
        red,
        black,
    }
}

/// A loss as the comments write it: pawns (`-1.20`), or points of expected result
/// (`-12.5%`).
fn loss_text(loss: i32, by: By) -> String {
    match by {
        By::Cp => format!("-{}", score_text(loss).trim_start_matches('+')),
        By::Wdl => format!("-{:.1}%", f64::from(loss) / 10.0),
    }
}

/// The comment after a move.
fn comment(r: &MoveReport, notation: Notation, by: By) -> String {
    let mut after_pos = r.before.clone();
    after_pos.make_move(r.played);
    let played_value = for_red(-r.after.value, r.mover);
    let mut text = String::new();
    if let Some(c) = r.class {
        text.push_str(&format!("{} ({}). ", c.title(), loss_text(r.loss, by)));
    }
    text.push_str(&score_text(played_value));
    let line = line_text(&after_pos, &r.after.pv, notation);
    if !line.is_empty() {
        text.push_str(": ");
        text.push_str(&line.join(" "));
    }
    if let (false, Some(best)) = (r.is_best(), r.best_move()) {
        let best_value = for_red(r.best.value, r.mover);
        text.push_str(&format!(
            ". Best {} {}: {}",
            move_text(&r.before, best, notation),
            score_text(best_value),
            line_text(&r.before, &r.best.pv, notation).join(" ")
        ));
    }
    text
}

/// The summary comment of a game.
fn summary(report: &GameReport, limit: &str, by: By) -> String {
    format!(
        "xq annotate ({limit}): Red {}; Black {}.",
        report.red.text(by),
        report.black.text(by)
    )
}

/// Writes the annotations into the game.
fn annotate_record(
    record: &mut Record,
    report: &GameReport,
    notation: Notation,
    limit: &str,
    by: By,
) {
    for (node, r) in record.main.nodes.iter_mut().zip(&report.moves) {
        let ours = comment(r, notation, by);
        node.comment = Some(match node.comment.take().filter(|c| !c.is_empty()) {
            Some(theirs) => format!("{theirs}\n{ours}"),
            None => ours,
        });
        if let Some(c) = r.class {
            // Our verdict replaces a move-quality glyph the file had ($1-$6).
            node.nags.retain(|n| !(1..=6).contains(n));
            node.nags.push(c.nag());
        }
    }
    let sum = summary(report, limit, by);
    record.main.comment = Some(match record.main.comment.take().filter(|c| !c.is_empty()) {
        Some(theirs) => format!("{sum}\n{theirs}"),
        None => sum,
    });
    record.set_tag("Annotator", xq_protocol::NAME);
}

fn mv_json(r: &MoveReport, game: usize, ply: usize, notation: Notation) -> serde_json::Value {
    let mut after_pos = r.before.clone();
    after_pos.make_move(r.played);
    let played = for_red(-r.after.value, r.mover);
    let best = for_red(r.best.value, r.mover);
    json!({
        "type": "move",
        "game": game,
        "ply": ply,
        "side": if r.mover == Color::Red { "red" } else { "black" },
        "move": r.played.to_string(),
        "notation": move_text(&r.before, r.played, notation),
        "best": r.best_move().map(|m| m.to_string()),
        "best_notation": r.best_move().map(|m| move_text(&r.before, m, notation)),
        "score": score_text(played),
        "cp": clamped(played),
        "best_score": score_text(best),
        "best_cp": clamped(best),
        "loss": r.loss,
        "class": r.class.map(Class::name),
        "expected": r.played_wdl.expected(),
        "best_expected": r.best_wdl.expected(),
        "wdl": [r.played_wdl.win, r.played_wdl.draw, r.played_wdl.loss],
        "best_wdl": [r.best_wdl.win, r.best_wdl.draw, r.best_wdl.loss],
        "depth": r.after.depth,
        "pv": r.after.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "best_pv": r.best.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
    })
}

/// The games analysed, in file order, `threads` at a time.
fn analyse_all(games: &[Record], args: &AnnotateArgs, limits: &Limits) -> Result<Vec<GameReport>> {
    let total: usize = games.iter().map(|g| g.main.nodes.len() + 1).sum();
    let bar = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(total as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} positions, {msg} {elapsed} (eta {eta})",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let next = AtomicUsize::new(0);
    let done_games = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<GameReport>>> =
        Mutex::new((0..games.len()).map(|_| None).collect());
    let workers = args.threads.min(games.len()).max(1);
    let spawned = std::thread::scope(|s| {
        let mut handles = Vec::new();
        for i in 0..workers {
            let (next, results, bar, done_games) = (&next, &results, &bar, &done_games);
            let h = std::thread::Builder::new()
                .name(format!("annotate-{i}"))
                .spawn_scoped(s, move || {
                    // A worker without a table leaves the games to the others.
                    let Ok(mut searcher) = Searcher::try_new(args.hash) else {
                        return;
                    };
                    loop {
                        let g = next.fetch_add(1, Ordering::SeqCst);
                        let Some(record) = games.get(g) else {
                            return;
                        };
                        let report =
                            analyse(record, &mut searcher, limits, args.by, &|| bar.inc(1));
                        let n = done_games.fetch_add(1, Ordering::SeqCst) + 1;
                        bar.set_message(format!("{n}/{} games", games.len()));
                        results.lock().unwrap_or_else(|e| e.into_inner())[g] = Some(report);
                    }
                });
            handles.push(h);
        }
        handles.into_iter().all(|h| h.is_ok())
    });
    bar.finish_and_clear();
    if !spawned {
        return Err(anyhow!("cannot start the analysis threads"));
    }
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .enumerate()
        .map(|(i, r)| r.ok_or_else(|| anyhow!("game {} was not analysed", i + 1)))
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
            let text = svg_graph(record, report);
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
                "by": args.by.name(),
                "red": report.red.json(),
                "black": report.black.json(),
            });
            out.push_str(&sum.to_string());
            out.push('\n');
        }
        out.into_bytes()
    } else {
        for (record, report) in games.iter_mut().zip(&reports) {
            annotate_record(record, report, notation, &limit, args.by);
        }
        pgn::write_all(&games, &WriteOptions { notation })
            .map_err(|e| anyhow!("{}: cannot write {e}", args.input.display()))?
            .into_bytes()
    };
    emit(args.output.as_deref(), &bytes)?;
    Ok(0)
}

/// Text made safe inside SVG markup.
fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A score graph of a game: the score after every ply from Red's point of view, clamped
/// to +-[`CAP`] (mates at the edge), Red's advantage up; a dot on every classified move
/// (orange inaccuracy, red mistake, dark red blunder).
fn svg_graph(record: &Record, report: &GameReport) -> String {
    const W: f64 = 640.0;
    const H: f64 = 240.0;
    const PAD: f64 = 20.0;
    let values: Vec<i32> = report
        .searched
        .iter()
        .zip(&report.sides)
        .map(|(s, &side)| clamped(for_red(s.value, side)))
        .collect();
    let plies = values.len().saturating_sub(1).max(1) as f64;
    let x = |i: usize| PAD + (W - 2.0 * PAD) * i as f64 / plies;
    let y = |v: i32| H / 2.0 - (H / 2.0 - PAD) * f64::from(v) / f64::from(CAP);
    let points: Vec<String> = values
        .iter()
        .enumerate()
        .map(|(i, &v)| format!("{:.1},{:.1}", x(i), y(v)))
        .collect();
    let title = format!(
        "{} - {}",
        record.tag("Red").unwrap_or("Red"),
        record.tag("Black").unwrap_or("Black")
    );
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" viewBox=\"0 0 {W} {H}\">\n\
         <title>{}</title>\n\
         <rect width=\"{W}\" height=\"{H}\" fill=\"#fbf7ef\"/>\n\
         <line x1=\"{PAD}\" y1=\"{mid}\" x2=\"{right}\" y2=\"{mid}\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n\
         <polyline fill=\"none\" stroke=\"#b22222\" stroke-width=\"2\" points=\"{}\"/>\n",
        xml_escape(&title),
        points.join(" "),
        mid = H / 2.0,
        right = W - PAD,
    );
    for (i, r) in report.moves.iter().enumerate() {
        if let Some(c) = r.class {
            let color = match c {
                Class::Inaccuracy => "#f0a020",
                Class::Mistake => "#e04040",
                Class::Blunder => "#800000",
            };
            out.push_str(&format!(
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"{color}\"><title>{} {}: {}</title></circle>\n",
                x(i + 1),
                y(values[i + 1]),
                i + 1,
                r.played,
                c.name()
            ));
        }
    }
    out.push_str(&format!(
        "<text x=\"{PAD}\" y=\"14\" font-size=\"12\" font-family=\"sans-serif\">{} (Red up, +-{} cp)</text>\n</svg>\n",
        xml_escape(&title),
        CAP
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use xq_search::score::{mate_in, mated_in};

    #[test]
    fn scores_are_written_from_reds_side() {
        assert_eq!(score_text(35), "+0.35");
        assert_eq!(score_text(-120), "-1.20");
        assert_eq!(score_text(0), "0.00");
        assert_eq!(score_text(-5), "-0.05");
        assert_eq!(score_text(mate_in(5)), "#3");
        assert_eq!(score_text(mated_in(4)), "#-2");
        assert_eq!(score_text(mate_in(0)), "#0");
        assert_eq!(score_text(mated_in(0)), "#-0");
        assert_eq!(for_red(35, Color::Black), -35);
    }

    #[test]
    fn classes_by_loss() {
        assert_eq!(Class::of(49, By::Cp), None);
        assert_eq!(Class::of(50, By::Cp), Some(Class::Inaccuracy));
        assert_eq!(Class::of(99, By::Cp), Some(Class::Inaccuracy));
        assert_eq!(Class::of(100, By::Cp), Some(Class::Mistake));
        assert_eq!(Class::of(200, By::Cp), Some(Class::Blunder));
        assert_eq!(Class::of(149, By::Wdl), Some(Class::Mistake));
        assert_eq!(Class::of(150, By::Wdl), Some(Class::Blunder));
        assert_eq!(Class::of(49, By::Wdl), None);
        assert_eq!(clamped(mate_in(3)), CAP);
        assert_eq!(clamped(-2500), -CAP);
    }

    #[test]
    fn averages_round() {
        let mut s = SideSummary {
            moves: 3,
            loss: 100,
            ..SideSummary::default()
        };
        assert_eq!(s.average(), 33);
        s.loss = 101;
        assert_eq!(s.average(), 34);
        assert_eq!(
            s.text(By::Cp),
            "average loss 34 cp, 0 inaccuracies, 0 mistakes, 0 blunders"
        );
        s.counts = [1, 2, 1];
        assert_eq!(
            s.text(By::Cp),
            "average loss 34 cp, 1 inaccuracy, 2 mistakes, 1 blunder"
        );
        assert_eq!(
            s.text(By::Wdl),
            "average loss 34‰ of the result, 1 inaccuracy, 2 mistakes, 1 blunder"
        );
        assert_eq!(loss_text(234, By::Wdl), "-23.4%");
        assert_eq!(loss_text(234, By::Cp), "-2.34");
    }

    #[test]
    fn by_wdl_a_lost_position_loses_little_and_a_balanced_one_much() {
        // A fixed model (not the fitted one, which a refit changes): a = 300, b = 200.
        let model = WdlModel {
            a: [0.0, 0.0, 0.0, 300.0],
            b: [0.0, 0.0, 0.0, 200.0],
        };
        let m = 60;
        // Three pawns thrown away in a lost position (-600 to -900): a blunder in
        // centipawns, an inaccuracy in expected result (7.2 points).
        let lost = ((-600, m), (-900, m));
        assert_eq!(loss_of(By::Cp, &model, lost.0, lost.1), 300);
        let wdl_loss = loss_of(By::Wdl, &model, lost.0, lost.1);
        let expected = |cp: i32| model.wdl(Score::Cp(cp), m).expected() as i32;
        assert_eq!(wdl_loss, expected(-600) - expected(-900));
        assert_eq!(wdl_loss, 72);
        assert_eq!(Class::of(wdl_loss, By::Wdl), Some(Class::Inaccuracy));
        // The same three pawns from an even position: a blunder either way.
        let even = ((0, m), (-300, m));
        assert_eq!(loss_of(By::Cp, &model, even.0, even.1), 300);
        let wdl_loss = loss_of(By::Wdl, &model, even.0, even.1);
        assert_eq!(wdl_loss, 500 - expected(-300));
        assert_eq!(
            Class::of(wdl_loss, By::Wdl),
            Some(Class::Blunder),
            "{wdl_loss}"
        );
        // Mates: certain results, no clamping; a mate on the board is a win.
        assert_eq!(loss_of(By::Wdl, &model, (mate_in(3), m), (0, m)), 500);
        assert_eq!(
            loss_of(By::Wdl, &model, (mate_in(1), m), (mate_in(0), m)),
            0
        );
        assert_eq!(chances(&model, mate_in(0), m).win, 1000);
        assert_eq!(chances(&model, mated_in(0), m).loss, 1000);
        assert_eq!(
            loss_of(By::Wdl, &model, (mated_in(4), m), (mated_in(2), m)),
            0
        );
        // A move that does better than the best loses nothing.
        assert_eq!(loss_of(By::Wdl, &model, (0, m), (100, m)), 0);
    }
}
