//! Win, draw and loss: what a score means as the chances of each result, by a model
//! fitted on the results of self-play games (`xq datagen` data, `xq tune-wdl`).
//!
//! The model is Stockfish's (`win_rate_model`): the chance that the side with score `v`
//! (centipawns) wins is a logistic curve, `W = 1 / (1 + exp((a - v) / b))`, and its chance
//! of losing is the same curve at `-v`, `L = 1 / (1 + exp((a + v) / b))`; the draw takes
//! the rest. `a` is the score at which a win is as likely as not, `b` how fast the chance
//! grows; both depend on the material left ([`material`]), as cubic polynomials in
//! `material / 100`: with little material a lead is converted less often (more draws), and
//! each side's chances move with the score at a different rate.
//!
//! ```
//! use xq_core::Position;
//! use xq_search::wdl::{self, Wdl};
//! use xq_search::Score;
//! let start = Position::startpos();
//! // An even score at the start: a draw is likeliest, and the chances are the same.
//! let even = wdl::wdl(Score::Cp(0), &start);
//! assert_eq!(even.win, even.loss);
//! assert!(even.draw > even.win);
//! assert_eq!(even.win + even.draw + even.loss, 1000);
//! // Three pawns up: winning more often than not.
//! assert!(wdl::wdl(Score::Cp(300), &start).win > 500);
//! // A mate is certain.
//! assert_eq!(wdl::wdl(Score::Mate(3), &start), Wdl { win: 1000, draw: 0, loss: 0 });
//! assert_eq!(wdl::wdl(Score::Mate(-2), &start), Wdl { win: 0, draw: 0, loss: 1000 });
//! ```

use crate::Score;
use std::fmt;
use std::sync::LazyLock;
use xq_core::{PieceKind, Position};

/// The model's parameters: `a` and `b` as cubic polynomials in `material / 100`,
/// coefficients from the cube down to the constant, centipawns.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct WdlModel {
    /// The score at which winning is as likely as not.
    pub a: [f64; 4],
    /// How many centipawns change the odds of winning by a factor of e.
    pub b: [f64; 4],
}

/// The least material the polynomials are read at (less counts as this much).
pub const MIN_MATERIAL: u32 = 10;
/// The most material: both full armies, [`material`] of the start position.
pub const MAX_MATERIAL: u32 = 106;

/// The fitted model's file: `xq tune-wdl --write` writes it (`xq-search/data/wdl-model.txt`),
/// and the build takes it in ([`MODEL`]).
pub const MODEL_TEXT: &str = include_str!("../data/wdl-model.txt");

/// The fitted model: [`MODEL_TEXT`] read (a test checks that it reads).
///
/// ```
/// use xq_search::wdl::{WdlModel, MODEL, MODEL_TEXT};
/// assert_eq!(WdlModel::from_text(MODEL_TEXT), Ok(*MODEL));
/// ```
pub static MODEL: LazyLock<WdlModel> = LazyLock::new(|| {
    WdlModel::from_text(MODEL_TEXT).unwrap_or_else(|e| panic!("xq-search/data/wdl-model.txt: {e}"))
});

/// A model's file that cannot be read: the line (from 1) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WdlModelError {
    /// The line, from 1 (0: the file as a whole).
    pub line: usize,
    /// What is wrong with it.
    pub what: String,
}

impl fmt::Display for WdlModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            0 => f.write_str(&self.what),
            n => write!(f, "line {n}: {}", self.what),
        }
    }
}

impl std::error::Error for WdlModelError {}

/// The material on the board, both sides together, as the model counts it: a chariot 10,
/// a horse or a cannon 5, an advisor or an elephant 2, a soldier 1 (106 at the start).
///
/// ```
/// use xq_core::Position;
/// assert_eq!(xq_search::wdl::material(&Position::startpos()), 106);
/// let chariot_endgame = Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/R3K4 w").unwrap();
/// assert_eq!(xq_search::wdl::material(&chariot_endgame), 12);
/// ```
pub fn material(pos: &Position) -> u32 {
    xq_core::Square::ALL
        .iter()
        .filter_map(|&sq| pos.piece_on(sq))
        .map(|p| match p.kind {
            PieceKind::Chariot => 10,
            PieceKind::Horse | PieceKind::Cannon => 5,
            PieceKind::Advisor | PieceKind::Elephant => 2,
            PieceKind::Soldier => 1,
            PieceKind::General => 0,
        })
        .sum()
}

