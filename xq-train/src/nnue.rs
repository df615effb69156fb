//! Training a [`Network`] (`xq_eval::nnue`) on the CPU from self-play positions: what
//! `xq train` runs.
//!
//! # What is fitted
//!
//! Each position is a [`TrainSample`]: the inputs of both perspectives, who is to move,
//! the endgame scale of the classical evaluation (the network's output is scaled by it,
//! as in play), the search's score and the game's result. The network's score `e` (in
//! centipawns, side to move's view) becomes a win probability `sigmoid(K x e)`; the
//! target is the blend `wdl x result + (1 - wdl) x sigmoid(K x score)` of the game's
//! result and the search's score. `K` is fitted first, so that `sigmoid(K x score)`
//! predicts the results as well as it can (the search's scores have the scale of the
//! classical evaluation, whose centipawns are not chess's). The loss is the mean squared
//! error between the two probabilities. With output buckets
//! ([`TrainOptions::buckets`]) a position's error reaches the output layer of its own
//! bucket (by its number of pieces) and the feature transformer every bucket shares.
//! With a second layer ([`TrainOptions::second_layer`]) the error reaches the feature
//! transformer through both the output's own weights and the second layer's.
//!
//! # How
//!
//! Mini-batches, AdamW (decoupled weight decay), a cosine learning-rate schedule from
//! `lr` down to `lr / 10` over the epochs, weights clipped to `±1.98` so that the
//! quantised network's arithmetic cannot overflow. Each batch is cut into a fixed number
//! of chunks whose gradients are summed in a fixed order, whatever the thread count: the
//! same data, options and seed give the same network, bit for bit. A part of the data is
//! held out (chosen by the seed; whole games when the samples say their game,
//! [`TrainSample::in_game`]) and its loss reported after each epoch.
//!
//! # The data
//!
//! [`TrainingData`] reads `xq datagen` files of either form through [`crate::data`] and
//! numbers each game by its positions ([`game_number`]); the held-out part is drawn from
//! those numbers, so a game is held out or trained on whatever files are read with it and
//! in whatever order (a network trained further on more rounds never trains on the games
//! it was measured on before, for the same seed). It leaves out the positions
//! scored beyond [`MAX_SCORE`]: there the game is decided and the score says little about
//! the position.
//!
//! ```
//! use xq_core::Position;
//! use xq_train::nnue::{TrainOptions, TrainSample, Trainer};
//! let samples: Vec<TrainSample> = ["rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w"]
//!     .iter()
//!     .enumerate()
//!     .map(|(i, fen)| TrainSample::new(&Position::from_fen(fen).unwrap(), if i == 0 { 0 } else { -1500 }, if i == 0 { 0.5 } else { 0.0 }))
//!     .collect();
//! let options = TrainOptions { hidden: 16, batch: 2, threads: 1, holdout: 0.0, ..TrainOptions::default() };
//! let mut trainer = Trainer::new(&samples, options, None);
//! let before = trainer.loss(&samples);
//! for _ in 0..20 {
//!     trainer.epoch(|_, _| {});
//! }
//! assert!(trainer.loss(&samples) < before);
//! let net = trainer.network(); // quantised, ready to write
//! assert_eq!(net.hidden(), 16);
//! ```

use crate::data::{read_file, DataError};
use crate::text::Sample;
use std::fmt;
use std::path::Path;
use xq_core::{Color, Position, SplitMix64, Square};
use xq_eval::endgame::{self, SCALE_MAX};
use xq_eval::nnue::{
    feature, general_bucket, output_bucket, Network, GENERAL_BUCKETS, INPUTS, MAX_BUCKETS,
    MAX_HIDDEN, MAX_SECOND_LAYER, QA, QB, QL, SCALE,
};

/// The largest score (centipawns) a position is trained on: beyond it the game is
/// decided and the score says little about the position.
pub const MAX_SCORE: i32 = 3000;

/// The most pieces a side can have: the width of a sample's input lists.
const MAX_PIECES: usize = 32;
/// The weights' bound, so that the quantised arithmetic cannot overflow.
const CLIP: f32 = 1.98;
/// Chunks per batch: gradients are summed chunk by chunk, in order.
const CHUNKS: usize = 16;

/// One training position, reduced to what the network sees.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainSample {
    /// The inputs of Red's perspective, then Black's: `count` each.
    inputs: [[u16; MAX_PIECES]; 2],
    count: u8,
    /// Red to move?
    red_to_move: bool,
    /// The endgame scale (`0..=1`) the output is multiplied by.
    scale: f32,
    /// The search's score, side to move's view, centipawns.
    score: f32,
    /// The result for the side to move: 1 won, 0.5 drawn, 0 lost.
    result: f32,
    /// The game the position comes from ([`NO_GAME`]: not said).
    game: u32,
    /// Each perspective's own general, its square seen from its side (Red's, then
    /// Black's): the general bucket of a network that has them.
    generals: [u8; 2],
}

/// The game of a sample that was not given one: such samples are held out one by one.
const NO_GAME: u32 = u32::MAX;

/// The number [`TrainingData`] gives a game: a hash of its positions (their Zobrist keys
/// in order), so that the same game gets the same number in any file, at any place in it,
/// whatever else is read with it. Two copies of a game are held out together.
///
/// ```
/// use xq_core::Position;
/// use xq_train::nnue::game_number;
/// use xq_train::text::Sample;
/// let start = Position::startpos();
/// let game = [Sample { pos: start.clone(), score: 20, result: 0.5 }];
/// assert_eq!(game_number(&game), game_number(&game.clone()));
/// let other = [Sample { pos: Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 b").unwrap(), score: 20, result: 0.5 }];
/// assert_ne!(game_number(&game), game_number(&other));
/// ```
pub fn game_number(game: &[Sample]) -> u32 {
    let mut acc = game.len() as u64;
    for sample in game {
        acc = SplitMix64::new(acc ^ sample.pos.key()).next_u64();
    }
    (SplitMix64::new(acc).next_u64() >> 32) as u32
}

impl TrainSample {
    /// The sample of `pos` with the search's `score` (side to move's view, centipawns)
    /// and the game's `result` for the side to move (1, 0.5 or 0).
    pub fn new(pos: &Position, score: i32, result: f32) -> TrainSample {
        let mut inputs = [[0u16; MAX_PIECES]; 2];
        let mut count = 0;
        for color in Color::ALL {
            for (piece, sq) in pos.pieces(color) {
                for p in Color::ALL {
                    inputs[p.index()][count] = feature(p, piece, sq) as u16;
                }
                count += 1;
            }
        }
        // In a fixed order, so that equal positions give equal samples.
        for side in &mut inputs {
            side[..count].sort_unstable();
        }
        let us = pos.side_to_move();
        // The scale of the score's sign, as the evaluation applies it.
        let red = score * us.sign();
        let scale = endgame::scale(pos, red) as f32 / SCALE_MAX as f32;
        let general = |c: Color| {
            let sq = pos
                .squares_of(xq_core::Piece::new(c, xq_core::PieceKind::General))
                .next()
                .unwrap_or(Square::E0);
            let seen = if c == Color::Red {
                sq
            } else {
                sq.flip_vertical()
            };
            seen.index() as u8
        };
        TrainSample {
            inputs,
            generals: [general(Color::Red), general(Color::Black)],
            count: count as u8,
            red_to_move: us == Color::Red,
            scale,
            score: score as f32,
            result,
            game: NO_GAME,
        }
    }

    /// This sample, from game number `game` of the data. The held-out part is made of
    /// whole games when the samples say theirs: positions of one game are alike, and a
    /// game split between the two parts would let the held-out loss flatter the network.
    pub fn in_game(mut self, game: u32) -> TrainSample {
        self.game = game.min(NO_GAME - 1);
        self
    }

    /// The sample of a position of training data (score and result turned to the side
    /// to move's view), or `None` when its score is beyond [`MAX_SCORE`].
    ///
    /// ```
    /// use xq_core::Position;
    /// use xq_train::nnue::TrainSample;
    /// use xq_train::text::parse_sample;
    /// let line = "4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1 | 1200 | 1.0";
    /// let sample = parse_sample(line).unwrap().unwrap();
    /// // Black to move, Red won: -1200 and a loss for the side to move.
    /// assert_eq!(
    ///     TrainSample::from_sample(&sample),
    ///     Some(TrainSample::new(&sample.pos, -1200, 0.0))
    /// );
    /// ```
    pub fn from_sample(sample: &Sample) -> Option<TrainSample> {
        if sample.score.abs() > MAX_SCORE {
            return None;
        }
        let sign = sample.pos.side_to_move().sign();
        let result = if sign > 0 {
            sample.result
        } else {
            1.0 - sample.result
        };
        Some(TrainSample::new(
            &sample.pos,
            sample.score * sign,
            result as f32,
        ))
    }

