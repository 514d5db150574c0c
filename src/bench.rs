//! The library side of `sudokit bench`: solve a set of puzzles with one backend and summarise the
//! per-puzzle times and work counters.
//!
//! Each puzzle is solved once ([`Solver::solve`], first solution) under the given [`Limits`]; its
//! wall time is measured around the call (the certificate check of a [`Verified`] backend
//! included). The summary has the throughput, the median and 99th percentile time, guesses per
//! puzzle, the share solved without guessing, and how many were solved within 0.1 s, 1 s and
//! 10 s.
//!
//! # Complexity
//! The solving, plus O(m log m) to sort the m times.
//!
//! [`Verified`]: crate::solve::Verified

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::batch::Batch;
use crate::grid::Grid;
use crate::solve::{Answer, Limits, SolveError, Solver};

/// Time thresholds of [`BenchRow::within`], in seconds.
pub const THRESHOLDS: [f64; 3] = [0.1, 1.0, 10.0];

/// One backend on one set of puzzles.
#[derive(Debug, Clone, Serialize)]
pub struct BenchRow {
    /// Backend name.
    pub backend: String,
    /// Puzzles attempted.
    pub puzzles: usize,
    /// Puzzles solved.
    pub solved: usize,
    /// Puzzles proved unsatisfiable.
    pub unsat: usize,
    /// Puzzles stopped by a limit.
    pub unknown: usize,
    /// Wall time of the whole set, seconds.
    pub wall_seconds: f64,
    /// Puzzles per second of wall time.
    pub puzzles_per_second: f64,
    /// Median time per puzzle, µs.
    pub median_us: f64,
    /// 99th percentile time per puzzle, µs.
    pub p99_us: f64,
    /// Mean guesses per puzzle.
    pub guesses_per_puzzle: f64,
    /// Percentage of puzzles answered without a guess.
    pub no_guess_percent: f64,
    /// Puzzles solved within each of [`THRESHOLDS`].
    pub within: [usize; 3],
}

/// Solves every puzzle with `solver` on `threads` threads (the ordered parallel map of
/// [`crate::batch`]), and summarises.
///
/// # Errors
/// The first [`SolveError`] (a puzzle too large for the backend, or a failed certificate).
pub fn run(
    solver: &dyn Solver,
    puzzles: &[Grid],
    limits: &Limits,
    threads: usize,
) -> Result<BenchRow, SolveError> {
    let one = |puzzle: &Grid| -> Result<(Duration, Answer, u64), SolveError> {
        let start = Instant::now();
        let report = solver.solve(puzzle, limits)?;
        Ok((start.elapsed(), report.answer, report.stats.guesses))
    };
    let start = Instant::now();
    let mut results = Vec::with_capacity(puzzles.len());
    Batch::new(threads)
        .run(puzzles.iter(), one, |result| {
            results.push(result);
            Ok::<(), std::convert::Infallible>(())
        })
        .unwrap_or_else(|never| match never {});
    let wall = start.elapsed().as_secs_f64();
    let results = results.into_iter().collect::<Result<Vec<_>, _>>()?;
    let m = results.len();
    let mut row = BenchRow {
        backend: solver.name().to_string(),
        puzzles: m,
        solved: 0,
        unsat: 0,
        unknown: 0,
        wall_seconds: wall,
        puzzles_per_second: if wall > 0.0 { m as f64 / wall } else { 0.0 },
        median_us: 0.0,
        p99_us: 0.0,
        guesses_per_puzzle: 0.0,
        no_guess_percent: 0.0,
        within: [0; 3],
    };
    let mut times: Vec<f64> = Vec::with_capacity(m);
    let (mut guesses, mut no_guess) = (0u64, 0usize);
    for (time, answer, g) in &results {
        let seconds = time.as_secs_f64();
        times.push(seconds * 1e6);
        guesses += g;
        match answer {
            Answer::Solved(_) => {
                row.solved += 1;
                for (slot, limit) in row.within.iter_mut().zip(THRESHOLDS) {
                    if seconds <= limit {
                        *slot += 1;
                    }
                }
            }
            Answer::Unsat => row.unsat += 1,
            Answer::Unknown(_) => row.unknown += 1,
        }
        if *g == 0 && !matches!(answer, Answer::Unknown(_)) {
            no_guess += 1;
        }
    }
    if m > 0 {
        times.sort_by(f64::total_cmp);
        row.median_us = percentile(&times, 0.5);
        row.p99_us = percentile(&times, 0.99);
        row.guesses_per_puzzle = guesses as f64 / m as f64;
        row.no_guess_percent = 100.0 * no_guess as f64 / m as f64;
    }
    Ok(row)
}

/// The nearest-rank percentile of sorted values.
fn percentile(sorted: &[f64], p: f64) -> f64 {
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::backend;
    use crate::text::parse_line;

    #[test]
    fn a_bench_row_counts_answers() {
        let puzzles = vec![
            parse_line("1.3.....4....2..", None).unwrap(),
            parse_line("11..............", None).unwrap(),
        ];
        let row = run(&*backend("native").unwrap(), &puzzles, &Limits::none(), 1).unwrap();
        assert_eq!(
            (row.puzzles, row.solved, row.unsat, row.unknown),
            (2, 1, 1, 0)
        );
        assert_eq!(row.within, [1, 1, 1]);
        assert!(row.median_us <= row.p99_us);
        assert_eq!(percentile(&[1.0, 2.0, 3.0, 4.0], 0.5), 2.0);
        assert_eq!(percentile(&[1.0, 2.0, 3.0, 4.0], 0.99), 4.0);
    }
}
