//! `xq match`'s arguments, in cutechess-cli's spelling so that its users' scripts need
//! few changes: `-engine cmd=... name=... proto=uci tc=10+0.1 option.Hash=64`, `-each`,
//! `-games`, `-rounds`, `-concurrency`, `-openings file=... format=epd order=random`,
//! `-srand`, `-pgnout`, `-sprt elo0=0 elo1=10 alpha=0.05 beta=0.05`, `-draw`, `-resign`,
//! `-maxmoves`, `-tb`, `-event`; and xq's own `-json FILE`, `-resume`, `-norepeat`. Options
//! may be written with one dash or two.

use crate::engine::{EngineConfig, Protocol};
use crate::game::{Adjudication, DrawRule, GameRules, ResignRule};
use crate::openings::{arrange, Order};
use crate::runner::MatchConfig;
use crate::stats::Sprt;
use crate::tc::TimeControl;
use crate::MatchError;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// A match's settings read from the command line, and what the command does with the
/// results.
#[derive(Clone, Debug)]
pub struct MatchArgs {
    /// The match.
    pub config: MatchConfig,
    /// Where the summary goes as JSON (`-json FILE`).
    pub json: Option<PathBuf>,
    /// Print the Elo and the SPRT every this many games (`-ratinginterval`; 0: at the end).
    pub rating_interval: u64,
}

fn err(what: impl Into<String>) -> MatchError {
    MatchError::Config(what.into())
}

/// `key=value` pairs, split at the first `=`.
fn pairs<'a>(words: &[&'a str]) -> Result<Vec<(&'a str, &'a str)>, MatchError> {
    words
        .iter()
        .map(|w| {
            w.split_once('=')
                .ok_or_else(|| err(format!("expected key=value, not '{w}'")))
        })
        .collect()
}

fn number<T: std::str::FromStr>(key: &str, value: &str) -> Result<T, MatchError> {
    value
        .parse()
        .map_err(|_| err(format!("{key}={value}: not a number")))
}

/// Applies one engine setting (`-engine`'s or `-each`'s) to `e`.
fn engine_setting(
    e: &mut EngineConfig,
    key: &str,
    value: &str,
    margin: &mut Option<Duration>,
) -> Result<(), MatchError> {
    match key {
        "cmd" => {
            // A command with arguments in one word, as a shell would split it.
            let mut words = value.split_whitespace();
            e.command = words.next().unwrap_or("").to_string();
            e.args.extend(words.map(str::to_string));
        }
        "name" => e.name = value.to_string(),
        "dir" => e.dir = Some(value.into()),
        "arg" => e.args.push(value.to_string()),
        "proto" => e.protocol = value.parse::<Protocol>().map_err(err)?,
        "tc" => e.limits.clock = TimeControl::parse(value).map_err(|x| err(x.to_string()))?,
        "st" => {
            e.limits.movetime = Some(Duration::from_secs_f64(
                number::<f64>(key, value)?.max(0.001),
            ))
        }
        "depth" => e.limits.depth = Some(number(key, value)?),
        "nodes" => e.limits.nodes = Some(number(key, value)?),
        "timemargin" => *margin = Some(Duration::from_millis(number(key, value)?)),
        "ranks" => e.ranks_from_one = value == "1",
        "restart" | "trust" | "ponder" | "initstr" | "stderr" => {}
        _ => match key.strip_prefix("option.") {
            Some(name) => e.options.push((name.to_string(), value.to_string())),
            None => return Err(err(format!("unknown engine setting '{key}'"))),
        },
    }
    Ok(())
}

