//! The tensors of machine learning: the fixed action index of every move a piece can ever
//! make, and the legal-move masks and board planes written into byte buffers.
//!
//! The arrays are filled in Rust inside a `bytearray` and handed to NumPy with
//! `numpy.ndarray(shape, dtype, buffer)` (no copy, writable), so the native module needs no NumPy headers
//! and NumPy is imported only by the calls that return arrays.

use pyo3::exceptions::PyImportError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyTuple};
use std::sync::OnceLock;
use xq_core::{Color, Piece, PieceKind, Position, Square};
use xq_movegen::rules::{move_rule_plies, NO_CAPTURE_DRAW_PLIES};
use xq_movegen::{legal_moves, Game};

/// The number of actions: every (from, to) pair a piece of either colour can ever move.
pub const N_ACTIONS: usize = 2086;
/// The number of planes of `Board.planes()`.
pub const N_PLANES: usize = 18;
pub const PLANE: usize = 90;

/// The action table: the moves in index order and the index of every (from, to) pair.
pub struct Actions {
    pub moves: Vec<xq_core::Move>,
    /// `index[from * 90 + to]`, -1 for a pair no piece can move.
    pub index: Vec<i16>,
    /// The index of each action's mirror across the river.
    pub mirrored: Vec<u16>,
}

/// Can some piece of either colour move from `a` to `b` by the rules of movement,
/// on a board where nothing is in the way? Chariots and cannons along ranks and files
/// (which covers the general's and the soldiers' steps), horses by their jump,
/// advisors and elephants between the points they can stand on (`Piece::can_stand_on`).
fn reachable(a: Square, b: Square) -> bool {
    let df = b.file().index() as i32 - a.file().index() as i32;
    let dr = b.rank().index() as i32 - a.rank().index() as i32;
    let (fa, ra) = (df.abs(), dr.abs());
    let both = |kind| {
        Color::ALL.iter().any(|&c| {
            let p = Piece::new(c, kind);
            p.can_stand_on(a) && p.can_stand_on(b)
        })
    };
    (a != b && (df == 0 || dr == 0))
        || (fa, ra) == (1, 2)
        || (fa, ra) == (2, 1)
        || ((fa, ra) == (1, 1) && both(PieceKind::Advisor))
        || ((fa, ra) == (2, 2) && both(PieceKind::Elephant))
}

pub fn actions() -> &'static Actions {
    static ACTIONS: OnceLock<Actions> = OnceLock::new();
    ACTIONS.get_or_init(|| {
        let mut moves = Vec::with_capacity(N_ACTIONS);
        let mut index = vec![-1i16; PLANE * PLANE];
        for a in Square::ALL {
            for b in Square::ALL {
                if reachable(a, b) {
                    index[a.index() * PLANE + b.index()] = moves.len() as i16;
                    moves.push(xq_core::Move::new(a, b));
                }
            }
        }
        let mirrored = moves
            .iter()
            .map(|m| {
                let f = m.flip_vertical();
                index[f.from().index() * PLANE + f.to().index()] as u16
            })
            .collect();
        Actions {
            moves,
            index,
            mirrored,
        }
    })
}

/// The action index of a move, if some piece can ever make it.
pub fn action(m: xq_core::Move) -> Option<usize> {
    let i = actions().index[m.from().index() * PLANE + m.to().index()];
    usize::try_from(i).ok()
}

/// The action of a move in the frame asked for: mirrored when `flip`. Every legal move of
/// a position a game can reach is an action (`reachable` is a superset of the rules of
/// movement); in a composed position (`Board(fen, strict=False)`) an advisor or an
/// elephant off its points makes moves no game has, which have none.
pub fn action_in(m: xq_core::Move, flip: bool) -> Option<usize> {
    let i = action(m)?;
    Some(if flip {
        actions().mirrored[i] as usize
    } else {
        i
    })
}

/// Does `relative` ask to see this board mirrored (Black to move)?
pub fn flips(pos: &Position, relative: bool) -> bool {
    relative && pos.side_to_move() == Color::Black
}

/// `numpy`, imported once, or an ImportError that says how to get it.
pub fn numpy(py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
    static NUMPY: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    NUMPY
        .get_or_try_init(py, || {
            py.import("numpy").map(Bound::unbind).map_err(|_| {
                PyImportError::new_err(
                    "xq's machine-learning helpers need NumPy: pip install numpy (or xq-xiangqi[numpy])",
                )
            })
        })
        .map(|m| m.bind(py))
}

/// The element types of the arrays the package makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dtype {
    /// `numpy.bool_`: masks, `dones`.
    Bool,
    /// `numpy.int8`: the environments' masks, winners.
    Int8,
    /// `numpy.int32`: scores and game numbers of training data.
    Int32,
    /// `numpy.int64`: action indices.
    Int64,
    /// `numpy.float32`: planes, observations, rewards, results.
    Float32,
}

impl Dtype {
    const ALL: [Dtype; 5] = [
        Dtype::Bool,
        Dtype::Int8,
        Dtype::Int32,
        Dtype::Int64,
        Dtype::Float32,
    ];

    /// NumPy's name for it.
    fn name(self) -> &'static str {
        match self {
            Dtype::Bool => "bool_",
            Dtype::Int8 => "int8",
            Dtype::Int32 => "int32",
            Dtype::Int64 => "int64",
            Dtype::Float32 => "float32",
        }
    }
}

