//! Criterion benchmarks of the rules foundation: perft, legal move generation and
//! make/unmake. Every benchmark checks the result it times.
//!
//! Run with `cargo bench -p xq-benches --bench movegen`.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use std::time::Duration;
use xq_core::Position;
use xq_movegen::{legal, legal_moves, Gen};
use xq_perft::perft;

/// Suite positions (`data/perft.epd`) with their move counts: the opening, a busy
/// middlegame, a middlegame in check and a sparse endgame.
const POSITIONS: [(&str, &str, usize); 4] = [
    (
        "start",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        44,
    ),
    (
        "middlegame",
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        49,
    ),
    (
        "check",
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
        7,
    ),
    (
        "endgame",
        "4k4/4a4/3ab3n/p3p1p2/9/3p5/7r1/4B4/9/5K3 w - - 13 35",
        6,
    ),
];

fn positions() -> Vec<(&'static str, Position, usize)> {
    POSITIONS
        .iter()
        .map(|&(name, fen, moves)| {
            let pos = Position::from_fen(fen).expect("a suite FEN");
            assert_eq!(legal_moves(&pos).len(), moves, "{name}");
            (name, pos, moves)
        })
        .collect()
}

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("startpos_d4", |b| {
        let mut pos = Position::startpos();
        b.iter(|| {
            let nodes = perft(black_box(&mut pos), black_box(4));
            assert_eq!(nodes, 3_290_240);
            nodes
        })
    });
    group.finish();
}

fn bench_movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_moves");
    group.sample_size(20);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(2));
    for (name, pos, moves) in positions() {
        group.bench_with_input(BenchmarkId::new("all", name), &pos, |b, pos| {
            b.iter(|| {
                let list = legal_moves(black_box(pos));
                assert_eq!(list.len(), moves);
                list
            })
        });
        let captures = legal(&pos, Gen::Captures).len();
        group.bench_with_input(BenchmarkId::new("captures", name), &pos, |b, pos| {
            b.iter(|| {
                let list = legal(black_box(pos), Gen::Captures);
                assert_eq!(list.len(), captures);
                list
            })
        });
    }
    group.finish();
}

fn bench_make_unmake(c: &mut Criterion) {
    let mut group = c.benchmark_group("make_unmake");
    group.sample_size(20);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(2));
    for (name, pos, _) in positions() {
        let moves = legal_moves(&pos);
        let key = pos.key();
        group.bench_function(name, |b| {
            let mut pos = pos.clone();
            b.iter(|| {
                for &m in &moves {
                    let undo = pos.make_move(black_box(m));
                    black_box(pos.key());
                    pos.unmake_move(m, undo);
                }
                assert_eq!(pos.key(), key);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft, bench_movegen, bench_make_unmake);
criterion_main!(benches);
