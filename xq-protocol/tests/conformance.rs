//! The UCI conformance table (`conformance.txt`) against xq-protocol's UCI over a
//! `Stepper`, run as the web worker runs it: one iteration at a time with the messages
//! read in between (its fallback), and to the end polling a shared flag that `stop` and
//! `ponderhit` set (its mode in a cross-origin isolated page).

use std::cell::Cell;
use xq_protocol::{Protocol, Sink, Uci};
use xq_search::engine::{Caps, Options, Signals, StepState, Stepper};
use xq_testkit::conformance::{cases, Step};

/// The web worker's caps and table.
fn worker() -> Stepper {
    let caps = Caps {
        max_hash_mib: 1024,
        max_threads: 1,
        ..Caps::default()
    };
    Stepper::new(
        Options {
            hash_mib: 16,
            ..Options::default()
        },
        caps,
    )
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// One iteration a call; the next line is read before the next iteration.
    Steps,
    /// The whole search in one call, which polls the flag the relay sets when `stop`,
    /// `go` or `ponderhit` comes.
    Flag,
}

/// The flag the relay sets: it says `stop` (or `ponderhit`) after a few polls, as a line
/// that comes while the search runs.
struct Flag {
    polls: Cell<u32>,
    stop: bool,
    ponderhit: bool,
}

impl Signals for Flag {
    fn stop(&self) -> bool {
        self.polls.set(self.polls.get() + 1);
        self.stop && self.polls.get() > 20
    }

    fn ponderhit(&self) -> bool {
        self.ponderhit && self.polls.get() > 20
    }
}

fn transcript(steps: &[Step], mode: Mode) -> Vec<String> {
    let (sink, out) = Sink::buffer();
    let mut uci = Uci::new(sink, worker());
    // The lines the last wait took.
    let mut taken = 0;
    for (i, step) in steps.iter().enumerate() {
        match step {
            Step::Send(line) => {
                uci.handle(line);
            }
            Step::Await(prefix) => {
                let found = |out: &std::sync::Mutex<Vec<String>>| {
                    let lines = out.lock().unwrap();
                    lines[taken..]
                        .iter()
                        .position(|l| l.starts_with(prefix))
                        .map(|at| taken + at + 1)
                };
                let mut guard = 0;
                while found(&out).is_none() && uci.engine().state() == StepState::Searching {
                    uci.engine_mut().step(&|| false);
                    guard += 1;
                    assert!(guard < 1000, "runaway search");
                }
                taken = found(&out)
                    .unwrap_or_else(|| panic!("no '{prefix}': {:?}", out.lock().unwrap()));
                continue;
            }
        }
        // The worker after a line: run the search the line left waiting.
        if mode == Mode::Flag && uci.engine().state() == StepState::Searching {
            let next = steps.get(i + 1);
            let says = |word: &str| matches!(next, Some(Step::Send(l)) if l.starts_with(word));
            let flag = Flag {
                polls: Cell::new(0),
                stop: says("stop") || says("go"),
                ponderhit: says("ponderhit"),
            };
            uci.engine_mut().run(&flag);
        }
    }
    uci.handle("isready");
    let mut lines = out.lock().unwrap().clone();
    assert_eq!(lines.pop().as_deref(), Some("readyok"), "{lines:?}");
    lines
}

#[test]
fn the_stepper_answers_every_row_one_iteration_at_a_time() {
    let failures: Vec<String> = cases()
        .iter()
        .filter_map(|case| case.check(&transcript(&case.steps, Mode::Steps)).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_stepper_answers_every_row_run_to_the_end_with_a_flag() {
    let failures: Vec<String> = cases()
        .iter()
        .filter_map(|case| case.check(&transcript(&case.steps, Mode::Flag)).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
