//! `xq.Tablebase`: probing a directory of endgame tables (`xq-tablebase`); and the steps
//! of `xq.tablebase.generate`: the plan, one ending made in a directory, the log.

use crate::board::Board;
use crate::errors::{Error, Kind};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::path::PathBuf;
use xq_tablebase::log::{Log, Record};
use xq_tablebase::{
    assemble, keep, Answers, Ending, FilePieces, Kept, Part, PartSummary, Requests, TablePart,
    TableResult, Tablebases, Updates,
};

/// A directory of endgame tables written by `xq tb gen` (files `<ENDING>.xqtb`, and
/// the smaller `<ENDING>.xqwdl`, which `probe_wdl` reads when there is one), probed
/// lazily: a file is opened the first time a position of its ending is probed, and only
/// the blocks needed are read. The values ignore the 60-move rule and repetitions.
#[pyclass(module = "xq", frozen)]
#[derive(Debug)]
pub struct Tablebase {
    inner: Tablebases,
}

fn table_error(e: xq_tablebase::TablebaseError) -> PyErr {
    Error::new(Kind::InvalidTablebase, e).into()
}

#[pymethods]
impl Tablebase {
    #[new]
    fn new(path: PathBuf) -> PyResult<Tablebase> {
        let inner = Tablebases::open(&path).map_err(table_error)?;
        Ok(Tablebase { inner })
    }

    /// The endings found, e.g. ``["KNK", "KRK", "KRKA"]``.
    fn endings(&self) -> Vec<String> {
        self.inner.endings().iter().map(|e| e.to_string()).collect()
    }

    /// Win (1), draw (0) or loss (-1) for the side to move; None when the position's
    /// ending is not in the directory. Raises `InvalidTablebase` when its file is bad.
    fn probe_wdl(&self, py: Python<'_>, board: PyRef<'_, Board>) -> PyResult<Option<i32>> {
        let pos = board.game.position().clone();
        let wdl = py
            .detach(|| self.inner.probe_wdl(&pos))
            .map_err(table_error)?;
        Ok(wdl.map(TableResult::sign))
    }

    /// Distance to mate in plies for the side to move: positive when it mates, negative
    /// when it is mated, 0 for a draw or a side with no legal move (as python-chess's
    /// `probe_dtm`); None when the position's ending is not in the directory. Raises
    /// ValueError for a position won or lost by the rules of perpetual check and chase
    /// (tables where both sides have attacking pieces), which has no distance to mate.
    fn probe_dtm(&self, py: Python<'_>, board: PyRef<'_, Board>) -> PyResult<Option<i32>> {
        let pos = board.game.position().clone();
        let v = py
            .detach(|| self.inner.probe_dtm(&pos))
            .map_err(table_error)?;
        v.map(|v| {
            v.signed_plies().ok_or_else(|| {
                PyValueError::new_err(format!(
                    "{v}: no distance to mate (probe_wdl gives the result)"
                ))
            })
        })
        .transpose()
    }

    /// The rule that decides a win or loss by the rules of perpetual check and chase,
    /// as an `xq.Termination`: `PERPETUAL_CHECK` or `PERPETUAL_CHASE` (the ruling the
    /// loser's repetition gets), from the distance file when the directory has it, else
    /// from the WDL file. None for a mate, a draw, a position whose ending is not in the
    /// directory, and a rule result of a file that does not record the rule (a distance
    /// file of format version 3, a WDL file of version 4 or older). Raises
    /// `InvalidTablebase` when the file is bad.
    fn probe_rule<'py>(
        &self,
        py: Python<'py>,
        board: PyRef<'_, Board>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let pos = board.game.position().clone();
        let rule = py
            .detach(|| self.inner.probe_rule(&pos))
            .map_err(table_error)?;
        let Some(rule) = rule else {
            return Ok(None);
        };
        let termination = py.import("xq")?.getattr("Termination")?;
        termination.call1((rule.tag(),)).map(Some)
    }

    fn __repr__(&self) -> String {
        format!(
            "xq.Tablebase({:?}, {} tables)",
            self.inner.dir().display().to_string(),
            self.inner.endings().len()
        )
    }
}

