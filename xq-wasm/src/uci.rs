//! The engine's UCI, a subset for a Web Worker: `uci`, `isready`, `ucinewgame`,
//! `setoption` (`Hash`, `MultiPV`, `Skill Level`, `UCI_LimitStrength`, `UCI_Elo`, `Clear
//! Hash`, `UCI_ShowWDL`, `UCI_Variant`), `position`, `go` (`depth`, `nodes`, `movetime`,
//! `mate`, `wtime`/`btime`, `winc`/`binc`, `movestogo`, `infinite`, `searchmoves`),
//! `stop`, `bench`, `d`.
//!
//! A worker's thread cannot read its messages while it searches, so a `go` is not run by
//! [`Uci::command`]: it is kept, and the worker's script runs it in one of two ways.
//! [`Uci::search`] runs it to the end, polling a [`StopSignal`] (a flag the page shares
//! with the worker through a `SharedArrayBuffer` when it is cross-origin isolated).
//! [`Uci::step`] runs one iteration at a time, so that the script can read its messages
//! between two of them and answer `stop` with [`Uci::finish`] (the fallback without
//! shared memory). Nothing here panics on bad input: a bad command is an
//! `info string` line. Every `go` is answered by one `bestmove` (a bad one by
//! `bestmove (none)`), so that a page can count its searches.

use crate::clock::Instant;
use std::time::Duration;
use xq_core::{Color, Move, SplitMix64};
use xq_movegen::{is_legal, Game};
use xq_search::score::MAX_PLY;
use xq_search::skill::{Skill, MAX_ELO, MIN_ELO};
use xq_search::{Clock, Info, Limits, SearchResult, Searcher, StopSignal};

/// The name the engine gives in `id name`.
pub const NAME: &str = concat!("xq ", env!("CARGO_PKG_VERSION"), " (wasm)");
/// The largest `Hash` in MiB (a wasm32 memory holds at most 4 GiB).
pub const MAX_HASH_MIB: usize = 1024;
/// The default `Hash` in MiB.
pub const DEFAULT_HASH_MIB: usize = 16;
/// The most lines `MultiPV` may ask for.
pub const MAX_MULTIPV: usize = 16;

/// A stop signal that is never set: the step mode reads its messages between steps.
fn never() -> bool {
    false
}

/// The UCI engine of one worker: its game, its searcher and options, and the `go` it is
/// running, if any.
#[derive(Debug)]
pub struct Uci {
    game: Game,
    searcher: Searcher,
    hash_mib: usize,
    multipv: usize,
    skill: Skill,
    limit_strength: bool,
    elo: u32,
    /// `UCI_ShowWDL`: the info lines carry `wdl W D L`.
    show_wdl: bool,
    seeds: SplitMix64,
    go: Option<Go>,
}

/// A `go` being run.
#[derive(Debug)]
struct Go {
    limits: Limits,
    /// Run the whole search in one step (a time limit or a level ends it by itself).
    whole: bool,
    /// The next iteration to search in step mode.
    next_depth: u32,
    /// The last iteration to search.
    max_depth: u32,
    start: Instant,
    /// The nodes of the steps done.
    nodes: u64,
    /// The answer of the last step.
    last: Option<SearchResult>,
    /// The lines of the last completed iteration (a level chooses among them).
    lines: Vec<Info>,
    skill: Skill,
    seed: u64,
    /// The lines to report (a level searches more than it shows).
    shown: usize,
    /// With `UCI_ShowWDL`, the material of the position searched (the win/draw/loss
    /// model's input besides the score).
    wdl_material: Option<u32>,
}

impl Default for Uci {
    fn default() -> Uci {
        Uci::new()
    }
}

impl Uci {
    /// An engine at the start position with the default options.
    pub fn new() -> Uci {
        Uci {
            game: Game::startpos(),
            searcher: Searcher::new(DEFAULT_HASH_MIB),
            hash_mib: DEFAULT_HASH_MIB,
            multipv: 1,
            skill: Skill::FULL,
            limit_strength: false,
            elo: MAX_ELO,
            show_wdl: false,
            seeds: SplitMix64::new(0x5EED),
            go: None,
        }
    }

