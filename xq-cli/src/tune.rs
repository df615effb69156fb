//! `xq tune`: fits the evaluation's weights to `xq datagen` data (Texel's method, see
//! `xq_train::tune`) and, with `--write`, writes them into `xq-eval/src/params.rs`.

use anyhow::{bail, Context, Result};
use std::path::PathBuf;
use std::time::Instant;
use xq_eval::params::{PARAMS, S, TERMS};
use xq_train::tune::{rewrite_params, Dataset, TuneOptions, Tuner};

/// Fit the evaluation's weights to self-play data.
#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// Data files written by `xq datagen`: `FEN | score | result` lines, or binary
    /// (`--format binary`).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Passes over the data.
    #[arg(long, default_value_t = 100, value_name = "N")]
    epochs: usize,
    /// Adam's step size, in centipawns.
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
    /// The weight of the game result in the target (1: results only, 0: search scores
    /// only).
    #[arg(long, default_value_t = 1.0)]
    lambda: f64,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 16384, value_name = "N")]
    batch: usize,
    /// Threads for the gradient.
    #[arg(long, default_value_t = 1, value_name = "T")]
    threads: usize,
    /// The fraction of the positions held out to measure overfitting.
    #[arg(long, default_value_t = 0.1)]
    holdout: f64,
    /// Seed of the held-out split.
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// Keep a term's weights as they are (repeatable), e.g. `--freeze material`.
    #[arg(long, value_name = "TERM")]
    freeze: Vec<String>,
    /// Write the fitted weights into the parameter file.
    #[arg(long)]
    write: bool,
    /// The parameter file `--write` rewrites.
    #[arg(long, default_value = "xq-eval/src/params.rs", value_name = "PATH")]
    params: PathBuf,
}

/// Reads every data file into one data set.
fn read(files: &[PathBuf]) -> Result<Dataset> {
    let mut data = Dataset::new();
    for path in files {
        data.push_file(path)?;
    }
    Ok(data)
}

/// Runs the tuning; returns the exit code.
pub fn run(args: &TuneArgs) -> Result<i32> {
    if !(0.0..=1.0).contains(&args.lambda) {
        bail!("--lambda {} is not between 0 and 1", args.lambda);
    }
    if !(0.0..1.0).contains(&args.holdout) {
        bail!("--holdout {} is not in [0, 1)", args.holdout);
    }
    if args.batch == 0 || args.threads == 0 || args.lr.is_nan() || args.lr <= 0.0 {
        bail!("--batch, --threads and --lr must be positive");
    }
    let mut options = TuneOptions {
        lr: args.lr,
        lambda: args.lambda,
        batch: args.batch,
        threads: args.threads,
        frozen: Vec::new(),
    };
    for name in &args.freeze {
        options.freeze(name)?;
    }
    // Read the parameter file first: a wrong path should not cost a tuning run.
    let source = if args.write {
        let text = std::fs::read_to_string(&args.params)
            .with_context(|| format!("cannot read {}", args.params.display()))?;
        rewrite_params(&text, &PARAMS)
            .with_context(|| format!("cannot rewrite {}", args.params.display()))?;
        Some(text)
    } else {
        None
    };

    let start = Instant::now();
    let all = read(&args.files)?;
    if all.is_empty() {
        bail!("no positions in the data");
    }
    let (train, held) = all.split(args.holdout, args.seed);
    outln!(
        "{} positions: {} to fit, {} held out",
        all.len(),
        train.len(),
        held.len(),
    )?;
    drop(all);
    let mut tuner = Tuner::new(&train, &PARAMS, options);
    outln!(
        "K = {:.6} (sigmoid(K * eval) predicts the result)",
        tuner.k()
    )?;
    outln!("{:>5} {:>10} {:>10}", "epoch", "train", "held-out")?;
    let (start_train, start_held) = (tuner.error(&train), tuner.error(&held));
    outln!("{:>5} {start_train:>10.6} {start_held:>10.6}", 0)?;
    // With a held-out part, keep the weights of the epoch that predicts it best.
    let mut best: (f64, usize, Vec<S>) = (start_held, 0, PARAMS.to_vec());
    for epoch in 1..=args.epochs {
        tuner.epoch();
        let (e_train, e_held) = (tuner.error(&train), tuner.error(&held));
        outln!("{epoch:>5} {e_train:>10.6} {e_held:>10.6}")?;
        if held.is_empty() || e_held < best.0 {
            best = (e_held, epoch, tuner.params());
        }
    }
    outln!(
        "best held-out error {:.6} at epoch {} (start {start_held:.6}); {:.1} s",
        best.0,
        best.1,
        start.elapsed().as_secs_f64()
    )?;
    let changed: Vec<String> = TERMS
        .iter()
        .filter_map(|t| {
            let n = t.range.clone().filter(|&i| best.2[i] != PARAMS[i]).count();
            (n > 0).then(|| format!("{} {n}", t.name))
        })
        .collect();
    outln!(
        "weights changed: {}",
        if changed.is_empty() {
            "none".to_string()
        } else {
            changed.join(", ")
        }
    )?;
    if let Some(text) = source {
        let new = rewrite_params(&text, &best.2)?;
        std::fs::write(&args.params, new)
            .with_context(|| format!("cannot write {}", args.params.display()))?;
        outln!(
            "wrote the weights of epoch {} to {}",
            best.1,
            args.params.display()
        )?;
    }
    Ok(0)
}
