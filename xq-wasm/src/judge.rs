//! The move judgement of `xq annotate` (`xq_analysis`) for the page's score graph:
//! the engine's score and best move of every position of a game in, the verdict on every
//! move out (its loss, its class: inaccuracy `?!`, mistake `?`, blunder `??`).
//!
//! ```js
//! // One score per position, as the engine's `info ... score` says it (the side to move's
//! // view), and its `bestmove`; "" where it gave none (a mated side: `bestmove (none)`).
//! const j = judgeGame(startFen, ['h2e2', 'h9g7'], ['cp 20', 'cp -25', 'cp 240'],
//!                     ['h2e2', 'b9c7', 'h0g2'], 'cp');      // or 'wdl'
//! j.values;                  // Int32Array [20, 25, 240]: each position, Red's view, ±1000
//! j.moves()[1].class;        // "blunder" (Black lost 215 cp); .glyph "??", .loss 215
//! j.black.blunders;          // 1
//! ```

use crate::js_error;
use wasm_bindgen::prelude::*;
use xq_analysis::{Class, GameReport, Measure, MoveReport, Searched, Tally, UnknownMeasure};
use xq_core::{Move, Position};
use xq_movegen::{legal_moves, try_play};
use xq_search::Score;

/// The verdict on one move, as `xq annotate --json` writes it: scores from Red's point of
/// view, chances and losses from the mover's.
#[wasm_bindgen]
#[derive(Clone, Debug)]
pub struct MoveJudgement {
    report: MoveReport,
}

#[wasm_bindgen]
impl MoveJudgement {
    /// The loss: centipawns (`cp`) or the expected result per mille (`wdl`); 0 for the
    /// engine's own move.
    #[wasm_bindgen(getter)]
    pub fn loss(&self) -> i32 {
        self.report.verdict.loss
    }

    /// `"inaccuracy"`, `"mistake"`, `"blunder"`, or undefined.
    #[wasm_bindgen(getter)]
    pub fn class(&self) -> Option<String> {
        self.report.verdict.class.map(|c| c.name().to_string())
    }

    /// `"?!"`, `"?"`, `"??"`, or undefined.
    #[wasm_bindgen(getter)]
    pub fn glyph(&self) -> Option<String> {
        self.report.verdict.class.map(|c| c.glyph().to_string())
    }

    /// PGN's numeric annotation glyph: 6, 2, 4, or undefined.
    #[wasm_bindgen(getter)]
    pub fn nag(&self) -> Option<u8> {
        self.report.verdict.class.map(|c| c.nag())
    }

    /// The score after the move, Red's view, centipawns clamped to ±1000.
    #[wasm_bindgen(getter)]
    pub fn cp(&self) -> i32 {
        self.report.cp()
    }

    /// The score before it (after the best move), Red's view, clamped.
    #[wasm_bindgen(getter, js_name = bestCp)]
    pub fn best_cp(&self) -> i32 {
        self.report.best_cp()
    }

    /// The mover's expected result after the move, per mille.
    #[wasm_bindgen(getter)]
    pub fn expected(&self) -> u32 {
        self.report.verdict.played_wdl.expected()
    }

    /// The mover's expected result after the best move, per mille.
    #[wasm_bindgen(getter, js_name = bestExpected)]
    pub fn best_expected(&self) -> u32 {
        self.report.verdict.best_wdl.expected()
    }

    /// The mover's chances after the move: `[win, draw, loss]` per mille.
    #[wasm_bindgen(getter)]
    pub fn wdl(&self) -> Vec<u32> {
        let w = self.report.verdict.played_wdl;
        vec![w.win, w.draw, w.loss]
    }

    /// The mover's chances after the best move.
    #[wasm_bindgen(getter, js_name = bestWdl)]
    pub fn best_wdl(&self) -> Vec<u32> {
        let w = self.report.verdict.best_wdl;
        vec![w.win, w.draw, w.loss]
    }

    /// The move played, ICCS.
    #[wasm_bindgen(getter)]
    pub fn played(&self) -> String {
        self.report.played.to_string()
    }

    /// The engine's best move there, ICCS, if it gave one.
    #[wasm_bindgen(getter)]
    pub fn best(&self) -> Option<String> {
        self.report.best_move().map(|m| m.to_string())
    }

    /// `"red"` or `"black"`.
    #[wasm_bindgen(getter)]
    pub fn side(&self) -> String {
        self.report.mover().to_string()
    }
}

/// A side's totals over the game.
#[wasm_bindgen]
#[derive(Clone, Copy, Debug, Default)]
pub struct SideTally {
    tally: Tally,
}

