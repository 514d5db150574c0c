//! DIMACS graph colouring files (`.col`) of the precoloured Sudoku graph
//! ([`crate::encode::graph`]), the `.given` precolouring file, and a reader of both.
//!
//! `.col`: `c` comments (the shape, the vertex numbering `(r−1)·n + c`, the colour = value),
//! one `c given VERTEX VALUE` line per given, `p edge V E`, then `e u v` with `u < v`, 1-based.
//! `.given`: one `VERTEX VALUE` line per given, 1-based; the same pairs as the `c given` lines,
//! for tools that take the precolouring as a separate file.
//!
//! # Complexity
//! Writing streams the O(n³) edges with O(n) memory; reading is linear.
//!
//! # References
//! - DIMACS Challenge graph format (`p edge`, `e` lines), 1993.
//!
//! # Examples
//! ```
//! use sudokit::format::col::{read_col, write_col};
//! use sudokit::text::parse_line;
//! let puzzle = parse_line("1...............", None).unwrap();
//! let mut out = Vec::new();
//! write_col(&puzzle, &mut out).unwrap();
//! let graph = read_col(&out[..]).unwrap();
//! assert_eq!((graph.vertices, graph.edges.len()), (16, 56));
//! assert_eq!(graph.givens, vec![(1, 1)]);
//! ```

use std::io::{self, BufRead, Write};

use thiserror::Error;

use crate::text::lines::{LineErrorKind, LineReader};
use crate::text::located::{Located, token_column};

use crate::encode::graph::{edge_count, edges};
use crate::format::entry::{Companion, ExportFormat, digits, given_lines_bound};
use crate::grid::Grid;

/// Writes the `.col` file of `puzzle`.
///
/// # Errors
/// I/O errors of `out`.
pub fn write_col(puzzle: &Grid, out: impl Write) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    let shape = puzzle.shape();
    let n = shape.order();
    writeln!(
        out,
        "c sudokit Sudoku graph: {shape}, {} givens; {n} colours",
        puzzle.filled()
    )?;
    writeln!(
        out,
        "c vertex (r-1)*{n} + c is cell (r,c); its colour is the value; 'c given VERTEX VALUE' precolours"
    )?;
    writeln!(
        out,
        "c solve: any precolouring-extension colourer that prints 'VERTEX COLOUR' lines"
    )?;
    writeln!(
        out,
        "c decode: sudokit decode PUZZLE --from col ANSWER (PUZZLE: the puzzle file)"
    )?;
    for (cell, v) in puzzle.givens() {
        writeln!(out, "c given {} {}", cell + 1, v + 1)?;
    }
    writeln!(out, "p edge {} {}", shape.cells(), edge_count(shape))?;
    for (u, w) in edges(shape) {
        writeln!(out, "e {} {}", u + 1, w + 1)?;
    }
    out.flush()
}

/// The `.given` file beside a graph export (`col`, `edges`): one `VERTEX VALUE` line per given.
pub(crate) const GIVEN_COMPANION: Companion = Companion {
    extension: "given",
    summary: "one 'VERTEX VALUE' line per given",
    write: |puzzle, out| write_given(puzzle, out),
};

/// The `--stats` line of a graph export called `form`.
pub(crate) fn graph_stats(form: &str, puzzle: &Grid) -> String {
    let shape = puzzle.shape();
    format!(
        "{form}: {} vertices, {} edges, {} precoloured",
        shape.cells(),
        edge_count(shape),
        puzzle.filled()
    )
}

/// Writes the `.given` file: one `VERTEX VALUE` line per given.
///
/// # Errors
/// I/O errors of `out`.
pub fn write_given(puzzle: &Grid, out: impl Write) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    for (cell, v) in puzzle.givens() {
        writeln!(out, "{} {}", cell + 1, v + 1)?;
    }
    out.flush()
}

/// A graph as read: 1-based vertices, edges and precolouring.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ColGraph {
    /// Number of vertices.
    pub vertices: usize,
    /// Edges `(u, v)`, 1-based, as written.
    pub edges: Vec<(usize, usize)>,
    /// `(vertex, colour)`, 1-based, from `c given` lines.
    pub givens: Vec<(usize, usize)>,
}

/// A problem of the file with its place (1-based line and character column).
pub type ColError = Located<ColErrorKind>;

