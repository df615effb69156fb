//! Another engine's perft over UCI: start the program, send it a position and
//! `go perft N`, and read its divide as Stockfish, Pikafish and Fairy-Stockfish print it
//! (`h2e2: 12345` per root move, then `Nodes searched: N`).
//!
//! [`EngineCommand`] says what to start and how; [`PerftEngine`] is the running engine.
//! Every wait has a time limit ([`EngineCommand::timeout`]: the longest the engine may
//! stay silent), the engine's output is read as text whatever it is, and what went wrong
//! is an [`EngineError`]. [`compare`](crate::compare) puts its counts beside xq's.
//!
//! ```
//! use xq_perft::engine::EngineCommand;
//! // A stand-in engine in a few lines of shell: its perft knows one move.
//! let script = r#"while read cmd rest; do case $cmd in
//!     uci) echo "id name toy"; echo uciok;;
//!     isready) echo readyok;;
//!     go) echo "e0e1: 1"; echo; echo "Nodes searched: 1";;
//!     quit) exit;;
//! esac; done"#;
//! let mut engine = EngineCommand::new("sh").arg("-c").arg(script).start()?;
//! assert_eq!(engine.name(), "toy");
//! let pos = xq_core::Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w")?;
//! let divide = engine.divide(&pos, 1)?;
//! assert_eq!(divide.total, 1);
//! assert_eq!(divide.moves[0].text, "e0e1");
//! assert_eq!(divide.moves[0].mv, Some("e0e1".parse()?));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::VecDeque;
use std::ffi::OsString;
use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use xq_core::{File, Move, Position, Rank, Square};

/// The longest line kept from the engine; the rest of a longer line is dropped.
const MAX_LINE: usize = 4096;
/// Lines of the engine's standard error kept for an error report.
const STDERR_LINES: usize = 10;
/// Lines the engine may print ahead of the reader before it waits.
const LINE_BUFFER: usize = 1024;

/// How an engine numbers the ranks in its moves.
///
/// ```
/// use xq_perft::engine::Ranks;
/// let m = "h0g2".parse().unwrap();
/// assert_eq!(Ranks::OneToTen.write(m), "h1g3");
/// assert_eq!(Ranks::OneToTen.read("h1g3"), Some(m));
/// assert_eq!(Ranks::ZeroToNine.read("h0g2"), Some(m));
/// assert_eq!(Ranks::ZeroToNine.read("h1g10"), None);
/// assert_eq!(Ranks::ZeroToNine.read("a0a0"), None); // no move
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Ranks {
    /// Not known yet: `Fairy-Stockfish` by its name, else from the first divide that
    /// shows a rank 0 or 10, else divide by divide from the moves legal in the position.
    #[default]
    Auto,
    /// ICCS, `a0` to `i9` (Pikafish, xq and most Xiangqi engines).
    ZeroToNine,
    /// `a1` to `i10` (Fairy-Stockfish).
    OneToTen,
}

impl Ranks {
    /// The first rank's number (`Auto` reads as ICCS).
    fn base(self) -> u32 {
        match self {
            Ranks::OneToTen => 1,
            Ranks::Auto | Ranks::ZeroToNine => 0,
        }
    }

    /// The move `text` names in this numbering (case and one dash tolerated), or `None`
    /// when it names none (a square off the board, the same square twice, not a move).
    /// `Auto` reads ICCS.
    pub fn read(self, text: &str) -> Option<Move> {
        let ((f1, r1), (f2, r2)) = squares(text)?;
        let square = |f: u8, r: u32| {
            let rank = Rank::from_index(usize::try_from(r.checked_sub(self.base())?).ok()?)?;
            Some(Square::new(File::from_index(usize::from(f))?, rank))
        };
        let (from, to) = (square(f1, r1)?, square(f2, r2)?);
        (from != to).then(|| Move::new(from, to))
    }

