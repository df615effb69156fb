//! The XBoard / WinBoard protocol (the Chess Engine Communication Protocol, version 2),
//! for Xiangqi.
//!
//! Unlike UCI, the engine keeps the game: the GUI sends the moves one at a time
//! (`usermove h2e2`), says which side the engine plays (`new`: Black; `go`: the side to
//! move; `force`: neither), and the engine answers with its own moves (`move h9g7`) when
//! it is on move. The commands handled: `xboard`, `protover` (answered with the
//! features), `new`, `variant xiangqi`, `setboard`, `usermove` (and bare moves),
//! `go`, `force`, `level`, `st`, `sd`, `time`, `otim`, `?` (move now), `ping`,
//! `result`, `undo`, `remove`, `post`/`nopost`, `analyze`/`exit`, `memory` (MB of hash),
//! `cores` (threads), `option` (`Skill Level`), `quit`; harmless ones (`random`, `hard`,
//! `easy`, `computer`, `name`, `rating`, `ics`, `draw`, `hint`, `bk`, `.`, `accepted`,
//! `rejected`) are accepted and ignored. Anything else is answered
//! `Error (unknown command): ...`; a move that is not legal `Illegal move: ...`.
//!
//! **Squares.** XBoard writes Xiangqi moves in its coordinate notation, files `a`-`i`
//! from Red's left, and "on boards with exactly 10 ranks, counting of the ranks starts
//! at 0" (XBoard's engine-interface document, the `MOVE` command): rank `0` is Red's back
//! rank, so XBoard's `h2e2` is ICCS's `h2e2`, the central cannon. [`from_xboard`] and
//! [`to_xboard`] are the two directions of that (identity) mapping, kept as functions
//! so that the protocol's convention is written down in one place. FENs (`setboard`)
//! use XBoard's Xiangqi letters `R H E A K C P` (`N` and `B` accepted), `w` for Red.
//!
//! **Thinking output** (after `post`, and always while analysing): `ply score time nodes
//! pv`, the score in centipawns from the engine's side (mate in N moves as 100000 + N,
//! mated in N as -100000 - N), the time in centiseconds, the line in XBoard's
//! coordinates.
//!
//! **Time.** `level MPS BASE INC` (BASE in minutes or `MIN:SEC`), `st SECONDS` (a fixed
//! time per move, which wins over `level`), `time`/`otim` in centiseconds (the engine's
//! and the opponent's clocks), `sd DEPTH` (a depth cap with either). With none of them
//! the engine thinks [`DEFAULT_MOVE_TIME`] per move.
//!
//! **Results.** When a move (the engine's or, while the engine plays, its opponent's)
//! ends the game by the rules (mate, stalemate, perpetual check or chase, repetition,
//! the 60-move rule, insufficient material), the engine says so as CECP asks:
//! `1-0 {checkmate}`, `1/2-1/2 {repetition}`.
//!
//! ```
//! use xq_protocol::{Protocol, Sink, XBoard};
//! use xq_search::Engine;
//! let (sink, lines) = Sink::buffer();
//! let mut engine = XBoard::new(sink, Engine::default());
//! for line in ["xboard", "protover 2", "new", "variant xiangqi", "force", "usermove h2e2", "ping 1"] {
//!     engine.handle(line);
//! }
//! let lines = lines.lock().unwrap();
//! assert!(lines[0].starts_with("feature myname=\"xq "));
//! assert_eq!(lines.last().unwrap(), "pong 1");
//! ```

use crate::error::CommandError;
use crate::io::{printable, Flow, Protocol, Sink};
use crate::session::NAME;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use xq_core::{Color, Move, ParseMoveError};
use xq_movegen::Game;
use xq_search::engine::{Listener, SearchEngine};
use xq_search::skill::{Skill, MAX_LEVEL};
use xq_search::{Clock, Info, Limits, Score, SearchResult};

/// The time per move when the GUI has given no time control at all.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(5);

/// The thinking-output value of a mate score: CECP's 100000 + N for mate in N moves.
const XBOARD_MATE: i32 = 100_000;

