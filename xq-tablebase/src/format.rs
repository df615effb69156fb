//! The file format (versions 1 and 2). All numbers are little-endian.
//!
//! | offset | bytes | field |
//! | --- | --- | --- |
//! | 0 | 8 | magic `58 51 54 42 00 0D 0A 1A` (`XQTB`, then bytes that text-mode transfers would alter) |
//! | 8 | 2 | format version: `1`, or `2` for a table that holds results of the rules of perpetual check and chase |
//! | 10 | 1 | bytes per value: `1` or `2` |
//! | 11 | 1 | compression of the blocks: `1`, raw DEFLATE (RFC 1951) |
//! | 12 | 4 | values per block (the last block may hold fewer) |
//! | 16 | 16 | the ending's canonical name in ASCII, padded with zero bytes |
//! | 32 | 8 | numbers per side to move (the index size) |
//! | 40 | 4 | number of blocks |
//! | 44 | 2 | longest mate, in plies |
//! | 46 | 2 | zero |
//! | 48 | 8 | broken numbers (no position), both sides to move |
//! | 56 | 48 | losses, draws, wins with the attacking side to move, then with the defending side (six `u64`) |
//! | 104 | 4 | CRC-32 of the block table |
//! | 108 | 4 | zero |
//! | 112 | 8 | the file's length in bytes |
//! | 120 | 4 | zero |
//! | 124 | 4 | CRC-32 of bytes 0..124 |
//! | 128 | 12 per block | the block table: each block's end offset in the file (`u64`), then the CRC-32 of its decompressed bytes (`u32`) |
//! | ... | | the compressed blocks, one after the other from the end of the block table |
//!
//! The values are the numbers of the index with the attacking side to move, then the
//! same numbers with the defending side to move, each stored in the given width as a
//! code: `0` for a number that is no position, `1` for a draw, `2 + d` for a mate in `d`
//! plies (odd `d`: the side to move wins; even: it loses). Version 2 adds two codes, in
//! tables where both sides have attacking pieces (always 2 bytes a value): `0xFFFF`, the
//! side to move wins by the rules of perpetual check and chase, and `0xFFFE`, it loses by them.
//! A table without them is written as version 1, so that earlier readers read it. The CRC is the CRC-32 of
//! ISO-HDLC (zlib's).
//!
//! # The index
//!
//! A number stands for a placement of the ending's pieces with the attacking side as Red
//! (a position with Black attacking is read with the colours swapped and the board
//! mirrored across the river). It is a mixed-radix number, most significant first:
//!
//! 1. the *palace pair*: Red's general and advisors, and Black's, each one of the
//!    combinations of a general on its 9 palace squares and its advisors on their 5
//!    points with no two on one point (numbered by general square, then by the bit mask
//!    of the advisors' points, both in ascending square order), as the pairs `(red,
//!    black)` with `red * count + black` not above the same number of the left-right
//!    mirror image, in ascending order;
//! 2. Red's elephants, then Black's, each a combination of the 7 elephant points;
//! 3. Red's chariots, horses, cannons and soldiers, each kind a combination of its
//!    squares: all 90 for chariots, horses and cannons, the 55 a soldier can reach for
//!    soldiers; then Black's the same way, when both sides have attacking pieces (the
//!    attacking side, Red, is then the stronger army: see `Ending`).
//!
//! Squares are ordered by the dense index of `xq_core::Square` (`a0` = 0, `i9` = 89); a
//! combination of `k` pieces on points `p1 < ... < pk` (their ranks in the list of
//! points) is numbered `C(p1, 1) + ... + C(pk, k)`. A number is *broken* (code 0) when
//! two pieces share a square, when its position is illegal (generals facing, the side
//! not to move in check), and when its palace pair is its own mirror image and the mirror
//! image of its placement has a smaller number.

use crate::ending::Ending;
use crate::gen::Table;
use crate::index::Layout;
use crate::TablebaseError;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

const MAGIC: [u8; 8] = [b'X', b'Q', b'T', b'B', 0, 0x0d, 0x0a, 0x1a];
/// The newest format version this crate writes and reads (it reads every version from 1).
pub const FORMAT_VERSION: u16 = 2;
const HEADER: usize = 128;
const BLOCK_ENTRY: usize = 12;
const DEFLATE: u8 = 1;
/// Values per block.
const BLOCK_VALUES: u32 = 4096;
/// Decompressed blocks kept per open file.
const CACHE_BLOCKS: usize = 32;

