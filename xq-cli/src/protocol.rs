//! Protocol plumbing shared by every protocol: where output lines go ([`Sink`]), the
//! line loop ([`Protocol`], [`run`]), and the parsing of what GUIs send (positions,
//! move lists).
//!
//! Nothing here knows a particular protocol; the protocols build on it.

use std::fmt;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use xq_core::{Move, Position};
use xq_movegen::Game;

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

/// Parses `[startpos | fen <fen fields>] [moves m1 m2 ...]` into a game.
///
/// # Errors
/// A missing or unknown setup keyword, a bad FEN or a bad or illegal move, as a message
/// that names it.
///
/// ```
/// use xq_cli::protocol::parse_position;
/// let game = parse_position(&["startpos", "moves", "h2e2", "h9g7"]).unwrap();
/// assert_eq!(game.moves().len(), 2);
/// assert_eq!(parse_position(&["fen"]).unwrap_err(), "missing FEN");
/// ```
pub fn parse_position(words: &[&str]) -> Result<Game, String> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let fen = match setup.split_first() {
        Some((&"startpos", rest)) => {
            if !rest.is_empty() {
                return Err(format!("unexpected '{}' after startpos", rest.join(" ")));
            }
            xq_core::START_FEN.to_string()
        }
        Some((&"fen", rest)) => {
            if rest.is_empty() {
                return Err("missing FEN".into());
            }
            rest.join(" ")
        }
        _ => return Err("expected 'startpos' or 'fen'".into()),
    };
    Game::from_fen_moves(&fen, moves).map_err(|e| e.to_string())
}

/// Parses moves that must be legal in `pos`; returns the good ones and complaints
/// about the others.
///
/// ```
/// use xq_core::Position;
/// let (good, bad) = xq_cli::protocol::parse_legal_moves(&Position::startpos(), &["h2e2", "a0a5", "zz"]);
/// assert_eq!(good.len(), 1);
/// assert_eq!(bad[0], "illegal move a0a5");
/// ```
pub fn parse_legal_moves(pos: &Position, words: &[&str]) -> (Vec<Move>, Vec<String>) {
    let mut good = Vec::new();
    let mut bad = Vec::new();
    for w in words {
        match w.parse::<Move>() {
            Ok(m) if xq_movegen::is_legal(pos, m) => good.push(m),
            Ok(_) => bad.push(format!("illegal move {w}")),
            Err(e) => bad.push(format!("bad move '{w}': {e}")),
        }
    }
    (good, bad)
}

/// Parses the value of a parameter, saying what is wrong otherwise.
///
/// # Errors
/// `missing value for <name>` or `bad value '<word>' for <name>`.
///
/// ```
/// use xq_cli::protocol::parse_num;
/// assert_eq!(parse_num::<u32>("depth", Some("8")), Ok(8));
/// assert_eq!(parse_num::<u32>("depth", Some("-1")), Err("bad value '-1' for depth".to_string()));
/// assert_eq!(parse_num::<u32>("depth", None), Err("missing value for depth".to_string()));
/// ```
pub fn parse_num<T: std::str::FromStr>(name: &str, word: Option<&str>) -> Result<T, String> {
    match word {
        Some(w) => w.parse().map_err(|_| format!("bad value '{w}' for {name}")),
        None => Err(format!("missing value for {name}")),
    }
}

/// Parses the value of a spin (integer) option within `min..=max`.
///
/// # Errors
/// As [`parse_num`], or `<name> must be between <min> and <max>, not <n>`.
///
/// ```
/// use xq_cli::protocol::parse_spin;
/// assert_eq!(parse_spin("Hash", Some("16"), 1, 2048), Ok(16));
/// assert_eq!(parse_spin("Hash", Some("0"), 1, 2048), Err("Hash must be between 1 and 2048, not 0".to_string()));
/// ```
pub fn parse_spin(name: &str, value: Option<&str>, min: u64, max: u64) -> Result<u64, String> {
    let n: u64 = parse_num(name, value)?;
    if n < min || n > max {
        return Err(format!("{name} must be between {min} and {max}, not {n}"));
    }
    Ok(n)
}

/// Parses the value of a check (boolean) option: `true`, `on` or `1`, `false`, `off` or
/// `0`, in any case.
///
/// # Errors
/// `missing value for <name>` or `bad value '<value>' for <name> (true or false)`.
///
/// ```
/// use xq_cli::protocol::parse_check;
/// assert_eq!(parse_check("Ponder", Some("True")), Ok(true));
/// assert_eq!(parse_check("Ponder", Some("off")), Ok(false));
/// assert_eq!(parse_check("Ponder", Some("maybe")), Err("bad value 'maybe' for Ponder (true or false)".to_string()));
/// ```
pub fn parse_check(name: &str, value: Option<&str>) -> Result<bool, String> {
    let v = value.ok_or_else(|| format!("missing value for {name}"))?;
    match v.to_ascii_lowercase().as_str() {
        "true" | "on" | "1" => Ok(true),
        "false" | "off" | "0" => Ok(false),
        _ => Err(format!("bad value '{v}' for {name} (true or false)")),
    }
}

/// Reports a command that failed, as UCI and UCCI engines do: one `info string` line
/// naming the command, what is wrong, and the line as received (made [`printable`],
/// since it may hold any bytes the GUI sent).
pub fn report_error(sink: &Sink, cmd: &str, error: &str, line: &str) {
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
        assert_eq!(parse_spin("Threads", Some("16"), 1, 16), Ok(16));
        assert_eq!(
            parse_spin("Threads", Some("17"), 1, 16),
            err("Threads must be between 1 and 16, not 17")
        );
        assert_eq!(
            parse_spin("hashsize", Some("lots"), 0, 2048),
            err("bad value 'lots' for hashsize")
        );
        assert_eq!(
            parse_spin("hashsize", Some("-1"), 0, 2048),
            err("bad value '-1' for hashsize")
        );
        assert_eq!(
            parse_spin("hashsize", None, 0, 2048),
            err("missing value for hashsize")
        );
        for (v, want) in [("TRUE", true), ("on", true), ("1", true), ("False", false)] {
            assert_eq!(parse_check("ponder", Some(v)), Ok(want), "{v}");
        }
        assert_eq!(parse_check("Ponder", None), err("missing value for Ponder"));
        assert_eq!(
            parse_check("usemillisec", Some("Maybe")),
            err("bad value 'Maybe' for usemillisec (true or false)")
        );
        assert_eq!(
            parse_num::<u64>("nodes", Some("18446744073709551615")),
            Ok(u64::MAX)
        );
        assert_eq!(
            parse_num::<u32>("depth", Some("4294967296")),
            err("bad value '4294967296' for depth")
        );
    }

    #[test]
    fn errors_are_one_printable_line() {
        let (sink, lines) = Sink::buffer();
        report_error(
            &sink,
            "go",
            "unknown go parameter 'x\r'",
            "go x\rbestmove a0a1",
        );
        assert_eq!(
            *lines.lock().unwrap(),
            ["info string go: unknown go parameter 'x?' (in: go x?bestmove a0a1)"]
        );
    }
}
