//! Where the engine reads the files its options name (a network, a book): the disk for a
//! program, files handed over in memory for a web page, which has no disk
//! ([`Core::set_files`](super::Core::set_files)).

use std::collections::HashMap;
use std::fmt;

/// A source of files by name.
pub trait Files: fmt::Debug + Send {
    /// The bytes of the file `path`, or why it cannot be read.
    ///
    /// # Errors
    /// What the source says when the file cannot be read.
    fn read(&self, path: &str) -> Result<Vec<u8>, String>;

    /// Keeps `bytes` as the file `name`, for sources that take files (a web page hands
    /// the engine the files it fetched); `false` for those that do not.
    fn put(&mut self, name: &str, bytes: Vec<u8>) -> bool {
        let _ = (name, bytes);
        false
    }
}

/// The file system.
#[derive(Clone, Copy, Debug, Default)]
pub struct Disk;

impl Files for Disk {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        std::fs::read(path).map_err(|e| e.to_string())
    }
}

/// Files kept in memory by name: what a web page hands its engine.
///
/// ```
/// use xq_search::engine::{Files, Memory};
/// let mut files = Memory::default();
/// assert!(files.put("book.xqb", vec![1, 2, 3]));
/// assert_eq!(files.read("book.xqb"), Ok(vec![1, 2, 3]));
/// assert_eq!(files.read("other.nnue").unwrap_err(), "no file 'other.nnue' was given to the engine");
/// ```
#[derive(Clone, Default)]
pub struct Memory {
    files: HashMap<String, Vec<u8>>,
}

impl fmt::Debug for Memory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&String> = self.files.keys().collect();
        f.debug_struct("Memory").field("files", &names).finish()
    }
}

impl Files for Memory {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        self.files
            .get(path)
            .cloned()
            .ok_or_else(|| format!("no file '{path}' was given to the engine"))
    }

    fn put(&mut self, name: &str, bytes: Vec<u8>) -> bool {
        self.files.insert(name.to_string(), bytes);
        true
    }
}
