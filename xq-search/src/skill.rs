//! Playing levels for people: an engine that is weaker on purpose but still plays
//! sensible moves, and loses by the kind of mistakes a person makes.
//!
//! A [`Skill`] level runs from 0 (weakest) to 20 (full strength). Below 20 it weakens
//! the engine in two ways, as Stockfish's skill levels do:
//!
//! 1. **It sees less.** The search stops at a depth and after a number of nodes
//!    ([`Skill::depth`], [`Skill::nodes`]), whichever comes first. A low level misses
//!    threats a few moves deep but never a capture it can see.
//! 2. **It chooses among the best moves with noise.** It searches the best
//!    [`SKILL_LINES`] moves (MultiPV; eight at level 0, see [`Skill::lines`]) and
//!    picks one of them: each
//!    line's score is lowered by a share of its gap to the best line and raised by a
//!    random amount bounded by the spread of the scores (at most a soldier, 100 cp).
//!    The weakness `w` (128 at level 0, 96 at level 1, 38 at level 19) sets both:
//!
//!    `choice value = best - gap * (128 - w) / 128 + spread * (r mod w) / 128`
//!
//!    with `gap` = best score - line score (capped at 2000 cp, so that mates count as a
//!    large but finite gap), `spread` = min(best - worst of the lines, 100) and `r` a
//!    pseudo-random number from the seed. At level 1 lines within about 300 cp of the
//!    best can be chosen; at level 19 only lines within a few dozen centipawns. From
//!    level 1 up a line that walks into a mate it can see is never chosen while another
//!    is not, and a mate in one is never missed.
//!
//! Level 0 is the beginner's level: it looks one move ahead (with the captures that
//! follow) and plays one of its eight best moves by chance alone (`w` = 128), so it
//! can hang a piece or miss a mate as a beginner does. It scored 42% against a
//! beginner-like player that takes any free piece and otherwise moves at random
//! without hanging one (`xq-beginner` of xq-testkit; 200 games, `docs/levels.md`).
//!
//! Depth, nodes and weakness all follow one number, the level's **strength** on a
//! scale of tenths ([`Skill::strength`], 0 at level 0, 49 at level 1, 165 at level 19,
//! 200 at full strength): depth `1 + strength / 10`, nodes `1000 x 2^(strength / 20)`
//! but at least 4,000, weakness `120 - strength / 2` (but `128 - strength` below 16),
//! lines 4 (one more for every 12 tenths below 48). The strengths of levels 1 to 19
//! were chosen from a measured ladder of self-play matches so that those levels are
//! about equally far apart (`docs/levels.md`); the first design, strength
//! `10 x level`, made its level 0 more than 3,000 Elo weaker than full strength, with
//! rungs of 300 to 550 Elo at the bottom.
//!
//! The choice is a pure function of the lines and the seed, so a seeded game is
//! reproducible ([`Engine::set_seed`](crate::engine::Engine::set_seed): the same seed
//! and a node or depth limit give the same move). Level 20 changes nothing: the search
//! is the engine's own. The [engine](crate::engine) plays at a level through
//! [`Options::skill`](crate::engine::Options::skill) or
//! [`Options::limit_strength`](crate::engine::Options::limit_strength).
//!
//! Levels can also be given as an Elo ([`Skill::from_elo`], for UCI's `UCI_Elo`), through
//! the table [`ELO_OF_LEVEL`]: level 1 is 1000 by convention, and each level above
//! stands for the Elo the measured ladder puts it above level 1 (see that table);
//! level 0 is below the scale.
//!
//! ```
//! use xq_movegen::Game;
//! use xq_search::engine::{Engine, Options};
//! use xq_search::skill::Skill;
//! use xq_search::Limits;
//!
//! let mut engine = Engine::new(Options { skill: Skill::new(3), hash_mib: 16, ..Options::default() });
//! engine.set_seed(42);
//! let m = engine.search(Limits::default(), |_| true).best_move.unwrap();
//! assert!(xq_movegen::is_legal(engine.game().position(), m));
//! // The same seed in a fresh engine: the same move.
//! let mut again = Engine::new(Options { skill: Skill::new(3), hash_mib: 16, ..Options::default() });
//! again.set_seed(42);
//! assert_eq!(again.search(Limits::default(), |_| true).best_move, Some(m));
//! ```

