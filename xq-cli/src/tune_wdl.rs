//! `xq tune-wdl`: fits the win/draw/loss model (`xq_search::wdl`) to `xq datagen` data
//! and, with `--write`, writes its parameters into `xq-search/src/wdl.rs`.
//!
//! The fit is maximum likelihood: the eight coefficients (`a` and `b`, cubic in
//! `material / 100`) that make the games' results most likely given each position's
//! score and material, that is the least mean negative log-likelihood (cross-entropy, in
//! nats) of the result. It is minimised by damped Newton steps (Levenberg-Marquardt) with
//! the exact gradient and a Hessian from differences of gradients. A part of the games
//! (`--holdout`: every tenth game for 0.1) is kept out of the fit to measure it: whole
//! games, as a game's positions share its result. `xq datagen` writes a game's positions
//! together, move numbers rising; a new game starts where the move number falls or the
//! result changes.

use anyhow::{bail, Context, Result};
use std::path::PathBuf;
use std::time::Instant;
use xq_movegen::GameResult;
use xq_search::wdl::{material, WdlModel, MAX_MATERIAL, MIN_MATERIAL, MODEL};

/// The line that opens the generated block of `wdl.rs`.
const BEGIN: &str = "// @generated-begin";
/// The line that closes it.
const END: &str = "// @generated-end";

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
    /// Write the fitted parameters into the model's source file.
    #[arg(long)]
    write: bool,
    /// The source file `--write` rewrites.
    #[arg(long, default_value = "xq-search/src/wdl.rs", value_name = "PATH")]
    source: PathBuf,
}

/// One position: its score (centipawns, Red's view), `material / 100` and the result
/// for Red (0 loss, 1 draw, 2 win).
#[derive(Copy, Clone, Debug, PartialEq)]
struct Point {
    cp: f64,
    x: f64,
    result: u8,
}

/// The parameters: `a` then `b`, each from the cube down.
type Theta = [f64; 8];

fn model(t: &Theta) -> WdlModel {
    WdlModel {
        a: [t[0], t[1], t[2], t[3]],
        b: [t[4], t[5], t[6], t[7]],
    }
}

/// `[x^3, x^2, x, 1]`.
fn powers(x: f64) -> [f64; 4] {
    [x * x * x, x * x, x, 1.0]
}

/// Is the model usable over the whole range of material: `a` positive (else a win and
/// a loss would together pass 1) and `b` at least 1?
fn valid(t: &Theta) -> bool {
    (MIN_MATERIAL..=MAX_MATERIAL).all(|m| {
        let (a, b) = model(t).params(m);
        a > 0.0 && b >= 1.0
    })
}

fn sigmoid(u: f64) -> f64 {
    1.0 / (1.0 + (-u).exp())
}

/// The mean negative log-likelihood of the results, and its gradient; `None` where the
/// model is not usable.
fn loss(t: &Theta, data: &[Point]) -> Option<(f64, Theta)> {
    if !valid(t) || data.is_empty() {
        return None;
    }
    let mut total = 0.0;
    let mut grad = [0.0; 8];
    for p in data {
        let px = powers(p.x);
        let a: f64 = (0..4).map(|k| t[k] * px[k]).sum();
        let b: f64 = (0..4).map(|k| t[4 + k] * px[k]).sum();
        let uw = (p.cp - a) / b;
        let ul = (-p.cp - a) / b;
        let (w, l) = (sigmoid(uw), sigmoid(ul));
        // Derivatives of w and l by a and b.
        let (dw_da, dw_db) = (-w * (1.0 - w) / b, -w * (1.0 - w) * uw / b);
        let (dl_da, dl_db) = (-l * (1.0 - l) / b, -l * (1.0 - l) * ul / b);
        let (prob, d_da, d_db) = match p.result {
            2 => (w, dw_da, dw_db),
            0 => (l, dl_da, dl_db),
            _ => (1.0 - w - l, -(dw_da + dl_da), -(dw_db + dl_db)),
        };
        let prob = prob.max(1e-12);
        total -= prob.ln();
        for k in 0..4 {
            grad[k] -= d_da / prob * px[k];
            grad[4 + k] -= d_db / prob * px[k];
        }
    }
    let n = data.len() as f64;
    Some((total / n, grad.map(|g| g / n)))
}

