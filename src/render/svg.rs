//! Drawing a puzzle (and optionally its solution) as a self-contained SVG picture.
//!
//! Every cell is one `<rect class="cell">` (highlighted cells also carry the class `mark`), givens
//! are drawn bold in black, solution values in blue; box borders are thicker than cell borders,
//! and a Latin square has no box borders. Values are written as a puzzle line writes them: `1`–`9`,
//! then `A` = 10 up to `Z` = 35 (so a 16×16 grid reads 1–9, A–G, and a 25×25 one 1–9, A–P), and in
//! decimal above order 35.
//!
//! A **fluid** picture ([`SvgOptions::fluid`]) has no width or height of its own, only its
//! `viewBox`: the page's stylesheet sizes it (the lecture mode of the course and explain pages
//! makes it as tall as the screen), and everything in it — digits, coordinates — scales with it.
//!
//! Options add what a reader needs to use the picture on its own: a title (the SVG `<title>`),
//! row and column numbers along the edges, a legend under the grid (bold = given, blue = found,
//! and what each coloured group of cells means), hover texts on chosen cells (a `<title>` inside
//! the cell), and for large orders a **heat map**: each cell coloured by its value (the hue runs
//! through the values, givens darker than found values) instead of a digit too small to read;
//! the picture keeps its `viewBox`, so it scales to any size without losing detail.
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
//! let framed = render(&puzzle, None, &SvgOptions { coordinates: true, legend: true, ..SvgOptions::default() });
//! assert!(framed.contains(">bold: given</text>"));
//! ```

use std::fmt::Write as _;

use crate::grid::Grid;
pub use crate::propagate::explain::symbol;

/// A group of cells drawn with their own fill, and what they mean (for the legend).
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    /// Row-major cell indices.
    pub cells: Vec<usize>,
    /// A CSS colour.
    pub fill: String,
    /// What the group means, for the legend.
    pub meaning: String,
}

/// How to draw.
#[derive(Debug, Clone)]
pub struct SvgOptions {
    /// Side of one cell in pixels (user units).
    pub cell: f64,
    /// Cells to highlight (row-major indices), e.g. the cells that carry a Latin square.
    pub highlight: Vec<usize>,
    /// What the highlighted cells are, for the legend.
    pub highlight_meaning: String,
    /// Further groups of cells with their own fill (drawn under the highlight).
    pub marks: Vec<Mark>,
    /// An optional caption drawn under the grid.
    pub caption: Option<String>,
    /// The picture's title (its SVG `<title>`); the shape when absent.
    pub title: Option<String>,
    /// Row and column numbers, 1-based, along the top and left edges.
    pub coordinates: bool,
    /// A legend under the grid: given, found, the highlight and the marks.
    pub legend: bool,
    /// Hover texts: `(cell, text)`, drawn as a `<title>` inside the cell's rectangle.
    pub cell_titles: Vec<(usize, String)>,
    /// Colour each cell by its value instead of writing the digit (for large orders).
    pub heat_map: bool,
    /// No width or height attributes: the page sizes the picture (see the module docs).
    pub fluid: bool,
    /// Draw only the first rows (a band of the grid, cut under its last row); `None`: all.
    pub rows: Option<usize>,
}

