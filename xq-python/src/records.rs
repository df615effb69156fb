//! Game files: `xq.Record` (a game file's record: tags, start, main line with comments
//! and variations, result), PGN read from UTF-8 or GBK and written in a chosen notation,
//! XQF read; and for `xq.pgn` (python-chess's `Game` and `GameNode`), the private stream
//! that reads a PGN file object one game at a time (`_PgnStream`, `_PgnGame`) and the
//! conversions of a record to and from the tree of tuples its games are built from.

use crate::board::{self, Board};
use crate::errors::{value_error, Error, Kind};
use crate::types::Move;
use crate::types::Reduced;
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString, PyTuple};
use std::collections::VecDeque;
use std::io::{BufRead, Read};
use std::path::PathBuf;
use xq_movegen::GameResult;
use xq_records::pgn::{
    self, Encoding, GameText, PgnReader, ReadOptions, WriteOptions, MAX_VARIATION_DEPTH,
};
use xq_records::{xqf, Line, Record};

/// A game file's record, as read from a PGN or XQF file: `tags` (a dict in file order),
/// `board()` (the start), `moves` (the main line), `mainline()` (its `Node`s with
/// comments and variations), `comment` (before the first move), `result`, `end()` (the
/// board after the main line). `pgn(notation)` writes it. (`xq.Game`, its name before
/// 0.2, is a deprecated alias; `xq.pgn.Game` is python-chess's editable tree.)
#[pyclass(module = "xq", name = "Record")]
#[derive(Clone, Debug)]
pub struct GameRecord {
    record: Record,
}

/// One move of a line with what is written after it: `move`, `comment` (or None),
/// `nags` (annotation glyph numbers) and `variations` (lines that could be played instead
/// of this move, each a list of `Node`s).
#[pyclass(module = "xq", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct Node {
    /// The move.
    r#move: Move,
    /// The comment after the move, or None.
    comment: Option<String>,
    /// Numeric annotation glyphs (`$1`, or `!` as read).
    nags: Vec<u16>,
    /// Alternatives to this move, each a list of Nodes.
    variations: Vec<Vec<Node>>,
}

#[pymethods]
impl Node {
    fn __repr__(&self) -> String {
        format!(
            "<Node {}{}>",
            self.r#move.inner,
            if self.comment.is_some() { " {…}" } else { "" }
        )
    }
}

fn nodes(line: &Line) -> Vec<Node> {
    line.nodes
        .iter()
        .map(|n| Node {
            r#move: Move::of(n.mv),
            comment: n.comment.clone(),
            nags: n.nags.iter().map(|&g| u16::from(g)).collect(),
            variations: n.variations.iter().map(nodes).collect(),
        })
        .collect()
}

fn pgn_error(e: pgn::PgnError) -> PyErr {
    Error::new(Kind::InvalidGameFile, e).into()
}

fn games(records: Vec<Record>) -> Vec<GameRecord> {
    records
        .into_iter()
        .map(|record| GameRecord { record })
        .collect()
}

/// The bytes of a source: `bytes` as they are, or the file at a path (str or
/// os.PathLike), with the path to name in errors.
fn source(obj: &Bound<'_, PyAny>) -> PyResult<(Vec<u8>, Option<String>)> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok((b.as_bytes().to_vec(), None));
    }
    let path: PathBuf = obj.extract()?;
    let bytes = std::fs::read(&path)?;
    Ok((bytes, Some(path.display().to_string())))
}

fn encoding(name: &str) -> PyResult<Encoding> {
    Encoding::from_name(name)
        .ok_or_else(|| value_error(format!("unknown encoding '{name}' (auto, utf-8 or gbk)")))
}

/// `xq.read_pgn(source, encoding="auto")`: every game of a PGN file, from a path (str or
/// os.PathLike) or from `bytes`. The encoding is detected (UTF-8 if the bytes are valid
/// UTF-8, else GBK, as the Chinese sites publish) or forced: `"utf-8"`, `"gbk"`.
///
/// Raises InvalidGameFile with the place (file, game, line, ply) and the reason.
#[pyfunction]
#[pyo3(signature = (source, encoding = "auto"))]
pub fn read_pgn(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    encoding: &str,
) -> PyResult<Vec<GameRecord>> {
    let encoding = self::encoding(encoding)?;
    let (bytes, path) = self::source(source)?;
    let read = py.detach(|| pgn::read(&bytes, &ReadOptions { encoding }));
    match read {
        Ok(r) => Ok(games(r)),
        Err(e) => Err(pgn_error(match path {
            Some(p) => e.with_file(p),
            None => e,
        })),
    }
}

