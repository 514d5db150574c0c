//! `generate-latin` as a job: random partial Latin squares to reduce and solve, square `i`
//! drawn from its own random stream of `(seed, i)` (so a batch is the same on any number of
//! threads or Dask tasks, and `-o FILE --resume` finishes it as an uninterrupted run would).
//!
//! Kinds: `qwh`, a random complete square (Jacobson–Matthews) with `holes` cells emptied
//! (always completable); `partial`, `givens` random consistent givens (may have no
//! completion). A record is the square as a puzzle line (a grid block above order 35), or the
//! puzzle's JSON form: the output reads back as puzzles (`--latin`).
//!
//! # References
//! - C. P. Gomes and D. Shmoys, *Completing Quasigroups or Latin Squares: A Structured Graph
//!   Coloring Problem*, Computational Symposium on Graph Coloring, 2002 (quasigroups with
//!   holes).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::control::Control;
use super::item::InputError;
use super::job::Job;
use super::options::{self, Opt, OptionError, said};
use super::record::{ItemError, ItemResult, JobRecord, Status};
use super::record_text::grid_record;
use super::source::{Items, Source};
use super::summary::NoSummary;
use crate::generate::latin::{check_request, quasigroup_with_holes, random_partial};
use crate::generate::puzzle::puzzle_rng;
use crate::grid::Grid;
use crate::text::to_json;

/// How the squares are made.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum LatinKind {
    /// A random complete square with `holes` cells emptied: always completable.
    #[default]
    Qwh,
    /// `givens` random consistent givens: may have no completion.
    Partial,
}

/// The options of `generate-latin`, as every front end gives them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GenerateLatinOptions {
    /// The order of the squares.
    pub order: usize,
    /// How they are made.
    pub kind: LatinKind,
    /// Cells emptied (`qwh`).
    pub holes: Option<usize>,
    /// Givens placed (`partial`).
    pub givens: Option<usize>,
    /// How many squares.
    pub count: u64,
    /// The base seed: square `i` comes from the stream `(seed, i)`.
    pub seed: u64,
    /// Worker threads (default: all cores).
    pub threads: Option<usize>,
}

impl Default for GenerateLatinOptions {
    fn default() -> Self {
        GenerateLatinOptions {
            order: 5,
            kind: LatinKind::Qwh,
            holes: None,
            givens: None,
            count: 1,
            seed: 1,
            threads: None,
        }
    }
}

/// The `generate-latin` job; see the module docs.
#[derive(Debug, Clone)]
pub struct GenerateLatinJob {
    options: GenerateLatinOptions,
    cells: usize,
    threads: usize,
}

impl GenerateLatinJob {
    /// The job, its options checked.
    ///
    /// # Errors
    /// `givens` with `qwh` or `holes` with `partial`, or the one the kind needs missing; an
    /// order that is 0 or too large; more holes or givens than cells; `threads` of 0.
    pub fn new(options: GenerateLatinOptions) -> Result<GenerateLatinJob, OptionError> {
        let cells = match (options.kind, options.holes, options.givens) {
            (LatinKind::Qwh, _, Some(_)) => {
                return Err(OptionError::Conflict(said!(
                    Opt("givens"),
                    " goes with ",
                    Opt("kind"),
                    " partial; use ",
                    Opt("holes"),
                    " with qwh",
                )));
            }
            (LatinKind::Partial, Some(_), _) => {
                return Err(OptionError::Conflict(said!(
                    Opt("holes"),
                    " goes with ",
                    Opt("kind"),
                    " qwh; use ",
                    Opt("givens"),
                    " with partial",
                )));
            }
            (LatinKind::Qwh, holes, None) => holes.unwrap_or(0),
            (LatinKind::Partial, None, givens) => givens.unwrap_or(0),
        };
        check_request(options.order, cells)?;
        Ok(GenerateLatinJob {
            threads: options::threads(options.threads)?,
            cells,
            options,
        })
    }

    /// The square of index `index`.
    fn make(&self, index: u64) -> Result<Grid, String> {
        let mut rng = puzzle_rng(self.options.seed, index);
        let order = self.options.order;
        match self.options.kind {
            LatinKind::Qwh => quasigroup_with_holes(order, self.cells, &mut rng),
            LatinKind::Partial => random_partial(order, self.cells, &mut rng),
        }
        .map_err(|e| e.to_string())
    }
}

/// One square.
#[derive(Debug, Clone, PartialEq)]
pub struct LatinSquareRecord {
    /// Its index (0-based).
    pub index: u64,
    /// The partial square.
    pub square: Grid,
}

impl JobRecord for LatinSquareRecord {
    fn status(&self) -> Status {
        Status::Done
    }

    fn text(&self) -> String {
        grid_record(&self.square)
    }

    /// The puzzle's own JSON form, so that the output reads back as puzzles.
    fn json(&self) -> Value {
        to_json(&self.square)
    }
}

impl Job for GenerateLatinJob {
    type Item = u64;
    type Record = LatinSquareRecord;

    type Summary = NoSummary;

    fn name(&self) -> &'static str {
        "generate-latin"
    }

    fn summary(&self) -> NoSummary {
        NoSummary
    }

    fn generated(&self) -> Option<u64> {
        Some(self.options.count)
    }

    fn items(&self, sources: Vec<Source>) -> Result<Items<u64>, InputError> {
        match sources.as_slice() {
            [] => Ok(Box::new(0..self.options.count)),
            [Source::Range(range)] => Ok(Box::new(range.clone())),
            _ => Err(InputError::Source("a range of square indices")),
        }
    }

    fn identity(&self) -> Value {
        let o = &self.options;
        json!({"order": o.order, "kind": o.kind, "cells": self.cells, "seed": o.seed})
    }

    fn workers(&self) -> usize {
        self.threads
    }

    fn run(&self, index: u64, control: &Control) -> ItemResult<LatinSquareRecord> {
        if control.stopped() {
            return ItemResult::Cancelled;
        }
        match self.make(index) {
            Ok(square) => ItemResult::Done(LatinSquareRecord { index, square }),
            Err(message) => ItemResult::Failed(ItemError {
                file: None,
                line: index as usize + 1,
                column: 1,
                message: format!("square {}: {message}", index + 1),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_depend_on_the_seed_and_index_only() {
        let job = GenerateLatinJob::new(GenerateLatinOptions {
            order: 6,
            holes: Some(10),
            count: 4,
            ..GenerateLatinOptions::default()
        })
        .unwrap();
        let a = job.make(3).unwrap();
        assert_eq!(a, job.make(3).unwrap());
        assert_ne!(a, job.make(2).unwrap());
        assert_eq!(a.filled(), 26);
        assert!(a.first_clash().is_none());
        let bad = GenerateLatinOptions {
            kind: LatinKind::Partial,
            holes: Some(3),
            ..GenerateLatinOptions::default()
        };
        assert!(GenerateLatinJob::new(bad).is_err());
    }
}
