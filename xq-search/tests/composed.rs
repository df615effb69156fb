//! Composed positions no game reaches but that can be played (`Ignore::PLAYABLE`): the
//! search answers a legal move with a legal line, and finds the mate of a problem whose
//! soldiers stand behind their start.

use std::sync::atomic::AtomicBool;
use xq_core::{Ignore, Move};
use xq_movegen::{is_legal, Game};
use xq_search::{Limits, Score, Searcher};

fn game(fen: &str) -> Game {
    Game::from_fen_moves_with(fen, &[] as &[&str], Ignore::PLAYABLE)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn search(game: &Game, depth: u32) -> xq_search::SearchResult {
    let mut s = Searcher::new(16);
    s.search(game, &Limits::depth(depth), &AtomicBool::new(false), |_| {})
}

#[test]
fn the_search_plays_legal_moves_in_composed_positions() {
    for fen in [
        "3k1p3/4a4/3a5/9/2B3B2/9/P3P3P/9/4A2P1/3AK4 b",
        "4k4/9/4P4/2e3e2/9/A8/9/9/9/4K4 w",
        "3k5/9/9/9/9/9/9/9/9/3PKP3 w",
        "rnbakab1r/ppp1p4/9/9/9/9/9/9/4A4/4K4 b",
        "3k5/9/9/2r6/9/9/9/1P4c2/3A1B3/5K3 w",
    ] {
        let game = game(fen);
        let r = search(&game, 8);
        let best = r.best_move.unwrap_or_else(|| panic!("{fen}: no move"));
        assert!(is_legal(game.position(), best), "{fen}: {best}");
        assert_eq!(r.pv.first(), Some(&best), "{fen}");
        let mut pos = game.position().clone();
        for &m in &r.pv {
            assert!(is_legal(&pos, m), "{fen}: pv {:?}", r.pv);
            pos.make_move(m);
        }
    }
}

#[test]
fn the_search_mates_in_a_problem_with_soldiers_behind_their_start() {
    // Black's soldiers on d9 and f9 (its own back rank) wall its general in; the chariot
    // on a8 holds rank 8; the other one mates on the e-file.
    let game = game("3pkp3/R8/9/9/9/9/9/8R/9/5K3 w");
    let r = search(&game, 6);
    assert_eq!(r.score, Score::Mate(1));
    assert_eq!(r.best_move, Some("i2e2".parse::<Move>().unwrap()));
}

#[test]
fn the_search_goes_on_without_tables_where_they_cannot_index() {
    // The tables of xq-tablebase's tests: KPK has no number for a soldier on its own
    // back rank, so neither the root nor any node after a capture is in the tables.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../xq-tablebase/tests/data");
    let tb = std::sync::Arc::new(xq_tablebase::Tablebases::open(dir).unwrap());
    for fen in [
        "3k5/9/9/9/9/9/9/9/9/4KP3 w",
        "3k5/9/9/9/9/9/9/9/9/4KP3 b",
        // The chariot can take the elephant off its points: KRK is then in the tables.
        "3k5/9/9/b8/9/9/9/9/9/R3K4 w",
    ] {
        let game = game(fen);
        let mut s = Searcher::new(16);
        s.set_tablebases(Some(tb.clone()));
        let r = s.search(&game, &Limits::depth(6), &AtomicBool::new(false), |_| {});
        let best = r.best_move.unwrap_or_else(|| panic!("{fen}: no move"));
        assert!(is_legal(game.position(), best), "{fen}: {best}");
    }
}
