//! `sat`: the CNF encodings of [`crate::encode::cnf`] solved by the varisat CDCL solver, with
//! counting by blocking clauses and uniqueness proofs checked by varisat's proof checker.
//!
//! # How it works
//! The puzzle is encoded straight into a `varisat::Solver` through [`SatSink`], the varisat side
//! of [`ClauseSink`] (the same encoder feeds the DIMACS writer and the in-memory [`Cnf`]). Each
//! model is decoded with the encoding's [`VarMap`] and checked by the certificate verifier.
//! Counting adds, after each solution `s`, the blocking clause `∨ ¬x(r,c,s(r,c))` over the open
//! (non-given) cells' x variables only: auxiliary AMO variables are not always determined by the
//! grid (Sinz's counter leaves some free), so blocking them would count one grid several times.
//! The solver is incremental: learnt clauses survive from one solution to the next.
//!
//! # Names
//! `sat` is Kwon & Jain's optimized encoding with pairwise AMO, the fastest of the sixteen
//! choices on `magictour_top95` (about 20 times faster than extended + sequential and 10 times
//! faster than minimal + pairwise; see BENCHMARKS.md);
//! `sat:ENCODING` and `sat:ENCODING:AMO` name any other choice, e.g. `sat:minimal:pairwise`.
//! [`Sat::name`] is `sat` for the default and `sat:ENCODING:AMO` otherwise.
//!
//! # Limits and counters (what varisat exposes)
//! varisat 0.2 has no interrupt, conflict budget or statistics API. So:
//! - a **node** of this backend is one SAT call (the first call, then one per blocking clause);
//!   [`Limits::nodes`] bounds the calls and so the solutions enumerated, checked before each
//!   call and never exceeded. It does not bound the work inside one call;
//! - the **time** limit is checked before each call and, inside a call, every time varisat
//!   hands its proof trace (native format, to a writer that discards it) another buffer of
//!   8 KiB, i.e. every few dozen conflicts: past the deadline the writer fails, and varisat
//!   stops the call with a proof I/O error, reported as [`StopReason::TimeLimit`]. The trace is
//!   only produced when a time limit is set. An overrun is bounded by the work of one buffer
//!   (a propagation-heavy stretch without conflicts writes nothing, so it is not interrupted);
//! - [`Stats::nodes`](crate::solve::Stats::nodes) is the SAT calls; `guesses` and
//!   `propagations` stay 0 because varisat does not report its decisions or propagations.
//!
//! # Proofs
//! [`Sat::unique_with_proof`] and [`Sat::solve_with_proof`] back a negative claim with a proof:
//! for `unsat` the formula F of the puzzle, for `unique` with solution s the formula F plus the
//! blocking clause of s (no other solution), is written to `DIR/STEM.cnf` (DIMACS, comments
//! saying what it is), solved again by a fresh solver that writes its refutation in varisat's
//! native proof format to `DIR/STEM.varisat`, and [`check_proof`] then reads both files back and
//! checks the proof with `varisat-checker` (every step is a reverse-unit-propagation or
//! resolution-asymmetric-tautology step, and the proof ends in a refutation). While it checks,
//! the checker writes the same refutation as a textual LRAT proof (`DIR/STEM.lrat`, by
//! `varisat-lrat`), with every step's hints, for an external checker:
//!
//! ```text
//! lrat-check DIR/STEM.cnf DIR/STEM.lrat       # lrat-check.c from the drat-trim repository
//! cake_lpr DIR/STEM.cnf DIR/STEM.lrat         # the verified checker of CakeML
//! ```
//!
//! Both print `s VERIFIED`. (These external tools are not run by the test suite; an independent
//! LRAT checker in `tests/it/sat_cli.rs` checks the LRAT files the same way.)
//! A uniqueness proof together with the verified solution settles uniqueness: the solution
//! satisfies F (the verifier checked it), and F plus its blocking clause has no model.
//!
//! # Complexity
//! Encoding is linear in the clauses: O(n⁴) with pairwise AMO, O(n³) with sequential, product or
//! bimander (see [`crate::encode::cnf`]). CDCL search is exponential in the worst case; the
//! 9×9 puzzles take about a millisecond each. Proof checking is linear in the proof size times
//! the cost of unit propagation.
//!
//! # References
//! - I. Lynce, J. Ouaknine, "Sudoku as a SAT problem", ISAIM 2006.
//! - G. Kwon, H. Jain, "Optimized CNF encoding for Sudoku puzzles", LPAR 2006.
//! - J. P. Marques-Silva, K. A. Sakallah, "GRASP: a search algorithm for propositional
//!   satisfiability", IEEE Trans. Computers 48(5), 1999 (CDCL).
//! - N. Wetzler, M. Heule, W. Hunt, "DRAT-trim: efficient checking and trimming using
//!   expressive clausal proofs", SAT 2014; L. Cruz-Filipe et al., "Efficient certified RAT
//!   verification", CADE 2017 (LRAT).
//! - J. Fleischmann, varisat (the solver, its proof format and checker).
//!
//! # Examples
//! ```
//! use sudokit::solve::{Limits, Outcome, Solver, sat::Sat};
//! use sudokit::text::parse_line;
//! let puzzle = parse_line("...3..4114..3...", None).unwrap();
//! let sat = Sat::default();
//! assert_eq!(sat.name(), "sat");
//! assert!(matches!(sat.unique(&puzzle, &Limits::none()).unwrap().outcome, Outcome::Unique(_)));
//! let empty = sudokit::Grid::empty(sudokit::Shape::sudoku(2, 2).unwrap());
//! assert_eq!(sat.count(&empty, 1000, &Limits::none()).unwrap().count, 288);
//! ```

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::{Duration, Instant};

