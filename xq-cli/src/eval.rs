//! `xq eval`: the static evaluation of a position: the classical evaluation's parts and
//! the network's score.

use crate::board::diagram;
use crate::{NetArgs, PositionArgs};
use anyhow::{Context, Result};
use xq_core::Color;
use xq_eval::endgame::SCALE_MAX;
use xq_eval::nnue::Accumulator;

/// Show the static evaluation of a position: the classical evaluation's parts, then the
/// network's score (the built-in network, or `--eval-file`; none with `--classical`).
#[derive(clap::Args, Debug)]
pub struct EvalArgs {
    #[command(flatten)]
    position: PositionArgs,
    #[command(flatten)]
    net: NetArgs,
}

/// Prints the evaluation; returns the exit code.
pub fn run(args: &EvalArgs) -> Result<i32> {
    let game = args.position.game().context("bad position")?;
    let net = args.net.network()?;
    let pos = game.position();
    outln!("{}", diagram(pos, false).trim_end())?;
    let b = xq_eval::breakdown(pos);
    outln!(
        "{:<24} {:>6} {:>6} {:>6}",
        "term (Red's view)",
        "mg",
        "eg",
        "value"
    )?;
    for t in &b.terms {
        outln!("{:<24} {:>6} {:>6} {:>6}", t.name, t.mg, t.eg, t.value)?;
    }
    let [red, black] = xq_eval::terms::attack_levels(pos);
    outln!(
        "attack level   red {red}, black {black}  (0 to 8: pieces across the river, major lead)"
    )?;
    outln!(
        "phase          {}  (48 = every chariot, horse and cannon on the board)",
        b.phase
    )?;
    outln!(
        "scale          {}/{SCALE_MAX}  (endgame knowledge; 0 is a draw)",
        b.scale
    )?;
    outln!("total          {}  (Red's view)", b.total_red)?;
    let side = match pos.side_to_move() {
        Color::Red => "Red",
        Color::Black => "Black",
    };
    outln!("eval           {}  ({side} to move)", b.total)?;
    if let Some(net) = net {
        let value = net.evaluate(pos, &Accumulator::new(&net, pos));
        let which = match &args.net.eval_file {
            Some(path) => path.display().to_string(),
            None => "the built-in network".to_string(),
        };
        outln!("network        {value}  ({side} to move; {which})")?;
    }
    Ok(0)
}
