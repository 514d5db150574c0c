//! Pseudo-Boolean files (`.opb`, the format of the PB competitions) of the 0-1 program
//! ([`crate::encode::ilp`]), read by clasp, RoundingSat, Exact and SCIP.
//!
//! The first line is the size line `* #variable= V #constraint= C` that the format requires;
//! then `*` comments (the puzzle, the variable numbering, the commands that solve and decode);
//! then one linear constraint per line, `+1 x1 +1 x2 ... = 1 ;`: exactly one value per cell and
//! per unit and value, `+1 xK = 1 ;` per given. Variable `x((r-1)·n² + (c-1)·n + v)` means cell
//! (r,c) holds v (1-based), the numbering of the DIMACS export. A no-good that rules out a
//! solution already found ([`write_opb_excluding`]) is `-1 xA -1 xB ... >= -(k-1) ;` over the
//! `k` variables its open cells set. A solver answers with `s` and `v` lines
//! ([`crate::format::clasp_answer`]).
//!
//! # Complexity
//! Streams in O(n³) time with O(n) memory.
//!
//! # References
//! - O. Roussel, V. Manquinho, "Input/output format and solver requirements for the
//!   competitions of pseudo-Boolean solvers", PB competition 2012 (revised 2016).
//!
//! # Examples
//! ```
//! use sudokit::format::opb::write_opb;
//! use sudokit::text::parse_line;
//! let puzzle = parse_line("1...............", None).unwrap();
//! let mut out = Vec::new();
//! write_opb(&puzzle, &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.starts_with("* #variable= 64 #constraint= 65\n"));
//! assert!(text.contains("\n+1 x1 +1 x2 +1 x3 +1 x4 = 1 ;\n"));
//! assert!(text.ends_with("\n+1 x1 = 1 ;\n"));
//! ```

use std::io::{self, Write};

use crate::encode::ilp::{Ilp, Row};
use crate::encode::x_index;
use crate::format::entry::{ExportFormat, digits, header_lines};
use crate::grid::Grid;

/// Writes the OPB file of `puzzle`.
///
/// # Errors
/// I/O errors of `out`.
pub fn write_opb(puzzle: &Grid, out: impl Write) -> io::Result<()> {
    write_opb_excluding(puzzle, &[], out)
}

/// Writes the OPB file of `puzzle` with one no-good per grid of `excluded`.
///
/// # Errors
/// I/O errors of `out`.
pub fn write_opb_excluding(puzzle: &Grid, excluded: &[Grid], out: impl Write) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    let ilp = Ilp::excluding(puzzle, excluded);
    let n = puzzle.shape().order();
    writeln!(
        out,
        "* #variable= {} #constraint= {}",
        ilp.var_count(),
        ilp.row_count()
    )?;
    let header = header_lines(
        puzzle,
        "pseudo-Boolean (OPB)",
        &format!(
            "x((r-1)*{} + (c-1)*{n} + v) = 1 iff cell (r,c) holds v (1-based); exactly one value \
             per cell and per unit and value",
            n * n
        ),
        "clasp FILE > ANSWER (or roundingsat FILE > ANSWER)",
        "clasp",
    );
    for line in header {
        writeln!(out, "* {line}")?;
    }
    if !excluded.is_empty() {
        writeln!(
            out,
            "* the last {} constraints rule out solutions already found",
            excluded.len()
        )?;
    }
    let mut line = String::with_capacity(16 * n);
    for row in ilp.rows() {
        constraint(&row, n, &mut line);
        writeln!(out, "{line}")?;
    }
    out.flush()
}

/// The OPB text of one row of the program.
fn constraint(row: &Row, n: usize, line: &mut String) {
    line.clear();
    let coefficient = if row.is_equality() { "+1" } else { "-1" };
    for &(r, c, v) in &row.vars {
        line.push_str(coefficient);
        line.push_str(" x");
        line.push_str(&(x_index(n, r, c, v) + 1).to_string());
        line.push(' ');
    }
    if row.is_equality() {
        line.push_str("= 1 ;");
    } else {
        line.push_str(&format!(">= -{} ;", row.rhs()));
    }
}

/// The `opb` entry of the format registry.
pub const FORMAT: ExportFormat = ExportFormat {
    name: "opb",
    aliases: &["pb"],
    extension: "opb",
    comment: "*",
    comment_end: "",
    first_line_fixed: true,
    summary: "pseudo-Boolean OPB, exactly-one constraints over x(r,c,v) (clasp, RoundingSat, Exact, SCIP)",
    takes_cnf_options: false,
    takes_smt_encoding: false,
    answers: &["clasp"],
    companion: None,
    write: |puzzle, _, out| {
        write_opb(puzzle, out)?;
        let ilp = Ilp::new(puzzle);
        Ok(format!(
            "opb: {} variables, {} constraints, {} terms",
            ilp.var_count(),
            ilp.row_count(),
            ilp.nonzeros()
        ))
    },
    exclude: Some(|puzzle, _, excluded, out| write_opb_excluding(puzzle, excluded, out)),
    estimate: |puzzle, _| {
        let ilp = Ilp::new(puzzle);
        let n = puzzle.shape().order() as u128;
        let term = 5 + digits(n * n * n);
        u64::try_from(ilp.nonzeros() as u128 * term + ilp.row_count() as u128 * 6 + 512)
            .unwrap_or(u64::MAX)
    },
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_line;

    #[test]
    fn a_no_good_is_a_greater_or_equal_constraint_over_the_open_cells() {
        let puzzle = parse_line("1234341221434.2.", None).unwrap();
        let solution = parse_line("1234341221434321", None).unwrap();
        let mut out = Vec::new();
        write_opb_excluding(&puzzle, &[solution], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        // Cells (4,2) = 3 and (4,4) = 1 are open: x(3*16 + 1*4 + 3) = x55, x(3*16 + 3*4 + 1) = x61.
        assert!(text.ends_with("\n-1 x55 -1 x61 >= -1 ;\n"), "{text}");
        let ilp = Ilp::excluding(&puzzle, &[parse_line("1234341221434321", None).unwrap()]);
        assert!(text.starts_with(&format!(
            "* #variable= 64 #constraint= {}\n",
            ilp.row_count()
        )));
        assert_eq!(
            text.lines().filter(|l| !l.starts_with('*')).count(),
            ilp.row_count()
        );
    }
}
