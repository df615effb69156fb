//! `xq eval`: the static evaluation of a position and its parts.

use crate::board::diagram;
use crate::PositionArgs;
use anyhow::{Context, Result};

/// Show the static evaluation of a position.
#[derive(clap::Args, Debug)]
pub struct EvalArgs {
    #[command(flatten)]
    position: PositionArgs,
}

/// Prints the evaluation; returns the exit code.
pub fn run(args: &EvalArgs) -> Result<i32> {
    let game = args.position.game().context("bad position")?;
    let pos = game.position();
    outln!("{}", diagram(pos, false).trim_end())?;
    let b = xq_eval::breakdown(pos);
    outln!(
        "phase      {:>6}  (48 = every chariot, horse and cannon on the board)",
        b.phase
    )?;
    outln!("material   {:>6}", b.material)?;
    for kind in xq_core::PieceKind::ALL {
        outln!(
            "{:<10} {:>6}",
            format!("{kind:?}").to_lowercase(),
            b.placement[kind.index()]
        )?;
    }
    outln!("tempo      {:>6}", b.tempo)?;
    outln!("total      {:>6}  (Red's view)", b.total_red)?;
    outln!(
        "eval       {:>6}  ({} to move)",
        b.total,
        if pos.side_to_move() == xq_core::Color::Red {
            "Red"
        } else {
            "Black"
        }
    )?;
    Ok(0)
}
