//! Where output lines go ([`Sink`]), the line loop ([`Protocol`], [`run`]) and how a
//! refused command is reported. Nothing here reads standard input or writes standard
//! output: the host hands lines in and says where replies go.

use crate::error::CommandError;
use std::fmt;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// Writes one line to `out` and flushes it, so that a GUI sees it at once.
///
/// # Errors
/// The write or the flush failed: for a pipe, the reader has gone away.
///
/// ```
/// let mut out = Vec::new();
/// xq_protocol::write_line(&mut out, format_args!("readyok")).unwrap();
/// assert_eq!(out, b"readyok\n");
/// ```
pub fn write_line(out: &mut (impl Write + ?Sized), text: fmt::Arguments<'_>) -> io::Result<()> {
    writeln!(out, "{text}")?;
    out.flush()
}

/// Where the engine's output lines go: any writer (standard output, for the binary), a
/// callback (a web worker's `postMessage`), or a buffer of lines (tests and fuzzing,
/// which feed lines to a handler without real standard input and output).
///
/// A sink is shared by its clones (the protocol handler and the search thread write to
/// the same one). When a write fails, the sink is *closed*: nobody reads it any more, so
/// nothing more is written, and [`Sink::flow`] tells the line loop to stop.
///
/// ```
/// use xq_protocol::Sink;
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

/// A callback that takes one line and says whether it was delivered.
type Callback = dyn Fn(&str) -> bool + Send + Sync;

#[derive(Clone)]
enum Target {
    Buffer(Arc<Mutex<Vec<String>>>),
    Writer(Arc<Mutex<dyn Write + Send>>),
    Callback(Arc<Callback>),
}

impl fmt::Debug for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Buffer(_) => f.write_str("Buffer"),
            Target::Writer(_) => f.write_str("Writer"),
            Target::Callback(_) => f.write_str("Callback"),
        }
    }
}

impl Sink {
    fn new(target: Target) -> Sink {
        Sink {
            target,
            closed: Arc::new(AtomicBool::new(false)),
        }
    }

    /// A fresh buffer sink and the buffer it writes to (one string per line).
    pub fn buffer() -> (Sink, Arc<Mutex<Vec<String>>>) {
        let buf = Arc::new(Mutex::new(Vec::new()));
        (Sink::new(Target::Buffer(buf.clone())), buf)
    }

    /// A sink writing lines to `out`, flushing after each (the binary's is standard
    /// output).
    pub fn writer(out: impl Write + Send + 'static) -> Sink {
        Sink::new(Target::Writer(Arc::new(Mutex::new(out))))
    }

    /// A sink handing each line to `deliver`, which returns `false` once nobody reads
    /// them any more.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use std::sync::Arc;
    /// use xq_protocol::Sink;
    /// let count = Arc::new(AtomicUsize::new(0));
    /// let seen = count.clone();
    /// let sink = Sink::callback(move |_line| seen.fetch_add(1, Ordering::SeqCst) < 1);
    /// sink.line(format_args!("readyok"));
    /// sink.line(format_args!("readyok"));
    /// assert!(sink.is_closed());
    /// assert_eq!(count.load(Ordering::SeqCst), 2);
    /// ```
    pub fn callback(deliver: impl Fn(&str) -> bool + Send + Sync + 'static) -> Sink {
        Sink::new(Target::Callback(Arc::new(deliver)))
    }

    /// Writes one line; closes the sink if that fails. Does nothing once closed.
    pub fn line(&self, text: fmt::Arguments<'_>) {
        if self.is_closed() {
            return;
        }
        let written = match &self.target {
            Target::Callback(deliver) => {
                if deliver(&text.to_string()) {
                    Ok(())
                } else {
                    Err(io::ErrorKind::BrokenPipe.into())
                }
            }
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

/// Text from the GUI made safe to echo on one output line: control characters (a
/// carriage return could start a fake line for some GUIs) become `?`.
///
/// ```
/// assert_eq!(xq_protocol::printable("go\rbestmove a0a1"), "go?bestmove a0a1");
/// ```
pub fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
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
