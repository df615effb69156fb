//! A match: game pairs from the openings, played on `concurrency` threads each with its
//! own two engine processes, counted into the pentanomial, stopped by the SPRT when it
//! concludes, every game appended to the PGN as it ends (so an interrupted match loses
//! nothing and resumes from it).

use crate::engine::EngineConfig;
use crate::game::{play, Ending, GameRules, Opening, PlayedGame, Seat};
use crate::stats::{Pentanomial, Points, Sprt, Verdict};
use crate::MatchError;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::channel;
use xq_core::{Color, Position};
use xq_movegen::GameResult;
use xq_records::{Line, Node, Record};

/// What a match plays.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines: the statistics are the first one's.
    pub engines: [EngineConfig; 2],
    /// Games in all (with `repeat`, pairs of games).
    pub games: u64,
    /// Each opening is played twice, the engines swapping colours (game pairs).
    pub repeat: bool,
    /// The openings, in the order they are used (none: the start position).
    pub openings: Vec<Opening>,
    /// Games played at once.
    pub concurrency: usize,
    /// The rules of a game beyond xq's: adjudication, tables, the clock's margin.
    pub rules: GameRules,
    /// Stop when this test concludes.
    pub sprt: Option<Sprt>,
    /// Where the games are appended as they end.
    pub pgn: Option<PathBuf>,
    /// The PGN's `Event` tag.
    pub event: String,
    /// Take the complete pairs already in `pgn` and play the rest.
    pub resume: bool,
}

/// The results so far, as the first engine's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// The engines' names.
    pub names: [String; 2],
    /// Games counted.
    pub games: u64,
    /// The first engine's wins, draws and losses.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// The pairs' points.
    pub pentanomial: Pentanomial,
    /// Games each engine lost by forfeit.
    pub forfeits: [u64; 2],
    /// How the games ended, by the PGN's words.
    pub endings: BTreeMap<String, u64>,
    /// The SPRT's log-likelihood ratio, when one runs.
    pub llr: Option<f64>,
    /// What the SPRT says.
    pub verdict: Option<Verdict>,
}

impl Summary {
    /// The first engine's score, 0 to 1.
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            0.5
        } else {
            (self.wins as f64 + self.draws as f64 / 2.0) / self.games as f64
        }
    }

    /// The summary as JSON (what `xq match --json` writes).
    pub fn to_json(&self, sprt: Option<&Sprt>) -> serde_json::Value {
        let (elo, error) = self.pentanomial.elo();
        serde_json::json!({
            "engines": self.names,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": self.score(),
            "elo": elo,
            "elo_error": error,
            "pentanomial": self.pentanomial.counts,
            "forfeits": { self.names[0].clone(): self.forfeits[0], self.names[1].clone(): self.forfeits[1] },
            "endings": self.endings,
            "sprt": sprt.map(|s| serde_json::json!({
                "elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
                "llr": self.llr, "bounds": [s.bounds().0, s.bounds().1],
                "result": match self.verdict { Some(Verdict::H0) => "H0", Some(Verdict::H1) => "H1", _ => "continue" },
            })),
        })
    }
}

/// One game as it ended, for the progress report.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The game's number from 1 (pair `p`'s games are `2p - 1` and `2p`).
    pub number: u64,
    /// Which engine played Red (0 or 1).
    pub red: usize,
    /// The game.
    pub game: PlayedGame,
}

/// The first engine's points in a game where engine `red` played Red.
fn points(result: GameResult, red: usize) -> Points {
    match (result, red) {
        (GameResult::Draw, _) => Points::Draw,
        (GameResult::RedWins, 0) | (GameResult::BlackWins, 1) => Points::Win,
        _ => Points::Loss,
    }
}

/// The opening and the engine playing Red of game `number` (from 0).
fn setup(config: &MatchConfig, number: u64) -> (Opening, usize) {
    let start = Opening {
        start: Position::startpos(),
        moves: Vec::new(),
    };
    let (opening, red) = if config.repeat {
        (number / 2, (number % 2) as usize)
    } else {
        (number, (number % 2) as usize)
    };
    let o = if config.openings.is_empty() {
        start
    } else {
        config.openings[(opening % config.openings.len() as u64) as usize].clone()
    };
    (o, red)
}

