//! The package's exceptions: `XqError` and its subclasses, built once as Python classes
//! (each also a `ValueError`, as python-chess's are), and the conversion of the Rust
//! crates' errors into them with their `Display` text as the message.

use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};
use xq_movegen::notation::NotationError;

/// Which exception an error raises.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A FEN that is malformed or describes an impossible position.
    InvalidFen,
    /// Text that is not a move in any notation.
    InvalidMove,
    /// A move that is not legal where it is played.
    IllegalMove,
    /// A move text that fits several legal moves.
    AmbiguousMove,
    /// A PGN or XQF file that cannot be read.
    InvalidGameFile,
    /// An `xq datagen` file (text or binary) that cannot be read.
    InvalidDataFile,
    /// An argument out of its range or of the wrong kind (self-play's settings).
    InvalidArgument,
    /// A tablebase directory or file that cannot be read, or is truncated or corrupt.
    InvalidTablebase,
}

impl Kind {
    const ALL: [Kind; 8] = [
        Kind::InvalidFen,
        Kind::InvalidMove,
        Kind::IllegalMove,
        Kind::AmbiguousMove,
        Kind::InvalidGameFile,
        Kind::InvalidDataFile,
        Kind::InvalidArgument,
        Kind::InvalidTablebase,
    ];

    fn name(self) -> &'static str {
        match self {
            Kind::InvalidFen => "InvalidFen",
            Kind::InvalidMove => "InvalidMove",
            Kind::IllegalMove => "IllegalMove",
            Kind::AmbiguousMove => "AmbiguousMove",
            Kind::InvalidGameFile => "InvalidGameFile",
            Kind::InvalidDataFile => "InvalidDataFile",
            Kind::InvalidArgument => "InvalidArgument",
            Kind::InvalidTablebase => "InvalidTablebase",
        }
    }

    fn doc(self) -> &'static str {
        match self {
            Kind::InvalidFen => "A FEN that is malformed or describes a position that cannot arise in a game.",
            Kind::InvalidMove => "Text that is not a move in ICCS, WXF or Chinese notation.",
            Kind::IllegalMove => "A move that is not legal in the position it is played in.",
            Kind::AmbiguousMove => "A move text that fits several legal moves.",
            Kind::InvalidGameFile => "A PGN or XQF file that cannot be read; the message says where (game, line and ply, or byte offset).",
            Kind::InvalidDataFile => "An `xq datagen` file (text or binary) that cannot be read; the message names the line or the byte.",
            Kind::InvalidArgument => "An argument out of its range or of the wrong kind; the message names it and what it may be.",
            Kind::InvalidTablebase => "A tablebase directory or file that cannot be read, or a file that is truncated or corrupt; the message names the file.",
        }
    }
}

static BASE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static TYPES: [PyOnceLock<Py<PyType>>; 7] = [
    PyOnceLock::new(),
    PyOnceLock::new(),
    PyOnceLock::new(),
    PyOnceLock::new(),
    PyOnceLock::new(),
    PyOnceLock::new(),
    PyOnceLock::new(),
];

/// A new class `xq.<name>` with these bases, made by `type(name, bases, namespace)`.
fn new_class<'py>(
    py: Python<'py>,
    name: &str,
    bases: Bound<'py, PyTuple>,
    doc: &str,
) -> PyResult<Py<PyType>> {
    let namespace = PyDict::new(py);
    namespace.set_item("__module__", "xq")?;
    namespace.set_item("__doc__", doc)?;
    let class = py.get_type::<PyType>().call1((name, bases, namespace))?;
    Ok(class.cast_into::<PyType>()?.unbind())
}

/// `xq.XqError`, the base of every exception of the package.
pub fn base(py: Python<'_>) -> PyResult<Bound<'_, PyType>> {
    let base = BASE.get_or_try_init(py, || {
        new_class(
            py,
            "XqError",
            PyTuple::new(py, [py.get_type::<PyException>()])?,
            "The base class of every exception xq raises.",
        )
    })?;
    Ok(base.bind(py).clone())
}

/// The class of `kind`: a subclass of `XqError` and of `ValueError`.
pub fn class(py: Python<'_>, kind: Kind) -> PyResult<Bound<'_, PyType>> {
    let index = Kind::ALL.iter().position(|&k| k == kind).unwrap_or(0);
    let class = TYPES[index].get_or_try_init(py, || {
        let bases = PyTuple::new(
            py,
            [
                base(py)?.into_any(),
                py.get_type::<PyValueError>().into_any(),
            ],
        )?;
        new_class(py, kind.name(), bases, kind.doc())
    })?;
    Ok(class.bind(py).clone())
}

/// Adds `XqError` and every subclass to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("XqError", base(py)?)?;
    for kind in Kind::ALL {
        m.add(kind.name(), class(py, kind)?)?;
    }
    Ok(())
}

/// An error of the package: the exception it raises and its message.
#[derive(Clone, Debug)]
pub struct Error {
    kind: Kind,
    message: String,
}

impl Error {
    /// An error of `kind` that says `message`.
    pub fn new(kind: Kind, message: impl std::fmt::Display) -> Error {
        Error {
            kind,
            message: message.to_string(),
        }
    }
}

impl From<Error> for PyErr {
    fn from(e: Error) -> PyErr {
        Python::attach(|py| match class(py, e.kind) {
            Ok(class) => PyErr::from_type(class, e.message),
            Err(err) => err,
        })
    }
}

/// The exception a notation error raises: text in no notation is an `InvalidMove`, a
/// text that fits several moves an `AmbiguousMove`, anything else (no piece fits, or the
/// move is illegal) an `IllegalMove`.
impl From<NotationError> for Error {
    fn from(e: NotationError) -> Error {
        let kind = match &e {
            NotationError::Unknown { .. } => Kind::InvalidMove,
            NotationError::Ambiguous { .. } => Kind::AmbiguousMove,
            NotationError::NoSuchMove { .. }
            | NotationError::Illegal { .. }
            | NotationError::AtPly { .. } => Kind::IllegalMove,
        };
        Error::new(kind, e)
    }
}

/// A `ValueError` with `message` (bad arguments: a square out of range, an unknown
/// notation name).
pub fn value_error(message: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(message.to_string())
}
