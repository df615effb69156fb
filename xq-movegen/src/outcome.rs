//! How a game ends: one result type and one outcome (the result with the rule that
//! decided it), for every caller: the game, the cycle ruling, game files and the search.

use std::fmt;
use std::str::FromStr;
use xq_core::{Color, Piece, Square};

/// Plies without a capture after which the game is drawn: the 60-move rule
/// ([`Termination::MoveRule`]; [`rules::move_rule_plies`](crate::rules::move_rule_plies)
/// counts them).
pub const NO_CAPTURE_DRAW_PLIES: u32 = 120;

/// The result of a finished game, as PGN writes it: `1-0`, `0-1` or `1/2-1/2`. (An
/// unfinished game has no result: `Option<GameResult>`, written `*`.)
///
/// ```
/// use xq_core::Color;
/// use xq_movegen::GameResult;
/// assert_eq!(GameResult::BlackWins.to_string(), "0-1");
/// assert_eq!("1/2-1/2".parse(), Ok(GameResult::Draw));
/// assert_eq!(GameResult::loss_for(Color::Red), GameResult::BlackWins);
/// assert_eq!(GameResult::RedWins.winner(), Some(Color::Red));
/// ```
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
    /// The result in which `color` wins.
    pub const fn win_for(color: Color) -> GameResult {
        match color {
            Color::Red => GameResult::RedWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The result in which `color` loses.
    pub const fn loss_for(color: Color) -> GameResult {
        GameResult::win_for(match color {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        })
    }

    /// The winner, if any.
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::RedWins => Some(Color::Red),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw => None,
        }
    }

    /// The PGN token: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn token(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
}

impl fmt::Display for GameResult {
    /// The PGN token ([`GameResult::token`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

/// A text that is not a result token (`1-0`, `0-1` or `1/2-1/2`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseResultError(pub String);

impl fmt::Display for ParseResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a result (1-0, 0-1 or 1/2-1/2)",
            self.0.escape_debug()
        )
    }
}

impl std::error::Error for ParseResultError {}

impl FromStr for GameResult {
    type Err = ParseResultError;

    fn from_str(s: &str) -> Result<GameResult, ParseResultError> {
        match s {
            "1-0" => Ok(GameResult::RedWins),
            "0-1" => Ok(GameResult::BlackWins),
            "1/2-1/2" => Ok(GameResult::Draw),
            _ => Err(ParseResultError(s.to_string())),
        }
    }
}

/// The rule that ended a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is in check and has no legal move: it loses.
    Checkmate,
    /// The side to move is not in check and has no legal move: it loses (unlike chess).
    Stalemate,
    /// A repetition in which `by` checked with every one of its moves and the other side
    /// did not: `by` loses.
    PerpetualCheck {
        /// The side that checked.
        by: Color,
    },
    /// A repetition without a check in which `by` newly chased the same enemy piece with
    /// every one of its moves and the other side did not chase: `by` loses.
    PerpetualChase {
        /// The side that chased.
        by: Color,
        /// The chased piece.
        piece: Piece,
        /// Where it stands at the end of the cycle.
        square: Square,
    },
    /// A repetition with no perpetual check or chase by one side alone: a draw.
    Repetition,
    /// 120 counted plies without a capture (the 60-move rule, see
    /// [`rules::move_rule_plies`](crate::rules::move_rule_plies)): a draw.
    MoveRule,
    /// Neither side can ever mate
    /// ([`rules::insufficient_material`](crate::rules::insufficient_material)): a draw.
    InsufficientMaterial,
}

impl Termination {
    /// A short tag for machines: `checkmate`, `stalemate`, `perpetual-check`,
    /// `perpetual-chase`, `repetition`, `60-move-rule`, `insufficient-material`.
    pub const fn tag(&self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::PerpetualCheck { .. } => "perpetual-check",
            Termination::PerpetualChase { .. } => "perpetual-chase",
            Termination::Repetition => "repetition",
            Termination::MoveRule => "60-move-rule",
            Termination::InsufficientMaterial => "insufficient-material",
        }
    }
}

impl fmt::Display for Termination {
    /// The reason in words, as in `perpetual chase by red of the black horse on b7`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Termination::Checkmate => f.write_str("checkmate"),
            Termination::Stalemate => f.write_str("stalemate (no legal move)"),
            Termination::PerpetualCheck { by } => write!(f, "perpetual check by {by}"),
            Termination::PerpetualChase { by, piece, square } => write!(
                f,
                "perpetual chase by {by} of the {} {} on {square}",
                piece.color, piece.kind
            ),
            Termination::Repetition => f.write_str("repetition"),
            Termination::MoveRule => write!(
                f,
                "60-move rule ({NO_CAPTURE_DRAW_PLIES} plies without a capture)"
            ),
            Termination::InsufficientMaterial => f.write_str("insufficient material"),
        }
    }
}

/// How a game ended: the result and the rule that decided it. The game asks for it with
/// [`Game::outcome`](crate::Game::outcome) (`None` while it goes on), a bare position
/// with [`outcome`](crate::outcome()), a repetition cycle with
/// [`rules::rule_cycle`](crate::rules::rule_cycle).
///
/// ```
/// use xq_core::Color;
/// use xq_movegen::{GameResult, Outcome, Termination};
/// let o = Outcome::loss(Color::Red, Termination::PerpetualCheck { by: Color::Red });
/// assert_eq!(o.result, GameResult::BlackWins);
/// assert_eq!(o.winner(), Some(Color::Black));
/// assert_eq!(o.to_string(), "0-1 perpetual check by red");
/// assert_eq!(Outcome::draw(Termination::Repetition).to_string(), "1/2-1/2 repetition");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Who won.
    pub result: GameResult,
    /// Why.
    pub termination: Termination,
}

impl Outcome {
    /// `loser` lost by `reason`.
    pub const fn loss(loser: Color, termination: Termination) -> Outcome {
        Outcome {
            result: GameResult::loss_for(loser),
            termination,
        }
    }

    /// A draw by `reason`.
    pub const fn draw(termination: Termination) -> Outcome {
        Outcome {
            result: GameResult::Draw,
            termination,
        }
    }

    /// The winner, if any.
    pub const fn winner(&self) -> Option<Color> {
        self.result.winner()
    }
}

impl fmt::Display for Outcome {
    /// The result and the reason in words, as in
    /// `0-1 perpetual chase by red of the black horse on b7`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.result, self.termination)
    }
}
