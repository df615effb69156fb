//! The rule results of tables on disk under xq's referee, for endings too large for the
//! whole-ending solver of `rule.rs` (two attackers against one). From positions of each
//! ending that the tables say the rules decide, drawn at random, the region they lead to
//! is solved again and checked against the tables, and the games are played out under the
//! referee (`common::local`). The tables come from `xq tb gen`:
//!
//! ```text
//! xq tb gen KNNKR -o DIR
//! XQ_TB_DIR=DIR cargo test --release -p xq-tablebase --test referee -- --ignored --nocapture
//! ```
//!
//! `XQ_TB_ENDINGS` names the endings (default: every ending of the directory where both
//! sides attack and the rules decide positions), `XQ_TB_STARTS` how many starts of each
//! rule (default 50), `XQ_TB_LIMIT` the most positions a region may have (default
//! 20,000,000, about 6 GB of memory; a larger one is reported and not checked).

mod common;

use common::local::{End, Region};
use common::xorshift;
use std::path::PathBuf;
use std::time::Instant;
use xq_core::{Color, Fen, Piece, Position, Square};
use xq_movegen::Termination;
use xq_tablebase::{read_table, Ending, Rule, Table, TableValue, Tablebases};

/// A number from the environment, or `default`.
fn env_number(name: &str, default: usize) -> usize {
    match std::env::var(name) {
        Ok(s) => s
            .replace(',', "")
            .parse()
            .unwrap_or_else(|_| panic!("{name}={s}: not a number")),
        Err(_) => default,
    }
}

/// The pieces of `ending`, the first army red.
fn pieces(ending: &Ending) -> Vec<Piece> {
    let name = ending.to_string();
    let black_at = name[1..].find('K').unwrap() + 1;
    name.chars()
        .enumerate()
        .map(|(i, c)| {
            let c = if i < black_at {
                c
            } else {
                c.to_ascii_lowercase()
            };
            Piece::from_char(c).unwrap()
        })
        .collect()
}

/// Up to `want[0]` positions that `table` says perpetual check alone decides and
/// `want[1]` that the chase rule decides, each placed at random (`tries` placements at
/// most).
fn starts(table: &Table, want: [usize; 2], tries: usize) -> [Vec<Position>; 2] {
    let pieces = pieces(&table.ending());
    let name = table.ending().to_string();
    let seed = name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let mut random = xorshift(seed);
    let mut found: [Vec<Position>; 2] = [Vec::new(), Vec::new()];
    for _ in 0..tries {
        if found.iter().zip(want).all(|(f, n)| f.len() >= n) {
            break;
        }
        let mut fen = Fen::empty();
        for &piece in &pieces {
            let free: Vec<Square> = Square::ALL
                .into_iter()
                .filter(|&sq| piece.can_stand_on(sq) && fen.piece_on(sq).is_none())
                .collect();
            fen.set(free[random(free.len())], Some(piece));
        }
        fen.side_to_move = Color::ALL[random(2)];
        let Ok(pos) = Position::try_from(&fen) else {
            continue;
        };
        let Some(rule) = table.probe(&pos).filter(|v| v.by_rule()).map(|v| v.rule()) else {
            continue;
        };
        let which = usize::from(rule != Some(Rule::PerpetualCheck));
        if found[which].len() < want[which] && !found[which].contains(&pos) {
            found[which].push(pos);
        }
    }
    found
}

/// The side `v` (a rule result of a position whose side to move is `to_move`) gives the
/// win to.
fn winner(v: TableValue, to_move: Color) -> Color {
    match v {
        TableValue::RuleWin { .. } => to_move,
        _ => !to_move,
    }
}

