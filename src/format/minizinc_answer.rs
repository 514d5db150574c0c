//! Reading MiniZinc's answers: the default output of the `mzn` export and the grid block that
//! `models/sudoku.mzn` prints for the `dzn` export.
//!
//! Each solution is the text before a `----------` line: the default output
//! `x = [| 1, 2 | 2, 1 |];` (MiniZinc 2.6 on; older versions write
//! `x = array2d(1..n, 1..n, [1, 2, 2, 1]);`), `n` rows of `n` numbers, or the JSON object of
//! `--output-mode json` (`{"x" : [[1, 2], [2, 1]]}`). With `-a` (or `-n N`) every solution is
//! printed, each read as soon as its separator is; `==========` after them says the search
//! space is exhausted: there is no other. The status lines `=====UNSATISFIABLE=====` and
//! `=====UNKNOWN=====` say there is none or that the solver gave up; `=====ERROR=====` and
//! `=====UNBOUNDED=====` are errors. `%` comment lines (`% time elapsed`) are skipped. A
//! solution of the wrong size, or a value above the order, is an error: the answer is not for
//! this puzzle.
//!
//! # Complexity
//! Linear in the answer; memory is one solution.
//!
//! # References
//! - MiniZinc handbook, "Output" and the solution output specification (`----------`,
//!   `==========`, `=====UNSATISFIABLE=====`).

use std::io::BufRead;

use crate::format::entry::{AnswerError, AnswerReader, Claim, answer_error, claim_of_cells};
use crate::format::model_ledger::ModelLedger;
use crate::grid::Grid;
use crate::text::lines::LineReader;

/// Reads MiniZinc's answer to `puzzle`, handing each solution and the final word to `each`;
/// see the module docs.
///
/// # Errors
/// [`AnswerError`] with the place of the first problem.
pub fn read_minizinc(
    puzzle: &Grid,
    input: &mut dyn BufRead,
    each: &mut dyn FnMut(Claim) -> bool,
) -> Result<(), AnswerError> {
    let mut lines = LineReader::new(input);
    // The solution's numbers with their places, and the text of a JSON solution.
    let mut numbers: Vec<(usize, usize, usize)> = Vec::new();
    let mut json: Option<(usize, String)> = None;
    let mut ledger = ModelLedger::new();
    let mut last = 0;
    while let Some(next) = lines.next_line() {
        let (line, text) = next.map_err(|e| e.map(|kind| kind.to_string()))?;
        last = line;
        let trimmed = text.trim();
        let claim = match trimmed {
            "----------" => {
                let claim = match json.take() {
                    Some((start, object)) => json_solution(puzzle, &object, start)?,
                    None => solution(puzzle, &numbers, line)?,
                };
                numbers.clear();
                ledger.model(&claim, line, column_of(text, trimmed))?;
                claim
            }
            "==========" if ledger.models() > 0 => Claim::Unsat,
            "=====UNSATISFIABLE=====" => {
                ledger.unsat_verdict(trimmed, line, column_of(text, trimmed))?;
                Claim::Unsat
            }
            "=====UNKNOWN=====" => Claim::Unknown,
            "=====ERROR=====" | "=====UNBOUNDED=====" | "=====UNSATorUNBOUNDED=====" => {
                return Err(answer_error(
                    line,
                    column_of(text, trimmed),
                    format!("MiniZinc reports {trimmed}"),
                ));
            }
            _ if json.is_some() => {
                let (_, object) = json.as_mut().expect("open JSON");
                object.push_str(text);
                object.push('\n');
                continue;
            }
            _ if trimmed.starts_with('{') && numbers.is_empty() => {
                json = Some((line, format!("{text}\n")));
                continue;
            }
            _ if trimmed.is_empty() || trimmed.starts_with('%') => continue,
            _ => {
                numbers_of(text, line, &mut numbers)?;
                continue;
            }
        };
        let ends = !matches!(claim, Claim::Grid(_) | Claim::NotAGrid(_));
        if !each(claim) || ends {
            return Ok(());
        }
    }
    if ledger.models() > 0 && numbers.is_empty() && json.is_none() {
        // Solutions without `==========`: the solver was asked for some, or stopped.
        return Ok(());
    }
    Err(answer_error(
        last + 1,
        1,
        "no '----------' after a solution and no status line (truncated answer?)",
    ))
}

