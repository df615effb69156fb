//! The UCCI protocol (ElephantEye's "Universal Chinese Chess Protocol" 3.0).
//!
//! Differences from UCI handled here: `setoption <name> [<value>]` without keywords,
//! `banmoves`, `go [ponder|draw] depth N|infinite / nodes N / time T [increment I |
//! movestogo M] [opptime ...]` with times in seconds unless `usemillisec` is on,
//! `go depth 0` -> `nobestmove`, `probe` -> `pophash`, `quit` -> `bye`.
//! Draw offers (`go draw`, `ponderhit draw`) are accepted syntactically and ignored.
//!
//! Playing levels: `setoption skill N` (0 to 20, 20 = full strength) is xq's own option,
//! as UCCI defines none; the protocol's `randomness` (variety among good moves at full
//! depth) is another thing and, like other engines' options, ignored.

use crate::error::CommandError;
use crate::io::{Flow, Protocol, Sink};
use crate::options::{ucci_options, Kind};
use crate::parse::{parse_go, parse_legal_moves, parse_num, parse_position, Arity, GoArg};
use crate::session::{Common, Dialect, Session};

use std::time::Duration;
use xq_search::engine::SearchEngine;
use xq_search::tt::Bound;
use xq_search::{Clock, Limits};

/// UCCI's `go` keywords (`depth` takes a number or `infinite`; the opponent's clock is
/// read and ignored).
const GO: &[(&str, Arity)] = &[
    ("ponder", Arity::Flag),
    ("draw", Arity::Flag),
    ("depth", Arity::Value),
    ("nodes", Arity::Value),
    ("time", Arity::Value),
    ("increment", Arity::Value),
    ("movestogo", Arity::Value),
    ("opptime", Arity::Value),
    ("oppincrement", Arity::Value),
    ("oppmovestogo", Arity::Value),
];

/// The UCCI command handler, over any engine (see [`Uci`](crate::Uci)).
#[derive(Debug)]
pub struct Ucci<E> {
    session: Session<E>,
}

impl<E: SearchEngine> Ucci<E> {
    /// A session writing to `sink`, with `engine` (which reads the files its options
    /// name: [`Core::set_files`](xq_search::engine::Core::set_files)).
    pub fn new(sink: Sink, engine: E) -> Ucci<E> {
        let options = ucci_options(engine.core().caps(), engine.options().hash_mib);
        Ucci {
            session: Session::new(sink, engine, Dialect::Ucci, options),
        }
    }

    /// The engine.
    pub fn engine(&self) -> &E {
        &self.session.engine
    }

    /// The engine, to run a [`Stepper`](xq_search::engine::Stepper)'s search.
    pub fn engine_mut(&mut self) -> &mut E {
        &mut self.session.engine
    }

    fn handshake(&self) {
        self.session.identify();
        self.session.announce();
        say!(self.session.sink, "ucciok");
    }

    /// `setoption <name> [<value>]`: a check option alone is switched on; a text option
    /// (a path) takes the rest of the line. Options UCCI engines do not share (style,
    /// ...) are ignored, as UCCI asks.
    fn setoption(&mut self, words: &[&str]) -> Result<(), CommandError> {
        let Some((name, rest)) = words.split_first() else {
            return Err(CommandError::Usage("setoption <name> [<value>]"));
        };
        let Some(option) = self.session.option(name) else {
            return Ok(());
        };
        let text = rest.join(" ");
        let value = match option.kind {
            Kind::Check { .. } if rest.is_empty() => Some("true"),
            Kind::Text { .. } => Some(text.as_str()),
            _ => rest.first().copied(),
        };
        self.session.set(&option, value)
    }

    /// A time in the GUI's unit (seconds, or milliseconds with `usemillisec`).
    fn time(&self, name: &str, word: Option<&str>) -> Result<Duration, CommandError> {
        let v: f64 = parse_num(name, word)?;
        if !v.is_finite() {
            return Err(CommandError::BadValue {
                name: name.to_string(),
                value: word.unwrap_or_default().to_string(),
            });
        }
        let ms = if self.session.settings.use_millisec {
            v
        } else {
            v * 1000.0
        };
        Ok(Duration::from_millis(ms.clamp(0.0, 1e12) as u64))
    }

