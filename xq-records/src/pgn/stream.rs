//! Reading a PGN file one game at a time: [`PgnReader`] cuts the text into games as it
//! reads it line by line, and [`GameText`] reads one game. This is the one place where a
//! file is cut into games: [`read`](super::read) and [`read_str`](super::read_str) read
//! through a `PgnReader` too.

use super::{
    bad_encoding, decode_as, read_game, result_token, strip_bom, Encoding, PgnError, PgnErrorKind,
    ReadOptions,
};
use crate::record::Record;
use std::collections::VecDeque;
use std::io::BufRead;
use xq_movegen::notation::Notation;

/// How many bytes [`Encoding::Auto`] judges, from the source's first line that is not
/// ASCII on (whole lines; fewer at the end of the source).
const JUDGED_BYTES: usize = 16 * 1024;

/// Reads PGN games one at a time from any [`BufRead`] (a [`BufReader`] over a file, a
/// byte slice, standard input), without reading the whole file first.
///
/// [`read_text`](Self::read_text) returns the next game's text, cut out of the file where
/// the game ends: at the next line that starts with `[` after its moves or its result
/// (the text between a result and that line is the game's trailer; a `[` inside a comment
/// ends nothing). The game's [`GameText`] then reads it whole, or only its tags; a bad
/// game is an error of that game alone, and the reader goes on with the next one. As an
/// [`Iterator`], the reader gives each game's [`Record`].
///
/// The encoding is that of the [`ReadOptions`], or, for [`Encoding::Auto`], judged once
/// for the whole source: lines of ASCII read the same in UTF-8 and GBK, and at the first
/// line that is not ASCII the reader looks at up to 16 KiB from there: UTF-8 if all of it
/// is valid UTF-8, GBK otherwise. A UTF-8 byte-order mark at the start is dropped.
///
/// A bad byte in the encoding, or an error of the source, ends the reading: the error is
/// returned once, then the reader gives no more games.
///
/// [`BufReader`]: std::io::BufReader
///
/// ```
/// use xq_movegen::notation::Notation;
/// use xq_records::pgn::{Encoding, PgnReader, ReadOptions};
///
/// let file = "[Round \"1\"]\n1. h2e2 h9g7 *\n\n[Round \"2\"]\n1. 炮二平五 *\nseen on a site\n";
/// let mut reader = PgnReader::new(file.as_bytes(), &ReadOptions::default());
/// let first = reader.read_text().unwrap().unwrap();
/// assert_eq!((first.game(), first.line(), first.offset()), (1, 1, Some(0)));
/// assert_eq!(first.text(), "[Round \"1\"]\n1. h2e2 h9g7 *\n\n");
/// assert_eq!(first.tags().unwrap().tag("Round"), Some("1"));
///
/// let second = reader.read_text().unwrap().unwrap();
/// assert_eq!((second.game(), second.line(), second.offset()), (2, 4, Some(28)));
/// let game = second.parse().unwrap();
/// assert_eq!(game.notation, Notation::Chinese);
/// assert_eq!(game.record.trailer.as_deref(), Some("seen on a site"));
/// assert_eq!(reader.read_text().unwrap(), None);
/// assert_eq!(reader.encoding(), Encoding::Utf8);
///
/// // As an iterator of records.
/// let reader = PgnReader::new(file.as_bytes(), &ReadOptions::default());
/// let plies: Vec<usize> = reader.map(|game| game.unwrap().main.nodes.len()).collect();
/// assert_eq!(plies, [2, 1]);
/// ```
#[derive(Debug)]
pub struct PgnReader<R> {
    source: R,
    /// The encoding of the bytes: `None` while an [`Encoding::Auto`] source has shown only
    /// ASCII.
    decided: Option<Encoding>,
    /// Bytes taken from the source.
    taken: u64,
    /// Lines taken from the source to judge its encoding and not decoded yet: their
    /// offset in the source and their bytes.
    undecoded: VecDeque<(u64, Vec<u8>)>,
    /// Text decoded and not yet returned in a game.
    pending: String,
    /// Where lines of the source start in `pending`: the offset in `pending` and the
    /// offset in the source.
    starts: VecDeque<(usize, u64)>,
    /// The line feeds in `pending`.
    pending_lines: usize,
    /// The line `pending` starts on, from 1.
    line: usize,
    /// The games returned.
    games: usize,
    /// Nothing has been decoded yet (a byte-order mark is dropped).
    at_start: bool,
    /// A bad byte or an error of the source has ended the reading.
    failed: bool,
}