    /// `m` as an engine with this numbering writes it (`Auto` writes ICCS).
    pub fn write(self, m: Move) -> String {
        let sq = |s: Square| {
            format!(
                "{}{}",
                s.file().to_char(),
                s.rank().index() as u32 + self.base()
            )
        };
        format!("{}{}", sq(m.from()), sq(m.to()))
    }
}

/// The two squares of a move's text as (file index, rank number as written), whatever
/// the numbering: a file letter, one or two digits, an optional dash, again.
fn squares(text: &str) -> Option<((u8, u32), (u8, u32))> {
    let text = text.to_ascii_lowercase();
    let mut rest = text.as_bytes();
    let square = |rest: &mut &[u8]| {
        let (&f, tail) = rest.split_first()?;
        let digits = tail.iter().take_while(|b| b.is_ascii_digit()).count();
        if !(b'a'..=b'i').contains(&f) || !(1..=2).contains(&digits) {
            return None;
        }
        let rank = std::str::from_utf8(&tail[..digits]).ok()?.parse().ok()?;
        *rest = &tail[digits..];
        Some((f - b'a', rank))
    };
    let from = square(&mut rest)?;
    if let Some(tail) = rest.strip_prefix(b"-") {
        rest = tail;
    }
    let to = square(&mut rest)?;
    rest.is_empty().then_some((from, to))
}

/// One line of an engine's answer to `go perft`.
///
/// ```
/// use xq_perft::engine::{read_divide_line, DivideLine};
/// assert_eq!(read_divide_line("h2e2: 1234"), DivideLine::Move { text: "h2e2".into(), nodes: 1234 });
/// assert_eq!(read_divide_line("Nodes searched: 79666"), DivideLine::Total(79666));
/// assert_eq!(read_divide_line("bestmove h2e2"), DivideLine::BestMove("bestmove h2e2".into()));
/// assert_eq!(read_divide_line("info string hello: 3"), DivideLine::Other);
/// assert_eq!(read_divide_line("h2e2: lots"), DivideLine::Other);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DivideLine {
    /// `move: nodes`, the move as the engine wrote it.
    Move {
        /// The move's text.
        text: String,
        /// The nodes below it.
        nodes: u64,
    },
    /// `Nodes searched: N`, the end of the divide.
    Total(u64),
    /// A `bestmove` line: the engine searched instead of counting.
    BestMove(String),
    /// Anything else (blank lines, `info` lines, other text): skipped.
    Other,
}

/// Reads one line of an engine's answer to `go perft`.
pub fn read_divide_line(line: &str) -> DivideLine {
    let line = line.trim();
    let first = line.split_whitespace().next().unwrap_or("");
    if first == "bestmove" {
        return DivideLine::BestMove(line.to_string());
    }
    if first == "info" {
        return DivideLine::Other;
    }
    let Some((key, value)) = line.split_once(':') else {
        return DivideLine::Other;
    };
    let (key, value) = (key.trim(), value.trim());
    let Ok(nodes) = value.parse::<u64>() else {
        return DivideLine::Other;
    };
    if key.eq_ignore_ascii_case("nodes searched") {
        DivideLine::Total(nodes)
    } else if !key.is_empty() && key.len() <= 16 && !key.contains(char::is_whitespace) {
        DivideLine::Move {
            text: key.to_string(),
            nodes,
        }
    } else {
        DivideLine::Other
    }
}

/// A root move of an engine's divide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineMove {
    /// The move as the engine wrote it.
    pub text: String,
    /// The move it names in the engine's numbering of ranks (`None`: no move between
    /// two squares of the board). It may still be illegal.
    pub mv: Option<Move>,
    /// The nodes the engine counts below it.
    pub nodes: u64,
}

/// An engine's divide: its root moves with their counts, and its total.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineDivide {
    /// The root moves in the engine's order.
    pub moves: Vec<EngineMove>,
    /// The total it printed (`Nodes searched: N`).
    pub total: u64,
    /// The numbering its moves were read in.
    pub ranks: Ranks,
}

