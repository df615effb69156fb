//! How good was a move: the judgement of `xq annotate`, of the analysis board's score
//! graph and of Python's `xq.annotate`, in one place.
//!
//! Every position of a game is searched once, to the same limit. The best score of a
//! position is its own search; the score of the move played is the search of the
//! position after it, seen from the mover's side. The **loss** of a move is best minus
//! played, never below 0, and 0 for the move the search itself found best; by its loss a
//! move is an inaccuracy (`?!`), a mistake (`?`) or a blunder (`??`), or none of them.
//!
//! The loss is measured in one of two ways ([`Measure`]):
//!
//! - **Centipawns** ([`Measure::Cp`]): both scores are first clamped to ±[`CAP`] (a mate
//!   counts as the cap): a side already more than a chariot up loses nothing by winning
//!   more slowly. [`INACCURACY`], [`MISTAKE`] and [`BLUNDER`] centipawns; on this scale a
//!   soldier is 60-200, a horse about 400, a chariot 900.
//! - **Expected result** ([`Measure::Wdl`]): each score becomes the chances of a win, a draw
//!   and a loss by the model of [`wdl`](xq_search::wdl::MODEL) (at the material of the position it
//!   belongs to), and the loss is the mover's expected result (a win 1000, a draw 500 per
//!   mille) after the best move minus after the move played. [`WDL_INACCURACY`],
//!   [`WDL_MISTAKE`] and [`WDL_BLUNDER`] per mille (5, 10 and 15 points of expected result,
//!   as the win-chance thresholds of Lichess). A move that throws away a chariot in a
//!   position already lost, or already won twice over, then costs little, and the same
//!   centipawns cost most where the game is in the balance. A mate is a certain result.
//!
//! ```
//! use xq_core::Position;
//! use xq_analysis::judge::{Class, Judge, Measure, Searched};
//! use xq_search::Score;
//!
//! // Red leaves its chariot where Black's takes it: from about level (the search of the
//! // start position) to a chariot down (the search after the move, Black's view).
//! let start = Position::from_fen("3k4r/9/9/9/9/9/9/9/R8/4K4 w").unwrap();
//! let moves = ["a1i1".parse().unwrap()];
//! let searched = [
//!     Searched { score: Score::Cp(20), best: Some("a1a9".parse().unwrap()) },
//!     Searched { score: Score::Cp(950), best: Some("i9i1".parse().unwrap()) },
//! ];
//! let verdicts = Judge::new(Measure::Cp).line(&start, &moves, &searched).unwrap();
//! assert_eq!(verdicts[0].loss, 970); // 20 - (-950)
//! assert_eq!(verdicts[0].class, Some(Class::Blunder));
//! assert_eq!(Class::Blunder.glyph(), "??");
//! // By the expected result, the same move costs most of the game.
//! let by_wdl = Judge::new(Measure::Wdl).line(&start, &moves, &searched).unwrap();
//! assert_eq!(by_wdl[0].class, Some(Class::Blunder));
//! assert!(by_wdl[0].loss > 300);
//! ```

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use xq_core::{Color, Move, Position};
use xq_movegen::{try_play, Game, IllegalMoveError};
use xq_search::score;
use xq_search::tt::TableError;
use xq_search::wdl::{self, Wdl, WdlModel};
use xq_search::{Limits, Score, Searcher};
use xq_tablebase::{TableValue, Tablebases};

/// Scores are clamped to this (centipawns) before losses in centipawns are taken.
pub const CAP: i32 = 1000;
/// A loss of at least this many centipawns is an inaccuracy.
pub const INACCURACY: i32 = 50;
/// A loss of at least this many centipawns is a mistake.
pub const MISTAKE: i32 = 100;
/// A loss of at least this many centipawns is a blunder.
pub const BLUNDER: i32 = 200;
/// By the expected result, a loss of at least this much (per mille) is an inaccuracy.
pub const WDL_INACCURACY: i32 = 50;
/// By the expected result, a loss of at least this much (per mille) is a mistake.
pub const WDL_MISTAKE: i32 = 100;
/// By the expected result, a loss of at least this much (per mille) is a blunder.
pub const WDL_BLUNDER: i32 = 150;

