//! A game and the rules that end it.
//!
//! [`Game`] is the record: a start position and the moves played since, with the key of
//! every position and whether the move leading to it gave check. [`adjudicate`] is the
//! referee, for GUIs and game servers that take no search: it returns
//! [`Adjudication::Ongoing`] or a [`GameResult`] with its [`Reason`].
//!
//! # The rules as implemented
//!
//! These are the Asian (AXF) and Chinese rules as Pikafish applies them
//! (`Position::rule_judge`); `data/repetition.epd` holds the cases they are tested
//! against, each judged by Pikafish.
//!
//! - **No legal move** loses, in check ([`Reason::Checkmate`]) or not
//!   ([`Reason::Stalemate`]).
//! - **Repetition** is judged when a position occurs for the third time, looking back no
//!   further than the last capture ([`find_repetition`]; inside a search one repetition
//!   after the root is enough). Over the moves since the first occurrence:
//!   - **perpetual check**: a side that gave check with every one of its moves loses; if
//!     both did, it is a draw;
//!   - otherwise, if any move of the cycle gave check, it is a draw;
//!   - **perpetual chase**: a side that newly chased the same enemy piece (followed as a
//!     piece, not a square) with every one of its moves loses, unless the other side did
//!     too (then a draw). What counts as a chase is in [`chase`](crate::chase);
//!   - everything else that repeats is a draw.
//! - **The 60-move rule**: 120 plies without a capture draw, counted as Pikafish counts
//!   them: each side's checks beyond its tenth, and the replies to them, do not count
//!   ([`move_rule_plies`]). Mate on the 120th ply still wins.
//! - **Insufficient material**: with no chariot, horse, cannon or soldier on the board,
//!   neither side can mate: a draw ([`insufficient_material`]). (Pikafish also draws some
//!   positions with one cannon and no advisors to screen it; xq does not.)
//!
//! Where other judges differ. The rule books (and Fairy-Stockfish) are stricter or looser
//! than Pikafish in a few cases of `data/repetition.epd`; xq follows Pikafish in each:
//!
//! - *chase-vs-check* (`5k3/9/9/p3c4/4R4/...`): a chariot chases a cannon with every move
//!   while the cannon answers with one check and one idle move. Pikafish, and xq, rule a
//!   draw because a check occurs in the cycle; Fairy-Stockfish and the AXF diagrams 37-38
//!   rule that the chariot must change (Black wins).
//! - *check-chase* (`5k3/9/9/5C3/5c3/...`): every Red move newly attacks the same soldier
//!   and one of them also checks. A draw here (a check in the cycle); Fairy-Stockfish
//!   counts the chase (Black wins); the rule books are ambiguous.
//! - *pinned-by-horse* (`2baka1r1/C4rN2/...`): a Black chariot pinned by a Red horse is
//!   attacked by Red's chariot with every move, while Black's advisor moves renew the
//!   pinned chariot's threat on the unprotected horse. A mutual chase and a draw here;
//!   Fairy-Stockfish and AXF rule 19 do not count the pinned chariot's threat (Black
//!   wins).
//! - *flying-general* (`4k4/9/9/9/4n4/...`): the general's moves alternately unpin a horse
//!   and pin the protector of its target, so the horse newly threatens an unprotected
//!   cannon with every move: Black loses here; Fairy-Stockfish rules a draw.
//! - *real-game*, Fairy-Stockfish issue 570: the cycle is entered by a king move that
//!   chases nothing; only the moves after the first occurrence are judged, so Black's
//!   perpetual chase loses (Fairy-Stockfish also counts the entering move: a draw).
//! - *real-game*, Pikafish issue 28: both sides chase (one by removing a screen and so a
//!   protection): a draw here; Fairy-Stockfish sees only one chase (Red wins).

