//! `xq match`: a match between two engines under xq's referee (`xq_match`); this is the
//! arguments and the printing.

use anyhow::Result;
use xq_match::runner::run;
use xq_match::Verdict;

/// Play a match between two engines (cutechess-cli's options).
#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// cutechess-cli's options: `-engine cmd=PROGRAM name=N [proto=uci|ucci|xboard]
    /// [tc=MOVES/SECONDS+INC | st=SECONDS | depth=N | nodes=N] [dir=DIR] [arg=ARG]
    /// [ranks=1] [option.NAME=VALUE]...` twice, `-each ...` (for both), `-games N`, `-rounds N`,
    /// `-concurrency N`, `-openings file=FILE [format=epd|pgn] [order=sequential|random]
    /// [plies=N] [start=N]`, `-srand N`, `-pgnout FILE`, `-sprt elo0=E0 elo1=E1
    /// alpha=A beta=B`, `-draw movenumber=N movecount=N score=CP`, `-resign movecount=N
    /// score=CP [twosided=true]`, `-maxmoves N`, `-tb DIR`, `-event NAME`,
    /// `-ratinginterval N`; and `-json FILE`, `-resume`, `-norepeat`.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, required = true)]
    args: Vec<String>,
}

/// The Elo line and the SPRT line of a summary.
fn rating(s: &xq_match::Summary, sprt: Option<&xq_match::Sprt>) -> Result<()> {
    let (elo, error) = s.pentanomial.elo();
    outln!(
        "Elo difference: {elo:+.1} +/- {error:.1}, ptnml {}, {} pairs",
        s.pentanomial,
        s.pentanomial.pairs()
    )?;
    if let (Some(sprt), Some(llr)) = (sprt, s.llr) {
        let (lo, hi) = sprt.bounds();
        let said = match s.verdict {
            Some(Verdict::H1) => " - H1 was accepted",
            Some(Verdict::H0) => " - H0 was accepted",
            _ => "",
        };
        outln!("SPRT: llr {llr:.2}, lbound {lo:.2}, ubound {hi:.2}{said}")?;
    }
    Ok(())
}

/// Runs the match; returns the exit code.
pub fn run_match(args: &MatchArgs) -> Result<i32> {
    let m = xq_match::cli::parse_args(&args.args)?;
    let config = &m.config;
    let names = [&config.engines[0].name, &config.engines[1].name];
    let mut failed = None;
    let summary = run(config, &mut |r, s| {
        let red = names[r.red];
        let black = names[1 - r.red];
        let result = r.game.result.map_or("*", |g| g.token());
        let line = format!(
            "Finished game {} ({red} vs {black}): {result} {{{}}}\nScore of {} vs {}: {} - {} - {}  [{:.3}] {}",
            r.number,
            xq_match::describe(config, r),
            names[0],
            names[1],
            s.wins,
            s.losses,
            s.draws,
            s.score(),
            s.games
        );
        let interval = m.rating_interval;
        let shown = outln!("{line}")
            .map_err(anyhow::Error::from)
            .and_then(|()| {
                if interval > 0 && s.games % interval == 0 {
                    rating(s, config.sprt.as_ref())
                } else {
                    Ok(())
                }
            })
            // The summary so far after every game: an interrupted match leaves it too.
            .and_then(|()| write_json(m.json.as_deref(), s, config.sprt.as_ref()));
        if let Err(e) = shown {
            failed.get_or_insert(e);
        }
    })?;
    if let Some(e) = failed {
        return Err(e);
    }
    outln!(
        "Finished match: {} games, {} - {} - {} for {}; forfeits {} {}, {} {}",
        summary.games,
        summary.wins,
        summary.losses,
        summary.draws,
        names[0],
        names[0],
        summary.forfeits[0],
        names[1],
        summary.forfeits[1]
    )?;
    rating(&summary, config.sprt.as_ref())?;
    write_json(m.json.as_deref(), &summary, config.sprt.as_ref())?;
    Ok(0)
}

/// Writes the JSON summary to `path` (when given) through a temporary file renamed over
/// it, so that a reader never sees half of one.
fn write_json(
    path: Option<&std::path::Path>,
    summary: &xq_match::Summary,
    sprt: Option<&xq_match::Sprt>,
) -> Result<()> {
    let Some(path) = path else {
        return Ok(());
    };
    let text = summary.to_json(sprt).to_string() + "\n";
    let tmp = path.with_extension("json.part");
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}
