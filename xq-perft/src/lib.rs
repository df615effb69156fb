#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod compare;
pub mod engine;
pub mod suite;

use xq_core::{Move, Position};
use xq_movegen::{count_legal, legal_moves};

/// Counts the leaf nodes of the legal move tree of depth `depth` below `pos`.
///
/// The last ply is counted without being played (bulk counting). The position is
/// restored before returning.
///
/// ```
/// use xq_core::Position;
/// let mut pos = Position::startpos();
/// assert_eq!(xq_perft::perft(&mut pos, 2), 1920);
/// assert_eq!(pos, Position::startpos());
/// ```
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal(pos) as u64,
        _ => {
            let mut nodes = 0;
            for m in legal_moves(pos) {
                let undo = pos.make_move(m);
                nodes += perft(pos, depth - 1);
                pos.unmake_move(m, undo);
            }
            nodes
        }
    }
}

/// Perft split by root move: one `(move, nodes)` pair per legal move, in generation
/// order. The sum of the counts is `perft(pos, depth)`.
///
/// # Panics
/// If `depth` is 0 (there is no root move to split by).
///
/// ```
/// use xq_core::Position;
/// let mut pos = Position::startpos();
/// let div = xq_perft::divide(&mut pos, 2);
/// assert_eq!(div.len(), 44);
/// assert_eq!(div.iter().map(|(_, n)| n).sum::<u64>(), 1920);
/// ```
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    divide_with_progress(pos, depth, 1, |_, _| {})
}

/// [`divide`] spread over `threads` threads (root moves are dealt out in turn), calling
/// `progress(done, total)` after each root move is counted.
///
/// # Panics
/// If `depth` is 0.
///
/// ```
/// use xq_core::Position;
/// let pos = Position::startpos();
/// let mut calls = 0;
/// let div = xq_perft::divide_with_progress(&mut pos.clone(), 3, 2, |done, total| {
///     assert!(done <= total && total == 44);
///     calls += 1;
/// });
/// assert_eq!(calls, 44);
/// assert_eq!(div.iter().map(|(_, n)| n).sum::<u64>(), 79666);
/// ```
pub fn divide_with_progress(
    pos: &mut Position,
    depth: u32,
    threads: usize,
    mut progress: impl FnMut(usize, usize),
) -> Vec<(Move, u64)> {
    assert!(depth > 0, "divide needs a depth of at least 1");
    let moves = legal_moves(pos);
    let total = moves.len();
    let threads = threads.clamp(1, total.max(1));
    if threads == 1 {
        let mut out = Vec::with_capacity(total);
        for (i, m) in moves.iter().enumerate() {
            let undo = pos.make_move(*m);
            out.push((*m, perft(pos, depth - 1)));
            pos.unmake_move(*m, undo);
            progress(i + 1, total);
        }
        return out;
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::scope(|s| {
        for _ in 0..threads {
            let (tx, next, moves) = (tx.clone(), &next, &moves);
            let mut p = pos.clone();
            s.spawn(move || loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(&m) = moves.get(i) else { break };
                let undo = p.make_move(m);
                let n = perft(&mut p, depth - 1);
                p.unmake_move(m, undo);
                if tx.send((i, n)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut counts = vec![0u64; total];
        for (done, (i, n)) in rx.iter().enumerate() {
            counts[i] = n;
            progress(done + 1, total);
        }
        moves.iter().copied().zip(counts).collect()
    })
}

/// [`perft`] on `threads` threads, splitting the root moves.
///
/// ```
/// use xq_core::Position;
/// assert_eq!(xq_perft::perft_threads(&Position::startpos(), 3, 2), 79666);
/// ```
pub fn perft_threads(pos: &Position, depth: u32, threads: usize) -> u64 {
    if depth == 0 || threads <= 1 {
        return perft(&mut pos.clone(), depth);
    }
    divide_with_progress(&mut pos.clone(), depth, threads, |_, _| {})
        .iter()
        .map(|(_, n)| n)
        .sum()
}
