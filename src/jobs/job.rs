//! What every job is: the [`Job`] trait, a validated configuration that reads its items from
//! their sources, turns one item into a typed record, and adds the records up in its summary.

use serde_json::Value;

use super::control::Control;
use super::item::InputError;
use super::record::{ItemResult, JobItem, JobRecord};
use super::source::{Items, Source};
use super::summary::Summary;
use crate::text::ReadOptions;

/// A command as a library job: a validated configuration, and the work it does on one item.
///
/// The command line builds a job from its parsed flags, the Python package from keyword
/// arguments and a Dask task from its shard's description; each then hands the job and its input
/// to the [runner](super::runner::Runner), or calls [`Job::run`] itself, and places the records.
pub trait Job: Sync {
    /// One unit of input: a puzzle read from a file (or the error that replaced it), a pair of
    /// puzzle and candidate, an index.
    type Item: JobItem;
    /// The typed result of one item.
    type Record: JobRecord;

    /// The command's name (`solve`), written in the index of a resumable output.
    fn name(&self) -> &'static str;

    /// The options that shape the records, as JSON: a resumed run continues only the results of
    /// a run with the same identity. Threads and time or node budgets are left out (they change
    /// how long a result takes, or turn it `unknown`, which a resumed run redoes).
    fn identity(&self) -> Value;

    /// How many items the runner works on at a time.
    fn workers(&self) -> usize;

    /// The work on one item. `control` stops it early (its searches take
    /// [`Control::limits`]).
    fn run(&self, item: Self::Item, control: &Control) -> ItemResult<Self::Record>;

    /// What the command adds up over its records ([`NoSummary`](super::summary::NoSummary)
    /// for most).
    type Summary: Summary<Self::Record>;

    /// An empty summary.
    fn summary(&self) -> Self::Summary;

    /// The job's items from its sources (the inputs opened, or a Dask task's shards).
    ///
    /// # Errors
    /// Sources of another kind than the job reads.
    fn items(&self, sources: Vec<Source>) -> Result<Items<Self::Item>, InputError>;

    /// How input `input` is read, given the caller's `read` (verify reads its candidates, and
    /// info every puzzle, without refusing clashing givens).
    fn read_options(&self, read: ReadOptions, input: usize) -> ReadOptions {
        let _ = input;
        read
    }

    /// Whether input `input` is a file the job reads itself, whole ([`Source::File`]: decode's
    /// answer), rather than puzzles.
    fn raw_input(&self, input: usize) -> bool {
        let _ = input;
        false
    }

    /// How many items a job that reads no input makes (its items are `0..n`), so that a Dask
    /// client can cut them into tasks; `None` for a job over inputs.
    fn generated(&self) -> Option<u64> {
        None
    }

    /// Notes on the options, said once before the run (which backends a cross-check left out).
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }
}
