//! Plain `xq`: the protocol is chosen by the first command the GUI sends.
//!
//! `uci`, `ucci` and `xboard` choose their protocol (which then answers that first
//! command). A GUI or a script that starts with one of UCI's other commands (`position`,
//! `go`, `setoption`, `ucinewgame`) gets UCI without the handshake, as Stockfish does, so
//! that `printf 'position startpos\ngo depth 8\n' | xq` answers.

use crate::io::{printable, Flow, Protocol, Sink};
use crate::ucci::Ucci;
use crate::uci::Uci;
use crate::xboard::XBoard;
use xq_search::engine::SearchEngine;

/// The commands that choose a protocol, and UCI's other commands that choose UCI.
const CHOOSERS: [&str; 3] = ["uci", "ucci", "xboard"];
const UCI_COMMANDS: [&str; 4] = ["position", "go", "setoption", "ucinewgame"];

/// Waits for a command that selects a protocol and hands over to it. Until then it
/// answers `isready` and `quit` and ignores anything else with a hint.
///
/// ```
/// use xq_protocol::{Auto, Protocol, Sink};
/// use xq_search::Engine;
/// let (sink, lines) = Sink::buffer();
/// let mut engine = Auto::new(sink, Engine::default());
/// engine.handle("stop");
/// engine.handle("ucci");
/// let lines = lines.lock().unwrap();
/// assert_eq!(lines[0], "info string send 'uci', 'ucci' or 'xboard' first; ignoring: stop");
/// assert_eq!(lines.last().unwrap(), "ucciok");
/// ```
#[derive(Debug)]
pub struct Auto<E> {
    sink: Sink,
    /// The engine, until a protocol takes it.
    engine: Option<E>,
    chosen: Option<Box<dyn Protocol>>,
}

impl<E: SearchEngine + 'static> Auto<E> {
    /// Waits for a protocol's first command; the chosen protocol drives `engine` and
    /// writes to `sink`.
    pub fn new(sink: Sink, engine: E) -> Auto<E> {
        Auto {
            sink,
            engine: Some(engine),
            chosen: None,
        }
    }

    /// The protocol `cmd` chooses, with the engine.
    fn choose(&mut self, cmd: &str) -> Option<Box<dyn Protocol>> {
        let uci = cmd == "uci" || UCI_COMMANDS.contains(&cmd);
        if !uci && !CHOOSERS.contains(&cmd) {
            return None;
        }
        let engine = self.engine.take()?;
        let sink = self.sink.clone();
        Some(match cmd {
            "ucci" => Box::new(Ucci::new(sink, engine)),
            "xboard" => Box::new(XBoard::new(sink, engine)),
            _ => Box::new(Uci::new(sink, engine)),
        })
    }
}

impl<E: SearchEngine + 'static> Protocol for Auto<E> {
    fn handle(&mut self, line: &str) -> Flow {
        if let Some(p) = &mut self.chosen {
            return p.handle(line);
        }
        let Some(cmd) = line.split_whitespace().next() else {
            return Flow::Continue;
        };
        if let Some(p) = self.choose(cmd) {
            return self.chosen.insert(p).handle(line);
        }
        match cmd {
            "isready" => say!(self.sink, "readyok"),
            "quit" => return Flow::Quit,
            _ => {
                let names: Vec<String> = CHOOSERS.iter().map(|n| format!("'{n}'")).collect();
                let names = match names.split_last() {
                    Some((last, [])) => last.clone(),
                    Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
                    None => String::new(),
                };
                say!(
                    self.sink,
                    "info string send {names} first; ignoring: {}",
                    printable(line)
                )
            }
        }
        self.sink.flow()
    }

    fn eof(&mut self) {
        if let Some(p) = &mut self.chosen {
            p.eof();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::run;
    use crate::io::tests::Pipe;
    use xq_search::engine::{Caps, Options};
    use xq_search::Engine;

    fn engine() -> Engine {
        let caps = Caps {
            max_hash_mib: 1,
            max_threads: 1,
            max_nodes: Some(10_000),
            ..Caps::default()
        };
        Engine::with_caps(Options::default(), caps)
    }

    #[test]
    fn the_session_ends_when_nobody_reads_the_answers() {
        let (pipe, sink) = Pipe::sink();
        let mut auto = Auto::new(sink, engine());
        assert_eq!(auto.handle("uci"), Flow::Continue);
        assert!(pipe.text().ends_with("uciok\n"));
        pipe.close();
        assert_eq!(auto.handle("isready"), Flow::Quit);

        // Before a protocol is chosen too.
        let (pipe, sink) = Pipe::sink();
        pipe.close();
        let mut auto = Auto::new(sink, engine());
        assert_eq!(auto.handle("isready"), Flow::Quit);
    }

    #[test]
    fn the_line_loop_stops_reading_once_the_output_is_closed() {
        for first in ["uci", "ucci", "isready"] {
            let (pipe, sink) = Pipe::sink();
            pipe.close();
            let mut auto = Auto::new(sink, engine());
            let text = format!("{first}\nisready\ngo depth 1\n");
            let mut input = text.as_bytes();
            run(&mut auto, &mut input);
            // The first answer failed: the rest is never read.
            assert_eq!(input, b"isready\ngo depth 1\n", "{first}");
        }
    }

    #[test]
    fn a_uci_command_first_chooses_uci_and_the_end_of_input_lets_the_search_answer() {
        let (sink, lines) = Sink::buffer();
        let mut auto = Auto::new(sink, engine());
        let mut input = "position startpos\ngo depth 3\n".as_bytes();
        run(&mut auto, &mut input);
        let lines = lines.lock().unwrap();
        assert!(!lines.iter().any(|l| l == "uciok"), "{lines:?}");
        assert!(
            lines.iter().any(|l| l.starts_with("info depth 3 ")),
            "{lines:?}"
        );
        assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
    }
}
