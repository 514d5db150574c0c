//! Puzzles: locally minimal well-posed puzzles from random complete grids, of a chosen symmetry,
//! number of givens and propagation difficulty; and the reduction of a given puzzle's givens.
//!
//! # Method
//! A complete grid is drawn ([`GridSource`]), its cells are grouped into the orbits of a
//! [`Symmetry`], and the orbits are visited once in random order: an orbit's givens are removed
//! and the removal is kept when the puzzle still has the **property** — well posed, or, with a
//! required scheme S, search-free for S (the fixpoint of S fixes every cell, which implies a unique
//! solution). The result is **locally minimal** for the property: removing any remaining orbit
//! loses it.
//!
//! Well-posedness is checked in one of two ways. Below order [`SEARCH_FROM_ORDER`], by a count
//! of the solutions up to 2 (the `native` backend). From that order on, by the removal test of
//! [`super::well_posed`]: the puzzle before the removal is well posed with the known solution S,
//! so the puzzle stays well posed iff no solution differs from S on a removed cell, and that is
//! searched for directly (HAC propagation of each case's root, then SAT on what the fixpoint
//! leaves open), instead of counting, which would also re-solve the branch where the removed
//! cells take S's values.
//!
//! One pass suffices because both properties are *monotone*: removing givens only adds solutions
//! (and only widens the fixpoint of a propagation scheme). A given kept during the pass failed
//! when the puzzle held more givens; the final puzzle is a subset of that puzzle, so removing the
//! given from it fails too. Monotonicity also makes the pass cheap: a block of k consecutive
//! orbits is tried at once, and if the puzzle keeps the property without all of them, removing
//! them one by one would have succeeded every time (each intermediate puzzle holds more givens),
//! so the result is exactly that of the one-by-one pass. The block doubles after a success and
//! halves after a failure, so the early removals (which almost all succeed) cost few checks. A
//! success that needed a search (the removal test's pre-filter did not settle it) resets the block
//! to one orbit instead: in the hard region near the end, a failed block costs as much as a
//! search for a second solution, and blocks almost always fail. The block sizes change only the
//! time, never the result.
//!
//! **Lanes** ([`Options::lanes`]) spread that hard region over threads: from the first block of
//! one orbit on, the rest of the pass runs in [`super::parallel_tail`], where each lane tests the
//! next orbit not yet tested as soon as it is free, and the answers are settled in order as the
//! one-by-one pass would settle them, so the puzzle is exactly the one of a single lane.
//!
//! **Sweeps** ([`Options::sweeps`]) make the hard region cheaper. Being needed is monotone too: a
//! given needed against the puzzle of some moment is needed against every later, smaller puzzle.
//! So from order [`SWEEP_FROM_ORDER`] on, while the pass removes one orbit at a time, each time
//! the puzzle has lost [`super::sweep::sweep_interval`] more givens, every orbit ahead not yet
//! known needed is tested against the puzzle as it is ([`super::sweep`]), and those found needed
//! are kept untested when the pass reaches them. Their second solutions are found while the
//! puzzle still has more givens, where they are far cheaper; the puzzle does not change.
//!
//! With a target number of givens K the pass skips orbits that would take the puzzle below K and
//! stops at K (the puzzle is then well posed but usually not minimal); a grid whose pass ends
//! above K is discarded and another drawn. An excluded scheme (not search-free for it) is checked
//! at the end, and a puzzle that fails it is discarded too. Each puzzle is drawn from its own
//! random stream ([`puzzle_rng`]: the base seed and the puzzle's index), so a batch is
//! reproducible whatever the number of threads.
//!
//! With a symmetry other than [`Symmetry::None`] the result is minimal among puzzles of that
//! symmetry: a single given of an orbit may still be redundant.
//!
//! [`minimize`] is the same pass on a given puzzle (hint reduction by committed choice): its
//! givens, in cell order or a random one, are removed while the puzzle stays well posed. The
//! solution never changes: every puzzle of the pass is a subset of the original givens, so the
//! original solution solves it, and being unique it is the only one.
//!
//! # Complexity
//! One check per block tried: about n² checks in the worst case, and close to one per final given
//! (the failed removals) plus O(log n²) for the successful blocks in practice. A uniqueness check
//! is a search (exponential in the worst case); in practice it is fast up to 16×16, and on 25×25
//! grids it is fast down to about half the cells given, then takes from milliseconds to tens of
//! seconds per check (the hard region of 25×25 completion; figures in `BENCHMARKS.md`). A scheme
//! check is one fixpoint of the scheme (see [`crate::propagate`]).
//!
//! # References
//! - G. McGuire, B. Tugemann, G. Civario, "There is no 16-clue Sudoku puzzle", *Experimental
//!   Mathematics* 23 (2014): minimal puzzles (every given needed for uniqueness).
//! - H. Simonis, "Sudoku as a constraint problem" (2005): search-free puzzles per scheme.
//!
//! # Examples
//! ```
//! use sudokit::generate::puzzle::{Generator, Options, is_locally_minimal, puzzle_rng};
//! use sudokit::Shape;
//! let mut generator = Generator::new(Shape::sudoku(3, 3).unwrap(), Options::default()).unwrap();
//! let made = generator.generate(&mut puzzle_rng(42, 0)).unwrap();
//! assert!(made.puzzle.filled() < 40);
//! assert!(is_locally_minimal(&made.puzzle).unwrap());
//! ```
//!
//! [`SEARCH_FROM_ORDER`]: super::well_posed::SEARCH_FROM_ORDER
//! [`SWEEP_FROM_ORDER`]: super::sweep::SWEEP_FROM_ORDER

