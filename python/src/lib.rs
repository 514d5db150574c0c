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
mod reading;
mod values;

use pyo3::prelude::*;

/// The extension module.
#[pymodule]
mod _native {
    #[pymodule_export]
    use crate::calls::{backend_name, backends, call, schemes};
    #[pymodule_export]
    use crate::dask::{DaskRun, run_task};
    #[pymodule_export]
    use crate::errors::{ParseError, SudokitError};
    #[pymodule_export]
    use crate::explain::{explain, explanation_page};
    #[pymodule_export]
    use crate::interop::{decode, export, formats, precoloured_graph, solution_of, to_clauses};
    #[pymodule_export]
    use crate::jobs::{commands, options, records, run};
    #[pymodule_export]
    use crate::latin::{latin_back, latin_report, latin_svg, reduce_latin};
    #[pymodule_export]
    use crate::puzzle::{_puzzle_from_state, Puzzle};
    #[pymodule_export]
    use crate::read::{PuzzleIter, read};
}
