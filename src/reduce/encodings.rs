//! The encoders as reductions: Sudoku → CNF, → 0-1 ILP, → exact cover, → precoloured graph.
//!
//! Each type wraps one encoder of [`crate::encode`] in the [`Reduction`] interface: the target
//! is what the encoder builds (and what the writers of [`crate::format`] write), the size is the
//! closed form of the encoder's docs, the target check is the certificate of the target problem,
//! and the back-map decodes the target solution to a grid and runs the O(n²) verifier on it.
//!
//! | reduction | target | target solution | size (n = order, U = unit kinds, g = givens) |
//! |---|---|---|---|
//! | [`SudokuToCnf`] | [`CnfTarget`] (in-memory [`Cnf`] + variable map) | assignment `Vec<bool>` | [`formula_size`]; `optimized` is measured |
//! | [`SudokuToIlp`] | [`Ilp`] | [`IlpSolution`] (named 0-1 values) | n³ columns, (U+1)·n² + g rows, (U+1)·n³ + g non-zeros |
//! | [`SudokuToExactCover`] | [`ExactCover`] | chosen options `(r, c, v)` | one option per allowed (r,c,v), (U+1)·n² items |
//! | [`SudokuToColouring`] | [`Precoloured`] | one colour per vertex | n² vertices, n²·deg/2 edges, g precoloured |
//!
//! Solving: [`crate::reduce::course`] solves every target with its own solver (varisat, microlp
//! or HiGHS, dancing links, DSATUR) and maps each answer back through these reductions;
//! `reduce latin --to …` writes the targets for external tools, whose answers these reductions
//! check and map back the same way.
//!
//! # Complexity
//! Building each target is linear in its size (O(n³), O(n⁴) for pairwise CNF); the size
//! formulas are O(1) except the exact-cover option count, O(n³) from the allowed values. Target
//! checks are linear in the target, back-maps O(n³) (decode) + O(n²) (verify).
//!
//! # References
//! See [`crate::encode::cnf`], [`crate::encode::ilp`], [`crate::encode::exact_cover`] and
//! [`crate::encode::graph`].
//!
//! # Examples
//! ```
//! use sudokit::reduce::encodings::SudokuToColouring;
//! use sudokit::reduce::reduction::Reduction;
//! use sudokit::text::parse_line;
//! let puzzle = parse_line("1432..4141233214", None).unwrap();
//! let graph = SudokuToColouring.reduce(&puzzle).unwrap();
//! let colours = vec![0, 3, 2, 1, 1, 2, 3, 0, 3, 0, 1, 2, 2, 1, 0, 3];
//! SudokuToColouring.check_target(&graph, &colours).unwrap();
//! let grid = SudokuToColouring.back(&puzzle, &graph, &colours).unwrap();
//! assert_eq!(grid.at(1, 0), Some(1));
//! ```

use crate::encode::cnf::{CnfOptions, Encoded, encode, formula_size};
use crate::encode::exact_cover::ExactCover;
use crate::encode::graph::{Precoloured, edge_count, is_proper, precoloured};
use crate::encode::ilp::{Ilp, IlpSolution, IlpStatus, decode, parse_var_name};
use crate::encode::{Cnf, Model, Var, allowed, x_index};
use crate::grid::Grid;
use crate::reduce::reduction::{
    CNF_SIZE_NAMES, COVER_SIZE_NAMES, GRAPH_SIZE_NAMES, ILP_SIZE_NAMES, InstanceSize, Reduction,
    ReductionError, SizeNames, SizeRow,
};
use crate::verify::verify;

/// Unit kinds of a grid: 3 for Sudoku, 2 for a Latin square.
fn unit_kinds(grid: &Grid) -> usize {
    grid.shape().unit_count() / grid.shape().order()
}

fn reject(target: &'static str, reason: String) -> ReductionError {
    ReductionError::TargetCheck { target, reason }
}

/// Sudoku → CNF with the given encoding and at-most-one encoding.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SudokuToCnf {
    /// Encoding and AMO encoding.
    pub options: CnfOptions,
}

/// A CNF target: the formula in memory and what the encoder reported (the variable map).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CnfTarget {
    /// The clauses.
    pub cnf: Cnf,
    /// The variable map and the encoder's notes.
    pub encoded: Encoded,
    /// The options it was encoded with.
    pub options: CnfOptions,
}