use crate::chase::{judge_cycle, CycleRuling};
use crate::{try_play, IllegalMoveError, Outcome};
use std::fmt;
use xq_core::{Color, FenError, Move, ParseMoveError, Piece, PieceKind, Position, Square};

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

    /// The position after the first `index` moves (`position_at(0)` is the start), by
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
    pub fn position_at(&self, index: usize) -> Option<Position> {
        let moves = self.moves.get(..index)?;
        let mut pos = self.start.clone();
        for &m in moves {
            pos.make_move(m);
        }
        Some(pos)
    }

    /// The referee's verdict on the game as it stands: [`adjudicate`].
    pub fn adjudicate(&self) -> Adjudication {
        adjudicate(self)
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

/// The index of the earlier occurrence that makes the last position of `keys` a decided
/// repetition, looking back over the positions since the last capture (`reversible`
/// plies), or `None` while the game goes on. The cycle to judge runs from that index to
/// the last position.
///
/// A position counts as repeated when it occurred twice before (threefold repetition,
/// as GUIs and referees judge a game: the index returned is then that of the first
/// occurrence, and the cycle is gone round twice), or once before at an index after
/// `root`: inside a search tree (positions after the root) the first repetition is
/// already decisive, because whoever could repeat once can repeat again (the rule of
/// Stockfish and Pikafish). To judge a game, pass `root = keys.len() - 1`.
///
/// ```
/// use xq_movegen::game::find_repetition;
/// let keys = [1, 2, 3, 4, 1, 2, 3, 4, 1];
/// assert_eq!(find_repetition(&keys, 100, 8), Some(0));
/// assert_eq!(find_repetition(&keys[..5], 100, 4), None); // twice is not enough in a game
/// assert_eq!(find_repetition(&keys[..5], 100, 0), None); // at the root: twice is not enough
/// assert_eq!(find_repetition(&[9, 1, 2, 3, 4, 1], 100, 0), Some(1)); // after the root
/// assert_eq!(find_repetition(&keys, 7, 8), None); // a capture 7 plies ago
/// ```
pub fn find_repetition(keys: &[u64], reversible: usize, root: usize) -> Option<usize> {
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
                return Some(i);
            }
        }
        earlier = i.checked_sub(2);
    }
    None
}

/// The perpetual-check rule on the cycle from position `first` to the last position of
/// `checks` (`checks[i]` says whether the move leading to position `i` gave check): the
/// side that checked with every one of its moves loses unless the other did too.
///
/// # Panics
/// If `first` is not an index of `checks`.
///
/// ```
/// use xq_movegen::game::{perpetual_check, Repetition};
/// // The side that just moved checked twice, the side to move never.
/// let checks = [false, false, true, false, true];
/// assert_eq!(perpetual_check(&checks, 0), Repetition::SideToMoveWins);
/// assert_eq!(perpetual_check(&[false; 5], 0), Repetition::Draw);
/// ```
pub fn perpetual_check(checks: &[bool], first: usize) -> Repetition {
    let n = checks.len().saturating_sub(1);
    assert!(
        first < checks.len(),
        "the cycle starts after the last position"
    );
    // Moves by the side that just moved lead to n, n-2, ...; by the side to move to
    // n-1, n-3, ...
    let them = (first + 1..=n).rev().step_by(2).all(|j| checks[j]);
    let us = (first + 1..n).rev().step_by(2).all(|j| checks[j]);
    match (us, them) {
        (true, false) => Repetition::SideToMoveLoses,
        (false, true) => Repetition::SideToMoveWins,
        _ => Repetition::Draw,
    }
}

/// The verdict of the perpetual-check rule on the last position of `keys`, looking back
/// over the positions since the last capture (`reversible` plies), or `None` while the
/// game goes on: [`find_repetition`] then [`perpetual_check`]. `checks[i]` says whether
/// the move leading to position `i` gave check.
///
/// This is the check rule alone: a repetition without perpetual check is a
/// [`Repetition::Draw`] here even when one side chased perpetually. [`adjudicate`] and
/// the search apply the whole rules ([`judge_cycle`]).
///
/// # Panics
/// If `checks` is shorter than `keys`.
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
    let first = find_repetition(keys, reversible, root)?;
    Some(perpetual_check(&checks[..keys.len()], first))
}

/// Checks beyond its tenth (since the last capture) that a side gives do not count
/// toward the 60-move rule, nor do the replies to them (see [`move_rule_plies`]).
pub const COUNTED_CHECKS: u32 = 10;

/// The plies that count toward the 60-move rule ([`NO_CAPTURE_DRAW_PLIES`]) at the last
/// position of `checks`, given its halfmove clock (plies since the last capture).
/// `checks[i]` says whether the move leading to position `i` gave check.
///
/// Pikafish's convention, which follows the Chinese rules: every ply since the last
/// capture counts, except that each side's checks beyond its tenth do not, and neither
/// does a reply to such a check (a move made in check while the checker is past its
/// ten). Plies older than `checks` (a FEN's clock) count in full. The rule is judged
/// after mate: a side with no legal move on the 120th ply has still lost.
///
/// ```
/// use xq_movegen::game::move_rule_plies;
/// // Twelve plies, the side to move never checks, the other side checks with each of its
/// // six moves: all count (six checks, fewer than ten).
/// let checks: Vec<bool> = (0..13).map(|i| i % 2 == 1).collect();
/// assert_eq!(move_rule_plies(12, &checks), 12);
/// assert_eq!(move_rule_plies(100, &checks), 100); // 88 older plies count in full
/// // Thirty plies of checks and replies: checks 11 to 15 and their replies do not count.
/// let checks: Vec<bool> = (0..31).map(|i| i % 2 == 1).collect();
/// assert_eq!(move_rule_plies(30, &checks), 20);
/// ```
pub fn move_rule_plies(halfmove: u32, checks: &[bool]) -> u32 {
    let Some(n) = checks.len().checked_sub(1) else {
        return halfmove;
    };
    let covered = n.min(halfmove as usize);
    let mut plies = halfmove - covered as u32;
    // Check counts of the side that made the last move (0) and of the other side (1).
    let mut counted = [0u32; 2];
    for j in n - covered + 1..=n {
        let us = (n - j) % 2;
        let counts = !checks[j] || {
            counted[us] += 1;
            counted[us] <= COUNTED_CHECKS
        };
        if counts {
            if counted[1 - us] > COUNTED_CHECKS && checks[j - 1] {
                counted[1 - us] += 1;
            } else {
                plies += 1;
            }
        }
    }
    plies
}

