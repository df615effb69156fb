//! `xq adjudicate`: the referee, without a search. Plays the moves, then judges the game
//! by the whole rules (`xq_movegen::Game::outcome`): mate, perpetual check and chase,
//! repetition, the 60-move rule, insufficient material.

use crate::PositionArgs;
use anyhow::{bail, Context, Result};
use serde_json::json;
use xq_movegen::{Game, Outcome, Termination};

/// Judge a game: the result (1-0, 0-1, 1/2-1/2 or *) and why.
#[derive(clap::Args, Debug)]
pub struct AdjudicateArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Judges the game; returns the exit code.
pub fn run(args: &AdjudicateArgs) -> Result<i32> {
    let game = args.position.game().context("bad position")?;
    // A move after the end of the game is refused, as a referee would: judge every
    // position before the last one too.
    let mut prefix = Game::new(game.start().clone());
    for (i, &m) in game.moves().iter().enumerate() {
        if let Some(verdict) = prefix.outcome() {
            bail!(
                "bad position: move {}: the game is already over ({verdict})",
                i + 1
            );
        }
        prefix.play(m).expect("the moves were played once already");
    }
    let verdict = game.outcome();
    if args.json {
        outln!("{}", to_json(&game, verdict))?;
    } else {
        match verdict {
            None => outln!(
                "* the game goes on ({} to move)",
                game.position().side_to_move()
            )?,
            Some(over) => outln!("{over}")?,
        }
    }
    Ok(0)
}

/// The verdict as one JSON object: `result`, `termination` (a tag, `null` while the game
/// goes on), `text` (the rule in words), the ruling's details, `plies` and the final `fen`.
fn to_json(game: &Game, verdict: Option<Outcome>) -> serde_json::Value {
    let pos = game.position();
    let termination = verdict.map(|o| o.termination);
    let mut obj = json!({
        "result": verdict.map_or("*", |o| o.result.token()),
        "termination": termination.map(|r| r.tag()),
        "text": termination.map_or("the game goes on".to_string(), |r| r.to_string()),
        "plies": game.moves().len(),
        "fen": pos.to_fen(),
    });
    match termination {
        Some(Termination::Checkmate | Termination::Stalemate) => {
            obj["loser"] = json!(pos.side_to_move().to_string());
        }
        Some(Termination::PerpetualCheck { by }) => obj["by"] = json!(by.to_string()),
        Some(Termination::PerpetualChase { by, piece, square }) => {
            obj["by"] = json!(by.to_string());
            obj["piece"] = json!(piece.to_string());
            obj["square"] = json!(square.to_string());
        }
        _ => {}
    }
    if verdict.is_none() {
        obj["side_to_move"] = json!(pos.side_to_move().to_string());
    }
    obj
}
