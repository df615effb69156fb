//! Protocol plumbing shared by every protocol: where output lines go ([`Sink`]), the
//! line loop ([`Protocol`], [`run`]), and the parsing of what GUIs send (positions,
//! move lists).
//!
//! Nothing here knows a particular protocol; the protocols build on it.

use std::fmt;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use xq_core::{Move, ParseMoveError, Position};
use xq_movegen::{Game, GameError};

/// Writes one line to `out` and flushes it, so that a GUI sees it at once.
///
/// # Errors
/// The write or the flush failed: for a pipe, the reader has gone away.
///
/// ```
/// let mut out = Vec::new();
/// xq_cli::protocol::write_line(&mut out, format_args!("readyok")).unwrap();
/// assert_eq!(out, b"readyok\n");
/// ```
pub fn write_line(out: &mut (impl Write + ?Sized), text: fmt::Arguments<'_>) -> io::Result<()> {
    writeln!(out, "{text}")?;
    out.flush()
}

/// Writes one line to standard output and flushes it. This is the one place the
/// engine and the binary's commands write to standard output.
///
/// # Errors
/// Standard output is closed: the reader has gone away (as in `xq analyze | head`).
/// The caller decides what that means; a library never exits the process for it.
pub fn stdout_line(text: fmt::Arguments<'_>) -> io::Result<()> {
    write_line(&mut io::stdout().lock(), text)
}

/// Where the engine's output lines go: standard output (the binary), any writer, or a
/// buffer of lines (tests and fuzzing, which feed lines to a handler without real
/// standard input and output).
///
/// A sink is shared by its clones (the protocol handler and the search thread write to
/// the same one). When a write fails, the sink is *closed*: nobody reads it any more, so
/// nothing more is written, and [`Sink::flow`] tells the line loop to stop.
///
/// ```
/// use xq_cli::protocol::Sink;
/// let (sink, lines) = Sink::buffer();
/// sink.line(format_args!("id name {}", "xq"));
/// assert_eq!(*lines.lock().unwrap(), ["id name xq"]);
/// assert!(!sink.is_closed());
/// ```
#[derive(Clone, Debug)]
pub struct Sink {
    target: Target,
    closed: Arc<AtomicBool>,
}

#[derive(Clone)]
enum Target {
    Stdout,
    Buffer(Arc<Mutex<Vec<String>>>),
    Writer(Arc<Mutex<dyn Write + Send>>),
}

impl fmt::Debug for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Stdout => f.write_str("Stdout"),
            Target::Buffer(_) => f.write_str("Buffer"),
            Target::Writer(_) => f.write_str("Writer"),
        }
    }
}

impl Default for Sink {
    /// Standard output.
    fn default() -> Sink {
        Sink::stdout()
    }
}

