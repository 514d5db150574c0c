//! How results reach Python as values: a library record (its `serde_json` value) converted to
//! plain Python data (by `pythonize`) and handed to its result type, a frozen dataclass of
//! `sudokit._results` ([`result`]) that pickles, compares, hashes and shows itself.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

/// `sudokit._results.<class>._of(*args)` (or the class itself when it has no `_of`): the
/// result value of a record.
pub fn result<'py>(
    py: Python<'py>,
    class: &str,
    args: impl pyo3::call::PyCallArgs<'py>,
) -> PyResult<Bound<'py, PyAny>> {
    static RESULTS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    let module =
        RESULTS.get_or_try_init(py, || py.import("sudokit._results").map(Bound::unbind))?;
    let class = module.bind(py).getattr(class)?;
    match class.getattr("_of") {
        Ok(of) => of.call1(args),
        Err(_) => class.call1(args),
    }
}