/// CRC-32 (ISO-HDLC, as zlib computes it).
pub(crate) fn crc32(data: &[u8]) -> u32 {
    const TABLE: [u32; 256] = {
        let mut t = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            let mut c = i as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 != 0 {
                    0xedb8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
                k += 1;
            }
            t[i] = c;
            i += 1;
        }
        t
    };
    let mut c = !0u32;
    for &b in data {
        c = TABLE[((c ^ b as u32) & 0xff) as usize] ^ (c >> 8);
    }
    !c
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

fn io_error(path: &Path, e: std::io::Error) -> TablebaseError {
    TablebaseError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// Writes `table` to `path` (through a temporary file renamed at the end) and returns
/// the file's size in bytes.
///
/// # Errors
/// [`TablebaseError::Io`] when the file cannot be written.
pub fn write_table(table: &Table, path: &Path) -> Result<u64, TablebaseError> {
    let stats = table.stats();
    let max = table.codes.iter().copied().max().unwrap_or(0);
    let width: u8 = if max <= u8::MAX as u16 { 1 } else { 2 };
    // Block by block: no second copy of the whole table.
    let blocks: Vec<(Vec<u8>, u32)> = table
        .codes
        .chunks(BLOCK_VALUES as usize)
        .map(|chunk| {
            let b: Vec<u8> = if width == 1 {
                chunk.iter().map(|&c| c as u8).collect()
            } else {
                chunk.iter().flat_map(|c| c.to_le_bytes()).collect()
            };
            (miniz_oxide::deflate::compress_to_vec(&b, 9), crc32(&b))
        })
        .collect();
    let mut table_bytes = Vec::with_capacity(blocks.len() * BLOCK_ENTRY);
    let mut end = (HEADER + blocks.len() * BLOCK_ENTRY) as u64;
    for (data, crc) in &blocks {
        end += data.len() as u64;
        table_bytes.extend_from_slice(&end.to_le_bytes());
        table_bytes.extend_from_slice(&crc.to_le_bytes());
    }
    let mut h = vec![0u8; HEADER];
    h[..8].copy_from_slice(&MAGIC);
    let version: u16 = if max >= crate::value::CODE_RULE_LOSS {
        2
    } else {
        1
    };
    h[8..10].copy_from_slice(&version.to_le_bytes());
    h[10] = width;
    h[11] = DEFLATE;
    h[12..16].copy_from_slice(&BLOCK_VALUES.to_le_bytes());
    let name = table.layout.ending.to_string();
    h[16..16 + name.len()].copy_from_slice(name.as_bytes());
    h[32..40].copy_from_slice(&table.layout.size.to_le_bytes());
    h[40..44].copy_from_slice(&(blocks.len() as u32).to_le_bytes());
    h[44..46].copy_from_slice(&stats.longest.to_le_bytes());
    h[48..56].copy_from_slice(&stats.broken.to_le_bytes());
    for (i, c) in stats.counts.iter().flatten().enumerate() {
        h[56 + 8 * i..64 + 8 * i].copy_from_slice(&c.to_le_bytes());
    }
    h[104..108].copy_from_slice(&crc32(&table_bytes).to_le_bytes());
    h[112..120].copy_from_slice(&end.to_le_bytes());
    let crc = crc32(&h[..124]);
    h[124..128].copy_from_slice(&crc.to_le_bytes());

    let tmp = path.with_extension("xqtb.part");
    let write = || -> std::io::Result<()> {
        let mut f = std::io::BufWriter::new(File::create(&tmp)?);
        f.write_all(&h)?;
        f.write_all(&table_bytes)?;
        for (data, _) in &blocks {
            f.write_all(data)?;
        }
        f.into_inner()?.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| io_error(path, e))?;
    Ok(end)
}

/// What a file's header says.
#[derive(Clone, Debug)]
pub(crate) struct Header {
    pub ending: Ending,
    width: u8,
    block_values: u32,
    pub size: u64,
    pub longest: u16,
    pub broken: u64,
    pub counts: [[u64; 3]; 2],
    pub length: u64,
}

/// An open table file: its header and block table in memory, blocks read on demand.
#[derive(Debug)]
pub(crate) struct TableFile {
    path: PathBuf,
    pub header: Header,
    pub layout: Layout,
    blocks: Vec<(u64, u32)>,
    file: Mutex<File>,
    cache: Mutex<Vec<(usize, Arc<Vec<u8>>)>>,
}

impl TableFile {
    /// Opens a table, checking the header, the block table and the file's length.
    pub fn open(path: &Path) -> Result<TableFile, TablebaseError> {
        let corrupt = |what: &'static str| TablebaseError::Corrupt {
            path: path.to_path_buf(),
            what,
        };
        let mut file = File::open(path).map_err(|e| io_error(path, e))?;
        let actual = file.metadata().map_err(|e| io_error(path, e))?.len();
        let mut h = [0u8; HEADER];
        if actual < HEADER as u64 {
            return Err(if actual >= 8 && !read_magic_ok(&mut file) {
                TablebaseError::NotATable(path.to_path_buf())
            } else {
                TablebaseError::Truncated {
                    path: path.to_path_buf(),
                    expected: HEADER as u64,
                    found: actual,
                }
            });
        }
        file.read_exact(&mut h).map_err(|e| io_error(path, e))?;
        if h[..8] != MAGIC {
            return Err(TablebaseError::NotATable(path.to_path_buf()));
        }
        let version = u16_at(&h, 8);
        if !(1..=FORMAT_VERSION).contains(&version) {
            return Err(TablebaseError::UnsupportedVersion {
                path: path.to_path_buf(),
                version,
            });
        }
        if crc32(&h[..124]) != u32_at(&h, 124) {
            return Err(corrupt("header checksum"));
        }
        let name_len = h[16..32].iter().position(|&b| b == 0).unwrap_or(16);
        let ending: Ending = std::str::from_utf8(&h[16..16 + name_len])
            .ok()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| corrupt("ending name"))?;
        let width = h[10];
        let block_values = u32_at(&h, 12);
        let size = u64_at(&h, 32);
        let block_count = u32_at(&h, 40) as u64;
        let layout = Layout::new(ending);
        if !(width == 1 || width == 2) || h[11] != DEFLATE || block_values == 0 {
            return Err(corrupt("value width, compression or block size"));
        }
        if size != layout.size || block_count != (2 * size).div_ceil(block_values as u64) {
            return Err(corrupt("number of positions or blocks"));
        }
        let length = u64_at(&h, 112);
        if actual != length {
            return Err(TablebaseError::Truncated {
                path: path.to_path_buf(),
                expected: length,
                found: actual,
            });
        }
        let mut raw = vec![0u8; block_count as usize * BLOCK_ENTRY];
        file.read_exact(&mut raw).map_err(|e| io_error(path, e))?;
        if crc32(&raw) != u32_at(&h, 104) {
            return Err(corrupt("block table checksum"));
        }
        let blocks: Vec<(u64, u32)> = raw
            .chunks(BLOCK_ENTRY)
            .map(|c| (u64_at(c, 0), u32_at(c, 8)))
            .collect();
        let mut start = (HEADER + raw.len()) as u64;
        for &(end, _) in &blocks {
            if end < start || end > length {
                return Err(corrupt("block offsets"));
            }
            start = end;
        }
        if start != length {
            return Err(corrupt("block offsets"));
        }
        let mut counts = [[0u64; 3]; 2];
        for (i, c) in counts.iter_mut().flatten().enumerate() {
            *c = u64_at(&h, 56 + 8 * i);
        }
        Ok(TableFile {
            path: path.to_path_buf(),
            header: Header {
                ending,
                width,
                block_values,
                size,
                longest: u16_at(&h, 44),
                broken: u64_at(&h, 48),
                counts,
                length,
            },
            layout,
            blocks,
            file: Mutex::new(file),
            cache: Mutex::new(Vec::with_capacity(CACHE_BLOCKS)),
        })
    }

    /// The bytes of block `b`, decompressed and checked.
    fn block(&self, b: usize) -> Result<Arc<Vec<u8>>, TablebaseError> {
        {
            let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(i) = cache.iter().position(|(n, _)| *n == b) {
                let hit = cache.remove(i);
                let data = hit.1.clone();
                cache.insert(0, hit);
                return Ok(data);
            }
        }
        let start = if b == 0 {
            (HEADER + self.blocks.len() * BLOCK_ENTRY) as u64
        } else {
            self.blocks[b - 1].0
        };
        let (end, crc) = self.blocks[b];
        let mut compressed = vec![0u8; (end - start) as usize];
        {
            let mut f = self.file.lock().unwrap_or_else(|e| e.into_inner());
            f.seek(SeekFrom::Start(start))
                .and_then(|_| f.read_exact(&mut compressed))
                .map_err(|e| io_error(&self.path, e))?;
        }
        let total = 2 * self.header.size;
        let first = b as u64 * self.header.block_values as u64;
        let values = (total - first).min(self.header.block_values as u64) as usize;
        let expected = values * self.header.width as usize;
        let corrupt = || TablebaseError::Corrupt {
            path: self.path.clone(),
            what: "block data",
        };
        let data = miniz_oxide::inflate::decompress_to_vec_with_limit(&compressed, expected)
            .map_err(|_| corrupt())?;
        if data.len() != expected || crc32(&data) != crc {
            return Err(corrupt());
        }
        let data = Arc::new(data);
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.insert(0, (b, data.clone()));
        cache.truncate(CACHE_BLOCKS);
        Ok(data)
    }

    /// The code stored for `entry` (`side * size + index`).
    pub fn code(&self, entry: u64) -> Result<u16, TablebaseError> {
        let per = self.header.block_values as u64;
        let data = self.block((entry / per) as usize)?;
        let i = (entry % per) as usize;
        Ok(if self.header.width == 1 {
            data[i] as u16
        } else {
            u16::from_le_bytes([data[2 * i], data[2 * i + 1]])
        })
    }

    /// The whole table in memory (every block read and checked).
    pub fn read_all(&self) -> Result<Table, TablebaseError> {
        let mut codes = Vec::with_capacity(2 * self.header.size as usize);
        for b in 0..self.blocks.len() {
            let data = self.block(b)?;
            if self.header.width == 1 {
                codes.extend(data.iter().map(|&c| c as u16));
            } else {
                codes.extend(data.chunks(2).map(|c| u16::from_le_bytes([c[0], c[1]])));
            }
        }
        Ok(Table {
            layout: self.layout.clone(),
            codes,
            by_chase: None,
        })
    }
}

