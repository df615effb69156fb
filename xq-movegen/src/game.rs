//! A game: the start position and the moves played since, with what the rules that end a
//! game need to know about every position (its key, whether its side to move is in
//! check), and the ruling of how it stands ([`Game::outcome`]).

use crate::notation::{self, NotationError};
use crate::outcome::{Outcome, Termination};
use crate::rules::{self, NO_CAPTURE_DRAW_PLIES};
use crate::{count_legal, try_play, IllegalMoveError};
use std::fmt;
use xq_core::{FenError, Ignore, Move, Position, Undo};

/// A game: a start position and the legal moves played from it, with the key of every
/// position and whether the move leading to it gave check. It knows its outcome by the
/// whole rules (mate, stalemate, perpetual check and chase, repetition, the 60-move rule,
/// insufficient material): a game server calls [`Game::outcome`] after every move.
///
/// ```
/// use xq_movegen::{Game, Termination};
/// let mut game = Game::startpos();
/// game.play_text("h2e2 h9g7").unwrap(); // ICCS, or any notation: "炮二平五 马8进7"
/// assert_eq!(game.moves().len(), 2);
/// assert_eq!(game.position().to_fen(),
///     "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
/// assert_eq!(game.outcome(), None);
///
/// // Both sides shuffle a horse out and back twice: the third occurrence is a draw.
/// game.play_text("h0g2 g7h9 g2h0 h9g7 h0g2 g7h9 g2h0 h9g7").unwrap();
/// assert_eq!(game.outcome().map(|o| o.termination), Some(Termination::Repetition));
/// // Take two moves back: each position then has occurred twice only.
/// assert_eq!(game.pop(), Some("h9g7".parse().unwrap()));
/// assert_eq!(game.pop(), Some("g2h0".parse().unwrap()));
/// assert_eq!(game.outcome(), None);
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    undos: Vec<Undo>,
    keys: Vec<u64>,
    checks: Vec<bool>,
}

/// Why a game could not be set up from text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The FEN is malformed or illegal.
    Fen(FenError),
    /// A move's text names no legal move where it is played; `index` counts the moves
    /// given, from 0.
    Move {
        /// Which move.
        index: usize,
        /// Why it was refused.
        error: NotationError,
    },
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Fen(e) => e.fmt(f),
            GameError::Move { index, error } => write!(f, "move {}: {error}", index + 1),
        }
    }
}

// `Display` includes the wrapped error, so `source` stays `None`.
impl std::error::Error for GameError {}

impl From<FenError> for GameError {
    fn from(e: FenError) -> GameError {
        GameError::Fen(e)
    }
}

impl Default for Game {
    /// A game from the standard start.
    fn default() -> Game {
        Game::startpos()
    }
}

impl Game {
    /// A game from `pos`, no moves played.
    pub fn new(pos: Position) -> Game {
        Game {
            keys: vec![pos.key()],
            checks: vec![pos.is_check()],
            start: pos.clone(),
            pos,
            moves: Vec::new(),
            undos: Vec::new(),
        }
    }

    /// A game from the standard start.
    pub fn startpos() -> Game {
        Game::new(Position::startpos())
    }

    /// A game from a FEN and moves in any notation ([`notation::read_move`]: ICCS
    /// `h2e2`, WXF `C2=5`, Chinese `炮二平五`).
    ///
    /// # Errors
    /// [`GameError`] naming the bad FEN or the first bad move.
    ///
    /// ```
    /// use xq_movegen::{Game, GameError};
    /// let game = Game::from_fen_moves(xq_core::START_FEN, &["h2e2", "马8进7"]).unwrap();
    /// assert_eq!(game.moves().len(), 2);
    /// let err = Game::from_fen_moves(xq_core::START_FEN, &["h2e2", "h2e2"]).unwrap_err();
    /// assert!(matches!(err, GameError::Move { index: 1, .. }));
    /// assert_eq!(err.to_string(), "move 2: illegal move h2e2: no piece of the side to move on h2");
    /// ```
    pub fn from_fen_moves<S: AsRef<str>>(fen: &str, moves: &[S]) -> Result<Game, GameError> {
        Game::from_fen_moves_with(fen, moves, Ignore::NOTHING)
    }

