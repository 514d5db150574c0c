//! sudokit models generalized Sudoku (n×n grids with boxes of p×q cells, n = p·q) and Latin
//! squares, translates an instance into the standard formalisms, solves them, maps the answers
//! back and checks every answer with an independent O(n²) certificate verifier.
//!
//! # The pipeline
//! ```text
//!  text/JSON ──parse──▶ Puzzle (Shape + givens) ──encode──▶ CNF | ILP | exact cover | graph
//!                               │                                   │ write / solve
//!                               ▼                                   ▼
//!                          Solution ◀──decode── embedded backend or external tool
//!                               │
//!                               └──verify (O(n²) certificate check)──▶ report
//! ```
//!
//! # Vocabulary
//! - **shape** ([`Shape`]): box rows `p` × box columns `q`; order `n = p·q`; `n²` cells. A Latin
//!   square of order `n` is the shape with no box constraint.
//! - **cell** `(r, c)`, 0-based in code, 1-based in every file a user reads or writes; **value**
//!   `0..n` in code, `1..=n` for users; **unit**: a row, a column or a box; **peers**: the other
//!   cells of a cell's units, `2(n−1) + (p−1)(q−1)` of them.
//! - **givens**: the preset cells; **puzzle** ([`Puzzle`]): shape + givens; **solution**: a
//!   complete grid extending the givens, accepted by [`verify`].
//!
//! # Modules
//! | module | what it holds |
//! |---|---|
//! | [`shape`] | shapes, units, peers, indexing |
//! | [`grid`] | grids, givens, clash detection |
//! | [`text`] | puzzle lines, grid blocks, JSON lines; errors with line:column |
//! | [`verify`](mod@verify) | the O(n²) certificate verifier |
//! | [`reduce::latin`], [`reduce::chain`] | Latin square completion → Sudoku, and the verified chain through a backend |
//! | [`reduce::reduction`], [`reduce::encodings`], [`reduce::sat_chain`] | reductions as objects (Latin → Sudoku → CNF, ILP, exact cover, colouring), and the chain through CNF and a SAT solver |
//! | [`generate`] | O(n²) complete grids, random grids, random Latin squares, locally minimal puzzles by symmetry and scheme, hint reduction |
//! | [`render`] | SVG drawings and the HTML report of a chain |
//! | [`bench`](mod@bench) | the library side of `sudokit bench`: per-backend timing tables |
//! | [`solve`] | the `Solver` trait, limits, outcomes, the backend registry and every backend: native, the literature's, cp, dlx, colour, sat (with checked proofs), mip/highs, grasp |
//! | [`encode`], [`format`](mod@format) | CNF, 0-1 ILP, exact cover, graph, MiniZinc encodings; their file formats and answer readers |
//! | [`crosscheck`] | every backend (and external solvers) on one puzzle, answers verified and compared |
//! | [`propagate`], [`grade`] | Simonis' propagation schemes, search on a scheme, grading by scheme |
//!
//! # Cargo features
//! | feature | default | what it adds |
//! |---|---|---|
//! | `highs` | off | the HiGHS MIP backend, `solve::Highs` / `--backend highs` (builds HiGHS from source: cmake, a C++ compiler and libclang) |
//!
//! # Example
//! ```
//! use sudokit::{text::parse_line, verify};
//! let puzzle = parse_line("1.3.....4....2..", None).unwrap();
//! let solution = parse_line("1432234141233214", None).unwrap();
//! assert_eq!(verify(&puzzle, &solution), Ok(()));
//! let wrong = parse_line("1432234141233241", None).unwrap();
//! assert_eq!(
//!     verify(&puzzle, &wrong).unwrap_err().to_string(),
//!     "column 3 has 4 twice: at (2,3) and (4,3)"
//! );
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod batch;
pub mod bench;
pub mod bitset;
pub mod crosscheck;
pub mod encode;
pub mod format;
pub mod generate;
pub mod grade;
pub mod grid;
pub mod propagate;
pub mod reduce;
pub mod render;
pub mod search;
pub mod shape;
pub mod solve;
pub mod text;
pub mod verify;

pub use grid::{Grid, Puzzle};
pub use shape::{Shape, ShapeError, Unit, UnitKind};
pub use verify::{Violation, verify};

/// The README's Rust examples, compiled and run as doctests so they cannot drift from the code.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
