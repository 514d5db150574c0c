//! One pass of propagation fixpoints over the first 20 puzzles of a file, one scheme after the
//! other, with the engine's trace off or on: for instruction counts under callgrind (the cost of
//! the trace hook, untraced and traced), where the criterion bench would run each set many times.
//!
//! Run: `cargo run --release --example fixpoint_run -- FILE [--trace] SCHEME...`; it prints the
//! candidates left summed over the puzzles (the same with and without the trace) and, traced, the
//! number of events recorded. Under callgrind:
//! `valgrind --tool=callgrind target/release/examples/fixpoint_run models/sudoku/9x9/top95.txt HAC`
//! (subtract the run with no scheme, which only reads the file).

use sudokit::propagate::{Domains, Propagator, Scheme};
use sudokit::text::parse_line;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: fixpoint_run FILE [--trace] SCHEME...";
    let Some(file) = args.first() else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let trace = args.iter().any(|a| a == "--trace");
    let schemes: Vec<Scheme> = match args[1..]
        .iter()
        .filter(|a| *a != "--trace")
        .map(|a| a.parse())
        .collect()
    {
        Ok(schemes) => schemes,
        Err(e) => {
            eprintln!("{e}\n{usage}");
            std::process::exit(2);
        }
    };
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| {
        eprintln!("cannot read {file}: {e}");
        std::process::exit(2);
    });
    let puzzles: Vec<_> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .take(20)
        .filter_map(|l| parse_line(l, None).ok())
        .collect();
    let Some(first) = puzzles.first() else {
        eprintln!("{file}: no puzzle");
        std::process::exit(2);
    };
    let shape = first.shape();
    let mut engine = Propagator::new(shape);
    engine.set_tracing(trace);
    let (mut left, mut events) = (0, 0);
    for &scheme in &schemes {
        for puzzle in puzzles.iter().filter(|p| p.shape() == shape) {
            let mut d = Domains::from_puzzle(puzzle);
            if engine.propagate(&mut d, scheme).is_ok() {
                left += d.total();
            }
            events += engine.take_events().len();
        }
    }
    println!("{left} candidates left, {events} events");
}
