//! One game between two engines under xq's referee: the opening's moves, then each
//! engine's moves under its own limits, every move checked, the game ruled after every
//! move by the whole rules (`xq_movegen::Game::outcome`), and adjudicated by tablebases or
//! by the engines' scores when the match asks for it.

use crate::engine::{EngineConfig, EngineProcess, Fault, Reply, Turn};
use crate::tc::Clock;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;
use xq_core::{Color, Move, Position};
use xq_movegen::{Game, GameResult, Termination};
use xq_search::Score;
use xq_tablebase::{TableValue, Tablebases};

/// An opening: a start position and moves played from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The start position.
    pub start: Position,
    /// The opening's moves (legal from `start`).
    pub moves: Vec<Move>,
}

impl Opening {
    /// The opening as a game: its start, then its moves up to the first that is not
    /// legal (none is in openings read by [`crate::openings`]).
    ///
    /// ```
    /// use xq_match::openings::parse_epd;
    /// let opening = &parse_epd("startpos moves h2e2 h9g7").unwrap()[0];
    /// let game = opening.game();
    /// assert_eq!(game.moves(), opening.moves);
    /// let after = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2";
    /// assert_eq!(game.position().to_fen(), after);
    /// ```
    pub fn game(&self) -> Game {
        let mut game = Game::new(self.start.clone());
        for &m in &self.moves {
            if game.play(m).is_err() {
                break;
            }
        }
        game
    }
}

/// When the match ends a game by the engines' scores (cutechess-cli's `-draw` and
/// `-resign`), or by length.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// A draw when, from this move number on, both engines' scores stay within
    /// `draw_score` for `draw_count` moves each.
    pub draw: Option<DrawRule>,
    /// A loss for an engine whose score stays at or below `-score` for `count` moves
    /// (and, `two_sided`, its opponent's at or above `score`).
    pub resign: Option<ResignRule>,
    /// A draw after this many plies of the engines (the opening's not counted).
    pub max_plies: Option<u32>,
}

/// cutechess-cli's `-draw movenumber=N movecount=M score=S`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// The first move number at which a draw may be adjudicated.
    pub move_number: u32,
    /// Consecutive moves of each engine within the score.
    pub count: u32,
    /// Centipawns.
    pub score: i32,
}

/// cutechess-cli's `-resign movecount=M score=S [twosided=true]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive moves of the losing engine at or below `-score`.
    pub count: u32,
    /// Centipawns.
    pub score: i32,
    /// The winner's score must agree (at or above `score`) for as many moves.
    pub two_sided: bool,
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The rules ended it (mate, stalemate, perpetual check or chase, repetition, the
    /// 120-ply rule, insufficient material).
    Rules(Termination),
    /// An engine lost by forfeit.
    Forfeit {
        /// The side that lost.
        by: Color,
        /// What it did.
        fault: Fault,
    },
    /// The endgame tables decided it (`value` for the side to move then).
    Tablebase(TableValue),
    /// Both engines' scores said draw for long enough.
    DrawAdjudication,
    /// An engine's score said it was lost for long enough.
    ResignAdjudication {
        /// The side that was adjudicated lost.
        by: Color,
    },
    /// The match's length limit.
    MaxPlies,
    /// The match stopped before the game ended.
    Unfinished,
}

impl Ending {
    /// PGN's `Termination` tag: `rules infraction` for a forfeit and for a loss by the
    /// perpetual check or chase rule (a side broke the rules; the ruling is in the last
    /// comment), `time forfeit`, `adjudication`, `normal` for the other endings by the
    /// rules (mate, stalemate, draws).
    pub fn tag(&self) -> &'static str {
        match self {
            Ending::Rules(
                Termination::PerpetualCheck { .. } | Termination::PerpetualChase { .. },
            ) => "rules infraction",
            Ending::Rules(_) => "normal",
            Ending::Forfeit {
                fault: Fault::TimeForfeit,
                ..
            } => "time forfeit",
            Ending::Forfeit { .. } => "rules infraction",
            Ending::Tablebase(_)
            | Ending::DrawAdjudication
            | Ending::ResignAdjudication { .. }
            | Ending::MaxPlies => "adjudication",
            Ending::Unfinished => "unterminated",
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Rules(t) => write!(f, "{t}"),
            Ending::Forfeit { by, fault } => write!(f, "{by} {fault}"),
            Ending::Tablebase(v) => write!(f, "tablebase: {v} for the side to move"),
            Ending::DrawAdjudication => f.write_str("draw by adjudication (scores)"),
            Ending::ResignAdjudication { by } => write!(f, "{by} resigns by adjudication (scores)"),
            Ending::MaxPlies => f.write_str("draw by the match's length limit"),
            Ending::Unfinished => f.write_str("unfinished"),
        }
    }
}