impl EngineDivide {
    /// The sum of the root moves' counts (the total, in a consistent engine).
    pub fn listed(&self) -> u64 {
        self.moves.iter().map(|m| m.nodes).sum()
    }
}

/// Reads a whole divide as an engine prints it, with moves in the numbering `ranks`
/// (`Auto`: ranks 1-10 if a move has a rank 10, else ICCS). `None` when there is no
/// `Nodes searched: N` line; lines after it are not read.
///
/// ```
/// use xq_perft::engine::{parse_divide, Ranks};
/// let text = "info string NNUE off\nb3b10: 41\nh3e3: 45\n\nNodes searched: 86\n";
/// let divide = parse_divide(text, Ranks::Auto).unwrap();
/// assert_eq!((divide.total, divide.listed(), divide.ranks), (86, 86, Ranks::OneToTen));
/// assert_eq!(divide.moves[0].mv.unwrap().to_string(), "b2b9");
/// assert_eq!(parse_divide("h2e2: 3\n", Ranks::Auto), None);
/// ```
pub fn parse_divide(text: &str, ranks: Ranks) -> Option<EngineDivide> {
    let mut moves = Vec::new();
    for line in text.lines() {
        match read_divide_line(line) {
            DivideLine::Move { text, nodes } => moves.push((text, nodes)),
            DivideLine::Total(total) => {
                let ranks = match ranks {
                    Ranks::Auto => evidence(&moves).unwrap_or(Ranks::ZeroToNine),
                    r => r,
                };
                return Some(divide_in(moves, total, ranks));
            }
            DivideLine::BestMove(_) | DivideLine::Other => {}
        }
    }
    None
}

/// The numbering the moves' texts prove: a rank 10 or a rank 0.
fn evidence(moves: &[(String, u64)]) -> Option<Ranks> {
    let ranks = moves
        .iter()
        .filter_map(|(t, _)| squares(t))
        .flat_map(|((_, a), (_, b))| [a, b]);
    let mut found = None;
    for r in ranks {
        match r {
            10 => return Some(Ranks::OneToTen),
            0 => found = Some(Ranks::ZeroToNine),
            _ => {}
        }
    }
    found
}

fn divide_in(moves: Vec<(String, u64)>, total: u64, ranks: Ranks) -> EngineDivide {
    let moves = moves
        .into_iter()
        .map(|(text, nodes)| EngineMove {
            mv: ranks.read(&text),
            text,
            nodes,
        })
        .collect();
    EngineDivide {
        moves,
        total,
        ranks,
    }
}

/// What went wrong with the engine.
#[derive(Debug)]
pub enum EngineError {
    /// The program could not be started.
    Spawn {
        /// The program.
        program: String,
        /// Why.
        error: io::Error,
    },
    /// Writing a command to the engine failed (and it has not exited).
    Write {
        /// The engine.
        engine: String,
        /// Why.
        error: io::Error,
    },
    /// The engine exited, or closed its output, while an answer was awaited.
    Exited {
        /// The engine.
        engine: String,
        /// The answer awaited.
        waiting_for: String,
        /// How it exited (`None`: it closed its output but is still running).
        status: Option<ExitStatus>,
        /// Its last lines on standard error.
        stderr: Vec<String>,
    },
    /// The engine printed nothing useful for [`EngineCommand::timeout`].
    Timeout {
        /// The engine.
        engine: String,
        /// The answer awaited.
        waiting_for: String,
        /// How long it was waited for.
        after: Duration,
    },
    /// The engine answered `go perft` with a search (a `bestmove` line).
    NoPerft {
        /// The engine.
        engine: String,
        /// The line it answered with.
        reply: String,
    },
    /// The engine does not offer an option it was asked to set.
    UnknownOption {
        /// The engine.
        engine: String,
        /// The option asked for.
        name: String,
        /// The options it offers.
        offered: Vec<String>,
    },
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn { program, error } => {
                write!(f, "cannot start the engine {program}: {error}")
            }
            EngineError::Write { engine, error } => {
                write!(f, "cannot write to the engine {engine}: {error}")
            }
            EngineError::Exited {
                engine,
                waiting_for,
                status,
                stderr,
            } => {
                match status {
                    Some(s) => write!(f, "the engine {engine} exited ({s})")?,
                    None => write!(f, "the engine {engine} closed its output")?,
                }
                write!(f, " while xq waited for {waiting_for}")?;
                if !stderr.is_empty() {
                    write!(f, "; its last words: {}", stderr.join(" | "))?;
                }
                Ok(())
            }
            EngineError::Timeout {
                engine,
                waiting_for,
                after,
            } => write!(
                f,
                "the engine {engine} said nothing useful for {} s while xq waited for {waiting_for}",
                after.as_secs_f64()
            ),
            EngineError::NoPerft { engine, reply } => write!(
                f,
                "the engine {engine} answered `go perft` with a search ({reply}): it has no perft"
            ),
            EngineError::UnknownOption {
                engine,
                name,
                offered,
            } => write!(
                f,
                "the engine {engine} has no option {name} (it offers: {})",
                offered.join(", ")
            ),
        }
    }
}