/// A move as XBoard writes it, read: XBoard's Xiangqi squares are ICCS squares (ranks
/// counted from 0 on a ten-rank board), so this is ICCS parsing.
///
/// # Errors
/// The [`ParseMoveError`] of a text that is not a move.
///
/// ```
/// use xq_protocol::xboard::{from_xboard, to_xboard};
/// let m = from_xboard("h2e2").unwrap();
/// assert_eq!(m.to_string(), "h2e2"); // ICCS: the central cannon
/// assert_eq!(to_xboard(m), "h2e2");
/// assert_eq!(to_xboard(from_xboard("a9a0").unwrap()), "a9a0");
/// assert!(from_xboard("e10e9").is_err()); // ranks 1-10 are not XBoard's Xiangqi ranks
/// ```
pub fn from_xboard(text: &str) -> Result<Move, ParseMoveError> {
    text.parse()
}

/// A move as XBoard writes it: ICCS coordinates, ranks 0-9 from Red's side.
pub fn to_xboard(m: Move) -> String {
    m.to_string()
}

/// A score as CECP's thinking output writes it: centipawns, or 100000 + N for mate in N
/// moves and -100000 - N for mated in N.
///
/// ```
/// use xq_protocol::xboard::xboard_score;
/// use xq_search::Score;
/// assert_eq!(xboard_score(Score::Cp(-35)), -35);
/// assert_eq!(xboard_score(Score::Mate(3)), 100_003);
/// assert_eq!(xboard_score(Score::Mate(-2)), -100_002);
/// assert_eq!(xboard_score(Score::Mate(0)), -100_000);
/// ```
pub fn xboard_score(score: Score) -> i32 {
    match score {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => XBOARD_MATE + n,
        Score::Mate(n) => -XBOARD_MATE + n,
    }
}

/// The line that announces the end of a game, `RESULT {reason}`, or `None` while it goes
/// on.
fn result_line(game: &Game) -> Option<String> {
    game.outcome()
        .map(|o| format!("{} {{{}}}", o.result, o.termination))
}

/// A refused parameter: CECP's `bad <what>`.
fn bad(what: &str, value: &str) -> CommandError {
    CommandError::BadValue {
        name: what.to_string(),
        value: value.to_string(),
    }
}

/// The short kind CECP's `Error (<kind>): <command>` names.
fn cecp_kind(e: &CommandError) -> String {
    match e {
        CommandError::UnknownOption(_) => "unknown option".into(),
        CommandError::BadValue { name, .. } => format!("bad {name}"),
        CommandError::Usage(_) => "bad parameters".into(),
        CommandError::UnsupportedVariant(_) => "unsupported variant".into(),
        CommandError::NotLegalNow => "command not legal now".into(),
        CommandError::UnknownCommand => "unknown command".into(),
        other => other.to_string(),
    }
}

/// What the handler and the search thread share.
#[derive(Debug, Default)]
struct Shared {
    /// Thinking output on (`post`).
    post: AtomicBool,
    /// Analyse mode: report the search, never move.
    analyzing: AtomicBool,
    /// The move the engine has just played and the handler has not yet put on its board.
    moved: Mutex<Option<Move>>,
}

impl Shared {
    fn moved(&self) -> std::sync::MutexGuard<'_, Option<Move>> {
        // A poisoned lock only means a panicking thread; the slot is still usable.
        self.moved.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// XBoard output: thinking lines, the engine's moves and the results they bring.
#[derive(Debug)]
struct XBoardOutput {
    sink: Sink,
    shared: Arc<Shared>,
}

impl Listener for XBoardOutput {
    fn info(&self, info: &Info) {
        let analyzing = self.shared.analyzing.load(Ordering::SeqCst);
        if info.multipv != 1 || !(analyzing || self.shared.post.load(Ordering::SeqCst)) {
            return;
        }
        let pv: Vec<String> = info.pv.iter().map(|&m| to_xboard(m)).collect();
        say!(
            self.sink,
            "{} {} {} {} {}",
            info.depth,
            xboard_score(info.score),
            info.time.as_millis() / 10,
            info.nodes,
            pv.join(" ")
        );
    }

    fn best_move(&self, result: &SearchResult, game: &Game) {
        if self.shared.analyzing.load(Ordering::SeqCst) {
            return;
        }
        let Some(m) = result.best_move else {
            return;
        };
        // On the handler's board before the GUI can answer the move.
        *self.shared.moved() = Some(m);
        say!(self.sink, "move {}", to_xboard(m));
        let mut after = game.clone();
        if after.play(m).is_ok() {
            if let Some(line) = result_line(&after) {
                say!(self.sink, "{line}");
            }
        }
    }

