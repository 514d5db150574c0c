//! Uniqueness and unsatisfiability proofs of the `sat` backend, checked before they are
//! reported.
//!
//! For `unsat` the formula F of the puzzle, for `unique` with solution s the formula F plus the
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
//! rate DIR/STEM.cnf DIR/STEM.drat             # a DRAT checker (cargo install rate)
//! ```
//!
//! With `sat:cadical` (feature `cadical`) the refutation comes from CaDiCaL's proof tracer as
//! textual LRAT (the formula's clauses numbered 1..m as in `DIR/STEM.cnf`), written straight to
//! `DIR/STEM.lrat` and checked by [`check_lrat_file`] (the in-process LRAT checker of
//! [`crate::proof::lrat`]); there is no `.varisat` file. The same external checkers then apply.
//!
//! `DIR/STEM.drat` holds the same steps as DRAT (the LRAT clauses without their hints). The
//! formula written never holds an empty clause: where the chosen encoding would write one (the
//! optimized encoding, when the givens leave a cell or a unit's value without a place) the
//! extended encoding is written instead, so the empty clause is derived by a step an external
//! checker follows. An empty LRAT file for an input that already holds the empty clause is
//! rejected by `lrat-check`.
//!
//! Every file is created without following a link or blocking on a FIFO of the same name
//! ([`crate::external::files`]): a FIFO or a device where a proof file goes is refused.
//!
//! A uniqueness proof together with the verified solution settles uniqueness: the solution
//! satisfies F (the verifier checked it), and F plus its blocking clause has no model.
//!
//! # Complexity
//! Writing is linear in the formula; checking is linear in the proof size times the cost of
//! unit propagation.
//!
//! # References
//! - N. Wetzler, M. Heule, W. Hunt, "DRAT-trim: efficient checking and trimming using
//!   expressive clausal proofs", SAT 2014; L. Cruz-Filipe et al., "Efficient certified RAT
//!   verification", CADE 2017 (LRAT).
//! - J. Fleischmann, varisat (the solver, its proof format and checker).

