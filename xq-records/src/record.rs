//! Game records as files hold them: a game as a tree of moves, the form the [`pgn`](crate::pgn) and
//! [`xqf`](crate::xqf) readers produce and the PGN writer takes.
//!
//! A [`Record`] holds its tags in file order, the start [`Position`], the main [`Line`],
//! the result and any text that followed the game in its file. A line is a list of
//! [`Node`]s; each node is a move with the comment written after it, its annotation
//! glyphs (NAGs) and the variations: lines that could be played *instead of* that move,
//! from the same position. A line can also carry a comment before its first move (the
//! main line's is the comment on the whole game).
//!
//! ```
//! use xq_core::{Move, Position};
//! use xq_movegen::GameResult;
//! use xq_records::{Line, Node, Record};
//!
//! let mut game = Record::new(Position::startpos());
//! game.set_tag("Red", "Hu Ronghua");
//! let m = |s: &str| s.parse::<Move>().unwrap();
//! game.main.nodes.push(Node::new(m("h2e2")));
//! game.main.nodes.push(Node::new(m("h9g7")));
//! // Black could also have answered with the other horse.
//! game.main.nodes[1].variations.push(Line::from_moves([m("b9c7")]));
//! game.result = Some(GameResult::Draw);
//!
//! assert_eq!(game.tag("Red"), Some("Hu Ronghua"));
//! assert_eq!(game.main_line(), [m("h2e2"), m("h9g7")]);
//! // The main line as a game, to play on or judge by the rules.
//! assert_eq!(game.game().unwrap().position().to_fen(),
//!            "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
//! ```

use std::fmt;
use xq_core::{Move, Position};
use xq_movegen::{try_play, Game, GameResult, IllegalMoveError};

/// One move of a line, with what is written after it.
///
/// ```
/// use xq_records::Node;
/// let node = Node::new("h2e2".parse().unwrap()).with_comment("the central cannon");
/// assert_eq!(node.comment.as_deref(), Some("the central cannon"));
/// assert!(node.variations.is_empty());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The move.
    pub mv: Move,
    /// The comment after the move (readers trim it, make every line break LF and join
    /// consecutive comments with a line break).
    pub comment: Option<String>,
    /// Numeric annotation glyphs (`$1`, or `!` as read) attached to the move.
    pub nags: Vec<u8>,
    /// Lines that could be played instead of this move, from the position before it.
    pub variations: Vec<Line>,
}

impl Node {
    /// A node with the move `mv` and nothing else.
    pub fn new(mv: Move) -> Node {
        Node {
            mv,
            comment: None,
            nags: Vec::new(),
            variations: Vec::new(),
        }
    }

    /// The node with `comment` set.
    pub fn with_comment(mut self, comment: impl Into<String>) -> Node {
        self.comment = Some(comment.into());
        self
    }
}

/// A sequence of moves: the main line of a game or one of its variations.
///
/// ```
/// use xq_records::Line;
/// let line = Line::from_moves(["h2e2".parse().unwrap(), "h9g7".parse().unwrap()]);
/// assert_eq!(line.nodes.len(), 2);
/// assert_eq!(line.comment, None);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// The comment before the first move.
    pub comment: Option<String>,
    /// The moves, in order.
    pub nodes: Vec<Node>,
}

impl Line {
    /// A line of plain moves.
    pub fn from_moves(moves: impl IntoIterator<Item = Move>) -> Line {
        Line {
            comment: None,
            nodes: moves.into_iter().map(Node::new).collect(),
        }
    }

    /// The moves of the line, without its variations.
    pub fn moves(&self) -> Vec<Move> {
        self.nodes.iter().map(|n| n.mv).collect()
    }
}

/// Why the moves of a [`Record`] cannot be played.
///
/// ```
/// use xq_core::Position;
/// use xq_records::{Record, Line, ReplayError};
/// use xq_movegen::IllegalMoveError;
/// let mut game = Record::new(Position::startpos());
/// let bad = "e4e5".parse().unwrap();
/// game.main = Line::from_moves(["h2e2".parse().unwrap(), bad]);
/// assert_eq!(
///     game.game().unwrap_err(),
///     ReplayError { ply: 2, error: IllegalMoveError::NoPieceToMove(bad) }
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// The ply of the move that cannot be played, counted from 1 at the start position
    /// (a variation's moves have the plies of the moves they replace).
    pub ply: usize,
    /// Why it is not legal.
    pub error: IllegalMoveError,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ply {}: {}", self.ply, self.error)
    }
}

