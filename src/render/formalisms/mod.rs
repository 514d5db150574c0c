//! The teaching sections of the course page: the reduction Latin square → Sudoku explained on
//! the running example (the map 1-based, the fixed pattern and why it forces the carrying cells,
//! the "yes ⇔ yes" argument both ways), and a small picture of each formalism below the Sudoku
//! (the clauses of one cell, one row of the 0-1 program, one exact-cover option with its items,
//! the neighbourhood of one vertex).
//!
//! Everything shown is read off the instances the library builds (the CNF's own clauses, the
//! program's own rows, the cover's own items, the graph's own edges), not retyped. Each part is a
//! slide of the page ([`crate::render::page`]); the pictures are fluid SVG, readable when
//! projected.

mod pictures;
mod reduction;

use crate::grid::Grid;
use crate::render::svg::{SvgOptions, render};

pub use self::pictures::formalisms_section;
pub use self::reduction::{
    digit_of_symbol, map_slide_class, map_table, map_text, reduction_section,
};

/// A cell size that keeps a grid of order `n` readable and on screen.
pub fn fitted_cell(n: usize) -> f64 {
    if n > 36 {
        (640.0 / n as f64).max(4.0)
    } else {
        (560.0 / n as f64).clamp(16.0, 40.0)
    }
}

/// The figure of a Sudoku of order `n` drawn with `options` ([`wrap`]ped); from order 36 on,
/// lecture mode shows instead its first `band` rows with their digits, as wide as the slide
/// (the band that carries the square, or the one of the cell a picture is about): the whole
/// grid's digits would be under 14 pixels at 1280×720.
pub fn sudoku_figure(
    sudoku: &Grid,
    solution: Option<&Grid>,
    options: &SvgOptions,
    band: usize,
) -> String {
    let n = sudoku.shape().order();
    let whole = wrap(n, &render(sudoku, solution, options));
    if n < 36 {
        return whole;
    }
    let zoomed = SvgOptions {
        heat_map: false,
        rows: Some(band),
        caption: None,
        legend: false,
        ..options.clone()
    };
    format!(
        "<div class=\"document-only\">{whole}</div><div class=\"lecture-only band\">{}</div>",
        render(sudoku, solution, &zoomed)
    )
}

/// Large drawings go in a box the reader can resize (the SVG scales with it); others as they
/// are (fluid: the page sizes them).
pub fn wrap(n: usize, svg: &str) -> String {
    if n > 36 {
        format!("<div class=\"zoom\">{svg}</div>")
    } else {
        svg.to_string()
    }
}
