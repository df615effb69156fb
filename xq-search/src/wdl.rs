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

// The block between the markers is written by `xq tune-wdl --write`.
// @generated-begin
/// The fitted model: `xq tune-wdl` on 1079079 positions of `xq datagen` self-play (see
/// docs/wdl.md).
pub const MODEL: WdlModel = WdlModel {
    a: [1144.915, -1781.322, 378.294, 458.077],
    b: [103.191, -270.733, 388.625, 44.954],
};
// @generated-end

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