    /// Seeds the choices of a level (a reproducible game).
    pub fn set_seed(&mut self, seed: u64) {
        self.seeds = SplitMix64::new(seed);
    }

    /// Is a `go` waiting to be run by [`Uci::search`] or [`Uci::step`]?
    pub fn is_searching(&self) -> bool {
        self.go.is_some()
    }

    /// The current game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Handles one line from the GUI, writing the answers to `out`. Returns `true` when
    /// the line was a `go`: the search is then waiting for [`Uci::search`] or
    /// [`Uci::step`]. A command other than `stop`, `isready` or `quit` that comes while a
    /// search waits first ends that search (its `bestmove` is written).
    pub fn command(&mut self, line: &str, out: &mut dyn FnMut(&str)) -> bool {
        let line = line.trim();
        let (cmd, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        match cmd {
            "" => {}
            "isready" => out("readyok"),
            "stop" => self.finish(out),
            "quit" => self.go = None,
            _ => {
                // A new command while a stepped search waits: end the search first.
                self.finish(out);
                match cmd {
                    "uci" => self.uci(out),
                    "ucinewgame" => self.searcher.new_game(),
                    "setoption" => self.setoption(rest, out),
                    "position" => self.position(rest, out),
                    "go" => return self.go(rest, out),
                    "bench" => self.bench(rest, out),
                    "d" => out(&format!(
                        "info string fen {}",
                        self.game.position().to_fen()
                    )),
                    "ponderhit" => {}
                    _ => out(&format!(
                        "info string unknown command: {}",
                        printable(line, 60)
                    )),
                }
            }
        }
        false
    }

    fn uci(&self, out: &mut dyn FnMut(&str)) {
        out(&format!("id name {NAME}"));
        out("id author The xq developers");
        out(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MIB} min 1 max {MAX_HASH_MIB}"
        ));
        out("option name Clear Hash type button");
        out(&format!(
            "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
        ));
        out("option name Skill Level type spin default 20 min 0 max 20");
        out("option name UCI_LimitStrength type check default false");
        out(&format!(
            "option name UCI_Elo type spin default {MAX_ELO} min {MIN_ELO} max {MAX_ELO}"
        ));
        out("option name UCI_ShowWDL type check default false");
        out("option name UCI_Variant type combo default xiangqi var xiangqi");
        out("uciok");
    }

    fn setoption(&mut self, rest: &str, out: &mut dyn FnMut(&str)) {
        let Some(rest) = rest.strip_prefix("name") else {
            out("info string setoption needs: name <id> [value <x>]");
            return;
        };
        let (name, value) = match rest.split_once(" value") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (rest.trim(), ""),
        };
        let number = |lo: u64, hi: u64| -> Result<u64, String> {
            match value.parse::<u64>() {
                Ok(v) if (lo..=hi).contains(&v) => Ok(v),
                _ => Err(format!(
                    "option {name}: must be between {lo} and {hi}, not '{}'",
                    printable(value, 20)
                )),
            }
        };
        let check = || match value {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(format!("option {name}: must be true or false")),
        };
        let result = match name.to_ascii_lowercase().as_str() {
            "hash" => number(1, MAX_HASH_MIB as u64).map(|v| {
                self.hash_mib = v as usize;
                self.searcher = Searcher::new(self.hash_mib);
            }),
            "clear hash" => {
                self.searcher.new_game();
                Ok(())
            }
            "multipv" => number(1, MAX_MULTIPV as u64).map(|v| self.multipv = v as usize),
            "skill level" => number(0, 20).map(|v| self.skill = Skill::new(v as u8)),
            "uci_elo" => number(u64::from(MIN_ELO), u64::from(MAX_ELO)).map(|v| {
                self.elo = v as u32;
            }),
            "uci_limitstrength" => check().map(|on| self.limit_strength = on),
            "uci_showwdl" => check().map(|on| self.show_wdl = on),
            "uci_variant" if value.eq_ignore_ascii_case("xiangqi") => Ok(()),
            "uci_variant" => Err(format!(
                "unsupported variant '{}': xq plays xiangqi",
                printable(value, 20)
            )),
            _ => Err(format!("unknown option: {}", printable(name, 40))),
        };
        if let Err(e) = result {
            out(&format!("info string {e}"));
        }
    }

    fn position(&mut self, rest: &str, out: &mut dyn FnMut(&str)) {
        let (setup, moves) = match rest.split_once("moves") {
            Some((s, m)) => (s.trim(), m.split_whitespace().collect::<Vec<_>>()),
            None => (rest.trim(), Vec::new()),
        };
        let fen = if setup == "startpos" {
            xq_core::START_FEN
        } else if let Some(fen) = setup.strip_prefix("fen") {
            fen.trim()
        } else {
            out("info string position needs: startpos | fen <fen> [moves ...]");
            return;
        };
        match Game::from_fen_moves(fen, &moves) {
            Ok(game) => self.game = game,
            Err(e) => out(&format!(
                "info string bad position ({}), kept the previous one",
                printable(&e.to_string(), 200)
            )),
        }
    }

    /// The level that plays: `UCI_Elo` when `UCI_LimitStrength` is on, else `Skill Level`.
    fn strength(&self) -> Skill {
        if self.limit_strength {
            Skill::from_elo(self.elo)
        } else {
            self.skill
        }
    }

    fn go(&mut self, rest: &str, out: &mut dyn FnMut(&str)) -> bool {
        let limits = match parse_go(rest, &self.game) {
            Ok(l) => l,
            Err(e) => {
                // A page waiting for the answer to its `go` gets one.
                out(&format!("info string {e}"));
                out("bestmove (none)");
                return false;
            }
        };
        let skill = self.strength();
        let mut limits = limits;
        skill.restrict(&mut limits);
        self.searcher.set_multipv(self.multipv.max(skill.lines()));
        let whole = limits.movetime.is_some()
            || (limits.clock.is_some() && !limits.infinite)
            || !skill.is_full_strength();
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        self.go = Some(Go {
            limits,
            whole,
            next_depth: 1,
            max_depth,
            start: Instant::now(),
            nodes: 0,
            last: None,
            lines: Vec::new(),
            skill,
            seed: self.seeds.next_u64(),
            shown: self.multipv,
            wdl_material: self
                .show_wdl
                .then(|| xq_search::wdl::material(self.game.position())),
        });
        true
    }

    /// Runs the waiting `go` to its end, polling `stop` (every 1,024 nodes), and writes
    /// its lines and its `bestmove`. Does nothing when no search waits.
    pub fn search(&mut self, stop: &dyn StopSignal, out: &mut dyn FnMut(&str)) {
        let Some(mut go) = self.go.take() else {
            return;
        };
        let result = run(&mut self.searcher, &self.game, &mut go, None, stop, out);
        go.last = Some(result);
        self.go = Some(go);
        self.finish(out);
    }

    /// Runs one iteration of the waiting `go` (or all of it when a time limit or a level
    /// ends it by itself) and writes its lines. Returns `true` when the search is over
    /// and its `bestmove` written; else the script reads its messages and steps again
    /// (or calls [`Uci::finish`] on `stop`).
    pub fn step(&mut self, out: &mut dyn FnMut(&str)) -> bool {
        let Some(mut go) = self.go.take() else {
            return true;
        };
        let depth = (!go.whole).then_some(go.next_depth);
        let result = run(
            &mut self.searcher,
            &self.game,
            &mut go,
            depth,
            &(never as fn() -> bool),
            out,
        );
        let reached = result.depth;
        let over = go.whole
            || result.best_move.is_none()
            || reached < go.next_depth
            || go.next_depth >= go.max_depth
            || go.limits.nodes.is_some_and(|n| go.nodes >= n);
        go.next_depth += 1;
        go.last = Some(result);
        self.go = Some(go);
        if over {
            self.finish(out);
        }
        over
    }

    /// Ends the waiting search, if any: writes `bestmove` (the level's choice among the
    /// last iteration's lines when playing at a level) from what has been searched.
    pub fn finish(&mut self, out: &mut dyn FnMut(&str)) {
        let Some(go) = self.go.take() else {
            return;
        };
        let mut result = go.last.clone().unwrap_or_default();
        if result.best_move.is_none() && go.last.is_none() {
            // Stopped before its first step: the first legal move, if any.
            result.best_move = xq_movegen::legal_moves(self.game.position())
                .first()
                .copied();
        }
        if !go.skill.is_full_strength() {
            if let Some(line) = go.skill.pick(&go.lines, go.seed) {
                result.best_move = line.pv.first().copied();
                result.ponder = line.pv.get(1).copied();
            }
        }
        let pos = self.game.position();
        match result.best_move {
            Some(m) => {
                let mut after = pos.clone();
                after.make_move(m);
                match result.ponder.filter(|&p| is_legal(&after, p)) {
                    Some(p) => out(&format!("bestmove {m} ponder {p}")),
                    None => out(&format!("bestmove {m}")),
                }
            }
            None => out("bestmove (none)"),
        }
    }

    fn bench(&mut self, rest: &str, out: &mut dyn FnMut(&str)) {
        let depth = match rest {
            "" => crate::BENCH_DEPTH,
            d => match d.parse::<u32>() {
                Ok(d) if (1..=20).contains(&d) => d,
                _ => {
                    out("info string bench takes a depth from 1 to 20");
                    return;
                }
            },
        };
        let b = crate::run_bench(depth, &mut |i, nodes, fen| {
            out(&format!(
                "info string bench {i:>2} {nodes:>10} nodes  {fen}"
            ));
        });
        out(&format!(
            "info string bench {} nodes {} nps",
            b.nodes,
            b.nps()
        ));
    }
}

