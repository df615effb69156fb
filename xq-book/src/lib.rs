#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod builder;
pub mod eleeye;
mod native;

pub use builder::{BookBuilder, BuildOptions};

use std::fmt;
use std::path::{Path, PathBuf};
use xq_core::{zobrist, Color, Move, Position, Square};

/// The layout a book was read from (and is written in by [`Book::to_bytes`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// xq's own, versioned format (built by [`BookBuilder`]; see the crate docs).
    Xq,
    /// ElephantEye's `BOOK.DAT` (see [`eleeye`]).
    ElephantEye,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Xq => "xq",
            Format::ElephantEye => "ElephantEye",
        })
    }
}

/// How the games that went into a book went for the side that played a move (a book in
/// ElephantEye's layout has only weights: all zero).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Stats {
    /// Games the side that played the move won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the side that played the move lost.
    pub losses: u32,
    /// Games without a result (`*`).
    pub unfinished: u32,
}

impl Stats {
    /// Games in all.
    pub fn games(&self) -> u64 {
        u64::from(self.wins)
            + u64::from(self.draws)
            + u64::from(self.losses)
            + u64::from(self.unfinished)
    }

    /// The book's weight for these games: 3 for a win, 2 for a draw or a game without a
    /// result, 1 for a loss. Every game counts (how often a move was played), a won game
    /// three times a lost one (how well).
    ///
    /// ```
    /// use xq_book::Stats;
    /// let s = Stats { wins: 2, draws: 1, losses: 3, unfinished: 0 };
    /// assert_eq!(s.weight(), 2 * 3 + 2 + 3);
    /// assert_eq!(s.games(), 6);
    /// ```
    pub fn weight(&self) -> u32 {
        let w = 3 * u64::from(self.wins)
            + 2 * (u64::from(self.draws) + u64::from(self.unfinished))
            + u64::from(self.losses);
        w.min(u64::from(u32::MAX)) as u32
    }
}

/// One move of a position's book.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BookMove {
    /// The move, legal in the position probed.
    pub mv: Move,
    /// Its weight: a move is picked with a chance of its weight over the position's sum.
    pub weight: u32,
    /// How its games went (all zero in a book read from ElephantEye's layout).
    pub stats: Stats,
}

/// Why a book could not be read, written or built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        message: String,
    },
    /// The file is empty.
    Empty,
    /// xq's format: the file is shorter or longer than its header says.
    Truncated {
        /// The length the header gives, bytes.
        expected: u64,
        /// The length found, bytes.
        found: u64,
    },
    /// xq's format: a version this reader does not know (a newer xq wrote it).
    UnsupportedVersion(u32),
    /// xq's format: a record size other than the version's.
    BadRecordSize(u32),
    /// ElephantEye's layout: the length is not a whole number of 8-byte records.
    BadLength(u64),
    /// A record out of key order: not a book (or a corrupt one).
    Unsorted {
        /// The record's index from 0.
        record: u64,
    },
    /// A record whose move is not a move between two board squares.
    BadMove {
        /// The record's index from 0.
        record: u64,
        /// The stored value.
        value: u16,
    },
    /// Building: a game's move is not legal where it is played.
    IllegalMove {
        /// The ply of the move, from 0.
        ply: usize,
        /// The move.
        mv: Move,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io { path, message } => write!(f, "{}: {message}", path.display()),
            BookError::Empty => f.write_str("the book is empty (0 bytes)"),
            BookError::Truncated { expected, found } => write!(
                f,
                "corrupt xq book: its header says {expected} bytes, the file has {found}"
            ),
            BookError::UnsupportedVersion(v) => {
                write!(
                    f,
                    "xq book version {v}: this xq reads version {}",
                    native::VERSION
                )
            }
            BookError::BadRecordSize(n) => {
                write!(
                    f,
                    "corrupt xq book: records of {n} bytes, not {}",
                    native::RECORD
                )
            }
            BookError::BadLength(n) => write!(
                f,
                "not a book: {n} bytes is neither an xq book nor a whole number of \
                 ElephantEye's 8-byte records"
            ),
            BookError::Unsorted { record } => write!(
                f,
                "not a book, or a corrupt one: record {record} is out of key order"
            ),
            BookError::BadMove { record, value } => write!(
                f,
                "corrupt book: record {record} holds {value:#06x}, not a move"
            ),
            BookError::IllegalMove { ply, mv } => {
                write!(f, "ply {}: illegal move {mv}", ply + 1)
            }
        }
    }
}

// `Display` says everything: `source` stays `None`.
impl std::error::Error for BookError {}

/// One stored move: the position's key, the raw move, its weight and games.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Record {
    key: u64,
    mv: u16,
    weight: u32,
    stats: Stats,
}

/// What a book in xq's format says of how it was built (zero for ElephantEye's).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildInfo {
    /// Games read.
    pub games: u32,
    /// Plies of each game taken ([`BuildOptions::max_ply`]).
    pub max_ply: u16,
    /// Least games a move needed ([`BuildOptions::min_games`]).
    pub min_games: u16,
}

