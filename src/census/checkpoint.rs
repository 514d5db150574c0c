//! The resume file of a long census: the parts counted so far, one JSON line each, so that an
//! interrupted count (a time limit, Ctrl-C) continues where it stopped.
//!
//! The first line names the census; each further line is one part's contribution:
//! ```text
//! {"census":"9×9 (3×3 boxes)","method":"band-classes","parts":44}
//! {"part":0,"count":"151522138349486080"}
//! ```
//! Each line is written whole and flushed as soon as its part is counted. On resume a last line
//! without its newline (the process stopped while writing it) is dropped and its part counted
//! again; a file written for another grid, method or number of parts is refused.
//!
//! # Complexity
//! One write and one flush per part; the resume reads the file once.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde_json::{Value, json};
use thiserror::Error;

use super::big_count::count_from_json;

/// What went wrong with a resume file.
#[derive(Debug, Error)]
pub enum CheckpointError {
    /// The file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The failure.
        source: io::Error,
    },
    /// The file was written by another census.
    #[error("{}: written by a count of {found}, not of {expected}", path.display())]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// The census the file names.
        found: String,
        /// The census asked for.
        expected: String,
    },
    /// A line is not a part of this census.
    #[error("{}:{line}: {reason}", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

/// The resume file of one census; see the module docs.
#[derive(Debug)]
pub struct Checkpoint {
    path: PathBuf,
    resume: bool,
    file: Mutex<Option<File>>,
}