use thiserror::Error;
use varisat::{ExtendFormula, ProofFormat};
use varisat_checker::{Checker, CheckerError, ProofTranscriptProcessor, ProofTranscriptStep};

use crate::encode::cnf::{Amo, CnfOptions, Encoding, VarMap, encode};
use crate::encode::{ClauseSink, Cnf, Lit, Model, Var};
use crate::format::dimacs::{cnf_comments, write_formula};
use crate::grid::Grid;
use crate::solve::{
    Answer, Budget, CountReport, Limits, Outcome, SolveError, SolveReport, Solver, StopReason,
    UniqueReport, Verified, check_order,
};

/// The default choice of `sat`: Kwon & Jain's optimized encoding, pairwise AMO (measured
/// fastest, see the module docs).
pub const DEFAULT_OPTIONS: CnfOptions = CnfOptions {
    encoding: Encoding::Optimized,
    amo: Amo::Pairwise,
};

/// The largest order with pairwise AMO (O(n⁴) clauses: 3.3 million at 36).
pub const MAX_ORDER_PAIRWISE: usize = 36;

/// The largest order with the O(n³) AMO encodings (3.1 million clauses at 64, sequential).
pub const MAX_ORDER_LINEAR_AMO: usize = 64;

/// The `sat` backend: one CNF encoding and AMO choice, solved by varisat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sat {
    options: CnfOptions,
    name: String,
}

impl Default for Sat {
    /// [`DEFAULT_OPTIONS`].
    fn default() -> Sat {
        Sat::new(DEFAULT_OPTIONS)
    }
}

impl Sat {
    /// The backend for an encoding and AMO choice.
    pub fn new(options: CnfOptions) -> Sat {
        let name = if options == DEFAULT_OPTIONS {
            "sat".to_string()
        } else {
            format!("sat:{}:{}", options.encoding, options.amo)
        };
        Sat { options, name }
    }

    /// The encoding and AMO choice.
    pub fn options(&self) -> CnfOptions {
        self.options
    }

    /// [`Solver::solve`] with a checked proof when the answer is `Unsat`; see the module docs.
    /// Files go to `dir` (created if needed) as `STEM.cnf`, `STEM.varisat` and `STEM.lrat`.
    ///
    /// # Errors
    /// [`SatError::Solve`] as [`Solver::solve`]; [`SatError::Io`] when a file cannot be written;
    /// [`SatError::ProofRejected`] when the checker rejects the proof (a solver bug).
    pub fn solve_with_proof(
        &self,
        puzzle: &Grid,
        limits: &Limits,
        dir: &Path,
        stem: &str,
    ) -> Result<(SolveReport, Option<ProofReport>), SatError> {
        let budget = Budget::start(limits);
        let report = Verified(self.clone()).solve(puzzle, limits)?;
        let proof = match report.answer {
            Answer::Unsat => self.prove(puzzle, None, budget.deadline, dir, stem)?,
            _ => None,
        };
        Ok((report, proof))
    }