/// What a move's loss is measured in.
///
/// ```
/// use xq_analysis::judge::Measure;
/// assert_eq!("wdl".parse(), Ok(Measure::Wdl));
/// assert_eq!(Measure::Cp.to_string(), "cp");
/// assert_eq!(Measure::Wdl.thresholds(), [50, 100, 150]);
/// assert!("pawns".parse::<Measure>().is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Measure {
    /// Centipawns, scores clamped to ±[`CAP`].
    #[default]
    Cp,
    /// The expected result by the win/draw/loss model, per mille.
    Wdl,
}

impl Measure {
    /// Both measures.
    pub const ALL: [Measure; 2] = [Measure::Cp, Measure::Wdl];

    /// The least losses of an inaccuracy, a mistake and a blunder.
    pub const fn thresholds(self) -> [i32; 3] {
        match self {
            Measure::Cp => [INACCURACY, MISTAKE, BLUNDER],
            Measure::Wdl => [WDL_INACCURACY, WDL_MISTAKE, WDL_BLUNDER],
        }
    }

    /// The name: `cp` or `wdl`.
    pub const fn name(self) -> &'static str {
        match self {
            Measure::Cp => "cp",
            Measure::Wdl => "wdl",
        }
    }
}

impl fmt::Display for Measure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of reading a [`Measure`]: the name is neither `cp` nor `wdl`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownMeasure {
    /// The name given.
    pub name: String,
}

impl fmt::Display for UnknownMeasure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown measure {:?} (cp or wdl)", self.name)
    }
}

impl std::error::Error for UnknownMeasure {}

impl FromStr for Measure {
    type Err = UnknownMeasure;

    fn from_str(s: &str) -> Result<Measure, UnknownMeasure> {
        Measure::ALL
            .into_iter()
            .find(|m| m.name() == s.trim())
            .ok_or_else(|| UnknownMeasure {
                name: s.to_string(),
            })
    }
}

/// How bad a move was.
///
/// ```
/// use xq_analysis::judge::{Class, Measure};
/// assert_eq!(Class::of(49, Measure::Cp), None);
/// assert_eq!(Class::of(150, Measure::Cp), Some(Class::Mistake));
/// assert_eq!(Class::of(150, Measure::Wdl), Some(Class::Blunder));
/// assert_eq!((Class::Mistake.name(), Class::Mistake.glyph(), Class::Mistake.nag()), ("mistake", "?", 2));
/// assert_eq!(Class::Blunder.title(), "Blunder");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// A loss from the first threshold to the second.
    Inaccuracy,
    /// A loss from the second threshold to the third.
    Mistake,
    /// A loss of the third threshold or more.
    Blunder,
}

impl Class {
    /// The three classes, mildest first.
    pub const ALL: [Class; 3] = [Class::Inaccuracy, Class::Mistake, Class::Blunder];

    /// The class of a loss measured by `measure`, if any.
    pub fn of(loss: i32, measure: Measure) -> Option<Class> {
        let [inaccuracy, mistake, blunder] = measure.thresholds();
        match loss {
            l if l >= blunder => Some(Class::Blunder),
            l if l >= mistake => Some(Class::Mistake),
            l if l >= inaccuracy => Some(Class::Inaccuracy),
            _ => None,
        }
    }

    /// The numeric annotation glyph of PGN: 6 (`?!`), 2 (`?`), 4 (`??`).
    pub const fn nag(self) -> u8 {
        match self {
            Class::Inaccuracy => 6,
            Class::Mistake => 2,
            Class::Blunder => 4,
        }
    }