impl Sink {
    fn new(target: Target) -> Sink {
        Sink {
            target,
            closed: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Standard output.
    pub fn stdout() -> Sink {
        Sink::new(Target::Stdout)
    }

    /// A fresh buffer sink and the buffer it writes to (one string per line).
    pub fn buffer() -> (Sink, Arc<Mutex<Vec<String>>>) {
        let buf = Arc::new(Mutex::new(Vec::new()));
        (Sink::new(Target::Buffer(buf.clone())), buf)
    }

    /// A sink writing lines to `out`, flushing after each.
    pub fn writer(out: impl Write + Send + 'static) -> Sink {
        Sink::new(Target::Writer(Arc::new(Mutex::new(out))))
    }

    /// Writes one line; closes the sink if that fails. Does nothing once closed.
    pub fn line(&self, text: fmt::Arguments<'_>) {
        if self.is_closed() {
            return;
        }
        let written = match &self.target {
            Target::Stdout => stdout_line(text),
            Target::Writer(out) => {
                // A poisoned lock only means a panicking writer thread; write anyway.
                let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
                write_line(&mut *out, text)
            }
            Target::Buffer(buf) => {
                buf.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(text.to_string());
                Ok(())
            }
        };
        if written.is_err() {
            self.closed.store(true, Ordering::SeqCst);
        }
    }

    /// Has a write failed (the reader has gone away)?
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    /// What the line loop should do after a command wrote here: [`Flow::Quit`] once the
    /// sink is closed (nobody would read an answer), else [`Flow::Continue`].
    pub fn flow(&self) -> Flow {
        if self.is_closed() {
            Flow::Quit
        } else {
            Flow::Continue
        }
    }
}

/// Writes a formatted line to a [`Sink`].
macro_rules! say {
    ($sink:expr, $($arg:tt)*) => {
        $sink.line(format_args!($($arg)*))
    };
}
pub(crate) use say;

/// Text from the GUI made safe to echo on one output line: control characters (a
/// carriage return could start a fake line for some GUIs) become `?`.
///
/// ```
/// assert_eq!(xq_cli::protocol::printable("go\rbestmove a0a1"), "go?bestmove a0a1");
/// ```
pub fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

/// Why a command from the GUI was refused: each protocol reports it in its own way
/// (UCI and UCCI as an `info string` line naming the command, XBoard as `Error`).
///
/// ```
/// use xq_cli::protocol::CommandError;
/// let e = CommandError::OutOfRange { name: "Hash".into(), min: 1, max: 2048, value: 0 };
/// assert_eq!(e.to_string(), "Hash must be between 1 and 2048, not 0");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The command is not one of the protocol's.
    UnknownCommand,
    /// The command's words do not have the form it takes.
    Usage(&'static str),
    /// `setoption` names an option the engine does not have.
    UnknownOption(String),
    /// A parameter has no value.
    MissingValue(String),
    /// A parameter's value is not a number (or not the kind of value it takes).
    BadValue {
        /// The parameter.
        name: String,
        /// What was given.
        value: String,
    },
    /// A check option's value is not true or false.
    BadCheck {
        /// The option.
        name: String,
        /// What was given.
        value: String,
    },
    /// A spin option's value is out of its range.
    OutOfRange {
        /// The option.
        name: String,
        /// The least value.
        min: u64,
        /// The greatest value.
        max: u64,
        /// What was given.
        value: u64,
    },
    /// A `go` keyword the protocol does not have.
    UnknownGoParameter(String),
    /// `position` without `startpos` or `fen`.
    NoSetup,
    /// `position fen` without the FEN.
    MissingFen,
    /// Words after `position startpos` that are not `moves ...`.
    AfterStartpos(String),
    /// The FEN or a move of `position` is wrong.
    Game(GameError),
    /// A move of a list (`searchmoves`, `banmoves`) is not legal in the position.
    IllegalMove(String),
    /// A move of a list is not a move at all.
    BadMove {
        /// The text.
        text: String,
        /// Why it is not a move.
        error: ParseMoveError,
    },
    /// `ponderhit` while the engine is not pondering.
    NotPondering,
    /// A variant other than Xiangqi.
    UnsupportedVariant(String),
    /// A book file cannot be read or is not a book: the engine plays without a book.
    Book {
        /// The file.
        path: String,
        /// What is wrong with it.
        error: xq_book::BookError,
    },
    /// The system refused the memory of a hash table of the size asked for; the engine
    /// keeps a table of the size it had.
    Table {
        /// The size asked for, MiB.
        asked: usize,
        /// The size kept, MiB.
        kept: usize,
    },
    /// A command that cannot be obeyed in the engine's state (taking back more moves
    /// than were played).
    NotLegalNow,
    /// A network file (`EvalFile`, `evalfile`) could not be loaded; the evaluation is
    /// unchanged.
    EvalFile {
        /// The file as given.
        path: String,
        /// Why it could not be loaded.
        reason: String,
    },
    /// Several problems with one command (each reported, the rest of it obeyed).
    Several(Vec<CommandError>),
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::UnknownCommand => f.write_str("unknown command"),
            CommandError::Usage(usage) => write!(f, "expected '{usage}'"),
            CommandError::UnknownOption(name) => write!(f, "unknown option '{name}'"),
            CommandError::MissingValue(name) => write!(f, "missing value for {name}"),
            CommandError::BadValue { name, value } => write!(f, "bad value '{value}' for {name}"),
            CommandError::BadCheck { name, value } => {
                write!(f, "bad value '{value}' for {name} (true or false)")
            }
            CommandError::OutOfRange {
                name,
                min,
                max,
                value,
            } => write!(f, "{name} must be between {min} and {max}, not {value}"),
            CommandError::UnknownGoParameter(w) => write!(f, "unknown go parameter '{w}'"),
            CommandError::NoSetup => f.write_str("expected 'startpos' or 'fen'"),
            CommandError::MissingFen => f.write_str("missing FEN"),
            CommandError::AfterStartpos(rest) => write!(f, "unexpected '{rest}' after startpos"),
            CommandError::Game(e) => e.fmt(f),
            CommandError::IllegalMove(m) => write!(f, "illegal move {m}"),
            CommandError::BadMove { text, error } => write!(f, "bad move '{text}': {error}"),
            CommandError::NotPondering => f.write_str("ponderhit while not pondering"),
            CommandError::UnsupportedVariant(v) => write!(f, "unsupported variant '{v}'"),
            CommandError::Book { path, error } => match error {
                // The error names the file already.
                xq_book::BookError::Io { .. } => {
                    write!(f, "cannot read book {error}; playing without a book")
                }
                _ => write!(f, "book {path}: {error}; playing without a book"),
            },
            CommandError::Table { asked, kept } => write!(
                f,
                "cannot allocate a hash table of {asked} MiB; keeping {kept} MiB"
            ),
            CommandError::NotLegalNow => f.write_str("command not legal now"),
            CommandError::EvalFile { path, reason } => write!(
                f,
                "cannot load the network {path}: {reason}; the evaluation is unchanged"
            ),
            CommandError::Several(all) => {
                for (i, e) in all.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    e.fmt(f)?;
                }
                Ok(())
            }
        }
    }
}