impl Checkpoint {
    /// A resume file at `path`. With `resume`, the parts it holds are kept (a missing file holds
    /// none); without, it is started afresh when the census begins.
    pub fn new(path: impl Into<PathBuf>, resume: bool) -> Checkpoint {
        Checkpoint {
            path: path.into(),
            resume,
            file: Mutex::new(None),
        }
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn io(&self, source: io::Error) -> CheckpointError {
        CheckpointError::Io {
            path: self.path.clone(),
            source,
        }
    }

    /// Opens the file for a census named `census` (grid and method) of `parts` parts, and
    /// returns the parts it already holds, `(part, count)`.
    ///
    /// # Errors
    /// The file cannot be read or written, was written by another census, or has a malformed
    /// complete line.
    pub(crate) fn begin(
        &self,
        census: &str,
        method: &str,
        parts: usize,
    ) -> Result<Vec<(usize, u128)>, CheckpointError> {
        let header = json!({"census": census, "method": method, "parts": parts});
        let existing = if self.resume {
            match File::open(&self.path) {
                Ok(mut file) => {
                    let mut bytes = Vec::new();
                    file.read_to_end(&mut bytes).map_err(|e| self.io(e))?;
                    Some(bytes)
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound => None,
                Err(e) => return Err(self.io(e)),
            }
        } else {
            None
        };
        let mut kept = Vec::new();
        let file = match existing {
            Some(bytes) if !bytes.is_empty() => {
                // Whole lines only: a trailing line without its newline is dropped.
                let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
                let text = String::from_utf8_lossy(&bytes[..whole]);
                let mut seen = vec![false; parts];
                for (i, line) in text.lines().enumerate() {
                    let malformed = |reason: &str| CheckpointError::Malformed {
                        path: self.path.clone(),
                        line: i + 1,
                        reason: reason.to_string(),
                    };
                    let value: Value =
                        serde_json::from_str(line).map_err(|e| malformed(&e.to_string()))?;
                    if i == 0 {
                        if value != header {
                            return Err(CheckpointError::Mismatch {
                                path: self.path.clone(),
                                found: describe(&value),
                                expected: describe(&header),
                            });
                        }
                        continue;
                    }
                    let part = value["part"]
                        .as_u64()
                        .map(|p| p as usize)
                        .filter(|&p| p < parts)
                        .ok_or_else(|| malformed(&format!("no part number below {parts}")))?;
                    let count =
                        count_from_json(&value["count"]).ok_or_else(|| malformed("no count"))?;
                    if std::mem::replace(&mut seen[part], true) {
                        return Err(malformed(&format!("part {part} twice")));
                    }
                    kept.push((part, count));
                }
                let mut file = OpenOptions::new()
                    .write(true)
                    .open(&self.path)
                    .map_err(|e| self.io(e))?;
                file.set_len(whole as u64).map_err(|e| self.io(e))?;
                file.seek(SeekFrom::End(0)).map_err(|e| self.io(e))?;
                if whole == 0 {
                    write_line(&mut file, &header).map_err(|e| self.io(e))?;
                }
                file
            }
            _ => {
                let mut file = File::create(&self.path).map_err(|e| self.io(e))?;
                write_line(&mut file, &header).map_err(|e| self.io(e))?;
                file
            }
        };
        *self.file.lock().unwrap_or_else(|p| p.into_inner()) = Some(file);
        Ok(kept)
    }

    /// Appends one part's count, whole, and flushes it.
    ///
    /// # Errors
    /// The file cannot be written.
    pub(crate) fn record(&self, part: usize, count: u128) -> Result<(), CheckpointError> {
        let mut guard = self.file.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(file) = guard.as_mut() {
            write_line(file, &json!({"part": part, "count": count.to_string()}))
                .map_err(|e| self.io(e))?;
        }
        Ok(())
    }

    /// Removes the file (the census is complete).
    ///
    /// # Errors
    /// The file cannot be removed.
    pub fn remove(self) -> Result<(), CheckpointError> {
        drop(self.file.into_inner());
        match std::fs::remove_file(&self.path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(CheckpointError::Io {
                path: self.path,
                source: e,
            }),
            _ => Ok(()),
        }
    }
}

fn write_line(file: &mut File, value: &Value) -> io::Result<()> {
    let mut line = value.to_string();
    line.push('\n');
    file.write_all(line.as_bytes())?;
    file.flush()
}

/// `9×9 (3×3 boxes) by band-classes in 44 parts`.
fn describe(header: &Value) -> String {
    format!(
        "{} by {} in {} parts",
        header["census"].as_str().unwrap_or("?"),
        header["method"].as_str().unwrap_or("?"),
        header["parts"]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("sudokit-checkpoint-{}-{name}", std::process::id()))
    }

    #[test]
    fn parts_written_are_read_back_and_a_torn_line_is_dropped() {
        let path = temp("torn");
        let first = Checkpoint::new(&path, false);
        assert!(first.begin("4×4", "column-sets", 3).unwrap().is_empty());
        first.record(2, 7).unwrap();
        first.record(0, u128::MAX).unwrap();
        drop(first);
        // A part cut short while being written.
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"{\"part\":1,\"cou").unwrap();
        drop(file);
        let again = Checkpoint::new(&path, true);
        assert_eq!(
            again.begin("4×4", "column-sets", 3).unwrap(),
            [(2, 7), (0, u128::MAX)]
        );
        again.record(1, 5).unwrap();
        drop(again);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.ends_with("}\n{\"count\":\"5\",\"part\":1}\n"),
            "{text}"
        );
        // Another census is refused.
        let other = Checkpoint::new(&path, true);
        let error = other.begin("4×4", "band-classes", 3).unwrap_err();
        assert!(
            error.to_string().contains("not of 4×4 by band-classes"),
            "{error}"
        );
        Checkpoint::new(&path, false).remove().unwrap();
        assert!(!path.exists());
    }

    #[test]
    fn a_malformed_line_names_its_line() {
        let path = temp("malformed");
        std::fs::write(
            &path,
            "{\"census\":\"x\",\"method\":\"m\",\"parts\":2}\n{\"part\":5,\"count\":\"1\"}\n",
        )
        .unwrap();
        let error = Checkpoint::new(&path, true).begin("x", "m", 2).unwrap_err();
        assert!(
            error.to_string().ends_with(":2: no part number below 2"),
            "{error}"
        );
        let _ = std::fs::remove_file(&path);
    }
}