/// `xq.read_pgn_str(text)`: every game of PGN text.
///
/// Raises InvalidGameFile with the place (game, line, ply) and the reason.
#[pyfunction]
pub fn read_pgn_str(text: &str) -> PyResult<Vec<GameRecord>> {
    pgn::read_str(text).map(games).map_err(pgn_error)
}

/// `xq.read_xqf(source)`: the game of an XQF file (XQStudio's binary format, encrypted or
/// not), from a path or from `bytes`.
///
/// Raises InvalidGameFile with the byte offset (and ply) of the problem.
#[pyfunction]
pub fn read_xqf(source: &Bound<'_, PyAny>) -> PyResult<GameRecord> {
    let (bytes, path) = self::source(source)?;
    match xqf::read(&bytes) {
        Ok(record) => Ok(GameRecord { record }),
        Err(e) => {
            let e = match path {
                Some(p) => e.with_file(p),
                None => e,
            };
            Err(Error::new(Kind::InvalidGameFile, e).into())
        }
    }
}

/// PGN text of games in a notation.
fn write_text(records: &[&Record], notation: &str) -> PyResult<String> {
    let options = WriteOptions {
        notation: board::notation(notation)?,
    };
    let owned: Vec<Record> = records.iter().map(|r| (*r).clone()).collect();
    pgn::write_all(&owned, &options).map_err(|e| Error::new(Kind::IllegalMove, e).into())
}

/// `xq.write_pgn(games, path=None, *, notation="chinese", encoding="utf-8")`: the games
/// as PGN text in `notation` (`chinese`, `chinese-traditional`, `wxf`, `iccs`); written
/// to `path` in `encoding` (`utf-8` or `gbk`) when given (then None is returned),
/// else returned as a str.
#[pyfunction]
#[pyo3(signature = (games, path = None, *, notation = "chinese", encoding = "utf-8"))]
pub fn write_pgn(
    games: Vec<PyRef<'_, GameRecord>>,
    path: Option<PathBuf>,
    notation: &str,
    encoding: &str,
) -> PyResult<Option<String>> {
    let encoding = self::encoding(encoding)?;
    let records: Vec<&Record> = games.iter().map(|g| &g.record).collect();
    let text = write_text(&records, notation)?;
    match path {
        None => Ok(Some(text)),
        Some(path) => {
            let bytes = pgn::encode(&text, encoding).map_err(value_error)?;
            std::fs::write(path, bytes)?;
            Ok(None)
        }
    }
}

#[pymethods]
impl GameRecord {
    /// A record of a board's game: its start, its moves as the main line, its result if
    /// the rules have ended it; no tags.
    #[staticmethod]
    fn from_board(board: &Board) -> GameRecord {
        GameRecord {
            record: Record::from_game(&board.game),
        }
    }

