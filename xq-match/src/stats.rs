//! The statistics of a match, as fastchess and fishtest compute them: games counted in
//! pairs (the two games of one opening, one with each colour) into a pentanomial
//! distribution, the Elo difference with its 95% error from it, and the sequential
//! probability ratio test (SPRT) on it.
//!
//! A pair scores 0, ½, 1, 1½ or 2 points for the first engine; the five counts are the
//! pentanomial `[LL, LD, DD + WL, WD, WW]`. Pairs are the unit of the statistics because
//! the two games of an opening are not independent (an opening that favours one colour
//! favours it in both games): treating them as independent games understates the error.
//!
//! ```
//! use xq_match::stats::{Pentanomial, Sprt};
//! let p = Pentanomial { counts: [10, 20, 40, 25, 5] };
//! assert_eq!(p.pairs(), 100);
//! assert_eq!(p.score(), 0.4875);
//! let (elo, error) = p.elo();
//! assert!((elo - -8.69).abs() < 0.01, "{elo}");
//! assert!(error > 0.0);
//! let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05);
//! assert!(sprt.llr(&p) < 0.0); // below 0 Elo: the evidence is against elo1
//! ```

use std::fmt;

/// The pentanomial distribution of game pairs: `counts[i]` pairs scored `i / 2` points
/// for the first engine (0: lost both, 4: won both).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs that scored 0, ½, 1, 1½ and 2 points.
    pub counts: [u64; 5],
}

/// A game's result for the first engine: 1, ½ or 0 points (in halves: 2, 1, 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Points {
    /// Lost.
    Loss,
    /// Drawn.
    Draw,
    /// Won.
    Win,
}

impl Points {
    /// Half-points: 0, 1 or 2.
    pub fn halves(self) -> usize {
        match self {
            Points::Loss => 0,
            Points::Draw => 1,
            Points::Win => 2,
        }
    }
}

/// The Elo difference of an expected score (`0 < score < 1`): `-400 log10(1/score - 1)`.
///
/// ```
/// assert_eq!(xq_match::stats::elo_of(0.5), 0.0);
/// assert!((xq_match::stats::elo_of(0.75) - 190.85).abs() < 0.01);
/// ```
pub fn elo_of(score: f64) -> f64 {
    let s = score.clamp(1e-9, 1.0 - 1e-9);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The expected score of an Elo difference: `1 / (1 + 10^(-elo / 400))`.
///
/// ```
/// assert_eq!(xq_match::stats::score_of(0.0), 0.5);
/// assert!((xq_match::stats::score_of(xq_match::stats::elo_of(0.3)) - 0.3).abs() < 1e-12);
/// ```
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The share of a pair added to each count of the SPRT's distribution (see [`Sprt::llr`]).
const REGULARISE: f64 = 1e-3;

/// The two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

impl Pentanomial {
    /// Counts a pair of games (the first engine's points in each).
    pub fn add(&mut self, a: Points, b: Points) {
        self.counts[a.halves() + b.halves()] += 1;
    }

    /// The pairs counted.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The first engine's mean score per game, 0 to 1 (½ with no pairs).
    pub fn score(&self) -> f64 {
        let n = self.pairs();
        if n == 0 {
            return 0.5;
        }
        let points: u64 = self
            .counts
            .iter()
            .enumerate()
            .map(|(i, &c)| i as u64 * c)
            .sum();
        points as f64 / (4 * n) as f64
    }

    /// The variance of a pair's score (per game, 0 to 1) about its mean.
    pub fn variance(&self) -> f64 {
        let n = self.pairs();
        if n == 0 {
            return 0.0;
        }
        let mu = self.score();
        self.counts
            .iter()
            .enumerate()
            .map(|(i, &c)| c as f64 * (i as f64 / 4.0 - mu).powi(2))
            .sum::<f64>()
            / n as f64
    }

    /// The Elo difference of the first engine over the second and the half-width of its
    /// 95% confidence interval (fastchess's: the interval of the mean score, turned into
    /// Elo). `(0, 0)` with no pairs; an interval reaching 0 or 1 is cut just inside them.
    pub fn elo(&self) -> (f64, f64) {
        let n = self.pairs();
        if n == 0 {
            return (0.0, 0.0);
        }
        let mu = self.score();
        let stderr = (self.variance() / n as f64).sqrt();
        let lo = elo_of(mu - Z95 * stderr);
        let hi = elo_of(mu + Z95 * stderr);
        (elo_of(mu), (hi - lo) / 2.0)
    }
}

impl fmt::Display for Pentanomial {
    /// `[LL, LD, DD+WL, WD, WW]` as fastchess prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.counts;
        write!(f, "[{}, {}, {}, {}, {}]", c[0], c[1], c[2], c[3], c[4])
    }
}