    /// The glyph: `?!`, `?` or `??`.
    pub const fn glyph(self) -> &'static str {
        match self {
            Class::Inaccuracy => "?!",
            Class::Mistake => "?",
            Class::Blunder => "??",
        }
    }

    /// The name as a comment starts with it: `Inaccuracy`, `Mistake`, `Blunder`.
    pub const fn title(self) -> &'static str {
        match self {
            Class::Inaccuracy => "Inaccuracy",
            Class::Mistake => "Mistake",
            Class::Blunder => "Blunder",
        }
    }

    /// The name: `inaccuracy`, `mistake` or `blunder`.
    pub const fn name(self) -> &'static str {
        match self {
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One position's search, as the judgement needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Searched {
    /// The score, from the point of view of the side to move there (`Score::Mate(0)`
    /// where it is mated, as the search says of such a position).
    pub score: Score,
    /// The move the search found best (the first of its line), if any.
    pub best: Option<Move>,
}

/// The verdict on one move. Every number is from the mover's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Best minus played, in the [`Measure`] of the judge: centipawns after clamping, or
    /// the expected result per mille. 0 for the search's own move, never below 0.
    pub loss: i32,
    /// The class of the loss, if any.
    pub class: Option<Class>,
    /// The score before the move (after the best move), centipawns clamped to ±[`CAP`].
    pub best_cp: i32,
    /// The score after the move played, centipawns clamped to ±[`CAP`].
    pub played_cp: i32,
    /// The chances after the best move.
    pub best_wdl: Wdl,
    /// The chances after the move played.
    pub played_wdl: Wdl,
}

/// What went wrong judging a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JudgeError {
    /// A line of `moves` moves needs `moves + 1` searched positions (the start and the
    /// position after every move).
    Length {
        /// Moves in the line.
        moves: usize,
        /// Searched positions given.
        searched: usize,
    },
    /// Move `ply` (counted from 1) is not legal where it is played.
    Illegal {
        /// The move's number in the line, from 1.
        ply: usize,
        /// Why it cannot be played.
        error: IllegalMoveError,
    },
}

impl fmt::Display for JudgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JudgeError::Length { moves, searched } => write!(
                f,
                "a line of {moves} moves needs {} searched positions, not {searched}",
                moves + 1
            ),
            JudgeError::Illegal { ply, error } => write!(f, "move {ply} of the line: {error}"),
        }
    }
}

impl std::error::Error for JudgeError {}

/// A score clamped to ±[`CAP`] centipawns, from the same side; a mate counts as the cap.
///
/// ```
/// use xq_analysis::judge::clamped;
/// use xq_search::Score;
/// assert_eq!(clamped(Score::Cp(-35)), -35);
/// assert_eq!(clamped(Score::Cp(2500)), 1000);
/// assert_eq!(clamped(Score::Mate(3)), 1000);
/// assert_eq!(clamped(Score::Mate(-2)), -1000);
/// assert_eq!(clamped(Score::Mate(0)), -1000); // mated already
/// ```
pub fn clamped(score: Score) -> i32 {
    Outlook::of(score).clamped()
}

/// A score seen from one side: a certain win or loss, or centipawns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outlook {
    Won,
    Lost,
    Cp(i32),
}

impl Outlook {
    /// A search's score, from its side to move.
    fn of(score: Score) -> Outlook {
        match score {
            Score::Cp(v) => Outlook::Cp(v),
            Score::Mate(n) if n > 0 => Outlook::Won,
            Score::Mate(_) => Outlook::Lost,
        }
    }

    /// The same from the other side.
    fn flipped(self) -> Outlook {
        match self {
            Outlook::Won => Outlook::Lost,
            Outlook::Lost => Outlook::Won,
            Outlook::Cp(v) => Outlook::Cp(-v),
        }
    }

    fn clamped(self) -> i32 {
        match self {
            Outlook::Won => CAP,
            Outlook::Lost => -CAP,
            Outlook::Cp(v) => v.clamp(-CAP, CAP),
        }
    }

    fn chances(self, model: &WdlModel, material: u32) -> Wdl {
        match self {
            Outlook::Won => Wdl {
                win: 1000,
                draw: 0,
                loss: 0,
            },
            Outlook::Lost => Wdl {
                win: 0,
                draw: 0,
                loss: 1000,
            },
            Outlook::Cp(v) => model.wdl(Score::Cp(v), material),
        }
    }
}

