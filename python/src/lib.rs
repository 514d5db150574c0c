//! The `sudokit._native` extension module: the sudokit library bound for Python. The Python
//! package `sudokit` re-exports it with docs and type stubs; `sudokit.dask` runs its tasks
//! on a Dask cluster.
//!
//! Every call binds the library (the facade, the registries, the ordered parallel map), never the
//! command line. Long calls run without the GIL on a reused pool thread while the calling
//! thread watches for Ctrl-C ([`interrupt`]). A call's answer is the library's record as plain
//! data, made a value by its result type in `sudokit._results` ([`values`]).

mod calls;
mod dask;
mod errors;
mod explain;
mod grid_input;
mod interop;
mod interrupt;
mod jobs;
mod latin;
mod puzzle;
mod read;
mod values;

use pyo3::prelude::*;

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("SudokitError", py.get_type::<errors::SudokitError>())?;
    m.add("ParseError", py.get_type::<errors::ParseError>())?;
    m.add_class::<puzzle::Puzzle>()?;
    m.add_class::<read::PuzzleIter>()?;
    m.add_function(wrap_pyfunction!(read::read, m)?)?;
    m.add_function(wrap_pyfunction!(puzzle::_puzzle_from_state, m)?)?;
    m.add_function(wrap_pyfunction!(calls::call, m)?)?;
    m.add_function(wrap_pyfunction!(calls::backends, m)?)?;
    m.add_function(wrap_pyfunction!(calls::backend_name, m)?)?;
    m.add_function(wrap_pyfunction!(calls::schemes, m)?)?;
    m.add_function(wrap_pyfunction!(interop::export, m)?)?;
    m.add_function(wrap_pyfunction!(interop::formats, m)?)?;
    m.add_function(wrap_pyfunction!(interop::to_clauses, m)?)?;
    m.add_function(wrap_pyfunction!(interop::decode, m)?)?;
    m.add_function(wrap_pyfunction!(interop::precoloured_graph, m)?)?;
    m.add_function(wrap_pyfunction!(interop::solution_of, m)?)?;
    m.add_function(wrap_pyfunction!(latin::reduce_latin, m)?)?;
    m.add_function(wrap_pyfunction!(latin::latin_back, m)?)?;
    m.add_function(wrap_pyfunction!(latin::latin_report, m)?)?;
    m.add_function(wrap_pyfunction!(latin::latin_svg, m)?)?;
    m.add_function(wrap_pyfunction!(explain::explain, m)?)?;
    m.add_function(wrap_pyfunction!(explain::explanation_page, m)?)?;
    m.add_function(wrap_pyfunction!(jobs::run, m)?)?;
    m.add_function(wrap_pyfunction!(jobs::records, m)?)?;
    m.add_function(wrap_pyfunction!(jobs::options, m)?)?;
    m.add_function(wrap_pyfunction!(jobs::commands, m)?)?;
    dask::register(m)?;
    Ok(())
}
