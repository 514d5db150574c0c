//! The parts of a census (`count --box PxQ -o FILE`) kept in the resumable result file of every
//! batch command ([`super::partial`]): a census is a run whose items are its parts and whose
//! records are the parts' counts, placed by the [`Recorder`] as they finish.
//!
//! # The records
//! Part `k` of a census of `n` parts is the result of "input line" `k + 1`, status `done`, its
//! text one line, `part K of N: COUNT`; its key (the item's fingerprint in the index) is the
//! FNV-1a of the census's description (shape, method, number of parts, as JSON) and of `k`:
//! ```text
//! FILE.partial        part 3 of 44: 815486979727687680
//! FILE.partial.index  4  done  37  e4d5f90408eb5d97  50f0563a686cd53c
//! ```
//! (the index line's fields are tab-separated). Only a part counted whole is written: a part a
//! stop interrupts is dropped and counted again by a resumed run.
//!
//! # Out of order
//! Parts finish in any order; each is written, with its index line, as soon as it is counted
//! (under the census's lock on its sum), so a kill loses at most the parts in flight, one per
//! thread. The index therefore lists the parts in the order they finished, not by number: a
//! resumed census does not pair old results with items in order as a batch does ([`claim`]),
//! it keeps every old part at once, when it begins ([`PartStore::begin`]), after checking that
//! each is a part of this census (its key), is one of its parts and is there once, and it
//! counts only the parts missing, appended after the kept ones.
//!
//! # Reading a kept part
//! A batch's resume never reads the records it keeps; a census must, since the count is the sum
//! of its parts: the count of a kept part is read from its text, whose bytes were checked
//! against the hash in its index line when the output was opened (a count edited, a line
//! inserted or one from another file is refused there, naming the index line). A part whose
//! text, key or number does not fit this census is refused here, naming its index line too.
//!
//! [`claim`]: super::recorder::claim

use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

use serde_json::json;
use thiserror::Error;

use super::item::Fnv;
use super::partial::HEADER_LINES;
use super::record::Status;
use super::recorder::Recorder;
use super::run_error::RunError;
use crate::census::{PartStore, PartStoreError};

/// A part of a resumed census that is not one of this census's.
#[derive(Debug, Error)]
pub enum PartsError {
    /// A part whose key is another census's (another shape, method or number of parts).
    #[error(
        "{}: line {index_line} of its index is a part of another census, not of {expected}; \
         count into another file, or start again with --force",
        partial.display()
    )]
    OtherCensus {
        /// The partial file.
        partial: PathBuf,
        /// The line of the part in the index.
        index_line: usize,
        /// The census this run counts: `6×6 Latin square by reduced-latin in 49 parts`.
        expected: String,
    },
    /// A part that does not fit: not one of the parts, there twice, not counted, unreadable.
    #[error(
        "{}: line {index_line} of its index: {reason}; start again with --force",
        partial.display()
    )]
    Malformed {
        /// The partial file.
        partial: PathBuf,
        /// The line of the part in the index.
        index_line: usize,
        /// What is wrong.
        reason: String,
    },
    /// Copying a kept part failed.
    #[error(transparent)]
    Run(#[from] RunError),
}

/// The census being counted: its description and number of parts.
struct Census {
    line: String,
    parts: usize,
}

/// The parts of a census placed by a recorder over a resumable result file; see the module docs.
pub struct RecordedParts<'r, 's> {
    recorder: &'r Recorder<'s>,
    census: Mutex<Option<Census>>,
}

impl std::fmt::Debug for RecordedParts<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RecordedParts").finish_non_exhaustive()
    }
}

/// The key of part `part` of the census `census` (its description).
pub fn part_key(census: &str, part: usize) -> u64 {
    let mut key = Fnv::new();
    key.add(census.as_bytes());
    key.add(&(part as u64).to_le_bytes());
    key.finish()
}

/// The description of a census, as its parts' keys seal it.
pub fn census_line(census: &str, method: &str, parts: usize) -> String {
    json!({"census": census, "method": method, "parts": parts}).to_string()
}

/// The text of part `part` of `parts`, counted `count`.
pub fn part_text(part: usize, parts: usize, count: u128) -> String {
    format!("part {part} of {parts}: {count}\n")
}

