//! The `ext:NAME` backend: an entry of the solver table ([`crate::external`]) as a
//! [`Solver`], so that `solve`, `count` and `crosscheck` run any external program the table
//! knows like an embedded backend.
//!
//! A count runs the program once per solution (the earlier ones ruled out by no-goods in its
//! input format) and once more to prove there is no other; every grid is verified (the registry
//! wraps the backend in [`super::Verified`] too). The time budget is enforced by killing the
//! program; a node budget bounds the number of runs. The scratch files are removed after each
//! call.
//!
//! # Complexity
//! The program's own work, once per solution counted plus one run.

use std::path::PathBuf;

use super::{CountReport, Limits, SolveError, Solver};
use crate::external::{self, Entry, ExternalError};
use crate::grid::Grid;

/// An external solver of the table, found on this machine.
#[derive(Debug, Clone)]
pub struct External {
    name: String,
    entry: Entry,
    program: PathBuf,
}

impl External {
    /// The table's entry `name` ([`external::table`]), if its program is found here.
    ///
    /// # Errors
    /// [`ExternalError::Unknown`] or [`ExternalError::NotFound`].
    pub fn new(name: &str) -> Result<External, ExternalError> {
        let table = external::table()?;
        let entry = table.get(name)?.clone();
        External::from_entry(entry)
    }

    /// `entry`, if its program is found here.
    ///
    /// # Errors
    /// [`ExternalError::NotFound`].
    pub fn from_entry(entry: Entry) -> Result<External, ExternalError> {
        let program = entry.found().ok_or_else(|| ExternalError::NotFound {
            name: entry.name.clone(),
            program: entry.program.clone(),
        })?;
        Ok(External {
            name: format!("ext:{}", entry.name),
            entry,
            program,
        })
    }

    /// The entry.
    pub fn entry(&self) -> &Entry {
        &self.entry
    }
}

impl Solver for External {
    fn name(&self) -> &str {
        &self.name
    }

    fn max_order(&self) -> usize {
        self.entry.max_order
    }

    fn splittable(&self) -> bool {
        false
    }

    fn search(
        &self,
        puzzle: &Grid,
        limit: u64,
        limits: &Limits,
    ) -> Result<CountReport, SolveError> {
        self.entry
            .count(&self.program, puzzle, limit, limits)
            .map_err(|e| match e {
                ExternalError::NotASolution { violation, .. } => SolveError::Unverified {
                    backend: self.name.clone(),
                    violation,
                },
                e @ ExternalError::CannotCount { .. } => SolveError::Unsupported {
                    backend: self.name.clone(),
                    reason: e.to_string(),
                },
                e => SolveError::Backend {
                    backend: self.name.clone(),
                    message: e.to_string(),
                },
            })
    }
}
