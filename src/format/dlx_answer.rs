//! Reading the solutions exact-cover solvers print for the exact-cover export: Knuth's dlx1
//! (`dlx1 m1 < IN.dlx > OUT 2>&1`) and miniexact (`miniexact -x -p IN.dlx > OUT`).
//!
//! With `m1`, dlx1 prints each solution as a line `K:` followed by its options, one per line,
//! each indented and written as its item names (from any of them, as dlx1 lists the option from
//! the node it chose) and ` (j of k)`. On standard error it says `Altogether N solutions, ...`
//! and, at the start, `(... options, ... items, ... entries successfully read)`; keep them with
//! `2>&1`: without a solution, the `Altogether 0 solutions` line is what says there is none.
//!
//! With `-p`, miniexact prints each solution as its options, one per line, each written as its
//! item names and ended by `;`; solutions are separated by a blank line. With `-e` it enumerates
//! them and ends with `Found N solutions!` (`Found 0 solutions!` is unsat). With `-p` alone and
//! no solution it prints nothing and exits with 20: an empty answer is not read as unsat here (a
//! crashed run is empty too), but `solve --backend ext:miniexact` takes the exit code as the
//! verdict.
//!
//! The first solution is the answer; the cell of an option is its `pRC` item and the value
//! comes from its `rRV` item ([`crate::format::dlx`]).
//!
//! # Complexity
//! Linear in the answer.
//!
//! # References
//! - D. E. Knuth, `dlx1.w` (the `m` spacing parameter and `print_option`), 2017.
//! - M. Heisinger, miniexact (its `-p` switch), 2024.

use std::io::BufRead;

use crate::encode::exact_cover::Item;
use crate::format::dlx::parse_item_name;
use crate::format::entry::{
    AnswerError, AnswerReader, Claim, answer_error, answer_lines, claim_of_cells,
};
use crate::grid::Grid;
use crate::text::located::token_column;

/// Reads dlx1's output for `puzzle`'s exact cover; see the module docs.
///
/// # Errors
/// [`AnswerError`] with the place of the first problem.
pub fn read_dlx_answer(puzzle: &Grid, input: &mut dyn BufRead) -> Result<Claim, AnswerError> {
    let lines = answer_lines(input)?;
    let n = puzzle.shape().order();
    // The options of the first solution, each a line and its number.
    let mut options: Vec<(usize, &str)> = Vec::new();
    let mut solutions = 0;
    let mut total: Option<usize> = None;
    // miniexact's `;` lines: the solutions seen, and whether a blank line closed the last one.
    let mut listed = 0;
    let mut closed = false;
    for (i, text) in lines.iter().enumerate() {
        let line = i + 1;
        let trimmed = text.trim();
        if trimmed.is_empty() {
            closed = listed > 0;
            continue;
        }
        if trimmed.starts_with('(') {
            continue;
        }
        if let Some(option) = text.trim_end().strip_suffix(';')
            && solutions == 0
        {
            if listed == 0 || closed {
                listed += 1;
                closed = false;
            }
            if listed == 1 {
                options.push((line, option));
            }
            continue;
        }
        // dlx1's `Altogether N solutions, ...`, miniexact's `Found N solutions!`.
        if let Some(rest) = trimmed
            .strip_prefix("Altogether ")
            .or_else(|| trimmed.strip_prefix("Found "))
        {
            let count = rest.split_whitespace().next().unwrap_or("");
            total = Some(count.parse().map_err(|_| {
                answer_error(
                    line,
                    token_column(text, count),
                    format!("'{count}' is not a number of solutions"),
                )
            })?);
            continue;
        }
        if let Some(k) = trimmed.strip_suffix(':')
            && k.chars().all(|c| c.is_ascii_digit())
            && !k.is_empty()
        {
            solutions += 1;
            continue;
        }
        if text.starts_with([' ', '\t']) && solutions > 0 && listed == 0 {
            if solutions == 1 {
                options.push((line, text));
            }
            continue;
        }
        return Err(answer_error(
            line,
            1,
            "expected 'K:', an indented option or 'Altogether N solutions' (dlx1), or an option ended by ';' (miniexact -p)",
        ));
    }
    if solutions == 0 && listed == 0 {
        return match total {
            Some(0) => Ok(Claim::Unsat),
            Some(_) => Err(answer_error(
                lines.len() + 1,
                1,
                "dlx1 counted solutions but printed none: run it with m1",
            )),
            None => Err(answer_error(
                lines.len() + 1,
                1,
                "no solution and no 'Altogether' line (run dlx1 m1 < IN > OUT 2>&1; \
                 miniexact prints nothing when there is no solution, and exits with 20)",
            )),
        };
    }
    let mut cells = Vec::new();
    for (line, text) in options {
        let (mut cell, mut value, mut witness) = (None, None, false);
        for token in text.split_whitespace().take_while(|t| !t.starts_with('(')) {
            let name = token.split(':').next().unwrap_or(token);
            // The items of a ruled-out solution (`format::dlx::write_dlx_excluding`).
            if name.len() > 1 && name.starts_with(['x', 's']) {
                witness = true;
                continue;
            }
            match parse_item_name(name, n) {
                Some(Item::Cell { r, c }) => cell = Some((r, c)),
                Some(Item::RowValue { v, .. }) => value = Some(v),
                Some(_) => {}
                None => {
                    return Err(answer_error(
                        line,
                        token_column(text, token),
                        format!("'{name}' is not an item of the {n}×{n} exact cover"),
                    ));
                }
            }
        }
        match (cell, value) {
            (Some((r, c)), Some(v)) => cells.push((r, c, v)),
            // A witness option: which cell differs from a ruled-out solution.
            (None, None) if witness => {}
            _ => {
                return Err(answer_error(
                    line,
                    1,
                    "an option without its cell item pRC and row item rRV",
                ));
            }
        }
    }
    Ok(claim_of_cells(puzzle, cells))
}

