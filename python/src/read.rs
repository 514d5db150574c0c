//! `read(path)`: the puzzles of a file in any form, streamed in order (`PuzzleIter`); a bad
//! puzzle raises, is skipped, or comes in place as a `ParseError`.

use std::fs::File;
use std::io::BufReader;
use std::sync::Mutex;

use pyo3::prelude::*;
use sudokit::text::PuzzleReader;

use crate::errors::{failure, option_value_error, text_error};
use crate::puzzle::Puzzle;
use crate::reading::{ExtraArg, MapArg, read_options, region_spec};

type FileReader = PuzzleReader<BufReader<File>>;

/// The puzzles of a file, in order (see `read`).
#[pyclass(module = "sudokit")]
pub struct PuzzleIter {
    path: String,
    reader: Mutex<FileReader>,
    /// What a bad puzzle does: `raise`, `skip` or `yield`.
    errors: &'static str,
}

/// Streams the puzzles of a file in any form, in order. A bad puzzle raises `ParseError` with
/// the path, line and column (`errors="raise"`; the iteration may go on after it), is skipped
/// (`"skip"`), or comes in place as a `ParseError` object (`"yield"`).
#[pyfunction]
#[pyo3(signature = (path, r#box = None, latin = false, format = None, regions = None, extra = None, errors = "raise"))]
pub fn read(
    path: std::path::PathBuf,
    r#box: Option<(usize, usize)>,
    latin: bool,
    format: Option<&str>,
    regions: Option<MapArg>,
    extra: Option<ExtraArg>,
    errors: &str,
) -> PyResult<PuzzleIter> {
    let Some(&errors) = ["raise", "skip", "yield"].iter().find(|&&e| e == errors) else {
        let message = format!("errors must be raise, skip or yield, not {errors}");
        return Err(option_value_error(message));
    };
    let options = read_options(r#box, latin, format, region_spec(regions, extra)?)?;
    let file = File::open(&path).map_err(|e| {
        pyo3::exceptions::PyOSError::new_err(format!("cannot open {}: {e}", path.display()))
    })?;
    Ok(PuzzleIter {
        path: path.display().to_string(),
        reader: Mutex::new(PuzzleReader::new(
            BufReader::with_capacity(1 << 16, file),
            options,
        )),
        errors,
    })
}

#[pymethods]
impl PuzzleIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let mut reader = self
            .reader
            .lock()
            .map_err(|_| failure("the reader was poisoned by an earlier panic"))?;
        loop {
            match reader.next() {
                None => return Ok(None),
                Some(Ok(record)) => {
                    let puzzle = Puzzle {
                        grid: record.grid,
                        line: Some(record.line),
                    };
                    return Ok(Some(Py::new(py, puzzle)?.into_any()));
                }
                Some(Err(_)) if self.errors == "skip" => continue,
                Some(Err(e)) => {
                    let error = text_error(Some(&self.path), &e);
                    if self.errors == "raise" {
                        return Err(error);
                    }
                    return Ok(Some(error.into_value(py).into_any()));
                }
            }
        }
    }
}
