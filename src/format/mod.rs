//! File formats: one format per file, writers streaming to any `io::Write`, and readers for
//! the answers of the tools that read them (DESIGN.md §5).
//!
//! | file | format | direction |
//! |---|---|---|
//! | [`dimacs`] | DIMACS CNF; SAT-competition and minisat answers | CNF out and in, answers in |
//! | [`clausal_proof`] | DRAT, RUP and FRAT refutation proofs of SAT solvers | in |
//! | [`opb`] | pseudo-Boolean OPB (PB competition) | out |
//! | [`clasp_answer`] | clasp/clingo answers: OPB `s`/`v` lines, answer sets | in |
//! | [`smt2`], [`smt2_answer`] | SMT-LIB 2 (QF_LIA); z3's and cvc5's answers | out; in |
//! | [`asp`] | answer-set program for gringo/clingo | out |
//! | [`lp`] | CPLEX LP | out |
//! | [`mps`] | free MPS | out |
//! | [`mip_answer`] | glpsol and cbc solution files | in |
//! | [`lp_solve_answer`], [`highs_answer`], [`scip_answer`] | lp_solve's report, HiGHS's and SCIP's solution files | in |
//! | [`mzn`] | self-contained MiniZinc model | out |
//! | [`minizinc`] | MiniZinc data `.dzn` for `models/sudoku.mzn` | out |
//! | [`minizinc_answer`] | MiniZinc's output | in |
//! | [`dlx1`], [`dlx1_answer`] | Knuth's exact-cover input (dlx1); dlx1's solutions | out and in; in |
//! | [`col`] | DIMACS graph colouring `.col` with precolouring, `.given` | out and in |
//! | [`graphml`], [`edge_list`] | GraphML and plain edge list of the Sudoku graph | out |
//! | [`hgr`] | hMETIS hypergraph `.hgr` | out and in |
//! | [`colouring_answer`] | vertex → colour lists | in |
//!
//! [`provenance`] names an export's source (file, index, line, the exact `decode` command) and
//! numbers the files of a batch so they sort in input order.
//!
//! Every reader of answers with several models keeps a `ModelLedger` (`model_ledger.rs`): a
//! repeated model, a claimed number of models that differs from the models given, and an
//! unsatisfiable verdict after a model are errors, the same in `decode` and in the `ext:`
//! backends.
//!
//! The [`registry`] lists every export format and answer reader by name; [`entry`] holds the
//! types of its entries, which each format's file uses (so the files never import the list). Every reader reports a
//! problem with its 1-based line and column, and never panics.
//!
//! # Complexity
//! Every writer streams through a buffer (O(n) or 64 KiB of memory, whatever the order); every
//! reader is linear in its input.
//!
//! # References
//! See each module: DIMACS (1993), SAT competition output, CPLEX LP and MPS, Knuth's dlx1,
//! hMETIS, MiniZinc, OPB, SMT-LIB 2, gringo/clingo, GraphML, and the solvers' output forms.

pub mod asp;
pub mod clasp_answer;
pub mod clausal_proof;
pub mod col;
pub mod colouring_answer;
pub mod dimacs;
pub mod dlx1;
pub mod dlx1_answer;
pub mod edge_list;
pub mod entry;
pub mod graphml;
pub mod hgr;
pub mod highs_answer;
pub mod lp;
pub mod lp_solve_answer;
pub mod minizinc;
pub mod minizinc_answer;
pub mod mip_answer;
mod model_decode;
mod model_ledger;
pub mod mps;
pub mod mzn;
pub mod opb;
pub mod provenance;
pub mod registry;
pub mod scip_answer;
pub mod smt2;
pub mod smt2_answer;

pub use entry::{
    AnswerError, AnswerReader, Claim, Decoded, Exclude, ExportFormat, ExportOptions, ReadAnswer,
    SmtEncoding, human_size,
};
pub use model_decode::decode_literals;
pub use registry::{
    FORMATS, READER_ALIASES, READERS, UnknownFormat, decode_answer, decode_answers, estimate_size,
    export, export_excluding, find_format, find_reader,
};
