//! Generating instances: complete grids, puzzles, random partial Latin squares.
//!
//! - [`pattern`]: complete grids of any shape in O(n²) by two constructions;
//! - [`symmetry`]: validity-preserving transformations, and random grids as transformed patterns;
//! - [`random_grid`]: random complete grids (and completions) by randomized search;
//! - [`puzzle`]: locally minimal well-posed puzzles, with symmetric orbits, a number of givens
//!   and propagation difficulty; [`puzzle::minimize`] reduces the givens of a given puzzle;
//! - `removal`: the pass that removes orbits of givens while a checker keeps the puzzle's
//!   property, shared by [`puzzle`] and the reduction of a given puzzle;
//! - [`trades`]: small unavoidable sets of a complete grid (two values or two lines exchanged),
//!   a search-free shortcut of the removal test;
//! - [`parallel_tail`]: the tail of a reduction on several threads (lanes), with the one-by-one result;
//! - [`sweep`]: the orbits ahead of a reduction tested early, so that needed givens are found
//!   while their second solutions are cheap;
//! - [`well_posed`]: the removal test of the reduction (does a puzzle stay well posed without
//!   some givens?), by restricted search;
//! - [`latin`]: random complete and partial Latin squares (quasigroups with holes, and random
//!   consistent givens that may not complete).

mod checker;
pub mod latin;
mod minimize;
pub mod parallel_tail;
pub mod pattern;
pub mod progress;
pub mod puzzle;
pub mod random_grid;
mod removal;
pub mod sweep;
pub mod symmetry;
pub mod trades;
pub mod well_posed;
