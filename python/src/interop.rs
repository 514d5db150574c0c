//! Exports and the partners of other Python tools: `export` (every format of the registry),
//! `to_clauses` (the CNF as integer lists for PySAT, with the variable map), `decode` (a
//! solver's answer or a model mapped back to a grid and verified), and the precoloured graph
//! behind `to_networkx`.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use sudokit::Grid;
use sudokit::encode::cnf::{Amo, CnfOptions, Encoding, VarMap, encode};
use sudokit::encode::graph::edges;
use sudokit::encode::{Cnf, Lit, Model};
use sudokit::format::{Decoded, ExportOptions, FORMATS, decode_answer, find_format, find_reader};

use crate::errors::{failure, parse_error, value_error};
use crate::puzzle::{Puzzle, grid_of};
use crate::solving::SolveResult;

/// The export options of an encoding and an at-most-one name (the defaults of `export`).
fn export_options(encoding: Option<&str>, amo: Option<&str>) -> PyResult<ExportOptions> {
    let mut cnf = CnfOptions::default();
    if let Some(name) = encoding {
        cnf.encoding = name.parse::<Encoding>().map_err(value_error)?;
    }
    if let Some(name) = amo {
        cnf.amo = name.parse::<Amo>().map_err(value_error)?;
    }
    Ok(ExportOptions {
        cnf,
        ..ExportOptions::default()
    })
}

/// The puzzle in the export format `to` (`cnf`, `lp`, `mps`, `dlx`, `col`, `hgr`, `dzn`, ...);
/// `encoding` and `amo` choose the CNF encoding (`minimal`, `efficient`, `extended`,
/// `optimized`; `pairwise`, `sequential`, `product`, `bimander`).
#[pyfunction]
#[pyo3(signature = (puzzle, to = "cnf", encoding = None, amo = None))]
pub fn export(
    puzzle: &Bound<'_, PyAny>,
    to: &str,
    encoding: Option<&str>,
    amo: Option<&str>,
) -> PyResult<String> {
    let grid = grid_of(puzzle)?;
    let format = find_format(to).map_err(value_error)?;
    let mut out = Vec::new();
    sudokit::format::export(
        &grid,
        format,
        &export_options(encoding, amo)?,
        &[],
        &mut out,
    )
    .map_err(failure)?;
    String::from_utf8(out).map_err(failure)
}

/// The names of the export formats.
#[pyfunction]
pub fn formats() -> Vec<&'static str> {
    FORMATS.iter().map(|f| f.name).collect()
}

/// A CNF formula in memory: `clauses` (lists of non-zero DIMACS integers, as PySAT's
/// `CNF(from_clauses=...)` takes them) over `num_vars` variables, and its variable map:
/// `var(row, col, value)` and `decode(model)`.
#[pyclass(module = "sudokit", frozen)]
pub struct Clauses {
    puzzle: Grid,
    cnf: Cnf,
    map: VarMap,
    options: CnfOptions,
    trivially_unsat: bool,
}

#[pymethods]
impl Clauses {
    /// The clauses, each a list of DIMACS literals.
    #[getter]
    fn clauses(&self) -> Vec<Vec<i64>> {
        self.cnf
            .clauses()
            .map(|c| c.iter().map(|l| l.to_dimacs()).collect())
            .collect()
    }

    /// Number of variables (cell variables and auxiliary ones).
    #[getter]
    fn num_vars(&self) -> usize {
        self.cnf.vars()
    }

    /// The encoding and at-most-one names.
    #[getter]
    fn encoding(&self) -> (&'static str, &'static str) {
        (self.options.encoding.name(), self.options.amo.name())
    }

    /// Whether the formula holds an empty clause (clashing givens, or a cell or unit left
    /// without a place for a value).
    #[getter]
    fn trivially_unsat(&self) -> bool {
        self.trivially_unsat
    }

    /// The DIMACS variable of "cell (row, col) holds value" (all 1-based), or None when the
    /// encoding fixed it (`optimized`: the givens and their peers).
    fn var(&self, row: usize, col: usize, value: usize) -> PyResult<Option<usize>> {
        let n = self.map.order();
        if !(1..=n).contains(&row) || !(1..=n).contains(&col) || !(1..=n).contains(&value) {
            return Err(value_error(format!(
                "row, column and value go from 1 to {n}"
            )));
        }
        Ok(self
            .map
            .var(row - 1, col - 1, value - 1)
            .map(|v| v.to_dimacs()))
    }

    /// The grid a model describes (the true literals; a PySAT model, or any iterable of
    /// DIMACS integers), verified as a solution of the puzzle. Raises `SudokitError` when the
    /// model sets no value or two values of a cell, or the grid is not a solution.
    fn decode(&self, model: Vec<i64>) -> PyResult<Puzzle> {
        let grid = decode_model(&self.puzzle, &self.map, &model)?;
        sudokit::verify(&self.puzzle, &grid)
            .map_err(|v| failure(format!("the model is not a solution: {v}")))?;
        Ok(Puzzle::new(grid))
    }

