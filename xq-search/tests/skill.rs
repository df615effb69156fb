//! Playing levels through the engine: every level plays a legal move everywhere, a seed
//! fixes the move, a level searches within its limits, and full strength is the plain
//! search.

use xq_movegen::{count_legal, is_legal, Game};
use xq_search::engine::{Engine, Options};
use xq_search::skill::{Skill, MAX_LEVEL};
use xq_search::{Limits, SearchResult, Searcher};

/// (name, FEN, moves, legal moves at the end).
const POSITIONS: &[(&str, &str, &str, usize)] = &[
    ("start", xq_core::START_FEN, "", 44),
    (
        "middlegame",
        xq_core::START_FEN,
        "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 h7i7 h0h4 c6c5",
        46,
    ),
    ("endgame", "3k5/9/4P4/9/9/2B6/9/4B4/4A4/3AK4 w", "", 11),
    ("in check", "5k3/9/9/9/9/9/9/9/3r5/3K5 w", "", 2),
    ("one legal move", "5k3/9/9/9/9/9/9/9/r8/3K5 w", "", 1),
];

fn game(fen: &str, moves: &str) -> Game {
    let mut g = Game::from_fen_moves(fen, &[] as &[&str]).unwrap();
    g.play_text(moves).unwrap();
    g
}

/// An engine at `level` with a small table, on `g`, seeded with `seed`.
fn engine(level: u8, g: &Game, seed: u64) -> Engine {
    let mut e = Engine::new(Options {
        hash_mib: 4,
        skill: Skill::new(level),
        ..Options::default()
    });
    e.set_game(g.clone());
    e.set_seed(seed);
    e
}

fn play(e: &mut Engine, limits: Limits) -> SearchResult {
    e.search(limits, |_| true)
}

#[test]
fn every_level_plays_a_legal_move_everywhere() {
    for &(name, fen, moves, legal) in POSITIONS {
        let g = game(fen, moves);
        assert_eq!(count_legal(g.position()), legal, "{name}");
        // One engine through all levels, as a GUI changes its level.
        let mut e = engine(0, &g, 1);
        for level in 0..=MAX_LEVEL {
            e.set_options(Options {
                skill: Skill::new(level),
                ..e.options().clone()
            })
            .unwrap();
            // Full strength has no limit of its own: give it one.
            let r = play(&mut e, Limits::nodes(20_000));
            let m = r
                .best_move
                .unwrap_or_else(|| panic!("{name} level {level}: no move"));
            assert!(is_legal(g.position(), m), "{name} level {level}: {m}");
            assert_eq!(r.pv.first(), Some(&m), "{name} level {level}");
            if let Some(p) = r.ponder {
                let mut after = g.position().clone();
                after.make_move(m);
                assert!(is_legal(&after, p), "{name} level {level}: ponder {p}");
            }
        }
    }
}

#[test]
fn the_same_seed_plays_the_same_move() {
    for &(name, fen, moves, _) in POSITIONS {
        let g = game(fen, moves);
        for level in [0, 4, 8, 12] {
            let best = |seed| play(&mut engine(level, &g, seed), Limits::default()).best_move;
            assert_eq!(best(7), best(7), "{name} level {level}");
        }
    }
}

#[test]
fn low_levels_vary_with_the_seed_in_the_opening() {
    let g = Game::startpos();
    let mut moves = std::collections::BTreeSet::new();
    for seed in 0..12 {
        let r = play(&mut engine(0, &g, seed), Limits::default());
        moves.insert(r.best_move.unwrap());
    }
    assert!(moves.len() > 1, "level 0 always plays {moves:?}");
}

#[test]
fn full_strength_is_the_plain_search() {
    let stop = std::sync::atomic::AtomicBool::new(false);
    for &(name, fen, moves, _) in POSITIONS {
        let g = game(fen, moves);
        let limits = Limits::depth(5);
        let plain = Searcher::new(4).search(&g, &limits, &stop, |_| {});
        let full = play(&mut engine(MAX_LEVEL, &g, 99), limits);
        assert_eq!(full.best_move, plain.best_move, "{name}");
        assert_eq!(full.pv, plain.pv, "{name}");
        assert_eq!(full.nodes, plain.nodes, "{name}");
        assert_eq!(full.score, plain.score, "{name}");
    }
}

#[test]
fn a_level_searches_within_its_limits() {
    let g = Game::startpos();
    for level in [0u8, 3, 9] {
        let skill = Skill::new(level);
        let r = play(&mut engine(level, &g, 1), Limits::default());
        assert!(
            r.depth <= skill.depth().unwrap(),
            "level {level}: depth {}",
            r.depth
        );
        // The node limit is checked at every node: a few nodes past it at most.
        assert!(
            r.nodes <= skill.nodes().unwrap() + 64,
            "level {level}: {}",
            r.nodes
        );
    }
}

#[test]
fn an_elo_plays_its_level() {
    let g = Game::startpos();
    let at_elo = |elo| {
        let mut e = engine(MAX_LEVEL, &g, 5);
        e.set_options(Options {
            limit_strength: true,
            elo,
            ..e.options().clone()
        })
        .unwrap();
        play(&mut e, Limits::default())
    };
    let level = Skill::new(6);
    let r = at_elo(level.elo());
    assert_eq!(
        r.best_move,
        play(&mut engine(6, &g, 5), Limits::default()).best_move
    );
    assert!(r.depth <= level.depth().unwrap());
}