impl<R> PgnReader<R> {
    /// A reader of the games of `source`, decoded as `options` say.
    pub fn new(source: R, options: &ReadOptions) -> PgnReader<R> {
        PgnReader {
            source,
            decided: decided(options.encoding),
            taken: 0,
            undecoded: VecDeque::new(),
            pending: String::new(),
            starts: VecDeque::new(),
            pending_lines: 0,
            line: 1,
            games: 0,
            at_start: true,
            failed: false,
        }
    }

    /// The encoding the bytes are read in: [`Encoding::Utf8`] or [`Encoding::Gbk`], or
    /// [`Encoding::Auto`] while an `Auto` source has shown only ASCII (which reads the
    /// same in both).
    ///
    /// ```
    /// use xq_records::pgn::{Encoding, PgnReader, ReadOptions};
    /// // "[Red \"炮\"]" in GBK, after a line of ASCII.
    /// let gbk = b"[Event \"x\"]\n[Red \"\xC5\xDA\"]\n1. h2e2 *\n";
    /// let mut reader = PgnReader::new(&gbk[..], &ReadOptions::default());
    /// assert_eq!(reader.encoding(), Encoding::Auto);
    /// let game = reader.read_text().unwrap().unwrap();
    /// assert_eq!(reader.encoding(), Encoding::Gbk);
    /// assert_eq!(game.record().unwrap().tag("Red"), Some("炮"));
    /// ```
    pub fn encoding(&self) -> Encoding {
        self.decided.unwrap_or(Encoding::Auto)
    }

    /// Reads the lines not decoded yet in `encoding` (`Auto`: judged again at the next
    /// line that is not ASCII). Text already decoded stays as it was read.
    pub fn set_encoding(&mut self, encoding: Encoding) {
        self.decided = decided(encoding);
    }

    /// The offset in the source of the text not returned yet (where the next game's
    /// first line starts), or `None` when that text starts inside a line (after a lone
    /// carriage return).
    pub fn position(&self) -> Option<u64> {
        if self.pending.is_empty() {
            return Some(self.undecoded.front().map_or(self.taken, |(at, _)| *at));
        }
        match self.starts.front() {
            Some(&(0, at)) => Some(at),
            _ => None,
        }
    }

    /// Forgets the text read beyond the games returned, so that the source can be moved
    /// back to the returned [`position`](Self::position) and read on from there (by the
    /// caller: the reader only forgets). Returns `None`, and forgets nothing, when that
    /// position is not known. The line and game numbers and the encoding judged stay.
    ///
    /// ```
    /// use std::io::{BufRead, Cursor, Seek, SeekFrom};
    /// use xq_records::pgn::{PgnReader, ReadOptions};
    /// let file = "[Round \"1\"]\n1. h2e2 *\n[Round \"2\"]\n1. b2e2 *\n";
    /// let mut reader = PgnReader::new(Cursor::new(file), &ReadOptions::default());
    /// reader.read_text().unwrap();
    /// // The reader has read the next game's first line too; give it back.
    /// let at = reader.forget_read_ahead().unwrap();
    /// reader.get_mut().seek(SeekFrom::Start(at)).unwrap();
    /// let mut rest = String::new();
    /// reader.get_mut().read_line(&mut rest).unwrap();
    /// assert_eq!(rest, "[Round \"2\"]\n");
    /// ```
    pub fn forget_read_ahead(&mut self) -> Option<u64> {
        let position = self.position()?;
        self.pending.clear();
        self.starts.clear();
        self.undecoded.clear();
        self.pending_lines = 0;
        self.taken = position;
        Some(position)
    }

    /// The source.
    pub fn get_ref(&self) -> &R {
        &self.source
    }

