//! Probing a directory of tables.

use crate::ending::Ending;
use crate::format::{Kind, TableFile};
use crate::gen::{no_attacker_left, CaptureValues, TableStats};
use crate::value::{TableResult, TableValue, WdlValue};
use crate::TablebaseError;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use xq_core::{Color, Move, Piece, Position};

/// The tables' files, read a block at a time: where the generator and the forward pass
/// of an ending where one side has no attacker read the values of its captures.
impl CaptureValues for Tablebases {
    fn capture_value(
        &self,
        ending: &Ending,
        child: &Position,
        captured: Piece,
    ) -> Result<TableValue, TablebaseError> {
        match ending.after_capture(captured) {
            None => Ok(no_attacker_left(child)),
            Some(sub) => self
                .probe_dtm(child)?
                .ok_or(TablebaseError::MissingTable(sub)),
        }
    }
}

/// A directory of tables, opened lazily: a file is opened (and its header and block
/// table checked) the first time a position of its ending is probed, and its blocks are
/// read and decompressed on demand, a few of them cached per file. Tables may also be
/// given as the bytes of their files ([`Tablebases::in_memory`]), for a program without
/// a file system.
///
/// The positions may have either colour as the attacking side; the tables ignore the
/// halfmove clock and repetitions (see the crate docs for what that means).
///
/// ```
/// use xq_core::Position;
/// use xq_tablebase::{generate, write_table, Ending, TableValue, Tablebases, TableResult};
/// let dir = std::env::temp_dir().join(format!("xq-tb-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let krk: Ending = "KRK".parse().unwrap();
/// let table = generate(&krk, &[], 1, &|_| {}).unwrap();
/// write_table(&table, &dir.join(krk.file_name()), 1).unwrap();
///
/// let tb = Tablebases::open(&dir).unwrap();
/// let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w").unwrap();
/// assert_eq!(tb.probe_wdl(&pos).unwrap(), Some(TableResult::Win));
/// // The same position with the colours swapped.
/// let flipped = Position::from_fen("4k4/4r4/9/9/9/9/9/9/9/3K5 b").unwrap();
/// assert_eq!(tb.probe_dtm(&flipped).unwrap(), tb.probe_dtm(&pos).unwrap());
/// // Not in the directory: no answer.
/// assert_eq!(tb.probe_wdl(&Position::startpos()).unwrap(), None);
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Debug)]
pub struct Tablebases {
    dir: PathBuf,
    files: BTreeMap<Ending, Files>,
    max_pieces: usize,
}

/// An ending's two files, either of which may be missing.
#[derive(Debug, Default)]
struct Files {
    distance: Option<Slot>,
    wdl: Option<Slot>,
}

impl Files {
    fn slot(&mut self, kind: Kind) -> &mut Option<Slot> {
        match kind {
            Kind::Distance => &mut self.distance,
            Kind::Wdl => &mut self.wdl,
        }
    }
}

#[derive(Debug)]
struct Slot {
    path: PathBuf,
    kind: Kind,
    file: OnceLock<Result<Arc<TableFile>, TablebaseError>>,
}

impl Slot {
    /// The file, opened (and checked) the first time.
    fn open(&self, ending: &Ending) -> Result<Arc<TableFile>, TablebaseError> {
        self.file
            .get_or_init(|| {
                Ok(Arc::new(
                    self.checked(TableFile::open(&self.path)?, ending)?,
                ))
            })
            .clone()
    }

    /// `f` if it is a file of `ending` and of this slot's kind.
    fn checked(&self, f: TableFile, ending: &Ending) -> Result<TableFile, TablebaseError> {
        if f.header.ending != *ending {
            return Err(TablebaseError::Corrupt {
                path: self.path.clone(),
                what: "ending name differs from the file's name",
            });
        }
        f.check_kind(self.kind)?;
        Ok(f)
    }
}

/// The ending and the kind of a file named `<ENDING>.xqtb` or `<ENDING>.xqwdl`.
fn table_file_name(name: &str) -> Option<(Ending, Kind)> {
    let (stem, kind) = match (name.strip_suffix(".xqtb"), name.strip_suffix(".xqwdl")) {
        (Some(stem), _) => (stem, Kind::Distance),
        (_, Some(stem)) => (stem, Kind::Wdl),
        _ => return None,
    };
    Some((stem.parse().ok()?, kind))
}