use std::fmt;
use std::str::FromStr;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::checker::Checker;
pub use super::checker::HAC_FROM_ORDER;
pub use super::minimize::{
    MinimizeError, Minimized, is_locally_minimal, minimize, minimize_cancellable,
    minimize_with_progress,
};
use super::progress::{OnProgress, Tracker};
use super::random_grid::{RandomGridError, random_grid};
pub use super::removal::MAX_PUZZLE_ORDER;
use super::removal::reduce;
use super::symmetry::random_pattern_grid;
use super::well_posed::UniquenessEngine;
use crate::grade::Grader;
use crate::grid::Grid;
use crate::propagate::Scheme;
use crate::search::Cancel;
use crate::shape::Shape;

/// The symmetry of the pattern of givens: the orbits removed together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Symmetry {
    /// Every cell on its own.
    #[default]
    None,
    /// Half-turn: `(r, c)` with `(n−1−r, n−1−c)`.
    Rot180,
    /// Quarter-turns: the four images of `(r, c)` under rotation by 90°.
    Rot90,
    /// Left–right mirror: `(r, c)` with `(r, n−1−c)`.
    Mirror,
    /// Main diagonal: `(r, c)` with `(c, r)`.
    Diagonal,
}

impl Symmetry {
    /// Every symmetry, in command-line order.
    pub const ALL: [Symmetry; 5] = [
        Symmetry::None,
        Symmetry::Rot180,
        Symmetry::Rot90,
        Symmetry::Mirror,
        Symmetry::Diagonal,
    ];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rot180 => "rot180",
            Symmetry::Rot90 => "rot90",
            Symmetry::Mirror => "mirror",
            Symmetry::Diagonal => "diagonal",
        }
    }

    /// The image of cell `(r, c)` in a grid of order `n`.
    fn image(self, n: usize, r: usize, c: usize) -> (usize, usize) {
        match self {
            Symmetry::None => (r, c),
            Symmetry::Rot180 => (n - 1 - r, n - 1 - c),
            Symmetry::Rot90 => (c, n - 1 - r),
            Symmetry::Mirror => (r, n - 1 - c),
            Symmetry::Diagonal => (c, r),
        }
    }

    /// The orbits of the cells of `shape`, each sorted, in order of their first cell.
    pub fn orbits(self, shape: Shape) -> Vec<Vec<usize>> {
        let n = shape.order();
        let mut seen = vec![false; shape.cells()];
        let mut orbits = Vec::new();
        for cell in 0..shape.cells() {
            if seen[cell] {
                continue;
            }
            let mut orbit = vec![cell];
            seen[cell] = true;
            let (mut r, mut c) = (shape.row_of(cell), shape.col_of(cell));
            loop {
                (r, c) = self.image(n, r, c);
                let next = shape.cell(r, c);
                if seen[next] {
                    break;
                }
                seen[next] = true;
                orbit.push(next);
            }
            orbit.sort_unstable();
            orbits.push(orbit);
        }
        orbits
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Symmetry {
    type Err = String;

    fn from_str(s: &str) -> Result<Symmetry, String> {
        Symmetry::ALL
            .into_iter()
            .find(|x| x.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown symmetry {s:?}: none, rot180, rot90, mirror, diagonal"))
    }
}

/// Where the complete grids come from: a randomized search ([`super::random_grid`]) or a
/// transformed pattern grid ([`super::symmetry`]). (With the feature `cli`, also the command
/// line's values of `--grids`, their help these variants' docs.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum GridSource {
    /// Randomized search: any grid can come out (not exactly uniform).
    #[default]
    Search,
    /// The pattern grid under random symmetries: O(n²), but uniform on one orbit only.
    Pattern,
}

/// What puzzles to make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Orbits of givens removed together.
    pub symmetry: Symmetry,
    /// Stop at this many givens (the puzzle is then well posed, usually not minimal).
    pub givens: Option<usize>,
    /// The puzzle must be search-free for this scheme (minimal for that property).
    pub scheme: Option<Scheme>,
    /// The puzzle must not be search-free for this scheme.
    pub not_scheme: Option<Scheme>,
    /// Where the complete grids come from.
    pub source: GridSource,
    /// Complete grids tried per puzzle before giving up.
    pub attempts: usize,
    /// Removal tests run side by side on one puzzle, each on a thread of its own (see the
    /// module docs), from order [`SEARCH_FROM_ORDER`] on. The puzzle does not depend on it, only
    /// the wall time; 1 runs them one at a time.
    ///
    /// [`SEARCH_FROM_ORDER`]: super::well_posed::SEARCH_FROM_ORDER
    pub lanes: usize,
    /// Sweep the orbits ahead for needed ones in the hard region (see the module docs and
    /// [`super::sweep`]), from order [`SWEEP_FROM_ORDER`] on. The puzzle does not depend on
    /// it, only the time.
    ///
    /// [`SWEEP_FROM_ORDER`]: super::sweep::SWEEP_FROM_ORDER
    pub sweeps: bool,
    /// The engine of the removal test (see [`super::well_posed`]); `None`: the default
    /// ([`UniquenessEngine::Sat`]). The puzzle does not depend on it, only the time.
    pub engine: Option<UniquenessEngine>,
    /// Called with how far the reduction of a puzzle has come (see [`super::progress`]).
    pub progress: Option<OnProgress>,
    /// Once set, the generator stops before its next removal test or complete grid with
    /// [`GenerateError::Cancelled`] (a signal, a deadline).
    pub cancel: Option<Cancel>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            symmetry: Symmetry::None,
            givens: None,
            scheme: None,
            not_scheme: None,
            source: GridSource::Search,
            attempts: 1000,
            lanes: 1,
            sweeps: true,
            engine: None,
            progress: None,
            cancel: None,
        }
    }
}

