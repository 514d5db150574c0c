//! `sat`: the CNF encodings of [`crate::encode::cnf`] solved by the varisat CDCL solver, with
//! counting by blocking clauses and uniqueness proofs checked by varisat's proof checker.
//!
//! # How it works
//! The puzzle is encoded straight into a `varisat::Solver` through [`SatSink`], the varisat side
//! of [`ClauseSink`] (the same encoder feeds the DIMACS writer and the in-memory [`Cnf`](crate::encode::Cnf)). Each
//! model is decoded with the encoding's [`VarMap`] and checked by the certificate verifier.
//! Counting adds, after each solution `s`, the blocking clause `∨ ¬x(r,c,s(r,c))` over the open
//! (non-given) cells' x variables only: auxiliary AMO variables are not always determined by the
//! grid (Sinz's counter leaves some free), so blocking them would count one grid several times.
//! The solver is incremental: learnt clauses survive from one solution to the next.
//!
//! # Names
//! `sat` is Kwon & Jain's extended encoding with pairwise AMO: sudokit's one CNF default, so
//! `sat`, `export --to cnf`, `decode` and `reduce latin --to cnf` all mean the same formula (the
//! standard numbering x(r,c,v) = (r−1)n² + (c−1)n + v, sizes given by closed formulas that the
//! reductions predict and check). The fastest choice is [`FASTEST_OPTIONS`], `sat:optimized`
//! (optimized encoding, pairwise AMO: about 3 times faster on `top95`, measured with
//! `sudokit bench models/sudoku/9x9/top95.txt --backends sat,sat:optimized --threads 1`); the
//! `native` backend's CDCL stage uses it.
//! `sat:ENCODING` and `sat:ENCODING:AMO` name any other choice, e.g. `sat:minimal:pairwise`.
//! [`Sat::name`] is `sat` for the default and `sat:ENCODING:AMO` otherwise.
//!
//! With the cargo feature `cadical`, `sat:cadical`, `sat:cadical:ENCODING` and
//! `sat:cadical:ENCODING:AMO` solve the same formulas with CaDiCaL 2.2.1 in process ([`SatSolver`]):
//! the same counting loop, its time limit through CaDiCaL's terminate callback, and its proofs
//! as LRAT from CaDiCaL's proof tracer, checked by [`crate::proof::lrat`] (see [`proof`]). That build also
//! uses CaDiCaL for `native`'s CDCL stage and for generation's removal test from order 25
//! ([`SatSolver::FASTEST`]; see `generate::well_posed::CADICAL_FROM_ORDER`). Without the feature, `sat:cadical` is an error that says how to
//! rebuild.
//!
//! # Limits and counters
//! - a **node** of this backend is one SAT call (the first call, then one per blocking clause);
//!   [`Limits::nodes`] bounds the calls and so the solutions enumerated, checked before each
//!   call and never exceeded. It does not bound the work inside one call;
//! - the **time** limit and the stop token are checked before each call and, inside a call, as
//!   [`solver`] describes;
//! - [`Stats::nodes`](crate::solve::Stats::nodes) is the SAT calls; `guesses` and
//!   `propagations` stay 0 because varisat does not report its decisions or propagations.
//!
//! # Proofs
//! [`Sat::unique_with_proof`] and [`Sat::solve_with_proof`] back a negative claim with a proof
//! checked before it is reported; see [`proof`].
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

#[cfg(feature = "cadical")]
mod cadical;
#[cfg(feature = "cadical")]
pub(crate) mod incremental;

pub mod proof;
pub mod solver;

use std::path::Path;
use std::str::FromStr;

pub use crate::encode::cnf::blocking_clause;
use crate::encode::cnf::{Amo, CnfOptions, Encoding, VarMap, encode};
use crate::encode::{ClauseSink, Lit, Model};
use crate::grid::Grid;
use crate::solve::{
    Answer, Budget, CountReport, Limits, Outcome, SolveError, SolveReport, Solver, UniqueReport,
    Verified,
};

pub use proof::{ProofClaim, ProofReport, SatError, check_lrat_file, check_proof};
pub use solver::{CnfAnswer, SatSink, solve_cnf};
use solver::{bounded_solver, model_of, out_of_budget, stop_reason};

