//! The engine's core, without threads: the game, the options, the book, the seeds and
//! the parameters, and the [`Job`] a `go` becomes.

use super::{Caps, Disk, Files, Options};
use crate::skill::{LastIteration, Skill};
use crate::time::{time_budget, Budget};
use crate::{Info, Limits, SearchParams, SearchResult};
use std::sync::Arc;
use xq_book::{Book, BookMove};
use xq_core::{Color, Move, Position, SplitMix64};
use xq_eval::nnue::Network;
use xq_movegen::Game;
use xq_tablebase::Tablebases;

/// What every runner of the engine shares: the game to search, the options, the opening
/// book, the generator of the level's and the book's random choices, and the search's
/// parameters. [`Core::job`] turns a `go` into a [`Job`].
///
/// ```
/// use xq_search::engine::{Caps, Core, Options};
/// use xq_search::skill::Skill;
/// use xq_search::Limits;
/// let mut core = Core::new(Options { skill: Skill::new(1), ..Options::default() }, Caps::default());
/// let job = core.job(Limits::depth(20));
/// // Level 1 searches at most five plies.
/// assert_eq!(job.limits().depth, Some(5));
/// ```
#[derive(Debug)]
pub struct Core {
    game: Game,
    banned: Vec<Move>,
    options: Options,
    caps: Caps,
    /// The generator of the seeds of the level's choices and of book picks.
    seeds: SplitMix64,
    book: Option<Arc<Book>>,
    tablebases: Option<Arc<Tablebases>>,
    params: SearchParams,
    /// Where the files the options name are read from.
    files: Box<dyn Files>,
    /// Evaluate with a network (else the classical evaluation)?
    pub(super) use_network: bool,
    /// The network set or loaded (`None`: the built-in one).
    pub(super) network_file: Option<Arc<Network>>,
}

impl Core {
    /// A core at the start position with `options` brought within their ranges and
    /// `caps`, its seeds from the clock.
    pub fn new(options: Options, caps: Caps) -> Core {
        let caps = caps.clamped();
        let use_network = options.network.is_some();
        let network_file = options
            .network
            .clone()
            .filter(|n| !xq_eval::nnue::default_network().is_some_and(|d| Arc::ptr_eq(n, &d)));
        Core {
            game: Game::startpos(),
            banned: Vec::new(),
            options: options.clamped(&caps),
            caps,
            seeds: SplitMix64::new(clock_seed()),
            book: None,
            tablebases: None,
            params: SearchParams::default(),
            files: Box::new(Disk),
            use_network,
            network_file,
        }
    }

    /// Where the files the options name (a network, a book) are read from: the disk
    /// unless set otherwise.
    pub fn files(&self) -> &dyn Files {
        &*self.files
    }

    /// The files, to hand some over (a web page's [`Memory`](super::Memory)).
    pub fn files_mut(&mut self) -> &mut dyn Files {
        &mut *self.files
    }

    /// Reads the files the options name from `files` from now on (a web page has no
    /// disk: it hands the engine the files it fetched, as a [`Memory`](super::Memory)).
    ///
    /// ```
    /// use xq_search::engine::{Engine, Memory, Options, SearchEngine};
    /// let mut engine = Engine::new(Options { hash_mib: 1, ..Options::default() });
    /// engine.core_mut().set_files(Box::new(Memory::default()));
    /// engine.core_mut().files_mut().put("book.xqb", vec![1, 2, 3]);
    /// let e = engine.load_book("book.xqb").unwrap_err();
    /// assert!(e.to_string().starts_with("book book.xqb: "), "{e}");
    /// ```
    pub fn set_files(&mut self, files: Box<dyn Files>) {
        self.files = files;
    }

    /// The network the evaluation options choose: the one set or loaded, else the
    /// built-in one, or `None` (the classical evaluation) when networks are off.
    pub(super) fn chosen_network(&self) -> Option<Arc<Network>> {
        if self.use_network {
            self.network_file
                .clone()
                .or_else(xq_eval::nnue::default_network)
        } else {
            None
        }
    }

    /// The current game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Sets the game to search from (a GUI's `position`); clears the banned moves.
    pub fn set_game(&mut self, game: Game) {
        self.game = game;
        self.banned.clear();
    }