/// Reads `xq match`'s arguments (those after `match`).
///
/// # Errors
/// [`MatchError::Config`] naming the argument that is wrong; [`MatchError::Openings`]
/// when the openings cannot be read.
///
/// ```
/// use xq_match::cli::parse_args;
/// let args: Vec<String> = "-engine cmd=./new name=new -engine cmd=./old name=old -each tc=10+0.1 option.Hash=16 -games 200 -concurrency 2 -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05"
///     .split(' ').map(String::from).collect();
/// let m = parse_args(&args).unwrap();
/// assert_eq!(m.config.engines[0].name, "new");
/// assert_eq!(m.config.engines[1].options, [("Hash".to_string(), "16".to_string())]);
/// assert_eq!(m.config.games, 200);
/// assert_eq!(m.config.sprt.unwrap().elo1, 10.0);
/// assert!(parse_args(&["-engine".to_string(), "cmd=x".to_string()]).is_err()); // one engine
/// ```
pub fn parse_args(args: &[String]) -> Result<MatchArgs, MatchError> {
    // Options and their words: `-name w1 w2 ...` up to the next option.
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for a in args {
        let option = a
            .strip_prefix("--")
            .or_else(|| a.strip_prefix('-'))
            .filter(|o| o.chars().next().is_some_and(|c| c.is_ascii_alphabetic()));
        match option {
            Some(o) => groups.push((o.to_string(), Vec::new())),
            None => match groups.last_mut() {
                Some((_, words)) => words.push(a),
                None => return Err(err(format!("unexpected '{a}' before any option"))),
            },
        }
    }
    let mut engines: Vec<EngineConfig> = Vec::new();
    let mut each: Vec<(&str, &str)> = Vec::new();
    let (mut games, mut rounds) = (1u64, 1u64);
    let mut concurrency = 1usize;
    let mut repeat = true;
    let mut openings_file: Option<(PathBuf, bool, Order, Option<usize>, usize)> = None;
    let mut seed = 0u64;
    let mut sprt = None;
    let mut adjudication = Adjudication::default();
    let mut tablebases = None;
    let mut pgn = None;
    let mut json = None;
    let mut event = None;
    let mut resume = false;
    let mut rating_interval = 0;
    let mut margin = None;
    let one = |name: &str, words: &[&str]| -> Result<String, MatchError> {
        match words {
            [w, ..] => Ok(w.to_string()),
            [] => Err(err(format!("-{name} needs a value"))),
        }
    };
    for (name, words) in &groups {
        match name.as_str() {
            "engine" => {
                let mut e = EngineConfig::default();
                for (k, v) in pairs(words)? {
                    engine_setting(&mut e, k, v, &mut margin)?;
                }
                engines.push(e);
            }
            "each" => each.extend(pairs(words)?),
            "games" => games = number("games", &one(name, words)?)?,
            "rounds" => rounds = number("rounds", &one(name, words)?)?,
            "concurrency" => concurrency = number("concurrency", &one(name, words)?)?,
            "repeat" => repeat = true,
            "norepeat" => repeat = false,
            "srand" => seed = number("srand", &one(name, words)?)?,
            "openings" | "book" => {
                let mut file = None;
                let (mut pgn_format, mut order, mut plies, mut start) =
                    (None, Order::Sequential, None, 1);
                for (k, v) in pairs(words)? {
                    match k {
                        "file" => file = Some(PathBuf::from(v)),
                        "format" => pgn_format = Some(v.eq_ignore_ascii_case("pgn")),
                        "order" => {
                            order = match v {
                                "random" => Order::Random,
                                "sequential" => Order::Sequential,
                                _ => return Err(err(format!("order={v}: random or sequential"))),
                            }
                        }
                        "plies" => plies = Some(number(k, v)?),
                        "start" => start = number(k, v)?,
                        "policy" => {}
                        _ => return Err(err(format!("unknown -openings setting '{k}'"))),
                    }
                }
                let file = file.ok_or_else(|| err("-openings needs file=FILE"))?;
                let is_pgn = pgn_format.unwrap_or_else(|| crate::openings::is_pgn(&file));
                openings_file = Some((file, is_pgn, order, plies, start));
            }
            "sprt" => {
                let mut s = Sprt::new(0.0, 10.0, 0.05, 0.05);
                for (k, v) in pairs(words)? {
                    match k {
                        "elo0" => s.elo0 = number(k, v)?,
                        "elo1" => s.elo1 = number(k, v)?,
                        "alpha" => s.alpha = number(k, v)?,
                        "beta" => s.beta = number(k, v)?,
                        _ => return Err(err(format!("unknown -sprt setting '{k}'"))),
                    }
                }
                if !(s.elo0 < s.elo1
                    && s.alpha > 0.0
                    && s.alpha < 0.5
                    && s.beta > 0.0
                    && s.beta < 0.5)
                {
                    return Err(err("-sprt needs elo0 < elo1 and alpha, beta in (0, 0.5)"));
                }
                sprt = Some(s);
            }
            "draw" => {
                let mut d = DrawRule {
                    move_number: 0,
                    count: 0,
                    score: 0,
                };
                for (k, v) in pairs(words)? {
                    match k {
                        "movenumber" => d.move_number = number(k, v)?,
                        "movecount" => d.count = number(k, v)?,
                        "score" => d.score = number(k, v)?,
                        _ => return Err(err(format!("unknown -draw setting '{k}'"))),
                    }
                }
                adjudication.draw = Some(d);
            }
            "resign" => {
                let mut r = ResignRule {
                    count: 0,
                    score: 0,
                    two_sided: false,
                };
                for (k, v) in pairs(words)? {
                    match k {
                        "movecount" => r.count = number(k, v)?,
                        "score" => r.score = number(k, v)?,
                        "twosided" => r.two_sided = v == "true",
                        _ => return Err(err(format!("unknown -resign setting '{k}'"))),
                    }
                }
                adjudication.resign = Some(r);
            }
            "maxmoves" => {
                adjudication.max_plies = Some(2 * number::<u32>("maxmoves", &one(name, words)?)?)
            }
            "tb" | "tablebases" => tablebases = Some(one(name, words)?),
            "pgnout" => pgn = Some(PathBuf::from(one(name, words)?)),
            "json" => json = Some(PathBuf::from(one(name, words)?)),
            "event" => event = Some(words.join(" ")),
            "resume" => resume = true,
            "recover" | "wait" | "debug" | "site" | "tournament" => {}
            "ratinginterval" => rating_interval = number("ratinginterval", &one(name, words)?)?,
            _ => return Err(err(format!("unknown option -{name}"))),
        }
    }
    if engines.len() != 2 {
        return Err(err(format!(
            "a match needs two -engine options, not {}",
            engines.len()
        )));
    }
    for e in &mut engines {
        for (k, v) in &each {
            engine_setting(e, k, v, &mut margin)?;
        }
        if e.command.is_empty() {
            return Err(err("an -engine without cmd=PROGRAM"));
        }
        if e.name.is_empty() {
            e.name = e
                .command
                .rsplit('/')
                .next()
                .unwrap_or(&e.command)
                .to_string();
        }
        if !e.limits.is_set() {
            return Err(err(format!("{}: no tc=, st=, depth= or nodes=", e.name)));
        }
    }
    if engines[0].name == engines[1].name {
        engines[1].name.push_str("-2");
    }
    let openings = match openings_file {
        Some((file, is_pgn, order, plies, start)) => arrange(
            crate::openings::read(&file, is_pgn, plies)?,
            order,
            seed,
            start,
        ),
        None => Vec::new(),
    };
    let tablebases = match tablebases {
        Some(dir) => Some(
            xq_search::engine::open_tablebases(&dir)
                .map(|t| t as Arc<_>)
                .map_err(|e| err(e.to_string()))?,
        ),
        None => None,
    };
    let engines: [EngineConfig; 2] = [engines[0].clone(), engines[1].clone()];
    let event = event.unwrap_or_else(|| format!("{} vs {}", engines[0].name, engines[1].name));
    Ok(MatchArgs {
        config: MatchConfig {
            engines,
            games: games * rounds,
            repeat,
            openings,
            concurrency: concurrency.max(1),
            rules: GameRules {
                adjudication,
                tablebases,
                margin: margin.unwrap_or(Duration::from_millis(100)),
                timeout: Duration::from_secs(5),
            },
            sprt,
            pgn,
            event,
            resume,
        },
        json,
        rating_interval,
    })
}
