//! The engine driven as a program drives it, without the binary's protocols: a search on
//! several threads streams its iterations and stops when asked, infinite and ponder
//! searches hold their answer until stopped or `ponderhit`, the clock starts at
//! `ponderhit`, banned and chosen root moves are kept to, a new game forgets, and bad
//! options are brought within their ranges.

use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use xq_core::Move;
use xq_movegen::Game;
use xq_search::engine::{Caps, Engine, Listener, Options, MAX_MULTIPV, MAX_THREADS};
use xq_search::{Clock, Info, Limits, SearchResult};

const T: Duration = Duration::from_secs(30);

/// A listener that forwards infos and answers to channels.
struct Channels {
    infos: Mutex<std::sync::mpsc::Sender<Info>>,
    answers: Mutex<std::sync::mpsc::Sender<SearchResult>>,
}

impl Listener for Channels {
    fn info(&self, info: &Info) {
        let _ = self.infos.lock().unwrap().send(info.clone());
    }
    fn best_move(&self, result: &SearchResult, _: &Game) {
        let _ = self.answers.lock().unwrap().send(result.clone());
    }
}

fn channels() -> (Arc<Channels>, Receiver<Info>, Receiver<SearchResult>) {
    let (ti, ri) = channel();
    let (ta, ra) = channel();
    let l = Arc::new(Channels {
        infos: Mutex::new(ti),
        answers: Mutex::new(ta),
    });
    (l, ri, ra)
}

fn engine(threads: usize) -> Engine {
    Engine::new(Options {
        threads,
        hash_mib: 8,
        ..Options::default()
    })
}

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

#[test]
fn two_threads_stream_iterations_and_stop_when_asked() {
    let mut e = engine(2);
    let (l, infos, answers) = channels();
    e.go(Limits::infinite(), l);
    // Iterations arrive while it thinks, depth after depth.
    let got: Vec<Info> = infos.iter().take(6).collect();
    let depths: Vec<u32> = got.iter().map(|i| i.depth).collect();
    assert_eq!(depths, [1, 2, 3, 4, 5, 6]);
    assert!(e.is_searching());
    // An infinite search holds its answer: nothing until it is stopped.
    assert!(answers.recv_timeout(Duration::from_millis(200)).is_err());
    let result = e.stop().expect("a search was running");
    assert!(!e.is_searching());
    // The listener got the same answer.
    assert_eq!(answers.recv_timeout(T).unwrap(), result);
    assert!(result.depth >= 6, "{}", result.depth);
    assert_eq!(result.pv.first(), result.best_move.as_ref());
    assert!(xq_movegen::is_legal(
        &xq_core::Position::startpos(),
        result.best_move.unwrap()
    ));
    // Nothing more to stop.
    assert_eq!(e.stop(), None);
}

#[test]
fn a_search_ends_by_its_limits_and_wait_returns_the_answer() {
    let mut e = engine(2);
    let (l, _infos, answers) = channels();
    e.go(Limits::depth(5), l);
    let result = e.wait().expect("an answer");
    assert_eq!(result.depth, 5);
    assert_eq!(answers.recv_timeout(T).unwrap(), result);
}

#[test]
fn a_ponder_search_holds_until_ponderhit_then_keeps_to_the_clock() {
    let mut e = engine(1);
    // Red has played h2e2 and the engine ponders Black's reply while Red thinks.
    let mut game = Game::startpos();
    game.play_text("h2e2").unwrap();
    e.set_game(game);
    let (l, infos, answers) = channels();
    let clock = Clock {
        time: Duration::from_millis(400),
        inc: Duration::ZERO,
        movestogo: Some(1),
    };
    e.go(
        Limits {
            ponder: true,
            ..Limits::clock(clock)
        },
        l,
    );
    // Pondering ignores the clock: still thinking well past it, no answer.
    let first = infos.recv_timeout(T).unwrap();
    assert_eq!(first.depth, 1);
    std::thread::sleep(Duration::from_millis(600));
    assert!(e.is_searching());
    assert!(answers.try_recv().is_err());
    // The opponent played the expected move: now the clock runs and the engine answers
    // within it (the hard limit is 80% of the 400 ms left, less the overhead).
    let hit = Instant::now();
    assert!(e.ponderhit());
    let answer = answers.recv_timeout(T).expect("an answer after ponderhit");
    assert!(
        hit.elapsed() < Duration::from_secs(2),
        "{:?}",
        hit.elapsed()
    );
    assert!(answer.best_move.is_some());
    e.wait();
    // Not pondering any more.
    assert!(!e.ponderhit());
}