    /// [`Solver::unique`] with a checked proof when the outcome is `Unsat` (the formula is
    /// unsatisfiable) or `Unique(s)` (the formula plus the clause blocking s is); see the module
    /// docs. Files go to `dir` as in [`Sat::solve_with_proof`].
    ///
    /// The proof is `None` for `Multiple` (two verified solutions are the certificate) and
    /// `Unknown`, and also when the time limit runs out during the proof run. The time limit
    /// covers both runs (the deadline is set once); the node limit bounds the first run's SAT
    /// calls only, since the proof run is a single call.
    ///
    /// # Errors
    /// As [`Sat::solve_with_proof`].
    pub fn unique_with_proof(
        &self,
        puzzle: &Grid,
        limits: &Limits,
        dir: &Path,
        stem: &str,
    ) -> Result<(UniqueReport, Option<ProofReport>), SatError> {
        let budget = Budget::start(limits);
        let report = Verified(self.clone()).unique(puzzle, limits)?;
        let proof = match &report.outcome {
            Outcome::Unsat => self.prove(puzzle, None, budget.deadline, dir, stem)?,
            Outcome::Unique(grid) => self.prove(puzzle, Some(grid), budget.deadline, dir, stem)?,
            _ => None,
        };
        Ok((report, proof))
    }

    /// Writes the formula (plus the clause blocking `solution`), refutes it with a proof, and
    /// checks the proof. `None` when the deadline stops the refutation.
    fn prove(
        &self,
        puzzle: &Grid,
        solution: Option<&Grid>,
        deadline: Option<Instant>,
        dir: &Path,
        stem: &str,
    ) -> Result<Option<ProofReport>, SatError> {
        let started = Instant::now();
        std::fs::create_dir_all(dir).map_err(|e| SatError::io(dir, e))?;
        let mut cnf = Cnf::new();
        let encoded = encode(puzzle, self.options, &mut cnf);
        let mut comments = cnf_comments(puzzle, self.options, &encoded);
        let claim = match solution {
            None => {
                comments.push("claim: unsatisfiable (the puzzle has no solution)".into());
                ProofClaim::Unsat
            }
            Some(grid) => {
                let clause = blocking_clause(puzzle, &encoded.map, grid);
                cnf.add_clause(&clause);
                comments.push(format!(
                    "claim: unsatisfiable with the last clause, which blocks the solution {}",
                    crate::text::to_text(grid)
                ));
                ProofClaim::Unique
            }
        };
        let cnf_path = dir.join(format!("{stem}.cnf"));
        let proof_path = dir.join(format!("{stem}.varisat"));
        let lrat_path = dir.join(format!("{stem}.lrat"));
        let file = File::create(&cnf_path).map_err(|e| SatError::io(&cnf_path, e))?;
        write_formula(&cnf, &comments, BufWriter::new(file))
            .map_err(|e| SatError::io(&cnf_path, e))?;

        let solve_started = Instant::now();
        {
            let file = File::create(&proof_path).map_err(|e| SatError::io(&proof_path, e))?;
            let mut solver = varisat::Solver::new();
            solver.write_proof(
                Deadline {
                    inner: BufWriter::new(file),
                    deadline,
                },
                ProofFormat::Varisat,
            );
            cnf.replay(&mut SatSink::new(&mut solver));
            match solver.solve() {
                Ok(false) => {}
                Ok(true) => return Err(SatError::ProofRun { claim }),
                Err(_) if past(deadline) => return Ok(None),
                Err(e) => return Err(SatError::io(&proof_path, io::Error::other(e.to_string()))),
            }
            solver
                .close_proof()
                .map_err(|e| SatError::io(&proof_path, io::Error::other(e.to_string())))?;
        }
        let solve_time = solve_started.elapsed();
        let check_started = Instant::now();
        check_proof(&cnf_path, &proof_path, Some(&lrat_path))?;
        Ok(Some(ProofReport {
            claim,
            cnf: cnf_path,
            proof: proof_path,
            lrat: lrat_path,
            solve_time,
            check_time: check_started.elapsed(),
            total_time: started.elapsed(),
        }))
    }
}