    /// The same sample with the board flipped left to right (file a for file i, as
    /// `Position::flip_horizontal`): the rules, and so the score and the result, do not
    /// change, and training on both halves doubles the data a game gives (`xq train
    /// --flip-horizontal`).
    ///
    /// ```
    /// use xq_core::Position;
    /// use xq_train::nnue::TrainSample;
    /// let pos = Position::from_fen("3k5/9/9/9/n8/9/9/9/9/R3K4 w").unwrap();
    /// let flipped = Position::from_fen("5k3/9/9/9/8n/9/9/9/9/4K3R w").unwrap();
    /// assert_eq!(flipped, pos.flip_horizontal());
    /// let sample = TrainSample::new(&pos, 120, 1.0);
    /// assert_eq!(sample.flip_horizontal(), TrainSample::new(&flipped, 120, 1.0));
    /// ```
    pub fn flip_horizontal(&self) -> TrainSample {
        let mut out = self.clone();
        for side in &mut out.inputs {
            for f in &mut side[..usize::from(self.count)] {
                let (block, sq) = (*f as usize / Square::COUNT, *f as usize % Square::COUNT);
                let sq = Square::from_index(sq).expect("a feature's square");
                *f = (block * Square::COUNT + sq.flip_horizontal().index()) as u16;
            }
            side[..usize::from(self.count)].sort_unstable();
        }
        for g in &mut out.generals {
            if let Some(sq) = Square::from_index(usize::from(*g)) {
                *g = sq.flip_horizontal().index() as u8;
            }
        }
        out
    }

    /// The old name of [`TrainSample::flip_horizontal`] ("mirror" is Python's word for a
    /// flip across the river).
    #[deprecated(since = "0.2.0", note = "renamed flip_horizontal")]
    pub fn mirrored(&self) -> TrainSample {
        self.flip_horizontal()
    }

    /// The inputs of the side to move's perspective, then the other's, each with its
    /// general bucket and whether its board is flipped left to right there.
    fn sides(&self) -> [(&[u16], (usize, bool)); 2] {
        let n = usize::from(self.count);
        let bucket = |p: usize| {
            Square::from_index(usize::from(self.generals[p])).map_or((1, false), general_bucket)
        };
        let red = (&self.inputs[0][..n], bucket(0));
        let black = (&self.inputs[1][..n], bucket(1));
        if self.red_to_move {
            [red, black]
        } else {
            [black, red]
        }
    }
}

/// Training positions read from `xq datagen` files, each with the number of its game
/// (see the [module docs](self)).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TrainingData {
    /// The samples, in the order read.
    pub samples: Vec<TrainSample>,
    /// The games read, those without a sample included.
    pub games: u32,
}

impl TrainingData {
    /// No data.
    pub fn new() -> TrainingData {
        TrainingData::default()
    }

    /// Adds a game's positions (as [`crate::data`] hands them over), numbered by what
    /// they are ([`game_number`]): whether a game is held out depends on the game and the
    /// seed alone, not on the files read with it or their order.
    pub fn push_game(&mut self, game: &[Sample]) {
        self.games = self.games.saturating_add(1);
        let number = game_number(game);
        self.samples.extend(
            game.iter()
                .filter_map(TrainSample::from_sample)
                .map(|s| s.in_game(number)),
        );
    }

    /// Adds every game of a data file of either form.
    ///
    /// # Errors
    /// The file cannot be read, or its first problem, with the file's name and the line
    /// or byte offset (the games before it are added).
    pub fn push_file(&mut self, path: impl AsRef<Path>) -> Result<(), DataError> {
        read_file(path, |game| self.push_game(game))
    }

    /// Adds every sample flipped left to right, after all of them
    /// ([`TrainSample::flip_horizontal`]; `xq train --flip-horizontal`): a flipped sample
    /// is in its position's game, so the two are held out together.
    pub fn add_horizontal_flips(&mut self) {
        let flipped: Vec<TrainSample> = self
            .samples
            .iter()
            .map(TrainSample::flip_horizontal)
            .collect();
        self.samples.extend(flipped);
    }

    /// The old name of [`TrainingData::add_horizontal_flips`].
    #[deprecated(since = "0.2.0", note = "renamed add_horizontal_flips")]
    pub fn add_mirrors(&mut self) {
        self.add_horizontal_flips();
    }
}

/// How the trainer works (see the [module docs](self)).
#[derive(Clone, Debug, PartialEq)]
pub struct TrainOptions {
    /// The accumulator's width (a multiple of 16).
    pub hidden: usize,
    /// Output buckets, 1 to [`MAX_BUCKETS`]: each position trains the
    /// output layer of its bucket ([`output_bucket`]) and the shared accumulator.
    pub buckets: usize,
    /// General buckets: 1, or [`GENERAL_BUCKETS`] sets of feature-transformer rows by
    /// each perspective's own general (`xq_eval::nnue::general_bucket`).
    ///
    /// Each perspective is also folded left to right by its own general, so a one-set
    /// network given as the start (its rows copied into every bucket) evaluates
    /// differently: where one general stands on the f-file and the other does not, one
    /// perspective is flipped and the other not, a pairing the one-set network never
    /// saw. From `nn-e49be5c4` the held-out loss started 5% higher (docs/nnue.md, round
    /// 12).
    pub general_buckets: usize,
    /// With general buckets, one more set of rows that every bucket shares while
    /// training (a "factoriser"): an input's weight is its bucket's row plus the shared
    /// row, so that what a piece on a square is worth whatever the general's square is
    /// learnt from every position, and a bucket's own rows learn only the difference.
    /// The written network has each bucket's sum; the shared set is not kept.
    pub shared_rows: bool,
    /// With one general bucket, fold each perspective left to right by its own general
    /// as six buckets do (a general on the f-file sees the board flipped), and write the
    /// network as [`GENERAL_BUCKETS`] buckets that hold the same rows: the folded one-set
    /// network, whose evaluation six buckets started from it keep, unlike an unfolded
    /// one's (see [`general_buckets`](TrainOptions::general_buckets)).
    pub fold: bool,
    /// The second layer's width (`xq_eval::nnue::Network::with_second_layer`): 0 for
    /// none, or a multiple of 8 up to [`MAX_SECOND_LAYER`]. A network given as the start
    /// without one gets one with random weights and zero output weights, so that it
    /// starts as the given network.
    pub second_layer: usize,
    /// The learning rate at the start.
    pub lr: f32,
    /// The weight of the game's result in the target (the rest is the search's score).
    pub wdl: f32,
    /// Positions per step.
    pub batch: usize,
    /// Threads.
    pub threads: usize,
    /// The share of the data held out.
    pub holdout: f64,
    /// The epochs the schedule spans (the learning rate falls over them).
    pub epochs: usize,
    /// AdamW's weight decay.
    pub weight_decay: f32,
    /// The seed of the weights, the shuffles and the held-out part.
    pub seed: u64,
}

impl Default for TrainOptions {
    fn default() -> TrainOptions {
        TrainOptions {
            hidden: 128,
            buckets: 1,
            general_buckets: 1,
            shared_rows: false,
            fold: false,
            second_layer: 0,
            lr: 0.001,
            wdl: 0.5,
            batch: 16_384,
            threads: 1,
            holdout: 0.05,
            epochs: 20,
            weight_decay: 0.01,
            seed: 1,
        }
    }
}

/// A network's shape as a user asks for it (`xq train --hidden`, `--buckets`,
/// `--general-buckets`, `--shared-rows`, `--fold`, `--second-layer`): each part left
/// `None` is the start network's, or without one [`TrainOptions::default`]'s (no second
/// layer). [`TrainOptions::with_shape`] checks it against the start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShapeRequest {
    /// [`TrainOptions::hidden`].
    pub hidden: Option<usize>,
    /// [`TrainOptions::buckets`].
    pub buckets: Option<usize>,
    /// [`TrainOptions::general_buckets`]; with [`fold`](ShapeRequest::fold), 1.
    pub general_buckets: Option<usize>,
    /// [`TrainOptions::shared_rows`].
    pub shared_rows: bool,
    /// [`TrainOptions::fold`].
    pub fold: bool,
    /// [`TrainOptions::second_layer`].
    pub second_layer: Option<usize>,
}