// `Display` includes the wrapped error, so `source` stays `None`.
impl std::error::Error for ReplayError {}

/// A game record: tags, start position, the tree of moves, result and trailing text.
///
/// The readers keep every tag in file order except `FEN` (which becomes [`start`]) and
/// `Format` (the notation of the file's moves, which the writer sets to the notation it
/// writes in).
///
/// [`start`]: Record::start
///
/// ```
/// use xq_core::Position;
/// use xq_records::Record;
/// let mut game = Record::new(Position::startpos());
/// game.set_tag("Event", "Club championship");
/// game.set_tag("Event", "Club final");
/// assert_eq!(game.tags, [("Event".to_string(), "Club final".to_string())]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The tags (`Event`, `Red`, `Black`, `Result`, `ECCO`...) as name and value, in
    /// the order of the file.
    pub tags: Vec<(String, String)>,
    /// The position before the first move.
    pub start: Position,
    /// The main line; its comment is the comment before the first move.
    pub main: Line,
    /// The result, `None` for a game unfinished or not recorded (PGN's `*`).
    pub result: Option<GameResult>,
    /// Text that followed the game in its file after the result (a site's notice, say),
    /// trimmed; `None` when there was none.
    pub trailer: Option<String>,
}

impl Record {
    /// An empty game from `start`: no tags, no moves, result unknown.
    pub fn new(start: Position) -> Record {
        Record {
            tags: Vec::new(),
            start,
            main: Line::default(),
            result: None,
            trailer: None,
        }
    }

    /// The record of `game`: its start, its moves as the main line, and its result if the
    /// rules have ended it; no tags.
    ///
    /// ```
    /// use xq_movegen::{Game, GameResult};
    /// use xq_records::Record;
    /// let game = Game::from_fen_moves("3k5/R8/9/9/9/9/9/9/4R4/4K4 w", &["e1e9"]).unwrap();
    /// let record = Record::from_game(&game);
    /// assert_eq!(record.main_line(), game.moves());
    /// assert_eq!(record.result, Some(GameResult::RedWins)); // mate
    /// ```
    pub fn from_game(game: &Game) -> Record {
        Record {
            main: Line::from_moves(game.moves().iter().copied()),
            result: game.outcome().map(|o| o.result),
            ..Record::new(game.start().clone())
        }
    }

    /// The value of the first tag called `name` (exact, case-sensitive match).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets the tag `name` to `value`: the first tag of that name is changed in place,
    /// or a new tag is added at the end.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The moves of the main line.
    pub fn main_line(&self) -> Vec<Move> {
        self.main.moves()
    }

    /// The main line as a [`Game`], with what the rules need to judge it.
    ///
    /// # Errors
    /// A [`ReplayError`] for the first main-line move that is not legal (the readers
    /// only produce games whose every move, variations included, is legal).
    pub fn game(&self) -> Result<Game, ReplayError> {
        let mut game = Game::new(self.start.clone());
        for (i, node) in self.main.nodes.iter().enumerate() {
            game.play(node.mv)
                .map_err(|error| ReplayError { ply: i + 1, error })?;
        }
        Ok(game)
    }

    /// Checks that every move of the tree, variations included, is legal where it is
    /// played.
    ///
    /// # Errors
    /// A [`ReplayError`] for the first illegal move, in the order of the PGN text.
    ///
    /// ```
    /// use xq_core::Position;
    /// use xq_records::{Record, Line};
    /// let mut game = Record::new(Position::startpos());
    /// game.main = Line::from_moves(["h2e2".parse().unwrap()]);
    /// game.main.nodes[0].variations.push(Line::from_moves(["h9g7".parse().unwrap()]));
    /// assert_eq!(game.validate().unwrap_err().ply, 1);
    /// ```
    pub fn validate(&self) -> Result<(), ReplayError> {
        validate_line(&self.start, &self.main, 0)
    }
}

/// Checks `line`, whose first move is ply `before + 1`, from `start`.
fn validate_line(start: &Position, line: &Line, before: usize) -> Result<(), ReplayError> {
    let mut pos = start.clone();
    for (i, node) in line.nodes.iter().enumerate() {
        let ply = before + i + 1;
        let previous = pos.clone();
        try_play(&mut pos, node.mv).map_err(|error| ReplayError { ply, error })?;
        for variation in &node.variations {
            validate_line(&previous, variation, ply - 1)?;
        }
    }
    Ok(())
}