/// Chances of a win, a draw and a loss for the side whose score it is, per mille (they
/// add up to 1000).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Wdl {
    /// A win, per mille.
    pub win: u32,
    /// A draw, per mille.
    pub draw: u32,
    /// A loss, per mille.
    pub loss: u32,
}

impl Wdl {
    /// The expected result, per mille: a win counts 1000, a draw 500.
    ///
    /// ```
    /// use xq_search::wdl::Wdl;
    /// assert_eq!(Wdl { win: 300, draw: 500, loss: 200 }.expected(), 550);
    /// ```
    pub fn expected(&self) -> u32 {
        self.win + self.draw / 2
    }

    /// The same chances seen from the other side.
    pub fn flipped(&self) -> Wdl {
        Wdl {
            win: self.loss,
            draw: self.draw,
            loss: self.win,
        }
    }
}

/// `c[0] x^3 + c[1] x^2 + c[2] x + c[3]`.
fn cubic(c: &[f64; 4], x: f64) -> f64 {
    ((c[0] * x + c[1]) * x + c[2]) * x + c[3]
}

impl WdlModel {
    /// Reads a model's file: lines `a C3 C2 C1 C0` and `b C3 C2 C1 C0` (each
    /// polynomial's coefficients from the cube down), `#` comments and blank lines.
    ///
    /// # Errors
    /// A line that is not one of those, a number that is not one, or `a` or `b` missing
    /// or given twice.
    ///
    /// ```
    /// use xq_search::wdl::WdlModel;
    /// let m = WdlModel::from_text("# fitted\na 0 0 100 200\nb 0 0 0 150\n").unwrap();
    /// assert_eq!(m, WdlModel { a: [0.0, 0.0, 100.0, 200.0], b: [0.0, 0.0, 0.0, 150.0] });
    /// assert_eq!(WdlModel::from_text(&m.to_text("")), Ok(m));
    /// assert_eq!(
    ///     WdlModel::from_text("a 1 2 3\n").unwrap_err().to_string(),
    ///     "line 1: 'a' needs four numbers"
    /// );
    /// ```
    pub fn from_text(text: &str) -> Result<WdlModel, WdlModelError> {
        let (mut a, mut b) = (None, None);
        for (i, line) in text.lines().enumerate() {
            let err = |what: String| WdlModelError { line: i + 1, what };
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            let name = words.next().unwrap_or_default();
            let slot = match name {
                "a" => &mut a,
                "b" => &mut b,
                _ => return Err(err(format!("'{name}' is not a or b"))),
            };
            if slot.is_some() {
                return Err(err(format!("'{name}' is given twice")));
            }
            let numbers: Vec<f64> = words
                .map(|w| w.parse::<f64>().ok().filter(|v| v.is_finite()))
                .collect::<Option<_>>()
                .ok_or_else(|| err(format!("'{name}' has a word that is not a number")))?;
            let c: [f64; 4] = numbers
                .try_into()
                .map_err(|_| err(format!("'{name}' needs four numbers")))?;
            *slot = Some(c);
        }
        match (a, b) {
            (Some(a), Some(b)) => Ok(WdlModel { a, b }),
            _ => Err(WdlModelError {
                line: 0,
                what: "the model needs both 'a' and 'b'".into(),
            }),
        }
    }

    /// The model as its file: `comment` as `#` lines (what it was fitted on), then `a`
    /// and `b` to three decimals.
    pub fn to_text(&self, comment: &str) -> String {
        let mut out = String::new();
        for line in comment.lines() {
            out.push_str(format!("# {line}").trim_end());
            out.push('\n');
        }
        let coef = |c: &[f64; 4]| c.map(|v| format!("{v:.3}")).join(" ");
        out.push_str(&format!("a {}\nb {}\n", coef(&self.a), coef(&self.b)));
        out
    }