impl Default for SvgOptions {
    fn default() -> Self {
        SvgOptions {
            cell: 36.0,
            highlight: Vec::new(),
            highlight_meaning: "highlighted".into(),
            marks: Vec::new(),
            caption: None,
            title: None,
            coordinates: false,
            legend: false,
            cell_titles: Vec::new(),
            heat_map: false,
            fluid: false,
            rows: None,
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

/// The fill of value `v` (0-based) of `n` in a heat map: the hue runs through the values; givens
/// pale, found values vivid (so that what a solver filled stands out).
pub fn heat_colour(v: usize, n: usize, given: bool) -> String {
    let hue = (v as f64 * 360.0 / n.max(1) as f64).round();
    if given {
        format!("hsl({hue},35%,84%)")
    } else {
        format!("hsl({hue},85%,45%)")
    }
}

const HIGHLIGHT_FILL: &str = "#ffe9a8";

/// The SVG document of `puzzle`, with the values of `solution` (if any) in the empty cells.
///
/// A `solution` of another shape is ignored; callers verify solutions before drawing them.
pub fn render(puzzle: &Grid, solution: Option<&Grid>, options: &SvgOptions) -> String {
    let shape = puzzle.shape();
    let n = shape.order();
    let solution = solution.filter(|s| s.shape() == shape);
    let cell = options.cell;
    let margin = 4.0;
    let (fluid_label, coordinate_font) = fluid_coordinates(n, cell);
    let label = match (options.coordinates, options.fluid) {
        (false, _) => 0.0,
        (true, true) => fluid_label,
        (true, false) => (cell * 0.6).max(12.0),
    };
    let side = cell * n as f64;
    let shown = options.rows.map_or(n, |k| k.min(n));
    let tall = cell * shown as f64;
    let (x0, y0) = (margin + label, margin + label);
    let caption_height = if options.caption.is_some() {
        cell.max(16.0)
    } else {
        0.0
    };
    let legend = legend_entries(options, solution.is_some());
    let legend_font = 13.0;
    let legend_height = legend.len() as f64 * legend_font * 1.5;
    let legend_width = legend
        .iter()
        .map(|(_, text)| 24.0 + text.chars().count() as f64 * legend_font * 0.58)
        .fold(0.0, f64::max);
    let width = (x0 + side + margin).max(legend_width + 2.0 * margin);
    let height = y0 + tall + margin + caption_height + legend_height;
    let digits = symbol(n, n - 1).len() as f64;
    // A value of k characters at 0.6 / k^0.3 of the cell: two-digit numbers (orders 36 to 99)
    // still fill about half of it.
    let font = (cell * 0.6 * digits.max(1.0).powf(-0.3)).max(4.0);
    let mut fill: Vec<Option<&str>> = vec![None; shape.cells()];
    for mark in &options.marks {
        for &c in mark.cells.iter().filter(|&&c| c < shape.cells()) {
            fill[c] = Some(&mark.fill);
        }
    }
    let mut highlighted = vec![false; shape.cells()];
    for &c in options.highlight.iter().filter(|&&c| c < shape.cells()) {
        highlighted[c] = true;
    }
    let mut titles: Vec<Option<&str>> = vec![None; shape.cells()];
    for (c, text) in options
        .cell_titles
        .iter()
        .filter(|(c, _)| *c < shape.cells())
    {
        titles[*c] = Some(text);
    }
    let mut out = String::with_capacity(shape.cells() * 160);
    let size = if options.fluid {
        String::new()
    } else {
        format!(r#" width="{width}" height="{height}""#)
    };
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg"{size} viewBox="0 0 {width} {height}" role="img" class="grid-picture">"#
    );
    let title = options.title.clone().unwrap_or_else(|| shape.to_string());
    let _ = write!(
        out,
        "<title>{}</title><style>.cell{{fill:#fff;stroke:#999;stroke-width:1}}.mark{{fill:{HIGHLIGHT_FILL}}}\
         .given{{font-weight:bold;fill:#000}}.found{{fill:#1f4fb4}}.coord{{fill:#666}}\
         text{{font-family:sans-serif;text-anchor:middle;dominant-baseline:central}}\
         .legend{{text-anchor:start}}</style>",
        escape_xml(&title)
    );
    if options.coordinates {
        let size = if options.fluid {
            coordinate_font
        } else {
            (label * 0.7).min(font.max(9.0))
        };
        for i in 0..n {
            let mid = (i as f64 + 0.5) * cell;
            let _ = write!(
                out,
                r#"<text class="coord" x="{:.1}" y="{:.1}" font-size="{size:.1}">{}</text>"#,
                x0 + mid,
                margin + label / 2.0,
                i + 1,
            );
            if i < shown {
                let _ = write!(
                    out,
                    r#"<text class="coord" x="{:.1}" y="{:.1}" font-size="{size:.1}">{}</text>"#,
                    margin + label / 2.0,
                    y0 + mid,
                    i + 1
                );
            }
        }
    }
    for r in 0..shown {
        for c in 0..n {
            let index = shape.cell(r, c);
            let (x, y) = (x0 + c as f64 * cell, y0 + r as f64 * cell);
            let (value, class) = match (puzzle.get(index), solution.and_then(|s| s.get(index))) {
                (Some(v), _) => (Some(v), "given"),
                (None, Some(v)) => (Some(v), "found"),
                (None, None) => (None, ""),
            };
            let rect_class = if highlighted[index] && !options.heat_map {
                "cell mark"
            } else {
                "cell"
            };
            let style = match (options.heat_map, value, fill[index]) {
                (true, Some(v), _) => {
                    format!(r#" style="fill:{}""#, heat_colour(v, n, class == "given"))
                }
                (_, _, Some(f)) if !highlighted[index] => format!(r#" style="fill:{f}""#),
                _ => String::new(),
            };
            let _ = write!(
                out,
                r#"<rect class="{rect_class}" x="{x}" y="{y}" width="{cell}" height="{cell}"{style}"#
            );
            match titles[index] {
                Some(text) => {
                    let _ = write!(out, "><title>{}</title></rect>", escape_xml(text));
                }
                None => out.push_str("/>"),
            }
            // A cell of an extra unit (a diagonal, a window) is shaded under its digit.
            let on_extra = shape
                .regions()
                .is_some_and(|regions| !regions.extras_of(index).is_empty());
            if on_extra && !options.heat_map {
                let _ = write!(
                    out,
                    r##"<rect class="extra" x="{x}" y="{y}" width="{cell}" height="{cell}" fill="#000" fill-opacity="0.09"/>"##
                );
            }
            if let (Some(v), false) = (value, options.heat_map) {
                let _ = write!(
                    out,
                    r#"<text class="{class}" x="{}" y="{}" font-size="{font:.1}">{}</text>"#,
                    x + cell / 2.0,
                    y + cell / 2.0,
                    symbol(n, v)
                );
            }
        }
    }
    if options.heat_map {
        // The highlighted cells as outlines: their fill shows the value.
        for (index, _) in highlighted
            .iter()
            .enumerate()
            .filter(|&(c, h)| *h && shape.row_of(c) < shown)
        {
            let _ = write!(
                out,
                r##"<rect x="{}" y="{}" width="{cell}" height="{cell}" fill="none" stroke="#000" stroke-width="{:.1}"/>"##,
                x0 + shape.col_of(index) as f64 * cell,
                y0 + shape.row_of(index) as f64 * cell,
                (cell * 0.25).max(1.5)
            );
        }
    }
    // Box borders (none for a Latin square), then the outer frame.
    let stroke = if cell < 10.0 { 1.2 } else { 2.5 };
    box_borders(&mut out, shape, (x0, y0), cell, shown, stroke);
    let _ = write!(
        out,
        r##"<rect class="grid-frame" x="{x0}" y="{y0}" width="{side}" height="{tall}" fill="none" stroke="#000" stroke-width="3"/>"##
    );
    if let Some(caption) = &options.caption {
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" font-size="{:.1}">{}</text>"#,
            x0 + side / 2.0,
            y0 + tall + caption_height / 2.0,
            (cell * 0.4).max(12.0),
            escape_xml(caption)
        );
    }
    let mut y = y0 + tall + margin + caption_height + legend_font * 0.75;
    for (swatch, text) in &legend {
        match swatch.strip_prefix("glyph:") {
            // A digit in the style it names (given, found).
            Some(class) => {
                let _ = write!(
                    out,
                    r#"<text class="{class} key" x="{:.1}" y="{y:.1}" font-size="{:.1}">5</text>"#,
                    margin + legend_font / 2.0,
                    legend_font * 1.1
                );
            }
            None => {
                let _ = write!(
                    out,
                    r##"<rect x="{margin}" y="{:.1}" width="{legend_font}" height="{legend_font}" stroke="#888" {swatch}/>"##,
                    y - legend_font / 2.0
                );
            }
        }
        let _ = write!(
            out,
            r#"<text class="legend" x="{:.1}" y="{y:.1}" font-size="{legend_font}">{}</text>"#,
            margin + legend_font + 6.0,
            escape_xml(text)
        );
        y += legend_font * 1.5;
    }
    out.push_str("</svg>\n");
    out
}

/// The margin and font of the row and column numbers of a fluid grid of order `n` with cells
/// `cell` wide: a share of the whole grid (so that the grid keeps most of the picture when it is
/// as tall as the screen), at most a share of a cell (so that numbers do not overlap).
pub(crate) fn fluid_coordinates(n: usize, cell: f64) -> (f64, f64) {
    let side = cell * n as f64;
    let font = (side * 0.0385).min(cell * 0.55);
    (font / 0.7, font)
}

/// The thick lines between the boxes of `shape` (none for a Latin square), for a grid whose
/// top-left corner is `origin`, whose cells are `cell` wide, drawn down to its row `rows`. With
/// a region map, the lines run between cells of different regions.
pub(crate) fn box_borders(
    out: &mut String,
    shape: crate::shape::Shape,
    (x0, y0): (f64, f64),
    cell: f64,
    rows: usize,
    stroke: f64,
) {
    if shape.is_latin() {
        return;
    }
    let n = shape.order();
    if shape.has_region_map() {
        let region = |r: usize, c: usize| shape.box_of(r, c);
        for r in 0..rows.min(n) {
            for c in 0..n {
                let (x, y) = (x0 + c as f64 * cell, y0 + r as f64 * cell);
                if c + 1 < n && region(r, c) != region(r, c + 1) {
                    let _ = write!(
                        out,
                        r##"<line x1="{}" y1="{y}" x2="{}" y2="{}" stroke="#000" stroke-width="{stroke}"/>"##,
                        x + cell,
                        x + cell,
                        y + cell
                    );
                }
                if r + 1 < rows.min(n) && region(r, c) != region(r + 1, c) {
                    let _ = write!(
                        out,
                        r##"<line x1="{x}" y1="{}" x2="{}" y2="{}" stroke="#000" stroke-width="{stroke}"/>"##,
                        y + cell,
                        x + cell,
                        y + cell
                    );
                }
            }
        }
        return;
    }
    let side = cell * n as f64;
    let tall = cell * rows.min(n) as f64;
    let lines = (shape.box_rows()..rows.min(n))
        .step_by(shape.box_rows())
        .map(|k| (x0, y0 + k as f64 * cell, x0 + side, y0 + k as f64 * cell))
        .chain(
            (shape.box_cols()..n)
                .step_by(shape.box_cols())
                .map(|k| (x0 + k as f64 * cell, y0, x0 + k as f64 * cell, y0 + tall)),
        );
    for (x1, y1, x2, y2) in lines {
        let _ = write!(
            out,
            r##"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#000" stroke-width="{stroke}"/>"##
        );
    }
}

/// The legend of a picture drawn with `options` as an HTML paragraph (for a fluid picture, whose
/// legend goes beside it): a bold and a blue digit, and a swatch per coloured group of cells.
pub fn legend_html(options: &SvgOptions, solved: bool) -> String {
    let options = SvgOptions {
        legend: true,
        ..options.clone()
    };
    let mut out = String::from("<p class=\"legend\">");
    for (swatch, text) in legend_entries(&options, solved) {
        let key = match swatch.strip_prefix("glyph:") {
            Some("given") => "<b>5</b>".to_string(),
            Some(_) => "<b style=\"color:#1f4fb4\">5</b>".to_string(),
            None => {
                let fill = swatch
                    .split("fill=\"")
                    .nth(1)
                    .and_then(|rest| rest.split('"').next())
                    .unwrap_or("none");
                let border = if fill == "none" {
                    "2px solid #000"
                } else {
                    "1px solid #888"
                };
                format!(
                    "<span class=\"swatch\" style=\"background:{fill};border:{border}\"></span>"
                )
            }
        };
        let _ = write!(out, "<span>{key} {}</span>", escape_xml(&text));
    }
    out.push_str("</p>");
    out
}

/// The legend's entries: a swatch's attributes (or `glyph:CLASS` for a digit in that style) and
/// its text.
fn legend_entries(options: &SvgOptions, solved: bool) -> Vec<(String, String)> {
    if !options.legend {
        return Vec::new();
    }
    let mut entries = Vec::new();
    if options.heat_map {
        entries.push((
            format!(r#"fill="{}""#, heat_colour(0, 2, true)),
            "colour: the value (the hue runs from 1 to n); pale: given".into(),
        ));
        if solved {
            entries.push((
                format!(r#"fill="{}""#, heat_colour(0, 2, false)),
                "vivid: found (a verified solution)".into(),
            ));
        }
    } else {
        entries.push(("glyph:given".into(), "bold: given".into()));
        if solved {
            entries.push((
                "glyph:found".into(),
                "blue: found (a verified solution)".into(),
            ));
        }
    }
    if !options.highlight.is_empty() {
        let swatch = if options.heat_map {
            r#"fill="none" stroke-width="3""#.to_string()
        } else {
            format!(r#"fill="{HIGHLIGHT_FILL}""#)
        };
        entries.push((swatch, options.highlight_meaning.clone()));
    }
    for mark in &options.marks {
        entries.push((format!(r#"fill="{}""#, mark.fill), mark.meaning.clone()));
    }
    entries
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

    #[test]
    fn coordinates_legend_titles_and_a_heat_map() {
        let shape = Shape::sudoku(2, 2).unwrap();
        let mut puzzle = Grid::empty(shape);
        puzzle.set(5, Some(2));
        let svg = render(
            &puzzle,
            None,
            &SvgOptions {
                coordinates: true,
                legend: true,
                title: Some("a title".into()),
                highlight: vec![5],
                highlight_meaning: "the cell".into(),
                cell_titles: vec![(5, "row 2, column 2".into())],
                ..SvgOptions::default()
            },
        );
        assert!(svg.contains("<title>a title</title>"));
        assert_eq!(svg.matches("class=\"coord\"").count(), 8);
        assert!(svg.contains("><title>row 2, column 2</title></rect>"));
        assert!(svg.contains(">the cell</text>") && svg.contains(">bold: given</text>"));
        assert!(roxmltree::Document::parse(&svg).is_ok());
        let heat = render(
            &puzzle,
            None,
            &SvgOptions {
                heat_map: true,
                ..SvgOptions::default()
            },
        );
        assert!(heat.contains(&heat_colour(2, 4, true)));
        assert!(!heat.contains("<text class=\"given\""));
    }
}
