//! What UCI and UCCI share: the engine and where its answers go, the options, the
//! commands both answer alike (`isready`, `position`, `stop`, `ponderhit`, `quit`), the
//! line's dispatch and its error report, the thinking lines and the best move. Each
//! protocol adds its handshake, its option table and its `go`.

use crate::error::CommandError;
use crate::io::{report_error, Flow, Sink};
use crate::options::{find, EngineOption, Kind, Settings};
use crate::parse::parse_position;
use xq_movegen::Game;
use xq_search::engine::{BookMove, Listener, SearchEngine};
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

/// A UCI `info` line for a completed iteration; with `wdl_material` (`UCI_ShowWDL`,
/// the material of the position searched) the chances of a win, a draw and a loss in
/// permille after the score.
///
/// ```
/// use xq_search::{Info, Score};
/// let info = Info {
///     depth: 3, seldepth: 5, multipv: 1, score: Score::Cp(30), value: 30, nodes: 1200,
///     time: std::time::Duration::from_millis(4), hashfull: 0, pv: vec!["h2e2".parse().unwrap()],
/// };
/// assert_eq!(
///     xq_protocol::uci_info_line(&info, None),
///     "info depth 3 seldepth 5 multipv 1 score cp 30 nodes 1200 nps 300000 hashfull 0 time 4 pv h2e2"
/// );
/// ```
pub fn uci_info_line(info: &Info, wdl_material: Option<u32>) -> String {
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    let wdl = wdl_material.map_or(String::new(), |m| {
        let w = xq_search::wdl::MODEL.wdl(info.score, m);
        format!(" wdl {} {} {}", w.win, w.draw, w.loss)
    });
    format!(
        "info depth {} seldepth {} multipv {} score {}{wdl} nodes {} nps {} hashfull {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.score,
        info.nodes,
        info.nps(),
        info.hashfull,
        info.time.as_millis(),
        pv.join(" ")
    )
}

