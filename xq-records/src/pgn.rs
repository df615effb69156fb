//! Xiangqi PGN: reading and writing game records as text.
//!
//! Xiangqi PGN is chess PGN with Xiangqi moves. A file holds games one after the other;
//! each game has
//!
//! * a **tag section**, one `[Name "value"]` per line (`\"` and `\\` escape a quote and a
//!   backslash): `Game` (`Chinese Chess`), `Event`, `Site`, `Date`, `Round`, `Red`,
//!   `Black`, `Result`, `ECCO`, `Opening`, `Variation`, and two that the reader
//!   interprets: `FEN`, the start position when it is not the usual one, and `Format`,
//!   the notation of the moves (`ICCS`, `WXF` or `Chinese`);
//! * the **movetext**: moves in any of the notations [`read_move`] reads (ICCS `h2e2`,
//!   WXF `C2=5`, Chinese `炮二平五`), with optional move numbers (`1.`, `1...`),
//!   comments in braces `{...}` or after `;` up to the end of the line, variations in
//!   parentheses (an alternative to the move just before, nested as deep as
//!   [`MAX_VARIATION_DEPTH`]), annotation glyphs `$n` and `!`, `?`, `!!`, `??`, `!?`,
//!   `?!` after a move, and a result token `1-0`, `0-1`, `1/2-1/2` or `*`;
//! * and, as the Chinese sites publish them, sometimes a **trailing text** after the
//!   result (a notice, a link), which runs up to the next line that starts with `[`
//!   (so a game that follows a result must start with its tags).
//!
//! The Chinese sites publish GBK files: [`read`] takes bytes and decodes them as UTF-8
//! when they are valid UTF-8 (a byte-order mark is skipped) and as GBK otherwise, or as
//! the [`Encoding`] it is told. Every move must be legal, checked with the rules of this
//! crate; any problem is a [`PgnError`] that says where it is: game, line and ply.
//!
//! [`PgnReader`] reads a file one game at a time from any [`BufRead`](std::io::BufRead),
//! judging the encoding once: each game's text ([`GameText`]) is read whole, or only its
//! tags, when asked. [`read`] and [`read_str`] read every game through it.
//!
//! [`write()`] produces UTF-8 text in the [`Notation`] asked for, with a `Format` tag
//! naming it and a `FEN` tag when the game does not start from the usual position. What
//! it writes, [`read_str`] reads back to the same [`Record`].
//!
//! ```
//! use xq_movegen::notation::Notation;
//! use xq_records::pgn::{self, WriteOptions};
//!
//! let text = r#"[Game "Chinese Chess"]
//! [Red "Xu Yinchuan"]
//! [Black "Lü Qin"]
//! [Result "1/2-1/2"]
//!
//! 1. 炮二平五 马８进７ {the screen horse} 2. 马二进三 (2. 兵七进一) 2... 车９平８
//! 1/2-1/2
//! "#;
//! let games = pgn::read_str(text).unwrap();
//! let game = &games[0];
//! assert_eq!(game.tag("Red"), Some("Xu Yinchuan"));
//! assert_eq!(game.main.nodes.len(), 4);
//! assert_eq!(game.main.nodes[1].comment.as_deref(), Some("the screen horse"));
//! assert_eq!(game.main.nodes[2].variations.len(), 1);
//!
//! let wxf = pgn::write(game, &WriteOptions { notation: Notation::Wxf }).unwrap();
//! assert!(wxf.contains("1. C2=5 H8+7 {the screen horse}\n2. H2+3 (2. P7+1) 2... R9=8"));
//! assert_eq!(&pgn::read_str(&wxf).unwrap()[0], game);
//! ```

use crate::record::{Line, Node, Record};
use std::borrow::Cow;
use std::fmt;
use xq_core::{Color, FenError, Position, START_FEN};
use xq_movegen::notation::{notation_of, read_move, write_move, Notation, NotationError};
use xq_movegen::{GameResult, IllegalMoveError};

mod stream;
pub use stream::{GameText, ParsedGame, PgnReader};

/// How deep variations may nest (a variation inside a variation is depth 2). Deeper
/// input is refused with [`PgnErrorKind::TooDeep`], so that no input can exhaust the
/// stack.
///
/// ```
/// use xq_records::pgn::{self, PgnErrorKind, MAX_VARIATION_DEPTH};
/// let nested = |depth| format!("1. h2e2 {}", "(1. b2e2 ".repeat(depth));
/// assert_eq!(pgn::read_str(&nested(MAX_VARIATION_DEPTH)).unwrap_err().kind, PgnErrorKind::UnterminatedVariation);
/// assert_eq!(pgn::read_str(&nested(MAX_VARIATION_DEPTH + 1)).unwrap_err().kind, PgnErrorKind::TooDeep);
/// ```
pub const MAX_VARIATION_DEPTH: usize = 100;

