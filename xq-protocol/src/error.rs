//! [`CommandError`]: why a command from the GUI was refused.

use std::fmt;
use xq_core::ParseMoveError;
use xq_movegen::GameError;
use xq_search::engine::EngineError;

/// Why a command from the GUI was refused: each protocol reports it in its own way
/// (UCI and UCCI as an `info string` line naming the command, XBoard as `Error`).
///
/// ```
/// use xq_protocol::CommandError;
/// let e = CommandError::OutOfRange { name: "Hash".into(), min: 1, max: 2048, value: 0 };
/// assert_eq!(e.to_string(), "Hash must be between 1 and 2048, not 0");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The command is not one of the protocol's.
    UnknownCommand,
    /// The command's words do not have the form it takes.
    Usage(&'static str),
    /// `setoption` names an option the engine does not have.
    UnknownOption(String),
    /// A parameter has no value.
    MissingValue(String),
    /// A parameter's value is not a number (or not the kind of value it takes).
    BadValue {
        /// The parameter.
        name: String,
        /// What was given.
        value: String,
    },
    /// A check option's value is not true or false.
    BadCheck {
        /// The option.
        name: String,
        /// What was given.
        value: String,
    },
    /// A spin option's value is out of its range.
    OutOfRange {
        /// The option.
        name: String,
        /// The least value.
        min: u64,
        /// The greatest value.
        max: u64,
        /// What was given.
        value: u64,
    },
    /// A `go` keyword the protocol does not have.
    UnknownGoParameter(String),
    /// `position` without `startpos` or `fen`.
    NoSetup,
    /// `position fen` without the FEN.
    MissingFen,
    /// Words after `position startpos` that are not `moves ...`.
    AfterStartpos(String),
    /// The FEN or a move of `position` is wrong.
    Game(GameError),
    /// A move of a list (`searchmoves`, `banmoves`) is not legal in the position.
    IllegalMove(String),
    /// A move of a list is not a move at all.
    BadMove {
        /// The text.
        text: String,
        /// Why it is not a move.
        error: ParseMoveError,
    },
    /// `ponderhit` while the engine is not pondering.
    NotPondering,
    /// A variant other than Xiangqi.
    UnsupportedVariant(String),
    /// The engine refused a setting (a file it cannot load, a table the system refuses);
    /// the error says what it does instead.
    Engine(EngineError),
    /// A command that cannot be obeyed in the engine's state (taking back more moves
    /// than were played).
    NotLegalNow,
    /// Several problems with one command (each reported, the rest of it obeyed).
    Several(Vec<CommandError>),
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::UnknownCommand => f.write_str("unknown command"),
            CommandError::Usage(usage) => write!(f, "expected '{usage}'"),
            CommandError::UnknownOption(name) => write!(f, "unknown option '{name}'"),
            CommandError::MissingValue(name) => write!(f, "missing value for {name}"),
            CommandError::BadValue { name, value } => write!(f, "bad value '{value}' for {name}"),
            CommandError::BadCheck { name, value } => {
                write!(f, "bad value '{value}' for {name} (true or false)")
            }
            CommandError::OutOfRange {
                name,
                min,
                max,
                value,
            } => write!(f, "{name} must be between {min} and {max}, not {value}"),
            CommandError::UnknownGoParameter(w) => write!(f, "unknown go parameter '{w}'"),
            CommandError::NoSetup => f.write_str("expected 'startpos' or 'fen'"),
            CommandError::MissingFen => f.write_str("missing FEN"),
            CommandError::AfterStartpos(rest) => write!(f, "unexpected '{rest}' after startpos"),
            CommandError::Game(e) => e.fmt(f),
            CommandError::IllegalMove(m) => write!(f, "illegal move {m}"),
            CommandError::BadMove { text, error } => write!(f, "bad move '{text}': {error}"),
            CommandError::NotPondering => f.write_str("ponderhit while not pondering"),
            CommandError::UnsupportedVariant(v) => write!(f, "unsupported variant '{v}'"),
            CommandError::Engine(e) => {
                // The engine's text, and what it does instead.
                e.fmt(f)?;
                match e {
                    EngineError::Network { .. } => f.write_str("; the evaluation is unchanged"),
                    EngineError::Book { .. } => f.write_str("; playing without a book"),
                    EngineError::Tablebases { .. } => f.write_str("; playing without them"),
                    EngineError::Table { .. } | EngineError::UnknownParam(_) => Ok(()),
                }
            }
            CommandError::NotLegalNow => f.write_str("command not legal now"),
            CommandError::Several(all) => {
                for (i, e) in all.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    e.fmt(f)?;
                }
                Ok(())
            }
        }
    }
}

// `Display` includes every wrapped error, so `source` stays `None`.
impl std::error::Error for CommandError {}

impl From<EngineError> for CommandError {
    fn from(e: EngineError) -> CommandError {
        CommandError::Engine(e)
    }
}

impl CommandError {
    /// `Ok` with no problem, the one problem, or [`CommandError::Several`].
    pub fn from_problems(mut problems: Vec<CommandError>) -> Result<(), CommandError> {
        match problems.len() {
            0 => Ok(()),
            1 => Err(problems.remove(0)),
            _ => Err(CommandError::Several(problems)),
        }
    }
}
