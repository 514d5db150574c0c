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
use crate::grid_input::grid_of;
use crate::interrupt::detached;
use crate::solving::solve_result;
use crate::values::{Pick, grid_of_state, grid_state, hash_grid_with, pick, reduce};

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
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    to: &str,
    encoding: Option<&str>,
    amo: Option<&str>,
) -> PyResult<String> {
    let grid = grid_of(puzzle)?;
    let format = find_format(to).map_err(value_error)?;
    if !format.takes_cnf_options && (encoding.is_some() || amo.is_some()) {
        return Err(value_error(format!(
            "encoding and amo apply to the CNF formats, not {}",
            format.name
        )));
    }
    let options = export_options(encoding, amo)?;
    // Without the GIL, interruptible: a 100×100 export takes a while.
    let out = detached(py, move || {
        let mut out = Vec::new();
        sudokit::format::export(&grid, format, &options, &[], &mut out).map(|_| out)
    })?
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
///
/// A sequence of clauses, as PySAT's `CNF.clauses` is: `len`, iteration, `clauses[i]` (a list
/// of ints; negative from the end) and `clauses[i:j]` (a plain list of clauses: a slice has no
/// variable map, so it is not a `Clauses`). A value: equal to the same formula of the same
/// puzzle (encoding and at-most-one alike), hashable, picklable (the puzzle and the encoding's
/// names; the formula is encoded again, as it was).
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

    /// Maps a model back to the puzzle and checks it: the same result as `sudokit.decode`.
    ///
    /// Args:
    ///     model: the literals a SAT solver set (PySAT's `solver.get_model()`, any iterable of
    ///         DIMACS integers; 0 is ignored).
    ///
    /// Returns:
    ///     A `SolveResult` (`backend` "model"): `solved` with the verified `solution`,
    ///     `invalid` (the grid breaks a rule: `reason`), or `error` (the model is not a grid of
    ///     this encoding: `reason`, naming the encoding).
    fn decode<'py>(&self, model: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let decoded = decode_checked(&self.puzzle, &self.map, &literals(model)?, self.options);
        decoded_result(model.py(), &self.puzzle, "model", decoded)
    }

    /// The clauses as a PySAT formula (`pysat.formula.CNF`); needs python-sat.
    fn to_pysat<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let kwargs = pyo3::types::PyDict::new(py);
        kwargs.set_item("from_clauses", self.clauses())?;
        py.import("pysat.formula")?
            .getattr("CNF")?
            .call((), Some(&kwargs))
    }

    /// The clauses, one list of DIMACS literals each: a `Clauses` is a sequence that PySAT's
    /// `Solver(bootstrap_with=...)` and `CNF(from_clauses=...)` take as it is.
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyIterator>> {
        pyo3::types::PyList::new(py, self.clauses())?.try_iter()
    }

    /// Clause `index` (negative from the end) as a list of ints, or the clauses of a slice as
    /// a list of them.
    fn __getitem__<'py>(&self, index: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = index.py();
        let clause =
            |at: usize| -> Vec<i64> { self.cnf.clause(at).iter().map(|l| l.to_dimacs()).collect() };
        match pick(index, self.cnf.len(), "clause")? {
            Pick::One(at) => Ok(clause(at).into_pyobject(py)?.into_any()),
            Pick::Many(picked) => {
                let chosen: Vec<Vec<i64>> = picked.into_iter().map(clause).collect();
                Ok(chosen.into_pyobject(py)?.into_any())
            }
        }
    }

    /// Equal when the puzzle, the encoding and the clauses are.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Clauses>().is_ok_and(|o| {
            let o = o.get();
            o.puzzle == self.puzzle && o.options == self.options && o.cnf == self.cnf
        })
    }

    fn __ne__(&self, other: &Bound<'_, PyAny>) -> bool {
        !self.__eq__(other)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::Hash;
        hash_grid_with(&self.puzzle, |h| (self.options, self.cnf.len()).hash(h))
    }

    /// Pickling: the puzzle and the names of the encoding and the at-most-one.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        let (encoding, amo) = self.encoding();
        reduce(
            py,
            "_clauses_from_state",
            (grid_state(&self.puzzle), encoding, amo),
        )
    }

    /// A deep copy is the list of clauses (what `CNF(from_clauses=...)` keeps).
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Vec<Vec<i64>> {
        self.clauses()
    }

    /// A copy is the list of clauses.
    fn __copy__(&self) -> Vec<Vec<i64>> {
        self.clauses()
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
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    encoding: Option<&str>,
    amo: Option<&str>,
) -> PyResult<Clauses> {
    clauses_of(py, grid_of(puzzle)?, encoding, amo)
}

