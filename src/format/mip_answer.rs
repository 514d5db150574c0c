//! Readers of MIP solvers' solution files for the LP/MPS exports: glpsol's printable report
//! (`glpsol --lp FILE -o OUT`) and cbc's solution file (`cbc FILE solve solu OUT`).
//!
//! Both give an [`IlpSolution`] (status and named column values), which
//! [`crate::encode::ilp::decode`] maps to a grid.
//!
//! - **glpsol** (`-o`): the `Status:` line (`INTEGER OPTIMAL`, `INTEGER NON-OPTIMAL` → a
//!   solution; `INTEGER EMPTY` → infeasible; `INTEGER UNDEFINED` → unknown; the LP statuses
//!   `OPTIMAL`, `INFEASIBLE`, `UNDEFINED` likewise), then the column table: `No. name [*]
//!   activity lower upper`, where a name longer than 12 characters stands alone on its line and
//!   the numbers follow on the next.
//! - **cbc** (`solu`): a first line `Optimal - objective value …` (`Infeasible …`,
//!   `Integer infeasible …` → infeasible; `Stopped …` and others → unknown), then one line per
//!   printed column, `index name value reduced-cost`, optionally marked `**`.
//!
//! lp_solve's report, HiGHS's solution file and SCIP's have their own readers
//! ([`crate::format::lp_solve_answer`], [`crate::format::highs_answer`],
//! [`crate::format::scip_answer`]), which give the same [`IlpSolution`].
//!
//! # Complexity
//! Linear in the file; one line in memory plus the values.
//!
//! # References
//! - GLPK reference manual, "glpsol" and its printable solution format.
//! - COIN-OR CBC user guide, `solu` command.

use std::io::BufRead;

use thiserror::Error;

use crate::text::lines::{LineErrorKind, LineReader};
use crate::text::located::{Located, token_column};

use crate::encode::ilp;
use crate::encode::ilp::{IlpSolution, IlpStatus};
use crate::format::entry::{AnswerError, AnswerReader, Claim, single};
use crate::grid::Grid;

/// A solution file that cannot be read: what is wrong, with its place.
pub type MipAnswerError = Located<MipAnswerErrorKind>;

