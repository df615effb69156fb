#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![deny(unsafe_code)]

pub mod collect;
pub mod endgame;
pub mod nnue;
pub mod params;
pub mod pst;
pub mod terms;

use collect::{Collect, Features, Sum};
use endgame::SCALE_MAX;
use params::{MATERIAL, PARAMS, S, TERMS};
use xq_core::{Color, Move, Position};

/// The incrementally kept part of the evaluation: Red-relative middlegame and endgame
/// sums of material plus placement, and the game phase.
///
/// Search keeps one per ply: [`Eval::after`] computes the child's from the parent's and
/// the move, before the move is made (one table look-up per piece involved).
///
/// ```
/// use xq_core::{Move, Position};
/// use xq_eval::Eval;
/// let mut pos = Position::startpos();
/// let e = Eval::new(&pos);
/// assert_eq!(e.red_score(), 0); // the start is symmetric
/// let m: Move = "h2e2".parse().unwrap();
/// let child = e.after(&pos, m);
/// pos.make_move(m);
/// assert_eq!(child, Eval::new(&pos));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Eval {
    mg: i32,
    eg: i32,
    phase: i32,
}

impl Eval {
    /// The evaluation of `pos` computed from scratch.
    pub fn new(pos: &Position) -> Eval {
        let mut e = Eval::default();
        for color in Color::ALL {
            for (piece, sq) in pos.pieces(color) {
                let (mg, eg) = pst::PSQ[piece.index()][sq];
                e.mg += mg;
                e.eg += eg;
                e.phase += pst::PHASE_WEIGHT[piece.kind.index()];
            }
        }
        e
    }

    /// The evaluation after the side to move plays `m` in `pos` (call before making it).
    ///
    /// # Panics
    /// If the origin square of `m` is empty. Any other move that is not pseudo-legal gives
    /// a meaningless result.
    #[inline]
    pub fn after(&self, pos: &Position, m: Move) -> Eval {
        let (from, to) = (m.from(), m.to());
        let moved = pos
            .piece_on(from)
            .expect("Eval::after: no piece on the move's origin")
            .index();
        let (a, b) = (pst::PSQ[moved][from], pst::PSQ[moved][to]);
        let mut e = Eval {
            mg: self.mg - a.0 + b.0,
            eg: self.eg - a.1 + b.1,
            phase: self.phase,
        };
        if let Some(cap) = pos.piece_on(to) {
            let c = pst::PSQ[cap.index()][to];
            e.mg -= c.0;
            e.eg -= c.1;
            e.phase -= pst::PHASE_WEIGHT[cap.kind.index()];
        }
        e
    }

    /// The game phase: [`pst::PHASE_MAX`] with every chariot, horse and cannon on the
    /// board, 0 with none of them.
    #[inline]
    pub fn phase(&self) -> i32 {
        self.phase.min(pst::PHASE_MAX)
    }

    /// The middlegame and endgame sums `(mg, eg)`, Red-relative.
    #[inline]
    pub fn sums(&self) -> (i32, i32) {
        (self.mg, self.eg)
    }

    /// The score of the incremental part alone from Red's point of view: the
    /// middlegame and endgame sums interpolated by the phase.
    #[inline]
    pub fn red_score(&self) -> i32 {
        taper(self.mg, self.eg, self.phase())
    }

    /// The score of the incremental part alone from `side`'s point of view, with the
    /// bonus for having the move: the whole evaluation before the per-node terms and the
    /// endgame scale ([`evaluate_full`] adds them).
    #[inline]
    pub fn score(&self, side: Color) -> i32 {
        let tempo = PARAMS[params::TEMPO.start];
        self.red_score() * side.sign() + taper(tempo.0, tempo.1, self.phase())
    }
}

/// Interpolates a middlegame and an endgame value by the phase (0 to
/// [`pst::PHASE_MAX`]), rounding towards zero (so that `-x` tapers to minus what `x`
/// does).
///
/// ```
/// assert_eq!(xq_eval::taper(100, 50, 48), 100);
/// assert_eq!(xq_eval::taper(100, 50, 0), 50);
/// assert_eq!(xq_eval::taper(-7, 0, 24), -3);
/// ```
#[inline(always)]
pub fn taper(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (pst::PHASE_MAX - phase)) / pst::PHASE_MAX
}