/// Runs the search of `go` (only iteration `depth` when given), writing its lines.
fn run(
    searcher: &mut Searcher,
    game: &Game,
    go: &mut Go,
    depth: Option<u32>,
    stop: &dyn StopSignal,
    out: &mut dyn FnMut(&str),
) -> SearchResult {
    let mut limits = go.limits.clone();
    if let Some(d) = depth {
        limits.depth = Some(d);
        // A step searches no further than the nodes left.
        if let Some(n) = limits.nodes {
            limits.nodes = Some(n.saturating_sub(go.nodes).max(1));
        }
        limits.infinite = false;
    }
    let (base, start, shown, wdl) = (go.nodes, go.start, go.shown, go.wdl_material);
    let lines = &mut go.lines;
    let result = searcher.search(game, &limits, stop, |info: &Info| {
        if depth.is_some_and(|d| info.depth != d) {
            return; // a step repeats the iterations before its own: shown already
        }
        if info.multipv <= 1 {
            lines.clear();
        }
        lines.push(info.clone());
        if info.multipv <= shown {
            out(&info_line(info, base + info.nodes, start.elapsed(), wdl));
        }
    });
    go.nodes += result.nodes;
    result
}

/// One `info` line: nodes and time of the whole `go` (a step mode search adds its steps),
/// and with `wdl_material` (`UCI_ShowWDL`) the chances in permille.
fn info_line(info: &Info, nodes: u64, time: Duration, wdl_material: Option<u32>) -> String {
    let ms = time.as_millis() as u64;
    let nps = nodes * 1000 / ms.max(1);
    let pv: Vec<String> = info.pv.iter().map(Move::to_string).collect();
    let wdl = wdl_material.map_or(String::new(), |m| {
        let w = xq_search::wdl::MODEL.wdl(info.score, m);
        format!(" wdl {} {} {}", w.win, w.draw, w.loss)
    });
    format!(
        "info depth {} seldepth {} multipv {} score {}{wdl} nodes {nodes} nps {nps} hashfull {} time {ms} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.score,
        info.hashfull,
        pv.join(" ")
    )
}