/// Can neither side ever give mate? True when no chariot, horse, cannon or soldier is
/// left on the board (advisors, elephants and a general cannot mate a general; every
/// soldier can cross the river and stays able to attack the palace).
///
/// ```
/// use xq_core::Position;
/// use xq_movegen::game::insufficient_material;
/// assert!(insufficient_material(&Position::from_fen("3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w").unwrap()));
/// assert!(!insufficient_material(&Position::from_fen("3ak4/9/9/9/9/9/9/9/p8/3K5 w").unwrap()));
/// ```
pub fn insufficient_material(pos: &Position) -> bool {
    use PieceKind::*;
    Color::ALL.iter().all(|&c| {
        [Chariot, Horse, Cannon, Soldier]
            .iter()
            .all(|&k| pos.squares_of(Piece::new(c, k)).next().is_none())
    })
}

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Red won: `1-0`.
    RedWins,
    /// Black won: `0-1`.
    BlackWins,
    /// A draw: `1/2-1/2`.
    Draw,
}

impl GameResult {
    /// The result in which `color` loses.
    pub fn loss_for(color: Color) -> GameResult {
        match color {
            Color::Red => GameResult::BlackWins,
            Color::Black => GameResult::RedWins,
        }
    }

    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::RedWins => Some(Color::Red),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw => None,
        }
    }
}

impl fmt::Display for GameResult {
    /// `1-0`, `0-1` or `1/2-1/2`, as PGN writes results.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        })
    }
}

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side to move is in check and has no legal move: it loses.
    Checkmate,
    /// The side to move is not in check and has no legal move: it loses (unlike chess).
    Stalemate,
    /// A position occurred for the third time and `by` checked with every one of its moves
    /// since the first occurrence (the other side did not): `by` loses.
    PerpetualCheck {
        /// The side that checked.
        by: Color,
    },
    /// A position occurred for the third time, nobody checked, and `by` newly chased the
    /// same enemy piece with every one of its moves since the first occurrence (the
    /// other side did not chase): `by` loses.
    PerpetualChase {
        /// The side that chased.
        by: Color,
        /// The chased piece.
        piece: Piece,
        /// Where it stands now.
        square: Square,
    },
    /// A position occurred for the third time with no perpetual check or chase by one
    /// side alone: a draw.
    RepetitionDraw,
    /// 120 counted plies without a capture ([`move_rule_plies`]): a draw.
    MoveRule,
    /// Neither side can ever mate ([`insufficient_material`]): a draw.
    InsufficientMaterial,
}

impl Reason {
    /// A short tag for machines: `checkmate`, `stalemate`, `perpetual-check`,
    /// `perpetual-chase`, `repetition`, `60-move-rule`, `insufficient-material`.
    pub fn tag(&self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::PerpetualCheck { .. } => "perpetual-check",
            Reason::PerpetualChase { .. } => "perpetual-chase",
            Reason::RepetitionDraw => "repetition",
            Reason::MoveRule => "60-move-rule",
            Reason::InsufficientMaterial => "insufficient-material",
        }
    }
}

impl fmt::Display for Reason {
    /// The reason in words.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Reason::Checkmate => f.write_str("checkmate"),
            Reason::Stalemate => f.write_str("stalemate (no legal move)"),
            Reason::PerpetualCheck { by } => write!(f, "perpetual check by {by}"),
            Reason::PerpetualChase { by, piece, square } => write!(
                f,
                "perpetual chase by {by} of the {} {} on {square}",
                piece.color,
                crate::chase::kind_name(piece.kind)
            ),
            Reason::RepetitionDraw => f.write_str("repetition"),
            Reason::MoveRule => write!(
                f,
                "60-move rule ({NO_CAPTURE_DRAW_PLIES} plies without a capture)"
            ),
            Reason::InsufficientMaterial => f.write_str("insufficient material"),
        }
    }
}

