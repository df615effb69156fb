//! Books built from real games, ElephantEye's layout read from a file made by hand, and
//! the exact errors for corrupt files.

use xq_book::{Book, BookBuilder, BookError, BuildOptions, Format, Stats};
use xq_core::{Move, Position};
use xq_movegen::GameResult;
use xq_records::pgn::{self, ReadOptions};

/// The shared real games: ten games of the 2006 computer championship, GBK PGN.
const GAMES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../xq-records/tests/data/games"
);

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

/// Every game of the shared PGN files, in file order.
fn shared_games() -> Vec<xq_records::Record> {
    let mut names: Vec<_> = std::fs::read_dir(GAMES)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    names.sort();
    names
        .iter()
        .flat_map(|p| pgn::read(&std::fs::read(p).unwrap(), &ReadOptions::default()).unwrap())
        .collect()
}

/// The first moves of each game as read by an independent reader (the `.moves` files).
fn independent_lines() -> Vec<Vec<Move>> {
    let mut names: Vec<_> = std::fs::read_dir(GAMES)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "moves")
                && p.file_name().unwrap().to_string_lossy().starts_with("ccgc")
        })
        .collect();
    names.sort();
    names
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            let line = text.lines().nth(2).unwrap();
            line.split_whitespace().map(mv).collect()
        })
        .collect()
}

fn build(options: BuildOptions) -> Book {
    let mut builder = BookBuilder::new(options);
    for g in shared_games() {
        builder
            .add_game(&g.start, &g.main_line(), g.result)
            .unwrap();
    }
    builder.finish()
}

#[test]
fn a_book_of_the_shared_games_answers_their_first_moves() {
    let book = build(BuildOptions::default());
    assert_eq!(book.format(), Format::Xq);
    assert_eq!(book.info().games, 10);
    assert_eq!((book.info().max_ply, book.info().min_games), (40, 1));
    // Every game's first 40 plies, both sides', are in it.
    let lines = independent_lines();
    assert_eq!(lines.len(), 10);
    for line in &lines {
        let mut pos = Position::startpos();
        for (ply, &m) in line.iter().take(40).enumerate() {
            let found = book.probe(&pos);
            assert!(
                found.iter().any(|b| b.mv == m && b.stats.games() >= 1),
                "ply {}: {m} not in {found:?}",
                ply + 1
            );
            pos.make_move(m);
        }
        // Past the plies taken, nothing.
        if line.len() > 40 {
            assert_eq!(book.probe(&pos), []);
        }
    }
    // The start: the games' first moves with their results, and the mirrored moves.
    let start: Vec<(String, u32, Stats)> = book
        .probe(&Position::startpos())
        .iter()
        .map(|b| (b.mv.to_string(), b.weight, b.stats))
        .collect();
    let firsts: Vec<String> = lines.iter().map(|l| l[0].to_string()).collect();
    for m in &firsts {
        assert!(start.iter().any(|(s, ..)| s == m), "{m} not in {start:?}");
    }
    let games: u64 = start
        .iter()
        .filter(|(m, ..)| firsts.contains(m))
        .map(|(_, _, s)| s.games())
        .sum();
    assert!(games >= 10, "{start:?}");
    assert_eq!(start, STARTS.map(|(m, w, s)| (m.to_string(), w, s)));
    // Written and read back: the same book, and the file's size.
    let bytes = book.to_bytes();
    assert_eq!(bytes.len(), 32 + 32 * book.len());
    assert_eq!(Book::from_bytes(&bytes).unwrap(), book);
}

/// The book's moves at the start (weight, then wins, draws, losses, unfinished): six
/// games opened with the central cannon, two with a soldier, one each with the horse
/// to the edge and to the centre; each with its mirror.
const STARTS: [(&str, u32, Stats); 8] = [
    ("b2e2", 9, stats(1, 1, 4)),
    ("h2e2", 9, stats(1, 1, 4)),
    ("c3c4", 4, stats(1, 0, 1)),
    ("g3g4", 4, stats(1, 0, 1)),
    ("b0a2", 3, stats(1, 0, 0)),
    ("h0i2", 3, stats(1, 0, 0)),
    ("b0c2", 1, stats(0, 0, 1)),
    ("h0g2", 1, stats(0, 0, 1)),
];