/// The character encoding of PGN bytes.
///
/// ```
/// use xq_records::pgn::Encoding;
/// assert_eq!(Encoding::from_name("GB2312"), Some(Encoding::Gbk));
/// assert_eq!(Encoding::from_name("utf8"), Some(Encoding::Utf8));
/// assert_eq!(Encoding::Gbk.name(), "gbk");
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// UTF-8 if the bytes are valid UTF-8, GBK otherwise (the default): [`decode`]
    /// judges all the bytes it is given, a [`PgnReader`] up to 16 KiB from the first line
    /// that is not ASCII (once for the whole source).
    #[default]
    Auto,
    /// UTF-8, with or without a byte-order mark.
    Utf8,
    /// GBK (the Chinese sites' encoding; GB2312 is a subset, GB18030 a superset that is
    /// read too).
    Gbk,
}

impl Encoding {
    /// The lower-case name: `auto`, `utf-8`, `gbk`.
    pub const fn name(self) -> &'static str {
        match self {
            Encoding::Auto => "auto",
            Encoding::Utf8 => "utf-8",
            Encoding::Gbk => "gbk",
        }
    }

    /// The encoding called `name`, in any case: `auto`, `utf-8` / `utf8`, and `gbk`,
    /// `gb2312`, `gb18030`, `cp936` for GBK.
    pub fn from_name(name: &str) -> Option<Encoding> {
        match name.to_ascii_lowercase().as_str() {
            "auto" => Some(Encoding::Auto),
            "utf-8" | "utf8" => Some(Encoding::Utf8),
            "gbk" | "gb2312" | "gb18030" | "cp936" => Some(Encoding::Gbk),
            _ => None,
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How [`read`] and a [`PgnReader`] read bytes.
///
/// ```
/// use xq_records::pgn::{Encoding, ReadOptions};
/// assert_eq!(ReadOptions::default().encoding, Encoding::Auto);
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ReadOptions {
    /// The encoding of the bytes.
    pub encoding: Encoding,
}

/// How [`write()`] writes a game.
///
/// ```
/// use xq_movegen::notation::Notation;
/// use xq_records::pgn::WriteOptions;
/// assert_eq!(WriteOptions::default().notation, Notation::Chinese);
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct WriteOptions {
    /// The notation of the moves.
    pub notation: Notation,
}

/// What is wrong with PGN input.
///
/// ```
/// use xq_movegen::notation::NotationError;
/// use xq_records::pgn::{self, PgnErrorKind};
/// let kind = |text| pgn::read_str(text).unwrap_err().kind;
/// assert_eq!(kind("1. h2e2 {no end"), PgnErrorKind::UnterminatedComment);
/// assert_eq!(kind("1. 炮二平五 马８进７)"), PgnErrorKind::UnmatchedParenthesis);
/// assert_eq!(kind("1. C2=5 h9g7 xyz"), PgnErrorKind::Move(NotationError::Unknown { text: "xyz".into() }));
/// assert_eq!(
///     kind("1. h2e2 $x"),
///     PgnErrorKind::BadNag { text: "$x".into() }
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// The bytes are not valid in the encoding (detected or asked for).
    BadEncoding {
        /// The encoding the bytes were read in.
        encoding: Encoding,
    },
    /// A tag line is not of the form `[Name "value"]`.
    BadTag {
        /// The text from the `[` to the end of its line.
        text: String,
    },
    /// The `FEN` tag is not a valid position.
    BadFen {
        /// The tag's value.
        fen: String,
        /// What is wrong with it.
        error: FenError,
    },
    /// A word of the movetext is not a legal move in any notation (nor a move number,
    /// result or glyph): unknown, fitting no piece or several, or illegal.
    Move(NotationError),
    /// A `$` glyph is not a number from 0 to 255.
    BadNag {
        /// The glyph.
        text: String,
    },
    /// A `{` comment is not closed.
    UnterminatedComment,
    /// A `(` variation is not closed before the game ends.
    UnterminatedVariation,
    /// A `)` closes no variation.
    UnmatchedParenthesis,
    /// A `(` variation comes before any move it could be an alternative to.
    VariationBeforeMove,
    /// Variations nest deeper than [`MAX_VARIATION_DEPTH`].
    TooDeep,
    /// The source of a [`PgnReader`] could not be read.
    Io {
        /// The kind of the I/O error.
        kind: std::io::ErrorKind,
        /// What the system said.
        message: String,
    },
}

impl fmt::Display for PgnErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnErrorKind::BadEncoding { encoding } => {
                write!(f, "the bytes are not valid {encoding}")
            }
            PgnErrorKind::BadTag { text } => write!(f, "malformed tag '{text}'"),
            PgnErrorKind::BadFen { fen, error } => write!(f, "bad FEN tag '{fen}': {error}"),
            PgnErrorKind::Move(e) => e.fmt(f),
            PgnErrorKind::BadNag { text } => write!(f, "bad annotation glyph '{text}'"),
            PgnErrorKind::UnterminatedComment => f.write_str("a '{' comment is never closed"),
            PgnErrorKind::UnterminatedVariation => {
                f.write_str("a '(' variation is not closed before the game ends")
            }
            PgnErrorKind::UnmatchedParenthesis => f.write_str("')' closes no variation"),
            PgnErrorKind::VariationBeforeMove => {
                f.write_str("a '(' variation comes before any move")
            }
            PgnErrorKind::TooDeep => write!(
                f,
                "variations nest deeper than {MAX_VARIATION_DEPTH} levels"
            ),
            PgnErrorKind::Io { message, .. } => write!(f, "the file could not be read: {message}"),
        }
    }
}

