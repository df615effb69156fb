//! The small value types: squares as ints 0..89, colours as bools, piece types as ints
//! 1..7, and the `Move` and `Piece` classes.

use crate::errors::{value_error, Error, Kind};
use pyo3::basic::CompareOp;
use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyTuple;
use pyo3::IntoPyObjectExt;
use std::hash::{Hash, Hasher};
use xq_core::{Color, Piece as CorePiece, PieceKind, Square};

/// What `__reduce__` returns: the callable that rebuilds an object and its arguments.
pub type Reduced<'py, A> = PyResult<(Bound<'py, PyAny>, A)>;

/// A Python int of any size as an argument, saturated to `i64` (so that a huge square
/// or count is refused by the range check with a `ValueError`, not an `OverflowError`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Int(pub i64);

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Int> {
        match obj.extract::<i64>() {
            Ok(v) => Ok(Int(v)),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
                let negative = obj.lt(0)?;
                Ok(Int(if negative { i64::MIN } else { i64::MAX }))
            }
            Err(e) => Err(e),
        }
    }
}

/// The name of every square, `a0` to `i9`, by index.
pub fn square_names() -> Vec<String> {
    Square::ALL.iter().map(|sq| sq.to_string()).collect()
}

/// The square with index `index` (0..89), or a `ValueError`.
pub fn square(index: i64) -> PyResult<Square> {
    usize::try_from(index)
        .ok()
        .and_then(Square::from_index)
        .ok_or_else(|| value_error(format!("{index} is not a square (0 to 89)")))
}

/// `True` for Red, `False` for Black (python-chess's `WHITE`/`BLACK` habit).
pub fn color_of(red: bool) -> Color {
    if red {
        Color::Red
    } else {
        Color::Black
    }
}

/// The colour as the Python bool.
pub fn is_red(color: Color) -> bool {
    color == Color::Red
}

/// The piece type of a kind: 1 (general) to 7 (soldier).
pub fn piece_type(kind: PieceKind) -> u8 {
    kind.index() as u8 + 1
}

/// The kind of piece type `t` (1..7), or a `ValueError`.
pub fn kind_of(t: i64) -> PyResult<PieceKind> {
    usize::try_from(t - 1)
        .ok()
        .and_then(PieceKind::from_index)
        .ok_or_else(|| value_error(format!("{t} is not a piece type (1 to 7)")))
}

/// The index of a square, as Python sees it.
pub fn index(sq: Square) -> u8 {
    sq.index() as u8
}

/// `xq.parse_square(name)`: the square called `name` (`"e4"`), case-insensitive.
///
/// Raises ValueError for a name that is not a square.
#[pyfunction]
pub fn parse_square(name: &str) -> PyResult<u8> {
    name.parse::<Square>()
        .map(index)
        .map_err(|e| value_error(format!("'{name}' is not a square: {e}")))
}

/// `xq.square_name(square)`: the name of a square index (`square_name(4) == "e0"`).
///
/// Raises ValueError for an index outside 0..89.
#[pyfunction]
pub fn square_name(square: Int) -> PyResult<String> {
    Ok(self::square(square.0)?.to_string())
}

/// `xq.square_file(square)`: the file, 0 (a) to 8 (i).
#[pyfunction]
pub fn square_file(square: Int) -> PyResult<u8> {
    Ok(self::square(square.0)?.file().index() as u8)
}

/// `xq.square_rank(square)`: the rank, 0 (Red's back rank) to 9.
#[pyfunction]
pub fn square_rank(square: Int) -> PyResult<u8> {
    Ok(self::square(square.0)?.rank().index() as u8)
}

/// `xq.square_mirror(square)`: the square mirrored across the river (the file stays),
/// as in `Board.mirror()`.
#[pyfunction]
pub fn square_mirror(square: Int) -> PyResult<u8> {
    Ok(index(self::square(square.0)?.flip_vertical()))
}

/// A move from one square to another: `Move(from_square, to_square)`.
///
/// Squares are ints 0..89 (`xq.A0` .. `xq.I9`). `str(move)` is ICCS (`h2e2`), and
/// `Move.from_iccs("h2e2")` reads it back. Moves are hashable and ordered by origin then
/// destination. A `Move` says nothing about legality: ask `Board.is_legal`.
#[pyclass(module = "xq", frozen)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Move {
    pub(crate) inner: xq_core::Move,
}

impl Move {
    /// The Python move of a Rust move.
    pub fn of(inner: xq_core::Move) -> Move {
        Move { inner }
    }

    /// (origin index, destination index): the order of moves.
    fn key(&self) -> (usize, usize) {
        (self.inner.from().index(), self.inner.to().index())
    }
}

/// The Python object of a move. Moves are immutable, so the 2,086 moves a piece can ever
/// make are made once and shared: a list of legal moves costs a reference count per
/// move instead of an allocation.
pub fn move_object(py: Python<'_>, m: xq_core::Move) -> PyResult<Py<Move>> {
    static MOVES: PyOnceLock<Vec<Py<Move>>> = PyOnceLock::new();
    let all = MOVES.get_or_try_init(py, || {
        crate::tensor::actions()
            .moves
            .iter()
            .map(|&m| Py::new(py, Move::of(m)))
            .collect::<PyResult<Vec<_>>>()
    })?;
    match crate::tensor::action(m) {
        Some(i) => Ok(all[i].clone_ref(py)),
        None => Py::new(py, Move::of(m)),
    }
}

/// The Python objects of moves.
pub fn move_objects(
    py: Python<'_>,
    moves: impl IntoIterator<Item = xq_core::Move>,
) -> PyResult<Vec<Py<Move>>> {
    moves.into_iter().map(|m| move_object(py, m)).collect()
}