/// The Red-relative score of sums `(mg, eg)` at `phase`, scaled by the endgame rules.
#[inline(always)]
fn finish(pos: &Position, mg: i32, eg: i32, phase: i32) -> i32 {
    let red = taper(mg, eg, phase);
    red * endgame::scale(pos, red) / SCALE_MAX
}

/// The whole evaluation of `pos` from the side to move's point of view, given its
/// incremental part `inc` (which must be `Eval::new(pos)`, or kept equal to it with
/// [`Eval::after`]): material and placement, the tempo, every per-node term of
/// [`terms`], tapered by phase and scaled by the [`endgame`] rules. This is what a search
/// calls at every node.
///
/// ```
/// use xq_core::Position;
/// use xq_eval::{evaluate_full, Eval};
/// let pos = Position::startpos();
/// assert_eq!(evaluate_full(&pos, &Eval::new(&pos)), xq_eval::evaluate(&pos));
/// ```
#[inline]
pub fn evaluate_full(pos: &Position, inc: &Eval) -> i32 {
    let side = pos.side_to_move();
    let mut sum = Sum {
        mg: inc.mg,
        eg: inc.eg,
    };
    sum.add(params::TEMPO.start, side.sign());
    terms::evaluate_terms(pos, &mut sum);
    finish(pos, sum.mg, sum.eg, inc.phase()) * side.sign()
}

/// How far from the search window the incremental score must be for
/// [`evaluate_lazy`] to skip the per-node terms.
pub const LAZY_MARGIN: i32 = 400;

/// [`evaluate_full`], or the incremental score alone (with the tempo and the endgame
/// scale) when that is more than [`LAZY_MARGIN`] below `alpha` or above `beta`: the
/// per-node terms rarely move a score that far, and a node so far outside the window
/// only needs to know which side of it it is on.
///
/// ```
/// use xq_core::Position;
/// use xq_eval::{evaluate_full, evaluate_lazy, Eval};
/// let pos = Position::startpos();
/// let inc = Eval::new(&pos);
/// assert_eq!(evaluate_lazy(&pos, &inc, -50, 50), evaluate_full(&pos, &inc));
/// // Far above the window: the incremental score is enough.
/// assert_eq!(evaluate_lazy(&pos, &inc, -2000, -1000), inc.score(pos.side_to_move()));
/// ```
#[inline]
pub fn evaluate_lazy(pos: &Position, inc: &Eval, alpha: i32, beta: i32) -> i32 {
    let side = pos.side_to_move();
    let fast = inc.score(side);
    let red = fast * side.sign();
    let fast = red * endgame::scale(pos, red) / SCALE_MAX * side.sign();
    if fast + LAZY_MARGIN <= alpha || fast - LAZY_MARGIN >= beta {
        fast
    } else {
        evaluate_full(pos, inc)
    }
}

/// Evaluates `pos` from scratch, from the side to move's point of view (the same as
/// [`evaluate_full`] with `Eval::new(pos)`).
///
/// ```
/// use xq_core::Position;
/// // Black has lost a chariot.
/// let pos = Position::from_fen("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w").unwrap();
/// assert!(xq_eval::evaluate(&pos) > 800);
/// ```
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_full(pos, &Eval::new(pos))
}

/// The evaluation of a position as a linear function of the weights: what the tuner fits
/// and what [`breakdown`] shows.
///
/// The score is `taper(Σ count × weight, phase) × scale / SCALE_MAX` from Red's point of
/// view, where the sum runs over `features`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// Every weight that occurs, with its count (Red's occurrences less Black's), sorted
    /// by weight, none with a count of 0.
    pub features: Vec<(usize, i32)>,
    /// The game phase, 0 to [`pst::PHASE_MAX`].
    pub phase: i32,
    /// The endgame scale, 0 to [`SCALE_MAX`].
    pub scale: i32,
    /// The side to move.
    pub side: Color,
}