#[test]
fn stop_during_a_ponder_search_answers_at_once() {
    let mut e = engine(1);
    let (l, _infos, answers) = channels();
    e.go(
        Limits {
            ponder: true,
            ..Limits::default()
        },
        l,
    );
    std::thread::sleep(Duration::from_millis(100));
    let result = e.stop().unwrap();
    assert_eq!(answers.recv_timeout(T).unwrap(), result);
    assert!(result.best_move.is_some());
}

#[test]
fn abandon_answers_nothing() {
    let mut e = engine(1);
    let (l, _infos, answers) = channels();
    e.go(Limits::infinite(), l);
    std::thread::sleep(Duration::from_millis(50));
    e.abandon();
    assert!(!e.is_searching());
    assert!(answers.recv_timeout(Duration::from_millis(200)).is_err());
}

#[test]
fn banned_and_chosen_root_moves_are_kept_to() {
    let mut e = engine(1);
    // Black is mated in one by e1e9 unless that move is banned.
    e.set_game(Game::from_fen_moves("3k5/R8/9/9/9/9/9/9/4R4/4K4 w", &[] as &[&str]).unwrap());
    let best = e.search(Limits::depth(3), |_| true).best_move;
    assert_eq!(best, Some(mv("e1e9")));
    e.set_banned(vec![mv("e1e9")]);
    let best = e.search(Limits::depth(3), |_| true).best_move;
    assert_ne!(best, Some(mv("e1e9")));
    // A new position clears the ban; searchmoves chooses among the root moves.
    e.set_game(Game::startpos());
    let only = vec![mv("b0c2"), mv("h0g2")];
    let r = e.search(
        Limits {
            depth: Some(4),
            root_moves: only.clone(),
            ..Limits::default()
        },
        |_| true,
    );
    assert!(only.contains(&r.best_move.unwrap()));
}

#[test]
fn a_report_that_returns_false_stops_the_search() {
    let mut e = engine(2);
    let mut seen = 0;
    let r = e.search(Limits::infinite(), |info| {
        seen += 1;
        info.depth < 4
    });
    assert_eq!(seen, 4);
    assert!(r.depth >= 4);
}

#[test]
fn multipv_reports_several_lines_best_first() {
    let mut e = Engine::new(Options {
        multipv: 3,
        hash_mib: 8,
        ..Options::default()
    });
    let mut last = Vec::new();
    e.search(Limits::depth(4), |info| {
        if info.multipv == 1 {
            last.clear();
        }
        last.push(info.clone());
        true
    });
    assert_eq!(last.len(), 3);
    assert!(last.windows(2).all(|w| w[0].value >= w[1].value));
    let firsts: std::collections::BTreeSet<Move> = last.iter().map(|i| i.pv[0]).collect();
    assert_eq!(firsts.len(), 3, "three different moves");
}

#[test]
fn options_are_brought_within_their_ranges_and_a_new_game_forgets() {
    // Up to the caps (the engine's own cap is MAX_THREADS, 1,024: more than a test
    // should start).
    assert_eq!(MAX_THREADS, 1024);
    let caps = Caps {
        max_threads: 4,
        ..Caps::default()
    };
    let mut e = Engine::with_caps(
        Options {
            threads: 10_000,
            multipv: 0,
            hash_mib: 1,
            ..Options::default()
        },
        caps,
    );
    assert_eq!(e.options().threads, 4);
    assert_eq!(e.options().multipv, 1);
    e.set_options(Options {
        multipv: 999,
        ..e.options().clone()
    })
    .unwrap();
    assert_eq!(e.options().multipv, MAX_MULTIPV);
    e.set_options(Options {
        threads: 1,
        multipv: 1,
        ..e.options().clone()
    })
    .unwrap();
    let first = e.search(Limits::depth(6), |_| true);
    // Searching again finds the table and the histories of the first search: another
    // tree (fewer nodes with some networks, more with others, as the histories reorder
    // the moves).
    let again = e.search(Limits::depth(6), |_| true);
    assert_ne!(again.nodes, first.nodes);
    // A new game clears the table and the histories: the first search again, node for
    // node.
    e.new_game();
    let fresh = e.search(Limits::depth(6), |_| true);
    assert_eq!(fresh.nodes, first.nodes);
    assert_eq!(fresh.pv, first.pv);
}

