//! The machine-learning calls: the action index both ways, the batch calls that cross
//! into Rust once for many boards, and `xq datagen` files (text or binary) as arrays. The tables and the
//! fills are in `tensor`.
//!
//! The arrays are filled in Rust inside a `bytearray` and handed to NumPy with
//! `numpy.ndarray(shape, dtype, buffer)` (no copy, writable), so the native module needs no NumPy headers
//! and NumPy is imported only by the calls that return arrays.

use crate::board::{self, Board};
use crate::errors::{value_error, Error, Kind};
use crate::tensor::{
    action, actions, array, fill_mask, fill_planes, flips, Dtype, N_ACTIONS, N_PLANES, PLANE_BYTES,
};
use crate::types::Move;
use pyo3::prelude::*;
use pyo3::types::PyList;
use xq_movegen::Game;
use xq_train::data::DataErrorKind;

/// `xq.move_to_index(move)`: the action index of a move (0..2085); see `xq.N_ACTIONS`.
///
/// Raises ValueError for a move no piece can ever make (`a0b1` is not in the table).
#[pyfunction]
pub fn move_to_index(r#move: &Move) -> PyResult<usize> {
    action(r#move.inner).ok_or_else(|| {
        value_error(format!(
            "no piece can ever move {}: it has no action index",
            r#move.inner
        ))
    })
}

/// `xq.index_to_move(index)`: the move of an action index (0..2085).
///
/// Raises ValueError for an index out of range.
#[pyfunction]
pub fn index_to_move(index: i64) -> PyResult<Move> {
    usize::try_from(index)
        .ok()
        .and_then(|i| actions().moves.get(i))
        .map(|&m| Move::of(m))
        .ok_or_else(|| {
            value_error(format!(
                "{index} is not an action index (0 to {})",
                N_ACTIONS - 1
            ))
        })
}

/// `xq.mirror_index(index)`: the action of the move mirrored across the river
/// (`move_to_index(index_to_move(i).mirror())`), as in `Board.mirror()`.
#[pyfunction]
pub fn mirror_index(index: i64) -> PyResult<usize> {
    usize::try_from(index)
        .ok()
        .and_then(|i| actions().mirrored.get(i))
        .map(|&i| i as usize)
        .ok_or_else(|| {
            value_error(format!(
                "{index} is not an action index (0 to {})",
                N_ACTIONS - 1
            ))
        })
}

/// `xq.action_moves()`: every move of the action table, in index order (sorted by origin
/// square, then destination square).
#[pyfunction]
pub fn action_moves() -> Vec<Move> {
    actions().moves.iter().map(|&m| Move::of(m)).collect()
}

/// `xq.legal_masks(boards, *, relative=False)`: the legal masks of many boards in one
/// call, a bool array of shape (len(boards), 2086).
#[pyfunction]
#[pyo3(signature = (boards, *, relative = false))]
pub fn legal_masks<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    relative: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let boards = board::boards(boards)?;
    let n = boards.len();
    array(py, Dtype::Bool, &[n, N_ACTIONS], n * N_ACTIONS, |buf| {
        for (b, out) in boards.iter().zip(buf.chunks_exact_mut(N_ACTIONS)) {
            fill_mask(b.pos(), relative, out);
        }
    })
}

/// `xq.planes_batch(boards, *, relative=False)`: the planes of many boards in one call,
/// a float32 array of shape (len(boards), 18, 10, 9).
#[pyfunction]
#[pyo3(signature = (boards, *, relative = false))]
pub fn planes_batch<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    relative: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let boards = board::boards(boards)?;
    let n = boards.len();
    array(
        py,
        Dtype::Float32,
        &[n, N_PLANES, 10, 9],
        n * PLANE_BYTES,
        |buf| {
            for (b, out) in boards.iter().zip(buf.chunks_exact_mut(PLANE_BYTES)) {
                fill_planes(&b.game, relative, out);
            }
        },
    )
}

/// `xq.push_batch(boards, indices, *, relative=False)`: plays on each board the move of
/// its action index, in one call. With `relative=True` an index is read in the frame of
/// the board's side to move (mirrored when Black is to move), as `legal_mask(relative=True)`
/// gives it.
///
/// All or nothing: if any move is illegal (or an index is out of range) no board is
/// changed and IllegalMove (ValueError for a bad index) names the first bad board.
#[pyfunction]
#[pyo3(signature = (boards, indices, *, relative = false))]
pub fn push_batch(
    boards: &Bound<'_, PyAny>,
    indices: &Bound<'_, PyAny>,
    relative: bool,
) -> PyResult<()> {
    let list: Vec<Bound<'_, PyAny>> = match boards.cast::<PyList>() {
        Ok(l) => l.iter().collect(),
        Err(_) => boards.try_iter()?.collect::<PyResult<_>>()?,
    };
    let indices: Vec<i64> = match indices.call_method0("tolist") {
        Ok(l) => l.extract()?,
        Err(_) => indices.extract()?,
    };
    if indices.len() != list.len() {
        return Err(value_error(format!(
            "{} boards but {} indices",
            list.len(),
            indices.len()
        )));
    }
    let mut refs: Vec<PyRefMut<'_, Board>> = Vec::with_capacity(list.len());
    let mut moves = Vec::with_capacity(list.len());
    for (i, (b, &index)) in list.iter().zip(&indices).enumerate() {
        let b = b.extract::<PyRefMut<'_, Board>>()?;
        let a = usize::try_from(index)
            .ok()
            .filter(|&a| a < N_ACTIONS)
            .ok_or_else(|| {
                value_error(format!(
                    "board {i}: {index} is not an action index (0 to {})",
                    N_ACTIONS - 1
                ))
            })?;
        let a = if flips(b.pos(), relative) {
            actions().mirrored[a] as usize
        } else {
            a
        };
        let m = actions().moves[a];
        if !xq_movegen::is_legal(b.pos(), m) {
            let e = board::illegal(b.pos(), m);
            return Err(
                Error::new(Kind::IllegalMove, format!("board {i}: {}", PyErr::from(e))).into(),
            );
        }
        refs.push(b);
        moves.push(m);
    }
    for (b, m) in refs.iter_mut().zip(moves) {
        b.game
            .play(m)
            .map_err(|e| Error::new(Kind::IllegalMove, e))?;
    }
    Ok(())
}

