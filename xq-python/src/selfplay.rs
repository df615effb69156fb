//! `xq.selfplay`: the engine's self-play (`xq_train::selfplay`) as one call, the games
//! returned in `xq datagen`'s binary form: the same bytes as `xq datagen --format binary`
//! for the same settings, whatever the thread count. The GIL is released while the games
//! are played; Ctrl-C stops the run between two games.

use crate::errors::{Error, Kind};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;
use xq_eval::nnue::Network;
use xq_movegen::Game;
use xq_train::binary::{WriteError, Writer};
use xq_train::selfplay::{generate_each, SelfPlayError, Settings, MAX_THREADS};

/// The most plies `random_plies` and `max_plies` may say: what a game of the binary form
/// holds.
const MAX_PLIES: i128 = xq_train::binary::MAX_PLIES as i128;

fn invalid(message: impl std::fmt::Display) -> PyErr {
    Error::new(Kind::InvalidArgument, message).into()
}

/// The integer argument `name`, within `min..=max`, or `InvalidArgument` saying so: the
/// package's one check ([`crate::args`]).
fn int_arg(value: &Bound<'_, PyAny>, name: &str, min: i128, max: i128) -> PyResult<i128> {
    crate::args::int_in(name, value, min, max, &crate::args::argument_error)
}

/// The network `eval_file` names, read as the engine reads one (its error text): a
/// missing file is Python's `FileNotFoundError`, a file that is not a network
/// `InvalidArgument`.
fn read_network(path: &std::path::Path) -> PyResult<Arc<Network>> {
    std::fs::metadata(path)?;
    xq_search::engine::read_network(&xq_search::engine::Disk, &path.to_string_lossy())
        .map_err(|e| invalid(e.to_string()))
}

/// The openings of `file`, read as `xq match` and `xq datagen --openings` read them
/// (PGN for a `.pgn` file, else EPD): a missing file is `FileNotFoundError`, a bad
/// opening `InvalidArgument` naming its line.
/// The games take them from opening `start` (counted from 1) on, going round the file.
fn read_openings(file: &std::path::Path, start: usize) -> PyResult<Vec<Game>> {
    use xq_match::openings::{arrange, Order};
    std::fs::metadata(file)?;
    let pgn = xq_match::openings::is_pgn(file);
    let openings = xq_match::openings::read(file, pgn, None).map_err(invalid)?;
    let openings = arrange(openings, Order::Sequential, 0, start);
    Ok(openings.iter().map(|o| o.game()).collect())
}

