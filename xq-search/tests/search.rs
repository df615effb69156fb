//! Search correctness: exact minimax values, legal PVs, repetition rules, tactics, limits.

use std::sync::atomic::AtomicBool;
use xq_core::{Move, Position};
use xq_eval::Eval;
use xq_movegen::rules::{find_repetition, rule_cycle};
use xq_movegen::Game;
use xq_movegen::{is_legal, legal_moves};
use xq_search::score::{mate_in, mated_in, INFINITE};
use xq_search::{Limits, Score, SearchConfig, SearchParams, SearchResult, Searcher};

use xq_testkit::SUITE;

fn suite_fens() -> Vec<String> {
    SUITE
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(';').next().unwrap().trim().to_string())
        .collect()
}

fn game(fen: &str, moves: &str) -> Game {
    let mut g = Game::from_fen_moves(fen, &[] as &[&str]).unwrap();
    g.play_text(moves).unwrap();
    g
}

fn search(g: &Game, limits: Limits, config: SearchConfig) -> SearchResult {
    search_with(g, limits, config, Searcher::new(8))
}

/// Searches with the classical evaluation, the leaf evaluation of [`negamax`].
fn search_classical(g: &Game, limits: Limits, config: SearchConfig) -> SearchResult {
    let mut s = Searcher::new(8);
    s.set_network(None);
    search_with(g, limits, config, s)
}

fn search_with(g: &Game, limits: Limits, config: SearchConfig, mut s: Searcher) -> SearchResult {
    s.set_config(config);
    s.search(g, &limits, &AtomicBool::new(false), |info| {
        // Every reported line is legal from the root.
        let mut p = g.position().clone();
        for &m in &info.pv {
            assert!(
                is_legal(&p, m),
                "illegal {m} in PV {:?} of {}",
                info.pv,
                g.position()
            );
            p.make_move(m);
        }
    })
}

/// Plain negamax over the legal move tree, with the classical leaf evaluation, under the
/// whole rules but the 60-move rule (no position tested comes near it), move by move
/// through the referee's game record: a position that repeats one after `root` (or
/// occurs a third time) is ruled by its cycle, a perpetual check or chase losing like
/// being mated there. `rulings` counts the nodes a perpetual check or chase decided.
fn negamax(g: &mut Game, root: usize, depth: u32, ply: usize, rulings: &mut usize) -> i32 {
    if ply > 0 {
        let keys = g.keys();
        let n = keys.len() - 1;
        let reversible = (g.position().halfmove_clock() as usize).min(n);
        if let Some(first) = find_repetition(keys, reversible, Some(root)) {
            let start = g.position_at(first).unwrap();
            let cycle = rule_cycle(&start, &g.moves()[first..]).unwrap();
            let Some(winner) = cycle.winner() else {
                return 0;
            };
            *rulings += 1;
            return if winner == g.position().side_to_move() {
                mate_in(ply)
            } else {
                mated_in(ply)
            };
        }
    }
    let pos = g.position().clone();
    if depth == 0 {
        return xq_eval::evaluate_full(&pos, &Eval::new(&pos));
    }
    let moves = legal_moves(&pos);
    if moves.is_empty() {
        return mated_in(ply);
    }
    let mut best = -INFINITE;
    for m in moves {
        g.play(m).unwrap();
        best = best.max(-negamax(g, root, depth - 1, ply + 1, rulings));
        g.pop();
    }
    best
}

#[test]
fn alpha_beta_returns_the_minimax_value() {
    let mut compared = 0;
    for (i, fen) in suite_fens().iter().enumerate() {
        let g = game(fen, "");
        if legal_moves(g.position()).is_empty() {
            continue;
        }
        let max = if i < 12 { 3 } else { 2 };
        for depth in 1..=max {
            let r = search_classical(&g, Limits::depth(depth), SearchConfig::plain());
            let expected = negamax(&mut g.clone(), 0, depth, 0, &mut 0);
            assert_eq!(r.value, expected, "depth {depth} of {fen}");
            compared += 1;
        }
    }
    assert!(compared > 100);
}

