//! Reading MiniZinc's answers: the default output of the `mzn` export and the grid block that
//! `models/sudoku.mzn` prints for the `dzn` export.
//!
//! A solution is the text before the first `----------` line: either the default output
//! `x = [| 1, 2 | 2, 1 |];` (MiniZinc 2.6 on; older versions write
//! `x = array2d(1..n, 1..n, [1, 2, 2, 1]);`), or `n` rows of `n` numbers. `==========` after it
//! says the search space is exhausted. The status lines `=====UNSATISFIABLE=====` and
//! `=====UNKNOWN=====` say there is none or that the solver gave up; `=====ERROR=====` and
//! `=====UNBOUNDED=====` are errors. `%` comment lines (`% time elapsed`) are skipped.
//!
//! # Complexity
//! Linear in the answer.
//!
//! # References
//! - MiniZinc handbook, "Output" and the solution output specification (`----------`,
//!   `==========`, `=====UNSATISFIABLE=====`).

use std::io::BufRead;

use crate::format::entry::{
    AnswerError, AnswerReader, Claim, answer_error, answer_lines, claim_of_cells,
};
use crate::grid::Grid;

/// Reads MiniZinc's answer to `puzzle`; see the module docs.
///
/// # Errors
/// [`AnswerError`] with the place of the first problem.
pub fn read_minizinc(puzzle: &Grid, input: &mut dyn BufRead) -> Result<Claim, AnswerError> {
    let lines = answer_lines(input)?;
    // The solution's numbers with their places.
    let mut numbers: Vec<(usize, usize, usize)> = Vec::new();
    for (i, text) in lines.iter().enumerate() {
        let line = i + 1;
        let trimmed = text.trim();
        match trimmed {
            "----------" => return solution(puzzle, &numbers, line),
            "=====UNSATISFIABLE=====" => return Ok(Claim::Unsat),
            "=====UNKNOWN=====" => return Ok(Claim::Unknown),
            "=====ERROR=====" | "=====UNBOUNDED=====" | "=====UNSATorUNBOUNDED=====" => {
                return Err(answer_error(
                    line,
                    column_of(text, trimmed),
                    format!("MiniZinc reports {trimmed}"),
                ));
            }
            _ if trimmed.is_empty() || trimmed.starts_with('%') => {}
            _ => numbers_of(text, line, &mut numbers)?,
        }
    }
    Err(answer_error(
        lines.len() + 1,
        1,
        "no '----------' after a solution and no status line (truncated answer?)",
    ))
}

fn column_of(text: &str, part: &str) -> usize {
    crate::text::located::token_column(text, part)
}

/// Appends the numbers of one line of a solution: after `x =`, skipping the index sets of
/// `array2d(1..n, 1..n, [...])`.
fn numbers_of(
    text: &str,
    line: usize,
    numbers: &mut Vec<(usize, usize, usize)>,
) -> Result<(), AnswerError> {
    let mut body = text;
    if let Some((name, rest)) = text.split_once('=') {
        if name.trim() != "x" {
            return Err(answer_error(
                line,
                1,
                format!("expected x = ..., not '{}'", name.trim()),
            ));
        }
        body = rest;
    }
    if let Some(start) = body.find("array2d(") {
        let Some(open) = body[start..].find('[') else {
            return Err(answer_error(
                line,
                column_of(text, &body[start..]),
                "expected '[' in array2d(...)",
            ));
        };
        body = &body[start + open..];
    }
    let mut k = 0;
    let bytes = body.as_bytes();
    let mut columns = crate::text::located::Columns::new(text);
    while k < bytes.len() {
        let c = bytes[k];
        if c.is_ascii_digit() || c == b'-' {
            let start = k;
            k += 1;
            while k < bytes.len() && bytes[k].is_ascii_digit() {
                k += 1;
            }
            let token = &body[start..k];
            let column = columns.of(token);
            let value: i64 = token
                .parse()
                .map_err(|_| answer_error(line, column, format!("'{token}' is not a number")))?;
            if value < 1 {
                return Err(answer_error(
                    line,
                    column,
                    format!("{value} is not a cell value"),
                ));
            }
            numbers.push((value as usize, line, column));
        } else if c.is_ascii_whitespace() || matches!(c, b'[' | b']' | b'|' | b',' | b';' | b')') {
            k += 1;
        } else {
            let rest = &body[k..];
            let token = rest.split_ascii_whitespace().next().unwrap_or(rest);
            return Err(answer_error(
                line,
                column_of(text, token),
                format!("unexpected '{token}' in a solution"),
            ));
        }
    }
    Ok(())
}

/// The claim of a solution's numbers, read before the separator on line `separator`.
fn solution(
    puzzle: &Grid,
    numbers: &[(usize, usize, usize)],
    separator: usize,
) -> Result<Claim, AnswerError> {
    let n = puzzle.shape().order();
    if numbers.len() != n * n {
        return Err(answer_error(
            separator,
            1,
            format!(
                "the solution has {} values, a {n}×{n} grid has {}",
                numbers.len(),
                n * n
            ),
        ));
    }
    if let Some(&(value, line, column)) = numbers.iter().find(|(v, ..)| *v > n) {
        return Err(answer_error(
            line,
            column,
            format!("{value} is above the order {n}"),
        ));
    }
    Ok(claim_of_cells(
        puzzle,
        numbers
            .iter()
            .enumerate()
            .map(|(i, &(v, ..))| (i / n, i % n, v - 1)),
    ))
}

/// The `minizinc` answer reader.
pub const MINIZINC_READER: AnswerReader = AnswerReader {
    name: "minizinc",
    format: "mzn",
    summary: "MiniZinc's output: x = [| ... |] (the mzn export) or the grid rows of models/sudoku.mzn (dzn)",
    read: |puzzle, _, input| read_minizinc(puzzle, input),
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_line;

    fn read(text: &str) -> Result<Claim, AnswerError> {
        read_minizinc(&parse_line("1...", None).unwrap(), &mut text.as_bytes())
    }

    #[test]
    fn every_solution_form() {
        for text in [
            "x = \n[| 1, 2\n | 2, 1\n |];\n----------\n",
            "x = array2d(1..2, 1..2, [1, 2, 2, 1]);\n----------\n==========\n",
            "1 2\n2 1\n----------\n",
            "% comment\n1 2\n2 1\n----------\n1 2\n2 1\n----------\n",
        ] {
            let Claim::Grid(grid) = read(text).unwrap() else {
                panic!("{text}")
            };
            assert_eq!(crate::text::to_text(&grid), "1221");
        }
        assert_eq!(read("=====UNSATISFIABLE=====\n").unwrap(), Claim::Unsat);
        assert_eq!(read("=====UNKNOWN=====\n").unwrap(), Claim::Unknown);
    }

    #[test]
    fn errors_have_places() {
        let cases = [
            ("", "line 1, column 1: no '----------'"),
            ("1 2\n2 1\n", "line 3, column 1: no '----------'"),
            (
                "1 2\n2\n----------\n",
                "line 3, column 1: the solution has 3 values",
            ),
            (
                "1 2\n2 3\n----------\n",
                "line 2, column 3: 3 is above the order 2",
            ),
            (
                "y = [1];\n----------\n",
                "line 1, column 1: expected x = ..., not 'y'",
            ),
            ("1 two\n", "line 1, column 3: unexpected 'two'"),
            (
                "=====ERROR=====\n",
                "line 1, column 1: MiniZinc reports =====ERROR=====",
            ),
        ];
        for (text, message) in cases {
            let error = read(text).unwrap_err().to_string();
            assert!(error.starts_with(message), "{error}");
        }
    }
}
