//! Answer-set programs (`.asp`; gringo and clingo read any name, `.lp` by custom, which the CPLEX
//! LP export already takes): the givens as facts and a short encoding.
//!
//! `%` comments (the puzzle, the encoding, the commands that solve and decode), the constants
//! `n`, `p`, `q` (box rows and columns), one fact `given(R,C,V)` per given (1-based), then the
//! encoding: a choice of exactly one `x(R,C,V)` per cell, `#count` constraints for exactly one
//! cell per row and value, column and value, and (unless Latin) box and value, the givens kept,
//! and `#show x/3.` With a region map the boxes are `box(R,C,B)` facts instead of their p×q
//! rule, and each extra unit `K` (a diagonal, a window) is `extra(K,R,C)` facts with the same
//! `#count` constraint. A solution already found is ruled out by an integrity constraint over its
//! open cells (`:- x(1,2,5), x(1,3,7), ... .`, [`write_asp_excluding`]). `clingo FILE` (or
//! `gringo FILE | clasp`) prints the answer set as `x(R,C,V)` atoms
//! ([`crate::format::clasp_answer`]).
//!
//! # Complexity
//! O(n²) to write; gringo grounds O(n³) rules.
//!
//! # References
//! - M. Gebser, R. Kaminski, B. Kaufmann, T. Schaub, "Answer Set Solving in Practice", 2012
//!   (choice rules, `#count` aggregates, integrity constraints).
//! - Potassco guide (gringo 5 input language).
//!
//! # Examples
//! ```
//! use sudokit::format::asp::write_asp;
//! use sudokit::text::parse_line;
//! let mut out = Vec::new();
//! write_asp(&parse_line("1...............", None).unwrap(), &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.contains("\n#const n = 4.\n#const p = 2.\n#const q = 2.\ngiven(1,1,1).\n"));
//! assert!(text.contains("\n1 { x(R,C,V) : value(V) } 1 :- value(R), value(C).\n"));
//! assert!(text.ends_with("#show x/3.\n"));
//! ```

use std::io::{self, Write};

use crate::encode::nogood;
use crate::format::entry::{ExportFormat, header_lines};
use crate::grid::Grid;
use crate::shape::Shape;

/// The encoding after the facts of `shape`.
fn encoding(shape: Shape) -> String {
    let latin = shape.is_latin();
    let mut text = String::from(
        "value(1..n).\n\
         1 { x(R,C,V) : value(V) } 1 :- value(R), value(C).\n\
         :- value(R), value(V), #count { C : x(R,C,V) } != 1.\n\
         :- value(C), value(V), #count { R : x(R,C,V) } != 1.\n",
    );
    if !latin {
        if !shape.has_region_map() {
            text.push_str("box(R,C,((R-1)/p)*p + (C-1)/q) :- value(R), value(C).\n");
        }
        text.push_str(
            "boxes(B) :- box(_,_,B).\n\
             :- boxes(B), value(V), #count { R,C : x(R,C,V), box(R,C,B) } != 1.\n",
        );
    }
    if shape.extra_count() > 0 {
        text.push_str(
            "extras(K) :- extra(K,_,_).\n\
             :- extras(K), value(V), #count { R,C : x(R,C,V), extra(K,R,C) } != 1.\n",
        );
    }
    text.push_str(":- given(R,C,V), not x(R,C,V).\n");
    text
}

/// Writes the ASP program of `puzzle`.
///
/// # Errors
/// I/O errors of `out`.
pub fn write_asp(puzzle: &Grid, out: impl Write) -> io::Result<()> {
    write_asp_excluding(puzzle, &[], out)
}

/// Writes the program of `puzzle` with one integrity constraint per grid of `excluded`.
///
/// # Errors
/// I/O errors of `out`.
pub fn write_asp_excluding(puzzle: &Grid, excluded: &[Grid], out: impl Write) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    let shape = puzzle.shape();
    let header = header_lines(
        puzzle,
        "answer-set program (gringo/clingo)",
        if shape.has_box_geometry() {
            "x(R,C,V): cell (R,C) holds V (1-based); given(R,C,V) facts; boxes of p rows and q columns"
        } else {
            "x(R,C,V): cell (R,C) holds V (1-based); given(R,C,V) facts; box(R,C,B) facts for a region map, extra(K,R,C) for extra units"
        },
        "clingo FILE > ANSWER (or gringo FILE | clasp > ANSWER)",
        "clasp",
    );
    for line in header {
        writeln!(out, "% {line}")?;
    }
    writeln!(out, "#const n = {}.", shape.order())?;
    writeln!(out, "#const p = {}.", shape.box_rows())?;
    writeln!(out, "#const q = {}.", shape.box_cols())?;
    let n = shape.order();
    for (cell, v) in puzzle.givens() {
        writeln!(out, "given({},{},{}).", cell / n + 1, cell % n + 1, v + 1)?;
    }
    if shape.has_region_map() {
        for cell in 0..shape.cells() {
            let (r, c) = (cell / n, cell % n);
            writeln!(out, "box({},{},{}).", r + 1, c + 1, shape.box_of(r, c) + 1)?;
        }
    }
    for k in 0..shape.extra_count() {
        let unit = shape.unit(3 * n + k);
        for cell in shape.unit_cells(unit) {
            writeln!(out, "extra({},{},{}).", k + 1, cell / n + 1, cell % n + 1)?;
        }
    }
    write!(out, "{}", encoding(shape))?;
    for solution in excluded {
        let cells = nogood(puzzle, solution);
        if cells.is_empty() {
            continue;
        }
        let atoms: Vec<String> = cells
            .iter()
            .map(|(r, c, v)| format!("x({},{},{})", r + 1, c + 1, v + 1))
            .collect();
        writeln!(out, ":- {}.", atoms.join(", "))?;
    }
    writeln!(out, "#show x/3.")?;
    out.flush()
}

/// The `asp` entry of the format registry.
pub const FORMAT: ExportFormat = ExportFormat {
    name: "asp",
    aliases: &["clingo", "gringo"],
    extension: "asp",
    comment: "%",
    comment_end: "",
    first_line_fixed: false,
    summary: "answer-set program: given/3 facts and a short encoding (clingo, gringo | clasp)",
    takes_cnf_options: false,
    takes_smt_encoding: false,
    answers: &["clasp"],
    companion: None,
    write: |puzzle, _, out| {
        write_asp(puzzle, out)?;
        Ok(format!(
            "asp: {} given facts, {} rules",
            puzzle.filled(),
            encoding(puzzle.shape()).lines().count() + 1
        ))
    },
    exclude: Some(|puzzle, _, excluded, out| write_asp_excluding(puzzle, excluded, out)),
    estimate: |puzzle, _| {
        let shape = puzzle.shape();
        let digits = crate::format::entry::digits(shape.order() as u128);
        // The given facts, and the box and extra facts of regions.
        let facts = puzzle.filled() as u128
            + u128::from(shape.has_region_map()) * shape.cells() as u128
            + (shape.extra_count() * shape.order()) as u128;
        u64::try_from(facts * (12 + 3 * digits) + 1024).unwrap_or(u64::MAX)
    },
};
