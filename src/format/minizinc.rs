//! MiniZinc data files (`.dzn`) for the model `models/sudoku.mzn` ([`crate::encode::csp`]).
//!
//! The data gives `p`, `q` (box rows and columns; `1` and `n` for a Latin square), `latin`,
//! `given`, an `n×n` array of 1-based values with 0 for an empty cell, one grid row per line,
//! `region`, each cell's region `1..n` under a region map (an empty array for the p×q boxes),
//! and `extra`, one row per extra unit listing its cells as `r·n + c` (0-based; empty for none).
//! Run `minizinc --solver gecode models/sudoku.mzn FILE.dzn`: the model prints the solution as a
//! grid block, which every sudokit command reads.
//!
//! # Complexity
//! O(n²) to write.
//!
//! # References
//! - MiniZinc handbook, "Data files" (2-D array literals `[| … | … |]`).
//!
//! # Examples
//! ```
//! use sudokit::encode::csp::Csp;
//! use sudokit::format::minizinc::write_dzn;
//! use sudokit::text::parse_line;
//! let mut out = Vec::new();
//! write_dzn(&Csp::new(&parse_line("1.3.....4....2..", None).unwrap()), &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.contains("p = 2;\nq = 2;\nlatin = false;\ngiven = [|\n  1, 0, 3, 0 |\n"));
//! assert!(text.contains("  0, 2, 0, 0 |];\n"));
//! assert!(text.ends_with("region = array2d(1..0, 1..0, []);\nextra = array2d(1..0, 1..0, []);\n"));
//! ```

use std::io::{self, Write};

use crate::encode::csp::Csp;
use crate::format::entry::{ExportFormat, digits};

/// Writes the `.dzn` data of `csp`.
///
/// # Errors
/// I/O errors of `out`.
pub fn write_dzn(csp: &Csp, out: impl Write) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    let shape = csp.shape();
    let n = shape.order();
    writeln!(
        out,
        "% sudokit data for models/sudoku.mzn: {shape}; 0 = empty"
    )?;
    writeln!(
        out,
        "% solve: minizinc --solver gecode models/sudoku.mzn FILE > ANSWER"
    )?;
    writeln!(
        out,
        "% decode: sudokit decode PUZZLE --from minizinc ANSWER (PUZZLE: the puzzle file)"
    )?;
    writeln!(out, "p = {};", shape.box_rows())?;
    writeln!(out, "q = {};", shape.box_cols())?;
    writeln!(out, "latin = {};", shape.is_latin())?;
    writeln!(out, "given = [|")?;
    let given: Vec<usize> = csp.given_array().collect();
    for (r, row) in given.chunks(n).enumerate() {
        let cells: Vec<String> = row.iter().map(usize::to_string).collect();
        let end = if r + 1 == n { "|];" } else { "|" };
        writeln!(out, "  {} {end}", cells.join(", "))?;
    }
    const NONE: &str = "array2d(1..0, 1..0, [])";
    match shape.regions().and_then(|regions| regions.map()) {
        Some(map) => {
            writeln!(out, "region = [|")?;
            for (r, row) in map.chunks(n).enumerate() {
                let cells: Vec<String> = row.iter().map(|&g| (g + 1).to_string()).collect();
                let end = if r + 1 == n { "|];" } else { "|" };
                writeln!(out, "  {} {end}", cells.join(", "))?;
            }
        }
        None => writeln!(out, "region = {NONE};")?,
    }
    let extras = shape.extra_count();
    if extras == 0 {
        writeln!(out, "extra = {NONE};")?;
    } else {
        let cells: Vec<String> = shape
            .units()
            .skip(3 * n)
            .flat_map(|unit| shape.unit_cells(unit))
            .map(|cell| cell.to_string())
            .collect();
        writeln!(
            out,
            "extra = array2d(1..{extras}, 1..{n}, [{}]);",
            cells.join(", ")
        )?;
    }
    out.flush()
}

/// The `dzn` entry of the format registry.
pub const FORMAT: ExportFormat = ExportFormat {
    name: "dzn",
    aliases: &[],
    extension: "dzn",
    comment: "%",
    comment_end: "",
    first_line_fixed: false,
    summary: "MiniZinc data for models/sudoku.mzn (alldifferent per unit)",
    takes_cnf_options: false,
    takes_smt_encoding: false,
    answers: &["minizinc"],
    companion: None,
    write: |puzzle, _, out| {
        write_dzn(&Csp::new(puzzle), out)?;
        let shape = puzzle.shape();
        Ok(format!(
            "dzn: {} variables, {} alldifferent constraints, {} givens",
            shape.cells(),
            shape.unit_count(),
            puzzle.filled()
        ))
    },
    exclude: None,
    estimate: |puzzle, _| {
        let shape = puzzle.shape();
        let (n, cells) = (shape.order() as u128, shape.cells() as u128);
        // `  v, v, ... |` rows: each value and its separator; a map's regions alike, and the
        // extra units' cells.
        let map = u128::from(shape.has_region_map()) * cells * (2 + digits(n));
        let extra = (shape.extra_count() as u128) * n * (2 + digits(cells));
        u64::try_from(cells * (2 + digits(n)) + map + extra + n * 8 + 128).unwrap_or(u64::MAX)
    },
};