/// An error in PGN input, with where it is.
///
/// ```
/// use xq_movegen::notation::NotationError;
/// use xq_records::pgn::{self, PgnError, PgnErrorKind};
/// let text = "[Red \"A\"]\n\n1. h2e2 h9g7\n2. h0g2 xx\n";
/// let err = pgn::read_str(text).unwrap_err();
/// assert_eq!(
///     err,
///     PgnError {
///         file: None,
///         game: Some(1),
///         line: 4,
///         ply: Some(4),
///         kind: PgnErrorKind::Move(NotationError::Unknown { text: "xx".into() }),
///     }
/// );
/// assert_eq!(
///     err.with_file("games.pgn").to_string(),
///     "games.pgn: game 1, line 4, ply 4: 'xx' is not a move in ICCS, WXF or Chinese notation"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// The file, when the caller has said it (see [`PgnError::with_file`]).
    pub file: Option<String>,
    /// The game, counted from 1 in its file; `None` when the bytes could not be decoded
    /// or read.
    pub game: Option<usize>,
    /// The line, counted from 1.
    pub line: usize,
    /// The ply of the move concerned, counted from 1 at the game's start position (a
    /// variation's moves have the plies of the moves they replace).
    pub ply: Option<usize>,
    /// What is wrong.
    pub kind: PgnErrorKind,
}

impl PgnError {
    /// The error with the name of the file it is in, for the message.
    pub fn with_file(mut self, file: impl Into<String>) -> PgnError {
        self.file = Some(file.into());
        self
    }
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}: ")?;
        }
        if let Some(game) = self.game {
            write!(f, "game {game}, ")?;
        }
        write!(f, "line {}", self.line)?;
        if let Some(ply) = self.ply {
            write!(f, ", ply {ply}")?;
        }
        write!(f, ": {}", self.kind)
    }
}

// `Display` includes every wrapped error, so `source` stays `None`.
impl std::error::Error for PgnError {}

/// A game that [`write()`] or [`write_all`] could not write: a move of its tree that is
/// not legal where it is played.
///
/// ```
/// use xq_core::Position;
/// use xq_records::pgn::{self, WriteError, WriteOptions};
/// use xq_records::{Record, Line};
/// use xq_movegen::IllegalMoveError;
/// let mut game = Record::new(Position::startpos());
/// let bad = "h9g7".parse().unwrap();
/// game.main = Line::from_moves([bad]);
/// assert_eq!(
///     pgn::write(&game, &WriteOptions::default()),
///     Err(WriteError { game: 1, ply: 1, error: IllegalMoveError::NoPieceToMove(bad) })
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteError {
    /// The game, counted from 1.
    pub game: usize,
    /// The ply of the move, counted from 1 at the start position.
    pub ply: usize,
    /// Why the move is illegal.
    pub error: IllegalMoveError,
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}, ply {}: {}", self.game, self.ply, self.error)
    }
}

// `Display` includes the wrapped error, so `source` stays `None`.
impl std::error::Error for WriteError {}

/// A character of the text that the encoding asked for cannot hold (see [`encode`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError {
    /// The encoding.
    pub encoding: Encoding,
    /// The first character it cannot hold.
    pub ch: char,
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} cannot encode the character '{}' (U+{:04X}); write UTF-8",
            self.encoding.name().to_uppercase(),
            self.ch,
            self.ch as u32
        )
    }
}

impl std::error::Error for EncodeError {}

