//! hMETIS hypergraph files (`.hgr`) of the Sudoku hypergraph ([`crate::encode::graph`]), and a
//! reader.
//!
//! `%` comment lines (what the file is, the puzzle, the vertex numbering, the commands that
//! solve it and decode the answer, as every export starts, then one `% given VERTEX VALUE` per
//! given), then the header
//! `E V` (hyperedges, vertices), then one line per hyperedge listing its 1-based vertices:
//! the rows, the columns and (unless Latin) the boxes, `3n` lines (`2n` for a Latin square).
//!
//! # Complexity
//! Writing and reading are linear in the `U·n²` vertex occurrences.
//!
//! # References
//! - G. Karypis, V. Kumar, "hMETIS: a hypergraph partitioning package", manual, 1998 (§3.1,
//!   hypergraph file format).
//!
//! # Examples
//! ```
//! use sudokit::format::hgr::{read_hgr, write_hgr};
//! use sudokit::text::parse_line;
//! let puzzle = parse_line("1...............", None).unwrap();
//! let mut out = Vec::new();
//! write_hgr(&puzzle, &mut out).unwrap();
//! let h = read_hgr(&out[..]).unwrap();
//! assert_eq!((h.vertices, h.edges.len()), (16, 12));
//! assert_eq!(h.edges[0], vec![1, 2, 3, 4]);
//! ```

use std::io::{self, BufRead, Write};

use crate::text::lines::LineReader;
use crate::text::located::{Located, token_column};

use crate::encode::graph::hyperedges;
use crate::format::entry::{ExportFormat, digits, given_lines_bound, header_lines};
use crate::grid::Grid;

/// Writes the `.hgr` file of `puzzle`.
///
/// # Errors
/// I/O errors of `out`.
pub fn write_hgr(puzzle: &Grid, out: impl Write) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    let shape = puzzle.shape();
    let n = shape.order();
    let header = header_lines(
        puzzle,
        "Sudoku hypergraph (hMETIS)",
        &format!(
            "one hyperedge per unit (rows, columns{}), whose vertices take different colours; vertex (r-1)*{n} + c is cell (r,c), its colour the value; '% given VERTEX VALUE' precolours",
            if shape.is_latin() { "" } else { ", boxes" }
        ),
        "python3 models/tools/colour_graph.py FILE > ANSWER (KaHyPar and hMETIS read the file as well)",
        "col",
    );
    for line in header {
        writeln!(out, "% {line}")?;
    }
    for (cell, v) in puzzle.givens() {
        writeln!(out, "% given {} {}", cell + 1, v + 1)?;
    }
    writeln!(out, "{} {}", shape.unit_count(), shape.cells())?;
    let mut line = String::new();
    for edge in hyperedges(shape) {
        line.clear();
        for (i, vertex) in edge.iter().enumerate() {
            if i > 0 {
                line.push(' ');
            }
            line.push_str(&(vertex + 1).to_string());
        }
        writeln!(out, "{line}")?;
    }
    out.flush()
}

/// A hypergraph as read (unweighted), 1-based vertices.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Hypergraph {
    /// Number of vertices.
    pub vertices: usize,
    /// Hyperedges.
    pub edges: Vec<Vec<usize>>,
    /// `(vertex, value)` from `% given` lines.
    pub givens: Vec<(usize, usize)>,
}

/// An `.hgr` file that cannot be read: what is wrong, with its place.
pub type HgrError = Located<String>;

