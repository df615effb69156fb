//! The file format (version 5; versions 1 to 4 are read too). All numbers are
//! little-endian. A table comes in two files: the *distance* file (`KRKN.xqtb`, the
//! exact value and distance to mate of each position) and the *WDL* file (`KRKN.xqwdl`,
//! only what a search needs: [`WdlValue`], far smaller, read whole into memory). Both
//! have the layout below; the WDL file has its own magic and stores one byte a value.
//!
//! | offset | bytes | field |
//! | --- | --- | --- |
//! | 0 | 8 | magic `58 51 54 42 00 0D 0A 1A` (`XQTB`, then bytes that text-mode transfers would alter); `58 51 57 4C 00 0D 0A 1A` (`XQWL`) in a WDL file |
//! | 8 | 2 | format version: `5` (`1` to `4` below) |
//! | 10 | 1 | bytes per value: `1` or `2` |
//! | 11 | 1 | compression of the blocks: `2`, Brotli (RFC 7932), from version 3; `1`, raw DEFLATE (RFC 1951), in versions 1 and 2 |
//! | 12 | 4 | values per block (the last block may hold fewer): 4,096 |
//! | 16 | 16 | the ending's canonical name in ASCII, padded with zero bytes |
//! | 32 | 8 | numbers per side to move (the index size) |
//! | 40 | 4 | number of blocks |
//! | 44 | 2 | longest mate, in plies |
//! | 46 | 2 | flags: bit 0 set when the table holds rule results that do not say which rule (`0xFFFF`, `0xFFFE`: a file of version 3 rewritten); zero before version 4 |
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
//! code: `1` for a draw, `2 + d` for a mate in `d` plies (odd `d`: the side to move wins;
//! even: it loses), and for the rules of perpetual check and chase (tables where both
//! sides have attacking pieces), in two bytes, `0xFFFB` the side to move wins by the
//! perpetual-chase rule and `0xFFFA` it loses by it, `0xFFFD` and `0xFFFC` the same by
//! the perpetual-check rule, `0xFFFF` and `0xFFFE` by a rule not recorded (a table of
//! version 3 rewritten); in one byte, the same codes' low bytes, `250` to `255`. A table
//! is written one byte a value when its longest mate is at most 247 plies (`2 + d` below
//! 250). A *broken* number (no position)
//! holds the code of the number before it (`1` at the start): no probe asks for it, and
//! the runs compress better; the reader finds the broken numbers again from the index.
//! The CRC is the CRC-32 of ISO-HDLC (zlib's).
//!
//! A WDL file (from version 3) stores each value as one byte, the index of its
//! [`WdlValue`]: `0` loss, `1` loss by the rules, `2` loss by a mate in more than 120
//! plies, `3` draw, `4` win by a mate in more than 120 plies, `5` win by the rules, `6`
//! win, and from version 5 the rules' results that say which rule: `7` loss by the
//! perpetual-check rule, `8` loss by the perpetual-chase rule, `9` win by the
//! perpetual-check rule, `10` win by the perpetual-chase rule (`1` and `5` are then left
//! for a table that does not record the rule: one of version 3 rewritten). A broken
//! number holds the byte before it (`3` at the start). Its header's counts, longest mate
//! and broken numbers are the distance file's.
//!
//! Version 5 changed the WDL file alone: in versions 3 and 4 it does not say which rule
//! decides a rule result (only `1` and `5`), and a distance file of version 4 is one of
//! version 5 but for the number.
//!
//! Version 3 does not record which rule decides a rule result: its only rule codes are
//! `0xFFFF` (`255`) and `0xFFFE` (`254`), and a one-byte table holds mates up to 251
//! plies. Versions 1 and 2, which earlier builds wrote, differ from version 3 in three
//! things: the blocks are raw DEFLATE, a broken number holds `0`, and one-byte codes are
//! all mates (`2 + d` up to 255); version 2 is a table with the rules' two-byte codes.
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
use crate::gen::{for_chunks, Facts, RuleCounts, Table};
use crate::index::{Cursor, Layout, MAX_PIECES};
use crate::value::{TableValue, WdlValue, CODE_FIRST_RULE, CODE_RULE_LOSS};
use crate::TablebaseError;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use xq_core::Color;