/// The bytes of `text` (PGN that [`write()`] made, say) in `encoding`: UTF-8 for
/// [`Encoding::Utf8`] and [`Encoding::Auto`], GBK for older Chinese software.
///
/// # Errors
/// [`EncodeError`] naming the first character GBK cannot hold.
///
/// ```
/// use xq_records::pgn::{encode, Encoding};
/// assert_eq!(encode("炮二平五", Encoding::Gbk).unwrap(), [0xC5, 0xDA, 0xB6, 0xFE, 0xC6, 0xBD, 0xCE, 0xE5]);
/// assert_eq!(encode("炮二平五", Encoding::Utf8).unwrap(), "炮二平五".as_bytes());
/// let err = encode("炮 ♔", Encoding::Gbk).unwrap_err();
/// assert_eq!(err.ch, '♔');
/// assert_eq!(err.to_string(), "GBK cannot encode the character '♔' (U+2654); write UTF-8");
/// ```
pub fn encode(text: &str, encoding: Encoding) -> Result<Vec<u8>, EncodeError> {
    match encoding {
        Encoding::Auto | Encoding::Utf8 => Ok(text.as_bytes().to_vec()),
        Encoding::Gbk => {
            let (bytes, _, unmappable) = encoding_rs::GBK.encode(text);
            if !unmappable {
                return Ok(bytes.into_owned());
            }
            let mut buf = [0u8; 4];
            let ch = text
                .chars()
                .find(|c| encoding_rs::GBK.encode(c.encode_utf8(&mut buf)).2)
                .unwrap_or(char::REPLACEMENT_CHARACTER);
            Err(EncodeError { encoding, ch })
        }
    }
}

/// Decodes PGN bytes to text, and says which encoding they were in ([`Encoding::Utf8`]
/// or [`Encoding::Gbk`]). A UTF-8 byte-order mark is dropped.
///
/// # Errors
/// [`PgnErrorKind::BadEncoding`] with the line of the first invalid byte.
///
/// ```
/// use xq_records::pgn::{decode, Encoding};
/// // 炮二平五 in GBK.
/// let gbk = [0xC5, 0xDA, 0xB6, 0xFE, 0xC6, 0xBD, 0xCE, 0xE5];
/// assert_eq!(decode(&gbk, Encoding::Auto).unwrap(), ("炮二平五".to_string(), Encoding::Gbk));
/// assert_eq!(decode("炮二平五".as_bytes(), Encoding::Auto).unwrap().1, Encoding::Utf8);
/// assert_eq!(decode(&gbk, Encoding::Utf8).unwrap_err().line, 1);
/// ```
pub fn decode(bytes: &[u8], encoding: Encoding) -> Result<(String, Encoding), PgnError> {
    let body = strip_bom(bytes);
    let (text, used) = match encoding {
        Encoding::Utf8 => (decode_as(body, Encoding::Utf8), Encoding::Utf8),
        Encoding::Gbk => (decode_as(bytes, Encoding::Gbk), Encoding::Gbk),
        Encoding::Auto if std::str::from_utf8(body).is_ok() => {
            (decode_as(body, Encoding::Utf8), Encoding::Utf8)
        }
        Encoding::Auto => (decode_as(bytes, Encoding::Gbk), Encoding::Gbk),
    };
    match text {
        Ok(text) => Ok((text.into_owned(), used)),
        Err(line) => Err(bad_encoding(used, line)),
    }
}

/// `bytes` without a leading UTF-8 byte-order mark.
fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

/// `bytes` as text in `encoding` (UTF-8 or GBK: [`Encoding::Auto`] reads as UTF-8), or
/// the line, counted from 1 in `bytes`, of the first byte that is not valid in it.
fn decode_as(bytes: &[u8], encoding: Encoding) -> Result<Cow<'_, str>, usize> {
    let line_at = |text: &[u8]| text.iter().filter(|&&b| b == b'\n').count() + 1;
    match encoding {
        Encoding::Auto | Encoding::Utf8 => std::str::from_utf8(bytes)
            .map(Cow::Borrowed)
            .map_err(|e| line_at(&bytes[..e.valid_up_to()])),
        Encoding::Gbk => {
            let (text, had_errors) = encoding_rs::GBK.decode_without_bom_handling(bytes);
            if had_errors {
                let at = text.find('\u{FFFD}').unwrap_or(0);
                Err(line_at(&text.as_bytes()[..at]))
            } else {
                Ok(text)
            }
        }
    }
}

/// The error for bytes that are not valid in `encoding`, at `line`.
fn bad_encoding(encoding: Encoding, line: usize) -> PgnError {
    PgnError {
        file: None,
        game: None,
        line,
        ply: None,
        kind: PgnErrorKind::BadEncoding { encoding },
    }
}

/// Reads every game of PGN `bytes`, decoded as `options` say: the games a
/// [`PgnReader`] over the bytes returns, up to the first error.
///
/// # Errors
/// A [`PgnError`] for the first problem, with its place.
///
/// ```
/// use xq_records::pgn::{self, ReadOptions};
/// // "1. 炮二平五 *" in GBK.
/// let mut bytes = b"1. ".to_vec();
/// bytes.extend([0xC5, 0xDA, 0xB6, 0xFE, 0xC6, 0xBD, 0xCE, 0xE5]);
/// bytes.extend(b" *");
/// let games = pgn::read(&bytes, &ReadOptions::default()).unwrap();
/// assert_eq!(games[0].main_line(), ["h2e2".parse().unwrap()]);
/// ```
pub fn read(bytes: &[u8], options: &ReadOptions) -> Result<Vec<Record>, PgnError> {
    PgnReader::new(bytes, options).collect()
}

