//! Criterion benchmarks of the evaluation: the incremental part alone (`Eval::score`,
//! what the search calls today), the full evaluation a search would call at every node
//! (`evaluate_full`, incremental part given) and its lazy form far outside the window.
//! Every benchmark checks the value it times against `evaluate`.
//!
//! Run with `cargo bench -p xq-benches --bench eval`.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use xq_core::Position;
use xq_eval::{evaluate, evaluate_full, evaluate_lazy, Eval};

/// The opening, a busy middlegame, a middlegame in check and a sparse endgame (the
/// positions of the movegen benchmarks).
const POSITIONS: [(&str, &str); 4] = [
    (
        "start",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    ),
    (
        "middlegame",
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    ),
    (
        "check",
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    ),
    (
        "endgame",
        "4k4/4a4/3ab3n/p3p1p2/9/3p5/7r1/4B4/9/5K3 w - - 13 35",
    ),
];

fn bench_eval(c: &mut Criterion) {
    let mut group = c.benchmark_group("eval");
    for (name, fen) in POSITIONS {
        let pos = Position::from_fen(fen).expect("a valid FEN");
        let inc = Eval::new(&pos);
        let side = pos.side_to_move();
        assert_eq!(evaluate_full(&pos, &inc), evaluate(&pos), "{name}");
        group.bench_with_input(BenchmarkId::new("incremental", name), &pos, |b, _| {
            b.iter(|| black_box(&inc).score(black_box(side)))
        });
        group.bench_with_input(BenchmarkId::new("full", name), &pos, |b, pos| {
            b.iter(|| evaluate_full(black_box(pos), black_box(&inc)))
        });
        let far = inc.score(side) + 10 * xq_eval::LAZY_MARGIN;
        group.bench_with_input(BenchmarkId::new("lazy-outside", name), &pos, |b, pos| {
            b.iter(|| evaluate_lazy(black_box(pos), black_box(&inc), far, far + 1))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_eval);
criterion_main!(benches);
