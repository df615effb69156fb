//! Parsing what GUIs send: positions, move lists, numbers and option values, and the
//! keywords of `go`.

use crate::error::CommandError;
use xq_core::{Ignore, Move, Position};
use xq_movegen::Game;

/// Parses `[startpos | fen <fen fields>] [moves m1 m2 ...]` into a game. A composed
/// position no game can reach but that can be played (a soldier behind its start, as mate
/// problems place them) is taken ([`Ignore::PLAYABLE`]); its start's
/// [`irregularities`](xq_core::Position::irregularities) say what is unusual.
///
/// # Errors
/// A missing or unknown setup keyword, a bad FEN or a bad or illegal move.
///
/// ```
/// use xq_protocol::{parse_position, CommandError};
/// let game = parse_position(&["startpos", "moves", "h2e2", "h9g7"]).unwrap();
/// assert_eq!(game.moves().len(), 2);
/// assert_eq!(parse_position(&["fen"]).unwrap_err(), CommandError::MissingFen);
/// ```
pub fn parse_position(words: &[&str]) -> Result<Game, CommandError> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let fen = match setup.split_first() {
        Some((&"startpos", rest)) => {
            if !rest.is_empty() {
                return Err(CommandError::AfterStartpos(rest.join(" ")));
            }
            xq_core::START_FEN.to_string()
        }
        Some((&"fen", rest)) => {
            if rest.is_empty() {
                return Err(CommandError::MissingFen);
            }
            rest.join(" ")
        }
        _ => return Err(CommandError::NoSetup),
    };
    Game::from_fen_moves_with(&fen, moves, Ignore::PLAYABLE).map_err(CommandError::Game)
}

/// Parses moves that must be legal in `pos`; returns the good ones and what is wrong
/// with the others.
///
/// ```
/// use xq_core::Position;
/// use xq_protocol::CommandError;
/// let (good, bad) = xq_protocol::parse_legal_moves(&Position::startpos(), &["h2e2", "a0a5", "zz"]);
/// assert_eq!(good.len(), 1);
/// assert_eq!(bad[0], CommandError::IllegalMove("a0a5".into()));
/// assert_eq!(bad[1].to_string(), "bad move 'zz': a move is four characters in ICCS like `h2e2`, found 2");
/// ```
pub fn parse_legal_moves(pos: &Position, words: &[&str]) -> (Vec<Move>, Vec<CommandError>) {
    let mut good = Vec::new();
    let mut bad = Vec::new();
    for w in words {
        match w.parse::<Move>() {
            Ok(m) if xq_movegen::is_legal(pos, m) => good.push(m),
            Ok(_) => bad.push(CommandError::IllegalMove(w.to_string())),
            Err(error) => bad.push(CommandError::BadMove {
                text: w.to_string(),
                error,
            }),
        }
    }
    (good, bad)
}

/// Parses the value of a parameter.
///
/// # Errors
/// [`CommandError::MissingValue`] or [`CommandError::BadValue`].
///
/// ```
/// use xq_protocol::parse_num;
/// assert_eq!(parse_num::<u32>("depth", Some("8")), Ok(8));
/// assert_eq!(parse_num::<u32>("depth", Some("-1")).unwrap_err().to_string(), "bad value '-1' for depth");
/// assert_eq!(parse_num::<u32>("depth", None).unwrap_err().to_string(), "missing value for depth");
/// ```
pub fn parse_num<T: std::str::FromStr>(name: &str, word: Option<&str>) -> Result<T, CommandError> {
    match word {
        Some(w) => w.parse().map_err(|_| CommandError::BadValue {
            name: name.to_string(),
            value: w.to_string(),
        }),
        None => Err(CommandError::MissingValue(name.to_string())),
    }
}

