//! How results reach Python as values: a library record (its `serde_json` value) converted to
//! plain Python data ([`py_of_json`]) and handed to its result type, a frozen dataclass of
//! `sudokit._results` ([`result`]) that pickles, compares, hashes and shows itself.

use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList};
use serde_json::Value;

/// A JSON value as plain Python data (None, bool, int, float, str, list, dict).
pub fn py_of_json<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    match value {
        Value::Null => Ok(py.None().into_bound(py)),
        Value::Bool(b) => b.into_bound_py_any(py),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_bound_py_any(py),
            (None, Some(i)) => i.into_bound_py_any(py),
            _ => n.as_f64().unwrap_or(f64::NAN).into_bound_py_any(py),
        },
        Value::String(s) => s.into_bound_py_any(py),
        Value::Array(items) => {
            let items = items.iter().map(|v| py_of_json(py, v));
            Ok(PyList::new(py, items.collect::<PyResult<Vec<_>>>()?)?.into_any())
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (key, v) in map {
                dict.set_item(key, py_of_json(py, v)?)?;
            }
            Ok(dict.into_any())
        }
    }
}

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
