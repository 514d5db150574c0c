//! Reductions as objects: a source instance becomes a target instance, a target solution maps
//! back to a source solution, and the size of the target is known from the source alone.
//!
//! A [`Reduction`] has four operations:
//! - [`Reduction::reduce`]: source instance → target instance;
//! - [`Reduction::target_size`]: the [`InstanceSize`] of that target, computed from the source without
//!   building the target (a closed form where one exists; the tests check it against the files
//!   the writers produce);
//! - [`Reduction::check_target`]: the certificate check of the target problem (a satisfying
//!   assignment, a feasible 0-1 point, an exact cover, a proper colouring extending the
//!   precolouring);
//! - [`Reduction::back`]: target solution → source solution, checked again at the source level
//!   with the O(n²) verifier ([`crate::verify()`]): a back-map never trusts its input.
//!
//! Implementations: [`crate::reduce::latin::LatinToSudoku`] (Latin square completion → Sudoku)
//! and, in [`crate::reduce::encodings`], Sudoku → CNF, → 0-1 ILP, → exact cover, → precoloured
//! Sudoku graph. [`Compose`] chains two reductions whose types meet, e.g. Latin square → Sudoku
//! → CNF; [`crate::reduce::sat_chain`] runs that chain step by step with a SAT solver.
//!
//! # Sizes
//! Every target is measured with the same four numbers, named per formalism by
//! [`Reduction::size_names`]: *variables* (cells, Boolean variables, 0-1 columns, options,
//! vertices), *constraints* (units, clauses, rows, items, edges), *entries* (the total arity of
//! the constraints: cell–unit incidences, literal occurrences, non-zeros, option–item incidences,
//! edge ends) and *fixed* (givens, given unit clauses, given rows, given cells, precoloured
//! vertices).
//!
//! # Complexity
//! Each implementation documents its own; all are polynomial (at most O(n⁴) output for pairwise
//! CNF encodings).
//!
//! # Examples
//! ```
//! use sudokit::reduce::encodings::SudokuToCnf;
//! use sudokit::reduce::latin::LatinToSudoku;
//! use sudokit::reduce::reduction::{Compose, Reduction};
//! use sudokit::text::{ShapeSpec, parse_line};
//! let latin = parse_line("1.......3", Some(ShapeSpec::Latin)).unwrap();
//! let chain = Compose(LatinToSudoku, SudokuToCnf::default());
//! let size = chain.target_size(&latin).unwrap();
//! let target = chain.reduce(&latin).unwrap();
//! assert_eq!(size, chain.size_of(&target));
//! assert_eq!(size.variables, 729);
//! ```

use thiserror::Error;

use crate::encode::cnf::DecodeError;
use crate::encode::ilp::IlpDecodeError;
use crate::grid::Grid;
use crate::reduce::latin_error::LatinReductionError;
use crate::verify::Violation;

/// The size of an instance; see the module docs for what each number counts per formalism.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct InstanceSize {
    /// Cells, Boolean variables, 0-1 columns, options or vertices.
    pub variables: usize,
    /// Units, clauses, rows, items or edges.
    pub constraints: usize,
    /// Total arity of the constraints: incidences, literals, non-zeros, edge ends.
    pub entries: usize,
    /// Givens, given unit clauses, given rows, given cells or precoloured vertices.
    pub fixed: usize,
}

/// What the four numbers of an [`InstanceSize`] are called in one formalism.
pub type SizeNames = [&'static str; 4];

impl InstanceSize {
    /// The four numbers in the order of [`SizeNames`].
    pub fn numbers(&self) -> [usize; 4] {
        [self.variables, self.constraints, self.entries, self.fixed]
    }

    /// "729 variables, 11988 clauses, …" with the names of one formalism.
    pub fn describe(&self, names: &SizeNames) -> String {
        let parts: Vec<String> = self
            .numbers()
            .iter()
            .zip(names)
            .map(|(k, name)| format!("{k} {name}"))
            .collect();
        parts.join(", ")
    }
}

/// One row of a sizes table: a level (or reduction) name, what its numbers count, the numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SizeRow {
    /// The level, e.g. `"Sudoku → 0-1 ILP"`.
    pub level: String,
    /// What the numbers count.
    pub names: SizeNames,
    /// The numbers.
    pub size: InstanceSize,
}

/// The size of a grid as a constraint problem: `n²` cells, its units, `n` cells per unit, and its
/// givens.
pub fn grid_size(grid: &Grid) -> InstanceSize {
    let shape = grid.shape();
    InstanceSize {
        variables: shape.cells(),
        constraints: shape.unit_count(),
        entries: shape.unit_count() * shape.order(),
        fixed: grid.filled(),
    }
}

/// The names of [`grid_size`]'s numbers.
pub const GRID_SIZE_NAMES: SizeNames = ["cells", "units", "cell–unit incidences", "givens"];

/// The names of a CNF's sizes.
pub const CNF_SIZE_NAMES: SizeNames = ["variables", "clauses", "literals", "unit clauses"];

/// The names of a 0-1 ILP's sizes.
pub const ILP_SIZE_NAMES: SizeNames = ["0-1 variables", "equality rows", "non-zeros", "given rows"];

/// The names of an exact cover's sizes.
pub const COVER_SIZE_NAMES: SizeNames = [
    "options",
    "items",
    "option–item incidences",
    "single-option cells",
];

