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

/// The pairs a sample whose pairs all ended alike needs before the SPRT may stop on it.
pub const UNIFORM_PAIRS: u64 = 5;

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
/// `beta`, on the pentanomial counts: the generalised SPRT of fishtest and fastchess,
/// whose log-likelihood ratio is `N (s1 - s0) (2 mu - s0 - s1) / (2 var)` for `N` pairs
/// of mean score `mu` and variance `var`, `s0` and `s1` the scores of `elo0` and `elo1`.
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

    /// The log-likelihood ratio of `elo1` over `elo0` given the pairs. The counts are
    /// regularised (a thousandth of a pair added to each) so that pairs that do not vary
    /// yet (all won, all drawn) still weigh: without it their variance is 0 and the ratio
    /// undefined.
    pub fn llr(&self, p: &Pentanomial) -> f64 {
        let n = p.pairs() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let c: Vec<f64> = p.counts.iter().map(|&c| c as f64 + REGULARISE).collect();
        let total: f64 = c.iter().sum();
        let mu = c
            .iter()
            .enumerate()
            .map(|(i, x)| x * i as f64 / 4.0)
            .sum::<f64>()
            / total;
        let var = c
            .iter()
            .enumerate()
            .map(|(i, x)| x * (i as f64 / 4.0 - mu).powi(2))
            .sum::<f64>()
            / total;
        let (s0, s1) = (score_of(self.elo0), score_of(self.elo1));
        n * (s1 - s0) * (2.0 * mu - s0 - s1) / (2.0 * var)
    }

    /// The lower and upper bounds of the LLR: `ln(beta / (1 - alpha))` and
    /// `ln((1 - beta) / alpha)` (-2.94 and 2.94 at 5% each).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// What the test says after these pairs. While every pair has ended alike (all
    /// won, all drawn, ...) the sample has shown no variance, and the regularised
    /// ratio of one pair can pass a bound on its own; so such a sample gives a verdict
    /// only from [`UNIFORM_PAIRS`] pairs on (cutechess-cli, for the same reason, waits
    /// for a win, a draw and a loss).
    pub fn verdict(&self, p: &Pentanomial) -> Verdict {
        let kinds = p.counts.iter().filter(|&&c| c > 0).count();
        if kinds < 2 && p.pairs() < UNIFORM_PAIRS {
            return Verdict::Continue;
        }
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
        // 200 pairs scoring 0.565 with variance 0.052025: LLR = 200 (s1 - s0)
        // (2 x 0.565 - s0 - s1) / (2 x 0.052025) = 3.197.
        let p = Pentanomial {
            counts: [4, 36, 80, 64, 16],
        };
        assert_eq!(p.pairs(), 200);
        let (s0, s1) = (0.5, score_of(10.0));
        let by_hand = 200.0 * (s1 - s0) * (2.0 * p.score() - s0 - s1) / (2.0 * p.variance());
        // The regularisation moves it by less than a thousandth here.
        assert!((sprt.llr(&p) - by_hand).abs() < 1e-3);
        assert!((sprt.llr(&p) - 3.1972).abs() < 1e-3);
        assert!(
            sprt.llr(&p) > hi,
            "a clear lead accepts H1: {}",
            sprt.llr(&p)
        );
        assert_eq!(sprt.verdict(&p), Verdict::H1);
        // The mirror image accepts H0.
        let q = Pentanomial {
            counts: [16, 64, 80, 36, 4],
        };
        assert_eq!(sprt.verdict(&q), Verdict::H0);
        // Every pair won: without the regularisation no variance and no verdict; with it,
        // a few pairs are enough.
        let w = Pentanomial {
            counts: [0, 0, 0, 0, 5],
        };
        assert_eq!(sprt.verdict(&w), Verdict::H1);
        // One pair, or four alike, is no verdict however far its ratio goes...
        for counts in [[0, 1, 0, 0, 0], [0, 0, 0, 0, 1], [0, 4, 0, 0, 0]] {
            let one = Pentanomial { counts };
            assert!(sprt.llr(&one).abs() > hi, "{one}: {}", sprt.llr(&one));
            assert_eq!(sprt.verdict(&one), Verdict::Continue, "{one}");
        }
        // ...five alike are, and so are two pairs that differ once their ratio says so.
        let five = Pentanomial {
            counts: [0, 5, 0, 0, 0],
        };
        assert_eq!(sprt.verdict(&five), Verdict::H0);
        let two = Pentanomial {
            counts: [0, 1, 1, 0, 0],
        };
        assert_eq!(sprt.verdict(&two), Verdict::Continue);
        // Every pair drawn is evidence for the null hypothesis (equal strength), slowly.
        let d = Pentanomial {
            counts: [0, 0, 500, 0, 0],
        };
        assert!(sprt.llr(&d) < 0.0);
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
