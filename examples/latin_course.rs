//! The course example from the library: two 3×3 partial Latin squares carried through
//! Latin square completion → Sudoku → native solver → back, verified at each level.
//!
//! `cargo run --example latin_course`

use sudokit::reduce::chain::{ChainVerdict, run_latin_chain};
use sudokit::solve::{Limits, backend};
use sudokit::text::{ShapeSpec, parse_line, to_line};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let solver = backend("native")?;
    for (name, square) in [
        ("completable", "1.......3"),
        (
            "not completable (row 1 needs a 3 that column 3 already has)",
            "12...3...",
        ),
    ] {
        let latin = parse_line(square, Some(ShapeSpec::Latin))?;
        let chain = run_latin_chain(&latin, solver.as_ref(), &Limits::none(), 100)?;
        println!("{square}: {name}");
        println!(
            "  Sudoku of order {} with {} givens; {} solution(s) counted",
            chain.sudoku.shape().order(),
            chain.sudoku.filled(),
            chain.sudoku_count.unwrap_or(0)
        );
        match chain.verdict {
            ChainVerdict::Completed { completion, .. } => println!(
                "  completion (verified): {}",
                to_line(&completion).unwrap_or_default()
            ),
            ChainVerdict::NoCompletion => println!("  no completion: the Sudoku has no solution"),
            ChainVerdict::Unknown(reason) => println!("  unknown: {reason}"),
        }
    }
    Ok(())
}