#[test]
#[ignore]
fn rule_results_on_disk_under_the_referee() {
    let dir = PathBuf::from(
        std::env::var_os("XQ_TB_DIR").expect("XQ_TB_DIR: the directory of the tables to check"),
    );
    let tb = Tablebases::open(&dir).unwrap();
    let want = env_number("XQ_TB_STARTS", 50);
    let limit = env_number("XQ_TB_LIMIT", 20_000_000);
    let endings: Vec<Ending> = match std::env::var("XQ_TB_ENDINGS") {
        Ok(list) => list
            .split_whitespace()
            .map(|e| e.parse().unwrap())
            .collect(),
        Err(_) => tb
            .endings()
            .into_iter()
            .filter(Ending::both_attack)
            .collect(),
    };
    let mut checked = 0;
    for ending in endings {
        let clock = Instant::now();
        let plan = Ending::plan(std::slice::from_ref(&ending), None);
        let tables: Vec<Table> = plan
            .iter()
            .map(|e| read_table(&dir.join(e.file_name())).unwrap())
            .collect();
        let table = tables.last().unwrap();
        assert_eq!(table.ending(), ending);
        let chase = table
            .chase_decided()
            .expect("a table that records the rule");
        let check = table.rule_decided() - chase;
        if check + chase == 0 {
            continue;
        }
        let found = starts(
            table,
            [check, chase].map(|n| want.min(n as usize)),
            100_000_000,
        );
        let mut random = xorshift(0x2545_f491_4f6c_dd1d);
        let (mut regions, mut longest) = ([Vec::new(), Vec::new()], 0);
        // Games from the starts of each rule, the loser defending as the table does and
        // then with any legal move, by how they ended: the loser's perpetual check, its
        // perpetual chase, mate, a capture into a smaller table's rule result.
        let mut ends = [[[0usize; 4]; 2]; 2];
        for (r, starts) in found.iter().enumerate() {
            for w in Color::ALL {
                let starts: Vec<Position> = starts
                    .iter()
                    .filter(|p| winner(table.probe(p).unwrap(), p.side_to_move()) == w)
                    .cloned()
                    .collect();
                if starts.is_empty() {
                    continue;
                }
                let region = match Region::new(&tables, w, &starts, limit) {
                    Ok(region) => region,
                    Err(n) => {
                        println!(
                            "{ending}: the region of {} starts won by {w:?} passed {n} positions: not checked",
                            starts.len()
                        );
                        continue;
                    }
                };
                let (strategy, _) = region.check();
                regions[r].push(region.positions());
                for start in &starts {
                    for (d, defend) in [true, false].into_iter().enumerate() {
                        let (end, plies) =
                            region.play_out(&tables, &strategy, start, defend, &mut random);
                        longest = longest.max(plies);
                        let i = match end {
                            End::Referee(outcome) => {
                                assert_eq!(outcome.result.winner(), Some(w), "{start}: {outcome}");
                                match outcome.termination {
                                    Termination::PerpetualCheck { by } if by == !w => 0,
                                    Termination::PerpetualChase { by, .. } if by == !w => 1,
                                    Termination::Checkmate | Termination::Stalemate => {
                                        // The table's defence is never mated: a rule loss
                                        // ranks above every mate.
                                        assert!(!defend, "{start}: the table's defence was mated");
                                        2
                                    }
                                    other => panic!("{start}: {other:?}"),
                                }
                            }
                            End::Smaller { value, to_move } => {
                                assert!(value.by_rule(), "{start}: {value:?}");
                                assert_eq!(winner(value, to_move), w, "{start}: {value:?}");
                                3
                            }
                        };
                        ends[r][d][i] += 1;
                    }
                }
            }
        }
        checked += 1;
        println!(
            "{ending}: at random, {} positions won by perpetual check (the table counts {check}, a position and its mirror image once) and {} by the chase rule (the table: {chase}); the regions they lead to, {:?} and {:?} positions (by winner), solved again and equal to the table; games won as the table says (longest {longest} plies, {:.1} s):",
            found[0].len(),
            found[1].len(),
            regions[0],
            regions[1],
            clock.elapsed().as_secs_f64()
        );
        println!("  | starts | the loser plays | games | its perpetual check | its perpetual chase | mate | into a smaller table's rule result |");
        for (r, rule) in ["perpetual check", "chase rule"].into_iter().enumerate() {
            for (d, defence) in ["the table's defence", "any legal move"]
                .into_iter()
                .enumerate()
            {
                let e = ends[r][d];
                let games: usize = e.iter().sum();
                if games > 0 {
                    println!(
                        "  | {rule} | {defence} | {games} | {} | {} | {} | {} |",
                        e[0], e[1], e[2], e[3]
                    );
                }
            }
        }
    }
    assert!(
        checked > 0,
        "no ending of {} has rule results",
        dir.display()
    );
}
