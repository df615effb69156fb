//! A neural evaluation (NNUE): a network whose first layer is a learned piece-square
//! table per perspective, kept up to date move by move, as Stockfish's and Pikafish's.
//!
//! # The network
//!
//! - **Inputs**, per perspective (Red's and Black's): one for each (piece kind, colour
//!   relative to the perspective, square seen from the perspective's side of the board),
//!   7 x 2 x 90 = [`INPUTS`] = 1,260. A perspective sees its own pieces as "ours" and its
//!   own back rank as rank 0 (Black's view is the board flipped across the river).
//! - **The feature transformer**: [`INPUTS`] x `hidden` weights and `hidden` biases,
//!   shared by both perspectives; a perspective's *accumulator* is the biases plus the
//!   weight rows of the pieces on the board. Moving a piece changes two rows per
//!   perspective (three with a capture), so the accumulators are updated, not
//!   recomputed ([`Accumulator::after`]; or later, from the move's [`MoveChange`], by a
//!   search that computes only the accumulators it evaluates).
//! - **The output**: the side to move's accumulator then the other's, each value clipped
//!   to `[0, 1]` and squared (SCReLU), times `2 x hidden` weights, plus a bias: one number,
//!   scaled to centipawns by [`SCALE`], then by the same endgame scale and 60-move fade as
//!   the classical evaluation ([`crate::endgame::scale`]).
//! - **General buckets**: a network may have [`GENERAL_BUCKETS`] sets of feature-
//!   transformer rows instead of one, chosen for each perspective by where its own general
//!   stands ([`general_bucket`]: its palace rank and whether it is on the middle file, the
//!   board flipped left to right when it stands on the f-file), as Stockfish's and
//!   Pikafish's inputs follow their king. A general that moves to another bucket
//!   recomputes its perspective's accumulator; every other move updates it.
//! - **Output buckets**: a network may have up to [`MAX_BUCKETS`] sets of output weights
//!   and bias, one for each range of material; the number of pieces on the board picks
//!   the set ([`output_bucket`]), as Stockfish and Pikafish pick theirs. The accumulators
//!   are the same for every bucket.
//! - **A second layer**: a network may also have a small hidden layer beside the output
//!   ([`Network::with_second_layer`]): the same `2 x hidden` clipped and squared values
//!   times a `width x 2 x hidden` matrix, plus biases, each clipped to `[0, 1]` (ReLU
//!   clipped at 1), times `width` weights, added to the output. The output's direct
//!   weights stay (a skip connection): a second layer whose last weights are zero
//!   evaluates as the network without it, so a trainer can start one from a trained
//!   network and lose nothing.
//!
//! # Quantisation
//!
//! The feature transformer is stored as `i16` in units of `1 / QA` ([`QA`] = 255), the
//! output weights as `i16` in units of `1 / QB` ([`QB`] = 64) and the output bias as `i32`
//! in units of `1 / (QA x QB)`; the accumulators are `i16` and exact. The output is
//! computed in `i32`: `sum(clip(a)^2 x w) / QA + bias`, then `x SCALE / (QA x QB)`. The
//! trainer (`xq_train::nnue`, in its own crate) keeps floats and quantises when it writes
//! the file; a test there checks that the quantised output stays within a few centipawns
//! of the float network's.
//!
//! The second layer's inputs are the clipped values squared and divided by [`QA`] (`0` to
//! `255`, in units of `1 / QA`), its weights `i16` in units of `1 / QL` ([`QL`] = 1,024),
//! its biases `i32` in units of `1 / (QA x QL)`. Each unit's sum is clipped to
//! `[0, QA x QL]`, divided by `QL`, multiplied by its output weight (`i16`, in units of
//! `1 / QB`, at most [`MAX_OUTPUT_WEIGHT`] in size) and added to the output's sum: all in
//! `i32`, exact. With AVX2 the inputs that are zero are skipped (`second_layer_avx2`),
//! with the same result to the bit.
//!
//! # The file
//!
//! Little-endian throughout:
//!
//! | bytes | what |
//! |---|---|
//! | 4 | magic `XQNN` |
//! | 2 | format version: 1 with one output bucket, 2 with more, 3 with general buckets, 4 with a second layer |
//! | 2 | `hidden`, the accumulator's width (a multiple of 16, at most [`MAX_HIDDEN`]) |
//! | 4 | `INPUTS` (1,260: a check that the features are the ones this code computes) |
//! | 2 | versions 2 to 4: `buckets`, the output buckets (2 to [`MAX_BUCKETS`] in version 2, 1 to it in 3 and 4; version 1 has 1) |
//! | 2 | versions 3 and 4: the general buckets, [`GENERAL_BUCKETS`] (1 too in version 4; versions 1 and 2 have 1) |
//! | 2 | version 4 only: `width`, the second layer's (a multiple of 8 up to [`MAX_SECOND_LAYER`]) |
//! | 2 `x generals x INPUTS x hidden` | the feature transformer's weights, `i16`, row by input, bucket by bucket |
//! | 2 `x hidden` | its biases, `i16` |
//! | 2 `x buckets x 2 x hidden` | the output weights, `i16`, bucket by bucket: the side to move's half, then the other |
//! | 4 `x buckets` | the output biases, `i32` |
//! | 2 `x width x 2 x hidden` | version 4: the second layer's weights, `i16`, row by unit (each row the side to move's half, then the other) |
//! | 4 `x width` | version 4: its biases, `i32` |
//! | 2 `x width` | version 4: its output weights, `i16` |
//! | 8 | FNV-1a 64 hash of every byte before it |
//!
//! ```
//! use xq_core::{Move, Position};
//! use xq_eval::nnue::{Accumulator, Network};
//! // A small network with seeded weights (a trained one comes from `xq train`).
//! let net = Network::seeded(32, 7);
//! let mut pos = Position::startpos();
//! let acc = Accumulator::new(&net, &pos);
//! let m: Move = "h2e2".parse().unwrap();
//! let child = acc.after(&net, &pos, m);
//! pos.make_move(m);
//! // Kept move by move, it equals the accumulator computed from scratch.
//! assert_eq!(child, Accumulator::new(&net, &pos));
//! // Written and read back, the network is the same.
//! let bytes = net.to_bytes();
//! assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
//! let _ = net.evaluate(&pos, &child);
//! ```

use crate::endgame::{self, SCALE_MAX};
use std::fmt;
use std::sync::{Arc, OnceLock};
use xq_core::{Color, Move, Piece, PieceKind, Position, SplitMix64, Square};

/// Inputs per perspective: 7 kinds x 2 colours (ours, theirs) x 90 squares.
pub const INPUTS: usize = PieceKind::COUNT * 2 * Square::COUNT;
/// The widest accumulator this build evaluates.
pub const MAX_HIDDEN: usize = 512;
/// The feature transformer's quantisation: a weight of 1.0 is stored as `QA`.
pub const QA: i32 = 255;
/// The output weights' quantisation: a weight of 1.0 is stored as `QB`.
pub const QB: i32 = 64;
/// The largest output weight in size: `QA x MAX_OUTPUT_WEIGHT` fits an `i16`, which the
/// output's arithmetic relies on. The trainer's weights are clipped to `1.98 x QB`, well
/// within it.
pub const MAX_OUTPUT_WEIGHT: i16 = 128;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;
/// The newest file format's version (this build reads every version from 1 on).
pub const VERSION: u16 = 4;
/// The second layer's quantisation: a weight of 1.0 is stored as `QL`.
pub const QL: i32 = 1024;
/// The widest second layer this build evaluates.
pub const MAX_SECOND_LAYER: usize = 32;
/// The most output buckets a network may have.
pub const MAX_BUCKETS: usize = 8;
/// The general buckets a network may have besides one: its feature transformer has a
/// set of [`INPUTS`] rows for each place of the perspective's own general
/// ([`general_bucket`]).
pub const GENERAL_BUCKETS: usize = 6;

/// Where a perspective's own general stands, as the feature transformer of a network
/// with [`GENERAL_BUCKETS`] sees it: the general's square `general` seen from the
/// perspective's side (its own back rank as rank 0), folded left to right (a general on
/// the f-file is seen on the d-file, and the whole board with it). Returns the bucket
/// (0 to 5: rank 0, 1 or 2 of the palace, on the d or the e file) and whether the board
/// is flipped left to right.
///
/// ```
/// use xq_core::Square;
/// use xq_eval::nnue::general_bucket;
/// assert_eq!(general_bucket(Square::E0), (1, false));
/// assert_eq!(general_bucket(Square::D0), (0, false));
/// assert_eq!(general_bucket(Square::F0), (0, true));
/// assert_eq!(general_bucket(Square::F2), (4, true));
/// ```
#[inline]
pub fn general_bucket(general: Square) -> (usize, bool) {
    let file = general.file().index();
    let rank = general.rank().index().min(2);
    (rank * 2 + usize::from(file == 4), file > 4)
}

/// Which of `buckets` output layers evaluates a position with `pieces` pieces on the
/// board, generals included: the 32 possible counts in `buckets` equal ranges, fewest
/// pieces first (with 8 buckets, 2 to 4 pieces use bucket 0 and 29 to 32 bucket 7).
///
/// ```
/// use xq_eval::nnue::output_bucket;
/// assert_eq!(output_bucket(32, 8), 7);
/// assert_eq!(output_bucket(28, 8), 6);
/// assert_eq!(output_bucket(3, 8), 0);
/// assert_eq!(output_bucket(32, 1), 0);
/// ```
#[inline]
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.clamp(1, 32) - 1) * buckets / 32
}

const MAGIC: &[u8; 4] = b"XQNN";

/// The network built into the library: the best trained so far (`docs/nnue.md` has its
/// rounds and matches). The file's name carries the start of its hash.
const EMBEDDED: Option<&[u8]> = Some(include_bytes!("../../nets/nn-95afbb3f.nnue"));

