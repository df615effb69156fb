//! The UCI protocol (as Pikafish speaks it for Xiangqi).

use crate::error::CommandError;
use crate::io::{Flow, Protocol, Sink};
use crate::options::uci_options;
use crate::parse::{parse_go, parse_legal_moves, parse_num, Arity, GoArg};
use crate::session::{Common, Dialect, Session};

use std::time::Duration;
use xq_core::Color;
use xq_search::engine::SearchEngine;
use xq_search::{Clock, Limits};

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

/// The UCI command handler, over any engine: the threaded
/// [`Engine`](xq_search::Engine) of the `xq` binary, or a
/// [`Stepper`](xq_search::engine::Stepper) that its host runs.
#[derive(Debug)]
pub struct Uci<E> {
    session: Session<E>,
}

impl<E: SearchEngine> Uci<E> {
    /// A session writing to `sink`, with `engine` (which reads the files its options
    /// name: [`Core::set_files`](xq_search::engine::Core::set_files)).
    pub fn new(sink: Sink, engine: E) -> Uci<E> {
        let options = uci_options(engine.core().caps(), engine.options().hash_mib);
        Uci {
            session: Session::new(sink, engine, Dialect::Uci, options),
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
        let option = self
            .session
            .option(&name)
            .ok_or(CommandError::UnknownOption(name))?;
        self.session.set(&option, value)
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

impl<E: SearchEngine> Protocol for Uci<E> {
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
            "go" if args.first() == Some(&"perft") => self.session.perft(&args[1..]),
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
        let engine = xq_search::engine::Stepper::new(Default::default(), Default::default());
        let mut uci = Uci::new(sink, engine);
        let go = "wtime 60000 btime 30000 winc 1000 binc 500 movestogo 12";
        let read = |uci: &Uci<_>| {
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

    #[test]
    fn go_perft_prints_the_divide_as_stockfish_does() {
        let (sink, lines) = Sink::buffer();
        let engine = xq_search::engine::Stepper::new(Default::default(), Default::default());
        let mut uci = Uci::new(sink, engine);
        uci.handle("position startpos moves h2e2");
        uci.handle("go perft 2");
        uci.handle("go perft");
        uci.handle("go perft 0");
        let lines = lines.lock().unwrap();
        assert_eq!(lines.len(), 45 + 3 + 2, "{lines:?}");
        assert!(lines.contains(&"h9g7: 35".to_string()), "{lines:?}");
        assert_eq!(lines[45..48], ["", "Nodes searched: 1564", ""]);
        assert!(lines[48].contains("missing value for perft"), "{lines:?}");
        assert!(
            lines[49].contains("perft must be between 1 and 64, not 0"),
            "{lines:?}"
        );
        drop(lines);
        // A host that caps nodes (the fuzzer's) caps perft too.
        let (sink, lines) = Sink::buffer();
        let caps = xq_search::engine::Caps {
            max_nodes: Some(100),
            ..Default::default()
        };
        let mut uci = Uci::new(
            sink,
            xq_search::engine::Stepper::new(Default::default(), caps),
        );
        uci.handle("go perft 3");
        uci.handle("go perft 2");
        let lines = lines.lock().unwrap();
        assert!(
            lines[0].contains("perft must be between 1 and 2, not 3"),
            "{lines:?}"
        );
        assert_eq!(lines.last().map(String::as_str), Some(""));
        assert!(
            lines.contains(&"Nodes searched: 1920".to_string()),
            "{lines:?}"
        );
    }
}
