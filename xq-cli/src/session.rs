//! What UCI and UCCI share: the engine and where its answers go, the commands both
//! answer alike (`isready`, `position`, `stop`, `ponderhit`, `quit`), the line's
//! dispatch and its error report, the thinking lines and the best move. Each protocol
//! adds its handshake, its options and its `go`.

use crate::protocol::{parse_position, parse_spin, report_error, say, CommandError, Flow, Sink};
use std::sync::Arc;
use xq_book::{Book, BookMove};
use xq_eval::nnue::Network;
use xq_movegen::Game;
use xq_search::engine::{Caps, Engine, Listener, Options};
use xq_search::{Info, Limits, Score, SearchResult};

/// The engine's name and version, as protocols announce it.
pub const NAME: &str = concat!("xq ", env!("CARGO_PKG_VERSION"));
/// The engine's authors, as protocols announce them.
pub const AUTHOR: &str = "The xq developers";

/// Which of the two protocols a session speaks: how it writes thinking lines and a
/// search without a move, and how it says goodbye.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    Uci,
    Ucci,
}

/// Writes a search's reports in the session's dialect.
#[derive(Debug)]
pub(crate) struct Output {
    sink: Sink,
    dialect: Dialect,
    /// UCI's `UCI_ShowWDL`: the material of the position searched, to turn scores into
    /// chances (`None`: no `wdl` in the info lines).
    wdl_material: Option<u32>,
}

impl Listener for Output {
    fn info(&self, info: &Info) {
        let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
        match self.dialect {
            Dialect::Uci => say!(
                self.sink,
                "info depth {} seldepth {} multipv {} score {}{} nodes {} nps {} hashfull {} time {} pv {}",
                info.depth,
                info.seldepth,
                info.multipv,
                info.score,
                self.wdl_material.map_or(String::new(), |m| {
                    let w = xq_search::wdl::MODEL.wdl(info.score, m);
                    format!(" wdl {} {} {}", w.win, w.draw, w.loss)
                }),
                info.nodes,
                info.nps(),
                info.hashfull,
                info.time.as_millis(),
                pv.join(" ")
            ),
            // UCCI has no MultiPV: the best line only, score in centipawns.
            Dialect::Ucci if info.multipv == 1 => {
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
            Dialect::Ucci => {}
        }
    }

    fn best_move(&self, result: &SearchResult, game: &Game) {
        match (result.best_move, result.ponder) {
            (Some(m), Some(p)) => say!(self.sink, "bestmove {m} ponder {p}"),
            (Some(m), None) => say!(self.sink, "bestmove {m}"),
            (None, _) => match self.dialect {
                Dialect::Uci => {
                    if xq_movegen::count_legal(game.position()) == 0 {
                        say!(self.sink, "info depth 0 score {}", Score::Mate(0));
                    }
                    say!(self.sink, "bestmove (none)");
                }
                Dialect::Ucci => say!(self.sink, "nobestmove"),
            },
        }
    }

    fn is_closed(&self) -> bool {
        self.sink.is_closed()
    }

    fn book(&self, moves: &[BookMove], chosen: &BookMove) {
        let sum: u64 = moves.iter().map(|b| u64::from(b.weight)).sum();
        let all: Vec<String> = moves
            .iter()
            .map(|b| format!("{} {}", b.mv, b.weight))
            .collect();
        say!(
            self.sink,
            "info string book move {} (weight {} of {sum}; book: {})",
            chosen.mv,
            chosen.weight,
            all.join(", ")
        );
    }
}

/// An option as the handshake announces it.
#[derive(Copy, Clone, Debug)]
pub(crate) struct EngineOption {
    pub(crate) name: &'static str,
    pub(crate) kind: Kind,
}

/// An option's type, as both protocols name them.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Kind {
    Spin {
        default: u64,
        min: u64,
        max: u64,
    },
    Check {
        default: bool,
    },
    Button,
    /// One of a fixed list of words.
    Combo {
        default: &'static str,
        vars: &'static [&'static str],
    },
    /// Any text (a file name); an empty default is written `<empty>`, as UCI does.
    Text {
        default: &'static str,
    },
}