/// Judges moves: a [`Measure`] and the win/draw/loss model it prices scores with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judge {
    /// What losses are measured in.
    pub measure: Measure,
    /// The chances of a score (also reported with `Measure::Cp`).
    pub model: WdlModel,
}

impl Judge {
    /// A judge by `measure` with the fitted model, [`wdl::MODEL`].
    pub fn new(measure: Measure) -> Judge {
        Judge {
            measure,
            model: *wdl::MODEL,
        }
    }

    /// The verdict on a move from the score before it (from the mover's side, with the
    /// material of the position before) and after it (from the opponent's side, who is to
    /// move there, with the material after); `is_best` when it is the move the search
    /// before it found.
    ///
    /// ```
    /// use xq_analysis::judge::{Class, Judge, Measure};
    /// use xq_search::Score;
    /// let judge = Judge::new(Measure::Cp);
    /// // +0.30 before, and the opponent is +1.50 after: 180 centipawns lost.
    /// let v = judge.verdict((Score::Cp(30), 106), (Score::Cp(150), 106), false);
    /// assert_eq!((v.loss, v.class, v.played_cp), (180, Some(Class::Mistake), -150));
    /// // The search's own move loses nothing, whatever the scores say.
    /// assert_eq!(judge.verdict((Score::Cp(30), 106), (Score::Cp(150), 106), true).loss, 0);
    /// ```
    pub fn verdict(
        &self,
        (before, material_before): (Score, u32),
        (after, material_after): (Score, u32),
        is_best: bool,
    ) -> Verdict {
        let best = Outlook::of(before);
        let played = Outlook::of(after).flipped();
        let best_wdl = best.chances(&self.model, material_before);
        let played_wdl = played.chances(&self.model, material_after);
        let loss = if is_best {
            0
        } else {
            let lost = match self.measure {
                Measure::Cp => best.clamped() - played.clamped(),
                Measure::Wdl => best_wdl.expected() as i32 - played_wdl.expected() as i32,
            };
            lost.max(0)
        };
        Verdict {
            loss,
            class: Class::of(loss, self.measure),
            best_cp: best.clamped(),
            played_cp: played.clamped(),
            best_wdl,
            played_wdl,
        }
    }

    /// The verdict on every move of a line from `start`, given the search of every
    /// position: `searched[0]` of the start, `searched[i]` of the position after `i` moves.
    ///
    /// # Errors
    /// [`JudgeError::Length`] unless there is one more searched position than moves;
    /// [`JudgeError::Illegal`] for the first move that is not legal where it stands.
    pub fn line(
        &self,
        start: &Position,
        moves: &[Move],
        searched: &[Searched],
    ) -> Result<Vec<Verdict>, JudgeError> {
        if searched.len() != moves.len() + 1 {
            return Err(JudgeError::Length {
                moves: moves.len(),
                searched: searched.len(),
            });
        }
        let mut pos = start.clone();
        let mut material = wdl::material(&pos);
        let mut verdicts = Vec::with_capacity(moves.len());
        for (i, &m) in moves.iter().enumerate() {
            try_play(&mut pos, m).map_err(|error| JudgeError::Illegal { ply: i + 1, error })?;
            let material_after = wdl::material(&pos);
            verdicts.push(self.verdict(
                (searched[i].score, material),
                (searched[i + 1].score, material_after),
                searched[i].best == Some(m),
            ));
            material = material_after;
        }
        Ok(verdicts)
    }
}

/// A side's totals over a game: moves judged, the loss added up, and each class counted.
///
/// ```
/// use xq_analysis::judge::{Class, Judge, Measure, Tally};
/// use xq_search::Score;
/// let judge = Judge::new(Measure::Cp);
/// let mut red = Tally::default();
/// red.add(&judge.verdict((Score::Cp(0), 106), (Score::Cp(60), 106), false));
/// red.add(&judge.verdict((Score::Cp(0), 106), (Score::Cp(0), 106), false));
/// red.add(&judge.verdict((Score::Cp(0), 106), (Score::Cp(-30), 106), false));
/// assert_eq!((red.moves, red.loss, red.average()), (3, 60, 20));
/// assert_eq!(red.count(Class::Inaccuracy), 1);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Moves judged.
    pub moves: usize,
    /// Their losses added up.
    pub loss: i64,
    /// Inaccuracies, mistakes and blunders (in the order of [`Class::ALL`]).
    pub counts: [usize; 3],
}

