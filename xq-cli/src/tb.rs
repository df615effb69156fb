//! `xq tb`: generate, probe and verify endgame tables.

use crate::PositionArgs;
use anyhow::{bail, Context, Result};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;
use xq_tablebase::{
    generate, memory_needed, read_table, table_size, verify, write_table, Ending, Progress, Table,
    TableStats, Tablebases,
};

/// Endgame tablebases: generate, probe, verify.
#[derive(clap::Args, Debug)]
pub struct TbArgs {
    #[command(subcommand)]
    command: TbCommand,
}

#[derive(clap::Subcommand, Debug)]
enum TbCommand {
    /// Generate tables into a directory (with every smaller table they need), verifying
    /// each by a forward pass. With no endings named, the whole phase-1 set.
    ///
    /// Endings are named by FEN letters, the attacking side first: KRKAABB, KNPKAA (H and
    /// E are accepted for N and B). Groups: `@one` (one attacker with any advisors and
    /// elephants on both sides, 324 endings), `@two` (two attackers against any defence,
    /// 90), `@phase1` (both).
    Gen {
        /// Endings or groups (default: @phase1).
        endings: Vec<String>,
        /// The directory to write to (created if missing). Tables already there are
        /// checked and kept.
        #[arg(short, long, value_name = "DIR")]
        output: PathBuf,
        /// Threads.
        #[arg(long, default_value_t = std::thread::available_parallelism().map_or(1, |n| n.get()))]
        threads: usize,
        /// The whole phase-1 set (as with no endings named).
        #[arg(long)]
        all: bool,
        /// Skip endings with more positions than this (both sides to move).
        #[arg(long, value_name = "N")]
        max_positions: Option<u64>,
        /// Do not verify each table after generating it.
        #[arg(long)]
        no_verify: bool,
    },
    /// Probe a position: its result, distance to mate and every legal move's value.
    Probe {
        /// The directory of tables.
        dir: PathBuf,
        #[command(flatten)]
        position: PositionArgs,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Verify every table of a directory by a forward pass: each position's value agrees
    /// with its moves' values.
    Verify {
        /// The directory of tables.
        dir: PathBuf,
        /// Threads.
        #[arg(long, default_value_t = std::thread::available_parallelism().map_or(1, |n| n.get()))]
        threads: usize,
    },
    /// List the tables of a directory as a Markdown table: positions, wins, draws,
    /// losses, longest mate, size.
    Stats {
        /// The directory of tables.
        dir: PathBuf,
    },
}

/// Runs `xq tb`; returns the exit code.
pub fn run(args: &TbArgs) -> Result<i32> {
    match &args.command {
        TbCommand::Gen {
            endings,
            output,
            threads,
            all,
            max_positions,
            no_verify,
        } => gen(endings, *all, output, *threads, *max_positions, !no_verify),
        TbCommand::Probe {
            dir,
            position,
            json,
        } => probe(dir, position, *json),
        TbCommand::Verify { dir, threads } => verify_dir(dir, *threads),
        TbCommand::Stats { dir } => stats(dir),
    }
}

/// The endings named on the command line, groups expanded.
fn parse_endings(names: &[String], all: bool) -> Result<Vec<Ending>> {
    if all || names.is_empty() {
        return Ok(Ending::phase1());
    }
    let mut out = Vec::new();
    for name in names {
        let group: Vec<Ending> = match name.as_str() {
            "@phase1" => Ending::phase1(),
            "@one" => Ending::phase1()
                .into_iter()
                .filter(|e| attackers(e) == 1)
                .collect(),
            "@two" => Ending::phase1()
                .into_iter()
                .filter(|e| attackers(e) == 2)
                .collect(),
            _ => vec![name
                .parse::<Ending>()
                .with_context(|| format!("bad ending `{name}`"))?],
        };
        out.extend(group);
    }
    Ok(out)
}

fn attackers(e: &Ending) -> usize {
    use xq_core::PieceKind::*;
    [Chariot, Horse, Cannon, Soldier]
        .iter()
        .map(|&k| e.attacking(k))
        .sum()
}

fn bar(len: u64, template: &str) -> indicatif::ProgressBar {
    if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(len);
        bar.set_style(
            indicatif::ProgressStyle::with_template(template)
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    } else {
        indicatif::ProgressBar::hidden()
    }
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1 << 20) as f64)
}

/// The tables `ending`'s captures lead to, read from `dir`.
fn load_subtables(dir: &Path, ending: &Ending) -> Result<Vec<Table>> {
    ending
        .captures()
        .iter()
        .map(|sub| {
            let path = dir.join(sub.file_name());
            read_table(&path).with_context(|| format!("{ending} needs {sub}"))
        })
        .collect()
}

