//! `xq_perft::engine` and `xq_perft::compare` against stand-in engines written in shell:
//! garbage, silence, crashes, searches instead of counts, counts that contradict
//! themselves, the other numbering of ranks, options.

use std::time::{Duration, Instant};
use xq_core::Position;
use xq_perft::compare::{compare, DifferenceKind};
use xq_perft::engine::{EngineCommand, EngineError, Ranks};

/// Two generals; Red's (on d0) has one move, d0d1; after it Black's has e9e8 and e9f9.
const ONE_MOVE: &str = "4k4/9/9/9/9/9/9/9/9/3K5 w";

/// An engine in shell: it keeps the last `position` in `$pos` and answers `go` with
/// `go` (shell commands); `uci` with `handshake` lines, then `uciok`.
fn fake(handshake: &str, go: &str) -> EngineCommand {
    let script = format!(
        "while read cmd rest; do case $cmd in
            uci) {handshake} echo uciok;;
            isready) echo readyok;;
            setoption) opt=\"$rest\";;
            position) pos=\"$rest\";;
            go) {go};;
            quit) exit 0;;
        esac; done"
    );
    EngineCommand::new("sh")
        .args(["-c", &script])
        .timeout(Duration::from_secs(5))
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

#[test]
fn garbage_around_the_divide_is_skipped() {
    let go = r#"printf '\377\376 garbage\n'; echo "h2e2: lots"; echo ":::"; echo "info depth 1";
        head -c 10000 /dev/zero | tr '\0' x; echo; echo; echo "d0d1:   2  ";
        echo "Nodes searched: 2""#;
    let mut engine = fake("echo 'id name  noisy  one';", go).start().unwrap();
    assert_eq!(engine.name(), "noisy one");
    let divide = engine.divide(&pos(ONE_MOVE), 2).unwrap();
    assert_eq!((divide.total, divide.listed()), (2, 2));
    assert_eq!(divide.moves.len(), 1);
    let c = compare(&mut engine, &pos(ONE_MOVE), 2, 1).unwrap();
    assert!(c.agrees(), "{c:?}");
}

#[test]
fn a_silent_engine_times_out() {
    // Silent from the start.
    let start = Instant::now();
    let e = EngineCommand::new("sleep")
        .arg("30")
        .timeout(Duration::from_millis(300))
        .start()
        .unwrap_err();
    assert!(matches!(&e, EngineError::Timeout { waiting_for, .. } if waiting_for == "uciok"));
    assert_eq!(
        e.to_string(),
        "the engine sleep said nothing useful for 0.3 s while xq waited for uciok"
    );
    // Silent after `go perft`, or talking without counting: the clock is not reset by
    // lines that are not moves.
    for go in [":", "yes garbage"] {
        let mut engine = fake("", go)
            .timeout(Duration::from_millis(500))
            .start()
            .unwrap();
        let e = engine.divide(&pos(ONE_MOVE), 1).unwrap_err();
        assert!(
            e.to_string()
                .ends_with("while xq waited for `Nodes searched` after `go perft 1`"),
            "{e}"
        );
    }
    assert!(start.elapsed() < Duration::from_secs(10));
}

#[test]
fn a_crash_is_reported_with_its_last_words() {
    let mut engine = fake("", "echo 'segfault in movegen' >&2; exit 4")
        .start()
        .unwrap();
    let e = engine.divide(&pos(ONE_MOVE), 1).unwrap_err();
    let EngineError::Exited { status, stderr, .. } = &e else {
        panic!("{e:?}")
    };
    assert_eq!(status.and_then(|s| s.code()), Some(4));
    assert_eq!(stderr, &["segfault in movegen"]);
    assert!(e.to_string().contains("exited (exit status: 4)"), "{e}");
    let e = EngineCommand::new("/nonexistent/engine")
        .start()
        .unwrap_err();
    assert!(e
        .to_string()
        .starts_with("cannot start the engine /nonexistent/engine: "));
}

#[test]
fn an_engine_without_perft_is_told_apart() {
    let mut engine = fake("", "echo 'info depth 1 score cp 3'; echo 'bestmove d0d1'")
        .start()
        .unwrap();
    let e = engine.divide(&pos(ONE_MOVE), 1).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the engine sh answered `go perft` with a search (bestmove d0d1): it has no perft"
    );
}