#[test]
fn the_network_option_chooses_the_evaluation() {
    use xq_eval::nnue::Network;
    let game = Game::from_fen_moves(xq_core::START_FEN, &["h2e2", "h9g7"]).unwrap();
    let net = Arc::new(Network::seeded(32, 3));
    // One searcher with the network, on its own: what the engine must find.
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut alone = xq_search::Searcher::new(8);
    alone.set_network(Some(net.clone()));
    let expected = alone.search(&game, &Limits::depth(5), &stop, |_| {});
    alone.set_network(None);
    alone.new_game();
    let classical = alone.search(&game, &Limits::depth(5), &stop, |_| {});
    assert_ne!(
        (expected.nodes, expected.score),
        (classical.nodes, classical.score)
    );

    let mut e = Engine::new(Options {
        hash_mib: 8,
        network: None,
        ..Options::default()
    });
    e.set_game(game);
    let r = e.search(Limits::depth(5), |_| true);
    assert_eq!(
        (r.nodes, r.score, &r.pv),
        (classical.nodes, classical.score, &classical.pv)
    );
    // Changing the evaluation starts afresh (the table keeps static evaluations): the
    // same search as the lone searcher's, node for node.
    e.set_options(Options {
        network: Some(net.clone()),
        ..e.options().clone()
    })
    .unwrap();
    let r = e.search(Limits::depth(5), |_| true);
    assert_eq!(
        (r.nodes, r.score, &r.pv),
        (expected.nodes, expected.score, &expected.pv)
    );
    // And back.
    e.set_options(Options {
        network: None,
        ..e.options().clone()
    })
    .unwrap();
    let r = e.search(Limits::depth(5), |_| true);
    assert_eq!((r.nodes, r.score), (classical.nodes, classical.score));
}

#[test]
fn a_table_the_system_refuses_leaves_the_old_one() {
    let caps = Caps {
        table_limit_mib: Some(16),
        ..Caps::default()
    };
    let mut e = Engine::with_caps(
        Options {
            hash_mib: 8,
            ..Options::default()
        },
        caps,
    );
    assert_eq!(e.table().size_mib(), 8);
    // Refused: the other options are taken, the table keeps its size.
    let refused = e.set_options(Options {
        hash_mib: 64,
        multipv: 2,
        ..e.options().clone()
    });
    assert_eq!(refused, Err(xq_search::tt::TableError { mib: 64 }));
    assert_eq!(
        refused.unwrap_err().to_string(),
        "cannot allocate a hash table of 64 MiB"
    );
    assert_eq!((e.options().hash_mib, e.options().multipv), (8, 2));
    assert_eq!(e.table().size_mib(), 8);
    // It plays on.
    let r = e.search(Limits::depth(3), |_| true);
    assert_eq!(r.depth, 3);
    assert!(r.best_move.is_some());
    // A size it can have is taken.
    assert_eq!(
        e.set_options(Options {
            hash_mib: 16,
            ..e.options().clone()
        }),
        Ok(())
    );
    assert_eq!(e.table().size_mib(), 16);
    // At construction: try_ says no, the plain constructor falls back to a smaller table.
    let big = Options {
        hash_mib: 100,
        ..Options::default()
    };
    assert_eq!(
        Engine::try_with_caps(big.clone(), caps).unwrap_err(),
        xq_search::tt::TableError { mib: 100 }
    );
    let e = Engine::with_caps(big, caps);
    assert_eq!(e.options().hash_mib, 1);
    assert_eq!(e.table().size_mib(), 1);
}

/// A listener that keeps what the book said and the answer.
#[derive(Default)]
struct BookEar {
    book: Mutex<Vec<(Vec<xq_book::BookMove>, Move)>>,
    infos: Mutex<usize>,
}

impl Listener for BookEar {
    fn info(&self, _: &Info) {
        *self.infos.lock().unwrap() += 1;
    }
    fn book(&self, moves: &[xq_book::BookMove], chosen: &xq_book::BookMove) {
        self.book.lock().unwrap().push((moves.to_vec(), chosen.mv));
    }
}

/// A book of two lines: 1. h2e2 h9g7 (Red won, twice) and 1. c3c4 (a draw).
fn two_line_book() -> Arc<xq_book::Book> {
    use xq_book::{BookBuilder, BuildOptions};
    let mut b = BookBuilder::new(BuildOptions::default());
    let start = xq_core::Position::startpos();
    for _ in 0..2 {
        b.add_game(
            &start,
            &[mv("h2e2"), mv("h9g7")],
            Some(xq_movegen::GameResult::RedWins),
        )
        .unwrap();
    }
    b.add_game(&start, &[mv("c3c4")], Some(xq_movegen::GameResult::Draw))
        .unwrap();
    Arc::new(b.finish())
}

