//! Game files on disk: reading one whatever its kind ([`read_file`]: XQF by its name or
//! its first bytes, else PGN), and finding the game files of a directory ([`game_files`]).

use crate::pgn::{self, Encoding, ReadOptions};
use crate::{xqf, PgnError, Record, XqfError};
use std::fmt;
use std::path::{Path, PathBuf};

/// Why a game file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileError {
    /// The file (or directory) could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        message: String,
    },
    /// A PGN file that is not valid PGN (the error names the file).
    Pgn(PgnError),
    /// An XQF file that is not valid XQF (the error names the file).
    Xqf(XqfError),
    /// A file without a game.
    Empty(PathBuf),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Io { path, message } => {
                write!(f, "cannot read {}: {message}", path.display())
            }
            FileError::Pgn(e) => e.fmt(f),
            FileError::Xqf(e) => e.fmt(f),
            FileError::Empty(path) => write!(f, "{}: no game in the file", path.display()),
        }
    }
}

impl std::error::Error for FileError {}

/// Is the file XQF: named `.xqf`, or starting with XQF's `XQ`?
fn is_xqf(path: &Path, bytes: &[u8]) -> bool {
    let named = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xqf"));
    named || bytes.starts_with(b"XQ")
}

/// The games of the file at `path`: an XQF file's one game, or a PGN file's games (in
/// `encoding`; an XQF file is always GBK).
///
/// # Errors
/// The file cannot be read, is not a valid game file, or holds no game.
///
/// ```
/// use xq_records::files::read_file;
/// use xq_records::pgn::Encoding;
/// let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/games");
/// let games = read_file(&dir.join("ccgc2006-01.pgn"), Encoding::Auto).unwrap();
/// assert!(!games.is_empty());
/// assert!(read_file(&dir.join("no-such.pgn"), Encoding::Auto).is_err());
/// ```
pub fn read_file(path: &Path, encoding: Encoding) -> Result<Vec<Record>, FileError> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| FileError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    let games = if is_xqf(path, &bytes) {
        vec![xqf::read(&bytes).map_err(|e| FileError::Xqf(e.with_file(name)))?]
    } else {
        pgn::read(&bytes, &ReadOptions { encoding })
            .map_err(|e| FileError::Pgn(e.with_file(name)))?
    };
    if games.is_empty() {
        return Err(FileError::Empty(path.to_path_buf()));
    }
    Ok(games)
}

/// Every game file (`.pgn`, `.xqf`, in any case) under `path`, in name order, its
/// subdirectories searched too; `path` itself when it is not a directory.
///
/// # Errors
/// A directory that cannot be read.
///
/// ```
/// use xq_records::files::game_files;
/// let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/games");
/// let files = game_files(&dir).unwrap();
/// assert!(files.iter().any(|f| f.extension().unwrap() == "xqf"));
/// ```
pub fn game_files(path: &Path) -> Result<Vec<PathBuf>, FileError> {
    let mut out = Vec::new();
    add_game_files(path, &mut out)?;
    Ok(out)
}

fn add_game_files(path: &Path, out: &mut Vec<PathBuf>) -> Result<(), FileError> {
    if !path.is_dir() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    let io = |e: std::io::Error| FileError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(io)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        let game_file = p
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pgn") || e.eq_ignore_ascii_case("xqf"));
        if p.is_dir() {
            add_game_files(&p, out)?;
        } else if game_file {
            out.push(p);
        }
    }
    Ok(())
}