impl Reduction for SudokuToCnf {
    type Source = Grid;
    type SourceSolution = Grid;
    type Target = CnfTarget;
    type TargetSolution = Vec<bool>;

    fn name(&self) -> String {
        format!(
            "Sudoku → CNF ({}, {} AMO)",
            self.options.encoding, self.options.amo
        )
    }

    fn size_names(&self) -> SizeNames {
        CNF_SIZE_NAMES
    }

    fn reduce(&self, source: &Grid) -> Result<CnfTarget, ReductionError> {
        let mut cnf = Cnf::new();
        let encoded = encode(source, self.options, &mut cnf);
        Ok(CnfTarget {
            cnf,
            encoded,
            options: self.options,
        })
    }

    /// The closed form of [`formula_size`]; every given is one unit clause (at order 1 every
    /// clause has one literal). The `optimized` encoding has no closed form (its size depends on
    /// where the givens are): it is measured on the encoded formula.
    fn target_size(&self, source: &Grid) -> Result<InstanceSize, ReductionError> {
        let Some(size) = formula_size(source.shape(), self.options, source.filled()) else {
            return Ok(self.size_of(&self.reduce(source)?));
        };
        let fixed = if source.shape().order() == 1 {
            size.clauses
        } else {
            source.filled()
        };
        Ok(InstanceSize {
            variables: size.vars,
            constraints: size.clauses,
            entries: size.literals,
            fixed,
        })
    }

    fn size_of(&self, target: &CnfTarget) -> InstanceSize {
        let cnf = &target.cnf;
        InstanceSize {
            variables: cnf.vars(),
            constraints: cnf.len(),
            entries: cnf.literal_count(),
            fixed: cnf.clauses().filter(|c| c.len() == 1).count(),
        }
    }

    fn check_target(&self, target: &CnfTarget, solution: &Vec<bool>) -> Result<(), ReductionError> {
        let cnf = &target.cnf;
        if solution.len() != cnf.vars() {
            return Err(reject(
                "CNF",
                format!(
                    "the assignment has {} values for {} variables",
                    solution.len(),
                    cnf.vars()
                ),
            ));
        }
        match cnf.clauses().position(|clause| {
            !clause
                .iter()
                .any(|l| solution[l.var().index()] != l.is_negative())
        }) {
            None => Ok(()),
            Some(i) => Err(reject(
                "CNF",
                format!("clause {} is false under the assignment", i + 1),
            )),
        }
    }

    fn back(
        &self,
        source: &Grid,
        target: &CnfTarget,
        solution: &Vec<bool>,
    ) -> Result<Grid, ReductionError> {
        let model = Model::from_lits(solution.iter().enumerate().map(|(i, &b)| {
            let var = Var::from_index(i);
            if b { var.positive() } else { var.negative() }
        }));
        let grid = target.encoded.map.decode(source, &model)?;
        verify(source, &grid)?;
        Ok(grid)
    }
}

/// Sudoku → 0-1 integer program (one equality per cell, unit-value and given).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SudokuToIlp;

impl Reduction for SudokuToIlp {
    type Source = Grid;
    type SourceSolution = Grid;
    type Target = Ilp;
    type TargetSolution = IlpSolution;

    fn name(&self) -> String {
        "Sudoku → 0-1 ILP".into()
    }

    fn size_names(&self) -> SizeNames {
        ILP_SIZE_NAMES
    }

    fn reduce(&self, source: &Grid) -> Result<Ilp, ReductionError> {
        Ok(Ilp::new(source))
    }

    fn target_size(&self, source: &Grid) -> Result<InstanceSize, ReductionError> {
        let (n, kinds, g) = (
            source.shape().order(),
            unit_kinds(source) + 1,
            source.filled(),
        );
        Ok(InstanceSize {
            variables: n * n * n,
            constraints: kinds * n * n + g,
            entries: kinds * n * n * n + g,
            fixed: g,
        })
    }

    /// Counts the rows and non-zeros [`Ilp::rows`] yields.
    fn size_of(&self, target: &Ilp) -> InstanceSize {
        let mut size = InstanceSize {
            variables: target.var_count(),
            ..InstanceSize::default()
        };
        for row in target.rows() {
            size.constraints += 1;
            size.entries += row.vars.len();
            size.fixed += usize::from(row.name().starts_with("given_"));
        }
        size
    }

