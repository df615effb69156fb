//! Runs the code of `examples/perft_progress.rs` (included as a module, so `cargo test`
//! needs no second cargo process) and checks what it prints.

#[path = "../examples/perft_progress.rs"]
#[allow(dead_code)]
mod perft_progress;

#[test]
fn counts_with_progress() {
    let mut out = Vec::new();
    let nodes = perft_progress::run(xq_core::START_FEN, 3, &mut out).unwrap();
    assert_eq!(nodes, 79666);
    let text = String::from_utf8(out).unwrap();
    let progress: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("progress "))
        .collect();
    assert_eq!(progress.len(), 10, "{text}");
    assert_eq!(progress.last(), Some(&"progress 44/44 root moves"));
    let divide = text.lines().filter(|l| l.contains(": ")).count();
    assert_eq!(divide, 45, "44 root moves and the total: {text}");
    assert!(text.contains("\nh2e2: "), "{text}");
    assert!(text.ends_with("\nNodes searched: 79666\n"), "{text}");
}

#[test]
fn refuses_bad_input() {
    let mut out = Vec::new();
    assert!(perft_progress::run("not a fen", 3, &mut out).is_err());
    assert!(perft_progress::run(xq_core::START_FEN, 0, &mut out).is_err());
    assert!(out.is_empty());
}