const MAGIC: [u8; 8] = [b'X', b'Q', b'T', b'B', 0, 0x0d, 0x0a, 0x1a];
const WDL_MAGIC: [u8; 8] = [b'X', b'Q', b'W', b'L', 0, 0x0d, 0x0a, 0x1a];

/// Which of a table's two files a file is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The exact values with the distance to mate (`.xqtb`).
    Distance,
    /// Only the [`WdlValue`]s (`.xqwdl`).
    Wdl,
}
/// The newest format version this crate writes and reads (it reads every version from 1).
pub const FORMAT_VERSION: u16 = 5;
const HEADER: usize = 128;
const BLOCK_ENTRY: usize = 12;
/// Compression of versions 1 and 2: raw DEFLATE.
const DEFLATE: u8 = 1;
/// Compression of version 3: Brotli (RFC 7932).
const BROTLI: u8 = 2;
/// Values per block (as in versions 1 and 2): small blocks keep a probe as fast as with DEFLATE.
pub(crate) const BLOCK_VALUES: u32 = 4096;
/// Brotli's quality (0 to 11) and window (log2 bytes) for the blocks.
const BROTLI_QUALITY: u32 = 10;
const BROTLI_WINDOW: u32 = 16;
/// The lowest one-byte code of the rules' results: from version 4, 250 to 255, the low
/// bytes of the two-byte codes (mates are at most 247 plies in a one-byte table); in
/// version 3, 254 and 255 (mates up to 251 plies).
const BYTE_FIRST_RULE: u8 = (CODE_FIRST_RULE & 0xff) as u8;
const BYTE_FIRST_RULE_V3: u8 = (CODE_RULE_LOSS & 0xff) as u8;
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

/// Writes `table` to `path` in the newest format version, compressing its blocks on
/// `threads` threads (through a temporary file renamed at the end), and returns the
/// file's size in bytes.
///
/// # Errors
/// [`TablebaseError::Io`] when the file cannot be written.
pub fn write_table(table: &Table, path: &Path, threads: usize) -> Result<u64, TablebaseError> {
    write_file(table, path, threads, Kind::Distance)
}

/// Writes the WDL file of `table` to `path` (named by [`Ending::wdl_file_name`]): each
/// position's [`WdlValue`] alone, one byte a value before compression, on `threads`
/// threads; returns the file's size in bytes. A search keeps these files in memory
/// ([`Tablebases::probe_wdl_value`](crate::Tablebases::probe_wdl_value)); the distance
/// file stays for the root and for analysis.
///
/// # Errors
/// [`TablebaseError::Io`] when the file cannot be written.
///
/// ```
/// use xq_tablebase::{check_wdl, generate, write_table, write_wdl, Ending};
/// let dir = std::env::temp_dir().join(format!("xq-tb-wdl-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let krk: Ending = "KRK".parse().unwrap();
/// let table = generate(&krk, &[], 1, &|_| {}).unwrap();
/// let distance = write_table(&table, &dir.join(krk.file_name()), 1).unwrap();
/// let wdl = write_wdl(&table, &dir.join(krk.wdl_file_name()), 1).unwrap();
/// assert!(wdl < distance);
/// // Every position of the WDL file agrees with the table.
/// let positions = table.stats().positions();
/// assert_eq!(check_wdl(&table, &dir.join(krk.wdl_file_name())).unwrap(), positions);
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn write_wdl(table: &Table, path: &Path, threads: usize) -> Result<u64, TablebaseError> {
    write_file(table, path, threads, Kind::Wdl)
}

/// The WDL value of a stored code (not 0).
fn wdl_value(code: u16) -> WdlValue {
    TableValue::from_code(code).map_or(WdlValue::Draw, TableValue::wdl_value)
}

fn write_file(
    table: &Table,
    path: &Path,
    threads: usize,
    kind: Kind,
) -> Result<u64, TablebaseError> {
    let facts = Facts::of(&table.codes, 0, table.layout.size);
    let blocks = encode_blocks(&table.codes, 1, width(&facts, kind), kind, threads);
    let (head, blocks) = assemble(table.layout.ending, table.layout.size, kind, &facts, blocks);
    write_parts(path, kind, &head, &blocks)
}