    /// Forbids these moves in the current position (UCCI `banmoves`), until the next
    /// [`Core::set_game`].
    pub fn set_banned(&mut self, moves: Vec<Move>) {
        self.banned = moves;
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Sets the options, brought within their ranges and the caps. A runner applies
    /// them (`SearchEngine::set_options` does both).
    pub fn set_options(&mut self, options: Options) {
        self.options = options.clamped(&self.caps);
    }

    /// The table size the runner ended up with (it may keep the old one).
    pub(crate) fn set_hash_mib(&mut self, mib: usize) {
        self.options.hash_mib = mib;
    }

    /// The resource caps.
    pub fn caps(&self) -> &Caps {
        &self.caps
    }

    /// The search's margins, depth limits and reductions.
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Sets the parameters (a runner hands them to its searchers).
    pub fn set_params(&mut self, params: SearchParams) {
        self.params = params;
    }

    /// Seeds the generator of the level's choices and of book picks: after the same
    /// seed, the same searches choose the same moves (a reproducible game). A core starts
    /// from a seed taken from the clock.
    pub fn set_seed(&mut self, seed: u64) {
        self.seeds = SplitMix64::new(seed);
    }

    /// Sets the opening book (`None`: none). The engine plays from it when
    /// [`Options::own_book`] is on; see [`Core::job`].
    ///
    /// ```
    /// use std::sync::Arc;
    /// use xq_book::{BookBuilder, BuildOptions};
    /// use xq_search::Engine;
    /// let mut engine = Engine::default();
    /// assert!(engine.book().is_none());
    /// engine.set_book(Some(Arc::new(BookBuilder::new(BuildOptions::default()).finish())));
    /// assert!(engine.book().unwrap().is_empty());
    /// ```
    pub fn set_book(&mut self, book: Option<Arc<Book>>) {
        self.book = book;
    }

    /// The opening book, if one is set.
    pub fn book(&self) -> Option<&Book> {
        self.book.as_deref()
    }

    /// Sets the endgame tables the search consults (`None`: none), from the next search
    /// on (see [`Searcher::set_tablebases`](crate::Searcher::set_tablebases)).
    pub fn set_tablebases(&mut self, tablebases: Option<Arc<Tablebases>>) {
        self.tablebases = tablebases;
    }

    /// The endgame tables, if any are set.
    pub fn tablebases(&self) -> Option<&Arc<Tablebases>> {
        self.tablebases.as_ref()
    }

    /// The search a `go` within `limits` asks for.
    ///
    /// With [`Options::own_book`] on and a book set, a game still within
    /// [`Options::book_depth`] plies is answered from the book when it has a move for
    /// the position (among `limits`' root moves, not banned, not repeating a position
    /// of the game): picked by weight with the core's generator ([`Core::set_seed`]),
    /// or the heaviest with [`Options::best_book_move`]. Then nothing is searched: the
    /// listener hears [`Listener::book`](super::Listener::book), then the answer, which
    /// says [`from_book`](SearchResult::from_book). Infinite, ponder and mate searches
    /// are analysis: they always search.
    ///
    /// Otherwise the limits are those given, less the banned moves, within the playing
    /// level's depth and nodes and the caps' nodes; the clock and the move time become a
    /// budget that keeps [`Options::move_overhead`] back.
    pub fn job(&mut self, limits: Limits) -> Job {
        let book = self.book_answer(&limits);
        let budget = time_budget(
            limits.clock.as_ref(),
            limits.movetime,
            self.options.move_overhead,
        );
        let mut limits = limits;
        limits.banned_moves.extend(self.banned.iter().copied());
        let skill = self.options.strength();
        skill.restrict(&mut limits);
        if let Some(cap) = self.caps.max_nodes {
            limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
        }
        Job {
            game: self.game.clone(),
            limits,
            budget,
            skill,
            seed: self.seeds.next_u64(),
            shown: self.options.multipv,
            book,
        }
    }

    /// The book's answer for the current game within `limits`: the moves it offers (of
    /// those `limits` allow, not banned, not repeating a position of the game) and the
    /// one picked, with the book's reply to it as the move to ponder on.
    fn book_answer(&mut self, limits: &Limits) -> Option<BookAnswer> {
        // Analysis (infinite, mate) and pondering search.
        if !self.options.own_book || limits.infinite || limits.ponder || limits.mate.is_some() {
            return None;
        }
        let book = self.book.clone()?;
        let pos = self.game.position();
        let ply = 2 * pos.fullmove_number().saturating_sub(1)
            + u32::from(pos.side_to_move() == Color::Black);
        if ply >= self.options.book_depth {
            return None;
        }
        let earlier: Vec<u64> = (0..self.game.moves().len())
            .filter_map(|i| self.game.position_at(i).map(|p| p.key()))
            .collect();
        let moves: Vec<BookMove> = book
            .probe(pos)
            .into_iter()
            .filter(|b| limits.root_moves.is_empty() || limits.root_moves.contains(&b.mv))
            .filter(|b| !limits.banned_moves.contains(&b.mv) && !self.banned.contains(&b.mv))
            .filter(|b| {
                let mut after = pos.clone();
                after.make_move(b.mv);
                !earlier.contains(&after.key()) && after.key() != pos.key()
            })
            .collect();
        let chosen = if self.options.best_book_move {
            *moves.first()?
        } else {
            let sum: u64 = moves.iter().map(|b| u64::from(b.weight)).sum();
            let mut r = self.seeds.next_u64() % sum.max(1);
            *moves.iter().find(|b| {
                let here = r < u64::from(b.weight);
                r = r.saturating_sub(u64::from(b.weight));
                here
            })?
        };
        let mut after = pos.clone();
        after.make_move(chosen.mv);
        let ponder = book.probe(&after).first().map(|b| b.mv);
        Some(BookAnswer {
            moves,
            chosen,
            ponder,
        })
    }
}

/// One search, as a runner carries it out: the game and limits, the time it may take,
/// the level that picks the move, and the book's answer when the book has one. Made by
/// [`Core::job`].
#[derive(Clone, Debug)]
pub struct Job {
    game: Game,
    limits: Limits,
    /// The clock's budget (a ponder search starts it at `ponderhit`).
    budget: Option<Budget>,
    skill: Skill,
    /// The seed of this search's choice.
    seed: u64,
    /// The lines asked to be reported (a level may search more).
    shown: usize,
    /// The answer from the book, if there is one: then nothing is searched.
    book: Option<BookAnswer>,
}

impl Job {
    /// The game searched.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The limits of the search, within the level and the caps.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Infinite and ponder searches are held: they answer only when stopped (or, when
    /// pondering, after `ponderhit` as a normal search).
    pub fn is_held(&self) -> bool {
        self.limits.infinite || self.limits.ponder
    }

