//! Tables where both sides have attacking pieces, built with the rules of perpetual check
//! and chase, checked against a solver written independently of the generator: every
//! position unfolded (no mirror images identified), its moves found forwards with what
//! each newly chases by the referee's own `chases`, and every rule's game solved by the
//! nested fixpoint formula of parity games (the generator solves the check game by
//! Zielonka's algorithm).

mod common;

use common::local::{best_moves, defence, play, End, Region};
use common::{nested_fixpoint, palace, xorshift};
use std::collections::HashMap;
use xq_core::{Color, Fen, Piece, PieceKind, Position, Square};
use xq_movegen::rules::chases;
use xq_movegen::{Outcome, Termination};
use xq_tablebase::{
    generate, verify, write_table, Ending, Rule, Table, TableResult, TableValue, Tablebases,
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

/// Every legal position of a red general and `red` against a black general and `black`,
/// both sides to move.
fn positions(red: PieceKind, black: PieceKind) -> Vec<Position> {
    common::positions(&palace(Color::Red), &palace(Color::Black), red, black)
}

/// The squares a piece of `kind` and `color` may stand on in a table's positions: the
/// general in its palace, an advisor on its five points, everything else anywhere.
fn places(color: Color, kind: PieceKind) -> Vec<Square> {
    let base = match color {
        Color::Red => 0,
        Color::Black => 7,
    };
    match kind {
        PieceKind::General => palace(color),
        PieceKind::Advisor => palace(color)
            .into_iter()
            .filter(|s| (s.file().index() + s.rank().index() - base + 1) % 2 == 0)
            .collect(),
        _ => Square::ALL.to_vec(),
    }
}

/// The positions of the ending `name` (Red the first army, no elephants) with either
/// side to move that `keep` keeps; every legal placement is offered once.
fn ending_positions(name: &str, keep: impl Fn(&Position) -> bool) -> Vec<Position> {
    let black_at = name[1..].find('K').unwrap() + 1;
    let mut pieces = Vec::new();
    for (i, c) in name.chars().enumerate() {
        let color = if i < black_at {
            Color::Red
        } else {
            Color::Black
        };
        let c = if color == Color::Red {
            c
        } else {
            c.to_ascii_lowercase()
        };
        pieces.push(Piece::from_char(c).unwrap());
    }
    let mut out = Vec::new();
    let mut fen = Fen::empty();
    fn place(
        pieces: &[Piece],
        from: usize,
        fen: &mut Fen,
        last: Option<(Piece, Square)>,
        out: &mut Vec<Position>,
        keep: &dyn Fn(&Position) -> bool,
    ) {
        let Some(&piece) = pieces.get(from) else {
            for side in Color::ALL {
                fen.side_to_move = side;
                if let Ok(pos) = Position::try_from(&*fen) {
                    if keep(&pos) {
                        out.push(pos);
                    }
                }
            }
            return;
        };
        for sq in places(piece.color, piece.kind) {
            // Like pieces in ascending squares: each placement once.
            if last.is_some_and(|(p, s)| p == piece && s.index() >= sq.index()) {
                continue;
            }
            if fen.piece_on(sq).is_some() {
                continue;
            }
            fen.set(sq, Some(piece));
            place(pieces, from + 1, fen, Some((piece, sq)), out, keep);
            fen.set(sq, None);
        }
    }
    place(&pieces, 0, &mut fen, None, &mut out, &keep);
    out
}

/// A move (not a capture) from one node of the game to another.
struct Edge {
    /// The move.
    m: xq_core::Move,
    to: usize,
    /// It gives check.
    check: bool,
    /// The kinds of the pieces it newly chases, as bits from `1 << kind.index()`, by the
    /// referee's own [`chases`].
    chased: u8,
}

/// The rule's game on the positions a table calls drawn or decided by the rule.
struct Game {
    positions: Vec<Position>,
    /// The node of each position, by its key.
    id: HashMap<u64, usize>,
    edges: Vec<Vec<Edge>>,
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
                let chased = chases(&pos, m)
                    .iter()
                    .map(|sq| 1u8 << pos.piece_on(sq).unwrap().kind.index())
                    .fold(0, |a, b| a | b);
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
                    out.push(Edge {
                        m,
                        to: j,
                        check: pos.is_check(),
                        chased,
                    });
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
            id,
            edges,
            draw_exit,
        }
    }

    /// The nodes `winner` wins by the rules: a game for perpetual check and one for a
    /// perpetual chase of each of the winner's pieces (it has one of each kind here),
    /// each game also won by reaching what the others won, until nothing changes.
    fn solve(&self, winner: Color) -> Vec<bool> {
        self.solve_with_strategy(winner).0
    }

    /// The nodes `winner` wins by perpetual check alone: the check game without the
    /// chase games (the smaller tables here have no rule results).
    fn solve_by_check(&self, winner: Color) -> Vec<bool> {
        let none = vec![false; self.positions.len()];
        self.solve_game(winner, &none, check_priority).0
    }

    /// [`solve`](Game::solve), with a winning strategy: for each node of the winner's,
    /// the index in its edges of the move to play (`None` where the winner won before
    /// the node's turn in a game, or where the node is not the winner's).
    fn solve_with_strategy(&self, winner: Color) -> (Vec<bool>, Vec<Option<usize>>) {
        let n = self.positions.len();
        let mut won = vec![false; n];
        let mut strategy = vec![None; n];
        let mut keep = |won: &[bool], next: (Vec<bool>, Vec<Option<usize>>)| {
            for v in 0..n {
                if next.0[v] && !won[v] {
                    strategy[v] = next.1[v];
                }
            }
            next.0
        };
        loop {
            let game = self.solve_game(winner, &won, check_priority);
            let mut next = keep(&won, game);
            // A chase of a kind of which the winner has two pieces may be a chase of
            // either: the tables leave it alone, and so does this solver.
            let single = |kind| {
                self.positions
                    .first()
                    .is_some_and(|p| p.squares_of(Piece::new(winner, kind)).count() == 1)
            };
            for kind in PieceKind::ALL.into_iter().skip(1).filter(|&k| single(k)) {
                let bit = 1u8 << kind.index();
                let game =
                    self.solve_game(winner, &next, |_, e| match (e.edge.check, e.mover_wins) {
                        (true, _) => 2,
                        (false, true) => u8::from(e.edge.chased == 0),
                        (false, false) if e.edge.chased & bit != 0 => 0,
                        (false, false) => 2,
                    });
                next = keep(&next, game);
            }
            if next == won {
                return (won, strategy);
            }
            won = next;
        }
    }

    /// The nodes `winner` wins in the parity game whose moves have the priorities
    /// `priority` gives (the winner needs the highest priority seen forever to be 1), or
    /// from which it forces the play into `target`: μZ2. νZ1. μZ0. CPre, a move of
    /// priority i leading into Z_i. With them, the winner's move at each node won here:
    /// the move by which the node entered Z0 in the last round of the layer (the
    /// iteration of Z2) that won it. A move of priority 0 leads to a node that entered
    /// before, one of priority 2 to a lower layer, so an endless play in a layer takes
    /// moves of priority 1 forever and of priority 2 never.
    fn solve_game(
        &self,
        winner: Color,
        target: &[bool],
        priority: impl Fn(usize, Step<'_>) -> u8,
    ) -> (Vec<bool>, Vec<Option<usize>>) {
        let n = self.positions.len();
        // `None`: not in CPre; `Some(None)`: in it without a move of the winner's to
        // name; `Some(Some(i))`: in it by edge `i`.
        let cpre = |v: usize, z: [&[bool]; 3]| -> Option<Option<usize>> {
            if target[v] {
                return Some(None);
            }
            let mover_wins = self.positions[v].side_to_move() == winner;
            let mut ok = self.edges[v].iter().map(|edge| {
                let i = priority(v, Step { edge, mover_wins });
                z[usize::from(i)][edge.to]
            });
            if mover_wins {
                ok.position(|x| x).map(Some)
            } else {
                (!self.draw_exit[v] && ok.all(|x| x)).then_some(None)
            }
        };
        nested_fixpoint(n, |z1, z2| {
            let mut z0 = vec![false; n];
            let mut choice = vec![None; n];
            loop {
                let mut changed = false;
                for v in 0..n {
                    if z0[v] {
                        continue;
                    }
                    if let Some(c) = cpre(v, [&z0, z1, z2]) {
                        z0[v] = true;
                        choice[v] = c;
                        changed = true;
                    }
                }
                if !changed {
                    return (z0, choice);
                }
            }
        })
    }
}