// `Display` includes every wrapped error, so `source` stays `None`.
impl std::error::Error for CommandError {}

impl CommandError {
    /// `Ok` with no problem, the one problem, or [`CommandError::Several`].
    pub fn from_problems(mut problems: Vec<CommandError>) -> Result<(), CommandError> {
        match problems.len() {
            0 => Ok(()),
            1 => Err(problems.remove(0)),
            _ => Err(CommandError::Several(problems)),
        }
    }
}

/// Parses `[startpos | fen <fen fields>] [moves m1 m2 ...]` into a game.
///
/// # Errors
/// A missing or unknown setup keyword, a bad FEN or a bad or illegal move.
///
/// ```
/// use xq_cli::protocol::{parse_position, CommandError};
/// let game = parse_position(&["startpos", "moves", "h2e2", "h9g7"]).unwrap();
/// assert_eq!(game.moves().len(), 2);
/// assert_eq!(parse_position(&["fen"]).unwrap_err(), CommandError::MissingFen);
/// ```
pub fn parse_position(words: &[&str]) -> Result<Game, CommandError> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let fen = match setup.split_first() {
        Some((&"startpos", rest)) => {
            if !rest.is_empty() {
                return Err(CommandError::AfterStartpos(rest.join(" ")));
            }
            xq_core::START_FEN.to_string()
        }
        Some((&"fen", rest)) => {
            if rest.is_empty() {
                return Err(CommandError::MissingFen);
            }
            rest.join(" ")
        }
        _ => return Err(CommandError::NoSetup),
    };
    Game::from_fen_moves(&fen, moves).map_err(CommandError::Game)
}

/// Parses moves that must be legal in `pos`; returns the good ones and what is wrong
/// with the others.
///
/// ```
/// use xq_core::Position;
/// use xq_cli::protocol::CommandError;
/// let (good, bad) = xq_cli::protocol::parse_legal_moves(&Position::startpos(), &["h2e2", "a0a5", "zz"]);
/// assert_eq!(good.len(), 1);
/// assert_eq!(bad[0], CommandError::IllegalMove("a0a5".into()));
/// assert_eq!(bad[1].to_string(), "bad move 'zz': a move is four characters in ICCS like `h2e2`, found 2");
/// ```
pub fn parse_legal_moves(pos: &Position, words: &[&str]) -> (Vec<Move>, Vec<CommandError>) {
    let mut good = Vec::new();
    let mut bad = Vec::new();
    for w in words {
        match w.parse::<Move>() {
            Ok(m) if xq_movegen::is_legal(pos, m) => good.push(m),
            Ok(_) => bad.push(CommandError::IllegalMove(w.to_string())),
            Err(error) => bad.push(CommandError::BadMove {
                text: w.to_string(),
                error,
            }),
        }
    }
    (good, bad)
}