/// The value of the network file option that means the built-in network.
pub(crate) const BUILT_IN_NET: &str = "<built-in>";

impl EngineOption {
    /// The value of this spin option, within its range.
    pub(crate) fn spin(&self, value: Option<&str>) -> Result<u64, CommandError> {
        match self.kind {
            Kind::Spin { min, max, .. } => parse_spin(self.name, value, min, max),
            _ => unreachable!("{} is not a spin option", self.name),
        }
    }
}

/// What a shared command asks of the line loop.
pub(crate) enum Common {
    /// Answered (or refused).
    Done(Result<(), CommandError>),
    /// `quit`: the session ends.
    Quit,
}

/// The engine of a UCI or UCCI session, with the sink its answers go to.
#[derive(Debug)]
pub(crate) struct Session {
    pub(crate) engine: Engine,
    pub(crate) sink: Sink,
    dialect: Dialect,
    /// Evaluate with a network (`Use NNUE`, `usennue`)?
    use_nnue: bool,
    /// The network loaded from a file (`EvalFile`, `evalfile`); `None`: the built-in one.
    net_file: Option<Arc<Network>>,
    /// UCI's `UCI_ShowWDL`: the info lines carry `wdl W D L`.
    pub(crate) show_wdl: bool,
}

impl Session {
    pub(crate) fn new(sink: Sink, caps: Caps, dialect: Dialect) -> Session {
        Session {
            engine: Engine::with_caps(Options::default(), caps),
            sink,
            dialect,
            use_nnue: true,
            net_file: None,
            show_wdl: false,
        }
    }

    /// Changes the engine's options; a table the system refuses is reported, with the
    /// size kept.
    pub(crate) fn set_options(&mut self, options: Options) -> Result<(), CommandError> {
        let asked = options.hash_mib;
        self.engine
            .set_options(options)
            .map_err(|_| CommandError::Table {
                asked,
                kept: self.engine.options().hash_mib,
            })
    }

    /// Sets the book from the file at `path` (empty, or UCI's `<empty>`: no book). A file
    /// that is not a book leaves the engine without one, and is the error.
    pub(crate) fn load_book(&mut self, path: &str) -> Result<(), CommandError> {
        let path = path.trim();
        if path.is_empty() || path == "<empty>" {
            self.engine.set_book(None);
            return Ok(());
        }
        match Book::open(path) {
            Ok(book) => {
                self.engine.set_book(Some(Arc::new(book)));
                Ok(())
            }
            Err(error) => {
                self.engine.set_book(None);
                Err(CommandError::Book {
                    path: path.to_string(),
                    error,
                })
            }
        }
    }

    /// `Use NNUE` / `usennue`: evaluate with the network (the loaded one, else the
    /// built-in one), or with the classical evaluation.
    pub(crate) fn set_use_nnue(&mut self, on: bool) -> Result<(), CommandError> {
        self.use_nnue = on;
        self.apply_eval()
    }

    /// `EvalFile` / `evalfile`: loads a network file; an empty value or
    /// [`BUILT_IN_NET`] goes back to the built-in network. On an error nothing changes.
    pub(crate) fn set_eval_file(&mut self, value: Option<&str>) -> Result<(), CommandError> {
        let path = value.map(str::trim).unwrap_or_default();
        self.net_file = if path.is_empty() || path == BUILT_IN_NET || path == "<empty>" {
            None
        } else {
            let fail = |reason: String| CommandError::EvalFile {
                path: path.to_string(),
                reason,
            };
            let bytes = std::fs::read(path).map_err(|e| fail(e.to_string()))?;
            let net = Network::from_bytes(&bytes).map_err(|e| fail(e.to_string()))?;
            say!(
                self.sink,
                "info string network {path} loaded ({} hidden units)",
                net.hidden()
            );
            Some(Arc::new(net))
        };
        self.apply_eval()
    }

    /// Gives the engine the evaluation the two options choose.
    fn apply_eval(&mut self) -> Result<(), CommandError> {
        let mut o = self.engine.options().clone();
        o.network = if self.use_nnue {
            self.net_file
                .clone()
                .or_else(xq_eval::nnue::default_network)
        } else {
            None
        };
        self.set_options(o)
    }

