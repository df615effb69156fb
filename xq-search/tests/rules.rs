//! The whole repetition rules inside the search: perpetual chase loses, like perpetual
//! check, whether the engine would complete the cycle or its opponent would.

use std::sync::atomic::AtomicBool;
use xq_core::Move;
use xq_movegen::{Game, GameResult, Outcome, Termination};
use xq_search::{Limits, Score, SearchResult, Searcher};

fn game(fen: &str, moves: &str) -> Game {
    let moves: Vec<&str> = moves.split_whitespace().collect();
    Game::from_fen_moves(fen, &moves).unwrap()
}

fn search(g: &Game, limits: Limits) -> SearchResult {
    Searcher::new(8).search(g, &limits, &AtomicBool::new(false), |_| {})
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

/// Red's chariot has followed Black's horse b7 <-> c9 twice round, attacking it with every
/// move; Black is two chariots up (on g1 and g2, out of the way). `protector` is where a
/// third black piece stands: a black chariot on b1 guards the horse on b7, so Red's
/// attacks there are no chase.
const CHASED: &str = "9/5k3/1n7/p6R1/9/9/8P/6r2/6r2/3K5 w";
const GUARDED: &str = "9/5k3/1n7/p6R1/9/9/8P/6r2/1r7/3K5 w";
const CYCLE: &str = "h6h7 b7c9 h7h9 c9b7 h9h7 b7c9 h7h9 c9b7";

#[test]
fn the_cycles_are_what_the_tests_say() {
    // Completing the cycle once more is a perpetual chase by Red with the horse
    // unprotected, a plain repetition with it guarded.
    let mut chased = game(CHASED, CYCLE);
    chased.play(mv("h9h7")).unwrap();
    assert_eq!(
        chased.outcome(),
        Some(Outcome {
            result: GameResult::BlackWins,
            termination: Termination::PerpetualChase {
                by: xq_core::Color::Red,
                piece: xq_core::Piece::from_char('n').unwrap(),
                square: xq_core::Square::B7,
            },
        })
    );
    let mut guarded = game(GUARDED, CYCLE);
    guarded.play(mv("h9h7")).unwrap();
    assert_eq!(
        guarded.outcome().map(|o| o.termination),
        Some(Termination::Repetition)
    );
}

#[test]
fn the_engine_does_not_chase_forever() {
    // Red is lost on material; repeating the chase once more would draw under the check
    // rule alone, but it is a perpetual chase: Red must deviate and stays lost.
    let r = search(&game(CHASED, CYCLE), Limits::depth(3));
    assert_ne!(r.best_move, Some(mv("h9h7")));
    assert!(r.value < -500, "{:?}", r.score);
    // With the horse guarded the repetition is a draw, and Red takes it.
    let r = search(&game(GUARDED, CYCLE), Limits::depth(3));
    assert_eq!(r.best_move, Some(mv("h9h7")));
    assert_eq!(r.score, Score::Cp(0));
}

#[test]
fn the_engine_sees_that_its_opponent_must_deviate() {
    // One ply earlier, Black to move: after c9b7 Red's only drawing continuation is
    // h9h7, the forbidden chase, so c9b7 wins for Black. With the horse guarded on b7
    // the same move lets Red draw.
    let history = "h6h7 b7c9 h7h9 c9b7 h9h7 b7c9 h7h9";
    let only = |g: &Game| {
        let limits = Limits {
            root_moves: vec![mv("c9b7")],
            ..Limits::depth(3)
        };
        search(g, limits)
    };
    let r = only(&game(CHASED, history));
    assert!(r.value > 500, "{:?}", r.score);
    let r = only(&game(GUARDED, history));
    assert_eq!(r.score, Score::Cp(0));
}