/// Writes a file made by [`assemble`] (through a temporary file renamed at the end) and
/// returns its size in bytes.
pub(crate) fn write_parts(
    path: &Path,
    kind: Kind,
    head: &[u8],
    blocks: &[Vec<u8>],
) -> Result<u64, TablebaseError> {
    let tmp = path.with_extension(match kind {
        Kind::Distance => "xqtb.part",
        Kind::Wdl => "xqwdl.part",
    });
    let write = || -> std::io::Result<()> {
        let mut f = std::io::BufWriter::new(File::create(&tmp)?);
        f.write_all(head)?;
        for data in blocks {
            f.write_all(data)?;
        }
        f.into_inner()?.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| io_error(path, e))?;
    Ok(head.len() as u64 + blocks.iter().map(|b| b.len() as u64).sum::<u64>())
}

/// Bytes a value before compression in a file of `kind` of a table with `facts`.
pub(crate) fn width(facts: &Facts, kind: Kind) -> u8 {
    if kind == Kind::Wdl || facts.longest_code < u16::from(BYTE_FIRST_RULE) {
        1
    } else {
        2
    }
}

/// The blocks of a file of `kind` for `codes`, which start at a block's first value: each
/// compressed, with the CRC of what it stores. `last` is the last code before `codes`
/// that is not 0 (1, a draw, where there is none). On `threads` threads, block by block:
/// no second copy of the whole table.
pub(crate) fn encode_blocks(
    codes: &[u16],
    last: u16,
    width: u8,
    kind: Kind,
    threads: usize,
) -> Vec<(Vec<u8>, u32)> {
    // A broken number is never probed, so it takes the value before it: the runs grow
    // and the blocks shrink. The block's CRC covers what is stored.
    let encode = |first: usize, chunk: &[u16]| -> (Vec<u8>, u32) {
        let mut last = codes[..first]
            .iter()
            .rev()
            .find(|&&c| c != 0)
            .copied()
            .unwrap_or(if last == 0 { 1 } else { last });
        let mut b = Vec::with_capacity(chunk.len() * width as usize);
        for &c in chunk {
            if c != 0 {
                last = c;
            }
            if kind == Kind::Wdl {
                b.push(wdl_value(last).byte());
            } else if width == 1 {
                // A mate's code is below 250 here; a rule's keeps its low byte.
                b.push(last as u8);
            } else {
                b.extend_from_slice(&last.to_le_bytes());
            }
        }
        let mut compressed = Vec::new();
        {
            let mut w =
                brotli::CompressorWriter::new(&mut compressed, 4096, BROTLI_QUALITY, BROTLI_WINDOW);
            w.write_all(&b).expect("writing to memory does not fail");
        }
        (compressed, crc32(&b))
    };
    let per = BLOCK_VALUES as usize;
    let mut blocks = vec![(Vec::new(), 0u32); codes.len().div_ceil(per)];
    for_chunks(
        threads,
        &mut blocks,
        1,
        || (),
        |(), i, slot| {
            let first = i * per;
            let end = (first + per).min(codes.len());
            slot[0] = encode(first, &codes[first..end]);
        },
    );
    blocks
}

