//! Reading HiGHS's solution file for the LP and MPS exports
//! (`highs --model_file IN.lp --solution_file OUT`, the default raw style).
//!
//! `Model status` and the status on the next line (`Optimal`, `Infeasible`,
//! `Time limit reached`, ...); `# Primal solution values` and `Feasible` (or `None`), the
//! `Objective` line, `# Columns N` and `N` lines `name value`; then the rows and the duals, which
//! are not read. A feasible point of the program is a solution whatever the model status (the
//! objective is 0), so a time limit reached after one is found still gives the grid.
//!
//! The pretty style (`--write_solution_style 1`) is read too: a `Columns` table, one line per
//! column with its index, basis status, bounds, primal and dual values (blank when there are
//! none), type and name, in fixed-width fields (`%9d   %4s %12g %12g %12g`: the primal value is
//! characters 43 to 55), then the `Rows` table and `Model status: ...`.
//!
//! # Complexity
//! Linear in the file.
//!
//! # References
//! - HiGHS documentation, "Solution file" (`write_solution_style` 0, raw, and 1, pretty).

use std::io::BufRead;

use crate::encode::ilp::{IlpSolution, IlpStatus};
use crate::format::entry::{AnswerReader, single};
use crate::format::mip_answer::{
    MipAnswerError, MipAnswerErrorKind, claim, err, number, read_lines,
};
use crate::text::located::token_column;

/// Reads HiGHS's solution file; see the module docs.
///
/// # Errors
/// [`MipAnswerError`] with the place of the first problem.
pub fn read_highs(input: impl BufRead) -> Result<IlpSolution, MipAnswerError> {
    let lines = read_lines(input)?;
    let end = lines.len() + 1;
    if lines
        .iter()
        .find(|l| !l.trim().is_empty())
        .map(|l| l.trim())
        == Some("Columns")
    {
        return read_pretty(&lines);
    }
    let Some(at) = lines.iter().position(|l| l.trim() == "Model status") else {
        return Err(err(end, 1, MipAnswerErrorKind::NoStatus));
    };
    let model_status = lines.get(at + 1).map_or("", |l| l.trim());
    let primal = lines
        .iter()
        .position(|l| l.trim() == "# Primal solution values")
        .map(|k| (k, lines.get(k + 1).map_or("", |l| l.trim())));
    let mut values = Vec::new();
    if let Some((k, "Feasible")) = primal {
        let Some(columns) = (k..lines.len()).find(|&j| lines[j].starts_with("# Columns")) else {
            return Err(err(end, 1, MipAnswerErrorKind::NoColumns));
        };
        let header = &lines[columns];
        let count_text = header["# Columns".len()..].trim();
        let count = number(columns + 1, header, count_text)? as usize;
        for j in columns + 1..columns + 1 + count {
            let Some(line) = lines.get(j) else {
                return Err(err(end, 1, MipAnswerErrorKind::MissingValue));
            };
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.len() != 2 {
                return Err(err(
                    j + 1,
                    line.chars().count() + 1,
                    MipAnswerErrorKind::MissingValue,
                ));
            }
            values.push((fields[0].to_string(), number(j + 1, line, fields[1])?));
        }
    }
    let status = if !values.is_empty() {
        IlpStatus::Optimal
    } else {
        match model_status {
            "Infeasible" | "Primal infeasible or unbounded" => IlpStatus::Infeasible,
            "Optimal" => return Err(err(end, 1, MipAnswerErrorKind::NoColumns)),
            "" => {
                return Err(err(at + 2, 1, MipAnswerErrorKind::NoStatus));
            }
            other if other.contains("limit") || other.contains("Interrupt") => IlpStatus::Unknown,
            "Not Set" | "Unknown" | "Unbounded" => IlpStatus::Unknown,
            other => {
                let line = &lines[at + 1];
                return Err(err(
                    at + 2,
                    token_column(line, line.trim()),
                    MipAnswerErrorKind::BadStatus(other.to_string()),
                ));
            }
        }
    };
    Ok(IlpSolution { status, values })
}

/// The characters of the primal value in a line of the pretty style's tables.
const PRIMAL: std::ops::Range<usize> = 42..55;

