//! `xq.Tablebase`: probing a directory of endgame tables (`xq-tablebase`).

use crate::board::Board;
use crate::errors::{Error, Kind};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::path::PathBuf;
use xq_tablebase::{TableResult, Tablebases};

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

    fn __repr__(&self) -> String {
        format!(
            "xq.Tablebase({:?}, {} tables)",
            self.inner.dir().display().to_string(),
            self.inner.endings().len()
        )
    }
}
