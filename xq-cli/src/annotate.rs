//! `xq annotate`: analyses every move of every game of a file and writes the games back
//! with the engine's opinion: a comment after each move (the score, the expected line,
//! and when the move was not the engine's choice, the best move and its line), a glyph
//! on inaccuracies, mistakes and blunders, and a summary per game.
//!
//! How a move is judged is `xq_search::judge`'s (the analysis board's score graph judges
//! by the same code): every position of the main line is searched once, to the same
//! limit; the best score of a position is its own search, the score of the move played
//! the search of the position after it. One search per position serves twice (as "after"
//! for one move and "before" for the next), so a game of N moves costs N + 1 searches
//! instead of the 2N a separate search of the played move (MultiPV or `searchmoves`)
//! would, and both scores come from searches of the same limit at a root, not one of
//! them from inside the other's tree. The loss is in centipawns (scores clamped to
//! ±1000), or with `--by wdl` in the expected result by the win/draw/loss model.

use crate::convert::{read_games, EncodingArg, NotationArg};
use crate::{hash_mib, StdoutClosed};
use anyhow::{anyhow, Context, Result};
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;
use xq_core::{Color, Move, Position};
use xq_movegen::notation::{write_line, write_move, Notation};
use xq_records::pgn::{self, WriteOptions};
use xq_records::Record;
use xq_search::engine::MAX_THREADS;
use xq_search::judge::{
    self, Class, GameAnalysis, Judge, Measure, PositionSearch, Tally, Verdict, CAP,
};
use xq_search::score::pawns as score_text;
use xq_search::{Limits, Score};

/// The time per position when no limit is given.
pub const DEFAULT_MOVETIME_MS: u64 = 500;

/// What a move's loss is measured in (`xq_search::judge::Measure`).
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
    /// Endgame tables (a directory of `xq tb gen`): a position in them is valued exactly
    /// (a won ending thrown away to a draw is a blunder).
    #[arg(long, value_name = "DIR")]
    pub tablebases: Option<PathBuf>,
}

/// The verdict on one move.
#[derive(Clone, Debug)]
struct MoveReport {
    /// The position before the move.
    before: Position,
    mover: Color,
    played: Move,
    /// The search before the move (its line starts with the best move).
    best: PositionSearch,
    /// The search after the move (its line is the expected continuation).
    after: PositionSearch,
    /// The judgement, from the mover's point of view.
    verdict: Verdict,
}

impl MoveReport {
    fn best_move(&self) -> Option<Move> {
        self.best.pv.first().copied()
    }

    fn is_best(&self) -> bool {
        self.best_move() == Some(self.played)
    }
}

fn tally_json(t: &Tally) -> serde_json::Value {
    json!({ "moves": t.moves, "average_loss": t.average(), "inaccuracies": t.count(Class::Inaccuracy),
            "mistakes": t.count(Class::Mistake), "blunders": t.count(Class::Blunder) })
}

/// A game's analysis.
#[derive(Debug)]
struct GameReport {
    moves: Vec<MoveReport>,
    /// The search of every position of the main line, the last one included.
    searched: Vec<PositionSearch>,
    /// The start position of every searched position's side to move.
    sides: Vec<Color>,
    red: Tally,
    black: Tally,
}

/// A position's search value from Red's point of view, clamped as the judgement clamps
/// it (mates count as the cap), given the side to move there.
fn clamped_for_red(value: i32, side: Color) -> i32 {
    for_red(judge::clamped(Score::from_value(value)), side)
}