/// How a game ended, in words, the engine named where it lost by forfeit or by a score
/// adjudication: `bad (black) crashed (its output ended)`.
pub fn describe(config: &MatchConfig, report: &GameReport) -> String {
    let name = |side: Color| {
        let seat = if side == Color::Red {
            report.red
        } else {
            1 - report.red
        };
        &config.engines[seat].name
    };
    match &report.game.ending {
        Ending::Forfeit { by, fault } => format!("{} ({by}) {fault}", name(*by)),
        Ending::ResignAdjudication { by } => {
            format!("{} ({by}) resigns by adjudication (scores)", name(*by))
        }
        e => e.to_string(),
    }
}

/// Today's date as PGN writes it (`2026.11.28`, UTC).
fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The game as a PGN record: the tags cutechess-cli writes, each engine move's score,
/// depth and time in its comment, the opening's moves marked `book`, the ending in the
/// last comment and the `Termination` tag.
pub fn record(config: &MatchConfig, report: &GameReport) -> Record {
    let g = &report.game;
    let mut r = Record::new(g.start.clone());
    let names = [&config.engines[0].name, &config.engines[1].name];
    let per_game = if config.repeat { 2 } else { 1 };
    let round = format!(
        "{}.{}",
        (report.number - 1) / per_game + 1,
        (report.number - 1) % per_game + 1
    );
    r.set_tag("Event", config.event.clone());
    r.set_tag("Site", "xq match");
    r.set_tag("Date", today());
    r.set_tag("Round", round);
    r.set_tag("Red", names[report.red].clone());
    r.set_tag("Black", names[1 - report.red].clone());
    // The seven-tag roster's `Result`, which rating tools (Ordo, BayesElo) read.
    r.set_tag("Result", g.result.map_or("*", GameResult::token));
    // One `TimeControl` when both clocks are the same; with time odds, each side's
    // (cutechess-cli writes `WhiteTimeControl` and `BlackTimeControl`).
    let clocks = [
        config.engines[report.red].limits.clock,
        config.engines[1 - report.red].limits.clock,
    ];
    if clocks[0] == clocks[1] {
        if let Some(tc) = clocks[0] {
            r.set_tag("TimeControl", tc.to_string());
        }
    } else {
        for (tag, clock) in ["RedTimeControl", "BlackTimeControl"]
            .into_iter()
            .zip(clocks)
        {
            r.set_tag(
                tag,
                clock.map_or_else(|| "-".to_string(), |tc| tc.to_string()),
            );
        }
    }
    r.set_tag("Termination", g.ending.tag());
    r.set_tag("PlyCount", g.moves.len().to_string());
    r.result = g.result;
    let mut line = Line::default();
    for m in &g.moves {
        let comment = if m.book {
            "book".to_string()
        } else {
            let score = match m.score {
                Some(xq_search::Score::Cp(v)) => format!("{:+.2}", f64::from(v) / 100.0),
                Some(xq_search::Score::Mate(n)) => {
                    format!("{}M{}", if n < 0 { "-" } else { "+" }, n.abs())
                }
                None => "-".into(),
            };
            format!("{score}/{} {:.3}s", m.depth, m.time.as_secs_f64())
        };
        line.nodes.push(Node::new(m.mv).with_comment(comment));
    }
    let ending = describe(config, report);
    match line.nodes.last_mut() {
        Some(last) => {
            let c = last.comment.take().unwrap_or_default();
            last.comment = Some(format!("{c}, {ending}"));
        }
        None => line.comment = Some(ending),
    }
    r.main = line;
    r
}

/// A pair found complete in the PGN: its number (from 0) and, for each game, the engine
/// that played Red and the result.
type ResumedPair = (u64, Vec<(usize, GameResult)>);

/// A pair's games as read: the record, the engine that played Red, the result.
type ReadPair = (u64, Vec<(Record, usize, GameResult)>);