/// The referee's verdict on a game as it stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Adjudication {
    /// The game goes on (`*`).
    Ongoing,
    /// The game is over.
    Over {
        /// Who won.
        result: GameResult,
        /// Why.
        reason: Reason,
    },
}

impl Adjudication {
    /// The result, `None` while the game goes on.
    pub fn result(&self) -> Option<GameResult> {
        match self {
            Adjudication::Ongoing => None,
            Adjudication::Over { result, .. } => Some(*result),
        }
    }

    /// The reason, `None` while the game goes on.
    pub fn reason(&self) -> Option<Reason> {
        match self {
            Adjudication::Ongoing => None,
            Adjudication::Over { reason, .. } => Some(*reason),
        }
    }
}

impl fmt::Display for Adjudication {
    /// `*` while the game goes on, otherwise the result and the reason in words, as in
    /// `0-1 perpetual chase by red of the black horse on b7`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Adjudication::Ongoing => f.write_str("*"),
            Adjudication::Over { result, reason } => write!(f, "{result} {reason}"),
        }
    }
}

/// Judges `game` as it stands, in the referee's order:
///
/// 1. no legal move: the side to move loses ([`Reason::Checkmate`], [`Reason::Stalemate`]);
/// 2. the current position occurs for the third time since the last capture
///    ([`find_repetition`]): the cycle from the first occurrence is judged by
///    [`judge_cycle`] (perpetual check, then perpetual chase,
///    otherwise a draw);
/// 3. 120 counted plies without a capture ([`move_rule_plies`]): a draw;
/// 4. neither side can mate ([`insufficient_material`]): a draw.
///
/// Only the current position is judged: a game server calls this after every move.
///
/// ```
/// use xq_core::{Color, Piece, Square};
/// use xq_movegen::game::{adjudicate, Adjudication, GameResult, Reason};
/// use xq_movegen::Game;
/// // Red's chariot follows the unprotected black horse b7 <-> c9 until the position after
/// // h6h7 occurs for the third time: Red loses by perpetual chase.
/// let game = Game::from_fen_moves(
///     "9/5k3/1n7/p6R1/9/9/8P/9/9/3K5 w",
///     &"h6h7 b7c9 h7h9 c9b7 h9h7 b7c9 h7h9 c9b7 h9h7".split(' ').collect::<Vec<_>>(),
/// )
/// .unwrap();
/// let verdict = adjudicate(&game);
/// assert_eq!(
///     verdict,
///     Adjudication::Over {
///         result: GameResult::BlackWins,
///         reason: Reason::PerpetualChase {
///             by: Color::Red,
///             piece: Piece::from_char('n').unwrap(),
///             square: Square::B7,
///         },
///     }
/// );
/// assert_eq!(verdict.to_string(), "0-1 perpetual chase by red of the black horse on b7");
/// assert_eq!(adjudicate(&Game::startpos()), Adjudication::Ongoing);
/// ```
pub fn adjudicate(game: &Game) -> Adjudication {
    let pos = game.position();
    let over = |result, reason| Adjudication::Over { result, reason };
    let us = pos.side_to_move();
    match crate::outcome(pos) {
        Some(Outcome::Checkmate) => return over(GameResult::loss_for(us), Reason::Checkmate),
        Some(Outcome::Stalemate) => return over(GameResult::loss_for(us), Reason::Stalemate),
        None => {}
    }
    let n = game.keys.len() - 1;
    if let Some(first) = find_repetition(&game.keys, pos.halfmove_clock() as usize, n) {
        let start = game
            .position_at(first)
            .expect("a repetition lies within the game");
        let ruling =
            judge_cycle(&start, &game.moves[first..]).expect("the moves of a game are legal");
        return match ruling {
            CycleRuling::Draw => over(GameResult::Draw, Reason::RepetitionDraw),
            CycleRuling::PerpetualCheck { by } => {
                over(GameResult::loss_for(by), Reason::PerpetualCheck { by })
            }
            CycleRuling::PerpetualChase { by, piece, square } => over(
                GameResult::loss_for(by),
                Reason::PerpetualChase { by, piece, square },
            ),
        };
    }
    if move_rule_plies(pos.halfmove_clock(), &game.checks) >= NO_CAPTURE_DRAW_PLIES {
        return over(GameResult::Draw, Reason::MoveRule);
    }
    if insufficient_material(pos) {
        return over(GameResult::Draw, Reason::InsufficientMaterial);
    }
    Adjudication::Ongoing
}