/// A value from Red's point of view, given the side it is from.
fn for_red(v: i32, side: Color) -> i32 {
    if side == Color::Red {
        v
    } else {
        -v
    }
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

/// A game's analysis as the reports read it.
fn report(record: &Record, analysis: GameAnalysis) -> GameReport {
    let mut pos = record.start.clone();
    let mut moves = Vec::new();
    let mut sides = vec![pos.side_to_move()];
    for (i, (&m, verdict)) in record.main_line().iter().zip(analysis.verdicts).enumerate() {
        let mover = pos.side_to_move();
        moves.push(MoveReport {
            before: pos.clone(),
            mover,
            played: m,
            best: analysis.searched[i].clone(),
            after: analysis.searched[i + 1].clone(),
            verdict,
        });
        pos.make_move(m);
        sides.push(pos.side_to_move());
    }
    GameReport {
        moves,
        searched: analysis.searched,
        sides,
        red: analysis.red,
        black: analysis.black,
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
    if let Some(c) = r.verdict.class {
        text.push_str(&format!(
            "{} ({}). ",
            c.title(),
            loss_text(r.verdict.loss, by)
        ));
    }
    text.push_str(&score_text(played_value));
    let line = write_line(&after_pos, &r.after.pv, notation).unwrap_or_default();
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
            write_line(&r.before, &r.best.pv, notation)
                .unwrap_or_default()
                .join(" ")
        ));
    }
    text
}

/// The summary comment of a game.
fn summary(report: &GameReport, limit: &str, by: By) -> String {
    format!(
        "xq annotate ({limit}): Red {}; Black {}.",
        report.red.describe(by.into()),
        report.black.describe(by.into())
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
        if let Some(c) = r.verdict.class {
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
    let v = &r.verdict;
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
        "cp": for_red(v.played_cp, r.mover),
        "best_score": score_text(best),
        "best_cp": for_red(v.best_cp, r.mover),
        "loss": v.loss,
        "class": v.class.map(Class::name),
        "expected": v.played_wdl.expected(),
        "best_expected": v.best_wdl.expected(),
        "wdl": [v.played_wdl.win, v.played_wdl.draw, v.played_wdl.loss],
        "best_wdl": [v.best_wdl.win, v.best_wdl.draw, v.best_wdl.loss],
        "depth": r.after.depth,
        "pv": r.after.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "best_pv": r.best.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
    })
}

/// The games analysed (`xq_search::judge`), in file order, `threads` at a time, with a
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
            a.map(|a| report(record, a))
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
/// to ±[`CAP`] (mates at the edge), Red's advantage up; a dot on every classified move
/// (orange inaccuracy, red mistake, dark red blunder).
fn svg_graph(record: &Record, report: &GameReport) -> String {
    const W: f64 = 640.0;
    const H: f64 = 240.0;
    const PAD: f64 = 20.0;
    let values: Vec<i32> = report
        .searched
        .iter()
        .zip(&report.sides)
        .map(|(s, &side)| clamped_for_red(s.value, side))
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
        if let Some(c) = r.verdict.class {
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
        assert_eq!(score_text(for_red(-120, Color::Red)), "-1.20");
        assert_eq!(score_text(for_red(mate_in(5), Color::Black)), "#-3");
        assert_eq!(for_red(35, Color::Black), -35);
    }

    #[test]
    fn clamped_from_reds_side() {
        // A mate given on the board (the side to move there is mated) is the cap for the
        // other side, whichever side that is.
        assert_eq!(clamped_for_red(mated_in(0), Color::Black), CAP);
        assert_eq!(clamped_for_red(mated_in(0), Color::Red), -CAP);
        assert_eq!(clamped_for_red(mate_in(3), Color::Black), -CAP);
        assert_eq!(clamped_for_red(-2500, Color::Red), -CAP);
        assert_eq!(clamped_for_red(-250, Color::Black), 250);
    }

    #[test]
    fn tallies_in_words() {
        let mut s = Tally {
            moves: 3,
            loss: 101,
            ..Tally::default()
        };
        assert_eq!(
            s.describe(By::Cp.into()),
            "average loss 34 cp, 0 inaccuracies, 0 mistakes, 0 blunders"
        );
        s.counts = [1, 2, 1];
        assert_eq!(
            s.describe(By::Cp.into()),
            "average loss 34 cp, 1 inaccuracy, 2 mistakes, 1 blunder"
        );
        assert_eq!(
            s.describe(By::Wdl.into()),
            "average loss 34‰ of the result, 1 inaccuracy, 2 mistakes, 1 blunder"
        );
        assert_eq!(loss_text(234, By::Wdl), "-23.4%");
        assert_eq!(loss_text(234, By::Cp), "-2.34");
        assert_eq!(Measure::from(By::Wdl), Measure::Wdl);
    }
}
