//! Time management: from the clock a GUI sends to the time one move may take
//! ([`Clock`] to a budget), and how long the search of one move should take within it,
//! from what its iterations show (a best move that keeps changing, a score that falls).
//!
//! The budget of a move has a *soft* limit, the time it normally deserves, and a *hard*
//! one, where the search is cut off. The soft limit is the time left shared over the
//! moves to go (20 when unknown) plus three quarters of the increment. The search treats
//! it as a plan: it stretches it (up to the hard limit) while the best move keeps
//! changing or the score falls, shrinks it once the best move has held for several
//! iterations, starts no iteration past about half of it (one would not finish in time),
//! and with a single legal move answers after the first iteration. The hard limit is
//! four times the soft one, but never more than 80% of the time left. A fixed time per
//! move ([`Limits::movetime`](crate::Limits::movetime)) is both limits at once. The
//! engine keeps its move overhead back from both.
//!
//! The 20 moves assumed in sudden death were played against other shares at the clock
//! (300-game matches and less, one thread each; `docs/strength.md` has them): 40 lost,
//! 14 gained nothing measurable.

use std::time::Duration;
use xq_core::Move;

// The monotonic clock: the standard library's, or in a browser (WebAssembly without an
// operating system, where `std::time::Instant` panics) the page's `performance.now()`.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub(crate) use std::time::Instant;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub(crate) use web_time::Instant;

/// The side to move's clock, as a GUI sends it.
///
/// ```
/// use std::time::Duration;
/// use xq_search::Clock;
/// // `go wtime 60000 winc 1000 movestogo 20` for Red to move.
/// let clock = Clock { time: Duration::from_secs(60), inc: Duration::from_secs(1), movestogo: Some(20) };
/// assert_eq!(clock.movestogo, Some(20));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left.
    pub time: Duration,
    /// Increment per move.
    pub inc: Duration,
    /// Moves until the next time control, if the control is not sudden death.
    pub movestogo: Option<u32>,
}

/// The time one move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Budget {
    /// Do not start a new iteration after this.
    pub(crate) soft: Duration,
    /// Abort the search at this.
    pub(crate) hard: Duration,
}

/// The budget for one move from the clock, keeping `overhead` back (see the module
/// docs). Both limits are at least a millisecond, so a move is always produced.
pub(crate) fn clock_budget(clock: &Clock, overhead: Duration) -> Budget {
    let mtg = clock.movestogo.filter(|&m| m > 0).unwrap_or(20).min(100);
    let avail = clock.time.saturating_sub(overhead);
    let soft = avail / mtg + clock.inc * 3 / 4;
    let cap = (clock.time * 4 / 5).saturating_sub(overhead);
    let hard = soft
        .saturating_mul(4)
        .min(cap)
        .max(Duration::from_millis(2));
    let soft = soft.min(hard).max(Duration::from_millis(1));
    Budget { soft, hard }
}

/// The budget a clock and a fixed move time imply together (the tighter of the two), if
/// either is given; `overhead` is kept back from both.
pub(crate) fn time_budget(
    clock: Option<&Clock>,
    movetime: Option<Duration>,
    overhead: Duration,
) -> Option<Budget> {
    let from_clock = clock.map(|c| clock_budget(c, overhead));
    let from_movetime = movetime.map(|t| {
        let t = t.saturating_sub(overhead).max(Duration::from_millis(1));
        Budget { soft: t, hard: t }
    });
    match (from_clock, from_movetime) {
        (Some(a), Some(b)) => Some(Budget {
            soft: a.soft.min(b.soft),
            hard: a.hard.min(b.hard),
        }),
        (a, b) => a.or(b),
    }
}

/// What time management learns from the iterations of one search: how often the best
/// move changed, and how the score moved.
#[derive(Debug, Default)]
pub(crate) struct TimeUse {
    best: Option<Move>,
    /// Best-move changes, halved at every iteration (recent changes count most).
    changes: f64,
    /// The depth at which the best move last changed.
    changed_at: u32,
    /// The average score of the iterations so far, and the last.
    average: Option<f64>,
    last: i32,
    /// The last iteration recorded.
    depth: u32,
}

impl TimeUse {
    /// Notes a completed iteration.
    pub(crate) fn record(&mut self, best: Option<Move>, value: i32, depth: u32) {
        self.changes /= 2.0;
        if best != self.best {
            if self.best.is_some() {
                self.changes += 1.0;
            }
            self.best = best;
            self.changed_at = depth;
        }
        self.average = Some(match self.average {
            Some(a) => (a + value as f64) / 2.0,
            None => value as f64,
        });
        self.last = value;
        self.depth = depth;
    }

    /// The time this move deserves: the planned `soft` time, stretched when the best
    /// move keeps changing or the score falls, shrunk when the best move has held for
    /// several iterations; never more than `hard`.
    pub(crate) fn target(&self, soft: Duration, hard: Duration) -> Duration {
        let instability = 1.0 + 1.5 * self.changes;
        let falling = match self.average {
            Some(avg) => (1.0 + (avg - self.last as f64) / 150.0).clamp(0.7, 1.6),
            None => 1.0,
        };
        let stable = if self.depth > self.changed_at + 5 {
            0.75
        } else {
            1.0
        };
        soft.mul_f64(instability * falling * stable).min(hard)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_budget_is_safe() {
        let o = ms(30);
        for time in [0, 1, 10, 29, 30, 31, 50, 100, 1000, 10_000, 600_000] {
            for inc in [0, 100, 1000, 10_000] {
                for mtg in [None, Some(0), Some(1), Some(2), Some(40)] {
                    let c = Clock {
                        time: ms(time),
                        inc: ms(inc),
                        movestogo: mtg,
                    };
                    let Budget { soft, hard } = clock_budget(&c, o);
                    assert!(soft <= hard, "{c:?}");
                    assert!(soft >= ms(1));
                    assert!(hard <= ms(time * 4 / 5).max(ms(2)), "{c:?}: {hard:?}");
                }
            }
        }
        let Budget { soft, hard } = clock_budget(
            &Clock {
                time: ms(10_000),
                inc: ms(100),
                movestogo: None,
            },
            o,
        );
        assert_eq!(soft, ms(9970) / 20 + ms(75));
        assert_eq!(hard, soft * 4);
        // A minute for 20 moves: three seconds a move, twelve at most.
        let clock = Clock {
            time: Duration::from_secs(60),
            movestogo: Some(20),
            ..Clock::default()
        };
        let b = clock_budget(&clock, Duration::ZERO);
        assert_eq!((b.soft, b.hard), (ms(3000), ms(12_000)));
    }

    #[test]
    fn movetime_keeps_the_overhead_back() {
        let b = |t| Budget {
            soft: ms(t),
            hard: ms(t),
        };
        assert_eq!(time_budget(None, Some(ms(1000)), ms(30)), Some(b(970)));
        assert_eq!(time_budget(None, None, ms(30)), None);
        // With a clock too, the tighter limit of each kind.
        let clock = Clock {
            time: ms(60_000),
            inc: ms(0),
            movestogo: Some(20),
        };
        let got = time_budget(Some(&clock), Some(ms(5000)), ms(0));
        assert_eq!(
            got,
            Some(Budget {
                soft: ms(3000),
                hard: ms(5000)
            })
        );
    }
}