impl Tablebases {
    /// The tables of `dir`: every file named `<ENDING>.xqtb` (a distance file) or
    /// `<ENDING>.xqwdl` (a WDL file, [`write_wdl`](crate::write_wdl)); other files are
    /// ignored. Nothing is read but the directory's listing.
    ///
    /// # Errors
    /// [`TablebaseError::Io`] when the directory cannot be listed.
    pub fn open(dir: impl AsRef<Path>) -> Result<Tablebases, TablebaseError> {
        let dir = dir.as_ref();
        let io = |e: std::io::Error| TablebaseError::Io {
            path: dir.to_path_buf(),
            message: e.to_string(),
        };
        let mut files: BTreeMap<Ending, Files> = BTreeMap::new();
        for entry in std::fs::read_dir(dir).map_err(io)? {
            let path = entry.map_err(io)?.path();
            let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            if let Some((ending, kind)) = table_file_name(name) {
                *files.entry(ending).or_default().slot(kind) = Some(Slot {
                    path,
                    kind,
                    file: OnceLock::new(),
                });
            }
        }
        let max_pieces = files.keys().map(|e| e.piece_count()).max().unwrap_or(0);
        Ok(Tablebases {
            dir: dir.to_path_buf(),
            files,
            max_pieces,
        })
    }

    /// No tables yet, to be given as the bytes of their files with
    /// [`add_file`](Tablebases::add_file): for a program without a file system, such as
    /// a web page that fetches the files. Its [`dir`](Tablebases::dir) is empty.
    ///
    /// ```
    /// use xq_core::Position;
    /// use xq_tablebase::{generate, write_wdl, Ending, Tablebases, WdlValue};
    /// let krk: Ending = "KRK".parse().unwrap();
    /// let path = std::env::temp_dir().join(format!("xq-tb-mem-{}.xqwdl", std::process::id()));
    /// write_wdl(&generate(&krk, &[], 1, &|_| {}).unwrap(), &path, 1).unwrap();
    /// let bytes = std::fs::read(&path).unwrap();
    ///
    /// let mut tb = Tablebases::in_memory();
    /// assert_eq!(tb.add_file("KRK.xqwdl", bytes).unwrap(), krk);
    /// let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w").unwrap();
    /// assert_eq!(tb.probe_wdl_value(&pos).unwrap(), Some(WdlValue::Win));
    /// // A file's bytes under another ending's name are refused.
    /// assert!(tb.add_file("KNK.xqwdl", std::fs::read(&path).unwrap()).is_err());
    /// std::fs::remove_file(&path).unwrap();
    /// ```
    pub fn in_memory() -> Tablebases {
        Tablebases {
            dir: PathBuf::new(),
            files: BTreeMap::new(),
            max_pieces: 0,
        }
    }

    /// Adds a table file from its bytes: `name` is the file's name (`KRKN.xqwdl` for a
    /// WDL file, `KRKN.xqtb` for a distance file), and the bytes are checked as
    /// [`open`](Tablebases::open)'s files are when first probed (header, block table,
    /// length; each block when read). Returns the file's ending; a file of the same name
    /// added before is replaced.
    ///
    /// # Errors
    /// [`TablebaseError::NotATable`] for a name that is no table file's, and the errors
    /// of a bad file ([`TablebaseError::Truncated`], [`TablebaseError::Corrupt`], ...)
    /// with `name` as its path.
    pub fn add_file(&mut self, name: &str, bytes: Vec<u8>) -> Result<Ending, TablebaseError> {
        let path = PathBuf::from(name);
        let Some((ending, kind)) = table_file_name(name) else {
            return Err(TablebaseError::NotATable(path));
        };
        let slot = Slot {
            path,
            kind,
            file: OnceLock::new(),
        };
        let file = slot.checked(TableFile::from_bytes(&slot.path, bytes)?, &ending)?;
        let _ = slot.file.set(Ok(Arc::new(file)));
        *self.files.entry(ending).or_default().slot(kind) = Some(slot);
        self.max_pieces = self.max_pieces.max(ending.piece_count());
        Ok(ending)
    }

