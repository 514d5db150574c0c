//! SMT-LIB 2 scripts of the puzzle, read by z3 and cvc5, in one of two encodings
//! ([`SmtEncoding`], `export --to smt2 --encoding NAME`):
//!
//! - **`bool`** (the default, the fastest): one Boolean constant `x_R_C_V` per open cell and
//!   value that the givens leave possible, and the clauses of the CNF export with `--encoding
//!   optimized` ([`crate::encode::cnf`], Kwon & Jain) as `(assert (or ...))`, in the logic
//!   QF_UF. `(get-value ...)` asks for every `x_R_C_V`; a cell's value is its true one, a given
//!   keeps its value.
//! - **`int`** (the readable one): one integer constant `c_R_C` per cell bounded to `1..n` (a
//!   given: equal to its value), one `distinct` per row, column and box, in QF_LIA; `(get-value
//!   (c_1_1 ... c_n_n))`. It is the model a person writes, and slow to solve from 16×16 on (the
//!   measured ratios are in BENCHMARKS.md).
//!
//! Both start with `;` comments (the puzzle, the encoding, the commands that solve and decode),
//! `(set-option :produce-models true)` and the logic, and end with one no-good per solution
//! already found ([`write_smt2_excluding`]), `(check-sat)`, the `get-value` and `(exit)`. The
//! solver prints `sat` and the values, `unsat` (then an error for the `get-value`, which sudokit
//! ignores) or `unknown` ([`crate::format::smt2_answer`]).
//!
//! # Complexity
//! `int`: O(n²) time (the `distinct` terms) with O(n) memory. `bool`: linear in the CNF's
//! literals, with the variable map in memory.
//!
//! # References
//! - C. Barrett, P. Fontaine, C. Tinelli, "The SMT-LIB Standard: Version 2.6", 2017 (commands
//!   `set-logic`, `declare-fun`, `check-sat`, `get-value`; the theories of integers and of
//!   uninterpreted functions, `distinct`).
//! - G. Kwon, H. Jain, "Optimized CNF encoding for Sudoku puzzles", LPAR 2006.
//!
//! # Examples
//! ```
//! use sudokit::format::smt2::write_smt2;
//! use sudokit::format::SmtEncoding;
//! use sudokit::text::parse_line;
//! let puzzle = parse_line("1...............", None).unwrap();
//! let mut out = Vec::new();
//! write_smt2(&puzzle, SmtEncoding::Int, &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.contains("\n(set-logic QF_LIA)\n"));
//! assert!(text.contains("\n(assert (= c_1_1 1))\n(assert (<= 1 c_1_2 4))\n"));
//! assert!(text.contains("\n(assert (distinct c_1_1 c_1_2 c_1_3 c_1_4))\n"));
//! assert!(text.ends_with("(check-sat)\n(get-value (c_1_1 c_1_2 c_1_3 c_1_4\n  c_2_1 c_2_2 c_2_3 c_2_4\n  c_3_1 c_3_2 c_3_3 c_3_4\n  c_4_1 c_4_2 c_4_3 c_4_4))\n(exit)\n"));
//! let mut out = Vec::new();
//! write_smt2(&puzzle, SmtEncoding::Bool, &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.contains("\n(set-logic QF_UF)\n(declare-fun x_1_2_2 () Bool)\n"));
//! assert!(!text.contains("x_1_1_"), "a given has no variable");
//! ```

use std::io::{self, Write};

use crate::encode::cnf::{Amo, CnfOptions, Encoding, blocking_clause, encode};
use crate::encode::{ClauseSink, Counter, Lit, Var, nogood, x_of_index};
use crate::format::entry::{ExportFormat, SmtEncoding, digits, header_lines};
use crate::grid::Grid;

/// The name of the Boolean of cell (r, c) holding v, 0-based arguments: `x_R_C_V`, 1-based.
pub fn value_name(r: usize, c: usize, v: usize) -> String {
    format!("x_{}_{}_{}", r + 1, c + 1, v + 1)
}

