//! Tables where both sides have attacking pieces, built with the perpetual-check rule,
//! checked against a solver written independently of the generator: every position
//! unfolded (no mirror images identified), its moves found forwards, and the rule's game
//! solved by the nested fixpoint formula of parity games instead of Zielonka's
//! algorithm.

use std::collections::HashMap;
use xq_core::{Color, Fen, File, Piece, PieceKind, Position, Rank, Square};
use xq_tablebase::{
    generate, verify, write_table, Ending, Table, TableResult, TableValue, Tablebases,
    FORMAT_VERSION,
};

fn tables(names: &[&str]) -> Vec<Table> {
    let mut done: Vec<Table> = Vec::new();
    for name in names {
        let e: Ending = name.parse().unwrap();
        let subs: Vec<&Table> = done.iter().collect();
        done.push(generate(&e, &subs, 2, &|_| {}).unwrap());
    }
    done
}

fn palace(color: Color) -> Vec<Square> {
    let ranks = match color {
        Color::Red => 0..3,
        Color::Black => 7..10,
    };
    ranks
        .flat_map(|r| {
            (3..6).map(move |f| {
                Square::new(File::from_index(f).unwrap(), Rank::from_index(r).unwrap())
            })
        })
        .collect()
}

/// Every legal position of a red general and chariot against a black general and
/// `black` (a horse or a cannon), both sides to move.
fn positions(black: PieceKind) -> Vec<Position> {
    let mut out = Vec::new();
    for rk in palace(Color::Red) {
        for bk in palace(Color::Black) {
            for r in Square::ALL {
                for x in Square::ALL {
                    if [rk, bk].contains(&r) || [rk, bk, r].contains(&x) {
                        continue;
                    }
                    let mut fen = Fen::empty();
                    fen.set(rk, Some(Piece::new(Color::Red, PieceKind::General)));
                    fen.set(bk, Some(Piece::new(Color::Black, PieceKind::General)));
                    fen.set(r, Some(Piece::new(Color::Red, PieceKind::Chariot)));
                    fen.set(x, Some(Piece::new(Color::Black, black)));
                    for side in Color::ALL {
                        fen.side_to_move = side;
                        if let Ok(pos) = Position::try_from(&fen) {
                            out.push(pos);
                        }
                    }
                }
            }
        }
    }
    out
}

/// The rule's game on the positions a table calls drawn or decided by the rule.
struct Game {
    positions: Vec<Position>,
    /// Moves (not captures) to other nodes.
    edges: Vec<Vec<usize>>,
    /// A capture into a draw.
    draw_exit: Vec<bool>,
}

impl Game {
    fn new(table: &Table, subs: &[&Table], all: Vec<Position>) -> Game {
        let positions: Vec<Position> = all
            .into_iter()
            .filter(|p| {
                let v = table.probe(p).unwrap();
                v == TableValue::Draw || v.by_rule()
            })
            .collect();
        let id: HashMap<u64, usize> = positions
            .iter()
            .enumerate()
            .map(|(i, p)| (p.key(), i))
            .collect();
        let mut edges = Vec::new();
        let mut draw_exit = Vec::new();
        for pos in &positions {
            let mut pos = pos.clone();
            let (mut out, mut draw) = (Vec::new(), false);
            for m in xq_movegen::legal_moves(&pos) {
                let capture = pos.piece_on(m.to()).is_some();
                let undo = pos.make_move(m);
                if capture {
                    let v = subs.iter().find_map(|t| t.probe(&pos)).unwrap();
                    assert!(!v.by_rule(), "the smaller tables have one attacker");
                    assert_ne!(
                        v.for_mover().result(),
                        TableResult::Win,
                        "{pos}: a draw has no winning capture"
                    );
                    draw |= v == TableValue::Draw;
                } else if let Some(&j) = id.get(&pos.key()) {
                    out.push(j);
                } else {
                    let v = table.probe(&pos).unwrap();
                    assert_eq!(
                        v.for_mover().result(),
                        TableResult::Loss,
                        "{pos}: a draw has no winning move"
                    );
                }
                pos.unmake_move(m, undo);
            }
            edges.push(out);
            draw_exit.push(draw);
        }
        Game {
            positions,
            edges,
            draw_exit,
        }
    }

    /// The nodes `winner` wins: μZ2. νZ1. μZ0. ⋃ (V_i ∩ CPre(Z_i)), with priority 2 after
    /// a move of the loser that is no check, 1 after such a move of the winner, 0 after
    /// a check (the winner needs the highest priority seen forever to be 1).
    fn solve(&self, winner: Color) -> Vec<bool> {
        let n = self.positions.len();
        let priority: Vec<u8> = self
            .positions
            .iter()
            .map(|p| {
                if p.is_check() {
                    0
                } else if p.side_to_move() == winner {
                    2
                } else {
                    1
                }
            })
            .collect();
        let cpre = |v: usize, z: &[bool]| {
            if self.positions[v].side_to_move() == winner {
                self.edges[v].iter().any(|&w| z[w])
            } else {
                !self.draw_exit[v] && self.edges[v].iter().all(|&w| z[w])
            }
        };
        let mut z2 = vec![false; n];
        loop {
            let mut z1 = vec![true; n];
            loop {
                let mut z0 = vec![false; n];
                loop {
                    let mut changed = false;
                    for v in 0..n {
                        if z0[v] {
                            continue;
                        }
                        let ok = match priority[v] {
                            2 => cpre(v, &z2),
                            1 => cpre(v, &z1),
                            _ => cpre(v, &z0),
                        };
                        if ok {
                            z0[v] = true;
                            changed = true;
                        }
                    }
                    if !changed {
                        break;
                    }
                }
                if z0 == z1 {
                    break;
                }
                z1 = z0;
            }
            if z1 == z2 {
                return z2;
            }
            z2 = z1;
        }
    }
}

