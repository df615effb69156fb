#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod ending;
pub mod format;
mod gen;
mod index;
pub mod log;
mod make;
mod probe;
mod rule;
mod split;
mod value;
mod verify;

pub use ending::{Ending, ParseEndingError, MAX_ATTACKERS};
pub use format::{
    check_wdl, read_captures, read_table, rewrite_table, rewrite_wdl, write_table, write_wdl,
    FORMAT_VERSION,
};
pub use gen::{memory_needed, table_size, Progress, Table, TableStats};
pub use make::{keep, make, verify_file, verify_in, Kept, Made, MakeProgress};
pub use probe::Tablebases;
pub use split::{
    assemble, generate_in_parts, verify_in_parts, Answers, AssembledFiles, FilePieces, Part,
    PartLevel, PartSummary, Requests, TablePart, Updates,
};
#[allow(deprecated)]
pub use value::{Rule, TableResult, TableValue, Wdl, WdlValue};
pub use verify::verify;

use std::fmt;
use std::path::PathBuf;

/// Generates the table of `ending` with `threads` threads; `subtables` must hold the
/// table of every ending of [`Ending::captures`]. `progress` is called from the worker
/// threads now and then. Where both sides have attacking pieces, the pass of the rules of
/// perpetual check and chase follows the retrograde analysis ([`TableValue::RuleWin`]).
///
/// # Errors
/// [`TablebaseError::MissingTable`] when a table a capture leads to is not given.
///
/// ```
/// use xq_tablebase::{generate, Ending, TableValue};
/// let krk: Ending = "KRK".parse().unwrap();
/// let table = generate(&krk, &[], 1, &|_| {}).unwrap();
/// let stats = table.stats();
/// assert_eq!(stats.longest, 4);
/// ```
pub fn generate(
    ending: &Ending,
    subtables: &[&Table],
    threads: usize,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Table, TablebaseError> {
    gen::check_captures(ending, subtables)?;
    make::solve(ending, &gen::InMemory(subtables), threads, progress)
}

/// Everything that can go wrong with tables: reading, checking, generating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TablebaseError {
    /// A file or directory could not be read or written.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the system said.
        message: String,
    },
    /// The file does not start as a table does.
    NotATable(PathBuf),
    /// The file is a table of a format version this crate does not read.
    UnsupportedVersion {
        /// The file.
        path: PathBuf,
        /// Its version.
        version: u16,
    },
    /// The file is shorter (or longer) than its header says.
    Truncated {
        /// The file.
        path: PathBuf,
        /// The length its header gives (or the header's own length).
        expected: u64,
        /// The length found.
        found: u64,
    },
    /// A checksum or a field of the file is wrong.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: &'static str,
    },
    /// Generating or verifying an ending needs the table of an ending its captures lead
    /// to.
    MissingTable(Ending),
    /// The forward pass found a position whose stored value does not follow from its
    /// moves.
    Mismatch {
        /// The ending.
        ending: Ending,
        /// The position (its FEN, or its pieces when it is no legal position).
        position: String,
        /// What the table says (`None`: no position).
        stored: Option<TableValue>,
        /// What the moves say (`None`: no legal position).
        expected: Option<TableValue>,
    },
    /// A WDL file whose value of a position is not its distance table's ([`check_wdl`]).
    WdlMismatch {
        /// The WDL file.
        path: PathBuf,
        /// The position's FEN.
        position: String,
        /// What the WDL file holds (`None`: a byte that is no value).
        stored: Option<WdlValue>,
        /// What the distance table's value makes it.
        expected: WdlValue,
    },
    /// A generation log ([`log`]) that is not of the format this crate reads.
    BadLog {
        /// The file.
        path: PathBuf,
        /// The line (from 1).
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A table generated in parts ([`Part`]) was given a part, a message between parts
    /// or a summary that does not fit, or an ending that cannot be split.
    Split {
        /// What is wrong.
        what: String,
    },
}

impl fmt::Display for TablebaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |v: &Option<TableValue>| match v {
            Some(v) => v.to_string(),
            None => "no position".to_string(),
        };
        match self {
            TablebaseError::Io { path, message } => write!(f, "{}: {message}", path.display()),
            TablebaseError::NotATable(path) => {
                write!(f, "{}: not an xq tablebase file", path.display())
            }
            TablebaseError::UnsupportedVersion { path, version } => write!(
                f,
                "{}: format version {version}, this build reads versions 1 to {FORMAT_VERSION}",
                path.display()
            ),
            TablebaseError::Truncated {
                path,
                expected,
                found,
            } => write!(
                f,
                "{}: truncated or damaged, {found} bytes where {expected} were expected",
                path.display()
            ),
            TablebaseError::Corrupt { path, what } => {
                write!(f, "{}: corrupt ({what} is wrong)", path.display())
            }
            TablebaseError::MissingTable(e) => write!(f, "the table {e} is needed first"),
            TablebaseError::Mismatch {
                ending,
                position,
                stored,
                expected,
            } => write!(
                f,
                "{ending}: {position} is stored as {} but its moves make it {}",
                show(stored),
                show(expected)
            ),
            TablebaseError::WdlMismatch {
                path,
                position,
                stored,
                expected,
            } => write!(
                f,
                "{}: {position} is stored as {} but its distance table makes it {expected}",
                path.display(),
                stored.map_or("no value".to_string(), |v| v.to_string())
            ),
            TablebaseError::BadLog {
                path,
                line,
                message,
            } => write!(f, "{}:{line}: {message}", path.display()),
            TablebaseError::Split { what } => write!(f, "splitting a table: {what}"),
        }
    }
}

impl std::error::Error for TablebaseError {}
