//! DIMACS writing throughput: the 36×36 extended encoding (pairwise and sequential AMO) of the
//! empty grid and of a half-filled puzzle, streamed to a byte sink. The target is ≥ 100 MB/s.
//!
//! Run: `cargo bench --bench dimacs_write`. Criterion reports the throughput in bytes/s.

use std::hint::black_box;
use std::io::{self, Write};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sudokit::encode::cnf::{Amo, CnfOptions, Encoding};
use sudokit::format::dimacs::write_cnf;
use sudokit::{Grid, Shape};

/// A sink that counts bytes.
#[derive(Default)]
struct Count(u64);

impl Write for Count {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Half the cells of the pattern solution `(6·(r mod 6) + ⌊r/6⌋ + c) mod 36`, every other cell.
fn half_filled(shape: Shape) -> Grid {
    let n = shape.order();
    let (p, q) = (shape.box_rows(), shape.box_cols());
    let mut grid = Grid::empty(shape);
    for r in 0..n {
        for c in (r % 2..n).step_by(2) {
            grid.set(shape.cell(r, c), Some((q * (r % p) + r / p + c) % n));
        }
    }
    grid
}

fn bench(c: &mut Criterion) {
    let shape = Shape::sudoku(6, 6).unwrap();
    let mut group = c.benchmark_group("dimacs_write");
    group.sample_size(10);
    for (name, puzzle) in [("empty", Grid::empty(shape)), ("half", half_filled(shape))] {
        for amo in [Amo::Pairwise, Amo::Sequential] {
            let options = CnfOptions {
                encoding: Encoding::Extended,
                amo,
            };
            let mut count = Count::default();
            write_cnf(&puzzle, options, &mut count).unwrap();
            group.throughput(Throughput::Bytes(count.0));
            group.bench_function(format!("36x36_extended_{amo}_{name}"), |b| {
                b.iter(|| write_cnf(black_box(&puzzle), options, io::sink()).unwrap())
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
