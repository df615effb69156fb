//! `xq.match`'s native part: a match's settings read from `xq match`'s arguments
//! (`_MatchConfig`), a pair of games played with them (on this machine or on a cluster
//! node: `play_pair`), and the results counted into the pentanomial, the Elo and the
//! SPRT (`_MatchTally`) by the same code as `xq match` (`xq-match`).

use crate::errors::{Error, Kind};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::atomic::{AtomicBool, Ordering};
use xq_match::cli::parse_args;
use xq_match::game::Seat;
use xq_match::{pgn_text, GameCount, GameReport, MatchConfig, Summary, Verdict};

fn invalid(e: impl std::fmt::Display) -> PyErr {
    Error::new(Kind::InvalidArgument, e).into()
}

/// A game as a dict: `number` (from 1), `red` (the engine that played Red: 0 or 1),
/// `result` (`1-0`, `0-1`, `1/2-1/2`), `ending` (in words), `moves` (ICCS) and `pgn`.
fn game_dict<'py>(
    py: Python<'py>,
    config: &MatchConfig,
    r: &GameReport,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("number", r.number)?;
    d.set_item("red", r.red)?;
    d.set_item("result", r.game.result.map_or("*", |g| g.token()))?;
    d.set_item("ending", xq_match::describe(config, r))?;
    let count = GameCount::of(r);
    d.set_item("ending_kind", count.as_ref().map(|c| c.ending.clone()))?;
    d.set_item("forfeit", count.and_then(|c| c.forfeit))?;
    let moves: Vec<String> = r.game.moves.iter().map(|m| m.mv.to_string()).collect();
    d.set_item("moves", moves)?;
    d.set_item("pgn", pgn_text(config, r).map_err(invalid)?)?;
    Ok(d)
}

/// The summary as a dict: the JSON `xq match -json` writes.
fn summary_dict<'py>(
    py: Python<'py>,
    config: &MatchConfig,
    s: &Summary,
) -> PyResult<Bound<'py, PyAny>> {
    let text = s.to_json(config.sprt.as_ref()).to_string();
    py.import("json")?.call_method1("loads", (text,))
}

/// A match's settings, from `xq match`'s (cutechess-cli's) arguments.
#[pyclass(module = "xq", name = "_MatchConfig", frozen)]
#[derive(Debug)]
pub struct PyMatchConfig {
    config: MatchConfig,
}

/// The games a report holds back from the Python side: what `play_pair` returned.
struct Played {
    reports: Vec<GameReport>,
}

#[pymethods]
impl PyMatchConfig {
    /// Reads `args` as `xq match` does (`["-engine", "cmd=xq", "name=a", ...]`).
    /// Raises InvalidArgument naming what is wrong.
    #[new]
    fn new(args: Vec<String>) -> PyResult<PyMatchConfig> {
        let m = parse_args(&args).map_err(invalid)?;
        Ok(PyMatchConfig { config: m.config })
    }

    /// The engines' names.
    #[getter]
    fn names(&self) -> (String, String) {
        (
            self.config.engines[0].name.clone(),
            self.config.engines[1].name.clone(),
        )
    }

    /// The pairs of games the match plays (the last may hold one game).
    #[getter]
    fn pairs(&self) -> u64 {
        let per = if self.config.repeat { 2 } else { 1 };
        self.config.games.div_ceil(per)
    }