/// Reads every game of PGN `text`.
///
/// # Errors
/// A [`PgnError`] for the first problem, with its place.
///
/// ```
/// use xq_movegen::notation::NotationError;
/// use xq_records::pgn::{self, PgnErrorKind};
/// use xq_movegen::IllegalMoveError;
/// let games = pgn::read_str("[Round \"1\"]\n1. h2e2 h9g7 *\n\n[Round \"2\"]\n1. b0c2 *").unwrap();
/// assert_eq!(games.len(), 2);
/// // Text after a result, up to the next tag line, belongs to the game before.
/// let games = pgn::read_str("1. h2e2 *\nseen on a site\n").unwrap();
/// assert_eq!(games[0].trailer.as_deref(), Some("seen on a site"));
///
/// let err = pgn::read_str("1. h2e2 h9g7\n2. h2e2").unwrap_err();
/// assert_eq!((err.game, err.line, err.ply), (Some(1), 2, Some(3)));
/// assert!(matches!(err.kind, PgnErrorKind::Move(NotationError::Illegal { .. })));
/// ```
pub fn read_str(text: &str) -> Result<Vec<Record>, PgnError> {
    let options = ReadOptions {
        encoding: Encoding::Utf8,
    };
    read(text.as_bytes(), &options)
}

/// Writes `game` as PGN text in the notation `options` asks for.
///
/// The tags are written in their order, except `FEN` and `Format` which the writer
/// makes itself: a `FEN` tag when the game does not start from the usual position, and
/// a `Format` tag naming the notation. Comments are written in braces (a `}` inside a
/// comment becomes the full-width `｝`, and an empty comment is left out).
///
/// # Errors
/// A [`WriteError`] if a move of the tree is not legal where it is played.
///
/// ```
/// use xq_core::Position;
/// use xq_movegen::notation::Notation;
/// use xq_records::pgn::{self, WriteOptions};
/// use xq_movegen::GameResult;
/// use xq_records::{Line, Record};
/// let mut game = Record::new(Position::startpos());
/// game.set_tag("Event", "Demo");
/// game.main = Line::from_moves(["h2e2".parse().unwrap(), "h9g7".parse().unwrap()]);
/// game.result = Some(GameResult::RedWins);
/// let text = pgn::write(&game, &WriteOptions { notation: Notation::Iccs }).unwrap();
/// assert_eq!(text, "[Event \"Demo\"]\n[Format \"ICCS\"]\n\n1. h2e2 h9g7\n1-0\n");
/// ```
pub fn write(game: &Record, options: &WriteOptions) -> Result<String, WriteError> {
    write_game(game, 1, options)
}

/// Writes `games` one after the other, a blank line between two games.
///
/// # Errors
/// A [`WriteError`] for the first game that cannot be written.
///
/// ```
/// use xq_core::Position;
/// use xq_records::pgn::{self, WriteOptions};
/// use xq_records::Record;
/// let games = vec![Record::new(Position::startpos()); 2];
/// let text = pgn::write_all(&games, &WriteOptions::default()).unwrap();
/// assert_eq!(pgn::read_str(&text).unwrap(), games);
/// ```
pub fn write_all(games: &[Record], options: &WriteOptions) -> Result<String, WriteError> {
    let mut out = String::new();
    for (i, game) in games.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&write_game(game, i + 1, options)?);
    }
    Ok(out)
}

// ---------------------------------------------------------------------- reading

/// Reads one game's text (as [`PgnReader`] cuts a file into games), whose first line is
/// line `line` of its file and which is game `game` there: the whole game, or only its
/// tag section when `tags_only`.
fn read_game(
    text: &str,
    game: usize,
    line: usize,
    tags_only: bool,
) -> Result<ParsedGame, PgnError> {
    let mut reader = Reader {
        text,
        at: 0,
        line,
        game,
        format: None,
        first_move: None,
        traditional: false,
    };
    let record = if tags_only {
        reader.tags()?
    } else {
        reader.game()?
    };
    let notation = match reader.first_move {
        Some(Notation::Chinese) if reader.traditional => Notation::ChineseTraditional,
        Some(notation) => notation,
        // No move: the Format tag's notation, else the default.
        None => reader
            .format
            .and_then(|f| f.trim().parse().ok())
            .unwrap_or_default(),
    };
    Ok(ParsedGame { record, notation })
}

