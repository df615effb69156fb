//! A game: a start position and the moves played since, with what the repetition rules
//! need (the key of every position and whether the move leading to it gave check), and
//! the rules that end a game without a mate: repetition ([`judge_repetition`]) and the
//! 60-move rule ([`NO_CAPTURE_DRAW_PLIES`]).

use crate::{try_play, IllegalMoveError};
use std::fmt;
use xq_core::{FenError, Move, ParseMoveError, Position};

/// Plies without a capture after which the game is drawn (the 60-move rule).
pub const NO_CAPTURE_DRAW_PLIES: u32 = 120;

/// A game record that knows the Xiangqi repetition rules' inputs.
///
/// ```
/// use xq_movegen::Game;
/// let mut game = Game::startpos();
/// game.play_text("h2e2 h9g7").unwrap();
/// assert_eq!(game.moves().len(), 2);
/// assert_eq!(game.position().to_fen(),
///     "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    keys: Vec<u64>,
    checks: Vec<bool>,
}

/// Why a game could not be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The FEN is malformed or illegal.
    Fen(FenError),
    /// A move's text is malformed; `index` counts moves from 0.
    BadMoveText {
        /// Which move.
        index: usize,
        /// The text.
        text: String,
        /// What is wrong.
        error: ParseMoveError,
    },
    /// A move is not legal where it is played; `index` counts moves from 0.
    IllegalMove {
        /// Which move.
        index: usize,
        /// Why it is illegal.
        error: IllegalMoveError,
    },
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Fen(e) => e.fmt(f),
            GameError::BadMoveText { index, text, error } => {
                write!(f, "move {} '{text}': {error}", index + 1)
            }
            GameError::IllegalMove { index, error } => write!(f, "move {}: {error}", index + 1),
        }
    }
}

impl std::error::Error for GameError {}

impl Game {
    /// A game from `pos`, no moves played.
    pub fn new(pos: Position) -> Game {
        Game {
            keys: vec![pos.key()],
            checks: vec![pos.is_check()],
            start: pos.clone(),
            pos,
            moves: Vec::new(),
        }
    }

    /// A game from the standard start.
    pub fn startpos() -> Game {
        Game::new(Position::startpos())
    }

    /// A game from a FEN and a list of ICCS moves.
    ///
    /// # Errors
    /// [`GameError`] naming the bad FEN or the first bad move.
    ///
    /// ```
    /// use xq_movegen::{Game, GameError};
    /// let game = Game::from_fen_moves(xq_core::START_FEN, &["h2e2", "h9g7"]).unwrap();
    /// assert_eq!(game.moves().len(), 2);
    /// let err = Game::from_fen_moves(xq_core::START_FEN, &["h2e2", "h2e2"]).unwrap_err();
    /// assert!(matches!(err, GameError::IllegalMove { index: 1, .. }));
    /// assert_eq!(err.to_string(), "move 2: illegal move h2e2: no piece of the side to move on h2");
    /// ```
    pub fn from_fen_moves<S: AsRef<str>>(fen: &str, moves: &[S]) -> Result<Game, GameError> {
        let mut game = Game::new(Position::from_fen(fen).map_err(GameError::Fen)?);
        game.play_all(moves)?;
        Ok(game)
    }

    /// Plays a list of ICCS moves.
    ///
    /// # Errors
    /// [`GameError`] for the first bad move; the moves before it stay played.
    pub fn play_all<S: AsRef<str>>(&mut self, moves: &[S]) -> Result<(), GameError> {
        let base = self.moves.len();
        for (i, text) in moves.iter().enumerate() {
            let text = text.as_ref();
            let m: Move = text.parse().map_err(|error| GameError::BadMoveText {
                index: base + i,
                text: text.to_string(),
                error,
            })?;
            self.play(m).map_err(|error| GameError::IllegalMove {
                index: base + i,
                error,
            })?;
        }
        Ok(())
    }

    /// Plays moves given as one space-separated string.
    ///
    /// # Errors
    /// As [`Game::play_all`].
    pub fn play_text(&mut self, moves: &str) -> Result<(), GameError> {
        let v: Vec<&str> = moves.split_whitespace().collect();
        self.play_all(&v)
    }