#[pymethods]
impl Move {
    #[new]
    fn new(from_square: Int, to_square: Int) -> PyResult<Move> {
        let (from, to) = (square(from_square.0)?, square(to_square.0)?);
        if from == to {
            return Err(value_error(
                "a move's origin and destination are the same square",
            ));
        }
        Ok(Move::of(xq_core::Move::new(from, to)))
    }

    /// The move written in ICCS (`h2e2`), UCI's move form for Xiangqi (python-chess's
    /// `Move.from_uci`; the same as `from_iccs`).
    ///
    /// Raises InvalidMove for text that is not an ICCS move.
    #[staticmethod]
    fn from_uci(uci: &str) -> PyResult<Move> {
        Move::from_iccs(uci)
    }

    /// The move in ICCS, `h2e2`: UCI's move form for Xiangqi (python-chess's `uci()`;
    /// the same as `iccs()`).
    fn uci(&self) -> String {
        self.inner.to_string()
    }

    /// The move written in ICCS (`h2e2`; `H2-E2` is read too).
    ///
    /// Raises InvalidMove for text that is not an ICCS move.
    #[staticmethod]
    pub fn from_iccs(text: &str) -> PyResult<Move> {
        text.trim()
            .parse::<xq_core::Move>()
            .map(Move::of)
            .map_err(|e| {
                Error::new(
                    Kind::InvalidMove,
                    format!("'{text}' is not an ICCS move: {e}"),
                )
                .into()
            })
    }

    /// The origin square (0..89).
    #[getter(from_square)]
    fn origin(&self) -> u8 {
        index(self.inner.from())
    }

    /// The destination square (0..89).
    #[getter(to_square)]
    fn destination(&self) -> u8 {
        index(self.inner.to())
    }

    /// The move in ICCS, `h2e2`.
    fn iccs(&self) -> String {
        self.inner.to_string()
    }

    /// The same move mirrored across the river, as it is played in `Board.mirror()`.
    fn mirror(&self) -> Move {
        Move::of(self.inner.flip_vertical())
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move.from_iccs('{}')", self.inner)
    }

    fn __hash__(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.key().hash(&mut h);
        h.finish()
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
        let py = other.py();
        match other.extract::<PyRef<'_, Move>>() {
            Ok(other) => op
                .matches(self.key().cmp(&other.key()))
                .into_py_any(py)
                .unwrap_or_else(|_| py.NotImplemented()),
            Err(_) => py.NotImplemented(),
        }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduced<'py, Bound<'py, PyTuple>> {
        let py = slf.py();
        let ctor = py.get_type::<Move>().getattr("from_iccs")?;
        Ok((ctor, PyTuple::new(py, [slf.get().iccs()])?))
    }
}

/// A piece: `Piece(piece_type, color)` with `piece_type` from `xq.GENERAL` (1) to
/// `xq.SOLDIER` (7) and `color` `xq.RED` (True) or `xq.BLACK` (False).
///
/// `symbol()` is the FEN letter (`R` for a Red chariot, `n` for a Black horse),
/// `unicode_symbol()` the Chinese character (`俥`, `馬`).
#[pyclass(module = "xq", frozen, eq, hash)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub(crate) inner: CorePiece,
}

impl Piece {
    /// The Python piece of a Rust piece.
    pub fn of(inner: CorePiece) -> Piece {
        Piece { inner }
    }
}

#[pymethods]
impl Piece {
    #[new]
    fn new(piece_type: Int, color: bool) -> PyResult<Piece> {
        Ok(Piece::of(CorePiece::new(
            color_of(color),
            kind_of(piece_type.0)?,
        )))
    }

    /// The piece of a FEN letter (`R N B A K C P`, `H` and `E` accepted; lower case for
    /// Black) or of a Chinese character (帥仕相傌俥炮兵 / 將士象馬車砲卒).
    ///
    /// Raises ValueError for any other text.
    #[staticmethod]
    fn from_symbol(symbol: &str) -> PyResult<Piece> {
        let mut chars = symbol.chars();
        let found = match (chars.next(), chars.next()) {
            (Some(c), None) => CorePiece::from_char(c).or_else(|| {
                (0..CorePiece::COUNT)
                    .filter_map(CorePiece::from_index)
                    .find(|p| p.to_chinese() == c)
            }),
            _ => None,
        };
        found
            .map(Piece::of)
            .ok_or_else(|| value_error(format!("'{symbol}' is not a piece symbol")))
    }

    /// The piece type, 1 (general) to 7 (soldier).
    #[getter]
    fn piece_type(&self) -> u8 {
        piece_type(self.inner.kind)
    }

    /// The colour: True for Red, False for Black.
    #[getter]
    fn color(&self) -> bool {
        is_red(self.inner.color)
    }

    /// The FEN letter: upper case for Red.
    fn symbol(&self) -> String {
        self.inner.to_char().to_string()
    }

    /// The Chinese character (帥仕相傌俥炮兵 for Red, 將士象馬車砲卒 for Black).
    fn unicode_symbol(&self) -> String {
        self.inner.to_chinese().to_string()
    }

    fn __str__(&self) -> String {
        self.symbol()
    }

    fn __repr__(&self) -> String {
        format!("Piece.from_symbol('{}')", self.inner.to_char())
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduced<'py, (u8, bool)> {
        let py = slf.py();
        let p = slf.get();
        Ok((
            py.get_type::<Piece>().into_any(),
            (p.piece_type(), p.color()),
        ))
    }
}