/// Reads the arguments of `go`.
fn parse_go(rest: &str, game: &Game) -> Result<Limits, String> {
    let mut limits = Limits::default();
    let mut words = rest.split_whitespace().peekable();
    let (mut time, mut inc) = ([None, None], [Duration::ZERO, Duration::ZERO]);
    let mut movestogo = None;
    let number = |word: &str, value: Option<&str>| -> Result<u64, String> {
        value
            .and_then(|v| v.parse::<i64>().ok())
            .map(|v| v.max(0) as u64)
            .ok_or_else(|| format!("go {word}: needs a number"))
    };
    while let Some(word) = words.next() {
        match word {
            "depth" => limits.depth = Some(number(word, words.next())?.clamp(1, 255) as u32),
            "nodes" => limits.nodes = Some(number(word, words.next())?.max(1)),
            "mate" => limits.mate = Some(number(word, words.next())? as u32),
            "movetime" => {
                limits.movetime = Some(Duration::from_millis(number(word, words.next())?))
            }
            "wtime" => time[0] = Some(Duration::from_millis(number(word, words.next())?)),
            "btime" => time[1] = Some(Duration::from_millis(number(word, words.next())?)),
            "winc" => inc[0] = Duration::from_millis(number(word, words.next())?),
            "binc" => inc[1] = Duration::from_millis(number(word, words.next())?),
            "movestogo" => movestogo = Some(number(word, words.next())?.max(1) as u32),
            "infinite" | "ponder" => limits.infinite = true,
            "searchmoves" => {
                while let Some(m) = words.peek().and_then(|w| w.parse::<Move>().ok()) {
                    words.next();
                    if is_legal(game.position(), m) {
                        limits.root_moves.push(m);
                    }
                }
            }
            other => return Err(format!("go: unknown word '{}'", printable(other, 20))),
        }
    }
    let side = match game.position().side_to_move() {
        Color::Red => 0,
        Color::Black => 1,
    };
    if let Some(t) = time[side] {
        limits.clock = Some(Clock {
            time: t,
            inc: inc[side],
            movestogo,
        });
    }
    Ok(limits)
}