    /// The source, to move it (see [`forget_read_ahead`](Self::forget_read_ahead)).
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.source
    }

    /// The source back (what the reader has read ahead is lost).
    pub fn into_inner(self) -> R {
        self.source
    }

    /// Takes the first `cut` bytes of `pending` as game text.
    fn take(&mut self, cut: usize) -> GameText {
        let offset = self.position();
        let rest = self.pending.split_off(cut);
        let text = std::mem::replace(&mut self.pending, rest);
        let lines = text.matches('\n').count();
        let line = self.line;
        self.line += lines;
        self.pending_lines -= lines;
        while self.starts.front().is_some_and(|&(at, _)| at < cut) {
            self.starts.pop_front();
        }
        for (at, _) in &mut self.starts {
            *at -= cut;
        }
        GameText {
            text,
            game: self.games + 1,
            line,
            offset,
            encoding: self.encoding(),
        }
    }
}

/// The encoding decided by asking for `encoding`.
fn decided(encoding: Encoding) -> Option<Encoding> {
    match encoding {
        Encoding::Auto => None,
        known => Some(known),
    }
}

impl<R: BufRead> PgnReader<R> {
    /// The next game's text, or `None` at the end of the source (or after an error that
    /// ended the reading).
    ///
    /// # Errors
    /// [`PgnErrorKind::BadEncoding`] for bytes that are not valid in the encoding, and
    /// [`PgnErrorKind::Io`] when the source cannot be read, with the line; both end the
    /// reading. A game's own errors come from [`GameText::parse`].
    pub fn read_text(&mut self) -> Result<Option<GameText>, PgnError> {
        if self.failed {
            return Ok(None);
        }
        let mut split = Split::new();
        loop {
            if let Some(cut) = split.scan(&self.pending) {
                let game = self.take(cut);
                self.games += 1;
                return Ok(Some(game));
            }
            if !self.read_line()? {
                break;
            }
        }
        let blank = self.pending.trim_start().is_empty();
        let game = self.take(self.pending.len());
        if blank {
            return Ok(None);
        }
        self.games += 1;
        Ok(Some(game))
    }

    /// Decodes the source's next line onto `pending`; false at the end of the source.
    fn read_line(&mut self) -> Result<bool, PgnError> {
        loop {
            let (offset, bytes) = match self.undecoded.pop_front() {
                Some(raw) => raw,
                None => match self.read_raw()? {
                    Some(raw) => raw,
                    None => return Ok(false),
                },
            };
            if self.decided.is_none() && !bytes.is_ascii() {
                self.undecoded.push_front((offset, bytes));
                self.judge()?;
                continue;
            }
            let encoding = self.decided.unwrap_or(Encoding::Utf8);
            let body = if self.at_start && encoding == Encoding::Utf8 {
                strip_bom(&bytes)
            } else {
                &bytes
            };
            self.at_start = false;
            let line = self.line + self.pending_lines;
            let Ok(text) = decode_as(body, encoding) else {
                self.failed = true;
                return Err(bad_encoding(encoding, line));
            };
            self.starts.push_back((self.pending.len(), offset));
            self.pending_lines += text.matches('\n').count();
            self.pending.push_str(&text);
            return Ok(true);
        }
    }

    /// Judges the encoding of an `Auto` source whose first line that is not ASCII is the
    /// first of `undecoded`: from it and the lines after it, up to [`JUDGED_BYTES`].
    fn judge(&mut self) -> Result<(), PgnError> {
        let mut judged: usize = self.undecoded.iter().map(|(_, bytes)| bytes.len()).sum();
        while judged < JUDGED_BYTES {
            let Some(raw) = self.read_raw()? else {
                break;
            };
            judged += raw.1.len();
            self.undecoded.push_back(raw);
        }
        let utf8 = self
            .undecoded
            .iter()
            .all(|(_, bytes)| std::str::from_utf8(bytes).is_ok());
        self.decided = Some(if utf8 { Encoding::Utf8 } else { Encoding::Gbk });
        Ok(())
    }

    /// The source's next line (up to and with its line feed) and its offset, or `None`
    /// at the end.
    fn read_raw(&mut self) -> Result<Option<(u64, Vec<u8>)>, PgnError> {
        let mut bytes = Vec::new();
        match self.source.read_until(b'\n', &mut bytes) {
            Ok(0) => Ok(None),
            Ok(n) => {
                let offset = self.taken;
                self.taken += n as u64;
                Ok(Some((offset, bytes)))
            }
            Err(e) => {
                self.failed = true;
                Err(PgnError {
                    file: None,
                    game: None,
                    line: self.line + self.pending_lines + self.undecoded.len(),
                    ply: None,
                    kind: PgnErrorKind::Io {
                        kind: e.kind(),
                        message: e.to_string(),
                    },
                })
            }
        }
    }
}

