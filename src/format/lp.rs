//! CPLEX LP files of the 0-1 program ([`crate::encode::ilp`]), read by glpsol (`--lp`), cbc
//! and HiGHS.
//!
//! Layout: `\` comments, `Minimize` with the objective `obj: 0 x_1_1_1` (glpsol rejects an empty
//! objective), `Subject To` with one named equality per line, `Binary` with every variable,
//! `End`. No line reaches 255 characters (a limit of several LP readers): long constraints and
//! the binary list continue on lines that start with spaces.
//!
//! # Complexity
//! Streams in O(n³) time with O(n) memory.
//!
//! # References
//! - IBM ILOG CPLEX, "LP file format: algebraic representation".
//! - GLPK reference manual, appendix "CPLEX LP format".
//!
//! # Examples
//! ```
//! use sudokit::encode::ilp::Ilp;
//! use sudokit::format::lp::write_lp;
//! use sudokit::text::parse_line;
//! let ilp = Ilp::new(&parse_line("1...............", None).unwrap());
//! let mut out = Vec::new();
//! write_lp(&ilp, &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.contains("\n cell_1_1: x_1_1_1 + x_1_1_2 + x_1_1_3 + x_1_1_4 = 1\n"));
//! assert!(text.contains("\n given_1_1: x_1_1_1 = 1\n"));
//! assert!(text.lines().all(|line| line.len() < 255));
//! ```

use std::io::{self, Write};

use crate::encode::ilp::{Ilp, var_name};
use crate::format::entry::{ExportFormat, digits};
use crate::grid::Grid;

/// The longest line the writer produces (continuations start a new line before this).
pub const MAX_LINE: usize = 200;

/// Writes the LP file of `ilp`.
///
/// # Errors
/// I/O errors of `out`.
pub fn write_lp(ilp: &Ilp, out: impl Write) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    let shape = ilp.shape();
    let n = shape.order();
    writeln!(
        out,
        "\\ sudokit 0-1 ILP: {shape}, {} givens; x_r_c_v = 1 iff cell (r,c) holds v (1-based)",
        ilp.givens()
    )?;
    writeln!(
        out,
        "\\ {} variables, {} constraints, {} non-zeros",
        ilp.var_count(),
        ilp.row_count(),
        ilp.nonzeros()
    )?;
    writeln!(
        out,
        "\\ solve: glpsol --lp FILE -o ANSWER (or cbc FILE solve solu ANSWER; highs --model_file FILE \
         --solution_file ANSWER)"
    )?;
    writeln!(
        out,
        "\\ decode: sudokit decode PUZZLE --from glpsol ANSWER (--from cbc, highs or scip for theirs; \
         PUZZLE: the puzzle file)"
    )?;
    writeln!(out, "Minimize")?;
    writeln!(out, " obj: 0 {}", var_name(0, 0, 0))?;
    writeln!(out, "Subject To")?;
    let mut line = String::with_capacity(MAX_LINE + 32);
    for row in ilp.rows() {
        line.clear();
        line.push(' ');
        line.push_str(&row.name());
        line.push(':');
        for (i, &(r, c, v)) in row.vars.iter().enumerate() {
            let term = var_name(r, c, v);
            if line.len() + term.len() + 3 > MAX_LINE {
                writeln!(out, "{line}")?;
                line.clear();
                line.push_str("  ");
            }
            line.push_str(if i == 0 { " " } else { " + " });
            line.push_str(&term);
        }
        if row.is_equality() {
            line.push_str(" = 1");
        } else {
            line.push_str(&format!(" <= {}", row.rhs()));
        }
        writeln!(out, "{line}")?;
    }
    writeln!(out, "Binary")?;
    line.clear();
    for r in 0..n {
        for c in 0..n {
            for v in 0..n {
                let name = var_name(r, c, v);
                if line.len() + name.len() + 1 > MAX_LINE {
                    writeln!(out, "{line}")?;
                    line.clear();
                }
                line.push(' ');
                line.push_str(&name);
            }
        }
    }
    if !line.is_empty() {
        writeln!(out, "{line}")?;
    }
    writeln!(out, "End")?;
    out.flush()
}

/// The size of the LP (`lp`) or MPS (not `lp`) file of `puzzle`, estimated from its non-zeros.
pub(crate) fn ilp_estimate(puzzle: &Grid, lp: bool) -> u64 {
    let shape = puzzle.shape();
    let n = shape.order() as u128;
    let cells = n * n;
    let units = shape.unit_count() as u128;
    let givens = puzzle.filled() as u128;
    // Row kinds per cell (cell + one per unit kind), each with n terms, plus givens.
    let kinds = units.div_ceil(n) + 1;
    let nonzeros = kinds * n * cells + givens;
    let name = 4 + 3 * digits(n);
    let per_term = if lp { name + 3 } else { name + 14 };
    let bytes = nonzeros * per_term + (kinds * cells + givens) * 16 + n * cells * (name + 8);
    u64::try_from(bytes).unwrap_or(u64::MAX)
}

/// The size line of an ILP export.
pub(crate) fn ilp_stats(format: &str, ilp: &Ilp) -> String {
    format!(
        "{format}: {} variables, {} constraints, {} non-zeros",
        ilp.var_count(),
        ilp.row_count(),
        ilp.nonzeros()
    )
}

/// The `lp` entry of the format registry.
pub const FORMAT: ExportFormat = ExportFormat {
    name: "lp",
    aliases: &["ilp"],
    extension: "lp",
    comment: "\\",
    comment_end: "",
    first_line_fixed: false,
    summary: "CPLEX LP, the 0-1 integer program (glpsol, cbc, HiGHS, lp_solve)",
    takes_cnf_options: false,
    takes_smt_encoding: false,
    answers: &["glpsol", "cbc", "highs", "scip"],
    companion: None,
    write: |puzzle, _, out| {
        let ilp = Ilp::new(puzzle);
        write_lp(&ilp, out)?;
        Ok(ilp_stats("lp", &ilp))
    },
    exclude: Some(|puzzle, _, excluded, out| write_lp(&Ilp::excluding(puzzle, excluded), out)),
    estimate: |puzzle, _| ilp_estimate(puzzle, true),
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::shape::Shape;

    #[test]
    fn long_constraints_are_wrapped_below_the_line_limit() {
        let ilp = Ilp::new(&Grid::empty(Shape::sudoku(5, 5).unwrap()));
        let mut out = Vec::new();
        write_lp(&ilp, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.lines().all(|l| l.len() <= MAX_LINE), "a long line");
        // Every variable is listed once under Binary and every constraint once.
        let binary = text.split("Binary\n").nth(1).unwrap();
        assert_eq!(
            binary
                .split_whitespace()
                .filter(|t| t.starts_with("x_"))
                .count(),
            ilp.var_count()
        );
        let named = text
            .lines()
            .filter(|l| l.starts_with(' ') && l.contains(": "))
            .count();
        assert_eq!(named, ilp.row_count() + 1, "constraints + objective");
        assert!(text.ends_with("End\n"));
    }
}