    /// [`Game::from_fen_moves`], letting through the position errors `ignore` names
    /// ([`Position::from_fen_with`]): with [`Ignore::PLAYABLE`], a composed position no
    /// game can reach but that can be played, as analysis and the engine protocols take
    /// it. `game.start().irregularities()` says what is unusual, for a warning.
    ///
    /// # Errors
    /// [`GameError`] naming the bad FEN or the first bad move.
    ///
    /// ```
    /// use xq_core::Ignore;
    /// use xq_movegen::Game;
    /// // A composed position: a Black soldier on its own back rank (f9).
    /// let fen = "3k1p3/9/9/9/9/9/9/9/9/R3K4 w";
    /// assert!(Game::from_fen_moves(fen, &["e0f0"]).is_err());
    /// let game = Game::from_fen_moves_with(fen, &["e0f0", "f9f8"], Ignore::PLAYABLE).unwrap();
    /// assert_eq!(game.position().to_fen(), "3k5/5p3/9/9/9/9/9/9/9/R4K3 w - - 2 2");
    /// assert_eq!(game.start().irregularities()[0].to_string(), "'p' can never stand on f9");
    /// ```
    pub fn from_fen_moves_with<S: AsRef<str>>(
        fen: &str,
        moves: &[S],
        ignore: Ignore,
    ) -> Result<Game, GameError> {
        let mut game = Game::new(Position::from_fen_with(fen, ignore)?);
        game.play_all(moves)?;
        Ok(game)
    }

    /// Plays moves given as text in any notation ([`notation::read_move`]).
    ///
    /// # Errors
    /// [`GameError::Move`] for the first bad move (its index among `moves`); the moves
    /// before it stay played.
    pub fn play_all<S: AsRef<str>>(&mut self, moves: &[S]) -> Result<(), GameError> {
        for (index, text) in moves.iter().enumerate() {
            let m = notation::read_move(&self.pos, text.as_ref())
                .map_err(|error| GameError::Move { index, error })?;
            self.push_legal(m);
        }
        Ok(())
    }

    /// Plays moves given as one string, separated by white space (`"h2e2 h9g7"`).
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
    /// use xq_movegen::{Game, IllegalMoveError};
    /// let mut game = Game::startpos();
    /// assert!(game.play("h2e2".parse().unwrap()).is_ok());
    /// let m = "a0a5".parse().unwrap(); // not Red's turn, and no Black piece there
    /// assert_eq!(game.play(m), Err(IllegalMoveError::NoPieceToMove(m)));
    /// assert_eq!(game.moves().len(), 1);
    /// ```
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMoveError> {
        let undo = try_play(&mut self.pos, m)?;
        self.record(m, undo);
        Ok(())
    }

    /// Plays a move known to be legal.
    fn push_legal(&mut self, m: Move) {
        let undo = self.pos.make_move(m);
        self.record(m, undo);
    }

    fn record(&mut self, m: Move, undo: Undo) {
        self.moves.push(m);
        self.undos.push(undo);
        self.keys.push(self.pos.key());
        self.checks.push(self.pos.is_check());
    }

