//! XQF, the binary game format of XQStudio, in which most Chinese game collections are
//! kept: reading it into a [`Record`].
//!
//! # The format
//!
//! An XQF file is a 1024-byte header followed by the move records.
//!
//! * **Header**. Bytes 0-1 are `XQ`, byte 2 the version (10 for XQStudio 1.0, up to 18).
//!   Bytes 3-15 hold the encryption parameters: a mask (3), four "or" bytes (8-11), and
//!   four key bytes (12-15: a checksum byte and the keys of the piece table, of move
//!   origins and of move destinations). Bytes 16-47 give the squares of the 32 pieces
//!   in a fixed order (Red chariot, horse, elephant, advisor, general, advisor,
//!   elephant, horse, chariot, two cannons, five soldiers, then Black the same), one
//!   byte each: `10 * file + rank` counted from Red's bottom left (`a0` is 0), 90 or
//!   more for a piece that is not on the board. Byte 50 says who moves first (0 Red, 1
//!   Black) and byte 51 the result (0 unknown, 1 Red won, 2 Black won, 3 draw). Texts
//!   are length-prefixed GBK strings: title at 0x50, event at 0xD0, date at 0x110,
//!   site at 0x120, Red's and Black's names at 0x130 and 0x140, time control at 0x150,
//!   time used by Red and Black at 0x190 and 0x1A0, annotator at 0x1D0, author at
//!   0x1E0.
//! * **Moves**, from byte 1024: a tree in pre-order. Each record has four bytes (origin,
//!   destination, flags, unused), then, if it has a comment, a four-byte little-endian
//!   length and the GBK text. The first record stands for the start position (its move
//!   bytes mean nothing; its comment is the comment on the whole game). Flag `0x80`
//!   says the record is followed by the move played after it; flag `0x40` that, after
//!   that whole continuation, comes an alternative to the record's own move (a
//!   variation); flag `0x20` that it has a comment. Version 10 files mark the
//!   continuation with any bit of the high nibble and the alternative with any bit of
//!   the low nibble, and always have the comment length.
//! * **Encryption** (version 11 and later). From the key bytes `k` a key is derived as
//!   `((((k² × 3 + 9) × 3 + 8) × 2 + 1) × 3 + 8) × c` (mod 256), where `c` is the piece
//!   key for the piece key itself and the previous derived key for the other two. Every
//!   byte from offset 1024 on has a byte of a 32-byte table subtracted (index: the file
//!   offset mod 32), the table being the text `[(C) Copyright Mr. Dong Shiwei.]` with
//!   each byte ANDed with one of four bytes made from the key bytes, the mask and the or
//!   bytes. A move's origin byte then has 0x18 and the origin key subtracted, its
//!   destination byte 0x20 and the destination key (version 10 files subtract only 0x18
//!   and 0x20). A comment length has `(checksum × 256 + piece key byte) mod 32000 + 767`
//!   subtracted. The piece table has the piece key subtracted from each byte and, from
//!   version 12 on, is rotated first: byte `i` belongs to piece `(i + key + 1) mod 32`.
//!
//! The reader checks what it reads: a start position that is not legal, a move byte that
//! is no square, a move that is not legal where it is played, variations nested deeper
//! than [`crate::pgn::MAX_VARIATION_DEPTH`] and a file that ends
//! inside a record are [`XqfError`]s that give the byte offset and the ply.
//!
//! The side to move first is byte 50's unless the first move of the main line is played
//! by a piece of the other side (files made by hand often leave byte 50 at 0 for a
//! position with Black to move).
//!
//! ```
//! use xq_records::xqf::{self, XqfError, XqfErrorKind};
//! assert_eq!(
//!     xqf::read(b"PK\x03\x04"),
//!     Err(XqfError { file: None, offset: 0, ply: None, kind: XqfErrorKind::BadMagic })
//! );
//! let mut header = vec![0u8; 1024];
//! header[..3].copy_from_slice(b"XQ\x0a");
//! let err = xqf::read(&header).unwrap_err();
//! assert_eq!(err.kind, XqfErrorKind::Truncated { needed: 4, available: 0 });
//! assert_eq!(err.offset, 1024);
//! ```

use crate::pgn::MAX_VARIATION_DEPTH;
use crate::record::{Line, Node, Record};
use std::fmt;
use xq_core::{Color, FenError, File, Move, Piece, PieceKind, Position, Rank, Square};
use xq_movegen::{try_play, GameResult, IllegalMoveError};

/// The length of the header; the move records start here.
const HEADER: usize = 1024;