/// The priority of a move in the game of perpetual check: 0 for a check, 1 for a move of
/// the winner's without check, 2 for one of the loser's.
fn check_priority(_: usize, e: Step<'_>) -> u8 {
    match (e.edge.check, e.mover_wins) {
        (true, _) => 0,
        (false, true) => 1,
        (false, false) => 2,
    }
}

/// The table's value of a position `winner` wins by the rules, with `winner` to move or
/// not, where perpetual check alone wins it or not.
fn rule_value(winner_to_move: bool, by_check: bool) -> TableValue {
    let rule = Some(if by_check {
        Rule::PerpetualCheck
    } else {
        Rule::PerpetualChase
    });
    if winner_to_move {
        TableValue::RuleWin { rule }
    } else {
        TableValue::RuleLoss { rule }
    }
}

/// A move of the game as a priority function sees it.
#[derive(Copy, Clone)]
struct Step<'a> {
    edge: &'a Edge,
    /// The winner makes it.
    mover_wins: bool,
}

/// Generates the endings of a red `a` and of a black `b` alone and then `a` against `b`,
/// verifies the last by the forward pass, and compares every one of its positions (Red
/// with `a`, Black with `b`) with the independent solver. Returns the positions drawn
/// without the rule, and (rule wins, rule losses) with Red to move and with Black to
/// move, every position unfolded.
fn check_against_the_solver(a: PieceKind, b: PieceKind) -> (usize, [[u64; 2]; 2]) {
    let letter = |k: PieceKind| k.to_char().to_ascii_uppercase();
    let (a_, b_) = (letter(a), letter(b));
    let mut names = vec![format!("K{a_}K"), format!("K{b_}K"), format!("K{a_}K{b_}")];
    names.dedup();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let all = tables(&names);
    let (table, subs) = all.split_last().unwrap();
    let subs: Vec<&Table> = subs.iter().collect();
    assert_eq!(
        verify(table, &subs, 2, &|_| {}).unwrap(),
        table.stats().positions()
    );
    let game = Game::new(table, &subs, positions(a, b));
    let won = [game.solve(Color::Red), game.solve(Color::Black)];
    let by_check = [
        game.solve_by_check(Color::Red),
        game.solve_by_check(Color::Black),
    ];
    let mut counts = [[0u64; 2]; 2];
    for (v, pos) in game.positions.iter().enumerate() {
        assert!(!(won[0][v] && won[1][v]), "{pos}: won by both");
        let expected = match Color::ALL.into_iter().find(|w| won[w.index()][v]) {
            None => TableValue::Draw,
            Some(w) => rule_value(pos.side_to_move() == w, by_check[w.index()][v]),
        };
        assert_eq!(table.probe(pos), Some(expected), "{pos}");
        if expected.by_rule() {
            let lost = usize::from(expected.result() == TableResult::Loss);
            counts[pos.side_to_move().index()][lost] += 1;
        }
    }
    (game.positions.len(), counts)
}

