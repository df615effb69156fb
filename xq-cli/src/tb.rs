//! `xq tb`: generate, probe and verify endgame tables.

use crate::progress_bar;
use crate::PositionArgs;
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::time::Instant;
use xq_tablebase::{
    check_wdl, keep, log, make, memory_needed, read_table, rewrite_table, rewrite_wdl, table_size,
    verify_in, write_wdl, Ending, Kept, MakeProgress, Progress, Tablebases,
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
    /// 90), `@phase1` (both), `@rook-vs-one` (a chariot against a horse, cannon or
    /// soldier with any advisors and elephants, 27 endings), `@one-each` (one attacker a
    /// side and at most two advisors or elephants in all, 126 endings). Both sides may
    /// have attacking pieces (KRKN), three at most in all; those tables are built with
    /// the rules of perpetual check and perpetual chase.
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
        /// A note for the rows of the log (DIR/endings.csv): the machine, the run.
        #[arg(long, default_value = "")]
        note: String,
    },
    /// Probe a position: its result, distance to mate and every legal move's value (the
    /// result alone where the directory has only the ending's WDL file).
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
        /// Rewrite each table that verifies in the newest file format (smaller), in place,
        /// and its WDL file where that does not say which rule decides a rule result.
        #[arg(long)]
        rewrite: bool,
        /// Write the WDL file (`.xqwdl`) of each table that verifies and has none. An
        /// existing WDL file is always checked against its table.
        #[arg(long)]
        wdl: bool,
        /// Threads.
        #[arg(long, default_value_t = std::thread::available_parallelism().map_or(1, |n| n.get()))]
        threads: usize,
    },
    /// List the tables of a directory as a Markdown table: positions, wins, draws,
    /// losses, longest mate, size.
    Stats {
        /// The directory of tables (with --summary, or a log file).
        dir: PathBuf,
        /// Summarize the generation log instead (DIR/endings.csv): groups, times, long mates.
        #[arg(long)]
        summary: bool,
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
            max_positions: max,
            no_verify,
            note,
        } => gen(endings, *all, output, *threads, *max, !no_verify, note),
        TbCommand::Probe {
            dir,
            position,
            json,
        } => probe(dir, position, *json),
        TbCommand::Verify {
            dir,
            rewrite,
            wdl,
            threads,
        } => verify_dir(dir, *rewrite, *wdl, *threads),
        TbCommand::Stats { dir, summary } => stats(dir, *summary),
    }
}

fn gen(
    names: &[String],
    all: bool,
    dir: &Path,
    threads: usize,
    max_positions: Option<u64>,
    check: bool,
    note: &str,
) -> Result<i32> {
    let names: Vec<&str> = names.iter().map(String::as_str).filter(|_| !all).collect();
    let wanted = Ending::plan(&Ending::parse_list(&names)?, max_positions);
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let total_positions: u64 = wanted.iter().map(table_size).sum();
    let peak = wanted.iter().map(memory_needed).max().unwrap_or(0) as f64 / (1 << 20) as f64;
    outln!(
        "{} endings, {total_positions} positions (both sides to move), at most {peak:.1} MiB of memory at a time, {threads} threads",
        wanted.len()
    )?;
    let start = Instant::now();
    let (mut bytes, mut made) = (0, 0);
    let existing = Tablebases::open(dir)?;
    let log = log::Log::open(dir, note)?;
    for ending in &wanted {
        match keep(dir, &existing, ending, threads)? {
            Kept::Missing => {}
            Kept::Old => outln!("{ending}: the file there (of format version 3) does not say which rule decides its rule results, generating it again")?,
            Kept::Bad(_) => outln!("{ending}: the file there is not good, generating it again")?,
            Kept::Good { record, bytes: size, wdl_rewritten } => {
                outln!("{ending}: already in {} ({size} bytes)", dir.display())?;
                if let Some(b) = wdl_rewritten {
                    outln!("{ending}: WDL file written again to say which rule decides its rule results ({b} bytes)")?;
                }
                log.append(&record)?;
                bytes += size;
                continue;
            }
        }
        let template = "{msg} {bar:30} {pos}/{len} {elapsed_precise} eta {eta}";
        let pb = progress_bar(table_size(ending), template);
        pb.set_message(format!("{ending} start"));
        let result = make(dir, ending, threads, check, &|p| match p {
            MakeProgress::Generate(Progress::Start { done, .. }) => pb.set_position(done),
            MakeProgress::Generate(Progress::Level { level, done, total }) => {
                if done == total || done % (1 << 20) < 4096 {
                    pb.set_message(format!("{ending} level {level}"));
                }
                pb.set_length(total);
                pb.set_position(done);
            }
            MakeProgress::Verify { done, total } => {
                if done == 0 || done % (1 << 20) < 4096 {
                    pb.set_message(format!("{ending} verify"));
                }
                pb.set_length(total);
                pb.set_position(done);
            }
        })
        .with_context(|| format!("cannot make {ending}"))?;
        pb.finish_and_clear();
        let (s, wdl_bytes) = (result.record, result.wdl_bytes);
        let (size_bytes, generated) = (s.bytes, s.gen_seconds.unwrap_or(0.0));
        log.append(&s)?;
        (bytes, made) = (bytes + size_bytes, made + 1);
        let by_rule = s.rule_decided.filter(|_| ending.both_attack());
        let by_rule = by_rule.map_or(String::new(), |n| {
            let chase = s.chase_decided.unwrap_or(0);
            format!(
                " ({n} decided by the rules: {} by perpetual check, {chase} by perpetual chase)",
                n - chase
            )
        });
        let (p, rate) = (s.positions, s.positions as f64 / generated.max(1e-9) / 1e6);
        let per = size_bytes as f64 / p.max(1) as f64;
        let verified = if check { ", verified" } else { "" };
        outln!(
            "{ending}: {p} positions, {} wins {} draws {} losses{by_rule}, longest mate {} plies, {generated:.1} s ({rate:.2} M positions/s){verified}, {size_bytes} bytes ({per:.3} a position), WDL file {wdl_bytes} bytes",
            s.wins, s.draws, s.losses, s.longest_mate
        )?;
    }
    let (n, dir, secs) = (wanted.len(), dir.display(), start.elapsed().as_secs_f64());
    outln!("{made} tables generated, {n} in {dir} ({bytes} bytes) in {secs:.1} s")?;
    Ok(0)
}

