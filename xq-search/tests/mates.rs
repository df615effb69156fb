//! The forced-mate suite: a search to depth 2N+8 must report exactly `mate N` with a
//! best move that keeps the shortest mate, with the built-in network and with the
//! classical evaluation alike.

use std::sync::atomic::AtomicBool;
use xq_core::Move;
use xq_movegen::Game;
use xq_search::{Limits, Score, Searcher};

const SUITE: &str = include_str!("../../data/mates.epd");

struct Case {
    line: usize,
    fen: String,
    mate: i32,
    bm: Vec<Move>,
}

fn cases() -> Vec<Case> {
    SUITE
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let mut parts = l.split(';').map(str::trim);
            let fen = parts.next().unwrap().to_string();
            let mut mate = 0;
            let mut bm = Vec::new();
            for p in parts {
                if let Some(n) = p.strip_prefix("mate ") {
                    mate = n.trim().parse().unwrap();
                } else if let Some(ms) = p.strip_prefix("bm ") {
                    bm = ms.split_whitespace().map(|m| m.parse().unwrap()).collect();
                }
            }
            Case {
                line: i + 1,
                fen,
                mate,
                bm,
            }
        })
        .collect()
}

/// Which evaluation a case is searched with.
#[derive(Clone, Copy, Debug)]
enum Eval {
    Network,
    Classical,
}

fn search(game: &Game, depth: u32, eval: Eval) -> xq_search::SearchResult {
    let mut s = Searcher::new(16);
    if let Eval::Classical = eval {
        s.set_network(None);
    }
    s.search(game, &Limits::depth(depth), &AtomicBool::new(false), |_| {})
}

/// Checks one case; returns a description of the failure, if any.
fn check(c: &Case, eval: Eval) -> Option<String> {
    let game = Game::from_fen_moves(&c.fen, &[] as &[&str]).unwrap();
    // Room beyond the mate's own plies: the pruned search (LMR, late-move pruning)
    // reaches a mate that starts with a quiet move a few plies later than a full-width
    // one would.
    let depth = 2 * c.mate as u32 + 8;
    let r = search(&game, depth, eval);
    if r.score != Score::Mate(c.mate) {
        return Some(format!(
            "line {} ({eval:?}): expected mate {} at depth {depth}, got {} ({:?})",
            c.line, c.mate, r.score, r.pv
        ));
    }
    let best = r.best_move.unwrap();
    if c.bm.contains(&best) {
        return None;
    }
    // Another move may mate as fast: the opponent must then be mated in N-1.
    let mut after = game.clone();
    after.play(best).unwrap();
    if c.mate == 1 {
        return (!xq_movegen::legal_moves(after.position()).is_empty())
            .then(|| format!("line {} ({eval:?}): {best} does not mate", c.line));
    }
    let r2 = search(&after, depth, eval);
    (r2.score != Score::Mate(-(c.mate - 1))).then(|| {
        format!(
            "line {} ({eval:?}): {best} is not in bm and leaves {}",
            c.line, r2.score
        )
    })
}

fn run(max_mate: i32, min_mate: i32) {
    let failures: Vec<String> = cases()
        .iter()
        .filter(|c| c.mate <= max_mate && c.mate >= min_mate)
        .flat_map(|c| [check(c, Eval::Network), check(c, Eval::Classical)])
        .flatten()
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn short_mates() {
    run(if cfg!(debug_assertions) { 2 } else { 3 }, 1);
}

/// The shortest forced mate by xq-testkit's exhaustive prover (no evaluation, no search
/// code), up to `max` moves.
fn proven(fen: &str, max: u32) -> Option<u32> {
    xq_testkit::mate::shortest_mate(&xq_core::Position::from_fen(fen).unwrap(), max)
}

/// The two lengths corrected in `data/mates.epd` (see data/README.md) are proven exactly:
/// a mate within N moves exists and none within N-1.
#[test]
#[ignore]
fn proven_mate_lengths() {
    for (line, n) in [(41, 4), (43, 5)] {
        let c = cases().into_iter().find(|c| c.line == line).unwrap();
        assert_eq!(c.mate, n);
        assert_eq!(proven(&c.fen, n as u32), Some(n as u32), "line {line}");
    }
}

/// Line 45's corrected length under the in-tree repetition rule (data/README.md): a
/// plain full-width search, no pruning, reductions, extensions or table cutoffs, finds
/// mate in 6 and nothing shorter (a mate in 5 is 9 plies, inside the full-width depth).
#[test]
#[ignore]
fn line_45_mate_length() {
    let c = cases().into_iter().find(|c| c.line == 45).unwrap();
    assert_eq!(c.mate, 6);
    let game = Game::from_fen_moves(&c.fen, &[] as &[&str]).unwrap();
    let mut s = Searcher::new(64);
    let mut config = xq_search::SearchConfig::plain();
    config.quiescence = true;
    s.set_config(config);
    let r = s.search(&game, &Limits::depth(11), &AtomicBool::new(false), |_| {});
    assert_eq!(r.score, Score::Mate(6));
}

/// Every mate in 1 or 2 of the suite is exact by the independent proof too.
#[test]
fn short_mate_lengths_proven() {
    for c in cases().iter().filter(|c| c.mate <= 2) {
        let n = c.mate as u32;
        assert_eq!(proven(&c.fen, n), Some(n), "line {}", c.line);
    }
}

/// The longer mates: run in release (`cargo test --release -- --ignored`, as CI does).
#[test]
#[ignore]
fn long_mates() {
    run(99, if cfg!(debug_assertions) { 3 } else { 4 });
}