/// A file of `kind` of `ending` (`size` numbers a side to move) from its facts and all
/// its blocks ([`encode_blocks`]) in order: its header with the block table, and the
/// blocks' data.
pub(crate) fn assemble(
    ending: Ending,
    size: u64,
    kind: Kind,
    facts: &Facts,
    blocks: Vec<(Vec<u8>, u32)>,
) -> (Vec<u8>, Vec<Vec<u8>>) {
    let mut table_bytes = Vec::with_capacity(blocks.len() * BLOCK_ENTRY);
    let mut end = (HEADER + blocks.len() * BLOCK_ENTRY) as u64;
    for (data, crc) in &blocks {
        end += data.len() as u64;
        table_bytes.extend_from_slice(&end.to_le_bytes());
        table_bytes.extend_from_slice(&crc.to_le_bytes());
    }
    let mut h = vec![0u8; HEADER];
    h[..8].copy_from_slice(match kind {
        Kind::Distance => &MAGIC,
        Kind::Wdl => &WDL_MAGIC,
    });
    h[8..10].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    h[10] = width(facts, kind);
    h[11] = BROTLI;
    h[12..16].copy_from_slice(&BLOCK_VALUES.to_le_bytes());
    let name = ending.to_string();
    h[16..16 + name.len()].copy_from_slice(name.as_bytes());
    h[32..40].copy_from_slice(&size.to_le_bytes());
    h[40..44].copy_from_slice(&(blocks.len() as u32).to_le_bytes());
    h[44..46].copy_from_slice(&facts.longest.to_le_bytes());
    h[46..48].copy_from_slice(&u16::from(facts.unrecorded).to_le_bytes());
    h[48..56].copy_from_slice(&facts.broken.to_le_bytes());
    for (i, c) in facts.counts.iter().flatten().enumerate() {
        h[56 + 8 * i..64 + 8 * i].copy_from_slice(&c.to_le_bytes());
    }
    h[104..108].copy_from_slice(&crc32(&table_bytes).to_le_bytes());
    h[112..120].copy_from_slice(&end.to_le_bytes());
    let crc = crc32(&h[..124]);
    h[124..128].copy_from_slice(&crc.to_le_bytes());
    h.extend_from_slice(&table_bytes);
    (h, blocks.into_iter().map(|(data, _)| data).collect())
}

/// What a file's header says.
#[derive(Clone, Debug)]
pub(crate) struct Header {
    pub kind: Kind,
    pub ending: Ending,
    pub version: u16,
    width: u8,
    block_values: u32,
    pub size: u64,
    pub longest: u16,
    /// Holds rule results that do not say which rule (flag bit 0).
    pub rule_unrecorded: bool,
    pub broken: u64,
    pub counts: [[u64; 3]; 2],
    pub length: u64,
}

impl Header {
    /// Does the file say which rule decides each of its results of the rules of
    /// perpetual check and chase? Always where one side alone attacks (no such result);
    /// where both attack, a distance file from format version 4 and a WDL file from
    /// version 5, unless the table was rewritten from one of version 3.
    pub fn says_the_rule(&self) -> bool {
        let first = match self.kind {
            Kind::Distance => 4,
            Kind::Wdl => 5,
        };
        !self.ending.both_attack() || (self.version >= first && !self.rule_unrecorded)
    }
}

/// Where an open file's blocks are read from.
#[derive(Debug)]
enum Source {
    /// Read on demand (a distance file).
    File(Mutex<File>),
    /// The whole file, read when it was opened (a WDL file).
    Memory(Vec<u8>),
}

/// An open table file: its header and block table in memory, blocks read on demand (or
/// the whole file in memory, for a WDL file).
#[derive(Debug)]
pub(crate) struct TableFile {
    path: PathBuf,
    pub header: Header,
    pub layout: Layout,
    blocks: Vec<(u64, u32)>,
    source: Source,
    cache: Mutex<Vec<(usize, Arc<Vec<u8>>)>>,
}

impl TableFile {
    /// Opens a table, checking the header, the block table and the file's length.
    pub fn open(path: &Path) -> Result<TableFile, TablebaseError> {
        let file = File::open(path).map_err(|e| io_error(path, e))?;
        let actual = file.metadata().map_err(|e| io_error(path, e))?.len();
        Self::read(path, file, actual, |mut file, header| match header.kind {
            Kind::Distance => Ok(Source::File(Mutex::new(file))),
            Kind::Wdl => {
                let mut all = Vec::with_capacity(actual as usize);
                file.seek(SeekFrom::Start(0))
                    .and_then(|_| file.read_to_end(&mut all))
                    .map_err(|e| io_error(path, e))?;
                if all.len() as u64 != header.length {
                    return Err(TablebaseError::Truncated {
                        path: path.to_path_buf(),
                        expected: header.length,
                        found: all.len() as u64,
                    });
                }
                Ok(Source::Memory(all))
            }
        })
    }

    /// A table from the bytes of a file (either kind), kept in memory, checked as
    /// [`open`](TableFile::open) checks a file; `path` names it in errors.
    pub fn from_bytes(path: &Path, bytes: Vec<u8>) -> Result<TableFile, TablebaseError> {
        let actual = bytes.len() as u64;
        Self::read(path, std::io::Cursor::new(bytes), actual, |c, _| {
            Ok(Source::Memory(c.into_inner()))
        })
    }

