//! The section "The reduction" of the course page: the map from a Latin square to a Sudoku
//! (cells and symbols, 1-based), the fixed pattern drawn on the running example with the cells
//! that force the carrying cells, the "yes ⇔ yes" argument both ways, and the table of the map
//! cell by cell.

use std::fmt::Write as _;

use super::{fitted_cell, sudoku_figure};
use crate::grid::Grid;
use crate::reduce::latin::carries_latin;
use crate::render::page;
use crate::render::svg::{Mark, SvgOptions, escape_xml, legend_html, symbol};

/// The fill of the cells that force the carrying cells.
const FORCING: &str = "#cfe0f7";

/// 1-based digit of the Sudoku for symbol `s` (1-based) of a square of order `m`.
pub fn digit_of_symbol(m: usize, s: usize) -> usize {
    m * (s - 1) + 1
}

/// "Sudoku cell (1,4) ↔ square cell (1,2)", and ": digit 7 ↔ symbol 3" when `digit` (0-based)
/// is known: the hover text of a carrying cell.
pub fn map_text(m: usize, cell: (usize, usize), digit: Option<usize>) -> String {
    let (r, c) = cell;
    let mut text = format!(
        "Sudoku cell ({},{}) ↔ square cell ({},{})",
        r + 1,
        c + 1,
        r + 1,
        c / m + 1
    );
    if let Some(d) = digit {
        if d % m == 0 {
            let _ = write!(text, ": digit {} ↔ symbol {}", d + 1, d / m + 1);
        } else {
            let _ = write!(text, ": digit {} (no symbol: not m·(s−1)+1)", d + 1);
        }
    }
    text
}

/// The section "The reduction", drawn on `latin`, its Sudoku and (if found) its solution.
pub fn reduction_section(out: &mut String, latin: &Grid, sudoku: &Grid, solution: Option<&Grid>) {
    let m = latin.shape().order();
    let n = sudoku.shape().order();
    page::slide_start(out, "reduction", "");
    page::heading(
        out,
        2,
        "reduction-title",
        "The reduction: Latin square completion → Sudoku",
    );
    let symbols: Vec<String> = (1..=m.min(6))
        .map(|s| {
            let d = digit_of_symbol(m, s);
            if n > 9 {
                format!("{s} → {d} ({})", symbol(n, d - 1))
            } else {
                format!("{s} → {d}")
            }
        })
        .collect();
    let _ = write!(
        out,
        "<p>A partial Latin square L of order m (here m = {m}) becomes a Sudoku S of order \
         n = m² = {n}, with boxes of m × m cells. Rows and columns are numbered from 1.</p><ul>\
         <li><b>Cells.</b> Cell (i, j) of L is cell (i, m·(j − 1) + 1) of S: the first m rows, \
         in the columns 1, m + 1, 2m + 1, … (here {}). These are the <b>carrying cells</b> \
         (yellow in the picture of S).</li>\
         <li><b>Symbols.</b> Symbol s of L is digit m·(s − 1) + 1 of S: here {}{}.</li>\
         <li><b>The fixed pattern.</b> Every other cell (r, c) of S is given \
         P(r, c) = (m·((r − 1) mod m) + ⌊(r − 1)/m⌋ + c − 1) mod n + 1. \
         P is itself a complete Sudoku, and on the carrying cells it holds exactly the digits \
         m·(s − 1) + 1.</li></ul>",
        (0..m.min(6))
            .map(|q| (m * q + 1).to_string())
            .collect::<Vec<_>>()
            .join(", ")
            + if m > 6 { ", …" } else { "" },
        symbols.join(", "),
        if m > 6 { ", …" } else { "" }
    );
    let shape = sudoku.shape();
    let carrying: Vec<usize> = (0..shape.cells())
        .filter(|&c| carries_latin(m, shape.row_of(c), shape.col_of(c)))
        .collect();
    let forcing: Vec<usize> = (0..shape.cells())
        .filter(|&c| {
            let (r, col) = (shape.row_of(c), shape.col_of(c));
            !carries_latin(m, r, col) && (r < m || col % m == 0)
        })
        .collect();
    let titles = carrying
        .iter()
        .map(|&c| {
            let digit = sudoku.get(c).or_else(|| solution.and_then(|s| s.get(c)));
            (c, map_text(m, (shape.row_of(c), shape.col_of(c)), digit))
        })
        .collect();
    let options = SvgOptions {
        cell: fitted_cell(n),
        highlight: carrying,
        highlight_meaning: "carrying cells: the square L".into(),
        marks: vec![Mark {
            cells: forcing,
            fill: FORCING.into(),
            meaning: "fixed cells that leave the carrying cells only the symbols' digits".into(),
        }],
        title: Some(format!("The Sudoku of the running example ({shape})")),
        coordinates: true,
        cell_titles: titles,
        heat_map: n > 36,
        fluid: true,
        ..SvgOptions::default()
    };
    let caption = format!(
        "<p>The running example's Sudoku: the {} carrying cells (yellow) and the fixed pattern{}. \
         Point at a yellow cell to see which cell of L it is. Why the yellow cells can only hold \
         the symbols' digits {}: in each of the rows 1 to {m}, each yellow column and each box \
         of the top band, the blue cells already hold all the other digits.</p>{}",
        m * m,
        if solution.is_some() {
            ", solved (the digits filled in on the carrying cells are a completion's, see the legend)"
        } else {
            ""
        },
        (1..=m.min(6))
            .map(|s| symbol(n, digit_of_symbol(m, s) - 1))
            .collect::<Vec<_>>()
            .join(", ")
            + if m > 6 { ", …" } else { "" },
        legend_html(&options, solution.is_some())
    );
    let figure = sudoku_figure(sudoku, solution, &options, m);
    // The document reads the caption under the definitions; a lecture shows it on a slide of
    // its own, with the same picture.
    let _ = write!(out, "<div class=\"document-only\">{caption}</div>");
    page::slide_figure(out, &figure, "");
    page::slide_start(out, "pattern", "lecture-only");
    page::heading(
        out,
        3,
        "pattern-title",
        "The fixed pattern forces the carrying cells",
    );
    out.push_str(&caption);
    page::slide_figure(out, &figure, "");
    page::slide_start(out, "argument", "");
    out.push_str(
        "<h3 id=\"argument-title\">Why it works: L has a completion exactly when S has a solution</h3>\
         <p><b>If L has a completion</b>, write each of its symbols s as the digit m·(s − 1) + 1 \
         in the yellow cell of the same position. Row i of S (i ≤ m) then holds row i of L on its \
         yellow cells and the pattern's other digits elsewhere; yellow column m·(j − 1) + 1 and \
         the top box j hold column j of L plus pattern digits; every other row, column and box \
         is the pattern's own, already complete. Each unit holds every digit once: S is solved.</p>\
         <p><b>If S has a solution</b>, its yellow cells hold digits of the form m·(s − 1) + 1 \
         only (the blue cells took all the others in their units), and the Sudoku rules on the \
         yellow cells say: no symbol twice in a row of L (a row of S) and no symbol twice in a \
         column of L (a top box of S). Reading each yellow digit back as its symbol gives a \
         completion of L that keeps L's givens.</p>\
         <p>The two maps are inverse to each other, so completions and solutions correspond one \
         to one (counts agree too), and S is written in O(n²) = O(m⁴) steps: a polynomial \
         reduction from Latin square completion, which is NP-complete (Colbourn 1984), to \
         Sudoku. Together with the O(n²) check of a solution, Sudoku is NP-complete.</p>",
    );
    page::slide_end(out);
    if let Some(solution) = solution {
        page::slide_start(out, "map", map_slide_class(m));
        map_table(out, m, sudoku, solution, "the running example's solution");
        page::slide_end(out);
    }
}

