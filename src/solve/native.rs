//! `native`, the default backend: constraint propagation on bitset candidates with a
//! most-constrained-cell search, for any shape up to order 128.
//!
//! Three engines share the rules below: 9×9 grids with 3×3 boxes use the band-oriented engine of
//! `band9` (27-bit words per value and band, JCZSolve's design, with tdoku's triad rules in
//! SIMD vectors and its branching on band configurations); other grids of at most 128 cells
//! (orders up to 11) use the digit-major bitboards of [`super::bitboard`]; larger grids use the
//! cell-major engine of this file ([`NativeGeneral`] forces it everywhere, for comparison), which
//! hands hard grids of orders 16 to 36 over to a CDCL stage (below).
//!
//! # Method
//! Each cell holds its candidates as one machine word (`u16` up to n = 16, `u32`, `u64`, `u128`;
//! the code is monomorphised per width). Propagation runs to a fixpoint of two rules:
//! - **naked single**: a cell with one candidate takes it, and the value leaves its peers;
//! - **hidden single**: in a unit, a value with one place left goes there. Units are scanned
//!   only when one of their cells changed (a dirty-unit bitset); one pass over a unit computes
//!   "seen once" and "seen twice" masks, so a unit costs n word operations. A value with no place
//!   in a unit is a contradiction.
//!
//! When propagation stops, the search branches on a cell with the fewest candidates (MRV). Cells
//! with two or more candidates live in buckets (intrusive doubly linked lists) by candidate count,
//! and a bit per non-empty bucket finds the smallest in O(1); every elimination moves a cell
//! between buckets in O(1). Values are tried in increasing order.
//!
//! For a first solution (`count` with limit 1, which `solve` is) the search restarts after a
//! number of nodes that follows the Luby sequence (200 · 1, 1, 2, 1, 1, 2, 4, …), each run with
//! a new seeded tie-break among the first cells of the smallest bucket and a seeded first value.
//! Hard satisfiable grids near the phase transition have heavy-tailed search times, and restarts
//! cut the tail (on the first 20 puzzles of `acs_general_25x25_f40-50`, from 7 unsolved within
//! 2 s to none). The budget grows without bound, so the search stays complete and still proves
//! unsatisfiability; the seed is fixed, so the answer is deterministic. Counting (limit ≥ 2) never
//! restarts.
//!
//! **CDCL stage (orders 16 to 36, first solution or uniqueness).** When the search above has
//! met 500 dead ends (guesses refuted by propagation, over all restarts) without an answer, the
//! call hands the puzzle over to conflict-driven clause learning: `sat:optimized`, the fastest
//! encoding measured (Kwon & Jain's optimized CNF, pairwise AMO), solved by varisat, from the
//! puzzle's givens, with what is left of the time and node budgets (each SAT call is one node,
//! as in `sat`). Large grids near the phase transition are quasigroup-completion-like, and the
//! hard ones defeat the pruning rules tried, as measured on the seven 25×25 puzzles of
//! `acs_general_25x25_f40-50` that this engine alone left unknown after 10 s: the restarted
//! propagation search ran 0.8–1.7 million nodes on each in 10 s without an answer; full
//! hyper-arc consistency of every unit (`cp`, Régin's HAC, no restarts) solved 2 of the 7 in
//! 20 s; CDCL solved all 7 in 0.02–1.8 s each. The budget counts dead ends, not nodes, because
//! a nearly empty 25×25 grid needs thousands of nodes (one per open cell, and restarts) but
//! hardly any dead end, and there the propagation search is ten times faster than CDCL. With
//! 500, no puzzle of `acs_general_16x16` or `acs_general_16x16_f40-50` reaches the CDCL stage,
//! and the hardest of `kr_16x16` do, faster than before; 200 or 300 sent some 16×16 puzzles
//! over that the propagation search solves sooner, and 1000 was slower on the 25×25 hard band
//! (BENCHMARKS.md). Counting beyond two solutions stays with the propagation search (blocking
//! clauses enumerate slowly), and so do orders above 36 (the pairwise encoding grows as n⁴).
//!
//! Backtracking restores state from a trail of `(cell, old candidates)` entries, so nothing is
//! copied and nothing is allocated per search node: the candidate array, the trail, the queue of
//! cells to assign, the buckets and the stack of choice points are allocated once per shape and
//! kept in a per-thread cache across calls.
//!
//! # Complexity
//! Memory O(n² + trail), the trail holding at most n³ entries (each elimination removes one of
//! the n³ candidates once per branch). Per search node, propagation is O(eliminations ·
//! (1 + units per cell)) plus O(n) per dirty unit. The problem is NP-complete, so the number of
//! nodes is exponential in the worst case. The CDCL stage holds the pairwise encoding, O(n⁴)
//! clauses before the givens simplify it (a whole 25×25 run peaks near 15 MiB).
//!
//! # References
//! - P. Norvig, "Solving Every Sudoku Puzzle" (2006), <https://norvig.com/sudoku.html>:
//!   constraint propagation (the two rules above) with minimum-remaining-values search.
//! - S. S. Skiena, *The Algorithm Design Manual*, 2nd ed., Springer 2008, §7.3 (Sudoku, forward
//!   checking and most-constrained-square selection).
//! - H. Simonis, "Sudoku as a Constraint Problem", CP Workshop on Modeling and Reformulating
//!   Constraint Satisfaction Problems, 2005 (FC with channeling = naked + hidden singles).
//! - D. E. Knuth, *The Art of Computer Programming* 4B, "Dancing links" / "Backtrack programming"
//!   (trail-based undo, MRV).
//! - C. P. Gomes, D. Shmoys, "Completing quasigroups or Latin squares: a structured graph
//!   coloring problem", Computational Symposium on Graph Coloring and its Generalizations, 2002
//!   (quasigroup completion and its hard region).
//! - J. P. Marques-Silva, K. A. Sakallah, "GRASP: a search algorithm for propositional
//!   satisfiability", IEEE Trans. Computers 48(5), 1999 (CDCL); G. Kwon, H. Jain, "Optimized
//!   CNF encoding for Sudoku puzzles", LPAR 2006 (the encoding of the CDCL stage).
//! - M. Luby, A. Sinclair, D. Zuckerman, "Optimal speedup of Las Vegas algorithms", *Information
//!   Processing Letters* 47 (1993) 173–180 (the restart schedule); C. P. Gomes, B. Selman,
//!   H. Kautz, "Boosting combinatorial search through randomization", AAAI 1998 (heavy tails).