    /// The tags (`Event`, `Red`, `Black`, `Date`, `Result`, `ECCO`...) as a new dict in
    /// file order; change them with `set_tag`.
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in &self.record.tags {
            if !d.contains(k)? {
                d.set_item(k, v)?;
            }
        }
        Ok(d)
    }

    /// Sets a tag (the first of that name, or a new one at the end).
    fn set_tag(&mut self, name: &str, value: &str) {
        self.record.set_tag(name, value);
    }

    /// The result: `"1-0"`, `"0-1"`, `"1/2-1/2"` or `"*"` (unfinished or not recorded).
    #[getter]
    fn result(&self) -> &'static str {
        board::result_token(self.record.result)
    }

    /// Sets the result from its token.
    #[setter]
    fn set_result(&mut self, token: &str) -> PyResult<()> {
        self.record.result = match token {
            "*" => None,
            t => Some(t.parse::<GameResult>().map_err(value_error)?),
        };
        Ok(())
    }

    /// The comment before the first move (the comment on the whole game), or None.
    #[getter]
    fn comment(&self) -> Option<String> {
        self.record.main.comment.clone()
    }

    /// The text after the game in its file (a site's notice), or None.
    #[getter]
    fn trailer(&self) -> Option<String> {
        self.record.trailer.clone()
    }

    /// The FEN of the start position.
    #[getter]
    fn start_fen(&self) -> String {
        self.record.start.to_fen()
    }

    /// The moves of the main line.
    #[getter]
    fn moves(&self) -> Vec<Move> {
        self.record
            .main
            .nodes
            .iter()
            .map(|n| Move::of(n.mv))
            .collect()
    }

    /// The main line as `Node`s, with comments, glyphs and variations.
    fn mainline(&self) -> Vec<Node> {
        nodes(&self.record.main)
    }

    /// A board at the start position.
    fn board(&self) -> Board {
        Board::at(self.record.start.clone())
    }

    /// A board after the main line, with its moves on the stack (so `outcome()` judges
    /// the game by the whole rules).
    ///
    /// Raises IllegalMove if a move of the main line is illegal (a record read from a
    /// file never has one).
    fn end(&self) -> PyResult<Board> {
        let game = self
            .record
            .game()
            .map_err(|e| Error::new(Kind::IllegalMove, e))?;
        Ok(Board { game })
    }

    /// The game as PGN in `notation` (`chinese`, `chinese-traditional`, `wxf`, `iccs`).
    #[pyo3(signature = (notation = "chinese"))]
    fn pgn(&self, notation: &str) -> PyResult<String> {
        write_text(&[&self.record], notation)
    }

    fn __str__(&self) -> PyResult<String> {
        self.pgn("chinese")
    }

    fn __repr__(&self) -> String {
        let who = |t| self.record.tag(t).unwrap_or("?").to_string();
        format!(
            "<Record {} vs {}, {} plies, {}>",
            who("Red"),
            who("Black"),
            self.record.main.nodes.len(),
            board::result_token(self.record.result)
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .extract::<PyRef<'_, GameRecord>>()
            .is_ok_and(|o| o.record == self.record)
    }

    /// Rebuilds a pickled game from its ICCS PGN.
    #[staticmethod]
    fn _restore(text: &str) -> PyResult<GameRecord> {
        let mut games = read_pgn_str(text)?;
        games
            .pop()
            .ok_or_else(|| value_error("no game in the pickled text"))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduced<'py, (String,)> {
        let text = slf.borrow().pgn("iccs")?;
        Ok((
            slf.py().get_type::<GameRecord>().getattr("_restore")?,
            (text,),
        ))
    }
}

// ---------------------------------------------------------------------- trees for xq.pgn

/// A line as a tuple: `(comment before its first move or None, [node, ...])`, each node
/// `(Move, comment or None, [nag, ...], [line, ...])`.
fn line_tree<'py>(py: Python<'py>, line: &Line) -> PyResult<Bound<'py, PyTuple>> {
    let nodes = PyList::empty(py);
    for n in &line.nodes {
        let variations = PyList::empty(py);
        for v in &n.variations {
            variations.append(line_tree(py, v)?)?;
        }
        let node = (
            Move::of(n.mv),
            n.comment.clone(),
            n.nags.iter().map(|&g| u16::from(g)).collect::<Vec<_>>(),
            variations,
        );
        nodes.append(node.into_pyobject(py)?)?;
    }
    (line.comment.clone(), nodes).into_pyobject(py)
}

/// A record as a tuple: `(tags as [(name, value), ...], start FEN, main line, result
/// token, trailer or None)`.
fn record_tree<'py>(py: Python<'py>, r: &Record) -> PyResult<Bound<'py, PyTuple>> {
    (
        r.tags.clone(),
        r.start.to_fen(),
        line_tree(py, &r.main)?,
        board::result_token(r.result),
        r.trailer.clone(),
    )
        .into_pyobject(py)
}

