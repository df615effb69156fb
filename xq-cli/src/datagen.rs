//! `xq datagen`: self-play games that give positions to tune the evaluation on.
//!
//! Each game starts from the start position with a few random legal plies, then both
//! sides search a fixed number of nodes per move until the rules end the game
//! (`xq_movegen::adjudicate`: mate, stalemate, perpetual check or chase, repetition, the
//! 60-move rule, insufficient material), a side keeps a winning score (the win
//! adjudication, below), or the ply cap is reached (a draw).
//!
//! Two formats. `--format text` (the default) writes every searched position with the
//! search's score and, once the game is over, the game's result, in the format of
//! `xq_eval::tune` (`FEN | score | result`, both from Red's point of view), except
//! positions in check, positions whose best move is a capture (tuning wants quiet
//! positions), positions scored as a mate, and the random opening plies.
//! `--format binary` writes whole games in the compact form of `xq_eval::selfplay`
//! (about four bytes a position): every move, with the search's score of the position
//! it was played in (`NO_SCORE` for the random plies and mate scores), and for a game won
//! by adjudication the move the search chose last; the reader (`xq train`) chooses the
//! positions.
//!
//! Game `g` draws its random plies from its own generator, seeded from `--seed` and `g`,
//! and searches with a fresh searcher: a game is the same whatever the thread that plays
//! it, and the output (in game order) is the same for any `--threads`.
//!
//! Win adjudication: when the score says the same side is winning by at least `--resign`
//! centipawns (or mates) after 8 plies in a row, that side wins. `--resign 0` turns it
//! off.

use crate::StdoutClosed;
use anyhow::{Context, Result};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Instant;
use xq_core::{Color, Position, SplitMix64};
use xq_eval::nnue::Network;
use xq_eval::selfplay::{GameRecord, Writer, NO_SCORE};
use xq_movegen::GameResult;
use xq_movegen::{legal_moves, Game};
use xq_search::{Limits, Score, Searcher};

/// How the games are written.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `FEN | score | result` lines of quiet positions, for `xq tune` (and `xq train`).
    Text,
    /// Whole games in xq's binary self-play format, for `xq train`.
    Binary,
}

/// Plies in a row the win adjudication waits for.
const RESIGN_PLIES: u32 = 8;

/// Play self-play games and write their positions for `xq tune`.
#[derive(clap::Args, Debug, Clone)]
pub struct DatagenArgs {
    /// Number of games.
    #[arg(long, value_name = "N")]
    games: u64,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000, value_name = "N")]
    nodes: u64,
    /// Random legal plies played at the start of each game.
    #[arg(long, default_value_t = 8, value_name = "K")]
    random_plies: usize,
    /// Seed of the random plies (the same seed gives the same games).
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_name = "T", value_parser = threads())]
    threads: usize,
    /// Output file (default: standard output).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// A game still going after this many plies is a draw.
    #[arg(long, default_value_t = 400, value_name = "PLIES")]
    max_plies: usize,
    /// Win adjudication threshold in centipawns (0: off).
    #[arg(long, default_value_t = 1500, value_name = "CP")]
    resign: i32,
    /// Transposition table size in MiB for each game (1 to 2048).
    #[arg(long, default_value_t = 16, value_name = "MB", value_parser = crate::hash_mib())]
    hash: usize,
    /// The output's form.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    #[command(flatten)]
    net: crate::NetArgs,
}

fn threads() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(1..=256)
}

/// The generator of game `game` for the run seeded with `seed`: every game its own
/// stream, the same for any thread count.
fn game_rng(seed: u64, game: u64) -> SplitMix64 {
    let base = SplitMix64::new(seed).next_u64();
    SplitMix64::new(base ^ game.wrapping_mul(0xd1b5_4a32_d192_ed03))
}

/// One finished game: its data (text lines or the binary record) and result.
#[derive(Debug)]
struct Played {
    data: Data,
    /// The positions written.
    positions: usize,
    result: GameResult,
}

#[derive(Debug)]
enum Data {
    Lines(Vec<String>),
    Bytes(Vec<u8>),
}

/// A score as the binary format keeps it.
fn packed(score: Score) -> i16 {
    match score {
        Score::Cp(cp) => cp.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16,
        Score::Mate(_) => NO_SCORE,
    }
}