impl Tally {
    /// Counts one more move.
    pub fn add(&mut self, verdict: &Verdict) {
        self.moves += 1;
        self.loss += i64::from(verdict.loss);
        if let Some(c) = verdict.class {
            self.counts[c as usize] += 1;
        }
    }

    /// The moves of class `class`.
    pub fn count(&self, class: Class) -> usize {
        self.counts[class as usize]
    }

    /// The totals in words, the loss in the unit of `measure`: "average loss 20 cp,
    /// 1 inaccuracy, 0 mistakes, 0 blunders".
    ///
    /// ```
    /// use xq_analysis::judge::{Class, Measure, Tally};
    /// let t = Tally { moves: 3, loss: 200, counts: [0, 2, 0] };
    /// assert_eq!(t.describe(Measure::Cp), "average loss 67 cp, 0 inaccuracies, 2 mistakes, 0 blunders");
    /// assert_eq!(t.describe(Measure::Wdl), "average loss 67‰ of the result, 0 inaccuracies, 2 mistakes, 0 blunders");
    /// ```
    pub fn describe(&self, measure: Measure) -> String {
        let n = |class: Class, one: &str, many: &str| {
            let count = self.count(class);
            format!("{count} {}", if count == 1 { one } else { many })
        };
        let unit = match measure {
            Measure::Cp => " cp",
            Measure::Wdl => "‰ of the result",
        };
        format!(
            "average loss {}{unit}, {}, {}, {}",
            self.average(),
            n(Class::Inaccuracy, "inaccuracy", "inaccuracies"),
            n(Class::Mistake, "mistake", "mistakes"),
            n(Class::Blunder, "blunder", "blunders")
        )
    }

    /// The average loss per move, rounded half up (0 without moves).
    pub fn average(&self) -> i64 {
        if self.moves == 0 {
            0
        } else {
            (self.loss + self.moves as i64 / 2) / self.moves as i64
        }
    }
}

/// One position of a game as the analysis searched it: the value from the side to move's
/// point of view, the depth completed and the line (its first move the best).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PositionSearch {
    /// The value, from the side to move's point of view (mate scores as the search gives
    /// them).
    pub value: i32,
    /// The depth completed.
    pub depth: u32,
    /// The principal variation.
    pub pv: Vec<Move>,
}

impl PositionSearch {
    /// What the judgement reads of it.
    pub fn judged(&self) -> Searched {
        Searched {
            score: Score::from_value(self.value),
            best: self.pv.first().copied(),
        }
    }
}

/// A game analysed: every position of its line searched (the start and the position
/// after every move), every move judged, and each side's totals.
#[derive(Clone, Debug, PartialEq)]
pub struct GameAnalysis {
    /// The search of the start and of the position after each move.
    pub searched: Vec<PositionSearch>,
    /// The verdict on each move.
    pub verdicts: Vec<Verdict>,
    /// Red's totals.
    pub red: Tally,
    /// Black's totals.
    pub black: Tally,
}

impl GameAnalysis {
    /// The analysis of a line from `start` whose positions were searched as `searched`
    /// and whose moves were judged as `verdicts` (by [`Judge::line`]): each side's
    /// totals added up.
    pub fn from_verdicts(
        start: &Position,
        searched: Vec<PositionSearch>,
        verdicts: Vec<Verdict>,
    ) -> GameAnalysis {
        let (mut red, mut black) = (Tally::default(), Tally::default());
        let mut side = start.side_to_move();
        for v in &verdicts {
            match side {
                Color::Red => red.add(v),
                Color::Black => black.add(v),
            }
            side = !side;
        }
        GameAnalysis {
            searched,
            verdicts,
            red,
            black,
        }
    }
}