use crate::{Info, Limits, SearchResult};

/// The strongest level: full strength, nothing changed.
pub const MAX_LEVEL: u8 = 20;

/// How many of the best moves a weakened engine chooses from (levels 1 to 19).
pub const SKILL_LINES: usize = 4;

/// Below this strength a level chooses among more than [`SKILL_LINES`] moves: one more
/// for every 12 tenths below, 8 at strength 0 (level 0).
const FEWEST_LINES_FROM: u32 = 48;

/// The fewest nodes a level may search (see [`Skill::nodes`]).
const MIN_NODES: u64 = 4000;

/// The Elo each level stands for, as `UCI_Elo` maps onto levels: the measured ladder of
/// `docs/levels.md` (self-play between each odd level and the level two above it, and
/// level 19 against full strength, at 5+0.05, 32 games a rung, played with this
/// search), with level 1 at 1000 by convention (it is not measured against people or a
/// rating list) and each odd level above it at 1000 plus the Elo the ladder measured
/// from level 1; even levels were not played and take the midpoint of their neighbours.
/// Full strength is 1764 Elo of self-play above level 1. At 5+0.05 level 19's node cap
/// is about what full strength searches a move, so the last rung is small (33 Elo); at
/// longer time controls full strength pulls away.
///
/// Level 0, the beginner's level, is below the scale: every game of a self-play match
/// against level 1 was lost, so no Elo can be read, and it takes the scale's floor, 1000
/// (`UCI_Elo` 1000 is level 1; level 0 is chosen by `Skill Level` only). It scored 42%
/// against a beginner-like player (`xq-beginner` of xq-testkit). Self-play between levels of one engine
/// usually measures larger differences than games against people would.
pub const ELO_OF_LEVEL: [u32; MAX_LEVEL as usize + 1] = [
    1000, 1000, 1111, 1221, 1340, 1459, 1527, 1596, 1664, 1733, 1783, 1833, 1921, 2010, 2120, 2231,
    2400, 2569, 2650, 2732, 2764,
];

/// The strength of levels 0 to 19 in tenths (see the [module documentation](self)).
/// Levels 1 to 19 were read off the first ladder (strength `10 x level`, 24 games a
/// rung at 5+0.05, measured Elo to full strength 0, -137, -210, -382, -662, -942, -1358,
/// -1732, -2039, -2584, -3128 at strength 200, 180, ..., 0) by linear interpolation, so
/// that they would lie about 95 Elo apart. The second ladder measured the result: 1749
/// Elo from level 1 to full strength, 95 to 273 Elo for two levels; the third, with
/// today's search, 1764 Elo, 100 to 338 for two levels. Level 0 is strength
/// 0, the beginner's level: depth 1, chance alone among eight moves.
const STRENGTH: [u32; MAX_LEVEL as usize] = [
    0, 49, 55, 61, 66, 71, 76, 81, 86, 90, 95, 100, 106, 113, 120, 127, 133, 140, 151, 165,
];

/// `1000 x 2^(k / 20)` for `k` in `0..20`, rounded: the nodes between two doublings.
const NODES_STEP: [u64; 20] = [
    1000, 1035, 1072, 1110, 1149, 1189, 1231, 1275, 1320, 1366, 1414, 1464, 1516, 1569, 1625, 1682,
    1741, 1803, 1866, 1932,
];

