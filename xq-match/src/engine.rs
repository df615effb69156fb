//! An engine as the match runner drives it: a process speaking UCI, UCCI or XBoard on its
//! standard input and output, started, set up, asked for moves under a clock, and stopped
//! or restarted; every way it can misbehave (crash, hang, an illegal or malformed move) is
//! a [`Fault`], never a panic.

use crate::tc::{Clock, Limits};
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};
use xq_core::{Color, Move, Position};
use xq_search::Score;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// UCI, as Pikafish and Fairy-Stockfish speak it for Xiangqi.
    #[default]
    Uci,
    /// UCCI, the Chinese engines' protocol (ElephantEye).
    Ucci,
    /// XBoard (CECP 2) with `variant xiangqi`.
    Xboard,
}

impl std::str::FromStr for Protocol {
    type Err = String;

    fn from_str(s: &str) -> Result<Protocol, String> {
        match s.to_ascii_lowercase().as_str() {
            "uci" => Ok(Protocol::Uci),
            "ucci" => Ok(Protocol::Ucci),
            "xboard" | "cecp" => Ok(Protocol::Xboard),
            _ => Err(format!("unknown protocol '{s}' (uci, ucci or xboard)")),
        }
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Protocol::Uci => "uci",
            Protocol::Ucci => "ucci",
            Protocol::Xboard => "xboard",
        })
    }
}

/// How to run one engine: cutechess-cli's `-engine` options.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineConfig {
    /// The name in the games and the results.
    pub name: String,
    /// The program.
    pub command: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The working directory (default: the runner's).
    pub dir: Option<PathBuf>,
    /// The protocol.
    pub protocol: Protocol,
    /// Options set after the handshake, in order (`option.Hash=64`).
    pub options: Vec<(String, String)>,
    /// What limits its moves.
    pub limits: Limits,
    /// The engine numbers ranks 1 to 10 in its moves (`ranks=1`; Fairy-Stockfish does for
    /// Xiangqi), not 0 to 9 as ICCS does.
    pub ranks_from_one: bool,
}

/// How an engine misbehaved: it loses the game by forfeit, and is restarted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The program could not be started.
    Start(String),
    /// It stopped (its output ended) while it was expected to answer.
    Crashed,
    /// It did not answer within its time (`waiting` for what).
    Timeout {
        /// What it was expected to say.
        waiting: &'static str,
    },
    /// It played a move that is not legal (or not a move).
    IllegalMove(String),
    /// It ran out of time on its clock.
    TimeForfeit,
    /// It said something the protocol does not allow there.
    Malformed(String),
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Start(e) => write!(f, "could not be started: {e}"),
            Fault::Crashed => f.write_str("crashed (its output ended)"),
            Fault::Timeout { waiting } => {
                write!(f, "did not answer in time (waiting for {waiting})")
            }
            Fault::IllegalMove(m) => write!(f, "played an illegal move: {m}"),
            Fault::TimeForfeit => f.write_str("lost on time"),
            Fault::Malformed(l) => write!(f, "said something malformed: {l}"),
        }
    }
}

impl std::error::Error for Fault {}

/// What an engine answered for one move.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// The move (legal: checked against the position).
    pub mv: Move,
    /// Its last score for the position (its own view), if it said one.
    pub score: Option<Score>,
    /// The depth of that score.
    pub depth: u32,
    /// The time it took, as the runner measured it.
    pub time: Duration,
}

/// A position an engine is to move in: the game's start and moves, the position they
/// reach, the engine's limits and the two clocks (when the limits have one).
#[derive(Clone, Copy, Debug)]
pub struct Turn<'a> {
    /// The game's start.
    pub start: &'a Position,
    /// The moves played from it.
    pub moves: &'a [Move],
    /// The position they reach.
    pub pos: &'a Position,
    /// The engine's limits.
    pub limits: &'a Limits,
    /// The engine's clock.
    pub own: Option<&'a Clock>,
    /// The opponent's clock.
    pub theirs: Option<&'a Clock>,
}

