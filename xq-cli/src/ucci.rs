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

use crate::protocol::{
    parse_check, parse_go, parse_legal_moves, parse_num, parse_position, say, Arity, CommandError,
    Flow, GoArg, Protocol, Sink,
};
use crate::session::{Common, Dialect, EngineOption, Kind, Session, BUILT_IN_NET};

use std::time::Duration;
use xq_search::engine::{
    Caps, DEFAULT_HASH_MIB, DEFAULT_OVERHEAD, MAX_HASH_MIB, MAX_OVERHEAD, MAX_THREADS,
};
use xq_search::skill::{Skill, MAX_LEVEL};
use xq_search::tt::Bound;
use xq_search::{Clock, Limits};

/// The options, as the handshake announces them. A size or count of 0 means the default.
const HASHSIZE: EngineOption = EngineOption {
    name: "hashsize",
    kind: Kind::Spin {
        default: DEFAULT_HASH_MIB as u64,
        min: 0,
        max: MAX_HASH_MIB as u64,
    },
};
const THREADS: EngineOption = EngineOption {
    name: "threads",
    kind: Kind::Spin {
        default: 1,
        min: 0,
        max: MAX_THREADS as u64,
    },
};
const SKILL: EngineOption = EngineOption {
    name: "skill",
    kind: Kind::Spin {
        default: MAX_LEVEL as u64,
        min: 0,
        max: MAX_LEVEL as u64,
    },
};
const OVERHEAD: EngineOption = EngineOption {
    name: "moveoverhead",
    kind: Kind::Spin {
        default: DEFAULT_OVERHEAD.as_millis() as u64,
        min: 0,
        max: MAX_OVERHEAD.as_millis() as u64,
    },
};
const OPTIONS: [EngineOption; 11] = [
    EngineOption {
        name: "usemillisec",
        kind: Kind::Check { default: false },
    },
    HASHSIZE,
    THREADS,
    EngineOption {
        name: "ponder",
        kind: Kind::Check { default: false },
    },
    EngineOption {
        name: "newgame",
        kind: Kind::Button,
    },
    SKILL,
    OVERHEAD,
    EngineOption {
        name: "usennue",
        kind: Kind::Check { default: true },
    },
    EngineOption {
        name: "evalfile",
        kind: Kind::Text {
            default: BUILT_IN_NET,
        },
    },
    EngineOption {
        name: "usebook",
        kind: Kind::Check { default: true },
    },
    EngineOption {
        name: "bookfiles",
        kind: Kind::Text { default: "" },
    },
];

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

/// A check option's value; `setoption ponder` alone switches it on.
fn check(name: &str, value: Option<&str>) -> Result<bool, CommandError> {
    value.map_or(Ok(true), |v| parse_check(name, Some(v)))
}

/// The UCCI command handler.
#[derive(Debug)]
pub struct Ucci {
    session: Session,
    use_millisec: bool,
    /// `usebook` (on by default, as ElephantEye's).
    use_book: bool,
}

impl Default for Ucci {
    fn default() -> Self {
        Ucci::new()
    }
}

impl Ucci {
    /// A fresh engine on standard output.
    pub fn new() -> Ucci {
        Ucci::with_sink(Sink::stdout(), Caps::default())
    }

    /// An engine writing to `sink`, within `caps`.
    pub fn with_sink(sink: Sink, caps: Caps) -> Ucci {
        Ucci {
            session: Session::new(sink, caps, Dialect::Ucci),
            use_millisec: false,
            use_book: true,
        }
    }

    fn handshake(&self) {
        self.session.identify();
        self.session.announce(&OPTIONS);
        say!(self.session.sink, "ucciok");
    }

    fn setoption(&mut self, words: &[&str]) -> Result<(), CommandError> {
        let Some((name, rest)) = words.split_first() else {
            return Err(CommandError::Usage("setoption <name> [<value>]"));
        };
        let value = rest.first().copied();
        let mut o = self.session.engine.options().clone();
        match name.to_ascii_lowercase().as_str() {
            "usemillisec" => {
                self.use_millisec = check(name, value)?;
                return Ok(());
            }
            "hashsize" => {
                let n = HASHSIZE.spin(value)? as usize;
                o.hash_mib = if n == 0 { DEFAULT_HASH_MIB } else { n };
            }
            "threads" => o.threads = (THREADS.spin(value)? as usize).max(1),
            // Only announced: pondering is driven by `go ponder`.
            "ponder" => {
                check(name, value)?;
                return Ok(());
            }
            "moveoverhead" => o.move_overhead = Duration::from_millis(OVERHEAD.spin(value)?),
            "skill" => o.skill = Skill::new(SKILL.spin(value)? as u8),
            // As ElephantEye: a book is used once one is given, unless `usebook false`.
            "usebook" => {
                self.use_book = check(name, value)?;
                o.own_book = self.use_book && self.session.engine.book().is_some();
            }
            "bookfiles" => {
                let result = self.bookfiles(&rest.join(" "));
                o = self.session.engine.options().clone();
                o.own_book = self.use_book && self.session.engine.book().is_some();
                self.session.set_options(o)?;
                return result;
            }
            "newgame" | "clearhash" => {
                self.session.engine.new_game();
                return Ok(());
            }
            "usennue" => {
                let on = check(name, value)?;
                return self.session.set_use_nnue(on);
            }
            // A path may hold spaces: the rest of the line.
            "evalfile" => return self.session.set_eval_file(Some(&rest.join(" "))),
            // Options of other engines (style, ...): ignored, as UCCI asks.
            _ => return Ok(()),
        }
        self.session.set_options(o)
    }

    /// `bookfiles FILE[;FILE...]`: the first file that is a book (UCCI lists several,
    /// separated by `;`; xq uses one). Every file that is not a book is reported; with
    /// none, the engine plays without a book.
    fn bookfiles(&mut self, list: &str) -> Result<(), CommandError> {
        let mut problems = Vec::new();
        for path in list.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            match self.session.load_book(path) {
                Ok(()) => return CommandError::from_problems(problems),
                Err(e) => problems.push(e),
            }
        }
        self.session.engine.set_book(None);
        CommandError::from_problems(problems)
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
        let ms = if self.use_millisec { v } else { v * 1000.0 };
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
        self.session.engine.set_banned(good);
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
        if let Some(e) = self.session.engine.table().probe(pos.key(), 0) {
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

impl Protocol for Ucci {
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
    fn clock_of(ucci: &Ucci, args: &str) -> Option<Clock> {
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
        let mut ucci = Ucci::with_sink(sink, Caps::default());
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
