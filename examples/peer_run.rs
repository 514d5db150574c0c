//! One pass of `native` or of the `sudoku` crate (0.8, the `peers` bench's reference) over the
//! first puzzles of a file (2000 unless PUZZLES says), single thread: for instruction counts under callgrind, where
//! the criterion bench would run each set many times, and for guesses per puzzle.
//!
//! Run: `cargo run --release --example peer_run -- native|crate FILE [solve|unique] [REPEATS]
//! [PUZZLES]`;
//! it prints the best time of the repeats and, for `native`, the guesses and nodes per puzzle.
//! Under callgrind: `valgrind --tool=callgrind target/release/examples/peer_run native FILE`.

use std::hint::black_box;
use std::time::Instant;

use sudokit::solve::{Limits, Native, Solver};
use sudokit::text::parse_line;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: peer_run native|crate FILE [solve|unique] [REPEATS] [PUZZLES]";
    let (Some(engine), Some(file)) = (args.get(1), args.get(2)) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let unique = match args.get(3).map(String::as_str) {
        None | Some("solve") => false,
        Some("unique") => true,
        Some(_) => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    };
    let repeats: u32 = args.get(4).and_then(|r| r.parse().ok()).unwrap_or(1).max(1);
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| {
        eprintln!("{file}: {e}");
        std::process::exit(2);
    });
    let puzzles: usize = args.get(5).and_then(|r| r.parse().ok()).unwrap_or(2000);
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.is_empty())
        .take(puzzles)
        .collect();
    let mut best = f64::MAX;
    match engine.as_str() {
        "native" => {
            let puzzles: Vec<_> = lines.iter().map(|l| parse_line(l, None).unwrap()).collect();
            let limits = Limits::none();
            let (mut guesses, mut nodes) = (0, 0);
            for _ in 0..repeats {
                let start = Instant::now();
                for p in &puzzles {
                    let stats = if unique {
                        Native.unique(black_box(p), &limits).unwrap().stats
                    } else {
                        Native.solve(black_box(p), &limits).unwrap().stats
                    };
                    guesses += stats.guesses;
                    nodes += stats.nodes;
                }
                best = best.min(start.elapsed().as_secs_f64());
            }
            let runs = f64::from(repeats) * puzzles.len() as f64;
            println!(
                "native: {:.1} ms, {:.2} guesses and {:.2} nodes per puzzle",
                best * 1e3,
                guesses as f64 / runs,
                nodes as f64 / runs
            );
        }
        "crate" => {
            let puzzles: Vec<_> = lines
                .iter()
                .map(|l| sudoku::Sudoku::from_str_line(l).unwrap())
                .collect();
            for _ in 0..repeats {
                let start = Instant::now();
                for s in &puzzles {
                    if unique {
                        black_box(black_box(*s).solutions_count_up_to(2));
                    } else {
                        black_box(black_box(*s).some_solution());
                    }
                }
                best = best.min(start.elapsed().as_secs_f64());
            }
            println!("sudoku crate: {:.1} ms", best * 1e3);
        }
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    }
}
