//! What an old `FILE.partial` holds, checked before a run writes over it or continues it: a new
//! run refuses one holding anything, `--resume` compares the run's identity and streams the
//! results against their index (what a kill tore is dropped), then hands the index entries of
//! the whole results to the run.

use std::fs::{self, File};
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use serde_json::Value;

use super::entry::IndexEntry;
use super::error::{PartialError, io_error};
use super::files::{Files, Lock};
use super::header::{HEADER_LINES, Header, read_header};

/// What differs between two identities, in words: `unique: true here, false in the file`.
pub(super) fn differences(here: &Value, there: &Value) -> String {
    let (Some(a), Some(b)) = (here.as_object(), there.as_object()) else {
        return format!("{there}, not {here}");
    };
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    let mut said = Vec::new();
    for key in keys {
        let (x, y) = (a.get(key), b.get(key));
        if x != y {
            match (x, y) {
                (Some(Value::Object(_)), Some(Value::Object(_))) => {
                    said.push(differences(x.expect("some"), y.expect("some")));
                }
                (Some(x), Some(y)) if key == crate::jobs::run_identity::INPUTS => {
                    said.push(crate::jobs::run_identity::input_differences(x, y));
                }
                _ => said.push(format!(
                    "{key}: {} here, {} in the file",
                    x.map_or("none".to_string(), Value::to_string),
                    y.map_or("none".to_string(), Value::to_string)
                )),
            }
        }
    }
    said.join("; ")
}

/// The index entries of an old partial file, streamed: those whose results are whole in it.
pub struct OldResults {
    pub(super) reader: BufReader<File>,
    pub(super) left: usize,
    pub(super) line: String,
}

impl std::fmt::Debug for OldResults {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OldResults")
            .field("left", &self.left)
            .finish_non_exhaustive()
    }
}

impl Iterator for OldResults {
    type Item = IndexEntry;

    fn next(&mut self) -> Option<IndexEntry> {
        if self.left == 0 {
            return None;
        }
        self.line.clear();
        self.reader.read_line(&mut self.line).ok()?;
        self.left -= 1;
        IndexEntry::parse(self.line.trim_end_matches('\n'))
    }
}

/// Refuses a new run over `FILE.partial` (or merged results) holding anything: see
/// [`PartialError::Leftover`].
pub(super) fn refuse_leftover(files: &Files, lock: &Lock) -> Result<(), PartialError> {
    let length = lock
        .metadata()
        .map_err(io_error("inspect", &files.partial))?
        .len();
    let merged = fs::metadata(&files.next).map_or(0, |m| m.len());
    if length == 0 && merged == 0 {
        return Ok(());
    }
    let results = read_header(&files.index)
        .map(|header| header.entries.lines().count())
        .filter(|&n| n > 0);
    Err(PartialError::Leftover {
        partial: files.partial.clone(),
        results,
    })
}

/// How far a data file and its index agree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Checked {
    /// The results whole in the data file and listed in the index.
    pub(super) results: usize,
    /// Where they end in the data file,
    pub(super) data_end: u64,
    /// and in the index.
    pub(super) index_end: u64,
    /// Whether nothing follows them (no torn result, no index line without its result).
    pub(super) whole: bool,
}

/// Streams the data file `partial` against its index `index` (its `header` read, its entries
/// next): how many results are whole in it. What follows the last one (a result or index line
/// torn by a kill) is dropped.
///
/// # Errors
/// [`PartialError::Damaged`]: a result or index line that is not the one written, a damaged
/// index line.
pub(super) fn check_results(
    partial: &Path,
    index: &Path,
    header: Header,
) -> Result<Checked, PartialError> {
    let damaged = |reason: String| PartialError::Damaged {
        partial: partial.to_path_buf(),
        reason,
    };
    let Header {
        mut entries,
        length: header_length,
        ..
    } = header;
    let file = File::open(partial).map_err(io_error("open", partial))?;
    let length = file.metadata().map_err(io_error("inspect", partial))?.len();
    let mut data = BufReader::with_capacity(1 << 16, file);
    let mut buffer = Vec::new();
    let mut checked = Checked {
        results: 0,
        data_end: 0,
        index_end: header_length,
        whole: true,
    };
    let mut line = String::new();
    loop {
        line.clear();
        let read = entries
            .read_line(&mut line)
            .map_err(io_error("read", index))?;
        if read == 0 {
            break;
        }
        let index_line = checked.results + HEADER_LINES + 1;
        // The last line without its newline was torn by a kill: it and what follows are
        // redone.
        let Some(text) = line.strip_suffix('\n') else {
            checked.whole = false;
            break;
        };
        let Some(entry) = IndexEntry::parse(text) else {
            return Err(damaged(format!(
                "line {index_line} of its index is damaged"
            )));
        };
        if checked.data_end + entry.bytes > length {
            // A result torn by a kill: it and what follows are redone.
            checked.whole = false;
            break;
        }
        buffer.clear();
        (&mut data)
            .take(entry.bytes)
            .read_to_end(&mut buffer)
            .map_err(io_error("read", partial))?;
        if !entry.matches(&buffer) {
            let first = String::from_utf8_lossy(&buffer);
            let first = first.lines().next().unwrap_or("");
            return Err(damaged(format!(
                "line {index_line} of its index, {}, does not match result {} (input line {}): \
                 the result or its index line was edited; the result reads {:?}",
                index.display(),
                checked.results + 1,
                entry.line,
                first.chars().take(60).collect::<String>()
            )));
        }
        checked.data_end += entry.bytes;
        checked.index_end += line.len() as u64;
        checked.results += 1;
    }
    if checked.data_end < length {
        checked.whole = false;
    }
    Ok(checked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_are_said_key_by_key() {
        let here = serde_json::json!({"command": "solve", "options": {"unique": true}});
        let there = serde_json::json!({"command": "solve", "options": {"unique": false}});
        assert_eq!(
            differences(&here, &there),
            "unique: true here, false in the file"
        );
    }
}
