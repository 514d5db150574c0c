//! Pictures a class can look at: SVG drawings of grids, and the HTML report of a reduction chain.
//!
//! - [`svg`]: one puzzle (and its solution) as a self-contained SVG;
//! - [`report`]: the HTML page of a reduction chain.

pub mod report;
pub mod svg;
