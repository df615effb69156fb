//! `xq`: the command-line face of the xq Xiangqi engine.

/// Prints a line to standard output; `Err(StdoutClosed)` when nobody reads it any more.
/// (Defined before the modules, so they can use it by name.)
macro_rules! outln {
    ($($arg:tt)*) => {
        xq_protocol::write_line(&mut std::io::stdout().lock(), format_args!($($arg)*))
            .map_err(|_| crate::StdoutClosed)
    };
}

mod adjudicate;
mod analyze;
mod annotate;
mod bench;
mod board;
mod book;
mod convert;
mod datagen;
mod eval;
mod matches;
mod perft;
mod tb;
mod train;
mod tune;
mod tune_wdl;

/// The analysis board's files, embedded by build.rs from web/dist.
mod web_assets {
    include!(concat!(env!("OUT_DIR"), "/web_assets.rs"));
}

use xq_protocol::{Auto, Protocol, Sink, Ucci, Uci, XBoard};
use xq_search::engine::MAX_HASH_MIB;
use xq_search::Engine;

use anyhow::Result;
use clap::{Parser, Subcommand};
use xq_movegen::Game;

/// xq, a Xiangqi (Chinese chess) engine.
///
/// With no command, xq starts as an engine speaking UCI, UCCI or XBoard (chosen by the
/// first command a GUI sends).
#[derive(Parser, Debug)]
#[command(name = "xq", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// A position given on the command line: a FEN and moves played from it.
#[derive(clap::Args, Debug, Clone)]
pub struct PositionArgs {
    /// The position, as FEN (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves played from the position, in ICCS (h2e2), WXF (C2=5) or Chinese (炮二平五).
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
}

impl PositionArgs {
    /// The game these arguments describe, or an error naming what is wrong: only a
    /// position a game can reach (the referee's and the game files' rule).
    pub fn game(&self) -> Result<Game> {
        self.game_with(xq_core::Ignore::NOTHING)
    }

    /// The game these arguments describe, letting through the position errors `ignore`
    /// names (`Ignore::PLAYABLE` for analysis: a composed position no game reaches but
    /// that can be played).
    pub fn game_with(&self, ignore: xq_core::Ignore) -> Result<Game> {
        let fen = self.fen.as_deref().unwrap_or(xq_core::START_FEN);
        // Allow `--moves "h2e2 h9g7"` as well as `--moves h2e2 h9g7`.
        let moves: Vec<&str> = self
            .moves
            .iter()
            .flat_map(|m| m.split_whitespace())
            .collect();
        Game::from_fen_moves_with(fen, &moves, ignore).map_err(anyhow::Error::from)
    }
}

/// Which evaluation a command searches with: the built-in network (when this build has
/// one), a network file, or the classical evaluation.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct NetArgs {
    /// Evaluate with this network file (written by `xq train`) instead of the built-in one.
    #[arg(long, value_name = "FILE", conflicts_with = "classical")]
    pub eval_file: Option<std::path::PathBuf>,
    /// Evaluate with the classical (hand-written) evaluation instead of a network.
    #[arg(long)]
    pub classical: bool,
}

impl NetArgs {
    /// The network these arguments choose (`None`: the classical evaluation), or an
    /// error naming the file and what is wrong with it.
    pub fn network(&self) -> Result<Option<std::sync::Arc<xq_eval::nnue::Network>>> {
        if self.classical {
            return Ok(None);
        }
        let Some(path) = &self.eval_file else {
            return Ok(xq_eval::nnue::default_network());
        };
        let path = path.to_string_lossy();
        Ok(Some(xq_search::engine::read_network(
            &xq_search::engine::Disk,
            &path,
        )?))
    }
}

/// The parser of a `--hash` size in MiB: within what the engine's `Hash` option allows.
fn hash_mib() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(1..=MAX_HASH_MIB as u64)
}

/// The parser of a search depth within `depths` (`--depth`: 1 to
/// [`xq_search::MAX_DEPTH`], the depths a search completes; `xq bench`'s depth:
/// [`xq_search::bench::DEPTHS`]).
fn depth_within(depths: std::ops::RangeInclusive<u32>) -> clap::builder::RangedU64ValueParser<u32> {
    clap::builder::RangedU64ValueParser::new()
        .range(u64::from(*depths.start())..=u64::from(*depths.end()))
}

