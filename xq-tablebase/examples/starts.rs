//! Start positions for a match of tables on against tables off: random quiet positions of
//! the named endings, found in the tables of DIR, written as referee opening lines
//! (`fen FEN`).
//!
//!     cargo run --release -p xq-tablebase --example starts -- DIR PER_ENDING SEED MIN_PLIES ENDING...
//!
//! Per ending, half the positions are wins for the attacking side to move with a mate at
//! least MIN_PLIES plies away (the tables know the way, a search may not find it within
//! the 120-ply rule) and half are draws with the defending side to move in an ending the
//! attacker mostly wins (the defence must hold). Where both sides attack, a win by the
//! rules of perpetual check and chase counts as a long win (the search alone cannot see
//! that the opponent's checks or chases will lose). A position is quiet when the side to move
//! is not in check and has no capture. The attacking side is Red. Each position's ending
//! and value go to standard error.

use xq_core::{Color, SplitMix64};
use xq_tablebase::{TableValue, Tablebases};
use xq_testkit::random_position;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 5 {
        eprintln!("usage: starts DIR PER_ENDING SEED MIN_PLIES ENDING...");
        std::process::exit(2);
    }
    let tb = Tablebases::open(&args[0]).expect("a directory of tables");
    let per: usize = args[1].parse().expect("PER_ENDING: a number");
    let mut rng = SplitMix64::new(args[2].parse().expect("SEED: a number"));
    let min_plies: u16 = args[3].parse().expect("MIN_PLIES: a number");
    for ending in &args[4..] {
        let (mut wins, mut draws) = (0, 0);
        let mut tries = 0u64;
        while (wins < per / 2 || draws < per - per / 2) && tries < 10_000_000 {
            tries += 1;
            let Some(pos) = random_position(ending, &mut rng) else {
                continue;
            };
            if pos.is_check()
                || xq_movegen::legal_moves(&pos)
                    .iter()
                    .any(|&m| pos.piece_on(m.to()).is_some())
            {
                continue;
            }
            let value = tb
                .probe_dtm(&pos)
                .expect("a good table")
                .unwrap_or_else(|| panic!("{ending} is not in {}", args[0]));
            let red_to_move = pos.side_to_move() == Color::Red;
            let keep = match value {
                TableValue::Win { plies }
                    if red_to_move && plies >= min_plies && wins < per / 2 =>
                {
                    wins += 1;
                    true
                }
                TableValue::RuleWin { .. } if red_to_move && wins < per / 2 => {
                    wins += 1;
                    true
                }
                TableValue::Draw if !red_to_move && draws < per - per / 2 => {
                    draws += 1;
                    true
                }
                _ => false,
            };
            if keep {
                println!("fen {}", pos.to_fen());
                eprintln!("{ending} {value:?} {}", pos.to_fen());
            }
        }
        if wins < per / 2 || draws < per - per / 2 {
            eprintln!("{ending}: only {wins} long wins and {draws} draws found");
        }
    }
}