#[test]
fn alpha_beta_returns_the_minimax_value_deeper_and_under_the_rules() {
    // Four and five plies, where a side can go and come back inside the tree: from the
    // suite's positions with the fewest replies, and from games whose history makes the
    // next repetition a perpetual check or a perpetual chase.
    let mut games: Vec<(Game, u32)> = suite_fens()
        .iter()
        .map(|fen| game(fen, ""))
        .filter(|g| {
            let moves = legal_moves(g.position());
            !moves.is_empty() && moves.len() <= 12
        })
        .map(|g| (g, 4))
        .collect();
    assert!(games.len() >= 8, "{} sparse positions", games.len());
    let cycle = "h8h9 e9e8 h9h8 e8e9";
    let checks = game("4k4/7R1/9/9/r7r/9/9/9/9/3K5 w", &format!("{cycle} {cycle}"));
    let chase = "h6h7 b7c9 h7h9 c9b7 h9h7 b7c9 h7h9 c9b7";
    let chased = game("9/5k3/1n7/p6R1/9/9/8P/6r2/6r2/3K5 w", chase);
    let guarded = game("9/5k3/1n7/p6R1/9/9/8P/6r2/1r7/3K5 w", chase);
    for g in [checks, chased, guarded] {
        games.push((g.clone(), 4));
        games.push((g, 5));
    }
    let mut rulings = 0;
    for (g, depth) in &games {
        let r = search_classical(g, Limits::depth(*depth), SearchConfig::plain());
        let root = g.keys().len() - 1;
        let expected = negamax(&mut g.clone(), root, *depth, 0, &mut rulings);
        assert_eq!(
            r.value,
            expected,
            "depth {depth} of {} after {:?}",
            g.start(),
            g.moves()
        );
    }
    // The rules decided nodes of the trees, not only the leaves' evaluation.
    assert!(rulings >= 4, "{rulings}");
}

#[test]
fn plain_values_do_not_depend_on_what_the_table_holds() {
    // Alpha-beta's value does not depend on the move order, so a plain search gives the
    // same value from an empty table as after a deeper search of the same position has
    // filled the table and the histories with other moves to try first. A plain search
    // that still pruned or reduced by what the table holds would differ here: with
    // internal iterative reduction on (a node with no move from the table searched a ply
    // shallower), the network's search of the suite's 2bk4C/... at depth 7 gives -3959
    // from an empty table and -3940 after the deeper search. Six and seven plies
    // from the suite's positions with the fewest replies, where such nodes are deep
    // enough to be reduced, with the network (the engine's move order) and without.
    let mut compared = 0;
    for fen in suite_fens() {
        let g = game(&fen, "");
        let moves = legal_moves(g.position()).len();
        if moves == 0 || moves > 12 {
            continue;
        }
        for depth in [6, 7] {
            for network in [true, false] {
                let fresh = || {
                    let mut s = Searcher::new(8);
                    if !network {
                        s.set_network(None);
                    }
                    s.set_config(SearchConfig::plain());
                    s
                };
                let stop = AtomicBool::new(false);
                let cold = fresh().search(&g, &Limits::depth(depth), &stop, |_| {});
                let mut warm = fresh();
                warm.search(&g, &Limits::depth(depth + 1), &stop, |_| {});
                let again = warm.search(&g, &Limits::depth(depth), &stop, |_| {});
                assert_eq!(
                    cold.value, again.value,
                    "depth {depth} of {fen}, network {network}"
                );
                compared += 1;
            }
        }
    }
    assert!(compared >= 48, "{compared}");
}

#[test]
fn full_search_finds_the_same_mates_as_minimax() {
    // With every pruning on, a forced mate within the horizon is still found exactly.
    // The chariot mates on e9, guarded by its general along the open file.
    let g = game("3k5/R8/9/9/9/9/9/9/4R4/4K4 w", "");
    let r = search(&g, Limits::depth(4), SearchConfig::default());
    assert_eq!(r.score, Score::Mate(1));
    assert_eq!(r.best_move, Some("e1e9".parse().unwrap()));
    let plain = search(&g, Limits::depth(3), SearchConfig::plain());
    assert_eq!(plain.value, r.value);
}