/// The exact value of a position in the searcher's endgame tables, as a search value (a
/// mate in the tables' distance, or a draw), unless the 120-ply rule may come first.
fn table_value(searcher: &Searcher, pos: &Position) -> Option<i32> {
    let value = searcher.tablebases()?.probe_dtm(pos).ok().flatten()?;
    if value.beyond_rule(pos.halfmove_clock()) {
        return None;
    }
    Some(match value {
        TableValue::Win { plies } => score::mate_in(usize::from(plies)),
        TableValue::Draw => 0,
        TableValue::Loss { plies } => score::mated_in(usize::from(plies)),
        TableValue::RuleWin { .. } => score::TB_RULE_WIN,
        TableValue::RuleLoss { .. } => -score::TB_RULE_WIN,
    })
}

impl Judge {
    /// Searches every position of the line `moves` from `start` within `limits` with
    /// `searcher` (after a new game), calling `tick` after each search, and judges every
    /// move: what `xq annotate` does with a game. Where the searcher has endgame tables
    /// ([`Searcher::set_tablebases`]) and a position is in them, its value is the tables'
    /// (a win thrown away to a draw is a blunder), unless the 120-ply rule may draw first.
    ///
    /// # Errors
    /// As [`Judge::line`]: a move that is not legal where it stands.
    ///
    /// ```
    /// use xq_core::Position;
    /// use xq_analysis::judge::{Judge, Measure};
    /// use xq_search::{Limits, Searcher};
    /// let moves = ["h2e2".parse().unwrap(), "h9g7".parse().unwrap()];
    /// let mut searcher = Searcher::new(1);
    /// let a = Judge::new(Measure::Cp)
    ///     .analyse(&mut searcher, &Position::startpos(), &moves, &Limits::depth(3), &|| {})
    ///     .unwrap();
    /// assert_eq!((a.searched.len(), a.verdicts.len()), (3, 2));
    /// assert_eq!((a.red.moves, a.black.moves), (1, 1));
    /// ```
    pub fn analyse(
        &self,
        searcher: &mut Searcher,
        start: &Position,
        moves: &[Move],
        limits: &Limits,
        tick: &dyn Fn(),
    ) -> Result<GameAnalysis, JudgeError> {
        searcher.new_game();
        let stop = AtomicBool::new(false);
        let mut game = Game::new(start.clone());
        let mut searched = Vec::new();
        for i in 0..=moves.len() {
            let r = searcher.search(&game, limits, &stop, |_| {});
            searched.push(PositionSearch {
                value: table_value(searcher, game.position()).unwrap_or(r.value),
                depth: r.depth,
                pv: r.pv,
            });
            tick();
            // An illegal move stops the game here; the judgement below names it.
            if moves.get(i).is_some_and(|&m| game.play(m).is_err()) {
                break;
            }
        }
        let judged: Vec<Searched> = searched.iter().map(PositionSearch::judged).collect();
        let verdicts = self.line(start, moves, &judged)?;
        Ok(GameAnalysis::from_verdicts(start, searched, verdicts))
    }