mod engine;
mod handover;

use self::engine::with_engine;
use self::handover::{cdcl_finish, handover_budget};
use super::mask::{MAX_MASK_ORDER, dispatch_mask};
use super::{Budget, CountReport, Limits, SolveError, Solver};
use super::{band9, bitboard};
use crate::grid::Grid;

/// The native propagation solver; see the module docs. 9×9 grids take the band engine
/// (`band9`), other grids of at most 128 cells (orders up to 11) the bitboard fast path of
/// [`super::bitboard`]; larger ones the cell-major engine below, with its CDCL stage for hard
/// grids of orders 16 to 36.
#[derive(Debug, Clone, Copy, Default)]
pub struct Native;

/// `native` without the small-grid fast path: the cell-major engine on every shape (with the
/// CDCL stage on orders 16 to 36, as in [`Native`]). It exists to measure what the fast path
/// gains, and to cross-check the two engines.
#[derive(Debug, Clone, Copy, Default)]
pub struct NativeGeneral;

impl Solver for NativeGeneral {
    fn name(&self) -> &str {
        "native:general"
    }

    fn max_order(&self) -> usize {
        MAX_MASK_ORDER
    }

    /// The propagation at the root finds clashing givens by itself.
    fn handles_clashing_givens(&self) -> bool {
        true
    }

    fn search(
        &self,
        puzzle: &Grid,
        limit: u64,
        limits: &Limits,
    ) -> Result<CountReport, SolveError> {
        let budget = Budget::start(limits);
        let handover = handover_budget(puzzle.shape().order(), limit);
        let report = dispatch_mask!(puzzle.shape().order(), M => {
            with_engine::<M, _>(puzzle, |engine| engine.count(puzzle, limit, &budget, handover))
        });
        match report {
            Ok(report) => Ok(report),
            Err(native) => cdcl_finish(puzzle, limit, &budget, native),
        }
    }
}

impl Solver for Native {
    fn name(&self) -> &str {
        "native"
    }

    fn max_order(&self) -> usize {
        MAX_MASK_ORDER
    }

    /// The propagation at the root finds clashing givens by itself.
    fn handles_clashing_givens(&self) -> bool {
        true
    }

    fn search(
        &self,
        puzzle: &Grid,
        limit: u64,
        limits: &Limits,
    ) -> Result<CountReport, SolveError> {
        if band9::fits(puzzle.shape()) {
            return Ok(band9::simd::count_best(
                puzzle,
                limit,
                &Budget::start(limits),
            ));
        }
        if bitboard::fits(puzzle.shape()) {
            return Ok(bitboard::count(puzzle, limit, &Budget::start(limits)));
        }
        NativeGeneral.search(puzzle, limit, limits)
    }
}

#[cfg(test)]
mod tests {
    use super::handover::HANDOVER_DEAD_ENDS;
    use super::*;
    use crate::Shape;
    use crate::solve::{Stats, StopReason, sat};
    use crate::text::parse_line;

    #[test]
    fn counts_small_empty_grids() {
        let count = |shape| {
            Native
                .count(&Grid::empty(shape), u64::MAX, &Limits::none())
                .unwrap()
                .count
        };
        assert_eq!(count(Shape::sudoku(2, 2).unwrap()), 288);
        assert_eq!(count(Shape::latin(4).unwrap()), 576);
        assert_eq!(count(Shape::latin(1).unwrap()), 1);
        assert_eq!(count(Shape::latin(3).unwrap()), 12);
    }