/// Parses the value of a spin (integer) option within `min..=max`.
///
/// # Errors
/// As [`parse_num`], or [`CommandError::OutOfRange`].
///
/// ```
/// use xq_protocol::parse_spin;
/// assert_eq!(parse_spin("Hash", Some("16"), 1, 2048), Ok(16));
/// assert_eq!(parse_spin("Hash", Some("0"), 1, 2048).unwrap_err().to_string(), "Hash must be between 1 and 2048, not 0");
/// ```
pub fn parse_spin(
    name: &str,
    value: Option<&str>,
    min: u64,
    max: u64,
) -> Result<u64, CommandError> {
    let n: u64 = parse_num(name, value)?;
    if n < min || n > max {
        return Err(CommandError::OutOfRange {
            name: name.to_string(),
            min,
            max,
            value: n,
        });
    }
    Ok(n)
}

/// Parses the value of a check (boolean) option: `true`, `on` or `1`, `false`, `off` or
/// `0`, in any case.
///
/// # Errors
/// [`CommandError::MissingValue`] or [`CommandError::BadCheck`].
///
/// ```
/// use xq_protocol::parse_check;
/// assert_eq!(parse_check("Ponder", Some("True")), Ok(true));
/// assert_eq!(parse_check("Ponder", Some("off")), Ok(false));
/// assert_eq!(parse_check("Ponder", Some("maybe")).unwrap_err().to_string(), "bad value 'maybe' for Ponder (true or false)");
/// ```
pub fn parse_check(name: &str, value: Option<&str>) -> Result<bool, CommandError> {
    let v = value.ok_or_else(|| CommandError::MissingValue(name.to_string()))?;
    match v.to_ascii_lowercase().as_str() {
        "true" | "on" | "1" => Ok(true),
        "false" | "off" | "0" => Ok(false),
        _ => Err(CommandError::BadCheck {
            name: name.to_string(),
            value: v.to_string(),
        }),
    }
}

/// How a `go` keyword is followed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Arity {
    /// By nothing (`infinite`, `ponder`).
    Flag,
    /// By one value (`depth 8`).
    Value,
    /// By moves up to the next keyword (`searchmoves h2e2 b0c2`).
    Moves,
}

/// One keyword of a `go` command with what follows it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GoArg<'a> {
    /// A flag.
    Flag,
    /// A value (`None` when the command ends after the keyword).
    Value(Option<&'a str>),
    /// The moves after the keyword.
    Moves(&'a [&'a str]),
}