    /// [`Judge::analyse`] of every game (a start and its line), `threads` games at a time,
    /// each thread with its own searcher of `hash_mib` MiB and the endgame tables
    /// `tablebases`; `tick` is called after every position searched. The results come in
    /// the games' order.
    ///
    /// # Errors
    /// The table of a thread cannot be had (nothing is analysed then); each game's own
    /// result is its [`Judge::analyse`]'s.
    pub fn analyse_all(
        &self,
        games: &[(Position, Vec<Move>)],
        threads: usize,
        hash_mib: usize,
        tablebases: Option<&Arc<Tablebases>>,
        limits: &Limits,
        tick: &(dyn Fn() + Sync),
    ) -> Result<Vec<Result<GameAnalysis, JudgeError>>, TableError> {
        let searchers = (0..threads.clamp(1, games.len().max(1)))
            .map(|_| {
                let mut s = Searcher::try_new(hash_mib)?;
                s.set_tablebases(tablebases.cloned());
                Ok(s)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let next = AtomicUsize::new(0);
        let results: Mutex<Vec<Option<Result<GameAnalysis, JudgeError>>>> =
            Mutex::new(vec![None; games.len()]);
        // Each worker takes the next game until none is left.
        let work = |mut searcher: Searcher| loop {
            let g = next.fetch_add(1, Ordering::SeqCst);
            let Some((start, moves)) = games.get(g) else {
                return;
            };
            let a = self.analyse(&mut searcher, start, moves, limits, tick);
            results.lock().unwrap_or_else(|e| e.into_inner())[g] = Some(a);
        };
        let mut searchers = searchers.into_iter();
        let first = searchers.next();
        std::thread::scope(|s| {
            for searcher in searchers {
                // A thread the system will not start is done without: the others (and
                // this one) take its games.
                let _ = std::thread::Builder::new().spawn_scoped(s, || work(searcher));
            }
            if let Some(searcher) = first {
                work(searcher);
            }
        });
        Ok(results
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .into_iter()
            .flatten()
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xq_search::score::{mate_in, mated_in};

    #[test]
    fn classes_by_loss() {
        assert_eq!(Class::of(49, Measure::Cp), None);
        assert_eq!(Class::of(50, Measure::Cp), Some(Class::Inaccuracy));
        assert_eq!(Class::of(99, Measure::Cp), Some(Class::Inaccuracy));
        assert_eq!(Class::of(100, Measure::Cp), Some(Class::Mistake));
        assert_eq!(Class::of(200, Measure::Cp), Some(Class::Blunder));
        assert_eq!(Class::of(149, Measure::Wdl), Some(Class::Mistake));
        assert_eq!(Class::of(150, Measure::Wdl), Some(Class::Blunder));
        assert_eq!(Class::of(49, Measure::Wdl), None);
        assert_eq!(clamped(Score::from_value(mate_in(3))), CAP);
        assert_eq!(clamped(Score::Cp(-2500)), -CAP);
        assert_eq!(
            Class::ALL.map(Class::nag),
            [6, 2, 4],
            "PGN's NAGs for ?!, ? and ??"
        );
        assert_eq!(" cp".parse::<Measure>(), Ok(Measure::Cp));
        assert_eq!(
            "WDL".parse::<Measure>().unwrap_err().to_string(),
            "unknown measure \"WDL\" (cp or wdl)"
        );
    }

    #[test]
    fn averages_round_half_up() {
        let mut t = Tally {
            moves: 3,
            loss: 100,
            ..Tally::default()
        };
        assert_eq!(t.average(), 33);
        t.loss = 101;
        assert_eq!(t.average(), 34);
        assert_eq!(Tally::default().average(), 0);
    }

    /// The loss of a move with scores `before` (mover's view) and `after` (opponent's
    /// view) at the same `material`, not the search's move.
    fn loss(judge: &Judge, before: Score, after: Score, material: u32) -> i32 {
        judge
            .verdict((before, material), (after, material), false)
            .loss
    }

    #[test]
    fn by_wdl_a_lost_position_loses_little_and_a_balanced_one_much() {
        // A fixed model (not the fitted one, which a refit changes): a = 300, b = 200.
        let model = WdlModel {
            a: [0.0, 0.0, 0.0, 300.0],
            b: [0.0, 0.0, 0.0, 200.0],
        };
        let cp = Judge {
            measure: Measure::Cp,
            model,
        };
        let by_wdl = Judge {
            measure: Measure::Wdl,
            model,
        };
        let m = 60;
        let expected = |v: i32| model.wdl(Score::Cp(v), m).expected() as i32;
        // Three pawns thrown away in a lost position (-600 to -900): a blunder in
        // centipawns, an inaccuracy in expected result (7.2 points).
        let (before, after) = (Score::Cp(-600), Score::Cp(900));
        assert_eq!(loss(&cp, before, after, m), 300);
        let wdl_loss = loss(&by_wdl, before, after, m);
        assert_eq!(wdl_loss, expected(-600) - expected(-900));
        assert_eq!(wdl_loss, 72);
        assert_eq!(Class::of(wdl_loss, Measure::Wdl), Some(Class::Inaccuracy));
        // The same three pawns from an even position: a blunder either way.
        let (before, after) = (Score::Cp(0), Score::Cp(300));
        assert_eq!(loss(&cp, before, after, m), 300);
        let wdl_loss = loss(&by_wdl, before, after, m);
        assert_eq!(wdl_loss, 500 - expected(-300));
        assert_eq!(Class::of(wdl_loss, Measure::Wdl), Some(Class::Blunder));
        // Mates: certain results, no clamping; being mated on the board is a loss (for
        // the side to move there: a win for the mover).
        let mate = |v: i32| Score::from_value(v);
        assert_eq!(loss(&by_wdl, mate(mate_in(3)), Score::Cp(0), m), 500);
        assert_eq!(loss(&by_wdl, mate(mate_in(1)), mate(mated_in(0)), m), 0);
        let v = by_wdl.verdict((Score::Cp(0), m), (mate(mated_in(0)), m), false);
        assert_eq!(v.played_wdl.win, 1000);
        assert_eq!(v.played_cp, CAP);
        let v = by_wdl.verdict((mate(mated_in(0)), m), (Score::Cp(0), m), false);
        assert_eq!((v.best_wdl.loss, v.best_cp), (1000, -CAP));
        assert_eq!(
            loss(&by_wdl, mate(mated_in(4)), mate(mate_in(3)), m),
            0,
            "mated either way"
        );
        // A move that does better than the best loses nothing.
        assert_eq!(loss(&by_wdl, Score::Cp(0), Score::Cp(-100), m), 0);
        assert_eq!(loss(&cp, Score::Cp(0), Score::Cp(-100), m), 0);
        // Mates count as the cap in centipawns.
        assert_eq!(loss(&cp, mate(mate_in(5)), Score::Cp(-700), m), 300);
    }

    #[test]
    fn the_played_chances_are_the_models_at_the_mover_side() {
        // Not the flipped chances of the opponent: the model's rounding may differ by a
        // per mille between the two, and `xq annotate` has always priced the mover's side.
        let judge = Judge::new(Measure::Wdl);
        for cp in [-3000, -450, -1, 0, 7, 333, 2900] {
            for material in [12, 40, 106] {
                let v = judge.verdict((Score::Cp(0), 106), (Score::Cp(cp), material), false);
                assert_eq!(v.played_wdl, wdl::MODEL.wdl(Score::Cp(-cp), material));
                assert_eq!(v.played_cp, (-cp).clamp(-CAP, CAP));
            }
        }
    }

    #[test]
    fn a_line_is_judged_move_by_move_and_bad_input_is_named() {
        let start = Position::startpos();
        let moves: Vec<Move> = ["h2e2", "h9g7", "a0a1"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let s = |cp: i32, best: &str| Searched {
            score: Score::Cp(cp),
            best: best.parse().ok(),
        };
        let searched = [s(30, "h2e2"), s(-30, "b9c7"), s(180, "b0c2"), s(-10, "")];
        let judge = Judge::new(Measure::Cp);
        let v = judge.line(&start, &moves, &searched).unwrap();
        assert_eq!(v.len(), 3);
        // The search's own move; Black's 马8进7 loses 150; Red's 车九进一 loses 170.
        assert_eq!(v.iter().map(|v| v.loss).collect::<Vec<_>>(), [0, 150, 170]);
        assert_eq!(
            v.iter().map(|v| v.class).collect::<Vec<_>>(),
            [None, Some(Class::Mistake), Some(Class::Mistake)]
        );
        assert_eq!(
            judge.line(&start, &moves, &searched[..3]),
            Err(JudgeError::Length {
                moves: 3,
                searched: 3
            })
        );
        let bad: Vec<Move> = ["h2e2", "h2e2"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let err = judge.line(&start, &bad, &searched[..3]).unwrap_err();
        assert!(matches!(err, JudgeError::Illegal { ply: 2, .. }), "{err:?}");
        assert!(err.to_string().starts_with("move 2 of the line: "), "{err}");
    }
}
