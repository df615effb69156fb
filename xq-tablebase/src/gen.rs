//! The generator: retrograde analysis over one ending's index.
//!
//! 1. **Start.** Every numbered position with either side to move is looked at once: a
//!    broken number (pieces sharing a square, an illegal position) gets no value; a side
//!    with no legal move has lost (distance 0); a capture leads into a smaller table (or,
//!    when the last attacker is taken, to a draw) whose value is known; the other moves
//!    stay in this table and are *counted*.
//! 2. **Levels.** Level `n` holds the positions decided at distance `n`. For each of them
//!    the *unmoves* (the other side's piece stepping back to where it came from, never
//!    un-capturing) give its predecessors directly: a predecessor of a loss in `n` wins in
//!    `n + 1`; a predecessor of a win in `n` has one more of its counted moves refuted, and
//!    when none is left (and no capture draws or wins) it loses in `n + 1`, or later if a
//!    capture holds out longer. Captures that win are kept as pending wins until their
//!    level comes.
//! 3. **End.** What is still undecided is a draw.
//!
//! A level is a scan of the whole table by all threads; the value of each position is one
//! 16-bit word and its move counter one byte, both atomic, so the memory needed is three
//! bytes a position, plus the smaller tables the captures lead to (two bytes a position)
//! where they are held in memory rather than read from their files a block at a time,
//! known before anything is allocated ([`memory_needed`]).
//!
//! Positions are folded left to right: a position and its mirror image share a number.
//! When a position that is its own mirror image is a predecessor of one that is not (or
//! the other way round), one unmove stands for two moves (or two unmoves for one), and
//! the counters are decremented by the right weight.

use crate::ending::Ending;
use crate::index::{Cursor, Layout, Placement, MAX_PIECES};
use crate::value::{
    TableValue, CODE_CHASE_LOSS, CODE_CHASE_WIN, CODE_FIRST_RULE, CODE_RULE_LOSS, CODE_RULE_WIN,
};
use crate::TablebaseError;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering::Relaxed};
use std::sync::Mutex;
use xq_core::attacks::{horse_leg, Direction, Step, HORSE_ATTACKS};
use xq_core::{Color, Move, Piece, PieceKind, Position, Square};

/// Working values: the top bits say what the low bits are.
const UNKNOWN: u16 = 0;
const BROKEN: u16 = 1;
const DONE: u16 = 0x8000;
const PENDING_WIN: u16 = 0x4000;
const FLOOR: u16 = 0x2000;
pub(crate) const DIST: u16 = 0x1fff;

/// Positions handed to a thread at a time.
const CHUNK: u64 = 4096;

/// A table in memory: the codes of [`TableValue`] for each number, the attacking side
/// to move first, then the defending side.
#[derive(Clone)]
pub struct Table {
    pub(crate) layout: Layout,
    pub(crate) codes: Vec<u16>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("ending", &self.layout.ending)
            .field("numbers", &self.codes.len())
            .finish()
    }
}

/// Two tables are equal when they are of one ending and hold the same value for every
/// number of the index, broken numbers included; how many positions the chase rule
/// decided, which files do not keep, is not compared.
impl PartialEq for Table {
    fn eq(&self, other: &Table) -> bool {
        self.layout.ending == other.layout.ending && self.codes == other.codes
    }
}

impl Eq for Table {}

impl Table {
    /// The ending.
    pub fn ending(&self) -> Ending {
        self.layout.ending
    }

    /// The value stored under `index` with `side` to move (`None` when broken).
    pub(crate) fn code(&self, side: Color, index: u64) -> u16 {
        self.codes[self.layout.entry(side, index) as usize]
    }

    /// The value of `pos` for its side to move, `None` when it is not a position of this
    /// ending (either colour may be the attacking side).
    ///
    /// ```
    /// use xq_core::Position;
    /// use xq_tablebase::{generate, Ending, TableValue};
    /// let table = generate(&"KRK".parse::<Ending>().unwrap(), &[], 1, &|_| {}).unwrap();
    /// let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 b").unwrap();
    /// assert_eq!(table.probe(&pos), Some(TableValue::Loss { plies: 2 }));
    /// assert_eq!(table.probe(&Position::startpos()), None);
    /// ```
    pub fn probe(&self, pos: &Position) -> Option<TableValue> {
        let (ending, strong) = Ending::of_position(pos)?;
        if ending != self.layout.ending {
            return None;
        }
        let p = self.layout.placement(pos, strong);
        let c = self.layout.canon(&p)?;
        let side = match strong {
            Color::Red => pos.side_to_move(),
            Color::Black => !pos.side_to_move(),
        };
        TableValue::from_code(self.code(side, c.index))
    }