/// Generates `KRK`, the horse's or cannon's ending alone and `KRK<x>`, verifies the
/// last by the forward pass, and compares every one of its positions with the
/// independent solver. Returns the positions drawn without the rule, and (rule wins,
/// rule losses) with Red to move and with Black to move, every position unfolded.
fn check_against_the_solver(x: PieceKind) -> (usize, [[u64; 2]; 2]) {
    let letter = x.to_char().to_ascii_uppercase();
    let names = [
        "KRK".to_string(),
        format!("K{letter}K"),
        format!("KRK{letter}"),
    ];
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let all = tables(&names);
    let table = &all[2];
    let subs = [&all[0], &all[1]];
    assert_eq!(
        verify(table, &subs, 2, &|_| {}).unwrap(),
        table.stats().positions()
    );
    let game = Game::new(table, &subs, positions(x));
    let red = game.solve(Color::Red);
    let black = game.solve(Color::Black);
    let mut counts = [[0u64; 2]; 2];
    for (v, pos) in game.positions.iter().enumerate() {
        assert!(!(red[v] && black[v]), "{pos}: won by both");
        let expected = match (red[v], black[v]) {
            (false, false) => TableValue::Draw,
            (true, _) if pos.side_to_move() == Color::Red => TableValue::RuleWin,
            (_, true) if pos.side_to_move() == Color::Black => TableValue::RuleWin,
            _ => TableValue::RuleLoss,
        };
        assert_eq!(table.probe(pos), Some(expected), "{pos}");
        if expected.by_rule() {
            let won = usize::from(expected == TableValue::RuleLoss);
            counts[pos.side_to_move().index()][won] += 1;
        }
    }
    (game.positions.len(), counts)
}

#[test]
fn a_chariot_against_a_horse_by_the_rule() {
    let (draws, counts) = check_against_the_solver(PieceKind::Horse);
    // Of 4,412 positions drawn without the rule, 3,194 are won by it.
    assert_eq!(draws, 4412);
    // [Red to move: rule wins, rule losses], [Black to move: rule wins, rule losses].
    // The chariot wins by the rule where the horse holds only by checking with every
    // move; never the other way round.
    assert_eq!(counts, [[624, 0], [0, 2570]]);
    let all = tables(&["KRK", "KNK", "KRKN"]);
    // Red is in check from the horse on b1; without the rule a draw, as the horse
    // checks forever.
    let pos = Position::from_fen("9/9/4k4/9/9/9/9/9/1n7/R2K5 w").unwrap();
    assert!(pos.is_check());
    assert_eq!(all[2].probe(&pos), Some(TableValue::RuleWin));
    assert_eq!(
        all[2].probe(&pos.color_flipped()),
        Some(TableValue::RuleWin)
    );
    let pos = Position::from_fen("9/9/4k4/9/9/9/9/3n5/9/R2K5 b").unwrap();
    assert_eq!(all[2].probe(&pos), Some(TableValue::RuleLoss));
}

#[test]
fn a_chariot_against_a_cannon_by_the_rule() {
    // The rule decides nothing here: the cannon's side never has to check forever.
    let (draws, counts) = check_against_the_solver(PieceKind::Cannon);
    assert_eq!(draws, 14796);
    assert_eq!(counts, [[0, 0], [0, 0]]);
}

#[test]
fn rule_tables_are_files_of_version_2() {
    let all = tables(&["KRK", "KNK", "KRKN"]);
    let dir = std::env::temp_dir().join(format!("xq-tb-rule-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for t in &all {
        write_table(t, &dir.join(t.ending().file_name())).unwrap();
    }
    let version = |name: &str| {
        let b = std::fs::read(dir.join(name)).unwrap();
        u16::from_le_bytes([b[8], b[9]])
    };
    assert_eq!(version("KRK.xqtb"), 1);
    assert_eq!(version("KRKN.xqtb"), FORMAT_VERSION);
    let tb = Tablebases::open(&dir).unwrap();
    assert_eq!(
        xq_tablebase::verify_file(&dir, &"KRKN".parse().unwrap(), 2, &|_| {}).unwrap(),
        all[2].stats().positions()
    );
    // The files answer as the table in memory, for every position of both colourings.
    let mut rule = 0;
    for pos in positions(PieceKind::Horse).into_iter().step_by(7) {
        let v = all[2].probe(&pos).unwrap();
        rule += usize::from(v.by_rule());
        assert_eq!(tb.probe_dtm(&pos).unwrap(), Some(v), "{pos}");
        assert_eq!(
            tb.probe_dtm(&pos.color_flipped()).unwrap(),
            Some(v),
            "{pos}"
        );
    }
    assert!(rule > 0);
    std::fs::remove_dir_all(&dir).unwrap();
}