/// The message names the cause (an I/O error is written out, not left to `source`).
impl std::error::Error for EngineError {}

/// How to start an engine: the program, its arguments, the UCI options to set, the
/// longest silence to wait through, and its numbering of ranks.
///
/// ```
/// use std::time::Duration;
/// use xq_perft::engine::{EngineCommand, EngineError};
/// let cmd = EngineCommand::new("/usr/games/fairy-stockfish")
///     .option("UCI_Variant", "xiangqi")
///     .timeout(Duration::from_secs(30));
/// assert_eq!(cmd.option_list(), [("UCI_Variant".to_string(), "xiangqi".to_string())]);
/// let cmd = EngineCommand::new("python3").args(["wrapper.py", "--depth"]).options([("Hash", "16")]);
/// assert_eq!(cmd.option_list()[0].0, "Hash");
/// // A program that is not there is an error, not a panic.
/// let missing = EngineCommand::new("/nonexistent/engine").start().unwrap_err();
/// assert!(matches!(missing, EngineError::Spawn { .. }));
/// ```
#[derive(Clone, Debug)]
pub struct EngineCommand {
    program: OsString,
    args: Vec<OsString>,
    options: Vec<(String, String)>,
    timeout: Duration,
    ranks: Ranks,
}

impl EngineCommand {
    /// The program `program`, without arguments or options, waiting at most 60 s for
    /// each line, its ranks numbered as it shows.
    pub fn new(program: impl Into<OsString>) -> EngineCommand {
        EngineCommand {
            program: program.into(),
            args: Vec::new(),
            options: Vec::new(),
            timeout: Duration::from_secs(60),
            ranks: Ranks::Auto,
        }
    }

    /// Adds an argument to the program's command line.
    pub fn arg(mut self, arg: impl Into<OsString>) -> EngineCommand {
        self.args.push(arg.into());
        self
    }

    /// Sets the UCI option `name` to `value` after the handshake (`setoption name
    /// NAME value VALUE`). The engine must offer it. An engine that offers a
    /// `UCI_Variant` with `xiangqi` among its values (Fairy-Stockfish) gets
    /// `UCI_Variant=xiangqi` unless this names that option.
    pub fn option(mut self, name: impl Into<String>, value: impl Into<String>) -> EngineCommand {
        self.options.push((name.into(), value.into()));
        self
    }