fn gen(
    names: &[String],
    all: bool,
    dir: &Path,
    threads: usize,
    max_positions: Option<u64>,
    check: bool,
) -> Result<i32> {
    let mut wanted = Vec::new();
    for e in parse_endings(names, all)? {
        for sub in e.with_captures() {
            if !wanted.contains(&sub) {
                wanted.push(sub);
            }
        }
    }
    wanted.sort_by_key(|e| (e.piece_count(), e.to_string()));
    if let Some(max) = max_positions {
        wanted.retain(|e| table_size(e) <= max);
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let total_positions: u64 = wanted.iter().map(table_size).sum();
    let peak = wanted.iter().map(memory_needed).max().unwrap_or(0);
    outln!(
        "{} endings, {} positions (both sides to move), at most {} of memory at a time, {} threads",
        wanted.len(),
        total_positions,
        mib(peak),
        threads
    )?;
    let start = Instant::now();
    let mut bytes = 0;
    let mut made = 0;
    for ending in &wanted {
        let path = dir.join(ending.file_name());
        if path.exists() {
            match Tablebases::open(dir)?.stats(ending) {
                Ok(Some((_, size))) => {
                    outln!("{ending}: already in {} ({} bytes)", dir.display(), size)?;
                    bytes += size;
                    continue;
                }
                _ => outln!("{ending}: the file there is not good, generating it again")?,
            }
        }
        let t0 = Instant::now();
        let subs = load_subtables(dir, ending)?;
        let sub_refs: Vec<&Table> = subs.iter().collect();
        let size = table_size(ending);
        let pb = bar(
            size,
            "{msg} {bar:30} {pos}/{len} {elapsed_precise} eta {eta}",
        );
        pb.set_message(format!("{ending} start"));
        let table = generate(ending, &sub_refs, threads, &|p| match p {
            Progress::Start { done, .. } => pb.set_position(done),
            Progress::Level { level, done, total } => {
                if done == total || done % (1 << 20) < 4096 {
                    pb.set_message(format!("{ending} level {level}"));
                }
                pb.set_length(total);
                pb.set_position(done);
            }
        })?;
        pb.finish_and_clear();
        let generated = t0.elapsed();
        if check {
            let pv = bar(table_size(ending) / 2, "{msg} {bar:30} {pos}/{len}");
            pv.set_message(format!("{ending} verify"));
            verify(&table, &sub_refs, threads, &|d| pv.set_position(d))?;
            pv.finish_and_clear();
        }
        let size_bytes = write_table(&table, &path)?;
        bytes += size_bytes;
        made += 1;
        let s = table.stats();
        outln!(
            "{ending}: {} positions, {} wins {} draws {} losses, longest mate {} plies, {:.1} s ({:.2} M positions/s){}, {} bytes ({:.3} a position)",
            s.positions(),
            s.counts[0][2] + s.counts[1][2],
            s.counts[0][1] + s.counts[1][1],
            s.counts[0][0] + s.counts[1][0],
            s.longest,
            generated.as_secs_f64(),
            s.positions() as f64 / generated.as_secs_f64().max(1e-9) / 1e6,
            if check { ", verified" } else { "" },
            size_bytes,
            size_bytes as f64 / s.positions().max(1) as f64
        )?;
    }
    outln!(
        "{} tables generated, {} in {} ({} bytes) in {:.1} s",
        made,
        wanted.len(),
        dir.display(),
        bytes,
        start.elapsed().as_secs_f64()
    )?;
    Ok(0)
}

fn probe(dir: &Path, position: &PositionArgs, json: bool) -> Result<i32> {
    let tb = Tablebases::open(dir)?;
    let game = position.game().context("bad position")?;
    let pos = game.position();
    let Some((ending, _)) = Ending::of_position(pos) else {
        bail!("the position's material has no table (one side must have only its general, advisors and elephants)");
    };
    let Some(value) = tb.probe_dtm(pos)? else {
        bail!("{ending} is not in {}", dir.display());
    };
    let moves = tb.root_moves(pos)?.unwrap_or_default();
    if json {
        let moves: Vec<serde_json::Value> = moves
            .iter()
            .map(|(m, v)| {
                serde_json::json!({"move": m.to_string(), "result": v.wdl().to_string(), "dtm": v.plies()})
            })
            .collect();
        let out = serde_json::json!({
            "fen": pos.to_fen(),
            "ending": ending.to_string(),
            "result": value.wdl().to_string(),
            "dtm": value.plies(),
            "moves": moves,
        });
        outln!("{out}")?;
    } else {
        outln!("{ending}, {} to move: {value}", pos.side_to_move())?;
        for (m, v) in &moves {
            outln!("  {m}  {v}")?;
        }
    }
    Ok(0)
}

fn verify_dir(dir: &Path, threads: usize) -> Result<i32> {
    let tb = Tablebases::open(dir)?;
    let endings = tb.endings();
    if endings.is_empty() {
        bail!("no tables (*.xqtb) in {}", dir.display());
    }
    let mut failed = 0;
    for ending in endings {
        let result = (|| -> Result<u64> {
            let table = read_table(&dir.join(ending.file_name()))?;
            let subs = load_subtables(dir, &ending)?;
            let refs: Vec<&Table> = subs.iter().collect();
            let pb = bar(table_size(&ending) / 2, "{msg} {bar:30} {pos}/{len}");
            pb.set_message(ending.to_string());
            let n = verify(&table, &refs, threads, &|d| pb.set_position(d))?;
            pb.finish_and_clear();
            Ok(n)
        })();
        match result {
            Ok(n) => outln!("{ending}: ok, {n} positions")?,
            Err(e) => {
                failed += 1;
                outln!("{ending}: FAILED: {e:#}")?;
            }
        }
    }
    Ok(if failed == 0 { 0 } else { 1 })
}

fn stats(dir: &Path) -> Result<i32> {
    let tb = Tablebases::open(dir)?;
    outln!("| ending | positions | wins | draws | losses | won with the attacker to move | longest mate (plies) | bytes | bytes/position |")?;
    outln!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")?;
    for ending in tb.endings() {
        let Some((s, bytes)) = tb.stats(&ending)? else {
            continue;
        };
        let s: TableStats = s;
        let attacker = s.counts[0].iter().sum::<u64>().max(1);
        outln!(
            "| {ending} | {} | {} | {} | {} | {:.1}% | {} | {} | {:.3} |",
            s.positions(),
            s.counts[0][2] + s.counts[1][2],
            s.counts[0][1] + s.counts[1][1],
            s.counts[0][0] + s.counts[1][0],
            100.0 * s.counts[0][2] as f64 / attacker as f64,
            s.longest,
            bytes,
            bytes as f64 / s.positions().max(1) as f64
        )?;
    }
    Ok(0)
}