fn ending(name: &str) -> PyResult<Ending> {
    name.parse()
        .map_err(|e| Error::new(Kind::InvalidArgument, format!("ending {name:?}: {e}")).into())
}

/// The endings `xq tb gen NAMES` makes, in its order (each after the tables it needs),
/// each with the endings its captures lead to: `[(name, [capture, ...]), ...]`.
#[pyfunction]
#[pyo3(signature = (names, max_positions=None))]
pub fn _tablebase_plan(
    names: Vec<String>,
    max_positions: Option<u64>,
) -> PyResult<Vec<(String, Vec<String>)>> {
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let endings = Ending::parse_list(&names)
        .map_err(|e| Error::new(Kind::InvalidArgument, format!("endings {names:?}: {e}")))?;
    Ok(Ending::plan(&endings, max_positions)
        .iter()
        .map(|e| {
            let captures = e.captures().iter().map(Ending::to_string).collect();
            (e.to_string(), captures)
        })
        .collect())
}

/// Makes the files of ending `name` in `directory`, where the tables its captures lead
/// to must be (`xq_tablebase::make`); the row of the generation log, as its CSV line.
#[pyfunction]
pub fn _tablebase_make(
    py: Python<'_>,
    directory: PathBuf,
    name: &str,
    threads: usize,
    verify: bool,
) -> PyResult<String> {
    let ending = ending(name)?;
    if threads == 0 {
        return Err(Error::new(Kind::InvalidArgument, "threads 0: at least 1").into());
    }
    py.detach(|| xq_tablebase::make(&directory, &ending, threads, verify, &|_| {}))
        .map(|made| made.record.to_csv())
        .map_err(table_error)
}

/// The log's row for a good table of `name` already in `directory` (status "kept"), or
/// None when there is no such file or it is not good (then it is made again, as `xq tb
/// gen` does).
#[pyfunction]
pub fn _tablebase_kept(directory: PathBuf, name: &str) -> PyResult<Option<String>> {
    let ending = ending(name)?;
    let Ok(tb) = Tablebases::open(&directory) else {
        return Ok(None);
    };
    // A table of format version 3 where both sides attack, or a damaged one, is made
    // again; a WDL file of version 4 or older is written again from its table.
    match keep(&directory, &tb, &ending, 1).map_err(table_error)? {
        Kept::Good { record, .. } => Ok(Some(record.to_csv())),
        Kept::Missing | Kept::Old | Kept::Bad(_) => Ok(None),
    }
}

/// Appends `row` (a CSV line of `_tablebase_make` or `_tablebase_kept`) to the generation
/// log of `directory` (`endings.csv`, created when missing) with `note` when it has none;
/// the row as a dict.
#[pyfunction]
pub fn _tablebase_log<'py>(
    py: Python<'py>,
    directory: PathBuf,
    row: &str,
    note: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let mut r: Record = row
        .parse()
        .map_err(|e| Error::new(Kind::InvalidArgument, e))?;
    Log::open(&directory, note)
        .and_then(|log| log.append(&r))
        .map_err(table_error)?;
    if r.note.is_empty() {
        r.note = note.to_owned();
    }
    let d = PyDict::new(py);
    d.set_item("ending", r.ending.to_string())?;
    d.set_item("status", r.status.name())?;
    d.set_item("positions", r.positions)?;
    d.set_item("wins", r.wins)?;
    d.set_item("draws", r.draws)?;
    d.set_item("losses", r.losses)?;
    d.set_item("rule_decided", r.rule_decided)?;
    d.set_item("chase_decided", r.chase_decided)?;
    d.set_item("longest_mate", r.longest_mate)?;
    d.set_item("gen_seconds", r.gen_seconds)?;
    d.set_item("verify_seconds", r.verify_seconds)?;
    d.set_item("write_seconds", r.write_seconds)?;
    d.set_item("threads", r.threads)?;
    d.set_item("bytes", r.bytes)?;
    d.set_item("finished", r.finished)?;
    d.set_item("note", r.note)?;
    Ok(d)
}