/// Reads the words of a `go` command, `keyword [value]` after `keyword [value]`, as UCI
/// and UCCI both write it: `keywords` says how each keyword is followed, and `apply`
/// takes each keyword with its argument. A keyword `apply` refuses, or one the protocol
/// does not have, is a problem; reading goes on after it (past a bad value, but never
/// past a following keyword). Returns the problems, in order.
///
/// ```
/// use xq_protocol::{parse_go, Arity, GoArg};
/// let keywords = [("depth", Arity::Value), ("infinite", Arity::Flag)];
/// let mut depth = None;
/// let problems = parse_go(&["depth", "x", "infinite", "sideways"], &keywords, |k, arg| {
///     if let ("depth", GoArg::Value(v)) = (k, arg) {
///         depth = Some(xq_protocol::parse_num::<u32>(k, v)?);
///     }
///     Ok(())
/// });
/// let problems: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
/// assert_eq!(problems, ["bad value 'x' for depth", "unknown go parameter 'sideways'"]);
/// assert_eq!(depth, None);
/// ```
pub fn parse_go<'a>(
    words: &'a [&'a str],
    keywords: &[(&str, Arity)],
    mut apply: impl FnMut(&'a str, GoArg<'a>) -> Result<(), CommandError>,
) -> Vec<CommandError> {
    let arity = |w: &str| keywords.iter().find(|(k, _)| *k == w).map(|&(_, a)| a);
    let mut problems = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let next = words.get(i + 1).copied();
        let (arg, used) = match arity(w) {
            None => {
                problems.push(CommandError::UnknownGoParameter(w.to_string()));
                i += 1;
                continue;
            }
            Some(Arity::Flag) => (GoArg::Flag, 1),
            Some(Arity::Value) => {
                // A value that is itself a keyword is not taken: the keyword follows.
                let value = next.filter(|v| arity(v).is_none());
                (GoArg::Value(value), 1 + usize::from(value.is_some()))
            }
            Some(Arity::Moves) => {
                let end = words[i + 1..]
                    .iter()
                    .position(|v| arity(v).is_some())
                    .map_or(words.len(), |k| i + 1 + k);
                (GoArg::Moves(&words[i + 1..end]), end - i)
            }
        };
        if let Err(e) = apply(w, arg) {
            problems.push(e);
        }
        i += used;
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_parse() {
        assert!(parse_position(&["startpos"]).is_ok());
        let g = parse_position(&["startpos", "moves", "h2e2", "h9g7"]).unwrap();
        assert_eq!(g.moves().len(), 2);
        assert!(parse_position(&["startpos", "moves", "h2e2", "h2e2"]).is_err());
        assert!(parse_position(&["fen"]).is_err());
        assert!(parse_position(&["fen", "xyz"]).is_err());
        assert!(parse_position(&[]).is_err());
        assert!(parse_position(&["fen", "R3k4/1R7/9/9/9/9/9/9/9/3K5", "b"]).is_ok());
    }

    #[test]
    fn option_values_parse_or_say_why_not() {
        fn err<T>(s: &str) -> Result<T, String> {
            Err(s.to_string())
        }
        let text = |r: Result<u64, CommandError>| r.map_err(|e| e.to_string());
        assert_eq!(text(parse_spin("Threads", Some("16"), 1, 16)), Ok(16));
        assert_eq!(
            text(parse_spin("Threads", Some("17"), 1, 16)),
            err("Threads must be between 1 and 16, not 17")
        );
        assert_eq!(
            text(parse_spin("hashsize", Some("lots"), 0, 2048)),
            err("bad value 'lots' for hashsize")
        );
        assert_eq!(
            text(parse_spin("hashsize", Some("-1"), 0, 2048)),
            err("bad value '-1' for hashsize")
        );
        assert_eq!(
            parse_spin("hashsize", None, 0, 2048),
            Err(CommandError::MissingValue("hashsize".into()))
        );
        for (v, want) in [("TRUE", true), ("on", true), ("1", true), ("False", false)] {
            assert_eq!(parse_check("ponder", Some(v)), Ok(want), "{v}");
        }
        assert_eq!(
            parse_check("Ponder", None).unwrap_err().to_string(),
            "missing value for Ponder"
        );
        assert_eq!(
            parse_check("usemillisec", Some("Maybe"))
                .unwrap_err()
                .to_string(),
            "bad value 'Maybe' for usemillisec (true or false)"
        );
        assert_eq!(
            parse_num::<u64>("nodes", Some("18446744073709551615")),
            Ok(u64::MAX)
        );
        assert_eq!(
            parse_num::<u32>("depth", Some("4294967296"))
                .unwrap_err()
                .to_string(),
            "bad value '4294967296' for depth"
        );
    }

    #[test]
    fn go_words_are_read_keyword_by_keyword() {
        let keywords = [
            ("searchmoves", Arity::Moves),
            ("depth", Arity::Value),
            ("infinite", Arity::Flag),
        ];
        let mut seen = Vec::new();
        let words = [
            "searchmoves",
            "h2e2",
            "b0c2",
            "depth",
            "infinite",
            "depth",
            "5",
            "x",
        ];
        let problems = parse_go(&words, &keywords, |k, arg| {
            seen.push(format!("{k} {arg:?}"));
            Ok(())
        });
        assert_eq!(
            seen,
            [
                "searchmoves Moves([\"h2e2\", \"b0c2\"])",
                "depth Value(None)",
                "infinite Flag",
                "depth Value(Some(\"5\"))",
            ]
        );
        assert_eq!(problems, [CommandError::UnknownGoParameter("x".into())]);
        // Several problems are one error, joined.
        let e = CommandError::from_problems(vec![
            CommandError::MissingValue("depth".into()),
            CommandError::UnknownGoParameter("x".into()),
        ]);
        assert_eq!(
            e.unwrap_err().to_string(),
            "missing value for depth; unknown go parameter 'x'"
        );
        assert_eq!(CommandError::from_problems(vec![]), Ok(()));
    }
}