struct Reader<'a> {
    /// One game's text.
    text: &'a str,
    /// Byte offset of the next character.
    at: usize,
    /// Line of the next character, from 1.
    line: usize,
    /// The game being read, from 1.
    game: usize,
    /// The value of the `Format` tag.
    format: Option<String>,
    /// The notation of the first move read.
    first_move: Option<Notation>,
    /// Has a move been written with characters only the traditional style uses?
    traditional: bool,
}

/// What ended a line of moves.
enum LineEnd {
    /// A result token (`*`: none).
    Result(Option<GameResult>),
    /// A `)`.
    Close,
    /// The end of the game's text.
    GameOver,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<char> {
        self.text[self.at..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    fn error(&self, line: usize, ply: Option<usize>, kind: PgnErrorKind) -> PgnError {
        PgnError {
            file: None,
            game: Some(self.game),
            line,
            ply,
            kind,
        }
    }

    /// The rest of the current line (not its line break), consumed.
    fn rest_of_line(&mut self) -> &'a str {
        let rest: &'a str = &self.text[self.at..];
        let end = rest.find('\n').unwrap_or(rest.len());
        self.at += end;
        rest[..end].trim_end_matches('\r')
    }

    /// The tag section: a record with the tags, the start position (the `FEN` tag) and
    /// the result the `Result` tag gives.
    fn tags(&mut self) -> Result<Record, PgnError> {
        let mut game = Record::new(start_position());
        loop {
            self.skip_space();
            if self.peek() != Some('[') {
                break;
            }
            let line = self.line;
            let text = self.rest_of_line();
            let Some((name, value)) = parse_tag(text) else {
                let text = text.to_string();
                return Err(self.error(line, None, PgnErrorKind::BadTag { text }));
            };
            match name.as_str() {
                "FEN" => {
                    game.start = Position::from_fen(&value).map_err(|error| {
                        self.error(line, None, PgnErrorKind::BadFen { fen: value, error })
                    })?;
                }
                "Format" => self.format = Some(value),
                _ => game.tags.push((name, value)),
            }
        }
        game.result = game.tag("Result").and_then(result_token).flatten();
        Ok(game)
    }

    fn game(&mut self) -> Result<Record, PgnError> {
        let mut game = self.tags()?;
        let start = game.start.clone();
        let (main, end) = self.line_of_moves(&start, 0, 0, self.line)?;
        game.main = main;
        if let LineEnd::Result(result) = end {
            game.result = result;
            // What follows the result is the trailer: the text cut out for this game
            // ends where the next game begins.
            let text = self.text[self.at..].trim();
            game.trailer = (!text.is_empty()).then(|| line_feeds(text));
        }
        Ok(game)
    }

    /// Notes the notation of a move read from `text`.
    fn saw_move(&mut self, text: &str) {
        if self.first_move.is_none() {
            self.first_move = notation_of(text);
        }
        if !self.traditional && !text.is_ascii() {
            self.traditional = notation_of(text) == Some(Notation::ChineseTraditional);
        }
    }

    /// Reads moves from `start` until a result, a `)` (when `depth > 0`) or the end of
    /// the game's text. `before` is the number of plies before the line's first move;
    /// `opened` the line of the `(` that opened it.
    fn line_of_moves(
        &mut self,
        start: &Position,
        before: usize,
        depth: usize,
        opened: usize,
    ) -> Result<(Line, LineEnd), PgnError> {
        let mut line = Line::default();
        let mut pos = start.clone();
        // The position before the last move of the line.
        let mut previous: Option<Position> = None;
        let unterminated = |r: &Self| r.error(opened, None, PgnErrorKind::UnterminatedVariation);
        loop {
            self.skip_space();
            let here = self.line;
            let ply = before + line.nodes.len() + 1;
            let Some(c) = self.peek() else {
                if depth > 0 {
                    return Err(unterminated(self));
                }
                return Ok((line, LineEnd::GameOver));
            };
            match c {
                '{' => {
                    self.bump();
                    let rest = &self.text[self.at..];
                    let Some(end) = rest.find('}') else {
                        return Err(self.error(here, None, PgnErrorKind::UnterminatedComment));
                    };
                    self.line += rest[..end].matches('\n').count();
                    self.at += end + 1;
                    add_comment(&mut line, line_feeds(rest[..end].trim()));
                }
                ';' => {
                    self.bump();
                    let comment = line_feeds(self.rest_of_line().trim());
                    add_comment(&mut line, comment);
                }
                '(' => {
                    self.bump();
                    if depth + 1 > MAX_VARIATION_DEPTH {
                        return Err(self.error(here, None, PgnErrorKind::TooDeep));
                    }
                    let Some(from) = previous.as_ref() else {
                        return Err(self.error(here, None, PgnErrorKind::VariationBeforeMove));
                    };
                    let (variation, _) = self.line_of_moves(from, ply - 2, depth + 1, here)?;
                    if let Some(last) = line.nodes.last_mut() {
                        last.variations.push(variation);
                    }
                }
                ')' => {
                    if depth == 0 {
                        return Err(self.error(here, None, PgnErrorKind::UnmatchedParenthesis));
                    }
                    self.bump();
                    return Ok((line, LineEnd::Close));
                }
                '$' => {
                    let word = self.word();
                    let nag = word[1..].parse::<u8>().map_err(|_| {
                        self.error(here, None, PgnErrorKind::BadNag { text: word.clone() })
                    })?;
                    if let Some(last) = line.nodes.last_mut() {
                        last.nags.push(nag);
                    }
                }
                _ => {
                    let word = self.word();
                    if let Some(result) = result_token(&word) {
                        if depth > 0 {
                            return Err(unterminated(self));
                        }
                        return Ok((line, LineEnd::Result(result)));
                    }
                    let text = strip_move_number(&word);
                    if text.is_empty() {
                        continue;
                    }
                    let (text, nag) = strip_glyph(text);
                    let m = read_move(&pos, text)
                        .map_err(|e| self.error(here, Some(ply), PgnErrorKind::Move(e)))?;
                    self.saw_move(text);
                    previous = Some(pos.clone());
                    pos.make_move(m);
                    let mut node = Node::new(m);
                    node.nags.extend(nag);
                    line.nodes.push(node);
                }
            }
        }
    }

    /// The next word: characters up to white space or one of `{ ( ) ;`.
    fn word(&mut self) -> String {
        let mut word = String::new();
        while let Some(c) = self.peek() {
            if c.is_whitespace() || matches!(c, '{' | '(' | ')' | ';') {
                break;
            }
            word.push(c);
            self.bump();
        }
        word
    }
}

/// The result a PGN token stands for (`Some(None)` for `*`; `½-½` is read as a draw),
/// `None` for a word that is no result token.
fn result_token(word: &str) -> Option<Option<GameResult>> {
    match word {
        "*" => Some(None),
        "½-½" => Some(Some(GameResult::Draw)),
        _ => word.parse().ok().map(Some),
    }
}

fn start_position() -> Position {
    // The start FEN always parses; fall back to the first legal FEN rather than panic.
    Position::from_fen(START_FEN).unwrap_or_default()
}

/// `text` with every line break (CR LF, or a lone CR) made LF.
pub(crate) fn line_feeds(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\r', "\n")
}

/// Appends a comment where it was written: after the line's last move, or before its
/// first.
fn add_comment(line: &mut Line, comment: String) {
    if comment.is_empty() {
        return;
    }
    let slot = match line.nodes.last_mut() {
        Some(node) => &mut node.comment,
        None => &mut line.comment,
    };
    match slot {
        Some(existing) => {
            existing.push('\n');
            existing.push_str(&comment);
        }
        None => *slot = Some(comment),
    }
}

/// `[Name "value"]` (with `\"` and `\\` escapes), or `None`.
fn parse_tag(text: &str) -> Option<(String, String)> {
    let inner = text.trim_end().strip_prefix('[')?.strip_suffix(']')?.trim();
    let name_end = inner.find(|c: char| c.is_whitespace() || c == '"')?;
    let name = &inner[..name_end];
    if name.is_empty() || name.contains(['[', ']']) {
        return None;
    }
    let quoted = inner[name_end..].trim_start().strip_prefix('"')?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    loop {
        let c = match chars.next()? {
            '\\' => chars.next()?,
            '"' => break,
            c => c,
        };
        // A line break cannot be written inside a tag: a stray one reads as a space.
        value.push(if c == '\r' { ' ' } else { c });
    }
    if !chars.as_str().trim().is_empty() {
        return None;
    }
    Some((name.to_string(), value))
}

/// The word without a leading move number (`12.`, `12...`, `12．`).
fn strip_move_number(word: &str) -> &str {
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return word;
    }
    let rest = &word[digits..];
    let after = rest.trim_start_matches(['.', '．', '…', '。']);
    if after.len() == rest.len() {
        word
    } else {
        after
    }
}

