//! Reading SCIP's solution file for the LP export
//! (`scip -c "read IN.lp optimize write solution OUT quit"`).
//!
//! `solution status: optimal solution found` (or `infeasible`, `time limit reached`, ...), then
//! `objective value: 0` and one line `name value (obj:0)` per column that is not 0; columns left
//! out are 0. `no solution available` after a status without a solution.
//!
//! # Complexity
//! Linear in the file.
//!
//! # References
//! - SCIP documentation, interactive shell: `write solution`; `SCIPprintSol`.

use std::io::BufRead;

use crate::encode::ilp::{IlpSolution, IlpStatus};
use crate::format::entry::{AnswerReader, single};
use crate::format::mip_answer::{
    MipAnswerError, MipAnswerErrorKind, claim, err, number, read_lines,
};
use crate::text::located::token_column;

/// Reads SCIP's solution file; see the module docs.
///
/// # Errors
/// [`MipAnswerError`] with the place of the first problem.
pub fn read_scip(input: impl BufRead) -> Result<IlpSolution, MipAnswerError> {
    let lines = read_lines(input)?;
    let mut status = None;
    let mut values = Vec::new();
    let mut no_solution = false;
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix("solution status:") {
            let text = rest.trim();
            status = Some(if text.contains("infeasible") {
                IlpStatus::Infeasible
            } else if text.contains("optimal") || text.contains("feasible") {
                IlpStatus::Optimal
            } else if text.contains("limit")
                || text.contains("interrupt")
                || text.contains("unknown")
            {
                IlpStatus::Unknown
            } else {
                return Err(err(
                    i + 1,
                    token_column(line, text),
                    MipAnswerErrorKind::BadStatus(text.to_string()),
                ));
            });
            continue;
        }
        if status.is_none() {
            continue;
        }
        if trimmed.starts_with("objective value:") {
            continue;
        }
        if trimmed == "no solution available" {
            no_solution = true;
            continue;
        }
        let fields: Vec<&str> = trimmed.split_whitespace().collect();
        if fields.len() < 2 {
            return Err(err(
                i + 1,
                line.chars().count() + 1,
                MipAnswerErrorKind::MissingValue,
            ));
        }
        values.push((fields[0].to_string(), number(i + 1, line, fields[1])?));
    }
    let Some(mut status) = status else {
        return Err(err(lines.len() + 1, 1, MipAnswerErrorKind::NoStatus));
    };
    if no_solution && status == IlpStatus::Optimal {
        status = IlpStatus::Unknown;
    } else if !no_solution && status == IlpStatus::Unknown && !values.is_empty() {
        // A feasible point found before the limit is a solution.
        status = IlpStatus::Optimal;
    }
    Ok(IlpSolution { status, values })
}

/// The `scip` answer reader.
pub const SCIP_READER: AnswerReader = AnswerReader {
    name: "scip",
    format: "lp",
    summary: "the solution file of SCIP (scip -c \"read IN.lp optimize write solution OUT quit\")",
    read: |puzzle, _, input, each| single(claim(puzzle, input, |i| read_scip(i)), each),
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solution_files_and_statuses() {
        let text = "solution status: optimal solution found\nobjective value:                                    0\n\
            x_1_1_1                                             1 \t(obj:0)\n";
        let s = read_scip(text.as_bytes()).unwrap();
        assert_eq!(s.status, IlpStatus::Optimal);
        assert_eq!(s.values, vec![("x_1_1_1".into(), 1.0)]);
        let s = read_scip(&b"solution status: infeasible\nno solution available\n"[..]).unwrap();
        assert_eq!(s.status, IlpStatus::Infeasible);
        let s = read_scip(&b"solution status: time limit reached\nno solution available\n"[..])
            .unwrap();
        assert_eq!(s.status, IlpStatus::Unknown);
        assert_eq!(
            read_scip(&b"solution status: sideways\n"[..])
                .unwrap_err()
                .to_string(),
            "line 1, column 18: unknown status 'sideways'"
        );
        assert_eq!(
            read_scip(&b"solution status: optimal solution found\nx_1_1_1 one\n"[..])
                .unwrap_err()
                .to_string(),
            "line 2, column 9: 'one' is not a number"
        );
    }
}