/// One move of a game as the runner saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// The engine's score (its own view), if it gave one; `None` for the opening's moves.
    pub score: Option<Score>,
    /// The depth of that score.
    pub depth: u32,
    /// The time it took (zero for the opening's moves).
    pub time: Duration,
    /// Was it the opening's?
    pub book: bool,
}

/// A game played.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame {
    /// The start position.
    pub start: Position,
    /// Every move, the opening's first.
    pub moves: Vec<PlayedMove>,
    /// The result (`None`: unfinished).
    pub result: Option<GameResult>,
    /// Why it ended.
    pub ending: Ending,
}

/// An engine's seat: its settings and the process, started when first needed and again
/// after a fault.
#[derive(Debug)]
pub struct Seat {
    /// The engine's settings.
    pub config: EngineConfig,
    process: Option<EngineProcess>,
}

impl Seat {
    /// A seat for `config`, nothing started yet.
    pub fn new(config: EngineConfig) -> Seat {
        Seat {
            config,
            process: None,
        }
    }

    /// The process, started if needed.
    fn process(&mut self) -> Result<&mut EngineProcess, Fault> {
        if self.process.is_none() {
            self.process = Some(EngineProcess::start(&self.config)?);
        }
        Ok(self.process.as_mut().expect("started just above"))
    }

    /// Stops the process (it is started again when next needed).
    pub fn restart(&mut self) {
        self.process = None;
    }

    /// Stops the process, asking it to quit first.
    pub fn close(&mut self) {
        if let Some(p) = self.process.take() {
            p.quit();
        }
    }
}

/// What a game needs besides its engines.
#[derive(Clone, Debug, Default)]
pub struct GameRules {
    /// Score adjudication.
    pub adjudication: Adjudication,
    /// Endgame tables: a position in them ends the game with their result.
    pub tablebases: Option<Arc<Tablebases>>,
    /// Time past the clock before the flag falls.
    pub margin: Duration,
    /// Time past what an engine may use before it is taken to hang.
    pub timeout: Duration,
}

/// The tables' result for a position, when they decide it under the rules (a mate that
/// the 120-ply rule may come before is left to play).
fn table_ending(tb: &Tablebases, pos: &Position) -> Option<(GameResult, TableValue)> {
    let v = tb.probe_dtm(pos).ok().flatten()?;
    if v.beyond_rule(pos.halfmove_clock()) {
        return None;
    }
    let us = pos.side_to_move();
    let result = match v {
        TableValue::Win { .. } | TableValue::RuleWin { .. } => GameResult::win_for(us),
        TableValue::Loss { .. } | TableValue::RuleLoss { .. } => GameResult::win_for(!us),
        TableValue::Draw => GameResult::Draw,
    };
    Some((result, v))
}

/// A score in centipawns from its side's view, mates far beyond any.
fn cp(score: Score) -> i32 {
    match score {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => 100_000,
        Score::Mate(_) => -100_000,
    }
}