/// The pretty style (`--write_solution_style 1`); see the module docs.
fn read_pretty(lines: &[String]) -> Result<IlpSolution, MipAnswerError> {
    let end = lines.len() + 1;
    let mut values = Vec::new();
    let mut in_columns = false;
    let mut model_status = None;
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim();
        match trimmed {
            "Columns" => in_columns = true,
            "Rows" => in_columns = false,
            _ if trimmed.starts_with("Index ") => {}
            _ if trimmed.starts_with("Model status:") => {
                model_status = Some((i, trimmed["Model status:".len()..].trim().to_string()));
            }
            _ if in_columns && !trimmed.is_empty() => {
                let name = trimmed.split_whitespace().last().unwrap_or("");
                let primal = line.get(PRIMAL).map_or("", str::trim);
                if primal.is_empty() {
                    // No primal values (an infeasible run): nothing to read.
                    continue;
                }
                values.push((name.to_string(), number(i + 1, line, primal)?));
            }
            _ => {}
        }
    }
    let Some((at, model_status)) = model_status else {
        return Err(err(end, 1, MipAnswerErrorKind::NoStatus));
    };
    let status = if !values.is_empty() {
        IlpStatus::Optimal
    } else {
        match model_status.as_str() {
            "Infeasible" | "Primal infeasible or unbounded" => IlpStatus::Infeasible,
            "Optimal" => return Err(err(end, 1, MipAnswerErrorKind::NoColumns)),
            other if other.contains("limit") || other.contains("Interrupt") => IlpStatus::Unknown,
            "Not Set" | "Unknown" | "Unbounded" => IlpStatus::Unknown,
            other => {
                return Err(err(
                    at + 1,
                    1,
                    MipAnswerErrorKind::BadStatus(other.to_string()),
                ));
            }
        }
    };
    Ok(IlpSolution { status, values })
}

/// The `highs` answer reader.
pub const HIGHS_READER: AnswerReader = AnswerReader {
    name: "highs",
    format: "lp",
    summary: "the solution file of HiGHS (highs --model_file IN.lp --solution_file OUT), raw or pretty (--write_solution_style 1)",
    read: |puzzle, _, input, each| single(claim(puzzle, input, |i| read_highs(i)), each),
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The pretty style as HiGHS's writeModelBoundSolution lays it out (fixed widths).
    fn pretty(primal: &[Option<f64>], status: &str) -> String {
        let mut text = String::from(
            "Columns\n    Index Status        Lower        Upper       Primal         Dual  Type        Name\n",
        );
        for (k, value) in primal.iter().enumerate() {
            let primal = value.map_or("             ".to_string(), |v| format!(" {v:12}"));
            text += &format!(
                "{k:9}   {:>4} {:12} {:12}{primal}               Integer     x_1_1_{}\n",
                "",
                0,
                1,
                k + 1
            );
        }
        text + &format!(
            "Rows\n    Index Status        Lower        Upper       Primal         Dual  Name\n\nModel status: {status}\n\nObjective value: 0\n"
        )
    }

    #[test]
    fn the_pretty_style_is_read() {
        let solution = read_highs(pretty(&[Some(1.0), Some(0.0)], "Optimal").as_bytes()).unwrap();
        assert_eq!(solution.status, IlpStatus::Optimal);
        assert_eq!(
            solution.values,
            vec![("x_1_1_1".into(), 1.0), ("x_1_1_2".into(), 0.0)]
        );
        let infeasible = read_highs(pretty(&[None, None], "Infeasible").as_bytes()).unwrap();
        assert_eq!(infeasible.status, IlpStatus::Infeasible);
    }

    const FILE: &str = "Model status\nOptimal\n\n# Primal solution values\nFeasible\nObjective 0\n\
        # Columns 2\nx_1_1_1 1\nx_1_1_2 0\n# Rows 1\ncell_1_1 1\n\n# Dual solution values\nNone\n";

    #[test]
    fn solution_files_and_statuses() {
        let s = read_highs(FILE.as_bytes()).unwrap();
        assert_eq!(s.status, IlpStatus::Optimal);
        assert_eq!(
            s.values,
            vec![("x_1_1_1".into(), 1.0), ("x_1_1_2".into(), 0.0)]
        );
        let infeasible = "Model status\nInfeasible\n\n# Primal solution values\nNone\n";
        assert_eq!(
            read_highs(infeasible.as_bytes()).unwrap().status,
            IlpStatus::Infeasible
        );
        let limit = "Model status\nTime limit reached\n\n# Primal solution values\nNone\n";
        assert_eq!(
            read_highs(limit.as_bytes()).unwrap().status,
            IlpStatus::Unknown
        );
        let cases = [
            ("", "line 1, column 1: no status line"),
            (
                "Model status\nSideways\n",
                "line 2, column 1: unknown status 'Sideways'",
            ),
            (
                &FILE.replace("x_1_1_2 0", "x_1_1_2"),
                "line 9, column 8: a column line without its value",
            ),
            (
                &FILE.replace("x_1_1_2 0", "x_1_1_2 zero"),
                "line 9, column 9: 'zero' is not a number",
            ),
        ];
        for (text, message) in cases {
            let error = read_highs(text.as_bytes()).unwrap_err().to_string();
            assert!(error.starts_with(message), "{error}");
        }
    }
}
