//! `xq tune-wdl`: fits the win/draw/loss model (`xq_search::wdl`) to `xq datagen` data
//! and, with `--write`, writes it to its file, `xq-search/data/wdl-model.txt`. The fit (and
//! which games are held out) is `xq_train::wdl`'s; this is the arguments, the files and
//! the printing.

use anyhow::{bail, Context, Result};
use std::path::PathBuf;
use std::time::Instant;
use xq_search::wdl::MODEL;
use xq_train::wdl::{fit, render, WdlData};

/// Fit the win/draw/loss model to self-play data.
#[derive(clap::Args, Debug)]
pub struct TuneWdlArgs {
    /// Data files written by `xq datagen`: `FEN | score | result` lines, or binary
    /// (`--format binary`).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The fraction of the games kept out of the fit to measure it (0.1: every tenth).
    #[arg(long, default_value_t = 0.1)]
    holdout: f64,
    /// Write the fitted model to its file (read by the next build).
    #[arg(long)]
    write: bool,
    /// The model's file `--write` writes.
    #[arg(
        long,
        default_value = "xq-search/data/wdl-model.txt",
        value_name = "PATH"
    )]
    model: PathBuf,
}

/// Runs the fit; returns the exit code.
pub fn run(args: &TuneWdlArgs) -> Result<i32> {
    if !(0.0..1.0).contains(&args.holdout) {
        bail!("--holdout {} is not in [0, 1)", args.holdout);
    }
    let start = Instant::now();
    let mut data = WdlData::new();
    for path in &args.files {
        data.push_file(path)?;
    }
    let f = fit(&data, args.holdout, &MODEL)?;
    let [won, drew, lost] = data.results();
    outln!(
        "{} positions of {} games ({} positions fitted, {} of {} games held out); Red won {won}, drew {drew}, lost {lost} (positions)",
        f.positions,
        f.games,
        f.split.fitted,
        f.split.held_out,
        f.held_out_games,
    )?;
    outln!(
        "cross-entropy (nats): fitted {:.4}, held out {:.4}; constant guess {:.4}, {:.4}; the model in use {:.4}, {:.4}",
        f.loss.fitted,
        f.loss.held_out,
        f.constant.fitted,
        f.constant.held_out,
        f.start.fitted,
        f.start.held_out,
    )?;
    outln!(
        "Brier score of the expected result: fitted {:.4}, held out {:.4}",
        f.brier.fitted,
        f.brier.held_out
    )?;
    outln!("held out, by expected result for Red: positions, mean expected, mean result")?;
    for (i, bin) in f.calibration.iter().enumerate() {
        outln!(
            "  {:.1}-{:.1}: {:>6} {:.3} {:.3}",
            i as f64 / 10.0,
            (i + 1) as f64 / 10.0,
            bin.positions,
            bin.expected,
            bin.result
        )?;
    }
    let m = f.model;
    for material in [10, 20, 40, 60, 80, 106] {
        let (a, b) = m.params(material);
        let at = |cp| m.wdl(xq_search::Score::Cp(cp), material);
        let (w0, w1, w3) = (at(0), at(100), at(300));
        outln!(
            "material {material:>3}: a {a:>6.1} b {b:>6.1}; 0 cp {}/{}/{}, +100 cp {}/{}/{}, +300 cp {}/{}/{}",
            w0.win, w0.draw, w0.loss, w1.win, w1.draw, w1.loss, w3.win, w3.draw, w3.loss
        )?;
    }
    let text = render(&m, f.positions);
    outln!("{text}")?;
    if args.write {
        std::fs::write(&args.model, text)
            .with_context(|| format!("cannot write {}", args.model.display()))?;
        outln!("wrote {}", args.model.display())?;
    }
    outln!("{:.1} s", start.elapsed().as_secs_f64())?;
    Ok(0)
}
