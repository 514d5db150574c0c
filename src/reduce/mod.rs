//! Reductions: the transformations behind the NP-completeness demonstrations. Every solution
//! mapped back is checked by the certificate verifier ([`crate::verify()`]).
//!
//! - [`reduction`]: the [`reduction::Reduction`] abstraction (instance → instance, solution back,
//!   target size) and its composition;
//! - [`latin`]: Latin square completion → Sudoku, with the back-map and the forward map (its
//!   errors in [`latin_error`]);
//! - [`encodings`]: Sudoku → CNF, 0-1 ILP, exact cover and graph precolouring as reductions;
//! - [`chain`]: the whole demonstration — reduce, solve with any backend, map back, verify;
//! - [`sat_chain`]: the same, one level further: Latin square → Sudoku → CNF → SAT solver → back;
//! - [`course`]: every level at once — the square, its Sudoku, CNF, 0-1 ILP, exact cover and
//!   precolouring — each solved by its own solver, checked there and mapped back (the course
//!   page draws it), one function per level in [`levels`], its data in [`course_data`], the size
//!   of each level as a formula in [`formulas`], the distinct completions the levels of a square
//!   found in [`distinct_completions`]; [`conflict`]: a minimal set of givens with no completion, and the Hall violation
//!   that says why; [`size_table`]: every level's sizes across orders, formula by formula.

pub mod chain;
pub mod conflict;
pub mod course;
pub mod course_data;
pub mod distinct_completions;
pub mod encodings;
pub mod formulas;
pub mod latin;
pub mod latin_error;
pub mod levels;
pub mod reduction;
pub mod sat_chain;
pub mod size_table;