impl<R: BufRead> Iterator for PgnReader<R> {
    type Item = Result<Record, PgnError>;

    /// The next game's record (see [`GameText::record`]), or the error that ended the
    /// reading.
    fn next(&mut self) -> Option<Result<Record, PgnError>> {
        match self.read_text() {
            Ok(Some(text)) => Some(text.record()),
            Ok(None) => None,
            Err(e) => Some(Err(e)),
        }
    }
}

/// One game's text as a [`PgnReader`] cut it out of its file, with where it was: read it
/// whole ([`parse`](Self::parse), [`record`](Self::record)) or only its tags
/// ([`tags`](Self::tags)). Errors give the place in the file.
///
/// ```
/// use xq_records::pgn::{PgnErrorKind, PgnReader, ReadOptions};
/// let file = "[Round \"1\"]\n1. h2e2 h9g7 *\n\n[Round \"2\"]\n1. h2e2 h2e2 *\n";
/// let mut games = Vec::new();
/// let mut reader = PgnReader::new(file.as_bytes(), &ReadOptions::default());
/// while let Some(text) = reader.read_text().unwrap() {
///     games.push(text);
/// }
/// // The second game's tags read; its moves do not (h2 is empty for Black's move).
/// assert_eq!(games[1].tags().unwrap().tag("Round"), Some("2"));
/// let err = games[1].record().unwrap_err();
/// assert_eq!((err.game, err.line, err.ply), (Some(2), 5, Some(2)));
/// assert!(matches!(err.kind, PgnErrorKind::Move(_)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameText {
    text: String,
    game: usize,
    line: usize,
    offset: Option<u64>,
    encoding: Encoding,
}

/// A game read from its text: the record, and the notation its moves are written in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedGame {
    /// The game.
    pub record: Record,
    /// The notation of the game's first move; Chinese is
    /// [`Notation::ChineseTraditional`] when any move of the game uses a character only
    /// the traditional style writes (see
    /// [`notation_of`](xq_movegen::notation::notation_of)). A game without moves has its
    /// `Format` tag's notation, or [`Notation::Chinese`].
    pub notation: Notation,
}

impl GameText {
    /// The text, as decoded: from the game's first line (blank lines before it
    /// included) up to the next game's first line.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text, as decoded.
    pub fn into_text(self) -> String {
        self.text
    }

    /// The game's number in its file, from 1.
    pub fn game(&self) -> usize {
        self.game
    }

    /// The line of the file the text starts on, from 1.
    pub fn line(&self) -> usize {
        self.line
    }

    /// The offset in the file of the text's first byte, when the text starts at the start
    /// of a line (see [`PgnReader::position`]).
    pub fn offset(&self) -> Option<u64> {
        self.offset
    }

    /// The encoding the text was decoded from (see [`PgnReader::encoding`]).
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Reads the game, every move checked.
    ///
    /// # Errors
    /// A [`PgnError`] for the first problem, with its game, line and ply in the file.
    ///
    /// ```
    /// use xq_movegen::notation::Notation;
    /// use xq_records::pgn::{PgnReader, ReadOptions};
    /// let file = "1. 炮二平五 馬８進７ *";
    /// let text = PgnReader::new(file.as_bytes(), &ReadOptions::default()).read_text().unwrap().unwrap();
    /// assert_eq!(text.parse().unwrap().notation, Notation::ChineseTraditional);
    /// ```
    pub fn parse(&self) -> Result<ParsedGame, PgnError> {
        read_game(&self.text, self.game, self.line, false)
    }

    /// Reads the game's record, every move checked ([`parse`](Self::parse) without the
    /// notation).
    ///
    /// # Errors
    /// A [`PgnError`] for the first problem, with its game, line and ply in the file.
    pub fn record(&self) -> Result<Record, PgnError> {
        self.parse().map(|game| game.record)
    }

