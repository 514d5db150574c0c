//! The cost of one fixpoint per scheme, and of a search on a scheme, on Magictour's top95.
//!
//! Run with `cargo bench --bench propagate`; `BENCHMARKS.md` ("Grading (issue 7)") has the
//! figures of the last run.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use sudokit::Grid;
use sudokit::propagate::search::Searcher;
use sudokit::propagate::{Budget, Domains, Propagator, Scheme};
use sudokit::text::parse_line;

fn puzzles() -> Vec<Grid> {
    let text = include_str!("../models/sudoku/9x9/top95.txt");
    text.lines()
        .take(20)
        .map(|l| parse_line(l, None).expect("model puzzle"))
        .collect()
}

fn bench_fixpoints(c: &mut Criterion) {
    let puzzles = puzzles();
    let shape = puzzles[0].shape();
    let mut group = c.benchmark_group("fixpoint_20_top95");
    group.sample_size(10);
    for scheme in Scheme::ALL {
        let mut engine = Propagator::new(shape);
        let mut d = Domains::full(shape);
        group.bench_with_input(BenchmarkId::from_parameter(scheme), &scheme, |b, &s| {
            b.iter(|| {
                let mut left = 0;
                for p in &puzzles {
                    d.copy_from(&Domains::from_puzzle(p));
                    if engine.propagate(&mut d, s).is_ok() {
                        left += d.total();
                    }
                }
                black_box(left)
            })
        });
    }
    group.finish();
}

fn bench_search(c: &mut Criterion) {
    let puzzles = puzzles();
    let shape = puzzles[0].shape();
    let mut group = c.benchmark_group("search_unique_20_top95");
    group.sample_size(10);
    for scheme in [
        Scheme::FC,
        Scheme::FCI,
        Scheme::HAC,
        Scheme::HACS,
        Scheme::HACSC3,
    ] {
        let mut searcher = Searcher::new(shape);
        group.bench_with_input(BenchmarkId::from_parameter(scheme), &scheme, |b, &s| {
            b.iter(|| {
                for p in &puzzles {
                    let out = searcher.run(p, s, 2, Budget::UNLIMITED).expect("verified");
                    assert_eq!(out.solutions.len(), 1);
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_fixpoints, bench_search);
criterion_main!(benches);