/// `sat`, `sat:ENCODING` or `sat:ENCODING:AMO`.
impl FromStr for Sat {
    type Err = String;

    fn from_str(spec: &str) -> Result<Sat, String> {
        let mut parts = spec.split(':');
        if parts.next() != Some("sat") {
            return Err(format!(
                "'{spec}' is not a sat backend (sat[:ENCODING[:AMO]])"
            ));
        }
        let mut options = DEFAULT_OPTIONS;
        if let Some(encoding) = parts.next() {
            options.encoding = encoding.parse()?;
        }
        if let Some(amo) = parts.next() {
            options.amo = amo.parse()?;
        }
        if parts.next().is_some() {
            return Err(format!(
                "'{spec}' has too many parts (sat[:ENCODING[:AMO]])"
            ));
        }
        Ok(Sat::new(options))
    }
}

impl Solver for Sat {
    fn name(&self) -> &str {
        &self.name
    }

    /// 36 with pairwise AMO, 64 with the others (the formula's size, not the search, is the
    /// bound: see the constants).
    fn max_order(&self) -> usize {
        match self.options.amo {
            Amo::Pairwise => MAX_ORDER_PAIRWISE,
            _ => MAX_ORDER_LINEAR_AMO,
        }
    }

    fn count(&self, puzzle: &Grid, limit: u64, limits: &Limits) -> Result<CountReport, SolveError> {
        check_order(self, puzzle)?;
        let budget = Budget::start(limits);
        let mut solver = varisat::Solver::new();
        if budget.deadline.is_some() {
            solver.write_proof(
                Deadline {
                    inner: io::sink(),
                    deadline: budget.deadline,
                },
                ProofFormat::Varisat,
            );
        }
        let encoded = encode(puzzle, self.options, &mut SatSink::new(&mut solver));
        let mut report = CountReport::default();
        while report.count < limit {
            if let Some(reason) = out_of_budget(&budget, report.stats.nodes) {
                report.stopped = Some(reason);
                break;
            }
            report.stats.nodes += 1;
            match solver.solve() {
                Ok(true) => {
                    let model = model_of(&solver);
                    let grid = decode_lenient(puzzle, &encoded.map, &model);
                    report.count += 1;
                    let clause = blocking_clause(puzzle, &encoded.map, &grid);
                    if report.solutions.len() < 2 {
                        report.solutions.push(grid);
                    }
                    SatSink::new(&mut solver).add_clause(&clause);
                }
                Ok(false) => break,
                // The only error source is the deadline writer (no proof processor, no file).
                Err(_) => {
                    report.stopped = Some(StopReason::TimeLimit);
                    break;
                }
            }
        }
        report.hit_limit = report.stopped.is_none() && report.count >= limit;
        report.stats.elapsed = budget.elapsed();
        Ok(report)
    }
}

/// Why to stop before SAT call number `calls + 1`, if a budget ran out.
fn out_of_budget(budget: &Budget, calls: u64) -> Option<StopReason> {
    if budget.nodes.is_some_and(|max| calls >= max) {
        return Some(StopReason::NodeLimit);
    }
    past(budget.deadline).then_some(StopReason::TimeLimit)
}

fn past(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|d| Instant::now() >= d)
}

/// The clause that excludes `solution`: some open cell takes another value. Over the x
/// variables of the open cells only (given cells are fixed; auxiliary variables are not
/// functions of the grid). Empty when no cell is open.
pub fn blocking_clause(puzzle: &Grid, map: &VarMap, solution: &Grid) -> Vec<Lit> {
    let shape = puzzle.shape();
    (0..shape.cells())
        .filter(|&cell| puzzle.get(cell).is_none())
        .filter_map(|cell| {
            let v = solution.get(cell)?;
            map.var(shape.row_of(cell), shape.col_of(cell), v)
                .map(Var::negative)
        })
        .collect()
}