/// The default choice of `sat`, and sudokit's one CNF default: Kwon & Jain's extended encoding,
/// pairwise AMO (see the module docs).
pub const DEFAULT_OPTIONS: CnfOptions = CnfOptions {
    encoding: Encoding::Extended,
    amo: Amo::Pairwise,
};

/// The fastest choice measured: Kwon & Jain's optimized encoding, pairwise AMO (see the module
/// docs).
pub const FASTEST_OPTIONS: CnfOptions = CnfOptions {
    encoding: Encoding::Optimized,
    amo: Amo::Pairwise,
};

/// The largest order with pairwise AMO (O(n⁴) clauses: 3.3 million at 36).
pub const MAX_ORDER_PAIRWISE: usize = 36;

/// The largest order with the O(n³) AMO encodings (3.1 million clauses at 64, sequential).
pub const MAX_ORDER_LINEAR_AMO: usize = 64;

/// The CDCL solver of a [`Sat`] backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SatSolver {
    /// varisat (pure Rust; its proofs in its own format, checked by varisat-checker).
    #[default]
    Varisat,
    /// CaDiCaL 2.2.1 in process (feature `cadical`; proofs in LRAT, checked by [`crate::proof::lrat`]).
    #[cfg(feature = "cadical")]
    Cadical,
}

impl SatSolver {
    /// The fastest solver of this build: CaDiCaL with the feature `cadical`, else varisat.
    pub const FASTEST: SatSolver = {
        #[cfg(feature = "cadical")]
        {
            SatSolver::Cadical
        }
        #[cfg(not(feature = "cadical"))]
        {
            SatSolver::Varisat
        }
    };
}

/// The `sat` backend: one CNF encoding and AMO choice, solved by varisat (`sat`) or CaDiCaL
/// (`sat:cadical`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sat {
    options: CnfOptions,
    solver: SatSolver,
    name: String,
}

impl Default for Sat {
    /// [`DEFAULT_OPTIONS`].
    fn default() -> Sat {
        Sat::new(DEFAULT_OPTIONS)
    }
}

impl Sat {
    /// The backend for an encoding and AMO choice, solved by varisat.
    pub fn new(options: CnfOptions) -> Sat {
        Sat::with_solver(options, SatSolver::Varisat)
    }

    /// The backend for an encoding and AMO choice, solved by `solver`.
    pub fn with_solver(options: CnfOptions, solver: SatSolver) -> Sat {
        let prefix = match solver {
            SatSolver::Varisat => "sat",
            #[cfg(feature = "cadical")]
            SatSolver::Cadical => "sat:cadical",
        };
        let name = if options == DEFAULT_OPTIONS {
            prefix.to_string()
        } else {
            format!("{prefix}:{}:{}", options.encoding, options.amo)
        };
        Sat {
            options,
            solver,
            name,
        }
    }

    /// The CDCL solver.
    pub fn solver(&self) -> SatSolver {
        self.solver
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
            Answer::Unsat => self.prove(puzzle, None, &budget, dir, stem)?,
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
            Outcome::Unsat => self.prove(puzzle, None, &budget, dir, stem)?,
            Outcome::Unique(grid) => self.prove(puzzle, Some(grid), &budget, dir, stem)?,
            _ => None,
        };
        Ok((report, proof))
    }
}

/// `sat`, `sat:ENCODING` or `sat:ENCODING:AMO`, each optionally with `cadical` after `sat:`.
impl FromStr for Sat {
    type Err = String;