const fn stats(wins: u32, draws: u32, losses: u32) -> Stats {
    Stats {
        wins,
        draws,
        losses,
        unfinished: 0,
    }
}

#[test]
fn fewer_plies_and_more_games_make_a_smaller_book() {
    let all = build(BuildOptions::default());
    let short = build(BuildOptions {
        max_ply: 4,
        min_games: 1,
    });
    let common = build(BuildOptions {
        max_ply: 40,
        min_games: 2,
    });
    assert!(short.len() < all.len() && common.len() < all.len());
    // Four plies: the start, and three more positions of each game at most.
    assert!(short.positions() <= 1 + 3 * 10, "{}", short.positions());
    for b in Book::probe(&common, &Position::startpos()) {
        assert!(b.stats.games() >= 2, "{b:?}");
    }
}

#[test]
fn an_illegal_move_is_refused_and_nothing_of_its_game_is_kept() {
    let mut builder = BookBuilder::new(BuildOptions::default());
    let start = Position::startpos();
    assert_eq!(
        builder.add_game(&start, &[mv("h2e2"), mv("h2e2")], Some(GameResult::Draw)),
        Err(BookError::IllegalMove {
            ply: 1,
            mv: mv("h2e2")
        })
    );
    assert_eq!(
        BookError::IllegalMove {
            ply: 1,
            mv: mv("h2e2")
        }
        .to_string(),
        "ply 2: illegal move h2e2"
    );
    assert_eq!(builder.games(), 0);
    assert!(builder.finish().is_empty());
}

/// ElephantEye's keys of three positions, as its own BOOK.DAT has them (see
/// `eleeye::tests::keys_are_elephanteyes`).
const EE_START: u32 = 0x0526_56d5;
const EE_AFTER_B2E2: u32 = 0x5396_644f;

/// One ElephantEye record: key, move (origin square low byte), weight.
fn record(out: &mut Vec<u8>, lock: u32, wmv: u16, weight: u16) {
    out.extend_from_slice(&lock.to_le_bytes());
    out.extend_from_slice(&wmv.to_le_bytes());
    out.extend_from_slice(&weight.to_le_bytes());
}

