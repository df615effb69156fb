//! Fitting the win/draw/loss model ([`xq_search::wdl`]) to self-play games: what
//! `xq tune-wdl` runs.
//!
//! The fit is maximum likelihood: the eight coefficients (`a` and `b`, cubic in
//! `material / 100`) that make the games' results most likely given each position's
//! score and material, that is the least mean negative log-likelihood (cross-entropy, in
//! nats) of the result. It is minimised by damped Newton steps (Levenberg-Marquardt) with
//! the exact gradient and a Hessian from differences of gradients, from the model in use
//! and from a flat start, the better fit kept. A part of the games (every tenth game for
//! a hold-out of 0.1) is kept out of the fit to measure it: whole games, as a game's
//! positions share its result. The games are those [`crate::data`] reads, numbered in
//! order; a game without a position does not count.
//!
//! ```
//! use xq_core::Position;
//! use xq_search::wdl::MODEL;
//! use xq_train::text::Sample;
//! use xq_train::wdl::{fit, WdlData};
//! let mut data = WdlData::new();
//! // Games of a chariot against nothing: Red, a chariot up, wins them all but every
//! // fifth, which is drawn; the scores say +900.
//! let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/R3K4 w").unwrap();
//! for g in 0..200 {
//!     let result = if g % 5 == 0 { 0.5 } else { 1.0 };
//!     data.push_game(&[Sample { pos: pos.clone(), score: 900, result }]);
//! }
//! let f = fit(&data, 0.1, &MODEL).unwrap();
//! assert_eq!((f.positions, f.games, f.held_out_games), (200, 200, 20));
//! // Fitted: about four wins in five at +900 with this material.
//! let win = f.model.win_rate(900.0, 12);
//! assert!((0.7..0.9).contains(&win), "{win}");
//! ```

use crate::data::{read_file, DataError};
use crate::text::Sample;
use std::fmt;
use std::path::Path;
use xq_search::wdl::{material, WdlModel, MAX_MATERIAL, MIN_MATERIAL};

/// The fewest positions [`fit`] fits.
pub const MIN_POSITIONS: usize = 100;

/// One position: its score (centipawns, Red's view), `material / 100` and the result
/// for Red (0 loss, 1 draw, 2 win).
#[derive(Copy, Clone, Debug, PartialEq)]
struct Point {
    cp: f64,
    x: f64,
    result: u8,
}

/// The positions of self-play games, as the fit sees them: each one's score, material
/// and result, and its game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WdlData {
    points: Vec<Point>,
    /// The game of each point, numbered from 0.
    game: Vec<usize>,
    games: usize,
}

impl WdlData {
    /// No positions.
    pub fn new() -> WdlData {
        WdlData::default()
    }

    /// Adds a game's positions (as [`crate::data`] hands them over) as the next game;
    /// a game without a position is not counted.
    pub fn push_game(&mut self, game: &[Sample]) {
        if game.is_empty() {
            return;
        }
        for s in game {
            self.points.push(Point {
                cp: f64::from(s.score),
                x: f64::from(material(&s.pos).clamp(MIN_MATERIAL, MAX_MATERIAL)) / 100.0,
                result: (s.result * 2.0).round() as u8,
            });
            self.game.push(self.games);
        }
        self.games += 1;
    }

    /// Adds every game of a data file of either form.
    ///
    /// # Errors
    /// The file cannot be read, or its first problem, with the file's name and the line
    /// or byte offset (the games before it are added).
    pub fn push_file(&mut self, path: impl AsRef<Path>) -> Result<(), DataError> {
        read_file(path, |game| self.push_game(game))
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Has it no positions?
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// The number of games.
    pub fn games(&self) -> usize {
        self.games
    }

    /// The positions of games Red won, drew and lost, in that order.
    pub fn results(&self) -> [usize; 3] {
        let count = |r: u8| self.points.iter().filter(|p| p.result == r).count();
        [count(2), count(1), count(0)]
    }
}

/// A measure on the fitted part and on the held-out part.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Parts<T> {
    /// On the positions fitted.
    pub fitted: T,
    /// On the positions held out (NaN for a loss when none is).
    pub held_out: T,
}

/// One bin of the calibration table.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Bin {
    /// The held-out positions in the bin.
    pub positions: usize,
    /// Their mean expected result for Red (a win 1, a draw 0.5).
    pub expected: f64,
    /// Their mean result for Red.
    pub result: f64,
}