    fn from_str(spec: &str) -> Result<Sat, String> {
        let mut parts = spec.split(':').peekable();
        if parts.next() != Some("sat") {
            return Err(format!(
                "'{spec}' is not a sat backend (sat[:cadical][:ENCODING[:AMO]])"
            ));
        }
        let solver = if parts.next_if_eq(&"cadical").is_some() {
            #[cfg(feature = "cadical")]
            {
                SatSolver::Cadical
            }
            #[cfg(not(feature = "cadical"))]
            return Err(
                "CaDiCaL is not in this build (feature cadical); rebuild with: \
                 cargo build --release --features cadical"
                    .to_string(),
            );
        } else {
            SatSolver::Varisat
        };
        let mut options = DEFAULT_OPTIONS;
        if let Some(encoding) = parts.next() {
            options.encoding = encoding.parse()?;
        }
        if let Some(amo) = parts.next() {
            options.amo = amo.parse()?;
        }
        if parts.next().is_some() {
            return Err(format!(
                "'{spec}' has too many parts (sat[:cadical][:ENCODING[:AMO]])"
            ));
        }
        Ok(Sat::with_solver(options, solver))
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

    fn search(
        &self,
        puzzle: &Grid,
        limit: u64,
        limits: &Limits,
    ) -> Result<CountReport, SolveError> {
        match self.solver {
            SatSolver::Varisat => Ok(self.search_varisat(puzzle, limit, limits)),
            #[cfg(feature = "cadical")]
            SatSolver::Cadical => Ok(self.search_cadical(puzzle, limit, limits)),
        }
    }
}

impl Sat {
    /// [`Solver::search`] with varisat.
    fn search_varisat(&self, puzzle: &Grid, limit: u64, limits: &Limits) -> CountReport {
        let budget = Budget::start(limits);
        let mut solver = bounded_solver(&budget);
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
                    let clause = blocking_clause(puzzle, &encoded.map, &grid);
                    report.record(|| grid, limit);
                    SatSink::new(&mut solver).add_clause(&clause);
                }
                Ok(false) => break,
                // The only error source is the budget's trace writer (no proof processor).
                Err(_) => {
                    report.stopped = Some(stop_reason(&budget));
                    break;
                }
            }
        }
        report.hit_limit = report.stopped.is_none() && report.count >= limit;
        report.stats.elapsed = budget.elapsed();
        report
    }

    /// [`Solver::search`] with CaDiCaL: the same loop of calls and blocking clauses, CaDiCaL set
    /// for puzzles (`Cadical::for_puzzles`: its configuration `sat` without the light
    /// preprocessing, sweeping and chronological backtracking: about 1.9 times faster than its
    /// defaults on the hard 25×25 puzzles, and the last about 1.2 times more).
    #[cfg(feature = "cadical")]
    fn search_cadical(&self, puzzle: &Grid, limit: u64, limits: &Limits) -> CountReport {
        let budget = Budget::start(limits);
        let mut solver = cadical::Cadical::for_puzzles(&budget);
        let encoded = encode(puzzle, self.options, &mut solver);
        let mut report = CountReport::default();
        while report.count < limit {
            if let Some(reason) = out_of_budget(&budget, report.stats.nodes) {
                report.stopped = Some(reason);
                break;
            }
            report.stats.nodes += 1;
            match solver.solve() {
                Some(true) => {
                    let grid = decode_lenient(puzzle, &encoded.map, &solver.model());
                    let clause = blocking_clause(puzzle, &encoded.map, &grid);
                    report.record(|| grid, limit);
                    solver.add_clause(&clause);
                }
                Some(false) => break,
                None => {
                    report.stopped = Some(stop_reason(&budget));
                    break;
                }
            }
        }
        report.hit_limit = report.stopped.is_none() && report.count >= limit;
        report.stats.elapsed = budget.elapsed();
        report
    }
}

