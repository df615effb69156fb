//! The UCI protocol (as Pikafish speaks it for Xiangqi).

use crate::protocol::{
    parse_check, parse_go, parse_legal_moves, parse_num, say, Arity, CommandError, Flow, GoArg,
    Protocol, Sink,
};
use crate::session::{Common, Dialect, EngineOption, Kind, Session, BUILT_IN_NET};

use std::time::Duration;
use xq_core::Color;
use xq_search::engine::{
    Caps, DEFAULT_BOOK_DEPTH, DEFAULT_ELO, DEFAULT_HASH_MIB, DEFAULT_OVERHEAD, MAX_BOOK_DEPTH,
    MAX_HASH_MIB, MAX_MULTIPV, MAX_OVERHEAD, MAX_THREADS,
};
use xq_search::skill::{Skill, MAX_ELO, MAX_LEVEL, MIN_ELO};
use xq_search::{Clock, Limits};

/// The options, as the handshake announces them.
const HASH: EngineOption = EngineOption {
    name: "Hash",
    kind: Kind::Spin {
        default: DEFAULT_HASH_MIB as u64,
        min: 1,
        max: MAX_HASH_MIB as u64,
    },
};
const THREADS: EngineOption = EngineOption {
    name: "Threads",
    kind: Kind::Spin {
        default: 1,
        min: 1,
        max: MAX_THREADS as u64,
    },
};
const MULTIPV: EngineOption = EngineOption {
    name: "MultiPV",
    kind: Kind::Spin {
        default: 1,
        min: 1,
        max: MAX_MULTIPV as u64,
    },
};
const OVERHEAD: EngineOption = EngineOption {
    name: "Move Overhead",
    kind: Kind::Spin {
        default: DEFAULT_OVERHEAD.as_millis() as u64,
        min: 0,
        max: MAX_OVERHEAD.as_millis() as u64,
    },
};
const SKILL: EngineOption = EngineOption {
    name: "Skill Level",
    kind: Kind::Spin {
        default: MAX_LEVEL as u64,
        min: 0,
        max: MAX_LEVEL as u64,
    },
};
const ELO: EngineOption = EngineOption {
    name: "UCI_Elo",
    kind: Kind::Spin {
        default: DEFAULT_ELO as u64,
        min: MIN_ELO as u64,
        max: MAX_ELO as u64,
    },
};
/// The one variant: multi-variant GUIs and match tools read it to know the game.
const VARIANT: EngineOption = EngineOption {
    name: "UCI_Variant",
    kind: Kind::Combo {
        default: "xiangqi",
        vars: &["xiangqi"],
    },
};
const BOOK_DEPTH: EngineOption = EngineOption {
    name: "BookDepth",
    kind: Kind::Spin {
        default: DEFAULT_BOOK_DEPTH as u64,
        min: 0,
        max: MAX_BOOK_DEPTH as u64,
    },
};
const OPTIONS: [EngineOption; 17] = [
    HASH,
    THREADS,
    MULTIPV,
    EngineOption {
        name: "Ponder",
        kind: Kind::Check { default: false },
    },
    EngineOption {
        name: "Clear Hash",
        kind: Kind::Button,
    },
    OVERHEAD,
    SKILL,
    EngineOption {
        name: "UCI_LimitStrength",
        kind: Kind::Check { default: false },
    },
    ELO,
    EngineOption {
        name: "Use NNUE",
        kind: Kind::Check { default: true },
    },
    EngineOption {
        name: "EvalFile",
        kind: Kind::Text {
            default: BUILT_IN_NET,
        },
    },
    VARIANT,
    EngineOption {
        name: "UCI_ShowWDL",
        kind: Kind::Check { default: false },
    },
    EngineOption {
        name: "OwnBook",
        kind: Kind::Check { default: false },
    },
    EngineOption {
        name: "BookFile",
        kind: Kind::Text { default: "" },
    },
    BOOK_DEPTH,
    EngineOption {
        name: "Best Book Move",
        kind: Kind::Check { default: false },
    },
];

/// UCI's `go` keywords.
const GO: &[(&str, Arity)] = &[
    ("searchmoves", Arity::Moves),
    ("ponder", Arity::Flag),
    ("infinite", Arity::Flag),
    ("wtime", Arity::Value),
    ("btime", Arity::Value),
    ("winc", Arity::Value),
    ("binc", Arity::Value),
    ("movestogo", Arity::Value),
    ("depth", Arity::Value),
    ("nodes", Arity::Value),
    ("mate", Arity::Value),
    ("movetime", Arity::Value),
];

