//! The exceptions of the package and the conversions of the library's errors into them.

use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;
use pyo3::{PyErr, create_exception};
use sudokit::text::{TextError, TextErrorKind};

create_exception!(
    sudokit,
    SudokitError,
    PyException,
    "A failure of sudokit: a backend that cannot take a puzzle, an answer that is not a solution, ..."
);
create_exception!(
    sudokit,
    ParseError,
    SudokitError,
    "Text that is not a puzzle (or not a solver's answer): `line` and `column` (1-based) say where, \
     `path` names the file (None for a string) and `message` says what is wrong."
);

/// A [`ParseError`] at `line`, `column` of `path`.
pub fn parse_error(path: Option<&str>, line: usize, column: usize, message: &str) -> PyErr {
    let text = match path {
        Some(path) => format!("{path}:{line}:{column}: {message}"),
        None => format!("line {line}, column {column}: {message}"),
    };
    let error = ParseError::new_err(text);
    Python::attach(|py| {
        let value = error.value(py);
        // Setting attributes on a fresh exception object does not fail.
        let _ = value.setattr("line", line);
        let _ = value.setattr("column", column);
        let _ = value.setattr("path", path);
        let _ = value.setattr("message", message);
    });
    error
}

/// A puzzle that could not be read; text whose size the keyword `box` does not fit is the
/// keyword's error, not a place in the text.
pub fn text_error(path: Option<&str>, error: &TextError) -> PyErr {
    match (&error.kind, path) {
        (TextErrorKind::BoxMismatch { p, q, order }, None) => option_value_error(format!(
            "box=({p}, {q}) does not fit the text's order {order} (p·q must equal n)"
        )),
        _ => parse_error(path, error.line, error.column, &error.kind.to_string()),
    }
}

/// A name that is not in a registry (backend, format, scheme, encoding, ...) or a bad argument.
pub fn value_error(error: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// An option sudokit refused (a keyword, its value, a name no registry knows), as the
/// package's `sudokit.OptionError`: a `SudokitError` and a `ValueError`.
pub fn option_value_error(error: impl std::fmt::Display) -> PyErr {
    static TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    Python::attach(|py| {
        let class = TYPE.import(py, "sudokit", "OptionError");
        match class {
            Ok(class) => PyErr::from_type(class.clone(), error.to_string()),
            Err(e) => e,
        }
    })
}

/// A failure of the library that is not the caller's argument.
pub fn failure(error: impl std::fmt::Display) -> PyErr {
    SudokitError::new_err(error.to_string())
}
