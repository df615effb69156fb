//! The protocols only parse and call the engine's setters: no file is read here (the
//! engine reads networks, books and tables, `xq_search::engine::SearchEngine`). A check
//! of the crate's sources and of its dependencies.

use std::path::Path;

#[test]
fn the_protocol_crate_reads_no_file() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    // What reading a file, a network, a book or a table looks like in Rust and here.
    let reads = [
        "std::fs",
        "fs::read",
        "File::open",
        "read_dir",
        "Network::from_bytes",
        "Book::from_bytes",
        "Book::open",
        "Tablebases::open",
        "read_network",
        "read_book",
        "open_tablebases",
    ];
    let mut found = Vec::new();
    let mut files = 0;
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            files += 1;
            let text = std::fs::read_to_string(&path).unwrap();
            for r in reads {
                if text.contains(r) {
                    found.push(format!("{}: {r}", path.display()));
                }
            }
        }
    }
    assert!(files >= 10, "{files} source files");
    assert!(found.is_empty(), "{found:#?}");
    // Nor does it depend on the crates that read those files.
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    for krate in ["xq-eval", "xq-book", "xq-tablebase"] {
        assert!(!manifest.contains(krate), "xq-protocol depends on {krate}");
    }
}