/// A sequential probability ratio test of `elo0` against `elo1` (Elo of the first
/// engine over the second) with false-positive rate `alpha` and false-negative rate
/// `beta`, on the pentanomial counts: fishtest's generalised SPRT, the ratio of the
/// likelihoods of the pairs under the most likely distributions of each hypothesis
/// ([`Sprt::llr`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo of the null hypothesis.
    pub elo0: f64,
    /// The Elo of the alternative.
    pub elo1: f64,
    /// The chance of accepting `elo1` when `elo0` holds.
    pub alpha: f64,
    /// The chance of accepting `elo0` when `elo1` holds.
    pub beta: f64,
}

/// What an SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Neither bound is reached: play on.
    Continue,
    /// The lower bound is reached: `elo0` is accepted (H0).
    H0,
    /// The upper bound is reached: `elo1` is accepted (H1).
    H1,
}

impl Sprt {
    /// The test of `elo0` against `elo1` at `alpha` and `beta`.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        }
    }

    /// The log-likelihood ratio of `elo1` over `elo0` given the pairs, as fishtest
    /// computes it: `N sum_i p_i ln(q1_i / q0_i)`, where `p` is the pairs' distribution
    /// and `q0`, `q1` are the distributions nearest to it (the most likely) whose mean
    /// scores are those of `elo0` and `elo1`. The counts are regularised (a thousandth of
    /// a pair added to each) so that outcomes not seen yet still have a chance.
    ///
    /// For many pairs this is close to the normal approximation
    /// `N (s1 - s0) (2 mu - s0 - s1) / (2 var)`. For a few pairs that do not vary (five
    /// drawn pairs) the normal approximation divides by a variance of nearly 0 and
    /// concludes at once; this ratio stays small until the pairs are many.
    pub fn llr(&self, p: &Pentanomial) -> f64 {
        let n = p.pairs() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let c: Vec<f64> = p.counts.iter().map(|&c| c as f64 + REGULARISE).collect();
        let total: f64 = c.iter().sum();
        let freq: [f64; 5] = std::array::from_fn(|i| c[i] / total);
        let q0 = nearest_with_mean(&freq, score_of(self.elo0));
        let q1 = nearest_with_mean(&freq, score_of(self.elo1));
        n * (0..5).map(|i| freq[i] * (q1[i] / q0[i]).ln()).sum::<f64>()
    }

    /// The lower and upper bounds of the LLR: `ln(beta / (1 - alpha))` and
    /// `ln((1 - beta) / alpha)` (-2.94 and 2.94 at 5% each).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// What the test says after these pairs.
    pub fn verdict(&self, p: &Pentanomial) -> Verdict {
        let llr = self.llr(p);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            Verdict::H1
        } else if llr <= lo {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

/// The distribution of pair scores (`i / 4` for outcome `i`) nearest to `freq` (of the
/// largest likelihood for the pairs of `freq`) whose mean is `mean`: `freq_i / (1 + x
/// (i/4 - mean))`, `x` the root of `sum freq_i (i/4 - mean) / (1 + x (i/4 - mean)) = 0`,
/// found by bisection (the sum falls as `x` grows, from +inf to -inf between the poles
/// of the best and the worst outcome). `freq` must give every outcome some weight.
fn nearest_with_mean(freq: &[f64; 5], mean: f64) -> [f64; 5] {
    let d: [f64; 5] = std::array::from_fn(|i| i as f64 / 4.0 - mean);
    let g = |x: f64| {
        (0..5)
            .map(|i| freq[i] * d[i] / (1.0 + x * d[i]))
            .sum::<f64>()
    };
    let (mut lo, mut hi) = (-1.0 / d[4], -1.0 / d[0]);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if g(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = 0.5 * (lo + hi);
    std::array::from_fn(|i| freq[i] / (1.0 + x * d[i]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The numbers of a hand computation: 100 pairs [10, 20, 40, 25, 5].
    #[test]
    fn elo_and_its_error_from_a_hand_computation() {
        let p = Pentanomial {
            counts: [10, 20, 40, 25, 5],
        };
        // Points: 0x10 + 1x20 + 2x40 + 3x25 + 4x5 = 195 quarter-points over 100 pairs.
        assert_eq!(p.score(), 195.0 / 400.0);
        // Variance: sum c_i (i/4 - 0.4875)^2 / 100.
        let by_hand = (10.0 * 0.4875f64.powi(2)
            + 20.0 * (0.25f64 - 0.4875).powi(2)
            + 40.0 * (0.5f64 - 0.4875).powi(2)
            + 25.0 * (0.75f64 - 0.4875).powi(2)
            + 5.0 * (1.0f64 - 0.4875).powi(2))
            / 100.0;
        assert!((p.variance() - by_hand).abs() < 1e-15);
        assert!((by_hand - 0.06546875).abs() < 1e-12);
        let (elo, err) = p.elo();
        // -400 log10(1/0.4875 - 1) = -8.6883...
        assert!((elo + 8.6883).abs() < 1e-3, "{elo}");
        // The mean's standard error: sqrt(0.06546875 / 100) = 0.0255869; the interval
        // 0.4875 -+ 0.0501494 is -43.8 .. +26.2 Elo, so the half-width is 35.0.
        assert!((err - 34.987).abs() < 0.01, "{err}");
        // No pairs: nothing known.
        assert_eq!(Pentanomial::default().elo(), (0.0, 0.0));
        assert_eq!(Pentanomial::default().score(), 0.5);
        assert_eq!(p.to_string(), "[10, 20, 40, 25, 5]");
    }

    #[test]
    fn the_llr_by_hand_and_the_bounds() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05);
        let (lo, hi) = sprt.bounds();
        assert!((lo + 2.944_438_979).abs() < 1e-6 && (hi - 2.944_438_979).abs() < 1e-6);
        // 200 pairs scoring 0.565 with variance 0.052025. The normal approximation by
        // hand: LLR = 200 (s1 - s0) (2 x 0.565 - s0 - s1) / (2 x 0.052025) = 3.197; the
        // likelihood ratio of the nearest distributions is 3.0132 (fishtest's method,
        // computed apart in Python), within 6% of it.
        let p = Pentanomial {
            counts: [4, 36, 80, 64, 16],
        };
        assert_eq!(p.pairs(), 200);
        let (s0, s1) = (0.5, score_of(10.0));
        let normal = 200.0 * (s1 - s0) * (2.0 * p.score() - s0 - s1) / (2.0 * p.variance());
        assert!((normal - 3.1972).abs() < 1e-3);
        assert!((sprt.llr(&p) - 3.0132).abs() < 1e-3, "{}", sprt.llr(&p));
        assert!(sprt.llr(&p) > hi);
        assert_eq!(sprt.verdict(&p), Verdict::H1);
        // The mirror image accepts H0.
        let q = Pentanomial {
            counts: [16, 64, 80, 36, 4],
        };
        assert!((sprt.llr(&q) + 3.6526).abs() < 1e-3, "{}", sprt.llr(&q));
        assert_eq!(sprt.verdict(&q), Verdict::H0);
        // Pairs that all end alike are weak evidence between 0 and 10 Elo, however they
        // end: five drawn pairs (where the normal approximation, dividing by a variance
        // of nearly 0, said -4.1 and accepted H0), five won, five lost by half a point.
        for (counts, llr) in [
            ([0, 0, 5, 0, 0], -0.1404),
            ([0, 0, 0, 0, 5], 0.1418),
            ([0, 5, 0, 0, 0], -0.1459),
            ([0, 1, 0, 0, 0], -0.0291),
            ([0, 1, 1, 0, 0], -0.0582),
        ] {
            let few = Pentanomial { counts };
            assert!(
                (sprt.llr(&few) - llr).abs() < 1e-3,
                "{few}: {}",
                sprt.llr(&few)
            );
            assert_eq!(sprt.verdict(&few), Verdict::Continue, "{few}");
        }
        // Many do decide: 104 won pairs accept H1 (103 do not), 500 drawn pairs H0.
        let won = |n| Pentanomial {
            counts: [0, 0, 0, 0, n],
        };
        assert_eq!(sprt.verdict(&won(103)), Verdict::Continue);
        assert_eq!(sprt.verdict(&won(104)), Verdict::H1);
        let d = Pentanomial {
            counts: [0, 0, 500, 0, 0],
        };
        assert!((sprt.llr(&d) + 14.588).abs() < 1e-2, "{}", sprt.llr(&d));
        assert_eq!(sprt.verdict(&d), Verdict::H0);
        // The tables-on match of docs/tablebases.md: 100 pairs, nearly all 1-1.
        let tables = Pentanomial {
            counts: [0, 1, 84, 15, 0],
        };
        assert!((sprt.llr(&tables) - 2.8356).abs() < 1e-3);
        assert_eq!(sprt.llr(&Pentanomial::default()), 0.0);
    }

    #[test]
    fn a_pair_is_counted_by_its_points() {
        let mut p = Pentanomial::default();
        p.add(Points::Win, Points::Loss);
        p.add(Points::Draw, Points::Draw);
        p.add(Points::Win, Points::Draw);
        p.add(Points::Loss, Points::Loss);
        assert_eq!(p.counts, [1, 0, 2, 1, 0]);
    }
}
