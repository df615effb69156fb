//! The beginner-like test player as a UCI engine (`xq_testkit::beginner`): it takes
//! free pieces, else plays a random move that hangs nothing. An opponent for measuring
//! the lowest playing levels (docs/levels.md).
//!
//! ```sh
//! cargo run --release -p xq-testkit --bin xq-beginner -- [--seed N]
//! ```

use xq_protocol::{run, Sink, Uci};
use xq_testkit::beginner::BeginnerEngine;

fn main() {
    let mut args = std::env::args().skip(1);
    let seed = match (args.next().as_deref(), args.next()) {
        (None, _) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64),
        (Some("--seed"), Some(n)) if n.parse::<u64>().is_ok() => n.parse().unwrap_or(1),
        _ => {
            eprintln!("usage: xq-beginner [--seed N]");
            std::process::exit(2);
        }
    };
    let mut engine = Uci::new(Sink::writer(std::io::stdout()), BeginnerEngine::new(seed));
    run(&mut engine, &mut std::io::stdin().lock());
}