/// The network xq evaluates with unless told otherwise: the one built into the library
/// (read once, then shared), or `None` when this build has none and the classical
/// evaluation is the default.
///
/// ```
/// use xq_core::Position;
/// use xq_eval::nnue::{default_network, Accumulator};
/// let net = default_network().expect("this build has a network");
/// assert_eq!(net.hidden(), 256);
/// // The start position: Red, to move first, leads a little; neither side is far ahead.
/// let pos = Position::startpos();
/// let acc = Accumulator::new(&net, &pos);
/// assert!((0..150).contains(&net.evaluate(&pos, &acc)));
/// // Black without a chariot: Red, to move, is well ahead.
/// let pos = Position::from_fen("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w").unwrap();
/// let acc = Accumulator::new(&net, &pos);
/// assert!(net.evaluate(&pos, &acc) > 300);
/// ```
pub fn default_network() -> Option<Arc<Network>> {
    static NET: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    NET.get_or_init(|| {
        // The build's tests read the embedded file: it is valid.
        EMBEDDED.map(|bytes| Arc::new(Network::from_bytes(bytes).expect("the embedded network")))
    })
    .clone()
}

/// The input of `piece` on `sq` for `perspective` in a network with general buckets:
/// the [`feature`] of the piece (on the square flipped left to right when `flipped`),
/// in the rows of `bucket` ([`general_bucket`] of the perspective's own general).
#[inline(always)]
pub fn bucketed_feature(
    perspective: Color,
    piece: Piece,
    sq: Square,
    (bucket, flipped): (usize, bool),
) -> usize {
    let sq = if flipped { sq.flip_horizontal() } else { sq };
    bucket * INPUTS + feature(perspective, piece, sq)
}

/// The general bucket of `perspective` in `pos` (its own general's square seen from its
/// side).
#[inline]
fn perspective_bucket(pos: &Position, perspective: Color) -> (usize, bool) {
    let general = pos
        .squares_of(Piece::new(perspective, PieceKind::General))
        .next()
        .unwrap_or(Square::E0);
    let general = match perspective {
        Color::Red => general,
        Color::Black => general.flip_vertical(),
    };
    general_bucket(general)
}

/// The input index of `piece` on `sq` seen from `perspective`.
///
/// ```
/// use xq_core::{Color, Piece, Square};
/// use xq_eval::nnue::feature;
/// let red_general = Piece::from_char('K').unwrap();
/// let black_general = Piece::from_char('k').unwrap();
/// // Each side sees its own general on its own back rank, as "ours": the same input.
/// assert_eq!(
///     feature(Color::Red, red_general, Square::E0),
///     feature(Color::Black, black_general, Square::E9)
/// );
/// ```
#[inline(always)]
pub fn feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    let theirs = usize::from(piece.color != perspective);
    let sq = match perspective {
        Color::Red => sq,
        Color::Black => sq.flip_vertical(),
    };
    (theirs * PieceKind::COUNT + piece.kind.index()) * Square::COUNT + sq.index()
}

/// Why a network file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The file does not start with `XQNN`.
    BadMagic,
    /// A version this build does not read.
    UnsupportedVersion(u16),
    /// A width that is not a multiple of 16, is 0, or exceeds [`MAX_HIDDEN`].
    BadWidth(u16),
    /// A version-2 file with fewer than 2 or more than [`MAX_BUCKETS`] output buckets.
    BadBuckets(u16),
    /// A version-3 file whose general buckets are not [`GENERAL_BUCKETS`], or a version-4
    /// file whose are neither 1 nor [`GENERAL_BUCKETS`].
    BadGeneralBuckets(u16),
    /// The inputs are not this build's ([`INPUTS`]).
    WrongInputs(u32),
    /// The file is shorter or longer than its header says.
    WrongSize {
        /// The bytes the header implies.
        expected: usize,
        /// The bytes there are.
        found: usize,
    },
    /// The checksum does not match: the file is damaged.
    BadChecksum,
    /// An output weight larger in size than [`MAX_OUTPUT_WEIGHT`].
    OutputWeight(i16),
    /// A version-4 file whose second layer is not a multiple of 8 from 8 to
    /// [`MAX_SECOND_LAYER`] wide.
    BadSecondLayer(u16),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::BadMagic => f.write_str("not an xq network file (no XQNN magic)"),
            NetError::UnsupportedVersion(v) => write!(
                f,
                "network format version {v}, this build reads versions 1 to {VERSION}"
            ),
            NetError::BadWidth(h) => write!(
                f,
                "network width {h}: it must be a multiple of 16 from 16 to {MAX_HIDDEN}"
            ),
            NetError::BadGeneralBuckets(g) => write!(
                f,
                "network with {g} general buckets: a version-3 file has {GENERAL_BUCKETS}, a version-4 file 1 or {GENERAL_BUCKETS}"
            ),
            NetError::BadBuckets(b) => write!(
                f,
                "network with {b} output buckets: a version-2 file has 2 to {MAX_BUCKETS}"
            ),
            NetError::WrongInputs(n) => {
                write!(f, "network with {n} inputs, this build computes {INPUTS}")
            }
            NetError::WrongSize { expected, found } => write!(
                f,
                "network file of {found} bytes, its header says {expected}"
            ),
            NetError::BadChecksum => f.write_str("network file damaged (checksum mismatch)"),
            NetError::OutputWeight(w) => write!(
                f,
                "network output weight {w}: at most {MAX_OUTPUT_WEIGHT} in size"
            ),
            NetError::BadSecondLayer(w) => write!(
                f,
                "network with a second layer {w} wide: a multiple of 8 from 8 to {MAX_SECOND_LAYER}"
            ),
        }
    }
}

impl std::error::Error for NetError {}

/// A quantised network (see the [module docs](self)).
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    /// 1, or [`GENERAL_BUCKETS`]: sets of feature-transformer rows by the perspective's
    /// own general.
    general_buckets: usize,
    /// Whether the general buckets hold the same rows ([`Network::folded`]): then every
    /// perspective reads the first set, and only a general that crosses the middle file
    /// changes every input of its side.
    folded: bool,
    /// `INPUTS x hidden`, row by input.
    ft_weights: Vec<i16>,
    ft_biases: Vec<i16>,
    /// `buckets x 2 x hidden`, bucket by bucket: the side to move's half, then the
    /// other's.
    out_weights: Vec<i16>,
    /// One per bucket.
    out_biases: Vec<i32>,
    /// The second layer, if any.
    second: Option<SecondLayer>,
}

/// A network's second layer (see the [module docs](self)).
#[derive(Clone, PartialEq, Eq)]
struct SecondLayer {
    /// `width x 2 x hidden`, row by unit, in units of `1 / QL`.
    weights: Vec<i16>,
    /// `width`, in units of `1 / (QA x QL)`.
    biases: Vec<i32>,
    /// `width`, in units of `1 / QB`.
    out: Vec<i16>,
    /// The weights again, by pairs of inputs: for inputs `2p` and `2p + 1`, each unit's
    /// two weights side by side (`2 x width` values a pair), as the AVX2 code reads them
    /// (only x86-64 builds have that code).
    #[cfg(target_arch = "x86_64")]
    by_pairs: Vec<i16>,
}

impl SecondLayer {
    fn new(weights: Vec<i16>, biases: Vec<i32>, out: Vec<i16>) -> SecondLayer {
        #[cfg(target_arch = "x86_64")]
        let by_pairs = {
            let width = biases.len();
            let inputs = weights.len() / width;
            (0..inputs / 2)
                .flat_map(|pair| (0..width).map(move |unit| (pair, unit)))
                .flat_map(|(pair, unit)| {
                    let at = unit * inputs + 2 * pair;
                    [weights[at], weights[at + 1]]
                })
                .collect()
        };
        SecondLayer {
            weights,
            biases,
            out,
            #[cfg(target_arch = "x86_64")]
            by_pairs,
        }
    }
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Network {{ inputs: {}, hidden: {}, buckets: {}, {}hash: {:016x} }}",
            INPUTS * self.general_buckets,
            self.hidden,
            self.buckets(),
            match self.second_layer() {
                0 => String::new(),
                width => format!("second layer: {width}, "),
            },
            fnv1a(&self.to_bytes())
        )
    }
}

/// FNV-1a, 64 bits: the file's checksum.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

impl Network {
    /// A network from its quantised parts: as many output buckets as `out_biases` has
    /// biases, and `2 x hidden` output weights for each, bucket by bucket.
    ///
    /// # Panics
    /// If the parts' sizes do not fit `hidden` and the buckets, `hidden` is not a
    /// multiple of 16 from 16 to [`MAX_HIDDEN`], there are not 1 to [`MAX_BUCKETS`]
    /// buckets, or an output weight is larger in size than [`MAX_OUTPUT_WEIGHT`].
    ///
    /// ```
    /// use xq_eval::nnue::{Network, INPUTS};
    /// let (h, buckets) = (16, 4);
    /// let net = Network::from_parts(h, vec![0; INPUTS * h], vec![0; h], vec![1; buckets * 2 * h], vec![0; buckets]);
    /// assert_eq!(net.buckets(), 4);
    /// ```
    pub fn from_parts(
        hidden: usize,
        ft_weights: Vec<i16>,
        ft_biases: Vec<i16>,
        out_weights: Vec<i16>,
        out_biases: Vec<i32>,
    ) -> Network {
        assert!(hidden > 0 && hidden % 16 == 0 && hidden <= MAX_HIDDEN);
        let buckets = out_biases.len();
        assert!((1..=MAX_BUCKETS).contains(&buckets));
        let general_buckets = ft_weights.len() / (INPUTS * hidden);
        assert!(general_buckets == 1 || general_buckets == GENERAL_BUCKETS);
        assert_eq!(ft_weights.len(), general_buckets * INPUTS * hidden);
        assert_eq!(ft_biases.len(), hidden);
        assert_eq!(out_weights.len(), buckets * 2 * hidden);
        assert!(out_weights
            .iter()
            .all(|w| w.unsigned_abs() <= MAX_OUTPUT_WEIGHT.unsigned_abs()));
        let set = INPUTS * hidden;
        let folded = general_buckets > 1
            && ft_weights
                .chunks_exact(set)
                .all(|rows| rows == &ft_weights[..set]);
        Network {
            hidden,
            general_buckets,
            folded,
            ft_weights,
            ft_biases,
            out_weights,
            out_biases,
            second: None,
        }
    }