/// The names of a precoloured graph's sizes.
pub const GRAPH_SIZE_NAMES: SizeNames = ["vertices", "edges", "edge ends", "precoloured vertices"];

/// Why a reduction step, a target check or a back-map failed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ReductionError {
    /// The Latin-square reduction refused (too large, wrong shape, not a solution).
    #[error("{0}")]
    Latin(#[from] LatinReductionError),
    /// The target solution fails the target's own certificate check.
    #[error("not a {target} solution: {reason}")]
    TargetCheck {
        /// The target formalism.
        target: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// A SAT model that does not describe a grid.
    #[error("{0}")]
    CnfDecode(#[from] DecodeError),
    /// A 0-1 point that does not describe a grid.
    #[error("{0}")]
    IlpDecode(#[from] IlpDecodeError),
    /// The mapped-back solution fails the O(n²) verifier at the source level.
    #[error("the mapped-back grid is not a solution: {0}")]
    NotASolution(#[from] Violation),
}

/// A polynomial reduction with an executable back-map; see the module docs.
pub trait Reduction {
    /// The source problem's instance.
    type Source;
    /// The source problem's solution.
    type SourceSolution;
    /// The target problem's instance.
    type Target;
    /// The target problem's solution.
    type TargetSolution;

    /// A short name, e.g. `"Sudoku → CNF"`.
    fn name(&self) -> String;

    /// What the four numbers of the target's [`InstanceSize`] count.
    fn size_names(&self) -> SizeNames;

    /// Builds the target instance.
    ///
    /// # Errors
    /// [`ReductionError`] when the source is outside what the reduction supports (e.g. a Latin
    /// square whose Sudoku would exceed the largest order).
    fn reduce(&self, source: &Self::Source) -> Result<Self::Target, ReductionError>;

    /// The size of [`Reduction::reduce`]'s target, from the source alone.
    ///
    /// # Errors
    /// As [`Reduction::reduce`].
    fn target_size(&self, source: &Self::Source) -> Result<InstanceSize, ReductionError>;

    /// The size of a built target, measured on the target itself.
    fn size_of(&self, target: &Self::Target) -> InstanceSize;

    /// Checks a target solution against the target instance (the target-level certificate).
    ///
    /// # Errors
    /// [`ReductionError::TargetCheck`] naming the first violated constraint.
    fn check_target(
        &self,
        target: &Self::Target,
        solution: &Self::TargetSolution,
    ) -> Result<(), ReductionError>;

    /// Maps a target solution back to a source solution, verified at the source level.
    ///
    /// # Errors
    /// [`ReductionError`] when the target solution does not describe a source solution.
    fn back(
        &self,
        source: &Self::Source,
        target: &Self::Target,
        solution: &Self::TargetSolution,
    ) -> Result<Self::SourceSolution, ReductionError>;
}

/// Two reductions one after the other: `A: X → Y` then `B: Y → Z` is a reduction `X → Z`.
///
/// The composed target keeps the middle instance, so that the back-map can go through it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Compose<A, B>(pub A, pub B);

/// The target of a [`Compose`]: the middle instance and the final one.
#[derive(Debug, Clone)]
pub struct Composed<M, T> {
    /// The first reduction's target (the second's source).
    pub middle: M,
    /// The final target.
    pub last: T,
}

impl<A, B> Reduction for Compose<A, B>
where
    A: Reduction,
    B: Reduction<Source = A::Target, SourceSolution = A::TargetSolution>,
{
    type Source = A::Source;
    type SourceSolution = A::SourceSolution;
    type Target = Composed<A::Target, B::Target>;
    type TargetSolution = B::TargetSolution;

    fn name(&self) -> String {
        let (a, b) = (self.0.name(), self.1.name());
        // "X → Y" then "Y → Z" reads "X → Y → Z".
        match b.split_once(" → ") {
            Some((_, rest)) => format!("{a} → {rest}"),
            None => format!("{a}; {b}"),
        }
    }

    fn size_names(&self) -> SizeNames {
        self.1.size_names()
    }

    fn reduce(&self, source: &Self::Source) -> Result<Self::Target, ReductionError> {
        let middle = self.0.reduce(source)?;
        let last = self.1.reduce(&middle)?;
        Ok(Composed { middle, last })
    }

    /// Builds the middle instance (the second size is a function of it), not the last one.
    fn target_size(&self, source: &Self::Source) -> Result<InstanceSize, ReductionError> {
        self.1.target_size(&self.0.reduce(source)?)
    }

    fn size_of(&self, target: &Self::Target) -> InstanceSize {
        self.1.size_of(&target.last)
    }

    fn check_target(
        &self,
        target: &Self::Target,
        solution: &Self::TargetSolution,
    ) -> Result<(), ReductionError> {
        self.1.check_target(&target.last, solution)
    }

    /// Maps back through the middle level, checking the middle solution there too.
    fn back(
        &self,
        source: &Self::Source,
        target: &Self::Target,
        solution: &Self::TargetSolution,
    ) -> Result<Self::SourceSolution, ReductionError> {
        let middle = self.1.back(&target.middle, &target.last, solution)?;
        self.0.check_target(&target.middle, &middle)?;
        self.0.back(source, &target.middle, &middle)
    }
}