/// The lowest Elo a level stands for (level 0).
pub const MIN_ELO: u32 = ELO_OF_LEVEL[0];
/// The Elo of full strength (level 20) in [`ELO_OF_LEVEL`].
pub const MAX_ELO: u32 = ELO_OF_LEVEL[MAX_LEVEL as usize];

/// The largest score gap (centipawns) a line is charged with: mates count as this.
const GAP_CAP: i64 = 2000;
/// The largest spread of scores the noise is scaled by: a soldier.
const SPREAD_CAP: i64 = 100;

/// A playing level, 0 (weakest) to 20 (full strength). See the [module
/// documentation](self) for what a level changes.
///
/// ```
/// use xq_search::skill::Skill;
/// assert_eq!(Skill::new(25), Skill::FULL);
/// assert_eq!(Skill::new(7).level(), 7);
/// assert!(Skill::FULL.is_full_strength());
/// assert_eq!(Skill::new(0).depth(), Some(1));
/// assert_eq!(Skill::new(1).depth(), Some(5));
/// assert_eq!(Skill::FULL.depth(), None);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Skill {
    level: u8,
}

impl Default for Skill {
    /// Full strength.
    fn default() -> Skill {
        Skill::FULL
    }
}

impl Skill {
    /// Full strength (level 20).
    pub const FULL: Skill = Skill { level: MAX_LEVEL };

    /// The level `level`; values above 20 are full strength.
    pub const fn new(level: u8) -> Skill {
        Skill {
            level: if level > MAX_LEVEL { MAX_LEVEL } else { level },
        }
    }

    /// The highest level whose Elo in [`ELO_OF_LEVEL`] is at most `elo` (level 1 at
    /// [`MIN_ELO`], level 0 only below it, full strength from [`MAX_ELO`]).
    ///
    /// ```
    /// use xq_search::skill::{Skill, MAX_ELO, MIN_ELO};
    /// assert_eq!(Skill::from_elo(0).level(), 0);
    /// assert_eq!(Skill::from_elo(MIN_ELO).level(), 1);
    /// assert_eq!(Skill::from_elo(1900).level(), 11);
    /// assert_eq!(Skill::from_elo(MAX_ELO), Skill::FULL);
    /// assert_eq!(Skill::from_elo(Skill::new(13).elo()).level(), 13);
    /// ```
    pub fn from_elo(elo: u32) -> Skill {
        let level = ELO_OF_LEVEL.iter().rposition(|&e| e <= elo).unwrap_or(0);
        Skill::new(level as u8)
    }

    /// The level, 0 to 20.
    pub const fn level(self) -> u8 {
        self.level
    }

    /// The Elo this level stands for ([`ELO_OF_LEVEL`], the measured ladder).
    pub const fn elo(self) -> u32 {
        ELO_OF_LEVEL[self.level as usize]
    }

    /// Is this full strength (level 20), where nothing is changed?
    pub const fn is_full_strength(self) -> bool {
        self.level >= MAX_LEVEL
    }

    /// The level's strength in tenths (see the [module documentation](self)): 0 at
    /// level 0, 49 at level 1, rising to 165 at level 19; 200 at full strength.
    ///
    /// ```
    /// use xq_search::skill::Skill;
    /// assert_eq!(Skill::new(0).strength(), 0);
    /// assert_eq!(Skill::new(1).strength(), 49);
    /// assert_eq!(Skill::new(11).strength(), 100);
    /// assert_eq!(Skill::FULL.strength(), 200);
    /// ```
    pub const fn strength(self) -> u32 {
        if self.is_full_strength() {
            200
        } else {
            STRENGTH[self.level as usize]
        }
    }

    /// The deepest iteration the level completes: `1 + strength / 10` (1 at level 0, 5
    /// at level 1, 17 at level 19); `None` at full strength.
    pub const fn depth(self) -> Option<u32> {
        if self.is_full_strength() {
            None
        } else {
            Some(1 + self.strength() / 10)
        }
    }

