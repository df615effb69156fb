//! `xq perft --engine`: xq against itself over UCI, against a wrapper engine made to miss
//! or add a move (`tests/engines/buggy.py`, which needs `python3`), and against Debian's
//! Fairy-Stockfish on the shared suite.
//!
//! Fairy-Stockfish is `$FAIRY_STOCKFISH`, else `fairy-stockfish` on the PATH, else
//! `/usr/games/fairy-stockfish`; without it its test is skipped, saying so, unless
//! `XQ_ENGINE_TESTS=required` (then it fails).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use xq_core::Position;

const XQ: &str = env!("CARGO_BIN_EXE_xq");

fn xq(args: &[&str]) -> Output {
    Command::new(XQ).args(args).output().expect("run xq")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn suite() -> String {
    root().join("data/perft.epd").to_string_lossy().into_owned()
}

/// The FEN xq writes for `fen` after `moves`.
fn fen_after(fen: &str, moves: &[&str]) -> String {
    let mut pos = Position::from_fen(fen).unwrap();
    for m in moves {
        pos.make_move(m.parse().unwrap());
    }
    pos.to_fen()
}

#[test]
fn xq_agrees_with_itself_over_uci() {
    let o = xq(&["perft", "3", "--engine", XQ, "--moves", "h2e2", "h9g7"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let mut pos = Position::from_fen(&fen_after(xq_core::START_FEN, &["h2e2", "h9g7"])).unwrap();
    let n = xq_perft::perft(&mut pos, 3);
    let expected = format!(
        "xq {}: {n} nodes; xq: {n} nodes\nthey agree\n",
        env!("CARGO_PKG_VERSION")
    );
    assert_eq!(stdout(&o), expected);
    // The suite's first depths, as far as 5,000 nodes.
    let o = xq(&[
        "perft",
        "--suite",
        &suite(),
        "--engine",
        XQ,
        "--max-nodes",
        "5000",
    ]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let out = stdout(&o);
    assert!(
        out.starts_with("ok     1/50  D2          1964 nodes  rnbakabnr/"),
        "{out}"
    );
    let last = out.lines().last().unwrap();
    assert!(last.contains(": 50 agree, 0 differ; "), "{out}");
    assert!(!out.contains("DIFF"), "{out}");
}

/// `xq perft ARGS --engine python3 buggy.py XQ KIND MOVE FEN`.
fn buggy(args: &[&str], kind: &str, mv: &str, fen: &str) -> Output {
    let script = root().join("xq-cli/tests/engines/buggy.py");
    let mut all: Vec<&str> = args.to_vec();
    let script = script.to_string_lossy();
    for a in [
        "--engine",
        "python3",
        "--engine-arg",
        &script,
        "--engine-arg",
        XQ,
    ] {
        all.push(a);
    }
    for a in [kind, mv, fen] {
        all.extend(["--engine-arg", a]);
    }
    xq(&all)
}

#[test]
fn a_missing_move_is_found_two_plies_down() {
    let root = "3a1a3/4k4/9/9/2b5P/9/9/B2AB2N1/5K3/3A5 w - - 44 66";
    let target = fen_after(root, &["h2g4", "e8e7"]);
    let o = buggy(&["perft", "3", "--fen", root], "drop", "g4e5", &target);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert_eq!(
        stdout(&o),
        format!(
            "buggy: 1380 nodes; xq: 1381 nodes\nfirst difference at depth 1 of FEN {target} \
             (after h2g4 e8e7): the engine lacks g4e5\n"
        )
    );
}

#[test]
fn an_illegal_move_is_found_on_a_suite_line() {
    let dir = std::env::temp_dir().join(format!("xq-perft-engine-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("two.epd");
    let root = "4k4/9/9/9/P8/9/9/B4K3/4A4/9 b - - 6 57";
    std::fs::write(
        &file,
        format!(
            "{} ;D1 44 ;D2 1920\n{root} ;D1 2 ;D2 17 ;D3 41\n",
            xq_core::START_FEN
        ),
    )
    .unwrap();
    // After e9e8 the engine lets the red general out of its palace.
    let target = fen_after(root, &["e9e8"]);
    let o = buggy(
        &["perft", "--suite", &file.to_string_lossy()],
        "add",
        "f2g2",
        &target,
    );
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(
        lines[0].starts_with("ok     1/2  D2          1964 nodes  "),
        "{out}"
    );
    assert_eq!(
        lines[1],
        format!("DIFF   2/2  D2            20 nodes  {root}")
    );
    assert_eq!(lines[2], "     depth 2: engine 18, xq 17, the suite 17");
    assert_eq!(
        lines[3],
        format!(
            "     first difference at depth 1 of FEN {target} (after e9e8): the engine has \
             f2g2 that is not legal"
        )
    );
    assert_eq!(
        lines[4],
        "buggy: 1 agree, 1 differ; 4 depth checks (1 skipped); 1984 nodes"
    );
}

#[test]
fn silent_garbage_and_bad_engines_are_errors() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["--engine", "sleep", "--engine-arg", "30", "--engine-timeout", "1"],
            "xq: the engine sleep said nothing useful for 1 s while xq waited for uciok\n",
        ),
        (
            &["--engine", "yes", "--engine-timeout", "1"],
            "xq: the engine yes said nothing useful for 1 s while xq waited for uciok\n",
        ),
        (
            &["--engine", "/nonexistent/engine"],
            "xq: cannot start the engine /nonexistent/engine: No such file or directory (os error 2)\n",
        ),
        (&["--engine", XQ, "--engine-option", "Variant=xiangqi"], "xq: the engine xq "),
    ];
    for (args, message) in cases {
        let mut all = vec!["perft", "2"];
        all.extend(args);
        let o = xq(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.starts_with(message), "{args:?}: {err}");
    }
    let o = xq(&["perft", "2", "--engine", XQ, "--divide"]);
    assert_eq!(o.status.code(), Some(2));
    let o = xq(&["perft", "2", "--engine-option", "UCI_Variant=xiangqi"]);
    assert_eq!(o.status.code(), Some(2));
}

fn fairy_stockfish() -> Option<String> {
    let given = std::env::var_os("FAIRY_STOCKFISH").map(PathBuf::from);
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join("fairy-stockfish"))
        .chain([PathBuf::from("/usr/games/fairy-stockfish")]);
    given
        .into_iter()
        .chain(on_path)
        .find(|p| p.is_file())
        .map(|p| p.to_string_lossy().into_owned())
}

/// Fairy-Stockfish (ranks 1-10, `UCI_Variant=xiangqi`) counts every position of the suite
/// as xq does at every depth checked: no known difference between its Xiangqi rules and
/// xq's. (Checked by hand beyond this: the whole suite at every depth, and 1,000 positions
/// of random games at depth 3.)
#[test]
fn fairy_stockfish_agrees_on_the_suite() {
    let Some(fsf) = fairy_stockfish() else {
        let message = "fairy-stockfish not found (apt-get install fairy-stockfish)";
        if std::env::var("XQ_ENGINE_TESTS").as_deref() == Ok("required") {
            panic!("{message}");
        }
        eprintln!("skipped: {message}");
        return;
    };
    let o = xq(&[
        "perft",
        "--suite",
        &suite(),
        "--engine",
        &fsf,
        "--engine-option",
        "UCI_Variant=xiangqi",
        "--max-nodes",
        "100000",
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("Fairy-Stockfish"), "{out}");
    assert!(last.contains(": 50 agree, 0 differ; "), "{out}");
    // Moves are sent as the position they lead to; its ranks 1-10 are read.
    let o = xq(&[
        "perft", "3", "--engine", &fsf, "--moves", "h2e2", "h9g7", "h0g2",
    ]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert!(
        stdout(&o).ends_with("nodes\nthey agree\n"),
        "{}",
        stdout(&o)
    );
}