    /// Takes back the last move and returns it; `None` at the start.
    pub fn pop(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        let undo = self.undos.pop().expect("an undo record for every move");
        self.pos.unmake_move(m, undo);
        self.keys.pop();
        self.checks.pop();
        Some(m)
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
    /// whether the move leading to it gave check), the start first.
    pub fn checks(&self) -> &[bool] {
        &self.checks
    }

    /// The position after the first `plies` moves (`position_at(0)` is the start), by
    /// replaying them; `None` past the current position.
    ///
    /// ```
    /// use xq_movegen::Game;
    /// let mut game = Game::startpos();
    /// game.play_text("h2e2 h9g7").unwrap();
    /// assert_eq!(game.position_at(1).unwrap().key(), game.keys()[1]);
    /// assert_eq!(game.position_at(2).as_ref(), Some(game.position()));
    /// assert!(game.position_at(3).is_none());
    /// ```
    pub fn position_at(&self, plies: usize) -> Option<Position> {
        let moves = self.moves.get(..plies)?;
        let mut pos = self.start.clone();
        for &m in moves {
            pos.make_move(m);
        }
        Some(pos)
    }

    /// How the game stands by the whole rules, `None` while it goes on. Judged in the
    /// referee's order ([`rules`] has the rules):
    ///
    /// 1. no legal move: the side to move loses ([`Termination::Checkmate`],
    ///    [`Termination::Stalemate`]);
    /// 2. the current position occurs for the third time since the last capture: the
    ///    cycle from its first occurrence is ruled by [`rules::rule_cycle`] (perpetual
    ///    check, then perpetual chase, otherwise a draw);
    /// 3. 120 counted plies without a capture ([`rules::move_rule_plies`]): a draw;
    /// 4. neither side can mate ([`rules::insufficient_material`]): a draw.
    ///
    /// Only the current position is ruled on: a game server calls this after every move.
    ///
    /// ```
    /// use xq_core::{Color, Piece, Square};
    /// use xq_movegen::{Game, GameResult, Termination};
    /// // Red's chariot follows the unprotected black horse b7 <-> c9 until the position
    /// // after h6h7 occurs for the third time: Red loses by perpetual chase.
    /// let mut game = Game::from_fen_moves("9/5k3/1n7/p6R1/9/9/8P/9/9/3K5 w", &[] as &[&str]).unwrap();
    /// game.play_text("h6h7 b7c9 h7h9 c9b7 h9h7 b7c9 h7h9 c9b7 h9h7").unwrap();
    /// let outcome = game.outcome().unwrap();
    /// assert_eq!(outcome.result, GameResult::BlackWins);
    /// assert_eq!(
    ///     outcome.termination,
    ///     Termination::PerpetualChase { by: Color::Red, piece: Piece::from_char('n').unwrap(), square: Square::B7 }
    /// );
    /// assert_eq!(outcome.to_string(), "0-1 perpetual chase by red of the black horse on b7");
    /// ```
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = &self.pos;
        let us = pos.side_to_move();
        if count_legal(pos) == 0 {
            let reason = if pos.is_check() {
                Termination::Checkmate
            } else {
                Termination::Stalemate
            };
            return Some(Outcome::loss(us, reason));
        }
        if let Some(first) = rules::find_repetition(&self.keys, pos.halfmove_clock() as usize, None)
        {
            let start = self
                .position_at(first)
                .expect("a repetition lies within the game");
            let outcome = rules::rule_cycle(&start, &self.moves[first..])
                .expect("the moves of a game are legal");
            return Some(outcome);
        }
        if rules::move_rule_plies(pos.halfmove_clock(), &self.checks) >= NO_CAPTURE_DRAW_PLIES {
            return Some(Outcome::draw(Termination::MoveRule));
        }
        if rules::insufficient_material(pos) {
            return Some(Outcome::draw(Termination::InsufficientMaterial));
        }
        None
    }
}

/// The outcome of `pos` taken as the start of a game: no legal move loses, a clock at or
/// past 120 plies draws (every ply counts: the position has no history), and so does
/// insufficient material; `None` otherwise. For a game with moves, ask the [`Game`].
///
/// ```
/// use xq_core::Position;
/// use xq_movegen::{outcome, Outcome, Termination};
/// let mate = Position::from_fen("R3k4/1R7/9/9/9/9/9/9/9/3K5 b").unwrap();
/// assert_eq!(outcome(&mate), Some(Outcome::loss(xq_core::Color::Black, Termination::Checkmate)));
/// assert_eq!(outcome(&Position::startpos()), None);
/// ```
pub fn outcome(pos: &Position) -> Option<Outcome> {
    Game::new(pos.clone()).outcome()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_third_occurrence_is_found_since_the_last_capture() {
        let keys = [1, 2, 3, 4, 1, 2, 3, 4, 1];
        assert_eq!(rules::find_repetition(&keys, 100, None), Some(0));
        assert_eq!(rules::find_repetition(&keys[..5], 100, None), None); // twice is not enough
        assert_eq!(rules::find_repetition(&keys, 7, None), None); // a capture 7 plies ago
        assert_eq!(rules::find_repetition(&keys, 8, None), Some(0));
        assert_eq!(
            rules::find_repetition(&[5, 1, 2, 3, 4, 1, 2, 3, 4, 1], 100, None),
            Some(1)
        );
        assert_eq!(rules::find_repetition(&[1, 1, 1, 1, 1], 100, None), None); // one earlier occurrence
        assert_eq!(rules::find_repetition(&[], 100, None), None);
    }

    #[test]
    fn pop_takes_back_everything_play_did() {
        let mut game = Game::startpos();
        game.play_text("h2e2 h9g7 h0g2 i9h9 e2e6").unwrap();
        let after = game.clone();
        game.play_text("g6g5").unwrap();
        assert_eq!(game.pop(), Some("g6g5".parse().unwrap()));
        assert_eq!(game.position(), after.position());
        assert_eq!(game.keys(), after.keys());
        assert_eq!(game.checks(), after.checks());
        while game.pop().is_some() {}
        assert_eq!(game.position(), &Position::startpos());
        assert_eq!(game.keys(), [Position::startpos().key()]);
    }
}
