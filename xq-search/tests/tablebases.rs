//! The search against the endgame tables: a table mate in N is a search mate in N, the
//! search never proves the opposite of a table's result, and with the tables loaded the
//! search plays the fastest mate and takes table results after captures.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use xq_core::Position;
use xq_movegen::Game;
use xq_search::score::{is_mate, TB_WIN};
use xq_search::{Limits, Score, SearchConfig, Searcher};
use xq_tablebase::{generate, write_table, write_wdl, Ending, Rule, Table, TableValue, Tablebases};

fn tables(names: &[&str]) -> Vec<Table> {
    let mut done: Vec<Table> = Vec::new();
    for name in names {
        let e: Ending = name.parse().unwrap();
        let subs: Vec<&Table> = done.iter().collect();
        let t = generate(&e, &subs, 2, &|_| {}).unwrap();
        done.push(t);
    }
    done
}

/// Random legal positions with the pieces of `red` and `black` (FEN letters).
fn random_positions(red: &str, black: &str, n: usize, seed: u64) -> Vec<Position> {
    let mut rng = xq_core::SplitMix64::new(seed);
    let pieces = format!("{red}{black}");
    std::iter::from_fn(|| Some(xq_testkit::random_position(&pieces, &mut rng)))
        .flatten()
        .take(n)
        .collect()
}

fn search(searcher: &mut Searcher, pos: &Position, depth: u32) -> xq_search::SearchResult {
    searcher.new_game();
    let game = Game::new(pos.clone());
    searcher.search(
        &game,
        &Limits::depth(depth),
        &AtomicBool::new(false),
        |_| {},
    )
}

#[test]
fn table_mates_are_search_mates() {
    let all = tables(&["KRK", "KRKA", "KNK", "KPK"]);
    // Plain alpha-beta (no pruning, no reductions): exhaustive to its depth.
    let mut searcher = Searcher::new(16);
    searcher.set_config(SearchConfig::plain());
    let mut mates = 0;
    let mut checked = 0;
    for (table, red, black) in [(1, "KR", "KA"), (2, "KN", "K"), (3, "KP", "K")] {
        let table = &all[table];
        for pos in random_positions(red, black, 40, 11) {
            let value = table.probe(&pos).expect("in the table");
            let plies = value.plies().unwrap_or(0);
            if value == (TableValue::Loss { plies: 0 }) {
                continue;
            }
            let short = plies <= 7 && value != TableValue::Draw;
            let depth = if short { plies as u32 + 2 } else { 5 };
            let result = search(&mut searcher, &pos, depth);
            checked += 1;
            match value {
                // Within reach: the same mate.
                TableValue::Win { plies } if short => {
                    assert_eq!(result.score, Score::Mate((plies as i32 + 1) / 2), "{pos}");
                    mates += 1;
                }
                TableValue::Loss { plies } if short => {
                    assert_eq!(result.score, Score::Mate(-(plies as i32) / 2), "{pos}");
                    mates += 1;
                }
                // Beyond: never the opposite result.
                TableValue::Win { .. } => assert!(result.value > -TB_WIN + 200, "{pos}"),
                TableValue::Loss { .. } => assert!(result.value < TB_WIN - 200, "{pos}"),
                TableValue::Draw => assert!(!is_mate(result.value), "{pos}"),
                TableValue::RuleWin { .. } | TableValue::RuleLoss { .. } => {
                    unreachable!("one side attacks")
                }
            }
        }
    }
    assert_eq!(checked, 119);
    assert_eq!(mates, 64);
}

fn load(names: &[&str], tag: &str) -> (Arc<Tablebases>, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("xq-search-tb-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for t in tables(names) {
        write_table(&t, &dir.join(t.ending().file_name()), 2).unwrap();
    }
    (Arc::new(Tablebases::open(&dir).unwrap()), dir)
}