/// Parses the value of a parameter.
///
/// # Errors
/// [`CommandError::MissingValue`] or [`CommandError::BadValue`].
///
/// ```
/// use xq_cli::protocol::parse_num;
/// assert_eq!(parse_num::<u32>("depth", Some("8")), Ok(8));
/// assert_eq!(parse_num::<u32>("depth", Some("-1")).unwrap_err().to_string(), "bad value '-1' for depth");
/// assert_eq!(parse_num::<u32>("depth", None).unwrap_err().to_string(), "missing value for depth");
/// ```
pub fn parse_num<T: std::str::FromStr>(name: &str, word: Option<&str>) -> Result<T, CommandError> {
    match word {
        Some(w) => w.parse().map_err(|_| CommandError::BadValue {
            name: name.to_string(),
            value: w.to_string(),
        }),
        None => Err(CommandError::MissingValue(name.to_string())),
    }
}

/// Parses the value of a spin (integer) option within `min..=max`.
///
/// # Errors
/// As [`parse_num`], or [`CommandError::OutOfRange`].
///
/// ```
/// use xq_cli::protocol::parse_spin;
/// assert_eq!(parse_spin("Hash", Some("16"), 1, 2048), Ok(16));
/// assert_eq!(parse_spin("Hash", Some("0"), 1, 2048).unwrap_err().to_string(), "Hash must be between 1 and 2048, not 0");
/// ```
pub fn parse_spin(
    name: &str,
    value: Option<&str>,
    min: u64,
    max: u64,
) -> Result<u64, CommandError> {
    let n: u64 = parse_num(name, value)?;
    if n < min || n > max {
        return Err(CommandError::OutOfRange {
            name: name.to_string(),
            min,
            max,
            value: n,
        });
    }
    Ok(n)
}

/// Parses the value of a check (boolean) option: `true`, `on` or `1`, `false`, `off` or
/// `0`, in any case.
///
/// # Errors
/// [`CommandError::MissingValue`] or [`CommandError::BadCheck`].
///
/// ```
/// use xq_cli::protocol::parse_check;
/// assert_eq!(parse_check("Ponder", Some("True")), Ok(true));
/// assert_eq!(parse_check("Ponder", Some("off")), Ok(false));
/// assert_eq!(parse_check("Ponder", Some("maybe")).unwrap_err().to_string(), "bad value 'maybe' for Ponder (true or false)");
/// ```
pub fn parse_check(name: &str, value: Option<&str>) -> Result<bool, CommandError> {
    let v = value.ok_or_else(|| CommandError::MissingValue(name.to_string()))?;
    match v.to_ascii_lowercase().as_str() {
        "true" | "on" | "1" => Ok(true),
        "false" | "off" | "0" => Ok(false),
        _ => Err(CommandError::BadCheck {
            name: name.to_string(),
            value: v.to_string(),
        }),
    }
}

/// How a `go` keyword is followed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Arity {
    /// By nothing (`infinite`, `ponder`).
    Flag,
    /// By one value (`depth 8`).
    Value,
    /// By moves up to the next keyword (`searchmoves h2e2 b0c2`).
    Moves,
}

/// One keyword of a `go` command with what follows it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GoArg<'a> {
    /// A flag.
    Flag,
    /// A value (`None` when the command ends after the keyword).
    Value(Option<&'a str>),
    /// The moves after the keyword.
    Moves(&'a [&'a str]),
}

