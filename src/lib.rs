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
//!   complete grid extending the givens, accepted by [`verify()`].
//!
//! # Five lines
//! ```
//! use sudokit::{Grid, Outcome};
//! let puzzle: Grid = "...3..4114..3...".parse()?; // a puzzle line, grid block or JSON object
//! let solution = puzzle.solve()?.solution().cloned().expect("solvable"); // native, verified
//! assert!(matches!(puzzle.unique()?, Outcome::Unique(_)));
//! let cnf = puzzle.export("cnf")?; // or opb, smt2, asp, lp, mps, mzn, dzn, dlx, col, graphml, ...
//! let other = puzzle.solve_with("sat:minimal:pairwise")?; // any backend of the registry
//! # assert_eq!(other.solution(), Some(&solution));
//! # assert!(cnf.starts_with("c sudokit CNF"));
//! # Ok::<(), sudokit::Error>(())
//! ```
//! [`reduce_latin`] reduces a partial Latin square to Sudoku and maps solutions back; [`verify()`]
//! is the certificate check; [`batch::Batch`] runs any of these over a stream of puzzles on all
//! cores, in order; [`jobs`] holds every command of the `sudokit` tool as a library job.
//!
//! # Modules, in layers
//! Each layer uses only the layers above it in this table (a test checks it).
//!
//! | layer | module | what it holds |
//! |---|---|---|
//! | 1 | [`shape`], [`grid`], [`bitset`] | shapes, units, peers, indexing; grids, givens, clash detection |
//! | 2 | [`verify`](mod@verify), [`search`], [`batch`] | the O(n²) certificate verifier; the vocabulary of every search (limits, cancel token, counters, answers); the ordered parallel map every batch runs on |
//! | 3 | [`text`], [`encode`] | puzzle lines, grid blocks, JSON lines, the capped line reader and `Located` errors; CNF (one file per AMO), 0-1 ILP, exact cover, graph, CSP encodings |
//! | 4 | [`format`](mod@format), [`proof`] | the format registry: every export format and every solver answer reader; the two checkers of clausal refutation proofs (LRAT, and DRAT written as LRAT) |
//! | 5 | [`propagate`], [`solve`], [`external`] | Simonis' propagation schemes and search on them; the `Solver` trait, the backend registry and every backend; the solver table of external programs (the `ext:NAME` backends) |
//! | 6 | [`reduce`], [`generate`], [`grade`], [`crosscheck`], [`render`], [`bench`](mod@bench), [`census`] | reductions and their verified chains; complete grids and minimal puzzles; grading by scheme; cross-checks; SVG and HTML; timing tables; counting every complete grid by symmetry |
//! | 7 | [`jobs`] | the commands as library jobs (validated options, one item to a typed record, its text and JSON, tallies and exit codes), the runner that runs them in order, the output sink and `--resume` |
//! | 8 | the facade (crate root; `grid_solving.rs`) | `Grid::parse/solve/count/unique/export`, [`reduce_latin`], [`Error`] |
//!
//! # Registries
//! Names users type are looked up in one table each: [`solve::registry`] (backends,
//! `sat:optimized:pairwise`, `cp:HACS`, `ext:z3`, ...), [`format::registry`] (export formats and
//! answer readers), [`external`] (the solver table: external programs, their command templates
//! and answer readers), [`encode::cnf::Encoding`] and [`encode::cnf::Amo`] (CNF encodings).
//!
//! # Cargo features
//! | feature | default | what it adds |
//! |---|---|---|
//! | `cli` | on | the `sudokit` command (clap, indicatif, signal-hook); the library builds without it |
//! | `highs` | off | the HiGHS MIP backend, `solve::Highs` / `--backend highs` (builds HiGHS from source: cmake, a C++ compiler and libclang) |
//! | `cadical` | off | CaDiCaL 2.2.1 in process: the `sat:cadical` backends, native's CDCL stage on large grids and generation's removal test from order 25 (builds the vendored C++ sources: a C++ compiler and libclang) |
//!
//! # Unsafe code
//! The crate denies `unsafe` everywhere but in one module, the SIMD lanes of the 9×9 engine
//! (`solve/band9/simd.rs`, `#[allow(unsafe_code)]`): vector intrinsics, the unaligned loads and
//! stores of the vectors, and the call into the engine compiled for AVX2. The AVX2 code is
//! reachable only with a proof that the CPU has the features, a token type whose one
//! constructor is the run-time detection: making a first AVX2 vector takes a token, every
//! vector holds one, and so does the call into the AVX2 engine, so safe code cannot reach an
//! AVX2 instruction on a CPU without it. SSE2 is part of every x86-64 target, which a
//! compile-time assertion checks. Each `unsafe` block says why it is sound (`// SAFETY:`), and
//! the tests run the portable, SSE2 and AVX2 implementations on the same puzzles and compare
//! every count, solution and counter.
//!
//! # Example: the certificate check
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
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod batch;
pub mod bench;
pub mod bitset;
pub mod census;
pub mod crosscheck;
pub mod encode;
pub mod external;
pub mod format;
pub mod generate;
pub mod grade;
pub mod grid;
mod grid_solving;
pub mod jobs;
pub mod proof;
pub mod propagate;
pub mod reduce;
pub mod render;
pub mod search;
pub mod shape;
pub mod solve;
pub mod text;
pub mod verify;

pub use grid::{Grid, Puzzle};
pub use grid_solving::{Error, reduce_latin};
pub use reduce::latin::LatinReduction;
pub use search::{Answer, CountReport, Limits, Outcome};
pub use shape::{Shape, ShapeError, Unit, UnitKind};
pub use verify::{Violation, verify};

/// The README's Rust examples, compiled and run as doctests so they cannot drift from the code.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// The guide's library chapter, compiled and run as doctests like the README.
#[cfg(doctest)]
#[doc = include_str!("../docs/src/library.md")]
struct GuideLibraryDoctests;

/// The guide's counting page, compiled and run as doctests like the README.
#[cfg(doctest)]
#[doc = include_str!("../docs/src/counting.md")]
struct GuideCountingDoctests;