/// The newest version the reader knows (XQStudio 1.8); newer files are refused with
/// [`XqfErrorKind::UnsupportedVersion`].
///
/// ```
/// assert_eq!(xq_records::xqf::MAX_VERSION, 18);
/// ```
pub const MAX_VERSION: u8 = 18;

/// What is wrong with XQF input.
///
/// ```
/// use xq_records::xqf::{self, XqfErrorKind};
/// let mut file = vec![0u8; 1024];
/// file[..3].copy_from_slice(b"XQ\x13");
/// assert_eq!(xqf::read(&file).unwrap_err().kind, XqfErrorKind::UnsupportedVersion { version: 19 });
/// assert_eq!(
///     XqfErrorKind::Truncated { needed: 4, available: 1 }.to_string(),
///     "the file is cut short: 4 bytes needed, 1 left"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum XqfErrorKind {
    /// The file does not start with `XQ`.
    BadMagic,
    /// The version is newer than [`MAX_VERSION`].
    UnsupportedVersion {
        /// The version byte.
        version: u8,
    },
    /// The file ends inside the header or a record.
    Truncated {
        /// How many bytes the header or record part needs.
        needed: usize,
        /// How many are left.
        available: usize,
    },
    /// Two pieces of the piece table stand on one square.
    SharedSquare {
        /// The square.
        square: Square,
    },
    /// The start position is not a legal position.
    BadPosition {
        /// The position as FEN.
        fen: String,
        /// What is wrong with it.
        error: FenError,
    },
    /// A move byte decodes to no square of the board.
    BadSquare {
        /// The decoded value (a square is `10 * file + rank`, below 90).
        value: u8,
    },
    /// A move is not legal where it is played.
    IllegalMove {
        /// The move.
        mv: Move,
        /// Why it is illegal.
        error: IllegalMoveError,
    },
    /// Variations nest deeper than [`MAX_VARIATION_DEPTH`].
    TooDeep,
}

impl fmt::Display for XqfErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            XqfErrorKind::BadMagic => f.write_str("not an XQF file (it does not start with XQ)"),
            XqfErrorKind::UnsupportedVersion { version } => write!(
                f,
                "XQF version {version} is newer than the newest known ({MAX_VERSION})"
            ),
            XqfErrorKind::Truncated { needed, available } => write!(
                f,
                "the file is cut short: {needed} bytes needed, {available} left"
            ),
            XqfErrorKind::SharedSquare { square } => {
                write!(f, "two pieces stand on {square}")
            }
            XqfErrorKind::BadPosition { fen, error } => {
                write!(f, "bad start position {fen}: {error}")
            }
            XqfErrorKind::BadSquare { value } => {
                write!(f, "move byte {value} is not a square")
            }
            XqfErrorKind::IllegalMove { error, .. } => write!(f, "{error}"),
            XqfErrorKind::TooDeep => write!(
                f,
                "variations nest deeper than {MAX_VARIATION_DEPTH} levels"
            ),
        }
    }
}

/// An error in XQF input, with where it is.
///
/// ```
/// use xq_records::xqf::{XqfError, XqfErrorKind};
/// let err = XqfError {
///     file: None,
///     offset: 1100,
///     ply: Some(7),
///     kind: XqfErrorKind::BadSquare { value: 95 },
/// };
/// assert_eq!(
///     err.with_file("game.xqf").to_string(),
///     "game.xqf: offset 1100, ply 7: move byte 95 is not a square"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XqfError {
    /// The file, when the caller has said it (see [`XqfError::with_file`]).
    pub file: Option<String>,
    /// The byte offset of the header field or record concerned.
    pub offset: usize,
    /// The ply of the move concerned, counted from 1 at the start position (a
    /// variation's moves have the plies of the moves they replace); `None` in the
    /// header.
    pub ply: Option<usize>,
    /// What is wrong.
    pub kind: XqfErrorKind,
}

impl XqfError {
    /// The error with the name of the file it is in, for the message.
    pub fn with_file(mut self, file: impl Into<String>) -> XqfError {
        self.file = Some(file.into());
        self
    }
}

impl fmt::Display for XqfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}: ")?;
        }
        write!(f, "offset {}", self.offset)?;
        if let Some(ply) = self.ply {
            write!(f, ", ply {ply}")?;
        }
        write!(f, ": {}", self.kind)
    }
}

