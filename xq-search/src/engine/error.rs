//! [`EngineError`]: why the engine could not take a setting.

use std::fmt;
use xq_book::BookError;
use xq_tablebase::TablebaseError;

/// Why the engine could not take a setting: the one error of its setters
/// ([`SearchEngine::set_hash`](super::SearchEngine::set_hash),
/// [`load_network`](super::SearchEngine::load_network), ...), whatever drives it (a
/// protocol, a program, Python, a web page). Each variant says what the engine does
/// instead.
///
/// ```
/// use xq_search::engine::{Engine, EngineError, Options, SearchEngine};
/// let mut engine = Engine::new(Options { hash_mib: 1, ..Options::default() });
/// let e = engine.load_network("no/such.nnue").unwrap_err();
/// assert!(matches!(e, EngineError::Network { .. }));
/// assert!(e.to_string().starts_with("cannot load the network no/such.nnue: "));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The system (or [`Caps::table_limit_mib`](super::Caps::table_limit_mib)) refused
    /// the memory of a transposition table of the size asked for; the engine keeps a
    /// table of the size it had.
    Table {
        /// The size asked for, MiB.
        asked: usize,
        /// The size kept, MiB.
        kept: usize,
    },
    /// A network file could not be read or is not a network; the evaluation is
    /// unchanged.
    Network {
        /// The file as given.
        path: String,
        /// Why it could not be loaded.
        reason: String,
    },
    /// A book file could not be read or is not a book; the engine plays without a book.
    Book {
        /// The file as given.
        path: String,
        /// What is wrong with it.
        error: BookError,
    },
    /// A directory of endgame tables could not be read; the engine searches without
    /// tables.
    Tablebases {
        /// The directory as given.
        path: String,
        /// What is wrong with it.
        error: TablebaseError,
    },
    /// A search parameter of that name does not exist ([`SearchParams::NAMES`](crate::SearchParams::NAMES)).
    UnknownParam(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Table { asked, kept } => write!(
                f,
                "cannot allocate a hash table of {asked} MiB; keeping {kept} MiB"
            ),
            EngineError::Network { path, reason } => {
                write!(f, "cannot load the network {path}: {reason}")
            }
            EngineError::Book { path, error } => match error {
                // The error names the file already.
                BookError::Io { .. } => write!(f, "cannot read book {error}"),
                _ => write!(f, "book {path}: {error}"),
            },
            EngineError::Tablebases { path, error } => match error {
                // An I/O error names the directory already.
                TablebaseError::Io { .. } => write!(f, "cannot read the tablebases {error}"),
                _ => write!(f, "cannot read the tablebases {path}: {error}"),
            },
            EngineError::UnknownParam(name) => write!(f, "no search parameter '{name}'"),
        }
    }
}

// `Display` includes the wrapped errors, so `source` stays `None`.
impl std::error::Error for EngineError {}