/// The count of the text of part `part` of `parts`.
fn read_part(text: &[u8], part: usize, parts: usize) -> Option<u128> {
    let text = std::str::from_utf8(text).ok()?.strip_suffix('\n')?;
    let count = text.strip_prefix(&format!("part {part} of {parts}: "))?;
    count
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| count.parse().ok())?
}

impl<'r, 's> RecordedParts<'r, 's> {
    /// The parts placed by `recorder`, whose sink is a resumable result file.
    pub fn new(recorder: &'r Recorder<'s>) -> RecordedParts<'r, 's> {
        RecordedParts {
            recorder,
            census: Mutex::new(None),
        }
    }

    /// Keeps every old part of a resumed output; see the module docs.
    fn keep_old(
        &self,
        line: &str,
        described: &str,
        parts: usize,
    ) -> Result<Vec<(usize, u128)>, PartsError> {
        let partial = || self.recorder.sink().partial_path();
        let mut seen = vec![false; parts];
        let mut kept = Vec::new();
        let mut index_line = HEADER_LINES;
        while let Some(entry) = self.recorder.next_old() {
            index_line += 1;
            let malformed = |reason: String| PartsError::Malformed {
                partial: partial(),
                index_line,
                reason,
            };
            let part = entry.line.wrapping_sub(1);
            if part >= parts {
                return Err(malformed(format!(
                    "result {} is not one of the {parts} parts",
                    entry.line
                )));
            }
            if entry.key != part_key(line, part) {
                return Err(PartsError::OtherCensus {
                    partial: partial(),
                    index_line,
                    expected: described.to_string(),
                });
            }
            if entry.status != Status::Done {
                return Err(malformed(format!(
                    "part {part} is {}, not counted",
                    entry.status.word()
                )));
            }
            if std::mem::replace(&mut seen[part], true) {
                return Err(malformed(format!("part {part} twice")));
            }
            let text = self.recorder.keep_read(&entry)?;
            let count = read_part(&text, part, parts).ok_or_else(|| {
                malformed(format!(
                    "part {part} does not read `part {part} of {parts}: COUNT`"
                ))
            })?;
            kept.push((part, count));
        }
        Ok(kept)
    }
}

impl PartStore for RecordedParts<'_, '_> {
    fn begin(
        &self,
        census: &str,
        method: &str,
        parts: usize,
    ) -> Result<Vec<(usize, u128)>, PartStoreError> {
        let line = census_line(census, method, parts);
        let described = format!("{census} by {method} in {parts} parts");
        let kept = self.keep_old(&line, &described, parts).map_err(|e| {
            // Refused: the old results stay as they were, and nothing merged is left.
            self.recorder.sink().abandon();
            PartStoreError(Box::new(e))
        })?;
        *self.census.lock().unwrap_or_else(PoisonError::into_inner) = Some(Census { line, parts });
        Ok(kept)
    }

    fn record(&self, part: usize, count: u128) -> Result<(), PartStoreError> {
        let census = self.census.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(census) = census.as_ref() else {
            return Ok(());
        };
        let text = part_text(part, census.parts, count);
        let key = part_key(&census.line, part);
        self.recorder
            .record(part + 1, key, Status::Done, &text, None)
            .map_err(|e| PartStoreError(Box::new(e)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_reads_back_only_as_written() {
        let text = part_text(3, 44, 815_486_979_727_687_680);
        assert_eq!(text, "part 3 of 44: 815486979727687680\n");
        assert_eq!(
            read_part(text.as_bytes(), 3, 44),
            Some(815_486_979_727_687_680)
        );
        assert_eq!(read_part(text.as_bytes(), 4, 44), None);
        assert_eq!(read_part(text.as_bytes(), 3, 45), None);
        assert_eq!(read_part(b"part 3 of 44: +5\n", 3, 44), None);
        assert_eq!(read_part(b"part 3 of 44: 5", 3, 44), None);
        let census = census_line("4×4", "column-sets", 3);
        assert_eq!(
            census,
            r#"{"census":"4×4","method":"column-sets","parts":3}"#
        );
        assert_ne!(part_key(&census, 0), part_key(&census, 1));
    }
}