use std::io::{self, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use thiserror::Error;
use varisat_checker::{Checker, CheckerError, ProofTranscriptProcessor, ProofTranscriptStep};

use super::solver::{SatSink, proving_solver};
use super::{Sat, SatSolver, blocking_clause};
use crate::encode::cnf::{CnfOptions, Encoded, Encoding, VarMap, encode};
use crate::encode::{ClauseSink, Cnf, Lit, Var};
use crate::external::files::{create_regular, open_regular};
use crate::format::dimacs::{cnf_comments, write_formula};
use crate::grid::Grid;
use crate::proof::lrat::check_lrat;
use crate::search::Budget;
use crate::solve::SolveError;

impl Sat {
    /// Writes the formula (plus the clause blocking `solution`), refutes it with a proof, and
    /// checks the proof. `None` when the budget stops the refutation.
    pub(super) fn prove(
        &self,
        puzzle: &Grid,
        solution: Option<&Grid>,
        budget: &Budget,
        dir: &Path,
        stem: &str,
    ) -> Result<Option<ProofReport>, SatError> {
        let started = Instant::now();
        if dir.exists() && !dir.is_dir() {
            return Err(SatError::io(
                dir,
                io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    "not a directory: proofs go into a directory (give a new name or a directory)",
                ),
            ));
        }
        std::fs::create_dir_all(dir).map_err(|e| SatError::io(dir, e))?;
        let (options, mut cnf, encoded) = proof_formula(puzzle, self.options(), solution);
        let mut comments = cnf_comments(puzzle, options, &encoded);
        let claim = match solution {
            None => {
                comments.push("claim: unsatisfiable (the puzzle has no solution)".into());
                ProofClaim::Unsat
            }
            Some(grid) => {
                let clause = proof_blocking_clause(puzzle, &encoded.map, grid);
                cnf.add_clause(&clause);
                comments.push(format!(
                    "claim: unsatisfiable with the last clause, which blocks the solution {}",
                    crate::text::to_text(grid)
                ));
                ProofClaim::Unique
            }
        };
        let cnf_path = dir.join(format!("{stem}.cnf"));
        let lrat_path = dir.join(format!("{stem}.lrat"));
        let drat_path = dir.join(format!("{stem}.drat"));
        let file = create_regular(&cnf_path).map_err(|e| SatError::io(&cnf_path, e))?;
        write_formula(&cnf, &comments, BufWriter::new(file))
            .map_err(|e| SatError::io(&cnf_path, e))?;

        let solve_started = Instant::now();
        let (proof, solve_time, check_started) = match self.solver() {
            SatSolver::Varisat => {
                let proof_path = dir.join(format!("{stem}.varisat"));
                let file = create_regular(&proof_path).map_err(|e| SatError::io(&proof_path, e))?;
                let mut solver = proving_solver(budget, BufWriter::new(file));
                cnf.replay(&mut SatSink::new(&mut solver));
                match solver.solve() {
                    Ok(false) => {}
                    Ok(true) => return Err(SatError::ProofRun { claim }),
                    Err(_) if budget.interrupted().is_some() => return Ok(None),
                    Err(e) => {
                        return Err(SatError::io(&proof_path, io::Error::other(e.to_string())));
                    }
                }
                solver
                    .close_proof()
                    .map_err(|e| SatError::io(&proof_path, io::Error::other(e.to_string())))?;
                let solve_time = solve_started.elapsed();
                let check_started = Instant::now();
                check_proof(&cnf_path, &proof_path, Some(&lrat_path))?;
                (proof_path, solve_time, check_started)
            }
            #[cfg(feature = "cadical")]
            SatSolver::Cadical => {
                let clauses = cnf.clauses().count();
                let mut solver = super::cadical::Cadical::proving(budget, &lrat_path, clauses)
                    .map_err(|e| SatError::io(&lrat_path, e))?;
                cnf.replay(&mut solver);
                match solver.solve() {
                    Some(false) => {}
                    Some(true) => return Err(SatError::ProofRun { claim }),
                    None => return Ok(None),
                }
                solver.close().map_err(|e| SatError::io(&lrat_path, e))?;
                let solve_time = solve_started.elapsed();
                let check_started = Instant::now();
                check_lrat_file(&cnf, &lrat_path)?;
                (lrat_path.clone(), solve_time, check_started)
            }
        };
        write_drat(&cnf, &lrat_path, &drat_path)?;
        Ok(Some(ProofReport {
            claim,
            cnf: cnf_path,
            proof,
            lrat: lrat_path,
            drat: drat_path,
            solve_time,
            check_time: check_started.elapsed(),
            total_time: started.elapsed(),
        }))
    }
}

/// The formula of a proof: the puzzle's encoding, or the extended encoding when the chosen one
/// would hold an empty clause (the optimized encoding writes one when the givens leave a cell or
/// a unit's value without a place) or, for a uniqueness claim, when no cell is open (the clause
/// blocking the solution would be empty). An LRAT checker wants the empty clause derived, not
/// given: with the extended encoding unit propagation derives it, and the proof has its step.
fn proof_formula(
    puzzle: &Grid,
    options: CnfOptions,
    solution: Option<&Grid>,
) -> (CnfOptions, Cnf, Encoded) {
    let mut cnf = Cnf::new();
    let encoded = encode(puzzle, options, &mut cnf);
    let no_open_cell = solution.is_some() && puzzle.filled() == puzzle.shape().cells();
    let empty_blocking_clause = no_open_cell && options.encoding == Encoding::Optimized;
    if !(encoded.trivially_unsat || empty_blocking_clause) {
        return (options, cnf, encoded);
    }
    let options = CnfOptions {
        encoding: Encoding::Extended,
        ..options
    };
    let mut cnf = Cnf::new();
    let encoded = encode(puzzle, options, &mut cnf);
    (options, cnf, encoded)
}

/// The clause blocking `solution`: over the open cells ([`blocking_clause`]), or over every
/// cell when none is open (the givens' unit clauses then refute it by propagation).
fn proof_blocking_clause(puzzle: &Grid, map: &VarMap, solution: &Grid) -> Vec<Lit> {
    let clause = blocking_clause(puzzle, map, solution);
    if !clause.is_empty() {
        return clause;
    }
    let shape = puzzle.shape();
    (0..shape.cells())
        .filter_map(|cell| {
            let v = solution.get(cell)?;
            map.var(shape.row_of(cell), shape.col_of(cell), v)
                .map(Var::negative)
        })
        .collect()
}