    /// This network with a second layer `width` wide (see the [module docs](self)):
    /// `weights` (`width x 2 x hidden`, row by unit, each row the side to move's half
    /// then the other's, in units of `1 / QL`), `biases` (`width`, in units of
    /// `1 / (QA x QL)`) and the output weights `out` (`width`, in units of `1 / QB`).
    ///
    /// # Panics
    /// If `width` (the length of `biases`) is not a multiple of 8 from 8 to
    /// [`MAX_SECOND_LAYER`], the other parts do not fit it, or an output weight is larger
    /// in size than [`MAX_OUTPUT_WEIGHT`].
    ///
    /// ```
    /// use xq_core::Position;
    /// use xq_eval::nnue::{Accumulator, Network};
    /// let net = Network::seeded(32, 1);
    /// let pos = Position::startpos();
    /// let acc = Accumulator::new(&net, &pos);
    /// // With its last weights at zero, the second layer changes nothing.
    /// let two = net.clone().with_second_layer(vec![100; 8 * 64], vec![0; 8], vec![0; 8]);
    /// assert_eq!(two.second_layer(), 8);
    /// assert_eq!(two.evaluate(&pos, &acc), net.evaluate(&pos, &acc));
    /// ```
    pub fn with_second_layer(
        mut self,
        weights: Vec<i16>,
        biases: Vec<i32>,
        out: Vec<i16>,
    ) -> Network {
        let width = biases.len();
        assert!(width > 0 && width % 8 == 0 && width <= MAX_SECOND_LAYER);
        assert_eq!(weights.len(), width * 2 * self.hidden);
        assert_eq!(out.len(), width);
        assert!(out
            .iter()
            .all(|w| w.unsigned_abs() <= MAX_OUTPUT_WEIGHT.unsigned_abs()));
        self.second = Some(SecondLayer::new(weights, biases, out));
        self
    }

    /// The second layer's width: 0 when the network has none.
    pub fn second_layer(&self) -> usize {
        self.second.as_ref().map_or(0, |l| l.biases.len())
    }

    /// The second layer's weights, `width x 2 x hidden` (row by unit), in units of
    /// `1 / QL`; empty without a second layer.
    pub fn second_layer_weights(&self) -> &[i16] {
        self.second.as_ref().map_or(&[], |l| &l.weights)
    }

    /// The second layer's biases, `width`, in units of `1 / (QA x QL)`; empty without one.
    pub fn second_layer_biases(&self) -> &[i32] {
        self.second.as_ref().map_or(&[], |l| &l.biases)
    }

    /// The second layer's output weights, `width`, in units of `1 / QB`; empty without one.
    pub fn second_layer_out(&self) -> &[i16] {
        self.second.as_ref().map_or(&[], |l| &l.out)
    }

    /// The sets of feature-transformer rows by the perspective's own general: 1, or
    /// [`GENERAL_BUCKETS`] ([`general_bucket`]).
    pub fn general_buckets(&self) -> usize {
        self.general_buckets
    }

    /// Whether the network has [`GENERAL_BUCKETS`] sets of rows that are all the same:
    /// one set seen folded left to right by each perspective's own general, as `xq train
    /// --fold` writes it (six buckets started from it evaluate as it does).
    ///
    /// ```
    /// use xq_eval::nnue::{default_network, Network};
    /// assert!(!default_network().unwrap().folded());
    /// assert!(!Network::seeded_with_general_buckets(16, 3).folded());
    /// // One set of rows written six times.
    /// let one = Network::seeded(16, 3);
    /// let (biases, out) = (one.ft_biases().to_vec(), one.out_weights().to_vec());
    /// let six = Network::from_parts(16, one.ft_weights().repeat(6), biases, out, one.out_biases().to_vec());
    /// assert!(six.folded() && !one.folded());
    /// ```
    pub fn folded(&self) -> bool {
        self.folded
    }

    /// The rows a perspective with general bucket `bucket` reads: its own, or with
    /// [`folded`](Network::folded) rows the first set, seen flipped as the bucket says.
    #[inline(always)]
    fn rows_of(&self, (bucket, flipped): (usize, bool)) -> (usize, bool) {
        (if self.folded { 0 } else { bucket }, flipped)
    }

    /// [`Network::seeded`] with [`GENERAL_BUCKETS`] sets of feature-transformer rows.
    ///
    /// ```
    /// use xq_eval::nnue::{Network, GENERAL_BUCKETS};
    /// let net = Network::seeded_with_general_buckets(16, 3);
    /// assert_eq!(net.general_buckets(), GENERAL_BUCKETS);
    /// assert_eq!(Network::from_bytes(&net.to_bytes()), Ok(net));
    /// ```
    pub fn seeded_with_general_buckets(hidden: usize, seed: u64) -> Network {
        let mut rng = SplitMix64::new(seed);
        let mut small = |range: i64| (rng.below(2 * range as u64 + 1) as i64 - range) as i16;
        let ft_weights = (0..GENERAL_BUCKETS * INPUTS * hidden)
            .map(|_| small(40))
            .collect();
        let ft_biases = (0..hidden).map(|_| small(40)).collect();
        let out_weights = (0..2 * hidden).map(|_| small(30)).collect();
        Network::from_parts(hidden, ft_weights, ft_biases, out_weights, vec![0])
    }

    /// A network of width `hidden` with small pseudo-random weights from `seed` (for tests
    /// and for a trainer's first step).
    ///
    /// # Panics
    /// As [`Network::from_parts`].
    pub fn seeded(hidden: usize, seed: u64) -> Network {
        let mut rng = SplitMix64::new(seed);
        let mut small = |range: i64| (rng.below(2 * range as u64 + 1) as i64 - range) as i16;
        let ft_weights = (0..INPUTS * hidden).map(|_| small(40)).collect();
        let ft_biases = (0..hidden).map(|_| small(40)).collect();
        let out_weights = (0..2 * hidden).map(|_| small(30)).collect();
        Network::from_parts(hidden, ft_weights, ft_biases, out_weights, vec![0])
    }

    /// The accumulator's width.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The output buckets (1 to [`MAX_BUCKETS`]; see [`output_bucket`]).
    pub fn buckets(&self) -> usize {
        self.out_biases.len()
    }

    /// The feature transformer's weights, `INPUTS x hidden`, row by input, in units of
    /// `1 / QA` (what [`Network::from_parts`] takes; a trainer starts from them).
    pub fn ft_weights(&self) -> &[i16] {
        &self.ft_weights
    }

    /// The feature transformer's biases, `hidden`, in units of `1 / QA`.
    pub fn ft_biases(&self) -> &[i16] {
        &self.ft_biases
    }

    /// The output weights, `buckets x 2 x hidden` (bucket by bucket: the side to move's
    /// half, then the other's), in units of `1 / QB`.
    pub fn out_weights(&self) -> &[i16] {
        &self.out_weights
    }

    /// The output biases, one per bucket, in units of `1 / (QA x QB)`.
    pub fn out_biases(&self) -> &[i32] {
        &self.out_biases
    }