/// The number of parts `xq.tablebase.generate(..., split_above=N)` makes ending `name`
/// in: `ceil(numbers / split_above)` for an ending of more numbers (both sides to move)
/// than `split_above` where one side has no attacker, else 1 (made whole).
#[pyfunction]
pub fn _tablebase_parts(name: &str, split_above: u64) -> PyResult<usize> {
    let ending = ending(name)?;
    let numbers = xq_tablebase::table_size(&ending);
    if Part::can_split(&ending).is_err() || numbers <= split_above {
        return Ok(1);
    }
    Ok(numbers.div_ceil(split_above.max(1)) as usize)
}

/// One part of an ending's table generated in parts (`xq_tablebase::Part`): the state a
/// Ray actor of `xq.tablebase.generate(..., split_above=N)` keeps. The tables its
/// captures lead to are read from their distance files in `directory` a block at a time
/// (`Part::reading`: the files are opened when the part is made, and kept open); messages
/// go in and out as bytes.
#[pyclass(module = "xq")]
#[derive(Debug)]
pub struct _TablebasePart {
    part: Option<Part>,
    done: Option<TablePart>,
}

fn part_gone() -> PyErr {
    Error::new(
        Kind::InvalidArgument,
        "the part's levels are over (finish was called)",
    )
    .into()
}

/// Each message of `messages` read by `read` (`PartSummary::from_bytes`, ...).
fn from_bytes<T>(
    messages: &[Vec<u8>],
    read: fn(&[u8]) -> Result<T, xq_tablebase::TablebaseError>,
) -> Result<Vec<T>, xq_tablebase::TablebaseError> {
    messages.iter().map(|m| read(m)).collect()
}

fn split_error(e: xq_tablebase::TablebaseError) -> PyErr {
    Error::new(Kind::InvalidArgument, e).into()
}

impl _TablebasePart {
    fn finished(&self) -> PyResult<&TablePart> {
        self.done.as_ref().ok_or_else(|| {
            Error::new(Kind::InvalidArgument, "the part's levels are not over").into()
        })
    }
}

#[pymethods]
impl _TablebasePart {
    #[new]
    fn new(
        py: Python<'_>,
        directory: PathBuf,
        name: &str,
        part: usize,
        parts: usize,
        threads: usize,
    ) -> PyResult<_TablebasePart> {
        let ending = ending(name)?;
        Part::can_split(&ending).map_err(split_error)?;
        let part = py.detach(|| Part::reading(&ending, part, parts, &directory, threads));
        Ok(_TablebasePart {
            part: Some(part.map_err(|e| match e {
                xq_tablebase::TablebaseError::Split { .. } => split_error(e),
                e => table_error(e),
            })?),
            done: None,
        })
    }

    /// Step 1 over the part's positions.
    fn start(&self, py: Python<'_>) -> PyResult<()> {
        let part = self.part.as_ref().ok_or_else(part_gone)?;
        py.detach(|| part.start()).map_err(table_error)
    }