/// Why no puzzle could be made (or reduced).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// The order is above [`MAX_PUZZLE_ORDER`].
    #[error("puzzles are made up to order {MAX_PUZZLE_ORDER}, not {0}")]
    TooLarge(usize),
    /// More givens asked for than cells.
    #[error("{givens} givens asked for, but the grid has {cells} cells")]
    TooManyGivens {
        /// Givens asked for.
        givens: usize,
        /// Cells of the grid.
        cells: usize,
    },
    /// Every attempt missed the target.
    #[error(
        "no puzzle met the requirements in {0} complete grids (try more --attempts, or relax --givens/--scheme/--not-scheme)"
    )]
    GaveUp(usize),
    /// The grid search failed.
    #[error("{0}")]
    Grid(#[from] RandomGridError),
    /// [`Options::cancel`] was set before a puzzle was made.
    #[error("cancelled")]
    Cancelled,
    /// Pattern grids are laid out by p×q boxes: a shape with regions takes searched grids.
    #[error("pattern grids follow p×q boxes: a {0} takes --grids search")]
    PatternOfRegions(Shape),
    /// The shape has no complete grid at all (a region map can make one impossible).
    #[error("the {0} has no complete grid: its units cannot all hold every value once")]
    NoGrid(Shape),
}

/// A generated puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle (well posed).
    pub puzzle: Grid,
    /// Its unique solution.
    pub solution: Grid,
    /// Complete grids drawn to get it (1 when the first one did).
    pub attempts: usize,
}

/// The random stream of puzzle number `index` of a batch with base seed `seed`: the same pair
/// always gives the same stream, whatever else runs (ChaCha8, one stream per index).
pub fn puzzle_rng(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}