/// Reads the words of a `go` command, `keyword [value]` after `keyword [value]`, as UCI
/// and UCCI both write it: `keywords` says how each keyword is followed, and `apply`
/// takes each keyword with its argument. A keyword `apply` refuses, or one the protocol
/// does not have, is a problem; reading goes on after it (past a bad value, but never
/// past a following keyword). Returns the problems, in order.
///
/// ```
/// use xq_cli::protocol::{parse_go, Arity, GoArg};
/// let keywords = [("depth", Arity::Value), ("infinite", Arity::Flag)];
/// let mut depth = None;
/// let problems = parse_go(&["depth", "x", "infinite", "sideways"], &keywords, |k, arg| {
///     if let ("depth", GoArg::Value(v)) = (k, arg) {
///         depth = Some(xq_cli::protocol::parse_num::<u32>(k, v)?);
///     }
///     Ok(())
/// });
/// let problems: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
/// assert_eq!(problems, ["bad value 'x' for depth", "unknown go parameter 'sideways'"]);
/// assert_eq!(depth, None);
/// ```
pub fn parse_go<'a>(
    words: &'a [&'a str],
    keywords: &[(&str, Arity)],
    mut apply: impl FnMut(&'a str, GoArg<'a>) -> Result<(), CommandError>,
) -> Vec<CommandError> {
    let arity = |w: &str| keywords.iter().find(|(k, _)| *k == w).map(|&(_, a)| a);
    let mut problems = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let next = words.get(i + 1).copied();
        let (arg, used) = match arity(w) {
            None => {
                problems.push(CommandError::UnknownGoParameter(w.to_string()));
                i += 1;
                continue;
            }
            Some(Arity::Flag) => (GoArg::Flag, 1),
            Some(Arity::Value) => {
                // A value that is itself a keyword is not taken: the keyword follows.
                let value = next.filter(|v| arity(v).is_none());
                (GoArg::Value(value), 1 + usize::from(value.is_some()))
            }
            Some(Arity::Moves) => {
                let end = words[i + 1..]
                    .iter()
                    .position(|v| arity(v).is_some())
                    .map_or(words.len(), |k| i + 1 + k);
                (GoArg::Moves(&words[i + 1..end]), end - i)
            }
        };
        if let Err(e) = apply(w, arg) {
            problems.push(e);
        }
        i += used;
    }
    problems
}

/// Reports a command that failed, as UCI and UCCI engines do: one `info string` line
/// naming the command, what is wrong, and the line as received (made [`printable`],
/// since it may hold any bytes the GUI sent).
pub fn report_error(sink: &Sink, cmd: &str, error: &CommandError, line: &str) {
    let text = format!("info string {cmd}: {error} (in: {line})");
    say!(sink, "{}", printable(&text));
}

/// What a protocol handler wants after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// Exit.
    Quit,
}

/// A protocol: handles one command line at a time.
pub trait Protocol: fmt::Debug + Send {
    /// Handles one line (trimmed, non-empty). Returns [`Flow::Quit`] after a command
    /// that ends the session, and once the output is closed ([`Sink::flow`]).
    fn handle(&mut self, line: &str) -> Flow;
    /// Standard input ended: stop quietly.
    fn eof(&mut self);
}

/// Reads one line of input (lossily decoded); `None` at the end.
pub fn read_line(input: &mut impl BufRead) -> Option<String> {
    let mut buf = Vec::new();
    match input.read_until(b'\n', &mut buf) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(String::from_utf8_lossy(&buf).into_owned()),
    }
}