/// How long an engine may take to start, answer `isready` and the like.
const HANDSHAKE: Duration = Duration::from_secs(20);

/// A running engine.
#[derive(Debug)]
pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    protocol: Protocol,
    /// XBoard: the engine said `feature setboard=1` (else it is given `new` and the moves).
    setboard: bool,
    /// XBoard: it said `feature usermove=1`.
    usermove: bool,
    /// Its moves number ranks from 1.
    ranks_from_one: bool,
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A score read from an XBoard thinking line (centipawns; ±100000 and more are mates).
fn xboard_score(cp: i32) -> Score {
    if cp.abs() >= 100_000 {
        let n = 1000 - (cp.abs() - 100_000).min(999);
        Score::Mate(if cp > 0 { n } else { -n })
    } else {
        Score::Cp(cp)
    }
}

/// The score and depth of an `info` line of UCI or UCCI (`None` without a score).
fn info_score(line: &str, protocol: Protocol) -> Option<(Score, u32)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = |key: &str| words.iter().position(|w| *w == key);
    let depth = at("depth")
        .and_then(|i| words.get(i + 1))
        .and_then(|d| d.parse().ok())
        .unwrap_or(0);
    let i = at("score")?;
    let score = match (protocol, words.get(i + 1), words.get(i + 2)) {
        (Protocol::Uci, Some(&"cp"), Some(n)) => Score::Cp(n.parse().ok()?),
        (Protocol::Uci, Some(&"mate"), Some(n)) => Score::Mate(n.parse().ok()?),
        (Protocol::Ucci, Some(n), _) => Score::Cp(n.parse().ok()?),
        _ => return None,
    };
    Some((score, depth))
}