fn read_magic_ok(file: &mut File) -> bool {
    let mut m = [0u8; 8];
    file.seek(SeekFrom::Start(0)).is_ok() && file.read_exact(&mut m).is_ok() && m == MAGIC
}

/// Reads a whole table into memory (to verify it, or to generate a larger ending from
/// it), checking every block.
///
/// # Errors
/// When the file is unreadable, not a table, truncated or corrupt.
pub fn read_table(path: &Path) -> Result<Table, TablebaseError> {
    TableFile::open(path)?.read_all()
}

/// The tables of `dir` that `ending`'s captures lead to, which generating or verifying
/// it needs.
///
/// # Errors
/// A table that is missing ([`TablebaseError::MissingTable`]) or cannot be read.
pub fn read_captures(dir: &Path, ending: &Ending) -> Result<Vec<Table>, TablebaseError> {
    ending
        .captures()
        .iter()
        .map(|sub| {
            let path = dir.join(sub.file_name());
            if !path.exists() {
                return Err(TablebaseError::MissingTable(*sub));
            }
            read_table(&path)
        })
        .collect()
}

/// Verifies the table of `ending` in `dir` by a forward pass ([`verify`](crate::verify)),
/// with the tables its captures lead to; the positions checked.
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
    let subs = read_captures(dir, ending)?;
    let refs: Vec<&Table> = subs.iter().collect();
    crate::verify(&table, &refs, threads, progress)
}

#[cfg(test)]
mod tests {
    #[test]
    fn crc_of_the_check_string() {
        assert_eq!(super::crc32(b"123456789"), 0xcbf4_3926);
    }
}