    /// The directory (empty for tables [in memory](Tablebases::in_memory)).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The endings found with a distance file, in generation order.
    pub fn endings(&self) -> Vec<Ending> {
        self.listed(|f| f.distance.is_some())
    }

    /// The endings whose files pass `has`, in generation order.
    fn listed(&self, has: impl Fn(&Files) -> bool) -> Vec<Ending> {
        let mut v: Vec<Ending> = self
            .files
            .iter()
            .filter(|(_, f)| has(f))
            .map(|(e, _)| *e)
            .collect();
        v.sort_by_key(|e| (e.piece_count(), e.to_string()));
        v
    }

    /// The most pieces (generals included) of any table: a position with more is never
    /// in the set, a cheap first test for a search.
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// The endings found with a WDL file, in generation order.
    pub fn wdl_endings(&self) -> Vec<Ending> {
        self.listed(|f| f.wdl.is_some())
    }

    /// Has the ending of `pos` a distance file in the directory? (Reads nothing.)
    pub fn covers(&self, pos: &Position) -> bool {
        Ending::of_position(pos)
            .is_some_and(|(e, _)| self.files.get(&e).is_some_and(|f| f.distance.is_some()))
    }

    /// The distance file of `ending`, opened.
    pub(crate) fn file(&self, ending: &Ending) -> Option<Result<Arc<TableFile>, TablebaseError>> {
        let slot = self.files.get(ending)?.distance.as_ref()?;
        Some(slot.open(ending))
    }

    /// What the header of `ending`'s file says (positions, wins, draws and losses, the
    /// longest mate) and the file's size in bytes; `None` when the ending is not in the
    /// directory.
    ///
    /// # Errors
    /// When the file cannot be opened or its header is not good.
    pub fn stats(&self, ending: &Ending) -> Result<Option<(TableStats, u64)>, TablebaseError> {
        let Some(file) = self.file(ending) else {
            return Ok(None);
        };
        let f = file?;
        let h = &f.header;
        Ok(Some((
            TableStats {
                ending: h.ending,
                numbers_per_side: h.size,
                broken: h.broken,
                counts: h.counts,
                longest: h.longest,
            },
            h.length,
        )))
    }

    /// Does `ending`'s distance file say which rule decides each of its results of the
    /// rules of perpetual check and chase ([`TableValue::rule`](crate::TableValue::rule))?
    /// `false` for a table where both sides attack in a file of format version 3 or
    /// older, or rewritten from one (`xq tb gen` makes it again); `None` when the ending is
    /// not in the directory.
    ///
    /// # Errors
    /// When the file cannot be opened or its header is not good.
    pub fn says_the_rule(&self, ending: &Ending) -> Result<Option<bool>, TablebaseError> {
        let Some(file) = self.file(ending) else {
            return Ok(None);
        };
        Ok(Some(file?.header.says_the_rule()))
    }

    /// Does `ending`'s WDL file say which rule decides each of its results of the rules
    /// of perpetual check and chase ([`WdlValue::rule`])? `false` for a table where both
    /// sides attack in a WDL file of format version 4 or older (which
    /// [`rewrite_wdl`](crate::rewrite_wdl) writes again); `None` when the directory has no
    /// WDL file of the ending.
    ///
    /// # Errors
    /// When the file cannot be opened or its header is not good.
    pub fn wdl_says_the_rule(&self, ending: &Ending) -> Result<Option<bool>, TablebaseError> {
        let Some(slot) = self.files.get(ending).and_then(|f| f.wdl.as_ref()) else {
            return Ok(None);
        };
        Ok(Some(slot.open(ending)?.header.says_the_rule()))
    }

    /// Opens every file and checks its header and block table (not its blocks).
    ///
    /// # Errors
    /// The first file that is not a good table.
    pub fn check_headers(&self) -> Result<(), TablebaseError> {
        for (ending, files) in &self.files {
            for slot in files.distance.iter().chain(&files.wdl) {
                slot.open(ending)?;
            }
        }
        Ok(())
    }