/// Why a [`ShapeRequest`] cannot be trained (from its start network).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShapeError {
    /// A width that is not a multiple of 16 from 16 to [`MAX_HIDDEN`].
    Hidden(usize),
    /// A width other than the start network's.
    HiddenOfStart {
        /// The width asked for.
        asked: usize,
        /// The start network's.
        start: usize,
    },
    /// Output buckets not from 1 to [`MAX_BUCKETS`].
    Buckets(usize),
    /// Output buckets other than those of a start network of more than one.
    BucketsOfStart {
        /// The buckets asked for.
        asked: usize,
        /// The start network's.
        start: usize,
    },
    /// General buckets neither 1 nor [`GENERAL_BUCKETS`], or fewer than the start
    /// network's.
    GeneralBuckets {
        /// The general buckets asked for.
        asked: usize,
        /// The start network's.
        start: usize,
    },
    /// Shared rows without general buckets.
    SharedRows,
    /// A fold with general buckets, or from a start network whose six sets of rows
    /// differ (not folded).
    Fold,
    /// A second layer neither 0 nor a multiple of 8 up to [`MAX_SECOND_LAYER`] wide.
    SecondLayer(usize),
    /// A second layer other than the start network's.
    SecondLayerOfStart {
        /// The width asked for.
        asked: usize,
        /// The start network's.
        start: usize,
    },
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ShapeError::Hidden(h) => {
                write!(f, "width {h}: a multiple of 16 from 16 to {MAX_HIDDEN}")
            }
            ShapeError::HiddenOfStart { asked, start } => {
                write!(f, "width {asked}, but the start network is {start} wide")
            }
            ShapeError::Buckets(b) => write!(f, "{b} output buckets: from 1 to {MAX_BUCKETS}"),
            ShapeError::BucketsOfStart { asked, start } => write!(
                f,
                "{asked} output buckets, but the start network has {start}"
            ),
            ShapeError::GeneralBuckets { asked, start } => write!(
                f,
                "general buckets {asked}: 1 or {GENERAL_BUCKETS}, and not fewer than the start network's {start}"
            ),
            ShapeError::SharedRows => {
                write!(f, "shared rows need {GENERAL_BUCKETS} general buckets")
            }
            ShapeError::Fold => write!(
                f,
                "a fold is one set of rows, from a start network of one or of {GENERAL_BUCKETS} folded ones"
            ),
            ShapeError::SecondLayer(w) => write!(
                f,
                "a second layer {w} wide: 0 or a multiple of 8 up to {MAX_SECOND_LAYER}"
            ),
            ShapeError::SecondLayerOfStart { asked, start } => write!(
                f,
                "a second layer {asked} wide, but the start network has one {start} wide"
            ),
        }
    }
}

impl std::error::Error for ShapeError {}

impl TrainOptions {
    /// These options with the shape `request` asks for, trained from `init` when given:
    /// what [`Trainer::new`] takes without panicking. The width, the output buckets and
    /// the second layer must be the start network's when it has them (a network of one
    /// output bucket can start more, one without a second layer can start one); a
    /// network of one set of rows can start six general buckets, and a folded one
    /// ([`Network::folded`]) six or a fold.
    ///
    /// ```
    /// use xq_eval::nnue::Network;
    /// use xq_train::nnue::{ShapeError, ShapeRequest, TrainOptions};
    /// let start = Network::seeded(32, 1);
    /// let asked = ShapeRequest { buckets: Some(8), ..ShapeRequest::default() };
    /// let options = TrainOptions::default().with_shape(&asked, Some(&start)).unwrap();
    /// assert_eq!((options.hidden, options.buckets), (32, 8));
    /// let asked = ShapeRequest { hidden: Some(64), ..ShapeRequest::default() };
    /// assert_eq!(
    ///     TrainOptions::default().with_shape(&asked, Some(&start)),
    ///     Err(ShapeError::HiddenOfStart { asked: 64, start: 32 })
    /// );
    /// ```
    pub fn with_shape(
        self,
        request: &ShapeRequest,
        init: Option<&Network>,
    ) -> Result<TrainOptions, ShapeError> {
        let hidden = match (request.hidden, init) {
            (Some(asked), Some(net)) if asked != net.hidden() => {
                let start = net.hidden();
                return Err(ShapeError::HiddenOfStart { asked, start });
            }
            (asked, net) => asked.or(net.map(Network::hidden)).unwrap_or(self.hidden),
        };
        if hidden == 0 || hidden % 16 != 0 || hidden > MAX_HIDDEN {
            return Err(ShapeError::Hidden(hidden));
        }
        let start = init.map_or(1, Network::buckets);
        let buckets = request.buckets.unwrap_or(start);
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(ShapeError::Buckets(buckets));
        } else if start != 1 && start != buckets {
            return Err(ShapeError::BucketsOfStart {
                asked: buckets,
                start,
            });
        }
        let start = init.map_or(1, Network::general_buckets);
        let fold = request.fold;
        let asked = request
            .general_buckets
            .unwrap_or(if fold { 1 } else { start });
        if fold && (asked != 1 || init.is_some_and(|n| start > 1 && !n.folded())) {
            return Err(ShapeError::Fold);
        } else if !(asked == 1 || asked == GENERAL_BUCKETS) || (asked < start && !fold) {
            return Err(ShapeError::GeneralBuckets { asked, start });
        } else if request.shared_rows && asked == 1 {
            return Err(ShapeError::SharedRows);
        }
        let start = init.map_or(0, Network::second_layer);
        let second = request.second_layer.unwrap_or(start);
        if second % 8 != 0 || second > MAX_SECOND_LAYER {
            return Err(ShapeError::SecondLayer(second));
        } else if start != 0 && start != second {
            return Err(ShapeError::SecondLayerOfStart {
                asked: second,
                start,
            });
        }
        Ok(TrainOptions {
            hidden,
            buckets,
            general_buckets: asked,
            shared_rows: request.shared_rows,
            fold,
            second_layer: second,
            ..self
        })
    }
}

/// The float network with AdamW's moments.
#[derive(Clone, Debug)]
struct Params {
    hidden: usize,
    buckets: usize,
    /// Sets of feature-transformer rows (1 or [`GENERAL_BUCKETS`]).
    generals: usize,
    /// Whether a shared set of rows follows the buckets' ([`TrainOptions::shared_rows`]).
    shared: bool,
    /// Whether one set of rows is folded by the general ([`TrainOptions::fold`]).
    fold: bool,
    /// The second layer's width (0 for none).
    second: usize,
    /// `generals x INPUTS x hidden` (then `INPUTS x hidden` shared), then `hidden` biases, then `buckets x 2 x hidden` output
    /// weights, then the `buckets` output biases, then the second layer's `second x 2 x
    /// hidden` weights, `second` biases and `second` output weights: one vector, so that
    /// the optimiser and the chunks' sums are one loop.
    w: Vec<f32>,
}

impl Params {
    fn len(hidden: usize, buckets: usize, generals: usize, shared: bool, second: usize) -> usize {
        (generals + usize::from(shared)) * INPUTS * hidden
            + hidden
            + buckets * (2 * hidden + 1)
            + second * (2 * hidden + 2)
    }
    /// The feature-transformer row of input `f` of a side with general bucket `gb`.
    #[inline(always)]
    fn row(&self, f: u16, (bucket, flipped): (usize, bool)) -> usize {
        let f = usize::from(f);
        if self.generals == 1 && !self.fold {
            return f;
        }
        let f = if flipped { flip_input(f) } else { f };
        if self.generals == 1 {
            return f;
        }
        bucket * INPUTS + f
    }
    /// The shared row of input `f` (see [`TrainOptions::shared_rows`]): folded as the
    /// bucket's row is.
    #[inline(always)]
    fn shared_row(&self, f: u16, (_, flipped): (usize, bool)) -> usize {
        let f = usize::from(f);
        self.generals * INPUTS + if flipped { flip_input(f) } else { f }
    }
    fn ft(&self) -> usize {
        0
    }
    /// The end of the buckets' rows (the shared set's start).
    fn ft_end(&self) -> usize {
        self.generals * INPUTS * self.hidden
    }
    fn ft_bias(&self) -> usize {
        (self.generals + usize::from(self.shared)) * INPUTS * self.hidden
    }
    /// Bucket 0's output weights.
    fn out(&self) -> usize {
        self.ft_bias() + self.hidden
    }
    /// Bucket 0's output bias.
    fn out_bias(&self) -> usize {
        self.out() + self.buckets * 2 * self.hidden
    }
    /// The second layer's weights (row by unit).
    fn l2(&self) -> usize {
        self.out_bias() + self.buckets
    }
    /// The second layer's biases.
    fn l2_bias(&self) -> usize {
        self.l2() + self.second * 2 * self.hidden
    }
    /// The second layer's output weights.
    fn l2_out(&self) -> usize {
        self.l2_bias() + self.second
    }
    /// The output weights and the bias of a sample's bucket.
    fn bucket_of(&self, s: &TrainSample) -> (usize, usize) {
        let b = output_bucket(usize::from(s.count), self.buckets);
        (self.out() + b * 2 * self.hidden, self.out_bias() + b)
    }
}

