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

use crate::engine::{
    legal_ponder, Caps, Engine, GoRequest, Options, Output, AUTHOR, DEFAULT_HASH, DEFAULT_OVERHEAD,
    MAX_HASH, MAX_OVERHEAD, MAX_THREADS, NAME,
};
use crate::protocol::{
    parse_check, parse_legal_moves, parse_num, parse_position, parse_spin, report_error, say, Flow,
    Protocol, Sink,
};
use crate::time::Clock;

use std::sync::Arc;
use std::time::Duration;
use xq_movegen::Game;
use xq_search::skill::{Skill, MAX_LEVEL};
use xq_search::tt::Bound;
use xq_search::{Info, Limits, SearchResult};

/// UCCI output formatting.
#[derive(Debug)]
struct UcciOutput {
    sink: Sink,
}

impl Output for UcciOutput {
    fn info(&self, info: &Info) {
        // UCCI has no MultiPV: report the best line only.
        if info.multipv != 1 {
            return;
        }
        let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
        say!(
            self.sink,
            "info depth {} score {} pv {}",
            info.depth,
            info.value,
            pv.join(" ")
        );
        say!(
            self.sink,
            "info time {} nodes {}",
            info.time.as_millis(),
            info.nodes
        );
    }

    fn bestmove(&self, result: &SearchResult, game: &Game) {
        match result.best_move {
            Some(m) => match legal_ponder(game.position(), m, result.ponder) {
                Some(p) => say!(self.sink, "bestmove {m} ponder {p}"),
                None => say!(self.sink, "bestmove {m}"),
            },
            None => say!(self.sink, "nobestmove"),
        }
    }

    fn closed(&self) -> bool {
        self.sink.is_closed()
    }
}

/// The UCCI command handler.
#[derive(Debug)]
pub struct Ucci {
    engine: Engine,
    sink: Sink,
    use_millisec: bool,
}

impl Default for Ucci {
    fn default() -> Self {
        Ucci::new()
    }
}

/// A check option's value; `setoption ponder` alone switches it on.
fn check(name: &str, value: Option<&str>) -> Result<bool, String> {
    value.map_or(Ok(true), |v| parse_check(name, Some(v)))
}

impl Ucci {
    /// A fresh engine.
    pub fn new() -> Ucci {
        Ucci::with_sink(Sink::stdout(), Caps::default())
    }

    /// An engine writing to `sink`, within `caps`.
    pub fn with_sink(sink: Sink, caps: Caps) -> Ucci {
        Ucci {
            engine: Engine::with_caps(Arc::new(UcciOutput { sink: sink.clone() }), caps),
            sink,
            use_millisec: false,
        }
    }

    fn handshake(&self) {
        say!(self.sink, "id name {NAME}");
        say!(self.sink, "id copyright 2024 {AUTHOR}, MIT OR Apache-2.0");
        say!(self.sink, "id author {AUTHOR}");
        say!(self.sink, "option usemillisec type check default false");
        say!(
            self.sink,
            "option hashsize type spin min 0 max {MAX_HASH} default {DEFAULT_HASH}"
        );
        say!(
            self.sink,
            "option threads type spin min 0 max {MAX_THREADS} default 1"
        );
        say!(self.sink, "option ponder type check default false");
        say!(self.sink, "option newgame type button");
        say!(
            self.sink,
            "option skill type spin min 0 max {MAX_LEVEL} default {MAX_LEVEL}"
        );
        say!(
            self.sink,
            "option moveoverhead type spin min 0 max {MAX_OVERHEAD} default {DEFAULT_OVERHEAD}"
        );
        say!(self.sink, "ucciok");
    }

    fn setoption(&mut self, words: &[&str]) -> Result<(), String> {
        let Some((name, rest)) = words.split_first() else {
            return Err("missing option name".into());
        };
        let value = rest.first().copied();
        let mut o: Options = self.engine.options().clone();
        match name.to_ascii_lowercase().as_str() {
            "usemillisec" => {
                self.use_millisec = check(name, value)?;
                return Ok(());
            }
            "hashsize" => {
                let n = parse_spin(name, value, 0, MAX_HASH as u64)? as usize;
                o.hash_mib = if n == 0 { DEFAULT_HASH } else { n };
            }
            "threads" => {
                let n = parse_spin(name, value, 0, MAX_THREADS as u64)? as usize;
                o.threads = n.max(1);
            }
            "ponder" => o.ponder = check(name, value)?,
            "moveoverhead" => o.move_overhead = parse_spin(name, value, 0, MAX_OVERHEAD)?,
            "skill" => o.skill = Skill::new(parse_spin(name, value, 0, MAX_LEVEL.into())? as u8),
            "newgame" | "clearhash" => {
                self.engine.new_game();
                return Ok(());
            }
            // Options of other engines (usebook, style, ...): ignored, as UCCI asks.
            _ => return Ok(()),
        }
        self.engine.set_options(o);
        Ok(())
    }