    /// The value of a position of this ending (with the attacking side as Red).
    pub(crate) fn value_of(&self, pos: &Position) -> Option<TableValue> {
        let p = self.layout.placement(pos, Color::Red);
        let c = self.layout.canon(&p)?;
        TableValue::from_code(self.code(pos.side_to_move(), c.index))
    }

    /// Positions (both sides to move) won or lost by the rules of perpetual check and
    /// chase ([`TableValue::RuleWin`], [`TableValue::RuleLoss`]): draws without the rules.
    ///
    /// ```
    /// use xq_tablebase::{generate, Ending};
    /// let krk = generate(&"KRK".parse::<Ending>().unwrap(), &[], 1, &|_| {}).unwrap();
    /// assert_eq!(krk.rule_decided(), 0);
    /// ```
    pub fn rule_decided(&self) -> u64 {
        self.rule_counts().decided
    }

    /// The rules' counts of the table's codes.
    pub(crate) fn rule_counts(&self) -> RuleCounts {
        self.codes
            .iter()
            .fold(RuleCounts::default(), |mut counts, &c| {
                counts.add(c);
                counts
            })
    }

    /// Of [`rule_decided`](Table::rule_decided), the positions decided by the chase rule
    /// ([`Rule::PerpetualChase`](crate::Rule::PerpetualChase): the win needs it, perpetual
    /// check alone does not give it); `None` for a table where one side has no attacker,
    /// and for a table read from a file of format version 3 or older that holds rule
    /// results, which does not say which rule decided them.
    ///
    /// ```
    /// use xq_tablebase::{generate, Ending, Table};
    /// let tables = ["KRK", "KNK", "KRKN"].iter().fold(Vec::<Table>::new(), |mut done, name| {
    ///     let subs: Vec<&Table> = done.iter().collect();
    ///     let t = generate(&name.parse::<Ending>().unwrap(), &subs, 1, &|_| {}).unwrap();
    ///     done.push(t);
    ///     done
    /// });
    /// // In KRKN the rules decide 1,597 numbers, all by perpetual check.
    /// assert_eq!(tables[2].rule_decided(), 1597);
    /// assert_eq!(tables[2].chase_decided(), Some(0));
    /// assert_eq!(tables[0].chase_decided(), None);
    /// ```
    pub fn chase_decided(&self) -> Option<u64> {
        if !self.layout.ending.both_attack() {
            return None;
        }
        self.rule_counts().chase()
    }

    /// Counts and the longest mate of the table.
    pub fn stats(&self) -> TableStats {
        Facts::of(&self.codes, 0, self.layout.size).stats(&self.layout)
    }
}

/// What the rules of perpetual check and chase decided in a table, counted a code at a
/// time: from a table in memory ([`Table::rule_counts`]) or a file read a block at a
/// time.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct RuleCounts {
    /// Positions won or lost by a rule.
    pub decided: u64,
    /// Of them, the rule wins.
    pub wins: u64,
    /// Of them, those whose win needs the chase rule.
    chase: u64,
    /// Is there a rule result that does not say its rule (format version 3 or older)?
    unnamed: bool,
}

impl RuleCounts {
    /// Counts a position's code.
    #[inline]
    pub(crate) fn add(&mut self, code: u16) {
        if code < CODE_FIRST_RULE {
            return;
        }
        match TableValue::from_code(code) {
            Some(TableValue::RuleWin { .. }) => {
                (self.decided, self.wins) = (self.decided + 1, self.wins + 1)
            }
            Some(TableValue::RuleLoss { .. }) => self.decided += 1,
            _ => {}
        }
        match code {
            CODE_CHASE_LOSS | CODE_CHASE_WIN => self.chase += 1,
            CODE_RULE_LOSS | CODE_RULE_WIN => self.unnamed = true,
            _ => {}
        }
    }

    /// The positions decided by the chase rule; `None` when a rule result does not say
    /// its rule.
    pub(crate) fn chase(&self) -> Option<u64> {
        (!self.unnamed).then_some(self.chase)
    }
}

/// What a table holds: positions, wins, draws and losses for each side to move, the
/// longest mate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TableStats {
    /// The ending.
    pub ending: Ending,
    /// Numbers per side to move (legal positions and broken numbers).
    pub numbers_per_side: u64,
    /// Numbers that are no position, both sides to move together.
    pub broken: u64,
    /// Losses, draws and wins (indexed by [`TableResult`](crate::TableResult) as `usize`) with the
    /// attacking side to move (`counts[0]`) and the defending side (`counts[1]`).
    pub counts: [[u64; 3]; 2],
    /// The longest distance to mate in plies.
    pub longest: u16,
}