    fn check_target(&self, target: &Ilp, solution: &IlpSolution) -> Result<(), ReductionError> {
        if solution.status != IlpStatus::Optimal {
            return Err(reject(
                "0-1 ILP",
                format!("the status is {:?}, not a solution", solution.status),
            ));
        }
        let n = target.shape().order();
        let mut values = vec![0.0f64; n * n * n];
        for (name, value) in &solution.values {
            let (r, c, v) = parse_var_name(name, n)
                .ok_or_else(|| reject("0-1 ILP", format!("unknown column {name}")))?;
            if value.abs() > 1e-6 && (value - 1.0).abs() > 1e-6 {
                return Err(reject("0-1 ILP", format!("{name} = {value} is not 0 or 1")));
            }
            values[x_index(n, r, c, v)] = value.round();
        }
        for row in target.rows() {
            let sum: f64 = row
                .vars
                .iter()
                .map(|&(r, c, v)| values[x_index(n, r, c, v)])
                .sum();
            if sum != 1.0 {
                return Err(reject(
                    "0-1 ILP",
                    format!("row {} sums to {sum}, not 1", row.name()),
                ));
            }
        }
        Ok(())
    }

    fn back(
        &self,
        source: &Grid,
        _target: &Ilp,
        solution: &IlpSolution,
    ) -> Result<Grid, ReductionError> {
        let grid = decode(source, solution)?;
        verify(source, &grid)?;
        Ok(grid)
    }
}

/// Sudoku → exact cover (one option per allowed `(r, c, v)`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SudokuToExactCover;

impl Reduction for SudokuToExactCover {
    type Source = Grid;
    type SourceSolution = Grid;
    type Target = ExactCover;
    /// The chosen options `(r, c, v)`, 0-based.
    type TargetSolution = Vec<(usize, usize, usize)>;

    fn name(&self) -> String {
        "Sudoku → exact cover".into()
    }

    fn size_names(&self) -> SizeNames {
        COVER_SIZE_NAMES
    }

    fn reduce(&self, source: &Grid) -> Result<ExactCover, ReductionError> {
        Ok(ExactCover::new(source))
    }

    /// Options are the allowed `(r, c, v)` ([`allowed`]): not a closed form in `n` and `g`
    /// alone, since it depends on where the givens are; each covers `U + 1` items.
    fn target_size(&self, source: &Grid) -> Result<InstanceSize, ReductionError> {
        let shape = source.shape();
        let n = shape.order();
        let kinds = unit_kinds(source) + 1;
        let allowed = allowed(source);
        let options = allowed.iter().filter(|&&a| a).count();
        let single = allowed
            .chunks(n)
            .filter(|cell| cell.iter().filter(|&&a| a).count() == 1)
            .count();
        Ok(InstanceSize {
            variables: options,
            constraints: kinds * n * n,
            entries: kinds * options,
            fixed: single,
        })
    }

    fn size_of(&self, target: &ExactCover) -> InstanceSize {
        let n = target.shape().order();
        let mut per_cell = vec![0usize; n * n];
        let mut size = InstanceSize {
            constraints: target.item_count(),
            ..InstanceSize::default()
        };
        for (r, c, v) in target.options() {
            size.variables += 1;
            size.entries += target.option_items(r, c, v).len();
            per_cell[r * n + c] += 1;
        }
        size.fixed = per_cell.iter().filter(|&&k| k == 1).count();
        size
    }

    fn check_target(
        &self,
        target: &ExactCover,
        solution: &Vec<(usize, usize, usize)>,
    ) -> Result<(), ReductionError> {
        let n = target.shape().order();
        let mut covered = vec![0u32; target.item_count()];
        for &(r, c, v) in solution {
            if r >= n || c >= n || v >= n || !target.is_option(r, c, v) {
                return Err(reject(
                    "exact cover",
                    format!("({}, {}, {}) is not an option", r + 1, c + 1, v + 1),
                ));
            }
            for item in target.option_items(r, c, v) {
                covered[target.item_index(item)] += 1;
            }
        }
        match target.items().zip(&covered).find(|(_, k)| **k != 1) {
            None => Ok(()),
            Some((item, k)) => Err(reject(
                "exact cover",
                format!("item {item:?} is covered {k} times, not once"),
            )),
        }
    }