#[test]
fn a_book_in_elephanteyes_layout_made_by_hand_is_read_right() {
    let mut bytes = Vec::new();
    // The start: h2e2 (0xaa -> 0xa7) 30, c3c4 (0x95 -> 0x85) 10, and a0a9 (0xc3 ->
    // 0x33), not legal there: a key's collision, skipped.
    record(&mut bytes, EE_START, 0xa7aa, 30);
    record(&mut bytes, EE_START, 0x85_95, 10);
    record(&mut bytes, EE_START, 0x33c3, 99);
    // After b2e2: b9c7 (0x34 -> 0x55) 7.
    record(&mut bytes, EE_AFTER_B2E2, 0x5534, 7);
    let path = std::env::temp_dir().join(format!("xq-book-test-{}.dat", std::process::id()));
    std::fs::write(&path, &bytes).unwrap();
    let book = Book::open(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(book.format(), Format::ElephantEye);
    assert_eq!((book.len(), book.positions()), (4, 2));
    let found = |pos: &Position| -> Vec<(String, u32)> {
        book.probe(pos)
            .iter()
            .map(|b| (b.mv.to_string(), b.weight))
            .collect()
    };
    let start = Position::startpos();
    assert_eq!(found(&start), [("h2e2".into(), 30), ("c3c4".into(), 10)]);
    // After b2e2 the position is there; after h2e2 only its mirror is: the move comes
    // back mirrored.
    let mut after = start.clone();
    after.make_move(mv("b2e2"));
    assert_eq!(found(&after), [("b9c7".into(), 7)]);
    let mut after = start.clone();
    after.make_move(mv("h2e2"));
    assert_eq!(found(&after), [("h9g7".into(), 7)]);
    // A weighted pick: 0-29 h2e2, 30-39 c3c4.
    assert_eq!(book.pick(&start, 29).unwrap().mv, mv("h2e2"));
    assert_eq!(book.pick(&start, 30).unwrap().mv, mv("c3c4"));
    assert_eq!(book.pick(&start, 40).unwrap().mv, mv("h2e2"));
    // Unknown positions: nothing.
    after.make_move(mv("h9g7"));
    assert_eq!(book.pick(&after, 5), None);
    // Written back in its own layout, byte for byte.
    assert_eq!(book.to_bytes(), bytes);
}

#[test]
fn corrupt_books_are_clear_errors() {
    let good = build(BuildOptions {
        max_ply: 6,
        min_games: 1,
    })
    .to_bytes();
    let cases: Vec<(Vec<u8>, BookError, &str)> = vec![
        (vec![], BookError::Empty, "the book is empty (0 bytes)"),
        (
            b"thirteen byte".to_vec(),
            BookError::BadLength(13),
            "not a book: 13 bytes is neither an xq book nor a whole number of ElephantEye's 8-byte records",
        ),
        (
            good[..good.len() - 1].to_vec(),
            BookError::Truncated {
                expected: good.len() as u64,
                found: good.len() as u64 - 1,
            },
            "",
        ),
        (
            good[..20].to_vec(),
            BookError::Truncated {
                expected: 32,
                found: 20,
            },
            "corrupt xq book: its header says 32 bytes, the file has 20",
        ),
        (
            {
                let mut b = good.clone();
                b[8] = 2;
                b
            },
            BookError::UnsupportedVersion(2),
            "xq book version 2: this xq reads version 1",
        ),
        (
            {
                let mut b = good.clone();
                b[12] = 16;
                b
            },
            BookError::BadRecordSize(16),
            "corrupt xq book: records of 16 bytes, not 32",
        ),
        (
            {
                // The second record's key zeroed: out of order.
                let mut b = good.clone();
                b[64..72].fill(0);
                b
            },
            BookError::Unsorted { record: 1 },
            "not a book, or a corrupt one: record 1 is out of key order",
        ),
        (
            {
                let mut b = good.clone();
                b[40..42].fill(0);
                b
            },
            BookError::BadMove {
                record: 0,
                value: 0,
            },
            "corrupt book: record 0 holds 0x0000, not a move",
        ),
        (
            {
                let mut b = Vec::new();
                record(&mut b, EE_AFTER_B2E2, 0x5534, 7);
                record(&mut b, EE_START, 0xa7aa, 30);
                b
            },
            BookError::Unsorted { record: 1 },
            "",
        ),
        (
            {
                let mut b = Vec::new();
                record(&mut b, EE_START, 0x0000, 30);
                b
            },
            BookError::BadMove {
                record: 0,
                value: 0,
            },
            "",
        ),
    ];
    for (bytes, error, text) in cases {
        let got = Book::from_bytes(&bytes);
        assert_eq!(got, Err(error.clone()), "{} bytes", bytes.len());
        if !text.is_empty() {
            assert_eq!(error.to_string(), text);
        }
    }
    let dir = Book::open(std::env::temp_dir()).unwrap_err();
    assert!(dir.to_string().ends_with(": not a regular file"), "{dir}");
    let missing = Book::open("/nonexistent/xq/book.bin").unwrap_err();
    assert!(
        matches!(&missing, BookError::Io { path, .. } if path.ends_with("book.bin")),
        "{missing:?}"
    );
    assert!(
        missing
            .to_string()
            .starts_with("/nonexistent/xq/book.bin: "),
        "{missing}"
    );
}