    /// Step 2 at `level`: `(decided, furthest, [updates for part 0, part 1, ...])`, the
    /// updates as bytes.
    fn level<'py>(
        &self,
        py: Python<'py>,
        level: u16,
    ) -> PyResult<(u64, u16, Vec<Bound<'py, PyBytes>>)> {
        let part = self.part.as_ref().ok_or_else(part_gone)?;
        let found = py.detach(|| part.level(level));
        let updates = found
            .updates
            .iter()
            .map(|u| PyBytes::new(py, &u.to_bytes()))
            .collect();
        Ok((found.decided, found.furthest, updates))
    }

    /// Applies updates (bytes of `level`) from other parts.
    fn receive(&self, py: Python<'_>, updates: Vec<Vec<u8>>) -> PyResult<()> {
        let part = self.part.as_ref().ok_or_else(part_gone)?;
        py.detach(|| {
            for bytes in &updates {
                part.receive(&Updates::from_bytes(bytes)?)?;
            }
            Ok(())
        })
        .map_err(split_error)
    }

    /// Ends the levels; the part's summary as bytes.
    fn finish<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let part = self.part.take().ok_or_else(part_gone)?;
        let done = py.detach(|| part.finish());
        let summary = done.summary().to_bytes();
        self.done = Some(done);
        Ok(PyBytes::new(py, &summary))
    }

    /// The rounds of the forward pass over the part's positions.
    fn verify_rounds(&self) -> PyResult<usize> {
        Ok(self.finished()?.verify_rounds())
    }

    /// For each part, the entries it holds whose values this part needs in round
    /// `round` of the forward pass, as bytes.
    fn requests<'py>(&self, py: Python<'py>, round: usize) -> PyResult<Vec<Bound<'py, PyBytes>>> {
        let done = self.finished()?;
        let requests = py.detach(|| done.requests(round));
        Ok(requests
            .iter()
            .map(|r| PyBytes::new(py, &r.to_bytes()))
            .collect())
    }

    /// The values of the entries asked for (bytes of `requests`), as bytes.
    fn answer<'py>(&self, py: Python<'py>, requests: Vec<u8>) -> PyResult<Bound<'py, PyBytes>> {
        let done = self.finished()?;
        let answers = py
            .detach(|| done.answer(&Requests::from_bytes(&requests)?))
            .map_err(split_error)?;
        Ok(PyBytes::new(py, &answers.to_bytes()))
    }

    /// Checks the positions of round `round` against their moves, given the other parts'
    /// answers (bytes of `answer`); the legal positions checked. Raises
    /// `InvalidTablebase` for a position whose value does not follow from its moves.
    fn check(&self, py: Python<'_>, round: usize, answers: Vec<Vec<u8>>) -> PyResult<u64> {
        let done = self.finished()?;
        py.detach(|| done.check(round, &from_bytes(&answers, Answers::from_bytes)?))
            .map_err(|e| match e {
                xq_tablebase::TablebaseError::Split { .. } => split_error(e),
                e => table_error(e),
            })
    }

    /// The part's blocks of both files, given every part's summary in order, as bytes.
    fn pieces<'py>(
        &self,
        py: Python<'py>,
        summaries: Vec<Vec<u8>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let done = self.finished()?;
        let pieces = py
            .detach(|| done.pieces(&from_bytes(&summaries, PartSummary::from_bytes)?))
            .map(|p| p.to_bytes())
            .map_err(split_error)?;
        Ok(PyBytes::new(py, &pieces))
    }
}

/// The distance file and the WDL file of an ending made in parts, from every part's
/// summary and pieces in order, and the row of the generation log (as a CSV line) with
/// the times and threads given (`verify_seconds` None: not checked): `(distance, wdl,
/// row)`.
#[pyfunction]
#[pyo3(signature = (summaries, pieces, gen_seconds, verify_seconds, write_seconds, threads))]
pub fn _tablebase_assemble<'py>(
    py: Python<'py>,
    summaries: Vec<Vec<u8>>,
    pieces: Vec<Vec<u8>>,
    gen_seconds: f64,
    verify_seconds: Option<f64>,
    write_seconds: f64,
    threads: usize,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>, String)> {
    let files = py
        .detach(|| {
            assemble(
                &from_bytes(&summaries, PartSummary::from_bytes)?,
                &from_bytes(&pieces, FilePieces::from_bytes)?,
            )
        })
        .map_err(split_error)?;
    let record = Record {
        gen_seconds: Some(gen_seconds),
        verify_seconds,
        write_seconds: Some(write_seconds),
        threads: Some(threads),
        ..files.record()
    };
    Ok((
        PyBytes::new(py, &files.distance),
        PyBytes::new(py, &files.wdl),
        record.to_csv(),
    ))
}