/// Runs `proto` over `input` until it asks to quit or the input ends.
pub fn run(proto: &mut dyn Protocol, input: &mut impl BufRead) {
    while let Some(line) = read_line(input) {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if proto.handle(line) == Flow::Quit {
            return;
        }
    }
    proto.eof();
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A pipe whose reader can go away: writes fail once `gone` is set.
    #[derive(Clone, Debug, Default)]
    pub(crate) struct Pipe {
        pub(crate) gone: Arc<AtomicBool>,
        pub(crate) data: Arc<Mutex<Vec<u8>>>,
        pub(crate) writes: Arc<Mutex<usize>>,
    }

    impl Write for Pipe {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            *self.writes.lock().unwrap() += 1;
            if self.gone.load(Ordering::SeqCst) {
                return Err(io::ErrorKind::BrokenPipe.into());
            }
            self.data.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Pipe {
        /// A pipe and a sink writing to it.
        pub(crate) fn sink() -> (Pipe, Sink) {
            let pipe = Pipe::default();
            (pipe.clone(), Sink::writer(pipe))
        }

        /// The reader goes away.
        pub(crate) fn close(&self) {
            self.gone.store(true, Ordering::SeqCst);
        }

        /// What was written.
        pub(crate) fn text(&self) -> String {
            String::from_utf8_lossy(&self.data.lock().unwrap()).into_owned()
        }
    }

    #[test]
    fn a_failed_write_closes_the_sink_and_its_clones() {
        let (pipe, sink) = Pipe::sink();
        let clone = sink.clone();
        say!(sink, "id name {}", "xq");
        assert_eq!(pipe.text(), "id name xq\n");
        assert_eq!(sink.flow(), Flow::Continue);
        pipe.close();
        say!(clone, "readyok");
        assert!(sink.is_closed() && clone.is_closed());
        assert_eq!(sink.flow(), Flow::Quit);
        // Nothing more is attempted.
        let tried = *pipe.writes.lock().unwrap();
        say!(sink, "bestmove h2e2");
        assert_eq!(*pipe.writes.lock().unwrap(), tried);
        assert_eq!(pipe.text(), "id name xq\n");
    }

    #[test]
    fn positions_parse() {
        assert!(parse_position(&["startpos"]).is_ok());
        let g = parse_position(&["startpos", "moves", "h2e2", "h9g7"]).unwrap();
        assert_eq!(g.moves().len(), 2);
        assert!(parse_position(&["startpos", "moves", "h2e2", "h2e2"]).is_err());
        assert!(parse_position(&["fen"]).is_err());
        assert!(parse_position(&["fen", "xyz"]).is_err());
        assert!(parse_position(&[]).is_err());
        assert!(parse_position(&["fen", "R3k4/1R7/9/9/9/9/9/9/9/3K5", "b"]).is_ok());
    }

    #[test]
    fn option_values_parse_or_say_why_not() {
        fn err<T>(s: &str) -> Result<T, String> {
            Err(s.to_string())
        }
        let text = |r: Result<u64, CommandError>| r.map_err(|e| e.to_string());
        assert_eq!(text(parse_spin("Threads", Some("16"), 1, 16)), Ok(16));
        assert_eq!(
            text(parse_spin("Threads", Some("17"), 1, 16)),
            err("Threads must be between 1 and 16, not 17")
        );
        assert_eq!(
            text(parse_spin("hashsize", Some("lots"), 0, 2048)),
            err("bad value 'lots' for hashsize")
        );
        assert_eq!(
            text(parse_spin("hashsize", Some("-1"), 0, 2048)),
            err("bad value '-1' for hashsize")
        );
        assert_eq!(
            parse_spin("hashsize", None, 0, 2048),
            Err(CommandError::MissingValue("hashsize".into()))
        );
        for (v, want) in [("TRUE", true), ("on", true), ("1", true), ("False", false)] {
            assert_eq!(parse_check("ponder", Some(v)), Ok(want), "{v}");
        }
        assert_eq!(
            parse_check("Ponder", None).unwrap_err().to_string(),
            "missing value for Ponder"
        );
        assert_eq!(
            parse_check("usemillisec", Some("Maybe"))
                .unwrap_err()
                .to_string(),
            "bad value 'Maybe' for usemillisec (true or false)"
        );
        assert_eq!(
            parse_num::<u64>("nodes", Some("18446744073709551615")),
            Ok(u64::MAX)
        );
        assert_eq!(
            parse_num::<u32>("depth", Some("4294967296"))
                .unwrap_err()
                .to_string(),
            "bad value '4294967296' for depth"
        );
    }

    #[test]
    fn go_words_are_read_keyword_by_keyword() {
        let keywords = [
            ("searchmoves", Arity::Moves),
            ("depth", Arity::Value),
            ("infinite", Arity::Flag),
        ];
        let mut seen = Vec::new();
        let words = [
            "searchmoves",
            "h2e2",
            "b0c2",
            "depth",
            "infinite",
            "depth",
            "5",
            "x",
        ];
        let problems = parse_go(&words, &keywords, |k, arg| {
            seen.push(format!("{k} {arg:?}"));
            Ok(())
        });
        assert_eq!(
            seen,
            [
                "searchmoves Moves([\"h2e2\", \"b0c2\"])",
                "depth Value(None)",
                "infinite Flag",
                "depth Value(Some(\"5\"))",
            ]
        );
        assert_eq!(problems, [CommandError::UnknownGoParameter("x".into())]);
        // Several problems are one error, joined.
        let e = CommandError::from_problems(vec![
            CommandError::MissingValue("depth".into()),
            CommandError::UnknownGoParameter("x".into()),
        ]);
        assert_eq!(
            e.unwrap_err().to_string(),
            "missing value for depth; unknown go parameter 'x'"
        );
        assert_eq!(CommandError::from_problems(vec![]), Ok(()));
    }

    #[test]
    fn errors_are_one_printable_line() {
        let (sink, lines) = Sink::buffer();
        report_error(
            &sink,
            "go",
            &CommandError::UnknownGoParameter("x\r".into()),
            "go x\rbestmove a0a1",
        );
        assert_eq!(
            *lines.lock().unwrap(),
            ["info string go: unknown go parameter 'x?' (in: go x?bestmove a0a1)"]
        );
    }
}