/// Makes puzzles of one shape; keeps its engines between puzzles (one per thread).
pub struct Generator {
    shape: Shape,
    options: Options,
    orbits: Vec<Vec<usize>>,
    checker: Checker,
}

impl Generator {
    /// A generator for `shape`.
    ///
    /// # Errors
    /// [`GenerateError::TooLarge`] above order [`MAX_PUZZLE_ORDER`],
    /// [`GenerateError::TooManyGivens`] when the target exceeds the cells.
    pub fn new(shape: Shape, options: Options) -> Result<Generator, GenerateError> {
        if shape.order() > MAX_PUZZLE_ORDER {
            return Err(GenerateError::TooLarge(shape.order()));
        }
        if options.source == GridSource::Pattern && !shape.has_box_geometry() {
            return Err(GenerateError::PatternOfRegions(shape));
        }
        if let Some(givens) = options.givens
            && givens > shape.cells()
        {
            return Err(GenerateError::TooManyGivens {
                givens,
                cells: shape.cells(),
            });
        }
        Ok(Generator {
            shape,
            orbits: options.symmetry.orbits(shape),
            checker: Checker::new(
                shape,
                options.scheme,
                options.lanes,
                options.sweeps,
                options.engine,
            ),
            options,
        })
    }

    /// Replaces the progress callback of the options (for example one per puzzle of a batch).
    pub fn set_progress(&mut self, progress: Option<OnProgress>) {
        self.options.progress = progress;
    }

    /// A random complete grid from the configured source.
    ///
    /// # Errors
    /// As [`random_grid`].
    pub fn complete_grid<R: Rng + ?Sized>(&self, rng: &mut R) -> Result<Grid, GenerateError> {
        Ok(match self.options.source {
            GridSource::Pattern => random_pattern_grid(self.shape, rng),
            GridSource::Search => random_grid(&Grid::empty(self.shape), rng)?
                .ok_or(GenerateError::NoGrid(self.shape))?,
        })
    }

    /// One puzzle meeting the options, drawn from `rng` (see the module docs).
    ///
    /// # Errors
    /// [`GenerateError::GaveUp`] when no grid of `options.attempts` met the target.
    pub fn generate<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Result<Generated, GenerateError> {
        let floor = self.options.givens.unwrap_or(0);
        let mut not_grader = self.options.not_scheme.map(|_| Grader::new(self.shape));
        let tracker =
            Tracker::new(self.options.progress.clone()).with_cancel(self.options.cancel.clone());
        for attempt in 1..=self.options.attempts.max(1) {
            if tracker.cancelled() {
                return Err(GenerateError::Cancelled);
            }
            if attempt > 1 {
                tracker.next_grid();
            }
            let solution = self.complete_grid(rng)?;
            let mut order: Vec<&[usize]> = self.orbits.iter().map(Vec::as_slice).collect();
            order.shuffle(rng);
            let mut puzzle = solution.clone();
            reduce(
                &mut puzzle,
                &solution,
                &order,
                floor,
                &mut self.checker,
                &tracker,
            );
            if tracker.cancelled() {
                return Err(GenerateError::Cancelled);
            }
            if puzzle.filled() > floor && self.options.givens.is_some() {
                continue;
            }
            if let (Some(s), Some(grader)) = (self.options.not_scheme, not_grader.as_mut())
                && grader.grade(&puzzle, &[s]).is_search_free(s)
            {
                continue;
            }
            debug_assert!(self.checker.unique(&puzzle));
            tracker.finished(puzzle.filled());
            return Ok(Generated {
                puzzle,
                solution,
                attempts: attempt,
            });
        }
        Err(GenerateError::GaveUp(self.options.attempts.max(1)))
    }
}

#[cfg(test)]
mod tests {
    use super::super::minimize::unique_solution;
    use super::*;
    use crate::solve::{Limits, Native, Solver};
    use crate::text::parse_line;

