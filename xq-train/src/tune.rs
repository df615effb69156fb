//! Texel tuning: fitting every weight of the classical evaluation
//! ([`PARAMS`](xq_eval::params::PARAMS)) to games.
//!
//! The data are positions from the engine's own games (`xq datagen`), in either form,
//! read by [`crate::data`]: each position with the search's score and the game's result.
//!
//! The method (Texel's): the evaluation is linear in the weights, so each position is
//! reduced once to its [`Trace`](xq_eval::Trace) (the weights that occur with their
//! counts, the phase and the endgame scale, all fixed). The predicted result of a
//! position is `sigmoid(K * eval)`; `K` is fitted first, to the starting weights; then
//! the mean squared error between prediction and target (the result, or with
//! `lambda < 1` a blend of the result and `sigmoid(K * score)`) is minimised by
//! gradient descent with Adam over mini-batches, the gradient summed over threads. A part
//! of the data is held out and its error reported, to watch for overfitting. Finally the
//! weights, rounded, are written back into `params.rs` ([`rewrite_params`]), between its
//! markers, in the layout of [`TERMS`].
//!
//! ```
//! use xq_eval::params::PARAMS;
//! use xq_train::tune::{Dataset, TuneOptions, Tuner};
//! let text = "\
//! rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 | 10 | 0.5
//! 1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 | 900 | 1.0
//! rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR b - - 0 1 | -880 | 0.0
//! ";
//! let data = Dataset::from_bytes(text.as_bytes()).unwrap();
//! assert_eq!(data.len(), 3);
//! let mut tuner = Tuner::new(&data, &PARAMS, TuneOptions::default());
//! let before = tuner.error(&data);
//! tuner.epoch();
//! assert!(tuner.error(&data) < before);
//! ```

use crate::data::{read_bytes, read_file, DataError};
use crate::text::Sample;
use std::fmt;
use std::path::Path;
use xq_core::SplitMix64;
use xq_eval::endgame::SCALE_MAX;
use xq_eval::params::{N, S, TERMS};
use xq_eval::pst::PHASE_MAX;

/// The line that opens the generated block of `params.rs`.
pub const BEGIN_MARKER: &str = "// @generated-begin";
/// The line that closes it.
pub const END_MARKER: &str = "// @generated-end";

/// Positions reduced to what the tuner needs: each one's features (weight and count),
/// phase and endgame scale, the search's score and the game's result.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dataset {
    /// `starts[i]..starts[i + 1]` are position `i`'s entries of `param` and `count`.
    starts: Vec<u32>,
    param: Vec<u16>,
    count: Vec<i16>,
    phase: Vec<u8>,
    scale: Vec<u8>,
    score: Vec<f32>,
    result: Vec<f32>,
}

impl Dataset {
    /// No positions.
    pub fn new() -> Dataset {
        Dataset {
            starts: vec![0],
            ..Dataset::default()
        }
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.phase.len()
    }

    /// Has it no positions?
    pub fn is_empty(&self) -> bool {
        self.phase.is_empty()
    }

    /// Adds a position: its trace is taken now, with the current weights deciding only
    /// the endgame scale.
    pub fn push(&mut self, sample: &Sample) {
        let t = xq_eval::trace(&sample.pos);
        for (p, n) in t.features {
            self.param.push(p as u16);
            // A count is at most the number of pieces of a side on the board.
            self.count.push(n as i16);
        }
        self.starts.push(self.param.len() as u32);
        self.phase.push(t.phase as u8);
        self.scale.push(t.scale as u8);
        self.score.push(sample.score as f32);
        self.result.push(sample.result as f32);
    }

    /// Every position of training data in either form (see [`crate::data`]).
    ///
    /// # Errors
    /// The first problem in the data, with its line or byte offset.
    pub fn from_bytes(bytes: &[u8]) -> Result<Dataset, DataError> {
        let mut data = Dataset::new();
        read_bytes(bytes, |game| game.iter().for_each(|s| data.push(s)))?;
        Ok(data)
    }

