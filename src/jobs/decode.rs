//! The result of `decode`: every model of a solver's answer, verified, in the order of the
//! answer, then what the answer says of the rest.
//!
//! Text: one record per model (the solution's grid, or `not a solution: ...` / `not a grid:
//! ...`), then, for an answer of several models or one that says its enumeration ended, a line
//! with the count (`2 solutions; the solver says there is no other (not checked)`); an answer
//! without a model says `unsat (claimed by the answer, not checked)` or `unknown`. JSON: one
//! line per model (`"model"`, `"status"`, `"solution"` or the reason), then a summary line with
//! the count. A solver's "no other solution" is its claim: `decode` reads an answer and has no
//! proof to check.

use std::io::BufRead;

use serde_json::json;

use super::record_text::{grid_json, grid_record, json_line};
use crate::format::Decoded;
use crate::grid::Grid;
use crate::text::PuzzleReader;
use crate::verify::verify;

/// The puzzles of a file that `grid` solves, as `(index, line)` (both 1-based), at most `limit`
/// of them, in file order.
///
/// A model that decodes to a grid that is not a solution of the puzzle it was decoded against
/// is most often an answer to another puzzle of the same file, exported with another `--index`:
/// this finds that puzzle so that the message can name the right `--index`. Unreadable puzzles
/// and puzzles of another shape are skipped.
///
/// # Complexity
/// One pass over the file: O(n²) per puzzle of the grid's shape (the verifier).
pub fn puzzles_solved_by<R: BufRead>(
    grid: &Grid,
    puzzles: PuzzleReader<R>,
    limit: usize,
) -> Vec<(usize, usize)> {
    puzzles
        .enumerate()
        .filter_map(|(i, record)| {
            let record = record.ok()?;
            (record.grid.shape() == grid.shape() && verify(&record.grid, grid).is_ok())
                .then_some((i + 1, record.line))
        })
        .take(limit)
        .collect()
}

/// The hint for a model that is not a solution of puzzle `picked` of `file` but solves another
/// puzzle of it (found by [`puzzles_solved_by`]): the `--index` the answer was made for.
pub fn index_hint<R: BufRead>(
    grid: &Grid,
    puzzles: PuzzleReader<R>,
    file: &str,
    picked: usize,
) -> Option<String> {
    let &(index, line) = puzzles_solved_by(grid, puzzles, 1).first()?;
    Some(format!(
        " (it solves puzzle {index}, line {line}, of {file}: the answer was made for --index \
         {index}, not {picked})"
    ))
}

/// The record of one result of an answer; `model` counts the models from 1.
pub fn model(decoded: &Decoded, model: usize, json: bool) -> String {
    if json {
        let value = match decoded {
            Decoded::Solution(grid) => {
                json!({"model": model, "status": "solution", "solution": grid_json(grid)})
            }
            Decoded::Invalid(grid, violation) => json!({
                "model": model,
                "status": "invalid",
                "grid": grid_json(grid),
                "reason": violation.to_string(),
            }),
            Decoded::NotAGrid(why) => {
                json!({"model": model, "status": "not a grid", "reason": why})
            }
            Decoded::Unsat | Decoded::Unknown => return String::new(),
        };
        return json_line(&value);
    }
    match decoded {
        Decoded::Solution(grid) => grid_record(grid),
        Decoded::Invalid(_, violation) => format!("not a solution: {violation}\n"),
        Decoded::NotAGrid(why) => format!("not a grid: {why}\n"),
        Decoded::Unsat | Decoded::Unknown => String::new(),
    }
}

/// How an answer ended: after `models` models (`solutions` of them verified), with the
/// answer's final word (`Decoded::Unsat`: no other; `Decoded::Unknown`: the solver stopped;
/// `None`: nothing said of others).
pub fn summary(models: usize, solutions: usize, end: Option<&Decoded>, json: bool) -> String {
    let end_word = match end {
        Some(Decoded::Unsat) => "no other",
        Some(Decoded::Unknown) => "stopped",
        _ => "none",
    };
    if json {
        let mut value = json!({
            "status": if models > 0 { "end" } else { match end {
                Some(Decoded::Unsat) => "unsat",
                _ => "unknown",
            }},
            "models": models,
            "solutions": solutions,
            "complete": matches!(end, Some(Decoded::Unsat)),
            "end": end_word,
        });
        if matches!(end, Some(Decoded::Unsat)) {
            value["certified"] = false.into();
        }
        return json_line(&value);
    }
    match (models, end) {
        (0, Some(Decoded::Unsat)) => "unsat (claimed by the answer, not checked)\n".into(),
        (0, _) => "unknown\n".into(),
        (_, Some(Decoded::Unsat)) => format!(
            "{solutions} solution{} of {models}; the solver says there is no other (not checked)\n",
            plural(solutions)
        ),
        (_, Some(Decoded::Unknown)) => format!(
            "{solutions} solution{} of {models}; the solver stopped before it was done\n",
            plural(solutions)
        ),
        (1, _) => String::new(),
        (_, _) => format!(
            "{solutions} solution{} of {models}; the answer says nothing of others\n",
            plural(solutions)
        ),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn models_then_the_end() {
        let grid: crate::Grid = "1234341221434321".parse().unwrap();
        let solution = Decoded::Solution(grid);
        assert_eq!(model(&solution, 1, false), "1234341221434321\n");
        assert_eq!(summary(1, 1, None, false), "", "one model: the grid alone");
        assert_eq!(
            summary(2, 2, Some(&Decoded::Unsat), false),
            "2 solutions of 2; the solver says there is no other (not checked)\n"
        );
        assert_eq!(
            summary(0, 0, Some(&Decoded::Unsat), false),
            "unsat (claimed by the answer, not checked)\n"
        );
        let line = summary(2, 2, Some(&Decoded::Unsat), true);
        assert!(
            line.contains("\"models\":2") && line.contains("\"certified\":false"),
            "{line}"
        );
        assert!(model(&solution, 1, true).contains("\"model\":1"));
    }

    #[test]
    fn the_puzzle_an_answer_solves_is_found_by_its_index_and_line() {
        let file = "# two puzzles\n1.3.....4....2..\n\n.2........1.4...\n";
        let read = || PuzzleReader::new(file.as_bytes(), crate::text::ReadOptions::default());
        let first: crate::Grid = "1432231441233241".parse().unwrap();
        assert_eq!(puzzles_solved_by(&first, read(), 5), vec![(1, 2)]);
        let second: crate::Grid = "1243342123144132".parse().unwrap();
        assert_eq!(puzzles_solved_by(&second, read(), 5), vec![(2, 4)]);
        let other: crate::Grid = "4321123421433412".parse().unwrap();
        assert_eq!(
            puzzles_solved_by(&other, read(), 5),
            Vec::<(usize, usize)>::new()
        );
    }
}