impl TableStats {
    /// Legal positions, both sides to move.
    pub fn positions(&self) -> u64 {
        self.counts.iter().flatten().sum()
    }

    /// Positions won for the side to move, both sides to move.
    pub fn wins(&self) -> u64 {
        self.counts[0][2] + self.counts[1][2]
    }

    /// Drawn positions, both sides to move.
    pub fn draws(&self) -> u64 {
        self.counts[0][1] + self.counts[1][1]
    }

    /// Positions lost for the side to move, both sides to move.
    pub fn losses(&self) -> u64 {
        self.counts[0][0] + self.counts[1][0]
    }

    /// The share of the positions with the attacking side to move that it wins.
    pub fn attacker_wins(&self) -> f64 {
        self.counts[0][2] as f64 / self.counts[0].iter().sum::<u64>().max(1) as f64
    }
}

/// What a file's header needs to know of a run of entries (the whole table, or a part's
/// share of it); the facts of consecutive runs add up ([`Facts::add`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Facts {
    /// Losses, draws and wins with the attacking side to move, then the defending side.
    pub counts: [[u64; 3]; 2],
    /// Broken numbers.
    pub broken: u64,
    /// The longest distance to mate in plies.
    pub longest: u16,
    /// The largest code below the rules' codes.
    pub longest_code: u16,
    /// A rule result whose rule is not recorded.
    pub unrecorded: bool,
    /// The last code that is not 0 (broken), 0 where every one is.
    pub last: u16,
}

impl Facts {
    /// The facts of `codes`, the entries from `first` on of a table of `size` numbers a
    /// side to move.
    pub(crate) fn of(codes: &[u16], first: u64, size: u64) -> Facts {
        let mut f = Facts::default();
        for (i, &c) in codes.iter().enumerate() {
            match TableValue::from_code(c) {
                None => f.broken += 1,
                Some(v) => {
                    let half = usize::from(first + i as u64 >= size);
                    f.counts[half][v.result() as usize] += 1;
                    if let Some(p) = v.plies() {
                        f.longest = f.longest.max(p);
                    }
                    f.last = c;
                }
            }
            if c < CODE_FIRST_RULE {
                f.longest_code = f.longest_code.max(c);
            }
            f.unrecorded |= c >= CODE_RULE_LOSS;
        }
        f
    }

    /// The facts of this run followed by `next`.
    pub(crate) fn add(&self, next: &Facts) -> Facts {
        let mut counts = self.counts;
        for (c, n) in counts
            .iter_mut()
            .flatten()
            .zip(next.counts.iter().flatten())
        {
            *c += n;
        }
        Facts {
            counts,
            broken: self.broken + next.broken,
            longest: self.longest.max(next.longest),
            longest_code: self.longest_code.max(next.longest_code),
            unrecorded: self.unrecorded || next.unrecorded,
            last: if next.last != 0 { next.last } else { self.last },
        }
    }

    /// What a table of `layout` with these facts (of all its entries) holds.
    pub(crate) fn stats(&self, layout: &Layout) -> TableStats {
        TableStats {
            ending: layout.ending,
            numbers_per_side: layout.size,
            broken: self.broken,
            counts: self.counts,
            longest: self.longest,
        }
    }
}

/// What the generator is doing, for a progress bar.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Looking at every position once: `done` of `total` numbers.
    Start {
        /// Numbers done.
        done: u64,
        /// Numbers in all.
        total: u64,
    },
    /// Scanning level `level` (distance to mate in plies): `done` of `total` numbers.
    Level {
        /// The distance being propagated.
        level: u16,
        /// Numbers done.
        done: u64,
        /// Numbers in all.
        total: u64,
    },
}

/// Bytes a number the pass of the rules of perpetual check and chase holds whatever the
/// draws: the table's codes (2) and the map from numbers to the game's nodes (a quarter:
/// 16 bytes a word of 64 numbers), in quarters of a byte.
const RULE_QUARTERS_A_NUMBER: u64 = 9;

/// Bytes a drawn position the pass of the rules holds at its peak: its facts (whose
/// turn, check, exits, what each side chases: 6 bytes) and the two winners' games
/// solved side by side, each with its sets (a bit a node) and its attractors' move
/// counters (a byte a node); measured, 10.5 to 11: KNKCAA's 2,956,094 draws of 5,248,800
/// numbers peaked at 49.4 MiB, KRKCAA's 1,379,102 at 34.0 MiB, with 8.5 for the program.
const RULE_BYTES_A_DRAW: u64 = 11;

