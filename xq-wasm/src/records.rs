//! Game files: PGN read (UTF-8 text, or bytes in UTF-8 or GBK) and written, XQF read from
//! bytes.

use crate::{js_error, Board};
use wasm_bindgen::prelude::*;
use xq_core::Move;
use xq_records::pgn::{self, ReadOptions, WriteOptions};

/// A game read from a file: its tags, start position, main line (with the comment after
/// each move) and result. Variations are kept for [`Record::to_pgn`] but not shown.
#[wasm_bindgen]
#[derive(Clone, Debug)]
pub struct Record {
    inner: xq_records::Record,
}

impl Record {
    /// The record.
    pub fn inner(&self) -> &xq_records::Record {
        &self.inner
    }
}

#[wasm_bindgen]
impl Record {
    /// The tag names, in file order.
    #[wasm_bindgen(js_name = tagNames)]
    pub fn tag_names(&self) -> Vec<String> {
        self.inner.tags.iter().map(|(n, _)| n.clone()).collect()
    }

    /// The value of the tag `name`, if any.
    pub fn tag(&self, name: &str) -> Option<String> {
        self.inner.tag(name).map(str::to_string)
    }

    /// The FEN of the start position.
    #[wasm_bindgen(js_name = startFen)]
    pub fn start_fen(&self) -> String {
        self.inner.start.to_fen()
    }

    /// The main line, ICCS.
    pub fn moves(&self) -> Vec<String> {
        self.inner.main_line().iter().map(Move::to_string).collect()
    }

    /// The comment after each move of the main line (`""` where there is none).
    pub fn comments(&self) -> Vec<String> {
        self.inner
            .main
            .nodes
            .iter()
            .map(|n| n.comment.clone().unwrap_or_default())
            .collect()
    }

    /// The result token of the file: `"1-0"`, `"0-1"`, `"1/2-1/2"` or `"*"`.
    #[wasm_bindgen(getter)]
    pub fn result(&self) -> String {
        self.inner.result.map_or("*", |r| r.token()).to_string()
    }

    /// The main line played out on a board (every move is legal: the readers check).
    ///
    /// # Errors
    /// None for a record that a reader made.
    pub fn board(&self) -> Result<Board, JsError> {
        self.inner.game().map(Board::from_game).map_err(js_error)
    }

    /// The game as PGN in `notation` (Chinese when omitted).
    ///
    /// # Errors
    /// An unknown notation.
    #[wasm_bindgen(js_name = toPgn)]
    pub fn to_pgn(&self, notation: Option<String>) -> Result<String, JsError> {
        write_pgn(self, notation)
    }
}

/// Reads every game of a PGN text.
///
/// # Errors
/// The first error, with its game, line and ply: `game 1, line 1, ply 3: '马二进四':
/// illegal move h0f1: the piece on h0 cannot move there`.
#[wasm_bindgen(js_name = readPgn)]
pub fn read_pgn(text: &str) -> Result<Vec<Record>, JsError> {
    let records = pgn::read_str(text).map_err(js_error)?;
    Ok(records.into_iter().map(|inner| Record { inner }).collect())
}

/// Reads every game of PGN bytes, UTF-8 or GBK (detected).
///
/// # Errors
/// As [`read_pgn`], and bytes in no encoding it knows.
#[wasm_bindgen(js_name = readPgnBytes)]
pub fn read_pgn_bytes(bytes: &[u8]) -> Result<Vec<Record>, JsError> {
    let records = pgn::read(bytes, &ReadOptions::default()).map_err(js_error)?;
    Ok(records.into_iter().map(|inner| Record { inner }).collect())
}

/// Reads an XQF file (XQStudio's binary format, encrypted or not) from its bytes.
///
/// # Errors
/// A malformed file, with the byte offset (and ply) where it goes wrong.
#[wasm_bindgen(js_name = readXqf)]
pub fn read_xqf(bytes: &[u8]) -> Result<Record, JsError> {
    xq_records::xqf::read(bytes)
        .map(|inner| Record { inner })
        .map_err(js_error)
}

/// Writes a record as PGN in `notation` (Chinese when omitted).
///
/// # Errors
/// An unknown notation.
#[wasm_bindgen(js_name = writePgn)]
pub fn write_pgn(record: &Record, notation: Option<String>) -> Result<String, JsError> {
    let n = crate::notation(notation.as_deref().unwrap_or("chinese"))?;
    pgn::write(&record.inner, &WriteOptions { notation: n }).map_err(js_error)
}
