//! What an engine may spend on its moves, in cutechess-cli's words: a clock
//! (`tc=40/60+0.6`: 40 moves in 60 seconds, 0.6 seconds added a move), a fixed time a
//! move (`st=1`), a depth or a node count, and the clock kept during a game.

use std::fmt;
use std::time::Duration;

/// A clock: `base` for the first `moves` moves (then `base` again), `inc` added after
/// every move. `moves: None` is one period for the whole game (`tc=10+0.1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period (`None`: the whole game).
    pub moves: Option<u32>,
    /// The time of a period.
    pub base: Duration,
    /// The time added after each move.
    pub inc: Duration,
}

/// A time control that is not one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TcError {
    /// The text given.
    pub text: String,
}

impl fmt::Display for TcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad time control '{}' (moves/time+increment in seconds, e.g. 40/60+0.6 or 10+0.1, or inf)",
            self.text
        )
    }
}

impl std::error::Error for TcError {}

/// Seconds, as cutechess writes them: `60`, `0.5`, or `1:30` (minutes and seconds).
fn seconds(text: &str) -> Option<Duration> {
    let secs = match text.split_once(':') {
        Some((m, s)) => m.parse::<u64>().ok()? as f64 * 60.0 + s.parse::<f64>().ok()?,
        None => text.parse::<f64>().ok()?,
    };
    (0.0..1e9)
        .contains(&secs)
        .then(|| Duration::from_secs_f64(secs))
}

impl TimeControl {
    /// Reads `[moves/]time[+inc]` (`inf` is no clock: `None`).
    ///
    /// # Errors
    /// [`TcError`] when the text is not of that form.
    ///
    /// ```
    /// use std::time::Duration;
    /// use xq_match::tc::TimeControl;
    /// let tc = TimeControl::parse("40/60+0.6").unwrap().unwrap();
    /// assert_eq!((tc.moves, tc.base, tc.inc), (Some(40), Duration::from_secs(60), Duration::from_millis(600)));
    /// assert_eq!(TimeControl::parse("10+0.1").unwrap().unwrap().moves, None);
    /// assert_eq!(TimeControl::parse("1:30").unwrap().unwrap().base, Duration::from_secs(90));
    /// assert_eq!(TimeControl::parse("inf").unwrap(), None);
    /// assert!(TimeControl::parse("ten").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Option<TimeControl>, TcError> {
        let bad = || TcError {
            text: text.to_string(),
        };
        let t = text.trim();
        if t == "inf" || t == "infinite" {
            return Ok(None);
        }
        let (moves, rest) = match t.split_once('/') {
            Some((m, r)) => (
                Some(m.parse::<u32>().ok().filter(|&m| m > 0).ok_or_else(bad)?),
                r,
            ),
            None => (None, t),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (seconds(b).ok_or_else(bad)?, seconds(i).ok_or_else(bad)?),
            None => (seconds(rest).ok_or_else(bad)?, Duration::ZERO),
        };
        if base.is_zero() && inc.is_zero() {
            return Err(bad());
        }
        Ok(Some(TimeControl { moves, base, inc }))
    }

    /// The time control scaled by `factor` (time odds: `0.25` is a quarter of the time).
    pub fn scaled(self, factor: f64) -> TimeControl {
        TimeControl {
            moves: self.moves,
            base: self.base.mul_f64(factor),
            inc: self.inc.mul_f64(factor),
        }
    }
}

impl fmt::Display for TimeControl {
    /// As PGN's `TimeControl` tag writes it: `40/60+0.6`, `10+0.1` (seconds).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", self.base.as_secs_f64())?;
        if !self.inc.is_zero() {
            write!(f, "+{}", self.inc.as_secs_f64())?;
        }
        Ok(())
    }
}

/// Everything that limits one engine's moves: a clock, a time a move, a depth, nodes
/// (any together, as cutechess-cli allows); none at all is an infinite search, which
/// only a depth or node limit should leave.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The clock (`tc=`).
    pub clock: Option<TimeControl>,
    /// A fixed time a move (`st=`).
    pub movetime: Option<Duration>,
    /// A depth a move (`depth=`).
    pub depth: Option<u32>,
    /// Nodes a move (`nodes=`).
    pub nodes: Option<u64>,
}

impl Limits {
    /// Does anything limit a move?
    pub fn is_set(&self) -> bool {
        self.clock.is_some()
            || self.movetime.is_some()
            || self.depth.is_some()
            || self.nodes.is_some()
    }
}

/// An engine's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    /// The time left.
    pub left: Duration,
    /// The moves made in the current period.
    made: u32,
}

impl Clock {
    /// A clock at the start of a game.
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            left: control.base,
            made: 0,
        }
    }

    /// Moves to the end of the period (`None`: the whole game is one period).
    pub fn moves_to_go(&self) -> Option<u32> {
        self.control.moves.map(|m| m - self.made)
    }

    /// The increment.
    pub fn inc(&self) -> Duration {
        self.control.inc
    }

    /// A move that took `used`: `false` when the flag fell (more than the time left and
    /// the `margin`); else the time is taken, the increment added, and a new period
    /// begun when this one's moves are made.
    ///
    /// ```
    /// use std::time::Duration;
    /// use xq_match::tc::{Clock, TimeControl};
    /// let tc = TimeControl::parse("2/10+1").unwrap().unwrap();
    /// let mut clock = Clock::new(tc);
    /// assert!(clock.spend(Duration::from_secs(4), Duration::ZERO));
    /// assert_eq!((clock.left, clock.moves_to_go()), (Duration::from_secs(7), Some(1)));
    /// assert!(clock.spend(Duration::from_secs(5), Duration::ZERO));
    /// // The second move ends the period: 10 seconds more.
    /// assert_eq!((clock.left, clock.moves_to_go()), (Duration::from_secs(13), Some(2)));
    /// assert!(!clock.spend(Duration::from_secs(14), Duration::from_millis(500)));
    /// ```
    pub fn spend(&mut self, used: Duration, margin: Duration) -> bool {
        if used > self.left + margin {
            self.left = Duration::ZERO;
            return false;
        }
        self.left = self.left.saturating_sub(used) + self.control.inc;
        self.made += 1;
        if self.control.moves == Some(self.made) {
            self.made = 0;
            self.left += self.control.base;
        }
        true
    }
}