fn probe(dir: &Path, position: &PositionArgs, json: bool) -> Result<i32> {
    let tb = Tablebases::open(dir)?;
    let game = position
        .game_with(xq_core::Ignore::PLAYABLE)
        .context("bad position")?;
    let pos = game.position();
    let Some((ending, _)) = Ending::of_position(pos) else {
        bail!(
            "the position's material has no table (no attacking piece, or more than {} of them)",
            xq_tablebase::MAX_ATTACKERS
        );
    };
    let Some(value) = tb.probe_dtm(pos)? else {
        if let (true, Some(odd)) = (tb.covers(pos), pos.irregularities().first()) {
            bail!("{ending} has no table entry for this position: {odd}");
        }
        let Some(v) = tb.probe_wdl_value(pos)? else {
            bail!("{ending} is not in {}", dir.display());
        };
        // The WDL file alone: the result and the rule, no distance, no moves.
        let (side, rule) = (pos.side_to_move(), v.rule().map(|r| r.tag()));
        let out = serde_json::json!({"fen": pos.to_fen(), "ending": ending.to_string(), "result": v.result().to_string(), "dtm": null, "by_rule": v.by_rule(), "rule": rule, "moves": null});
        match json {
            true => outln!("{out}")?,
            false => outln!("{ending}, {side} to move: {v} (WDL file only: the distance file gives distances and moves)")?,
        }
        return Ok(0);
    };
    let moves = tb.root_moves(pos)?.unwrap_or_default();
    if json {
        let moves: Vec<serde_json::Value> = moves
            .iter()
            .map(|(m, v)| {
                serde_json::json!({"move": m.to_string(), "result": v.result().to_string(), "dtm": v.plies(), "by_rule": v.by_rule(), "rule": v.rule().map(|r| r.tag())})
            })
            .collect();
        let out = serde_json::json!({
            "fen": pos.to_fen(),
            "ending": ending.to_string(),
            "result": value.result().to_string(),
            "dtm": value.plies(),
            "by_rule": value.by_rule(), "rule": value.rule().map(|r| r.tag()),
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

fn verify_dir(dir: &Path, rewrite: bool, wdl: bool, threads: usize) -> Result<i32> {
    let tb = Tablebases::open(dir)?;
    let endings = tb.endings();
    if endings.is_empty() {
        bail!("no tables (*.xqtb) in {}", dir.display());
    }
    let mut failed = 0;
    for ending in endings {
        let pb = progress_bar(table_size(&ending) / 2, "{msg} {bar:30} {pos}/{len}");
        pb.set_message(ending.to_string());
        let path = dir.join(ending.file_name());
        // The table is read once, for the forward pass and the WDL file's check.
        let result = read_table(&path).and_then(|table| {
            let n = verify_in(dir, &table, threads, &|d| pb.set_position(d))?;
            Ok((table, n))
        });
        pb.finish_and_clear();
        let result = result.and_then(|(table, n)| {
            let mut line = format!("{ending}: ok, {n} positions");
            if rewrite {
                line += &match rewrite_table(&path, threads)? {
                    Some((a, b)) => format!(", rewritten: {a} -> {b} bytes"),
                    None => ", of format version 4 or newer already".to_string(),
                };
            }
            let wdl_path = dir.join(ending.wdl_file_name());
            if wdl_path.exists() || wdl {
                if !wdl_path.exists() {
                    let bytes = write_wdl(&table, &wdl_path, threads)?;
                    line += &format!(", WDL file written ({bytes} bytes)");
                } else if rewrite {
                    if let Some(bytes) = rewrite_wdl(&table, &wdl_path, threads)? {
                        line += &format!(", WDL file rewritten to say the rule ({bytes} bytes)");
                    }
                }
                check_wdl(&table, &wdl_path)?;
                line += ", WDL file agrees";
            }
            Ok(line)
        });
        match result {
            Ok(line) => outln!("{line}")?,
            Err(e) => {
                failed += 1;
                outln!("{ending}: FAILED: {e:#}")?;
            }
        }
    }
    Ok(if failed == 0 { 0 } else { 1 })
}

fn stats(dir: &Path, summary: bool) -> Result<i32> {
    if summary {
        outln!("{}", log::summary(&log::read(dir)?).trim_end())?;
        return Ok(0);
    }
    let tb = Tablebases::open(dir)?;
    outln!("| ending | positions | wins | draws | losses | won with the attacker to move | longest mate (plies) | bytes | bytes/position |")?;
    outln!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")?;
    for ending in tb.endings() {
        let Some((s, bytes)) = tb.stats(&ending)? else {
            continue;
        };
        outln!(
            "| {ending} | {} | {} | {} | {} | {:.1}% | {} | {} | {:.3} |",
            s.positions(),
            s.wins(),
            s.draws(),
            s.losses(),
            100.0 * s.attacker_wins(),
            s.longest,
            bytes,
            bytes as f64 / s.positions().max(1) as f64
        )?;
    }
    Ok(0)
}
