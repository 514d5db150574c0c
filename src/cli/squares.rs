//! The per-square work of `reduce latin` (its instances, and `--solve`'s course) run through the
//! library's driver: the reductions are not library jobs yet, so this adapter wraps a closure
//! that renders each square's text into a [`Job`], and the driver gives it order, stops and the
//! closed-output check like every batch command.

use serde_json::Value;
use sudokit::jobs::item::InputError;
use sudokit::jobs::source::{Items, Source, puzzles_of};
use sudokit::jobs::summary::NoSummary;
use sudokit::jobs::{Control, ItemResult, Job, JobRecord, PuzzleItem, Status};

/// One square's rendered result, and what the command keeps of it (a note for standard
/// error, a course for the report page).
pub struct Written<E> {
    /// How it counts.
    pub status: Status,
    /// The text written for it (whole lines; may be empty).
    pub text: String,
    /// What the command keeps.
    pub extra: E,
}

impl<E: Send> JobRecord for Written<E> {
    fn status(&self) -> Status {
        self.status
    }

    fn text(&self) -> String {
        self.text.clone()
    }

    fn json(&self) -> Value {
        Value::String(self.text.clone())
    }

    /// The text is already in the form asked for.
    fn render(&self, _json: bool) -> String {
        self.text.clone()
    }
}

/// A closure over the squares as a job.
pub struct SquareJob<F> {
    pub name: &'static str,
    /// The options that shape the records (for `-o FILE --resume`).
    pub identity: Value,
    pub threads: usize,
    pub work: F,
}

impl<F, E> Job for SquareJob<F>
where
    F: Fn(PuzzleItem, &Control) -> ItemResult<Written<E>> + Sync,
    E: Send,
{
    type Item = PuzzleItem;
    type Record = Written<E>;

    type Summary = NoSummary;

    fn name(&self) -> &'static str {
        self.name
    }

    fn summary(&self) -> NoSummary {
        NoSummary
    }

    fn items(&self, sources: Vec<Source>) -> Result<Items<PuzzleItem>, InputError> {
        puzzles_of(sources)
    }

    fn identity(&self) -> Value {
        self.identity.clone()
    }

    fn workers(&self) -> usize {
        self.threads
    }

    fn run(&self, item: PuzzleItem, control: &Control) -> ItemResult<Written<E>> {
        (self.work)(item, control)
    }
}