    /// Adds every position of a training data file in either form.
    ///
    /// # Errors
    /// The file cannot be read, or its first problem, with the file's name and the line
    /// or byte offset (the positions before it are added).
    pub fn push_file(&mut self, path: impl AsRef<Path>) -> Result<(), DataError> {
        read_file(path, |game| game.iter().for_each(|s| self.push(s)))
    }

    /// Appends every position of `other`.
    pub fn extend(&mut self, other: &Dataset) {
        for i in 0..other.len() {
            self.push_from(other, i);
        }
    }

    fn push_from(&mut self, other: &Dataset, i: usize) {
        let r = other.range(i);
        self.param.extend_from_slice(&other.param[r.clone()]);
        self.count.extend_from_slice(&other.count[r]);
        self.starts.push(self.param.len() as u32);
        self.phase.push(other.phase[i]);
        self.scale.push(other.scale[i]);
        self.score.push(other.score[i]);
        self.result.push(other.result[i]);
    }

    fn range(&self, i: usize) -> std::ops::Range<usize> {
        self.starts[i] as usize..self.starts[i + 1] as usize
    }

    /// Splits off a held-out part: a `fraction` of the positions chosen by a generator
    /// seeded with `seed`. Returns (the rest, the held-out part).
    pub fn split(&self, fraction: f64, seed: u64) -> (Dataset, Dataset) {
        let mut order: Vec<usize> = (0..self.len()).collect();
        let mut rng = SplitMix64::new(seed);
        for i in (1..order.len()).rev() {
            order.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
        }
        let held =
            ((self.len() as f64 * fraction.clamp(0.0, 1.0)).round() as usize).min(self.len());
        let (mut train, mut test) = (Dataset::new(), Dataset::new());
        let mut held_out = vec![false; self.len()];
        for &i in &order[..held] {
            held_out[i] = true;
        }
        for (i, &h) in held_out.iter().enumerate() {
            if h {
                test.push_from(self, i);
            } else {
                train.push_from(self, i);
            }
        }
        (train, test)
    }

    /// Position `i`'s evaluation (Red-relative) with the weights `params`, unrounded.
    fn eval(&self, i: usize, params: &[[f64; 2]]) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for j in self.range(i) {
            let n = self.count[j] as f64;
            let p = &params[self.param[j] as usize];
            mg += n * p[0];
            eg += n * p[1];
        }
        let phase = self.phase[i] as f64 / PHASE_MAX as f64;
        (mg * phase + eg * (1.0 - phase)) * self.scale[i] as f64 / SCALE_MAX as f64
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// How the tuner works.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneOptions {
    /// Adam's step size, in centipawns.
    pub lr: f64,
    /// The weight of the game result in the target: 1.0 fits the results alone, 0.0 the
    /// search scores alone.
    pub lambda: f64,
    /// Positions per gradient step.
    pub batch: usize,
    /// Threads for the gradient and the errors.
    pub threads: usize,
    /// Weights kept as they are (one flag per weight; empty for none).
    pub frozen: Vec<bool>,
}

impl Default for TuneOptions {
    fn default() -> TuneOptions {
        TuneOptions {
            lr: 1.0,
            lambda: 1.0,
            batch: 16384,
            threads: 1,
            frozen: Vec::new(),
        }
    }
}

impl TuneOptions {
    /// Freezes every weight of the term named `name`.
    ///
    /// # Errors
    /// The name is not a term of [`TERMS`].
    pub fn freeze(&mut self, name: &str) -> Result<(), UnknownTerm> {
        let term = xq_eval::params::term(name).ok_or_else(|| UnknownTerm(name.to_string()))?;
        self.frozen.resize(N, false);
        for f in &mut self.frozen[term.range.clone()] {
            *f = true;
        }
        Ok(())
    }
}

/// A name that is not a term of [`TERMS`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownTerm(pub String);

impl fmt::Display for UnknownTerm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = TERMS.iter().map(|t| t.name).collect();
        write!(
            f,
            "no term `{}`; the terms are {}",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownTerm {}

/// The mean squared error of `data` with the weights `params`, `K` and `lambda`, summed
/// over `threads` threads.
fn mean_error(data: &Dataset, params: &[[f64; 2]], k: f64, lambda: f64, threads: usize) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let total: f64 = parallel(data.len(), threads, |r| {
        r.map(|i| {
            let p = sigmoid(k * data.eval(i, params));
            let t = target(data, i, k, lambda);
            (p - t) * (p - t)
        })
        .sum::<f64>()
    })
    .into_iter()
    .sum();
    total / data.len() as f64
}

