//! Making one ending's files in a directory, as `xq tb gen` does for each ending of its
//! plan: the step a cluster's task runs on a node (`xq.tablebase.generate` in Python).

use crate::format::{read_captures, read_table, rewrite_wdl, write_table, write_wdl};
use crate::gen::{table_size, Progress, Table};
use crate::log::{self, Record};
use crate::{generate, verify, Ending, TablebaseError, Tablebases};
use std::path::Path;
use std::time::Instant;

/// What [`make`] is doing, for a progress display.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MakeProgress {
    /// Generating: the generator's own progress.
    Generate(Progress),
    /// Checking the table by a forward pass: `done` of about `total` positions.
    Verify {
        /// Positions checked.
        done: u64,
        /// Positions to check (half the numbers: one side to move).
        total: u64,
    },
}

/// One ending made by [`make`].
#[derive(Debug)]
pub struct Made {
    /// The table.
    pub table: Table,
    /// Its row of the generation log ([`log::Record`]): counts, times (generation,
    /// verification, writing), threads, the load average before it started, and the
    /// distance file's bytes.
    pub record: Record,
    /// The WDL file's bytes.
    pub wdl_bytes: u64,
}

/// Makes the table of `ending` in `dir`: reads the tables its captures lead to from `dir`
/// ([`read_captures`]), generates it ([`generate`]) with `threads` threads, checks it by a
/// forward pass ([`verify`]) when `check` is set, and writes its distance file
/// ([`Ending::file_name`]) and its WDL file ([`Ending::wdl_file_name`]) into `dir`. The
/// files depend on nothing but the ending and the tables read: the same bytes for any
/// number of threads, on any machine.
///
/// # Errors
/// [`TablebaseError::MissingTable`] when `dir` lacks a table a capture leads to; a table
/// that cannot be read or written; [`TablebaseError::Mismatch`] when the check fails.
///
/// ```
/// use xq_tablebase::{make, Ending};
/// let dir = std::env::temp_dir().join(format!("xq-make-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let krk: Ending = "KRK".parse()?;
/// let made = make(&dir, &krk, 1, true, &|_| {})?;
/// assert_eq!((made.record.positions, made.record.longest_mate), (4401, 4));
/// assert_eq!(made.record.bytes, std::fs::metadata(dir.join("KRK.xqtb"))?.len());
/// assert!(dir.join("KRK.xqwdl").exists());
/// // KRKA needs KRK, now in the directory; KRKN would need KNK as well.
/// assert!(make(&dir, &"KRKA".parse()?, 1, false, &|_| {}).is_ok());
/// let missing = make(&dir, &"KRKN".parse()?, 1, false, &|_| {}).unwrap_err();
/// assert_eq!(missing.to_string(), "the table KNK is needed first");
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn make(
    dir: &Path,
    ending: &Ending,
    threads: usize,
    check: bool,
    progress: &(dyn Fn(MakeProgress) + Sync),
) -> Result<Made, TablebaseError> {
    let load = log::load_average();
    let t0 = Instant::now();
    let subs = read_captures(dir, ending)?;
    let sub_refs: Vec<&Table> = subs.iter().collect();
    let table = generate(ending, &sub_refs, threads, &|p| {
        progress(MakeProgress::Generate(p));
    })?;
    let generated = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    if check {
        let total = table_size(ending) / 2;
        verify(&table, &sub_refs, threads, &|done| {
            progress(MakeProgress::Verify { done, total });
        })?;
    }
    let verified = check.then(|| t1.elapsed().as_secs_f64());
    let t2 = Instant::now();
    let bytes = write_table(&table, &dir.join(ending.file_name()), threads)?;
    let wdl_bytes = write_wdl(&table, &dir.join(ending.wdl_file_name()), threads)?;
    let record = Record {
        gen_seconds: Some(generated),
        verify_seconds: verified,
        write_seconds: Some(t2.elapsed().as_secs_f64()),
        threads: Some(threads),
        load,
        ..Record::generated(&table, bytes)
    };
    Ok(Made {
        table,
        record,
        wdl_bytes,
    })
}

/// What [`keep`] found of an ending's files in a directory.
#[derive(Debug)]
pub enum Kept {
    /// The directory has no distance file of the ending.
    Missing,
    /// The distance file is of an ending where both sides attack and of format version 3:
    /// it does not say which rule decides its rule results, so it is made again.
    Old,
    /// The distance file is not good (its header or, where both sides attack, its
    /// blocks): made again.
    Bad(TablebaseError),
    /// A good table, kept.
    Good {
        /// Its row of the generation log (status `kept`, no times).
        record: Box<Record>,
        /// The distance file's bytes.
        bytes: u64,
        /// The WDL file's bytes where it was written again to say which rule decides a
        /// rule result (it was of format version 4 or older).
        wdl_rewritten: Option<u64>,
    },
}

/// What a generator that tops up a directory does with `ending`'s files already in
/// `dir` (`tables`, the directory opened): a good distance file is kept, its WDL file
/// written again from it ([`rewrite_wdl`](crate::rewrite_wdl), on `threads` threads)
/// where that does not say which rule decides a rule result; anything else is made
/// again. `xq tb gen` and `xq.tablebase.generate` both ask it.
///
/// # Errors
/// Only from writing the WDL file again; a damaged distance file is [`Kept::Bad`].
///
/// ```
/// use xq_tablebase::{keep, make, Kept, Tablebases};
/// let dir = std::env::temp_dir().join(format!("xq-keep-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let krk = "KRK".parse()?;
/// assert!(matches!(keep(&dir, &Tablebases::open(&dir)?, &krk, 1)?, Kept::Missing));
/// make(&dir, &krk, 1, false, &|_| {})?;
/// let Kept::Good { record, wdl_rewritten, .. } = keep(&dir, &Tablebases::open(&dir)?, &krk, 1)?
/// else {
///     panic!("KRK was just made");
/// };
/// assert_eq!((record.positions, wdl_rewritten), (4401, None));
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn keep(
    dir: &Path,
    tables: &Tablebases,
    ending: &Ending,
    threads: usize,
) -> Result<Kept, TablebaseError> {
    let (record, bytes) = match tables.stats(ending) {
        Ok(None) => return Ok(Kept::Missing),
        Err(e) => return Ok(Kept::Bad(e)),
        _ if tables.says_the_rule(ending).ok() == Some(Some(false)) => return Ok(Kept::Old),
        Ok(Some((stats, bytes))) => match Record::kept_in(dir, &stats, bytes) {
            Ok(record) => (Box::new(record), bytes),
            Err(e) => return Ok(Kept::Bad(e)),
        },
    };
    let mut wdl_rewritten = None;
    if tables.wdl_says_the_rule(ending).ok() == Some(Some(false)) {
        let table = read_table(&dir.join(ending.file_name()))?;
        wdl_rewritten = rewrite_wdl(&table, &dir.join(ending.wdl_file_name()), threads)?;
    }
    Ok(Kept::Good {
        record,
        bytes,
        wdl_rewritten,
    })
}