    /// The time the search may take from its start (none while it is held).
    pub(crate) fn search_budget(&self) -> Option<Budget> {
        self.budget.filter(|_| !self.is_held())
    }

    /// The clock's budget, which a ponder search starts at `ponderhit`.
    pub(crate) fn clock_budget(&self) -> Option<Budget> {
        self.budget
    }

    /// How many lines to search: those asked for, or the level's if more.
    pub(crate) fn lines(&self) -> usize {
        self.shown.max(self.skill.lines())
    }

    /// Is this line one to report (a level searches lines it does not show)?
    pub(crate) fn shows(&self, info: &Info) -> bool {
        info.multipv <= self.shown
    }

    /// The book's answer, when the book has a move: nothing is to be searched.
    pub(crate) fn book(&self) -> Option<&BookAnswer> {
        self.book.as_ref()
    }

    /// The answer: the level's pick among the lines of the last completed iteration
    /// (full strength keeps the search's own), with the expected reply kept only when
    /// it is legal after the move.
    pub(crate) fn answer(&self, mut result: SearchResult, last: &LastIteration) -> SearchResult {
        if !self.skill.is_full_strength() && !result.from_book {
            self.skill.choose(last.lines(), self.seed, &mut result);
        }
        if let Some(best) = result.best_move {
            result.ponder = legal_ponder(self.game.position(), best, result.ponder);
        }
        result
    }
}

/// The book's answer: the moves it offers, the one picked, and the book's reply to it.
#[derive(Clone, Debug)]
pub(crate) struct BookAnswer {
    pub(crate) moves: Vec<BookMove>,
    pub(crate) chosen: BookMove,
    ponder: Option<Move>,
}

impl BookAnswer {
    /// The answer as a search result: the move, its expected reply, no search.
    pub(crate) fn result(&self) -> SearchResult {
        let mut pv = vec![self.chosen.mv];
        pv.extend(self.ponder);
        SearchResult {
            best_move: Some(self.chosen.mv),
            ponder: self.ponder,
            pv,
            from_book: true,
            ..SearchResult::default()
        }
    }
}

/// The expected reply to `best` if it is legal after it.
fn legal_ponder(pos: &Position, best: Move, ponder: Option<Move>) -> Option<Move> {
    let p = ponder?;
    let mut after = pos.clone();
    xq_movegen::try_play(&mut after, best).ok()?;
    xq_movegen::is_legal(&after, p).then_some(p)
}

/// A seed from the clock, for a core nobody seeded.
fn clock_seed() -> u64 {
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0x5EED, |d| d.as_nanos() as u64)
    }
    // No system clock in a browser: the page seeds the engine if it wants variety.
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        0x5EED
    }
}