/// Trains a network (see the [module docs](self)).
#[derive(Debug)]
pub struct Trainer<'a> {
    train: Vec<&'a TrainSample>,
    held: Vec<&'a TrainSample>,
    options: TrainOptions,
    params: Params,
    m: Vec<f32>,
    v: Vec<f32>,
    step: u64,
    epoch: usize,
    k: f32,
    rng: SplitMix64,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The `K` for which `sigmoid(K x score)` predicts the results best (golden-section
/// search on the squared error).
pub fn fit_k(samples: &[TrainSample]) -> f32 {
    let error = |k: f64| -> f64 {
        samples
            .iter()
            .map(|s| {
                let p = 1.0 / (1.0 + (-k * f64::from(s.score)).exp());
                (p - f64::from(s.result)).powi(2)
            })
            .sum()
    };
    let (mut a, mut b) = (1e-4f64, 0.02f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if error(c) < error(d) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0) as f32
}

impl<'a> Trainer<'a> {
    /// A trainer on `samples` (a share held out, by the seed), starting from `init` or
    /// from seeded weights. A network of one bucket can start a trainer of more: each
    /// bucket starts as its output layer.
    ///
    /// # Panics
    /// If `init`'s width is not `options.hidden`, its buckets neither 1 nor
    /// `options.buckets`, its second layer neither none nor `options.second_layer` wide,
    /// the width not a multiple of 16, shared rows without general buckets or a fold with
    /// them, the buckets not 1 to [`MAX_BUCKETS`], or the second layer not 0 or a
    /// multiple of 8 up to [`MAX_SECOND_LAYER`]: what [`TrainOptions::with_shape`]
    /// checks first, with an error.
    pub fn new(
        samples: &'a [TrainSample],
        options: TrainOptions,
        init: Option<&Network>,
    ) -> Trainer<'a> {
        let h = options.hidden;
        let buckets = options.buckets;
        let generals = options.general_buckets;
        let shared = options.shared_rows;
        let fold = options.fold;
        let second = options.second_layer;
        assert!(h > 0 && h % 16 == 0, "the width must be a multiple of 16");
        assert!(
            second % 8 == 0 && second <= MAX_SECOND_LAYER,
            "a second layer 0 or a multiple of 8 up to {MAX_SECOND_LAYER} wide"
        );
        assert!(!shared || generals > 1, "shared rows need general buckets");
        assert!(!fold || generals == 1, "a fold is of one general bucket");
        assert!(
            generals == 1 || generals == GENERAL_BUCKETS,
            "1 or {GENERAL_BUCKETS} general buckets"
        );
        assert!(
            (1..=MAX_BUCKETS).contains(&buckets),
            "1 to {MAX_BUCKETS} output buckets"
        );
        let mut rng = SplitMix64::new(options.seed);
        let mut train = Vec::with_capacity(samples.len());
        let mut held = Vec::new();
        // A game's share is drawn from the seed and its number alone.
        let game_unit = |game: u32| {
            let mut g =
                SplitMix64::new(options.seed ^ u64::from(game).wrapping_mul(0x9e37_79b9_7f4a_7c15));
            g.unit()
        };
        for s in samples {
            let unit = if s.game == NO_GAME {
                rng.unit()
            } else {
                game_unit(s.game)
            };
            if unit < options.holdout {
                held.push(s);
            } else {
                train.push(s);
            }
        }
        let params = match init {
            Some(net) => {
                assert_eq!(net.hidden(), h, "the initial network's width");
                assert!(
                    net.buckets() == 1 || net.buckets() == buckets,
                    "the initial network's buckets"
                );
                assert!(
                    net.general_buckets() == 1 || net.general_buckets() == generals || fold,
                    "the initial network's general buckets"
                );
                assert!(
                    net.second_layer() == 0 || net.second_layer() == second,
                    "the initial network's second layer"
                );
                let mut p = dequantise(net, buckets, (generals, fold), shared, second);
                if net.second_layer() == 0 {
                    // Random weights, zero output weights: the start's own evaluation.
                    let scale = 1.0 / (2.0 * h as f32).sqrt();
                    let (from, to) = (p.l2(), p.l2_bias());
                    for x in &mut p.w[from..to] {
                        *x = (rng.unit() as f32 * 2.0 - 1.0) * scale;
                    }
                }
                p
            }
            None => {
                let mut w = vec![0f32; Params::len(h, buckets, generals, shared, second)];
                let p = Params {
                    hidden: h,
                    buckets,
                    generals,
                    shared,
                    fold,
                    second,
                    w: Vec::new(),
                };
                // With shared rows, they start random and the buckets' own rows at zero.
                let ft_scale = 1.0 / (MAX_PIECES as f32).sqrt();
                let random = if shared {
                    p.ft_end()..p.ft_bias()
                } else {
                    p.ft()..p.ft_bias()
                };
                for x in &mut w[random] {
                    *x = (rng.unit() as f32 * 2.0 - 1.0) * ft_scale;
                }
                let out_scale = 1.0 / (2.0 * h as f32).sqrt();
                for x in &mut w[p.out()..p.out_bias()] {
                    *x = (rng.unit() as f32 * 2.0 - 1.0) * out_scale;
                }
                for x in &mut w[p.l2()..p.l2_bias()] {
                    *x = (rng.unit() as f32 * 2.0 - 1.0) * out_scale;
                }
                Params {
                    hidden: h,
                    buckets,
                    generals,
                    shared,
                    fold,
                    second,
                    w,
                }
            }
        };
        let k = fit_k(samples);
        let n = params.w.len();
        Trainer {
            train,
            held,
            options,
            params,
            m: vec![0.0; n],
            v: vec![0.0; n],
            step: 0,
            epoch: 0,
            k,
            rng,
        }
    }

    /// The fitted `K` (see the [module docs](self)).
    pub fn k(&self) -> f32 {
        self.k
    }

    /// The network's shape in words: its width, then its output buckets and second layer
    /// when it has them.
    ///
    /// ```
    /// use xq_train::nnue::{TrainOptions, Trainer};
    /// let options = TrainOptions { hidden: 32, buckets: 4, second_layer: 8, ..TrainOptions::default() };
    /// let trainer = Trainer::new(&[], options, None);
    /// assert_eq!(trainer.shape(), "width 32, 4 output buckets, a second layer 8 wide");
    /// ```
    pub fn shape(&self) -> String {
        let p = &self.params;
        let mut text = format!("width {}", p.hidden);
        if p.buckets > 1 {
            text += &format!(", {} output buckets", p.buckets);
        }
        if p.second > 0 {
            text += &format!(", a second layer {} wide", p.second);
        }
        text
    }

    /// How many positions are trained on, and how many held out.
    pub fn sizes(&self) -> (usize, usize) {
        (self.train.len(), self.held.len())
    }

    /// The target of a sample.
    fn target(&self, s: &TrainSample) -> f32 {
        let w = self.options.wdl;
        w * s.result + (1.0 - w) * sigmoid(self.k * s.score)
    }

    /// The float network's score of a sample in centipawns (after the endgame scale),
    /// its two accumulators and the second layer's sums.
    fn forward(&self, s: &TrainSample, acc: &mut [Vec<f32>; 2], z: &mut [f32]) -> f32 {
        let p = &self.params;
        let h = p.hidden;
        for (side, (inputs, gb)) in s.sides().into_iter().enumerate() {
            let a = &mut acc[side];
            a.copy_from_slice(&p.w[p.ft_bias()..p.ft_bias() + h]);
            for &f in inputs {
                let r = p.row(f, gb);
                let row = &p.w[r * h..(r + 1) * h];
                for (x, &w) in a.iter_mut().zip(row) {
                    *x += w;
                }
                if p.shared {
                    let r = p.shared_row(f, gb);
                    for (x, &w) in a.iter_mut().zip(&p.w[r * h..(r + 1) * h]) {
                        *x += w;
                    }
                }
            }
        }
        let (out, bias) = p.bucket_of(s);
        let out = &p.w[out..out + 2 * h];
        let mut y = p.w[bias];
        for side in 0..2 {
            for (i, &x) in acc[side].iter().enumerate() {
                let c = x.clamp(0.0, 1.0);
                y += c * c * out[side * h + i];
            }
        }
        if p.second > 0 {
            let mut input = [0f32; 2 * MAX_HIDDEN];
            squared(acc, &mut input);
            let input = &input[..2 * h];
            for (j, zj) in z.iter_mut().enumerate().take(p.second) {
                let row = &p.w[p.l2() + j * 2 * h..p.l2() + (j + 1) * 2 * h];
                let sum = p.w[p.l2_bias() + j] + dot(input, row);
                *zj = sum;
                y += sum.clamp(0.0, 1.0) * p.w[p.l2_out() + j];
            }
        }
        y * SCALE as f32 * s.scale
    }

    /// The mean loss over `samples` with the current weights.
    pub fn loss(&self, samples: &[TrainSample]) -> f64 {
        let refs: Vec<&TrainSample> = samples.iter().collect();
        self.loss_of(&refs)
    }

    fn loss_of(&self, samples: &[&TrainSample]) -> f64 {
        if samples.is_empty() {
            return 0.0;
        }
        let h = self.params.hidden;
        let threads = self.options.threads.max(1);
        let per = samples.len().div_ceil(threads);
        let sums: Vec<f64> = std::thread::scope(|scope| {
            let handles: Vec<_> = samples
                .chunks(per)
                .map(|part| {
                    scope.spawn(move || {
                        let mut acc = [vec![0f32; h], vec![0f32; h]];
                        let mut z = [0f32; MAX_SECOND_LAYER];
                        part.iter()
                            .map(|s| {
                                let p = sigmoid(self.k * self.forward(s, &mut acc, &mut z));
                                f64::from((p - self.target(s)).powi(2))
                            })
                            .sum::<f64>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or(0.0))
                .collect()
        });
        sums.iter().sum::<f64>() / samples.len() as f64
    }

    /// The loss on the held-out part (0 when nothing is held out).
    pub fn held_out_loss(&self) -> f64 {
        self.loss_of(&self.held)
    }

    /// The loss on the trained part.
    pub fn train_loss(&self) -> f64 {
        self.loss_of(&self.train)
    }

    /// The gradient of a chunk's loss, added into `grad`.
    fn gradient(&self, chunk: &[&TrainSample], grad: &mut [f32]) {
        let p = &self.params;
        let h = p.hidden;
        let mut acc = [vec![0f32; h], vec![0f32; h]];
        let mut dacc = [vec![0f32; h], vec![0f32; h]];
        let mut z = [0f32; MAX_SECOND_LAYER];
        // The clipped and squared values, and the loss's gradient by each through the
        // second layer.
        let mut input = vec![0f32; 2 * h];
        let mut dinput = vec![0f32; 2 * h];
        for s in chunk {
            let e = self.forward(s, &mut acc, &mut z);
            let pr = sigmoid(self.k * e);
            // d loss / d y, with e = y x SCALE x scale.
            let d = 2.0 * (pr - self.target(s)) * pr * (1.0 - pr) * self.k * SCALE as f32 * s.scale;
            let (out, bias) = p.bucket_of(s);
            grad[bias] += d;
            dinput[..2 * h].iter_mut().for_each(|x| *x = 0.0);
            if p.second > 0 {
                squared(&acc, &mut input);
            }
            for (j, &zj) in z.iter().enumerate().take(p.second) {
                grad[p.l2_out() + j] += d * zj.clamp(0.0, 1.0);
                if zj <= 0.0 || zj >= 1.0 {
                    continue;
                }
                let dz = d * p.w[p.l2_out() + j];
                grad[p.l2_bias() + j] += dz;
                let at = p.l2() + j * 2 * h;
                let (g, w) = (&mut grad[at..at + 2 * h], &p.w[at..at + 2 * h]);
                for i in 0..2 * h {
                    g[i] += dz * input[i];
                    dinput[i] += dz * w[i];
                }
            }
            for side in 0..2 {
                for i in 0..h {
                    let x = acc[side][i];
                    let c = x.clamp(0.0, 1.0);
                    let w = p.w[out + side * h + i];
                    grad[out + side * h + i] += d * c * c;
                    dacc[side][i] = if x > 0.0 && x < 1.0 {
                        (d * w + dinput[side * h + i]) * 2.0 * c
                    } else {
                        0.0
                    };
                }
            }
            for (side, (inputs, gb)) in s.sides().into_iter().enumerate() {
                let da = &dacc[side];
                for (g, &x) in grad[p.ft_bias()..p.ft_bias() + h].iter_mut().zip(da) {
                    *g += x;
                }
                for &f in inputs {
                    let r = p.row(f, gb);
                    let row = &mut grad[r * h..(r + 1) * h];
                    for (g, &x) in row.iter_mut().zip(da) {
                        *g += x;
                    }
                    if p.shared {
                        let r = p.shared_row(f, gb);
                        for (g, &x) in grad[r * h..(r + 1) * h].iter_mut().zip(da) {
                            *g += x;
                        }
                    }
                }
            }
        }
    }

    /// The learning rate at the current epoch (cosine from `lr` to `lr / 10`).
    fn rate(&self) -> f32 {
        let total = self.options.epochs.max(1) as f32;
        let t = (self.epoch as f32 / total).min(1.0);
        let lo = self.options.lr / 10.0;
        lo + (self.options.lr - lo) * 0.5 * (1.0 + (std::f32::consts::PI * t).cos())
    }

    /// One pass over the trained part in a shuffled order, calling `progress(done,
    /// total)` after each batch.
    pub fn epoch(&mut self, mut progress: impl FnMut(usize, usize)) {
        // Shuffle (Fisher-Yates, seeded).
        let n = self.train.len();
        for i in (1..n).rev() {
            let j = self.rng.below(i as u64 + 1) as usize;
            self.train.swap(i, j);
        }
        let batch = self.options.batch.max(1);
        let lr = self.rate();
        let len = self.params.w.len();
        let threads = self.options.threads.max(1);
        let mut grads: Vec<Vec<f32>> = (0..CHUNKS).map(|_| vec![0f32; len]).collect();
        let mut done = 0;
        while done < n {
            let end = (done + batch).min(n);
            let part = &self.train[done..end];
            let per = part.len().div_ceil(CHUNKS);
            for g in &mut grads {
                g.iter_mut().for_each(|x| *x = 0.0);
            }
            // Chunk c is worked by thread c % threads; the sums are taken in chunk order.
            {
                let this = &*self;
                let mut slots: Vec<(usize, &mut Vec<f32>)> = grads.iter_mut().enumerate().collect();
                std::thread::scope(|scope| {
                    let mut by_thread: Vec<Vec<(usize, &mut Vec<f32>)>> =
                        (0..threads).map(|_| Vec::new()).collect();
                    for (c, g) in slots.drain(..) {
                        by_thread[c % threads].push((c, g));
                    }
                    for work in by_thread {
                        scope.spawn(move || {
                            for (c, g) in work {
                                let lo = (c * per).min(part.len());
                                let hi = ((c + 1) * per).min(part.len());
                                this.gradient(&part[lo..hi], g);
                            }
                        });
                    }
                });
            }
            let scale = 1.0 / part.len() as f32;
            let (first, rest) = grads.split_at_mut(1);
            for g in rest.iter() {
                for (a, &b) in first[0].iter_mut().zip(g) {
                    *a += b;
                }
            }
            self.apply(&first[0], scale, lr);
            done = end;
            progress(done, n);
        }
        self.epoch += 1;
    }

    /// An AdamW step with the summed gradient `g` (times `scale`).
    fn apply(&mut self, g: &[f32], scale: f32, lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.step += 1;
        let t = self.step as i32;
        let c1 = 1.0 - B1.powi(t);
        let c2 = 1.0 - B2.powi(t);
        let decay = self.options.weight_decay;
        for (((w, m), v), &g) in self
            .params
            .w
            .iter_mut()
            .zip(&mut self.m)
            .zip(&mut self.v)
            .zip(g)
        {
            let g = g * scale;
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            let update = (*m / c1) / ((*v / c2).sqrt() + EPS);
            *w -= lr * (update + decay * *w);
            *w = w.clamp(-CLIP, CLIP);
        }
    }

    /// The network quantised (see `xq_eval::nnue`).
    pub fn network(&self) -> Network {
        let p = &self.params;
        let h = p.hidden;
        let q = |x: f32, s: i32| (x * s as f32).round().clamp(-32767.0, 32767.0) as i16;
        let ft_weights = if p.shared {
            // Each bucket's row plus the shared row of the same (folded) input.
            let shared = &p.w[p.ft_end()..p.ft_bias()];
            p.w[p.ft()..p.ft_end()]
                .chunks_exact(INPUTS * h)
                .flat_map(|bucket| bucket.iter().zip(shared).map(|(&b, &s)| q(b + s, QA)))
                .collect()
        } else {
            let sets = if p.fold { GENERAL_BUCKETS } else { 1 };
            let rows = &p.w[p.ft()..p.ft_bias()];
            (0..sets)
                .flat_map(|_| rows.iter().map(|&x| q(x, QA)))
                .collect()
        };
        let ft_biases = p.w[p.ft_bias()..p.out()]
            .iter()
            .map(|&x| q(x, QA))
            .collect();
        let out_weights = p.w[p.out()..p.out_bias()]
            .iter()
            .map(|&x| q(x, QB))
            .collect();
        let out_biases = p.w[p.out_bias()..p.l2()]
            .iter()
            .map(|&x| (x * (QA * QB) as f32).round() as i32)
            .collect();
        let net = Network::from_parts(h, ft_weights, ft_biases, out_weights, out_biases);
        if p.second == 0 {
            return net;
        }
        net.with_second_layer(
            p.w[p.l2()..p.l2_bias()].iter().map(|&x| q(x, QL)).collect(),
            p.w[p.l2_bias()..p.l2_out()]
                .iter()
                .map(|&x| (x * (QA * QL) as f32).round() as i32)
                .collect(),
            p.w[p.l2_out()..].iter().map(|&x| q(x, QB)).collect(),
        )
    }

    /// The float network's score of `pos`, side to move's view, centipawns (to compare
    /// with the quantised network's).
    pub fn float_eval(&self, pos: &Position) -> f32 {
        let mut s = TrainSample::new(pos, 0, 0.5);
        s.scale = 1.0;
        let h = self.params.hidden;
        let mut acc = [vec![0f32; h], vec![0f32; h]];
        let mut z = [0f32; MAX_SECOND_LAYER];
        let us = pos.side_to_move();
        // The endgame scale of the score's own sign, as the evaluation applies it.
        let red = self.forward(&s, &mut acc, &mut z) * us.sign() as f32;
        let scale = endgame::scale(pos, red as i32) as f32 / SCALE_MAX as f32;
        red * scale * us.sign() as f32
    }
}

/// The dot product of `a` and `b` (of a length that is a multiple of 8), summed in 8
/// lanes so that the compiler can vectorise it (a float sum in one order cannot be).
#[inline(always)]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0f32; 8];
    for (a, b) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        for i in 0..8 {
            lanes[i] += a[i] * b[i];
        }
    }
    lanes.iter().sum()
}

/// The accumulators' values clipped to `[0, 1]` and squared, the side to move's first:
/// the output's and the second layer's inputs.
fn squared(acc: &[Vec<f32>; 2], input: &mut [f32]) {
    for (x, &a) in input.iter_mut().zip(acc[0].iter().chain(&acc[1])) {
        *x = a.clamp(0.0, 1.0).powi(2);
    }
}

/// Input `f` (a piece of a kind and colour on a square) with its square flipped left to
/// right.
fn flip_input(f: usize) -> usize {
    let (block, sq) = (f / Square::COUNT, f % Square::COUNT);
    let sq = Square::from_index(sq).map_or(sq, |s| s.flip_horizontal().index());
    block * Square::COUNT + sq
}

/// The float weights of a quantised network, with `buckets` output buckets (its own, or
/// its one output layer copied into each) and `generals` general buckets (its own, or
/// its one set of rows copied into each). With `shared` rows, a network of one set puts
/// it in the shared rows and zeros in the buckets', and a network of `generals` sets
/// keeps them in the buckets' rows with zeros shared: either way the same float network.
/// A second layer `second` wide is the network's own, or zeros when it has none. With
/// `fold` (and one general bucket), the rows are the network's one set, or the first of
/// its six (a folded network's six are the same).
fn dequantise(
    net: &Network,
    buckets: usize,
    (generals, fold): (usize, bool),
    shared: bool,
    second: usize,
) -> Params {
    let h = net.hidden();
    let copies = buckets / net.buckets();
    let mut w = Vec::with_capacity(Params::len(h, buckets, generals, shared, second));
    let rows = || net.ft_weights().iter().map(|&x| f32::from(x) / QA as f32);
    if fold {
        w.extend(rows().take(INPUTS * h));
    } else if shared && net.general_buckets() == 1 {
        w.resize(generals * INPUTS * h, 0.0);
        w.extend(rows());
    } else {
        for _ in 0..generals / net.general_buckets() {
            w.extend(rows());
        }
        if shared {
            w.resize(w.len() + INPUTS * h, 0.0);
        }
    }
    w.extend(net.ft_biases().iter().map(|&x| f32::from(x) / QA as f32));
    for _ in 0..copies {
        w.extend(net.out_weights().iter().map(|&x| f32::from(x) / QB as f32));
    }
    for _ in 0..copies {
        w.extend(
            net.out_biases()
                .iter()
                .map(|&x| x as f32 / (QA * QB) as f32),
        );
    }
    if net.second_layer() == 0 {
        w.resize(w.len() + second * (2 * h + 2), 0.0);
    } else {
        w.extend(
            net.second_layer_weights()
                .iter()
                .map(|&x| f32::from(x) / QL as f32),
        );
        w.extend(
            net.second_layer_biases()
                .iter()
                .map(|&x| x as f32 / (QA * QL) as f32),
        );
        w.extend(
            net.second_layer_out()
                .iter()
                .map(|&x| f32::from(x) / QB as f32),
        );
    }
    Params {
        hidden: h,
        buckets,
        generals,
        shared,
        fold,
        second,
        w,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xq_eval::nnue::Accumulator;

    fn samples() -> Vec<TrainSample> {
        let mut out = Vec::new();
        for (n, fen) in xq_testkit::start_fens().into_iter().enumerate() {
            let choices: Vec<u16> = (0..40u16)
                .map(|i| i.wrapping_mul(7919).wrapping_add(n as u16))
                .collect();
            for pos in xq_testkit::play(fen, &choices) {
                // A score and a result that follow the classical evaluation, as a
                // stand-in for self-play.
                let e = xq_eval::evaluate(&pos);
                let result = if e > 200 {
                    1.0
                } else if e < -200 {
                    0.0
                } else {
                    0.5
                };
                out.push(TrainSample::new(&pos, e, result));
            }
        }
        out
    }

    /// An untrained one-set network, 32 wide, to start general buckets from.
    fn one_set(data: &[TrainSample]) -> Network {
        let options = TrainOptions {
            hidden: 32,
            ..TrainOptions::default()
        };
        Trainer::new(data, options, None).network()
    }

    /// The largest gap in centipawns between the quantised network and the float one on
    /// the start positions, with that position.
    fn worst_rounding(t: &Trainer<'_>) -> (f32, String) {
        let net = t.network();
        let mut worst = (0f32, String::new());
        for fen in xq_testkit::start_fens() {
            let pos = Position::from_fen(fen).unwrap();
            let q = net.evaluate(&pos, &Accumulator::new(&net, &pos)) as f32;
            let d = (q - t.float_eval(&pos)).abs();
            if d > worst.0 {
                worst = (d, pos.to_fen());
            }
        }
        worst
    }

    #[test]
    fn training_lowers_the_held_out_loss_and_the_same_seed_gives_the_same_net() {
        let data = samples();
        assert!(data.len() > 1000, "{}", data.len());
        let options = TrainOptions {
            hidden: 16,
            batch: 256,
            holdout: 0.2,
            epochs: 8,
            lr: 0.01,
            ..TrainOptions::default()
        };
        let run = |threads| {
            let mut t = Trainer::new(
                &data,
                TrainOptions {
                    threads,
                    ..options.clone()
                },
                None,
            );
            let before = t.held_out_loss();
            for _ in 0..8 {
                t.epoch(|_, _| {});
            }
            (before, t.held_out_loss(), t.network())
        };
        let (before, after, net1) = run(1);
        assert!(after < before * 0.8, "{before} -> {after}");
        // Another thread count: the same network.
        let (_, _, net2) = run(2);
        assert_eq!(net1, net2);
    }

    #[test]
    fn a_mirrored_sample_is_the_sample_of_the_mirrored_position() {
        let mut asymmetric = 0;
        for (n, fen) in xq_testkit::start_fens().into_iter().enumerate() {
            let choices: Vec<u16> = (0..30u16).map(|i| i * 31 + n as u16).collect();
            for pos in xq_testkit::play(fen, &choices) {
                let sample = TrainSample::new(&pos, 57, 0.5);
                let mirrored = sample.flip_horizontal();
                assert_eq!(
                    mirrored,
                    TrainSample::new(&pos.flip_horizontal(), 57, 0.5),
                    "{}",
                    pos.to_fen()
                );
                assert_eq!(mirrored.flip_horizontal(), sample);
                asymmetric += usize::from(mirrored != sample);
            }
        }
        // Most positions are not their own mirror: the test compared real changes.
        assert!(asymmetric > 100, "{asymmetric}");
    }

    #[test]
    fn training_data_numbers_every_game_and_leaves_out_decided_scores() {
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 b").unwrap();
        let sample = |score| Sample {
            pos: pos.clone(),
            score,
            result: 1.0,
        };
        let first = [sample(200), sample(MAX_SCORE + 1), sample(-MAX_SCORE)];
        let third = [sample(50)];
        let mut data = TrainingData::new();
        data.push_game(&first);
        data.push_game(&[]);
        data.push_game(&third);
        assert_eq!(data.games, 3);
        let (a, c) = (game_number(&first), game_number(&third));
        assert_ne!(a, c);
        // Black to move: Red's +200 and a Red win are -200 and a loss for Black.
        assert_eq!(
            data.samples,
            [
                TrainSample::new(&pos, -200, 0.0).in_game(a),
                TrainSample::new(&pos, MAX_SCORE, 0.0).in_game(a),
                TrainSample::new(&pos, -50, 0.0).in_game(c),
            ]
        );
        data.add_horizontal_flips();
        assert_eq!(data.samples.len(), 6);
        assert_eq!(data.samples[5], data.samples[2].flip_horizontal());
        assert_eq!(data.samples[5].game, c);
    }

    /// The held-out games are the same whatever order the games are read in and
    /// whatever other games come with them (`xq train data/*` after a new round's file).
    #[test]
    fn the_held_out_games_do_not_depend_on_the_order_or_the_other_files() {
        // 40 games of 25 moves from the start, each its own line of play.
        let games: Vec<Vec<Sample>> = (0..40u16)
            .map(|g| {
                let choices: Vec<u16> = (0..25u16)
                    .map(|i| i.wrapping_mul(31).wrapping_add(g * 7))
                    .collect();
                xq_testkit::play(xq_testkit::start_fens()[0], &choices)
                    .into_iter()
                    .map(|pos| Sample {
                        score: xq_eval::evaluate(&pos),
                        pos,
                        result: 0.5,
                    })
                    .collect()
            })
            .collect();
        let options = TrainOptions {
            hidden: 16,
            holdout: 0.3,
            ..TrainOptions::default()
        };
        let held = |games: &mut dyn Iterator<Item = &Vec<Sample>>| {
            let mut data = TrainingData::new();
            for game in games {
                data.push_game(game);
            }
            let t = Trainer::new(&data.samples, options.clone(), None);
            t.held
                .iter()
                .map(|s| s.game)
                .collect::<std::collections::BTreeSet<u32>>()
        };
        let forward = held(&mut games.iter());
        assert!(
            (5..=20).contains(&forward.len()),
            "{} games held out",
            forward.len()
        );
        assert_eq!(held(&mut games.iter().rev()), forward);
        // The first half alone holds out the same games of its own.
        let first_half: std::collections::BTreeSet<u32> =
            games[..20].iter().map(|g| game_number(g)).collect();
        assert_eq!(first_half.len(), 20);
        let expected = forward.intersection(&first_half).copied().collect();
        assert_eq!(held(&mut games[..20].iter()), expected);
    }

    #[test]
    fn samples_that_say_their_game_are_held_out_game_by_game() {
        // 40 games of 25 positions each.
        let data: Vec<TrainSample> = samples()
            .into_iter()
            .take(1000)
            .enumerate()
            .map(|(i, s)| s.in_game((i / 25) as u32))
            .collect();
        let options = TrainOptions {
            hidden: 16,
            holdout: 0.3,
            ..TrainOptions::default()
        };
        let t = Trainer::new(&data, options.clone(), None);
        let held: std::collections::BTreeSet<u32> = t.held.iter().map(|s| s.game).collect();
        let trained: std::collections::BTreeSet<u32> = t.train.iter().map(|s| s.game).collect();
        assert!(held.is_disjoint(&trained), "a game on both sides");
        assert_eq!(held.len() + trained.len(), 40);
        assert_eq!(t.held.len(), 25 * held.len());
        assert!(
            (5..=20).contains(&held.len()),
            "{} games held out",
            held.len()
        );
        // The same games for the same seed, others for another.
        let again = Trainer::new(&data, options.clone(), None);
        assert_eq!(again.held, t.held);
        let other = Trainer::new(&data, TrainOptions { seed: 2, ..options }, None);
        assert_ne!(other.held, t.held);
    }

    #[test]
    fn a_one_bucket_network_starts_every_bucket_and_the_buckets_then_train_apart() {
        let data = samples();
        let options = TrainOptions {
            hidden: 16,
            batch: 256,
            epochs: 2,
            lr: 0.01,
            ..TrainOptions::default()
        };
        let mut t = Trainer::new(&data, options.clone(), None);
        t.epoch(|_, _| {});
        let one = t.network();
        let bucketed = TrainOptions {
            buckets: 8,
            ..options
        };
        let mut t = Trainer::new(&data, bucketed, Some(&one));
        let eight = t.network();
        assert_eq!(eight.buckets(), 8);
        // Every bucket a copy of the one output layer: the same evaluations.
        let mut counts = std::collections::BTreeSet::new();
        for s in &data {
            counts.insert(s.count);
        }
        assert!(counts.len() > 5, "{counts:?}");
        for fen in xq_testkit::start_fens() {
            for pos in xq_testkit::play(fen, &(0..40u16).map(|i| i * 13).collect::<Vec<_>>()) {
                let a = one.evaluate(&pos, &Accumulator::new(&one, &pos));
                let b = eight.evaluate(&pos, &Accumulator::new(&eight, &pos));
                assert_eq!(a, b, "{}", pos.to_fen());
            }
        }
        // Trained, the buckets the data reaches part ways, and the float and quantised
        // networks still agree.
        t.epoch(|_, _| {});
        let net = t.network();
        let h = 16;
        let layer = |b: usize| &net.out_weights()[b * 2 * h..(b + 1) * 2 * h];
        let reached: Vec<usize> = counts
            .iter()
            .map(|&c| output_bucket(usize::from(c), 8))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        assert!(reached.len() >= 2, "{reached:?}");
        assert_ne!(layer(reached[0]), layer(reached[reached.len() - 1]));
        for fen in xq_testkit::start_fens() {
            let pos = Position::from_fen(fen).unwrap();
            let q = net.evaluate(&pos, &Accumulator::new(&net, &pos)) as f32;
            assert!((q - t.float_eval(&pos)).abs() < 15.0, "{fen}");
        }
        // Written and read back, the same network.
        assert_eq!(Network::from_bytes(&net.to_bytes()), Ok(net));
    }

    #[test]
    fn the_quantised_network_agrees_with_the_float_one() {
        let data = samples();
        let options = TrainOptions {
            hidden: 32,
            batch: 256,
            epochs: 4,
            lr: 0.01,
            ..TrainOptions::default()
        };
        let mut t = Trainer::new(&data, options, None);
        for _ in 0..4 {
            t.epoch(|_, _| {});
        }
        let net = t.network();
        // Rounding the weights moves the score by a few centipawns at most.
        let worst = worst_rounding(&t);
        assert!(worst.0 < 15.0, "{worst:?}");
        // Starting from the quantised network gives the same network back.
        let again = Trainer::new(
            &data,
            TrainOptions {
                hidden: 32,
                ..TrainOptions::default()
            },
            Some(&net),
        );
        assert_eq!(again.network(), net);
    }

    #[test]
    fn a_second_layer_starts_as_the_network_given_trains_and_quantises_as_the_float_net() {
        let data = samples();
        let one = one_set(&data);
        let options = TrainOptions {
            hidden: 32,
            second_layer: 16,
            batch: 256,
            lr: 0.01,
            epochs: 4,
            ..TrainOptions::default()
        };
        let mut t = Trainer::new(&data, options.clone(), Some(&one));
        // At the start the second layer's output weights are zero: the network given,
        // with a second layer that changes nothing.
        let start = t.network();
        assert_eq!(start.second_layer(), 16);
        assert!(start.second_layer_out().iter().all(|&w| w == 0));
        assert!(start.second_layer_weights().iter().any(|&w| w != 0));
        let choices: Vec<u16> = (0..40u16).map(|i| i.wrapping_mul(7919)).collect();
        for fen in xq_testkit::start_fens() {
            for pos in xq_testkit::play(fen, &choices) {
                let (a, b) = (Accumulator::new(&one, &pos), Accumulator::new(&start, &pos));
                assert_eq!(start.evaluate(&pos, &b), one.evaluate(&pos, &a));
            }
        }
        let before = t.loss(&data);
        for _ in 0..4 {
            t.epoch(|_, _| {});
        }
        assert!(t.loss(&data) < before);
        let net = t.network();
        // The second layer learnt: its output weights moved.
        assert!(net.second_layer_out().iter().filter(|&&w| w != 0).count() > 8);
        let worst = worst_rounding(&t);
        assert!(worst.0 < 15.0, "{worst:?}");
        // Written and read back, then given as the start: the same network.
        let back = Network::from_bytes(&net.to_bytes()).unwrap();
        assert_eq!(back, net);
        assert_eq!(Trainer::new(&data, options, Some(&back)).network(), net);
    }

    #[test]
    fn the_gradient_through_the_second_layer_is_the_loss_s_slope() {
        let data: Vec<TrainSample> = samples().into_iter().step_by(7).take(24).collect();
        let options = TrainOptions {
            hidden: 16,
            second_layer: 8,
            holdout: 0.0,
            ..TrainOptions::default()
        };
        let mut t = Trainer::new(&data, options, None);
        // Output weights away from zero, so that every path carries a gradient, and the
        // second layer's sums near 0.5, away from the clip's corners (where the slope of
        // a finite difference is not the gradient).
        let mut rng = SplitMix64::new(3);
        let (from, to) = (t.params.l2_out(), t.params.w.len());
        for x in &mut t.params.w[from..to] {
            *x = rng.unit() as f32 - 0.5;
        }
        let (from, to) = (t.params.l2_bias(), t.params.l2_out());
        t.params.w[from..to].iter_mut().for_each(|x| *x = 0.5);
        let refs: Vec<&TrainSample> = data.iter().collect();
        let mut grad = vec![0f32; t.params.w.len()];
        t.gradient(&refs, &mut grad);
        let p = &t.params;
        let feature_row = usize::from(data[0].inputs[0][0]) * 16;
        let mut checked = 0;
        for i in (p.l2()..p.l2() + 40)
            .chain(p.l2_bias()..p.l2_out())
            .chain(p.l2_out()..p.w.len())
            .chain(p.out()..p.out() + 8)
            .chain(feature_row..feature_row + 16)
        {
            let eps = 1e-3;
            let at = |t: &mut Trainer<'_>, x: f32| {
                t.params.w[i] = x;
                t.loss_of(&refs) * refs.len() as f64
            };
            let w = t.params.w[i];
            let slope = (at(&mut t, w + eps) - at(&mut t, w - eps)) / (2.0 * f64::from(eps));
            t.params.w[i] = w;
            let g = f64::from(grad[i]);
            if slope.abs().max(g.abs()) > 1e-4 {
                checked += 1;
                assert!(
                    (slope - g).abs() <= 0.05 * slope.abs().max(g.abs()) + 1e-5,
                    "weight {i}: gradient {g}, slope {slope}"
                );
            }
        }
        assert!(checked > 30, "only {checked} weights had a slope");
    }

    #[test]
    fn shared_rows_start_as_the_one_set_train_with_every_bucket_and_are_written_summed() {
        let data = samples();
        let one = one_set(&data);
        let options = |shared_rows| TrainOptions {
            hidden: 32,
            general_buckets: GENERAL_BUCKETS,
            shared_rows,
            batch: 256,
            lr: 0.003,
            ..TrainOptions::default()
        };
        let plain = Trainer::new(&data, options(false), Some(&one));
        let mut shared = Trainer::new(&data, options(true), Some(&one));
        // The one set goes into the shared rows and zeros into the buckets': the same
        // network as one copied into each bucket, before training.
        assert_eq!(shared.params.w.len(), plain.params.w.len() + INPUTS * 32);
        assert_eq!(shared.network(), plain.network());
        assert_eq!(shared.held_out_loss(), plain.held_out_loss());
        // Training moves the shared rows and the buckets' own; the written network has
        // their sums, so it evaluates as the float network does.
        let before = shared.params.w.clone();
        for _ in 0..2 {
            shared.epoch(|_, _| {});
        }
        let p = &shared.params;
        let moved = |range: std::ops::Range<usize>| range.filter(|&i| p.w[i] != before[i]).count();
        assert!(moved(p.ft_end()..p.ft_bias()) > 1000);
        assert!(moved(p.ft()..p.ft_end()) > 1000);
        let net = shared.network();
        assert_eq!(net.general_buckets(), GENERAL_BUCKETS);
        let worst = worst_rounding(&shared);
        assert!(worst.0 < 15.0, "{worst:?}");
        // A network of six sets keeps them in the buckets' rows, with zeros shared.
        let again = Trainer::new(&data, options(true), Some(&net));
        assert_eq!(again.network(), net);
    }

    #[test]
    fn general_buckets_start_from_one_set_of_rows_and_quantise_as_the_float_net() {
        let data = samples();
        let one = one_set(&data);
        let options = TrainOptions {
            hidden: 32,
            general_buckets: GENERAL_BUCKETS,
            batch: 256,
            lr: 0.003,
            ..TrainOptions::default()
        };
        let mut t = Trainer::new(&data, options.clone(), Some(&one));
        let six = t.network();
        assert_eq!(six.general_buckets(), GENERAL_BUCKETS);
        // Each bucket starts as the one set of rows: where no general stands on the
        // f-file (no flip), the two networks agree.
        let mut compared = 0;
        for fen in xq_testkit::start_fens() {
            let pos = Position::from_fen(fen).unwrap();
            let on_f = |c: Color| {
                pos.squares_of(xq_core::Piece::new(c, xq_core::PieceKind::General))
                    .any(|sq| sq.file().index() == 5)
            };
            if on_f(Color::Red) || on_f(Color::Black) {
                continue;
            }
            let a = one.evaluate(&pos, &Accumulator::new(&one, &pos));
            let b = six.evaluate(&pos, &Accumulator::new(&six, &pos));
            assert_eq!(a, b, "{pos}");
            compared += 1;
        }
        assert!(compared > 10);
        // The quantised network is the float one, to the rounding of its weights.
        let worst = worst_rounding(&t);
        assert!(worst.0 < 2.0, "{worst:?}");
        for _ in 0..3 {
            t.epoch(|_, _| {});
        }
        let worst = worst_rounding(&t);
        assert!(worst.0 < 15.0, "{worst:?}");
        // A sample flipped left to right flips its generals too.
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4A4/5K3 w").unwrap();
        let flipped = TrainSample::new(&pos, 0, 0.5).flip_horizontal();
        assert_eq!(flipped, TrainSample::new(&pos.flip_horizontal(), 0, 0.5));
    }

    #[test]
    fn shapes_are_checked_against_the_start_network() {
        let ask = |request: ShapeRequest, init: Option<&Network>| {
            TrainOptions::default().with_shape(&request, init)
        };
        let none = ShapeRequest::default();
        let fold = ShapeRequest { fold: true, ..none };
        let one = Network::seeded(32, 1);
        let six = Network::seeded_with_general_buckets(32, 1);
        let options = ask(none, None).unwrap();
        assert_eq!(options, TrainOptions::default());
        let options = ask(none, Some(&six)).unwrap();
        assert_eq!((options.hidden, options.general_buckets), (32, 6));
        let options = ask(fold, Some(&one)).unwrap();
        assert_eq!((options.general_buckets, options.fold), (1, true));
        assert_eq!(ask(fold, Some(&six)), Err(ShapeError::Fold));
        let folded = ShapeRequest {
            fold: true,
            general_buckets: Some(6),
            ..none
        };
        assert_eq!(ask(folded, None), Err(ShapeError::Fold));
        let fewer = ShapeRequest {
            general_buckets: Some(1),
            ..none
        };
        let error = ShapeError::GeneralBuckets { asked: 1, start: 6 };
        assert_eq!(ask(fewer, Some(&six)), Err(error));
        let shared = ShapeRequest {
            shared_rows: true,
            ..none
        };
        assert_eq!(ask(shared, Some(&one)), Err(ShapeError::SharedRows));
        let hidden = ShapeRequest {
            hidden: Some(24),
            ..none
        };
        assert_eq!(ask(hidden, None), Err(ShapeError::Hidden(24)));
        let second = ShapeRequest {
            second_layer: Some(40),
            ..none
        };
        assert_eq!(ask(second, None), Err(ShapeError::SecondLayer(40)));
        let buckets = ShapeRequest {
            buckets: Some(8),
            ..none
        };
        assert_eq!(ask(buckets, Some(&one)).unwrap().buckets, 8);
    }

    #[test]
    fn a_fold_trains_one_set_written_six_times_that_starts_six_buckets_as_itself() {
        let data = samples();
        let one = one_set(&data);
        let options = TrainOptions {
            hidden: 32,
            fold: true,
            batch: 256,
            lr: 0.003,
            ..TrainOptions::default()
        };
        let mut t = Trainer::new(&data, options.clone(), Some(&one));
        for _ in 0..2 {
            t.epoch(|_, _| {});
        }
        let folded = t.network();
        assert_eq!(folded.general_buckets(), GENERAL_BUCKETS);
        let rows = folded.ft_weights();
        let set = rows.len() / GENERAL_BUCKETS;
        assert!(rows.chunks_exact(set).all(|b| b == &rows[..set]));
        let worst = worst_rounding(&t);
        assert!(worst.0 < 15.0, "{worst:?}");
        // Both generals off the middle file: each side sees its general on the d-file,
        // so the position and its flip left to right are one position to the network
        // (not to the one-set network it started from).
        let eval = |net: &Network, pos: &Position| net.evaluate(pos, &Accumulator::new(net, pos));
        let mut differ = 0;
        for fen in [
            "3k5/4a4/9/9/2b6/9/9/4B1R2/9/5K3 w",
            "5k3/9/3a5/2p6/9/6P2/9/4C4/9/3K5 b",
            "2b2k3/9/9/9/9/9/3n5/9/4A4/3K1A3 w",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let flipped = pos.flip_horizontal();
            assert_eq!(eval(&folded, &pos), eval(&folded, &flipped), "{pos}");
            differ += usize::from(eval(&one, &pos) != eval(&one, &flipped));
        }
        assert!(differ > 0);
        // Six buckets started from it evaluate as it does, and so does a fold that
        // goes on from it.
        let six = TrainOptions {
            fold: false,
            general_buckets: GENERAL_BUCKETS,
            ..options.clone()
        };
        assert_eq!(Trainer::new(&data, six, Some(&folded)).network(), folded);
        assert_eq!(
            Trainer::new(&data, options, Some(&folded)).network(),
            folded
        );
    }
}