    /// The nodes the level may search: `1000 x 2^(strength / 20)`, rounded, but at
    /// least 4,000, enough for level 0's eight lines at depth 1 (a cap of 1,000 cut them
    /// short in sharp positions, and the search's own best move stood in for the
    /// chosen one): 4,000 at level 0, 5,464 at level 1, 32,000 at 11, about 304,000 at
    /// 19; `None` at full strength.
    ///
    /// ```
    /// use xq_search::skill::Skill;
    /// let nodes: Vec<u64> = [0, 1, 2, 11, 19].iter().map(|&l| Skill::new(l).nodes().unwrap()).collect();
    /// assert_eq!(nodes, [4000, 5464, 6728, 32000, 304384]);
    /// ```
    pub const fn nodes(self) -> Option<u64> {
        if self.is_full_strength() {
            return None;
        }
        let s = self.strength();
        let nodes = NODES_STEP[(s % 20) as usize] << (s / 20);
        Some(if nodes < MIN_NODES { MIN_NODES } else { nodes })
    }

    /// How many best moves the level searches and chooses from: [`SKILL_LINES`], one
    /// more for every 12 tenths of strength below 48 (8 at level 0), or 1 at full
    /// strength.
    ///
    /// ```
    /// use xq_search::skill::{Skill, SKILL_LINES};
    /// assert_eq!(Skill::new(0).lines(), 8);
    /// assert_eq!(Skill::new(1).lines(), SKILL_LINES);
    /// assert_eq!(Skill::FULL.lines(), 1);
    /// ```
    pub const fn lines(self) -> usize {
        if self.is_full_strength() {
            1
        } else if self.strength() < FEWEST_LINES_FROM {
            SKILL_LINES + (FEWEST_LINES_FROM - self.strength()).div_ceil(12) as usize
        } else {
            SKILL_LINES
        }
    }

    /// The weakness `w` of the choice among lines: `120 - strength / 2`, or
    /// `128 - strength` below strength 16 (128, chance alone, at level 0; 96 at level 1;
    /// 38 at level 19), 0 at full strength.
    pub(crate) const fn weakness(self) -> u32 {
        if self.is_full_strength() {
            0
        } else {
            // `max(120 - s / 2, 128 - s)`: chance alone (128) at strength 0.
            let s = self.strength();
            if s < 16 {
                128 - s
            } else {
                120 - s / 2
            }
        }
    }

    /// Caps `limits` by the level's depth and nodes (a tighter limit already there is
    /// kept). Full strength leaves them alone.
    ///
    /// ```
    /// use xq_search::skill::Skill;
    /// use xq_search::Limits;
    /// let mut limits = Limits { nodes: Some(1000), ..Limits::default() };
    /// Skill::new(1).restrict(&mut limits);
    /// assert_eq!((limits.depth, limits.nodes), (Some(5), Some(1000)));
    /// ```
    pub fn restrict(self, limits: &mut Limits) {
        if let Some(d) = self.depth() {
            limits.depth = Some(limits.depth.map_or(d, |x| x.min(d)));
        }
        if let Some(n) = self.nodes() {
            limits.nodes = Some(limits.nodes.map_or(n, |x| x.min(n)));
        }
    }