/// `(r, c, v)` 0-based from a name `x_R_C_V` of an order-`n` script.
pub fn parse_value_name(name: &str, n: usize) -> Option<(usize, usize, usize)> {
    let mut parts = name.strip_prefix("x_")?.split('_');
    let mut index = || -> Option<usize> {
        let k: usize = parts.next()?.parse().ok()?;
        (1..=n).contains(&k).then(|| k - 1)
    };
    let cell = (index()?, index()?, index()?);
    parts.next().is_none().then_some(cell)
}

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

/// Writes the SMT-LIB 2 script of `puzzle` in `encoding`.
///
/// # Errors
/// I/O errors of `out`.
pub fn write_smt2(puzzle: &Grid, encoding: SmtEncoding, out: impl Write) -> io::Result<()> {
    write_smt2_excluding(puzzle, encoding, &[], out)
}

/// Writes the script of `puzzle` in `encoding` with one no-good per grid of `excluded`.
///
/// # Errors
/// I/O errors of `out`.
pub fn write_smt2_excluding(
    puzzle: &Grid,
    encoding: SmtEncoding,
    excluded: &[Grid],
    out: impl Write,
) -> io::Result<()> {
    match encoding {
        SmtEncoding::Int => write_int(puzzle, excluded, out),
        SmtEncoding::Bool => write_bool(puzzle, excluded, out),
    }
}

/// The CNF options of the `bool` encoding.
const BOOL_CNF: CnfOptions = CnfOptions {
    encoding: Encoding::Optimized,
    amo: Amo::Pairwise,
};

/// Upper bounds of the variables, clauses and literals of the optimized pairwise encoding of
/// `puzzle` (the bool encoding's clauses): only open cells have variables, at most `n` each;
/// each open cell has an at-least-one clause and at most `n(n−1)/2` binary at-most-one
/// clauses; a unit with `k` open cells misses `k` values, each with an at-least-one clause of
/// at most `k` literals and at most `k(k−1)/2` binary at-most-one clauses; one empty clause at
/// most. Linear in the cells, so an estimate costs nothing next to the export; a grid with many
/// givens is bounded by what is left open, not by the size of the empty grid.
fn optimized_bound(puzzle: &Grid) -> BoundSize {
    let shape = puzzle.shape();
    let n = shape.order() as u128;
    let mut open_in_unit = vec![0u128; shape.unit_count()];
    let mut open = 0u128;
    for cell in 0..shape.cells() {
        if puzzle.get(cell).is_none() {
            open += 1;
            for unit in shape.units_of(cell) {
                open_in_unit[unit.index(shape.order())] += 1;
            }
        }
    }
    let pairs = |k: u128| k * k.saturating_sub(1) / 2;
    let (mut clauses, mut literals) = (open * (1 + pairs(n)) + 1, open * (n + 2 * pairs(n)));
    for &k in &open_in_unit {
        clauses += k * (1 + pairs(k));
        literals += k * (k + 2 * pairs(k));
    }
    BoundSize {
        vars: open * n,
        clauses,
        literals,
    }
}

/// The sizes [`optimized_bound`] bounds.
struct BoundSize {
    vars: u128,
    clauses: u128,
    literals: u128,
}

/// The name of a CNF variable: `x_R_C_V` for the x variables, `a_K` for any other.
fn var_name(names: &[Option<(usize, usize, usize)>], var: Var) -> String {
    match names.get(var.index()).copied().flatten() {
        Some((r, c, v)) => value_name(r, c, v),
        None => format!("a_{}", var.to_dimacs()),
    }
}

/// Writes the clauses the CNF encoder hands it as SMT-LIB assertions.
struct Assertions<'a, W: Write> {
    out: &'a mut W,
    names: &'a [Option<(usize, usize, usize)>],
    vars: usize,
    line: String,
    error: Option<io::Error>,
}

