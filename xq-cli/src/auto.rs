//! Plain `xq`: the protocol is chosen by the first command the GUI sends.
//!
//! Every protocol the engine speaks is one line of [`PROTOCOLS`]: the command that
//! selects it and how to build its handler.

use crate::protocol::{printable, say, Flow, Protocol, Sink};
use crate::ucci::Ucci;
use crate::uci::Uci;
use crate::xboard::XBoard;
use xq_search::engine::Caps;

/// Builds a protocol handler that writes to a sink, within resource caps.
pub type NewProtocol = fn(Sink, Caps) -> Box<dyn Protocol>;

/// The protocols, by the first command that selects them (which the chosen handler
/// then also handles, so `uci` is answered by `uciok`).
pub const PROTOCOLS: &[(&str, NewProtocol)] = &[
    ("uci", |sink, caps| Box::new(Uci::with_sink(sink, caps))),
    ("ucci", |sink, caps| Box::new(Ucci::with_sink(sink, caps))),
    ("xboard", |sink, caps| {
        Box::new(XBoard::with_sink(sink, caps))
    }),
];

/// Waits for a command that selects a protocol (see [`PROTOCOLS`]) and hands over to it.
/// Until then it answers `isready` and `quit` and ignores anything else with a hint.
///
/// ```
/// use xq_cli::auto::Auto;
/// use xq_cli::protocol::{Protocol, Sink};
/// use xq_search::engine::Caps;
/// let (sink, lines) = Sink::buffer();
/// let mut engine = Auto::new(sink, Caps::default());
/// engine.handle("go");
/// engine.handle("ucci");
/// let lines = lines.lock().unwrap();
/// assert_eq!(lines[0], "info string send 'uci', 'ucci' or 'xboard' first; ignoring: go");
/// assert_eq!(lines.last().unwrap(), "ucciok");
/// ```
#[derive(Debug)]
pub struct Auto {
    sink: Sink,
    caps: Caps,
    chosen: Option<Box<dyn Protocol>>,
}

impl Auto {
    /// Waits for a protocol's first command; the chosen protocol writes to `sink`,
    /// within `caps`.
    pub fn new(sink: Sink, caps: Caps) -> Auto {
        Auto {
            sink,
            caps,
            chosen: None,
        }
    }
}

impl Protocol for Auto {
    fn handle(&mut self, line: &str) -> Flow {
        if let Some(p) = &mut self.chosen {
            return p.handle(line);
        }
        let Some(cmd) = line.split_whitespace().next() else {
            return Flow::Continue;
        };
        if let Some((_, start)) = PROTOCOLS.iter().find(|(name, _)| *name == cmd) {
            let p = self.chosen.insert(start(self.sink.clone(), self.caps));
            return p.handle(line);
        }
        match cmd {
            "isready" => say!(self.sink, "readyok"),
            "quit" => return Flow::Quit,
            _ => {
                let names: Vec<String> = PROTOCOLS.iter().map(|(n, _)| format!("'{n}'")).collect();
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
    use crate::protocol::run;
    use crate::protocol::tests::Pipe;

    fn caps() -> Caps {
        Caps {
            max_hash_mib: 1,
            max_threads: 1,
            max_nodes: Some(10_000),
            ..Caps::default()
        }
    }

    #[test]
    fn the_session_ends_when_nobody_reads_the_answers() {
        let (pipe, sink) = Pipe::sink();
        let mut auto = Auto::new(sink, caps());
        assert_eq!(auto.handle("uci"), Flow::Continue);
        assert!(pipe.text().ends_with("uciok\n"));
        pipe.close();
        assert_eq!(auto.handle("isready"), Flow::Quit);

        // Before a protocol is chosen too.
        let (pipe, sink) = Pipe::sink();
        pipe.close();
        let mut auto = Auto::new(sink, caps());
        assert_eq!(auto.handle("isready"), Flow::Quit);
    }

    #[test]
    fn the_line_loop_stops_reading_once_the_output_is_closed() {
        for first in ["uci", "ucci", "isready"] {
            let (pipe, sink) = Pipe::sink();
            pipe.close();
            let mut auto = Auto::new(sink, caps());
            let text = format!("{first}\nisready\ngo depth 1\n");
            let mut input = text.as_bytes();
            run(&mut auto, &mut input);
            // The first answer failed: the rest is never read.
            assert_eq!(input, b"isready\ngo depth 1\n", "{first}");
        }
    }
}