    #[test]
    fn orbits_partition_the_cells() {
        for (p, q) in [(3, 3), (2, 3), (2, 2), (4, 4)] {
            let shape = Shape::sudoku(p, q).unwrap();
            for s in Symmetry::ALL {
                let orbits = s.orbits(shape);
                let mut all: Vec<usize> = orbits.iter().flatten().copied().collect();
                all.sort_unstable();
                assert_eq!(all, (0..shape.cells()).collect::<Vec<_>>(), "{s} {shape}");
                let max = orbits.iter().map(Vec::len).max().unwrap();
                let expected = match s {
                    Symmetry::None => 1,
                    Symmetry::Rot90 => 4,
                    _ => 2,
                };
                assert_eq!(max, expected, "{s}");
            }
        }
        // 9×9 half-turn: 40 pairs and the centre.
        let orbits = Symmetry::Rot180.orbits(Shape::sudoku(3, 3).unwrap());
        assert_eq!(orbits.len(), 41);
        assert!(orbits.contains(&vec![0, 80]) && orbits.contains(&vec![40]));
    }

    #[test]
    fn symmetry_names_round_trip() {
        for s in Symmetry::ALL {
            assert_eq!(s.name().parse::<Symmetry>(), Ok(s));
        }
        assert!("spiral".parse::<Symmetry>().is_err());
    }

    #[test]
    fn generated_puzzles_are_minimal_and_symmetric() {
        let shape = Shape::sudoku(2, 3).unwrap();
        for symmetry in Symmetry::ALL {
            let options = Options {
                symmetry,
                ..Options::default()
            };
            let mut generator = Generator::new(shape, options).unwrap();
            for index in 0..5 {
                let made = generator.generate(&mut puzzle_rng(1, index)).unwrap();
                assert_eq!(crate::verify(&made.puzzle, &made.solution), Ok(()));
                assert_eq!(unique_solution(&made.puzzle), Ok(made.solution.clone()));
                for orbit in symmetry.orbits(shape) {
                    let kept = orbit
                        .iter()
                        .filter(|&&c| made.puzzle.get(c).is_some())
                        .count();
                    assert!(kept == 0 || kept == orbit.len(), "{symmetry}: {orbit:?}");
                }
                if symmetry == Symmetry::None {
                    assert!(is_locally_minimal(&made.puzzle).unwrap());
                }
            }
        }
    }

    #[test]
    fn lanes_and_sweeps_change_nothing_but_the_time() {
        // 16×16 uses the removal test, so lanes and sweeps apply; rot180 orbits and no symmetry.
        let shape = Shape::sudoku(4, 4).unwrap();
        for symmetry in [Symmetry::None, Symmetry::Rot180] {
            let plain = Options {
                symmetry,
                sweeps: false,
                ..Options::default()
            };
            let made = Generator::new(shape, plain.clone())
                .unwrap()
                .generate(&mut puzzle_rng(3, 0))
                .unwrap();
            assert_eq!(made.attempts, 1);
            for (lanes, sweeps) in [(3, false), (1, true), (2, true)] {
                let options = Options {
                    lanes,
                    sweeps,
                    ..plain.clone()
                };
                let mut generator = Generator::new(shape, options).unwrap();
                generator.checker.sweep_from = 16;
                let other = generator.generate(&mut puzzle_rng(3, 0)).unwrap();
                assert_eq!(generator.checker.swept > 0, sweeps);
                assert_eq!(other, made, "{symmetry}, {lanes} lanes, sweeps {sweeps}");
            }
        }
    }

    #[test]
    fn the_block_pass_equals_the_one_by_one_pass() {
        let shape = Shape::sudoku(3, 3).unwrap();
        let generator = Generator::new(shape, Options::default()).unwrap();
        for seed in 0..10 {
            let mut rng = puzzle_rng(seed, 0);
            let solution = generator.complete_grid(&mut rng).unwrap();
            let mut cells: Vec<[usize; 1]> = (0..81).map(|c| [c]).collect();
            cells.shuffle(&mut rng);
            let order: Vec<&[usize]> = cells.iter().map(|c| c.as_slice()).collect();
            let mut blocks = solution.clone();
            let mut checker = Checker::new(shape, None, 1, true, None);
            reduce(
                &mut blocks,
                &solution,
                &order,
                0,
                &mut checker,
                &Tracker::new(None),
            );
            let mut single = solution.clone();
            for &[c] in &cells {
                single.set(c, None);
                if !checker.unique(&single) {
                    single.set(c, solution.get(c));
                }
            }
            assert_eq!(blocks, single, "seed {seed}");
        }
    }