/// The pairs whose games are all in the PGN already, with their results; the PGN is
/// written again with those games alone (a pair cut short is dropped, to be played
/// again).
fn resume(config: &MatchConfig, path: &PathBuf) -> Result<Vec<ResumedPair>, MatchError> {
    let bad = |what: String| MatchError::Pgn {
        path: path.clone(),
        what,
    };
    let Ok(bytes) = std::fs::read(path) else {
        return Ok(Vec::new());
    };
    let games = xq_records::pgn::read(&bytes, &xq_records::pgn::ReadOptions::default())
        .map_err(|e| bad(e.to_string()))?;
    let per_game = if config.repeat { 2 } else { 1 };
    let mut pairs: BTreeMap<u64, Vec<(Record, usize, GameResult)>> = BTreeMap::new();
    for g in games {
        let round = g.tag("Round").unwrap_or("");
        let Some((p, _)) = round.split_once('.') else {
            return Err(bad(format!(
                "a game without a Round of the form PAIR.GAME ('{round}')"
            )));
        };
        let p: u64 = p.parse().map_err(|_| bad(format!("bad Round '{round}'")))?;
        let red = match g.tag("Red") {
            Some(n) if n == config.engines[0].name => 0,
            Some(n) if n == config.engines[1].name => 1,
            other => return Err(bad(format!("a game of another engine ({other:?})"))),
        };
        if let Some(result) = g.result {
            pairs
                .entry(p.saturating_sub(1))
                .or_default()
                .push((g, red, result));
        }
    }
    let complete: Vec<ReadPair> = pairs
        .into_iter()
        .filter(|(_, games)| games.len() as u64 == per_game)
        .collect();
    // The file again, with the complete pairs alone.
    let kept: Vec<Record> = complete
        .iter()
        .flat_map(|(_, g)| g.iter().map(|x| x.0.clone()))
        .collect();
    let text = xq_records::pgn::write_all(&kept, &xq_records::pgn::WriteOptions::default())
        .map_err(|e| bad(e.to_string()))?;
    std::fs::write(path, text).map_err(|e| bad(e.to_string()))?;
    Ok(complete
        .into_iter()
        .map(|(p, g)| {
            (
                p,
                g.into_iter()
                    .map(|(_, red, result)| (red, result))
                    .collect(),
            )
        })
        .collect())
}

/// Plays pair `p` (from 0: its games are `2p` and `2p + 1` from 0, the first with the
/// first engine as Red) on `seats` (the two engines' seats, in the match's order); a
/// game cut short by `stop` ends the pair. What a match's workers do, and a distributed
/// driver's (Python's `xq.match` on a cluster) for the pairs it hands out.
pub fn play_pair(
    config: &MatchConfig,
    seats: &mut [Seat; 2],
    p: u64,
    stop: &dyn Fn() -> bool,
) -> Vec<GameReport> {
    let per_pair: u64 = if config.repeat { 2 } else { 1 };
    let mut reports = Vec::new();
    for k in 0..per_pair {
        let number = p * per_pair + k;
        if number >= config.games {
            break;
        }
        let (opening, red) = setup(config, number);
        let [a, b] = seats;
        let (r, bl) = if red == 0 { (a, b) } else { (b, a) };
        let game = play(r, bl, &opening, &config.rules, stop);
        let unfinished = game.ending == Ending::Unfinished;
        reports.push(GameReport {
            number: number + 1,
            red,
            game,
        });
        if unfinished {
            break;
        }
    }
    reports
}

/// Plays the match, calling `on_game` after every game with the summary so far, and
/// returns the final summary.
///
/// # Errors
/// The PGN cannot be read (to resume) or written.
pub fn run(
    config: &MatchConfig,
    on_game: &mut dyn FnMut(&GameReport, &Summary),
) -> Result<Summary, MatchError> {
    let per_pair: u64 = if config.repeat { 2 } else { 1 };
    let pairs = config.games.div_ceil(per_pair);
    let mut summary = Summary {
        names: [
            config.engines[0].name.clone(),
            config.engines[1].name.clone(),
        ],
        ..Summary::default()
    };
    let mut done = vec![false; pairs as usize];
    if let (true, Some(path)) = (config.resume, &config.pgn) {
        for (p, games) in resume(config, path)? {
            if let Some(d) = done.get_mut(p as usize) {
                *d = true;
                let pts: Vec<Points> = games.iter().map(|&(red, r)| points(r, red)).collect();
                count(&mut summary, &pts, config.sprt.as_ref());
            }
        }
    }
    let mut pgn = match &config.pgn {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| MatchError::Pgn {
                    path: path.clone(),
                    what: e.to_string(),
                })?,
        ),
        None => None,
    };
    let todo: Vec<u64> = (0..pairs).filter(|&p| !done[p as usize]).collect();
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(summary.verdict.is_some_and(|v| v != Verdict::Continue));
    let (tx, rx) = channel::<(u64, Vec<GameReport>)>();
    let threads = config.concurrency.clamp(1, todo.len().max(1));
    let result: Result<(), MatchError> = std::thread::scope(|scope| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (todo, next, stop) = (&todo, &next, &stop);
            scope.spawn(move || {
                let mut seats = [
                    Seat::new(config.engines[0].clone()),
                    Seat::new(config.engines[1].clone()),
                ];
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(&p) = todo.get(i as usize) else {
                        break;
                    };
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let halt = || stop.load(Ordering::SeqCst);
                    let reports = play_pair(config, &mut seats, p, &halt);
                    if tx.send((p, reports)).is_err() {
                        break;
                    }
                }
                for s in &mut seats {
                    s.close();
                }
            });
        }
        drop(tx);
        for (_, reports) in rx {
            if reports.iter().any(|r| r.game.ending == Ending::Unfinished) {
                continue;
            }
            if let Some(file) = pgn.as_mut() {
                for r in &reports {
                    let failed = |e: String| MatchError::Pgn {
                        path: config.pgn.clone().unwrap_or_default(),
                        what: e,
                    };
                    let text = pgn_text(config, r).map_err(failed)?;
                    file.write_all(text.as_bytes())
                        .and_then(|()| file.write_all(b"\n"))
                        .and_then(|()| file.flush())
                        .map_err(|e| failed(e.to_string()))?;
                }
            }
            summary.add(&reports, config.sprt.as_ref());
            for r in &reports {
                on_game(r, &summary);
            }
            if summary.verdict.is_some_and(|v| v != Verdict::Continue) {
                stop.store(true, Ordering::SeqCst);
            }
        }
        Ok(())
    });
    result?;
    Ok(summary)
}

