//! Reading the answers of clasp and clingo: the pseudo-Boolean form (`s` and `v` lines, for the
//! OPB export; RoundingSat and Exact write the same) and the answer-set form (`Answer: 1`, a line
//! of atoms, `SATISFIABLE`, for the ASP export).
//!
//! - **OPB**: `c` comment lines (clasp's `c Answer: 1` among them), one status line
//!   `s SATISFIABLE` / `s OPTIMUM FOUND` / `s UNSATISFIABLE` / `s UNKNOWN`, and `v` lines of
//!   literals `xK` (true) and `-xK` (false); variable K is x(r,c,v) of the OPB export.
//! - **ASP**: the line after the first `Answer: K` lists the atoms of the answer set; the
//!   `x(R,C,V)` atoms set the cells (other predicates are ignored); a status line
//!   `SATISFIABLE`, `OPTIMUM FOUND`, `UNSATISFIABLE` or `UNKNOWN`. Version, `Reading from`,
//!   `Solving...` and the statistics after the status are skipped.
//!
//! The first model printed is the answer (with `-n 0` the others follow; each would be a
//! solution too).
//!
//! # Complexity
//! Linear in the answer.
//!
//! # References
//! - Potassco guide, clasp and clingo output; PB competition output format (`s`, `v` lines).

use std::io::BufRead;

use crate::format::entry::{
    AnswerError, AnswerReader, Claim, answer_error, answer_lines, claim_of_cells,
};
use crate::grid::Grid;
use crate::text::located::{Columns, token_column};

/// What the status line says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Sat,
    Unsat,
    Unknown,
}

fn status(word: &str) -> Option<Status> {
    match word {
        "SATISFIABLE" | "OPTIMUM FOUND" => Some(Status::Sat),
        "UNSATISFIABLE" => Some(Status::Unsat),
        "UNKNOWN" => Some(Status::Unknown),
        _ => None,
    }
}

/// The model the answer prints.
enum Model {
    None,
    /// True OPB variables (1-based).
    Opb(Vec<usize>),
    /// `(r, c, v)` 1-based from `x(R,C,V)` atoms, with their places (line, column).
    Asp(Vec<((usize, usize, usize), usize, usize)>),
}

/// Reads a clasp or clingo answer to `puzzle`; see the module docs.
///
/// # Errors
/// [`AnswerError`] with the place of the first problem.
pub fn read_clasp(puzzle: &Grid, input: &mut dyn BufRead) -> Result<Claim, AnswerError> {
    let lines = answer_lines(input)?;
    let mut found: Option<Status> = None;
    let mut model = Model::None;
    let mut atoms_next = false;
    for (i, text) in lines.iter().enumerate() {
        let line = i + 1;
        if atoms_next {
            atoms_next = false;
            if matches!(model, Model::None) {
                model = Model::Asp(atoms(text, line)?);
            }
            continue;
        }
        let trimmed = text.trim();
        if let Some(rest) = trimmed.strip_prefix("s ") {
            let word = rest.trim();
            let status = status(word).ok_or_else(|| {
                answer_error(
                    line,
                    token_column(text, rest.trim_start()),
                    format!("unknown status '{word}'"),
                )
            })?;
            found.get_or_insert(status);
        } else if let Some(rest) = trimmed.strip_prefix("v ").or(trimmed.strip_prefix("v\t")) {
            let mut vars = match std::mem::replace(&mut model, Model::None) {
                Model::Opb(vars) => vars,
                Model::None => Vec::new(),
                Model::Asp(_) => {
                    return Err(answer_error(line, 1, "a 'v' line in an answer-set answer"));
                }
            };
            for token in rest.split_ascii_whitespace() {
                let (negative, name) = match token.strip_prefix('-') {
                    Some(name) => (true, name),
                    None => (false, token),
                };
                let number = name
                    .strip_prefix('x')
                    .and_then(|k| k.parse::<usize>().ok())
                    .filter(|&k| k > 0);
                match number {
                    Some(k) if !negative => vars.push(k),
                    Some(_) => {}
                    None if token == "0" => {}
                    None => {
                        return Err(answer_error(
                            line,
                            token_column(text, token),
                            format!("'{token}' is not a literal xK or -xK"),
                        ));
                    }
                }
            }
            model = Model::Opb(vars);
        } else if trimmed.starts_with("Answer:") {
            atoms_next = true;
        } else if let Some(status) = status(trimmed) {
            found.get_or_insert(status);
        }
    }
    let end = (lines.len() + 1, 1);
    let Some(status) = found else {
        return Err(answer_error(
            end.0,
            end.1,
            "no status line (SATISFIABLE, UNSATISFIABLE, UNKNOWN, or 's ...' for OPB): \
             empty or truncated answer?",
        ));
    };
    let n = puzzle.shape().order();
    Ok(match (status, model) {
        (Status::Unsat, _) => Claim::Unsat,
        (Status::Unknown, Model::None) => Claim::Unknown,
        (Status::Sat, Model::None) => {
            return Err(answer_error(
                end.0,
                end.1,
                "a satisfiable answer without its model ('v' lines or an 'Answer:' line)",
            ));
        }
        (_, Model::Opb(vars)) => {
            if let Some(&k) = vars.iter().find(|&&k| k > n * n * n) {
                return Ok(Claim::NotAGrid(format!(
                    "x{k} is not a variable of the {n}×{n} grid (at most x{})",
                    n * n * n
                )));
            }
            claim_of_cells(
                puzzle,
                vars.into_iter()
                    .map(|k| crate::encode::x_of_index(n, k - 1)),
            )
        }
        (_, Model::Asp(cells)) => {
            if let Some(((r, c, v), _, _)) = cells
                .iter()
                .find(|((r, c, v), _, _)| [r, c, v].iter().any(|&&x| x == 0 || x > n))
            {
                return Ok(Claim::NotAGrid(format!(
                    "x({r},{c},{v}) is outside the {n}×{n} grid"
                )));
            }
            claim_of_cells(
                puzzle,
                cells
                    .into_iter()
                    .map(|((r, c, v), _, _)| (r - 1, c - 1, v - 1)),
            )
        }
    })
}