/// `xq.read_datagen(path, *, planes=False)`: an `xq datagen` file, text (`FEN | score |
/// result` per line, `#` comments) or binary (`--format binary`, told by its first
/// bytes), as arrays: a dict with `"fen"` (a list of str), `"score"` (int32, centipawns
/// from Red's point of view), `"result"` (float32: 1.0 Red won, 0.5 draw, 0.0 Black
/// won), `"game"` (int32, the game of each position, from 0) and, with `planes=True`,
/// `"planes"` (float32, (n, 18, 10, 9), as `Board.planes()` of each FEN with no
/// history). A binary file gives the positions its text form would hold (and every
/// trainer reads): searched, not in check, the move played not a capture, the score not
/// a mate. The games are `xq_train::data`'s: a text file's lines are cut where the ply
/// stops rising or the result changes.
///
/// Raises InvalidDataFile naming the first bad line (or byte, for a binary file),
/// OSError if the file cannot be read.
#[pyfunction]
#[pyo3(signature = (path, *, planes = false))]
pub fn read_datagen<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
    planes: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let mut samples = Vec::new();
    let mut games: Vec<i32> = Vec::new();
    let mut game = 0i32;
    let read = xq_train::data::read_file(&path, |positions| {
        for s in positions {
            samples.push(s.clone());
            games.push(game);
        }
        game += 1;
    });
    if let Err(e) = read {
        return Err(match e.kind {
            DataErrorKind::Io(io) => io.into(),
            DataErrorKind::Line { line, error } => Error::new(
                Kind::InvalidDataFile,
                format!("{}, line {line}: {error}", path.display()),
            )
            .into(),
            _ => Error::new(Kind::InvalidDataFile, e).into(),
        });
    }
    let n = samples.len();
    let out = pyo3::types::PyDict::new(py);
    let fens: Vec<String> = samples.iter().map(|s| s.pos.to_fen()).collect();
    out.set_item("fen", fens)?;
    out.set_item(
        "score",
        array(py, Dtype::Int32, &[n], n * 4, |buf| {
            for (c, s) in buf.chunks_exact_mut(4).zip(&samples) {
                c.copy_from_slice(&s.score.to_ne_bytes());
            }
        })?,
    )?;
    out.set_item(
        "result",
        array(py, Dtype::Float32, &[n], n * 4, |buf| {
            for (c, s) in buf.chunks_exact_mut(4).zip(&samples) {
                c.copy_from_slice(&(s.result as f32).to_ne_bytes());
            }
        })?,
    )?;
    out.set_item(
        "game",
        array(py, Dtype::Int32, &[n], n * 4, |buf| {
            for (c, g) in buf.chunks_exact_mut(4).zip(&games) {
                c.copy_from_slice(&g.to_ne_bytes());
            }
        })?,
    )?;
    if planes {
        out.set_item(
            "planes",
            array(
                py,
                Dtype::Float32,
                &[n, N_PLANES, 10, 9],
                n * PLANE_BYTES,
                |buf| {
                    for (c, s) in buf.chunks_exact_mut(PLANE_BYTES).zip(&samples) {
                        fill_planes(&Game::new(s.pos.clone()), false, c);
                    }
                },
            )?,
        )?;
    }
    Ok(out.into_any())
}

/// For `bench/bench.py`: the seconds the work of `legal_masks` and `planes_batch` takes
/// inside Rust for these boards (best of `repeats`), with no Python object made; the
/// difference from the two calls is the cost of crossing into Python.
#[pyfunction]
pub fn _rust_batch_seconds(
    py: Python<'_>,
    boards: &Bound<'_, PyAny>,
    repeats: u32,
) -> PyResult<f64> {
    let games: Vec<Game> = board::boards(boards)?
        .iter()
        .map(|b| b.game.clone())
        .collect();
    let seconds = py.detach(move || {
        let n = games.len();
        let mut masks = vec![0u8; n * N_ACTIONS];
        let mut planes = vec![0u8; n * PLANE_BYTES];
        let mut best = f64::INFINITY;
        for _ in 0..repeats.max(1) {
            let start = std::time::Instant::now();
            masks.fill(0);
            for (g, out) in games.iter().zip(masks.chunks_exact_mut(N_ACTIONS)) {
                fill_mask(g.position(), false, out);
            }
            for (g, out) in games.iter().zip(planes.chunks_exact_mut(PLANE_BYTES)) {
                fill_planes(g, false, out);
            }
            std::hint::black_box((&masks, &planes));
            best = best.min(start.elapsed().as_secs_f64());
        }
        best
    });
    Ok(seconds)
}