/// `text` cut to `max` characters, control characters shown as `?` (an error line never
/// echoes them).
fn printable(text: &str, max: usize) -> String {
    let mut s: String = text
        .chars()
        .take(max)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text.chars().count() > max {
        s.push('…');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    fn lines(uci: &mut Uci, commands: &[&str]) -> Vec<String> {
        let mut out = Vec::new();
        for c in commands {
            if uci.command(c, &mut |l| out.push(l.to_string())) {
                uci.search(&AtomicFalse, &mut |l| out.push(l.to_string()));
            }
        }
        out
    }

    struct AtomicFalse;
    impl StopSignal for AtomicFalse {
        fn is_set(&self) -> bool {
            false
        }
    }

    #[test]
    fn the_handshake() {
        let out = lines(&mut Uci::new(), &["uci", "isready"]);
        assert!(out[0].starts_with("id name xq"));
        assert!(out.iter().any(|l| l.starts_with("option name MultiPV")));
        assert_eq!(&out[out.len() - 2..], ["uciok", "readyok"]);
    }

    #[test]
    fn a_depth_search_reports_every_iteration_then_its_move() {
        let out = lines(
            &mut Uci::new(),
            &["position startpos moves h2e2", "go depth 4"],
        );
        let depths: Vec<&str> = out
            .iter()
            .filter_map(|l| l.split_whitespace().nth(2))
            .collect();
        assert_eq!(&depths[..4], ["1", "2", "3", "4"]);
        assert!(out[3].contains(" score cp ") && out[3].contains(" pv "));
        assert!(out.last().unwrap().starts_with("bestmove "));
    }

    #[test]
    fn steps_give_the_same_lines_one_iteration_at_a_time() {
        let mut uci = Uci::new();
        let mut out = Vec::new();
        assert!(uci.command("go depth 5", &mut |l| out.push(l.to_string())));
        let mut steps = 0;
        while !uci.step(&mut |l| out.push(l.to_string())) {
            steps += 1;
        }
        assert_eq!(steps, 4);
        let depths: Vec<&str> = out
            .iter()
            .filter_map(|l| l.strip_prefix("info depth "))
            .map(|l| l.split(' ').next().unwrap())
            .collect();
        assert_eq!(depths, ["1", "2", "3", "4", "5"]);
        assert!(out.last().unwrap().starts_with("bestmove "));
        assert!(!uci.is_searching());
    }

    #[test]
    fn stop_between_steps_answers_with_the_last_iteration() {
        let mut uci = Uci::new();
        let mut out = Vec::new();
        assert!(uci.command("go infinite", &mut |l| out.push(l.to_string())));
        for _ in 0..3 {
            assert!(!uci.step(&mut |l| out.push(l.to_string())));
        }
        uci.command("stop", &mut |l| out.push(l.to_string()));
        assert_eq!(
            out.iter().filter(|l| l.starts_with("info depth")).count(),
            3
        );
        assert!(out.last().unwrap().starts_with("bestmove "));
        assert!(!uci.is_searching());
    }

    #[test]
    fn the_stop_signal_ends_an_infinite_search() {
        let mut uci = Uci::new();
        let mut out = Vec::new();
        assert!(uci.command("go infinite", &mut |l| out.push(l.to_string())));
        let polls = Cell::new(0);
        let stop = || {
            polls.set(polls.get() + 1);
            polls.get() > 200
        };
        uci.search(&stop, &mut |l| out.push(l.to_string()));
        assert!(out.last().unwrap().starts_with("bestmove "));
    }

    #[test]
    fn multipv_and_levels() {
        let mut uci = Uci::new();
        let out = lines(&mut uci, &["setoption name MultiPV value 3", "go depth 3"]);
        assert!(out.iter().any(|l| l.contains(" multipv 3 ")));
        let out = lines(
            &mut uci,
            &[
                "setoption name MultiPV value 1",
                "setoption name Skill Level value 0",
                "go",
            ],
        );
        // A level searches four lines but shows the one asked for.
        assert!(!out.iter().any(|l| l.contains(" multipv 2 ")));
        assert!(out.last().unwrap().starts_with("bestmove "));
    }

    #[test]
    fn bad_input_is_an_info_string() {
        let mut uci = Uci::new();
        let mut out = lines(
            &mut uci,
            &[
                "position fen rnbakabnr/9/1c5c1 w",
                "position startpos moves h2e2 h2e2",
                "go depth x",
                "setoption name Hash value 0",
                "setoption name Nope value 1",
                "frobnicate\u{7}",
                "d",
            ],
        );
        assert_eq!(out.len(), 8, "{out:?}");
        assert!(out[1].contains("move 2: illegal move h2e2"), "{}", out[1]);
        assert_eq!(out[3], "bestmove (none)");
        out.remove(3);
        assert!(out[..6].iter().all(|l| l.starts_with("info string ")));
        assert!(out[5].ends_with("frobnicate?"));
        assert_eq!(out[6], format!("info string fen {}", xq_core::START_FEN));
    }

    #[test]
    fn show_wdl_and_the_variant() {
        let mut uci = Uci::new();
        let out = lines(&mut uci, &["uci"]);
        assert!(out.contains(&"option name UCI_ShowWDL type check default false".into()));
        assert!(
            out.contains(&"option name UCI_Variant type combo default xiangqi var xiangqi".into())
        );
        let out = lines(&mut uci, &["go depth 2"]);
        assert!(!out.iter().any(|l| l.contains(" wdl ")), "{out:?}");
        // A chariot up: Red wins most, and the three chances make a thousand.
        let out = lines(
            &mut uci,
            &[
                "setoption name UCI_ShowWDL value true",
                "setoption name UCI_Variant value xiangqi",
                "position fen 1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
                "go depth 3",
            ],
        );
        let info = out
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .unwrap();
        let words: Vec<&str> = info.split_whitespace().collect();
        let at = words.iter().position(|&w| w == "wdl").expect(info);
        assert_eq!(words[at - 3], "score", "{info}");
        let wdl: Vec<u32> = words[at + 1..at + 4]
            .iter()
            .map(|w| w.parse().unwrap())
            .collect();
        assert_eq!(wdl.iter().sum::<u32>(), 1000, "{info}");
        assert!(wdl[0] > 500, "{info}");
        let out = lines(
            &mut uci,
            &[
                "setoption name UCI_Variant value shogi",
                "setoption name UCI_ShowWDL value maybe",
            ],
        );
        assert_eq!(
            out,
            [
                "info string unsupported variant 'shogi': xq plays xiangqi",
                "info string option UCI_ShowWDL: must be true or false",
            ]
        );
    }

    #[test]
    fn a_mated_side_has_no_move() {
        let out = lines(
            &mut Uci::new(),
            &["position fen R3k4/1R7/9/9/9/9/9/9/9/3K5 b", "go depth 3"],
        );
        assert_eq!(out.last().unwrap(), "bestmove (none)");
    }
}
