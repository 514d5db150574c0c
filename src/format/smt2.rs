//! SMT-LIB 2 scripts of the alldifferent model ([`crate::encode::csp`]) in the logic QF_LIA,
//! read by z3 and cvc5.
//!
//! `;` comments (the puzzle, the model, the commands that solve and decode), then
//! `(set-option :produce-models true)`, `(set-logic QF_LIA)`, one integer constant `c_R_C` per
//! cell (1-based) bounded to `1..n` (a given: equal to its value), one `distinct` per row,
//! column and box, a no-good `(assert (not (and (= c_R_C v) ...)))` per solution already found
//! ([`write_smt2_excluding`]), and `(check-sat)`, `(get-value (c_1_1 ... c_n_n))`, `(exit)`.
//! The solver prints `sat` and the values, `unsat` (then an error for the `get-value`, which
//! sudokit ignores) or `unknown` ([`crate::format::smt2_answer`]).
//!
//! # Complexity
//! Streams in O(n²) time (the `distinct` terms) with O(n) memory.
//!
//! # References
//! - C. Barrett, P. Fontaine, C. Tinelli, "The SMT-LIB Standard: Version 2.6", 2017 (commands
//!   `set-logic`, `declare-fun`, `check-sat`, `get-value`; the theory of integers, `distinct`).
//!
//! # Examples
//! ```
//! use sudokit::format::smt2::write_smt2;
//! use sudokit::text::parse_line;
//! let mut out = Vec::new();
//! write_smt2(&parse_line("1...............", None).unwrap(), &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.contains("\n(set-logic QF_LIA)\n"));
//! assert!(text.contains("\n(assert (= c_1_1 1))\n(assert (<= 1 c_1_2 4))\n"));
//! assert!(text.contains("\n(assert (distinct c_1_1 c_1_2 c_1_3 c_1_4))\n"));
//! assert!(text.ends_with("(check-sat)\n(get-value (c_1_1 c_1_2 c_1_3 c_1_4\n  c_2_1 c_2_2 c_2_3 c_2_4\n  c_3_1 c_3_2 c_3_3 c_3_4\n  c_4_1 c_4_2 c_4_3 c_4_4))\n(exit)\n"));
//! ```

use std::io::{self, Write};

use crate::encode::nogood;
use crate::format::entry::{ExportFormat, digits, header_lines};
use crate::grid::Grid;

/// The name of the constant of cell (r, c), 0-based arguments: `c_R_C`, 1-based.
pub fn cell_name(r: usize, c: usize) -> String {
    format!("c_{}_{}", r + 1, c + 1)
}

/// `(r, c)` 0-based from a name `c_R_C` of an order-`n` script.
pub fn parse_cell_name(name: &str, n: usize) -> Option<(usize, usize)> {
    let (r, c) = name.strip_prefix("c_")?.split_once('_')?;
    let index = |s: &str| -> Option<usize> {
        let k: usize = s.parse().ok()?;
        (1..=n).contains(&k).then(|| k - 1)
    };
    Some((index(r)?, index(c)?))
}

/// Writes the SMT-LIB 2 script of `puzzle`.
///
/// # Errors
/// I/O errors of `out`.
pub fn write_smt2(puzzle: &Grid, out: impl Write) -> io::Result<()> {
    write_smt2_excluding(puzzle, &[], out)
}

/// Writes the script of `puzzle` with one no-good per grid of `excluded`.
///
/// # Errors
/// I/O errors of `out`.
pub fn write_smt2_excluding(puzzle: &Grid, excluded: &[Grid], out: impl Write) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    let shape = puzzle.shape();
    let n = shape.order();
    let header = header_lines(
        puzzle,
        "SMT-LIB 2 (QF_LIA)",
        "c_R_C is the value of cell (R,C), in 1..n; one distinct per row, column and box",
        "z3 FILE > ANSWER (or cvc5 FILE > ANSWER)",
        "smt2",
    );
    for line in header {
        writeln!(out, "; {line}")?;
    }
    writeln!(out, "(set-option :produce-models true)")?;
    writeln!(out, "(set-logic QF_LIA)")?;
    for r in 0..n {
        for c in 0..n {
            writeln!(out, "(declare-fun {} () Int)", cell_name(r, c))?;
        }
    }
    for r in 0..n {
        for c in 0..n {
            let name = cell_name(r, c);
            match puzzle.at(r, c) {
                Some(v) => writeln!(out, "(assert (= {name} {}))", v + 1)?,
                None => writeln!(out, "(assert (<= 1 {name} {n}))")?,
            }
        }
    }
    let mut line = String::new();
    for unit in shape.units() {
        line.clear();
        line.push_str("(assert (distinct");
        for cell in shape.unit_cells(unit) {
            line.push(' ');
            line.push_str(&cell_name(shape.row_of(cell), shape.col_of(cell)));
        }
        writeln!(out, "{line}))")?;
    }
    for solution in excluded {
        let cells = nogood(puzzle, solution);
        if cells.is_empty() {
            continue;
        }
        line.clear();
        line.push_str("(assert (not (and");
        for (r, c, v) in cells {
            line.push_str(&format!(" (= {} {})", cell_name(r, c), v + 1));
        }
        writeln!(out, "{line})))")?;
    }
    writeln!(out, "(check-sat)")?;
    write!(out, "(get-value (")?;
    for r in 0..n {
        if r > 0 {
            write!(out, "\n  ")?;
        }
        for c in 0..n {
            if c > 0 {
                write!(out, " ")?;
            }
            write!(out, "{}", cell_name(r, c))?;
        }
    }
    writeln!(out, "))")?;
    writeln!(out, "(exit)")?;
    out.flush()
}

/// The `smt2` entry of the format registry.
pub const FORMAT: ExportFormat = ExportFormat {
    name: "smt2",
    aliases: &["smt", "smtlib"],
    extension: "smt2",
    comment: ";",
    comment_end: "",
    first_line_fixed: false,
    summary: "SMT-LIB 2 in QF_LIA: one Int per cell, distinct per unit, check-sat and get-value (z3, cvc5)",
    takes_cnf_options: false,
    answers: &["smt2"],
    companion: None,
    write: |puzzle, _, out| {
        write_smt2(puzzle, out)?;
        let shape = puzzle.shape();
        Ok(format!(
            "smt2: {} integer constants, {} distinct constraints, {} givens",
            shape.cells(),
            shape.unit_count(),
            puzzle.filled()
        ))
    },
    exclude: Some(|puzzle, _, excluded, out| write_smt2_excluding(puzzle, excluded, out)),
    estimate: |puzzle, _| {
        let shape = puzzle.shape();
        let (n, cells) = (shape.order() as u128, shape.cells() as u128);
        let name = 3 + 2 * digits(n);
        let units = shape.unit_count() as u128;
        u64::try_from(cells * (3 * name + 50) + units * (n * (name + 1) + 20) + 1024)
            .unwrap_or(u64::MAX)
    },
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_line;

    #[test]
    fn names_parse_back_and_no_goods_name_the_open_cells() {
        assert_eq!(parse_cell_name("c_12_3", 16), Some((11, 2)));
        assert_eq!(parse_cell_name("c_17_3", 16), None);
        assert_eq!(parse_cell_name("x_1_1", 16), None);
        let puzzle = parse_line("1234341221434.2.", None).unwrap();
        let solution = parse_line("1234341221434321", None).unwrap();
        let mut out = Vec::new();
        write_smt2_excluding(&puzzle, &[solution], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("\n(assert (not (and (= c_4_2 3) (= c_4_4 1))))\n(check-sat)\n"));
    }
}
