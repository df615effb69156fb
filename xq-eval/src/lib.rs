#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod pst;

use xq_core::{Color, Move, Position};

/// The incrementally kept part of the evaluation: Red-relative middlegame and endgame
/// sums of material plus placement, and the game phase.
///
/// Search keeps one per ply: [`Eval::after`] computes the child's from the parent's and
/// the move, before the move is made.
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
    pub fn phase(&self) -> i32 {
        self.phase.min(pst::PHASE_MAX)
    }

    /// The score from Red's point of view: the middlegame and endgame sums interpolated
    /// by the phase.
    #[inline]
    pub fn red_score(&self) -> i32 {
        let p = self.phase.min(pst::PHASE_MAX);
        (self.mg * p + self.eg * (pst::PHASE_MAX - p)) / pst::PHASE_MAX
    }

    /// The score from `side`'s point of view, with a small bonus for having the move.
    #[inline]
    pub fn score(&self, side: Color) -> i32 {
        self.red_score() * side.sign() + TEMPO
    }
}

/// The bonus for being the side to move.
pub const TEMPO: i32 = 10;

/// Evaluates `pos` from scratch, from the side to move's point of view.
///
/// ```
/// use xq_core::Position;
/// // Black has lost a chariot.
/// let pos = Position::from_fen("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w").unwrap();
/// assert!(xq_eval::evaluate(&pos) > 800);
/// ```
pub fn evaluate(pos: &Position) -> i32 {
    Eval::new(pos).score(pos.side_to_move())
}

/// Why a position is judged as it is: every part of the evaluation, Red-relative.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakdown {
    /// Game phase, 0 (bare) to [`pst::PHASE_MAX`] (full board).
    pub phase: i32,
    /// Material alone, tapered by phase, Red minus Black.
    pub material: i32,
    /// Placement (piece-square bonus) per kind, tapered, Red minus Black, indexed by
    /// [`PieceKind::index`](xq_core::PieceKind::index).
    pub placement: [i32; 7],
    /// Bonus for the side to move, from Red's point of view.
    pub tempo: i32,
    /// The total from Red's point of view.
    pub total_red: i32,
    /// The total from the side to move's point of view (what search uses).
    pub total: i32,
}

/// The evaluation of `pos` split into its parts.
///
/// ```
/// use xq_core::Position;
/// let b = xq_eval::breakdown(&Position::startpos());
/// assert_eq!(b.phase, 48);
/// assert_eq!(b.material, 0);
/// assert_eq!(b.total, xq_eval::evaluate(&Position::startpos()));
/// ```
pub fn breakdown(pos: &Position) -> Breakdown {
    let e = Eval::new(pos);
    let p = e.phase();
    let taper = |mg: i32, eg: i32| (mg * p + eg * (pst::PHASE_MAX - p)) / pst::PHASE_MAX;
    let mut material = (0, 0);
    let mut placement = [(0, 0); 7];
    for color in Color::ALL {
        let s = color.sign();
        for (piece, sq) in pos.pieces(color) {
            let k = piece.kind.index();
            let (mg, eg) = pst::PSQ[piece.index()][sq];
            material.0 += s * pst::MATERIAL_MG[k];
            material.1 += s * pst::MATERIAL_EG[k];
            placement[k].0 += mg - s * pst::MATERIAL_MG[k];
            placement[k].1 += eg - s * pst::MATERIAL_EG[k];
        }
    }
    let total = e.score(pos.side_to_move());
    Breakdown {
        phase: p,
        material: taper(material.0, material.1),
        placement: placement.map(|(mg, eg)| taper(mg, eg)),
        tempo: TEMPO * pos.side_to_move().sign(),
        total_red: total * pos.side_to_move().sign(),
        total,
    }
}