#[test]
fn simple_repetition_is_a_draw() {
    // Black is a chariot up. Red's chariot and Black's shuffled twice without checks;
    // Red can now bring about the third occurrence of the position after its first
    // move: a draw, which Red takes.
    let g = game(
        "4k4/9/9/9/r7r/9/9/9/9/3K3R1 w",
        "h0h1 a5a6 h1h0 a6a5 h0h1 a5a6 h1h0 a6a5",
    );
    let r = search(&g, Limits::depth(3), SearchConfig::default());
    assert_eq!(r.best_move, Some("h0h1".parse().unwrap()));
    assert_eq!(r.score, Score::Cp(0));
    // Without the history the same position is lost for Red.
    let fresh = game("4k4/9/9/9/r7r/9/9/9/9/3K3R1 w", "");
    assert!(search(&fresh, Limits::depth(3), SearchConfig::default()).value < -500);
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    use xq_core::Color;
    use xq_movegen::{GameResult, Outcome, Termination};
    // Red checked with every move of the cycle (h8h9+, h9h8+) while Black only stepped
    // aside, twice round: checking again brings the third occurrence, which loses for
    // Red, so Red must not, lost as it is.
    let cycle = "h8h9 e9e8 h9h8 e8e9";
    let g = game("4k4/7R1/9/9/r7r/9/9/9/9/3K5 w", &format!("{cycle} {cycle}"));
    assert!(g.checks()[1] && !g.checks()[2] && g.checks()[3] && !g.checks()[4]);
    let r = search(&g, Limits::depth(3), SearchConfig::default());
    assert_ne!(r.best_move, Some("h8h9".parse().unwrap()));
    assert!(r.value < -500, "{:?}", r.score);
    // The referee agrees: after h8h9 Black, to move, wins by rule.
    let mut after = g.clone();
    after.play("h8h9".parse().unwrap()).unwrap();
    assert_eq!(
        after.outcome(),
        Some(Outcome {
            result: GameResult::BlackWins,
            termination: Termination::PerpetualCheck { by: Color::Red }
        })
    );
    // Once round only, the second occurrence decides nothing yet: Red may check again.
    let once = game("4k4/7R1/9/9/r7r/9/9/9/9/3K5 w", &format!("{cycle} h8h9"));
    assert_eq!(once.outcome(), None);
}

#[test]
fn sixty_move_rule_is_a_draw() {
    // Red is a chariot up, but 119 plies have passed without a capture: any quiet move
    // draws, so the score is 0 (nothing can be captured, no mate in one).
    let g = game("5k3/9/9/9/9/9/9/9/9/R2K5 w - - 119 80", "");
    let r = search(&g, Limits::depth(3), SearchConfig::default());
    assert_eq!(r.score, Score::Cp(0));
    // A mate on the 120th ply still wins: a side with no legal move has lost before the
    // rule is applied (the referee's order). Here i0d0 mates and i0i8 stalemates (the
    // flying general guards e9), both wins.
    let mut g = game("3k5/9/9/9/9/9/9/9/9/4K3R w - - 119 80", "");
    let r = search(&g, Limits::depth(3), SearchConfig::default());
    assert_eq!(r.score, Score::Mate(1));
    g.play(r.best_move.unwrap()).unwrap();
    assert!(legal_moves(g.position()).is_empty());
}

#[test]
fn wins_a_hanging_chariot() {
    // Black's chariot strayed to a1, next to Red's chariot and unprotected.
    let g = game(
        "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/r8/RNBAKABNR w",
        "",
    );
    let r = search(&g, Limits::depth(4), SearchConfig::default());
    assert_eq!(r.best_move, Some("a0a1".parse().unwrap()));
    assert!(r.value > 700);
}