/// The grid of a model. A cell the model leaves without exactly one true value is left empty,
/// so the certificate verifier rejects the grid (this would be a solver bug).
fn decode_lenient(puzzle: &Grid, map: &VarMap, model: &Model) -> Grid {
    let shape = puzzle.shape();
    let n = shape.order();
    let mut grid = puzzle.clone();
    for cell in (0..shape.cells()).filter(|&cell| puzzle.get(cell).is_none()) {
        let (r, c) = (shape.row_of(cell), shape.col_of(cell));
        let mut values = (0..n).filter(|&v| map.var(r, c, v).is_some_and(|x| model.is_true(x)));
        let value = match (values.next(), values.next()) {
            (Some(v), None) => Some(v),
            _ => None,
        };
        grid.set(cell, value);
    }
    grid
}

/// The model of the last successful call, in sudokit's literals.
fn model_of(solver: &varisat::Solver) -> Model {
    Model::from_lits(
        solver
            .model()
            .unwrap_or_default()
            .into_iter()
            .map(from_varisat),
    )
}

fn to_varisat(lit: Lit) -> varisat::Lit {
    varisat::Lit::from_index(lit.var().index(), !lit.is_negative())
}

fn from_varisat(lit: varisat::Lit) -> Lit {
    let var = Var::from_index(lit.index());
    if lit.is_negative() {
        var.negative()
    } else {
        var.positive()
    }
}

/// The varisat side of [`ClauseSink`]: encoders write straight into a solver.
///
/// Variables are handed out by the solver, 0-based and in order, as the sink contract asks;
/// literals are converted through a scratch buffer (no allocation per clause).
pub struct SatSink<'s, 'a> {
    solver: &'s mut varisat::Solver<'a>,
    scratch: Vec<varisat::Lit>,
}

impl<'s, 'a> SatSink<'s, 'a> {
    /// A sink adding to `solver`.
    pub fn new(solver: &'s mut varisat::Solver<'a>) -> SatSink<'s, 'a> {
        SatSink {
            solver,
            scratch: Vec::new(),
        }
    }
}

impl ClauseSink for SatSink<'_, '_> {
    fn new_var(&mut self) -> Var {
        Var::from_index(self.solver.new_var().index())
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.scratch.clear();
        self.scratch.extend(clause.iter().map(|&l| to_varisat(l)));
        self.solver.add_clause(&self.scratch);
    }
}

/// A proof-trace writer that fails once the deadline has passed: varisat then stops the solve.
struct Deadline<W: Write> {
    inner: W,
    deadline: Option<Instant>,
}

impl<W: Write> Write for Deadline<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if past(self.deadline) {
            return Err(io::Error::other("time limit"));
        }
        self.inner.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// What a proof shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProofClaim {
    /// The puzzle's formula is unsatisfiable: no solution.
    Unsat,
    /// The formula plus the clause blocking the found solution is unsatisfiable: no second one.
    Unique,
}

/// A written and checked proof.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofReport {
    /// What the proof shows.
    pub claim: ProofClaim,
    /// The refuted formula (DIMACS).
    pub cnf: PathBuf,
    /// The proof in varisat's native format, as the solver wrote it.
    pub proof: PathBuf,
    /// The same refutation as textual LRAT, written by the checker.
    pub lrat: PathBuf,
    /// Time of the proof-writing solve.
    pub solve_time: Duration,
    /// Time of the check.
    pub check_time: Duration,
    /// Time of the whole proof step (encoding, writing, solving, checking).
    pub total_time: Duration,
}

/// Why a proof could not be produced or was rejected.
#[derive(Debug, Error)]
pub enum SatError {
    /// The solve itself failed.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// A file could not be written or read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// The proof run found a model where the first run found none (a solver bug).
    #[error("the proof run found a model of a formula claimed {claim:?}")]
    ProofRun {
        /// What was to be proven.
        claim: ProofClaim,
    },
    /// The checker rejected the proof.
    #[error("proof rejected: {0}")]
    ProofRejected(String),
}