/// Bytes of memory [`make`](crate::make) (and so `xq tb gen`) needs for `ending` at
/// most: three bytes a number of its own while it is generated (the tables its captures
/// lead to are read from their files a block at a time); where both sides attack, the
/// pass of the rules after it needs more, 2.25 bytes a number and about 11 a drawn
/// position, counted here as if every number were a draw (how many are is known only
/// once the ending is generated: from a few in a thousand in KRKN to more than half in
/// KNKCAA, which peaked at 49.4 MiB of the 66.3 MiB counted). [`generate`](crate::generate),
/// given the captures' tables in memory, needs their two bytes a number as well.
///
/// ```
/// use xq_tablebase::{memory_needed, table_size, Ending};
/// let krk: Ending = "KRK".parse().unwrap();
/// assert_eq!(memory_needed(&krk), 2 * 4050 * 3); // no table below KRK
/// // KRKA's captures lead to KRK, read from its file.
/// let krka: Ending = "KRKA".parse().unwrap();
/// assert_eq!(memory_needed(&krka), 3 * table_size(&krka));
/// // Both sides attack in KRKN: the pass of the rules, as if every number were a draw.
/// let krkn: Ending = "KRKN".parse().unwrap();
/// assert_eq!(memory_needed(&krkn), 13 * table_size(&krkn) + table_size(&krkn) / 4);
/// ```
pub fn memory_needed(ending: &Ending) -> u64 {
    let numbers = table_size(ending);
    let generation = 3 * numbers;
    if !ending.both_attack() {
        return generation;
    }
    generation.max(RULE_QUARTERS_A_NUMBER * numbers / 4 + RULE_BYTES_A_DRAW * numbers)
}

/// The numbers of one ending's table (both sides to move).
///
/// ```
/// use xq_tablebase::{table_size, Ending};
/// assert_eq!(table_size(&"KRK".parse::<Ending>().unwrap()), 2 * 45 * 90);
/// ```
pub fn table_size(ending: &Ending) -> u64 {
    2 * Layout::new(*ending).size
}

/// The retrograde analysis of [`generate`](crate::generate): every forced mate; what it
/// leaves undecided is a draw (before the pass of the rules of perpetual check and chase,
/// for endings where both sides attack).
///
/// # Errors
/// [`TablebaseError::MissingTable`] when a table a capture leads to is not given.
///
/// # Errors
/// From reading the tables the captures lead to (files).
pub(crate) fn retrograde(
    ending: &Ending,
    subtables: &dyn CaptureValues,
    threads: usize,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Table, TablebaseError> {
    let threads = threads.max(1);
    let layout = Layout::new(*ending);
    let entries = Entries::new(0..2 * layout.size);
    let gen = Generator {
        layout: &layout,
        subs: subtables,
        entries: &entries,
    };
    gen.start(threads, progress)?;
    let mut level: u16 = 0;
    loop {
        let found = gen.level(level, threads, progress, &|_| {
            unreachable!("the whole table holds every predecessor")
        });
        if found == 0 && u32::from(level) >= entries.furthest.load(Relaxed) {
            break;
        }
        level += 1;
        assert!(level < DIST, "distance to mate beyond {DIST} plies");
    }
    Ok(Table {
        codes: entries.into_codes(),
        layout,
    })
}

/// [`TablebaseError::MissingTable`] unless `subtables` hold every ending a capture in
/// `ending` leads to.
pub(crate) fn check_captures(ending: &Ending, subtables: &[&Table]) -> Result<(), TablebaseError> {
    match ending
        .captures()
        .into_iter()
        .find(|sub| !subtables.iter().any(|t| t.layout.ending == *sub))
    {
        Some(sub) => Err(TablebaseError::MissingTable(sub)),
        None => Ok(()),
    }
}

/// The first error of the threads of a parallel step ([`parallel`]): once one is set, the
/// others stop at their next chunk (they ask [`FirstError::failed`]).
#[derive(Default)]
pub(crate) struct FirstError {
    error: Mutex<Option<TablebaseError>>,
    failed: AtomicBool,
}

impl FirstError {
    /// Keeps `e` unless an error is kept already.
    pub(crate) fn set(&self, e: TablebaseError) {
        self.failed.store(true, Relaxed);
        self.error
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert(e);
    }

    /// Whether an error is kept.
    pub(crate) fn failed(&self) -> bool {
        self.failed.load(Relaxed)
    }

    /// `Ok(value)`, or the error kept.
    pub(crate) fn or<T>(self, value: T) -> Result<T, TablebaseError> {
        match self.error.into_inner().unwrap_or_else(|e| e.into_inner()) {
            Some(e) => Err(e),
            None => Ok(value),
        }
    }
}

/// Runs `work` on chunks of `0..total` on `threads` threads.
pub(crate) fn parallel(threads: usize, total: u64, work: impl Fn(std::ops::Range<u64>) + Sync) {
    let next = AtomicU64::new(0);
    let run = || loop {
        let start = next.fetch_add(CHUNK, Relaxed);
        if start >= total {
            break;
        }
        work(start..(start + CHUNK).min(total));
    };
    if threads == 1 {
        run();
    } else {
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(run);
            }
        });
    }
}