    /// Chooses one of `lines` (the lines of one completed iteration, each with its move
    /// first in `pv`) by the level's rule (see the [module documentation](self)), with
    /// the random numbers drawn from `seed`. `None` when there is no line with a move.
    /// Full strength, or a single line, takes the best line.
    ///
    /// This is how [`Engine`](crate::engine::Engine) plays at a level; a program that
    /// runs a [`Searcher`](crate::Searcher) itself (a browser's worker, which has no
    /// threads) searches [`Skill::lines`] lines within the limits of
    /// [`Skill::restrict`] and picks with this.
    ///
    /// ```
    /// use xq_search::skill::Skill;
    /// use xq_search::{Info, Score};
    /// let line = |m: &str, value| Info {
    ///     pv: vec![m.parse().unwrap()],
    ///     value,
    ///     score: Score::Cp(value),
    ///     depth: 5,
    ///     seldepth: 5,
    ///     multipv: 1,
    ///     nodes: 0,
    ///     time: Default::default(),
    ///     hashfull: 0,
    /// };
    /// let lines = [line("h2e2", 30), line("b2e2", 25)];
    /// assert_eq!(Skill::FULL.pick(&lines, 7).unwrap().value, 30);
    /// assert!(Skill::new(0).pick(&lines, 7).is_some());
    /// assert!(Skill::new(0).pick(&[], 7).is_none());
    /// ```
    pub fn pick(self, lines: &[Info], seed: u64) -> Option<&Info> {
        let lines: Vec<&Info> = lines.iter().filter(|l| !l.pv.is_empty()).collect();
        let best = lines.iter().copied().max_by_key(|l| l.value)?;
        let w = i64::from(self.weakness());
        if w == 0 || lines.len() == 1 {
            return Some(best);
        }
        let top = i64::from(best.value);
        let worst = lines
            .iter()
            .map(|l| i64::from(l.value))
            .min()
            .unwrap_or(top);
        let spread = (top - worst).min(SPREAD_CAP);
        let mut rng = xq_core::SplitMix64::new(seed);
        let mut chosen = best;
        let mut chosen_value = i64::MIN;
        for line in lines {
            let gap = (top - i64::from(line.value)).min(GAP_CAP);
            let noise = (rng.next_u64() % w as u64) as i64;
            let value = top * 128 - gap * (128 - w) + spread * noise;
            if value > chosen_value {
                chosen = line;
                chosen_value = value;
            }
        }
        Some(chosen)
    }

    /// Plays the line [`pick`](Skill::pick) chooses from `lines` into `result`: its
    /// move, line, expected reply, score and value. Does nothing when there is no line
    /// (the search's own answer stands).
    pub(crate) fn choose(self, lines: &[Info], seed: u64, result: &mut SearchResult) {
        if let Some(line) = self.pick(lines, seed) {
            result.best_move = line.pv.first().copied();
            result.ponder = line.pv.get(1).copied();
            result.pv = line.pv.clone();
            result.score = line.score;
            result.value = line.value;
        }
    }
}

/// Collects the lines of the last iteration a MultiPV search reported: feed it every
/// [`Info`] in the order the search reports them (line 1 starts a new iteration).
#[derive(Clone, Debug, Default)]
pub(crate) struct LastIteration {
    lines: Vec<Info>,
}

impl LastIteration {
    /// Takes one reported line.
    pub(crate) fn add(&mut self, info: &Info) {
        if info.multipv <= 1 {
            self.lines.clear();
        }
        self.lines.push(info.clone());
    }

