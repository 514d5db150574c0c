//! The cost of one fixpoint per scheme, of a search on a scheme, and of Régin's filtering of one
//! unit with the hand-written matcher against petgraph's matching and SCC, on Magictour's top95.
//!
//! Run with `cargo bench --bench propagate`; `BENCHMARKS.md` ("Grading") has the figures of the
//! last run.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use sudokit::Grid;
use sudokit::propagate::hac::Matcher;
use sudokit::propagate::{Domains, Propagator, Scheme, Searcher};
use sudokit::search::Limits;
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
    for scheme in Scheme::EVERY {
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

/// The same fixpoints with the trace on (a copy and a comparison of the store per step, the
/// events kept): what `sudokit explain` pays, against the untraced group above.
fn bench_traced_fixpoints(c: &mut Criterion) {
    let puzzles = puzzles();
    let shape = puzzles[0].shape();
    let mut group = c.benchmark_group("fixpoint_traced_20_top95");
    group.sample_size(10);
    for scheme in [
        Scheme::FC,
        Scheme::FCI,
        Scheme::BC,
        Scheme::HAC,
        Scheme::HACSC3,
        Scheme::HACV,
    ] {
        let mut engine = Propagator::new(shape);
        engine.set_tracing(true);
        let mut d = Domains::full(shape);
        group.bench_with_input(BenchmarkId::from_parameter(scheme), &scheme, |b, &s| {
            b.iter(|| {
                let mut events = 0;
                for p in &puzzles {
                    d.copy_from(&Domains::from_puzzle(p));
                    let _ = engine.propagate(&mut d, s);
                    events += engine.take_events().len();
                }
                black_box(events)
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
                    let out = searcher.run(p, s, 2, &Limits::none()).expect("verified");
                    assert_eq!(out.solutions.len(), 1);
                }
            })
        });
    }
    group.finish();
}

/// The rows of the HAC fixpoints of the puzzles that still have an open cell, as candidate bitsets
/// (one `u64` per cell: n = 9).
fn open_units(puzzles: &[Grid]) -> Vec<Vec<u64>> {
    let shape = puzzles[0].shape();
    let n = shape.order();
    let mut engine = Propagator::new(shape);
    let mut units = Vec::new();
    for p in puzzles {
        let mut d = Domains::from_puzzle(p);
        engine.propagate(&mut d, Scheme::HAC).expect("solvable");
        for r in 0..n {
            let row: Vec<u64> = (0..n).map(|c| d.cell_words(r * n + c)[0]).collect();
            if row.iter().any(|w| w.count_ones() > 1) {
                units.push(row);
            }
        }
    }
    units
}

/// Régin's filtering of one unit with the hand-written matcher (what the engine uses).
fn hac_matcher(m: &mut Matcher, row: &[u64], out: &mut [u64]) {
    m.begin(row.len());
    for (i, w) in row.iter().enumerate() {
        m.set_row(i, std::slice::from_ref(w));
    }
    assert!(m.perfect_matching());
    m.compute_allowed();
    for (i, o) in out.iter_mut().enumerate() {
        *o = m.allowed(i)[0];
    }
}

/// The same filtering with petgraph: maximum matching on the bipartite graph, then Tarjan's SCC
/// on the oriented graph (cells and values as nodes, matched edges value → cell).
fn hac_petgraph(row: &[u64], out: &mut [u64]) {
    use petgraph::algo::{maximum_matching, tarjan_scc};
    use petgraph::graph::{DiGraph, NodeIndex, UnGraph};
    let n = row.len();
    let mut g = UnGraph::<(), ()>::with_capacity(2 * n, n * n);
    for _ in 0..2 * n {
        g.add_node(());
    }
    for (i, &w) in row.iter().enumerate() {
        for v in 0..n {
            if w & (1 << v) != 0 {
                g.add_edge(NodeIndex::new(i), NodeIndex::new(n + v), ());
            }
        }
    }
    let matching = maximum_matching(&g);
    let mut d = DiGraph::<(), ()>::with_capacity(2 * n, n * n);
    for _ in 0..2 * n {
        d.add_node(());
    }
    for (i, &w) in row.iter().enumerate() {
        let mate = matching.mate(NodeIndex::new(i)).expect("perfect").index() - n;
        for v in 0..n {
            if w & (1 << v) != 0 {
                if v == mate {
                    d.add_edge(NodeIndex::new(n + v), NodeIndex::new(i), ());
                } else {
                    d.add_edge(NodeIndex::new(i), NodeIndex::new(n + v), ());
                }
            }
        }
    }
    let mut comp = vec![0usize; 2 * n];
    for (k, scc) in tarjan_scc(&d).into_iter().enumerate() {
        for node in scc {
            comp[node.index()] = k;
        }
    }
    for (i, &w) in row.iter().enumerate() {
        let mate = matching.mate(NodeIndex::new(i)).expect("perfect").index() - n;
        out[i] = (0..n)
            .filter(|&v| w & (1 << v) != 0 && (v == mate || comp[i] == comp[n + v]))
            .fold(0, |acc, v| acc | (1 << v));
    }
}

fn bench_matching(c: &mut Criterion) {
    let units = open_units(&puzzles());
    let mut m = Matcher::new(9);
    let (mut a, mut b) = ([0u64; 9], [0u64; 9]);
    for row in &units {
        hac_matcher(&mut m, row, &mut a);
        hac_petgraph(row, &mut b);
        assert_eq!(a, b, "both filterings agree on {row:?}");
    }
    let mut group = c.benchmark_group(format!("hac_{}_open_rows", units.len()));
    group.sample_size(20);
    group.bench_function("hand_written", |bench| {
        bench.iter(|| {
            for row in &units {
                hac_matcher(&mut m, row, &mut a);
                black_box(&a);
            }
        })
    });
    group.bench_function("petgraph", |bench| {
        bench.iter(|| {
            for row in &units {
                hac_petgraph(row, &mut b);
                black_box(&b);
            }
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_fixpoints,
    bench_traced_fixpoints,
    bench_search,
    bench_matching
);
criterion_main!(benches);
