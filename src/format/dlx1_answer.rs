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
//! comes from its `rRV` item ([`crate::format::dlx1`]).
//!
//! # Complexity
//! Linear in the answer.
//!
//! # References
//! - D. E. Knuth, `dlx1.w` (the `m` spacing parameter and `print_option`), 2017.
//! - M. Heisinger, miniexact (its `-p` switch), 2024.

use std::io::BufRead;

use crate::encode::exact_cover::Item;
use crate::format::dlx1::parse_item_name;
use crate::format::entry::{AnswerError, AnswerReader, Claim, answer_error, claim_of_cells};
use crate::format::model_ledger::ModelLedger;
use crate::grid::Grid;
use crate::text::lines::LineReader;
use crate::text::located::token_column;

/// Which program's form the solutions take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// Not known yet.
    Unknown,
    /// dlx1: `K:` then indented options.
    Dlx1,
    /// miniexact: options ended by `;`, solutions separated by a blank line.
    Miniexact,
}

/// Reads the output of dlx1 or miniexact for `puzzle`'s exact cover, handing each solution and
/// the final word to `each`; see the module docs.
///
/// # Errors
/// [`AnswerError`] with the place of the first problem.
pub fn read_dlx_answer(
    puzzle: &Grid,
    input: &mut dyn BufRead,
    each: &mut dyn FnMut(Claim) -> bool,
) -> Result<(), AnswerError> {
    let mut lines = LineReader::new(input);
    let mut form = Form::Unknown;
    // The options of the solution being read, each with its line.
    let mut options: Vec<(usize, String)> = Vec::new();
    let mut ledger = ModelLedger::new();
    let mut last = 0;
    // Hands on the solution read so far, if any; false when `each` says stop.
    let mut flush = |options: &mut Vec<(usize, String)>, ledger: &mut ModelLedger| {
        let Some(&(first_line, _)) = options.first() else {
            return Ok(true);
        };
        let claim = solution(puzzle, options)?;
        options.clear();
        ledger.model(&claim, first_line, 1)?;
        Ok::<bool, AnswerError>(each(claim))
    };
    while let Some(next) = lines.next_line() {
        let (line, text) = next.map_err(|e| e.map(|kind| kind.to_string()))?;
        last = line;
        let trimmed = text.trim();
        if trimmed.is_empty() {
            if form == Form::Miniexact && !flush(&mut options, &mut ledger)? {
                return Ok(());
            }
            continue;
        }
        if trimmed.starts_with('(') {
            continue;
        }
        // dlx1's `Altogether N solutions, ...`, miniexact's `Found N solutions!`.
        if let Some(rest) = trimmed
            .strip_prefix("Altogether ")
            .or_else(|| trimmed.strip_prefix("Found "))
        {
            let count = rest.split_whitespace().next().unwrap_or("");
            let total: usize = count.parse().map_err(|_| {
                answer_error(
                    line,
                    token_column(text, count),
                    format!("'{count}' is not a number of solutions"),
                )
            })?;
            if !flush(&mut options, &mut ledger)? {
                return Ok(());
            }
            if total > 0 && ledger.models() == 0 {
                return Err(answer_error(
                    line,
                    1,
                    "dlx1 counted solutions but printed none: run it with m1",
                ));
            }
            ledger.claimed_count(total as u64, &format!("'{trimmed}'"), line, 1)?;
            // The enumeration ran to its end: there is no other solution.
            each(Claim::Unsat);
            return Ok(());
        }
        if let Some(option) = text.trim_end().strip_suffix(';')
            && form != Form::Dlx1
        {
            form = Form::Miniexact;
            options.push((line, option.to_string()));
            continue;
        }
        if let Some(k) = trimmed.strip_suffix(':')
            && k.chars().all(|c| c.is_ascii_digit())
            && !k.is_empty()
            && form != Form::Miniexact
        {
            form = Form::Dlx1;
            if !flush(&mut options, &mut ledger)? {
                return Ok(());
            }
            continue;
        }
        if text.starts_with([' ', '\t']) && form == Form::Dlx1 {
            options.push((line, text.to_string()));
            continue;
        }
        return Err(answer_error(
            line,
            1,
            "expected 'K:', an indented option or 'Altogether N solutions' (dlx1), or an option ended by ';' (miniexact -p)",
        ));
    }
    // The end of the answer: the last solution ends here too.
    if !flush(&mut options, &mut ledger)? {
        return Ok(());
    }
    if ledger.models() == 0 {
        return Err(answer_error(
            last + 1,
            1,
            "no solution and no 'Altogether' line (run dlx1 m1 < IN > OUT 2>&1; \
             miniexact prints nothing when there is no solution, and exits with 20)",
        ));
    }
    Ok(())
}

/// The claim of one solution's options (each with its line).
fn solution(puzzle: &Grid, options: &[(usize, String)]) -> Result<Claim, AnswerError> {
    let n = puzzle.shape().order();
    let mut cells = Vec::new();
    for (line, text) in options {
        let line = *line;
        let (mut cell, mut value, mut witness) = (None, None, false);
        for token in text.split_whitespace().take_while(|t| !t.starts_with('(')) {
            let name = token.split(':').next().unwrap_or(token);
            // The items of a ruled-out solution (`format::dlx1::write_dlx_excluding`).
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
    summary: "the solutions of Knuth's dlx1 (dlx1 m1 < IN.dlx > OUT 2>&1) or of miniexact -x -p (every one with -e)",
    read: |puzzle, _, input, each| read_dlx_answer(puzzle, input, each),
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_line;

    fn read_all(text: &str) -> Result<Vec<Claim>, AnswerError> {
        let mut claims = Vec::new();
        read_dlx_answer(
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
    fn every_solution_then_the_end_of_the_enumeration() {
        let claims = read_all(
            MINIEXACT
                .replace(
                    "\n\np11 r11 c11 b11;\n",
                    "\n\np11 r12 c12 b12;\np12 r11 c21 b11;\np21 r21 c11 b21;\np22 r22 c22 b22;\n",
                )
                .as_str(),
        )
        .unwrap();
        assert_eq!(claims.len(), 3, "{claims:?}");
        assert!(matches!(claims[1], Claim::Grid(_)));
        assert_eq!(claims[2], Claim::Unsat);
        let error = read_all("p11 r11 c11 b11;\n\nFound 2 solutions!\n")
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            "line 3, column 1: 'Found 2 solutions!' says 2 models, the answer gives 1"
        );
        // The same solution twice (its options in another order) is refused.
        let twice = "p11 r11 c11 b11;\nr12 c22 b12 p12;\np21 r22 c12 b22;\np22 r21 c21 b21;\n\n\
                     p22 r21 c21 b21;\np11 r11 c11 b11;\nr12 c22 b12 p12;\np21 r22 c12 b22;\n\n\
                     Found 2 solutions!\n";
        assert_eq!(
            read_all(twice).unwrap_err().to_string(),
            "line 6, column 1: model 2 repeats model 1 (line 1): the same solution given twice"
        );
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