/// Plays game `index`.
fn play(args: &DatagenArgs, net: &Option<Arc<Network>>, index: u64) -> Played {
    let mut rng = game_rng(args.seed, index);
    let mut game = Game::startpos();
    let mut plies: Vec<(xq_core::Move, i16)> = Vec::new();
    for _ in 0..args.random_plies {
        if game.outcome().is_some() {
            break;
        }
        let moves = legal_moves(game.position());
        let m = moves[rng.below(moves.len() as u64) as usize];
        game.play(m).expect("a legal move");
        plies.push((m, NO_SCORE));
    }
    let mut searcher = Searcher::new(args.hash);
    searcher.set_network(net.clone());
    let stop = AtomicBool::new(false);
    let limits = Limits::nodes(args.nodes);
    let mut kept: Vec<(Position, i32)> = Vec::new();
    let mut streak: (Option<Color>, u32) = (None, 0);
    let result = loop {
        if let Some(result) = game.outcome().map(|o| o.result) {
            break result;
        }
        if game.moves().len() >= args.max_plies {
            break GameResult::Draw;
        }
        let pos = game.position().clone();
        let side = pos.side_to_move();
        let r = searcher.search(&game, &limits, &stop, |_| {});
        // The referee has seen that the side to move has a legal move.
        let m = r.best_move.expect("a legal move to play");
        // Kept even when the game is adjudicated before it is played, as the text
        // form keeps its position.
        plies.push((m, packed(r.score)));
        let winner = match r.score {
            Score::Cp(cp) => {
                if !pos.is_check() && pos.is_empty(m.to()) {
                    kept.push((pos, cp * side.sign()));
                }
                (args.resign > 0 && cp.abs() >= args.resign)
                    .then(|| if cp > 0 { side } else { !side })
            }
            Score::Mate(n) => Some(if n > 0 { side } else { !side }),
        };
        streak = match winner {
            Some(w) if streak.0 == Some(w) => (Some(w), streak.1 + 1),
            Some(w) => (Some(w), 1),
            None => (None, 0),
        };
        if args.resign > 0 && streak.1 >= RESIGN_PLIES {
            if let Some(w) = streak.0 {
                break GameResult::loss_for(!w);
            }
        }
        game.play(m).expect("the search plays legal moves");
    };
    let red = match result {
        GameResult::RedWins => 1.0,
        GameResult::Draw => 0.5,
        GameResult::BlackWins => 0.0,
    };
    let (data, positions) = match args.format {
        Format::Text => (
            Data::Lines(
                kept.iter()
                    .map(|(pos, score)| xq_eval::tune::format_sample(pos, *score, red))
                    .collect(),
            ),
            kept.len(),
        ),
        Format::Binary => {
            let n = plies.len();
            let record = GameRecord {
                start: Position::startpos(),
                result,
                plies,
            };
            (Data::Bytes(Writer::game_bytes(&record)), n)
        }
    };
    Played {
        data,
        positions,
        result,
    }
}

/// Where the data lines go.
enum Out {
    Stdout(std::io::Stdout),
    File(BufWriter<File>, PathBuf),
}

impl Out {
    fn line(&mut self, text: &str) -> Result<()> {
        match self {
            Out::Stdout(s) => writeln!(s.lock(), "{text}").map_err(|_| StdoutClosed.into()),
            Out::File(w, path) => {
                writeln!(w, "{text}").with_context(|| format!("cannot write {}", path.display()))
            }
        }
    }

    fn bytes(&mut self, bytes: &[u8]) -> Result<()> {
        match self {
            Out::Stdout(s) => s.lock().write_all(bytes).map_err(|_| StdoutClosed.into()),
            Out::File(w, path) => w
                .write_all(bytes)
                .with_context(|| format!("cannot write {}", path.display())),
        }
    }

    fn data(&mut self, data: &Data) -> Result<()> {
        match data {
            Data::Lines(lines) => lines.iter().try_for_each(|l| self.line(l)),
            Data::Bytes(bytes) => self.bytes(bytes),
        }
    }

    fn finish(&mut self) -> Result<()> {
        match self {
            Out::Stdout(s) => s.flush().map_err(|_| StdoutClosed.into()),
            Out::File(w, path) => w
                .flush()
                .with_context(|| format!("cannot write {}", path.display())),
        }
    }
}

/// Runs the games; returns the exit code.
pub fn run(args: &DatagenArgs) -> Result<i32> {
    // Each game makes its own table: say now if the system will not give one.
    drop(xq_search::tt::TranspositionTable::try_new(args.hash)?);
    let start = Instant::now();
    let net = args.net.network()?;
    if args.format == Format::Binary && args.output.is_none() && std::io::stdout().is_terminal() {
        anyhow::bail!("binary data is not for a terminal: give a file with -o FILE");
    }
    let mut out = match &args.output {
        Some(path) => Out::File(
            BufWriter::new(
                File::create(path).with_context(|| format!("cannot create {}", path.display()))?,
            ),
            path.clone(),
        ),
        None => Out::Stdout(std::io::stdout()),
    };
    if args.format == Format::Binary {
        out.bytes(&Writer::header())?;
    }
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(args.games);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} games, {msg} positions {elapsed} (eta {eta})",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let next = AtomicU64::new(0);
    let (tx, rx) = mpsc::channel::<(u64, Played)>();
    let (mut positions, mut results) = (0usize, [0u64; 3]);
    std::thread::scope(|s| -> Result<()> {
        for _ in 0..args.threads.min(args.games.max(1) as usize) {
            let tx = tx.clone();
            let (next, net) = (&next, &net);
            s.spawn(move || loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= args.games || tx.send((g, play(args, net, g))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        // Games finish in any order; lines are written in game order.
        let mut waiting = BTreeMap::new();
        let mut written = 0u64;
        for (g, played) in rx {
            waiting.insert(g, played);
            while let Some(played) = waiting.remove(&written) {
                if let Err(e) = out.data(&played.data) {
                    // Let the other threads stop at their next game.
                    next.store(args.games, Ordering::Relaxed);
                    return Err(e);
                }
                positions += played.positions;
                results[match played.result {
                    GameResult::RedWins => 0,
                    GameResult::Draw => 1,
                    GameResult::BlackWins => 2,
                }] += 1;
                written += 1;
                if let Some(bar) = &bar {
                    bar.inc(1);
                    bar.set_message(positions.to_string());
                }
            }
        }
        Ok(())
    })?;
    out.finish()?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let summary = format!(
        "{} games, {positions} positions; Red won {}, drew {}, lost {}; {:.1} s",
        args.games,
        results[0],
        results[1],
        results[2],
        start.elapsed().as_secs_f64()
    );
    if args.output.is_some() {
        outln!("{summary}")?;
    } else {
        eprintln!("{summary}");
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_get_their_own_streams() {
        let (mut a, mut b) = (game_rng(1, 0), game_rng(1, 1));
        assert_ne!(a.next_u64(), b.next_u64());
        assert_eq!(game_rng(1, 1).next_u64(), game_rng(1, 1).next_u64());
        assert!((0..1000).all(|_| a.below(7) < 7));
    }
}
