//! GraphML files of the precoloured Sudoku graph ([`crate::encode::graph`]), for networkx,
//! igraph, Gephi and yEd.
//!
//! An XML declaration, then `<graphml>` with a `<desc>` (the puzzle, the graph, the commands
//! that colour and decode), three node attributes declared as `<key>`s (`row`, `col`: 1-based;
//! `given`: the value of a given cell, the precolouring) and an undirected `<graph>`: node `nK`
//! is cell `K = (r-1)·n + c` (the vertex numbering of the `.col` export), one `<edge>` per pair of
//! peers. A colouring tool answers with a vertex → colour list ([`crate::format::colouring_answer`]).
//!
//! # Complexity
//! Streams the O(n³) edges with O(n) memory.
//!
//! # References
//! - U. Brandes, M. Eiglsperger, J. Lerner, C. Pich, "Graph markup language (GraphML)", in
//!   R. Tamassia (ed.), Handbook of Graph Drawing and Visualization, 2013.
//!
//! # Examples
//! ```
//! use sudokit::format::graphml::write_graphml;
//! use sudokit::text::parse_line;
//! let mut out = Vec::new();
//! write_graphml(&parse_line("1...............", None).unwrap(), &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"));
//! assert!(text.contains("<node id=\"n1\"><data key=\"row\">1</data><data key=\"col\">1</data><data key=\"given\">1</data></node>"));
//! assert_eq!(text.matches("<edge ").count(), 56);
//! ```

use std::io::{self, Write};

use crate::encode::graph::{edge_count, edges};
use crate::format::col::graph_stats;
use crate::format::entry::{ExportFormat, digits, header_lines};
use crate::grid::Grid;

/// `text` with the five XML special characters escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

/// Writes the GraphML file of `puzzle`.
///
/// # Errors
/// I/O errors of `out`.
pub fn write_graphml(puzzle: &Grid, out: impl Write) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    let shape = puzzle.shape();
    let n = shape.order();
    writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")?;
    writeln!(
        out,
        "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" \
         xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
         xsi:schemaLocation=\"http://graphml.graphdrawing.org/xmlns \
         http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd\">"
    )?;
    let header = header_lines(
        puzzle,
        "Sudoku graph",
        &format!(
            "node nK is cell K = (r-1)*{n} + c; an edge joins two cells of one unit; colour = value; \
             the given attribute precolours"
        ),
        "any precolouring-extension colourer that prints 'VERTEX COLOUR' lines",
        "col",
    );
    writeln!(out, "  <desc>{}</desc>", escape(&header.join("\n")))?;
    for key in ["row", "col", "given"] {
        writeln!(
            out,
            "  <key id=\"{key}\" for=\"node\" attr.name=\"{key}\" attr.type=\"int\"/>"
        )?;
    }
    writeln!(out, "  <graph id=\"sudoku\" edgedefault=\"undirected\">")?;
    for cell in 0..shape.cells() {
        write!(
            out,
            "    <node id=\"n{}\"><data key=\"row\">{}</data><data key=\"col\">{}</data>",
            cell + 1,
            cell / n + 1,
            cell % n + 1
        )?;
        if let Some(v) = puzzle.get(cell) {
            write!(out, "<data key=\"given\">{}</data>", v + 1)?;
        }
        writeln!(out, "</node>")?;
    }
    for (u, w) in edges(shape) {
        writeln!(
            out,
            "    <edge source=\"n{}\" target=\"n{}\"/>",
            u + 1,
            w + 1
        )?;
    }
    writeln!(out, "  </graph>")?;
    writeln!(out, "</graphml>")?;
    out.flush()
}

/// The `graphml` entry of the format registry.
pub const FORMAT: ExportFormat = ExportFormat {
    name: "graphml",
    aliases: &[],
    extension: "graphml",
    comment: "<!--",
    comment_end: " -->",
    first_line_fixed: true,
    summary: "GraphML of the Sudoku graph, precoloured vertices as a 'given' attribute (networkx, igraph, Gephi)",
    takes_cnf_options: false,
    takes_smt_encoding: false,
    answers: &["col"],
    companion: None,
    write: |puzzle, _, out| {
        write_graphml(puzzle, out)?;
        Ok(graph_stats("graphml", puzzle))
    },
    exclude: None,
    estimate: |puzzle, _| {
        let shape = puzzle.shape();
        let cells = shape.cells() as u128;
        let name = digits(cells);
        u64::try_from(edge_count(shape) as u128 * (36 + 2 * name) + cells * (90 + 3 * name) + 1024)
            .unwrap_or(u64::MAX)
    },
};