    /// Plays one move if it is legal.
    ///
    /// # Errors
    /// Why the move is illegal; the game is unchanged.
    ///
    /// ```
    /// use xq_movegen::IllegalMoveError;
    /// use xq_movegen::Game;
    /// let mut game = Game::startpos();
    /// assert!(game.play("h2e2".parse().unwrap()).is_ok());
    /// let m = "a0a5".parse().unwrap(); // not Red's turn, and no Black piece there
    /// assert_eq!(game.play(m), Err(IllegalMoveError::NoPieceToMove(m)));
    /// assert_eq!(game.moves().len(), 1);
    /// ```
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMoveError> {
        try_play(&mut self.pos, m)?;
        self.moves.push(m);
        self.keys.push(self.pos.key());
        self.checks.push(self.pos.is_check());
        Ok(())
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The key of every position of the game, the start first and the current last.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// For every position of the game, whether its side to move is in check (that is,
    /// whether the move leading to it gave check).
    pub fn checks(&self) -> &[bool] {
        &self.checks
    }
}

/// The verdict of the repetition rules on a position that repeats an earlier one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Repetition {
    /// Neither side (or both) checked with every move of the cycle: a draw.
    Draw,
    /// The side to move checked with every one of its moves in the cycle and the other
    /// side did not: the side to move loses.
    SideToMoveLoses,
    /// The other side checked perpetually: the side to move wins.
    SideToMoveWins,
}

/// The verdict of the repetition rules on the last position of `keys`, looking back over
/// the positions since the last capture (`reversible` plies), or `None` while the game
/// goes on. `checks[i]` says whether the move leading to position `i` gave check.
///
/// A position counts as repeated when it occurred twice before (threefold repetition,
/// as GUIs and referees judge a game), or once before at an index after `root`: inside
/// a search tree (positions after the root) the first repetition is already decisive,
/// because whoever could repeat once can repeat again (the rule of Stockfish and
/// Pikafish). To judge a game, pass `root = keys.len() - 1`.
///
/// # Panics
/// If `checks` is shorter than `keys`.
///
/// The verdict covers the moves since that earlier occurrence: a side that checked with
/// every one of its moves while the other did not loses (perpetual check); otherwise
/// it is a draw.
///
/// ```
/// use xq_movegen::game::{judge_repetition, Repetition};
/// let keys = [1, 2, 3, 4, 1, 2, 3, 4, 1];
/// // Root R, then A, B, C, D, A inside the search tree: both sides shuffled.
/// assert_eq!(judge_repetition(&[9, 1, 2, 3, 4, 1], &[false; 6], 5, 0), Some(Repetition::Draw));
/// // In a game, the second occurrence decides nothing yet; the third does.
/// assert_eq!(judge_repetition(&keys[..5], &[false; 5], 4, 4), None);
/// assert_eq!(judge_repetition(&keys, &[false; 9], 8, 8), Some(Repetition::Draw));
/// // The side that just moved checked with each of its moves: it loses, so the side
/// // to move wins.
/// let checks = [false, false, true, false, true, false, true, false, true];
/// assert_eq!(judge_repetition(&keys, &checks, 8, 8), Some(Repetition::SideToMoveWins));
/// assert_eq!(judge_repetition(&[1, 2, 3, 4, 5], &checks[..5], 4, 0), None);
/// ```
pub fn judge_repetition(
    keys: &[u64],
    checks: &[bool],
    reversible: usize,
    root: usize,
) -> Option<Repetition> {
    let n = keys.len().checked_sub(1)?;
    let key = keys[n];
    let oldest = n.saturating_sub(reversible);
    let mut seen = 0;
    let mut earlier = n.checked_sub(4);
    while let Some(i) = earlier {
        if i < oldest {
            break;
        }
        if keys[i] == key {
            seen += 1;
            if seen == 2 || i > root {
                // Moves by the side that just moved lead to n, n-2, ...; by the side
                // to move to n-1, n-3, ...
                let them = (i + 1..=n).rev().step_by(2).all(|j| checks[j]);
                let us = (i + 1..n).rev().step_by(2).all(|j| checks[j]);
                return Some(match (us, them) {
                    (true, false) => Repetition::SideToMoveLoses,
                    (false, true) => Repetition::SideToMoveWins,
                    _ => Repetition::Draw,
                });
            }
        }
        earlier = i.checked_sub(2);
    }
    None
}