impl std::error::Error for XqfError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            XqfErrorKind::BadPosition { error, .. } => Some(error),
            XqfErrorKind::IllegalMove { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// Reads an XQF file.
///
/// The game gets the tags `Game` (`Chinese Chess`) and `Result`, and those of `Event`,
/// `Site`, `Date`, `Red`, `Black`, `Title`, `TimeControl`, `RedTime`, `BlackTime`,
/// `Annotator` and `Author` that the header fills in.
///
/// # Errors
/// An [`XqfError`] with the byte offset and ply of the first problem.
///
/// ```
/// use xq_records::xqf;
/// # fn sample() -> Vec<u8> {
/// #     std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/games/sample.xqf")).unwrap()
/// # }
/// let game = xqf::read(&sample()).unwrap();
/// assert_eq!(game.tag("Date"), Some("1999.12.09"));
/// assert_eq!(game.main_line()[0], "b2e2".parse().unwrap());
/// ```
pub fn read(bytes: &[u8]) -> Result<Record, XqfError> {
    let header_error = |offset, kind| XqfError {
        file: None,
        offset,
        ply: None,
        kind,
    };
    if bytes.len() < 2 || &bytes[..2] != b"XQ" {
        let kind = if bytes.len() < 2 && b"XQ".starts_with(bytes) {
            XqfErrorKind::Truncated {
                needed: HEADER,
                available: bytes.len(),
            }
        } else {
            XqfErrorKind::BadMagic
        };
        return Err(header_error(0, kind));
    }
    if bytes.len() < HEADER {
        let kind = XqfErrorKind::Truncated {
            needed: HEADER,
            available: bytes.len(),
        };
        return Err(header_error(0, kind));
    }
    let header = &bytes[..HEADER];
    let version = header[2];
    if version > MAX_VERSION {
        return Err(header_error(
            2,
            XqfErrorKind::UnsupportedVersion { version },
        ));
    }
    let keys = Keys::new(header);
    let mut records = Records {
        bytes,
        at: HEADER,
        keys: &keys,
        list: Vec::new(),
    };
    records.read_all()?;
    let board = piece_table(header, &keys).map_err(|kind| header_error(16, kind))?;

    // Who moves first: byte 50, unless the main line's first move says otherwise.
    let mut side = if header[50] == 1 {
        Color::Black
    } else {
        Color::Red
    };
    if let Some(first) = records.list[0].next {
        let r = &records.list[first];
        if let Some(piece) = square(r.from).and_then(|sq| board[sq.index()]) {
            side = piece.color;
        }
    }
    let fen = board_fen(&board, side);
    let start = Position::from_fen(&fen)
        .map_err(|error| header_error(16, XqfErrorKind::BadPosition { fen, error }))?;

    let mut game = Record::new(start.clone());
    let result = match header[51] {
        1 => Some(GameResult::RedWins),
        2 => Some(GameResult::BlackWins),
        3 => Some(GameResult::Draw),
        _ => None,
    };
    game.tags.push(("Game".into(), "Chinese Chess".into()));
    let text_tags = [
        ("Event", 0xD0, 64),
        ("Site", 0x120, 16),
        ("Date", 0x110, 16),
        ("Red", 0x130, 16),
        ("Black", 0x140, 16),
    ];
    push_text_tags(&mut game, header, &text_tags);
    game.tags.push((
        "Result".into(),
        result.map_or("*", GameResult::token).into(),
    ));
    let more_tags = [
        ("Title", 0x50, 64),
        ("TimeControl", 0x150, 64),
        ("RedTime", 0x190, 16),
        ("BlackTime", 0x1A0, 16),
        ("Annotator", 0x1D0, 16),
        ("Author", 0x1E0, 16),
    ];
    push_text_tags(&mut game, header, &more_tags);
    game.result = result;

    let root = &records.list[0];
    if let Some(first) = root.next {
        game.main = records.line(first, &start, false)?;
    }
    game.main.comment = root.comment.clone();
    Ok(game)
}

// ---------------------------------------------------------------------- internals

/// The keys derived from the header.
#[derive(Debug)]
struct Keys {
    version: u8,
    /// Piece table key.
    xy: u8,
    /// Move origin key.
    from: u8,
    /// Move destination key.
    to: u8,
    /// Subtracted from comment lengths.
    comment: i64,
    /// Subtracted from every byte after the header, by file offset mod 32.
    table: [u8; 32],
}

const COPYRIGHT: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

fn derive(byte: u8, factor: u8) -> u8 {
    let b = u32::from(byte);
    let base = ((((b * b) * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8;
    (base.wrapping_mul(u32::from(factor)) & 0xFF) as u8
}

impl Keys {
    fn new(header: &[u8]) -> Keys {
        let version = header[2];
        if version <= 10 {
            return Keys {
                version,
                xy: 0,
                from: 0,
                to: 0,
                comment: 0,
                table: [0; 32],
            };
        }
        let mask = header[3];
        let or = [header[8], header[9], header[10], header[11]];
        let (sum, xy, from, to) = (header[12], header[13], header[14], header[15]);
        let key_xy = derive(xy, xy);
        let key_from = derive(from, key_xy);
        let key_to = derive(to, key_from);
        let comment = i64::from((u32::from(sum) * 256 + u32::from(xy)) % 32000 + 767);
        let factors = [
            (sum & mask) | or[0],
            (xy & mask) | or[1],
            (from & mask) | or[2],
            (to & mask) | or[3],
        ];
        let mut table = [0u8; 32];
        for (i, t) in table.iter_mut().enumerate() {
            *t = COPYRIGHT[i] & factors[i % 4];
        }
        Keys {
            version,
            xy: key_xy,
            from: key_from,
            to: key_to,
            comment,
            table,
        }
    }
}

/// The piece of each of the 32 slots of the piece table.
fn slot_piece(slot: usize) -> Piece {
    use PieceKind::*;
    const ORDER: [PieceKind; 16] = [
        Chariot, Horse, Elephant, Advisor, General, Advisor, Elephant, Horse, Chariot, Cannon,
        Cannon, Soldier, Soldier, Soldier, Soldier, Soldier,
    ];
    let color = if slot < 16 { Color::Red } else { Color::Black };
    Piece::new(color, ORDER[slot % 16])
}

/// The square of an XQF square byte (`10 * file + rank`), if it is one.
fn square(value: u8) -> Option<Square> {
    let (file, rank) = (usize::from(value) / 10, usize::from(value) % 10);
    Some(Square::new(
        File::from_index(file)?,
        Rank::from_index(rank)?,
    ))
}

/// The board the piece table describes, indexed by [`Square::index`].
fn piece_table(header: &[u8], keys: &Keys) -> Result<[Option<Piece>; 90], XqfErrorKind> {
    let mut slots = [0u8; 32];
    slots.copy_from_slice(&header[16..48]);
    if keys.version >= 12 {
        let mut rotated = [0u8; 32];
        for (i, &b) in slots.iter().enumerate() {
            rotated[(i + usize::from(keys.xy) + 1) % 32] = b;
        }
        slots = rotated;
    }
    let mut board = [None; 90];
    for (slot, &b) in slots.iter().enumerate() {
        let Some(sq) = square(b.wrapping_sub(keys.xy)) else {
            continue;
        };
        if board[sq.index()].is_some() {
            return Err(XqfErrorKind::SharedSquare { square: sq });
        }
        board[sq.index()] = Some(slot_piece(slot));
    }
    Ok(board)
}

/// The FEN of `board` with `side` to move.
fn board_fen(board: &[Option<Piece>; 90], side: Color) -> String {
    let mut fen = String::new();
    for rank in Rank::ALL.iter().rev() {
        let mut empty = 0;
        for file in File::ALL {
            match board[Square::new(file, *rank).index()] {
                Some(piece) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(piece.to_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank.index() > 0 {
            fen.push('/');
        }
    }
    fen.push_str(if side == Color::Red { " w" } else { " b" });
    fen
}

/// The length-prefixed GBK text of the header field at `offset` of `size` bytes, on one
/// line (a tag value cannot hold a line break).
fn header_text(header: &[u8], offset: usize, size: usize) -> String {
    let len = usize::from(header[offset]).min(size - 1);
    gbk_text(&header[offset + 1..offset + 1 + len]).replace(['\r', '\n'], " ")
}

fn push_text_tags(game: &mut Record, header: &[u8], fields: &[(&str, usize, usize)]) {
    for &(name, offset, size) in fields {
        let text = header_text(header, offset, size);
        if !text.is_empty() {
            game.tags.push((name.to_string(), text));
        }
    }
}

/// GBK bytes as text (an invalid sequence becomes U+FFFD), trimmed of white space and
/// NULs, with line breaks made LF.
fn gbk_text(bytes: &[u8]) -> String {
    let (text, _) = encoding_rs::GBK.decode_without_bom_handling(bytes);
    crate::pgn::line_feeds(text.trim_matches(|c: char| c.is_whitespace() || c == '\0'))
}

/// One move record.
#[derive(Debug)]
struct MoveRecord {
    offset: usize,
    ply: usize,
    from: u8,
    to: u8,
    comment: Option<String>,
    /// The record of the move played after this one.
    next: Option<usize>,
    /// The record of the next alternative to this move.
    alt: Option<usize>,
}

/// How a record hangs on the one read before it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Link {
    /// It is the move played after the parent.
    Next,
    /// It is an alternative to the parent's move.
    Alt,
}

struct Records<'a> {
    bytes: &'a [u8],
    at: usize,
    keys: &'a Keys,
    /// The records; the first is the start position's.
    list: Vec<MoveRecord>,
}

impl Records<'_> {
    /// `n` decrypted bytes at the current offset, consumed.
    fn take(&mut self, n: usize, ply: Option<usize>) -> Result<Vec<u8>, XqfError> {
        let available = self.bytes.len() - self.at;
        if n > available {
            return Err(XqfError {
                file: None,
                offset: self.at,
                ply,
                kind: XqfErrorKind::Truncated {
                    needed: n,
                    available,
                },
            });
        }
        let out = self.bytes[self.at..self.at + n]
            .iter()
            .enumerate()
            .map(|(i, &b)| b.wrapping_sub(self.keys.table[(self.at + i) % 32]))
            .collect();
        self.at += n;
        Ok(out)
    }

    /// Reads the tree of records, without recursion: `pending` holds the records whose
    /// continuation or alternative is still to come, the next one to read on top.
    fn read_all(&mut self) -> Result<(), XqfError> {
        // (parent, link, ply, nesting depth of the variation the record belongs to)
        let mut pending: Vec<(Option<usize>, Link, usize, usize)> = vec![(None, Link::Next, 0, 0)];
        while let Some((parent, link, ply, depth)) = pending.pop() {
            if depth > MAX_VARIATION_DEPTH {
                return Err(XqfError {
                    file: None,
                    offset: self.at,
                    ply: Some(ply),
                    kind: XqfErrorKind::TooDeep,
                });
            }
            let offset = self.at;
            let ply_here = (ply > 0).then_some(ply);
            let b = self.take(4, ply_here)?;
            let (has_next, has_alt, has_comment) = if self.keys.version <= 10 {
                (b[2] & 0xF0 != 0, b[2] & 0x0F != 0, true)
            } else {
                (b[2] & 0x80 != 0, b[2] & 0x40 != 0, b[2] & 0x20 != 0)
            };
            let mut comment = None;
            if has_comment {
                let len = self.take(4, ply_here)?;
                let len = i64::from(i32::from_le_bytes([len[0], len[1], len[2], len[3]]))
                    - self.keys.comment;
                if len > 0 {
                    let len = usize::try_from(len).unwrap_or(usize::MAX);
                    let text = gbk_text(&self.take(len, ply_here)?);
                    comment = (!text.is_empty()).then_some(text);
                }
            }
            let index = self.list.len();
            self.list.push(MoveRecord {
                offset,
                ply,
                from: b[0].wrapping_sub(0x18).wrapping_sub(self.keys.from),
                to: b[1].wrapping_sub(0x20).wrapping_sub(self.keys.to),
                comment,
                next: None,
                alt: None,
            });
            if let Some(p) = parent {
                match link {
                    Link::Next => self.list[p].next = Some(index),
                    Link::Alt => self.list[p].alt = Some(index),
                }
            }
            // The alternatives of a variation's first move are its siblings, at the same
            // depth; those of any other move open a variation one deeper.
            let alt_depth = if link == Link::Alt { depth } else { depth + 1 };
            if has_alt && parent.is_some() {
                pending.push((Some(index), Link::Alt, ply, alt_depth));
            }
            if has_next {
                pending.push((Some(index), Link::Next, ply + 1, depth));
            }
        }
        Ok(())
    }

    /// The line of moves starting at record `head`, played from `start`. The
    /// alternatives of a variation's first move belong to the line above, so they are
    /// left out when `variation` is set.
    fn line(&self, head: usize, start: &Position, variation: bool) -> Result<Line, XqfError> {
        let mut line = Line::default();
        let mut pos = start.clone();
        let mut current = Some(head);
        let mut first = true;
        while let Some(i) = current {
            let r = &self.list[i];
            let error = |kind| XqfError {
                file: None,
                offset: r.offset,
                ply: Some(r.ply),
                kind,
            };
            let from =
                square(r.from).ok_or_else(|| error(XqfErrorKind::BadSquare { value: r.from }))?;
            let to = square(r.to).ok_or_else(|| error(XqfErrorKind::BadSquare { value: r.to }))?;
            let m = Move::new(from, to);
            let before = pos.clone();
            try_play(&mut pos, m)
                .map_err(|e| error(XqfErrorKind::IllegalMove { mv: m, error: e }))?;
            let mut node = Node::new(m);
            node.comment = r.comment.clone();
            if !(first && variation) {
                let mut alt = r.alt;
                while let Some(a) = alt {
                    node.variations.push(self.line(a, &before, true)?);
                    alt = self.list[a].alt;
                }
            }
            line.nodes.push(node);
            current = r.next;
            first = false;
        }
        Ok(line)
    }
}