/// An opening book in memory: moves by position, with weights. See the crate docs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    format: Format,
    /// Sorted by key, then move.
    records: Vec<Record>,
    info: BuildInfo,
}

/// The key of `pos` with every piece mirrored left to right.
fn flip_horizontal_key(pos: &Position) -> u64 {
    let mut key = if pos.side_to_move() == Color::Black {
        zobrist::side_to_move()
    } else {
        0
    };
    for sq in Square::ALL {
        if let Some(p) = pos.piece_on(sq) {
            key ^= zobrist::piece_square(p, sq.flip_horizontal());
        }
    }
    key
}

/// Where a position's moves are stored in xq's format: the smaller of its key and its
/// mirror's, and whether that is the mirror's (its moves are then stored mirrored).
fn xq_slot(pos: &Position) -> (u64, bool) {
    let (key, mirror) = (pos.key(), flip_horizontal_key(pos));
    if mirror < key {
        (mirror, true)
    } else {
        (key, false)
    }
}

impl Book {
    /// A book read from bytes in either layout: xq's format (it starts with
    /// [`native::MAGIC`](crate#xqs-format)) or ElephantEye's.
    ///
    /// # Errors
    /// The bytes are not a book in either layout, or a corrupt one.
    ///
    /// ```
    /// use xq_book::{Book, BookError};
    /// assert_eq!(Book::from_bytes(&[]), Err(BookError::Empty));
    /// assert_eq!(Book::from_bytes(b"not a book"), Err(BookError::BadLength(10)));
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.is_empty() {
            return Err(BookError::Empty);
        }
        if native::is_native(bytes) {
            native::read(bytes)
        } else {
            read_eleeye(bytes)
        }
    }

    /// The book in the file at `path`.
    ///
    /// # Errors
    /// The file cannot be read or is not a regular file, or is not a book
    /// ([`Book::from_bytes`]).
    pub fn open(path: impl AsRef<Path>) -> Result<Book, BookError> {
        let path = path.as_ref();
        let io = |message: String| BookError::Io {
            path: path.to_path_buf(),
            message,
        };
        // Not a device or a pipe: reading `/dev/zero` would never end.
        let meta = std::fs::metadata(path).map_err(|e| io(e.to_string()))?;
        if !meta.is_file() {
            return Err(io("not a regular file".into()));
        }
        let bytes = std::fs::read(path).map_err(|e| io(e.to_string()))?;
        Book::from_bytes(&bytes)
    }

    /// The book as bytes, in the layout it was read in (a built book: xq's format).
    pub fn to_bytes(&self) -> Vec<u8> {
        match self.format {
            Format::Xq => native::write(self),
            Format::ElephantEye => {
                let mut out = Vec::with_capacity(self.records.len() * 8);
                for r in &self.records {
                    out.extend_from_slice(&(r.key as u32).to_le_bytes());
                    out.extend_from_slice(&r.mv.to_le_bytes());
                    out.extend_from_slice(
                        &(r.weight.min(u32::from(u16::MAX)) as u16).to_le_bytes(),
                    );
                }
                out
            }
        }
    }

    /// Writes the book to `path` ([`Book::to_bytes`]).
    ///
    /// # Errors
    /// The file cannot be written.
    ///
    /// ```
    /// use xq_book::{Book, BookBuilder, BuildOptions, Format};
    /// let mut builder = BookBuilder::new(BuildOptions::default());
    /// let start = xq_core::Position::startpos();
    /// builder.add_game(&start, &["h2e2".parse().unwrap()], None).unwrap();
    /// let book = builder.finish();
    /// let path = std::env::temp_dir().join(format!("xq-book-doc-{}.bin", std::process::id()));
    /// book.save(&path).unwrap();
    /// let read = Book::open(&path).unwrap();
    /// std::fs::remove_file(&path).unwrap();
    /// assert_eq!(read, book);
    /// assert_eq!((read.format(), read.len(), read.positions()), (Format::Xq, 2, 1));
    /// assert_eq!(read.info().games, 1);
    /// ```
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), BookError> {
        let path = path.as_ref();
        std::fs::write(path, self.to_bytes()).map_err(|e| BookError::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        })
    }

    /// The layout the book was read from.
    pub fn format(&self) -> Format {
        self.format
    }

    /// How the book was built (xq's format; zero for ElephantEye's).
    pub fn info(&self) -> BuildInfo {
        self.info
    }

    /// Stored moves, every position's together.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Has the book no moves at all?
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Positions with at least one stored move (a position and its mirror count once).
    pub fn positions(&self) -> usize {
        let mut n = 0;
        let mut last = None;
        for r in &self.records {
            if last != Some(r.key) {
                n += 1;
                last = Some(r.key);
            }
        }
        n
    }

    /// The records stored under `key`.
    fn slot(&self, key: u64) -> &[Record] {
        let start = self.records.partition_point(|r| r.key < key);
        let end = start + self.records[start..].partition_point(|r| r.key == key);
        &self.records[start..end]
    }

    /// The book's moves in `pos`, legal ones only, heaviest first (then in move order);
    /// empty when the book does not know the position. A position's mirror image shares
    /// its moves (mirrored).
    ///
    /// ```
    /// use xq_book::{BookBuilder, BuildOptions};
    /// use xq_core::Position;
    /// use xq_movegen::GameResult;
    /// let mut builder = BookBuilder::new(BuildOptions::default());
    /// let start = Position::startpos();
    /// let moves = ["h2e2".parse().unwrap(), "h9g7".parse().unwrap()];
    /// builder.add_game(&start, &moves, Some(GameResult::RedWins)).unwrap();
    /// let book = builder.finish();
    /// // The start position is its own mirror: h2e2 and b2e2 both, with Red's win.
    /// let found: Vec<String> = book.probe(&start).iter().map(|b| b.mv.to_string()).collect();
    /// assert_eq!(found, ["b2e2", "h2e2"]);
    /// assert_eq!(book.probe(&start)[0].weight, 3);
    /// ```
    pub fn probe(&self, pos: &Position) -> Vec<BookMove> {
        let mut found: Vec<BookMove> = match self.format {
            Format::Xq => {
                let (key, mirrored) = xq_slot(pos);
                self.slot(key)
                    .iter()
                    .filter_map(|r| {
                        let m = Move::from_u16(r.mv)?;
                        Some(self.book_move(r, if mirrored { m.flip_horizontal() } else { m }))
                    })
                    .collect()
            }
            Format::ElephantEye => {
                // As ElephantEye: the position, and only if it is not there, its mirror.
                let direct = self.slot(u64::from(eleeye::lock(pos, false)));
                let (records, mirrored) = if direct.is_empty() {
                    (self.slot(u64::from(eleeye::lock(pos, true))), true)
                } else {
                    (direct, false)
                };
                records
                    .iter()
                    .filter_map(|r| {
                        let m = eleeye::decode_move(r.mv)?;
                        Some(self.book_move(r, if mirrored { m.flip_horizontal() } else { m }))
                    })
                    .collect()
            }
        };
        found.retain(|b| b.weight > 0 && xq_movegen::is_legal(pos, b.mv));
        found.sort_by(|a, b| b.weight.cmp(&a.weight).then(a.mv.cmp(&b.mv)));
        found.dedup_by_key(|b| b.mv);
        found
    }

    fn book_move(&self, r: &Record, mv: Move) -> BookMove {
        BookMove {
            mv,
            weight: r.weight,
            stats: r.stats,
        }
    }

    /// A move of [`Book::probe`] chosen by weight: the move whose share of the summed
    /// weights holds `random % sum`. Any random number picks each move with the chance of
    /// its weight; the same number picks the same move.
    ///
    /// ```
    /// use xq_book::{BookBuilder, BuildOptions};
    /// use xq_core::Position;
    /// let mut builder = BookBuilder::new(BuildOptions::default());
    /// let start = Position::startpos();
    /// builder.add_game(&start, &["h0g2".parse().unwrap()], None).unwrap();
    /// let book = builder.finish();
    /// // h0g2 and its mirror b0c2, two each: 0 and 1 pick one, 2 and 3 the other.
    /// let picks: Vec<String> = (0..4).map(|r| book.pick(&start, r).unwrap().mv.to_string()).collect();
    /// assert_eq!(picks, ["b0c2", "b0c2", "h0g2", "h0g2"]);
    /// ```
    pub fn pick(&self, pos: &Position, random: u64) -> Option<BookMove> {
        let moves = self.probe(pos);
        let sum: u64 = moves.iter().map(|b| u64::from(b.weight)).sum();
        if sum == 0 {
            return None;
        }
        let mut r = random % sum;
        for b in moves {
            if r < u64::from(b.weight) {
                return Some(b);
            }
            r -= u64::from(b.weight);
        }
        None
    }
}

/// A book in ElephantEye's layout.
fn read_eleeye(bytes: &[u8]) -> Result<Book, BookError> {
    if bytes.len() % 8 != 0 {
        return Err(BookError::BadLength(bytes.len() as u64));
    }
    let mut records = Vec::with_capacity(bytes.len() / 8);
    for (i, chunk) in bytes.chunks_exact(8).enumerate() {
        let key = u64::from(u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]));
        let mv = u16::from_le_bytes([chunk[4], chunk[5]]);
        let weight = u32::from(u16::from_le_bytes([chunk[6], chunk[7]]));
        if records.last().is_some_and(|r: &Record| r.key > key) {
            return Err(BookError::Unsorted { record: i as u64 });
        }
        if eleeye::decode_move(mv).is_none() {
            return Err(BookError::BadMove {
                record: i as u64,
                value: mv,
            });
        }
        records.push(Record {
            key,
            mv,
            weight,
            stats: Stats::default(),
        });
    }
    // A position's records stay in the file's order (probes sort what they find):
    // the book is written back byte for byte.
    Ok(Book {
        format: Format::ElephantEye,
        records,
        info: BuildInfo::default(),
    })
}