    fn __len__(&self) -> usize {
        self.cnf.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "<Clauses {}:{}: {} variables, {} clauses>",
            self.options.encoding.name(),
            self.options.amo.name(),
            self.cnf.vars(),
            self.cnf.len()
        )
    }
}

/// The grid of a model's true literals under `map`.
fn decode_model(puzzle: &Grid, map: &VarMap, model: &[i64]) -> PyResult<Grid> {
    let lits = model.iter().filter(|&&l| l != 0).map(|&l| {
        if l.unsigned_abs() >= i32::MAX as u64 {
            Err(value_error(format!("{l} is not a DIMACS literal")))
        } else {
            Ok(Lit::from_dimacs(l))
        }
    });
    let model = Model::from_lits(lits.collect::<PyResult<Vec<_>>>()?);
    map.decode(puzzle, &model).map_err(failure)
}

/// The CNF of `puzzle` (the encoding `export(to="cnf")` writes with the same options) as
/// integer lists with its variable map.
#[pyfunction]
#[pyo3(signature = (puzzle, encoding = None, amo = None))]
pub fn to_clauses(
    puzzle: &Bound<'_, PyAny>,
    encoding: Option<&str>,
    amo: Option<&str>,
) -> PyResult<Clauses> {
    let grid = grid_of(puzzle)?;
    let options = export_options(encoding, amo)?.cnf;
    let mut cnf = Cnf::new();
    let encoded = encode(&grid, options, &mut cnf);
    Ok(Clauses {
        puzzle: grid,
        cnf,
        map: encoded.map,
        options,
        trivially_unsat: encoded.trivially_unsat,
    })
}

/// A solver's answer mapped back to the puzzle and verified: `answer` is the text a solver
/// wrote (`source` names its form: `minisat`, `competition`, `glpsol`, `cbc`; the puzzle
/// exported with the same `encoding`/`amo`), or a model (an iterable of DIMACS integers, as
/// PySAT's `get_model()` gives) of `to_clauses(puzzle, encoding, amo)`. The result's status
/// is `solved` (a verified solution), `unsat`, `unknown`, `invalid` (the grid breaks a rule:
/// `reason` names it) or `error` (the answer describes no grid). Raises `ParseError` with line
/// and column when the text cannot be read.
#[pyfunction]
#[pyo3(signature = (puzzle, answer, source = "minisat", encoding = None, amo = None))]
pub fn decode(
    puzzle: &Bound<'_, PyAny>,
    answer: &Bound<'_, PyAny>,
    source: &str,
    encoding: Option<&str>,
    amo: Option<&str>,
) -> PyResult<SolveResult> {
    let grid = grid_of(puzzle)?;
    let options = export_options(encoding, amo)?;
    let text: Option<Vec<u8>> = if let Ok(text) = answer.cast::<PyString>() {
        Some(text.to_cow()?.as_bytes().to_vec())
    } else if let Ok(bytes) = answer.cast::<PyBytes>() {
        Some(bytes.as_bytes().to_vec())
    } else {
        None
    };
    let name = if text.is_some() { source } else { "model" };
    let decoded = match text {
        Some(bytes) => {
            let reader = find_reader(source).map_err(value_error)?;
            decode_answer(&grid, reader, &options, &mut bytes.as_slice())
                .map_err(|e| parse_error(None, e.line, e.column, &e.kind))?
        }
        None => {
            let model: Vec<i64> = answer.extract()?;
            let mut cnf = sudokit::encode::Counter::default();
            let map = encode(&grid, options.cnf, &mut cnf).map;
            match decode_model(&grid, &map, &model) {
                Ok(candidate) => match sudokit::verify(&grid, &candidate) {
                    Ok(()) => Decoded::Solution(candidate),
                    Err(v) => Decoded::Invalid(candidate, v),
                },
                Err(e) => Decoded::NotAGrid(e.to_string()),
            }
        }
    };
    let mut result = SolveResult::new(&grid, name, "solved");
    match decoded {
        Decoded::Solution(solution) => result.solution = Some(solution),
        Decoded::Unsat => result.status = "unsat",
        Decoded::Unknown => result.status = "unknown",
        Decoded::Invalid(_, violation) => {
            result.status = "invalid";
            result.reason = Some(violation.to_string());
        }
        Decoded::NotAGrid(reason) => {
            result.status = "error";
            result.reason = Some(reason);
        }
    }
    Ok(result)
}

/// The precoloured graph of `puzzle`: `(vertices, edges, precolouring, colours)`, vertex
/// `row·n + col` (0-based), precolouring `(vertex, colour)` with colour = value − 1.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn precoloured_graph(
    puzzle: &Bound<'_, PyAny>,
) -> PyResult<(usize, Vec<(usize, usize)>, Vec<(usize, usize)>, usize)> {
    let grid = grid_of(puzzle)?;
    let shape = grid.shape();
    Ok((
        shape.cells(),
        edges(shape).collect(),
        grid.givens().collect(),
        shape.order(),
    ))
}