/// Runs `work` on the items of `items`, `chunk` of them at a time, on `threads` threads;
/// each thread makes its own state first (`state`), and `work` gets it, the index of the
/// chunk's first item and the chunk.
pub(crate) fn for_chunks<T: Send, S>(
    threads: usize,
    items: &mut [T],
    chunk: usize,
    state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize, &mut [T]) + Sync,
) {
    let chunks = std::sync::Mutex::new(items.chunks_mut(chunk).enumerate());
    let run = || {
        let mut s = state();
        loop {
            let next = chunks.lock().unwrap_or_else(|e| e.into_inner()).next();
            let Some((c, items)) = next else { break };
            work(&mut s, c * chunk, items);
        }
    };
    if threads <= 1 {
        run();
    } else {
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(run);
            }
        });
    }
}

/// The working values of a range of entries (an entry is a number with a side to move:
/// the attacking side's numbers first, then the defending side's): the whole table, or
/// one part's share of it ([`Part`](crate::Part)).
pub(crate) struct Entries {
    /// The first entry held; `val` and `cnt` hold the entries from here on.
    first: u64,
    val: Vec<AtomicU16>,
    cnt: Vec<AtomicU8>,
    /// The furthest level a value was set for ahead of the current one.
    pub(crate) furthest: AtomicU32,
}

impl Entries {
    /// The entries `range`, every value unknown.
    pub(crate) fn new(range: std::ops::Range<u64>) -> Entries {
        let n = range.end - range.start;
        Entries {
            first: range.start,
            val: (0..n).map(|_| AtomicU16::new(UNKNOWN)).collect(),
            cnt: (0..n).map(|_| AtomicU8::new(0)).collect(),
            furthest: AtomicU32::new(0),
        }
    }

    /// Where entry `e` is in `val` and `cnt`, if it is held.
    pub(crate) fn held(&self, e: u64) -> Option<usize> {
        e.checked_sub(self.first)
            .filter(|&i| i < self.val.len() as u64)
            .map(|i| i as usize)
    }

    /// The codes of [`TableValue`] of the entries held: what is still undecided is a draw.
    /// The counters go first, and the values become the codes in place (the same
    /// allocation: `AtomicU16` and `u16` have one layout), so the peak stays at three
    /// bytes a position.
    pub(crate) fn into_codes(self) -> Vec<u16> {
        let Entries { val, cnt, .. } = self;
        drop(cnt);
        val.into_iter()
            .map(|v| {
                let v = v.into_inner();
                if v == BROKEN {
                    0
                } else if v & DONE != 0 {
                    2 + (v & DIST)
                } else {
                    1
                }
            })
            .collect()
    }
}

/// The retrograde analysis over the entries of `entries`: the predecessors of its
/// positions that it does not hold go to their own parts.
pub(crate) struct Generator<'a> {
    pub(crate) layout: &'a Layout,
    pub(crate) subs: &'a dyn CaptureValues,
    pub(crate) entries: &'a Entries,
}

/// The side to move of the entry `e` and its number.
pub(crate) fn split(e: u64, size: u64) -> (Color, u64) {
    if e < size {
        (Color::Red, e)
    } else {
        (Color::Black, e - size)
    }
}

impl<'a> Generator<'a> {
    /// The numbers with at least one entry held, as at most two ranges.
    fn numbers(&self) -> Vec<std::ops::Range<u64>> {
        let size = self.layout.size;
        let (first, end) = (
            self.entries.first,
            self.entries.first + self.entries.val.len() as u64,
        );
        let mut out: Vec<std::ops::Range<u64>> = Vec::new();
        for r in [
            first.min(size)..end.min(size),
            first.max(size) - size..end.max(size) - size,
        ] {
            if r.is_empty() {
                continue;
            }
            match out.first_mut() {
                Some(o) if r.start <= o.end && o.start <= r.end => {
                    *o = o.start.min(r.start)..o.end.max(r.end);
                }
                _ => out.push(r),
            }
        }
        out
    }

