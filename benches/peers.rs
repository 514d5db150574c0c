//! Side-by-side throughput of `native` and the `sudoku` crate (0.8, a port of JCZSolve), single
//! thread, same puzzles, same process.
//!
//! Each data set is the first 2000 puzzles of a file in the directory `SUDOKIT_DATA` names (the
//! public collections of `models/README.md`; all of them when the file
//! is shorter); a set whose file is missing is skipped with a note. Two questions per set: the
//! first solution (`solve`) and uniqueness (`unique`: count up to 2). `native` is the raw backend
//! (no certificate check), as the `sudoku` crate has none either.
//!
//! Run: `cargo bench --bench peers`; the ratios are in `BENCHMARKS.md`.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sudokit::solve::{Limits, Native, Solver};
use sudokit::text::parse_line;

const SETS: &[&str] = &[
    "royle17_49158.txt",
    "forum_hardest_1905_11plus.txt",
    "magictour_top1465.txt",
];

const PUZZLES_PER_SET: usize = 2000;

fn load(name: &str) -> Option<Vec<String>> {
    let path = PathBuf::from(std::env::var_os("SUDOKIT_DATA")?).join(name);
    let text = std::fs::read_to_string(&path).ok()?;
    Some(
        text.lines()
            .filter(|l| !l.is_empty())
            .take(PUZZLES_PER_SET)
            .map(str::to_string)
            .collect(),
    )
}

fn peers(c: &mut Criterion) {
    for name in SETS {
        let Some(lines) = load(name) else {
            eprintln!("skipped: {name} not found (set SUDOKIT_DATA to the collections' directory)");
            continue;
        };
        let ours: Vec<_> = lines.iter().map(|l| parse_line(l, None).unwrap()).collect();
        let theirs: Vec<_> = lines
            .iter()
            .map(|l| sudoku::Sudoku::from_str_line(l).unwrap())
            .collect();
        let set = name.trim_end_matches(".txt");
        let limits = Limits::none();
        let mut group = c.benchmark_group(set);
        group
            .throughput(Throughput::Elements(lines.len() as u64))
            .sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(4));
        group.bench_function("solve/native", |b| {
            b.iter(|| {
                for g in &ours {
                    black_box(Native.solve(black_box(g), &limits).unwrap());
                }
            })
        });
        group.bench_function("solve/sudoku-crate", |b| {
            b.iter(|| {
                for s in &theirs {
                    black_box(black_box(*s).some_solution());
                }
            })
        });
        group.bench_function("unique/native", |b| {
            b.iter(|| {
                for g in &ours {
                    black_box(Native.unique(black_box(g), &limits).unwrap());
                }
            })
        });
        group.bench_function("unique/sudoku-crate", |b| {
            b.iter(|| {
                for s in &theirs {
                    black_box(black_box(*s).solutions_count_up_to(2));
                }
            })
        });
        group.finish();
    }
}

criterion_group!(benches, peers);
criterion_main!(benches);