/// Plays a game from `opening` with `red` playing Red and `black` Black; `stop` is asked
/// before each move (a match that stopped leaves the game unfinished). A faulty engine
/// is restarted for the next game.
pub fn play(
    red: &mut Seat,
    black: &mut Seat,
    opening: &Opening,
    rules: &GameRules,
    stop: &dyn Fn() -> bool,
) -> PlayedGame {
    let mut game = opening.game();
    let mut moves: Vec<PlayedMove> = game
        .moves()
        .iter()
        .map(|&mv| PlayedMove {
            mv,
            score: None,
            depth: 0,
            time: Duration::ZERO,
            book: true,
        })
        .collect();
    let finish = |game: &Game,
                  moves: Vec<PlayedMove>,
                  result: Option<GameResult>,
                  ending: Ending| PlayedGame {
        start: game.start().clone(),
        moves,
        result,
        ending,
    };
    let mut seats: [&mut Seat; 2] = [red, black];
    // Start both and set up the game.
    for (i, seat) in seats.iter_mut().enumerate() {
        let limits = seat.config.limits;
        let started = seat
            .process()
            .and_then(|p| p.new_game(game.start(), game.moves(), &limits));
        if let Err(fault) = started {
            seat.restart();
            let by = if i == 0 { Color::Red } else { Color::Black };
            return finish(
                &game,
                moves,
                Some(GameResult::win_for(!by)),
                Ending::Forfeit { by, fault },
            );
        }
    }
    let mut clocks: [Option<Clock>; 2] = [
        seats[0].config.limits.clock.map(Clock::new),
        seats[1].config.limits.clock.map(Clock::new),
    ];
    let mut plies = 0u32;
    // Consecutive adjudication counts: scores within the draw band (both sides), and
    // each side's losing scores.
    let (mut drawish, mut losing) = (0u32, [0u32; 2]);
    let mut winning = [0u32; 2];
    loop {
        if let Some(o) = game.outcome() {
            return finish(&game, moves, Some(o.result), Ending::Rules(o.termination));
        }
        if let Some(tb) = &rules.tablebases {
            if let Some((result, v)) = table_ending(tb, game.position()) {
                return finish(&game, moves, Some(result), Ending::Tablebase(v));
            }
        }
        if rules.adjudication.max_plies.is_some_and(|m| plies >= m) {
            return finish(&game, moves, Some(GameResult::Draw), Ending::MaxPlies);
        }
        if stop() {
            return finish(&game, moves, None, Ending::Unfinished);
        }
        let side = game.position().side_to_move();
        let i = usize::from(side == Color::Black);
        let limits = seats[i].config.limits;
        let (own, theirs) = if i == 0 {
            (clocks[0].as_ref(), clocks[1].as_ref())
        } else {
            (clocks[1].as_ref(), clocks[0].as_ref())
        };
        let turn = Turn {
            start: game.start(),
            moves: game.moves(),
            pos: game.position(),
            limits: &limits,
            own,
            theirs,
        };
        let asked = seats[i]
            .process()
            .and_then(|p| p.go(&turn, rules.margin, rules.timeout));
        let Reply {
            mv,
            score,
            depth,
            time,
        } = match asked {
            Ok(r) => r,
            Err(fault) => {
                seats[i].restart();
                let fault = match fault {
                    Fault::Timeout { .. } if own.is_some() => Fault::TimeForfeit,
                    f => f,
                };
                return finish(
                    &game,
                    moves,
                    Some(GameResult::win_for(!side)),
                    Ending::Forfeit { by: side, fault },
                );
            }
        };
        if let Some(clock) = clocks[i].as_mut() {
            if !clock.spend(time, rules.margin) {
                seats[i].restart();
                let ending = Ending::Forfeit {
                    by: side,
                    fault: Fault::TimeForfeit,
                };
                return finish(&game, moves, Some(GameResult::win_for(!side)), ending);
            }
        }
        if game.play(mv).is_err() {
            // `go` checked the move: not reached.
            let ending = Ending::Forfeit {
                by: side,
                fault: Fault::IllegalMove(mv.to_string()),
            };
            return finish(&game, moves, Some(GameResult::win_for(!side)), ending);
        }
        plies += 1;
        moves.push(PlayedMove {
            mv,
            score,
            depth,
            time,
            book: false,
        });
        // The opponent hears of the move (XBoard keeps the game itself).
        if let Ok(p) = seats[1 - i].process() {
            let _ = p.tell(mv);
        }
        // Score adjudication, by this engine's score (its own view).
        let adj = rules.adjudication;
        if let Some(s) = score.map(cp) {
            if let Some(r) = adj.resign {
                losing[i] = if s <= -r.score { losing[i] + 1 } else { 0 };
                winning[i] = if s >= r.score { winning[i] + 1 } else { 0 };
                let agreed = !r.two_sided || winning[1 - i] >= r.count;
                if losing[i] >= r.count && agreed {
                    let ending = Ending::ResignAdjudication { by: side };
                    return finish(&game, moves, Some(GameResult::win_for(!side)), ending);
                }
            }
            if let Some(d) = adj.draw {
                let number = game.position().fullmove_number();
                drawish = if s.abs() <= d.score { drawish + 1 } else { 0 };
                if number >= d.move_number && drawish >= 2 * d.count {
                    return finish(
                        &game,
                        moves,
                        Some(GameResult::Draw),
                        Ending::DrawAdjudication,
                    );
                }
            }
        } else {
            drawish = 0;
            losing[i] = 0;
        }
    }
}