    /// Plays pair `p` (from 0) with fresh engine processes and returns its games as
    /// dicts (`number`, `red`, `result`, `ending`, `moves`, `pgn`). The GIL is released
    /// while it plays. What a cluster's task runs.
    fn play_pair<'py>(&self, py: Python<'py>, p: u64) -> PyResult<Bound<'py, PyList>> {
        if p >= self.pairs() {
            return Err(invalid(format!(
                "pair {p}: the match has {} pairs",
                self.pairs()
            )));
        }
        let config = self.config.clone();
        let played = py.detach(move || {
            let mut seats = [
                Seat::new(config.engines[0].clone()),
                Seat::new(config.engines[1].clone()),
            ];
            let stop = AtomicBool::new(false);
            let reports =
                xq_match::play_pair(&config, &mut seats, p, &|| stop.load(Ordering::SeqCst));
            for s in &mut seats {
                s.close();
            }
            Played { reports }
        });
        let list = PyList::empty(py);
        for r in &played.reports {
            list.append(game_dict(py, &self.config, r)?)?;
        }
        Ok(list)
    }

    /// Plays the whole match on this machine (the settings' concurrency) and returns the
    /// summary dict; `on_game`, if given, is called with each game's dict and the summary
    /// so far (from this thread). The GIL is released between games.
    #[pyo3(signature = (on_game = None))]
    fn run<'py>(
        &self,
        py: Python<'py>,
        on_game: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let config = self.config.clone();
        let (tx, rx) = std::sync::mpsc::channel::<(GameReport, Summary)>();
        let handle = std::thread::spawn(move || {
            xq_match::run(&config, &mut |r, s| {
                let _ = tx.send((r.clone(), s.clone()));
            })
        });
        let rx = std::sync::Mutex::new(rx);
        loop {
            let got = py.detach(|| rx.lock().map_err(drop).and_then(|r| r.recv().map_err(drop)));
            let Ok((report, summary)) = got else { break };
            if let Some(cb) = &on_game {
                let game = game_dict(py, &self.config, &report)?;
                cb.call1((game, summary_dict(py, &self.config, &summary)?))?;
            }
        }
        let summary = py
            .detach(|| handle.join())
            .map_err(|_| invalid("the match stopped unexpectedly"))?
            .map_err(invalid)?;
        summary_dict(py, &self.config, &summary)
    }
}

/// The results of a match counted as they come (a cluster's driver adds each pair's
/// games): the pentanomial, the Elo and the SPRT, by `xq match`'s code.
#[pyclass(module = "xq", name = "_MatchTally")]
#[derive(Debug)]
pub struct MatchTally {
    config: MatchConfig,
    summary: Summary,
}

#[pymethods]
impl MatchTally {
    /// An empty tally for `config`.
    #[new]
    fn new(config: &PyMatchConfig) -> MatchTally {
        let c = config.config.clone();
        let summary = Summary {
            names: [c.engines[0].name.clone(), c.engines[1].name.clone()],
            ..Summary::default()
        };
        MatchTally { config: c, summary }
    }

    /// Adds a pair's games (dicts as `play_pair` returns them; unfinished ones are
    /// left out).
    fn add_pair(&mut self, games: Vec<Bound<'_, PyDict>>) -> PyResult<()> {
        let mut counts = Vec::new();
        for g in games {
            let get = |key: &str| -> PyResult<Bound<'_, PyAny>> {
                g.get_item(key)?
                    .ok_or_else(|| invalid(format!("a game without '{key}'")))
            };
            let result: String = get("result")?.extract()?;
            let Ok(result) = result.parse::<xq_movegen::GameResult>() else {
                continue;
            };
            counts.push(GameCount {
                red: get("red")?.extract()?,
                result,
                ending: get("ending_kind")?
                    .extract::<Option<String>>()?
                    .unwrap_or_default(),
                forfeit: get("forfeit")?.extract()?,
            });
        }
        self.summary.add_counts(&counts, self.config.sprt.as_ref());
        Ok(())
    }

    /// The summary dict so far.
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        summary_dict(py, &self.config, &self.summary)
    }

    /// Has the SPRT concluded (`"H0"`, `"H1"`), or None?
    #[getter]
    fn verdict(&self) -> Option<&'static str> {
        match self.summary.verdict {
            Some(Verdict::H0) => Some("H0"),
            Some(Verdict::H1) => Some("H1"),
            _ => None,
        }
    }
}
