//! The package's exceptions: `XqError` and its subclasses, built once as Python classes
//! (the rules' and the files' also `ValueError`s, as python-chess's are; the engines'
//! python-chess's `EngineError` family, a `RuntimeError`), and the conversion of the
//! Rust crates' errors into them with their `Display` text as the message.

use pyo3::exceptions::{PyException, PyRuntimeError, PyValueError};
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
    /// An engine that misbehaves, or is used wrongly (python-chess's `EngineError`).
    EngineError,
    /// An engine process that has gone.
    EngineTerminatedError,
    /// A search limit that is not one (negative, too large, of the wrong type).
    InvalidLimit,
    /// An engine option the engine does not have, or a value it does not take.
    InvalidOption,
}

impl Kind {
    const ALL: [Kind; 12] = [
        Kind::InvalidFen,
        Kind::InvalidMove,
        Kind::IllegalMove,
        Kind::AmbiguousMove,
        Kind::InvalidGameFile,
        Kind::InvalidDataFile,
        Kind::InvalidArgument,
        Kind::InvalidTablebase,
        Kind::EngineError,
        Kind::EngineTerminatedError,
        Kind::InvalidLimit,
        Kind::InvalidOption,
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
            Kind::EngineError => "EngineError",
            Kind::EngineTerminatedError => "EngineTerminatedError",
            Kind::InvalidLimit => "InvalidLimit",
            Kind::InvalidOption => "InvalidOption",
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
            Kind::EngineError => "An engine that misbehaves (a reply that breaks its protocol, an illegal move) or is used wrongly (python-chess's `EngineError`; also a `RuntimeError`).",
            Kind::EngineTerminatedError => "The engine process has gone (crashed, killed or quit); the message says how it ended.",
            Kind::InvalidLimit => "A search limit that is not one: negative, too large, not a number, or no limit where one is needed (also a `ValueError`).",
            Kind::InvalidOption => "An engine option the engine does not have, one managed by xq, or a value outside its type, range or choices (also a `ValueError`).",
        }
    }

    /// The class's bases: `XqError` and `ValueError` for the errors of the rules and the
    /// files; python-chess's `EngineError` (a `RuntimeError`) and its subclasses for the
    /// engines.
    fn bases<'py>(self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let value = py.get_type::<PyValueError>().into_any();
        match self {
            Kind::EngineError => PyTuple::new(
                py,
                [
                    base(py)?.into_any(),
                    py.get_type::<PyRuntimeError>().into_any(),
                ],
            ),
            Kind::EngineTerminatedError => {
                PyTuple::new(py, [class(py, Kind::EngineError)?.into_any()])
            }
            Kind::InvalidLimit | Kind::InvalidOption => {
                PyTuple::new(py, [class(py, Kind::EngineError)?.into_any(), value])
            }
            _ => PyTuple::new(py, [base(py)?.into_any(), value]),
        }
    }
}

static BASE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static TYPES: [PyOnceLock<Py<PyType>>; 12] = [
    PyOnceLock::new(),
    PyOnceLock::new(),
    PyOnceLock::new(),
    PyOnceLock::new(),
    PyOnceLock::new(),
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

/// The class of `kind`: a subclass of `XqError` (see [`Kind::bases`]).
pub fn class(py: Python<'_>, kind: Kind) -> PyResult<Bound<'_, PyType>> {
    let index = Kind::ALL.iter().position(|&k| k == kind).unwrap_or(0);
    let class = TYPES[index].get_or_try_init(py, || {
        new_class(py, kind.name(), kind.bases(py)?, kind.doc())
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

/// An `InvalidLimit` with `message`.
pub fn invalid_limit(message: impl std::fmt::Display) -> PyErr {
    Error::new(Kind::InvalidLimit, message).into()
}

/// An `InvalidOption` with `message`.
pub fn invalid_option(message: impl std::fmt::Display) -> PyErr {
    Error::new(Kind::InvalidOption, message).into()
}