/// A time in milliseconds; negative values (a GUI running late) count as zero.
fn millis(name: &str, word: Option<&str>) -> Result<Duration, CommandError> {
    let v: i64 = parse_num(name, word)?;
    Ok(Duration::from_millis(v.max(0) as u64))
}

/// The least value a tuning build takes for the search parameter `name`: 1 for a
/// divisor (the search divides by it), else 0 (no parameter is meant to be negative).
#[cfg(feature = "tune")]
fn tune_min(name: &str) -> u64 {
    u64::from(name.ends_with("_divisor"))
}

/// The UCI command handler.
#[derive(Debug)]
pub struct Uci {
    session: Session,
}

impl Default for Uci {
    fn default() -> Self {
        Uci::new()
    }
}

impl Uci {
    /// A fresh engine on standard output.
    pub fn new() -> Uci {
        Uci::with_sink(Sink::stdout(), Caps::default())
    }

    /// An engine writing to `sink`, within `caps`.
    pub fn with_sink(sink: Sink, caps: Caps) -> Uci {
        Uci {
            session: Session::new(sink, caps, Dialect::Uci),
        }
    }

    fn handshake(&self) {
        self.session.identify();
        self.session.announce(&OPTIONS);
        #[cfg(feature = "tune")]
        for name in xq_search::SearchParams::NAMES {
            let default = xq_search::SearchParams::default().get(name).unwrap_or(0);
            say!(
                self.session.sink,
                "option name {name} type spin default {default} min {} max {}",
                tune_min(name),
                i32::MAX
            );
        }
        say!(self.session.sink, "uciok");
    }

    fn setoption(&mut self, words: &[&str]) -> Result<(), CommandError> {
        if words.first() != Some(&"name") {
            return Err(CommandError::Usage("setoption name <name> [value <value>]"));
        }
        let rest = &words[1..];
        let (name, value) = match rest.iter().position(|w| *w == "value") {
            Some(i) => (rest[..i].join(" "), Some(rest[i + 1..].join(" "))),
            None => (rest.join(" "), None),
        };
        let value = value.as_deref().filter(|v| !v.is_empty());
        let mut o = self.session.engine.options().clone();
        match name.to_ascii_lowercase().as_str() {
            "hash" => o.hash_mib = HASH.spin(value)? as usize,
            "threads" => o.threads = THREADS.spin(value)? as usize,
            "multipv" => o.multipv = MULTIPV.spin(value)? as usize,
            "move overhead" => o.move_overhead = Duration::from_millis(OVERHEAD.spin(value)?),
            // Only announced: pondering is driven by `go ponder`.
            "ponder" => {
                parse_check("Ponder", value)?;
            }
            "skill level" => o.skill = Skill::new(SKILL.spin(value)? as u8),
            "uci_limitstrength" => o.limit_strength = parse_check("UCI_LimitStrength", value)?,
            "uci_elo" => o.elo = ELO.spin(value)? as u32,
            "uci_showwdl" => {
                self.session.show_wdl = parse_check("UCI_ShowWDL", value)?;
                return Ok(());
            }
            "ownbook" => o.own_book = parse_check("OwnBook", value)?,
            "bookfile" => return self.session.load_book(value.unwrap_or_default()),
            "bookdepth" => o.book_depth = BOOK_DEPTH.spin(value)? as u32,
            "best book move" => o.best_book_move = parse_check("Best Book Move", value)?,
            "uci_variant" => {
                return match value {
                    Some(v) if v.eq_ignore_ascii_case("xiangqi") => Ok(()),
                    Some(v) => Err(CommandError::UnsupportedVariant(v.to_string())),
                    None => Err(CommandError::MissingValue("UCI_Variant".into())),
                };
            }
            "clear hash" => {
                self.session.engine.new_game();
                return Ok(());
            }
            "use nnue" => {
                let on = parse_check("Use NNUE", value)?;
                return self.session.set_use_nnue(on);
            }
            "evalfile" => return self.session.set_eval_file(value),
            // A tuning build also takes the search's margins, depth limits and
            // reductions by name (see `xq_search::SearchParams`).
            #[cfg(feature = "tune")]
            lower if xq_search::SearchParams::NAMES.contains(&lower) => {
                let v = crate::protocol::parse_spin(&name, value, tune_min(lower), i32::MAX as u64)?
                    as i32;
                let mut params = self.session.engine.params().clone();
                params
                    .set(lower, v)
                    .map_err(|_| CommandError::UnknownOption(name.clone()))?;
                self.session.engine.set_params(params);
                return Ok(());
            }
            _ => return Err(CommandError::UnknownOption(name)),
        }
        self.session.set_options(o)
    }