/// The move without a trailing `!` / `?` glyph, and the glyph's number.
fn strip_glyph(text: &str) -> (&str, Option<u8>) {
    let body = text.trim_end_matches(['!', '?']);
    if body.is_empty() || body.len() == text.len() {
        return (text, None);
    }
    let nag = match &text[body.len()..] {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        _ => return (text, None),
    };
    (body, Some(nag))
}

// ---------------------------------------------------------------------- writing

/// Text laid out in lines of at most about 80 columns (a Chinese character counts two).
struct Layout {
    out: String,
    column: usize,
    /// The next token follows the previous one without a space (after `(`).
    glue: bool,
}

const WIDTH: usize = 80;

fn width(text: &str) -> usize {
    text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

impl Layout {
    fn token(&mut self, text: &str) {
        if self.column > 0 && !self.glue {
            if self.column + 1 + width(text) > WIDTH {
                self.newline();
            } else {
                self.out.push(' ');
                self.column += 1;
            }
        }
        self.glue = false;
        self.out.push_str(text);
        match text.rfind('\n') {
            Some(i) => self.column = width(&text[i + 1..]),
            None => self.column += width(text),
        }
    }

    fn open(&mut self) {
        self.token("(");
        self.glue = true;
    }

    fn close(&mut self) {
        self.out.push(')');
        self.column += 1;
        self.glue = false;
    }

    fn newline(&mut self) {
        if self.column > 0 {
            self.out.push('\n');
            self.column = 0;
        }
    }
}

fn comment_token(comment: &str) -> String {
    format!("{{{}}}", comment.replace('}', "｝"))
}

fn write_game(game: &Record, number: usize, options: &WriteOptions) -> Result<String, WriteError> {
    let mut out = String::new();
    for (name, value) in &game.tags {
        if name == "FEN" || name == "Format" {
            continue;
        }
        push_tag(&mut out, name, value);
    }
    if game.start != start_position() {
        push_tag(&mut out, "FEN", &game.start.to_fen());
    }
    push_tag(&mut out, "Format", options.notation.format_tag());
    out.push('\n');

    let mut layout = Layout {
        out,
        column: 0,
        glue: false,
    };
    let black_first = game.start.side_to_move() == Color::Black;
    let mut writer = MoveWriter {
        layout: &mut layout,
        notation: options.notation,
        black_first,
        game: number,
    };
    writer.line(&game.start, &game.main, 0, 0)?;
    layout.newline();
    layout.token(game.result.map_or("*", GameResult::token));
    let mut out = layout.out;
    if let Some(trailer) = game.trailer.as_deref().map(str::trim) {
        if !trailer.is_empty() {
            // A line that starts with `[` would begin a new game: such a first line
            // stays on the result's line, where the reader takes it back.
            out.push(if trailer.starts_with('[') { ' ' } else { '\n' });
            out.push_str(trailer);
        }
    }
    out.push('\n');
    Ok(out)
}

fn push_tag(out: &mut String, name: &str, value: &str) {
    let name: String = name
        .chars()
        .map(|c| {
            if c.is_whitespace() || matches!(c, '"' | '[' | ']') {
                '_'
            } else {
                c
            }
        })
        .collect();
    let name = if name.is_empty() {
        "_".to_string()
    } else {
        name
    };
    out.push('[');
    out.push_str(&name);
    out.push_str(" \"");
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out.push_str("\"]\n");
}

struct MoveWriter<'a> {
    layout: &'a mut Layout,
    notation: Notation,
    black_first: bool,
    game: usize,
}

