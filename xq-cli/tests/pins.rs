//! Outputs pinned to the bytes a known build wrote: `xq datagen --format binary` and
//! `xq train` must give the same files for the same arguments, whatever the code that
//! produces them is refactored into.
//!
//! The pinned self-play files (`data/datagen-s5-*.xqsp`) depend on the search and the
//! evaluation: a change that moves the bench signature changes the games, and the files
//! are then remade with the commands below (and the network's hash here with them).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn xq(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xq"))
        .args(args)
        .output()
        .expect("the xq binary runs")
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../data")
        .join(name)
}

fn scratch(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("xq-pins-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `xq datagen --format binary` with small games, seed 5, `extra` appended.
fn datagen(out: &Path, threads: &str, extra: &[&str]) {
    let mut args = vec![
        "datagen",
        "--games",
        "3",
        "--nodes",
        "300",
        "--random-plies",
        "6",
        "--max-plies",
        "60",
        "--seed",
        "5",
        "--threads",
        threads,
        "--format",
        "binary",
        "-o",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let o = xq(&args);
    assert!(o.status.success(), "{o:?}");
}

#[test]
fn datagen_binary_writes_the_pinned_bytes() {
    let d = scratch("datagen");
    let round1 = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../xq-eval/nets/nn-a6e9bde1.nnue"
    );
    for (name, extra, threads) in [
        ("datagen-s5-classical.xqsp", &["--classical"][..], "1"),
        ("datagen-s5-classical.xqsp", &["--classical"][..], "2"),
        // The round-1 network by file, so that a new built-in net leaves the pin alone.
        ("datagen-s5-net.xqsp", &["--eval-file", round1][..], "2"),
    ] {
        let out = d.join(format!("{threads}-{name}"));
        datagen(&out, threads, extra);
        assert!(
            std::fs::read(&out).unwrap() == std::fs::read(data(name)).unwrap(),
            "{name} with {threads} threads: not the pinned bytes"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn train_writes_the_pinned_network() {
    let d = scratch("train");
    let out = d.join("pinned.nnue");
    let sample = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../xq-train/tests/data/tune-sample.txt"
    );
    let o = xq(&[
        "train",
        data("datagen-s5-classical.xqsp").to_str().unwrap(),
        sample,
        data("datagen-s5-net.xqsp").to_str().unwrap(),
        "--hidden",
        "16",
        "--epochs",
        "2",
        "--batch",
        "512",
        "--holdout",
        "0.2",
        "--flip-horizontal",
        "--threads",
        "2",
        "--wdl",
        "0.3",
        "--lr",
        "0.005",
        "--seed",
        "3",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{o:?}");
    let stdout = String::from_utf8(o.stdout).unwrap();
    assert!(
        stdout.starts_with("8464 positions of 42 games (7048 trained, 1416 held out)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("hidden: 16, buckets: 1, hash: 0d9a8810fd9ea9ad }"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// The call of xq-train's README gives the bytes of the command it names.
#[test]
fn the_library_call_writes_the_datagen_bytes() {
    let d = scratch("library");
    let out = d.join("readme.xqsp");
    let o = xq(&[
        "datagen",
        "--games",
        "2",
        "--nodes",
        "200",
        "--max-plies",
        "40",
        "--seed",
        "7",
        "--classical",
        "--format",
        "binary",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{o:?}");
    let settings = xq_train::selfplay::Settings {
        nodes: 200,
        max_plies: 40,
        network: None,
        ..Default::default()
    };
    let mut w = xq_train::binary::Writer::new();
    for game in xq_train::selfplay::generate(&settings, 7, 2, 2).unwrap() {
        w.push(&game).unwrap();
    }
    assert!(std::fs::read(&out).unwrap() == w.into_bytes());
    let _ = std::fs::remove_dir_all(&d);
}

/// `--openings FILE` starts the games from the file's openings in turn: the bytes of
/// the library call with those openings; a bad opening is an error naming its line.
#[test]
fn datagen_starts_from_the_openings() {
    let d = scratch("openings");
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    let (epd, out) = (d.join("openings.epd"), d.join("games.xqsp"));
    let epd_arg = epd.to_str().unwrap();
    std::fs::write(
        &epd,
        format!("# two\nstartpos moves h2e2 h9g7\nfen {fen} moves b9c7\n"),
    )
    .unwrap();
    datagen(&out, "1", &["--classical", "--openings", epd_arg]);
    // `datagen`'s settings, with the file's openings.
    let settings = xq_train::selfplay::Settings {
        nodes: 300,
        random_plies: 6,
        max_plies: 60,
        network: None,
        openings: vec![
            xq_movegen::Game::from_fen_moves(xq_core::START_FEN, &["h2e2", "h9g7"]).unwrap(),
            xq_movegen::Game::from_fen_moves(fen, &["b9c7"]).unwrap(),
        ],
        ..Default::default()
    };
    let games = xq_train::selfplay::generate(&settings, 5, 3, 1).unwrap();
    assert_eq!(games[1].start.to_fen(), fen);
    assert_eq!(games[2].plies[1].0.to_string(), "h9g7");
    let bytes = |games: &[xq_train::selfplay::SelfPlayGame]| {
        let mut w = xq_train::binary::Writer::new();
        for game in games {
            w.push(game).unwrap();
        }
        w.into_bytes()
    };
    assert!(std::fs::read(&out).unwrap() == bytes(&games));
    // `--openings-start 2`: the first game takes the second opening, as with the
    // openings the other way round; the count goes round the file, as `xq match`'s
    // `start=N` does, so 3 is 1 again.
    let from_opening = |n: &str| {
        let start = ["--classical", "--openings", epd_arg, "--openings-start", n];
        datagen(&out, "1", &start);
        std::fs::read(&out).unwrap()
    };
    let mut turned = settings.clone();
    turned.openings.reverse();
    let turned = xq_train::selfplay::generate(&turned, 5, 3, 1).unwrap();
    assert_eq!(turned[0].start.to_fen(), fen);
    assert!(from_opening("2") == bytes(&turned));
    assert!(from_opening("3") == bytes(&games));
    let o = xq(&[
        "datagen",
        "--games",
        "1",
        "--openings",
        epd_arg,
        "--openings-start",
        "0",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8(o.stderr).unwrap();
    assert_eq!(stderr, "xq: --openings-start counts from 1\n");
    let o = xq(&["datagen", "--games", "1", "--openings-start", "2"]);
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8(o.stderr).unwrap();
    assert!(stderr.contains("--openings <FILE>"), "{stderr}");
    std::fs::write(&epd, "startpos moves h2e2\nstartpos moves h2e2 h2e2\n").unwrap();
    let o = xq(&["datagen", "--games", "1", "--openings", epd_arg]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(o.stderr).unwrap(),
        format!("xq: openings {epd_arg}: line 2: h2e2: illegal move h2e2: no piece of the side to move on h2\n")
    );
    let _ = std::fs::remove_dir_all(&d);
}
