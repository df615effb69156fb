//! `Tablebase`: endgame tables for JavaScript, given as the bytes of their files (a page
//! fetches them), probed as Python's `xq.Tablebase` probes a directory.

use crate::board::Board;
use crate::js_error;
use wasm_bindgen::prelude::*;
use xq_tablebase::{Ending, TableResult, Tablebases};

/// Endgame tables made by `xq tb gen`, each file given as its name and bytes: the WDL
/// file `KRKN.xqwdl` (the result, with the rules of perpetual check and chase) and the
/// distance file `KRKN.xqtb` (the distance to mate as well). The values ignore the
/// 60-move rule and repetitions.
///
/// ```js
/// const tb = new Tablebase();
/// const name = Tablebase.endingOf(board);          // "KRKN", or undefined
/// const bytes = await (await fetch(`tables/${name}.xqwdl`)).arrayBuffer();
/// tb.addFile(`${name}.xqwdl`, new Uint8Array(bytes));
/// tb.probeWdl(board);                               // 1, 0, -1 or undefined
/// tb.describe(board);                               // "tablebase win by the perpetual-check rule (no forced mate)"
/// ```
#[wasm_bindgen]
#[derive(Debug)]
pub struct Tablebase {
    inner: Tablebases,
}

impl Default for Tablebase {
    fn default() -> Tablebase {
        Tablebase::new()
    }
}

#[wasm_bindgen]
impl Tablebase {
    /// No tables yet: add their files with [`Tablebase::add_file`].
    #[wasm_bindgen(constructor)]
    pub fn new() -> Tablebase {
        Tablebase {
            inner: Tablebases::in_memory(),
        }
    }

    /// The name of the table that holds the board's position (`"KRKN"`: the attacking
    /// side's pieces, then the other side's), whether or not it has been added;
    /// undefined when no table can (too many pieces, or no attacker left).
    #[wasm_bindgen(js_name = endingOf)]
    pub fn ending_of(board: &Board) -> Option<String> {
        Ending::of_position(board.game().position()).map(|(e, _)| e.to_string())
    }

    /// Adds a table file: `name` is the file's name (`KRKN.xqwdl` or `KRKN.xqtb`),
    /// `bytes` its contents. Returns the ending's name; a file of the same name is
    /// replaced.
    ///
    /// # Errors
    /// A name that is no table file's, or bytes that are not a good table of that name
    /// (truncated, damaged, another ending's): an `Error` saying which and why. The
    /// tables are then unchanged.
    #[wasm_bindgen(js_name = addFile)]
    pub fn add_file(&mut self, name: &str, bytes: Vec<u8>) -> Result<String, JsError> {
        self.inner
            .add_file(name, bytes)
            .map(|e| e.to_string())
            .map_err(js_error)
    }

    /// The endings with a distance file, e.g. `["KNK", "KRK", "KRKN"]`.
    pub fn endings(&self) -> Vec<String> {
        self.inner.endings().iter().map(|e| e.to_string()).collect()
    }

    /// The endings with a WDL file.
    #[wasm_bindgen(js_name = wdlEndings)]
    pub fn wdl_endings(&self) -> Vec<String> {
        self.inner
            .wdl_endings()
            .iter()
            .map(|e| e.to_string())
            .collect()
    }

    /// Win (1), draw (0) or loss (-1) for the side to move, from the WDL file when there
    /// is one; undefined when the position's table is not here.
    ///
    /// # Errors
    /// A damaged table (the answer is never a guess).
    #[wasm_bindgen(js_name = probeWdl)]
    pub fn probe_wdl(&self, board: &Board) -> Result<Option<i32>, JsError> {
        let wdl = self
            .inner
            .probe_wdl(board.game().position())
            .map_err(js_error)?;
        Ok(wdl.map(TableResult::sign))
    }

    /// Distance to mate in plies for the side to move: positive when it mates, negative
    /// when it is mated, 0 for a draw or a side with no legal move; undefined when the
    /// position's distance file is not here.
    ///
    /// # Errors
    /// A damaged table, or a position won or lost by the rules of perpetual check and
    /// chase, which has no distance to mate ([`Tablebase::probe_wdl`] gives its result).
    #[wasm_bindgen(js_name = probeDtm)]
    pub fn probe_dtm(&self, board: &Board) -> Result<Option<i32>, JsError> {
        let v = self
            .inner
            .probe_dtm(board.game().position())
            .map_err(js_error)?;
        v.map(|v| {
            v.signed_plies().ok_or_else(|| {
                JsError::new(&format!(
                    "{v}: no distance to mate (probeWdl gives the result)"
                ))
            })
        })
        .transpose()
    }

    /// The rule that decides a win or loss by the rules of perpetual check and chase, as
    /// the tag a game's termination has: `"perpetual-check"` or `"perpetual-chase"`, from
    /// the distance file when it is here, else from the WDL file; undefined for a mate, a
    /// draw, a position whose table is not here, or a file that does not record the rule
    /// (a distance file of format version 3, a WDL file of version 4 or older).
    ///
    /// # Errors
    /// A damaged table.
    #[wasm_bindgen(js_name = probeRule)]
    pub fn probe_rule(&self, board: &Board) -> Result<Option<String>, JsError> {
        let rule = self
            .inner
            .probe_rule(board.game().position())
            .map_err(js_error)?;
        Ok(rule.map(|r| r.tag().to_string()))
    }

    /// The tables' verdict in words, as `xq analyze` prints it (`"tablebase win, mate in
    /// 12 (23 plies)"`, `"tablebase win by the perpetual-check rule (no forced mate)"`,
    /// `"tablebase draw"`), from the distance file when there is one, else from the WDL
    /// file, which has no distance (`"tablebase win, mate within 120 plies"`) and says
    /// which rule from format version 5 (before it: `"tablebase win by the perpetual check
    /// or chase rule (no forced mate)"`); undefined when the position's table is not here.
    ///
    /// # Errors
    /// A damaged table.
    pub fn describe(&self, board: &Board) -> Result<Option<String>, JsError> {
        let pos = board.game().position();
        if let Some(v) = self.inner.probe_dtm(pos).map_err(js_error)? {
            return Ok(Some(v.describe(pos.halfmove_clock())));
        }
        let wdl = self.inner.probe_wdl_value(pos).map_err(js_error)?;
        Ok(wdl.map(|w| w.describe()))
    }
}
