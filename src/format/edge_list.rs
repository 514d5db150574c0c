//! Plain edge lists (`.edges`) of the precoloured Sudoku graph ([`crate::encode::graph`]), the
//! form `networkx.read_edgelist(FILE, nodetype=int)` and igraph's `Graph.Read_Edgelist` take.
//!
//! `#` comments (the puzzle, the vertex numbering, the commands that colour and decode, and one
//! `# given VERTEX VALUE` line per given), then one `U V` line per edge, `U < V`, 1-based: vertex
//! `(r-1)·n + c` is cell (r,c), as in the `.col` export. Like `col`, the export also writes a
//! `.given` file with one `VERTEX VALUE` line per given. A colouring tool answers with a
//! vertex → colour list ([`crate::format::colouring_answer`]).
//!
//! # Complexity
//! Streams the O(n³) edges with O(n) memory.
//!
//! # References
//! - networkx, `read_edgelist`; igraph, `Graph.Read_Edgelist` (0-based there: igraph users
//!   subtract 1).
//!
//! # Examples
//! ```
//! use sudokit::format::edge_list::write_edge_list;
//! use sudokit::text::parse_line;
//! let mut out = Vec::new();
//! write_edge_list(&parse_line("1...............", None).unwrap(), &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.contains("\n# given 1 1\n1 2\n1 3\n"));
//! assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), 56);
//! ```

use std::io::{self, Write};

use crate::encode::graph::{edge_count, edges};
use crate::format::col::{GIVEN_COMPANION, graph_stats};
use crate::format::entry::{ExportFormat, digits, given_lines_bound, header_lines};
use crate::grid::Grid;

/// Writes the edge list of `puzzle`.
///
/// # Errors
/// I/O errors of `out`.
pub fn write_edge_list(puzzle: &Grid, out: impl Write) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    let shape = puzzle.shape();
    let n = shape.order();
    let header = header_lines(
        puzzle,
        "Sudoku graph (edge list)",
        &format!(
            "vertex (r-1)*{n} + c is cell (r,c); colour = value; '# given VERTEX VALUE' precolours"
        ),
        "any precolouring-extension colourer that prints 'VERTEX COLOUR' lines",
        "col",
    );
    for line in header {
        writeln!(out, "# {line}")?;
    }
    for (cell, v) in puzzle.givens() {
        writeln!(out, "# given {} {}", cell + 1, v + 1)?;
    }
    for (u, w) in edges(shape) {
        writeln!(out, "{} {}", u + 1, w + 1)?;
    }
    out.flush()
}

/// The `edges` entry of the format registry.
pub const FORMAT: ExportFormat = ExportFormat {
    name: "edges",
    aliases: &["edgelist", "edge-list"],
    extension: "edges",
    comment: "#",
    comment_end: "",
    first_line_fixed: false,
    summary: "plain edge list of the Sudoku graph, '# given' comments (and a .given file) precolour",
    takes_cnf_options: false,
    takes_smt_encoding: false,
    answers: &["col"],
    companion: Some(GIVEN_COMPANION),
    write: |puzzle, _, out| {
        write_edge_list(puzzle, out)?;
        Ok(graph_stats("edges", puzzle))
    },
    exclude: None,
    estimate: |puzzle, _| {
        let shape = puzzle.shape();
        let cells = shape.cells() as u128;
        u64::try_from(
            edge_count(shape) as u128 * (2 + 2 * digits(cells)) + given_lines_bound(puzzle) + 1024,
        )
        .unwrap_or(u64::MAX)
    },
};
