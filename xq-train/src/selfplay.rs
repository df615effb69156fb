//! Self-play: the engine plays itself to make training data.
//!
//! Each game starts from the start position (or from one of [`Settings::openings`]) with
//! a few random legal plies, then both sides search a fixed number of nodes per move,
//! with a fresh searcher and table, until the rules end the game
//! (`xq_movegen::Game::outcome`: mate, stalemate, perpetual check or chase, repetition,
//! the 60-move rule, insufficient material), a side keeps a winning score (the win
//! adjudication, below), or the ply cap is reached (a draw).
//!
//! Game `index` of a run seeded with `seed` draws its random plies from its own generator,
//! seeded from the two: a game is the same whatever the thread or the machine that plays
//! it, and [`generate`] returns the games in index order, the same for any thread count.
//! `xq datagen` is this loop with files and a progress bar around it.
//!
//! Win adjudication: when the score says the same side is winning by at least
//! [`Settings::resign`] centipawns (or mates) after [`RESIGN_PLIES`] plies in a row, that
//! side wins.
//!
//! A game is kept whole ([`SelfPlayGame`]): every move with the search's score of the
//! position it was played in ([`NO_SCORE`] for the random plies and mate scores), and
//! for a game won by adjudication the move the search chose last. The binary form
//! ([`crate::binary`]) stores it as it is; the text form ([`crate::text`]) keeps its
//! quiet positions ([`SelfPlayGame::quiet_positions`]).
//!
//! ```
//! use xq_train::selfplay::{generate, play, Settings};
//! let settings = Settings {
//!     nodes: 100,
//!     max_plies: 30,
//!     network: None, // the classical evaluation
//!     ..Settings::default()
//! };
//! let games = generate(&settings, 7, 2, 2).unwrap();
//! assert_eq!(games.len(), 2);
//! // Each game depends on the seed and its index alone.
//! assert_eq!(games[1], play(&settings, 7, 1).unwrap());
//! assert!(games[0].plies.len() <= 30);
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use xq_core::{Color, Move, Position, SplitMix64};
use xq_eval::nnue::{default_network, Network};
use xq_movegen::{legal_moves, Game, GameResult};
use xq_search::tt::TableError;
use xq_search::{Limits, Score, Searcher};

/// The score of a move that was not searched (a random opening move), or whose search
/// found a mate.
pub const NO_SCORE: i16 = i16::MIN;

/// Plies in a row the win adjudication waits for.
pub const RESIGN_PLIES: u32 = 8;

/// The most threads [`generate`] plays on.
pub const MAX_THREADS: usize = 1024;

/// One self-play game: its start, its result, and each ply's move with the score of the
/// position it was played in (side to move's view, centipawns, or [`NO_SCORE`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfPlayGame {
    /// The position before the first move.
    pub start: Position,
    /// How the game ended.
    pub result: GameResult,
    /// The moves, each with the score of the position before it.
    pub plies: Vec<(Move, i16)>,
}

impl SelfPlayGame {
    /// Every position of the game with the move played from it and that move's score:
    /// `(position, move, score)`, the start first.
    pub fn positions(&self) -> impl Iterator<Item = (Position, Move, i16)> + '_ {
        let mut pos = self.start.clone();
        self.plies.iter().map(move |&(m, score)| {
            let before = pos.clone();
            pos.make_move(m);
            (before, m, score)
        })
    }

    /// The positions a trainer learns from, the ones `xq datagen`'s text form keeps:
    /// those with a score (not a random opening move, not a mate), not in check, and
    /// whose move is not a capture. Each with its score, from its side to move's view.
    ///
    /// ```
    /// use xq_core::Position;
    /// use xq_movegen::GameResult;
    /// use xq_train::selfplay::{SelfPlayGame, NO_SCORE};
    /// let game = SelfPlayGame {
    ///     start: Position::startpos(),
    ///     result: GameResult::Draw,
    ///     plies: ["h2e2", "h9g7", "b0c2", "i9h9", "e2e6"]
    ///         .iter()
    ///         .zip([NO_SCORE, 10, -20, 5, 30])
    ///         .map(|(m, s)| (m.parse().unwrap(), s))
    ///         .collect(),
    /// };
    /// // The random first move has no score and the last move captures a soldier.
    /// let kept: Vec<i16> = game.quiet_positions().map(|(_, score)| score).collect();
    /// assert_eq!(kept, [10, -20, 5]);
    /// ```
    pub fn quiet_positions(&self) -> impl Iterator<Item = (Position, i16)> + '_ {
        self.positions().filter_map(|(pos, m, score)| {
            (score != NO_SCORE && !pos.is_check() && pos.is_empty(m.to())).then_some((pos, score))
        })
    }
}