/// Reads an unweighted `.hgr` file (format code 0 or absent).
///
/// # Errors
/// [`HgrError`] with the place of the first problem.
pub fn read_hgr(input: impl BufRead) -> Result<Hypergraph, HgrError> {
    let mut h = Hypergraph::default();
    let mut expected: Option<usize> = None;
    let mut last = 1;
    let mut lines = LineReader::new(input);
    while let Some(next) = lines.next_line() {
        let (line_no, line) = next.map_err(|e| e.map(|kind| kind.to_string()))?;
        last = line_no;
        let err = |token: &str, message: String| {
            HgrError::new(line_no, token_column(line, token), message)
        };
        let trimmed = line.trim();
        if let Some(rest) = trimmed.strip_prefix('%') {
            let fields: Vec<&str> = rest.split_ascii_whitespace().collect();
            if fields.first() == Some(&"given") {
                let pair: Option<Vec<usize>> = fields[1..].iter().map(|t| t.parse().ok()).collect();
                match pair.as_deref() {
                    Some([v, value]) => h.givens.push((*v, *value)),
                    _ => return Err(err(trimmed, "expected % given VERTEX VALUE".into())),
                }
            }
            continue;
        }
        if trimmed.is_empty() {
            continue;
        }
        let mut numbers = Vec::new();
        for token in line.split_ascii_whitespace() {
            numbers.push(
                token
                    .parse::<usize>()
                    .map_err(|_| err(token, format!("'{token}' is not a number")))?,
            );
        }
        match expected {
            None => {
                if !(2..=3).contains(&numbers.len()) || numbers.get(2).is_some_and(|&f| f != 0) {
                    return Err(err(
                        trimmed,
                        "expected the header 'E V' (unweighted)".into(),
                    ));
                }
                expected = Some(numbers[0]);
                h.vertices = numbers[1];
            }
            Some(_) => {
                for (token, &x) in line.split_ascii_whitespace().zip(&numbers) {
                    if x == 0 || x > h.vertices {
                        return Err(err(
                            token,
                            format!("vertex {x} is outside 1..={}", h.vertices),
                        ));
                    }
                }
                h.edges.push(numbers);
            }
        }
    }
    match expected {
        Some(e) if e == h.edges.len() => Ok(h),
        Some(e) => Err(HgrError::new(
            last,
            1,
            format!(
                "the header announces {e} hyperedges, the file has {}",
                h.edges.len()
            ),
        )),
        None => Err(HgrError::new(
            last,
            1,
            "no header 'E V' (empty file?)".into(),
        )),
    }
}

/// The `hgr` entry of the format registry.
pub const FORMAT: ExportFormat = ExportFormat {
    name: "hgr",
    aliases: &[],
    extension: "hgr",
    comment: "%",
    comment_end: "",
    first_line_fixed: false,
    summary: "hMETIS hypergraph: one hyperedge per unit",
    takes_cnf_options: false,
    takes_smt_encoding: false,
    answers: &["col"],
    companion: None,
    write: |puzzle, _, out| {
        write_hgr(puzzle, out)?;
        let shape = puzzle.shape();
        Ok(format!(
            "hgr: {} hyperedges, {} vertices",
            shape.unit_count(),
            shape.cells()
        ))
    },
    exclude: None,
    estimate: |puzzle, _| {
        let shape = puzzle.shape();
        let (n, cells) = (shape.order() as u128, shape.cells() as u128);
        u64::try_from(
            shape.unit_count() as u128 * n * (3 + digits(cells)) + given_lines_bound(puzzle) + 32,
        )
        .unwrap_or(u64::MAX)
    },
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Shape;

    #[test]
    fn latin_squares_have_two_n_hyperedges() {
        let puzzle = Grid::empty(Shape::latin(5).unwrap());
        let mut out = Vec::new();
        write_hgr(&puzzle, &mut out).unwrap();
        let h = read_hgr(&out[..]).unwrap();
        assert_eq!(h.edges.len(), 10);
        assert!(h.edges.iter().all(|e| e.len() == 5));
    }

    #[test]
    fn reading_errors_have_places() {
        let cases = [
            ("", "line 1, column 1: no header 'E V' (empty file?)"),
            ("1 2\n1 3\n", "line 2, column 3: vertex 3 is outside 1..=2"),
            (
                "2 2\n1 2\n",
                "line 2, column 1: the header announces 2 hyperedges, the file has 1",
            ),
            (
                "1 2 1\n",
                "line 1, column 1: expected the header 'E V' (unweighted)",
            ),
            ("1 2\n1 b\n", "line 2, column 3: 'b' is not a number"),
        ];
        for (text, message) in cases {
            assert_eq!(read_hgr(text.as_bytes()).unwrap_err().to_string(), message);
        }
    }
}
