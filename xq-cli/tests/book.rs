//! Opening books through the binary: `xq book build` and `show`, `xq analyze --book`, and
//! the engine playing from a book as GUIs set it up (UCI `OwnBook`/`BookFile`, UCCI
//! `bookfiles`), a corrupt file reported and the engine playing on without it.

mod common;

use common::*;
use std::path::{Path, PathBuf};

const GAMES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../xq-records/tests/data/games"
);

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    common::scratch("book", name)
}

/// The book of the shared games, built by `xq book build` into `dir`.
fn shared_book(dir: &Path) -> PathBuf {
    let book = dir.join("shared.book");
    let o = xq(&["book", "build", GAMES, "-o", book.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    book
}

#[test]
fn book_build_and_show() {
    let dir = scratch("build");
    let book = dir.join("shared.book");
    let o = xq(&["book", "build", GAMES, "-o", book.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    // Ten PGN games and the XQF one; the time is the machine's.
    let out = stdout(&o);
    let summary = out.split(", ").take(4).collect::<Vec<_>>().join(", ");
    assert_eq!(
        summary,
        format!(
            "{}: 11 games from 11 files, 388 positions, 405 moves, 12992 bytes",
            book.display()
        )
    );
    assert_eq!(std::fs::metadata(&book).unwrap().len(), 12992);
    let o = xq(&["book", "show", book.to_str().unwrap(), "--moves", "h2e2"]);
    assert_eq!(
        stdout(&o),
        format!(
            "{}: xq book, 388 positions, 405 moves, built from 11 games (--max-ply 40, --min-games 1)\n\
             rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\n\
             h9g7 马8进7 weight     12  80.0%  4 games: +4 =0 -0\n\
             b7e7 炮2平5 weight      2  13.3%  1 games: +0 =1 -0\n\
             b9c7 马2进3 weight      1   6.7%  1 games: +0 =0 -1\n",
            book.display()
        )
    );
    // Two games, two plies: the start (the two first moves and their mirrors) and
    // the two positions after them (one reply each); a position out of the book.
    let short = dir.join("short.book");
    let o = xq(&[
        "book",
        "build",
        &format!("{GAMES}/ccgc2006-01.pgn"),
        &format!("{GAMES}/ccgc2006-05.pgn"),
        "-o",
        short.to_str().unwrap(),
        "--max-ply",
        "2",
    ]);
    assert!(
        stdout(&o).starts_with(&format!(
            "{}: 2 games from 2 files, 3 positions, 6 moves, 224 bytes",
            short.display()
        )),
        "{}",
        stdout(&o)
    );
    let o = xq(&[
        "book",
        "show",
        short.to_str().unwrap(),
        "--moves",
        "h2e2",
        "h9g7",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["moves"], serde_json::json!([]));
    assert_eq!(v["games"], 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn book_errors_exit_2_with_the_reason() {
    let dir = scratch("errors");
    let bad = dir.join("bad.book");
    std::fs::write(&bad, b"not a book").unwrap();
    let o = xq(&["book", "show", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(o.stderr).unwrap(),
        format!(
            "xq: book {}: not a book: 10 bytes is neither an xq book nor a whole number of ElephantEye's 8-byte records\n",
            bad.display()
        )
    );
    let o = xq(&["analyze", "--book", bad.to_str().unwrap(), "--depth", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    // Nothing to build from.
    let o = xq(&["book", "build", dir.to_str().unwrap(), "-o", "/dev/null"]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn analyze_lists_the_book_moves_above_the_search() {
    let dir = scratch("analyze");
    let book = shared_book(&dir);
    let o = xq(&[
        "analyze",
        "--book",
        book.to_str().unwrap(),
        "--moves",
        "h2e2",
        "--depth",
        "2",
    ]);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[..4],
        [
            "book: 3 moves",
            "  h9g7 马8进7 weight     12  80.0%  4 games: +4 =0 -0",
            "  b7e7 炮2平5 weight      2  13.3%  1 games: +0 =1 -0",
            "  b9c7 马2进3 weight      1   6.7%  1 games: +0 =0 -1",
        ]
    );
    assert!(lines.last().unwrap().starts_with("bestmove "), "{out}");
    let o = xq(&[
        "analyze",
        "--book",
        book.to_str().unwrap(),
        "--depth",
        "1",
        "--json",
    ]);
    let first: serde_json::Value =
        serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
    assert_eq!(first["type"], "book");
    assert_eq!(first["moves"][0]["move"], "b2e2");
    assert_eq!(first["moves"][0]["weight"], 9);
    assert_eq!(first["moves"][0]["games"], 6);
    assert_eq!(first["moves"].as_array().unwrap().len(), 8);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn uci_plays_from_its_book_and_says_so() {
    let dir = scratch("uci");
    let book = shared_book(&dir);
    let mut e = Engine::uci();
    e.send(&format!("setoption name BookFile value {}", book.display()));
    e.send("setoption name OwnBook value true");
    e.send("setoption name Best Book Move value true");
    e.send("position startpos moves h2e2");
    let (best, lines) = e.go("wtime 60000 btime 60000");
    assert_eq!(best, "h9g7");
    assert_eq!(
        lines,
        [
            "info string book move h9g7 (weight 12 of 15; book: h9g7 12, b7e7 2, b9c7 1)",
            "bestmove h9g7 ponder h0g2",
        ]
    );
    // Out of the book: a search.
    e.send("position startpos moves a0a1");
    let (_, lines) = e.go("depth 2");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
    // BookDepth 1: only the first ply from the book.
    e.send("setoption name BookDepth value 1");
    e.send("position startpos moves h2e2");
    let (_, lines) = e.go("depth 2");
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    e.send("position startpos");
    let (best, _) = e.go("depth 2");
    assert_eq!(best, "b2e2");
    // Analysis searches even in the book.
    e.send("go infinite");
    let lines = e.until("info depth 3", T);
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    e.send("stop");
    e.until("bestmove", T);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_corrupt_book_is_reported_and_the_engine_plays_on_without_it() {
    let dir = scratch("corrupt");
    let book = shared_book(&dir);
    // The book cut short by one byte.
    let bytes = std::fs::read(&book).unwrap();
    let cut = dir.join("cut.book");
    std::fs::write(&cut, &bytes[..bytes.len() - 1]).unwrap();
    let mut e = Engine::uci();
    e.send("setoption name OwnBook value true");
    e.send(&format!("setoption name BookFile value {}", book.display()));
    e.send(&format!("setoption name BookFile value {}", cut.display()));
    assert_eq!(
        e.until("info string", T),
        [format!(
            "info string setoption: book {}: corrupt xq book: its header says 12992 bytes, the file has 12991; playing without a book (in: setoption name BookFile value {})",
            cut.display(),
            cut.display()
        )]
    );
    // The good book set before is gone too: the engine searches.
    e.send("position startpos");
    let (best, lines) = e.go("depth 2");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
    assert!(legal(&xq_core::Position::startpos(), &best));
    // A file that is not there.
    e.send("setoption name BookFile value /nonexistent/xq.book");
    let said = e.until("info string", T);
    assert!(
        said[0].starts_with("info string setoption: cannot read book /nonexistent/xq.book: ")
            && said[0].ends_with(
                "; playing without a book (in: setoption name BookFile value /nonexistent/xq.book)"
            ),
        "{said:?}"
    );
    // An empty value: no book, no complaint.
    e.send("setoption name BookFile value <empty>");
    e.ready();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ucci_bookfiles_takes_the_first_book_of_its_list() {
    let dir = scratch("ucci");
    let book = shared_book(&dir);
    let mut e = Engine::ucci();
    e.send(&format!(
        "setoption bookfiles /nonexistent/BOOK.DAT;{}",
        book.display()
    ));
    let said = e.until("info string", T);
    assert!(
        said[0].starts_with("info string setoption: cannot read book /nonexistent/BOOK.DAT: "),
        "{said:?}"
    );
    // usebook is on by default, as ElephantEye's: the book answers.
    e.send("position startpos moves h2e2");
    e.send("go depth 5");
    let lines = e.until("bestmove", T);
    assert!(lines[0].starts_with("info string book move "), "{lines:?}");
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(["h9g7", "b7e7", "b9c7"].contains(&best), "{lines:?}");
    // Off: the engine searches.
    e.send("setoption usebook false");
    e.send("go depth 2");
    let lines = e.until("bestmove", T);
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
