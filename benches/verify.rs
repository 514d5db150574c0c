//! The certificate verifier's cost per cell, for n from 9 to 1024, Sudoku and Latin squares.
//!
//! The O(n²) claim made visible: nanoseconds per cell should stay flat as n grows.
//! Run with `cargo bench --bench verify`; `BENCHMARKS.md` has the table of the last run.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use sudokit::{Grid, Shape, verify};

/// The valid pattern grid of a shape: `(q·(r mod p) + ⌊r/p⌋ + c) mod n`.
fn pattern(shape: Shape) -> Grid {
    let (n, p, q) = (shape.order(), shape.box_rows(), shape.box_cols());
    let mut grid = Grid::empty(shape);
    for r in 0..n {
        for c in 0..n {
            grid.set(shape.cell(r, c), Some((q * (r % p) + r / p + c) % n));
        }
    }
    grid
}

fn bench_verify(c: &mut Criterion) {
    let mut group = c.benchmark_group("verify");
    for side in [3usize, 4, 5, 6, 8, 10, 16, 32] {
        let n = side * side;
        for (kind, shape) in [
            ("sudoku", Shape::sudoku(side, side).unwrap()),
            ("latin", Shape::latin(n).unwrap()),
        ] {
            let solution = pattern(shape);
            // Half the cells given, so the given check does real work.
            let mut puzzle = solution.clone();
            for cell in (0..shape.cells()).step_by(2) {
                puzzle.set(cell, None);
            }
            assert_eq!(verify(&puzzle, &solution), Ok(()));
            group.throughput(Throughput::Elements(shape.cells() as u64));
            group.bench_with_input(
                BenchmarkId::new(kind, n),
                &(puzzle, solution),
                |b, (p, s)| b.iter(|| verify(black_box(p), black_box(s))),
            );
        }
    }
    group.finish();
}

criterion_group!(benches, bench_verify);
criterion_main!(benches);