impl Listener for Output {
    fn info(&self, info: &Info) {
        let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
        match self.dialect {
            Dialect::Uci => say!(self.sink, "{}", uci_info_line(info, self.wdl_material)),
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

/// What a shared command asks of the line loop.
pub(crate) enum Common {
    /// Answered (or refused).
    Done(Result<(), CommandError>),
    /// `quit`: the session ends.
    Quit,
}

/// The engine of a UCI or UCCI session, the sink its answers go to, and its options.
#[derive(Debug)]
pub(crate) struct Session<E> {
    pub(crate) engine: E,
    pub(crate) sink: Sink,
    dialect: Dialect,
    pub(crate) settings: Settings,
    /// The protocol's options.
    options: Vec<EngineOption>,
}

impl<E: SearchEngine> Session<E> {
    pub(crate) fn new(
        sink: Sink,
        engine: E,
        dialect: Dialect,
        options: Vec<EngineOption>,
    ) -> Session<E> {
        Session {
            engine,
            sink,
            dialect,
            settings: Settings::new(),
            options,
        }
    }

    /// The option of this protocol named `name` (in any case).
    pub(crate) fn option(&self, name: &str) -> Option<EngineOption> {
        find(&self.options, name).copied()
    }

    /// Sets the option `option` to `value`; a note (a network loaded) is said.
    pub(crate) fn set(
        &mut self,
        option: &EngineOption,
        value: Option<&str>,
    ) -> Result<(), CommandError> {
        let value = option.parse(value)?;
        let note = self
            .settings
            .apply(&mut self.engine, option.setting, value)?;
        if let Some(note) = note {
            say!(self.sink, "info string {note}");
        }
        Ok(())
    }

    /// Starts a search that answers on the sink.
    pub(crate) fn go(&mut self, limits: Limits) {
        let output = Output {
            sink: self.sink.clone(),
            dialect: self.dialect,
            wdl_material: self
                .settings
                .show_wdl
                .then(|| xq_search::wdl::material(self.engine.game().position())),
        };
        self.engine.go(limits, Box::new(output));
    }

    /// Announces the engine: its name and authors (and, in UCCI, its copyright).
    pub(crate) fn identify(&self) {
        say!(self.sink, "id name {}", self.engine.name().unwrap_or(NAME));
        if self.dialect == Dialect::Ucci {
            say!(self.sink, "id copyright 2024 {AUTHOR}, MIT OR Apache-2.0");
        }
        say!(self.sink, "id author {AUTHOR}");
    }

    /// Announces the options, each as the dialect writes it.
    pub(crate) fn announce(&self) {
        for o in &self.options {
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
            "position" => parse_position(args).map(|g| {
                let unusual = g.start().irregularities();
                if !unusual.is_empty() {
                    let what: Vec<String> = unusual.iter().map(|e| e.to_string()).collect();
                    say!(
                        self.sink,
                        "info string position: unusual position, searched as given: {}",
                        what.join(", ")
                    );
                }
                self.engine.set_game(g)
            }),
            "bench" => self.bench(args),
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

    /// The input ended: a search with limits of its own finishes and answers; a held
    /// one (infinite, pondering) is stopped and answers.
    pub(crate) fn eof(&mut self) {
        self.engine.wait();
    }

    /// `go perft DEPTH`, as Stockfish and Pikafish answer it: the leaves below each legal
    /// move (`h2e2: 1234`), a blank line, `Nodes searched: N`. A search is stopped first.
    /// Under a node cap ([`Caps::max_nodes`](xq_search::engine::Caps::max_nodes)), a
    /// depth whose count would take more is refused.
    pub(crate) fn perft(&mut self, args: &[&str]) -> Result<(), CommandError> {
        let depth = match args {
            [d] => crate::parse::parse_spin("perft", Some(d), 1, 64)? as u32,
            [] => return Err(CommandError::MissingValue("perft".into())),
            _ => return Err(CommandError::Usage("go perft <depth>")),
        };
        self.engine.stop();
        let mut pos = self.engine.game().position().clone();
        // A host that caps a search's nodes caps perft's work too: counting depth `d`
        // plays about perft(d - 1) moves.
        if let Some(cap) = self.engine.core().caps().max_nodes {
            if let Some(max) = (1..depth).find(|&k| xq_perft::perft(&mut pos, k) > cap) {
                return Err(CommandError::OutOfRange {
                    name: "perft".into(),
                    min: 1,
                    max: u64::from(max),
                    value: u64::from(depth),
                });
            }
        }
        let divide = xq_perft::divide(&mut pos, depth);
        for (m, n) in &divide {
            say!(self.sink, "{m}: {n}");
        }
        say!(self.sink, "");
        say!(
            self.sink,
            "Nodes searched: {}",
            divide.iter().map(|(_, n)| n).sum::<u64>()
        );
        say!(self.sink, "");
        Ok(())
    }

    /// `bench [DEPTH]`: `xq bench` (the same positions, depth and table size, so the
    /// same node count), each position's nodes and the total as `info string` lines.
    fn bench(&mut self, args: &[&str]) -> Result<(), CommandError> {
        let depth = match args {
            [] => xq_search::bench::DEPTH,
            [d] => {
                let depths = xq_search::bench::DEPTHS;
                let (min, max) = (u64::from(*depths.start()), u64::from(*depths.end()));
                crate::parse::parse_spin("depth", Some(d), min, max)? as u32
            }
            _ => return Err(CommandError::Usage("bench [depth]")),
        };
        self.engine.stop();
        let network = self.engine.options().network.clone();
        let sink = self.sink.clone();
        let total = xq_search::bench::run(
            depth,
            xq_search::bench::HASH_MIB,
            network,
            &mut |i, fen, r| {
                say!(
                    sink,
                    "info string bench {i:>2} {:>10} nodes  {fen}",
                    r.nodes
                );
            },
        )
        .map_err(|e| {
            CommandError::Engine(xq_search::engine::EngineError::Table {
                asked: e.mib,
                kept: 0,
            })
        })?;
        say!(
            self.sink,
            "info string bench {} nodes {} nps",
            total.nodes,
            total.nps()
        );
        Ok(())
    }
}