    /// Adds arguments to the program's command line.
    pub fn args<I: IntoIterator<Item = impl Into<OsString>>>(mut self, args: I) -> EngineCommand {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// Sets each `(name, value)` of `options`, as [`option`](EngineCommand::option).
    pub fn options<I, N, V>(mut self, options: I) -> EngineCommand
    where
        I: IntoIterator<Item = (N, V)>,
        N: Into<String>,
        V: Into<String>,
    {
        let pairs = options.into_iter().map(|(n, v)| (n.into(), v.into()));
        self.options.extend(pairs);
        self
    }

    /// The options to set, in order.
    pub fn option_list(&self) -> &[(String, String)] {
        &self.options
    }

    /// The longest the engine may stay silent: for its handshake, and between two lines
    /// of a divide (a line that is not a move, as garbage, does not count).
    pub fn timeout(mut self, timeout: Duration) -> EngineCommand {
        self.timeout = timeout;
        self
    }

    /// Says how the engine numbers ranks, instead of finding out.
    pub fn ranks(mut self, ranks: Ranks) -> EngineCommand {
        self.ranks = ranks;
        self
    }

    /// Starts the engine and does the UCI handshake (`uci`, the options, `isready`).
    ///
    /// # Errors
    /// The program cannot be started, dies, stays silent for the timeout, or does not
    /// offer an option asked for.
    pub fn start(&self) -> Result<PerftEngine, EngineError> {
        let program = self.program.to_string_lossy().into_owned();
        let mut child = Command::new(&self.program)
            .args(&self.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| EngineError::Spawn {
                program: program.clone(),
                error,
            })?;
        let (tx, lines) = sync_channel(LINE_BUFFER);
        let stdout = child.stdout.take().map(|s| read_lines(s, tx));
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let stderr = child.stderr.take().map(|s| {
            let tail = Arc::clone(&tail);
            std::thread::spawn(move || keep_tail(s, &tail))
        });
        let mut engine = PerftEngine {
            stdin: child.stdin.take(),
            child,
            lines,
            _stdout: stdout,
            stderr,
            tail,
            name: program,
            offered: Vec::new(),
            ranks: self.ranks,
            timeout: self.timeout,
        };
        engine.handshake(&self.options)?;
        Ok(engine)
    }
}

/// Sends every line of `stream` (at most [`MAX_LINE`] bytes of it, as text, whatever
/// the bytes) until it ends or nobody listens.
fn read_lines(stream: impl Read + Send + 'static, tx: SyncSender<String>) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stream);
        while let Some(line) = bounded_line(&mut reader) {
            if tx.send(line).is_err() {
                return;
            }
        }
    })
}

/// Keeps the last [`STDERR_LINES`] lines of `stream` in `tail`.
fn keep_tail(stream: impl Read, tail: &Mutex<VecDeque<String>>) {
    let mut reader = BufReader::new(stream);
    while let Some(line) = bounded_line(&mut reader) {
        if line.trim().is_empty() {
            continue;
        }
        let Ok(mut tail) = tail.lock() else { return };
        if tail.len() == STDERR_LINES {
            tail.pop_front();
        }
        tail.push_back(line);
    }
}

/// The next line of `reader` without its end, cut to [`MAX_LINE`] bytes; `None` at the
/// end of the stream or on a read error.
fn bounded_line(reader: &mut impl BufRead) -> Option<String> {
    let mut buf = Vec::new();
    let mut any = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if chunk.is_empty() {
            if !any {
                return None;
            }
            break;
        }
        any = true;
        let (part, used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        let room = MAX_LINE.saturating_sub(buf.len());
        buf.extend_from_slice(&part[..part.len().min(room)]);
        reader.consume(used);
        if done {
            break;
        }
    }
    let text = String::from_utf8_lossy(&buf);
    Some(text.trim_end_matches('\r').to_string())
}

/// A running engine, ready for [`divide`](PerftEngine::divide). Dropping it sends
/// `quit` and ends the program if it has not exited a second later.
#[derive(Debug)]
pub struct PerftEngine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    _stdout: Option<JoinHandle<()>>,
    stderr: Option<JoinHandle<()>>,
    tail: Arc<Mutex<VecDeque<String>>>,
    name: String,
    offered: Vec<String>,
    ranks: Ranks,
    timeout: Duration,
}

