//! File formats: one format per file, writers streaming to any `io::Write`, and readers for
//! the answers of the tools that read them (DESIGN.md §5).
//!
//! | file | format | direction |
//! |---|---|---|
//! | [`dimacs`] | DIMACS CNF; SAT-competition and minisat answers | CNF out and in, answers in |
//! | [`lp`] | CPLEX LP | out |
//! | [`mps`] | free MPS | out |
//! | [`mip_answer`] | glpsol and cbc solution files | in |
//! | [`dlx`] | Knuth's exact-cover input (dlx1) | out and in |
//! | [`col`] | DIMACS graph colouring `.col` with precolouring, `.given` | out and in |
//! | [`hgr`] | hMETIS hypergraph `.hgr` | out and in |
//! | [`minizinc`] | MiniZinc data `.dzn` for `models/sudoku.mzn` | out |
//!
//! The [`registry`] lists every export format and answer reader by name. Every reader reports a
//! problem with its 1-based line and column, and never panics.
//!
//! # Complexity
//! Every writer streams through a buffer (O(n) or 64 KiB of memory, whatever the order); every
//! reader is linear in its input.
//!
//! # References
//! See each module: DIMACS (1993), SAT competition output, CPLEX LP and MPS, Knuth's dlx1,
//! hMETIS, MiniZinc.

pub mod col;
pub mod dimacs;
pub mod dlx;
pub mod hgr;
pub mod lp;
pub mod minizinc;
pub mod mip_answer;
pub mod mps;
pub mod registry;

pub use registry::{
    AnswerError, AnswerReader, Claim, Decoded, ExportFormat, ExportOptions, FORMATS, READERS,
    UnknownFormat, decode_answer, export, find_format, find_reader, human_size,
};