    #[test]
    fn restarted_counts_agree_with_plain_counts() {
        // A unit of one node forces many restarts on isomorphic copies.
        let shape = Shape::sudoku(3, 3).unwrap();
        let mut checker = Checker::new(shape, None, 1, true, None);
        checker.unit = 1;
        let mut rng = puzzle_rng(8, 0);
        let solution = random_grid(&Grid::empty(shape), &mut rng).unwrap().unwrap();
        let mut cells: Vec<usize> = (0..81).collect();
        cells.shuffle(&mut rng);
        let mut puzzle = solution.clone();
        let (mut unique, mut multiple) = (0, 0);
        for c in cells {
            puzzle.set(c, None);
            let plain = Native.count(&puzzle, 2, &Limits::none()).unwrap().count == 1;
            assert_eq!(checker.unique(&puzzle), plain);
            if plain {
                unique += 1;
            } else {
                multiple += 1;
                puzzle.set(c, solution.get(c));
            }
        }
        assert!(unique > 0 && multiple > 0);
    }

    #[test]
    fn a_target_number_of_givens_is_met() {
        let shape = Shape::sudoku(3, 3).unwrap();
        let options = Options {
            givens: Some(32),
            ..Options::default()
        };
        let mut generator = Generator::new(shape, options).unwrap();
        let made = generator.generate(&mut puzzle_rng(3, 0)).unwrap();
        assert_eq!(made.puzzle.filled(), 32);
        assert_eq!(unique_solution(&made.puzzle), Ok(made.solution));
        let too_many = Options {
            givens: Some(82),
            ..Options::default()
        };
        assert!(matches!(
            Generator::new(shape, too_many),
            Err(GenerateError::TooManyGivens { .. })
        ));
    }

    #[test]
    fn an_unreachable_target_gives_up() {
        // No 4×4 puzzle has 3 givens with a unique solution (the minimum is 4).
        let options = Options {
            givens: Some(3),
            attempts: 5,
            ..Options::default()
        };
        let mut generator = Generator::new(Shape::sudoku(2, 2).unwrap(), options).unwrap();
        assert_eq!(
            generator.generate(&mut puzzle_rng(0, 0)),
            Err(GenerateError::GaveUp(5))
        );
    }

    #[test]
    fn scheme_requirements_are_met() {
        let shape = Shape::sudoku(3, 3).unwrap();
        let options = Options {
            scheme: Some(Scheme::HACS),
            not_scheme: Some(Scheme::HAC),
            ..Options::default()
        };
        let mut generator = Generator::new(shape, options).unwrap();
        let made = generator.generate(&mut puzzle_rng(5, 0)).unwrap();
        let grade = crate::grade::grade(&made.puzzle, &[Scheme::HAC, Scheme::HACS]);
        assert!(grade.is_search_free(Scheme::HACS) && !grade.is_search_free(Scheme::HAC));
        assert_eq!(unique_solution(&made.puzzle), Ok(made.solution));
    }

    #[test]
    fn minimize_keeps_the_solution_and_ends_minimal() {
        // A puzzle with many redundant givens: a complete grid with every fifth cell emptied.
        let solution = parse_line(
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
            None,
        )
        .unwrap();
        let mut puzzle = solution.clone();
        for cell in (0..81).step_by(5) {
            puzzle.set(cell, None);
        }
        let reduced = minimize(&puzzle, None).unwrap();
        assert_eq!(reduced.solution, solution);
        assert_eq!(reduced.before, 64);
        assert!(reduced.after < 64 && !reduced.already_minimal());
        assert_eq!(unique_solution(&reduced.puzzle), Ok(solution.clone()));
        assert!(is_locally_minimal(&reduced.puzzle).unwrap());
        assert!(
            reduced
                .puzzle
                .givens()
                .all(|(c, v)| puzzle.get(c) == Some(v))
        );
        // Reducing again changes nothing.
        let again = minimize(&reduced.puzzle, None).unwrap();
        assert!(again.already_minimal());
        assert_eq!(again.puzzle, reduced.puzzle);
    }

    #[test]
    fn minimize_rejects_puzzles_that_are_not_well_posed() {
        let empty = Grid::empty(Shape::sudoku(2, 2).unwrap());
        assert_eq!(minimize(&empty, None), Err(MinimizeError::Multiple));
        // Row 2 needs 1 and 2 in its first box, which already holds them: no clash, no solution.
        let unsat = parse_line("12....34........", None).unwrap();
        assert_eq!(minimize(&unsat, None), Err(MinimizeError::Unsat));
        assert!(!is_locally_minimal(&empty).unwrap());
    }
}
