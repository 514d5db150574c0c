//! Pictures a class can look at: SVG drawings of grids, and the HTML report of a reduction chain.
//!
//! - [`svg`]: one puzzle (and its solution) as a self-contained SVG;
//! - [`report`]: the HTML page of a reduction chain (generic levels and tables);
//! - [`latin`]: one Latin-square reduction, both grids side by side and its chain report;
//! - [`course`]: the course page, every level of the Latin-square chain for each square, with
//!   [`formalisms`] (the reduction and each formalism explained on the running example);
//! - [`explain`]: the HTML page of a propagation trace, one frame per step;
//! - [`page`]: the frame every page shares (head, screen and print stylesheets);
//! - [`figures`]: each figure of a page as an SVG file of its own (and a PNG), for slides.

pub mod course;
pub mod explain;
pub mod figures;
pub mod formalisms;
pub mod latin;
pub mod page;
pub mod report;
pub mod svg;
