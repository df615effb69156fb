//! Time management: how long the search of one move should take, from what its
//! iterations show (a best move that keeps changing, a score that falls).

use std::time::Duration;
use xq_core::Move;

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