impl EngineProcess {
    /// Starts `config`'s program and shakes hands in its protocol, setting its options.
    ///
    /// # Errors
    /// [`Fault::Start`] when the program cannot be run; a timeout, a crash or a
    /// malformed line during the handshake.
    pub fn start(config: &EngineConfig) -> Result<EngineProcess, Fault> {
        let mut command = Command::new(&config.command);
        command
            .args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &config.dir {
            command.current_dir(dir);
        }
        let mut child = command
            .spawn()
            .map_err(|e| Fault::Start(format!("{}: {e}", config.command)))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| Fault::Start("no stdin".into()))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| Fault::Start("no stdout".into()))?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = EngineProcess {
            child,
            stdin,
            lines,
            protocol: config.protocol,
            ranks_from_one: config.ranks_from_one,
            setboard: false,
            usermove: false,
        };
        engine.handshake(config)?;
        Ok(engine)
    }

    /// Writes a line to the engine (a closed pipe is a crash).
    fn send(&mut self, line: &str) -> Result<(), Fault> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| Fault::Crashed)
    }

    /// The next line, by `deadline`.
    fn line(&mut self, deadline: Instant, waiting: &'static str) -> Result<String, Fault> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(Fault::Timeout { waiting }),
            Err(RecvTimeoutError::Disconnected) => Err(Fault::Crashed),
        }
    }

    /// Reads lines until one starts with `word` (as its first word).
    fn until(&mut self, word: &'static str, within: Duration) -> Result<String, Fault> {
        let deadline = Instant::now() + within;
        loop {
            let line = self.line(deadline, word)?;
            if line.split_whitespace().next() == Some(word) {
                return Ok(line);
            }
        }
    }

    fn handshake(&mut self, config: &EngineConfig) -> Result<(), Fault> {
        match self.protocol {
            Protocol::Uci => {
                self.send("uci")?;
                self.until("uciok", HANDSHAKE)?;
                for (name, value) in &config.options {
                    self.send(&format!("setoption name {name} value {value}"))?;
                }
            }
            Protocol::Ucci => {
                self.send("ucci")?;
                self.until("ucciok", HANDSHAKE)?;
                // Times in milliseconds, as the runner gives them.
                self.send("setoption usemillisec true")?;
                for (name, value) in &config.options {
                    self.send(&format!("setoption {name} {value}"))?;
                }
            }
            Protocol::Xboard => {
                self.send("xboard")?;
                self.send("protover 2")?;
                // Features until `done=1` (an engine that says none is given two seconds).
                let deadline = Instant::now() + HANDSHAKE;
                let mut waited = Instant::now() + Duration::from_secs(2);
                loop {
                    let line = match self.line(deadline.min(waited), "feature done=1") {
                        Ok(line) => line,
                        Err(Fault::Timeout { .. }) if Instant::now() < deadline => break,
                        Err(e) => return Err(e),
                    };
                    if !line.starts_with("feature") {
                        continue;
                    }
                    if line.contains("done=0") {
                        waited = deadline;
                    }
                    self.setboard |= line.contains("setboard=1");
                    self.usermove |= line.contains("usermove=1");
                    if line.contains("done=1") {
                        break;
                    }
                }
                for (name, value) in &config.options {
                    self.send(&format!("option {name}={value}"))?;
                }
                return Ok(());
            }
        }
        self.ready()
    }

    /// `isready`, answered by `readyok` (XBoard: `ping`, answered by `pong`).
    fn ready(&mut self) -> Result<(), Fault> {
        match self.protocol {
            Protocol::Xboard => {
                self.send("ping 1")?;
                self.until("pong", HANDSHAKE).map(drop)
            }
            _ => {
                self.send("isready")?;
                self.until("readyok", HANDSHAKE).map(drop)
            }
        }
    }

    /// Prepares a new game from `start` with the `moves` already played (the opening),
    /// the engine to play under `limits`.
    ///
    /// # Errors
    /// A crash or a timeout.
    pub fn new_game(
        &mut self,
        start: &Position,
        moves: &[Move],
        limits: &Limits,
    ) -> Result<(), Fault> {
        match self.protocol {
            Protocol::Uci => {
                self.send("ucinewgame")?;
                self.ready()
            }
            Protocol::Ucci => self.ready(),
            Protocol::Xboard => {
                self.send("new")?;
                self.send("variant xiangqi")?;
                self.send("force")?;
                self.send("post")?;
                self.send("easy")?;
                if let Some(tc) = limits.clock {
                    let minutes = tc.base.as_secs() / 60;
                    let seconds = tc.base.as_secs() % 60;
                    self.send(&format!(
                        "level {} {minutes}:{seconds:02} {}",
                        tc.moves.unwrap_or(0),
                        tc.inc.as_secs_f64()
                    ))?;
                } else if let Some(t) = limits.movetime {
                    self.send(&format!("st {}", t.as_secs_f64().max(0.01)))?;
                }
                if let Some(d) = limits.depth {
                    self.send(&format!("sd {d}"))?;
                }
                if *start != Position::startpos() {
                    if !self.setboard {
                        return Err(Fault::Malformed(
                            "the engine cannot take a position (no feature setboard=1)".into(),
                        ));
                    }
                    self.send(&format!("setboard {}", start.to_fen()))?;
                }
                for &m in moves {
                    self.tell(m)?;
                }
                self.ready()
            }
        }
    }

    /// A move as the engine writes it.
    fn write(&self, m: Move) -> String {
        if !self.ranks_from_one {
            return m.to_string();
        }
        let t = m.to_string().into_bytes();
        let rank = |b: u8| (b - b'0' + 1).to_string();
        format!(
            "{}{}{}{}",
            t[0] as char,
            rank(t[1]),
            t[2] as char,
            rank(t[3])
        )
    }

    /// A move as the engine wrote it, in ICCS (anything that is not a move is left as
    /// it is, to be refused).
    fn read(&self, text: &str) -> String {
        if !self.ranks_from_one {
            return text.to_string();
        }
        let mut out = String::new();
        let mut digits = String::new();
        for c in text.chars().chain(std::iter::once(' ')) {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            if !digits.is_empty() {
                match digits.parse::<u8>() {
                    Ok(r) if (1..=10).contains(&r) => out.push_str(&(r - 1).to_string()),
                    _ => return text.to_string(),
                }
                digits.clear();
            }
            if c != ' ' {
                out.push(c);
            }
        }
        out
    }

    /// XBoard: the opponent (or the opening) played `m`.
    pub fn tell(&mut self, m: Move) -> Result<(), Fault> {
        if self.protocol == Protocol::Xboard {
            let m = self.write(m);
            let text = if self.usermove {
                format!("usermove {m}")
            } else {
                m
            };
            self.send(&text)?;
        }
        Ok(())
    }

    /// Asks for a move in `turn`'s position and waits for it until `timeout` past the
    /// time the engine may use (its clock's time and `margin`, or its time a move).
    ///
    /// # Errors
    /// A fault: the engine crashed, hung, ran out of time, or answered a move that is not
    /// legal or not a move.
    pub fn go(
        &mut self,
        turn: &Turn<'_>,
        margin: Duration,
        timeout: Duration,
    ) -> Result<Reply, Fault> {
        let Turn {
            start,
            moves,
            pos,
            limits,
            own,
            theirs,
        } = *turn;
        let mut allowed = limits.movetime.unwrap_or(Duration::ZERO);
        if let Some(c) = own {
            allowed = allowed.max(c.left);
        }
        if allowed.is_zero() {
            allowed = Duration::from_secs(3600);
        }
        let started = Instant::now();
        // On a clock the flag falls at the time left and the margin: no later answer
        // counts. Without one, an engine is given `timeout` past its time a move.
        let deadline = match own {
            Some(c) => started + c.left + margin + Duration::from_millis(10),
            None => started + allowed + margin + timeout,
        };
        let red = pos.side_to_move() == Color::Red;
        match self.protocol {
            Protocol::Uci | Protocol::Ucci => {
                let mut position = format!("position fen {}", start.to_fen());
                if !moves.is_empty() {
                    position.push_str(" moves");
                    for m in moves {
                        position.push(' ');
                        position.push_str(&self.write(*m));
                    }
                }
                self.send(&position)?;
                let mut go = String::from("go");
                if self.protocol == Protocol::Uci {
                    if let (Some(own), Some(theirs)) = (own, theirs) {
                        let (r, b) = if red { (own, theirs) } else { (theirs, own) };
                        go.push_str(&format!(
                            " wtime {} btime {} winc {} binc {}",
                            r.left.as_millis(),
                            b.left.as_millis(),
                            r.inc().as_millis(),
                            b.inc().as_millis()
                        ));
                        if let Some(n) = own.moves_to_go() {
                            go.push_str(&format!(" movestogo {n}"));
                        }
                    }
                    if let Some(t) = limits.movetime {
                        go.push_str(&format!(" movetime {}", t.as_millis()));
                    }
                } else if let Some(own) = own {
                    go.push_str(&format!(
                        " time {} increment {}",
                        own.left.as_millis(),
                        own.inc().as_millis()
                    ));
                    if let Some(n) = own.moves_to_go() {
                        go = format!("go time {} movestogo {n}", own.left.as_millis());
                    }
                    if let Some(theirs) = theirs {
                        go.push_str(&format!(" opptime {}", theirs.left.as_millis()));
                    }
                } else if let Some(t) = limits.movetime {
                    go.push_str(&format!(" time {} movestogo 1", t.as_millis()));
                }
                if let Some(d) = limits.depth {
                    go.push_str(&format!(" depth {d}"));
                }
                if let Some(n) = limits.nodes {
                    go.push_str(&format!(" nodes {n}"));
                }
                if go == "go" {
                    go.push_str(" infinite");
                }
                self.send(&go)?;
                let mut last = None;
                loop {
                    let line = self.line(deadline, "bestmove")?;
                    let first = line.split_whitespace().next().unwrap_or("");
                    match first {
                        "info" => {
                            if let Some(s) = info_score(&line, self.protocol) {
                                last = Some(s);
                            }
                        }
                        "bestmove" | "nobestmove" => {
                            let time = started.elapsed();
                            let Some(text) = line.split_whitespace().nth(1) else {
                                return Err(Fault::Malformed(line));
                            };
                            let mv = legal(pos, &self.read(text))?;
                            return Ok(Reply {
                                mv,
                                score: last.map(|(s, _)| s),
                                depth: last.map_or(0, |(_, d)| d),
                                time,
                            });
                        }
                        _ => {}
                    }
                }
            }
            Protocol::Xboard => {
                if let (Some(own), Some(theirs)) = (own, theirs) {
                    self.send(&format!("time {}", own.left.as_millis() / 10))?;
                    self.send(&format!("otim {}", theirs.left.as_millis() / 10))?;
                }
                self.send("go")?;
                let mut last = None;
                loop {
                    let line = self.line(deadline, "move")?;
                    let mut words = line.split_whitespace();
                    let first = words.next().unwrap_or("");
                    if first == "move" {
                        let time = started.elapsed();
                        let text = words.next().unwrap_or("");
                        let mv = legal(pos, &self.read(text))?;
                        // Back to force mode: the runner says when to think.
                        self.send("force")?;
                        return Ok(Reply {
                            mv,
                            score: last.map(|(s, _)| s),
                            depth: last.map_or(0, |(_, d)| d),
                            time,
                        });
                    }
                    if first == "resign" {
                        return Err(Fault::Malformed("resign".into()));
                    }
                    if first.starts_with("Illegal") || first == "Error" {
                        return Err(Fault::Malformed(line));
                    }
                    // A thinking line: ply score time nodes pv.
                    if let (Ok(depth), Some(Ok(score))) =
                        (first.parse::<u32>(), words.next().map(str::parse::<i32>))
                    {
                        last = Some((xboard_score(score), depth));
                    }
                }
            }
        }
    }

    /// Asks the engine to quit and waits a moment for it; a process that stays is killed
    /// when this is dropped.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// The move `text` if it is legal in `pos` (ICCS).
