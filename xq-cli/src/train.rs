//! `xq train`: trains a network (`xq_eval::nnue`) on `xq datagen` data and writes it.
//!
//! The data files may be text (`FEN | score | result` lines, as `xq tune` reads) or
//! binary (`xq datagen --format binary`), read by `xq_train::data` (which tells them
//! apart by their first bytes and cuts them into games); `xq_train::nnue` keeps the
//! positions scored within 3000 centipawns and fits the network (the loss, AdamW, the
//! schedule, the held-out part). This is the arguments, the files and the printing.
//!
//! The same data, options and seed give the same network, whatever `--threads`.

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::time::Instant;
use xq_eval::nnue::Network;
use xq_train::nnue::{ShapeRequest, TrainOptions, Trainer, TrainingData};

/// Train a network on self-play data.
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// Data files written by `xq datagen`, text or binary.
    #[arg(required = true, value_name = "DATA")]
    files: Vec<PathBuf>,
    /// Start from this network's weights (its width is the width trained).
    #[arg(long, value_name = "NET")]
    init: Option<PathBuf>,
    /// The accumulator's width: a multiple of 16 from 16 to 512 (default 128, or the
    /// width of `--init`).
    #[arg(long, value_name = "N")]
    hidden: Option<usize>,
    /// Output buckets, chosen by the number of pieces on the board: 1 to 8 (default 1,
    /// or the buckets of `--init`). A network of one bucket can start one of more.
    #[arg(long, value_name = "N")]
    buckets: Option<usize>,
    /// Sets of feature-transformer rows by each side's own general: 1 or 6 (default 1,
    /// or those of `--init`). A network of one set can start one of six.
    #[arg(long, value_name = "N")]
    general_buckets: Option<usize>,
    /// With six general buckets, train rows the six share too (added to each when written).
    #[arg(long)]
    shared_rows: bool,
    /// One set of rows, folded left to right by each side's own general as six buckets
    /// fold, written as six equal buckets: the start for `--general-buckets 6`.
    #[arg(long, conflicts_with_all = ["general_buckets", "shared_rows"])]
    fold: bool,
    /// A second layer this many units wide beside the output: 0 (none), or a multiple of
    /// 8 up to 32 (default 0, or that of `--init`, which need not have one).
    #[arg(long, value_name = "N")]
    second_layer: Option<usize>,
    /// Passes over the data (the learning rate falls over them; 0 scores the start, unchanged).
    #[arg(long, default_value_t = 20, value_name = "N")]
    epochs: usize,
    /// The learning rate at the start.
    #[arg(long, default_value_t = 0.001, value_name = "F")]
    lr: f32,
    /// The weight of the game's result in the target (the rest is the search's score).
    #[arg(long, default_value_t = 0.5, value_name = "F")]
    wdl: f32,
    /// Positions per step.
    #[arg(long, default_value_t = 16384, value_name = "N")]
    batch: usize,
    /// AdamW's decoupled weight decay: each step shrinks every weight by the learning rate
    /// times this share of it.
    #[arg(long, default_value_t = 0.01, value_name = "F")]
    weight_decay: f32,
    /// Threads for the gradient.
    #[arg(long, default_value_t = 1, value_name = "T")]
    threads: usize,
    /// The share of the positions held out and reported each epoch.
    #[arg(long, default_value_t = 0.05, value_name = "F")]
    holdout: f64,
    /// Seed of the first weights, the shuffles and the held-out part.
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// Train on each position flipped left to right as well (twice the data; a position
    /// and its flip are held out together). `--mirror` is the old name.
    #[arg(long, alias = "mirror")]
    flip_horizontal: bool,
    /// Write each epoch's network into this folder (`epoch-N.nnue`).
    #[arg(long, value_name = "DIR")]
    checkpoints: Option<PathBuf>,
    /// Where to write the trained network.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "NET",
        default_value = "xq.nnue"
    )]
    output: PathBuf,
}

/// Reads a network file (as the engine's `load_network` does, with its error).
fn read_net(path: &Path) -> Result<Network> {
    let disk = xq_search::engine::Disk;
    let net = xq_search::engine::read_network(&disk, &path.to_string_lossy())?;
    Ok(std::sync::Arc::unwrap_or_clone(net))
}

