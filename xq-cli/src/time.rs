//! Time management: from the clock a GUI sends to the time one move may take.

use std::time::Duration;

/// The side to move's clock.
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
pub struct Budget {
    /// Do not start a new iteration after this.
    pub soft: Duration,
    /// Abort the search at this.
    pub hard: Duration,
}

/// The budget for one move from the clock, keeping `overhead` back.
///
/// The soft limit is the time left shared over the moves to go (20 when unknown) plus
/// three quarters of the increment: the time a move normally deserves. The search
/// stretches it when the best move keeps changing or the score falls, shrinks it when the
/// best move holds, and starts no iteration it could not finish (see
/// `xq_search::Limits::soft_time`). The hard limit, where a search is cut off, is four
/// times the soft one, but never more than 80% of the time left minus the overhead. Both
/// are at least a millisecond, so a move is always produced.
///
/// The 20 moves assumed in sudden death were played against other shares at the clock
/// (300-game matches and less, one thread each; the xq-cli README has the results): 40
/// lost, 14 gained nothing measurable.
///
/// ```
/// use std::time::Duration;
/// use xq_cli::time::{clock_budget, Clock};
/// let clock = Clock { time: Duration::from_secs(60), movestogo: Some(20), ..Clock::default() };
/// let b = clock_budget(&clock, Duration::ZERO);
/// assert_eq!(b.soft, Duration::from_secs(3));
/// assert_eq!(b.hard, Duration::from_secs(12));
/// ```
pub fn clock_budget(clock: &Clock, overhead: Duration) -> Budget {
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
///
/// ```
/// use std::time::Duration;
/// use xq_cli::time::{time_budget, Budget};
/// let ms = Duration::from_millis;
/// assert_eq!(time_budget(None, Some(ms(1000)), ms(30)), Some(Budget { soft: ms(970), hard: ms(970) }));
/// assert_eq!(time_budget(None, None, ms(30)), None);
/// ```
pub fn time_budget(
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

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn budget_is_safe() {
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
    }

    #[test]
    fn movetime_keeps_overhead_back() {
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