#[wasm_bindgen]
impl SideTally {
    /// Moves judged.
    #[wasm_bindgen(getter)]
    pub fn moves(&self) -> usize {
        self.tally.moves
    }

    /// The average loss per move, rounded (a number, not a BigInt: it is small).
    #[wasm_bindgen(getter, js_name = averageLoss)]
    pub fn average_loss(&self) -> f64 {
        self.tally.average() as f64
    }

    /// Inaccuracies.
    #[wasm_bindgen(getter)]
    pub fn inaccuracies(&self) -> usize {
        self.tally.count(Class::Inaccuracy)
    }

    /// Mistakes.
    #[wasm_bindgen(getter)]
    pub fn mistakes(&self) -> usize {
        self.tally.count(Class::Mistake)
    }

    /// Blunders.
    #[wasm_bindgen(getter)]
    pub fn blunders(&self) -> usize {
        self.tally.count(Class::Blunder)
    }
}

/// A game judged: every move's verdict, each position's score, each side's totals.
#[wasm_bindgen]
#[derive(Clone, Debug)]
pub struct GameJudgement {
    report: GameReport,
}

#[wasm_bindgen]
impl GameJudgement {
    /// What the losses are in: `"cp"` or `"wdl"`.
    #[wasm_bindgen(getter)]
    pub fn by(&self) -> String {
        self.report.measure.name().to_string()
    }

    /// Each position's score (the start and after every move), Red's view, centipawns
    /// clamped to ±1000 (a mate at the edge).
    #[wasm_bindgen(getter)]
    pub fn values(&self) -> Vec<i32> {
        self.report.values()
    }

    /// The verdict on every move.
    pub fn moves(&self) -> Vec<MoveJudgement> {
        let report = |r: &MoveReport| MoveJudgement { report: r.clone() };
        self.report.moves.iter().map(report).collect()
    }

    /// Red's totals.
    #[wasm_bindgen(getter)]
    pub fn red(&self) -> SideTally {
        SideTally {
            tally: self.report.red,
        }
    }

    /// Black's totals.
    #[wasm_bindgen(getter)]
    pub fn black(&self) -> SideTally {
        SideTally {
            tally: self.report.black,
        }
    }
}

/// [`judge_game`] with its errors as text (a `JsError` can only be made in wasm).
fn judge_game_text(
    start_fen: &str,
    moves: &[String],
    scores: &[String],
    best_moves: &[String],
    by: Option<&str>,
) -> Result<GameJudgement, String> {
    let measure: Measure = by
        .unwrap_or("cp")
        .parse()
        .map_err(|e: UnknownMeasure| e.to_string())?;
    let start = Position::from_fen(start_fen.trim()).map_err(|e| e.to_string())?;
    let positions = moves.len() + 1;
    if scores.len() != positions {
        return Err(format!(
            "a game of {} moves needs {positions} scores (the start and after every move), not {}",
            moves.len(),
            scores.len()
        ));
    }
    if best_moves.len() != positions && best_moves.len() != moves.len() {
        return Err(format!(
            "a game of {} moves needs a best move (or \"\") for each of its {positions} positions, not {}",
            moves.len(),
            best_moves.len()
        ));
    }
    let mut line = Vec::with_capacity(moves.len());
    let mut searched = Vec::with_capacity(positions);
    let mut pos = start.clone();
    for (i, text) in scores.iter().enumerate() {
        let text = text.trim();
        let score = if text.is_empty() {
            if !legal_moves(&pos).is_empty() {
                return Err(format!(
                    "scores[{i}]: no score, and the side to move has moves there"
                ));
            }
            // The engine answers `bestmove (none)` there; the search's value is mate 0.
            Score::Mate(0)
        } else {
            text.parse::<Score>()
                .map_err(|e| format!("scores[{i}]: {e}"))?
        };
        let best = match best_moves.get(i).map(|b| b.trim()) {
            None | Some("" | "(none)") => None,
            Some(b) => Some(
                b.parse::<Move>()
                    .map_err(|e| format!("bestMoves[{i}]: {e}"))?,
            ),
        };
        searched.push(Searched { score, best });
        if let Some(text) = moves.get(i) {
            let m: Move = text
                .trim()
                .parse()
                .map_err(|e| format!("move {}: {e}", i + 1))?;
            try_play(&mut pos, m).map_err(|e| format!("move {} ({m}): {e}", i + 1))?;
            line.push(m);
        }
    }
    let report =
        GameReport::from_scores(&start, &line, &searched, measure).map_err(|e| e.to_string())?;
    Ok(GameJudgement { report })
}