/// The PGN text of a game ([`record`], written).
///
/// # Errors
/// The game cannot be written (a move is not legal: not from a match).
pub fn pgn_text(config: &MatchConfig, report: &GameReport) -> Result<String, String> {
    xq_records::pgn::write(
        &record(config, report),
        &xq_records::pgn::WriteOptions::default(),
    )
    .map_err(|e| e.to_string())
}

impl Summary {
    /// Counts a pair's games (or the last, odd game alone) as they ended: points,
    /// forfeits, endings, the pentanomial and the SPRT when one runs. What a match's
    /// driver does with each pair, here or across a cluster.
    pub fn add(&mut self, reports: &[GameReport], sprt: Option<&Sprt>) {
        let games: Vec<GameCount> = reports.iter().filter_map(GameCount::of).collect();
        self.add_counts(&games, sprt);
    }

    /// [`Summary::add`] from what each game counts for (a cluster's driver, which has
    /// the games' dicts rather than their reports).
    pub fn add_counts(&mut self, games: &[GameCount], sprt: Option<&Sprt>) {
        let mut pts = Vec::new();
        for g in games {
            pts.push(points(g.result, g.red));
            if let Some(loser) = g.forfeit {
                self.forfeits[loser.min(1)] += 1;
            }
            *self.endings.entry(g.ending.clone()).or_default() += 1;
        }
        count(self, &pts, sprt);
    }
}

/// What a finished game counts for in a [`Summary`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameCount {
    /// The engine that played Red (0 or 1).
    pub red: usize,
    /// The result.
    pub result: GameResult,
    /// How it ended, in the summary's words ([`Ending`]'s).
    pub ending: String,
    /// The engine that lost by forfeit, if one did.
    pub forfeit: Option<usize>,
}

impl GameCount {
    /// What a game counts for (`None` while it is unfinished).
    pub fn of(r: &GameReport) -> Option<GameCount> {
        let result = r.game.result?;
        let forfeit = match &r.game.ending {
            Ending::Forfeit { by, .. } => Some(if *by == Color::Red { r.red } else { 1 - r.red }),
            _ => None,
        };
        Some(GameCount {
            red: r.red,
            result,
            ending: r.game.ending.to_string(),
            forfeit,
        })
    }
}

/// Counts a pair's (or a single game's) points into the summary.
fn count(summary: &mut Summary, pts: &[Points], sprt: Option<&Sprt>) {
    for p in pts {
        summary.games += 1;
        match p {
            Points::Win => summary.wins += 1,
            Points::Draw => summary.draws += 1,
            Points::Loss => summary.losses += 1,
        }
    }
    // A game without its pair (the last of an odd number) counts in the games alone.
    if let [a, b] = pts {
        summary.pentanomial.add(*a, *b);
    }
    if let Some(s) = sprt {
        summary.llr = Some(s.llr(&summary.pentanomial));
        summary.verdict = Some(s.verdict(&summary.pentanomial));
    }
}