    /// Win, draw or loss for the side to move, `None` when the position's ending is not
    /// in the directory or the position is not in its table (a piece on a square no
    /// game brings it to, as composed positions have: see `xq_core::Ignore`).
    ///
    /// # Errors
    /// When the table's file is missing, unreadable, truncated or corrupt (the answer is
    /// never a guess).
    pub fn probe_wdl(&self, pos: &Position) -> Result<Option<TableResult>, TablebaseError> {
        Ok(self.probe_wdl_value(pos)?.map(WdlValue::result))
    }

    /// What a search needs of the position ([`WdlValue`]: the result, whether the rules
    /// decide it, whether a mate is within 120 plies), from the ending's WDL file when the
    /// directory has one (read whole into memory the first time), else from its distance
    /// file. `None` as for [`probe_wdl`](Tablebases::probe_wdl).
    ///
    /// # Errors
    /// As [`probe_wdl`](Tablebases::probe_wdl).
    ///
    /// ```
    /// use xq_core::Position;
    /// use xq_tablebase::{generate, write_wdl, Ending, Tablebases, WdlValue};
    /// let dir = std::env::temp_dir().join(format!("xq-tb-wdl-probe-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// let krk: Ending = "KRK".parse().unwrap();
    /// let table = generate(&krk, &[], 1, &|_| {}).unwrap();
    /// // Only the WDL file: enough for a search, not for distances.
    /// write_wdl(&table, &dir.join(krk.wdl_file_name()), 1).unwrap();
    /// let tb = Tablebases::open(&dir).unwrap();
    /// let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w").unwrap();
    /// assert_eq!(tb.probe_wdl_value(&pos).unwrap(), Some(WdlValue::Win));
    /// assert_eq!(tb.probe_dtm(&pos).unwrap(), None);
    /// std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn probe_wdl_value(&self, pos: &Position) -> Result<Option<WdlValue>, TablebaseError> {
        let Some((ending, strong)) = self.ending_of(pos) else {
            return Ok(None);
        };
        let Some(slot) = self.files[&ending].wdl.as_ref() else {
            return Ok(self.dtm(&ending, strong, pos)?.map(TableValue::wdl_value));
        };
        let file = slot.open(&ending)?;
        let Some(entry) = Self::entry(&file, pos, strong) else {
            return Ok(None);
        };
        file.wdl(entry).map(Some)
    }

    /// The rule that decides the position's result when the rules of perpetual check and
    /// chase decide it ([`Rule`](crate::Rule)), from the ending's distance file when the
    /// directory has one, else from its WDL file. `None` for a mate, a draw, a position
    /// not in the tables, and a rule result whose file does not record the rule (a
    /// distance file of format version 3, a WDL file of version 4 or older).
    ///
    /// # Errors
    /// As [`probe_wdl`](Tablebases::probe_wdl).
    ///
    /// ```
    /// use xq_core::Position;
    /// use xq_tablebase::{generate, write_wdl, Ending, Rule, Tablebases};
    /// let dir = std::env::temp_dir().join(format!("xq-tb-rule-probe-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// let make = |name: &str, subs: &[&_]| generate(&name.parse().unwrap(), subs, 1, &|_| {});
    /// let (krk, knk) = (make("KRK", &[]).unwrap(), make("KNK", &[]).unwrap());
    /// let krkn = make("KRKN", &[&krk, &knk]).unwrap();
    /// // The WDL file alone says which rule: the horse on b1 can only check forever.
    /// let name = "KRKN".parse::<Ending>().unwrap().wdl_file_name();
    /// write_wdl(&krkn, &dir.join(name), 1).unwrap();
    /// let tb = Tablebases::open(&dir).unwrap();
    /// let pos = Position::from_fen("9/9/4k4/9/9/9/9/9/1n7/R2K5 w").unwrap();
    /// assert_eq!(tb.probe_rule(&pos).unwrap(), Some(Rule::PerpetualCheck));
    /// assert_eq!(tb.probe_dtm(&pos).unwrap(), None);
    /// std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn probe_rule(&self, pos: &Position) -> Result<Option<crate::Rule>, TablebaseError> {
        if let Some(v) = self.probe_dtm(pos)? {
            return Ok(v.rule());
        }
        Ok(self.probe_wdl_value(pos)?.and_then(WdlValue::rule))
    }

    /// The ending of `pos` and its attacking side, when the directory has a file of it.
    fn ending_of(&self, pos: &Position) -> Option<(Ending, Color)> {
        let pieces = pos.pieces(Color::Red).count() + pos.pieces(Color::Black).count();
        if pieces > self.max_pieces {
            return None;
        }
        Ending::of_position(pos).filter(|(e, _)| self.files.contains_key(e))
    }

    /// The entry (`side * size + index`) of `pos` in `file`, `None` for a position that
    /// has no number (a piece on a square no game brings it to).
    fn entry(file: &TableFile, pos: &Position, strong: Color) -> Option<u64> {
        let p = file.layout.placement(pos, strong);
        // A piece on a square no game brings it to (a composed position, accepted with
        // `Ignore::PLAYABLE`) has no number: not in the tables.
        let c = file.layout.canon(&p)?;
        let side = match strong {
            Color::Red => pos.side_to_move(),
            Color::Black => !pos.side_to_move(),
        };
        Some(file.layout.entry(side, c.index))
    }

    /// The exact value for the side to move with the distance to mate in plies, `None`
    /// when the position's ending has no distance file in the directory or the position
    /// is not in its table (as [`probe_wdl`](Tablebases::probe_wdl)).
    ///
    /// # Errors
    /// As [`probe_wdl`](Tablebases::probe_wdl).
    pub fn probe_dtm(&self, pos: &Position) -> Result<Option<TableValue>, TablebaseError> {
        match self.ending_of(pos) {
            Some((ending, strong)) => self.dtm(&ending, strong, pos),
            None => Ok(None),
        }
    }

    /// [`probe_dtm`](Tablebases::probe_dtm) once the ending of `pos` is known.
    fn dtm(
        &self,
        ending: &Ending,
        strong: Color,
        pos: &Position,
    ) -> Result<Option<TableValue>, TablebaseError> {
        let Some(file) = self.file(ending) else {
            return Ok(None);
        };
        let file = file?;
        let Some(entry) = Self::entry(&file, pos, strong) else {
            return Ok(None);
        };
        match TableValue::from_code(file.code(entry)?) {
            Some(v) => Ok(Some(v)),
            None => Err(TablebaseError::Corrupt {
                path: file.path().to_path_buf(),
                what: "a legal position is stored as no position",
            }),
        }
    }

    /// The value of every legal move for the side to move (after the move, seen by the
    /// mover: a move to a position the opponent loses in 4 plies is a win in 5), best
    /// first: the fastest mate, then draws, then the longest defence. `None` when the
    /// position or a position a move leads to is not in the directory. A capture of the
    /// last attacker is a draw (or a win if it leaves the opponent without a legal move).
    ///
    /// # Errors
    /// As [`probe_wdl`](Tablebases::probe_wdl).
    pub fn root_moves(
        &self,
        pos: &Position,
    ) -> Result<Option<Vec<(Move, TableValue)>>, TablebaseError> {
        if !self.covers(pos) {
            return Ok(None);
        }
        let mut pos = pos.clone();
        let mut out = Vec::new();
        for m in xq_movegen::legal_moves(&pos) {
            let captured = pos.piece_on(m.to());
            let undo = pos.make_move(m);
            let child = match captured {
                Some(piece) if !has_attacker(&pos) => {
                    let _ = piece;
                    Some(if xq_movegen::count_legal(&pos) == 0 {
                        TableValue::Loss { plies: 0 }
                    } else {
                        TableValue::Draw
                    })
                }
                _ => self.probe_dtm(&pos)?,
            };
            pos.unmake_move(m, undo);
            match child {
                Some(v) => out.push((m, v.for_mover())),
                None => return Ok(None),
            }
        }
        out.sort_by_key(|(_, v)| std::cmp::Reverse(v.rank()));
        Ok(Some(out))
    }
}

/// Does either side still have a chariot, horse, cannon or soldier?
fn has_attacker(pos: &Position) -> bool {
    Color::ALL.iter().any(|&c| {
        crate::ending::ATTACKERS
            .iter()
            .any(|&k| pos.squares_of(Piece::new(c, k)).next().is_some())
    })
}