    /// Starts a search that answers on the sink.
    pub(crate) fn go(&mut self, limits: Limits) {
        let output = Output {
            sink: self.sink.clone(),
            dialect: self.dialect,
            wdl_material: self
                .show_wdl
                .then(|| xq_search::wdl::material(self.engine.game().position())),
        };
        self.engine.go(limits, output);
    }

    /// Announces the engine: its name and authors (and, in UCCI, its copyright).
    pub(crate) fn identify(&self) {
        say!(self.sink, "id name {NAME}");
        if self.dialect == Dialect::Ucci {
            say!(self.sink, "id copyright 2024 {AUTHOR}, MIT OR Apache-2.0");
        }
        say!(self.sink, "id author {AUTHOR}");
    }

    /// Announces the options, each as the dialect writes it.
    pub(crate) fn announce(&self, options: &[EngineOption]) {
        for o in options {
            let name = o.name;
            match (self.dialect, o.kind) {
                (Dialect::Uci, Kind::Spin { default, min, max }) => say!(
                    self.sink,
                    "option name {name} type spin default {default} min {min} max {max}"
                ),
                (Dialect::Ucci, Kind::Spin { default, min, max }) => say!(
                    self.sink,
                    "option {name} type spin min {min} max {max} default {default}"
                ),
                (Dialect::Uci, Kind::Check { default }) => {
                    say!(self.sink, "option name {name} type check default {default}")
                }
                (Dialect::Ucci, Kind::Check { default }) => {
                    say!(self.sink, "option {name} type check default {default}")
                }
                (Dialect::Uci, Kind::Button) => say!(self.sink, "option name {name} type button"),
                (Dialect::Ucci, Kind::Button) => say!(self.sink, "option {name} type button"),
                (Dialect::Uci, Kind::Combo { default, vars }) => {
                    let vars: Vec<String> = vars.iter().map(|v| format!("var {v}")).collect();
                    say!(
                        self.sink,
                        "option name {name} type combo default {default} {}",
                        vars.join(" ")
                    )
                }
                (Dialect::Ucci, Kind::Combo { default, vars }) => {
                    let vars: Vec<String> = vars.iter().map(|v| format!("var {v}")).collect();
                    say!(
                        self.sink,
                        "option {name} type combo {} default {default}",
                        vars.join(" ")
                    )
                }
                (dialect, Kind::Text { default }) => {
                    let default = if default.is_empty() {
                        "<empty>"
                    } else {
                        default
                    };
                    let name = match dialect {
                        Dialect::Uci => format!("name {name}"),
                        Dialect::Ucci => name.to_string(),
                    };
                    say!(self.sink, "option {name} type string default {default}")
                }
            }
        }
    }

    /// Answers the commands both protocols share; `None` for any other command.
    pub(crate) fn common(&mut self, cmd: &str, args: &[&str]) -> Option<Common> {
        Some(Common::Done(match cmd {
            "isready" => {
                say!(self.sink, "readyok");
                Ok(())
            }
            "position" => parse_position(args).map(|g| self.engine.set_game(g)),
            "stop" => {
                self.engine.stop();
                Ok(())
            }
            "ponderhit" => {
                if self.engine.ponderhit() {
                    Ok(())
                } else {
                    Err(CommandError::NotPondering)
                }
            }
            "quit" => {
                self.engine.abandon();
                if self.dialect == Dialect::Ucci {
                    say!(self.sink, "bye");
                }
                return Some(Common::Quit);
            }
            _ => return None,
        }))
    }

    /// Reports a refused command (or the refused part of one) as an `info string`.
    pub(crate) fn report(&self, cmd: &str, result: Result<(), CommandError>, line: &str) {
        if let Err(e) = result {
            report_error(&self.sink, cmd, &e, line);
        }
    }

    /// Ends a line: reports a refused command and says whether to read on.
    pub(crate) fn finish(&self, cmd: &str, result: Result<(), CommandError>, line: &str) -> Flow {
        self.report(cmd, result, line);
        self.sink.flow()
    }

    /// Standard input ended: stop quietly.
    pub(crate) fn eof(&mut self) {
        self.engine.abandon();
    }
}