/// Can the side to move force mate within `n` moves? xq-testkit's exhaustive prover.
fn mates_within(pos: &mut Position, n: u32) -> bool {
    xq_testkit::mate::shortest_mate(pos, n).is_some()
}

/// After 卒8进1 (h2h1) here Red mates in two starting with a quiet horse move (c9d7).
/// Black has nothing left but its general and a soldier, and reverse futility pruning at
/// Black's nodes, trusting Black's static evaluation, hid the mate until depth 8 (issue
/// 48, docs/search-experiments.md). A side with no chariot, horse or cannon is no longer
/// pruned that way (`rfp_min_majors`).
const RFP_HID_A_QUIET_MATE: &str = "2N2k3/9/9/9/2P6/6B2/4P4/7p1/9/2BAK1R2 b - - 15 53";

#[test]
fn reverse_futility_does_not_hide_a_quiet_mate_against_a_side_without_attackers() {
    let g = game(RFP_HID_A_QUIET_MATE, "h2h1");
    let r = search(&g, Limits::depth(5), SearchConfig::default());
    assert_eq!(r.score, Score::Mate(2));
    assert_eq!(r.best_move, Some("c9d7".parse().unwrap()));
    // With the pruning back at such nodes the mate is missed again at depth 5: the test
    // above checks the fix, not luck.
    let mut params = SearchParams::default();
    params.set("rfp_min_majors", 0).unwrap();
    let mut s = Searcher::new(8);
    s.set_params(params);
    let r = search_with(&g, Limits::depth(5), SearchConfig::default(), s);
    assert_ne!(r.score, Score::Mate(2));
}

#[test]
fn escapes_two_move_mates() {
    // Take the suite's mates in two and give the move to the defender instead: the
    // mate is threatened, and the engine must choose a move after which the attacker
    // has no mate in two (checked exhaustively, without search code). At depth 5 with
    // round 38's network, Black played h2h1 in RFP_HID_A_QUIET_MATE, after which Red
    // mates with the quiet c9d7, while razoring cut the mate off below it at nodes whose
    // alpha was decisive (now razoring stops there, as quiet pruning does).
    let mut tried = 0;
    for line in include_str!("../../data/mates.epd").lines() {
        if !line.contains(";mate 2") {
            continue;
        }
        let fen = line.split(';').next().unwrap().trim();
        let flipped = if fen.contains(" w ") {
            fen.replace(" w ", " b ")
        } else {
            fen.replace(" b ", " w ")
        };
        let Ok(mut pos) = Position::from_fen(&flipped) else {
            continue;
        };
        let mut threat = pos.clone();
        threat.make_null();
        if !mates_within(&mut threat, 2) {
            continue;
        }
        let moves = legal_moves(&pos);
        let escapes = moves
            .iter()
            .filter(|&&m| {
                let u = pos.make_move(m);
                let ok = !mates_within(&mut pos, 2);
                pos.unmake_move(m, u);
                ok
            })
            .count();
        if escapes == 0 || escapes == moves.len() {
            continue;
        }
        tried += 1;
        let r = search(
            &game(&flipped, ""),
            Limits::depth(5),
            SearchConfig::default(),
        );
        let m = r.best_move.unwrap();
        pos.make_move(m);
        assert!(
            !mates_within(&mut pos, 2),
            "{m} allows mate in two in {flipped}"
        );
    }
    assert!(tried >= 3, "only {tried} positions with a real choice");
}