/// The line of a tuple made by [`line_tree`] (or by `xq.pgn`), nested at most
/// `MAX_VARIATION_DEPTH` deep.
fn tree_line(obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<Line> {
    if depth > MAX_VARIATION_DEPTH {
        return Err(value_error(format!(
            "variations nest deeper than {MAX_VARIATION_DEPTH}"
        )));
    }
    let (comment, nodes): (Option<String>, Vec<Bound<'_, PyAny>>) = obj.extract()?;
    let mut line = Line {
        comment,
        nodes: Vec::with_capacity(nodes.len()),
    };
    for node in nodes {
        let (mv, comment, nags, variations): (
            PyRef<'_, Move>,
            Option<String>,
            Vec<u16>,
            Vec<Bound<'_, PyAny>>,
        ) = node.extract()?;
        let nags = nags
            .into_iter()
            .map(|g| u8::try_from(g).map_err(|_| value_error(format!("NAG ${g}: at most $255"))))
            .collect::<PyResult<Vec<u8>>>()?;
        line.nodes.push(xq_records::Node {
            mv: mv.inner,
            comment,
            nags,
            variations: variations
                .iter()
                .map(|v| tree_line(v, depth + 1))
                .collect::<PyResult<_>>()?,
        });
    }
    Ok(line)
}

// ---------------------------------------------------------------------- streams for xq.pgn

/// A Python file object read line by line (`readline()`) as the `BufRead` of a
/// [`PgnReader`]: bytes lines as they are, str lines (a file in text mode) as UTF-8. The
/// file is lent for one call of [`PgnStream::next_game`] and not kept (so that a stream
/// kept for a file in a weak dictionary does not keep the file alive). When the file can
/// seek, the `tell()` of each line's start is noted, so that it can be moved back to
/// where the next game starts.
#[derive(Debug)]
struct Handle {
    /// The file, during a call.
    file: Option<Py<PyAny>>,
    /// Can the file seek (`seekable()` and `tell()` work)?
    seekable: bool,
    /// Does the file give str lines? `None` until its first line.
    text: Option<bool>,
    /// The line being read and how much of it has been read.
    line: Vec<u8>,
    at: usize,
    /// The bytes given to the reader.
    offset: u64,
    /// The offset and `tell()` of the lines that start at or after the reader's
    /// position.
    marks: VecDeque<(u64, Py<PyAny>)>,
    /// The Python exception behind the last I/O error.
    error: Option<PyErr>,
}

impl Handle {
    /// Reads the file's next line into `line`.
    fn next_line(&mut self, py: Python<'_>) -> PyResult<()> {
        let file = self
            .file
            .as_ref()
            .ok_or_else(|| PyRuntimeError::new_err("the stream has no file to read"))?
            .bind(py)
            .clone();
        if self.seekable {
            match file.call_method0("tell") {
                Ok(cookie) => self.marks.push_back((self.offset, cookie.unbind())),
                Err(_) => {
                    // A file that cannot tell here cannot go back either.
                    self.seekable = false;
                    self.marks.clear();
                }
            }
        }
        let line = file.call_method0("readline")?;
        let text = if let Ok(s) = line.cast::<PyString>() {
            self.line = s.to_cow()?.as_bytes().to_vec();
            true
        } else if let Ok(b) = line.cast::<PyBytes>() {
            self.line = b.as_bytes().to_vec();
            false
        } else if let Ok(b) = line.cast::<PyByteArray>() {
            self.line = b.to_vec();
            false
        } else {
            return Err(PyTypeError::new_err(format!(
                "readline() returned a {}: a PGN file gives str or bytes lines",
                line.get_type().name()?
            )));
        };
        match self.text {
            Some(known) if known != text => {
                return Err(PyTypeError::new_err(
                    "readline() returned both str and bytes lines",
                ))
            }
            _ => self.text = Some(text),
        }
        self.at = 0;
        Ok(())
    }

    /// The file has been moved to `offset` (a line's start): nothing read is kept.
    fn moved_to(&mut self, offset: u64) {
        self.line.clear();
        self.at = 0;
        self.offset = offset;
        self.marks.clear();
    }
}

impl Read for Handle {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Handle {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.at >= self.line.len() {
            if let Err(e) = Python::attach(|py| self.next_line(py)) {
                let message = e.to_string();
                self.error = Some(e);
                return Err(std::io::Error::other(message));
            }
        }
        Ok(&self.line[self.at..])
    }

    fn consume(&mut self, amount: usize) {
        self.at += amount;
        self.offset += amount as u64;
    }
}

/// `_PgnStream(file)`: the games of a PGN file object, one at a time, for
/// `xq.pgn.read_game` (which keeps one stream a file). The file is read line by line
/// through `xq_records`' [`PgnReader`], which cuts it into games and judges its
/// encoding (once, for `"auto"`); a file in text mode is read as its own encoding
/// decodes it. After each game a file that can seek is moved back to the next game's
/// first line; one that cannot keeps in the stream the line read too far.
#[pyclass(module = "xq", name = "_PgnStream")]
#[derive(Debug)]
pub struct PgnStream {
    reader: PgnReader<Handle>,
    /// The encoding asked for.
    asked: Encoding,
    /// The file's name, for errors.
    name: Option<String>,
    /// The games read.
    games: usize,
}

impl PgnStream {
    fn fresh(asked: Encoding, seekable: bool) -> PgnReader<Handle> {
        let handle = Handle {
            file: None,
            seekable,
            text: None,
            line: Vec::new(),
            at: 0,
            offset: 0,
            marks: VecDeque::new(),
            error: None,
        };
        PgnReader::new(handle, &ReadOptions { encoding: asked })
    }

    /// The next game's text, with the file lent to the reader.
    fn read(&mut self, file: &Bound<'_, PyAny>) -> PyResult<Option<GameText>> {
        let py = file.py();
        let at_start = || file.call_method0("tell").and_then(|t| t.eq(0));
        if self.reader.get_ref().seekable && self.games > 0 && at_start().unwrap_or(false) {
            // Back at the start of the file: read it afresh.
            self.reader = PgnStream::fresh(self.asked, true);
            self.games = 0;
        }
        self.reader.get_mut().file = Some(file.clone().unbind());
        if self.reader.get_ref().text.is_none() {
            // The first line says whether the file is in text mode, whose lines are
            // UTF-8 here whatever encoding is asked.
            if self.reader.get_mut().fill_buf().is_err() {
                return Err(self.io_error());
            }
            if self.reader.get_ref().text == Some(true) {
                self.reader.set_encoding(Encoding::Utf8);
            }
        }
        let text = self.reader.read_text();
        let text = match text {
            Ok(text) => text,
            Err(e) if matches!(e.kind, pgn::PgnErrorKind::Io { .. }) => return Err(self.io_error()),
            Err(e) => return Err(self.error(e)),
        };
        self.give_back(py)?;
        self.games += usize::from(text.is_some());
        Ok(text)
    }

    /// Moves a file that can seek back to where the next game starts.
    fn give_back(&mut self, py: Python<'_>) -> PyResult<()> {
        let Some(position) = self.reader.position() else {
            return Ok(());
        };
        let handle = self.reader.get_mut();
        while handle.marks.front().is_some_and(|(at, _)| *at < position) {
            handle.marks.pop_front();
        }
        if !handle.seekable {
            return Ok(());
        }
        let Some(cookie) = handle
            .marks
            .front()
            .filter(|(at, _)| *at == position)
            .map(|(_, cookie)| cookie.clone_ref(py))
        else {
            return Ok(());
        };
        if let Some(file) = handle.file.as_ref() {
            file.bind(py).call_method1("seek", (cookie,))?;
        }
        self.reader.forget_read_ahead();
        self.reader.get_mut().moved_to(position);
        Ok(())
    }

    /// The Python exception behind a read error of the file.
    fn io_error(&mut self) -> PyErr {
        self.reader
            .get_mut()
            .error
            .take()
            .unwrap_or_else(|| PyOSError::new_err("the file could not be read"))
    }

    /// An error of the file as `InvalidGameFile`, with the file's name.
    fn error(&self, e: pgn::PgnError) -> PyErr {
        pgn_error(match &self.name {
            Some(name) => e.with_file(name.clone()),
            None => e,
        })
    }
}

#[pymethods]
impl PgnStream {
    #[new]
    fn new(file: &Bound<'_, PyAny>) -> PyResult<PgnStream> {
        let asked = Encoding::Auto;
        let seekable = file
            .call_method0("seekable")
            .and_then(|s| s.is_truthy())
            .unwrap_or(false);
        let name = file
            .getattr("name")
            .ok()
            .and_then(|n| n.extract::<String>().ok());
        Ok(PgnStream {
            reader: PgnStream::fresh(asked, seekable),
            asked,
            name,
            games: 0,
        })
    }

    /// The next game of `file` (the file this stream was made for) with the lines not
    /// read yet decoded as `encoding` says (`auto`, `utf-8`, `gbk`; a file in text mode
    /// is decoded by the file), or None at the end of the file.
    ///
    /// Raises ValueError for an unknown encoding, InvalidGameFile for bytes that are not
    /// valid in the encoding (which ends the reading), and what the file raises when it
    /// cannot be read.
    fn next_game(&mut self, file: &Bound<'_, PyAny>, encoding: &str) -> PyResult<Option<PgnGame>> {
        let asked = self::encoding(encoding)?;
        if asked != self.asked {
            self.asked = asked;
            if self.reader.get_ref().text != Some(true) {
                self.reader.set_encoding(asked);
            }
        }
        let text = self.read(file);
        self.reader.get_mut().file = None;
        let text_mode = self.reader.get_ref().text == Some(true);
        Ok(text?.map(|text| PgnGame {
            text,
            text_mode,
            name: self.name.clone(),
        }))
    }
}

/// A game's tag section as `_PgnGame.tags` gives it: tags, start FEN, result token.
type TagSection = (Vec<(String, String)>, String, &'static str);

/// `_PgnGame`: one game's text as a `_PgnStream` cut it out of its file, to read whole
/// (`tree()`) or only its tags (`tags()`).
#[pyclass(module = "xq", name = "_PgnGame", frozen)]
#[derive(Debug)]
pub struct PgnGame {
    text: GameText,
    /// Read from a file in text mode (which decoded it).
    text_mode: bool,
    name: Option<String>,
}

impl PgnGame {
    fn error(&self, e: pgn::PgnError) -> PyErr {
        pgn_error(match &self.name {
            Some(name) => e.with_file(name.clone()),
            None => e,
        })
    }
}

#[pymethods]
impl PgnGame {
    /// The tag section alone: `(tags as [(name, value), ...], start FEN, result token)`.
    ///
    /// Raises InvalidGameFile for a malformed tag or FEN, with the line.
    fn tags(&self) -> PyResult<TagSection> {
        let record = self.text.tags().map_err(|e| self.error(e))?;
        Ok((
            record.tags,
            record.start.to_fen(),
            board::result_token(record.result),
        ))
    }

    /// The whole game, every move checked: `(tree, notation)`, the tree as `_xqf_tree`
    /// makes it and the name of the notation its moves are written in.
    ///
    /// Raises InvalidGameFile with the game, line and ply of the first problem.
    fn tree<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyTuple>, &'static str)> {
        let parsed = py.detach(|| self.text.parse()).map_err(|e| self.error(e))?;
        Ok((record_tree(py, &parsed.record)?, parsed.notation.name()))
    }

    /// The encoding the game was decoded from: `utf-8` or `gbk` (`utf-8` for ASCII read
    /// before the encoding was judged); None for a file in text mode, which decoded it.
    #[getter]
    fn encoding(&self) -> Option<&'static str> {
        if self.text_mode {
            return None;
        }
        Some(match self.text.encoding() {
            Encoding::Gbk => "gbk",
            Encoding::Utf8 | Encoding::Auto => "utf-8",
        })
    }
}

/// `_xqf_tree(data)`: the game of XQF bytes as a tree.
#[pyfunction]
pub fn _xqf_tree<'py>(py: Python<'py>, data: &[u8]) -> PyResult<Bound<'py, PyTuple>> {
    let record = xqf::read(data).map_err(|e| Error::new(Kind::InvalidGameFile, e))?;
    record_tree(py, &record)
}

/// A record's tree as `_write_pgn_tree` takes it: tags, start FEN, main line, result
/// token, trailer.
type RecordTree<'py> = (
    Vec<(String, String)>,
    String,
    Bound<'py, PyAny>,
    String,
    Option<String>,
);

/// `_write_pgn_tree(tree, notation)`: the PGN text of a tree (as `_PgnGame.tree` makes
/// them) in `notation`.
#[pyfunction]
pub fn _write_pgn_tree(tree: &Bound<'_, PyAny>, notation: &str) -> PyResult<String> {
    let (tags, fen, main, result, trailer): RecordTree<'_> = tree.extract()?;
    let mut record = Record::new(board::position(&fen)?);
    record.tags = tags;
    record.main = tree_line(&main, 0)?;
    record.result = match result.as_str() {
        "*" => None,
        t => Some(t.parse::<GameResult>().map_err(value_error)?),
    };
    record.trailer = trailer;
    write_text(&[&record], notation)
}