/// The class of the slide that holds [`map_table`]: the table of a 6×6 square (36 rows) does
/// not fit a projected slide at a legible size, so it is the document's only (in lecture mode a
/// carrying cell's map shows when the pointer rests on it).
pub fn map_slide_class(m: usize) -> &'static str {
    if m > 5 { "document-only" } else { "" }
}

/// The table "Sudoku cell ↔ square cell, digit ↔ symbol" of every carrying cell, for the
/// Sudoku `solution` (`whose` names it in the caption: the picture it matches).
pub fn map_table(out: &mut String, m: usize, sudoku: &Grid, solution: &Grid, whose: &str) {
    if m > 6 {
        return;
    }
    let shape = sudoku.shape();
    let n = shape.order();
    let _ = write!(
        out,
        "<table class=\"map\"><caption>The map, cell by cell, for {}: each carrying cell's \
         digit and the square's symbol it stands for</caption><thead><tr><th>Sudoku cell</th>\
         <th>digit</th><th></th><th>square cell</th><th>symbol</th></tr></thead><tbody>",
        escape_xml(whose)
    );
    for i in 0..m {
        for q in 0..m {
            let cell = shape.cell(i, m * q);
            let d = solution.get(cell).or(sudoku.get(cell)).unwrap_or(0);
            let given = if sudoku.get(cell).is_some() {
                " (given)"
            } else {
                ""
            };
            let digit = if n > 9 {
                format!("{} ({})", symbol(n, d), d + 1)
            } else {
                symbol(n, d)
            };
            let _ = write!(
                out,
                "<tr><td>({},{})</td><td class=\"num\">{digit}{given}</td><td>↔</td>\
                 <td>({},{})</td><td class=\"num\">{}</td></tr>",
                i + 1,
                m * q + 1,
                i + 1,
                q + 1,
                d / m + 1
            );
        }
    }
    out.push_str("</tbody></table>\n");
}