/// Solves the formula `build` writes, with a fresh solver of the kind `solver` and no budget:
/// its model, or `None` when it is unsatisfiable. For callers that build small formulas of their
/// own (the removal test of generation). CaDiCaL runs set for puzzles, as in [`Sat`]'s search
/// (`Cadical::for_puzzles`): on 25×25 generation, where the removal test's formulas are the
/// near-unique completions of the hard region, that takes about two thirds of the CPU time of
/// CaDiCaL's defaults (seed 8 16.4 → 10.2 s, seed 4 26.9 → 17.7 s, seed 5 25.6 → 16.9 s with
/// `--threads 1`; BENCHMARKS.md).
///
/// `phases` are the literals CaDiCaL decides first when it decides on their variables (its
/// initial phases; later rephasing may change them); varisat takes no phases and ignores them.
pub fn solve_fresh(
    solver: SatSolver,
    build: impl FnOnce(&mut dyn ClauseSink),
    phases: &[Lit],
) -> Option<Model> {
    let budget = Budget::start(&Limits::none());
    match solver {
        SatSolver::Varisat => {
            let _ = phases;
            let mut s = bounded_solver(&budget);
            build(&mut SatSink::new(&mut s));
            s.solve()
                .expect("no proof and no budget: no error")
                .then(|| model_of(&s))
        }
        #[cfg(feature = "cadical")]
        SatSolver::Cadical => {
            let mut s = cadical::Cadical::for_puzzles(&budget);
            build(&mut s);
            for &lit in phases {
                s.phase(lit);
            }
            s.solve().expect("no budget: an answer").then(|| s.model())
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Shape;
    use crate::encode::Cnf;
    use crate::solve::StopReason;
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

    #[cfg(feature = "cadical")]
    #[test]
    fn cadical_counts_solves_and_proves_as_varisat_does() {
        let sat: Sat = "sat:cadical".parse().unwrap();
        assert_eq!(
            (sat.name(), sat.solver()),
            ("sat:cadical", SatSolver::Cadical)
        );
        let other: Sat = "sat:cadical:minimal:sequential".parse().unwrap();
        assert_eq!(other.name().parse::<Sat>().unwrap(), other);
        let empty = Grid::empty(Shape::sudoku(2, 2).unwrap());
        for amo in Amo::ALL {
            let sat = Sat::with_solver(
                CnfOptions {
                    encoding: Encoding::Minimal,
                    amo,
                },
                SatSolver::Cadical,
            );
            let report = sat.count(&empty, u64::MAX, &Limits::none()).unwrap();
            assert_eq!((report.count, report.complete()), (288, true), "{amo}");
            for grid in &report.solutions {
                assert_eq!(crate::verify(&empty, grid), Ok(()));
            }
        }
        // A uniqueness proof and an unsatisfiability proof, each checked in process.
        let dir = std::env::temp_dir().join(format!("sudokit-sat-cadical-{}", std::process::id()));
        let puzzle = parse_line("...3..4114..3...", None).unwrap();
        let (report, proof) = sat
            .unique_with_proof(&puzzle, &Limits::none(), &dir, "unique")
            .unwrap();
        assert!(matches!(report.outcome, Outcome::Unique(_)));
        let proof = proof.expect("a checked proof");
        assert_eq!(proof.claim, ProofClaim::Unique);
        let unsat = parse_line(".1...34........1", None).unwrap();
        let (report, proof) = sat
            .solve_with_proof(&unsat, &Limits::none(), &dir, "unsat")
            .unwrap();
        assert_eq!(report.answer, Answer::Unsat);
        let proof = proof.expect("a checked proof");
        // A proof cut before its empty clause does not check.
        let cnf = crate::format::dimacs::read_cnf(std::io::BufReader::new(
            std::fs::File::open(&proof.cnf).unwrap(),
        ))
        .unwrap();
        check_lrat_file(&cnf, &proof.lrat).unwrap();
        let text = std::fs::read_to_string(&proof.lrat).unwrap();
        let empty = text
            .lines()
            .position(|l| l.split_whitespace().nth(1) == Some("0"))
            .expect("an empty clause");
        let lines: Vec<&str> = text.lines().take(empty).collect();
        std::fs::write(&proof.lrat, lines.join("\n")).unwrap();
        assert!(check_lrat_file(&cnf, &proof.lrat).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_node_limit_bounds_the_calls() {
        let empty = Grid::empty(Shape::sudoku(2, 2).unwrap());
        let limits = Limits::nodes(7);
        let report = Sat::default().count(&empty, u64::MAX, &limits).unwrap();
        assert_eq!(report.stopped, Some(StopReason::NodeLimit));
        assert_eq!((report.count, report.stats.nodes), (7, 7));
        let cnf = Cnf::with_vars(1);
        let zero = Limits::nodes(0);
        assert_eq!(
            solve_cnf(&cnf, &zero),
            CnfAnswer::Unknown(StopReason::NodeLimit)
        );
    }
}