/// The `dlx` answer reader.
pub const DLX_READER: AnswerReader = AnswerReader {
    name: "dlx",
    format: "dlx",
    summary: "the solutions of Knuth's dlx1 (dlx1 m1 < IN.dlx > OUT 2>&1) or of miniexact -x -p -e IN.dlx",
    read: |puzzle, _, input| read_dlx_answer(puzzle, input),
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_line;

    fn read(text: &str) -> Result<Claim, AnswerError> {
        read_dlx_answer(&parse_line("1...", None).unwrap(), &mut text.as_bytes())
    }

    // Order 2 with 1×2 boxes: items p11.., r11.., c11.., b11...
    const ANSWER: &str = "(4 options, 16+0 items, 16 entries successfully read)\n1:\n \
        p11 r11 c11 b11 (1 of 1)\n r12 c22 b12 p12 (1 of 2)\n p21 r22 c12 b22 (2 of 2)\n \
        p22 r21 c21 b21 (1 of 1)\n2:\n p11 r11 c11 b11 (1 of 1)\n\
        Altogether 2 solutions, 100+200 mems, 8 updates, 500 bytes, 9 nodes.\n";

    #[test]
    fn the_first_solution_is_the_answer() {
        let Claim::Grid(grid) = read(ANSWER).unwrap() else {
            panic!()
        };
        assert_eq!(crate::text::to_text(&grid), "1221");
        assert_eq!(
            read("Altogether 0 solutions, 9 mems.\n").unwrap(),
            Claim::Unsat
        );
    }

    // miniexact -x -p -e: the same 2 solutions, each ended by a blank line.
    const MINIEXACT: &str = "p11 r11 c11 b11;\nr12 c22 b12 p12;\np21 r22 c12 b22;\n\
        p22 r21 c21 b21;\n\np11 r11 c11 b11;\n\nFound 2 solutions!\n";

    #[test]
    fn miniexact_lists_are_read_too() {
        let Claim::Grid(grid) = read(MINIEXACT).unwrap() else {
            panic!()
        };
        assert_eq!(crate::text::to_text(&grid), "1221");
        let error = read("p11 r11 c11 b11;\np12 r12 zz9 b12;\n")
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("line 2, column 9: 'zz9' is not an item"),
            "{error}"
        );
        let Claim::NotAGrid(why) = read("p11 r11 c11 b11;\n").unwrap() else {
            panic!()
        };
        assert!(why.contains("sets no value of cell"), "{why}");
        assert_eq!(read("Found 0 solutions!\n").unwrap(), Claim::Unsat);
        // With a solution ruled out: the witness option and the secondary items are skipped.
        let with_witness = "x001 s00112;\np11 r11 c11 b11;\np12 r12 c22 b12 s00112;\n\
            p21 r22 c12 b22;\np22 r21 c21 b21 s00122;\n";
        let Claim::Grid(grid) = read(with_witness).unwrap() else {
            panic!()
        };
        assert_eq!(crate::text::to_text(&grid), "1221");
    }

    #[test]
    fn errors_have_places() {
        let cases = [
            ("", "line 1, column 1: no solution and no 'Altogether' line"),
            (
                "1:\n p11 r11 zz9 (1 of 1)\n",
                "line 2, column 10: 'zz9' is not an item",
            ),
            (
                "1:\n p11 c11 (1 of 1)\n",
                "line 2, column 1: an option without its cell item",
            ),
            ("solutions\n", "line 1, column 1: expected 'K:'"),
            (
                "Altogether many\n",
                "line 1, column 12: 'many' is not a number",
            ),
        ];
        for (text, message) in cases {
            let error = read(text).unwrap_err().to_string();
            assert!(error.starts_with(message), "{error}");
        }
    }
}