#[test]
fn options_must_be_offered_and_the_variant_is_set() {
    let offers = "echo 'option name Hash type spin default 16 min 1 max 64';
        echo 'option name UCI_Variant type combo default chess var chess var xiangqi';";
    // Counts only when its variant is Xiangqi.
    let go = r#"case "$opt" in
        *"UCI_Variant value xiangqi") echo "d0d1: 1"; echo "Nodes searched: 1";;
        *) echo "bestmove e2e4";; esac"#;
    let e = fake(offers, go).option("Threads", "2").start().unwrap_err();
    let EngineError::UnknownOption { name, offered, .. } = &e else {
        panic!("{e:?}")
    };
    assert_eq!((name.as_str(), offered.len()), ("Threads", 2));
    // Set without being asked...
    let mut engine = fake(offers, go).start().unwrap();
    assert_eq!(engine.offered(), ["Hash", "UCI_Variant"]);
    assert!(compare(&mut engine, &pos(ONE_MOVE), 1, 1).unwrap().agrees());
    // ... unless asked for another.
    let mut engine = fake(offers, go)
        .option("uci_variant", "chess")
        .start()
        .unwrap();
    assert!(matches!(
        engine.divide(&pos(ONE_MOVE), 1),
        Err(EngineError::NoPerft { .. })
    ));
}

#[test]
fn ranks_one_to_ten_are_recognised() {
    let go = r#"echo "d1d2: 1"; echo "Nodes searched: 1""#;
    let mut engine = fake("", go).start().unwrap();
    assert_eq!(engine.ranks(), Ranks::Auto);
    let c = compare(&mut engine, &pos(ONE_MOVE), 1, 1).unwrap();
    assert!(c.agrees(), "{c:?}");
    // Only a rank 0 or 10 settles it for good.
    assert_eq!(engine.ranks(), Ranks::Auto);
    let mut engine = fake("echo 'id name Fairy-Stockfish 11.1';", go)
        .start()
        .unwrap();
    assert_eq!(engine.ranks(), Ranks::OneToTen);
    // Differences are written in the engine's numbering.
    let c = compare(&mut engine, &pos("3k5/9/9/9/9/9/9/9/9/4K4 w"), 1, 1).unwrap();
    let text = c.difference.unwrap().to_string();
    assert!(
        text.ends_with(
            ": the engine lacks e1e2, e1f1; it has d1d2 that is not legal \
             (moves as the engine writes them, ranks 1-10)"
        ),
        "{text}"
    );
}

#[test]
fn contradictions_are_named() {
    // Its total is not the sum of its moves.
    let mut engine = fake("", r#"echo "d0d1: 1"; echo "Nodes searched: 7""#)
        .start()
        .unwrap();
    let c = compare(&mut engine, &pos(ONE_MOVE), 1, 1).unwrap();
    assert_eq!((c.engine, c.xq), (7, 1));
    let d = c.difference.unwrap();
    assert_eq!(
        d.kind,
        DifferenceKind::Total {
            listed: 1,
            total: 7
        }
    );
    assert!(d
        .to_string()
        .ends_with(": the engine's moves add up to 1 but it says `Nodes searched: 7`"));
    // Its count below d0d1 is not its count of the position after d0d1.
    let go = r#"case "$pos" in
        *" w "*) echo "d0d1: 5"; echo "Nodes searched: 5";;
        *) echo "e9e8: 1"; echo "e9f9: 1"; echo "Nodes searched: 2";; esac"#;
    let mut engine = fake("", go).start().unwrap();
    let d = compare(&mut engine, &pos(ONE_MOVE), 2, 1)
        .unwrap()
        .difference
        .unwrap();
    assert_eq!(
        d.kind,
        DifferenceKind::Inconsistent {
            said: 5,
            found: 2,
            xq: 2
        }
    );
    assert_eq!((d.depth, d.path.len()), (1, 1));
    assert!(d.to_string().contains(
        "(after d0d1): the engine's divide one ply up counts 5 below d0d1, but its perft 1 \
         of this position counts 2 (xq 2)"
    ));
    // A move listed twice is one too many; a leaf counted as two is named.
    let mut engine = fake(
        "",
        r#"echo "d0d1: 1"; echo "d0d1: 1"; echo "Nodes searched: 2""#,
    )
    .start()
    .unwrap();
    let d = compare(&mut engine, &pos(ONE_MOVE), 1, 1)
        .unwrap()
        .difference;
    assert!(d
        .unwrap()
        .to_string()
        .ends_with(": the engine has d0d1 that is not legal"));
    let mut engine = fake("", r#"echo "d0d1: 2"; echo "Nodes searched: 2""#)
        .start()
        .unwrap();
    let d = compare(&mut engine, &pos(ONE_MOVE), 1, 1)
        .unwrap()
        .difference;
    assert!(d
        .unwrap()
        .to_string()
        .ends_with(": below d0d1 the engine counts 2, xq 1"));
}