fn clauses_of(
    py: Python<'_>,
    grid: Grid,
    encoding: Option<&str>,
    amo: Option<&str>,
) -> PyResult<Clauses> {
    let options = export_options(encoding, amo)?.cnf;
    // Without the GIL, interruptible: a large order's encoding takes a while.
    detached(py, move || {
        let mut cnf = Cnf::new();
        let encoded = encode(&grid, options, &mut cnf);
        Clauses {
            puzzle: grid,
            cnf,
            map: encoded.map,
            options,
            trivially_unsat: encoded.trivially_unsat,
        }
    })
}

/// The inverse of `Clauses.__reduce__`: the puzzle encoded again.
#[pyfunction]
pub fn _clauses_from_state(
    py: Python<'_>,
    puzzle: &str,
    encoding: &str,
    amo: &str,
) -> PyResult<Clauses> {
    clauses_of(py, grid_of_state(puzzle)?, Some(encoding), Some(amo))
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
pub fn decode<'py>(
    puzzle: &Bound<'py, PyAny>,
    answer: &Bound<'py, PyAny>,
    source: &str,
    encoding: Option<&str>,
    amo: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
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
            let model = literals(answer)?;
            let mut cnf = sudokit::encode::Counter::default();
            let map = encode(&grid, options.cnf, &mut cnf).map;
            decode_checked(&grid, &map, &model, options.cnf)
        }
    };
    decoded_result(answer.py(), &grid, name, decoded)
}

/// The literals of a model: any iterable of DIMACS integers (a list, a generator, PySAT's
/// model).
fn literals(model: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    model
        .try_iter()
        .map_err(|_| value_error("a model is an iterable of DIMACS literals"))?
        .map(|l| l?.extract::<i64>())
        .collect()
}

/// A model decoded and checked; a model that is no grid of the encoding says which encoding
/// it was read with.
fn decode_checked(grid: &Grid, map: &VarMap, model: &[i64], options: CnfOptions) -> Decoded {
    match decode_model(grid, map, model) {
        Ok(candidate) => match sudokit::verify(grid, &candidate) {
            Ok(()) => Decoded::Solution(candidate),
            Err(v) => Decoded::Invalid(candidate, v),
        },
        Err(e) => Decoded::NotAGrid(format!(
            "{e} (the model was read as one of the encoding {}:{}; a model of other clauses \
             needs their encoding: decode it with the Clauses it solved, or pass encoding= and \
             amo=)",
            options.encoding.name(),
            options.amo.name()
        )),
    }
}

/// The one result shape of every decoding: `solved` with the verified solution, `unsat`,
/// `unknown`, `invalid` or `error` with the reason.
fn decoded_result<'py>(
    py: Python<'py>,
    grid: &Grid,
    backend: &str,
    decoded: Decoded,
) -> PyResult<Bound<'py, PyAny>> {
    let (status, reason, solution) = match decoded {
        Decoded::Solution(solution) => ("solved", None, Some(solution)),
        Decoded::Unsat => ("unsat", None, None),
        Decoded::Unknown => ("unknown", None, None),
        Decoded::Invalid(_, violation) => ("invalid", Some(violation.to_string()), None),
        Decoded::NotAGrid(reason) => ("error", Some(reason), None),
    };
    let record = serde_json::json!({"status": status, "reason": reason});
    solve_result(py, grid, backend, &record, [solution.as_ref(), None])
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
