//! How a run fails as a whole (not one of its items): its output, its resumed results, its
//! inputs, a command's own refusal.

use thiserror::Error;

use super::partial::PartialError;
use super::sink::SinkError;

/// A run that failed as a whole (not one of its items).
#[derive(Debug, Error)]
pub enum RunError {
    /// Writing the output failed (a closed pipe is `BrokenPipe`: a normal end for a front end).
    #[error("cannot write the output")]
    Io(#[from] std::io::Error),
    /// The resumed output does not fit the input.
    #[error(transparent)]
    Partial(#[from] PartialError),
    /// The output cannot be opened or finished.
    #[error(transparent)]
    Sink(#[from] SinkError),
    /// An input cannot be opened or read as the command reads it.
    #[error(transparent)]
    Input(#[from] super::item::InputError),
    /// A command's own refusal of the whole run (`count` without input: a shape, method or
    /// census that cannot be counted, a resumed census part that does not fit).
    #[error(transparent)]
    Command(Box<dyn std::error::Error + Send + Sync>),
}