    fn is_closed(&self) -> bool {
        self.sink.is_closed()
    }
}

/// The time control set by `level` or `st`.
#[derive(Clone, Copy, Debug, PartialEq)]
enum TimeControl {
    /// None given.
    None,
    /// `level MPS BASE INC`: `moves` per period (0: the whole game), `base` for a
    /// period, `inc` added after each move.
    Level {
        moves: u32,
        base: Duration,
        inc: Duration,
    },
    /// `st`: this much time for every move.
    PerMove(Duration),
}

/// The XBoard command handler, over any engine (see [`Uci`](crate::Uci)).
#[derive(Debug)]
pub struct XBoard<E> {
    engine: E,
    sink: Sink,
    output: Arc<XBoardOutput>,
    shared: Arc<Shared>,
    /// The game as the GUI sees it.
    game: Game,
    /// The side the engine plays; `None` in force mode.
    engine_side: Option<Color>,
    /// `setboard` gave a position that cannot be played: moves are refused until `new`
    /// or a good `setboard`.
    bad_position: bool,
    control: TimeControl,
    /// The engine's clock (`time`).
    engine_time: Option<Duration>,
    /// The depth cap (`sd`).
    depth: Option<u32>,
}

/// Parses a time of `level`: minutes, or `MIN:SEC`; characters after the number are
/// ignored, as CECP asks (a future `25+5`).
fn level_base(text: &str) -> Option<Duration> {
    let (min, sec) = match text.split_once(':') {
        Some((m, s)) => (m, Some(s)),
        None => (text, None),
    };
    let leading = |t: &str| -> Option<u64> {
        let digits: String = t.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()
    };
    let minutes = leading(min)?;
    let seconds = match sec {
        Some(s) => leading(s)?,
        None => 0,
    };
    Some(Duration::from_secs(
        minutes.checked_mul(60)?.checked_add(seconds)?,
    ))
}

/// Seconds as a decimal number, not negative.
fn seconds(text: &str) -> Option<Duration> {
    let v: f64 = text.parse().ok()?;
    (v.is_finite() && v >= 0.0).then(|| Duration::from_secs_f64(v.min(1e9)))
}

impl<E: SearchEngine> XBoard<E> {
    /// A session writing to `sink`, with `engine`.
    pub fn new(sink: Sink, engine: E) -> XBoard<E> {
        let shared = Arc::new(Shared::default());
        let output = Arc::new(XBoardOutput {
            sink: sink.clone(),
            shared: shared.clone(),
        });
        XBoard {
            engine,
            sink,
            output,
            shared,
            game: Game::startpos(),
            engine_side: Some(Color::Black),
            bad_position: false,
            control: TimeControl::None,
            engine_time: None,
            depth: None,
        }
    }

    fn analyzing(&self) -> bool {
        self.shared.analyzing.load(Ordering::SeqCst)
    }

    /// Puts the move the engine has played (if any) on the board, and lets its search
    /// finish (it has answered: only its thread's last steps remain).
    fn absorb(&mut self) {
        let moved = self.shared.moved().take();
        if let Some(m) = moved {
            // The search played it from this very position.
            let _ = self.game.play(m);
            self.engine.wait();
        }
    }

    /// Is the engine thinking about its own move?
    fn thinking(&mut self) -> bool {
        !self.analyzing() && self.engine.is_searching()
    }

    /// Stops any search without an answer.
    fn halt(&mut self) {
        self.engine.abandon();
        self.absorb();
    }

    fn features(&self) {
        say!(
            self.sink,
            "feature myname=\"{NAME}\" variants=\"xiangqi\" setboard=1 usermove=1 ping=1 \
             analyze=1 memory=1 smp=1 egt=\"xiangqi\" colors=0 sigint=0 sigterm=0 draw=0 reuse=1"
        );
        say!(
            self.sink,
            "feature option=\"Skill Level -spin {MAX_LEVEL} 0 {MAX_LEVEL}\""
        );
        say!(self.sink, "feature done=1");
    }

