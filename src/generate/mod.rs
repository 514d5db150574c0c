//! Generating instances: complete grids, random partial Latin squares.
//!
//! - [`pattern`]: complete grids of any shape in O(n²) by two constructions;
//! - [`latin`]: random complete and partial Latin squares (quasigroups with holes, and random
//!   consistent givens that may not complete).

pub mod latin;
pub mod pattern;
