//! Reading colourings of the Sudoku graph: the answer to the `col`, `graphml`, `edges` and `hgr`
//! exports, a vertex → colour list.
//!
//! One `VERTEX COLOUR` pair per line, 1-based, vertex `(r-1)·n + c` being cell (r,c) and the
//! colour its value. Also accepted: the DIMACS colouring solution form (`s col K`, then
//! `l VERTEX COLOUR` lines), GraphML node names (`n12 5`) and `VERTEX: COLOUR`. Lines starting
//! with `c`, `#` or `%` are comments. A line `s UNSATISFIABLE` (or `unsat`, `none`) says the
//! precolouring does not extend; `s UNKNOWN` (or `unknown`) that the colourer gave up.
//!
//! # Complexity
//! Linear in the answer.
//!
//! # References
//! - DIMACS Challenge graph colouring solution format (`s col`, `l` lines).

use std::io::BufRead;

use crate::format::entry::{
    AnswerError, AnswerReader, Claim, answer_error, answer_lines, claim_of_cells, single,
};
use crate::grid::Grid;
use crate::text::located::token_column;

/// Reads a colouring of `puzzle`'s graph; see the module docs.
///
/// # Errors
/// [`AnswerError`] with the place of the first problem.
pub fn read_colouring(puzzle: &Grid, input: &mut dyn BufRead) -> Result<Claim, AnswerError> {
    let lines = answer_lines(input)?;
    let n = puzzle.shape().order();
    let mut pairs = Vec::new();
    for (i, text) in lines.iter().enumerate() {
        let line = i + 1;
        let trimmed = text.trim();
        let words: Vec<&str> = trimmed.split_ascii_whitespace().collect();
        match words.as_slice() {
            [] => continue,
            [first, ..] if *first == "c" || first.starts_with('#') || first.starts_with('%') => {
                continue;
            }
            ["s", "col", ..] => continue,
            ["s", status] | [status] => match status.to_ascii_lowercase().as_str() {
                "unsatisfiable" | "unsat" | "none" => return Ok(Claim::Unsat),
                "unknown" => return Ok(Claim::Unknown),
                _ => {
                    return Err(answer_error(
                        line,
                        token_column(text, status),
                        format!("expected VERTEX COLOUR, not '{status}'"),
                    ));
                }
            },
            _ => {}
        }
        let words: Vec<&str> = if words[0] == "l" {
            words[1..].to_vec()
        } else {
            words
        };
        let [vertex, colour] = words.as_slice() else {
            return Err(answer_error(line, 1, "expected VERTEX COLOUR"));
        };
        let number = |token: &str, what: &str| -> Result<usize, AnswerError> {
            let digits = token.trim_end_matches(':').trim_start_matches('n');
            digits.parse().map_err(|_| {
                answer_error(
                    line,
                    token_column(text, token),
                    format!("'{token}' is not a {what}"),
                )
            })
        };
        let (v, c) = (number(vertex, "vertex")?, number(colour, "colour")?);
        // A vertex or a colour outside the grid: the answer is not for this puzzle.
        if v == 0 || v > n * n {
            return Err(answer_error(
                line,
                token_column(text, vertex),
                format!(
                    "vertex {v} is not a cell of the {n}×{n} grid (vertices 1..={}): an answer to another puzzle?",
                    n * n
                ),
            ));
        }
        if c == 0 || c > n {
            return Err(answer_error(
                line,
                token_column(text, colour),
                format!(
                    "colour {c} of vertex {v} is not a value of the {n}×{n} grid (colours 1..={n}): an answer to another puzzle?"
                ),
            ));
        }
        pairs.push(((v - 1) / n, (v - 1) % n, c - 1));
    }
    if pairs.is_empty() {
        return Err(answer_error(
            lines.len() + 1,
            1,
            "no colouring and no status (empty answer?)",
        ));
    }
    Ok(claim_of_cells(puzzle, pairs))
}

/// The `col` answer reader.
pub const COLOURING_READER: AnswerReader = AnswerReader {
    name: "col",
    format: "col",
    summary: "a vertex -> colour list ('VERTEX COLOUR' lines, or DIMACS 's col K' and 'l V C' lines)",
    read: |puzzle, _, input, each| single(read_colouring(puzzle, input), each),
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_line;

    fn read(text: &str) -> Result<Claim, AnswerError> {
        read_colouring(&parse_line("1...", None).unwrap(), &mut text.as_bytes())
    }

    #[test]
    fn every_form_of_the_list() {
        for text in [
            "1 1\n2 2\n3 2\n4 1\n",
            "c colouring\ns col 2\nl 1 1\nl 2 2\nl 3 2\nl 4 1\n",
            "# networkx\nn1 1\nn2 2\nn3 2\nn4 1\n",
            "1: 1\n2: 2\n3: 2\n4: 1\n",
        ] {
            let Claim::Grid(grid) = read(text).unwrap() else {
                panic!("{text}")
            };
            assert_eq!(crate::text::to_text(&grid), "1221");
        }
        assert_eq!(read("s UNSATISFIABLE\n").unwrap(), Claim::Unsat);
        assert_eq!(read("unknown\n").unwrap(), Claim::Unknown);
        assert!(
            matches!(read("1 1\n2 2\n3 2\n5 1\n"), Err(e) if e.to_string().starts_with("line 4, column 1: vertex 5"))
        );
        assert!(matches!(read("1 1\n2 3\n"), Err(e) if e.to_string().contains("colour 3")));
        assert!(
            matches!(read("1 1\n2 2\n3 2\n"), Ok(Claim::NotAGrid(why)) if why.contains("(2,2)"))
        );
    }

    #[test]
    fn errors_have_places() {
        let cases = [
            ("", "line 1, column 1: no colouring"),
            (
                "1 1\nmaybe\n",
                "line 2, column 1: expected VERTEX COLOUR, not 'maybe'",
            ),
            ("1 x\n", "line 1, column 3: 'x' is not a colour"),
            ("1 2 3\n", "line 1, column 1: expected VERTEX COLOUR"),
        ];
        for (text, message) in cases {
            let error = read(text).unwrap_err().to_string();
            assert!(error.starts_with(message), "{error}");
        }
    }
}
