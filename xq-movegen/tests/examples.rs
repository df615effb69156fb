//! Runs the code of `examples/legal_moves.rs` (included as a module, so `cargo test`
//! needs no second cargo process) and checks what it prints.

#[path = "../examples/legal_moves.rs"]
#[allow(dead_code)]
mod legal_moves;

fn output(fen: &str) -> (Result<usize, String>, String) {
    let mut out = Vec::new();
    let n = legal_moves::run(fen, &mut out).map_err(|e| e.to_string());
    (n, String::from_utf8(out).unwrap())
}

#[test]
fn lists_the_start_position() {
    let (n, text) = output(xq_core::START_FEN);
    assert_eq!(n, Ok(44));
    assert_eq!(text.lines().count(), 2 + 44 + 1);
    assert!(text.contains("\nh2e2  炮二平五  C2=5\n"), "{text}");
    assert!(text.contains("\nb0c2  马八进七  H8+7\n"), "{text}");
    assert!(text.ends_with("\n44 legal moves\n"), "{text}");
}

#[test]
fn marks_checks_and_mate() {
    let (n, text) = output("3k5/9/9/9/9/9/9/9/R8/R3K4 w");
    assert!(n.unwrap() > 0);
    assert!(text.contains("\na0d0  后车平六  R-=6  check\n"), "{text}");
    let (n, text) = output("R3k4/1R7/9/9/9/9/9/9/9/3K5 b");
    assert_eq!(n, Ok(0));
    assert!(
        text.ends_with("no legal move: checkmate, black has lost\n"),
        "{text}"
    );
}

#[test]
fn reports_bad_fens() {
    let (n, text) = output("4k4/9/9 w");
    assert_eq!(
        n,
        Err("malformed FEN: the board has 3 ranks separated by '/', expected 10".to_string())
    );
    assert!(text.is_empty());
    let (n, _) = output("4k4/9/9/9/9/9/9/9/9/4K4 w");
    assert_eq!(
        n,
        Err("illegal position: the generals face each other on an open file".to_string())
    );
}