    /// The network as a file (see the [module docs](self)).
    ///
    /// One bucket is written as version 1, so that such a network's file (and its hash)
    /// is the same as before buckets existed.
    pub fn to_bytes(&self) -> Vec<u8> {
        let h = self.hidden;
        let buckets = self.buckets();
        let generals = self.general_buckets;
        let width = self.second_layer();
        let version: u16 = match (buckets, generals, width) {
            (_, _, 1..) => 4,
            (1, 1, 0) => 1,
            (_, 1, 0) => 2,
            _ => 3,
        };
        let mut out = Vec::with_capacity(Network::file_size(h, buckets, generals, width));
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&(h as u16).to_le_bytes());
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        if version >= 2 {
            out.extend_from_slice(&(buckets as u16).to_le_bytes());
        }
        if version >= 3 {
            out.extend_from_slice(&(generals as u16).to_le_bytes());
        }
        if version == 4 {
            out.extend_from_slice(&(width as u16).to_le_bytes());
        }
        for w in self
            .ft_weights
            .iter()
            .chain(&self.ft_biases)
            .chain(&self.out_weights)
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.out_biases {
            out.extend_from_slice(&b.to_le_bytes());
        }
        if let Some(l) = &self.second {
            for w in &l.weights {
                out.extend_from_slice(&w.to_le_bytes());
            }
            for b in &l.biases {
                out.extend_from_slice(&b.to_le_bytes());
            }
            for w in &l.out {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        let hash = fnv1a(&out);
        out.extend_from_slice(&hash.to_le_bytes());
        out
    }

    /// The size of the header: 12 bytes, the output buckets in versions 2 to 4, the
    /// general buckets in versions 3 and 4, the second layer's width in version 4.
    fn header_size(buckets: usize, generals: usize, width: usize) -> usize {
        match (buckets, generals, width) {
            (_, _, 1..) => 18,
            (1, 1, 0) => 12,
            (_, 1, 0) => 14,
            _ => 16,
        }
    }

    /// The size of a file of width `hidden` with `buckets` output buckets, `generals`
    /// general buckets and a second layer `width` wide (0 for none).
    fn file_size(hidden: usize, buckets: usize, generals: usize, width: usize) -> usize {
        Network::header_size(buckets, generals, width)
            + 2 * (generals * INPUTS * hidden + hidden + buckets * 2 * hidden)
            + 4 * buckets
            + width * (2 * 2 * hidden + 4 + 2)
            + 8
    }

    /// Reads a network file.
    ///
    /// # Errors
    /// A [`NetError`] saying what is wrong with it.
    ///
    /// ```
    /// use xq_eval::nnue::{NetError, Network};
    /// assert_eq!(Network::from_bytes(b"PK\x03\x04"), Err(NetError::BadMagic));
    /// let mut bytes = Network::seeded(16, 1).to_bytes();
    /// bytes[100] ^= 1;
    /// assert_eq!(Network::from_bytes(&bytes), Err(NetError::BadChecksum));
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < 12 || &bytes[..4] != MAGIC {
            return Err(NetError::BadMagic);
        }
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let version = u16_at(4);
        if !(1..=VERSION).contains(&version) {
            return Err(NetError::UnsupportedVersion(version));
        }
        let h16 = u16_at(6);
        let h = usize::from(h16);
        if h == 0 || h % 16 != 0 || h > MAX_HIDDEN {
            return Err(NetError::BadWidth(h16));
        }
        let inputs = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
        if inputs as usize != INPUTS {
            return Err(NetError::WrongInputs(inputs));
        }
        let buckets = if version == 1 {
            1
        } else {
            if bytes.len() < 16 {
                return Err(NetError::WrongSize {
                    expected: Network::file_size(h, 2, 1, 0),
                    found: bytes.len(),
                });
            }
            let b = u16_at(12);
            let least = if version == 2 { 2 } else { 1 };
            if !(least..=MAX_BUCKETS).contains(&usize::from(b)) {
                return Err(NetError::BadBuckets(b));
            }
            usize::from(b)
        };
        if version == 4 && bytes.len() < 18 {
            return Err(NetError::WrongSize {
                expected: Network::file_size(h, buckets, 1, 8),
                found: bytes.len(),
            });
        }
        let generals = if version >= 3 {
            let g = u16_at(14);
            if usize::from(g) == GENERAL_BUCKETS || (version == 4 && g == 1) {
                usize::from(g)
            } else {
                return Err(NetError::BadGeneralBuckets(g));
            }
        } else {
            1
        };
        let width = if version == 4 {
            let w = u16_at(16);
            if w == 0 || w % 8 != 0 || usize::from(w) > MAX_SECOND_LAYER {
                return Err(NetError::BadSecondLayer(w));
            }
            usize::from(w)
        } else {
            0
        };
        let expected = Network::file_size(h, buckets, generals, width);
        if bytes.len() != expected {
            return Err(NetError::WrongSize {
                expected,
                found: bytes.len(),
            });
        }
        let (body, tail) = bytes.split_at(expected - 8);
        let mut hash = [0u8; 8];
        hash.copy_from_slice(tail);
        if u64::from_le_bytes(hash) != fnv1a(body) {
            return Err(NetError::BadChecksum);
        }
        let mut at = Network::header_size(buckets, generals, width);
        let mut take = |n: usize| -> Vec<i16> {
            let v = bytes[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * n;
            v
        };
        let ft_weights = take(generals * INPUTS * h);
        let ft_biases = take(h);
        let out_weights = take(buckets * 2 * h);
        let too_large = |ws: &[i16]| {
            ws.iter()
                .find(|w| w.unsigned_abs() > MAX_OUTPUT_WEIGHT.unsigned_abs())
                .map(|&w| NetError::OutputWeight(w))
        };
        if let Some(e) = too_large(&out_weights) {
            return Err(e);
        }
        let i32s = |at: usize, n: usize| -> Vec<i32> {
            bytes[at..at + 4 * n]
                .chunks_exact(4)
                .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect()
        };
        let out_biases = i32s(at, buckets);
        let net = Network::from_parts(h, ft_weights, ft_biases, out_weights, out_biases);
        if width == 0 {
            return Ok(net);
        }
        let at = at + 4 * buckets;
        let i16s = |at: usize, n: usize| -> Vec<i16> {
            bytes[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect()
        };
        let weights = i16s(at, width * 2 * h);
        let at = at + 2 * width * 2 * h;
        let biases = i32s(at, width);
        let out = i16s(at + 4 * width, width);
        if let Some(e) = too_large(&out) {
            return Err(e);
        }
        Ok(net.with_second_layer(weights, biases, out))
    }

    /// The weight row of input `i`.
    #[inline(always)]
    fn row(&self, i: usize) -> &[i16] {
        &self.ft_weights[i * self.hidden..(i + 1) * self.hidden]
    }

    /// The network's output through bucket `bucket` for the accumulators of the side to
    /// move (`us`) and the other side, in units of `1 / (QA x QB)` (see [`output_sum`]).
    #[inline]
    fn output(&self, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        let h = self.hidden;
        let weights = &self.out_weights[bucket * 2 * h..(bucket + 1) * 2 * h];
        let (w_us, w_them) = weights.split_at(h);
        let bias = self.out_biases[bucket];
        let (us, them) = (&us[..h], &them[..h]);
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: `output_sum_avx2` needs AVX2 and nothing else, and the processor
            // has it (checked just above). Measured: docs/nnue.md, "Speed of the wider
            // net, and AVX2".
            #[allow(unsafe_code)]
            let sum = unsafe { output_sum_avx2(us, w_us, them, w_them) };
            let second = match &self.second {
                // SAFETY: `second_layer_avx2` needs AVX2 (checked above); its measure is
                // in docs/nnue.md, "A second layer".
                #[allow(unsafe_code)]
                Some(l) => unsafe { second_layer_avx2(l, us, them) },
                None => 0,
            };
            return (sum / i64::from(QA)) as i32 + bias + second;
        }
        let second = self
            .second
            .as_ref()
            .map_or(0, |l| second_layer(l, us, them));
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        let sum = output_sum_simd128(us, w_us, them, w_them);
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        let sum = output_sum(us, w_us, them, w_them);
        (sum / i64::from(QA)) as i32 + bias + second
    }

    /// The evaluation of `pos` from the side to move's point of view, in centipawns,
    /// given its accumulator (which must be `Accumulator::new(self, pos)` or kept equal to
    /// it with [`Accumulator::after`]), scaled by the endgame rules as the classical
    /// evaluation is.
    #[inline]
    pub fn evaluate(&self, pos: &Position, acc: &Accumulator) -> i32 {
        let us = pos.side_to_move();
        let bucket = match self.buckets() {
            1 => 0,
            n => output_bucket(pos.piece_count(), n),
        };
        let raw = self.output(acc.side(us), acc.side(!us), bucket);
        let cp = raw * SCALE / (QA * QB);
        let red = cp * us.sign();
        red * endgame::scale(pos, red) / SCALE_MAX * us.sign()
    }
}

/// The two perspectives' accumulators of a position (see the [module docs](self)).
#[derive(Clone, PartialEq, Eq)]
pub struct Accumulator {
    /// Red's, then Black's.
    values: [[i16; MAX_HIDDEN]; 2],
}

impl fmt::Debug for Accumulator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Accumulator { .. }")
    }
}

impl Default for Accumulator {
    /// All zeros: a slot to be filled with [`Accumulator::new`] or
    /// [`Accumulator::set_after`].
    fn default() -> Accumulator {
        Accumulator {
            values: [[0; MAX_HIDDEN]; 2],
        }
    }
}

impl Accumulator {
    /// Sets these accumulators to `other`'s (the part `net` uses): a null move's child.
    #[inline]
    pub fn copy_from(&mut self, other: &Accumulator, net: &Network) {
        let h = net.hidden;
        for p in 0..2 {
            self.values[p][..h].copy_from_slice(&other.values[p][..h]);
        }
    }

    /// The accumulators of `pos` computed from scratch.
    pub fn new(net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator {
            values: [[0; MAX_HIDDEN]; 2],
        };
        for p in Color::ALL {
            acc.refresh(net, pos, p, None);
        }
        acc
    }

    /// Computes `perspective`'s accumulator from scratch for `pos`, or for the position
    /// after `m` when given (before it is made): what a general changing its bucket
    /// needs.
    fn refresh(&mut self, net: &Network, pos: &Position, perspective: Color, m: Option<Move>) {
        let values = &mut self.values[perspective.index()][..net.hidden];
        values.copy_from_slice(&net.ft_biases);
        // The general's square after the move.
        let general = Piece::new(perspective, PieceKind::General);
        let mut general_sq = pos.squares_of(general).next().unwrap_or(Square::E0);
        if let Some(m) = m.filter(|m| Some(m.from()) == pos.squares_of(general).next()) {
            general_sq = m.to();
        }
        let seen = match perspective {
            Color::Red => general_sq,
            Color::Black => general_sq.flip_vertical(),
        };
        let bucket = net.rows_of(general_bucket(seen));
        for color in Color::ALL {
            for (piece, sq) in pos.pieces(color) {
                let sq = match m {
                    Some(m) if m.to() == sq => continue, // taken
                    Some(m) if m.from() == sq => m.to(),
                    _ => sq,
                };
                let input = if net.general_buckets == 1 {
                    feature(perspective, piece, sq)
                } else {
                    bucketed_feature(perspective, piece, sq, bucket)
                };
                add(values, net.row(input));
            }
        }
    }

    /// The accumulators after the side to move plays `m` in `pos` (call before making
    /// it): the moved piece's row taken away and added back on its new square, and a
    /// captured piece's taken away, for both perspectives.
    ///
    /// # Panics
    /// If the origin square of `m` is empty.
    #[inline]
    pub fn after(&self, net: &Network, pos: &Position, m: Move) -> Accumulator {
        let mut next = Accumulator::default();
        next.set_after(self, net, pos, m);
        next
    }

    /// Sets these accumulators to `parent`'s after the side to move plays `m` in `pos`
    /// (before it is made), reading the parent's values once: what a search does at every
    /// node, into the child's slot of its stack.
    ///
    /// # Panics
    /// If the origin square of `m` is empty.
    #[inline]
    pub fn set_after(&mut self, parent: &Accumulator, net: &Network, pos: &Position, m: Move) {
        let (change, refresh) = MoveChange::of(net, pos, m);
        for p in Color::ALL {
            if refresh == Some(p) {
                // A general that changes its bucket changes every input of its side.
                self.refresh(net, pos, p, Some(m));
            } else {
                self.apply_side(parent, net, &change, p);
            }
        }
    }

    /// Sets these accumulators to `parent`'s changed by `change`: the same as
    /// [`set_after`](Accumulator::set_after) with the position and move `change` was
    /// taken from (for the same network), without the position (a search that updates
    /// only the accumulators it evaluates keeps the change and applies it later).
    ///
    /// ```
    /// use xq_core::{Move, Position};
    /// use xq_eval::nnue::{default_network, Accumulator, MoveChange};
    /// let net = default_network().unwrap();
    /// let mut pos = Position::startpos();
    /// let parent = Accumulator::new(&net, &pos);
    /// let m: Move = "h2e2".parse().unwrap();
    /// let change = MoveChange::new(&net, &pos, m).expect("no general moves");
    /// pos.make_move(m);
    /// let mut child = Accumulator::default();
    /// child.apply(&parent, &net, &change);
    /// assert_eq!(child, Accumulator::new(&net, &pos));
    /// ```
    #[inline]
    pub fn apply(&mut self, parent: &Accumulator, net: &Network, change: &MoveChange) {
        for p in Color::ALL {
            self.apply_side(parent, net, change, p);
        }
    }

