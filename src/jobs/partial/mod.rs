//! The resumable result file of `-o FILE`: the results go to `FILE.partial`, under an exclusive
//! lock, with an index of them in `FILE.partial.index`; `FILE.partial` is renamed to `FILE` when
//! the run completes, so `FILE` never exists half written.
//!
//! # The index
//! The index is the structured form of the results, written beside them so that a resumed run
//! never reads written text back: a header line (`sudokit partial index 2 pid N`, the process
//! that holds the lock), the run's identity as JSON (the command, the options that shape the
//! records, the output form and the inputs: see [`super::run_identity`]), then one line per
//! result: `LINE STATUS BYTES KEY HASH` (tab-separated): the input line it answers, its
//! [`Status`], its length in `FILE.partial`, the fingerprint of its item
//! ([`JobItem::key`](super::JobItem::key)) and an FNV-1a hash of its bytes *and* of the line,
//! status, length and key, so that neither a result nor its index line can be edited (an
//! `unknown` made `done`, say) without the resume refusing it, naming the index line.
//!
//! # What a kill leaves
//! Nothing is buffered: each result is written with one write call, and its index line right
//! after it, whole, with one more. A process killed at any point (`kill -9`, the OOM killer)
//! leaves every result written before the one in flight listed in the index, so a resume loses
//! at most that one: a result without its index line, or an index line torn, is dropped and
//! redone. (Nothing is synced to the disk per result, which would cost a disk round trip each: a
//! power loss can lose more, and whatever it leaves is checked like the rest.) Rebuilding the
//! index from `FILE.partial` on resume was not chosen: it would read written text back.
//!
//! # Resuming
//! `--resume` checks the identity (another command, other options, another input: refused),
//! then streams `FILE.partial` against its index once, checking each result's hash: a result or
//! an index line changed since it was written, or a line inserted (a blank line, a line from
//! elsewhere), is refused; bytes after the last indexed result (a result torn by a kill, or one
//! whose index line was lost) are dropped. The run then reads its input again; each item is
//! paired with the old result at its place, whose line and key must match (another input:
//! refused). A `done` or `negative` result is kept; an `unknown` or `error` one is redone. The
//! results go, in order and written through as above, to `FILE.partial.next` and its index
//! `FILE.partial.next.index` (kept ones copied, redone ones replaced), renamed to `FILE` when
//! complete; a resumed run that stops copies the old results it did not reach after its own and
//! puts the merged files in the place of `FILE.partial` and its index. A resumed run that was
//! killed leaves the merged files beside the old ones: the next `--resume` finishes that merge
//! first (the merged results, then the old ones after them), so a killed resume loses at most
//! its result in flight too. A resume that is refused removes what it wrote: it leaves no
//! `FILE.partial.next`.
//!
//! A run without `--resume` never truncates a `FILE.partial` (or a merged `FILE.partial.next`)
//! that holds anything, even with an index that lists nothing: it refuses, naming `--resume` and
//! `--force` (which starts again). A second run writing the same `FILE.partial` refuses, naming
//! the first one's process id. `FILE.partial`, its index and the merged files are the run's own:
//! a symbolic link in the place of any of them is refused (and never written through, even with
//! `--force`), and so are a directory and a special file (a FIFO, a device).
//!
//! # A result counted in parts
//! A census (`count --box PxQ -o FILE`) writes its parts as the results of a run, in the order
//! they finish, and reads the count of each part it keeps ([`PartialOutput::keep_read`]); a
//! resumed census keeps every old part first, then appends the missing ones, so the merge
//! above is the same. When it is complete, `FILE` gets the count instead of the parts
//! ([`PartialOutput::finish_whole`]); a census stopped before its first part leaves nothing
//! ([`PartialOutput::discard`]). See [`super::census_parts`].
//!
//! # Complexity
//! Two write calls per result; `--resume` reads the old results twice (checking, then copying),
//! streaming, in memory O(1) per result.
//!
//! [`Status`]: crate::jobs::Status

mod entry;
mod error;
mod files;
mod header;
mod merge;
mod output;
mod resume;

pub use self::entry::IndexEntry;
pub use self::error::PartialError;
pub use self::files::{index_path, next_path, partial_path};
pub use self::header::HEADER_LINES;
pub use self::output::PartialOutput;
pub use self::resume::OldResults;

/// How to open a resumable output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenMode {
    /// A new run: refused when `FILE.partial` holds results.
    Fresh,
    /// A new run that discards what `FILE.partial` holds (`--force`).
    Force,
    /// Continue what `FILE.partial` holds (`--resume`); a new run when there is none.
    Resume,
}

/// `--resume` and `--force` together: a run cannot both continue and discard `FILE.partial`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("resume and force do not go together")]
pub struct ResumeAndForce;

impl OpenMode {
    /// The mode `resume` (`--resume`) and `force` (`--force`) ask for: a fresh run for neither.
    ///
    /// # Errors
    /// [`ResumeAndForce`] for both.
    pub fn of(resume: bool, force: bool) -> Result<OpenMode, ResumeAndForce> {
        match (resume, force) {
            (true, true) => Err(ResumeAndForce),
            (true, false) => Ok(OpenMode::Resume),
            (false, true) => Ok(OpenMode::Force),
            (false, false) => Ok(OpenMode::Fresh),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mode_of_resume_and_force() {
        assert_eq!(OpenMode::of(false, false), Ok(OpenMode::Fresh));
        assert_eq!(OpenMode::of(true, false), Ok(OpenMode::Resume));
        assert_eq!(OpenMode::of(false, true), Ok(OpenMode::Force));
        assert_eq!(OpenMode::of(true, true), Err(ResumeAndForce));
    }
}
