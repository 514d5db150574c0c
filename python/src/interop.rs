//! Exports and the partners of other Python tools: `export` (every format of the registry),
//! `to_clauses` (the CNF as integer lists for PySAT, with the variable map: a `Clauses` value
//! of `sudokit._results`), `decode` (a solver's answer or a model mapped back to a grid and
//! verified), and the precoloured graph behind `to_networkx`.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use pythonize::pythonize;
use sudokit::Grid;
use sudokit::encode::cnf::encode;
use sudokit::encode::graph::{edges, solution_of_colouring};
use sudokit::encode::{Cnf, Lit};
use sudokit::format::{
    Decoded, ExportFormat, ExportOptions, FORMATS, decode_answer, decode_literals, find_format,
    find_reader,
};
use sudokit::jobs::option_help::as_keywords;

use crate::errors::{failure, option_value_error, parse_error, value_error};
use crate::grid_input::grid_of;
use crate::interrupt::detached;
use crate::puzzle::Puzzle;
use crate::values::result;

/// The format `to` and its export options of an encoding and an at-most-one name, checked by
/// the library as `sudokit export` checks them.
fn export_options(
    to: &str,
    encoding: Option<&str>,
    amo: Option<&str>,
) -> PyResult<(&'static ExportFormat, ExportOptions)> {
    let format = find_format(to).map_err(option_value_error)?;
    let options = ExportOptions::named(format, encoding, amo);
    Ok((
        format,
        options.map_err(|m| option_value_error(as_keywords(&m)))?,
    ))
}

/// The puzzle in the export format `to` (`cnf`, `lp`, `mps`, `dlx`, `col`, `hgr`, `dzn`, ...);
/// `encoding` and `amo` choose the CNF encoding (`minimal`, `efficient`, `extended`,
/// `optimized`; `pairwise`, `sequential`, `product`, `bimander`), `encoding` the SMT-LIB one
/// (`bool`, `int`).
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
    let (format, options) = export_options(to, encoding, amo)?;
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

/// The CNF of `puzzle` (the encoding `export(to="cnf")` writes with the same options) as
/// integer lists with its variable map: a `Clauses` (`sudokit._results`).
#[pyfunction]
#[pyo3(signature = (puzzle, encoding = None, amo = None))]
pub fn to_clauses<'py>(
    py: Python<'py>,
    puzzle: &Bound<'py, PyAny>,
    encoding: Option<&str>,
    amo: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let grid = grid_of(puzzle)?;
    let options = export_options("cnf", encoding, amo)?.1.cnf;
    // Without the GIL, interruptible: a large order's encoding takes a while.
    let (grid, cnf, encoded) = detached(py, move || {
        let mut cnf = Cnf::new();
        let encoded = encode(&grid, options, &mut cnf);
        (grid, cnf, encoded)
    })?;
    let dimacs = |c: &[Lit]| c.iter().map(|l| l.to_dimacs()).collect::<Vec<i64>>();
    let n = grid.shape().order();
    let vars = (0..n * n * n).map(|k| {
        let var = encoded.map.var(k / (n * n), k / n % n, k % n);
        var.map(|v| v.to_dimacs())
    });
    let fields = (
        Puzzle::new(grid),
        (options.encoding.name(), options.amo.name()),
        cnf.clauses().map(dimacs).collect::<Vec<_>>(),
        cnf.vars(),
        encoded.trivially_unsat,
        vars.collect::<Vec<_>>(),
    );
    result(py, "Clauses", fields)
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
    let (_, options) = export_options("cnf", encoding, amo)?;
    let text = match answer.cast::<PyString>() {
        Ok(text) => Some(text.to_cow()?.as_bytes().to_vec()),
        Err(_) => answer.cast::<PyBytes>().ok().map(|b| b.as_bytes().to_vec()),
    };
    let decoded = match &text {
        Some(bytes) => {
            let reader = find_reader(source).map_err(option_value_error)?;
            let decoded = decode_answer(&grid, reader, &options, &mut bytes.as_slice());
            decoded.map_err(|e| parse_error(None, e.line, e.column, &e.kind))?
        }
        None => match decode_literals(&grid, options.cnf, &literals(answer)?) {
            Decoded::NotAGrid(reason) => Decoded::NotAGrid(format!(
                "{reason}: decode it with the Clauses it solved, or pass encoding= and amo="
            )),
            other => other,
        },
    };
    let name = if text.is_some() { source } else { "model" };
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
    solve_result(py, grid, backend, &record, solution)
}

/// A `SolveResult`: the record (plain data) with its grids as `Puzzle`s, the puzzle and the
/// backend (or reader) that answered.
fn solve_result<'py>(
    py: Python<'py>,
    puzzle: &Grid,
    backend: &str,
    record: &serde_json::Value,
    solution: Option<Grid>,
) -> PyResult<Bound<'py, PyAny>> {
    let puzzle = Puzzle::new(puzzle.clone());
    let solution: Vec<Puzzle> = solution.map(Puzzle::new).into_iter().collect();
    result(
        py,
        "SolveResult",
        (pythonize(py, record)?, solution, puzzle, backend),
    )
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

/// The solution a colouring of `puzzle`'s graph names: `classes[v]` is the colour class of
/// vertex `v` (0-based; `Puzzle.from_colouring` numbers the colours), checked by the
/// certificate verifier (the library's `solution_of_colouring`).
#[pyfunction]
pub fn solution_of(puzzle: &Bound<'_, PyAny>, classes: Vec<usize>) -> PyResult<Puzzle> {
    let solution = solution_of_colouring(&grid_of(puzzle)?, &classes).map_err(value_error)?;
    Ok(Puzzle::new(solution))
}