#[test]
fn always_returns_a_legal_move() {
    // Stopped before it starts: still a legal move, and a searched one: the first
    // iteration always finishes.
    let g = game(xq_core::START_FEN, "");
    let mut s = Searcher::new(1);
    let mut reported = Vec::new();
    let r = s.search(&g, &Limits::depth(10), &AtomicBool::new(true), |i| {
        reported.push(i.depth)
    });
    assert!(is_legal(g.position(), r.best_move.unwrap()));
    assert_eq!((r.depth, reported), (1, vec![1]));
    assert_eq!(r.pv.first(), r.best_move.as_ref());
    // A tiny node budget, down to one node: depth 1 all the same, the same move (one
    // node gave e0e1 before, the first legal move, unsearched).
    for n in [1, 50] {
        let tiny = search(&g, Limits::nodes(n), SearchConfig::default());
        assert!(is_legal(g.position(), tiny.best_move.unwrap()));
        assert_eq!((tiny.depth, tiny.best_move), (1, r.best_move), "{n} nodes");
        assert!(tiny.nodes > 1, "{n} nodes");
    }
    // Depth 0 is read as 1 (it gave the first legal move, unsearched, at depth 0).
    let zero = search(&g, Limits::depth(0), SearchConfig::default());
    assert_eq!((zero.depth, zero.best_move), (1, r.best_move));
    // No legal move: none, and the side to move has lost.
    let mated = game("R3k4/1R7/9/9/9/9/9/9/9/3K5 b", "");
    let r = search(&mated, Limits::depth(3), SearchConfig::default());
    assert_eq!((r.best_move, r.score), (None, Score::Mate(0)));
    // Banned and restricted root moves are honoured.
    let h2e2: Move = "h2e2".parse().unwrap();
    let only = Limits {
        depth: Some(3),
        root_moves: vec![h2e2],
        ..Limits::default()
    };
    assert_eq!(
        search(&g, only, SearchConfig::default()).best_move,
        Some(h2e2)
    );
    let banned = Limits {
        depth: Some(3),
        banned_moves: legal_moves(g.position())
            .iter()
            .copied()
            .filter(|&m| m != h2e2)
            .collect(),
        ..Limits::default()
    };
    assert_eq!(
        search(&g, banned, SearchConfig::default()).best_move,
        Some(h2e2)
    );
}

#[test]
fn deterministic_node_counts_and_multipv_order() {
    let g = game(xq_core::START_FEN, "h2e2 h9g7");
    let a = search(&g, Limits::depth(5), SearchConfig::default());
    let b = search(&g, Limits::depth(5), SearchConfig::default());
    assert_eq!(
        (a.nodes, a.best_move, a.value),
        (b.nodes, b.best_move, b.value)
    );

    let mut s = Searcher::new(8);
    s.set_multipv(3);
    let mut last = Vec::new();
    s.search(&g, &Limits::depth(4), &AtomicBool::new(false), |info| {
        if info.multipv == 1 {
            last.clear();
        }
        last.push((info.multipv, info.value, info.pv[0]));
    });
    assert_eq!(last.len(), 3);
    assert!(last[0].1 >= last[1].1 && last[1].1 >= last[2].1, "{last:?}");
    assert!(last[0].2 != last[1].2 && last[1].2 != last[2].2 && last[0].2 != last[2].2);
}

/// With MultiPV the lines are reported best first, and the result is the first of them:
/// a later line that comes out better than the first one searched (the first had the
/// whole root, but a search is not exact) leads the report and is the best move.
#[test]
fn multipv_best_move_is_the_first_reported_line() {
    let mut checked = 0;
    for fen in suite_fens().iter().take(25) {
        let g = game(fen, "");
        if legal_moves(g.position()).len() < 3 {
            continue;
        }
        for depth in 2..=5 {
            let mut s = Searcher::new(8);
            s.set_multipv(3);
            let mut last = Vec::new();
            let result = s.search(&g, &Limits::depth(depth), &AtomicBool::new(false), |info| {
                if info.multipv == 1 {
                    last.clear();
                }
                last.push((info.value, info.pv.clone()));
            });
            assert_eq!(last.len(), 3, "{fen} depth {depth}");
            assert_eq!(
                result.best_move,
                Some(last[0].1[0]),
                "{fen} depth {depth}: {last:?}"
            );
            assert_eq!(
                (result.value, &result.pv),
                (last[0].0, &last[0].1),
                "{fen} depth {depth}"
            );
            checked += 1;
        }
    }
    assert!(checked > 60, "{checked}");
}