/// Writes the LRAT refutation `lrat` of `cnf` as DRAT: each added clause without its id and
/// hints, each deletion by its literals. The input clauses are numbered 1.. in `cnf`'s order,
/// as in the CNF file.
fn write_drat(cnf: &Cnf, lrat: &Path, drat: &Path) -> Result<(), SatError> {
    let text = std::fs::read_to_string(lrat).map_err(|e| SatError::io(lrat, e))?;
    let mut clauses: Vec<Vec<i64>> = cnf
        .clauses()
        .map(|c| c.iter().map(|l| l.to_dimacs()).collect())
        .collect();
    let bad = |line: usize| SatError::ProofRejected(format!("{}:{line}: not LRAT", lrat.display()));
    let mut out = BufWriter::new(create_regular(drat).map_err(|e| SatError::io(drat, e))?);
    for (number, line) in text.lines().enumerate() {
        let mut fields = line.split_ascii_whitespace();
        let Some(id) = fields.next().and_then(|f| f.parse::<usize>().ok()) else {
            continue;
        };
        let mut fields = fields.peekable();
        let written = if fields.peek() == Some(&"d") {
            fields.next();
            let mut text = String::new();
            for id in fields
                .map_while(|f| f.parse::<usize>().ok())
                .take_while(|&i| i != 0)
            {
                let clause = id.checked_sub(1).and_then(|i| clauses.get(i));
                text.push('d');
                for lit in clause.ok_or_else(|| bad(number + 1))? {
                    text.push_str(&format!(" {lit}"));
                }
                text.push_str(" 0\n");
            }
            text
        } else {
            let lits: Vec<i64> = fields
                .map_while(|f| f.parse::<i64>().ok())
                .take_while(|&l| l != 0)
                .collect();
            if clauses.len() < id {
                clauses.resize(id, Vec::new());
            }
            let text = lits.iter().map(|l| format!("{l} ")).collect::<String>() + "0\n";
            clauses[id - 1] = lits;
            text
        };
        out.write_all(written.as_bytes())
            .map_err(|e| SatError::io(drat, e))?;
    }
    out.flush().map_err(|e| SatError::io(drat, e))
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
    /// The proof as the solver wrote it: varisat's native format (`STEM.varisat`), or for
    /// `sat:cadical` the LRAT file itself.
    pub proof: PathBuf,
    /// The same refutation as textual LRAT, written by the checker.
    pub lrat: PathBuf,
    /// The same refutation as DRAT (the LRAT steps without their hints), for DRAT checkers.
    pub drat: PathBuf,
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

/// Checks that the textual LRAT proof at `lrat` refutes `cnf` ([`check_lrat`]).
///
/// # Errors
/// [`SatError::Io`] when the proof cannot be read; [`SatError::ProofRejected`] with the step
/// that does not check.
pub fn check_lrat_file(cnf: &Cnf, lrat: &Path) -> Result<(), SatError> {
    let clauses: Vec<Vec<i64>> = cnf
        .clauses()
        .map(|c| c.iter().map(|l| l.to_dimacs()).collect())
        .collect();
    let file = open_regular(lrat).map_err(|e| SatError::io(lrat, e))?;
    check_lrat(&clauses, BufReader::new(file))
        .map_err(|e| SatError::ProofRejected(format!("{}: {e}", lrat.display())))
}

/// Checks that the varisat-format `proof` refutes the DIMACS formula `cnf`, with varisat's
/// checker, and writes the checked refutation as textual LRAT to `lrat` when given.
///
/// # Errors
/// [`SatError::Io`] when a file cannot be read or written; [`SatError::ProofRejected`] when a
/// step does not check, the file is not a proof, or the proof does not end in a refutation.
pub fn check_proof(cnf: &Path, proof: &Path, lrat: Option<&Path>) -> Result<(), SatError> {
    let cnf_file = open_regular(cnf).map_err(|e| SatError::io(cnf, e))?;
    let proof_file = open_regular(proof).map_err(|e| SatError::io(proof, e))?;
    let mut writer = match lrat {
        Some(path) => {
            let file = create_regular(path).map_err(|e| SatError::io(path, e))?;
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