/// The fitted model and how well it predicts.
#[derive(Clone, Debug, PartialEq)]
pub struct WdlFit {
    /// The model.
    pub model: WdlModel,
    /// The positions of the data.
    pub positions: usize,
    /// The games of the data.
    pub games: usize,
    /// The positions fitted and held out.
    pub split: Parts<usize>,
    /// The games held out.
    pub held_out_games: usize,
    /// The fitted model's mean cross-entropy of the results, nats.
    pub loss: Parts<f64>,
    /// The cross-entropy of the best constant guess (each result's share of the fitted
    /// positions).
    pub constant: Parts<f64>,
    /// The cross-entropy of the model the fit started from (the model in use).
    pub start: Parts<f64>,
    /// The mean squared error of the expected result (the Brier score, a win 1, a draw
    /// 0.5, a loss 0).
    pub brier: Parts<f64>,
    /// The held-out positions in ten bins of the model's expected result for Red (0-0.1,
    /// ..., 0.9-1): a calibrated model has the two means close in every bin.
    pub calibration: Vec<Bin>,
}

/// Why the model could not be fitted.
#[derive(Clone, Debug, PartialEq)]
pub enum WdlError {
    /// A hold-out share outside `[0, 1)`.
    Holdout(f64),
    /// Fewer positions than [`MIN_POSITIONS`].
    TooFew(usize),
    /// No start gave a usable model.
    NoModel,
}

impl fmt::Display for WdlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WdlError::Holdout(h) => write!(f, "a hold-out of {h} is not in [0, 1)"),
            WdlError::TooFew(n) => write!(f, "{n} positions: too few to fit"),
            WdlError::NoModel => f.write_str("the fit found no usable model"),
        }
    }
}

impl std::error::Error for WdlError {}

/// The parameters: `a` then `b`, each from the cube down.
type Theta = [f64; 8];

fn model(t: &Theta) -> WdlModel {
    WdlModel {
        a: [t[0], t[1], t[2], t[3]],
        b: [t[4], t[5], t[6], t[7]],
    }
}