impl<W: Write> Assertions<'_, W> {
    fn lit(&mut self, lit: Lit) {
        let name = var_name(self.names, lit.var());
        if lit.is_negative() {
            self.line.push_str("(not ");
            self.line.push_str(&name);
            self.line.push(')');
        } else {
            self.line.push_str(&name);
        }
    }

    fn assert(&mut self, clause: &[Lit]) {
        self.line.clear();
        match clause {
            [] => self.line.push_str("(assert false)"),
            [one] => {
                self.line.push_str("(assert ");
                self.lit(*one);
                self.line.push(')');
            }
            _ => {
                self.line.push_str("(assert (or");
                for &lit in clause {
                    self.line.push(' ');
                    self.lit(lit);
                }
                self.line.push_str("))");
            }
        }
        if self.error.is_none()
            && let Err(e) = writeln!(self.out, "{}", self.line)
        {
            self.error = Some(e);
        }
    }
}

impl<W: Write> ClauseSink for Assertions<'_, W> {
    fn new_var(&mut self) -> Var {
        self.vars += 1;
        Var::from_index(self.vars - 1)
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.assert(clause);
    }
}

/// The `bool` encoding; see the module docs.
fn write_bool(puzzle: &Grid, excluded: &[Grid], out: impl Write) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    let n = puzzle.shape().order();
    // A first pass gives the variables and their map.
    let mut counter = Counter::default();
    let encoded = encode(puzzle, BOOL_CNF, &mut counter);
    let mut names: Vec<Option<(usize, usize, usize)>> = vec![None; counter.vars];
    for i in 0..n * n * n {
        let (r, c, v) = x_of_index(n, i);
        if let Some(var) = encoded.map.var(r, c, v) {
            names[var.index()] = Some((r, c, v));
        }
    }
    let header = header_lines(
        puzzle,
        "SMT-LIB 2 (QF_UF), encoding bool",
        "x_R_C_V is true when cell (R,C) holds V; the clauses of the CNF export with --encoding optimized (givens and the values their peers exclude are fixed, so they have no variable)",
        "z3 FILE > ANSWER (or cvc5 FILE > ANSWER)",
        "smt2",
    );
    for line in header {
        writeln!(out, "; {line}")?;
    }
    writeln!(out, "(set-option :produce-models true)")?;
    writeln!(out, "(set-logic QF_UF)")?;
    for index in 0..counter.vars {
        let name = var_name(&names, Var::from_index(index));
        writeln!(out, "(declare-fun {name} () Bool)")?;
    }
    let mut sink = Assertions {
        out: &mut out,
        names: &names,
        vars: 0,
        line: String::new(),
        error: None,
    };
    let again = encode(puzzle, BOOL_CNF, &mut sink);
    debug_assert_eq!(again, encoded);
    for solution in excluded {
        let clause = blocking_clause(puzzle, &encoded.map, solution);
        if !clause.is_empty() {
            sink.assert(&clause);
        }
    }
    if let Some(e) = sink.error.take() {
        return Err(e);
    }
    writeln!(out, "(check-sat)")?;
    write!(out, "(get-value (")?;
    let mut first = true;
    for (index, name) in names.iter().enumerate() {
        if name.is_none() {
            continue;
        }
        if !first {
            out.write_all(if index % 16 == 0 { b"\n  " } else { b" " })?;
        }
        first = false;
        write!(out, "{}", var_name(&names, Var::from_index(index)))?;
    }
    if first {
        // Nothing is open: ask for something, a script's get-value takes one term at least.
        write!(out, "true")?;
    }
    writeln!(out, "))")?;
    writeln!(out, "(exit)")?;
    out.flush()
}