/// Solves `m x = v` (Gaussian elimination with partial pivoting); `None` if singular.
#[allow(clippy::needless_range_loop)] // matrix code reads best with indices
fn solve(mut m: [[f64; 8]; 8], mut v: [f64; 8]) -> Option<[f64; 8]> {
    for c in 0..8 {
        let pivot = (c..8).max_by(|&i, &j| m[i][c].abs().total_cmp(&m[j][c].abs()))?;
        if m[pivot][c].abs() < 1e-300 {
            return None;
        }
        m.swap(c, pivot);
        v.swap(c, pivot);
        for r in c + 1..8 {
            let f = m[r][c] / m[c][c];
            for k in c..8 {
                m[r][k] -= f * m[c][k];
            }
            v[r] -= f * v[c];
        }
    }
    let mut x = [0.0; 8];
    for r in (0..8).rev() {
        let s: f64 = (r + 1..8).map(|k| m[r][k] * x[k]).sum();
        x[r] = (v[r] - s) / m[r][r];
    }
    Some(x)
}

/// The maximum-likelihood parameters from `start`, and the loss there.
#[allow(clippy::needless_range_loop)] // matrix code reads best with indices
fn fit(data: &[Point], start: Theta) -> Option<(Theta, f64)> {
    let mut t = start;
    let (mut f, mut g) = loss(&t, data)?;
    let mut lambda = 1e-3;
    for _ in 0..500 {
        // The Hessian from central differences of the gradient.
        let mut h = [[0.0; 8]; 8];
        for j in 0..8 {
            let step = 1e-4 * t[j].abs().max(1.0);
            let (mut up, mut down) = (t, t);
            up[j] += step;
            down[j] -= step;
            let (Some((_, gu)), Some((_, gd))) = (loss(&up, data), loss(&down, data)) else {
                break;
            };
            for i in 0..8 {
                h[i][j] = (gu[i] - gd[i]) / (2.0 * step);
            }
        }
        for i in 0..8 {
            for j in 0..i {
                let s = (h[i][j] + h[j][i]) / 2.0;
                h[i][j] = s;
                h[j][i] = s;
            }
        }
        let mut improved = false;
        while lambda < 1e12 {
            let mut damped = h;
            for (i, row) in damped.iter_mut().enumerate() {
                row[i] += lambda * h[i][i].abs().max(1e-12);
            }
            let Some(step) = solve(damped, g) else {
                lambda *= 10.0;
                continue;
            };
            let next: Theta = std::array::from_fn(|i| t[i] - step[i]);
            match loss(&next, data) {
                Some((fn_, gn)) if fn_ < f => {
                    let gain = f - fn_;
                    t = next;
                    f = fn_;
                    g = gn;
                    lambda = (lambda / 3.0).max(1e-9);
                    improved = gain > 1e-12;
                    break;
                }
                _ => lambda *= 4.0,
            }
        }
        if !improved {
            break;
        }
    }
    Some((t, f))
}

/// The loss of the best constant guess: each result's share of the fitted data.
fn baseline(fitted: &[Point], data: &[Point]) -> f64 {
    let share = |r: u8| {
        let n = fitted.iter().filter(|p| p.result == r).count() as f64;
        (n / fitted.len().max(1) as f64).max(1e-12)
    };
    let shares = [share(0), share(1), share(2)];
    let total: f64 = data
        .iter()
        .map(|p| -shares[usize::from(p.result)].ln())
        .sum();
    total / data.len().max(1) as f64
}

/// The mean squared error of the expected result (the Brier score of the score for
/// Red: a win 1, a draw 0.5, a loss 0).
fn brier(t: &Theta, data: &[Point]) -> f64 {
    let m = model(t);
    let total: f64 = data
        .iter()
        .map(|p| {
            let material = (p.x * 100.0).round() as u32;
            let w = m.win_rate(p.cp, material);
            let l = m.win_rate(-p.cp, material);
            let expected = w + (1.0 - w - l) / 2.0;
            (expected - f64::from(p.result) / 2.0).powi(2)
        })
        .sum();
    total / data.len().max(1) as f64
}

/// The expected result the model gives each position and the result it had, in ten
/// bins of the expected result (0-0.1, ..., 0.9-1): positions, mean expected, mean
/// result. A calibrated model has the two means close in every bin.
fn calibration(t: &Theta, data: &[Point]) -> Vec<(usize, f64, f64)> {
    let m = model(t);
    let mut bins = vec![(0usize, 0.0, 0.0); 10];
    for p in data {
        let material = (p.x * 100.0).round() as u32;
        let w = m.win_rate(p.cp, material);
        let l = m.win_rate(-p.cp, material);
        let expected = w + (1.0 - w - l) / 2.0;
        let bin = &mut bins[((expected * 10.0) as usize).min(9)];
        bin.0 += 1;
        bin.1 += expected;
        bin.2 += f64::from(p.result) / 2.0;
    }
    bins.into_iter()
        .map(|(n, e, r)| (n, e / n.max(1) as f64, r / n.max(1) as f64))
        .collect()
}