    /// Step 1 for every entry held, on `threads` threads.
    ///
    /// # Errors
    /// The first error reading the tables the captures lead to (from files); the other
    /// threads stop at their next chunk.
    pub(crate) fn start(
        &self,
        threads: usize,
        progress: &(dyn Fn(Progress) + Sync),
    ) -> Result<(), TablebaseError> {
        let ranges = self.numbers();
        let total: u64 = ranges.iter().map(|r| r.end - r.start).sum();
        let done = AtomicU64::new(0);
        let failure = FirstError::default();
        for r in ranges {
            parallel(threads, r.end - r.start, |range| {
                if failure.failed() {
                    return;
                }
                let mut p = [Square::A0; MAX_PIECES];
                let mut cursor = Cursor::new(self.layout);
                for i in range.clone() {
                    if let Err(e) = self.start_number(r.start + i, &mut p, &mut cursor) {
                        return failure.set(e);
                    }
                }
                let n = range.end - range.start;
                let d = done.fetch_add(n, Relaxed) + n;
                progress(Progress::Start { done: d, total });
            });
        }
        failure.or(())
    }

    /// Step 2 at `level` for every entry held, on `threads` threads: the entries decided
    /// at that distance update their predecessors, those held here at once and the others
    /// through `away`, a batch at a time (each the entry and the weight of the unmove, see
    /// [`Generator::update`]). Returns how many entries were decided at `level`.
    pub(crate) fn level(
        &self,
        level: u16,
        threads: usize,
        progress: &(dyn Fn(Progress) + Sync),
        away: &(dyn Fn(Vec<(u64, u8)>) + Sync),
    ) -> u64 {
        let found = AtomicU64::new(0);
        let done = AtomicU64::new(0);
        let total = self.entries.val.len() as u64;
        parallel(threads, total, |range| {
            let mut p = [Square::A0; MAX_PIECES];
            let mut cursor = Cursor::new(self.layout);
            let mut n = 0;
            let mut out = Vec::new();
            for i in range.clone() {
                let e = self.entries.first + i;
                n += self.level_entry(e, level, &mut p, &mut cursor, &mut out) as u64;
            }
            if !out.is_empty() {
                away(out);
            }
            found.fetch_add(n, Relaxed);
            let d = done.fetch_add(range.end - range.start, Relaxed) + range.end - range.start;
            progress(Progress::Level {
                level,
                done: d,
                total,
            });
        });
        found.into_inner()
    }

    /// Step 1 for the number `i`, each side to move whose entry is held.
    fn start_number(
        &self,
        i: u64,
        p: &mut Placement,
        cursor: &mut Cursor<'_>,
    ) -> Result<(), TablebaseError> {
        let canonical = self.layout.decode(i, p);
        for side in Color::ALL {
            let Some(e) = self.entries.held(self.layout.entry(side, i)) else {
                continue;
            };
            let pos = if canonical {
                cursor.position(p, side)
            } else {
                None
            };
            let Some(pos) = pos else {
                self.entries.val[e].store(BROKEN, Relaxed);
                continue;
            };
            let moves = xq_movegen::legal_moves(pos);
            if moves.is_empty() {
                self.entries.val[e].store(DONE, Relaxed);
                continue;
            }
            let mut count = 0u8;
            let mut win: Option<u16> = None;
            let mut floor = 0u16;
            for &m in &moves {
                let Some(captured) = pos.piece_on(m.to()) else {
                    count += 1;
                    continue;
                };
                let undo = pos.make_move(m);
                let child = self.subs.capture_value(&self.layout.ending, pos, captured);
                pos.unmake_move(m, undo);
                let child = child?;
                match child.for_mover() {
                    TableValue::Win { plies } => win = Some(win.map_or(plies, |w| w.min(plies))),
                    // Results of the rules of perpetual check and chase are no mates: such
                    // a move keeps the position from being decided here, and the rules'
                    // own pass (`rule::apply`) judges it.
                    TableValue::Draw | TableValue::RuleWin { .. } | TableValue::RuleLoss { .. } => {
                        count += 1
                    }
                    TableValue::Loss { plies } => floor = floor.max(plies),
                }
            }
            let v = if let Some(w) = win {
                PENDING_WIN | w
            } else if count == 0 {
                DONE | floor
            } else {
                self.entries.cnt[e].store(count, Relaxed);
                if floor > 0 {
                    FLOOR | floor
                } else {
                    UNKNOWN
                }
            };
            let ahead = match v & !DIST {
                PENDING_WIN | DONE | FLOOR => u32::from(v & DIST),
                _ => 0,
            };
            self.entries.furthest.fetch_max(ahead, Relaxed);
            self.entries.val[e].store(v, Relaxed);
        }
        Ok(())
    }