/// The `int` encoding; see the module docs.
fn write_int(puzzle: &Grid, excluded: &[Grid], out: impl Write) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    let shape = puzzle.shape();
    let n = shape.order();
    let header = header_lines(
        puzzle,
        "SMT-LIB 2 (QF_LIA), encoding int",
        if shape.is_latin() {
            "c_R_C is the value of cell (R,C), in 1..n; one distinct per row and column"
        } else {
            "c_R_C is the value of cell (R,C), in 1..n; one distinct per row, column and box"
        },
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
    summary: "SMT-LIB 2 (z3, cvc5): --encoding bool (default, the fastest: a Bool per cell value, the CNF's clauses) or int (readable: an Int per cell, distinct per unit)",
    takes_cnf_options: false,
    takes_smt_encoding: true,
    answers: &["smt2"],
    companion: None,
    write: |puzzle, options, out| {
        write_smt2(puzzle, options.smt, out)?;
        let shape = puzzle.shape();
        Ok(match options.smt {
            SmtEncoding::Int => format!(
                "smt2 int: {} integer constants, {} distinct constraints, {} givens",
                shape.cells(),
                shape.unit_count(),
                puzzle.filled()
            ),
            SmtEncoding::Bool => {
                let mut counter = Counter::default();
                encode(puzzle, BOOL_CNF, &mut counter);
                format!(
                    "smt2 bool: {} Boolean constants, {} clauses, {} givens",
                    counter.vars,
                    counter.clauses,
                    puzzle.filled()
                )
            }
        })
    },
    exclude: Some(|puzzle, options, excluded, out| {
        write_smt2_excluding(puzzle, options.smt, excluded, out)
    }),
    estimate: |puzzle, options| {
        let shape = puzzle.shape();
        let (n, cells) = (shape.order() as u128, shape.cells() as u128);
        match options.smt {
            SmtEncoding::Int => {
                let name = 3 + 2 * digits(n);
                let units = shape.unit_count() as u128;
                u64::try_from(cells * (3 * name + 50) + units * (n * (name + 1) + 20) + 1024)
                    .unwrap_or(u64::MAX)
            }
            SmtEncoding::Bool => {
                let size = optimized_bound(puzzle);
                let name = 5 + 3 * digits(n);
                u64::try_from(
                    size.literals * (name + 7)
                        + size.clauses * 16
                        + size.vars * (2 * name + 30)
                        + 1024,
                )
                .unwrap_or(u64::MAX)
            }
        }
    },
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_line;

    #[test]
    fn the_int_header_names_boxes_only_where_there_are_some() {
        let header = |puzzle: &Grid| {
            let mut out = Vec::new();
            write_smt2(puzzle, SmtEncoding::Int, &mut out).unwrap();
            String::from_utf8(out).unwrap()
        };
        let latin = parse_line("12.......", Some(crate::text::ShapeSpec::Latin));
        let square = header(&latin.unwrap());
        assert!(
            square.contains("one distinct per row and column\n"),
            "{square}"
        );
        let sudoku = header(&parse_line("1.3.....4....2..", None).unwrap());
        assert!(
            sudoku.contains("one distinct per row, column and box\n"),
            "{sudoku}"
        );
    }

    #[test]
    fn names_parse_back_and_no_goods_name_the_open_cells() {
        assert_eq!(parse_cell_name("c_12_3", 16), Some((11, 2)));
        assert_eq!(parse_cell_name("c_17_3", 16), None);
        assert_eq!(parse_cell_name("x_1_1", 16), None);
        let puzzle = parse_line("1234341221434.2.", None).unwrap();
        let solution = parse_line("1234341221434321", None).unwrap();
        let mut out = Vec::new();
        write_smt2_excluding(
            &puzzle,
            SmtEncoding::Int,
            std::slice::from_ref(&solution),
            &mut out,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("\n(assert (not (and (= c_4_2 3) (= c_4_4 1))))\n(check-sat)\n"));
        let mut out = Vec::new();
        write_smt2_excluding(&puzzle, SmtEncoding::Bool, &[solution], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("\n(assert (or (not x_4_2_3) (not x_4_4_1)))\n(check-sat)\n"),
            "{text}"
        );
        assert_eq!(parse_value_name("x_4_2_3", 4), Some((3, 1, 2)));
        assert_eq!(parse_value_name("x_4_2_5", 4), None);
        assert_eq!(parse_value_name("x_4_2_3_1", 4), None);
    }
}
