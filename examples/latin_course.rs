//! The course example from the library: two 3×3 partial Latin squares carried through
//! Latin square completion → Sudoku → native solver → back, and one level further,
//! Latin square → Sudoku → CNF → SAT solver (varisat) → Sudoku → Latin square, verified at each
//! level. The sizes of every target (CNF, 0-1 ILP, exact cover, graph precolouring) come from the
//! reductions' size formulas.
//!
//! `cargo run --example latin_course`

use sudokit::encode::cnf::CnfOptions;
use sudokit::reduce::chain::{ChainVerdict, run_latin_chain};
use sudokit::reduce::encodings::every_target_size;
use sudokit::reduce::sat_chain::{SatVerdict, run_latin_sat_chain};
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
        println!("{square}: {name}");

        // Level 1: Latin square → Sudoku, solved by a Sudoku backend.
        let chain = run_latin_chain(&latin, solver.as_ref(), &Limits::none(), 100)?;
        println!(
            "  Sudoku of order {} with {} givens; {} solution(s) counted by native",
            chain.sudoku.shape().order(),
            chain.sudoku.filled(),
            chain.sudoku_count.unwrap_or(0)
        );
        match &chain.verdict {
            ChainVerdict::Completed { completion, .. } => println!(
                "  native: completion (verified) {}",
                to_line(completion).unwrap_or_default()
            ),
            ChainVerdict::NoCompletion => println!("  native: the Sudoku has no solution"),
            ChainVerdict::Unknown(reason) => println!("  native: unknown ({reason})"),
        }

        // Level 2: the Sudoku → CNF, solved by varisat, mapped back twice.
        let sat = run_latin_sat_chain(&latin, CnfOptions::default())?;
        println!(
            "  CNF: {} variables, {} clauses, {} literals (formula predicted {})",
            sat.cnf_size.variables,
            sat.cnf_size.constraints,
            sat.cnf_size.entries,
            if sat.cnf_size == sat.cnf_predicted {
                "exactly"
            } else {
                "WRONG"
            }
        );
        match &sat.verdict {
            SatVerdict::Completed { completion, .. } => println!(
                "  varisat: satisfiable; model checked, decoded, verified; completion {}",
                to_line(completion).unwrap_or_default()
            ),
            SatVerdict::NoCompletion => {
                println!("  varisat: unsatisfiable, so no Sudoku solution and no completion")
            }
        }

        // The other targets the Sudoku reduces to, by their size formulas.
        for row in every_target_size(&chain.sudoku, CnfOptions::default())? {
            println!("  {}: {}", row.level, row.size.describe(&row.names));
        }
    }
    Ok(())
}