/// How the games of a run are played.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Nodes searched per move (default 5,000).
    pub nodes: u64,
    /// Random legal plies played at the start of each game, after the opening's moves
    /// (default 8).
    pub random_plies: usize,
    /// A game still going after this many plies is a draw (default 400). The opening's
    /// moves and the random plies are played whatever this says.
    pub max_plies: usize,
    /// The win adjudication's threshold in centipawns (default 1,500; 0 or less turns
    /// it off).
    pub resign: i32,
    /// The transposition table of each game, MiB (default 16).
    pub hash_mib: usize,
    /// The network both sides evaluate with; `None` for the classical evaluation
    /// (default: the built-in network, [`default_network`]).
    pub network: Option<Arc<Network>>,
    /// The openings games start from (default none: the start position). Game `index`
    /// starts from `openings[index % openings.len()]`: its start, then its moves as
    /// plies without a score ([`NO_SCORE`]), then [`Settings::random_plies`] random
    /// plies.
    pub openings: Vec<Game>,
}

impl Default for Settings {
    /// `xq datagen`'s defaults.
    fn default() -> Settings {
        Settings {
            nodes: 5000,
            random_plies: 8,
            max_plies: 400,
            resign: 1500,
            hash_mib: 16,
            network: default_network(),
            openings: Vec::new(),
        }
    }
}

/// Why self-play could not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SelfPlayError {
    /// A thread count of 0 or above [`MAX_THREADS`].
    Threads(usize),
    /// A game's transposition table could not be allocated.
    Table(TableError),
}

impl fmt::Display for SelfPlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SelfPlayError::Threads(n) => {
                write!(f, "{n} threads: self-play runs on 1 to {MAX_THREADS}")
            }
            SelfPlayError::Table(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SelfPlayError {}

impl From<TableError> for SelfPlayError {
    fn from(e: TableError) -> SelfPlayError {
        SelfPlayError::Table(e)
    }
}

/// The generator of game `game` for the run seeded with `seed`: every game its own
/// stream, the same for any thread count.
fn game_rng(seed: u64, game: u64) -> SplitMix64 {
    let base = SplitMix64::new(seed).next_u64();
    SplitMix64::new(base ^ game.wrapping_mul(0xd1b5_4a32_d192_ed03))
}

/// A score as a game keeps it.
fn packed(score: Score) -> i16 {
    match score {
        Score::Cp(cp) => cp.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16,
        Score::Mate(_) => NO_SCORE,
    }
}

/// Plays game `index` of the run seeded with `seed`.
///
/// # Errors
/// The game's transposition table cannot be allocated.
pub fn play(settings: &Settings, seed: u64, index: u64) -> Result<SelfPlayGame, SelfPlayError> {
    let mut rng = game_rng(seed, index);
    let mut game = match settings.openings.len() {
        0 => Game::startpos(),
        n => settings.openings[(index % n as u64) as usize].clone(),
    };
    let mut plies: Vec<(Move, i16)> = game.moves().iter().map(|&m| (m, NO_SCORE)).collect();
    for _ in 0..settings.random_plies {
        if game.outcome().is_some() {
            break;
        }
        let moves = legal_moves(game.position());
        let m = moves[rng.below(moves.len() as u64) as usize];
        game.play(m).expect("a legal move");
        plies.push((m, NO_SCORE));
    }
    let mut searcher = Searcher::try_new(settings.hash_mib)?;
    searcher.set_network(settings.network.clone());
    let stop = AtomicBool::new(false);
    let limits = Limits::nodes(settings.nodes);
    let mut streak: (Option<Color>, u32) = (None, 0);
    let result =
        loop {
            if let Some(result) = game.outcome().map(|o| o.result) {
                break result;
            }
            if game.moves().len() >= settings.max_plies {
                break GameResult::Draw;
            }
            let side = game.position().side_to_move();
            let r = searcher.search(&game, &limits, &stop, |_| {});
            // The referee has seen that the side to move has a legal move.
            let m = r.best_move.expect("a legal move to play");
            // Kept even when the game is adjudicated before it is played: the position was
            // searched, and the text form keeps it.
            plies.push((m, packed(r.score)));
            let winner =
                match r.score {
                    Score::Cp(cp) => (settings.resign > 0 && cp.abs() >= settings.resign)
                        .then(|| if cp > 0 { side } else { !side }),
                    Score::Mate(n) => Some(if n > 0 { side } else { !side }),
                };
            streak = match winner {
                Some(w) if streak.0 == Some(w) => (Some(w), streak.1 + 1),
                Some(w) => (Some(w), 1),
                None => (None, 0),
            };
            if settings.resign > 0 && streak.1 >= RESIGN_PLIES {
                if let Some(w) = streak.0 {
                    break GameResult::loss_for(!w);
                }
            }
            game.play(m).expect("the search plays legal moves");
        };
    Ok(SelfPlayGame {
        start: game.start().clone(),
        result,
        plies,
    })
}

impl Settings {
    /// Checks what [`generate_each`] checks before its first game: the thread count, and
    /// that the system gives a table of [`Settings::hash_mib`].
    ///
    /// # Errors
    /// As [`generate_each`].
    ///
    /// ```
    /// use xq_train::selfplay::{SelfPlayError, Settings};
    /// let settings = Settings::default();
    /// assert_eq!(settings.check(2), Ok(()));
    /// assert_eq!(settings.check(0), Err(SelfPlayError::Threads(0)));
    /// ```
    pub fn check(&self, threads: usize) -> Result<(), SelfPlayError> {
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(SelfPlayError::Threads(threads));
        }
        // Each game makes its own table: say now if the system will not give one.
        drop(Searcher::try_new(self.hash_mib)?);
        Ok(())
    }
}