/// `numpy.ndarray` and the dtypes of [`Dtype::ALL`], looked up once: the environments
/// make two arrays a step, and the lookups by name (a new Python string and a dictionary
/// search each) stood out in the profile of an observation.
struct NumpyTypes {
    ndarray: Py<PyAny>,
    /// In the order of [`Dtype::ALL`] (a `Dtype`'s discriminant).
    dtypes: Vec<Py<PyAny>>,
}

fn numpy_types(py: Python<'_>) -> PyResult<&NumpyTypes> {
    static TYPES: PyOnceLock<NumpyTypes> = PyOnceLock::new();
    TYPES.get_or_try_init(py, || {
        let np = numpy(py)?;
        Ok(NumpyTypes {
            ndarray: np.getattr("ndarray")?.unbind(),
            dtypes: Dtype::ALL
                .iter()
                .map(|d| np.getattr(d.name()).map(Bound::unbind))
                .collect::<PyResult<_>>()?,
        })
    })
}

/// `numpy.ndarray(shape, dtype, buffer)`: one call where `frombuffer(...).reshape(...)`
/// takes two (about half the time for the small arrays of the environments).
fn ndarray_over<'py>(
    py: Python<'py>,
    dtype: Dtype,
    shape: &[usize],
    bytes: &Bound<'py, PyByteArray>,
) -> PyResult<Bound<'py, PyAny>> {
    let types = numpy_types(py)?;
    let dtype = &types.dtypes[dtype as usize];
    types
        .ndarray
        .bind(py)
        .call1((PyTuple::new(py, shape)?, dtype.bind(py), bytes))
}

/// A NumPy array of `dtype` and `shape` over a new `bytearray` of `len` bytes that
/// `fill` writes (writable, no copy).
pub fn array<'py>(
    py: Python<'py>,
    dtype: Dtype,
    shape: &[usize],
    len: usize,
    fill: impl FnOnce(&mut [u8]),
) -> PyResult<Bound<'py, PyAny>> {
    let mut fill = Some(fill);
    let bytes = PyByteArray::new_with(py, len, |buf| {
        if let Some(f) = fill.take() {
            f(buf);
        }
        Ok(())
    })?;
    ndarray_over(py, dtype, shape, &bytes)
}

/// A NumPy array of `dtype` and `shape` over a new zeroed `bytearray` of `len` bytes,
/// and the bytearray, for a caller that writes into it again later.
pub fn array_over<'py>(
    py: Python<'py>,
    dtype: Dtype,
    shape: &[usize],
    len: usize,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyByteArray>)> {
    let bytes = PyByteArray::new_with(py, len, |_| Ok(()))?;
    let array = ndarray_over(py, dtype, shape, &bytes)?;
    Ok((array, bytes))
}

/// Writes the legal mask of `board` into `out` (one byte per action).
pub fn fill_mask(pos: &Position, relative: bool, out: &mut [u8]) {
    for_each_legal_action(pos, relative, |i| out[i] = 1);
}

/// Calls `f` with the action index of each legal move of `pos` (mirrored when `relative`
/// asks for Black's view): the mask's ones.
pub fn for_each_legal_action(pos: &Position, relative: bool, mut f: impl FnMut(usize)) {
    let flip = flips(pos, relative);
    for m in legal_moves(pos) {
        if let Some(i) = action_in(m, flip) {
            f(i);
        }
    }
}

/// How many times the current position of `game` occurred before (since the last
/// capture; 0 for a first occurrence).
pub fn earlier_occurrences(game: &Game) -> usize {
    let keys = game.keys();
    let n = keys.len() - 1;
    let reversible = (game.position().halfmove_clock() as usize).min(n);
    (n - reversible..n)
        .rev()
        .skip(1)
        .step_by(2)
        .filter(|&i| keys[i] == keys[n])
        .count()
}

/// Writes the planes of a game's current position into `out` (native-endian f32).
pub fn fill_planes(game: &Game, relative: bool, out: &mut [u8]) {
    let pos = game.position();
    let flip = flips(pos, relative);
    let mut planes = [0f32; N_PLANES * PLANE];
    for sq in Square::ALL {
        if let Some(p) = pos.piece_on(sq) {
            let (sq, mine) = if flip {
                (sq.flip_vertical(), p.color == Color::Black)
            } else {
                (sq, p.color == Color::Red)
            };
            let plane = p.kind.index() + if mine { 0 } else { PieceKind::COUNT };
            planes[plane * PLANE + sq.index()] = 1.0;
        }
    }
    let constant = |planes: &mut [f32], plane: usize, v: f32| {
        planes[plane * PLANE..(plane + 1) * PLANE].fill(v);
    };
    if pos.side_to_move() == Color::Red {
        constant(&mut planes, 14, 1.0);
    }
    let earlier = earlier_occurrences(game);
    if earlier >= 1 {
        constant(&mut planes, 15, 1.0);
    }
    if earlier >= 2 {
        constant(&mut planes, 16, 1.0);
    }
    let plies = move_rule_plies(pos.halfmove_clock(), game.checks()).min(NO_CAPTURE_DRAW_PLIES);
    constant(&mut planes, 17, plies as f32 / NO_CAPTURE_DRAW_PLIES as f32);
    for (chunk, v) in out.chunks_exact_mut(4).zip(planes) {
        chunk.copy_from_slice(&v.to_ne_bytes());
    }
}

pub const PLANE_BYTES: usize = N_PLANES * PLANE * 4;