/// The parser of a count of nodes or milliseconds to search (`--nodes`, `--movetime`):
/// 1 or more, since 0 would ask for no search.
fn positive(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(0) => Err("0 searches nothing: give 1 or more".to_owned()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

/// Where `xq serve` listens.
#[derive(clap::Args, Debug)]
struct ServeArgs {
    /// The port on 127.0.0.1 (0: any free port, printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// A directory of endgame tables (`xq tb gen`) the board fetches for its ending.
    #[arg(long, value_name = "DIR")]
    tablebases: Option<std::path::PathBuf>,
}

/// `xq serve`: the analysis board on the local machine; exit code 2 when the binary
/// was built without it.
fn serve(args: &ServeArgs) -> Result<i32> {
    if web_assets::ASSETS.is_empty() {
        eprintln!(
            "xq serve: this xq was built without the analysis board. Build it with \
             `web/build.sh`, then build xq again (`cargo build --release -p xq-cli`)."
        );
        return Ok(2);
    }
    let tables = args.tablebases.as_deref();
    if let Some(dir) = tables.filter(|d| !d.is_dir()) {
        anyhow::bail!("--tablebases {}: not a directory", dir.display());
    }
    let listener = std::net::TcpListener::bind(("127.0.0.1", args.port))
        .map_err(|e| anyhow::anyhow!("cannot listen on 127.0.0.1:{}: {e}", args.port))?;
    let addr = listener.local_addr()?;
    outln!("xq: the analysis board is at http://{addr}/ (Ctrl-C to stop)")?;
    xq_cli::serve::serve(listener, web_assets::ASSETS, tables.map(Into::into))?;
    Ok(0)
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Analyse a position: best move, score and principal variation, depth by depth.
    Analyze(analyze::AnalyzeArgs),
    /// Count the leaf nodes of the legal move tree (move generation check and speed).
    Perft(perft::PerftArgs),
    /// Search a fixed set of positions to a fixed depth: node count and speed.
    Bench(bench::BenchArgs),
    /// Show the static evaluation of a position and its parts.
    Eval(eval::EvalArgs),
    /// Convert a game file (PGN in UTF-8 or GBK, or XQF) to PGN in the notation asked for.
    Convert(convert::ConvertArgs),
    /// The referee: the result of a game by the rules (mate, perpetual check and chase, repetition, 60 moves).
    Adjudicate(adjudicate::AdjudicateArgs),
    /// Play self-play games and write their quiet positions, scores and results for `xq tune`.
    Datagen(datagen::DatagenArgs),
    /// Fit the evaluation's weights to `xq datagen` data; `--write` rewrites xq-eval/src/params.rs.
    Tune(tune::TuneArgs),
    /// Train a neural network (NNUE) on `xq datagen` data and write it.
    Train(train::TrainArgs),
    /// Fit the win/draw/loss model to `xq datagen` data; `--write` writes xq-search/data/wdl-model.txt.
    TuneWdl(tune_wdl::TuneWdlArgs),
    /// Analyse every move of a game file; write it back with scores, best lines and
    /// inaccuracies, mistakes and blunders marked.
    Annotate(annotate::AnnotateArgs),
    /// Build an opening book from game files, or list a position's book moves.
    Book(book::BookArgs),
    /// Endgame tablebases: generate, probe and verify them.
    Tb(tb::TbArgs),
    /// Play a match between two engines under xq's referee (cutechess-cli's options).
    Match(matches::MatchArgs),
    /// Serve the analysis board (built by web/build.sh, embedded at build time) on
    /// http://127.0.0.1:PORT/.
    Serve(ServeArgs),
    /// Run as a UCI engine (standard input and output).
    Uci,
    /// Run as a UCCI engine (standard input and output).
    Ucci,
    /// Run as an XBoard (CECP) engine for Xiangqi (standard input and output).
    Xboard,
}

fn main() {
    xq_search::tt::map_large_allocations();
    let cli = Cli::parse();
    let result = match cli.command {
        None => Ok(run_protocol(Auto::new(stdout(), Engine::default()))),
        Some(Command::Uci) => Ok(run_protocol(Uci::new(stdout(), Engine::default()))),
        Some(Command::Ucci) => Ok(run_protocol(Ucci::new(stdout(), Engine::default()))),
        Some(Command::Xboard) => Ok(run_protocol(XBoard::new(stdout(), Engine::default()))),
        Some(Command::Analyze(a)) => analyze::run(&a),
        Some(Command::Perft(a)) => perft::run(&a),
        Some(Command::Bench(a)) => bench::run(&a),
        Some(Command::Eval(a)) => eval::run(&a),
        Some(Command::Convert(a)) => convert::run(&a),
        Some(Command::Adjudicate(a)) => adjudicate::run(&a),
        Some(Command::Datagen(a)) => datagen::run(&a),
        Some(Command::Tune(a)) => tune::run(&a),
        Some(Command::Train(a)) => train::run(&a),
        Some(Command::TuneWdl(a)) => tune_wdl::run(&a),
        Some(Command::Annotate(a)) => annotate::run(&a),
        Some(Command::Serve(a)) => serve(&a),
        Some(Command::Book(a)) => book::run(&a),
        Some(Command::Tb(a)) => tb::run(&a),
        Some(Command::Match(a)) => matches::run_match(&a),
    };
    match result {
        Ok(code) => std::process::exit(code),
        // The reader has gone away (a closed pipe, as with `xq analyze | head`): there
        // is nobody to tell anything, and nothing went wrong.
        Err(e) if e.is::<StdoutClosed>() => std::process::exit(0),
        Err(e) => {
            eprintln!("xq: {e:#}");
            std::process::exit(2);
        }
    }
}

/// Standard output is closed: whoever read it has gone away. Not a failure: `main` exits
/// quietly with code 0.
#[derive(Debug)]
struct StdoutClosed;

impl std::fmt::Display for StdoutClosed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("standard output is closed")
    }
}

impl std::error::Error for StdoutClosed {}

/// The endgame tables of a `--tablebases DIR` option, if given.
fn open_tablebases(
    dir: Option<&std::path::Path>,
) -> Result<Option<std::sync::Arc<xq_tablebase::Tablebases>>> {
    let open = |d: &std::path::Path| xq_search::engine::open_tablebases(&d.to_string_lossy());
    Ok(dir.map(open).transpose()?)
}

/// A progress bar on standard error when it is a terminal (else a hidden one), styled by
/// `template`.
fn progress_bar(len: u64, template: &str) -> indicatif::ProgressBar {
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template(template)
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// Standard output as a protocol's sink.
fn stdout() -> Sink {
    Sink::writer(std::io::stdout())
}

/// Runs an engine protocol on standard input and output. It ends at `quit`, at the end
/// of the input (after a search with limits of its own has answered), or when standard
/// output is closed.
fn run_protocol(mut proto: impl Protocol) -> i32 {
    xq_protocol::run(&mut proto, &mut std::io::stdin().lock());
    0
}
