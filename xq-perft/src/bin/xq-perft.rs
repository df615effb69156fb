//! `xq-perft SUITE [--max-depth D] [--max-nodes N] [--threads T]`: validates move
//! generation against a perft suite; exits 1 on any mismatch, 2 on bad usage.

use std::process::ExitCode;
use xq_perft::suite::{parse_suite, run_suite, RunOptions};

const USAGE: &str = "usage: xq-perft SUITE [--max-depth D] [--max-nodes N] [--threads T]";

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("xq-perft: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<bool, String> {
    let mut args = std::env::args().skip(1);
    let mut file = None;
    let mut opts = RunOptions::default();
    while let Some(a) = args.next() {
        let mut value = |name: &str| -> Result<u64, String> {
            let v = args
                .next()
                .ok_or(format!("{name} needs a value\n{USAGE}"))?;
            v.parse()
                .map_err(|_| format!("{name}: '{v}' is not a number"))
        };
        match a.as_str() {
            "--max-depth" => opts.max_depth = Some(value("--max-depth")? as u32),
            "--max-nodes" => opts.max_nodes = Some(value("--max-nodes")?),
            "--threads" => opts.threads = value("--threads")?.max(1) as usize,
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(true);
            }
            _ if file.is_none() && !a.starts_with('-') => file = Some(a),
            _ => return Err(format!("unexpected argument '{a}'\n{USAGE}")),
        }
    }
    let file = file.ok_or(USAGE.to_string())?;
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?;
    let suite = parse_suite(&text).map_err(|e| format!("{file}: {e}"))?;
    let report =
        run_suite(&suite, &opts, &mut std::io::stdout().lock()).map_err(|e| e.to_string())?;
    Ok(report.ok())
}