    /// The lines of the last iteration, best first.
    pub(crate) fn lines(&self) -> &[Info] {
        &self.lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Score;
    use std::time::Duration;

    fn line(m: &str, value: i32) -> Info {
        Info {
            depth: 4,
            seldepth: 4,
            multipv: 1,
            score: Score::from_value(value),
            value,
            nodes: 0,
            time: Duration::ZERO,
            hashfull: 0,
            pv: vec![m.parse().unwrap()],
        }
    }

    #[test]
    fn the_node_steps_are_powers_of_two_in_twentieths() {
        for (k, &n) in NODES_STEP.iter().enumerate() {
            let exact = 1000.0 * 2f64.powf(k as f64 / 20.0);
            assert_eq!(n, exact.round() as u64, "step {k}");
        }
        // Strength 100 (level 10) is five doublings: 32,000 nodes.
        assert_eq!(Skill::new(11).nodes(), Some(32_000));
    }

    #[test]
    fn the_tables_are_monotone() {
        for l in 1..=MAX_LEVEL {
            let (a, b) = (Skill::new(l - 1), Skill::new(l));
            // Level 0 is below the scale and shares its floor with level 1.
            assert!(a.elo() < b.elo() || l == 1);
            assert!(a.lines() >= b.lines());
            assert!(a.weakness() > b.weakness() || b.is_full_strength());
            if !b.is_full_strength() {
                assert!(a.strength() < b.strength());
                assert!(a.nodes() < b.nodes() && a.depth() <= b.depth());
            }
        }
        assert_eq!(Skill::new(19).weakness(), 38);
        assert_eq!(Skill::new(1).weakness(), 96);
        assert_eq!(Skill::new(0).weakness(), 128);
        assert_eq!(Skill::new(0).depth(), Some(1));
        assert_eq!(Skill::new(19).depth(), Some(17));
        for elo in [0, 999, 1000, 1110, 1111, 2763, 2764, 9999] {
            let s = Skill::from_elo(elo);
            assert_eq!(s.level() == 0, elo < MIN_ELO, "{elo}");
            assert!(s.elo() <= elo.max(MIN_ELO));
            if s.level() < MAX_LEVEL {
                assert!(Skill::new(s.level() + 1).elo() > elo);
            }
        }
    }

    #[test]
    fn the_weakest_level_chooses_widely_the_strongest_narrowly() {
        let lines = [
            line("h2e2", 40),
            line("b0c2", 10),
            line("h0g2", -20),
            line("i0i1", -900),
        ];
        let count = |level: u8| {
            let mut seen = [0usize; 4];
            for seed in 0..2000 {
                let chosen = Skill::new(level).pick(&lines, seed).unwrap();
                let i = lines.iter().position(|l| l.pv == chosen.pv).unwrap();
                seen[i] += 1;
            }
            seen
        };
        // Level 0 chooses by chance alone: even the hanging chariot, about as often as
        // the others (500 of 2000 expected each).
        let chance = count(0);
        assert!(
            chance.iter().all(|&n| (400..600).contains(&n)),
            "{chance:?}"
        );
        let weakest = count(1);
        // Every sound line is sometimes chosen at level 1, the best most often; the
        // hanging chariot never (it is 940 cp worse).
        assert!(weakest[..3].iter().all(|&n| n > 0), "{weakest:?}");
        assert!(
            weakest[0] > weakest[1] && weakest[1] > weakest[2],
            "{weakest:?}"
        );
        assert_eq!(weakest[3], 0, "{weakest:?}");
        let strong = count(19);
        assert_eq!(strong[3], 0, "{strong:?}");
        assert!(strong[0] > 1000, "{strong:?}");
        assert!(strong[0] > weakest[0]);
    }

    #[test]
    fn a_seen_mate_is_never_walked_into_and_a_mate_in_one_never_missed() {
        let mated = [
            line("h2e2", 20),
            line("b0c2", 0),
            line("h0g2", crate::score::mated_in(3)),
        ];
        let mating = [
            line("h2e2", crate::score::mate_in(1)),
            line("b0c2", 300),
            line("h0g2", 250),
        ];
        for seed in 0..1000 {
            assert_ne!(Skill::new(1).pick(&mated, seed).unwrap().pv, mated[2].pv);
            assert_eq!(Skill::new(1).pick(&mating, seed).unwrap().pv, mating[0].pv);
        }
        // Level 0, the beginner's level, can miss it.
        let missed = (0..1000)
            .filter(|&seed| Skill::new(0).pick(&mating, seed).unwrap().pv != mating[0].pv)
            .count();
        assert!((500..800).contains(&missed), "{missed}");
    }

    #[test]
    fn no_line_no_choice() {
        assert!(Skill::new(3).pick(&[], 1).is_none());
        let mut empty = line("h2e2", 0);
        empty.pv.clear();
        assert!(Skill::new(3).pick(&[empty], 1).is_none());
    }
}
