//! The HTML page of a reduction chain that a teacher can project: self-contained (inline SVG and
//! CSS, no script, no network), one section per step.
//!
//! A [`ChainReport`] lists the levels of a chain — for Latin square completion → Sudoku: the
//! partial Latin square, the Sudoku it becomes (the cells that carry the square highlighted), and
//! the solution mapped back — each with its drawing, its size, the time it took and the verdict of
//! the certificate verifier at that level.
//!
//! # Complexity
//! Linear in the size of the drawings (O(n²) per grid).
//!
//! # Examples
//! ```
//! use sudokit::render::report::{ChainReport, ReportLevel};
//! use sudokit::{Grid, Shape};
//! let grid = Grid::empty(Shape::sudoku(2, 2).unwrap());
//! let mut report = ChainReport::new("A 4×4 grid");
//! report.levels.push(ReportLevel::new("Sudoku", &grid));
//! let html = report.to_html();
//! assert!(html.starts_with("<!DOCTYPE html>") && html.contains("<svg"));
//! ```

use std::fmt::Write as _;

use crate::grid::Grid;
use crate::render::svg::{SvgOptions, escape_xml, render};

/// One level of a chain: an instance, maybe its solution, and facts about it.
#[derive(Debug, Clone)]
pub struct ReportLevel {
    /// What the level is ("Partial Latin square", "Sudoku", ...).
    pub title: String,
    /// The instance.
    pub instance: Grid,
    /// Its solution at this level, if the chain found one.
    pub solution: Option<Grid>,
    /// Cells to highlight in the drawing.
    pub highlight: Vec<usize>,
    /// Rows of the size/facts table: (name, value).
    pub facts: Vec<(String, String)>,
}

impl ReportLevel {
    /// A level with no solution, highlight or facts yet.
    pub fn new(title: &str, instance: &Grid) -> ReportLevel {
        ReportLevel {
            title: title.to_string(),
            instance: instance.clone(),
            solution: None,
            highlight: Vec::new(),
            facts: Vec::new(),
        }
    }

    /// Adds a row to the facts table.
    pub fn fact(mut self, name: &str, value: impl ToString) -> ReportLevel {
        self.facts.push((name.to_string(), value.to_string()));
        self
    }
}

/// A whole chain, drawn as one HTML page.
#[derive(Debug, Clone)]
pub struct ChainReport {
    /// The page title.
    pub title: String,
    /// Text paragraphs under the title (plain text, escaped when written).
    pub notes: Vec<String>,
    /// The levels, in chain order.
    pub levels: Vec<ReportLevel>,
    /// The summary table: (step, value) rows, e.g. instance sizes and times.
    pub summary: Vec<(String, String)>,
    /// Further tables (e.g. the instance sizes at every level), each drawn before the level of
    /// index [`ReportTable::before_level`] (after the last level if there is none).
    pub tables: Vec<ReportTable>,
}

/// A table with a title, a header row and text cells (escaped when written).
#[derive(Debug, Clone, Default)]
pub struct ReportTable {
    /// The heading above the table.
    pub title: String,
    /// The header cells.
    pub header: Vec<String>,
    /// The rows.
    pub rows: Vec<Vec<String>>,
    /// Where the table goes: before `levels[before_level]` (set it to `levels.len()` before
    /// pushing the levels a table describes).
    pub before_level: usize,
}

impl ChainReport {
    /// An empty report.
    pub fn new(title: &str) -> ChainReport {
        ChainReport {
            title: title.to_string(),
            notes: Vec::new(),
            levels: Vec::new(),
            summary: Vec::new(),
            tables: Vec::new(),
        }
    }

    /// The self-contained HTML page.
    pub fn to_html(&self) -> String {
        let mut out = String::new();
        let _ = write!(
            out,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\
             <style>body{{font-family:sans-serif;margin:2em;max-width:1200px}}\
             section{{display:inline-block;vertical-align:top;margin:0 2em 2em 0}}\
             table{{border-collapse:collapse}}td,th{{border:1px solid #bbb;padding:.2em .6em;text-align:left}}\
             .sizes td{{text-align:right}}.sizes td:first-child,.sizes td:last-child{{text-align:left}}.ok{{color:#176117}}.bad{{color:#a01010}}</style></head><body>\n<h1>{}</h1>\n",
            escape_xml(&self.title),
            escape_xml(&self.title)
        );
        for note in &self.notes {
            let _ = writeln!(out, "<p>{}</p>", escape_xml(note));
        }
        if !self.summary.is_empty() {
            out.push_str("<h2>The chain</h2>\n<table class=\"summary\">");
            for (name, value) in &self.summary {
                let _ = write!(
                    out,
                    "<tr><th>{}</th><td>{}</td></tr>",
                    escape_xml(name),
                    escape_xml(value)
                );
            }
            out.push_str("</table>\n");
        }
        let levels = self.levels.len();
        for (i, level) in self.levels.iter().enumerate() {
            for table in self
                .tables
                .iter()
                .filter(|t| t.before_level.min(levels) == i)
            {
                write_table(&mut out, table);
            }
            write_level(&mut out, level);
        }
        for table in self.tables.iter().filter(|t| t.before_level >= levels) {
            write_table(&mut out, table);
        }
        out.push_str("</body></html>\n");
        out
    }
}

fn write_table(out: &mut String, table: &ReportTable) {
    let _ = write!(
        out,
        "<h2>{}</h2>\n<table class=\"sizes\"><tr>",
        escape_xml(&table.title)
    );
    for cell in &table.header {
        let _ = write!(out, "<th>{}</th>", escape_xml(cell));
    }
    out.push_str("</tr>");
    for row in &table.rows {
        out.push_str("<tr>");
        for cell in row {
            let _ = write!(out, "<td>{}</td>", escape_xml(cell));
        }
        out.push_str("</tr>");
    }
    out.push_str("</table>\n");
}

fn write_level(out: &mut String, level: &ReportLevel) {
    let n = level.instance.shape().order();
    // Keep big grids on screen: about 540 px whatever the order.
    let cell = (540.0 / n as f64).clamp(6.0, 48.0);
    let svg = render(
        &level.instance,
        level.solution.as_ref(),
        &SvgOptions {
            cell,
            highlight: level.highlight.clone(),
            ..SvgOptions::default()
        },
    );
    let _ = write!(
        out,
        "<section><h2>{}</h2>\n{svg}<table>",
        escape_xml(&level.title)
    );
    for (name, value) in &level.facts {
        let class = if value.starts_with("valid") {
            " class=\"ok\""
        } else if value.starts_with("invalid") {
            " class=\"bad\""
        } else {
            ""
        };
        let _ = write!(
            out,
            "<tr><th>{}</th><td{class}>{}</td></tr>",
            escape_xml(name),
            escape_xml(value)
        );
    }
    out.push_str("</table></section>\n");
}