#[test]
fn the_book_answers_while_it_has_a_move() {
    let mut e = Engine::new(Options {
        own_book: true,
        best_book_move: true,
        hash_mib: 1,
        ..Options::default()
    });
    e.set_book(Some(two_line_book()));
    let ear = Arc::new(BookEar::default());
    e.go(Limits::depth(30), ear.clone());
    let r = e.wait().unwrap();
    // The heaviest move (h2e2 and its mirror b2e2 weigh 6; the heaviest in move order
    // first), the book's reply to ponder on, nothing searched.
    assert!(r.from_book);
    assert_eq!(r.best_move, Some(mv("b2e2")));
    assert_eq!(r.ponder, Some(mv("b9c7")));
    assert_eq!((r.nodes, r.depth), (0, 0));
    assert_eq!(*ear.infos.lock().unwrap(), 0);
    let said = ear.book.lock().unwrap().clone();
    assert_eq!(said.len(), 1);
    let offered: Vec<(String, u32)> = said[0]
        .0
        .iter()
        .map(|b| (b.mv.to_string(), b.weight))
        .collect();
    assert_eq!(
        offered,
        [
            ("b2e2".into(), 6),
            ("h2e2".into(), 6),
            ("c3c4".into(), 2),
            ("g3g4".into(), 2)
        ]
    );
    // Banned moves and root moves are kept to.
    e.set_banned(vec![mv("b2e2"), mv("h2e2")]);
    assert_eq!(
        e.search(Limits::depth(30), |_| true).best_move,
        Some(mv("c3c4"))
    );
    e.set_game(Game::startpos());
    let only = Limits {
        root_moves: vec![mv("g3g4"), mv("h0g2")],
        ..Limits::depth(30)
    };
    assert_eq!(e.search(only, |_| true).best_move, Some(mv("g3g4")));
    // Picked by weight, reproducibly with the same seed.
    e.set_options(Options {
        best_book_move: false,
        ..e.options().clone()
    })
    .unwrap();
    let picks = |e: &mut Engine| -> Vec<String> {
        e.set_seed(7);
        (0..20)
            .map(|_| {
                e.search(Limits::depth(30), |_| true)
                    .best_move
                    .unwrap()
                    .to_string()
            })
            .collect()
    };
    let first = picks(&mut e);
    assert_eq!(first, picks(&mut e));
    let kinds: std::collections::BTreeSet<&String> = first.iter().collect();
    assert!(kinds.len() >= 2, "{first:?}");
    // Analysis searches: infinite, mate, and once the book is out of moves.
    for limits in [
        Limits::depth(2),
        Limits {
            mate: Some(1),
            depth: Some(2),
            ..Limits::default()
        },
    ] {
        e.set_game(Game::from_fen_moves(xq_core::START_FEN, &["h2e2", "h9g7", "h0g2"]).unwrap());
        let r = e.search(limits, |_| true);
        assert!(!r.from_book && r.nodes > 0);
    }
    e.set_game(Game::startpos());
    let r = e.search(
        Limits {
            mate: Some(1),
            depth: Some(2),
            ..Limits::default()
        },
        |_| true,
    );
    assert!(!r.from_book);
    // Past the book's depth: searched.
    e.set_options(Options {
        book_depth: 0,
        ..e.options().clone()
    })
    .unwrap();
    assert!(!e.search(Limits::depth(2), |_| true).from_book);
    // Without OwnBook: searched.
    e.set_options(Options {
        book_depth: 40,
        own_book: false,
        ..e.options().clone()
    })
    .unwrap();
    assert!(!e.search(Limits::depth(2), |_| true).from_book);
}

#[test]
fn a_book_move_that_repeats_a_position_is_not_played() {
    use xq_book::{BookBuilder, BuildOptions};
    // A book whose only move at the start position after a horse went out and back
    // would return to a position of the game.
    let mut b = BookBuilder::new(BuildOptions::default());
    let start = xq_core::Position::startpos();
    b.add_game(&start, &[mv("h0g2"), mv("h9g7"), mv("g2h0")], None)
        .unwrap();
    let mut e = Engine::new(Options {
        own_book: true,
        best_book_move: true,
        hash_mib: 1,
        ..Options::default()
    });
    e.set_book(Some(Arc::new(b.finish())));
    // After h0g2 h9g7, the book's g2h0 is fine (the position after it is new).
    e.set_game(Game::from_fen_moves(xq_core::START_FEN, &["h0g2", "h9g7"]).unwrap());
    assert!(e.search(Limits::depth(2), |_| true).from_book);
    // After h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 the same move would repeat: searched instead.
    e.set_game(
        Game::from_fen_moves(
            xq_core::START_FEN,
            &["h0g2", "h9g7", "g2h0", "g7h9", "h0g2", "h9g7"],
        )
        .unwrap(),
    );
    let r = e.search(Limits::depth(2), |_| true);
    assert!(!r.from_book);
}
