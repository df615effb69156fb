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
//! # The file
//!
//! Little-endian throughout:
//!
//! | bytes | what |
//! |---|---|
//! | 4 | magic `XQNN` |
//! | 2 | format version: 1 with one output bucket, 2 with more, 3 with general buckets |
//! | 2 | `hidden`, the accumulator's width (a multiple of 16, at most [`MAX_HIDDEN`]) |
//! | 4 | `INPUTS` (1,260: a check that the features are the ones this code computes) |
//! | 2 | versions 2 and 3: `buckets`, the output buckets (2 to [`MAX_BUCKETS`] in version 2, 1 to it in 3; version 1 has 1) |
//! | 2 | version 3 only: the general buckets, [`GENERAL_BUCKETS`] (versions 1 and 2 have 1) |
//! | 2 `x generals x INPUTS x hidden` | the feature transformer's weights, `i16`, row by input, bucket by bucket |
//! | 2 `x hidden` | its biases, `i16` |
//! | 2 `x buckets x 2 x hidden` | the output weights, `i16`, bucket by bucket: the side to move's half, then the other |
//! | 4 `x buckets` | the output biases, `i32` |
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
pub const VERSION: u16 = 3;
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
const EMBEDDED: Option<&[u8]> = Some(include_bytes!("../../nets/nn-fc53c158.nnue"));

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
    /// A version-3 file whose general buckets are not [`GENERAL_BUCKETS`].
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
                "network with {g} general buckets: a version-3 file has {GENERAL_BUCKETS}"
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
    /// `INPUTS x hidden`, row by input.
    ft_weights: Vec<i16>,
    ft_biases: Vec<i16>,
    /// `buckets x 2 x hidden`, bucket by bucket: the side to move's half, then the
    /// other's.
    out_weights: Vec<i16>,
    /// One per bucket.
    out_biases: Vec<i32>,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Network {{ inputs: {}, hidden: {}, buckets: {}, hash: {:016x} }}",
            INPUTS * self.general_buckets,
            self.hidden,
            self.buckets(),
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
        Network {
            hidden,
            general_buckets,
            ft_weights,
            ft_biases,
            out_weights,
            out_biases,
        }
    }

    /// The sets of feature-transformer rows by the perspective's own general: 1, or
    /// [`GENERAL_BUCKETS`] ([`general_bucket`]).
    pub fn general_buckets(&self) -> usize {
        self.general_buckets
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
        let version: u16 = match (buckets, generals) {
            (1, 1) => 1,
            (_, 1) => 2,
            _ => 3,
        };
        let mut out = Vec::with_capacity(Network::file_size(h, buckets, generals));
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&(h as u16).to_le_bytes());
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        if version >= 2 {
            out.extend_from_slice(&(buckets as u16).to_le_bytes());
        }
        if version == 3 {
            out.extend_from_slice(&(generals as u16).to_le_bytes());
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
        let hash = fnv1a(&out);
        out.extend_from_slice(&hash.to_le_bytes());
        out
    }

    /// The size of the header: 12 bytes, the output buckets in versions 2 and 3, the
    /// general buckets in version 3.
    fn header_size(buckets: usize, generals: usize) -> usize {
        match (buckets, generals) {
            (1, 1) => 12,
            (_, 1) => 14,
            _ => 16,
        }
    }

    /// The size of a file of width `hidden` with `buckets` output buckets.
    fn file_size(hidden: usize, buckets: usize, generals: usize) -> usize {
        Network::header_size(buckets, generals)
            + 2 * (generals * INPUTS * hidden + hidden + buckets * 2 * hidden)
            + 4 * buckets
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
                    expected: Network::file_size(h, 2, 1),
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
        let generals = if version == 3 {
            let g = u16_at(14);
            if usize::from(g) != GENERAL_BUCKETS {
                return Err(NetError::BadGeneralBuckets(g));
            }
            GENERAL_BUCKETS
        } else {
            1
        };
        let expected = Network::file_size(h, buckets, generals);
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
        let mut at = Network::header_size(buckets, generals);
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
        if let Some(&w) = out_weights
            .iter()
            .find(|w| w.unsigned_abs() > MAX_OUTPUT_WEIGHT.unsigned_abs())
        {
            return Err(NetError::OutputWeight(w));
        }
        let out_biases = bytes[at..at + 4 * buckets]
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        Ok(Network::from_parts(
            h,
            ft_weights,
            ft_biases,
            out_weights,
            out_biases,
        ))
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
            return (sum / i64::from(QA)) as i32 + bias;
        }
        (output_sum(us, w_us, them, w_them) / i64::from(QA)) as i32 + bias
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
        let bucket = general_bucket(seen);
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
    /// Red's and Black's general buckets, the same before and after the move.
    buckets: [(usize, bool); 2],
}

impl MoveChange {
    /// The change `m` makes in `pos` (before it is made) for `net`, or `None` when the
    /// move takes a general into another of `net`'s general buckets: then every input of
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
            change.buckets[p.index()] = perspective_bucket(pos, p);
            if moved.kind == PieceKind::General && moved.color == p {
                let view = |sq: Square| match p {
                    Color::Red => sq,
                    Color::Black => sq.flip_vertical(),
                };
                if general_bucket(view(from)) != general_bucket(view(to)) {
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
/// Written so that the compiler vectorises it (SSE2 in a portable build, AVX2 in
/// [`output_sum_avx2`]): each clipped value `c` (at most [`QA`]) times its weight (at most
/// [`MAX_OUTPUT_WEIGHT`] in size, checked when the network is made) fits an `i16`, and
/// that product times `c` again is summed in `i32` lanes (`pmullw` then `pmaddwd`), 128
/// values at a time (at most 128 x 255 x 32,640, below 2^31), each block's sum added in
/// `i64`. The result is exact: the same as summing `c x c x w` in `i64`, whatever the
/// instructions.
#[inline(always)]
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

/// [`output_sum`] compiled for AVX2 (16 lanes of `i16` where SSE2 has 8).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn output_sum_avx2(us: &[i16], w_us: &[i16], them: &[i16], w_them: &[i16]) -> i64 {
    output_sum(us, w_us, them, w_them)
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
                let rebucketed = moved.kind == PieceKind::General
                    && general_bucket(seen(m.from())) != general_bucket(seen(m.to()));
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
        assert_eq!(bytes.len(), Network::file_size(32, 1, GENERAL_BUCKETS));
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
        assert_eq!(bytes.len(), Network::file_size(16, 1, 1));
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
        let body = v.len() - 8;
        let hash = fnv1a(&v[..body]).to_le_bytes();
        v[body..].copy_from_slice(&hash);
        assert_eq!(Network::from_bytes(&v), Err(NetError::OutputWeight(200)));
        assert_eq!(
            NetError::OutputWeight(200).to_string(),
            "network output weight 200: at most 128 in size"
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
        assert_eq!(bytes.len(), Network::file_size(16, 8, 1));
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