#[test]
fn with_tables_the_root_plays_the_fastest_mate() {
    let (tb, dir) = load(&["KRK", "KRKA", "KNK"], "root");
    let mut searcher = Searcher::new(16);
    searcher.set_tablebases(Some(tb.clone()));
    for pos in random_positions("KN", "K", 20, 5)
        .into_iter()
        .chain(random_positions("KR", "KA", 20, 6))
    {
        let moves = tb.root_moves(&pos).unwrap().unwrap();
        let Some(&(_, best)) = moves.first() else {
            continue;
        };
        let result = search(&mut searcher, &pos, 1);
        let played = moves
            .iter()
            .find(|(m, _)| Some(*m) == result.best_move)
            .unwrap()
            .1;
        assert_eq!(played, best, "{pos}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn with_tables_a_capture_into_the_set_is_scored_by_the_table() {
    let (tb, dir) = load(&["KNK"], "capture");
    // The horse takes the advisor on f7: a horse against a bare general wins, but the
    // mate is further away than a depth-2 search sees.
    let pos = Position::from_fen("4k4/9/5a3/9/4N4/9/9/9/9/3K5 w").unwrap();
    let v = tb
        .probe_dtm(&Position::from_fen("4k4/9/5N3/9/9/9/9/9/9/3K5 b").unwrap())
        .unwrap();
    assert!(
        matches!(v, Some(TableValue::Loss { plies }) if plies > 4),
        "{v:?}"
    );
    let mut searcher = Searcher::new(16);
    let without = search(&mut searcher, &pos, 2);
    searcher.set_tablebases(Some(tb));
    let with = search(&mut searcher, &pos, 2);
    assert_eq!(with.best_move.unwrap().to_string(), "e5f7");
    assert_eq!(with.value, TB_WIN - 1);
    assert!(without.value < TB_WIN - 200);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn wdl_files_alone_score_a_capture_as_the_distance_files_do() {
    // The same capture as above, with only KNK's WDL file in the directory.
    let dir = std::env::temp_dir().join(format!("xq-search-tb-wdl-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let knk = &tables(&["KNK"])[0];
    write_wdl(knk, &dir.join(knk.ending().wdl_file_name()), 1).unwrap();
    let tb = Arc::new(Tablebases::open(&dir).unwrap());
    assert!(tb.endings().is_empty());
    let pos = Position::from_fen("4k4/9/5a3/9/4N4/9/9/9/9/3K5 w").unwrap();
    let mut searcher = Searcher::new(16);
    searcher.set_tablebases(Some(tb));
    let with = search(&mut searcher, &pos, 2);
    assert_eq!(with.best_move.unwrap().to_string(), "e5f7");
    assert_eq!(with.value, TB_WIN - 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_win_by_the_perpetual_check_rule_is_kept_at_the_root() {
    let (tb, dir) = load(&["KRK", "KNK", "KRKN"], "rule");
    // The horse on e3 checks and can check forever: without the rule a draw. Of the
    // general's three moves, d1d2 keeps the rule's win; d1e1 and d1d0 are mated in 12
    // plies, further than a depth-4 search sees.
    let pos = Position::from_fen("9/9/5k3/9/9/1R7/4n4/9/3K5/9 w").unwrap();
    let by_check = TableValue::RuleWin {
        rule: Some(Rule::PerpetualCheck),
    };
    assert_eq!(tb.probe_dtm(&pos).unwrap(), Some(by_check));
    let moves = tb.root_moves(&pos).unwrap().unwrap();
    let shown: Vec<String> = moves.iter().map(|(m, v)| format!("{m} {v}")).collect();
    assert_eq!(
        shown,
        [
            "d1d2 win by the perpetual-check rule",
            "d1e1 loss, mated in 12 plies",
            "d1d0 loss, mated in 12 plies"
        ]
    );
    let mut searcher = Searcher::new(16);
    searcher.set_tablebases(Some(tb));
    let result = search(&mut searcher, &pos, 4);
    let played = moves
        .iter()
        .find(|(m, _)| Some(*m) == result.best_move)
        .unwrap()
        .1;
    assert_eq!(played, by_check);
    assert_eq!(result.best_move.unwrap().to_string(), "d1d2");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_drawn_root_leaves_the_moves_back_into_the_games_positions() {
    // The tables value a position without its history. In a drawn game (a horse each)
    // Red moves and moves back, Black's horse e5g4 and back: the start is on the board a
    // second time. Red's first move is still a table draw, and what the search plays
    // there without history, but it would bring back a position of the game (the first
    // step of a cycle that, where a side has to check to hold it, the rules rule against
    // that side). Another drawing move is played instead.
    let (tb, dir) = load(&["KNK", "KNKN"], "history");
    let start = "3k5/9/9/9/4n4/9/9/4N4/9/4K4 w";
    let pos = Position::from_fen(start).unwrap();
    let mut searcher = Searcher::new(16);
    searcher.set_tablebases(Some(tb.clone()));
    // The move the search plays without history, and the move that takes it back.
    let first = search(&mut searcher, &pos, 6)
        .best_move
        .unwrap()
        .to_string();
    let back = format!("{}{}", &first[2..4], &first[0..2]);

    let game =
        Game::from_fen_moves(start, &[first.as_str(), "e5g4", back.as_str(), "g4e5"]).unwrap();
    assert_eq!(game.position().key(), pos.key());
    let values = tb.root_moves(game.position()).unwrap().unwrap();
    let draws: Vec<String> = values
        .iter()
        .filter(|(_, v)| *v == TableValue::Draw)
        .map(|(m, _)| m.to_string())
        .collect();
    assert_eq!(
        draws,
        ["e0e1", "e0f0", "e2f4", "e2d4", "e2g3", "e2g1", "e2c3", "e2c1", "e2f0", "e2d0"]
    );
    assert!(draws.contains(&first), "{first}");
    searcher.new_game();
    let result = searcher.search(&game, &Limits::depth(6), &AtomicBool::new(false), |_| {});
    let played = result.best_move.unwrap();
    assert_ne!(played.to_string(), first);
    assert!(draws.contains(&played.to_string()), "{played}");
    std::fs::remove_dir_all(&dir).unwrap();
}
