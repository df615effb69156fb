//! `xq.annotate`: every move of a game judged by the engine, as `xq annotate` judges it
//! (`xq-analysis`): the same fields as `xq annotate --json`, each side's totals, the
//! score graph's values.

use crate::args::{self, limit_error};
use crate::board::{notation, Board};
use crate::errors::{Error, Kind};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::time::Duration;
use xq_analysis::{Class, Field, GameReport, Judge, Measure, Tally};
use xq_search::{Limits, Searcher};

/// A side's totals as a dict: `moves`, `average_loss`, `inaccuracies`, `mistakes`,
/// `blunders`.
fn tally<'py>(py: Python<'py>, t: &Tally) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("moves", t.moves)?;
    d.set_item("average_loss", t.average())?;
    d.set_item("inaccuracies", t.count(Class::Inaccuracy))?;
    d.set_item("mistakes", t.count(Class::Mistake))?;
    d.set_item("blunders", t.count(Class::Blunder))?;
    Ok(d)
}

/// `xq.annotate(board, *, depth=None, nodes=None, movetime=None, by="cp",
/// notation="chinese", hash_mb=16, tablebases=None)`: judges every move of `board`'s
/// game (its moves from its start) as `xq annotate` does, searching every position once
/// to the limit (`depth`, `nodes`, or `movetime` seconds; 0.5 seconds when none is
/// given). `by` is `"cp"` (centipawns lost, scores clamped to ±1000) or `"wdl"` (expected
/// result lost, per mille); `tablebases` a directory of `xq tb gen` whose positions are
/// valued exactly. Returns a dict: `moves` (one dict a move, with `ply` and the fields of
/// `xq annotate --json`: `side`, `move`, `notation`, `best`, `score`, `cp`, `loss`,
/// `class`, `wdl`, `pv`, ...), `red` and `black` (the totals), `values` (each
/// position's score, Red's view, clamped) and `summary` (the comment `xq annotate`
/// writes). The GIL is released while it searches.
///
/// Raises InvalidLimit for a bad limit, InvalidArgument for a bad `by` or `hash_mb`,
/// InvalidTablebase for tables that cannot be read, ValueError for a bad notation.
#[pyfunction]
#[pyo3(signature = (board, *, depth = None, nodes = None, movetime = None, by = "cp", notation = "chinese", hash_mb = None, tablebases = None))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments
pub fn annotate<'py>(
    py: Python<'py>,
    board: PyRef<'py, Board>,
    depth: Option<&Bound<'py, PyAny>>,
    nodes: Option<&Bound<'py, PyAny>>,
    movetime: Option<&Bound<'py, PyAny>>,
    by: &str,
    notation: &str,
    hash_mb: Option<&Bound<'py, PyAny>>,
    tablebases: Option<std::path::PathBuf>,
) -> PyResult<Bound<'py, PyDict>> {
    let written = self::notation(notation)?;
    let measure: Measure = by
        .parse()
        .map_err(|e: xq_analysis::UnknownMeasure| args::argument_error(e.to_string()))?;
    let depth = args::opt_int_in("depth", depth, 1, i128::from(u32::MAX), &limit_error)?;
    let nodes = args::opt_int_in("nodes", nodes, 1, i128::from(u64::MAX), &limit_error)?;
    let movetime = args::seconds("movetime", movetime, true)?;
    let hash = args::opt_int_in("hash_mb", hash_mb, 1, 1 << 20, &args::argument_error)?;
    let (limits, limit) = match (depth, nodes, movetime) {
        (Some(d), _, _) => (Limits::depth(d as u32), format!("depth {d}")),
        (None, Some(n), _) => (Limits::nodes(n as u64), format!("nodes {n}")),
        (None, None, t) => {
            let t = t.unwrap_or(Duration::from_millis(500));
            (
                Limits::movetime(t),
                format!("movetime {} ms", t.as_millis()),
            )
        }
    };
    let tables = match &tablebases {
        Some(dir) => Some(
            xq_search::engine::open_tablebases(&dir.to_string_lossy())
                .map_err(|e| Error::new(Kind::InvalidTablebase, e))?,
        ),
        None => None,
    };
    let game = board.game.clone();
    let start = game.start().clone();
    let moves = game.moves().to_vec();
    let hash_mib = hash.map_or(16, |h| h as usize);
    let report = py.detach(|| {
        let mut searcher = Searcher::try_new(hash_mib).map_err(|e| e.to_string())?;
        searcher.set_tablebases(tables);
        let analysis = Judge::new(measure)
            .analyse(&mut searcher, &start, &moves, &limits, &|| {})
            .map_err(|e| e.to_string())?;
        Ok::<_, String>(GameReport::new(&start, &moves, measure, analysis))
    });
    let report = report.map_err(|e| args::argument_error(format!("hash_mb {hash_mib}: {e}")))?;
    let out = PyDict::new(py);
    let list = PyList::empty(py);
    for (i, r) in report.moves.iter().enumerate() {
        let d = PyDict::new(py);
        d.set_item("ply", i + 1)?;
        for (name, field) in r.fields(written) {
            match field {
                Field::Int(n) => d.set_item(name, n)?,
                Field::Text(t) => d.set_item(name, t)?,
                Field::None => d.set_item(name, py.None())?,
                Field::Moves(pv) => {
                    let pv: Vec<String> = pv.iter().map(|m| m.to_string()).collect();
                    d.set_item(name, pv)?
                }
                Field::Chances(w) => d.set_item(name, (w[0], w[1], w[2]))?,
            }
        }
        list.append(d)?;
    }
    out.set_item("moves", list)?;
    out.set_item("red", tally(py, &report.red)?)?;
    out.set_item("black", tally(py, &report.black)?)?;
    out.set_item("values", report.values())?;
    out.set_item("by", measure.name())?;
    out.set_item("summary", report.summary(&limit))?;
    Ok(out)
}