/// The claim of a JSON solution (`--output-mode json`): `{"x": [[...], ...]}` starting on line
/// `start`.
fn json_solution(puzzle: &Grid, object: &str, start: usize) -> Result<Claim, AnswerError> {
    let n = puzzle.shape().order();
    let value: serde_json::Value = serde_json::from_str(object).map_err(|e| {
        answer_error(
            start + e.line().saturating_sub(1),
            e.column().max(1),
            format!("not a JSON solution: {e}"),
        )
    })?;
    let rows = value
        .get("x")
        .and_then(serde_json::Value::as_array)
        .ok_or_else(|| answer_error(start, 1, "a JSON solution without its \"x\" array"))?;
    let mut numbers = Vec::with_capacity(n * n);
    for row in rows {
        let row = row
            .as_array()
            .ok_or_else(|| answer_error(start, 1, "\"x\" is not an array of rows"))?;
        for value in row {
            let v = value
                .as_u64()
                .filter(|&v| v >= 1)
                .ok_or_else(|| answer_error(start, 1, format!("{value} is not a cell value")))?;
            numbers.push((v as usize, start, 1));
        }
    }
    solution(puzzle, &numbers, start)
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
    summary: "MiniZinc's output: x = [| ... |] (the mzn export), the grid rows of models/sudoku.mzn (dzn) or --output-mode json; every solution of -a",
    read: |puzzle, _, input, each| read_minizinc(puzzle, input, each),
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_line;

    fn read_all(text: &str) -> Result<Vec<Claim>, AnswerError> {
        let mut claims = Vec::new();
        read_minizinc(
            &parse_line("1...", None).unwrap(),
            &mut text.as_bytes(),
            &mut |c| {
                claims.push(c);
                true
            },
        )?;
        Ok(claims)
    }

    fn read(text: &str) -> Result<Claim, AnswerError> {
        Ok(read_all(text)?.remove(0))
    }

    #[test]
    fn every_solution_of_an_enumeration_and_its_end() {
        let all = "x = \n[| 1, 2\n | 2, 1\n |];\n----------\nx = \n[| 2, 1\n | 1, 2\n |];\n----------\n==========\n";
        let claims = read_all(all).unwrap();
        assert_eq!(claims.len(), 3);
        assert_eq!(claims[2], Claim::Unsat);
        let json = "{\n  \"x\" : [[1, 2], [2, 1]]\n}\n----------\n==========\n";
        let claims = read_all(json).unwrap();
        assert!(matches!(&claims[0], Claim::Grid(g) if crate::text::to_text(g) == "1221"));
        assert_eq!(claims[1], Claim::Unsat);
        let error = read("{\n  \"x\" : [[1, 2], [2]]\n}\n----------\n")
            .unwrap_err()
            .to_string();
        assert!(error.contains("the solution has 3 values"), "{error}");
        // The same solution twice; a solution, then unsatisfiable.
        let twice = "1 2\n2 1\n----------\n1 2\n2 1\n----------\n==========\n";
        assert_eq!(
            read_all(twice).unwrap_err().to_string(),
            "line 6, column 1: model 2 repeats model 1 (line 3): the same solution given twice"
        );
        let contradiction = "1 2\n2 1\n----------\n=====UNSATISFIABLE=====\n";
        assert_eq!(
            read_all(contradiction).unwrap_err().to_string(),
            "line 4, column 1: =====UNSATISFIABLE===== after 1 model: the answer contradicts \
             itself"
        );
    }

    #[test]
    fn every_solution_form() {
        for text in [
            "x = \n[| 1, 2\n | 2, 1\n |];\n----------\n",
            "x = array2d(1..2, 1..2, [1, 2, 2, 1]);\n----------\n==========\n",
            "1 2\n2 1\n----------\n",
            "% comment\n1 2\n2 1\n----------\n2 1\n1 2\n----------\n",
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