    /// `perspective`'s accumulator: `parent`'s changed by `change`, whose general buckets
    /// are that perspective's before and after the move.
    #[inline(always)]
    fn apply_side(
        &mut self,
        parent: &Accumulator,
        net: &Network,
        change: &MoveChange,
        perspective: Color,
    ) {
        let h = net.hidden;
        let p = perspective;
        let bucket = change.buckets[p.index()];
        let input = |piece: Piece, sq: Square| {
            if net.general_buckets == 1 {
                feature(p, piece, sq)
            } else {
                bucketed_feature(p, piece, sq, bucket)
            }
        };
        let (from, to) = (change.m.from(), change.m.to());
        let sub = net.row(input(change.moved, from));
        let add = net.row(input(change.moved, to));
        let cap = change.captured.map(|c| net.row(input(c, to)));
        let src = &parent.values[p.index()][..h];
        let dst = &mut self.values[p.index()][..h];
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: `moved_rows_avx2` needs AVX2 and nothing else, and the processor
            // has it (checked just above). Measured: docs/nnue.md, "Speed of the wider
            // net, and AVX2".
            #[allow(unsafe_code)]
            unsafe {
                moved_rows_avx2(dst, src, add, sub, cap)
            };
            return;
        }
        moved_rows(dst, src, add, sub, cap);
    }

    /// Updates these accumulators of `pos` in place for the move `m` (before it is made).
    ///
    /// # Panics
    /// If the origin square of `m` is empty.
    #[inline]
    pub fn update(&mut self, net: &Network, pos: &Position, m: Move) {
        let parent = self.clone();
        self.set_after(&parent, net, pos, m);
    }

    /// The accumulator of `perspective`.
    #[inline(always)]
    fn side(&self, perspective: Color) -> &[i16] {
        &self.values[perspective.index()]
    }
}

/// What a move changes in the accumulators, read from the position before the move is
/// made: the moved piece, its squares, a captured piece and each perspective's general
/// bucket. Enough to update the accumulators later without the position
/// ([`Accumulator::apply`]), as a search that computes only the accumulators it
/// evaluates needs (Stockfish's `DirtyPiece`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveChange {
    moved: Piece,
    captured: Option<Piece>,
    m: Move,
    /// The rows Red and Black read ([`Network::rows_of`] their general buckets), the
    /// same before and after the move.
    buckets: [(usize, bool); 2],
}

impl MoveChange {
    /// The change `m` makes in `pos` (before it is made) for `net`, or `None` when the
    /// move takes a general into another of `net`'s general buckets (for a
    /// [folded](Network::folded) network, across the middle file): then every input of
    /// that side changes, and only [`Accumulator::set_after`], which reads the whole
    /// position, computes it.
    ///
    /// # Panics
    /// If the origin square of `m` is empty.
    #[inline]
    pub fn new(net: &Network, pos: &Position, m: Move) -> Option<MoveChange> {
        match MoveChange::of(net, pos, m) {
            (change, None) => Some(change),
            (_, Some(_)) => None,
        }
    }

    /// The change `m` makes in `pos`, and the perspective (if any) whose own general
    /// moves to another bucket and must be computed from scratch.
    #[inline(always)]
    fn of(net: &Network, pos: &Position, m: Move) -> (MoveChange, Option<Color>) {
        let (from, to) = (m.from(), m.to());
        let moved = pos
            .piece_on(from)
            .expect("MoveChange: no piece on the move's origin");
        let mut change = MoveChange {
            moved,
            captured: pos.piece_on(to),
            m,
            buckets: [(0, false); 2],
        };
        if net.general_buckets == 1 {
            return (change, None);
        }
        let mut refresh = None;
        for p in Color::ALL {
            change.buckets[p.index()] = net.rows_of(perspective_bucket(pos, p));
            if moved.kind == PieceKind::General && moved.color == p {
                let view = |sq: Square| match p {
                    Color::Red => sq,
                    Color::Black => sq.flip_vertical(),
                };
                if net.rows_of(general_bucket(view(from))) != net.rows_of(general_bucket(view(to)))
                {
                    refresh = Some(p);
                }
            }
        }
        (change, refresh)
    }
}

/// `sum(clip(a)^2 x w)` over both halves: the side to move's accumulator `us` with its
/// output weights `w_us`, then the other side's.
///
/// Written so that the compiler vectorises it (SSE2 in a portable build; AVX2 by hand in
/// [`output_sum_avx2`]): each clipped value `c` (at most [`QA`]) times its weight (at most
/// [`MAX_OUTPUT_WEIGHT`] in size, checked when the network is made) fits an `i16`, and
/// that product times `c` again is summed in `i32` lanes (`pmullw` then `pmaddwd`), 128
/// values at a time (at most 128 x 255 x 32,640, below 2^31), each block's sum added in
/// `i64`. The result is exact: the same as summing `c x c x w` in `i64`, whatever the
/// instructions.
#[inline(always)]
// The browser build with SIMD uses `output_sum_simd128` alone; this stays its reference.
#[cfg_attr(
    all(target_arch = "wasm32", target_feature = "simd128"),
    allow(dead_code)
)]
fn output_sum(us: &[i16], w_us: &[i16], them: &[i16], w_them: &[i16]) -> i64 {
    let mut total = 0i64;
    for (acc, w) in [(us, w_us), (them, w_them)] {
        for (a, w) in acc.chunks(128).zip(w.chunks(128)) {
            let mut sum = 0i32;
            for (&a, &w) in a.iter().zip(w) {
                let c = a.clamp(0, QA as i16);
                sum += i32::from(c * w) * i32::from(c);
            }
            total += i64::from(sum);
        }
    }
    total
}

/// [`output_sum`] with AVX2, 16 values a step: clip, `vpmullw` by the weights (each
/// product fits an `i16`, as in [`output_sum`]), then `vpmaddwd` by the clipped values
/// again, which adds each two neighbouring products into one of 8 `i32` lanes. The
/// compiler's own vectorisation of [`output_sum`] widened every product to 32 bits
/// first and took 8 values a step.
///
/// Exact: a lane gathers `h / 4` products over both halves (`h` at most [`MAX_HIDDEN`],
/// 512), each at most 255 x 32,640 in size, so at most 128 x 8,323,200 < 2^31; the 8
/// lanes are added in `i64`. The widths are multiples of 16 (the file format's rule).
/// Callers check that the processor has AVX2 (calling it is `unsafe` for that alone).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
fn output_sum_avx2(us: &[i16], w_us: &[i16], them: &[i16], w_them: &[i16]) -> i64 {
    use std::arch::x86_64::*;
    debug_assert!(us.len() % 16 == 0 && us.len() <= MAX_HIDDEN);
    let mut lanes = [0i32; 8];
    // SAFETY: the intrinsics need AVX2, which this function's callers check. Each load
    // reads 16 `i16`s, unaligned, from a chunk of exactly 16 (`chunks_exact`); the one
    // store writes 8 `i32`s into `lanes`.
    unsafe {
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for (acc, w) in [(us, w_us), (them, w_them)] {
            for (a, w) in acc.chunks_exact(16).zip(w.chunks_exact(16)) {
                let a = _mm256_loadu_si256(a.as_ptr().cast());
                let w = _mm256_loadu_si256(w.as_ptr().cast());
                let c = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
                let cw = _mm256_mullo_epi16(c, w);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(cw, c));
            }
        }
        _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sum);
    }
    lanes.iter().map(|&x| i64::from(x)).sum()
}

/// [`output_sum`] with WebAssembly's 128-bit SIMD (the browser build, `web/build.sh`), as
/// [`output_sum_avx2`] does it with AVX2: 8 values a step, clipped, `i16x8.mul` by the
/// weights, `i32x4.dot_i16x8_s` by the clipped values again, each half's 4 lanes kept
/// apart and added in `i64` (exact: a lane gathers at most `h / 4` products of at most
/// 255 x 32,640, `h` at most 512). The widths are multiples of 16.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[allow(unsafe_code)]
fn output_sum_simd128(us: &[i16], w_us: &[i16], them: &[i16], w_them: &[i16]) -> i64 {
    use std::arch::wasm32::*;
    debug_assert!(us.len() % 16 == 0 && us.len() <= MAX_HIDDEN);
    let (zero, qa) = (i16x8_splat(0), i16x8_splat(QA as i16));
    let mut total = 0i64;
    for (acc, w) in [(us, w_us), (them, w_them)] {
        let mut sum = i32x4_splat(0);
        for (a, w) in acc.chunks_exact(8).zip(w.chunks_exact(8)) {
            // SAFETY: each load reads 16 bytes from a chunk of exactly 8 `i16`s; wasm's
            // loads need no alignment.
            let (a, w) = unsafe { (v128_load(a.as_ptr().cast()), v128_load(w.as_ptr().cast())) };
            let c = i16x8_min(i16x8_max(a, zero), qa);
            sum = i32x4_add(sum, i32x4_dot_i16x8(i16x8_mul(c, w), c));
        }
        total += [
            i32x4_extract_lane::<0>(sum),
            i32x4_extract_lane::<1>(sum),
            i32x4_extract_lane::<2>(sum),
            i32x4_extract_lane::<3>(sum),
        ]
        .iter()
        .map(|&x| i64::from(x))
        .sum::<i64>();
    }
    total
}