    /// Starts thinking about the engine's move, unless the game is over (then says so).
    fn think(&mut self) {
        if self.bad_position {
            return;
        }
        if let Some(line) = result_line(&self.game) {
            say!(self.sink, "{line}");
            return;
        }
        let mut limits = Limits {
            depth: self.depth,
            ..Limits::default()
        };
        match self.control {
            TimeControl::PerMove(t) => limits.movetime = Some(t),
            TimeControl::Level { moves, base, inc } => {
                let made = (self.game.moves().len() / 2) as u32;
                limits.clock = Some(Clock {
                    time: self.engine_time.unwrap_or(base),
                    inc,
                    movestogo: (moves > 0).then(|| moves - made % moves),
                });
            }
            TimeControl::None => match self.engine_time {
                Some(time) => {
                    limits.clock = Some(Clock {
                        time,
                        ..Clock::default()
                    })
                }
                None => limits.movetime = Some(DEFAULT_MOVE_TIME),
            },
        }
        self.engine.set_game(self.game.clone());
        self.engine.go(limits, Box::new(self.output.clone()));
    }

    /// (Re)starts the analysis of the current position.
    fn analyze(&mut self) {
        self.engine.abandon();
        if self.bad_position {
            return;
        }
        self.engine.set_game(self.game.clone());
        self.engine
            .go(Limits::infinite(), Box::new(self.output.clone()));
    }

    fn usermove(&mut self, text: &str) -> Result<(), CommandError> {
        let shown = printable(text);
        if self.thinking() {
            say!(self.sink, "Illegal move (not your turn): {shown}");
            return Ok(());
        }
        if self.bad_position {
            say!(self.sink, "Illegal move (illegal position): {shown}");
            return Ok(());
        }
        let m = match from_xboard(text) {
            Ok(m) if xq_movegen::is_legal(self.game.position(), m) => m,
            _ => {
                say!(self.sink, "Illegal move: {shown}");
                return Ok(());
            }
        };
        self.engine.abandon();
        // Legal, so this cannot fail.
        let _ = self.game.play(m);
        if self.analyzing() {
            self.analyze();
        } else if self.engine_side == Some(self.game.position().side_to_move()) {
            self.think();
        } else if self.engine_side.is_some() {
            if let Some(line) = result_line(&self.game) {
                say!(self.sink, "{line}");
            }
        }
        Ok(())
    }

    /// Takes back `plies` plies.
    fn take_back(&mut self, plies: usize) -> Result<(), CommandError> {
        self.halt();
        let n = self.game.moves().len();
        if plies > n {
            return Err(CommandError::NotLegalNow);
        }
        let mut game = Game::new(self.game.start().clone());
        for &m in &self.game.moves()[..n - plies] {
            // Replaying moves already played.
            let _ = game.play(m);
        }
        self.game = game;
        if self.analyzing() {
            self.analyze();
        }
        Ok(())
    }

    fn setboard(&mut self, fen: &str) {
        self.halt();
        match Game::from_fen_moves_with(fen, &[] as &[&str], xq_core::Ignore::PLAYABLE) {
            Ok(game) => {
                for unusual in game.start().irregularities() {
                    say!(
                        self.sink,
                        "telluser unusual position: {unusual}; played as given"
                    );
                }
                self.game = game;
                self.bad_position = false;
            }
            Err(e) => {
                self.bad_position = true;
                say!(
                    self.sink,
                    "tellusererror Illegal position: {}",
                    printable(&e.to_string())
                );
            }
        }
        if self.analyzing() {
            self.analyze();
        }
    }

    fn level(&mut self, args: &[&str]) -> Result<(), CommandError> {
        const USAGE: CommandError = CommandError::Usage("level MPS BASE INC");
        let [moves, base, inc] = args else {
            return Err(USAGE);
        };
        let moves: u32 = moves.parse().map_err(|_| USAGE)?;
        let base = level_base(base).ok_or(USAGE)?;
        let inc = seconds(inc).ok_or(USAGE)?;
        self.control = TimeControl::Level { moves, base, inc };
        Ok(())
    }

    /// `option NAME=VALUE`.
    fn option(&mut self, text: &str) -> Result<(), CommandError> {
        let (name, value) = text.split_once('=').unwrap_or((text, ""));
        match name.trim() {
            "Skill Level" => {
                let level: u8 = value
                    .trim()
                    .parse()
                    .ok()
                    .filter(|&l| l <= MAX_LEVEL)
                    .ok_or_else(|| bad("option value", value.trim()))?;
                self.engine.set_skill(Skill::new(level));
                Ok(())
            }
            _ => Err(CommandError::UnknownOption(name.trim().to_string())),
        }
    }