/// The generated block for `t`.
fn render(t: &Theta, positions: usize) -> String {
    let coef = |c: &[f64]| {
        c.iter()
            .map(|v| format!("{v:.3}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "{BEGIN}\n/// The fitted model: `xq tune-wdl` on {positions} positions of `xq datagen` self-play (see\n/// docs/wdl.md).\npub const MODEL: WdlModel = WdlModel {{\n    a: [{}],\n    b: [{}],\n}};\n{END}\n",
        coef(&t[..4]),
        coef(&t[4..])
    )
}

/// `source` with its generated block replaced by `block`.
fn rewrite(source: &str, block: &str) -> Result<String> {
    let (Some(begin), Some(end)) = (source.find(BEGIN), source.find(END)) else {
        bail!("no `{BEGIN}` ... `{END}` block");
    };
    let end = end + END.len() + source[end + END.len()..].find('\n').map_or(0, |i| i + 1);
    Ok(format!("{}{block}{}", &source[..begin], &source[end..]))
}

/// Runs the fit; returns the exit code.
pub fn run(args: &TuneWdlArgs) -> Result<i32> {
    if !(0.0..1.0).contains(&args.holdout) {
        bail!("--holdout {} is not in [0, 1)", args.holdout);
    }
    let source = if args.write {
        let text = std::fs::read_to_string(&args.source)
            .with_context(|| format!("cannot read {}", args.source.display()))?;
        rewrite(&text, "").with_context(|| format!("cannot rewrite {}", args.source.display()))?;
        Some(text)
    } else {
        None
    };
    let start = Instant::now();
    let mut data = Vec::new();
    // The game of each position: a new one where the move number falls or the result
    // changes.
    let mut games = Vec::new();
    let mut last: Option<(u32, u8)> = None;
    let point = |pos: &xq_core::Position, red_cp: i32, result: u8| Point {
        cp: f64::from(red_cp),
        x: f64::from(material(pos).clamp(MIN_MATERIAL, MAX_MATERIAL)) / 100.0,
        result,
    };
    for path in &args.files {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        if bytes.starts_with(b"XQSP") {
            // Whole games: each one's positions are its own.
            xq_eval::selfplay::read_each(&bytes, |game| {
                let result = match game.result {
                    GameResult::BlackWins => 0,
                    GameResult::Draw => 1,
                    GameResult::RedWins => 2,
                };
                let index = games.last().map_or(0, |g| g + 1);
                for (pos, score) in game.quiet_positions() {
                    let red_cp = i32::from(score) * pos.side_to_move().sign();
                    data.push(point(&pos, red_cp, result));
                    games.push(index);
                }
            })
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            last = None;
            continue;
        }
        let text = std::str::from_utf8(&bytes).map_err(|_| {
            anyhow::anyhow!("{}: neither xq datagen text nor binary", path.display())
        })?;
        for (i, line) in text.lines().enumerate() {
            match xq_eval::tune::parse_sample(line) {
                Ok(Some(s)) => {
                    let result = (s.result * 2.0).round() as u8;
                    let ply = 2 * s.pos.fullmove_number()
                        + u32::from(s.pos.side_to_move() == xq_core::Color::Black);
                    let new_game = !last.is_some_and(|(p, r)| ply >= p && r == result);
                    let game = games.last().copied().unwrap_or(0) + usize::from(new_game);
                    games.push(game);
                    last = Some((ply, result));
                    data.push(point(&s.pos, s.score, result));
                }
                Ok(None) => {}
                Err(e) => bail!("{}:{}: {e}", path.display(), i + 1),
            }
        }
    }
    if data.len() < 100 {
        bail!("{} positions: too few to fit", data.len());
    }
    let every = if args.holdout > 0.0 {
        (1.0 / args.holdout).round().max(2.0) as usize
    } else {
        usize::MAX
    };
    let held = |g: usize| g % every == every - 1;
    let (mut fitted, mut kept_out) = (Vec::new(), Vec::new());
    for (p, &g) in data.iter().zip(&games) {
        if held(g) {
            kept_out.push(*p);
        } else {
            fitted.push(*p);
        }
    }
    let (fitted, kept_out) = (&fitted[..], &kept_out[..]);
    let n_games = games.last().map_or(0, |g| g + 1);
    let counts = |r: u8| data.iter().filter(|p| p.result == r).count();
    outln!(
        "{} positions of {} games ({} positions fitted, {} of {} games held out); Red won {}, drew {}, lost {} (positions)",
        data.len(),
        n_games,
        fitted.len(),
        kept_out.len(),
        (0..n_games).filter(|&g| held(g)).count(),
        counts(2),
        counts(1),
        counts(0)
    )?;
    let current: Theta = std::array::from_fn(|i| if i < 4 { MODEL.a[i] } else { MODEL.b[i - 4] });
    let flat: Theta = [0.0, 0.0, 0.0, 300.0, 0.0, 0.0, 0.0, 150.0];
    // From the model in use and from a flat start: the better fit.
    let (t, f) = [current, flat]
        .into_iter()
        .filter_map(|s| fit(fitted, s))
        .min_by(|x, y| x.1.total_cmp(&y.1))
        .context("the fit found no usable model")?;
    let held_loss = |t: &Theta| loss(t, kept_out).map_or(f64::NAN, |l| l.0);
    outln!(
        "cross-entropy (nats): fitted {:.4}, held out {:.4}; constant guess {:.4}, {:.4}; the model in use {:.4}, {:.4}",
        f,
        held_loss(&t),
        baseline(fitted, fitted),
        baseline(fitted, kept_out),
        loss(&current, fitted).map_or(f64::NAN, |l| l.0),
        held_loss(&current),
    )?;
    outln!(
        "Brier score of the expected result: fitted {:.4}, held out {:.4}",
        brier(&t, fitted),
        brier(&t, kept_out)
    )?;
    outln!("held out, by expected result for Red: positions, mean expected, mean result")?;
    for (i, (n, e, r)) in calibration(&t, kept_out).into_iter().enumerate() {
        outln!(
            "  {:.1}-{:.1}: {n:>6} {e:.3} {r:.3}",
            i as f64 / 10.0,
            (i + 1) as f64 / 10.0
        )?;
    }
    let m = model(&t);
    for material in [10, 20, 40, 60, 80, 106] {
        let (a, b) = m.params(material);
        let at = |cp| m.wdl(xq_search::Score::Cp(cp), material);
        let (w0, w1, w3) = (at(0), at(100), at(300));
        outln!(
            "material {material:>3}: a {a:>6.1} b {b:>6.1}; 0 cp {}/{}/{}, +100 cp {}/{}/{}, +300 cp {}/{}/{}",
            w0.win, w0.draw, w0.loss, w1.win, w1.draw, w1.loss, w3.win, w3.draw, w3.loss
        )?;
    }
    let block = render(&t, data.len());
    outln!("{block}")?;
    if let Some(text) = source {
        let new = rewrite(&text, &block)?;
        std::fs::write(&args.source, new)
            .with_context(|| format!("cannot write {}", args.source.display()))?;
        outln!("wrote {}", args.source.display())?;
    }
    outln!("{:.1} s", start.elapsed().as_secs_f64())?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use xq_core::SplitMix64;

    /// Results drawn from a known model: the fit finds it again.
    #[test]
    fn the_fit_finds_the_model_the_data_came_from() {
        let truth: Theta = [0.0, -100.0, 50.0, 350.0, 0.0, 60.0, 40.0, 120.0];
        let m = model(&truth);
        let mut rng = SplitMix64::new(3);
        let data: Vec<Point> = (0..40_000)
            .map(|_| {
                let material = 10 + rng.below(97) as u32;
                let cp = (rng.unit() - 0.5) * 1600.0;
                let w = m.win_rate(cp, material);
                let l = m.win_rate(-cp, material);
                let u = rng.unit();
                let result = if u < w {
                    2
                } else if u < w + l {
                    0
                } else {
                    1
                };
                Point {
                    cp,
                    x: f64::from(material) / 100.0,
                    result,
                }
            })
            .collect();
        let (t, f) = fit(&data, [0.0, 0.0, 0.0, 300.0, 0.0, 0.0, 0.0, 150.0]).unwrap();
        let fitted = model(&t);
        for material in [10, 40, 70, 106] {
            let (a, b) = fitted.params(material);
            let (ta, tb) = m.params(material);
            assert!((a - ta).abs() < 25.0, "a {a} vs {ta} at {material}");
            assert!((b - tb).abs() < 15.0, "b {b} vs {tb} at {material}");
        }
        // The truth is no better on its own data than the fit.
        assert!(f <= loss(&truth, &data).unwrap().0 + 1e-9);
        assert!(f < baseline(&data, &data));
    }

    #[test]
    fn the_source_block_is_replaced() {
        let source = "before\n// @generated-begin\nold\n// @generated-end\nafter\n";
        let t: Theta = [1.0, 2.0, 3.0, 300.0, 0.5, 0.25, 0.125, 150.0];
        let out = rewrite(source, &render(&t, 1234)).unwrap();
        assert_eq!(
            out,
            "before\n// @generated-begin\n/// The fitted model: `xq tune-wdl` on 1234 positions of `xq datagen` self-play (see\n/// docs/wdl.md).\npub const MODEL: WdlModel = WdlModel {\n    a: [1.000, 2.000, 3.000, 300.000],\n    b: [0.500, 0.250, 0.125, 150.000],\n};\n// @generated-end\nafter\n"
        );
        assert!(rewrite("no block", "x").is_err());
    }
}