/// `work` run on `0..n` cut into `threads` parts, each on its own thread; the results in
/// order.
fn parallel<T: Send>(
    n: usize,
    threads: usize,
    work: impl Fn(std::ops::Range<usize>) -> T + Sync,
) -> Vec<T> {
    let parts = chunks(n, threads);
    if parts.len() == 1 {
        return vec![work(0..n)];
    }
    std::thread::scope(|s| {
        let handles: Vec<_> = parts
            .into_iter()
            .map(|r| {
                let work = &work;
                s.spawn(move || work(r))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a tuning thread panicked"))
            .collect()
    })
}

/// The target of position `i`: its result, blended with its search score by `lambda`.
fn target(data: &Dataset, i: usize, k: f64, lambda: f64) -> f64 {
    let r = data.result[i] as f64;
    if lambda >= 1.0 {
        r
    } else {
        lambda * r + (1.0 - lambda) * sigmoid(k * data.score[i] as f64)
    }
}

/// `0..n` cut into `parts` ranges of nearly equal length.
fn chunks(n: usize, parts: usize) -> Vec<std::ops::Range<usize>> {
    let parts = parts.clamp(1, n.max(1));
    (0..parts)
        .map(|p| p * n / parts..(p + 1) * n / parts)
        .collect()
}

/// The `K` of `sigmoid(K * eval)` that predicts the results of `data` best with the
/// weights `params`: a golden-section search on its logarithm between 1e-4 and 0.1.
pub fn fit_k(data: &Dataset, params: &[S], threads: usize) -> f64 {
    let p = to_f64(params);
    let evals: Vec<f64> = parallel(data.len(), threads, |r| {
        r.map(|i| data.eval(i, &p)).collect::<Vec<f64>>()
    })
    .concat();
    let error = |ln_k: f64| -> f64 {
        let k = ln_k.exp();
        evals
            .iter()
            .zip(&data.result)
            .map(|(&e, &r)| (sigmoid(k * e) - r as f64).powi(2))
            .sum()
    };
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (1e-4f64.ln(), 0.1f64.ln());
    let (mut a, mut b) = (hi - ratio * (hi - lo), lo + ratio * (hi - lo));
    let (mut fa, mut fb) = (error(a), error(b));
    for _ in 0..60 {
        if fa < fb {
            hi = b;
            (b, fb) = (a, fa);
            a = hi - ratio * (hi - lo);
            fa = error(a);
        } else {
            lo = a;
            (a, fa) = (b, fb);
            b = lo + ratio * (hi - lo);
            fb = error(b);
        }
    }
    ((lo + hi) / 2.0).exp()
}

fn to_f64(params: &[S]) -> Vec<[f64; 2]> {
    params.iter().map(|s| [s.0 as f64, s.1 as f64]).collect()
}

/// The tuner: the weights being fitted, Adam's moments, and the data it fits.
#[derive(Debug)]
pub struct Tuner<'a> {
    data: &'a Dataset,
    params: Vec<[f64; 2]>,
    m: Vec<[f64; 2]>,
    v: Vec<[f64; 2]>,
    steps: i32,
    k: f64,
    options: TuneOptions,
}

impl<'a> Tuner<'a> {
    /// A tuner of `data` starting from the weights `initial`; fits `K` at once.
    ///
    /// # Panics
    /// If `initial` does not have one value per weight.
    pub fn new(data: &'a Dataset, initial: &[S], options: TuneOptions) -> Tuner<'a> {
        assert_eq!(initial.len(), N, "one value per weight");
        let k = fit_k(data, initial, options.threads);
        Tuner {
            data,
            params: to_f64(initial),
            m: vec![[0.0; 2]; N],
            v: vec![[0.0; 2]; N],
            steps: 0,
            k,
            options,
        }
    }

    /// The fitted `K` of `sigmoid(K * eval)`.
    pub fn k(&self) -> f64 {
        self.k
    }

    /// The mean squared error of `data` with the current weights.
    pub fn error(&self, data: &Dataset) -> f64 {
        mean_error(
            data,
            &self.params,
            self.k,
            self.options.lambda,
            self.options.threads,
        )
    }

    /// One pass over the data, one Adam step per batch.
    pub fn epoch(&mut self) {
        let n = self.data.len();
        let batch = self.options.batch.max(1);
        let mut start = 0;
        while start < n {
            let end = (start + batch).min(n);
            let grad = self.gradient(start..end);
            self.step(&grad);
            start = end;
        }
    }

    /// The gradient of the mean error over positions `range`.
    fn gradient(&self, range: std::ops::Range<usize>) -> Vec<[f64; 2]> {
        let len = range.len().max(1) as f64;
        let (data, params, k, lambda) = (self.data, &self.params, self.k, self.options.lambda);
        let sums = parallel(range.len(), self.options.threads, |r| {
            let mut g = vec![[0.0; 2]; N];
            for i in range.start + r.start..range.start + r.end {
                let p = sigmoid(k * data.eval(i, params));
                let t = target(data, i, k, lambda);
                let phase = data.phase[i] as f64 / PHASE_MAX as f64;
                let common =
                    2.0 * (p - t) * p * (1.0 - p) * k * data.scale[i] as f64 / SCALE_MAX as f64;
                let (gm, ge) = (common * phase, common * (1.0 - phase));
                for j in data.range(i) {
                    let c = data.count[j] as f64;
                    let e = &mut g[data.param[j] as usize];
                    e[0] += c * gm;
                    e[1] += c * ge;
                }
            }
            g
        });
        let mut g = vec![[0.0; 2]; N];
        for part in sums {
            for (a, b) in g.iter_mut().zip(part) {
                a[0] += b[0] / len;
                a[1] += b[1] / len;
            }
        }
        g
    }

    /// One Adam step along `grad`.
    fn step(&mut self, grad: &[[f64; 2]]) {
        const BETA1: f64 = 0.9;
        const BETA2: f64 = 0.999;
        const EPS: f64 = 1e-8;
        self.steps += 1;
        let (c1, c2) = (1.0 - BETA1.powi(self.steps), 1.0 - BETA2.powi(self.steps));
        let lr = self.options.lr;
        for (i, g) in grad.iter().enumerate() {
            if self.options.frozen.get(i).copied().unwrap_or(false) {
                continue;
            }
            let (m, v, p) = (&mut self.m[i], &mut self.v[i], &mut self.params[i]);
            for j in 0..2 {
                m[j] = BETA1 * m[j] + (1.0 - BETA1) * g[j];
                v[j] = BETA2 * v[j] + (1.0 - BETA2) * g[j] * g[j];
                p[j] -= lr * (m[j] / c1) / ((v[j] / c2).sqrt() + EPS);
            }
        }
    }

    /// The current weights, rounded to integers.
    pub fn params(&self) -> Vec<S> {
        self.params
            .iter()
            .map(|p| S(p[0].round() as i32, p[1].round() as i32))
            .collect()
    }
}

/// The generated block of `params.rs` for `values` (one per entry of
/// [`PARAMS`](xq_eval::params::PARAMS)): the markers, the doc line and the array, each term
/// under a comment with its name and layout.
///
/// # Panics
/// If `values` does not have one value per weight.
pub fn render_params(values: &[S]) -> String {
    assert_eq!(values.len(), N, "one value per weight");
    let mut out = String::new();
    out.push_str(BEGIN_MARKER);
    out.push_str(" by `xq tune --write`: everything down to @generated-end is rewritten.\n");
    out.push_str("/// Every weight, (middlegame, endgame), in the order of [`TERMS`].\n");
    out.push_str("#[rustfmt::skip]\n");
    out.push_str("pub const PARAMS: [S; N] = [\n");
    for term in TERMS {
        out.push_str(&format!("    // {}: {}\n", term.name, term.layout));
        for chunk in values[term.range.clone()].chunks(term.per_line) {
            let line: Vec<String> = chunk
                .iter()
                .map(|s| format!("S({}, {}),", s.0, s.1))
                .collect();
            out.push_str("    ");
            out.push_str(&line.join(" "));
            out.push('\n');
        }
    }
    out.push_str("];\n");
    out.push_str(END_MARKER);
    out.push('\n');
    out
}

/// Why `params.rs` could not be rewritten.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RewriteError {
    /// The marker line is not in the file.
    MissingMarker(&'static str),
}

impl fmt::Display for RewriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RewriteError::MissingMarker(m) => {
                write!(
                    f,
                    "no line starting with `{m}`: is this xq-eval's params.rs?"
                )
            }
        }
    }
}