    fn dispatch(&mut self, cmd: &str, args: &[&str], rest: &str) -> Result<(), CommandError> {
        let number = |what: &str| -> Result<u64, CommandError> {
            match args {
                [n] => n.parse().map_err(|_| bad(what, n)),
                _ => Err(bad(what, &args.join(" "))),
            }
        };
        match cmd {
            "xboard" | "accepted" | "rejected" | "random" | "hard" | "easy" | "computer"
            | "name" | "rating" | "ics" | "draw" | "hint" | "bk" | "." | "otim" => {}
            "protover" => self.features(),
            "new" => {
                self.halt();
                self.game = Game::startpos();
                self.bad_position = false;
                self.engine_side = Some(Color::Black);
                self.depth = None;
                self.engine_time = None;
                self.engine.new_game();
                if self.analyzing() {
                    self.analyze();
                }
            }
            "variant" => {
                if args != ["xiangqi"] {
                    return Err(CommandError::UnsupportedVariant(args.join(" ")));
                }
            }
            "force" => {
                self.halt();
                self.engine_side = None;
            }
            "go" => {
                self.halt();
                self.engine_side = Some(self.game.position().side_to_move());
                self.think();
            }
            "result" => {
                self.halt();
                self.engine_side = None;
            }
            "?" => {
                if self.thinking() {
                    self.engine.stop();
                    self.absorb();
                }
            }
            "ping" => {
                if self.thinking() {
                    // Answer after the move, as CECP asks.
                    self.engine.wait();
                    self.absorb();
                }
                say!(self.sink, "pong {}", printable(rest));
            }
            "usermove" => match args {
                [m] => self.usermove(m)?,
                _ => return Err(bad("move", &args.join(" "))),
            },
            "undo" => self.take_back(1)?,
            "remove" => self.take_back(2)?,
            "setboard" => self.setboard(rest),
            "level" => self.level(args)?,
            "st" => match args {
                [t] => {
                    self.control = TimeControl::PerMove(seconds(t).ok_or_else(|| bad("time", t))?)
                }
                _ => return Err(bad("time", &args.join(" "))),
            },
            "sd" => self.depth = Some(number("depth")?.clamp(1, 100) as u32),
            "time" => match args {
                [t] => {
                    let cs: i64 = t.parse().map_err(|_| bad("time", t))?;
                    self.engine_time = Some(Duration::from_millis(cs.max(0) as u64 * 10));
                }
                _ => return Err(bad("time", &args.join(" "))),
            },
            "post" => self.shared.post.store(true, Ordering::SeqCst),
            "nopost" => self.shared.post.store(false, Ordering::SeqCst),
            "analyze" => {
                self.halt();
                self.engine_side = None;
                self.shared.analyzing.store(true, Ordering::SeqCst);
                self.analyze();
            }
            "exit" => {
                if self.analyzing() {
                    self.halt();
                    self.shared.analyzing.store(false, Ordering::SeqCst);
                }
            }
            // CECP's `egtpath TYPE PATH`: the endgame tables of `xq tb gen`.
            "egtpath" => match args {
                ["xiangqi", ..] => {
                    let path = rest["xiangqi".len()..].trim();
                    self.engine.load_tablebases(path)?;
                }
                _ => return Err(bad("tablebase type", &args.join(" "))),
            },
            "memory" => {
                let mb = number("memory")?.max(1) as usize;
                self.engine.set_hash(mb)?;
            }
            "cores" => {
                let n = number("cores")?.max(1) as usize;
                self.engine.set_threads(n);
            }
            "option" => self.option(rest)?,
            _ if args.is_empty() && from_xboard(cmd).is_ok() => self.usermove(cmd)?,
            _ => return Err(CommandError::UnknownCommand),
        }
        Ok(())
    }
}

impl<E: SearchEngine> Protocol for XBoard<E> {
    fn handle(&mut self, line: &str) -> Flow {
        self.absorb();
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = words.split_first() else {
            return Flow::Continue;
        };
        if cmd == "quit" {
            self.engine.abandon();
            return Flow::Quit;
        }
        let rest = line.trim_start()[cmd.len()..].trim();
        if let Err(e) = self.dispatch(cmd, args, rest) {
            say!(self.sink, "Error ({}): {}", cecp_kind(&e), printable(line));
        }
        self.sink.flow()
    }

    fn eof(&mut self) {
        self.engine.wait();
        self.absorb();
    }
}