fn legal(pos: &Position, text: &str) -> Result<Move, Fault> {
    text.parse::<Move>()
        .ok()
        .filter(|&m| xq_movegen::is_legal(pos, m))
        .ok_or_else(|| Fault::IllegalMove(text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_of_info_lines() {
        assert_eq!(
            info_score(
                "info depth 12 seldepth 20 multipv 1 score cp -35 nodes 1",
                Protocol::Uci
            ),
            Some((Score::Cp(-35), 12))
        );
        assert_eq!(
            info_score("info depth 9 score mate 3 pv a0a1", Protocol::Uci),
            Some((Score::Mate(3), 9))
        );
        assert_eq!(
            info_score("info depth 7 score 120 pv h2e2", Protocol::Ucci),
            Some((Score::Cp(120), 7))
        );
        assert_eq!(info_score("info string hello", Protocol::Uci), None);
        assert_eq!(xboard_score(-250), Score::Cp(-250));
        assert_eq!(xboard_score(100_997), Score::Mate(3));
        assert_eq!("UCCI".parse::<Protocol>(), Ok(Protocol::Ucci));
        assert!("chess".parse::<Protocol>().is_err());
    }

    #[test]
    fn moves_of_engines_that_number_ranks_from_one() {
        let (tx, lines) = channel::<String>();
        drop(tx);
        let child = Command::new("true").stdin(Stdio::piped()).spawn().unwrap();
        let mut child = child;
        let stdin = child.stdin.take().unwrap();
        let e = EngineProcess {
            child,
            stdin,
            lines,
            protocol: Protocol::Uci,
            setboard: false,
            usermove: false,
            ranks_from_one: true,
        };
        assert_eq!(e.write("h0g2".parse().unwrap()), "h1g3");
        assert_eq!(e.write("a9a8".parse().unwrap()), "a10a9");
        assert_eq!(e.read("h1g3"), "h0g2");
        assert_eq!(e.read("a10a9"), "a9a8");
        assert_eq!(e.read("a11a9"), "a11a9");
    }
}