/// Writes a network file through a temporary name, so that a reader never sees half.
fn write_net(net: &Network, path: &Path) -> Result<()> {
    // A device or a pipe (`-o /dev/null`) is written to, never replaced by a rename.
    if path.metadata().is_ok_and(|m| !m.is_file()) {
        return std::fs::write(path, net.to_bytes())
            .with_context(|| format!("cannot write {}", path.display()));
    }
    let tmp = path.with_extension("part");
    std::fs::write(&tmp, net.to_bytes())
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
}

/// Runs the training; returns the exit code.
pub fn run(args: &TrainArgs) -> Result<i32> {
    if !(0.0..=1.0).contains(&args.wdl) {
        bail!("--wdl {} is not between 0 and 1", args.wdl);
    }
    if !(0.0..1.0).contains(&args.holdout) {
        bail!("--holdout {} is not in [0, 1)", args.holdout);
    }
    if !(0.0..1.0).contains(&args.weight_decay) {
        bail!("--weight-decay {} is not in [0, 1)", args.weight_decay);
    }
    if [args.batch, args.threads].contains(&0) || args.lr.is_nan() || args.lr <= 0.0 {
        bail!("--batch, --threads and --lr must be positive");
    }
    let init = args.init.as_deref().map(read_net).transpose()?;
    let shape = ShapeRequest {
        hidden: args.hidden,
        buckets: args.buckets,
        general_buckets: args.general_buckets,
        shared_rows: args.shared_rows,
        fold: args.fold,
        second_layer: args.second_layer,
    };
    let options = TrainOptions {
        lr: args.lr,
        wdl: args.wdl,
        batch: args.batch,
        threads: args.threads,
        holdout: args.holdout,
        epochs: args.epochs,
        weight_decay: args.weight_decay,
        seed: args.seed,
        ..TrainOptions::default()
    }
    .with_shape(&shape, init.as_ref())?;
    if let Some(dir) = &args.checkpoints {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let start = Instant::now();
    let mut data = TrainingData::new();
    for path in &args.files {
        data.push_file(path)?;
    }
    if data.samples.is_empty() {
        bail!("no position to train on in the data");
    }
    if args.flip_horizontal {
        data.add_horizontal_flips();
    }
    let (samples, games) = (&data.samples, data.games);
    let mut trainer = Trainer::new(samples, options, init.as_ref());
    let (trained, held) = trainer.sizes();
    outln!(
        "{} positions of {games} games ({trained} trained, {held} held out) read in {:.1} s; {}, K = {:.6}",
        samples.len(),
        start.elapsed().as_secs_f64(),
        trainer.shape(),
        trainer.k()
    )?;
    let held_text = |t: &Trainer<'_>| match held {
        0 => String::new(),
        _ => format!(", held-out loss {:.6}", t.held_out_loss()),
    };
    outln!(
        "epoch 0: train loss {:.6}{}",
        trainer.train_loss(),
        held_text(&trainer)
    )?;
    let bar = crate::progress_bar(
        trained as u64,
        "epoch {msg} {bar:40} {pos}/{len} positions {elapsed} (eta {eta})",
    );
    for epoch in 1..=args.epochs {
        let t = Instant::now();
        bar.set_position(0);
        bar.set_message(format!("{epoch}/{}", args.epochs));
        trainer.epoch(|done, _| bar.set_position(done as u64));
        bar.set_position(0);
        let (train_loss, held_text) = (trainer.train_loss(), held_text(&trainer));
        if let Some(dir) = &args.checkpoints {
            write_net(&trainer.network(), &dir.join(format!("epoch-{epoch}.nnue")))?;
        }
        let line = format!(
            "epoch {epoch}: train loss {train_loss:.6}{held_text} ({:.1} s)",
            t.elapsed().as_secs_f64()
        );
        bar.suspend(|| outln!("{line}"))?;
    }
    bar.finish_and_clear();
    let net = trainer.network();
    write_net(&net, &args.output)?;
    outln!(
        "wrote {} ({} bytes, {:?}) in {:.1} s",
        args.output.display(),
        net.to_bytes().len(),
        net,
        start.elapsed().as_secs_f64()
    )?;
    Ok(0)
}