impl MoveWriter<'_> {
    /// Writes `line`, played from `start`, whose first move is ply `before + 1`.
    fn line(
        &mut self,
        start: &Position,
        line: &Line,
        before: usize,
        depth: usize,
    ) -> Result<(), WriteError> {
        if let Some(comment) = line.comment.as_deref().filter(|c| !c.is_empty()) {
            self.layout.token(&comment_token(comment));
        }
        let mut pos = start.clone();
        let mut need_number = true;
        for (i, node) in line.nodes.iter().enumerate() {
            let ply = before + i + 1;
            let illegal = |error| WriteError {
                game: self.game,
                ply,
                error,
            };
            let number = (ply - 1 + usize::from(self.black_first)) / 2 + 1;
            if pos.side_to_move() == Color::Red {
                if depth == 0 {
                    self.layout.newline();
                }
                self.layout.token(&format!("{number}."));
            } else if need_number {
                self.layout.token(&format!("{number}..."));
            }
            let previous = pos.clone();
            let text = match write_move(&previous, node.mv, self.notation) {
                Ok(text) => text,
                Err(NotationError::Illegal { error, .. }) => return Err(illegal(error)),
                // Writing a move fails only when it is illegal.
                Err(other) => unreachable!("writing {} failed: {other}", node.mv),
            };
            pos.make_move(node.mv);
            self.layout.token(&text);
            for nag in &node.nags {
                self.layout.token(&format!("${nag}"));
            }
            need_number = false;
            if let Some(comment) = node.comment.as_deref().filter(|c| !c.is_empty()) {
                self.layout.token(&comment_token(comment));
                need_number = true;
            }
            for variation in &node.variations {
                self.layout.open();
                self.line(&previous, variation, ply - 1, depth + 1)?;
                self.layout.close();
                need_number = true;
            }
        }
        Ok(())
    }
}
