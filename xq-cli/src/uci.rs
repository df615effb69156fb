//! The UCI protocol (as Pikafish speaks it for Xiangqi).

use crate::engine::{
    legal_ponder, Caps, Engine, GoRequest, Options, Output, AUTHOR, DEFAULT_ELO, DEFAULT_HASH,
    DEFAULT_OVERHEAD, MAX_HASH, MAX_MULTIPV, MAX_OVERHEAD, MAX_THREADS, NAME,
};
use crate::protocol::{
    parse_check, parse_legal_moves, parse_num, parse_position, parse_spin, report_error, say, Flow,
    Protocol, Sink,
};
use crate::time::Clock;

use std::sync::Arc;
use std::time::Duration;
use xq_core::Color;
use xq_movegen::Game;
use xq_search::skill::{Skill, MAX_ELO, MAX_LEVEL, MIN_ELO};
use xq_search::{Info, Limits, Score, SearchResult};

/// UCI output formatting.
#[derive(Debug)]
struct UciOutput {
    sink: Sink,
}

impl Output for UciOutput {
    fn info(&self, info: &Info) {
        let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
        say!(
            self.sink,
            "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {} pv {}",
            info.depth,
            info.seldepth,
            info.multipv,
            info.score,
            info.nodes,
            info.nps(),
            info.hashfull,
            info.time.as_millis(),
            pv.join(" ")
        );
    }

    fn bestmove(&self, result: &SearchResult, game: &Game) {
        match result.best_move {
            Some(m) => match legal_ponder(game.position(), m, result.ponder) {
                Some(p) => say!(self.sink, "bestmove {m} ponder {p}"),
                None => say!(self.sink, "bestmove {m}"),
            },
            None => {
                if xq_movegen::count_legal(game.position()) == 0 {
                    say!(self.sink, "info depth 0 score {}", Score::Mate(0));
                }
                say!(self.sink, "bestmove (none)");
            }
        }
    }

    fn closed(&self) -> bool {
        self.sink.is_closed()
    }
}

/// The UCI command handler.
#[derive(Debug)]
pub struct Uci {
    engine: Engine,
    sink: Sink,
}

impl Default for Uci {
    fn default() -> Self {
        Uci::new()
    }
}

/// A time in milliseconds; negative values (a GUI running late) count as zero.
fn millis(name: &str, word: Option<&str>) -> Result<Duration, String> {
    let v: i64 = parse_num(name, word)?;
    Ok(Duration::from_millis(v.max(0) as u64))
}

const GO_KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

impl Uci {
    /// A fresh engine.
    pub fn new() -> Uci {
        Uci::with_sink(Sink::stdout(), Caps::default())
    }

    /// An engine writing to `sink`, within `caps`.
    pub fn with_sink(sink: Sink, caps: Caps) -> Uci {
        Uci {
            engine: Engine::with_caps(Arc::new(UciOutput { sink: sink.clone() }), caps),
            sink,
        }
    }

    fn handshake(&self) {
        say!(self.sink, "id name {NAME}");
        say!(self.sink, "id author {AUTHOR}");
        say!(
            self.sink,
            "option name Hash type spin default {DEFAULT_HASH} min 1 max {MAX_HASH}"
        );
        say!(
            self.sink,
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        );
        say!(
            self.sink,
            "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
        );
        say!(self.sink, "option name Ponder type check default false");
        say!(self.sink, "option name Clear Hash type button");
        say!(
            self.sink,
            "option name Move Overhead type spin default {DEFAULT_OVERHEAD} min 0 max {MAX_OVERHEAD}"
        );
        say!(
            self.sink,
            "option name Skill Level type spin default {MAX_LEVEL} min 0 max {MAX_LEVEL}"
        );
        say!(
            self.sink,
            "option name UCI_LimitStrength type check default false"
        );
        say!(
            self.sink,
            "option name UCI_Elo type spin default {DEFAULT_ELO} min {MIN_ELO} max {MAX_ELO}"
        );
        say!(self.sink, "uciok");
    }