    /// A time in the GUI's unit (seconds, or milliseconds with `usemillisec`).
    fn time(&self, name: &str, word: Option<&str>) -> Result<Duration, String> {
        let v: f64 = parse_num(name, word)?;
        if !v.is_finite() {
            return Err(format!(
                "bad value '{}' for {name}",
                word.unwrap_or_default()
            ));
        }
        let ms = if self.use_millisec { v } else { v * 1000.0 };
        Ok(Duration::from_millis(ms.clamp(0.0, 1e12) as u64))
    }

    fn go(&mut self, words: &[&str]) -> Result<(), String> {
        let mut req = GoRequest::default();
        let mut limits = Limits::default();
        let (mut time, mut inc, mut mtg) = (None, None, None);
        let mut depth_zero = false;
        let mut problems = Vec::new();
        let mut i = 0;
        while i < words.len() {
            let w = words[i];
            let arg = words.get(i + 1).copied();
            let r: Result<bool, String> = match w {
                "ponder" => {
                    req.ponder = true;
                    Ok(false)
                }
                "draw" => Ok(false),
                "depth" => match arg {
                    Some("infinite") => {
                        req.infinite = true;
                        Ok(true)
                    }
                    _ => parse_num::<u32>(w, arg).map(|d| {
                        depth_zero = d == 0;
                        limits.depth = Some(d.max(1));
                        true
                    }),
                },
                "nodes" => parse_num::<u64>(w, arg).map(|n| {
                    limits.nodes = Some(n.max(1));
                    true
                }),
                "time" => self.time(w, arg).map(|t| {
                    time = Some(t);
                    true
                }),
                "increment" => self.time(w, arg).map(|t| {
                    inc = Some(t);
                    true
                }),
                "movestogo" => parse_num::<u32>(w, arg).map(|n| {
                    mtg = Some(n);
                    true
                }),
                "opptime" | "oppincrement" | "oppmovestogo" => Ok(true),
                _ => Err(format!("unknown go parameter '{w}'")),
            };
            match r {
                Ok(takes_value) => i += 1 + usize::from(takes_value),
                Err(e) => {
                    problems.push(e);
                    i += 1;
                }
            }
        }
        if depth_zero {
            // Static evaluation only: there is no searched move.
            self.engine.stop();
            say!(self.sink, "nobestmove");
        } else {
            if let Some(time) = time {
                req.clock = Some(Clock {
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
            req.limits = limits;
            self.engine.go(req);
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("; "))
        }
    }

    fn banmoves(&mut self, words: &[&str]) -> Result<(), String> {
        let (good, bad) = parse_legal_moves(self.engine.game().position(), words);
        self.engine.set_banned(good);
        if bad.is_empty() {
            Ok(())
        } else {
            Err(bad.join("; "))
        }
    }

    fn probe(&self, words: &[&str]) -> Result<(), String> {
        let game;
        let pos = if words.is_empty() {
            self.engine.game().position()
        } else {
            game = parse_position(words)?;
            game.position()
        };
        let mut out = String::from("pophash");
        if let Some(e) = self.engine.table().probe(pos.key(), 0) {
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
        say!(self.sink, "{out}");
        Ok(())
    }
}

impl Protocol for Ucci {
    fn handle(&mut self, line: &str) -> Flow {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = words.split_first() else {
            return Flow::Continue;
        };
        let r: Result<(), String> = match cmd {
            "ucci" => {
                self.handshake();
                Ok(())
            }
            "isready" => {
                say!(self.sink, "readyok");
                Ok(())
            }
            "setoption" => self.setoption(args),
            "position" => parse_position(args).map(|g| self.engine.set_game(g)),
            "banmoves" => self.banmoves(args),
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
            "probe" => self.probe(args),
            "quit" => {
                self.engine.quit();
                say!(self.sink, "bye");
                return Flow::Quit;
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