/// The second layer's part of the output, in units of `1 / (QA x QB)` (see the [module
/// docs](self)): each unit's sum over the clipped and squared values of the side to
/// move's accumulator `us` then the other's, clipped, times its output weight.
///
/// Exact in `i32` for the trainer's weights: they are clipped to 1.98 x [`QL`] (2,027 in
/// size), so 1,024 values of at most 255 times them stay below 2^30. A file with larger
/// weights may wrap a sum (the same way in every build: wrapping addition does not depend
/// on the order), never panic. Written so that the compiler vectorises it (`pmaddwd`).
#[inline(always)]
fn second_layer(l: &SecondLayer, us: &[i16], them: &[i16]) -> i32 {
    let h = us.len();
    let mut input = [0i16; 2 * MAX_HIDDEN];
    squared_inputs(&mut input[..2 * h], us, them);
    let input = &input[..2 * h];
    let mut sums = [0i32; MAX_SECOND_LAYER];
    for (sum, row) in sums.iter_mut().zip(l.weights.chunks_exact(2 * h)) {
        *sum = input.iter().zip(row).fold(0i32, |s, (&x, &w)| {
            s.wrapping_add(i32::from(x) * i32::from(w))
        });
    }
    second_layer_output(l, &sums)
}

/// The second layer's inputs: each accumulator value clipped to `[0, QA]`, squared and
/// divided by [`QA`], the side to move's first.
#[inline(always)]
fn squared_inputs(input: &mut [i16], us: &[i16], them: &[i16]) {
    let (first, second) = input.split_at_mut(us.len());
    for (half, acc) in [(first, us), (second, them)] {
        for (x, &a) in half.iter_mut().zip(acc) {
            let c = i32::from(a.clamp(0, QA as i16));
            *x = (c * c / QA) as i16;
        }
    }
}

/// The second layer's units from their sums (before the biases), clipped, times their
/// output weights.
#[inline(always)]
fn second_layer_output(l: &SecondLayer, sums: &[i32; MAX_SECOND_LAYER]) -> i32 {
    let mut total = 0i32;
    for ((&sum, &bias), &out) in sums.iter().zip(&l.biases).zip(&l.out) {
        let unit = sum.wrapping_add(bias).clamp(0, QA * QL) / QL;
        total += unit * i32::from(out);
    }
    total
}

/// [`second_layer`] with AVX2, skipping the inputs that are zero (about two thirds of
/// them in a trained network: an accumulator value at or below zero). The inputs are
/// taken in pairs; the pairs with a value that is not zero are listed first, eight at a
/// time without a branch ([`NONZERO_PAIRS`]), then each adds its two weights of every
/// unit, one `vpmaddwd` for 8 units over [`SecondLayer::by_pairs`]. A pair's two products
/// fit an `i32` (2 x 255 x 32,767) and the sums wrap as [`second_layer`]'s do, so the
/// result is the same to the bit. Callers check that the processor has AVX2 (calling
/// it is `unsafe` for that alone).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
fn second_layer_avx2(l: &SecondLayer, us: &[i16], them: &[i16]) -> i32 {
    match l.biases.len() / 8 {
        1 => second_layer_avx2_of::<1>(l, us, them),
        2 => second_layer_avx2_of::<2>(l, us, them),
        3 => second_layer_avx2_of::<3>(l, us, them),
        _ => second_layer_avx2_of::<4>(l, us, them),
    }
}

/// For each set of 8 bits, the positions of its ones in order (then zeros): the pairs of
/// a block of 8 with a value that is not zero.
#[cfg(target_arch = "x86_64")]
static NONZERO_PAIRS: [[u16; 8]; 256] = {
    let mut table = [[0u16; 8]; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut bit, mut n) = (0, 0);
        while bit < 8 {
            if mask & (1 << bit) != 0 {
                table[mask][n] = bit as u16;
                n += 1;
            }
            bit += 1;
        }
        mask += 1;
    }
    table
};

/// [`second_layer_avx2`] for a second layer `8 x G` wide (the sums kept in `G`
/// registers).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
fn second_layer_avx2_of<const G: usize>(l: &SecondLayer, us: &[i16], them: &[i16]) -> i32 {
    use std::arch::x86_64::*;
    let h = us.len();
    let mut input = [0i16; 2 * MAX_HIDDEN];
    squared_inputs(&mut input[..2 * h], us, them);
    // Each pair of inputs read as one little-endian i32 (the first in the low half): above
    // zero when either input is not zero, as both are at least 0.
    let pairs = input.as_ptr().cast::<i32>();
    // The pairs that are not zero; 8 more slots for the last block's whole store.
    let mut nonzero = [0u16; MAX_HIDDEN + 8];
    let mut count = 0;
    let mut sums = [0i32; MAX_SECOND_LAYER];
    // SAFETY: the intrinsics need AVX2, which this function's callers check. The loads
    // read, all unaligned: 8 pairs of `input` (16 `i16`s) from pair `8 x block` for
    // `block < h / 8`, and one pair `p < h` (`input` has `2 x MAX_HIDDEN >= 2 x h`
    // values); a row of `NONZERO_PAIRS` (8 `u16`s); 16 `i16`s of a pair's weights from
    // `16 x g` for `g < G`, in pair `p < h` of `by_pairs` (`h` pairs of `2 x width =
    // 16 x G`). The stores write 8 `u16`s of `nonzero` from `count`, at most `h - 8`
    // before the last block (`h <= MAX_HIDDEN`), and `8 x G` of the `MAX_SECOND_LAYER`
    // sums.
    unsafe {
        let zero = _mm256_setzero_si256();
        for block in 0..h / 8 {
            let v = _mm256_loadu_si256(pairs.add(8 * block).cast());
            let above = _mm256_cmpgt_epi32(v, zero);
            let mask = _mm256_movemask_ps(_mm256_castsi256_ps(above)) as usize;
            let at = _mm_loadu_si128(NONZERO_PAIRS[mask].as_ptr().cast());
            let at = _mm_add_epi16(at, _mm_set1_epi16((block * 8) as i16));
            _mm_storeu_si128(nonzero.as_mut_ptr().add(count).cast(), at);
            count += mask.count_ones() as usize;
        }
        let mut acc = [_mm256_setzero_si256(); G];
        let width = 8 * G;
        for &pair in &nonzero[..count] {
            let pair = usize::from(pair);
            let x = _mm256_set1_epi32(pairs.add(pair).read_unaligned());
            let weights = l.by_pairs.as_ptr().add(pair * 2 * width);
            for (g, a) in acc.iter_mut().enumerate() {
                let w = _mm256_loadu_si256(weights.add(16 * g).cast());
                *a = _mm256_add_epi32(*a, _mm256_madd_epi16(x, w));
            }
        }
        for (g, a) in acc.iter().enumerate() {
            _mm256_storeu_si256(sums.as_mut_ptr().add(8 * g).cast(), *a);
        }
    }
    second_layer_output(l, &sums)
}

/// A child's accumulator `dst` from its parent's `src`: the moved piece's row on its new
/// square added, on its old square taken away, and a captured piece's row taken away
/// (wrapping `i16` arithmetic, exact while the true values fit).
#[inline(always)]
fn moved_rows(dst: &mut [i16], src: &[i16], add: &[i16], sub: &[i16], cap: Option<&[i16]>) {
    let h = dst.len();
    let (src, add, sub) = (&src[..h], &add[..h], &sub[..h]);
    match cap {
        Some(cap) => {
            let cap = &cap[..h];
            for i in 0..h {
                dst[i] = src[i]
                    .wrapping_add(add[i])
                    .wrapping_sub(sub[i])
                    .wrapping_sub(cap[i]);
            }
        }
        None => {
            for i in 0..h {
                dst[i] = src[i].wrapping_add(add[i]).wrapping_sub(sub[i]);
            }
        }
    }
}

/// [`moved_rows`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn moved_rows_avx2(dst: &mut [i16], src: &[i16], add: &[i16], sub: &[i16], cap: Option<&[i16]>) {
    moved_rows(dst, src, add, sub, cap);
}