/// Plays from `start` until xq's referee ends the game (`Game::outcome`): `winner` plays
/// the solver's strategy (`won`, `strategy`) while the position is won by the rules, and
/// the fastest mate of `tables` once it is a plain win; the loser plays one of the
/// tables' best defences if `defend`, else any legal move, picked by `random`. The
/// winner must win; the outcome and the plies played.
fn play_out(
    game: &Game,
    tables: &[Table],
    winner: Color,
    (won, strategy): (&[bool], &[Option<usize>]),
    start: &Position,
    defend: bool,
    random: &mut impl FnMut(usize) -> usize,
) -> (Outcome, usize) {
    let (end, plies) = play(start, 1000, |pos| {
        Ok(if pos.side_to_move() == winner {
            match game.id.get(&pos.key()).filter(|&&w| won[w]) {
                Some(&w) => game.edges[w][strategy[w].expect("the winner's move")].m,
                None => best_moves(tables, pos)[0],
            }
        } else {
            defence(tables, pos, defend, random)
        })
    });
    let End::Referee(outcome) = end else {
        unreachable!("only the referee ends these games")
    };
    assert_eq!(outcome.result.winner(), Some(winner), "{start}: {outcome}");
    (outcome, plies)
}

/// The tables' lines under the referee. From every 8th position of KRKN that the rules
/// decide, with either side to move, the winner plays the independent solver's strategy
/// while the position is won by the rules and the table's fastest mate once it is a
/// plain win; the loser plays, in turn, one of the table's best defences or any legal
/// move, at random. Every game ends as the table says by xq's own referee
/// (`Game::outcome`): a repetition ruled as the loser's perpetual check, or mate.
#[test]
fn the_referee_rules_the_tables_lines_as_the_tables_say() {
    let all = tables(&["KRK", "KNK", "KRKN"]);
    let (table, subs) = all.split_last().unwrap();
    let subs: Vec<&Table> = subs.iter().collect();
    let game = Game::new(
        table,
        &subs,
        positions(PieceKind::Chariot, PieceKind::Horse),
    );
    let mut random = xorshift(0x9e37_79b9_7f4a_7c15);
    let (mut games, mut by_check, mut by_mate, mut longest) = (0, 0, 0, 0);
    for winner in Color::ALL {
        let (won, strategy) = game.solve_with_strategy(winner);
        let decided = game.positions.iter().enumerate().filter(|&(v, _)| won[v]);
        for (_, start) in decided.step_by(8) {
            // Every other game the loser defends as the table does (any of its best
            // moves), else it plays any legal move.
            let line = (won.as_slice(), strategy.as_slice());
            let (outcome, plies) = play_out(
                &game,
                &all,
                winner,
                line,
                start,
                games % 2 == 0,
                &mut random,
            );
            // Defending as the table does, the loser is never mated: the referee ends
            // the game at the repetition.
            if games % 2 == 0 {
                assert!(
                    matches!(outcome.termination, Termination::PerpetualCheck { .. }),
                    "{start}: {outcome}"
                );
            }
            match outcome.termination {
                Termination::PerpetualCheck { by } => {
                    assert_eq!(by, !winner);
                    by_check += 1;
                }
                Termination::Checkmate | Termination::Stalemate => by_mate += 1,
                other => panic!("{start}: ended by {other:?}"),
            }
            games += 1;
            longest = longest.max(plies);
        }
    }
    // 3,194 positions decided, all won by the chariot: 400 games, half of them with the
    // table's defence.
    assert_eq!(games, 400);
    assert_eq!(by_check + by_mate, 400);
    assert!(
        by_check >= 200 && by_mate > 0,
        "{by_check} by the rule, {by_mate} by mate"
    );
    assert!(longest < 100, "{longest} plies");
    // The local check of `common::local` (for endings too large for this solver) on the
    // same positions: the region of all 3,194 positions is the table's, solved again on
    // its own equal to it, and its strategy wins every 16th against the table's defence
    // by the horse's perpetual check.
    let starts: Vec<Position> = game
        .positions
        .iter()
        .filter(|p| table.probe(p).unwrap().by_rule())
        .cloned()
        .collect();
    assert_eq!(starts.len(), 3194);
    let region = Region::new(&all, Color::Red, &starts, usize::MAX).unwrap();
    assert_eq!(region.positions(), 3194);
    let (strategy, by_check) = region.check();
    assert_eq!(by_check, 3194);
    for start in starts.iter().step_by(16) {
        let (end, _) = region.play_out(&all, &strategy, start, true, &mut random);
        match end {
            End::Referee(o) => assert_eq!(
                o.termination,
                Termination::PerpetualCheck { by: Color::Black },
                "{start}"
            ),
            other => panic!("{start}: {other:?}"),
        }
    }
}