/// Judges every move of a game as `xq annotate` does, from the engine's search of every
/// position: `scores[i]` and `bestMoves[i]` of the position after `i` moves (`scores[0]`
/// of the start). A score is what UCI's `info` line says after `score` (`"cp 35"`,
/// `"mate -2"`, the side to move's view), or `""` where the engine gave none because the
/// side to move has no move (it is mated: the score is then mate 0). A best move is ICCS,
/// or `""`/`"(none)"`; the last position's may be left out. `by` is `"cp"` (the default:
/// centipawns, scores clamped to ±1000) or `"wdl"` (the expected result by the
/// win/draw/loss model, per mille).
///
/// # Errors
/// A bad FEN, move, score or measure, an illegal move, or counts that do not fit: an
/// `Error` that names the entry.
#[wasm_bindgen(js_name = judgeGame)]
pub fn judge_game(
    start_fen: &str,
    moves: Vec<String>,
    scores: Vec<String>,
    best_moves: Vec<String>,
    by: Option<String>,
) -> Result<GameJudgement, JsError> {
    judge_game_text(start_fen, &moves, &scores, &best_moves, by.as_deref()).map_err(js_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";

    #[test]
    fn a_game_judged_as_the_library_judges_it() {
        let moves = strings(&["h2e2", "h9g7"]);
        let scores = strings(&["cp 20", "cp -25", "cp 240"]);
        let best = strings(&["h2e2", "b9c7", "h0g2"]);
        let j = judge_game_text(START, &moves, &scores, &best, None).unwrap();
        assert_eq!(j.by(), "cp");
        assert_eq!(j.values(), [20, 25, 240]);
        let m = j.moves();
        assert_eq!((m[0].loss(), m[0].class()), (0, None));
        assert_eq!(m[1].loss(), 215);
        assert_eq!(
            (m[1].class().as_deref(), m[1].glyph().as_deref(), m[1].nag()),
            (Some("blunder"), Some("??"), Some(4))
        );
        assert_eq!(
            (m[1].cp(), m[1].best_cp(), m[1].side()),
            (240, 25, "black".into())
        );
        assert_eq!((j.red().blunders(), j.black().blunders()), (0, 1));
        assert_eq!(j.black().average_loss(), 215.0);
        let w = judge_game_text(START, &moves, &scores, &best, Some("wdl")).unwrap();
        assert_eq!(w.by(), "wdl");
        let m1 = &w.moves()[1];
        assert_eq!(
            m1.loss(),
            m1.best_expected() as i32 - m1.expected() as i32,
            "by the expected result"
        );
        assert_eq!(m1.wdl().iter().sum::<u32>(), 1000);
    }

    #[test]
    fn a_mated_side_without_a_score_is_mate_0_and_bad_input_is_named() {
        // Red mates with a1a9; the engine gives no score for the mated position.
        let fen = "4k4/1R7/9/9/9/9/9/9/R8/3K5 w";
        let moves = strings(&["a1a9"]);
        let j = judge_game_text(
            fen,
            &moves,
            &strings(&["mate 1", ""]),
            &strings(&["a1a9", ""]),
            None,
        )
        .unwrap();
        assert_eq!(j.values(), [1000, 1000]);
        assert_eq!(j.moves()[0].loss(), 0);
        let err = |scores: &[&str], best: &[&str], by: Option<&str>| {
            judge_game_text(fen, &moves, &strings(scores), &strings(best), by).unwrap_err()
        };
        assert_eq!(
            err(&["", "mate 0"], &["a1a9"], None),
            "scores[0]: no score, and the side to move has moves there"
        );
        assert_eq!(
            err(&["cp x", "mate 0"], &["a1a9"], None),
            "scores[0]: 'cp x' is not a score (cp N or mate N)"
        );
        assert_eq!(
            err(&["cp 1"], &["a1a9"], None),
            "a game of 1 moves needs 2 scores (the start and after every move), not 1"
        );
        assert_eq!(
            err(&["cp 1", "mate 0"], &["a1a9"], Some("pawns")),
            "unknown measure \"pawns\" (cp or wdl)"
        );
        assert!(err(&["cp 1", "mate 0"], &["z9"], None).starts_with("bestMoves[0]: "));
        let short = judge_game_text(fen, &moves, &strings(&["cp 1", "cp 2"]), &[], None);
        assert_eq!(
            short.unwrap_err(),
            "a game of 1 moves needs a best move (or \"\") for each of its 2 positions, not 0"
        );
        let illegal = judge_game_text(
            fen,
            &strings(&["e9e8"]),
            &strings(&["cp 1", "cp 2"]),
            &strings(&["", ""]),
            None,
        )
        .unwrap_err();
        assert!(illegal.starts_with("move 1 (e9e8): "), "{illegal}");
    }
}