/// What is wrong in a solution file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MipAnswerErrorKind {
    /// No status line.
    #[error("no status line (empty or truncated solution file?)")]
    NoStatus,
    /// A status that is not known.
    #[error("unknown status '{0}'")]
    BadStatus(String),
    /// A number that does not parse.
    #[error("'{0}' is not a number")]
    BadNumber(String),
    /// A line of the column table that does not have its fields.
    #[error("a column line without its value")]
    MissingValue,
    /// A solution status without the column table.
    #[error("a solution without its column table (truncated file?)")]
    NoColumns,
    /// Another output of the program, which has no values to read: what it is, and how to
    /// get one that has.
    #[error("this is {0}")]
    OtherForm(&'static str),
    /// The line could not be read.
    #[error(transparent)]
    Line(#[from] LineErrorKind),
}

pub(crate) fn err(line: usize, column: usize, kind: MipAnswerErrorKind) -> MipAnswerError {
    MipAnswerError::new(line, column, kind)
}

pub(crate) fn read_lines(input: impl BufRead) -> Result<Vec<String>, MipAnswerError> {
    let mut lines = LineReader::new(input);
    let mut all = Vec::new();
    while let Some(next) = lines.next_line() {
        let (_, line) = next.map_err(|e| e.map(MipAnswerErrorKind::from))?;
        all.push(line.to_string());
    }
    Ok(all)
}

/// The 1-based column of `token` inside `line` (tokens are slices of it).
fn column_of(line: &str, token: &str) -> usize {
    token_column(line, token)
}

/// A column's value: a finite number (`nan` and `inf` parse as floats, and NaN compares as
/// neither 0 nor 1, so it would pass for a 1).
pub(crate) fn number(line_no: usize, line: &str, token: &str) -> Result<f64, MipAnswerError> {
    token
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
        .ok_or_else(|| {
            err(
                line_no,
                column_of(line, token),
                MipAnswerErrorKind::BadNumber(token.to_string()),
            )
        })
}

/// Reads glpsol's printable report; see the module docs.
///
/// # Errors
/// [`MipAnswerError`] with the place of the first problem.
pub fn read_glpsol(input: impl BufRead) -> Result<IlpSolution, MipAnswerError> {
    let lines = read_lines(input)?;
    // glpsol -w writes the columns by number, without their names.
    if let Some((i, _)) = lines.iter().enumerate().find(|(_, l)| {
        let l = l.trim_start();
        l.starts_with("s mip ") || l.starts_with("s bas ") || l.starts_with("s ipt ")
    }) {
        return Err(err(
            i + 1,
            1,
            MipAnswerErrorKind::OtherForm(
                "glpsol's -w solution file, which numbers the columns without their names: \
                 write the printable report with -o OUT (glpsol --lp IN.lp -o OUT) and read \
                 it with --from glpsol",
            ),
        ));
    }
    let end = (lines.len() + 1, 1);
    let mut status = None;
    let mut values = Vec::new();
    let mut table = false;
    let mut i = 0;
    while i < lines.len() {
        let line = &lines[i];
        let line_no = i + 1;
        i += 1;
        if status.is_none() {
            if let Some(rest) = line.trim_start().strip_prefix("Status:") {
                let text = rest.trim();
                status = Some(match text {
                    "INTEGER OPTIMAL" | "INTEGER NON-OPTIMAL" | "OPTIMAL" | "FEASIBLE" => {
                        IlpStatus::Optimal
                    }
                    "INTEGER EMPTY" | "INFEASIBLE (FINAL)" | "INFEASIBLE" | "EMPTY" => {
                        IlpStatus::Infeasible
                    }
                    "INTEGER UNDEFINED" | "UNDEFINED" | "UNBOUNDED" => IlpStatus::Unknown,
                    _ => {
                        return Err(err(
                            line_no,
                            column_of(line, text),
                            MipAnswerErrorKind::BadStatus(text.to_string()),
                        ));
                    }
                });
            }
            continue;
        }
        if !table {
            // The table starts after the "Column name" header and its dashed rule.
            if line.contains("Column name") {
                table = true;
                i += 1;
            }
            continue;
        }
        if line.trim().is_empty() {
            break;
        }
        let mut fields: Vec<&str> = line.split_whitespace().collect();
        // A row needs at least its number and column name (found by the glpsol fuzz target:
        // a one-token row indexed past its fields).
        if fields.len() < 2 {
            return Err(err(
                line_no,
                line.chars().count() + 1,
                MipAnswerErrorKind::MissingValue,
            ));
        }
        let (name, value_line, value_line_no) = if fields.len() == 2 {
            // A long name: the numbers are on the next line.
            let Some(next) = lines.get(i) else {
                return Err(err(end.0, end.1, MipAnswerErrorKind::MissingValue));
            };
            i += 1;
            let name = fields[1];
            fields = next.split_whitespace().collect();
            (name, next.as_str(), i)
        } else {
            let name = fields[1];
            fields.drain(..2);
            (name, line.as_str(), line_no)
        };
        let activity = fields
            .iter()
            .find(|t| **t != "*")
            .ok_or_else(|| err(value_line_no, 1, MipAnswerErrorKind::MissingValue))?;
        let value = number(value_line_no, value_line, activity)?;
        values.push((name.to_string(), value));
    }
    let Some(status) = status else {
        return Err(err(end.0, end.1, MipAnswerErrorKind::NoStatus));
    };
    if status == IlpStatus::Optimal && !table {
        return Err(err(end.0, end.1, MipAnswerErrorKind::NoColumns));
    }
    Ok(IlpSolution { status, values })
}

/// Reads cbc's solution file; see the module docs.
///
/// # Errors
/// [`MipAnswerError`] with the place of the first problem.
pub fn read_cbc(input: impl BufRead) -> Result<IlpSolution, MipAnswerError> {
    let lines = read_lines(input)?;
    let Some((first_no, first)) = lines.iter().enumerate().find(|(_, l)| !l.trim().is_empty())
    else {
        return Err(err(1, 1, MipAnswerErrorKind::NoStatus));
    };
    let head = first.trim();
    if head.starts_with("Welcome to the CBC") || head.starts_with("Coin") {
        return read_cbc_log(&lines, first_no);
    }
    let status = if head.starts_with("Optimal") {
        IlpStatus::Optimal
    } else if head.starts_with("Infeasible") || head.starts_with("Integer infeasible") {
        IlpStatus::Infeasible
    } else if head.starts_with("Stopped") || head.starts_with("Unbounded") {
        IlpStatus::Unknown
    } else {
        return Err(err(
            first_no + 1,
            column_of(first, head),
            MipAnswerErrorKind::BadStatus(head.to_string()),
        ));
    };
    let mut values = Vec::new();
    for (i, line) in lines.iter().enumerate().skip(first_no + 1) {
        let fields: Vec<&str> = line.split_whitespace().filter(|t| *t != "**").collect();
        if fields.is_empty() {
            continue;
        }
        if fields.len() < 3 {
            return Err(err(i + 1, line.len() + 1, MipAnswerErrorKind::MissingValue));
        }
        number(i + 1, line, fields[0])?;
        let value = number(i + 1, line, fields[2])?;
        values.push((fields[1].to_string(), value));
    }
    Ok(IlpSolution { status, values })
}

/// cbc's log (its standard output without `solu`): its verdict when it is infeasible or
/// stopped; a solution has no values there.
fn read_cbc_log(lines: &[String], first: usize) -> Result<IlpSolution, MipAnswerError> {
    for (i, line) in lines.iter().enumerate().skip(first) {
        let line = line.trim();
        let status = if line.starts_with("Result - Optimal")
            || line.starts_with("Result - Solution found")
        {
            return Err(err(
                i + 1,
                1,
                MipAnswerErrorKind::OtherForm(
                    "cbc's log (its standard output), which has no solution values: add \
                     `solu OUT` (cbc IN.lp solve solu OUT) and read OUT with --from cbc",
                ),
            ));
        } else if line.starts_with("Result - Problem proven infeasible")
            || line.starts_with("Problem is infeasible")
            || line.starts_with("Result - Integer infeasible")
        {
            IlpStatus::Infeasible
        } else if line.starts_with("Result - Stopped") {
            IlpStatus::Unknown
        } else {
            continue;
        };
        return Ok(IlpSolution {
            status,
            values: Vec::new(),
        });
    }
    Err(err(lines.len() + 1, 1, MipAnswerErrorKind::NoStatus))
}

/// An ILP solution file read by `read` as a claim on `puzzle`.
pub(crate) fn claim(
    puzzle: &Grid,
    input: &mut dyn BufRead,
    read: fn(&mut dyn BufRead) -> Result<IlpSolution, MipAnswerError>,
) -> Result<Claim, AnswerError> {
    let solution = read(input).map_err(|e| e.map(|kind| kind.to_string()))?;
    Ok(match solution.status {
        IlpStatus::Infeasible => Claim::Unsat,
        IlpStatus::Unknown => Claim::Unknown,
        IlpStatus::Optimal => match ilp::decode(puzzle, &solution) {
            Ok(grid) => Claim::Grid(grid),
            // A column of another order: the answer is not for this puzzle.
            Err(e @ ilp::IlpDecodeError::UnknownColumn(_)) => {
                return Err(AnswerError::new(
                    1,
                    1,
                    format!("{e}: an answer to another puzzle?"),
                ));
            }
            Err(e) => Claim::NotAGrid(e.to_string()),
        },
    })
}

/// The `glpsol` answer reader.
pub const GLPSOL_READER: AnswerReader = AnswerReader {
    name: "glpsol",
    format: "lp",
    summary: "the printable report of glpsol (glpsol --lp IN.lp -o OUT)",
    read: |puzzle, _, input, each| single(claim(puzzle, input, |i| read_glpsol(i)), each),
};

/// The `cbc` answer reader.
pub const CBC_READER: AnswerReader = AnswerReader {
    name: "cbc",
    format: "lp",
    summary: "the solution file of cbc (cbc IN.lp solve solu OUT)",
    read: |puzzle, _, input, each| single(claim(puzzle, input, |i| read_cbc(i)), each),
};

#[cfg(test)]
mod tests {
    use super::*;

    const GLPSOL: &str = r"Problem:
Rows:       2
Columns:    2 (2 integer, 2 binary)
Non-zeros:  3
Status:     INTEGER OPTIMAL
Objective:  obj = 0 (MINimum)

   No.   Row name        Activity     Lower bound   Upper bound
------ ------------    ------------- ------------- -------------
     1 cell_1_1                    1             1             =

   No. Column name       Activity     Lower bound   Upper bound
------ ------------    ------------- ------------- -------------
     1 x_1_1_1      *              0             0             1
     2 x_10_10_10000
                    *              1             0             1

Integer feasibility conditions:
";

    #[test]
    fn glpsol_reports_with_short_and_long_names() {
        let s = read_glpsol(GLPSOL.as_bytes()).unwrap();
        assert_eq!(s.status, IlpStatus::Optimal);
        assert_eq!(
            s.values,
            vec![("x_1_1_1".into(), 0.0), ("x_10_10_10000".into(), 1.0)]
        );
        let truncated = GLPSOL.split("   No. Column").next().unwrap();
        assert_eq!(
            read_glpsol(truncated.as_bytes()).unwrap_err().to_string(),
            "line 12, column 1: a solution without its column table (truncated file?)"
        );
        let bad = GLPSOL.replace(
            "x_1_1_1      *              0",
            "x_1_1_1      *           zero",
        );
        assert_eq!(
            read_glpsol(bad.as_bytes()).unwrap_err().to_string(),
            "line 14, column 33: 'zero' is not a number"
        );
        assert_eq!(
            read_glpsol(&b"Status:     SOMETHING\n"[..])
                .unwrap_err()
                .to_string(),
            "line 1, column 13: unknown status 'SOMETHING'"
        );
        assert!(read_glpsol(&b""[..]).is_err());
        // NaN is not a value: it compared as neither 0 nor 1 and was read as a 1.
        for bad in ["nan", "NaN", "inf", "-inf"] {
            let text = GLPSOL.replace(
                "x_1_1_1      *              0",
                &format!("x_1_1_1      *            {bad:>3}"),
            );
            let error = read_glpsol(text.as_bytes()).unwrap_err().to_string();
            assert!(
                error.contains(&format!("'{bad}' is not a number")),
                "{error}"
            );
        }
    }

    #[test]
    fn cbc_solutions() {
        let text =
            "Optimal - objective value 0.00000000\n      0 x_1_1_1   0   0\n** 1 x_1_1_2 1 0\n";
        let s = read_cbc(text.as_bytes()).unwrap();
        assert_eq!(s.status, IlpStatus::Optimal);
        assert_eq!(s.values[1], ("x_1_1_2".into(), 1.0));
        let s = read_cbc(&b"Infeasible - objective value 0.00000000\n"[..]).unwrap();
        assert_eq!(s.status, IlpStatus::Infeasible);
        assert_eq!(
            read_cbc(&b"Optimal - objective value 0\n  3 x_1_1_1\n"[..])
                .unwrap_err()
                .to_string(),
            "line 2, column 12: a column line without its value"
        );
        assert!(read_cbc(&b"\n"[..]).is_err());
        assert!(read_cbc(&b"Maybe\n"[..]).is_err());
    }
}