    #[test]
    fn solves_a_hard_nine_by_nine() {
        let puzzle = parse_line(
            "85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.",
            None,
        )
        .unwrap();
        let report = Native.solve(&puzzle, &Limits::none()).unwrap();
        let super::super::Answer::Solved(grid) = report.answer else {
            panic!("{report:?}")
        };
        assert_eq!(crate::verify(&puzzle, &grid), Ok(()));
    }

    /// The first puzzle of the repository's 16×16 sample.
    fn sample16() -> Grid {
        let text = include_str!("../../models/sudoku/16x16/kr_16x16_sample.txt");
        parse_line(text.lines().next().expect("a line"), None).expect("a puzzle")
    }

    /// The propagation stage alone (`handover` = `None`) or up to a dead-end budget.
    fn propagation_stage(
        puzzle: &Grid,
        limit: u64,
        handover: Option<u64>,
    ) -> Result<CountReport, Stats> {
        let budget = Budget::start(&Limits::none());
        dispatch_mask!(puzzle.shape().order(), M => {
            with_engine::<M, _>(puzzle, |engine| engine.count(puzzle, limit, &budget, handover))
        })
    }

    #[test]
    fn the_cdcl_stage_takes_over_at_the_dead_end_budget() {
        let empty = Grid::empty(Shape::sudoku(4, 4).unwrap());
        assert!(propagation_stage(&empty, 1, Some(HANDOVER_DEAD_ENDS)).is_ok());
        let stats =
            propagation_stage(&empty, 1, Some(0)).expect_err("the empty grid needs a guess");
        assert_eq!((stats.nodes, stats.guesses), (1, 0));
        let report = cdcl_finish(&empty, 1, &Budget::start(&Limits::none()), stats).unwrap();
        assert!(report.hit_limit && report.stopped.is_none());
        assert_eq!(report.count, 1);
        assert_eq!(crate::verify(&empty, &report.solutions[0]), Ok(()));
        assert_eq!(report.stats.nodes, 2, "the root and one SAT call");
        // Above the range the propagation stage runs alone, and so does counting past two.
        assert_eq!(handover_budget(16, 1), Some(HANDOVER_DEAD_ENDS));
        assert_eq!(handover_budget(15, 2), None);
        assert_eq!(handover_budget(sat::MAX_ORDER_PAIRWISE + 1, 1), None);
        assert_eq!(handover_budget(25, 3), None);
    }

    #[test]
    fn both_stages_agree_on_uniqueness_and_unsat() {
        let puzzle = sample16();
        let alone = propagation_stage(&puzzle, 2, None).unwrap();
        let stats = Stats::default();
        let cdcl = cdcl_finish(&puzzle, 2, &Budget::start(&Limits::none()), stats).unwrap();
        assert!(alone.complete() && cdcl.complete());
        assert_eq!(alone.count, 1);
        assert_eq!(cdcl.count, 1);
        assert_eq!(cdcl.solutions, alone.solutions);
        // A wrong value in an open cell that clashes with no given: unsat only after search.
        let solution = &alone.solutions[0];
        let shape = puzzle.shape();
        let (cell, v) = (0..shape.cells())
            .filter(|&c| puzzle.get(c).is_none())
            .flat_map(|c| (0..shape.order()).map(move |v| (c, v)))
            .find(|&(c, v)| {
                solution.get(c) != Some(v) && shape.peers(c).all(|p| puzzle.get(p) != Some(v))
            })
            .expect("an open cell with a wrong but allowed value");
        let mut wrong = puzzle.clone();
        wrong.set(cell, Some(v));
        let alone = propagation_stage(&wrong, 1, None).unwrap();
        let cdcl = cdcl_finish(&wrong, 1, &Budget::start(&Limits::none()), stats).unwrap();
        assert!(alone.complete() && cdcl.complete());
        assert_eq!((alone.count, cdcl.count), (0, 0));
    }

    #[test]
    fn the_cdcl_stage_keeps_the_budgets() {
        let puzzle = sample16();
        let native = Stats {
            nodes: 3,
            ..Stats::default()
        };
        let nodes = Limits::nodes(3);
        let report = cdcl_finish(&puzzle, 1, &Budget::start(&nodes), native).unwrap();
        assert_eq!(report.stopped, Some(StopReason::NodeLimit));
        assert!(report.solutions.is_empty());
        let time = Limits::time(std::time::Duration::ZERO);
        let report = cdcl_finish(&puzzle, 1, &Budget::start(&time), native).unwrap();
        assert_eq!(report.stopped, Some(StopReason::TimeLimit));
        assert_eq!(report.stats.nodes, 3);
    }

    #[test]
    fn a_node_limit_gives_unknown() {
        let empty = Grid::empty(Shape::sudoku(3, 3).unwrap());
        let limits = Limits::nodes(5);
        let report = Native.count(&empty, u64::MAX, &limits).unwrap();
        assert_eq!(report.stopped, Some(StopReason::NodeLimit));
        assert!(!report.complete());
    }
}