impl PerftEngine {
    /// The engine's name (`id name`), or its program when it gave none.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The options the engine offers.
    pub fn offered(&self) -> &[String] {
        &self.offered
    }

    /// How the engine numbers ranks, as far as is known yet.
    pub fn ranks(&self) -> Ranks {
        self.ranks
    }

    fn handshake(&mut self, options: &[(String, String)]) -> Result<(), EngineError> {
        self.send("uci")?;
        let mut variant = false;
        let deadline = Instant::now() + self.timeout;
        loop {
            let line = self.next_line(deadline, "uciok")?;
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["uciok", ..] => break,
                ["id", "name", name @ ..] if !name.is_empty() => self.name = name.join(" "),
                ["option", "name", rest @ ..] => {
                    let end = rest.iter().position(|w| *w == "type").unwrap_or(rest.len());
                    let name = rest[..end].join(" ");
                    if name.eq_ignore_ascii_case("UCI_Variant") {
                        variant = rest[end..].windows(2).any(|w| w == ["var", "xiangqi"]);
                    }
                    self.offered.push(name);
                }
                _ => {}
            }
        }
        if self.ranks == Ranks::Auto
            && self
                .name
                .to_ascii_lowercase()
                .starts_with("fairy-stockfish")
        {
            self.ranks = Ranks::OneToTen;
        }
        let named = |n: &str| options.iter().any(|(o, _)| o.eq_ignore_ascii_case(n));
        if variant && !named("UCI_Variant") {
            self.send("setoption name UCI_Variant value xiangqi")?;
        }
        for (name, value) in options {
            if !self.offered.iter().any(|o| o.eq_ignore_ascii_case(name)) {
                return Err(EngineError::UnknownOption {
                    engine: self.name.clone(),
                    name: name.clone(),
                    offered: self.offered.clone(),
                });
            }
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.sync()
    }

    /// Sends `isready` and reads up to `readyok`, dropping whatever came before.
    fn sync(&mut self) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + self.timeout;
        while self.next_line(deadline, "readyok")?.trim() != "readyok" {}
        Ok(())
    }

    /// The engine's divide of `pos` at `depth` (`position fen FEN`, `go perft DEPTH`),
    /// its moves read in the engine's numbering of ranks (found out from this divide if
    /// it was not known yet).
    ///
    /// # Errors
    /// The engine dies, stays silent for the timeout (between two moves of its divide),
    /// or searches instead of counting.
    pub fn divide(&mut self, pos: &Position, depth: u32) -> Result<EngineDivide, EngineError> {
        self.sync()?;
        self.send(&format!("position fen {}", pos.to_fen()))?;
        self.send(&format!("go perft {depth}"))?;
        let waiting_for = format!("`Nodes searched` after `go perft {depth}`");
        let mut moves = Vec::new();
        let mut deadline = Instant::now() + self.timeout;
        let total = loop {
            match read_divide_line(&self.next_line(deadline, &waiting_for)?) {
                DivideLine::Move { text, nodes } => {
                    moves.push((text, nodes));
                    deadline = Instant::now() + self.timeout;
                }
                DivideLine::Total(n) => break n,
                DivideLine::BestMove(reply) => {
                    return Err(EngineError::NoPerft {
                        engine: self.name.clone(),
                        reply,
                    })
                }
                DivideLine::Other => {}
            }
        };
        if self.ranks == Ranks::Auto {
            if let Some(found) = evidence(&moves) {
                self.ranks = found;
            }
        }
        let ranks = match self.ranks {
            Ranks::Auto => best_fit(&moves, pos),
            r => r,
        };
        Ok(divide_in(moves, total, ranks))
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let written = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{line}").and_then(|()| stdin.flush()),
            None => Err(io::ErrorKind::BrokenPipe.into()),
        };
        let Err(error) = written else { return Ok(()) };
        if let Ok(Some(_)) = self.child.try_wait() {
            return Err(self.exited(&format!("it to read `{line}`")));
        }
        Err(EngineError::Write {
            engine: self.name.clone(),
            error,
        })
    }

    fn next_line(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout {
                engine: self.name.clone(),
                waiting_for: waiting_for.to_string(),
                after: self.timeout,
            }),
            Err(RecvTimeoutError::Disconnected) => Err(self.exited(waiting_for)),
        }
    }

    /// The engine has gone: how it ended (waiting a moment for it) and its last words.
    fn exited(&mut self, waiting_for: &str) -> EngineError {
        let until = Instant::now() + Duration::from_millis(500);
        let mut status = None;
        while Instant::now() < until {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s);
                if self.stderr.as_ref().is_none_or(JoinHandle::is_finished) {
                    break;
                }
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let stderr = self
            .tail
            .lock()
            .map(|t| t.iter().cloned().collect())
            .unwrap_or_default();
        EngineError::Exited {
            engine: self.name.clone(),
            waiting_for: waiting_for.to_string(),
            status,
            stderr,
        }
    }
}