    /// Step 2 for entry `e` (held) at `level`: is it decided at that distance? Then its
    /// predecessors are updated.
    fn level_entry(
        &self,
        e: u64,
        level: u16,
        p: &mut Placement,
        cursor: &mut Cursor<'_>,
        away: &mut Vec<(u64, u8)>,
    ) -> bool {
        let at = (e - self.entries.first) as usize;
        let v = self.entries.val[at].load(Relaxed);
        if v == PENDING_WIN | level {
            self.entries.val[at].store(DONE | level, Relaxed);
        } else if v != DONE | level {
            return false;
        }
        let (side, index) = split(e, self.layout.size);
        let canonical = self.layout.decode(index, p);
        debug_assert!(canonical);
        let pos = cursor
            .position(p, side)
            .expect("a decided position is legal");
        let symmetric = self.layout.canon(p).is_some_and(|c| c.symmetric);
        let lost = level % 2 == 0;
        unmoves(self.layout, pos, p, |canon| {
            let j = self.layout.entry(!side, canon.index);
            // A predecessor of a loss wins whatever the weight; one of a win counts it.
            let weight = if lost {
                1
            } else {
                match unmove_weight(symmetric, canon) {
                    Some(w) => w,
                    None => return,
                }
            };
            match self.entries.held(j) {
                Some(j) => self.update(j, level, weight),
                None => away.push((j, weight)),
            }
        });
        true
    }

    /// The predecessor at `j` (in `val`) of a position decided at `level`: where that is
    /// a loss, the predecessor wins at `level + 1`; where it is a win, `weight` more of the
    /// predecessor's moves are refuted, and when none is left it loses.
    pub(crate) fn update(&self, j: usize, level: u16, weight: u8) {
        let next = level + 1;
        if level % 2 == 0 {
            let mut cur = self.entries.val[j].load(Relaxed);
            while cur & DONE == 0 && cur != BROKEN {
                match self.entries.val[j].compare_exchange_weak(cur, DONE | next, Relaxed, Relaxed)
                {
                    Ok(_) => break,
                    Err(now) => cur = now,
                }
            }
        } else {
            let cur = self.entries.val[j].load(Relaxed);
            if cur & (DONE | PENDING_WIN) != 0 || cur == BROKEN {
                return;
            }
            let before = self.entries.cnt[j].fetch_sub(weight, Relaxed);
            debug_assert!(before >= weight, "move counter below zero");
            if before == weight {
                let floor = if cur & FLOOR != 0 { cur & DIST } else { 0 };
                let at = next.max(floor);
                self.entries.furthest.fetch_max(u32::from(at), Relaxed);
                self.entries.val[j].store(DONE | at, Relaxed);
            }
        }
    }
}

/// How many of a predecessor's moves one unmove from a position stands for: one unmove
/// per move when both or neither are symmetric; see the module docs otherwise. `None`:
/// this unmove is the mirror image of another one that already counts.
pub(crate) fn unmove_weight(symmetric: bool, predecessor: crate::index::Canon) -> Option<u8> {
    match (symmetric, predecessor.symmetric) {
        (true, _) if !predecessor.is_self => None,
        (false, true) => Some(2),
        _ => Some(1),
    }
}

/// Where the generator and the forward pass find the values of the positions an
/// ending's captures lead to: the tables in memory ([`InMemory`]), or their distance
/// files ([`Tablebases`](crate::Tablebases)), whose blocks are read as they are needed (a
/// few cached a file), so that the memory holds only the ending's own values.
pub(crate) trait CaptureValues: Sync {
    /// The value, for its side to move, of `child`, reached by capturing `captured` in a
    /// position of `ending` (with the attacking side as Red).
    ///
    /// # Errors
    /// A file that cannot be read or is damaged; [`TablebaseError::MissingTable`] when
    /// the position is in no file (the file of its ending is missing).
    fn capture_value(
        &self,
        ending: &Ending,
        child: &Position,
        captured: Piece,
    ) -> Result<TableValue, TablebaseError>;
}

