//! Free MPS files of the 0-1 program ([`crate::encode::ilp`]), read by glpsol (`--freemps`),
//! cbc and HiGHS.
//!
//! Sections `NAME`, `ROWS` (`N obj`, then one `E` row per constraint), `COLUMNS` written column
//! by column between `'MARKER' 'INTORG'` / `'INTEND'` (the objective gets one explicit 0 on
//! `x_1_1_1`), `RHS` (every row = 1), `BOUNDS` (`UP BND x 1`: with the integer markers, binary),
//! `ENDATA`. Names contain no spaces, as free MPS requires.
//!
//! # Complexity
//! Streams in O(n³) time with O(n) memory.
//!
//! # References
//! - IBM ILOG CPLEX, "MPS file format: industry standard"; "free MPS".
//! - GLPK reference manual, appendix "MPS format".
//!
//! # Examples
//! ```
//! use sudokit::encode::ilp::Ilp;
//! use sudokit::format::mps::write_mps;
//! use sudokit::text::parse_line;
//! let ilp = Ilp::new(&parse_line("1...............", None).unwrap());
//! let mut out = Vec::new();
//! write_mps(&ilp, &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.contains("\n x_1_1_1 cell_1_1 1 row_1_1 1\n"));
//! assert!(text.ends_with("ENDATA\n"));
//! ```

use std::io::{self, Write};

use crate::encode::ilp::{Ilp, var_name};
use crate::format::entry::ExportFormat;
use crate::format::lp::{ilp_estimate, ilp_stats};

/// Writes the free MPS file of `ilp`.
///
/// # Errors
/// I/O errors of `out`.
pub fn write_mps(ilp: &Ilp, out: impl Write) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    let shape = ilp.shape();
    let n = shape.order();
    writeln!(
        out,
        "* sudokit 0-1 ILP: {shape}, {} givens; x_r_c_v = 1 iff cell (r,c) holds v (1-based)",
        ilp.givens()
    )?;
    writeln!(
        out,
        "* solve: lp_solve -fmps FILE -S4 -presolve > ANSWER (or glpsol --freemps FILE -o ANSWER)"
    )?;
    writeln!(
        out,
        "* decode: sudokit decode PUZZLE --from lp_solve ANSWER (--from glpsol for glpsol's; \
         PUZZLE: the puzzle file)"
    )?;
    writeln!(out, "NAME sudoku")?;
    writeln!(out, "ROWS")?;
    writeln!(out, " N obj")?;
    for row in ilp.rows() {
        let sense = if row.is_equality() { "E" } else { "L" };
        writeln!(out, " {sense} {}", row.name())?;
    }
    writeln!(out, "COLUMNS")?;
    writeln!(out, " MARKER 'MARKER' 'INTORG'")?;
    for r in 0..n {
        for c in 0..n {
            for v in 0..n {
                let name = var_name(r, c, v);
                if (r, c, v) == (0, 0, 0) {
                    writeln!(out, " {name} obj 0")?;
                }
                for pair in ilp.rows_of(r, c, v).chunks(2) {
                    write!(out, " {name}")?;
                    for row in pair {
                        write!(out, " {row} 1")?;
                    }
                    writeln!(out)?;
                }
            }
        }
    }
    writeln!(out, " MARKER 'MARKER' 'INTEND'")?;
    writeln!(out, "RHS")?;
    for row in ilp.rows() {
        writeln!(out, " RHS {} {}", row.name(), row.rhs())?;
    }
    writeln!(out, "BOUNDS")?;
    for r in 0..n {
        for c in 0..n {
            for v in 0..n {
                writeln!(out, " UP BND {} 1", var_name(r, c, v))?;
            }
        }
    }
    writeln!(out, "ENDATA")?;
    out.flush()
}

/// The `mps` entry of the format registry.
pub const FORMAT: ExportFormat = ExportFormat {
    name: "mps",
    aliases: &[],
    extension: "mps",
    comment: "*",
    comment_end: "",
    first_line_fixed: false,
    summary: "free MPS, the same 0-1 integer program (glpsol --freemps, cbc, lp_solve -fmps, HiGHS)",
    takes_cnf_options: false,
    takes_smt_encoding: false,
    answers: &["glpsol", "cbc", "lp_solve", "highs"],
    companion: None,
    write: |puzzle, _, out| {
        let ilp = Ilp::new(puzzle);
        write_mps(&ilp, out)?;
        Ok(ilp_stats("mps", &ilp))
    },
    exclude: Some(|puzzle, _, excluded, out| write_mps(&Ilp::excluding(puzzle, excluded), out)),
    estimate: |puzzle, _| ilp_estimate(puzzle, false),
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::shape::Shape;

    #[test]
    fn every_nonzero_appears_once() {
        let mut puzzle = Grid::empty(Shape::sudoku(2, 3).unwrap());
        puzzle.set(7, Some(4));
        let ilp = Ilp::new(&puzzle);
        let mut out = Vec::new();
        write_mps(&ilp, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let columns = text
            .split("COLUMNS\n")
            .nth(1)
            .unwrap()
            .split("RHS\n")
            .next()
            .unwrap();
        let entries: usize = columns
            .lines()
            .filter(|l| !l.contains("MARKER"))
            .map(|l| (l.split_whitespace().count() - 1) / 2)
            .sum();
        assert_eq!(entries, ilp.nonzeros() + 1, "non-zeros + the objective's 0");
        assert!(columns.contains(
            " x_2_2_5 cell_2_2 1 row_2_5 1\n x_2_2_5 col_2_5 1 box_1_5 1\n x_2_2_5 given_2_2 1\n"
        ));
    }
}
