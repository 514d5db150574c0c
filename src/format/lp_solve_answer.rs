//! Reading lp_solve's report for the MPS export (`lp_solve -fmps IN.mps -S4`; `-S3` prints the
//! same without the duals).
//!
//! `Value of objective function: 0`, then `Actual values of the variables:` and one
//! `name value` line per column, then `Actual values of the constraints:` and the rows (and,
//! with `-S4`, the dual values), which are not read. `This problem is infeasible` means no
//! solution; `This problem is unbounded`, a timeout, or a report with no variables says the
//! solver gave up.
//!
//! lp_solve's default simplex (Devex pricing) stalls on the degenerate Sudoku program; with
//! `-presolve` (rows and columns) it solves 9×9 puzzles in milliseconds, which the solver
//! table's entry uses.
//!
//! # Complexity
//! Linear in the report.
//!
//! # References
//! - lp_solve 5.5 reference guide, "lp_solve.htm" (the `-S` print levels, `-fmps`, `-presolve`).

use std::io::BufRead;

use crate::encode::ilp::{IlpSolution, IlpStatus};
use crate::format::entry::{AnswerReader, single};
use crate::format::mip_answer::{
    MipAnswerError, MipAnswerErrorKind, claim, err, number, read_lines,
};

/// Reads lp_solve's report; see the module docs.
///
/// # Errors
/// [`MipAnswerError`] with the place of the first problem.
pub fn read_lp_solve(input: impl BufRead) -> Result<IlpSolution, MipAnswerError> {
    let lines = read_lines(input)?;
    let mut status = None;
    let mut values = Vec::new();
    let mut in_variables = false;
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim();
        if in_variables {
            if trimmed.is_empty() || trimmed.starts_with("Actual values of the constraints") {
                break;
            }
            if trimmed.starts_with("Dual value") {
                break;
            }
            let fields: Vec<&str> = trimmed.split_whitespace().collect();
            if fields.len() != 2 {
                return Err(err(
                    i + 1,
                    line.chars().count() + 1,
                    MipAnswerErrorKind::MissingValue,
                ));
            }
            let value = number(i + 1, line, fields[1])?;
            values.push((fields[0].to_string(), value));
            continue;
        }
        if trimmed.starts_with("Actual values of the variables") {
            in_variables = true;
            status = Some(IlpStatus::Optimal);
        } else if trimmed.contains("infeasible") || trimmed.contains("INFEASIBLE") {
            status = Some(IlpStatus::Infeasible);
        } else if trimmed.contains("unbounded")
            || trimmed.contains("UNBOUNDED")
            || trimmed.starts_with("Timeout")
            || trimmed.contains("SUBOPTIMAL")
            || trimmed.contains("NUMFAILURE")
        {
            status.get_or_insert(IlpStatus::Unknown);
        }
    }
    let Some(status) = status else {
        return Err(err(lines.len() + 1, 1, MipAnswerErrorKind::NoStatus));
    };
    Ok(IlpSolution { status, values })
}

/// The `lp_solve` answer reader.
pub const LP_SOLVE_READER: AnswerReader = AnswerReader {
    name: "lp_solve",
    format: "mps",
    summary: "the report of lp_solve -S3 or -S4 (lp_solve -fmps IN.mps -S4 -presolve > OUT)",
    read: |puzzle, _, input, each| single(claim(puzzle, input, |i| read_lp_solve(i)), each),
};

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = "\nValue of objective function: 0\n\nActual values of the variables:\n\
        x_1_1_1                         1\nx_1_1_2                         0\n\n\
        Actual values of the constraints:\ncell_1_1                        1\n\n\
        Dual values with upper and lower limits:\nx_1_1_1  0 0 0\n";

    #[test]
    fn reports_and_statuses() {
        let s = read_lp_solve(REPORT.as_bytes()).unwrap();
        assert_eq!(s.status, IlpStatus::Optimal);
        assert_eq!(
            s.values,
            vec![("x_1_1_1".into(), 1.0), ("x_1_1_2".into(), 0.0)]
        );
        let s = read_lp_solve(&b"\nThis problem is infeasible\n"[..]).unwrap();
        assert_eq!(s.status, IlpStatus::Infeasible);
        let s = read_lp_solve(&b"\nThis problem is unbounded\n"[..]).unwrap();
        assert_eq!(s.status, IlpStatus::Unknown);
        assert_eq!(
            read_lp_solve(&b"\nActual values of the variables:\nx_1_1_1 one\n"[..])
                .unwrap_err()
                .to_string(),
            "line 3, column 9: 'one' is not a number"
        );
        assert_eq!(
            read_lp_solve(&b"Parse called\n"[..])
                .unwrap_err()
                .to_string(),
            "line 2, column 1: no status line (empty or truncated solution file?)"
        );
    }
}
