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

pub use self::pictures::formalisms_section;
pub use self::reduction::{digit_of_symbol, map_table, map_text, reduction_section};

/// A cell size that keeps a grid of order `n` readable and on screen.
pub fn fitted_cell(n: usize) -> f64 {
    if n > 36 {
        (640.0 / n as f64).max(4.0)
    } else {
        (560.0 / n as f64).clamp(16.0, 40.0)
    }
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
