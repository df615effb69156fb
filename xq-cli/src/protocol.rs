//! Protocol plumbing shared by every protocol: where output lines go ([`Sink`]), the
//! line loop ([`Protocol`], [`run`]), and the parsing of what GUIs send (positions,
//! move lists).
//!
//! Nothing here knows a particular protocol; the protocols build on it.

use std::io::BufRead;
use std::sync::{Arc, Mutex};
use xq_core::{Move, Position};
use xq_search::Game;

/// Where the engine's output lines go: standard output (the binary) or a buffer (tests
/// and fuzzing, which feed lines to a handler without real standard input and output).
#[derive(Clone, Debug, Default)]
pub enum Sink {
    /// Standard output; the process exits quietly when the reader has gone away.
    #[default]
    Stdout,
    /// Collected lines, in the order they were written.
    Buffer(Arc<Mutex<Vec<String>>>),
}

impl Sink {
    /// A fresh buffer sink and the buffer it writes to.
    pub fn buffer() -> (Sink, Arc<Mutex<Vec<String>>>) {
        let buf = Arc::new(Mutex::new(Vec::new()));
        (Sink::Buffer(buf.clone()), buf)
    }

    /// Writes one line.
    pub fn line(&self, text: std::fmt::Arguments<'_>) {
        match self {
            Sink::Stdout => {
                use std::io::Write as _;
                let mut out = std::io::stdout().lock();
                if writeln!(out, "{text}").and_then(|_| out.flush()).is_err() {
                    std::process::exit(0);
                }
            }
            Sink::Buffer(buf) => buf
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(text.to_string()),
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

/// What a protocol handler wants after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// Exit.
    Quit,
}

/// A protocol: handles one command line at a time.
pub trait Protocol: std::fmt::Debug + Send {
    /// Handles one line (trimmed, non-empty).
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
mod tests {
    use super::*;

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
}