/// The tables the captures lead to, in memory.
pub(crate) struct InMemory<'a>(pub(crate) &'a [&'a Table]);

impl CaptureValues for InMemory<'_> {
    fn capture_value(
        &self,
        ending: &Ending,
        child: &Position,
        captured: Piece,
    ) -> Result<TableValue, TablebaseError> {
        Ok(capture_value(ending, self.0, child, captured))
    }
}

/// The value of a position in which the last attacker was just taken: a draw by
/// insufficient material, unless the side to move has no legal move (which the rules
/// judge first).
pub(crate) fn no_attacker_left(child: &Position) -> TableValue {
    if xq_movegen::count_legal(child) == 0 {
        TableValue::Loss { plies: 0 }
    } else {
        TableValue::Draw
    }
}

/// The value, for its side to move, of a position reached by capturing `captured` in a
/// position of `ending` (with the attacking side as Red), from the tables in memory.
pub(crate) fn capture_value(
    ending: &Ending,
    subs: &[&Table],
    child: &Position,
    captured: Piece,
) -> TableValue {
    match ending.after_capture(captured) {
        None => no_attacker_left(child),
        Some(sub) => {
            let table = subs
                .iter()
                .find(|t| t.layout.ending == sub)
                .expect("checked before generating");
            // When both sides attack, the ending left may have its attacking side in
            // Black (the horse after the chariot falls): look it up either way.
            let value = if ending.both_attack() {
                table.probe(child)
            } else {
                table.value_of(child)
            };
            value.expect("a legal position")
        }
    }
}

/// Calls `found` with the number of every legal predecessor of `pos` (a position of
/// `layout` whose placement is `p`): every position in which the side not to move in
/// `pos` moved one of its pieces, without capturing, to reach `pos`.
pub(crate) fn unmoves(
    layout: &Layout,
    pos: &mut Position,
    p: &Placement,
    mut found: impl FnMut(crate::index::Canon),
) {
    let them = !pos.side_to_move();
    let n = layout.slots.len();
    let mut origins = arrayvec::ArrayVec::<Square, 24>::new();
    for slot in 0..n {
        let piece = layout.slots[slot];
        if piece.color != them {
            continue;
        }
        let to = p[slot];
        origins.clear();
        unmove_origins(pos, piece, to, &mut origins);
        for &from in &origins {
            // Play the move back: the other side "moves" from `to` to `from`.
            let null = pos.make_null();
            let m = Move::new(to, from);
            let undo = pos.make_move(m);
            let illegal = pos.is_check();
            pos.unmake_move(m, undo);
            pos.unmake_null(null);
            if illegal {
                continue;
            }
            let mut q = *p;
            q[slot] = from;
            if let Some(c) = layout.canon(&q) {
                found(c);
            }
        }
    }
}

/// The empty squares from which `piece` could have moved to `to` without capturing.
fn unmove_origins(
    pos: &Position,
    piece: Piece,
    to: Square,
    out: &mut arrayvec::ArrayVec<Square, 24>,
) {
    let mut add = |s: Option<Square>| {
        if let Some(s) = s {
            if pos.is_empty(s) && piece.can_stand_on(s) {
                out.push(s);
            }
        }
    };
    match piece.kind {
        PieceKind::General => {
            for step in Step::ORTHOGONAL {
                add(to.offset(step));
            }
        }
        PieceKind::Advisor => {
            for step in Step::DIAGONAL {
                add(to.offset(step));
            }
        }
        PieceKind::Elephant => {
            for step in Step::DIAGONAL {
                if let Some(eye) = to.offset(step) {
                    if pos.is_empty(eye) {
                        add(eye.offset(step));
                    }
                }
            }
        }
        PieceKind::Horse => {
            for (leg, froms) in HORSE_ATTACKS {
                if to.offset(leg).is_some_and(|l| pos.is_empty(l)) {
                    for f in froms {
                        let from = to.offset(f);
                        debug_assert!(from.is_none_or(|s| horse_leg(s, to) == to.offset(leg)));
                        add(from);
                    }
                }
            }
        }
        PieceKind::Chariot | PieceKind::Cannon => {
            for dir in Direction::ALL {
                let mut s = to.offset(dir.step());
                while let Some(sq) = s {
                    if !pos.is_empty(sq) {
                        break;
                    }
                    out.push(sq);
                    s = sq.offset(dir.step());
                }
            }
        }
        PieceKind::Soldier => {
            add(to.offset(Step::forward(piece.color).reverse()));
            if to.half() != piece.color {
                add(to.offset(Step::LEFT));
                add(to.offset(Step::RIGHT));
            }
        }
    }
}