impl Trace {
    /// The `(mg, eg)` sums of the features with the weights `params`.
    pub fn sums(&self, params: &[S]) -> (i32, i32) {
        self.features.iter().fold((0, 0), |(mg, eg), &(p, n)| {
            (mg + n * params[p].0, eg + n * params[p].1)
        })
    }

    /// The Red-relative score with the weights `params` (the evaluation's own arithmetic).
    pub fn red_score(&self, params: &[S]) -> i32 {
        let (mg, eg) = self.sums(params);
        taper(mg, eg, self.phase) * self.scale / SCALE_MAX
    }
}

/// The features of `pos`: every weight of the evaluation with its count.
///
/// ```
/// use xq_core::Position;
/// use xq_eval::params::PARAMS;
/// let pos = Position::from_fen("3akab2/9/4C4/9/9/9/9/9/9/3AKA3 w").unwrap();
/// let t = xq_eval::trace(&pos);
/// assert_eq!(t.red_score(&PARAMS), xq_eval::evaluate(&pos)); // Red to move
/// ```
pub fn trace(pos: &Position) -> Trace {
    let mut f = Features::default();
    for color in Color::ALL {
        for (piece, sq) in pos.pieces(color) {
            f.add(MATERIAL.start + piece.kind.index(), color.sign());
            if let Some(p) = pst::param(piece, sq) {
                f.add(p, color.sign());
            }
        }
    }
    f.add(params::TEMPO.start, pos.side_to_move().sign());
    terms::evaluate_terms(pos, &mut f);
    let features = f.merged();
    let phase = Eval::new(pos).phase();
    let (mg, eg) = features.iter().fold((0, 0), |(mg, eg), &(p, n)| {
        (mg + n * PARAMS[p].0, eg + n * PARAMS[p].1)
    });
    Trace {
        features,
        phase,
        scale: endgame::scale(pos, taper(mg, eg, phase)),
        side: pos.side_to_move(),
    }
}

/// One term's share of an evaluation, Red-relative, before the endgame scale.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TermValue {
    /// The term's name (see [`params::TERMS`]).
    pub name: &'static str,
    /// Its middlegame sum.
    pub mg: i32,
    /// Its endgame sum.
    pub eg: i32,
    /// The two tapered by the phase (each term rounded on its own, so the values may not
    /// add up to the total to the last centipawn).
    pub value: i32,
}

/// Why a position is judged as it is: every term of the evaluation, Red-relative.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakdown {
    /// Game phase, 0 (bare) to [`pst::PHASE_MAX`] (full board).
    pub phase: i32,
    /// The endgame scale, 0 to [`SCALE_MAX`].
    pub scale: i32,
    /// Every term of [`params::TERMS`], in order.
    pub terms: Vec<TermValue>,
    /// The total from Red's point of view.
    pub total_red: i32,
    /// The total from the side to move's point of view (what search uses).
    pub total: i32,
}

impl Breakdown {
    /// The term named `name`.
    pub fn term(&self, name: &str) -> Option<&TermValue> {
        self.terms.iter().find(|t| t.name == name)
    }
}

/// The evaluation of `pos` split into its terms.
///
/// ```
/// use xq_core::Position;
/// let b = xq_eval::breakdown(&Position::startpos());
/// assert_eq!(b.phase, 48);
/// assert_eq!(b.term("material").unwrap().value, 0);
/// assert_eq!(b.total, xq_eval::evaluate(&Position::startpos()));
/// ```
pub fn breakdown(pos: &Position) -> Breakdown {
    let t = trace(pos);
    let terms = TERMS
        .iter()
        .map(|term| {
            let (mg, eg) = t
                .features
                .iter()
                .filter(|(p, _)| term.range.contains(p))
                .fold((0, 0), |(mg, eg), &(p, n)| {
                    (mg + n * PARAMS[p].0, eg + n * PARAMS[p].1)
                });
            TermValue {
                name: term.name,
                mg,
                eg,
                value: taper(mg, eg, t.phase),
            }
        })
        .collect();
    let total_red = t.red_score(&PARAMS);
    Breakdown {
        phase: t.phase,
        scale: t.scale,
        terms,
        total_red,
        total: total_red * pos.side_to_move().sign(),
    }
}
