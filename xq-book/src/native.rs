//! xq's own book format, version 1 (documented in the crate docs): a 32-byte header,
//! then 32-byte records sorted by key and move, every number little-endian.

use crate::{Book, BookError, BuildInfo, Format, Record, Stats};

/// The first eight bytes of a book in xq's format.
pub(crate) const MAGIC: [u8; 8] = *b"xq-book\x1a";
/// The format's version.
pub(crate) const VERSION: u32 = 1;
/// Bytes of the header.
const HEADER: usize = 32;
/// Bytes of a record.
pub(crate) const RECORD: u32 = 32;

/// Do the bytes start like a book in xq's format (or like a cut-off start of one)?
pub(crate) fn is_native(bytes: &[u8]) -> bool {
    let n = bytes.len().min(MAGIC.len());
    bytes[..n] == MAGIC[..n]
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

/// Reads a book in xq's format (the bytes start with [`MAGIC`], or part of it).
pub(crate) fn read(bytes: &[u8]) -> Result<Book, BookError> {
    let found = bytes.len() as u64;
    if bytes.len() < HEADER {
        return Err(BookError::Truncated {
            expected: HEADER as u64,
            found,
        });
    }
    let version = u32_at(bytes, 8);
    if version != VERSION {
        return Err(BookError::UnsupportedVersion(version));
    }
    let record_size = u32_at(bytes, 12);
    if record_size != RECORD {
        return Err(BookError::BadRecordSize(record_size));
    }
    let count = u64_at(bytes, 16);
    let expected = count
        .checked_mul(u64::from(RECORD))
        .and_then(|n| n.checked_add(HEADER as u64))
        .unwrap_or(u64::MAX);
    if expected != found {
        return Err(BookError::Truncated { expected, found });
    }
    let info = BuildInfo {
        games: u32_at(bytes, 24),
        max_ply: u16_at(bytes, 28),
        min_games: u16_at(bytes, 30),
    };
    let mut records: Vec<Record> = Vec::with_capacity(count as usize);
    for (i, r) in bytes[HEADER..].chunks_exact(RECORD as usize).enumerate() {
        let record = Record {
            key: u64_at(r, 0),
            mv: u16_at(r, 8),
            weight: u32_at(r, 12),
            stats: Stats {
                wins: u32_at(r, 16),
                draws: u32_at(r, 20),
                losses: u32_at(r, 24),
                unfinished: u32_at(r, 28),
            },
        };
        let index = i as u64;
        if xq_core::Move::from_u16(record.mv).is_none() || u16_at(r, 10) != 0 {
            return Err(BookError::BadMove {
                record: index,
                value: record.mv,
            });
        }
        if records
            .last()
            .is_some_and(|last| (last.key, last.mv) >= (record.key, record.mv))
        {
            return Err(BookError::Unsorted { record: index });
        }
        records.push(record);
    }
    Ok(Book {
        format: Format::Xq,
        records,
        info,
    })
}

/// The bytes of `book` in xq's format.
pub(crate) fn write(book: &Book) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER + book.records.len() * RECORD as usize);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&RECORD.to_le_bytes());
    out.extend_from_slice(&(book.records.len() as u64).to_le_bytes());
    out.extend_from_slice(&book.info.games.to_le_bytes());
    out.extend_from_slice(&book.info.max_ply.to_le_bytes());
    out.extend_from_slice(&book.info.min_games.to_le_bytes());
    for r in &book.records {
        out.extend_from_slice(&r.key.to_le_bytes());
        out.extend_from_slice(&r.mv.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(&r.weight.to_le_bytes());
        out.extend_from_slice(&r.stats.wins.to_le_bytes());
        out.extend_from_slice(&r.stats.draws.to_le_bytes());
        out.extend_from_slice(&r.stats.losses.to_le_bytes());
        out.extend_from_slice(&r.stats.unfinished.to_le_bytes());
    }
    out
}