    /// Reads `go`: the limits, and what was wrong with the command (the rest of it is
    /// obeyed).
    fn read_go(&self, words: &[&str]) -> (Limits, Result<(), CommandError>) {
        let mut limits = Limits::default();
        let pos = self.session.engine.game().position().clone();
        let red = pos.side_to_move() == Color::Red;
        let (mut time, mut inc, mut mtg) = (None, Duration::ZERO, None);
        let problems = parse_go(words, GO, |w, arg| {
            let value = match arg {
                GoArg::Value(v) => v,
                _ => None,
            };
            match (w, arg) {
                ("infinite", _) => limits.infinite = true,
                ("ponder", _) => limits.ponder = true,
                ("searchmoves", GoArg::Moves(moves)) => {
                    let (good, bad) = parse_legal_moves(&pos, moves);
                    limits.root_moves = good;
                    return CommandError::from_problems(bad);
                }
                ("wtime" | "btime", _) => {
                    let t = millis(w, value)?;
                    if (w == "wtime") == red {
                        time = Some(t);
                    }
                }
                ("winc" | "binc", _) => {
                    let t = millis(w, value)?;
                    if (w == "winc") == red {
                        inc = t;
                    }
                }
                ("movestogo", _) => mtg = Some(parse_num::<u32>(w, value)?),
                ("depth", _) => limits.depth = Some(parse_num::<u32>(w, value)?.max(1)),
                ("nodes", _) => limits.nodes = Some(parse_num::<u64>(w, value)?.max(1)),
                ("mate", _) => limits.mate = Some(parse_num::<u32>(w, value)?.max(1)),
                ("movetime", _) => limits.movetime = Some(millis(w, value)?),
                _ => {}
            }
            Ok(())
        });
        if let Some(time) = time {
            limits.clock = Some(Clock {
                time,
                inc,
                movestogo: mtg,
            });
        }
        (limits, CommandError::from_problems(problems))
    }
}

impl Protocol for Uci {
    fn handle(&mut self, line: &str) -> Flow {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = words.split_first() else {
            return Flow::Continue;
        };
        let result = match cmd {
            "uci" => {
                self.handshake();
                Ok(())
            }
            "setoption" => self.setoption(args),
            "ucinewgame" => {
                self.session.engine.new_game();
                Ok(())
            }
            "go" => {
                let (limits, problems) = self.read_go(args);
                // Said before the search can say anything.
                self.session.report(cmd, problems, line);
                self.session.go(limits);
                Ok(())
            }
            "debug" | "register" => Ok(()),
            "d" => {
                let fen = self.session.engine.game().position().to_fen();
                say!(self.session.sink, "info string fen {fen}");
                Ok(())
            }
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

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_clock_is_the_side_to_moves() {
        let (sink, _) = Sink::buffer();
        let mut uci = Uci::with_sink(sink, Caps::default());
        let go = "wtime 60000 btime 30000 winc 1000 binc 500 movestogo 12";
        let read = |uci: &Uci| {
            let words: Vec<&str> = go.split_whitespace().collect();
            let (limits, problems) = uci.read_go(&words);
            problems.unwrap();
            limits.clock.unwrap()
        };
        assert_eq!(
            read(&uci),
            Clock {
                time: ms(60_000),
                inc: ms(1000),
                movestogo: Some(12)
            }
        );
        assert_eq!(uci.handle("position startpos moves h2e2"), Flow::Continue);
        assert_eq!(
            read(&uci),
            Clock {
                time: ms(30_000),
                inc: ms(500),
                movestogo: Some(12)
            }
        );
        let (limits, problems) = uci.read_go(&["movetime", "300"]);
        assert_eq!(problems, Ok(()));
        assert_eq!(limits, Limits::movetime(ms(300)));
    }
}