    /// Reads `go`: the limits (`None` for `go depth 0`, which asks for no search), and
    /// what was wrong with the command (the rest of it is obeyed).
    fn read_go(&self, words: &[&str]) -> (Option<Limits>, Result<(), CommandError>) {
        let mut limits = Limits::default();
        let (mut time, mut inc, mut mtg) = (None, None, None);
        let mut depth_zero = false;
        let problems = parse_go(words, GO, |w, arg| {
            let value = match arg {
                GoArg::Value(v) => v,
                _ => None,
            };
            match w {
                "ponder" => limits.ponder = true,
                "depth" if value == Some("infinite") => limits.infinite = true,
                "depth" => {
                    let d = parse_num::<u32>(w, value)?;
                    depth_zero = d == 0;
                    limits.depth = Some(d.max(1));
                }
                "nodes" => limits.nodes = Some(parse_num::<u64>(w, value)?.max(1)),
                "time" => time = Some(self.time(w, value)?),
                "increment" => inc = Some(self.time(w, value)?),
                "movestogo" => mtg = Some(parse_num::<u32>(w, value)?),
                _ => {}
            }
            Ok(())
        });
        if let Some(time) = time {
            limits.clock = Some(Clock {
                time,
                inc: inc.unwrap_or_default(),
                // `go time T` alone: T is for this move.
                movestogo: if inc.is_none() {
                    Some(mtg.unwrap_or(1))
                } else {
                    mtg
                },
            });
        }
        let limits = (!depth_zero).then_some(limits);
        (limits, CommandError::from_problems(problems))
    }

    fn banmoves(&mut self, words: &[&str]) -> Result<(), CommandError> {
        let pos = self.session.engine.game().position().clone();
        let (good, bad) = parse_legal_moves(&pos, words);
        self.session.engine.core_mut().set_banned(good);
        CommandError::from_problems(bad)
    }

    fn probe(&self, words: &[&str]) -> Result<(), CommandError> {
        let game;
        let pos = if words.is_empty() {
            self.session.engine.game().position()
        } else {
            game = parse_position(words)?;
            game.position()
        };
        let mut out = String::from("pophash");
        if let Some(e) = self.session.engine.probe(pos.key()) {
            if let Some(m) = e.mv.filter(|&m| xq_movegen::is_legal(pos, m)) {
                out.push_str(&format!(" bestmove {m}"));
            }
            if matches!(e.bound, Bound::Lower | Bound::Exact) {
                out.push_str(&format!(" lowerbound {} depth {}", e.score, e.depth.max(0)));
            }
            if matches!(e.bound, Bound::Upper | Bound::Exact) {
                out.push_str(&format!(" upperbound {} depth {}", e.score, e.depth.max(0)));
            }
        }
        say!(self.session.sink, "{out}");
        Ok(())
    }
}

impl<E: SearchEngine> Protocol for Ucci<E> {
    fn handle(&mut self, line: &str) -> Flow {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = words.split_first() else {
            return Flow::Continue;
        };
        let result = match cmd {
            "ucci" => {
                self.handshake();
                Ok(())
            }
            "setoption" => self.setoption(args),
            "banmoves" => self.banmoves(args),
            "go" => {
                let (limits, problems) = self.read_go(args);
                // Said before the search can say anything.
                self.session.report(cmd, problems, line);
                match limits {
                    Some(limits) => self.session.go(limits),
                    None => {
                        // Static evaluation only: there is no searched move.
                        self.session.engine.stop();
                        say!(self.session.sink, "nobestmove");
                    }
                }
                Ok(())
            }
            "probe" => self.probe(args),
            _ => match self.session.common(cmd, args) {
                Some(Common::Done(r)) => r,
                Some(Common::Quit) => return Flow::Quit,
                None => Err(CommandError::UnknownCommand),
            },
        };
        self.session.finish(cmd, result, line)
    }

    fn eof(&mut self) {
        self.session.eof();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The clock `go ARGS` sets.
    fn clock_of<E: SearchEngine>(ucci: &Ucci<E>, args: &str) -> Option<Clock> {
        let words: Vec<&str> = args.split_whitespace().collect();
        let (limits, problems) = ucci.read_go(&words);
        problems.unwrap();
        limits.unwrap().clock
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn times_are_seconds_unless_usemillisec() {
        let (sink, _) = Sink::buffer();
        let engine = xq_search::engine::Stepper::new(Default::default(), Default::default());
        let mut ucci = Ucci::new(sink, engine);
        // `go time T` alone: T is for this move.
        let this_move = |t| Clock {
            time: t,
            inc: Duration::ZERO,
            movestogo: Some(1),
        };
        assert_eq!(clock_of(&ucci, "time 1"), Some(this_move(ms(1000))));
        assert_eq!(
            clock_of(&ucci, "time 2.5 increment 0.5"),
            Some(Clock {
                time: ms(2500),
                inc: ms(500),
                movestogo: None
            })
        );
        ucci.setoption(&["usemillisec", "true"]).unwrap();
        assert_eq!(clock_of(&ucci, "time 400"), Some(this_move(ms(400))));
        assert_eq!(
            clock_of(
                &ucci,
                "time 20000 movestogo 40 opptime 20000 oppmovestogo 40"
            ),
            Some(Clock {
                time: ms(20_000),
                inc: Duration::ZERO,
                movestogo: Some(40)
            })
        );
        ucci.setoption(&["usemillisec", "false"]).unwrap();
        assert_eq!(clock_of(&ucci, "time 400"), Some(this_move(ms(400_000))));
        // `go depth 0` asks for no search.
        let (limits, problems) = ucci.read_go(&["depth", "0"]);
        assert_eq!((limits, problems), (None, Ok(())));
    }
}