#[inline(always)]
fn add(acc: &mut [i16], row: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `include` in xq-eval's Cargo.toml names the file `EMBEDDED` reads: a package
    /// without it would not build, and one with every net under `nets/` would carry
    /// megabytes nobody loads.
    #[test]
    fn the_package_carries_the_built_in_net() {
        let source = include_str!("mod.rs");
        let marker = concat!("include_bytes!(\"../../", "nets/");
        let start =
            source.find(marker).expect("EMBEDDED reads a net") + marker.len() - "nets/".len();
        let name = &source[start..start + source[start..].find('"').unwrap()];
        assert!(
            name.starts_with("nets/nn-") && name.ends_with(".nnue"),
            "{name}"
        );
        let manifest = include_str!("../../Cargo.toml");
        let include = manifest
            .lines()
            .find(|line| line.starts_with("include = "))
            .expect("xq-eval's Cargo.toml has an include list");
        assert!(
            include.contains(&format!("\"{name}\"")),
            "{include} lacks {name}"
        );
        assert_eq!(
            include.matches("nets/").count(),
            1,
            "{include}: one net only"
        );
    }

    #[test]
    fn the_accumulator_follows_every_move_of_random_games() {
        let net = Network::seeded(48, 3);
        let mut moves = 0;
        for fen in xq_testkit::start_fens().into_iter().take(12) {
            let mut pos = Position::from_fen(fen).unwrap();
            let mut acc = Accumulator::new(&net, &pos);
            let mut rng = SplitMix64::new(moves as u64);
            for _ in 0..60 {
                let list = xq_movegen::legal_moves(&pos);
                if list.is_empty() {
                    break;
                }
                let m = list[rng.below(list.len() as u64) as usize];
                // In place, by copy, and into another slot.
                let child = acc.after(&net, &pos, m);
                let mut slot = Accumulator::new(&net, &Position::startpos());
                slot.set_after(&acc, &net, &pos, m);
                // Or later, from the change alone: one set of rows has no general bucket
                // to change, so every move has a change.
                let change = MoveChange::new(&net, &pos, m).expect("one set of rows");
                let mut applied = Accumulator::default();
                applied.apply(&acc, &net, &change);
                acc.update(&net, &pos, m);
                assert_eq!(acc, child);
                assert_eq!(applied, child);
                assert_eq!(acc.values[0][..48], slot.values[0][..48]);
                assert_eq!(acc.values[1][..48], slot.values[1][..48]);
                let undo = pos.make_move(m);
                assert_eq!(acc, Accumulator::new(&net, &pos), "{m} to {pos}");
                // Taking the move back and forth again leaves it exact.
                pos.unmake_move(m, undo);
                pos.make_move(m);
                moves += 1;
            }
        }
        assert!(moves > 400, "{moves}");
    }

    #[test]
    fn with_general_buckets_the_accumulator_follows_every_move_and_the_file_round_trips() {
        let net = Network::seeded_with_general_buckets(32, 9);
        general_buckets_follow_every_move(&net);
        // Folded (one set of rows six times): a general refreshes only across the middle.
        let one = Network::seeded(32, 9);
        let (biases, out) = (one.ft_biases.clone(), one.out_weights.clone());
        let folded = Network::from_parts(32, one.ft_weights.repeat(6), biases, out, one.out_biases);
        assert!(folded.folded() && !net.folded());
        general_buckets_follow_every_move(&folded);
    }

    fn general_buckets_follow_every_move(net: &Network) {
        let net = net.clone();
        let mut moves = 0;
        let mut general_moves = 0;
        let (mut applied_moves, mut rebucketed_moves) = (0, 0);
        for fen in xq_testkit::start_fens().into_iter().take(30) {
            let mut pos = Position::from_fen(fen).unwrap();
            let mut acc = Accumulator::new(&net, &pos);
            let mut rng = SplitMix64::new(moves as u64 + 77);
            for _ in 0..80 {
                let list = xq_movegen::legal_moves(&pos);
                if list.is_empty() {
                    break;
                }
                // Prefer general moves now and then, so that buckets change often.
                let generals: Vec<Move> = list
                    .iter()
                    .copied()
                    .filter(|m| pos.piece_on(m.from()).map(|p| p.kind) == Some(PieceKind::General))
                    .collect();
                let m = if !generals.is_empty() && rng.below(3) == 0 {
                    general_moves += 1;
                    generals[rng.below(generals.len() as u64) as usize]
                } else {
                    list[rng.below(list.len() as u64) as usize]
                };
                // A change to apply later, unless the general changes its bucket.
                let change = MoveChange::new(&net, &pos, m);
                let moved = pos.piece_on(m.from()).unwrap();
                let seen = |sq: Square| match moved.color {
                    Color::Red => sq,
                    Color::Black => sq.flip_vertical(),
                };
                let rows = |sq: Square| net.rows_of(general_bucket(seen(sq)));
                let rebucketed = moved.kind == PieceKind::General && rows(m.from()) != rows(m.to());
                assert_eq!(change.is_none(), rebucketed, "{m} in {pos}");
                let parent = acc.clone();
                acc.update(&net, &pos, m);
                pos.make_move(m);
                assert_eq!(acc, Accumulator::new(&net, &pos), "{m} to {pos}");
                if let Some(change) = change {
                    let mut applied = Accumulator::default();
                    applied.apply(&parent, &net, &change);
                    assert_eq!(applied, acc, "{m} to {pos}");
                    applied_moves += 1;
                } else {
                    rebucketed_moves += 1;
                }
                moves += 1;
            }
        }
        assert!(
            moves > 1000 && general_moves > 100 && rebucketed_moves > 20 && applied_moves > 900,
            "{moves} {general_moves} {rebucketed_moves} {applied_moves}"
        );
        // Colours swapped, the same evaluation.
        for fen in xq_testkit::start_fens() {
            let pos = Position::from_fen(fen).unwrap();
            let flipped = pos.color_flipped();
            assert_eq!(
                net.evaluate(&pos, &Accumulator::new(&net, &pos)),
                net.evaluate(&flipped, &Accumulator::new(&net, &flipped)),
                "{pos}"
            );
        }
        // Version 3, and a damaged count of general buckets is named.
        let bytes = net.to_bytes();
        assert_eq!(u16::from_le_bytes([bytes[4], bytes[5]]), 3);
        assert_eq!(bytes.len(), Network::file_size(32, 1, GENERAL_BUCKETS, 0));
        let mut v = bytes.clone();
        v[14] = 5;
        assert_eq!(Network::from_bytes(&v), Err(NetError::BadGeneralBuckets(5)));
        // A network without general buckets is still written as before.
        assert_eq!(Network::seeded(32, 9).to_bytes()[4], 1);
    }

    #[test]
    fn the_evaluation_is_the_same_for_the_colour_flipped_position() {
        let net = Network::seeded(32, 11);
        for fen in xq_testkit::start_fens() {
            let choices: Vec<u16> = (0..30u16).map(|i| i.wrapping_mul(40503)).collect();
            for pos in xq_testkit::play(fen, &choices) {
                let flipped = pos.color_flipped();
                let a = net.evaluate(&pos, &Accumulator::new(&net, &pos));
                let b = net.evaluate(&flipped, &Accumulator::new(&net, &flipped));
                assert_eq!(a, b, "{pos}");
            }
        }
    }

    #[test]
    fn a_file_round_trips_and_bad_files_say_why() {
        let net = Network::seeded(16, 5);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), Network::file_size(16, 1, 1, 0));
        assert_eq!(Network::from_bytes(&bytes), Ok(net));
        let mut v = bytes.clone();
        v[4] = 9;
        assert_eq!(
            Network::from_bytes(&v),
            Err(NetError::UnsupportedVersion(9))
        );
        let mut v = bytes.clone();
        v[6] = 17;
        assert_eq!(Network::from_bytes(&v), Err(NetError::BadWidth(17)));
        let mut v = bytes.clone();
        v[8] = 0;
        assert!(matches!(
            Network::from_bytes(&v),
            Err(NetError::WrongInputs(_))
        ));
        assert_eq!(
            Network::from_bytes(&bytes[..bytes.len() - 1]),
            Err(NetError::WrongSize {
                expected: bytes.len(),
                found: bytes.len() - 1
            })
        );
        assert_eq!(Network::from_bytes(b"XQ"), Err(NetError::BadMagic));
        assert_eq!(
            NetError::BadChecksum.to_string(),
            "network file damaged (checksum mismatch)"
        );
        // An output weight too large for the output's arithmetic, with a good checksum.
        let mut v = bytes.clone();
        let at = 12 + 2 * (INPUTS * 16 + 16) + 2 * 3;
        v[at..at + 2].copy_from_slice(&200i16.to_le_bytes());
        rehash(&mut v);
        assert_eq!(Network::from_bytes(&v), Err(NetError::OutputWeight(200)));
        assert_eq!(
            NetError::OutputWeight(200).to_string(),
            "network output weight 200: at most 128 in size"
        );
    }

    /// `net` with a second layer of `width` units, weights drawn from `seed` up to
    /// `spread` in size (the last weights up to [`MAX_OUTPUT_WEIGHT`]).
    fn with_random_second_layer(net: Network, width: usize, spread: u64, seed: u64) -> Network {
        let mut rng = SplitMix64::new(seed);
        let mut draw = |n: usize, spread: u64| -> Vec<i16> {
            (0..n)
                .map(|_| (rng.below(2 * spread + 1) as i64 - spread as i64) as i16)
                .collect()
        };
        let weights = draw(width * 2 * net.hidden(), spread);
        let biases = draw(width, 30_000)
            .iter()
            .map(|&b| i32::from(b) * 5)
            .collect();
        let out = draw(width, 128);
        net.with_second_layer(weights, biases, out)
    }

    /// Rewrites the checksum of a file whose body was changed.
    fn rehash(v: &mut [u8]) {
        let body = v.len() - 8;
        let hash = fnv1a(&v[..body]).to_le_bytes();
        v[body..].copy_from_slice(&hash);
    }

    #[test]
    fn a_second_layer_file_is_version_4_round_trips_and_bad_ones_say_why() {
        for (base, generals) in [
            (Network::seeded(32, 5), 1u16),
            (Network::seeded_with_general_buckets(16, 6), 6),
        ] {
            let h = base.hidden();
            let net = with_random_second_layer(base, 16, 2027, 7);
            let bytes = net.to_bytes();
            assert_eq!(
                bytes.len(),
                Network::file_size(h, 1, usize::from(generals), 16)
            );
            assert_eq!(&bytes[4..6], &4u16.to_le_bytes());
            assert_eq!(&bytes[14..16], &generals.to_le_bytes());
            assert_eq!(&bytes[16..18], &16u16.to_le_bytes());
            let back = Network::from_bytes(&bytes).unwrap();
            assert_eq!(back.second_layer(), 16);
            assert_eq!(back, net);
            assert_eq!(
                Network::from_bytes(&bytes[..bytes.len() - 2]),
                Err(NetError::WrongSize {
                    expected: bytes.len(),
                    found: bytes.len() - 2
                })
            );
        }
        let bytes = with_random_second_layer(Network::seeded(16, 1), 8, 500, 2).to_bytes();
        for bad in [0u16, 12, 40] {
            let mut v = bytes.clone();
            v[16..18].copy_from_slice(&bad.to_le_bytes());
            assert_eq!(Network::from_bytes(&v), Err(NetError::BadSecondLayer(bad)));
        }
        assert_eq!(
            NetError::BadSecondLayer(12).to_string(),
            "network with a second layer 12 wide: a multiple of 8 from 8 to 32"
        );
        // General buckets other than 1 or six.
        let mut v = bytes.clone();
        v[14..16].copy_from_slice(&2u16.to_le_bytes());
        assert_eq!(Network::from_bytes(&v), Err(NetError::BadGeneralBuckets(2)));
        // The second layer's last output weight too large, with a good checksum.
        let mut v = bytes.clone();
        let at = v.len() - 8 - 2;
        v[at..at + 2].copy_from_slice(&(-300i16).to_le_bytes());
        rehash(&mut v);
        assert_eq!(Network::from_bytes(&v), Err(NetError::OutputWeight(-300)));
        // A header cut short.
        assert!(matches!(
            Network::from_bytes(&bytes[..17]),
            Err(NetError::WrongSize { found: 17, .. })
        ));
    }

    #[test]
    fn the_second_layer_is_the_exact_sum_in_every_build() {
        let mut rng = SplitMix64::new(21);
        for h in [16, 64, 256, 512] {
            for width in [8, 16, 32] {
                let net = with_random_second_layer(
                    Network::seeded(h, rng.next_u64()),
                    width,
                    2027,
                    rng.next_u64(),
                );
                let l = net.second.as_ref().unwrap();
                for _ in 0..20 {
                    let us: Vec<i16> = (0..h).map(|_| rng.below(800) as i16 - 300).collect();
                    let them: Vec<i16> = (0..h).map(|_| rng.below(800) as i16 - 300).collect();
                    // The reference in i64, one unit at a time.
                    let input: Vec<i64> = us
                        .iter()
                        .chain(&them)
                        .map(|&a| {
                            let c = i64::from(a.clamp(0, QA as i16));
                            c * c / i64::from(QA)
                        })
                        .collect();
                    let expected: i64 = (0..width)
                        .map(|j| {
                            let row = &l.weights[j * 2 * h..(j + 1) * 2 * h];
                            let sum: i64 =
                                input.iter().zip(row).map(|(&x, &w)| x * i64::from(w)).sum();
                            let unit = (sum + i64::from(l.biases[j])).clamp(0, i64::from(QA * QL))
                                / i64::from(QL);
                            unit * i64::from(l.out[j])
                        })
                        .sum();
                    assert_eq!(i64::from(second_layer(l, &us, &them)), expected);
                    #[cfg(target_arch = "x86_64")]
                    if std::is_x86_feature_detected!("avx2") {
                        // SAFETY: the processor has AVX2 (checked just above).
                        #[allow(unsafe_code)]
                        let fast = unsafe { second_layer_avx2(l, &us, &them) };
                        assert_eq!(i64::from(fast), expected);
                    }
                }
            }
        }
    }

    #[test]
    fn a_second_layer_adds_to_the_output_and_keeps_the_colour_symmetry() {
        let base = Network::seeded(32, 8);
        let net = with_random_second_layer(base.clone(), 8, 2027, 9);
        let mut pos = Position::startpos();
        let mut rng = SplitMix64::new(10);
        let mut differ = 0;
        for _ in 0..60 {
            let moves = xq_movegen::legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len() as u64) as usize];
            pos.make_move(m);
            let acc = Accumulator::new(&net, &pos);
            let us = pos.side_to_move();
            let (a, b) = (&acc.side(us)[..32], &acc.side(!us)[..32]);
            let l = net.second.as_ref().unwrap();
            assert_eq!(
                net.output(a, b, 0),
                base.output(a, b, 0) + second_layer(l, a, b)
            );
            differ += usize::from(net.evaluate(&pos, &acc) != base.evaluate(&pos, &acc));
            // The colour-flipped position evaluates the same.
            let flipped = pos.color_flipped();
            let facc = Accumulator::new(&net, &flipped);
            assert_eq!(net.evaluate(&flipped, &facc), net.evaluate(&pos, &acc));
        }
        assert!(
            differ > 30,
            "the second layer changed {differ} evaluations of 60"
        );
    }

    /// A network of `buckets` buckets with every weight zero and bucket `b`'s bias
    /// `b x 100 x QA x QB / SCALE`: bucket `b` evaluates to `100 x b` centipawns before
    /// the endgame scale.
    fn bucket_numbering_net(buckets: usize) -> Network {
        let h = 16;
        Network::from_parts(
            h,
            vec![0; INPUTS * h],
            vec![0; h],
            vec![0; buckets * 2 * h],
            (0..buckets as i32)
                .map(|b| b * 100 * QA * QB / SCALE)
                .collect(),
        )
    }

    #[test]
    fn the_piece_count_picks_the_output_bucket() {
        let net = bucket_numbering_net(8);
        let raw = |fen: &str| {
            let pos = Position::from_fen(fen).unwrap();
            let acc = Accumulator::new(&net, &pos);
            let us = pos.side_to_move();
            net.output(
                acc.side(us),
                acc.side(!us),
                output_bucket(pos.piece_count(), 8),
            ) * SCALE
                / (QA * QB)
        };
        // 32 pieces: the last bucket; 3 pieces: the first; 16 pieces: (16 - 1) x 8 / 32 = 3.
        assert_eq!(
            raw("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
            700
        );
        assert_eq!(raw("4k4/9/9/9/9/9/9/9/R8/3K5 w"), 0);
        assert_eq!(raw("rnbakabn1/9/9/9/4p4/9/9/9/9/1NBAKABR1 w"), 300);
        // And `evaluate` goes through it (the start position has no endgame scaling).
        let pos = Position::startpos();
        assert_eq!(net.evaluate(&pos, &Accumulator::new(&net, &pos)), 700);
        // Every count from 2 to 32 has a bucket, in order, each used.
        let used: Vec<usize> = (2..=32).map(|n| output_bucket(n, 8)).collect();
        assert!(used.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(used[0], 0);
        assert_eq!(*used.last().unwrap(), 7);
        assert_eq!(
            used.iter().collect::<std::collections::BTreeSet<_>>().len(),
            8
        );
    }

    #[test]
    fn a_bucketed_file_is_version_2_and_bad_bucket_counts_say_why() {
        let one = bucket_numbering_net(1).to_bytes();
        assert_eq!(u16::from_le_bytes([one[4], one[5]]), 1);
        let net = bucket_numbering_net(8);
        let bytes = net.to_bytes();
        assert_eq!(u16::from_le_bytes([bytes[4], bytes[5]]), 2);
        assert_eq!(bytes.len(), Network::file_size(16, 8, 1, 0));
        assert_eq!(bytes.len(), one.len() + 2 + 7 * (2 * 2 * 16 + 4));
        assert_eq!(Network::from_bytes(&bytes), Ok(net));
        for bad in [0u16, 1, 9] {
            let mut v = bytes.clone();
            v[12..14].copy_from_slice(&bad.to_le_bytes());
            assert_eq!(Network::from_bytes(&v), Err(NetError::BadBuckets(bad)));
        }
        assert_eq!(
            NetError::BadBuckets(9).to_string(),
            "network with 9 output buckets: a version-2 file has 2 to 8"
        );
        assert!(matches!(
            Network::from_bytes(&bytes[..13]),
            Err(NetError::WrongSize { .. })
        ));
        assert_eq!(
            Network::from_bytes(&bytes[..bytes.len() - 4]),
            Err(NetError::WrongSize {
                expected: bytes.len(),
                found: bytes.len() - 4
            })
        );
    }

    #[test]
    fn the_output_is_the_exact_sum_even_at_the_extremes() {
        // The widest network, every weight at its bound, accumulators at and beyond the
        // clip: the i16/i32 arithmetic gives the i64 sum.
        for (w, a) in [
            (128i16, 255i16),
            (-128, 255),
            (127, 300),
            (-1, -5),
            (77, 254),
        ] {
            let h = MAX_HIDDEN;
            let net = Network::from_parts(
                h,
                vec![0; INPUTS * h],
                vec![0; h],
                vec![w; 2 * h],
                vec![-12_345],
            );
            let acc = vec![a; h];
            let c = i64::from(a.clamp(0, QA as i16));
            let expected = (2 * h as i64 * c * c * i64::from(w)) / i64::from(QA) - 12_345;
            assert_eq!(i64::from(net.output(&acc, &acc, 0)), expected, "{w} {a}");
        }
        // Random weights and accumulators.
        let mut rng = SplitMix64::new(11);
        for h in [16, 128, 272] {
            let net = Network::seeded(h, rng.next_u64());
            let acc: Vec<i16> = (0..h).map(|_| rng.below(700) as i16 - 200).collect();
            let other: Vec<i16> = (0..h).map(|_| rng.below(700) as i16 - 200).collect();
            let reference: i64 = acc
                .iter()
                .chain(&other)
                .zip(&net.out_weights)
                .map(|(&a, &w)| {
                    let c = i64::from(a.clamp(0, QA as i16));
                    c * c * i64::from(w)
                })
                .sum();
            assert_eq!(
                i64::from(net.output(&acc, &other, 0)),
                reference / i64::from(QA) + i64::from(net.out_biases[0])
            );
        }
    }

    #[test]
    fn the_avx2_code_gives_the_portable_results() {
        // The search calls the AVX2 build where the processor has it; both builds must
        // agree to the bit (on a machine without AVX2 there is only one).
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            let mut rng = SplitMix64::new(12);
            let mut row = |h: usize, spread: u64| -> Vec<i16> {
                (0..h)
                    .map(|_| (rng.below(2 * spread + 1) as i64 - spread as i64) as i16)
                    .collect()
            };
            // The largest sums the output can meet: every value clipped to `QA`, every
            // weight at `MAX_OUTPUT_WEIGHT` in size, the widest net.
            for w in [MAX_OUTPUT_WEIGHT, -MAX_OUTPUT_WEIGHT] {
                let (a, w) = (vec![QA as i16; MAX_HIDDEN], vec![w; MAX_HIDDEN]);
                // SAFETY: the processor has AVX2 (checked above).
                #[allow(unsafe_code)]
                let fast = unsafe { output_sum_avx2(&a, &w, &a, &w) };
                assert_eq!(fast, 2 * MAX_HIDDEN as i64 * 255 * 255 * i64::from(w[0]));
                assert_eq!(fast, output_sum(&a, &w, &a, &w));
            }
            for h in [16, 48, 128, 256, 512] {
                for _ in 0..50 {
                    let (us, them) = (row(h, 600), row(h, 600));
                    let (w_us, w_them) = (row(h, 128), row(h, 128));
                    // SAFETY: the processor has AVX2 (checked above).
                    #[allow(unsafe_code)]
                    let fast = unsafe { output_sum_avx2(&us, &w_us, &them, &w_them) };
                    assert_eq!(fast, output_sum(&us, &w_us, &them, &w_them));
                    let (src, add, sub, cap) =
                        (row(h, 32767), row(h, 300), row(h, 300), row(h, 300));
                    for cap in [None, Some(&cap[..])] {
                        let (mut slow, mut fast) = (vec![0; h], vec![0; h]);
                        moved_rows(&mut slow, &src, &add, &sub, cap);
                        // SAFETY: the processor has AVX2 (checked above).
                        #[allow(unsafe_code)]
                        unsafe {
                            moved_rows_avx2(&mut fast, &src, &add, &sub, cap)
                        };
                        assert_eq!(fast, slow);
                    }
                }
            }
        }
    }
}
