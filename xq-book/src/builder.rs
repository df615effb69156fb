//! Building a book in xq's format from games.

use crate::{flip_horizontal_key, xq_slot, Book, BookError, BuildInfo, Format, Record, Stats};
use std::collections::HashMap;
use xq_core::{Move, Position};
use xq_movegen::GameResult;

/// What goes into a book.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// Plies of each game taken (from its start): 40, twenty moves each side, by default.
    pub max_ply: u16,
    /// A move played in fewer games is left out (1, the default, keeps every move).
    pub min_games: u16,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions {
            max_ply: 40,
            min_games: 1,
        }
    }
}

/// Gathers the opening moves of games, both sides', into a book.
///
/// Each move of a game's first [`max_ply`](BuildOptions::max_ply) plies counts for the
/// position it was played in, with the game's result for the side that played it. A
/// position and its left-right mirror are one position: a move is stored under the
/// smaller of the two keys (mirrored if that is the mirror's), and a position that is its
/// own mirror gets the mirrored move too. [`BookBuilder::finish`] keeps the moves played
/// in at least [`min_games`](BuildOptions::min_games) games, weighted by
/// [`Stats::weight`].
///
/// ```
/// use xq_book::{BookBuilder, BuildOptions};
/// use xq_core::Position;
/// use xq_movegen::GameResult;
/// let mut builder = BookBuilder::new(BuildOptions { max_ply: 2, min_games: 1 });
/// let start = Position::startpos();
/// let game = |m: &[&str]| -> Vec<xq_core::Move> { m.iter().map(|s| s.parse().unwrap()).collect() };
/// builder.add_game(&start, &game(&["h2e2", "h9g7", "h0g2"]), Some(GameResult::BlackWins)).unwrap();
/// builder.add_game(&start, &game(&["b2e2", "b9c7"]), Some(GameResult::Draw)).unwrap();
/// let book = builder.finish();
/// assert_eq!(book.info().games, 2);
/// // After b2e2 the book has the second game's b9c7 and, mirrored, the first game's
/// // h9g7 (as b9c7: Black won it), both as played after b2e2.
/// let mut after = start.clone();
/// after.make_move("b2e2".parse().unwrap());
/// let found = book.probe(&after);
/// assert_eq!(found.len(), 1);
/// assert_eq!((found[0].mv.to_string(), found[0].stats.wins, found[0].stats.draws), ("b9c7".to_string(), 1, 1));
/// ```
#[derive(Clone, Debug)]
pub struct BookBuilder {
    options: BuildOptions,
    moves: HashMap<(u64, u16), Stats>,
    games: u32,
}

impl BookBuilder {
    /// An empty builder.
    pub fn new(options: BuildOptions) -> BookBuilder {
        BookBuilder {
            options,
            moves: HashMap::new(),
            games: 0,
        }
    }

    /// Adds the first plies of a game played from `start` with `moves`, which ended
    /// with `result` (`None`: unfinished or unknown).
    ///
    /// # Errors
    /// A move (within the plies taken) is illegal where it is played; nothing of the
    /// game is added then.
    pub fn add_game(
        &mut self,
        start: &Position,
        moves: &[Move],
        result: Option<GameResult>,
    ) -> Result<(), BookError> {
        let mut pos = start.clone();
        let mut seen = Vec::new();
        for (ply, &m) in moves
            .iter()
            .take(usize::from(self.options.max_ply))
            .enumerate()
        {
            if !xq_movegen::is_legal(&pos, m) {
                return Err(BookError::IllegalMove { ply, mv: m });
            }
            let (key, mirrored) = xq_slot(&pos);
            let stored = if mirrored { m.flip_horizontal() } else { m };
            let mover = pos.side_to_move();
            seen.push((key, stored, mover));
            // A position that is its own mirror: the mirrored move is as good.
            if flip_horizontal_key(&pos) == pos.key() && m.flip_horizontal() != m {
                seen.push((key, m.flip_horizontal(), mover));
            }
            pos.make_move(m);
        }
        for (key, m, mover) in seen {
            let s = self.moves.entry((key, m.to_u16())).or_default();
            let slot = match result.map(|r| r.winner()) {
                None => &mut s.unfinished,
                Some(None) => &mut s.draws,
                Some(Some(winner)) if winner == mover => &mut s.wins,
                Some(Some(_)) => &mut s.losses,
            };
            *slot = slot.saturating_add(1);
        }
        self.games = self.games.saturating_add(1);
        Ok(())
    }

    /// Games added so far.
    pub fn games(&self) -> u32 {
        self.games
    }

    /// The book: the moves played in enough games, sorted for lookup.
    pub fn finish(self) -> Book {
        let min = u64::from(self.options.min_games.max(1));
        let mut records: Vec<Record> = self
            .moves
            .into_iter()
            .filter(|(_, s)| s.games() >= min)
            .map(|((key, mv), stats)| Record {
                key,
                mv,
                weight: stats.weight(),
                stats,
            })
            .collect();
        records.sort_by_key(|r| (r.key, r.mv));
        Book {
            format: Format::Xq,
            records,
            info: BuildInfo {
                games: self.games,
                max_ply: self.options.max_ply,
                min_games: self.options.min_games,
            },
        }
    }
}
