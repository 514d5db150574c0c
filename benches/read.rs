//! Reading puzzle lines, the cost outside the search that every command pays: a line parsed
//! into a grid, and the clash check of its givens, per 9×9 puzzle of `royle17_sample.txt` (and
//! of its solutions: every cell filled).
//!
//! Run with `cargo bench --bench read`; `BENCHMARKS.md` has the table of the last run.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sudokit::solve::{Answer, Limits, Native, Solver};
use sudokit::text::parse_line;

fn bench_read(c: &mut Criterion) {
    let text = include_str!("../models/sudoku/9x9/royle17_sample.txt");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let grids: Vec<_> = lines.iter().map(|l| parse_line(l, None).unwrap()).collect();
    let mut group = c.benchmark_group("read");
    group.throughput(Throughput::Elements(lines.len() as u64));
    group.bench_function("parse_line", |b| {
        b.iter(|| {
            for line in &lines {
                black_box(parse_line(black_box(line), None).unwrap());
            }
        })
    });
    group.bench_function("first_clash", |b| {
        b.iter(|| {
            for grid in &grids {
                black_box(black_box(grid).first_clash());
            }
        })
    });
    // The solutions: every cell filled (the reading of a grid, the verifier's other orders).
    let solutions: Vec<_> = grids
        .iter()
        .map(|g| match Native.solve(g, &Limits::none()).unwrap().answer {
            Answer::Solved(solution) => solution,
            other => panic!("a royle17 puzzle has a solution: {other:?}"),
        })
        .collect();
    group.bench_function("first_clash_full", |b| {
        b.iter(|| {
            for grid in &solutions {
                black_box(black_box(grid).first_clash());
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench_read);
criterion_main!(benches);