/// `xq.selfplay(games, *, nodes=5000, seed=1, threads=1, random_plies=8, max_plies=400,
/// resign=1500, hash_mb=16, classical=False, eval_file=None, openings=None, openings_start=1,
/// path=None)`:
/// plays games `0..games` of the run seeded with `seed` and returns them in `xq
/// datagen`'s binary form (the `XQSP` header, then the games in order), also written to
/// `path` when given. The same bytes as `xq datagen --games G --nodes N --seed S
/// --random-plies K --max-plies P --resign CP --hash MB --format binary` (with
/// `--classical` or `--eval-file`, and `--openings` and `--openings-start`), for any
/// `threads`: the games start from the file's openings in turn, the first from opening
/// `openings_start` (counted from 1, going round the file).
///
/// Raises InvalidArgument for a setting out of range or a bad opening (the message names
/// it), OSError when `eval_file`, `openings` or `path` cannot be read or written.
#[pyfunction]
#[pyo3(
    signature = (games, *, nodes = None, seed = None, threads = None, random_plies = None, max_plies = None, resign = None, hash_mb = None, classical = false, eval_file = None, openings = None, openings_start = None, path = None),
    text_signature = "(games, *, nodes=5000, seed=1, threads=1, random_plies=8, max_plies=400, resign=1500, hash_mb=16, classical=False, eval_file=None, openings=None, openings_start=1, path=None)"
)]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments
pub fn selfplay<'py>(
    py: Python<'py>,
    games: &Bound<'py, PyAny>,
    nodes: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    random_plies: Option<&Bound<'py, PyAny>>,
    max_plies: Option<&Bound<'py, PyAny>>,
    resign: Option<&Bound<'py, PyAny>>,
    hash_mb: Option<&Bound<'py, PyAny>>,
    classical: bool,
    eval_file: Option<PathBuf>,
    openings: Option<PathBuf>,
    openings_start: Option<&Bound<'py, PyAny>>,
    path: Option<PathBuf>,
) -> PyResult<Bound<'py, PyBytes>> {
    let defaults = Settings::default();
    let arg = |value: Option<&Bound<'py, PyAny>>, name, min, max, default: i128| {
        value.map_or(Ok(default), |v| int_arg(v, name, min, max))
    };
    let max_i64 = i128::from(i64::MAX);
    let games = int_arg(games, "games", 0, max_i64)? as u64;
    let nodes = arg(nodes, "nodes", 1, max_i64, i128::from(defaults.nodes))? as u64;
    let seed = arg(seed, "seed", 0, i128::from(u64::MAX), 1)? as u64;
    let threads = arg(threads, "threads", 1, MAX_THREADS as i128, 1)? as usize;
    let random_plies = arg(
        random_plies,
        "random_plies",
        0,
        MAX_PLIES,
        defaults.random_plies as i128,
    )? as usize;
    let max_plies = arg(
        max_plies,
        "max_plies",
        0,
        MAX_PLIES,
        defaults.max_plies as i128,
    )? as usize;
    let resign = arg(
        resign,
        "resign",
        0,
        i128::from(i32::MAX),
        i128::from(defaults.resign),
    )? as i32;
    let hash_mib = arg(hash_mb, "hash_mb", 1, max_i64, defaults.hash_mib as i128)?;
    let hash_mib = usize::try_from(hash_mib).map_err(|_| {
        invalid(format!(
            "hash_mb {hash_mib}: cannot allocate a hash table of {hash_mib} MiB"
        ))
    })?;
    if openings_start.is_some() && openings.is_none() {
        return Err(invalid(
            "openings_start needs openings: the file it counts in",
        ));
    }
    let openings_start = arg(openings_start, "openings_start", 1, max_i64, 1)? as usize;
    let network = match (classical, &eval_file) {
        (true, Some(_)) => {
            return Err(invalid(
                "give classical=True or eval_file, not both: they choose the evaluation",
            ))
        }
        (true, None) => None,
        (false, Some(file)) => Some(read_network(file)?),
        (false, None) => defaults.network,
    };
    let settings = Settings {
        nodes,
        random_plies,
        max_plies,
        resign,
        hash_mib,
        network,
        openings: match &openings {
            Some(file) => read_openings(file, openings_start)?,
            None => Vec::new(),
        },
    };
    let mut interrupted = None;
    let written = py.detach(|| {
        let mut file = Writer::new();
        let mut too_long = None;
        let run = generate_each(&settings, seed, games, threads, |_, game| {
            if let Err(e) = file.push(&game) {
                too_long = Some(e);
                return ControlFlow::Break(());
            }
            // Ctrl-C stops the run between two games.
            match Python::attach(|py| py.check_signals()) {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => {
                    interrupted = Some(e);
                    ControlFlow::Break(())
                }
            }
        });
        match (run, too_long) {
            (Err(e), _) => Err(Failure::Run(e)),
            (Ok(()), Some(e)) => Err(Failure::Write(e)),
            (Ok(()), None) => Ok(file.into_bytes()),
        }
    });
    if let Some(e) = interrupted {
        return Err(e);
    }
    let bytes = written.map_err(|failure| match failure {
        Failure::Run(SelfPlayError::Table(e)) => invalid(format!("hash_mb {hash_mib}: {e}")),
        Failure::Run(e) => invalid(e),
        Failure::Write(e) => invalid(e),
    })?;
    if let Some(path) = &path {
        std::fs::write(path, &bytes)?;
    }
    Ok(PyBytes::new(py, &bytes))
}

/// Why a run gave no file.
enum Failure {
    /// The games could not be played.
    Run(SelfPlayError),
    /// A game too long for the binary form (not one under the rules).
    Write(WriteError),
}