#[test]
fn a_chariot_against_a_horse_by_the_rule() {
    let (draws, counts) = check_against_the_solver(PieceKind::Chariot, PieceKind::Horse);
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
    let check = Some(Rule::PerpetualCheck);
    assert_eq!(
        all[2].probe(&pos),
        Some(TableValue::RuleWin { rule: check })
    );
    assert_eq!(
        all[2].probe(&pos.color_flipped()),
        Some(TableValue::RuleWin { rule: check })
    );
    let pos = Position::from_fen("9/9/4k4/9/9/9/9/3n5/9/R2K5 b").unwrap();
    assert_eq!(
        all[2].probe(&pos),
        Some(TableValue::RuleLoss { rule: check })
    );
    assert_eq!(all[2].chase_decided(), Some(0));
}

#[test]
fn a_chariot_against_a_cannon_by_the_rule() {
    // The rule decides nothing here: the cannon's side never has to check forever.
    let (draws, counts) = check_against_the_solver(PieceKind::Chariot, PieceKind::Cannon);
    assert_eq!(draws, 14796);
    assert_eq!(counts, [[0, 0], [0, 0]]);
}

#[test]
fn a_horse_against_a_horse_by_the_rules() {
    // Each side's horse must chase the other somewhere, but no chase is forced for good:
    // the rules decide none of the draws, and the solver agrees.
    let (draws, counts) = check_against_the_solver(PieceKind::Horse, PieceKind::Horse);
    assert_eq!(draws, 736_018);
    assert_eq!(counts, [[0, 0], [0, 0]]);
}