fn theta(m: &WdlModel) -> Theta {
    std::array::from_fn(|i| if i < 4 { m.a[i] } else { m.b[i - 4] })
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
fn fit_from(data: &[Point], start: Theta) -> Option<(Theta, f64)> {
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

/// The expected result for Red of a position under the model `m`.
fn expected(m: &WdlModel, p: &Point) -> f64 {
    let material = (p.x * 100.0).round() as u32;
    let w = m.win_rate(p.cp, material);
    let l = m.win_rate(-p.cp, material);
    w + (1.0 - w - l) / 2.0
}

/// The mean squared error of the expected result (the Brier score of the score for
/// Red: a win 1, a draw 0.5, a loss 0).
fn brier(t: &Theta, data: &[Point]) -> f64 {
    let m = model(t);
    let total: f64 = data
        .iter()
        .map(|p| (expected(&m, p) - f64::from(p.result) / 2.0).powi(2))
        .sum();
    total / data.len().max(1) as f64
}

/// The calibration table of `data` (see [`WdlFit::calibration`]).
fn calibration(t: &Theta, data: &[Point]) -> Vec<Bin> {
    let m = model(t);
    let mut bins = vec![(0usize, 0.0, 0.0); 10];
    for p in data {
        let e = expected(&m, p);
        let bin = &mut bins[((e * 10.0) as usize).min(9)];
        bin.0 += 1;
        bin.1 += e;
        bin.2 += f64::from(p.result) / 2.0;
    }
    bins.into_iter()
        .map(|(n, e, r)| Bin {
            positions: n,
            expected: e / n.max(1) as f64,
            result: r / n.max(1) as f64,
        })
        .collect()
}

/// Fits the model to `data`, holding out every `1 / holdout`-th game (none for 0), from
/// `start` (the model in use) and from a flat start; the better fit is kept.
///
/// # Errors
/// A hold-out outside `[0, 1)`, fewer than [`MIN_POSITIONS`] positions, or no usable
/// model.
pub fn fit(data: &WdlData, holdout: f64, start: &WdlModel) -> Result<WdlFit, WdlError> {
    if !(0.0..1.0).contains(&holdout) {
        return Err(WdlError::Holdout(holdout));
    }
    if data.len() < MIN_POSITIONS {
        return Err(WdlError::TooFew(data.len()));
    }
    let every = if holdout > 0.0 {
        (1.0 / holdout).round().max(2.0) as usize
    } else {
        usize::MAX
    };
    let held = |g: usize| g % every == every - 1;
    let (mut fitted, mut kept_out) = (Vec::new(), Vec::new());
    for (p, &g) in data.points.iter().zip(&data.game) {
        if held(g) {
            kept_out.push(*p);
        } else {
            fitted.push(*p);
        }
    }
    let (fitted, kept_out) = (&fitted[..], &kept_out[..]);
    let current = theta(start);
    let flat: Theta = [0.0, 0.0, 0.0, 300.0, 0.0, 0.0, 0.0, 150.0];
    let (t, f) = [current, flat]
        .into_iter()
        .filter_map(|s| fit_from(fitted, s))
        .min_by(|x, y| x.1.total_cmp(&y.1))
        .ok_or(WdlError::NoModel)?;
    let held_loss = |t: &Theta| loss(t, kept_out).map_or(f64::NAN, |l| l.0);
    Ok(WdlFit {
        model: model(&t),
        positions: data.len(),
        games: data.games,
        split: Parts {
            fitted: fitted.len(),
            held_out: kept_out.len(),
        },
        held_out_games: (0..data.games).filter(|&g| held(g)).count(),
        loss: Parts {
            fitted: f,
            held_out: held_loss(&t),
        },
        constant: Parts {
            fitted: baseline(fitted, fitted),
            held_out: baseline(fitted, kept_out),
        },
        start: Parts {
            fitted: loss(&current, fitted).map_or(f64::NAN, |l| l.0),
            held_out: held_loss(&current),
        },
        brier: Parts {
            fitted: brier(&t, fitted),
            held_out: brier(&t, kept_out),
        },
        calibration: calibration(&t, kept_out),
    })
}

/// The model's file (`xq-search/data/wdl-model.txt`) for `model`, fitted on `positions`
/// positions: what `xq tune-wdl --write` writes.
///
/// ```
/// use xq_search::wdl::WdlModel;
/// let m = WdlModel { a: [1.0, 2.0, 3.0, 300.0], b: [0.5, 0.25, 0.125, 150.0] };
/// let text = xq_train::wdl::render(&m, 1234);
/// assert!(text.contains("on 1234 positions"));
/// assert!(text.ends_with("a 1.000 2.000 3.000 300.000\nb 0.500 0.250 0.125 150.000\n"));
/// assert_eq!(WdlModel::from_text(&text), Ok(m));
/// ```
pub fn render(model: &WdlModel, positions: usize) -> String {
    model.to_text(&format!(
        "The win/draw/loss model of xq_search::wdl: `a` and `b` as cubic polynomials in\n\
         material / 100, coefficients from the cube down to the constant, in centipawns.\n\
         Fitted by `xq tune-wdl --write` on {positions} positions of `xq datagen` self-play\n\
         (docs/wdl.md)."
    ))
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
        let (t, f) = fit_from(&data, [0.0, 0.0, 0.0, 300.0, 0.0, 0.0, 0.0, 150.0]).unwrap();
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
    fn the_committed_model_file_is_what_render_writes() {
        let committed = xq_search::wdl::MODEL_TEXT;
        let at = committed.find("on ").unwrap() + "on ".len();
        let positions: usize = committed[at..].split(' ').next().unwrap().parse().unwrap();
        assert_eq!(render(&xq_search::wdl::MODEL, positions), committed);
    }

    #[test]
    fn games_are_held_out_whole_and_bad_input_is_refused() {
        let pos = xq_core::Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/R3K4 w").unwrap();
        let mut data = WdlData::new();
        for g in 0..50 {
            let positions: Vec<Sample> = (0..3)
                .map(|i| Sample {
                    pos: pos.clone(),
                    score: 100 * i + g,
                    result: [0.0, 0.5, 1.0][(g % 3) as usize],
                })
                .collect();
            data.push_game(&positions);
            // Empty games are not counted.
            data.push_game(&[]);
        }
        assert_eq!((data.len(), data.games()), (150, 50));
        assert_eq!(data.results(), [48, 51, 51]);
        let f = fit(&data, 0.1, &xq_search::wdl::MODEL).unwrap();
        // Games 9, 19, 29, 39 and 49: three positions each.
        assert_eq!(f.held_out_games, 5);
        assert_eq!((f.split.fitted, f.split.held_out), (135, 15));
        assert_eq!(f.calibration.iter().map(|b| b.positions).sum::<usize>(), 15);
        let none = fit(&data, 0.0, &xq_search::wdl::MODEL).unwrap();
        assert_eq!((none.split.held_out, none.held_out_games), (0, 0));
        assert!(none.loss.held_out.is_nan());
        assert_eq!(
            fit(&data, 1.0, &xq_search::wdl::MODEL),
            Err(WdlError::Holdout(1.0))
        );
        let mut few = WdlData::new();
        few.push_game(&[Sample {
            pos,
            score: 0,
            result: 0.5,
        }]);
        assert_eq!(
            fit(&few, 0.1, &xq_search::wdl::MODEL)
                .unwrap_err()
                .to_string(),
            "1 positions: too few to fit"
        );
    }
}
