//! Making one ending's files in a directory, as `xq tb gen` does for each ending of its
//! plan: the step a cluster's task runs on a node (`xq.tablebase.generate` in Python).

use crate::format::{read_table, rewrite_wdl, write_table, write_wdl};
use crate::gen::{table_size, CaptureValues, Progress, Table};
use crate::log::{self, Record};
use crate::verify::forward;
use crate::{Ending, TablebaseError, Tablebases};
use std::path::Path;
use std::time::Instant;

/// The table of `ending` as [`generate`](crate::generate) makes it, with the values of
/// its captures from `subs`: the retrograde analysis, then, where both sides attack, the
/// pass of the rules of perpetual check and chase.
///
/// # Errors
/// From reading the values of the captures (files).
pub(crate) fn solve(
    ending: &Ending,
    subs: &dyn CaptureValues,
    threads: usize,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Table, TablebaseError> {
    let mut table = crate::gen::retrograde(ending, subs, threads, progress)?;
    if ending.both_attack() {
        crate::rule::apply(&mut table, subs, threads)?;
    }
    Ok(table)
}

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

/// Makes the table of `ending` in `dir`: generates it ([`generate`](crate::generate)) with `threads`
/// threads from the tables its captures lead to in `dir`, checks it by a forward pass
/// ([`verify`](crate::verify)) when `check` is set, and writes its distance file
/// ([`Ending::file_name`]) and its WDL file ([`Ending::wdl_file_name`]) into `dir`. The
/// files depend on nothing but the ending and the tables read: the same bytes for any
/// number of threads, on any machine. The tables the captures lead to are read from
/// their files a block at a time (a few cached a file), so the memory holds only this
/// ending's table and, where both sides attack, the pass of the rules over its draws
/// ([`memory_needed`](crate::memory_needed)).
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
    let generating = |p| progress(MakeProgress::Generate(p));
    let total = table_size(ending) / 2;
    let verifying = |done| progress(MakeProgress::Verify { done, total });
    // Timed steps: the generation (with reading the smaller tables), then the check.
    let t0 = Instant::now();
    let files = open_captures(dir, ending)?;
    let table = solve(ending, &files, threads, &generating)?;
    let generated = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    if check {
        forward(&table, &files, threads, &verifying)?;
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

/// The distance files of `dir`, with every one of the tables `ending`'s captures lead to
/// opened and its header checked: where the generator and the forward pass read those
/// tables a block at a time instead of holding them.
///
/// # Errors
/// A table that is missing ([`TablebaseError::MissingTable`]), cannot be read or has a
/// bad header.
pub(crate) fn open_captures(dir: &Path, ending: &Ending) -> Result<Tablebases, TablebaseError> {
    let files = Tablebases::open(dir)?;
    for sub in ending.captures() {
        // Opening the distance file checks its header, its ending and its kind.
        match files.file(&sub) {
            Some(file) => drop(file?),
            None => return Err(TablebaseError::MissingTable(sub)),
        }
    }
    Ok(files)
}

/// Verifies the table of `ending` in `dir` by a forward pass ([`verify`](crate::verify)),
/// with the tables its captures lead to ([`verify_in`]); the positions checked.
///
/// # Errors
/// A table that cannot be read, or a position whose value its moves contradict.
pub fn verify_file(
    dir: &Path,
    ending: &Ending,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<u64, TablebaseError> {
    let table = read_table(&dir.join(ending.file_name()))?;
    verify_in(dir, &table, threads, progress)
}

/// Verifies `table` by a forward pass ([`verify`](crate::verify)) with the tables its
/// captures lead to in `dir`, whose values are read from their files a block at a time
/// (as [`make`](crate::make) reads them), so the memory holds only `table`. The positions
/// checked.
///
/// # Errors
/// A table that is missing ([`TablebaseError::MissingTable`]) or cannot be read, or a
/// position whose value its moves contradict.
///
/// ```
/// use xq_tablebase::{make, read_table, verify_in, Ending};
/// let dir = std::env::temp_dir().join(format!("xq-verify-in-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// for name in ["KRK", "KRKA"] {
///     make(&dir, &name.parse()?, 1, false, &|_| {})?;
/// }
/// let krka = read_table(&dir.join("KRKA.xqtb"))?;
/// assert_eq!(verify_in(&dir, &krka, 1, &|_| {})?, krka.stats().positions());
/// std::fs::remove_file(dir.join("KRK.xqtb"))?;
/// assert_eq!(verify_in(&dir, &krka, 1, &|_| {}).unwrap_err().to_string(), "the table KRK is needed first");
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn verify_in(
    dir: &Path,
    table: &Table,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<u64, TablebaseError> {
    let files = open_captures(dir, &table.ending())?;
    forward(table, &files, threads, progress)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate;

    /// Makes `ending` in a fresh directory after the endings `below` (in order), from
    /// their files, and checks that the table equals the one made from the tables in
    /// memory; then damages a block of the file of `damaged` (one of `below`) and checks
    /// that making `ending` again says so.
    fn made_from_files(name: &str, below: &[&str], damaged: &str) {
        let dir = std::env::temp_dir().join(format!("xq-make-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let ending: Ending = name.parse().unwrap();
        assert_eq!(
            make(&dir, &ending, 2, true, &|_| {}).unwrap_err(),
            TablebaseError::MissingTable(ending.captures()[0])
        );
        let mut tables = Vec::new();
        for e in below {
            tables.push(
                make(&dir, &e.parse().unwrap(), 2, true, &|_| {})
                    .unwrap()
                    .table,
            );
        }
        let made = make(&dir, &ending, 2, true, &|_| {}).unwrap();
        let refs: Vec<&Table> = tables.iter().collect();
        assert!(made.table == generate(&ending, &refs, 2, &|_| {}).unwrap());
        assert!(made.record.verify_seconds.is_some());
        assert_eq!(
            verify_in(&dir, &made.table, 2, &|_| {}).unwrap(),
            made.record.positions
        );
        let path = dir.join(format!("{damaged}.xqtb"));
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 3;
        bytes[last] ^= 0x55;
        std::fs::write(&path, bytes).unwrap();
        let corrupt = TablebaseError::Corrupt {
            path,
            what: "block data",
        };
        assert_eq!(make(&dir, &ending, 2, false, &|_| {}).unwrap_err(), corrupt);
        assert_eq!(
            verify_in(&dir, &made.table, 2, &|_| {}).unwrap_err(),
            corrupt
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Where one side has no attacker, the tables the captures lead to are read from
    /// their files as the generator needs them: a missing one is named, and a damaged
    /// block is an error, never a wrong table; the table made from sound files is the
    /// one made from the tables in memory.
    #[test]
    fn a_one_sided_ending_reads_its_captures_files() {
        made_from_files("KRKA", &["KRK"], "KRK");
    }

    /// So do the generator, the pass of the rules and the forward pass where both sides
    /// attack (KRKN's rules decide 1,597 numbers), and a damaged block of the ending the
    /// defender's capture leads to (KNK, with the attacker in Black) is an error.
    #[test]
    fn a_both_sided_ending_reads_its_captures_files() {
        made_from_files("KRKN", &["KRK", "KNK"], "KNK");
    }
}