/// The numbering under which more of the engine's moves are legal in `pos` (ICCS on a
/// tie).
fn best_fit(moves: &[(String, u64)], pos: &Position) -> Ranks {
    let legal = xq_movegen::legal_moves(pos);
    let fits = |r: Ranks| {
        moves
            .iter()
            .filter(|(t, _)| r.read(t).is_some_and(|m| legal.contains(&m)))
            .count()
    };
    if fits(Ranks::OneToTen) > fits(Ranks::ZeroToNine) {
        Ranks::OneToTen
    } else {
        Ranks::ZeroToNine
    }
}

impl Drop for PerftEngine {
    fn drop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = writeln!(stdin, "quit").and_then(|()| stdin.flush());
        }
        let until = Instant::now() + Duration::from_secs(1);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_texts() {
        assert_eq!(squares("h2e2"), Some(((7, 2), (4, 2))));
        assert_eq!(squares("B3-B10"), Some(((1, 3), (1, 10))));
        for bad in [
            "", "h2", "h2e", "j2e2", "h2e2x", "h123e2", "h2--e2", "é2e2", "h2e-",
        ] {
            assert_eq!(squares(bad), None, "{bad}");
        }
        assert_eq!(Ranks::OneToTen.read("a0a1"), None);
        assert_eq!(Ranks::ZeroToNine.read("a9a10"), None);
        for m in ["a0i9", "e9e8", "b2b9"] {
            let m: Move = m.parse().unwrap();
            for r in [Ranks::ZeroToNine, Ranks::OneToTen] {
                assert_eq!(r.read(&r.write(m)), Some(m));
            }
        }
    }

    #[test]
    fn long_and_broken_lines() {
        let mut text = vec![b'x'; 10_000];
        text.extend_from_slice(b"\n\xff\xfeh2e2: 3\r\nlast");
        let mut reader = &text[..];
        assert_eq!(bounded_line(&mut reader).map(|l| l.len()), Some(MAX_LINE));
        assert_eq!(
            bounded_line(&mut reader).as_deref(),
            Some("\u{fffd}\u{fffd}h2e2: 3")
        );
        assert_eq!(bounded_line(&mut reader).as_deref(), Some("last"));
        assert_eq!(bounded_line(&mut reader), None);
    }

    #[test]
    fn ranks_are_found_by_legal_moves() {
        // Two kings only: the red one on d0 (d1 in ranks 1-10).
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w").unwrap();
        let moves = |t: &str| vec![(t.to_string(), 1)];
        assert_eq!(best_fit(&moves("d0d1"), &pos), Ranks::ZeroToNine);
        assert_eq!(best_fit(&moves("d1d2"), &pos), Ranks::OneToTen);
        assert_eq!(evidence(&moves("d1d2")), None);
    }
}