/// An `x(R,C,V)` atom: the cell and value (1-based), and where it starts (line, column).
type Atom = ((usize, usize, usize), usize, usize);

/// The `x(R,C,V)` atoms of an answer-set line (other atoms skipped).
fn atoms(text: &str, line: usize) -> Result<Vec<Atom>, AnswerError> {
    let mut cells = Vec::new();
    let mut columns = Columns::new(text);
    for token in text.split_ascii_whitespace() {
        let Some(arguments) = token.strip_prefix("x(") else {
            continue;
        };
        let column = columns.of(token);
        let numbers: Option<Vec<usize>> = arguments
            .strip_suffix(')')
            .map(|inner| inner.split(',').map(|a| a.parse().ok()).collect())
            .unwrap_or(None);
        match numbers.as_deref() {
            Some(&[r, c, v]) => cells.push(((r, c, v), line, column)),
            _ => {
                return Err(answer_error(
                    line,
                    column,
                    format!("'{token}' is not an atom x(R,C,V) with three numbers"),
                ));
            }
        }
    }
    Ok(cells)
}

/// The `clasp` answer reader.
pub const CLASP_READER: AnswerReader = AnswerReader {
    name: "clasp",
    format: "opb",
    summary: "clasp or clingo output: 's'/'v' lines for OPB (also RoundingSat, Exact), answer sets of x(R,C,V) for ASP",
    read: |puzzle, _, input| read_clasp(puzzle, input),
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_line;

    fn read(puzzle: &str, text: &str) -> Result<Claim, AnswerError> {
        read_clasp(&parse_line(puzzle, None).unwrap(), &mut text.as_bytes())
    }

    const OPB: &str = "c clasp version 3.3.5\nc Reading from p.opb\nc Solving...\nc Answer: 1\n\
        v x1 -x2 -x3 -x4 -x5 -x6 x7 -x8 -x9 -x10 -x11 x12 -x13 x14 -x15 -x16\ns SATISFIABLE\n\
        c Models : 1\n";

    #[test]
    fn opb_answers_decode_to_cells() {
        // 1×2 boxes: order 2, variables x1..x8, so x12 and x14 are outside.
        assert!(matches!(read("1...", OPB), Ok(Claim::NotAGrid(why)) if why.contains("x12")));
        let two = "c\nv x1 -x2 -x3 x4\nv -x5 x6 x7 -x8\ns SATISFIABLE\n";
        let Claim::Grid(grid) = read("1...", two).unwrap() else {
            panic!()
        };
        assert_eq!(crate::text::to_text(&grid), "1221");
        assert_eq!(read("1...", "s UNSATISFIABLE\n").unwrap(), Claim::Unsat);
        assert_eq!(read("1...", "s UNKNOWN\n").unwrap(), Claim::Unknown);
    }

    #[test]
    fn answer_sets_decode_to_cells() {
        let text = "clingo version 5.4.1\nReading from p.asp\nSolving...\nAnswer: 1\n\
            x(1,1,1) x(1,2,2) done x(2,1,2) x(2,2,1)\nSATISFIABLE\n\nModels       : 1+\n";
        let Claim::Grid(grid) = read("1...", text).unwrap() else {
            panic!()
        };
        assert_eq!(crate::text::to_text(&grid), "1221");
        let partial = text.replace(" x(2,2,1)", "");
        assert!(
            matches!(read("1...", &partial), Ok(Claim::NotAGrid(why)) if why.contains("(2,2)"))
        );
        assert_eq!(read("1...", "UNSATISFIABLE\n").unwrap(), Claim::Unsat);
    }

    #[test]
    fn errors_have_places() {
        let cases = [
            ("", "line 1, column 1: no status line"),
            ("s MAYBE\n", "line 1, column 3: unknown status 'MAYBE'"),
            (
                "v x1 y2\ns SATISFIABLE\n",
                "line 1, column 6: 'y2' is not a literal",
            ),
            (
                "Answer: 1\nx(1,1)\nSATISFIABLE\n",
                "line 2, column 1: 'x(1,1)' is not an atom",
            ),
            (
                "SATISFIABLE\n",
                "line 2, column 1: a satisfiable answer without its model",
            ),
        ];
        for (text, message) in cases {
            let error = read("1...", text).unwrap_err().to_string();
            assert!(error.starts_with(message), "{error}");
        }
    }
}