    /// Reads and checks the header and the block table of `file` (`actual` bytes long),
    /// then makes the source of its blocks with `source`.
    fn read<R: Read + Seek>(
        path: &Path,
        mut file: R,
        actual: u64,
        source: impl FnOnce(R, &Header) -> Result<Source, TablebaseError>,
    ) -> Result<TableFile, TablebaseError> {
        let corrupt = |what: &'static str| TablebaseError::Corrupt {
            path: path.to_path_buf(),
            what,
        };
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
        let kind = if h[..8] == MAGIC {
            Kind::Distance
        } else if h[..8] == WDL_MAGIC {
            Kind::Wdl
        } else {
            return Err(TablebaseError::NotATable(path.to_path_buf()));
        };
        let version = u16_at(&h, 8);
        let oldest = match kind {
            Kind::Distance => 1,
            Kind::Wdl => 3,
        };
        if !(oldest..=FORMAT_VERSION).contains(&version) {
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
        let compression = if version >= 3 { BROTLI } else { DEFLATE };
        let widths: &[u8] = match kind {
            Kind::Distance => &[1, 2],
            Kind::Wdl => &[1],
        };
        if !widths.contains(&width) || h[11] != compression || block_values == 0 {
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
        let header = Header {
            kind,
            ending,
            version,
            width,
            block_values,
            size,
            longest: u16_at(&h, 44),
            rule_unrecorded: u16_at(&h, 46) & 1 != 0,
            broken: u64_at(&h, 48),
            counts,
            length,
        };
        Ok(TableFile {
            path: path.to_path_buf(),
            source: source(file, &header)?,
            header,
            layout,
            blocks,
            cache: Mutex::new(Vec::with_capacity(CACHE_BLOCKS)),
        })
    }

    /// The bytes of block `b`, decompressed and checked.
    fn block(&self, b: usize) -> Result<Arc<Vec<u8>>, TablebaseError> {
        {
            let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(i) = cache.iter().position(|(n, _)| *n == b) {
                if i == 0 {
                    // Most reads are of the block read last.
                    return Ok(cache[0].1.clone());
                }
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
        let read;
        let compressed: &[u8] = match &self.source {
            Source::File(file) => {
                let mut bytes = vec![0u8; (end - start) as usize];
                let mut f = file.lock().unwrap_or_else(|e| e.into_inner());
                f.seek(SeekFrom::Start(start))
                    .and_then(|_| f.read_exact(&mut bytes))
                    .map_err(|e| io_error(&self.path, e))?;
                read = bytes;
                &read
            }
            Source::Memory(all) => &all[start as usize..end as usize],
        };
        let total = 2 * self.header.size;
        let first = b as u64 * self.header.block_values as u64;
        let values = (total - first).min(self.header.block_values as u64) as usize;
        let expected = values * self.header.width as usize;
        let corrupt = || TablebaseError::Corrupt {
            path: self.path.clone(),
            what: "block data",
        };
        let data = if self.header.version >= 3 {
            let mut data = Vec::with_capacity(expected);
            brotli::Decompressor::new(compressed, 4096)
                .take(expected as u64 + 1)
                .read_to_end(&mut data)
                .map_err(|_| corrupt())?;
            data
        } else {
            miniz_oxide::inflate::decompress_to_vec_with_limit(compressed, expected)
                .map_err(|_| corrupt())?
        };
        if data.len() != expected || crc32(&data) != crc {
            return Err(corrupt());
        }
        let data = Arc::new(data);
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.insert(0, (b, data.clone()));
        cache.truncate(CACHE_BLOCKS);
        Ok(data)
    }

    /// The code stored for `entry` (`side * size + index`). In version 3, a broken number
    /// holds the code of the number before it; versions 1 and 2 hold 0.
    pub fn code(&self, entry: u64) -> Result<u16, TablebaseError> {
        let per = self.header.block_values as u64;
        let data = self.block((entry / per) as usize)?;
        let i = (entry % per) as usize;
        Ok(if self.header.width == 1 {
            self.byte_code(data[i])
        } else {
            u16::from_le_bytes([data[2 * i], data[2 * i + 1]])
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The value stored for `entry` (`side * size + index`) in a WDL file. A broken number
    /// holds the value of the number before it.
    pub fn wdl(&self, entry: u64) -> Result<WdlValue, TablebaseError> {
        let per = self.header.block_values as u64;
        let data = self.block((entry / per) as usize)?;
        let byte = data[(entry % per) as usize];
        // Before version 5 a WDL file holds only the values that do not say the rule.
        let values = if self.header.version >= 5 {
            WdlValue::ALL.len()
        } else {
            WdlValue::BEFORE_RULES
        };
        WdlValue::ALL[..values]
            .get(usize::from(byte))
            .copied()
            .ok_or_else(|| TablebaseError::Corrupt {
                path: self.path.clone(),
                what: "a WDL value",
            })
    }

    /// The code of a one-byte value.
    fn byte_code(&self, b: u8) -> u16 {
        let first_rule = match self.header.version {
            4.. => BYTE_FIRST_RULE,
            3 => BYTE_FIRST_RULE_V3,
            // Versions 1 and 2: every one-byte code is a mate's.
            _ => return u16::from(b),
        };
        if b >= first_rule {
            0xff00 | u16::from(b)
        } else {
            u16::from(b)
        }
    }

    /// An error unless the file is of kind `want`.
    pub(crate) fn check_kind(&self, want: Kind) -> Result<(), TablebaseError> {
        if self.header.kind == want {
            return Ok(());
        }
        Err(TablebaseError::Corrupt {
            path: self.path.clone(),
            what: match want {
                Kind::Distance => "the kind of file (a WDL file where a distance file was wanted)",
                Kind::Wdl => "the kind of file (a distance file where a WDL file was wanted)",
            },
        })
    }

    /// The whole table in memory (every block read and checked). The broken numbers of
    /// version 3 are found again from the index (on all the machine's threads), so that
    /// they read 0 as in the table that was written.
    pub fn read_all(&self) -> Result<Table, TablebaseError> {
        self.check_kind(Kind::Distance)?;
        let mut codes = Vec::with_capacity(2 * self.header.size as usize);
        for b in 0..self.blocks.len() {
            codes.extend(self.block_codes(b)?);
        }
        if self.header.version >= 3 {
            self.clear_broken(&mut codes);
        }
        Ok(Table {
            layout: self.layout.clone(),
            codes,
        })
    }

    /// The codes of block `b`, in order (checked as [`block`](TableFile::block) checks
    /// it).
    fn block_codes(&self, b: usize) -> Result<impl Iterator<Item = u16> + '_, TablebaseError> {
        let data = self.block(b)?;
        let width = usize::from(self.header.width);
        Ok((0..data.len() / width).map(move |i| {
            if width == 1 {
                self.byte_code(data[i])
            } else {
                u16::from_le_bytes([data[2 * i], data[2 * i + 1]])
            }
        }))
    }

    /// What the rules decided in a distance file, read a block at a time (every block
    /// checked), as [`Table::rule_counts`] counts the table [`read_all`](TableFile::read_all)
    /// gives: the broken numbers of version 3 and newer, which hold a neighbour's code,
    /// are left out. A few blocks in memory, not the table.
    pub(crate) fn rule_counts(&self) -> Result<RuleCounts, TablebaseError> {
        self.check_kind(Kind::Distance)?;
        let layout = &self.layout;
        let (mut p, mut cursor) = ([xq_core::Square::A0; MAX_PIECES], Cursor::new(layout));
        let per = self.header.block_values as u64;
        let mut counts = RuleCounts::default();
        for b in 0..self.blocks.len() {
            for (i, code) in self.block_codes(b)?.enumerate() {
                // Only a rule's code counts; only then is the number's position looked at.
                if code < CODE_FIRST_RULE {
                    continue;
                }
                let entry = b as u64 * per + i as u64;
                if self.header.version >= 3 {
                    let side = Color::ALL[(entry / layout.size) as usize];
                    let canonical = layout.decode(entry % layout.size, &mut p);
                    if !canonical || cursor.position(&p, side).is_none() {
                        continue;
                    }
                }
                counts.add(code);
            }
        }
        Ok(counts)
    }

    /// Sets the code of every broken number (no legal position) to 0.
    fn clear_broken(&self, codes: &mut [u16]) {
        let layout = &self.layout;
        // For each number, a bit for each side to move whose position is broken.
        let mut broken = vec![0u8; layout.size as usize];
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        for_chunks(
            threads,
            &mut broken,
            4096,
            || ([xq_core::Square::A0; MAX_PIECES], Cursor::new(layout)),
            |(p, cursor), first, chunk| {
                for (i, bits) in chunk.iter_mut().enumerate() {
                    let canonical = layout.decode((first + i) as u64, p);
                    for side in Color::ALL {
                        if !canonical || cursor.position(p, side).is_none() {
                            *bits |= 1 << side.index();
                        }
                    }
                }
            },
        );
        let (red, black) = codes.split_at_mut(broken.len());
        for ((&bits, r), b) in broken.iter().zip(red).zip(black) {
            if bits & 1 != 0 {
                *r = 0;
            }
            if bits & 2 != 0 {
                *b = 0;
            }
        }
    }
}

fn read_magic_ok<R: Read + Seek>(file: &mut R) -> bool {
    let mut m = [0u8; 8];
    file.seek(SeekFrom::Start(0)).is_ok()
        && file.read_exact(&mut m).is_ok()
        && (m == MAGIC || m == WDL_MAGIC)
}

/// Reads a whole table into memory (to verify it, or to generate a larger ending from
/// it), checking every block. For a file of version 3 the broken numbers are found again
/// from the index, on all the machine's threads.
///
/// # Errors
/// When the file is unreadable, not a table, truncated or corrupt.
pub fn read_table(path: &Path) -> Result<Table, TablebaseError> {
    TableFile::open(path)?.read_all()
}

/// Rewrites the table file at `path` in the newest format version ([`FORMAT_VERSION`]),
/// compressing on `threads` threads (a file of version 1 or 2 shrinks; the rule results
/// of a file of version 3 stay without their rule, which only generating again finds): the new file is read back and
/// compared with the old one's table before it takes the old one's place. Returns the
/// sizes before and after, or `None` for a file of version 4 or newer (left as it is: a
/// distance file of version 4 is one of version 5 but for the number).
///
/// # Errors
/// When the file cannot be read or written, is not a good table, or (a bug) the new file
/// does not read as the old one.
///
/// ```
/// use xq_tablebase::{generate, read_table, rewrite_table, write_table, Ending};
/// let dir = std::env::temp_dir().join(format!("xq-tb-rewrite-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("KRK.xqtb");
/// let table = generate(&"KRK".parse::<Ending>().unwrap(), &[], 1, &|_| {}).unwrap();
/// write_table(&table, &path, 1).unwrap();
/// // A file of the newest version is left as it is.
/// assert_eq!(rewrite_table(&path, 1).unwrap(), None);
/// assert!(read_table(&path).unwrap() == table);
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn rewrite_table(path: &Path, threads: usize) -> Result<Option<(u64, u64)>, TablebaseError> {
    let old = TableFile::open(path)?;
    if old.header.version >= 4 {
        return Ok(None);
    }
    let before = old.header.length;
    let table = old.read_all()?;
    drop(old);
    let tmp = path.with_extension("xqtb.rewrite");
    let after = write_table(&table, &tmp, threads)?;
    if read_table(&tmp)? != table {
        let _ = std::fs::remove_file(&tmp);
        return Err(TablebaseError::Corrupt {
            path: tmp,
            what: "the rewritten table differs from the old one",
        });
    }
    std::fs::rename(&tmp, path).map_err(|e| io_error(path, e))?;
    Ok(Some((before, after)))
}

/// Writes the WDL file of `table` at `path` again when the file there is of a format
/// version before 5 and `table`'s ending has both sides attacking, so that its rule
/// results say which rule (version 5 records it). Returns the new file's bytes, or `None`
/// when the file is left as it is.
///
/// # Errors
/// When the file there cannot be read, is not a good WDL file or is another ending's
/// (`Corrupt`, "ending name"), or the new one cannot be written.
///
/// ```
/// use xq_tablebase::{generate, rewrite_wdl, write_wdl, Ending};
/// let dir = std::env::temp_dir().join(format!("xq-tb-rewrite-wdl-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let krk: Ending = "KRK".parse().unwrap();
/// let table = generate(&krk, &[], 1, &|_| {}).unwrap();
/// let path = dir.join(krk.wdl_file_name());
/// write_wdl(&table, &path, 1).unwrap();
/// // A file of the newest version is left as it is.
/// assert_eq!(rewrite_wdl(&table, &path, 1).unwrap(), None);
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn rewrite_wdl(
    table: &Table,
    path: &Path,
    threads: usize,
) -> Result<Option<u64>, TablebaseError> {
    let old = TableFile::open(path)?;
    old.check_kind(Kind::Wdl)?;
    if old.header.ending != table.layout.ending {
        return Err(TablebaseError::Corrupt {
            path: path.to_path_buf(),
            what: "ending name",
        });
    }
    if old.header.version >= 5 || old.header.says_the_rule() {
        return Ok(None);
    }
    drop(old);
    write_wdl(table, path, threads).map(Some)
}

/// Checks the WDL file at `path` against `table` (of the same ending): every position's
/// stored value is the table's value's [`WdlValue`] (without the rule in a file of a
/// version before 5, which does not record it), and the header agrees. Returns the
/// positions checked.
///
/// # Errors
/// A file that cannot be read, is not a good WDL file of `table`'s ending, or holds a
/// value that differs ([`TablebaseError::Mismatch`]).
pub fn check_wdl(table: &Table, path: &Path) -> Result<u64, TablebaseError> {
    let file = TableFile::open(path)?;
    let corrupt = |what: &'static str| TablebaseError::Corrupt {
        path: path.to_path_buf(),
        what,
    };
    file.check_kind(Kind::Wdl)?;
    if file.header.ending != table.layout.ending {
        return Err(corrupt("ending name"));
    }
    let per = file.header.block_values as usize;
    // Before version 5 a WDL file does not say which rule decides a rule result.
    let says_the_rule = file.header.version >= 5;
    let expected = |code: u16| match says_the_rule {
        true => wdl_value(code),
        false => wdl_value(code).without_rule(),
    };
    let mut checked = 0;
    for (b, codes) in table.codes.chunks(per).enumerate() {
        let data = file.block(b)?;
        for (i, (&code, &byte)) in codes.iter().zip(data.iter()).enumerate() {
            if code == 0 {
                continue;
            }
            if byte != expected(code).byte() {
                let entry = (b * per + i) as u64;
                let layout = &table.layout;
                let mut p = [xq_core::Square::A0; MAX_PIECES];
                layout.decode(entry % layout.size, &mut p);
                let side = Color::ALL[(entry / layout.size) as usize];
                let position = layout
                    .position(&p, side)
                    .map_or_else(|| format!("number {entry}"), |pos| pos.to_fen());
                return Err(TablebaseError::WdlMismatch {
                    path: path.to_path_buf(),
                    position,
                    stored: WdlValue::from_byte(byte),
                    expected: expected(code),
                });
            }
            checked += 1;
        }
    }
    let stats = table.stats();
    if file.header.counts != stats.counts || file.header.broken != stats.broken {
        return Err(corrupt("the counts of the header"));
    }
    Ok(checked)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_of_the_check_string() {
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
    }

    #[test]
    fn a_wdl_file_that_differs_from_its_table_says_where() {
        let krk: Ending = "KRK".parse().unwrap();
        let mut table = crate::generate(&krk, &[], 1, &|_| {}).unwrap();
        let dir = std::env::temp_dir().join(format!("xq-tb-wdl-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(krk.wdl_file_name());
        write_wdl(&table, &path, 1).unwrap();
        // The first position won with Red to move now reads as a draw in the table.
        let entry = table.codes.iter().position(|&c| c == 2 + 1).unwrap();
        table.codes[entry] = 1;
        let err = check_wdl(&table, &path).unwrap_err();
        let TablebaseError::WdlMismatch {
            position,
            stored,
            expected,
            ..
        } = &err
        else {
            panic!("{err}");
        };
        assert_eq!((*stored, *expected), (Some(WdlValue::Win), WdlValue::Draw));
        let pos = xq_core::Position::from_fen(position).unwrap();
        assert_eq!(pos.side_to_move(), Color::Red);
        assert!(
            err.to_string().contains(
                "is stored as win, mate within 120 plies but its distance table makes it draw"
            ),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