#[test]
fn rule_tables_are_files_of_version_5_with_one_byte_values() {
    let all = tables(&["KRK", "KNK", "KRKN"]);
    let dir = std::env::temp_dir().join(format!("xq-tb-rule-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for t in &all {
        write_table(t, &dir.join(t.ending().file_name()), 2).unwrap();
    }
    let version = |name: &str| {
        let b = std::fs::read(dir.join(name)).unwrap();
        u16::from_le_bytes([b[8], b[9]])
    };
    assert_eq!(FORMAT_VERSION, 5);
    assert_eq!(version("KRK.xqtb"), 5);
    assert_eq!(version("KRKN.xqtb"), 5);
    // The rules' results fit in one byte a value beside mates of up to 26 plies.
    assert_eq!(std::fs::read(dir.join("KRKN.xqtb")).unwrap()[10], 1);
    let tb = Tablebases::open(&dir).unwrap();
    assert_eq!(
        xq_tablebase::verify_file(&dir, &"KRKN".parse().unwrap(), 2, &|_| {}).unwrap(),
        all[2].stats().positions()
    );
    // The files answer as the table in memory, for every position of both colourings.
    let mut rule = 0;
    for pos in positions(PieceKind::Chariot, PieceKind::Horse)
        .into_iter()
        .step_by(7)
    {
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

/// The first ending where the perpetual-chase rule decides positions: a chariot and two
/// advisors against a cannon. The independent solver agrees with the table on every
/// position drawn without the rules, unfolded; and from every position it says the
/// rules decide, the winner's strategy against the table's best defence (or any legal
/// move, every other game) ends in the winner's win under xq's referee, by the loser's
/// perpetual chase where the loser defends as the table does.
#[test]
fn a_chariot_and_two_advisors_against_a_cannon_by_the_chase_rule() {
    let plan = Ending::plan(&["KRAAKC".parse().unwrap()], None);
    let names: Vec<String> = plan.iter().map(|e| e.to_string()).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let all = tables(&names);
    let (table, subs) = all.split_last().unwrap();
    assert_eq!(table.ending().to_string(), "KRAAKC");
    let subs: Vec<&Table> = subs.iter().collect();
    assert_eq!(table.chase_decided(), Some(180));
    assert_eq!(table.rule_decided(), 180);
    let drawn = ending_positions("KRAAKC", |p| {
        table
            .probe(p)
            .is_some_and(|v| v == TableValue::Draw || v.by_rule())
    });
    let game = Game::new(table, &subs, drawn);
    let mut random = xorshift(0x2545_f491_4f6c_dd1d);
    let (mut decided, mut games, mut by_chase, mut by_mate) = (0, 0, 0, 0);
    for winner in Color::ALL {
        let (won, strategy) = game.solve_with_strategy(winner);
        let by_check = game.solve_by_check(winner);
        for (v, start) in game.positions.iter().enumerate() {
            let value = table.probe(start).unwrap();
            let expected = won[v].then(|| rule_value(start.side_to_move() == winner, by_check[v]));
            if let Some(expected) = expected {
                assert_eq!(value, expected, "{start}");
            } else if value.by_rule() {
                // Decided, but for the other winner: checked in its turn.
                continue;
            } else {
                assert_eq!(value, TableValue::Draw, "{start}");
            }
            if !won[v] {
                continue;
            }
            decided += 1;
            let line = (won.as_slice(), strategy.as_slice());
            let (outcome, _) = play_out(
                &game,
                &all,
                winner,
                line,
                start,
                games % 2 == 0,
                &mut random,
            );
            match outcome.termination {
                Termination::PerpetualChase { by, .. } => {
                    assert_eq!(by, !winner, "{start}");
                    by_chase += 1;
                }
                Termination::Checkmate | Termination::Stalemate => {
                    assert!(games % 2 == 1, "{start}: the table's defence was mated");
                    by_mate += 1;
                }
                other => panic!("{start}: ended by {other:?}"),
            }
            games += 1;
        }
    }
    // Every position the table decides by the rules, the solver decides: 180 numbers of
    // the table, 360 positions unfolded (each and its mirror image).
    let by_rule = game.positions.iter();
    let by_rule = by_rule
        .filter(|p| table.probe(p).unwrap().by_rule())
        .count();
    assert_eq!((decided, by_rule), (360, 360));
    // Defending as the table does, the loser is never mated: the referee ends the game at
    // the repetition, as the cannon's perpetual chase.
    assert_eq!((games, by_chase, by_mate), (360, 180, 180));
    // The local check of `common::local` agrees: the region of each winner's positions is
    // those positions, solved again to the table's values and rule, and its strategy
    // against the table's defence ends every game in the cannon's perpetual chase.
    let mut local = 0;
    for winner in Color::ALL {
        let starts: Vec<Position> = game
            .positions
            .iter()
            .filter(|p| {
                let v = table.probe(p).unwrap();
                v.by_rule() && (v.result() == TableResult::Win) == (p.side_to_move() == winner)
            })
            .cloned()
            .collect();
        if starts.is_empty() {
            continue;
        }
        let region = Region::new(&all, winner, &starts, usize::MAX).unwrap();
        assert_eq!(region.positions(), starts.len());
        let (strategy, by_check) = region.check();
        assert_eq!(by_check, 0);
        for start in &starts {
            match region.play_out(&all, &strategy, start, true, &mut random).0 {
                End::Referee(o) => {
                    assert!(
                        matches!(o.termination, Termination::PerpetualChase { by, .. } if by == !winner),
                        "{start}: {o}"
                    );
                    local += 1;
                }
                other => panic!("{start}: {other:?}"),
            }
        }
    }
    assert_eq!(local, 360);
    // The file says which rule: the chase rule, in words and in the value.
    let dir = std::env::temp_dir().join(format!("xq-tb-chase-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    write_table(table, &dir.join(table.ending().file_name()), 2).unwrap();
    let tb = Tablebases::open(&dir).unwrap();
    let pos = Position::from_fen("9/9/4k4/9/9/9/9/5A3/4AR3/2c1K4 b").unwrap();
    let v = tb.probe_dtm(&pos).unwrap().unwrap();
    assert_eq!(
        v,
        TableValue::RuleLoss {
            rule: Some(Rule::PerpetualChase)
        }
    );
    assert_eq!(
        v.describe(0),
        "tablebase loss by the perpetual-chase rule (only perpetual checks or chases avoid mate)"
    );
    let file = xq_tablebase::read_table(&dir.join("KRAAKC.xqtb")).unwrap();
    assert_eq!(file.chase_decided(), Some(180));
    // The row of the kept file, its blocks read one at a time, counts what the
    // generated table's row counts.
    let (stats, bytes) = tb.stats(&table.ending()).unwrap().unwrap();
    let kept = xq_tablebase::log::Record::kept_in(&dir, &stats, bytes).unwrap();
    let made = xq_tablebase::log::Record::generated(table, bytes);
    let counts = |r: &xq_tablebase::log::Record| (r.rule_decided, r.rule_wins, r.chase_decided);
    // 18 of the 180 won by the side to move, all by the chase rule.
    assert_eq!(counts(&made), (Some(180), Some(18), Some(180)));
    assert_eq!(counts(&kept), counts(&made));
    std::fs::remove_dir_all(&dir).unwrap();
}