impl SatError {
    fn io(path: &Path, source: io::Error) -> SatError {
        SatError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Records whether the checked proof ends in a refutation.
#[derive(Default)]
struct Refuted(bool);

impl ProofTranscriptProcessor for Refuted {
    fn process_step(&mut self, step: &ProofTranscriptStep) -> Result<(), anyhow::Error> {
        // A derived empty clause, or an empty clause in the formula itself (the optimized
        // encoding writes one when the givens leave a cell or a unit without a place).
        match step {
            ProofTranscriptStep::Unsat => self.0 = true,
            ProofTranscriptStep::AddClause { clause: [] } => self.0 = true,
            _ => {}
        }
        Ok(())
    }
}

/// Checks that the varisat-format `proof` refutes the DIMACS formula `cnf`, with varisat's
/// checker, and writes the checked refutation as textual LRAT to `lrat` when given.
///
/// # Errors
/// [`SatError::Io`] when a file cannot be read or written; [`SatError::ProofRejected`] when a
/// step does not check, the file is not a proof, or the proof does not end in a refutation.
pub fn check_proof(cnf: &Path, proof: &Path, lrat: Option<&Path>) -> Result<(), SatError> {
    let cnf_file = File::open(cnf).map_err(|e| SatError::io(cnf, e))?;
    let proof_file = File::open(proof).map_err(|e| SatError::io(proof, e))?;
    let mut writer = match lrat {
        Some(path) => {
            let file = File::create(path).map_err(|e| SatError::io(path, e))?;
            Some(varisat_lrat::WriteLrat::new(BufWriter::new(file), false))
        }
        None => None,
    };
    let mut refuted = Refuted::default();
    {
        let mut checker = Checker::new();
        if let Some(w) = writer.as_mut() {
            checker.add_processor(w);
        }
        checker.add_transcript(&mut refuted);
        checker
            .add_dimacs_cnf(BufReader::new(cnf_file))
            .map_err(|e| SatError::ProofRejected(format!("{}: {e}", cnf.display())))?;
        checker
            .check_proof(BufReader::new(proof_file))
            .map_err(|e: CheckerError| {
                SatError::ProofRejected(format!("{}: {e}", proof.display()))
            })?;
    }
    drop(writer);
    if !refuted.0 {
        return Err(SatError::ProofRejected(format!(
            "{}: the proof does not refute {}",
            proof.display(),
            cnf.display()
        )));
    }
    Ok(())
}

/// The answer of [`solve_cnf`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CnfAnswer {
    /// A satisfying assignment (every variable of the formula set).
    Sat(Model),
    /// The formula is unsatisfiable.
    Unsat,
    /// The time limit ran out (or a node limit of 0 forbade the one call).
    Unknown(StopReason),
}

/// Solves an in-memory formula with varisat: one SAT call, bounded by `limits` as the module
/// docs describe.
///
/// # Complexity
/// Loading is linear in the formula; the search is CDCL.
///
/// # Examples
/// ```
/// use sudokit::encode::{ClauseSink, Cnf};
/// use sudokit::solve::{Limits, sat::{solve_cnf, CnfAnswer}};
/// let mut cnf = Cnf::new();
/// let (a, b) = (cnf.new_var(), cnf.new_var());
/// cnf.add_clause(&[a.positive(), b.positive()]);
/// cnf.add_clause(&[a.negative()]);
/// match solve_cnf(&cnf, &Limits::none()) {
///     CnfAnswer::Sat(model) => assert!(model.is_true(b) && !model.is_true(a)),
///     other => panic!("{other:?}"),
/// }
/// cnf.add_clause(&[b.negative()]);
/// assert_eq!(solve_cnf(&cnf, &Limits::none()), CnfAnswer::Unsat);
/// ```
pub fn solve_cnf(cnf: &Cnf, limits: &Limits) -> CnfAnswer {
    let budget = Budget::start(limits);
    if let Some(reason) = out_of_budget(&budget, 0) {
        return CnfAnswer::Unknown(reason);
    }
    let mut solver = varisat::Solver::new();
    if budget.deadline.is_some() {
        solver.write_proof(
            Deadline {
                inner: io::sink(),
                deadline: budget.deadline,
            },
            ProofFormat::Varisat,
        );
    }
    cnf.replay(&mut SatSink::new(&mut solver));
    match solver.solve() {
        Ok(true) => CnfAnswer::Sat(model_of(&solver)),
        Ok(false) => CnfAnswer::Unsat,
        Err(_) => CnfAnswer::Unknown(StopReason::TimeLimit),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Shape;
    use crate::text::parse_line;

    #[test]
    fn names_and_specs_parse_back() {
        assert_eq!("sat".parse::<Sat>().unwrap(), Sat::default());
        for encoding in Encoding::ALL {
            for amo in Amo::ALL {
                let sat = Sat::new(CnfOptions { encoding, amo });
                assert_eq!(sat.name().parse::<Sat>().unwrap(), sat);
            }
        }
        assert_eq!(
            "sat:minimal".parse::<Sat>().unwrap().options().amo,
            DEFAULT_OPTIONS.amo
        );
        assert!("sat:fast".parse::<Sat>().unwrap_err().contains("minimal"));
        assert!("sat:minimal:pairwise:x".parse::<Sat>().is_err());
        assert!("dlx".parse::<Sat>().is_err());
    }

    #[test]
    fn the_sink_numbers_variables_as_the_encoders_expect() {
        let mut solver = varisat::Solver::new();
        let mut sink = SatSink::new(&mut solver);
        for i in 0..5 {
            assert_eq!(sink.new_var(), Var::from_index(i));
        }
        // a ∨ ¬b, b: the only model has a and b true.
        let (a, b) = (Var::from_index(0), Var::from_index(1));
        sink.add_clause(&[a.positive(), b.negative()]);
        sink.add_clause(&[b.positive()]);
        assert_eq!(solver.solve().ok(), Some(true));
        let model = model_of(&solver);
        assert!(model.is_true(a) && model.is_true(b));
        assert_eq!(from_varisat(to_varisat(a.negative())), a.negative());
    }

    #[test]
    fn the_blocking_clause_names_the_open_cells_of_the_solution() {
        let puzzle = parse_line("...3..4114..3...", None).unwrap();
        let Answer::Solved(solution) = crate::solve::Native
            .solve(&puzzle, &Limits::none())
            .unwrap()
            .answer
        else {
            panic!("the puzzle has a solution")
        };
        for encoding in [Encoding::Extended, Encoding::Optimized] {
            let mut cnf = Cnf::new();
            let e = encode(
                &puzzle,
                CnfOptions {
                    encoding,
                    amo: Amo::Pairwise,
                },
                &mut cnf,
            );
            let clause = blocking_clause(&puzzle, &e.map, &solution);
            assert_eq!(clause.len(), 16 - puzzle.filled(), "{encoding}");
            assert!(clause.iter().all(|l| l.is_negative()));
            // The solution falsifies it; the formula plus it has no model left (unique puzzle).
            let model = Model::from_lits(clause.iter().map(|l| l.negate()));
            assert!(clause.iter().all(|l| model.is_true(l.var())));
            cnf.add_clause(&clause);
            assert_eq!(solve_cnf(&cnf, &Limits::none()), CnfAnswer::Unsat);
        }
    }

    #[test]
    fn counting_blocks_each_grid_once_whatever_the_amo() {
        // Sequential and product AMO leave auxiliary variables free: blocking on x only
        // still counts grids, not models.
        let empty = Grid::empty(Shape::sudoku(2, 2).unwrap());
        for amo in Amo::ALL {
            let sat = Sat::new(CnfOptions {
                encoding: Encoding::Minimal,
                amo,
            });
            let report = sat.count(&empty, u64::MAX, &Limits::none()).unwrap();
            assert_eq!((report.count, report.complete()), (288, true), "{amo}");
            assert_eq!(report.stats.nodes, 289);
        }
    }

    #[test]
    fn a_node_limit_bounds_the_calls() {
        let empty = Grid::empty(Shape::sudoku(2, 2).unwrap());
        let limits = Limits {
            time: None,
            nodes: Some(7),
        };
        let report = Sat::default().count(&empty, u64::MAX, &limits).unwrap();
        assert_eq!(report.stopped, Some(StopReason::NodeLimit));
        assert_eq!((report.count, report.stats.nodes), (7, 7));
        let cnf = Cnf::with_vars(1);
        let zero = Limits {
            time: None,
            nodes: Some(0),
        };
        assert_eq!(
            solve_cnf(&cnf, &zero),
            CnfAnswer::Unknown(StopReason::NodeLimit)
        );
    }
}
