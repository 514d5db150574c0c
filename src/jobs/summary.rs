//! What a command adds up over its records: the typed [`Summary`] of a job (grade's tables per
//! file, cross-check's per-backend totals, minimize's reduction table), fed each result in input
//! order, ended after each input and at the end of the run, merged from shares (the summaries
//! of the parts of an input that Dask tasks ran), and deciding the run's exit code.
//!
//! A share travels as the summary's own serde form: there is no other wire form, and the client
//! that adds shares up knows the summary's type through the job it built from the same options.
//!
//! # Examples
//! ```
//! use sudokit::jobs::summary::{NoSummary, Summary};
//! use sudokit::jobs::{ItemResult, Ran, Tally};
//! let mut summary = NoSummary;
//! Summary::<()>::add(&mut summary, &ItemResult::Done(()));
//! let ran = Ran { tally: Tally::default(), complete: true };
//! assert_eq!(Summary::<()>::exit_code(&summary, &ran), 0);
//! assert_eq!(Summary::<()>::end(&summary, false, true), "");
//! ```

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::record::ItemResult;
use super::tally::Ran;

/// A command's running summary over records of type `R`; see the module docs.
pub trait Summary<R>: Serialize + DeserializeOwned + Send + Sync {
    /// The text written before the first record (a table's heading), empty for most commands.
    fn begin(&self, json: bool) -> String {
        let _ = json;
        String::new()
    }

    /// Adds one result of this run (in input order; a result kept by a resumed run is not seen).
    fn add(&mut self, result: &ItemResult<R>);

    /// Adds a share: the summary of another part of the same input, made by the same job.
    fn merge(&mut self, share: Self);

    /// Ends one input (`input` names it): the text written after its records (grade's and
    /// minimize's per-file JSON line), empty for most commands. Not called for an input the run
    /// did not finish.
    fn end_input(&mut self, input: &str, json: bool) -> String {
        let _ = (input, json);
        String::new()
    }

    /// The text that ends the run (the tables), `complete` when every input was finished.
    fn end(&self, json: bool, complete: bool) -> String {
        let _ = (json, complete);
        String::new()
    }

    /// The notes for standard error at the end (cross-check's disagreements).
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }

    /// Whether the items that gave an error are said in [`Summary::notes`] rather than in
    /// place in the output (a command whose output is files: export, reduce latin to files):
    /// the closing count of errors then follows them, and says so.
    fn errors_in_notes(&self) -> bool {
        false
    }

    /// The exit code of a run that was not stopped by a signal: the tally's by default (see
    /// [`Ran::exit_code`]).
    fn exit_code(&self, ran: &Ran) -> u8 {
        ran.exit_code()
    }
}

/// The summary of a command that ends with nothing but its records.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoSummary;

impl<R> Summary<R> for NoSummary {
    fn add(&mut self, _result: &ItemResult<R>) {}

    fn merge(&mut self, _share: NoSummary) {}
}

/// The summary of one input of a command that ends with a table over its inputs (grade,
/// minimize): kept per input by [`PerInput`].
pub trait InputSummary<R>: Serialize + DeserializeOwned + Send + Sync + Clone {
    /// Adds one result.
    fn add(&mut self, result: &ItemResult<R>);

    /// Adds the summary of another part of the same input.
    fn merge(&mut self, other: &Self);

    /// Names the input this summary is of.
    fn name(&mut self, input: &str);

    /// The input's summary as one JSON object (the line written after its records with
    /// `--json`).
    fn json(&self) -> serde_json::Value;

    /// The closing tables over the inputs' summaries.
    fn tables(inputs: &[Self]) -> String;
}

/// A summary kept per input: the one being added up, and those of the inputs ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PerInput<S> {
    /// The summary of the input being read.
    pub current: S,
    /// The summaries of the inputs ended, in order.
    pub inputs: Vec<S>,
    /// An empty summary, the start of the next input.
    empty: S,
}

impl<S: Clone> PerInput<S> {
    /// Per-input summaries starting from `empty`.
    pub fn new(empty: S) -> PerInput<S> {
        PerInput {
            current: empty.clone(),
            inputs: Vec::new(),
            empty,
        }
    }
}

impl<R, S: InputSummary<R>> Summary<R> for PerInput<S> {
    fn add(&mut self, result: &ItemResult<R>) {
        self.current.add(result);
    }

    fn merge(&mut self, share: PerInput<S>) {
        self.current.merge(&share.current);
    }

    fn end_input(&mut self, input: &str, json: bool) -> String {
        let mut ended = std::mem::replace(&mut self.current, self.empty.clone());
        ended.name(input);
        let line = if json {
            super::record_text::json_line(&ended.json())
        } else {
            String::new()
        };
        self.inputs.push(ended);
        line
    }

    fn end(&self, json: bool, complete: bool) -> String {
        if complete && !json {
            S::tables(&self.inputs)
        } else {
            String::new()
        }
    }
}
