//! Reads a puzzle and a candidate solution and runs the O(n²) certificate check on them.
//!
//! `cargo run --example verify_certificate` checks a 6×6 model puzzle against its solution and then
//! against a copy with two cells swapped.

use sudokit::text::parse_line;
use sudokit::verify;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let puzzles = std::fs::read_to_string("models/sudoku/6x6/puzzles.txt")?;
    let solutions = std::fs::read_to_string("models/sudoku/6x6/solutions.txt")?;
    let puzzle = parse_line(puzzles.lines().next().ok_or("no puzzle")?, None)?;
    let solution_line = solutions.lines().next().ok_or("no solution")?;
    let solution = parse_line(solution_line, None)?;
    println!("{}: {:?}", puzzle.shape(), verify(&puzzle, &solution));

    // Swap the first two cells of the last row: two columns now repeat a value.
    let mut cells: Vec<char> = solution_line.chars().collect();
    let last_row = cells.len() - 6;
    cells.swap(last_row, last_row + 1);
    let tampered = parse_line(&cells.into_iter().collect::<String>(), None)?;
    match verify(&puzzle, &tampered) {
        Ok(()) => println!("tampered grid accepted: the verifier is broken"),
        Err(violation) => println!("tampered grid rejected: {violation}"),
    }
    Ok(())
}