    /// `a` and `b` at `material` (brought within [`MIN_MATERIAL`] and [`MAX_MATERIAL`]).
    ///
    /// ```
    /// use xq_search::wdl::WdlModel;
    /// let m = WdlModel { a: [0.0, 0.0, 100.0, 200.0], b: [0.0, 0.0, 0.0, 150.0] };
    /// assert_eq!(m.params(50), (250.0, 150.0));
    /// assert_eq!(m.params(0), m.params(10)); // below the least material
    /// ```
    pub fn params(&self, material: u32) -> (f64, f64) {
        let x = f64::from(material.clamp(MIN_MATERIAL, MAX_MATERIAL)) / 100.0;
        (cubic(&self.a, x), cubic(&self.b, x))
    }

    /// The chance of a win for the side with `cp` centipawns at `material`, 0 to 1.
    ///
    /// ```
    /// use xq_search::wdl::WdlModel;
    /// let m = WdlModel { a: [0.0, 0.0, 0.0, 200.0], b: [0.0, 0.0, 0.0, 100.0] };
    /// assert_eq!(m.win_rate(200.0, 60), 0.5); // at `a`, as likely as not
    /// assert!(m.win_rate(0.0, 60) < 0.12);
    /// ```
    pub fn win_rate(&self, cp: f64, material: u32) -> f64 {
        let (a, b) = self.params(material);
        1.0 / (1.0 + ((a - cp) / b).exp())
    }

    /// The chances for the side with `score` at `material`. A mate for it is a win, a
    /// mate against it a loss.
    ///
    /// ```
    /// use xq_search::wdl::{Wdl, WdlModel};
    /// use xq_search::Score;
    /// let m = WdlModel { a: [0.0, 0.0, 0.0, 200.0], b: [0.0, 0.0, 0.0, 100.0] };
    /// assert_eq!(m.wdl(Score::Cp(200), 60), Wdl { win: 500, draw: 482, loss: 18 });
    /// assert_eq!(m.wdl(Score::Mate(1), 60).win, 1000);
    /// ```
    pub fn wdl(&self, score: Score, material: u32) -> Wdl {
        let cp = match score {
            Score::Mate(n) if n > 0 => {
                return Wdl {
                    win: 1000,
                    draw: 0,
                    loss: 0,
                }
            }
            Score::Mate(_) => {
                return Wdl {
                    win: 0,
                    draw: 0,
                    loss: 1000,
                }
            }
            Score::Cp(v) => f64::from(v),
        };
        let win = (1000.0 * self.win_rate(cp, material)).round() as u32;
        let loss = (1000.0 * self.win_rate(-cp, material)).round() as u32;
        // Rounding may take the two past 1000 when the draw is tiny.
        let loss = loss.min(1000 - win.min(1000));
        let win = win.min(1000);
        Wdl {
            win,
            draw: 1000 - win - loss,
            loss,
        }
    }
}

/// The chances for the side to move in `pos` with `score`, by [`MODEL`].
pub fn wdl(score: Score, pos: &Position) -> Wdl {
    MODEL.wdl(score, material(pos))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_model_reads() {
        let m = WdlModel::from_text(MODEL_TEXT).unwrap();
        assert_eq!(*MODEL, m);
        assert!(m.b.iter().any(|&c| c != 0.0));
        assert_eq!(
            WdlModel::from_text(&m.to_text("a note\non two lines")),
            Ok(m)
        );
        assert!(m.to_text("a note").starts_with("# a note\na "));
        assert!(WdlModel::from_text("a 1 2 3 4\n").is_err());
        assert_eq!(
            WdlModel::from_text("a 1 2 3 4\nb 1 2 3 x\n")
                .unwrap_err()
                .line,
            2
        );
    }

    #[test]
    fn chances_add_up_and_are_symmetric() {
        for material in [0, 10, 30, 60, 106, 200] {
            for cp in [-5000, -700, -150, -1, 0, 1, 150, 700, 5000] {
                let w = MODEL.wdl(Score::Cp(cp), material);
                assert_eq!(w.win + w.draw + w.loss, 1000, "{cp} {material}");
                assert_eq!(MODEL.wdl(Score::Cp(-cp), material), w.flipped());
            }
        }
        // More score, more wins.
        let mut last = 0;
        for cp in (0..2000).step_by(50) {
            let w = MODEL.wdl(Score::Cp(cp), 60).win;
            assert!(w >= last, "{cp}");
            last = w;
        }
        assert_eq!(
            Wdl {
                win: 1,
                draw: 2,
                loss: 997
            }
            .flipped()
            .win,
            997
        );
    }
}
