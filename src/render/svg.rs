//! Drawing a puzzle (and optionally its solution) as a self-contained SVG picture.
//!
//! Every cell is one `<rect class="cell">` (highlighted cells also carry the class `mark`), givens
//! are drawn bold in black, solution values in blue; box borders are thicker than cell borders,
//! and a Latin square has no box borders. Values are written 1-based in decimal, so any order
//! works; the font shrinks with the number of digits.
//!
//! # Complexity
//! O(n²) time and output size.
//!
//! # Examples
//! ```
//! use sudokit::render::svg::{SvgOptions, render};
//! use sudokit::text::parse_line;
//! let puzzle = parse_line("1.3.....4....2..", None).unwrap();
//! let svg = render(&puzzle, None, &SvgOptions::default());
//! assert_eq!(svg.matches("class=\"cell").count(), 16);
//! ```

use std::fmt::Write as _;

use crate::grid::Grid;

/// How to draw.
#[derive(Debug, Clone)]
pub struct SvgOptions {
    /// Side of one cell in pixels (user units).
    pub cell: f64,
    /// Cells to highlight (row-major indices), e.g. the cells that carry a Latin square.
    pub highlight: Vec<usize>,
    /// An optional caption drawn under the grid.
    pub caption: Option<String>,
}

impl Default for SvgOptions {
    fn default() -> Self {
        SvgOptions {
            cell: 36.0,
            highlight: Vec::new(),
            caption: None,
        }
    }
}

/// Escapes text for XML content and attributes.
pub fn escape_xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            _ => out.push(ch),
        }
    }
    out
}

/// The SVG document of `puzzle`, with the values of `solution` (if any) in the empty cells.
///
/// A `solution` of another shape is ignored; callers verify solutions before drawing them.
pub fn render(puzzle: &Grid, solution: Option<&Grid>, options: &SvgOptions) -> String {
    let shape = puzzle.shape();
    let n = shape.order();
    let solution = solution.filter(|s| s.shape() == shape);
    let cell = options.cell;
    let margin = 4.0;
    let side = cell * n as f64;
    let caption_height = if options.caption.is_some() { cell } else { 0.0 };
    let (width, height) = (side + 2.0 * margin, side + 2.0 * margin + caption_height);
    let digits = n.to_string().len() as f64;
    let font = (cell * 0.6 / digits.max(1.0).sqrt()).max(4.0);
    let mut highlighted = vec![false; shape.cells()];
    for &c in options.highlight.iter().filter(|&&c| c < shape.cells()) {
        highlighted[c] = true;
    }
    let mut out = String::with_capacity(shape.cells() * 160);
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img">"#
    );
    let _ = write!(
        out,
        "<title>{}</title><style>.cell{{fill:#fff;stroke:#999;stroke-width:1}}.mark{{fill:#ffe9a8}}\
         .given{{font-weight:bold;fill:#000}}.found{{fill:#1f4fb4}}\
         text{{font-family:sans-serif;text-anchor:middle;dominant-baseline:central}}</style>",
        escape_xml(&shape.to_string())
    );
    for r in 0..n {
        for c in 0..n {
            let index = shape.cell(r, c);
            let (x, y) = (margin + c as f64 * cell, margin + r as f64 * cell);
            let class = if highlighted[index] {
                "cell mark"
            } else {
                "cell"
            };
            let _ = write!(
                out,
                r#"<rect class="{class}" x="{x}" y="{y}" width="{cell}" height="{cell}"/>"#
            );
            let (value, class) = match (puzzle.get(index), solution.and_then(|s| s.get(index))) {
                (Some(v), _) => (Some(v), "given"),
                (None, Some(v)) => (Some(v), "found"),
                (None, None) => (None, ""),
            };
            if let Some(v) = value {
                let _ = write!(
                    out,
                    r#"<text class="{class}" x="{}" y="{}" font-size="{font:.1}">{}</text>"#,
                    x + cell / 2.0,
                    y + cell / 2.0,
                    v + 1
                );
            }
        }
    }
    // Box borders (none for a Latin square), then the outer frame.
    if !shape.is_latin() {
        let (p, q) = (shape.box_rows(), shape.box_cols());
        for k in (p..n).step_by(p) {
            let y = margin + k as f64 * cell;
            let _ = write!(
                out,
                r##"<line x1="{margin}" y1="{y}" x2="{}" y2="{y}" stroke="#000" stroke-width="2.5"/>"##,
                margin + side
            );
        }
        for k in (q..n).step_by(q) {
            let x = margin + k as f64 * cell;
            let _ = write!(
                out,
                r##"<line x1="{x}" y1="{margin}" x2="{x}" y2="{}" stroke="#000" stroke-width="2.5"/>"##,
                margin + side
            );
        }
    }
    let _ = write!(
        out,
        r##"<rect x="{margin}" y="{margin}" width="{side}" height="{side}" fill="none" stroke="#000" stroke-width="3"/>"##
    );
    if let Some(caption) = &options.caption {
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" font-size="{:.1}">{}</text>"#,
            width / 2.0,
            margin + side + caption_height / 2.0,
            cell * 0.4,
            escape_xml(caption)
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Shape;

    #[test]
    fn givens_bold_solution_blue_and_boxes_outlined() {
        let shape = Shape::sudoku(2, 3).unwrap();
        let mut puzzle = Grid::empty(shape);
        puzzle.set(0, Some(5));
        let mut solution = puzzle.clone();
        solution.set(1, Some(0));
        let svg = render(
            &puzzle,
            Some(&solution),
            &SvgOptions {
                highlight: vec![0],
                caption: Some("a <caption> & more".into()),
                ..SvgOptions::default()
            },
        );
        assert_eq!(svg.matches("<rect class=\"cell").count(), 36);
        assert_eq!(svg.matches("class=\"cell mark\"").count(), 1);
        assert!(svg.contains(r#"<text class="given""#) && svg.contains(">6</text>"));
        assert!(svg.contains(r#"<text class="found""#));
        // 6×6 with 2×3 boxes: 2 horizontal box lines, 1 vertical.
        assert_eq!(svg.matches("stroke-width=\"2.5\"").count(), 3);
        assert!(svg.contains("a &lt;caption&gt; &amp; more"));
        let latin = render(
            &Grid::empty(Shape::latin(5).unwrap()),
            None,
            &SvgOptions::default(),
        );
        assert_eq!(latin.matches("stroke-width=\"2.5\"").count(), 0);
    }
}
