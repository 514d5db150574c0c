//! Self-contained MiniZinc models (`.mzn`): the alldifferent model of `models/sudoku.mzn`
//! ([`crate::encode::csp`]) with the puzzle's data inside, for `minizinc --solver gecode FILE`
//! (or chuffed, or-tools, any FlatZinc solver).
//!
//! `%` comments (the puzzle, the model, the commands that solve and decode), `n`, the box shape
//! `p`×`q`, the `given` array (0 = empty), `x`, an `alldifferent` per row, column and (unless
//! Latin) box, a no-good per solution already found (`constraint not (x[1,2] = 5 /\ ...);`,
//! [`write_mzn_excluding`]) and `solve satisfy;`. There is no output item, so MiniZinc prints
//! its default output, `x = [| ... |];` and `----------`, or `=====UNSATISFIABLE=====`
//! ([`crate::format::minizinc_answer`]).
//!
//! # Complexity
//! O(n²) to write.
//!
//! # References
//! - N. Nethercote et al., "MiniZinc: towards a standard CP modelling language", CP 2007.
//! - H. Simonis, "Sudoku as a constraint problem", CP 2005 workshop on modelling and
//!   reformulating constraint satisfaction problems.
//!
//! # Examples
//! ```
//! use sudokit::format::mzn::write_mzn;
//! use sudokit::text::parse_line;
//! let mut out = Vec::new();
//! write_mzn(&parse_line("1...............", None).unwrap(), &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.contains("\nint: n = 4;\nint: p = 2;\nint: q = 2;\n"));
//! assert!(text.contains("given = [|\n  1, 0, 0, 0 |\n"));
//! assert!(text.ends_with("solve satisfy;\n"));
//! ```

use std::io::{self, Write};

use crate::encode::csp::Csp;
use crate::encode::nogood;
use crate::format::entry::{ExportFormat, digits, header_lines};
use crate::grid::Grid;

/// The model after the data.
const MODEL: &str = "\
include \"alldifferent.mzn\";
set of int: N = 1..n;
array[N, N] of var N: x;
constraint forall(r, c in N where given[r, c] > 0)(x[r, c] = given[r, c]);
constraint forall(r in N)(alldifferent([x[r, c] | c in N]));
constraint forall(c in N)(alldifferent([x[r, c] | r in N]));
";

/// The box constraints (boxes of p rows and q columns), for a Sudoku.
const BOXES: &str = "\
constraint forall(b in 0..n-1)(
  alldifferent([x[(b div p) * p + i, (b mod p) * q + j] | i in 1..p, j in 1..q]));
";

/// Writes the MiniZinc model of `puzzle`.
///
/// # Errors
/// I/O errors of `out`.
pub fn write_mzn(puzzle: &Grid, out: impl Write) -> io::Result<()> {
    write_mzn_excluding(puzzle, &[], out)
}

/// Writes the model of `puzzle` with one no-good per grid of `excluded`.
///
/// # Errors
/// I/O errors of `out`.
pub fn write_mzn_excluding(puzzle: &Grid, excluded: &[Grid], out: impl Write) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    let shape = puzzle.shape();
    let n = shape.order();
    let header = header_lines(
        puzzle,
        "MiniZinc model",
        if shape.has_box_geometry() {
            "x[r,c] is the value of cell (r,c); alldifferent per row, column and box; given: 0 = empty"
        } else {
            "x[r,c] is the value of cell (r,c); alldifferent per row, column, listed region and extra unit; given: 0 = empty"
        },
        "minizinc --solver gecode FILE > ANSWER",
        "minizinc",
    );
    for line in header {
        writeln!(out, "% {line}")?;
    }
    writeln!(out, "int: n = {n};")?;
    writeln!(out, "int: p = {};", shape.box_rows())?;
    writeln!(out, "int: q = {};", shape.box_cols())?;
    writeln!(out, "array[1..n, 1..n] of 0..n: given = [|")?;
    let given: Vec<usize> = Csp::new(puzzle).given_array().collect();
    for (r, row) in given.chunks(n).enumerate() {
        let cells: Vec<String> = row.iter().map(usize::to_string).collect();
        let end = if r + 1 == n { "|];" } else { "|" };
        writeln!(out, "  {} {end}", cells.join(", "))?;
    }
    write!(out, "{MODEL}")?;
    if !shape.is_latin() && !shape.has_region_map() {
        write!(out, "{BOXES}")?;
    }
    // A map's regions and the extra units, listed: one alldifferent each.
    let listed_from = if shape.has_region_map() { 2 * n } else { 3 * n };
    if !shape.is_latin() {
        for unit in shape.units().skip(listed_from) {
            let cells: Vec<String> = shape
                .unit_cells(unit)
                .map(|cell| format!("x[{},{}]", cell / n + 1, cell % n + 1))
                .collect();
            writeln!(
                out,
                "constraint alldifferent([{}]); % {unit}",
                cells.join(", ")
            )?;
        }
    }
    for solution in excluded {
        let cells = nogood(puzzle, solution);
        if cells.is_empty() {
            continue;
        }
        let terms: Vec<String> = cells
            .iter()
            .map(|(r, c, v)| format!("x[{},{}] = {}", r + 1, c + 1, v + 1))
            .collect();
        writeln!(out, "constraint not ({});", terms.join(" /\\ "))?;
    }
    writeln!(out, "solve satisfy;")?;
    out.flush()
}

/// The `mzn` entry of the format registry.
pub const FORMAT: ExportFormat = ExportFormat {
    name: "mzn",
    aliases: &["minizinc"],
    extension: "mzn",
    comment: "%",
    comment_end: "",
    first_line_fixed: false,
    summary: "a self-contained MiniZinc model with its data (alldifferent per unit; minizinc --solver gecode)",
    takes_cnf_options: false,
    takes_smt_encoding: false,
    answers: &["minizinc"],
    companion: None,
    write: |puzzle, _, out| {
        write_mzn(puzzle, out)?;
        let shape = puzzle.shape();
        Ok(format!(
            "mzn: {} variables, {} alldifferent constraints, {} givens",
            shape.cells(),
            shape.unit_count(),
            puzzle.filled()
        ))
    },
    exclude: Some(|puzzle, _, excluded, out| write_mzn_excluding(puzzle, excluded, out)),
    estimate: |puzzle, _| {
        let shape = puzzle.shape();
        let (n, cells) = (shape.order() as u128, shape.cells() as u128);
        // The listed units of regions: `x[r,c], ` per cell of each.
        let listed = if shape.has_box_geometry() {
            0
        } else {
            (shape.unit_count() as u128 - 2 * n) * n * (6 + 2 * digits(n)) + 64
        };
        u64::try_from(cells * (2 + digits(n)) + listed + 2048).unwrap_or(u64::MAX)
    },
};
