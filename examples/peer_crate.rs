//! The `sudoku` crate (0.8, a port of JCZSolve) as a whole process, for the whole-process
//! comparison of `scripts/peers.sh`: reads 9×9 puzzle lines from a file, prints one line per
//! puzzle as `sudokit solve` does: the solution, or `unsat`; with `unique`, the solution of a
//! puzzle with exactly one, else `multiple` or `unsat`.
//!
//! Run: `cargo run --release --example peer_crate -- FILE [solve|unique]`.

use std::io::{BufRead, BufReader, BufWriter, Write};

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: peer_crate FILE [solve|unique]";
    let Some(file) = args.get(1) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let unique = match args.get(2).map(String::as_str) {
        None | Some("solve") => false,
        Some("unique") => true,
        Some(_) => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    };
    let input = BufReader::new(std::fs::File::open(file)?);
    let mut out = BufWriter::new(std::io::stdout().lock());
    for line in input.lines() {
        let line = line?;
        let line = line.trim_end();
        if line.is_empty() {
            continue;
        }
        let Ok(sudoku) = sudoku::Sudoku::from_str_line(line) else {
            writeln!(out, "error")?;
            continue;
        };
        let answer = if unique {
            sudoku.solution()
        } else {
            sudoku.some_solution()
        };
        match answer {
            Some(solution) => writeln!(out, "{}", solution.to_str_line())?,
            None if unique && sudoku.some_solution().is_some() => writeln!(out, "multiple")?,
            None => writeln!(out, "unsat")?,
        }
    }
    out.flush()
}