    fn back(
        &self,
        source: &Grid,
        _target: &ExactCover,
        solution: &Vec<(usize, usize, usize)>,
    ) -> Result<Grid, ReductionError> {
        let shape = source.shape();
        let n = shape.order();
        let mut grid = Grid::empty(shape);
        for &(r, c, v) in solution {
            if r >= n || c >= n || v >= n {
                return Err(reject(
                    "exact cover",
                    format!("({}, {}, {}) is outside the grid", r + 1, c + 1, v + 1),
                ));
            }
            grid.set(shape.cell(r, c), Some(v));
        }
        verify(source, &grid)?;
        Ok(grid)
    }
}

/// Sudoku → precolouring extension on the Sudoku graph (colour = value).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SudokuToColouring;

impl Reduction for SudokuToColouring {
    type Source = Grid;
    type SourceSolution = Grid;
    type Target = Precoloured;
    /// One colour (0-based) per vertex.
    type TargetSolution = Vec<usize>;

    fn name(&self) -> String {
        "Sudoku → graph precolouring".into()
    }

    fn size_names(&self) -> SizeNames {
        GRAPH_SIZE_NAMES
    }

    fn reduce(&self, source: &Grid) -> Result<Precoloured, ReductionError> {
        Ok(precoloured(source))
    }

    fn target_size(&self, source: &Grid) -> Result<InstanceSize, ReductionError> {
        let edges = edge_count(source.shape());
        Ok(InstanceSize {
            variables: source.shape().cells(),
            constraints: edges,
            entries: 2 * edges,
            fixed: source.filled(),
        })
    }

    fn size_of(&self, target: &Precoloured) -> InstanceSize {
        InstanceSize {
            variables: target.graph.node_count(),
            constraints: target.graph.edge_count(),
            entries: 2 * target.graph.edge_count(),
            fixed: target.precolouring.len(),
        }
    }

    fn check_target(
        &self,
        target: &Precoloured,
        solution: &Vec<usize>,
    ) -> Result<(), ReductionError> {
        let vertices = target.graph.node_count();
        if solution.len() != vertices {
            return Err(reject(
                "colouring",
                format!("{} colours for {vertices} vertices", solution.len()),
            ));
        }
        if let Some(v) = solution.iter().position(|&c| c >= target.colours) {
            return Err(reject(
                "colouring",
                format!(
                    "vertex {} has colour {}, above {}",
                    v + 1,
                    solution[v] + 1,
                    target.colours
                ),
            ));
        }
        if let Some(&(v, c)) = target.precolouring.iter().find(|&&(v, c)| solution[v] != c) {
            return Err(reject(
                "colouring",
                format!(
                    "vertex {} is precoloured {} but has {}",
                    v + 1,
                    c + 1,
                    solution[v] + 1
                ),
            ));
        }
        if !is_proper(&target.graph, solution) {
            return Err(reject(
                "colouring",
                "two adjacent vertices share a colour".into(),
            ));
        }
        Ok(())
    }

    fn back(
        &self,
        source: &Grid,
        _target: &Precoloured,
        solution: &Vec<usize>,
    ) -> Result<Grid, ReductionError> {
        let shape = source.shape();
        if solution.len() != shape.cells() || solution.iter().any(|&c| c >= shape.order()) {
            return Err(reject(
                "colouring",
                format!(
                    "{} colours in 1..={} needed, one per cell",
                    shape.cells(),
                    shape.order()
                ),
            ));
        }
        let cells: Vec<Option<usize>> = solution.iter().map(|&c| Some(c)).collect();
        let grid = Grid::from_cells(shape, &cells);
        verify(source, &grid)?;
        Ok(grid)
    }
}

/// The predicted size of every target of `sudoku`, one row per reduction of this module, in the
/// order CNF (with `cnf`), 0-1 ILP, exact cover, graph precolouring.
///
/// # Errors
/// As the reductions' [`Reduction::target_size`].
pub fn every_target_size(sudoku: &Grid, cnf: CnfOptions) -> Result<Vec<SizeRow>, ReductionError> {
    fn row<R: Reduction<Source = Grid>>(r: &R, sudoku: &Grid) -> Result<SizeRow, ReductionError> {
        Ok(SizeRow {
            level: r.name(),
            names: r.size_names(),
            size: r.target_size(sudoku)?,
        })
    }
    Ok(vec![
        row(&SudokuToCnf { options: cnf }, sudoku)?,
        row(&SudokuToIlp, sudoku)?,
        row(&SudokuToExactCover, sudoku)?,
        row(&SudokuToColouring, sudoku)?,
    ])
}