    /// Reads only the tag section: a record with the tags, the start position (the `FEN`
    /// tag) and the result the `Result` tag gives, and no moves. The movetext is not
    /// read, so a bad move is no error here.
    ///
    /// # Errors
    /// A malformed tag ([`PgnErrorKind::BadTag`]) or `FEN` tag ([`PgnErrorKind::BadFen`]).
    pub fn tags(&self) -> Result<Record, PgnError> {
        read_game(&self.text, self.game, self.line, true).map(|game| game.record)
    }
}

// ---------------------------------------------------------------------- where games end

/// The part of a game the text is in.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
enum Phase {
    /// The tag section (and blank lines before it).
    #[default]
    Tags,
    /// The movetext.
    Moves,
    /// After the result: the trailer.
    Trailer,
}

/// Follows a game's text to find where the next game starts: at a line whose first
/// character other than blank space is `[`, after the game's movetext has begun, outside
/// a comment. It follows the text as the game's reader does: tag lines; then words up to
/// white space or `{ ( ) ;`, comments in braces or from `;` to the end of the line,
/// parentheses, and a result token outside parentheses, after which the rest is the
/// trailer. (A `[` at the start of a line inside the movetext is a new game; elsewhere it
/// is part of a word, which the reader refuses as a move.)
#[derive(Debug, Default)]
struct Split {
    phase: Phase,
    /// Inside a tag line.
    tag_line: bool,
    /// Inside a `{` comment.
    brace: bool,
    /// Inside a `;` comment.
    semicolon: bool,
    /// Open parentheses.
    depth: usize,
    /// The start of the word being read, and whether it is a `$` glyph.
    word: Option<(usize, bool)>,
    /// Where the current line starts.
    line_start: usize,
    /// Only blank space since `line_start`.
    blank: bool,
    /// How far the text has been followed.
    scanned: usize,
}

impl Split {
    fn new() -> Split {
        Split {
            blank: true,
            ..Split::default()
        }
    }

    /// Follows `text` (which only grows between calls) from where the last call stopped;
    /// the offset of the line where the next game starts, if it has come.
    fn scan(&mut self, text: &str) -> Option<usize> {
        let from = self.scanned;
        for (i, c) in text[from..].char_indices() {
            let i = from + i;
            if self.ends_before(text, i, c) {
                return Some(self.line_start);
            }
            if matches!(c, '\n' | '\r') {
                self.line_start = i + c.len_utf8();
                self.blank = true;
            } else if !blank(c) {
                self.blank = false;
            }
        }
        self.scanned = text.len();
        None
    }

    /// Follows the character `c` at `i`; true when it is the `[` of the next game.
    fn ends_before(&mut self, text: &str, i: usize, c: char) -> bool {
        match self.phase {
            Phase::Tags => {
                if self.tag_line {
                    self.tag_line = c != '\n';
                    return false;
                }
                if c.is_whitespace() {
                    return false;
                }
                if c == '[' {
                    self.tag_line = true;
                    return false;
                }
                self.phase = Phase::Moves;
                self.movetext(text, i, c)
            }
            Phase::Moves => self.movetext(text, i, c),
            Phase::Trailer => c == '[' && self.blank,
        }
    }

    fn movetext(&mut self, text: &str, i: usize, c: char) -> bool {
        if let Some((start, glyph)) = self.word {
            if !(c.is_whitespace() || matches!(c, '{' | '(' | ')' | ';')) {
                return false;
            }
            self.word = None;
            if !glyph && self.depth == 0 && result_token(&text[start..i]).is_some() {
                // `c` is the trailer's first character.
                self.phase = Phase::Trailer;
                return false;
            }
        }
        if self.brace {
            self.brace = c != '}';
            return false;
        }
        if self.semicolon {
            self.semicolon = c != '\n';
            return false;
        }
        match c {
            '{' => self.brace = true,
            ';' => self.semicolon = true,
            '(' => self.depth += 1,
            ')' => self.depth = self.depth.saturating_sub(1),
            '[' if self.blank => return true,
            '$' => self.word = Some((i, true)),
            c if c.is_whitespace() => {}
            _ => self.word = Some((i, false)),
        }
        false
    }
}

/// White space that does not break a line.
fn blank(c: char) -> bool {
    c.is_whitespace() && !matches!(c, '\n' | '\r')
}