    fn setoption(&mut self, words: &[&str]) -> Result<(), String> {
        if words.first() != Some(&"name") {
            return Err("expected 'setoption name <name> [value <value>]'".into());
        }
        let rest = &words[1..];
        let (name, value) = match rest.iter().position(|w| *w == "value") {
            Some(i) => (rest[..i].join(" "), Some(rest[i + 1..].join(" "))),
            None => (rest.join(" "), None),
        };
        let value = value.as_deref().filter(|v| !v.is_empty());
        let spin = |what: &str, min: u64, max: u64| parse_spin(what, value, min, max);
        let mut o: Options = self.engine.options().clone();
        match name.to_ascii_lowercase().as_str() {
            "hash" => o.hash_mib = spin("Hash", 1, MAX_HASH as u64)? as usize,
            "threads" => o.threads = spin("Threads", 1, MAX_THREADS as u64)? as usize,
            "multipv" => o.multipv = spin("MultiPV", 1, MAX_MULTIPV as u64)? as usize,
            "move overhead" => o.move_overhead = spin("Move Overhead", 0, MAX_OVERHEAD)?,
            "ponder" => o.ponder = parse_check("Ponder", value)?,
            "skill level" => o.skill = Skill::new(spin("Skill Level", 0, MAX_LEVEL.into())? as u8),
            "uci_limitstrength" => o.limit_strength = parse_check("UCI_LimitStrength", value)?,
            "uci_elo" => o.elo = spin("UCI_Elo", MIN_ELO.into(), MAX_ELO.into())? as u32,
            "clear hash" => {
                self.engine.new_game();
                return Ok(());
            }
            _ => return Err(format!("unknown option '{name}'")),
        }
        self.engine.set_options(o);
        Ok(())
    }

    fn go(&mut self, words: &[&str]) -> Result<(), String> {
        let mut req = GoRequest::default();
        let mut limits = Limits::default();
        let red = self.engine.game().position().side_to_move() == Color::Red;
        let (mut time, mut inc, mut mtg) = (None, Duration::ZERO, None);
        let mut problems = Vec::new();
        let mut i = 0;
        while i < words.len() {
            let w = words[i];
            let arg = words.get(i + 1).copied();
            let r: Result<(), String> = match w {
                "infinite" => {
                    req.infinite = true;
                    Ok(())
                }
                "ponder" => {
                    req.ponder = true;
                    Ok(())
                }
                "searchmoves" => {
                    let end = words[i + 1..]
                        .iter()
                        .position(|w| GO_KEYWORDS.contains(w))
                        .map_or(words.len(), |k| i + 1 + k);
                    let (good, bad) =
                        parse_legal_moves(self.engine.game().position(), &words[i + 1..end]);
                    limits.root_moves = good;
                    problems.extend(bad);
                    i = end;
                    continue;
                }
                "wtime" | "btime" => millis(w, arg).map(|t| {
                    if (w == "wtime") == red {
                        time = Some(t);
                    }
                }),
                "winc" | "binc" => millis(w, arg).map(|t| {
                    if (w == "winc") == red {
                        inc = t;
                    }
                }),
                "movestogo" => parse_num::<u32>(w, arg).map(|n| mtg = Some(n)),
                "depth" => parse_num::<u32>(w, arg).map(|d| limits.depth = Some(d.max(1))),
                "nodes" => parse_num::<u64>(w, arg).map(|n| limits.nodes = Some(n.max(1))),
                "mate" => parse_num::<u32>(w, arg).map(|n| limits.mate = Some(n.max(1))),
                "movetime" => millis(w, arg).map(|t| req.movetime = Some(t)),
                _ => Err(format!("unknown go parameter '{w}'")),
            };
            match r {
                Ok(()) if matches!(w, "infinite" | "ponder") => i += 1,
                Ok(()) => i += 2,
                Err(e) => {
                    problems.push(e);
                    // Skip a bad value but not a following keyword.
                    i += if arg.is_some_and(|a| !GO_KEYWORDS.contains(&a))
                        && GO_KEYWORDS.contains(&w)
                    {
                        2
                    } else {
                        1
                    };
                }
            }
        }
        if let Some(time) = time {
            req.clock = Some(Clock {
                time,
                inc,
                movestogo: mtg,
            });
        }
        req.limits = limits;
        self.engine.go(req);
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("; "))
        }
    }
}

impl Protocol for Uci {
    fn handle(&mut self, line: &str) -> Flow {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = words.split_first() else {
            return Flow::Continue;
        };
        let r: Result<(), String> = match cmd {
            "uci" => {
                self.handshake();
                Ok(())
            }
            "isready" => {
                say!(self.sink, "readyok");
                Ok(())
            }
            "setoption" => self.setoption(args),
            "ucinewgame" => {
                self.engine.new_game();
                Ok(())
            }
            "position" => parse_position(args).map(|g| self.engine.set_game(g)),
            "go" => self.go(args),
            "stop" => {
                self.engine.stop();
                Ok(())
            }
            "ponderhit" => {
                if self.engine.ponderhit() {
                    Ok(())
                } else {
                    Err("ponderhit while not pondering".into())
                }
            }
            "quit" => {
                self.engine.quit();
                return Flow::Quit;
            }
            "debug" | "register" => Ok(()),
            "d" => {
                say!(
                    self.sink,
                    "info string fen {}",
                    self.engine.game().position().to_fen()
                );
                Ok(())
            }
            _ => Err("unknown command".into()),
        };
        if let Err(e) = r {
            report_error(&self.sink, cmd, &e, line);
        }
        self.sink.flow()
    }

    fn eof(&mut self) {
        self.engine.quit();
    }
}