/// What is wrong in a `.col` file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ColErrorKind {
    /// No `p edge V E` line before the edges.
    #[error("no 'p edge V E' line before this one")]
    MissingHeader,
    /// A malformed line.
    #[error("expected {0}")]
    Malformed(&'static str),
    /// A vertex outside 1..=V.
    #[error("vertex {0} is outside 1..=V")]
    VertexOutOfRange(usize),
    /// Edge count differs from the header.
    #[error("the header announces {expected} edges, the file has {found}")]
    EdgeCount {
        /// From the header.
        expected: usize,
        /// Read.
        found: usize,
    },
    /// The line could not be read.
    #[error(transparent)]
    Line(#[from] LineErrorKind),
}

/// Reads a `.col` file with its `c given` lines.
///
/// # Errors
/// [`ColError`] with the place of the first problem.
pub fn read_col(input: impl BufRead) -> Result<ColGraph, ColError> {
    let mut graph = ColGraph::default();
    let mut header: Option<usize> = None;
    let mut last = 1;
    let mut lines = LineReader::new(input);
    while let Some(next) = lines.next_line() {
        let (line_no, line) = next.map_err(|e| e.map(ColErrorKind::from))?;
        last = line_no;
        let fields: Vec<&str> = line.split_ascii_whitespace().collect();
        let err = |column: usize, kind| ColError::new(line_no, column, kind);
        let numbers = |from: usize, what: &'static str| -> Result<Vec<usize>, ColError> {
            fields[from..]
                .iter()
                .map(|t| {
                    t.parse::<usize>()
                        .map_err(|_| err(token_column(line, t), ColErrorKind::Malformed(what)))
                })
                .collect()
        };
        match fields.first() {
            None => {}
            Some(&"c") if fields.get(1) == Some(&"given") => {
                let pair = numbers(2, "c given VERTEX VALUE")?;
                if pair.len() != 2 {
                    return Err(err(1, ColErrorKind::Malformed("c given VERTEX VALUE")));
                }
                graph.givens.push((pair[0], pair[1]));
            }
            Some(&"c") => {}
            Some(&"p") => {
                if fields.len() != 4 || fields[1] != "edge" {
                    return Err(err(1, ColErrorKind::Malformed("p edge V E")));
                }
                let ve = numbers(2, "p edge V E")?;
                graph.vertices = ve[0];
                header = Some(ve[1]);
            }
            Some(&"e") => {
                if header.is_none() {
                    return Err(err(1, ColErrorKind::MissingHeader));
                }
                let uv = numbers(1, "e U V")?;
                if uv.len() != 2 {
                    return Err(err(1, ColErrorKind::Malformed("e U V")));
                }
                for (k, &x) in uv.iter().enumerate() {
                    if x == 0 || x > graph.vertices {
                        let t = fields[1 + k];
                        return Err(err(
                            token_column(line, t),
                            ColErrorKind::VertexOutOfRange(x),
                        ));
                    }
                }
                graph.edges.push((uv[0], uv[1]));
            }
            Some(_) => return Err(err(1, ColErrorKind::Malformed("a c, p or e line"))),
        }
    }
    match header {
        None => Err(ColError::new(last, 1, ColErrorKind::MissingHeader)),
        Some(expected) if expected != graph.edges.len() => Err(ColError::new(
            last,
            1,
            ColErrorKind::EdgeCount {
                expected,
                found: graph.edges.len(),
            },
        )),
        Some(_) => Ok(graph),
    }
}

/// The `col` entry of the format registry.
pub const FORMAT: ExportFormat = ExportFormat {
    name: "col",
    aliases: &["colouring", "coloring"],
    extension: "col",
    comment: "c",
    comment_end: "",
    first_line_fixed: false,
    summary: "DIMACS graph colouring with the precolouring as 'c given' lines (and a .given file)",
    takes_cnf_options: false,
    takes_smt_encoding: false,
    answers: &["col"],
    companion: Some(GIVEN_COMPANION),
    write: |puzzle, _, out| {
        write_col(puzzle, out)?;
        Ok(graph_stats("col", puzzle))
    },
    exclude: None,
    estimate: |puzzle, _| {
        let shape = puzzle.shape();
        let edges = edge_count(shape) as u128;
        let cells = shape.cells() as u128;
        u64::try_from(edges * (4 + 2 * digits(cells)) + given_lines_bound(puzzle) + 32)
            .unwrap_or(u64::MAX)
    },
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Shape;

    #[test]
    fn the_given_file_matches_the_comments() {
        let mut puzzle = Grid::empty(Shape::sudoku(2, 3).unwrap());
        puzzle.set(7, Some(4));
        puzzle.set(35, Some(0));
        let mut given = Vec::new();
        write_given(&puzzle, &mut given).unwrap();
        assert_eq!(String::from_utf8(given).unwrap(), "8 5\n36 1\n");
        let mut col = Vec::new();
        write_col(&puzzle, &mut col).unwrap();
        let graph = read_col(&col[..]).unwrap();
        assert_eq!(graph.givens, vec![(8, 5), (36, 1)]);
        assert_eq!(graph.edges.len(), 216);
    }

    #[test]
    fn reading_errors_have_places() {
        let cases = [
            (
                "e 1 2\n",
                "line 1, column 1: no 'p edge V E' line before this one",
            ),
            (
                "p edge 2 1\ne 1 3\n",
                "line 2, column 5: vertex 3 is outside 1..=V",
            ),
            ("p edge 2 1\ne 1 x\n", "line 2, column 5: expected e U V"),
            (
                "p edge 2 2\ne 1 2\n",
                "line 2, column 1: the header announces 2 edges, the file has 1",
            ),
            ("", "line 1, column 1: no 'p edge V E' line before this one"),
        ];
        for (text, message) in cases {
            assert_eq!(read_col(text.as_bytes()).unwrap_err().to_string(), message);
        }
    }
}