/// Plays games `0..games` of the run seeded with `seed` on `threads` threads and hands
/// each to `each` on the calling thread, in index order, as soon as it and the games
/// before it are done. `each` can stop the run by returning `ControlFlow::Break` (the
/// games being played are finished, then dropped).
///
/// # Errors
/// [`SelfPlayError::Threads`] for 0 threads or more than [`MAX_THREADS`]; a table that
/// cannot be allocated (checked before the first game, and for each game).
pub fn generate_each(
    settings: &Settings,
    seed: u64,
    games: u64,
    threads: usize,
    mut each: impl FnMut(u64, SelfPlayGame) -> ControlFlow<()>,
) -> Result<(), SelfPlayError> {
    settings.check(threads)?;
    let next = AtomicU64::new(0);
    let (tx, rx) = mpsc::channel::<(u64, Result<SelfPlayGame, SelfPlayError>)>();
    let workers = threads.min(usize::try_from(games.max(1)).unwrap_or(usize::MAX));
    std::thread::scope(|s| {
        for _ in 0..workers {
            let tx = tx.clone();
            let next = &next;
            s.spawn(move || loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= games || tx.send((g, play(settings, seed, g))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        // Games finish in any order; they are handed over in index order.
        let mut waiting = BTreeMap::new();
        let mut handed = 0u64;
        for (g, played) in rx {
            waiting.insert(g, played);
            while let Some(played) = waiting.remove(&handed) {
                let flow = match played {
                    Ok(game) => each(handed, game),
                    Err(e) => {
                        next.store(games, Ordering::Relaxed);
                        return Err(e);
                    }
                };
                handed += 1;
                if flow.is_break() {
                    // Let the other threads stop at their next game.
                    next.store(games, Ordering::Relaxed);
                    return Ok(());
                }
            }
        }
        Ok(())
    })
}

/// Plays games `0..games` of the run seeded with `seed` on `threads` threads: the same
/// games, in the same order, for any thread count (see the [module docs](self)).
///
/// # Errors
/// As [`generate_each`].
pub fn generate(
    settings: &Settings,
    seed: u64,
    games: u64,
    threads: usize,
) -> Result<Vec<SelfPlayGame>, SelfPlayError> {
    let mut out = Vec::new();
    generate_each(settings, seed, games, threads, |_, game| {
        out.push(game);
        ControlFlow::Continue(())
    })?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_get_their_own_streams() {
        let (mut a, mut b) = (game_rng(1, 0), game_rng(1, 1));
        assert_ne!(a.next_u64(), b.next_u64());
        assert_eq!(game_rng(1, 1).next_u64(), game_rng(1, 1).next_u64());
        assert!((0..1000).all(|_| a.below(7) < 7));
    }

    fn small() -> Settings {
        Settings {
            nodes: 60,
            max_plies: 24,
            network: None,
            ..Settings::default()
        }
    }

    #[test]
    fn bad_thread_counts_and_tables_are_refused() {
        assert_eq!(
            generate(&small(), 1, 1, 0).unwrap_err(),
            SelfPlayError::Threads(0)
        );
        assert_eq!(
            generate(&small(), 1, 1, MAX_THREADS + 1)
                .unwrap_err()
                .to_string(),
            "1025 threads: self-play runs on 1 to 1024"
        );
        let huge = Settings {
            hash_mib: 1 << 40,
            ..small()
        };
        assert_eq!(
            generate(&huge, 1, 1, 1).unwrap_err(),
            SelfPlayError::Table(TableError { mib: 1 << 40 })
        );
        assert_eq!(generate(&small(), 1, 0, 3).unwrap(), []);
    }

    #[test]
    fn a_run_can_be_stopped_and_keeps_the_order() {
        let mut seen = Vec::new();
        generate_each(&small(), 3, 10, 2, |g, game| {
            seen.push((g, game));
            if g == 2 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap();
        assert_eq!(seen.iter().map(|(g, _)| *g).collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!(seen[2].1, play(&small(), 3, 2).unwrap());
    }

    #[test]
    fn the_random_plies_are_unscored_and_the_cap_is_a_draw() {
        let settings = Settings {
            random_plies: 4,
            max_plies: 10,
            resign: 0,
            ..small()
        };
        let game = play(&settings, 9, 0).unwrap();
        assert_eq!(game.start, Position::startpos());
        assert!(game.plies[..4].iter().all(|&(_, s)| s == NO_SCORE));
        assert!(game.plies[4..].iter().all(|&(_, s)| s != NO_SCORE));
        // No rule ends a game in 10 plies from the start.
        assert_eq!(game.plies.len(), 10);
        assert_eq!(game.result, GameResult::Draw);
        // The moves are legal and replay: the positions are the game's.
        assert_eq!(game.positions().count(), 10);
    }

    #[test]
    fn games_take_the_openings_in_turn() {
        // The start position after h2e2, as a FEN.
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
        let settings = Settings {
            random_plies: 2,
            openings: vec![
                Game::from_fen_moves(xq_core::START_FEN, &["h2e2", "h9g7", "h0g2"]).unwrap(),
                Game::from_fen_moves(fen, &["h9g7"]).unwrap(),
            ],
            ..small()
        };
        let games = generate(&settings, 4, 3, 2).unwrap();
        let opening = |g: &SelfPlayGame, n: usize| -> Vec<String> {
            g.plies[..n].iter().map(|(m, _)| m.to_string()).collect()
        };
        // Game 0 and game 2 from the first opening, game 1 from the second.
        assert_eq!(games[0].start, Position::startpos());
        assert_eq!(opening(&games[0], 3), ["h2e2", "h9g7", "h0g2"]);
        assert_eq!(opening(&games[2], 3), ["h2e2", "h9g7", "h0g2"]);
        assert_eq!(games[1].start.to_fen(), fen);
        assert_eq!(opening(&games[1], 1), ["h9g7"]);
        // The opening's moves and the random plies have no score; the search's have.
        for (g, n) in [(&games[0], 5), (&games[1], 3)] {
            assert!(g.plies[..n].iter().all(|&(_, s)| s == NO_SCORE));
            assert!(g.plies[n..].iter().all(|&(_, s)| s != NO_SCORE));
        }
        // Different random plies after the same opening.
        assert_ne!(games[0].plies[3..5], games[2].plies[3..5]);
    }
}