impl std::error::Error for RewriteError {}

/// `source` (the text of `params.rs`) with its generated block replaced by
/// [`render_params`]`(values)`; everything outside the markers is kept.
///
/// # Errors
/// A marker is missing.
///
/// ```
/// use xq_eval::params::PARAMS;
/// use xq_train::tune::{render_params, rewrite_params};
/// let source = format!("// before\n{}// after\n", render_params(&PARAMS));
/// // Everything outside the markers is kept.
/// assert_eq!(rewrite_params(&source, &PARAMS).unwrap(), source);
/// assert!(rewrite_params("fn main() {}", &PARAMS).is_err());
/// ```
pub fn rewrite_params(source: &str, values: &[S]) -> Result<String, RewriteError> {
    let line_start = |marker: &'static str| -> Result<usize, RewriteError> {
        let mut at = 0;
        for line in source.split_inclusive('\n') {
            if line.starts_with(marker) {
                return Ok(at);
            }
            at += line.len();
        }
        Err(RewriteError::MissingMarker(marker))
    };
    let begin = line_start(BEGIN_MARKER)?;
    let end_line = line_start(END_MARKER)?;
    if end_line < begin {
        return Err(RewriteError::MissingMarker(END_MARKER));
    }
    let end = source[end_line..]
        .find('\n')
        .map_or(source.len(), |i| end_line + i + 1);
    Ok(format!(
        "{}{}{}",
        &source[..begin],
        render_params(values),
        &source[end..]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_sample;
    use xq_core::Position;
    use xq_eval::params::{MATERIAL, PARAMS};

    const TEXT: &str = "\
rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 | 10 | 0.5
1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 | 900 | 1.0
rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR b - - 0 1 | -880 | 0.0
# a comment

3akab2/9/4C4/9/9/9/9/9/9/3AKA3 w - - 0 1 | 150 | 1.0
4k4/9/3nb4/4p4/9/9/9/9/4C4/3K5 b - - 0 1 | 40 | 0.5
";

    #[test]
    fn data_files_read_and_report_the_bad_line() {
        let data = Dataset::from_bytes(TEXT.as_bytes()).unwrap();
        assert_eq!(data.len(), 5);
        let bad = "4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1 | 12 | 1.0\n4k4/9/9 w | 1 | 0.5\n";
        let err = Dataset::from_bytes(bad.as_bytes()).unwrap_err();
        assert_eq!(err.line(), Some(2));
        assert_eq!(
            err.to_string(),
            "line 2: bad FEN: malformed FEN: the board has 3 ranks separated by '/', expected 10"
        );
    }

    #[test]
    fn the_float_evaluation_is_the_integer_one_unrounded() {
        let data = Dataset::from_bytes(TEXT.as_bytes()).unwrap();
        let p = to_f64(&PARAMS);
        let mut i = 0;
        for line in TEXT.lines() {
            if let Ok(Some(r)) = parse_sample(line) {
                let exact = xq_eval::trace(&r.pos).red_score(&PARAMS) as f64;
                assert!((data.eval(i, &p) - exact).abs() < 1.0, "{line}");
                i += 1;
            }
        }
    }

    #[test]
    fn the_gradient_is_the_slope_of_the_error() {
        let data = Dataset::from_bytes(TEXT.as_bytes()).unwrap();
        let options = TuneOptions {
            lambda: 0.5,
            ..TuneOptions::default()
        };
        let tuner = Tuner::new(&data, &PARAMS, options);
        let grad = tuner.gradient(0..data.len());
        let h = 1e-3;
        let mut checked = 0;
        for &(p, _) in
            &xq_eval::trace(&Position::from_fen("3akab2/9/4C4/9/9/9/9/9/9/3AKA3 w").unwrap())
                .features
        {
            for j in 0..2 {
                let mut plus = tuner.params.clone();
                let mut minus = tuner.params.clone();
                plus[p][j] += h;
                minus[p][j] -= h;
                let slope = (mean_error(&data, &plus, tuner.k, 0.5, 1)
                    - mean_error(&data, &minus, tuner.k, 0.5, 1))
                    / (2.0 * h);
                assert!(
                    (slope - grad[p][j]).abs() < 1e-7 + 1e-4 * slope.abs(),
                    "weight {p}.{j}: {slope} vs {}",
                    grad[p][j]
                );
                checked += 1;
            }
        }
        assert!(checked > 20);
    }

    #[test]
    fn threads_do_not_change_the_result_much_and_frozen_weights_stay() {
        let data = Dataset::from_bytes(TEXT.as_bytes()).unwrap();
        let mut options = TuneOptions::default();
        options.freeze("material").unwrap();
        assert_eq!(options.freeze("queen"), Err(UnknownTerm("queen".into())));
        let mut one = Tuner::new(&data, &PARAMS, options.clone());
        let mut two = Tuner::new(
            &data,
            &PARAMS,
            TuneOptions {
                threads: 2,
                ..options
            },
        );
        for _ in 0..5 {
            one.epoch();
            two.epoch();
        }
        assert!((one.error(&data) - two.error(&data)).abs() < 1e-12);
        assert_eq!(one.params()[MATERIAL], PARAMS[MATERIAL]);
        assert_ne!(one.params(), PARAMS.to_vec());
    }

    #[test]
    fn split_is_seeded_and_keeps_every_position() {
        let data = Dataset::from_bytes(TEXT.as_bytes()).unwrap();
        let (a, b) = data.split(0.4, 7);
        assert_eq!((a.len(), b.len()), (3, 2));
        assert_eq!(data.split(0.4, 7), (a.clone(), b.clone()));
        let mut all = a;
        all.extend(&b);
        let mut scores = all.score.clone();
        scores.sort_by(f32::total_cmp);
        assert_eq!(scores, [-880.0, 10.0, 40.0, 150.0, 900.0]);
    }

    #[test]
    fn k_fits_the_results() {
        // A chariot up and always a win: K grows to the top of its range. The same
        // position won and lost: the evaluation predicts nothing and K shrinks.
        let winning = "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1 | 0 | 1.0\n";
        let data = Dataset::from_bytes(winning.as_bytes()).unwrap();
        assert!(fit_k(&data, &PARAMS, 1) > 0.09);
        let both = "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1 | 0 | 1.0\n4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1 | 0 | 0.0\n";
        let data = Dataset::from_bytes(both.as_bytes()).unwrap();
        assert!(fit_k(&data, &PARAMS, 1) < 0.0002);
    }

    #[test]
    fn rewriting_needs_the_markers() {
        assert_eq!(
            rewrite_params("fn main() {}\n", &PARAMS),
            Err(RewriteError::MissingMarker(BEGIN_MARKER))
        );
        let source = include_str!("../../xq-eval/src/params.rs");
        // The committed file is exactly what the tuner writes for its own numbers.
        assert_eq!(rewrite_params(source, &PARAMS).unwrap(), source);
        let mut changed = PARAMS.to_vec();
        changed[MATERIAL.start + 4] = S(901, 951);
        let out = rewrite_params(source, &changed).unwrap();
        // The chariot's weight, fifth in the material row, whatever the tuned values are.
        let material_row = out
            .lines()
            .skip_while(|l| !l.trim_start().starts_with("// material:"))
            .nth(1)
            .unwrap();
        assert_eq!(material_row.split("), ").nth(4), Some("S(901, 951"));
        assert_eq!(out.lines().count(), source.lines().count());
        assert_eq!(rewrite_params(&out, &PARAMS).unwrap(), source);
    }
}
