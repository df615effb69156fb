//! Replays the committed fuzz corpus and the minimized crashing inputs through the
//! target functions, so `cargo test --workspace` covers them on stable Rust.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

static PANICS: AtomicUsize = AtomicUsize::new(0);

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect(),
        Err(_) => Vec::new(),
    };
    v.sort();
    v
}

fn replay(target: &str, f: fn(&[u8]), dir: &str, min_files: usize) {
    // Count panics in every thread (a panicking search thread is swallowed by the
    // engine, which would otherwise hide it from this test).
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICS.fetch_add(1, Ordering::SeqCst);
            default(info);
        }));
    });
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let paths = files(&root.join(dir).join(target));
    assert!(
        paths.len() >= min_files,
        "{dir}/{target}: {} files, expected at least {min_files}",
        paths.len()
    );
    let mut failed = Vec::new();
    for p in &paths {
        let data = std::fs::read(p).unwrap();
        let before = PANICS.load(Ordering::SeqCst);
        let r = catch_unwind(AssertUnwindSafe(|| f(&data)));
        if r.is_err() || PANICS.load(Ordering::SeqCst) != before {
            failed.push(p.display().to_string());
        }
    }
    assert!(failed.is_empty(), "{target}: failing inputs: {failed:#?}");
}

fn target(name: &str) -> fn(&[u8]) {
    xq_fuzz::TARGETS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, f)| *f)
        .unwrap()
}

#[test]
fn corpus_fen() {
    replay("fen", target("fen"), "corpus", 20);
}

#[test]
fn corpus_moves() {
    replay("moves", target("moves"), "corpus", 20);
}

#[test]
fn corpus_protocol() {
    replay("protocol", target("protocol"), "corpus", 20);
}

#[test]
fn corpus_legal() {
    replay("legal", target("legal"), "corpus", 20);
}

#[test]
fn corpus_rules() {
    replay("rules", target("rules"), "corpus", 16);
}

#[test]
fn regressions() {
    for (name, f) in xq_fuzz::TARGETS {
        replay(name, *f, "regressions", 0);
    }
}

#[test]
fn corpus_pgn() {
    replay("pgn", target("pgn"), "corpus", 15);
}

#[test]
fn corpus_xqf() {
    replay("xqf", target("xqf"), "corpus", 5);
}

#[test]
fn corpus_composed() {
    replay("composed", target("composed"), "corpus", 20);
}
