//! The resume file of a long census, `FILE.partial` beside the `-o FILE` of a count: the parts
//! counted so far, so that an interrupted count (a time limit, Ctrl-C, a kill) continues where it
//! stopped.
//!
//! # The format (version 2)
//! A header line naming the format and the process that holds the file, the census as JSON
//! (grid, method, number of parts), then one line per part counted, tab-separated:
//! `PART STATUS COUNT KEY HASH` — the part's number, its [`Status`] (`done`: only a part counted
//! whole is kept), its count, a fingerprint of the census and the part, and an FNV-1a hash of
//! the line up to the hash, status included (tabs shown as two spaces):
//! ```text
//! sudokit census checkpoint 2 pid 4242
//! {"census":"9×9 (3×3 boxes)","method":"band-classes","parts":44}
//! 0  done  815486979727687680  e4d5f90408eb5d97  50f0563a686cd53c
//! ```
//! These are the checks of a batch result file ([`crate::jobs::partial`]: a key for what the
//! result answers, a hash of what was written, the [`Fnv`] of both) applied to a part: a part
//! line changed after it was written (its count, its status), copied from another census's file,
//! or a line inserted, is refused, naming the file and the line. A census keeps its own file
//! rather than a batch index because its results are single numbers that finish in any order,
//! not written records paired with the lines of an input; a file of the first format (JSON
//! lines without a check) is refused: `--force` starts again.
//!
//! [`Status`]: crate::jobs::Status
//! [`Fnv`]: crate::jobs::item::Fnv
//!
//! # Writing
//! The file is held under the exclusive lock of a batch result file (the same `flock`, on the
//! same `FILE.partial`): a second run on the same `-o` — a count, or a `solve` — is refused,
//! naming the process that holds it, before anything is written, and `--force` never discards a
//! file another process holds. Each part line is written whole by a single write as soon as its
//! part is counted, so a kill loses at most the parts in flight; on resume a last line without
//! its newline is dropped and its part counted again.
//!
//! # Refusals
//! A path that is a symbolic link, a directory or a special file is refused before anything is
//! counted (the census writes its parts only into a regular file it owns). A new run over a file
//! that holds parts is refused unless it resumes them (`--resume`) or discards them (`--force`);
//! a resume of the results of a batch command, of another census or of a file in another format
//! says what it found. A refused run leaves the file as it was (and no other file behind).
//!
//! # Complexity
//! One write per part; opening reads the file once, in memory O(1) per part.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde_json::json;

mod error;
mod lines;

pub use self::error::CheckpointError;
use self::lines::{
    Contents, KeptPart, MAGIC, PID_WIDTH, describe, header, holder, part_key, part_line,
    read_contents, refuse_fresh,
};
use super::partial::{Lock, OpenMode, PartialError, index_path, try_lock};
use super::target::TargetError;
use crate::census::{PartStore, PartStoreError};

/// The open file and what was read from it.
struct State {
    /// The file, locked; `None` once removed.
    lock: Option<Lock>,
    /// The census line in the file.
    census: Option<String>,
    /// Parts read back, until [`Checkpoint::begin`] checks them against the census.
    kept: Vec<KeptPart>,
    /// Whether this run created the file (removed again if it is never begun).
    created: bool,
}

/// The resume file of one census, locked while it is open; see the module docs.
pub struct Checkpoint {
    path: PathBuf,
    state: Mutex<State>,
}

impl std::fmt::Debug for Checkpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checkpoint")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

fn io_error(action: &'static str, path: &Path) -> impl FnOnce(io::Error) -> CheckpointError {
    let path = path.to_path_buf();
    move |source| CheckpointError::File(TargetError::io(action, &path, source))
}

impl Checkpoint {
    /// Opens the resume file `path` (`FILE.partial`) as `mode` says and locks it: a new run
    /// (refused over parts), a new run that discards them (`--force`), or a resume, whose parts
    /// are read and their hashes checked now (the census they belong to is checked by the
    /// count, which knows its parts).
    ///
    /// # Errors
    /// See [`CheckpointError`]: a path that is not a regular file, a file another process
    /// holds, parts a new run would discard, a file that is not this format's or was changed.
    pub fn open(path: impl Into<PathBuf>, mode: OpenMode) -> Result<Checkpoint, CheckpointError> {
        let path = path.into();
        let existed = match fs::symlink_metadata(&path) {
            Ok(meta) => {
                let kind = meta.file_type();
                let what = if kind.is_symlink() {
                    Some("a symbolic link")
                } else if kind.is_dir() {
                    Some("a directory")
                } else if !kind.is_file() {
                    Some("a special file")
                } else {
                    None
                };
                if let Some(kind) = what {
                    return Err(CheckpointError::NotAFile { path, kind });
                }
                true
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => false,
            Err(e) => return Err(io_error("inspect", &path)(e)),
        };
        let handle = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io_error("create", &path))?;
        let lock = try_lock(handle).map_err(|_| {
            CheckpointError::Busy(PartialError::Busy {
                pid: holder(&path),
                partial: path.clone(),
            })
        })?;
        let mut bytes = Vec::new();
        (&*lock)
            .read_to_end(&mut bytes)
            .map_err(io_error("read", &path))?;
        // Whole lines only: a trailing line without its newline was torn by a kill.
        let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let mut state = State {
            lock: Some(lock),
            census: None,
            kept: Vec::new(),
            created: !existed,
        };
        let checkpoint = |state| Checkpoint {
            path: path.clone(),
            state: Mutex::new(state),
        };
        let contents = match mode {
            OpenMode::Force => Contents::Empty,
            OpenMode::Fresh => {
                if !bytes.is_empty() {
                    refuse_fresh(&path, &bytes[..whole])?;
                }
                Contents::Empty
            }
            OpenMode::Resume => read_contents(&path, &bytes[..whole])?,
        };
        let lock = state.lock.as_ref().expect("open");
        match contents {
            Contents::Empty => {
                // A batch index beside the file describes results being discarded.
                let index = index_path(&path);
                if index.exists() {
                    fs::remove_file(&index).map_err(io_error("remove", &index))?;
                }
                lock.set_len(0).map_err(io_error("truncate", &path))?;
                file(lock)
                    .seek(SeekFrom::Start(0))
                    .and_then(|_| file(lock).write_all(header().as_bytes()))
                    .map_err(io_error("write", &path))?;
            }
            Contents::Census { census, parts } => {
                lock.set_len(whole as u64)
                    .map_err(io_error("truncate", &path))?;
                file(lock)
                    .seek(SeekFrom::Start(MAGIC.len() as u64))
                    .and_then(|_| write!(&**lock, "{:<PID_WIDTH$}", std::process::id()))
                    .and_then(|()| file(lock).seek(SeekFrom::End(0)))
                    .map_err(io_error("write", &path))?;
                state.census = census;
                state.kept = parts;
            }
        }
        Ok(checkpoint(state))
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Begins a census named `census` (grid and method) of `parts` parts: writes its census
    /// line into a new file, or checks the one a resumed file holds, and returns the parts it
    /// already holds, `(part, count)`.
    ///
    /// # Errors
    /// The file was written by another census, holds a part of another census (its key does
    /// not match) or twice; it cannot be written.
    pub(crate) fn begin(
        &self,
        census: &str,
        method: &str,
        parts: usize,
    ) -> Result<Vec<(usize, u128)>, CheckpointError> {
        let line = json!({"census": census, "method": method, "parts": parts}).to_string();
        let mut state = self.state();
        match &state.census {
            Some(found) if *found != line => {
                return Err(CheckpointError::Mismatch {
                    path: self.path.clone(),
                    found: describe(found),
                    expected: describe(&line),
                });
            }
            Some(_) => {}
            None => {
                if let Some(lock) = &state.lock {
                    file(lock)
                        .write_all(format!("{line}\n").as_bytes())
                        .map_err(io_error("write", &self.path))?;
                }
                state.census = Some(line.clone());
            }
        }
        state.created = false;
        let mut seen = vec![false; parts];
        let mut kept = Vec::with_capacity(state.kept.len());
        for part in std::mem::take(&mut state.kept) {
            let malformed = |reason: String| CheckpointError::Malformed {
                path: self.path.clone(),
                line: part.line,
                reason,
            };
            if part.part >= parts {
                return Err(malformed(format!(
                    "part {} is not one of the {parts} parts",
                    part.part
                )));
            }
            if part.key != part_key(&line, part.part) {
                return Err(malformed(format!(
                    "part {} was counted for another census (its key is not this census's)",
                    part.part
                )));
            }
            if std::mem::replace(&mut seen[part.part], true) {
                return Err(malformed(format!("part {} twice", part.part)));
            }
            kept.push((part.part, part.count));
        }
        Ok(kept)
    }

    /// Appends one part's count: its line, whole, in a single write.
    ///
    /// # Errors
    /// The file cannot be written.
    pub(crate) fn record(&self, part: usize, count: u128) -> Result<(), CheckpointError> {
        let state = self.state();
        if let (Some(lock), Some(census)) = (&state.lock, &state.census) {
            file(lock)
                .write_all(part_line(census, part, count).as_bytes())
                .map_err(io_error("write", &self.path))?;
        }
        Ok(())
    }

    /// Removes the file (the census is complete), then lets the lock go.
    ///
    /// # Errors
    /// The file cannot be removed.
    pub fn remove(self) -> Result<(), CheckpointError> {
        let mut state = self.state();
        let lock = state.lock.take();
        state.created = false;
        let removed = match fs::remove_file(&self.path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(io_error("remove", &self.path)(e)),
            _ => Ok(()),
        };
        drop(lock);
        removed
    }
}

impl Drop for Checkpoint {
    /// A file this run created and never began (the census was refused, or stopped while
    /// preparing its parts) holds nothing: it is removed.
    fn drop(&mut self) {
        let state = self.state.get_mut().unwrap_or_else(|p| p.into_inner());
        if state.created && state.lock.is_some() {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// The file under the lock.
fn file(lock: &Lock) -> &File {
    lock
}

impl PartStore for Checkpoint {
    fn begin(
        &self,
        census: &str,
        method: &str,
        parts: usize,
    ) -> Result<Vec<(usize, u128)>, PartStoreError> {
        Checkpoint::begin(self, census, method, parts).map_err(|e| PartStoreError(Box::new(e)))
    }

    fn record(&self, part: usize, count: u128) -> Result<(), PartStoreError> {
        Checkpoint::record(self, part, count).map_err(|e| PartStoreError(Box::new(e)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::census::{CensusOptions, CensusProgress, count_grids};
    use crate::jobs::Status;
    use crate::jobs::partial::{PartialOutput, partial_path};
    use crate::shape::Shape;

    /// A fresh directory for one test.
    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("sudokit-checkpoint-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A file holding parts 2 and 0 of a census of 3 parts.
    fn two_parts(path: &Path) {
        let first = Checkpoint::open(path, OpenMode::Force).unwrap();
        assert!(first.begin("4×4", "column-sets", 3).unwrap().is_empty());
        first.record(2, 7).unwrap();
        first.record(0, u128::MAX).unwrap();
    }

    fn resume(path: &Path) -> Result<Vec<(usize, u128)>, CheckpointError> {
        Checkpoint::open(path, OpenMode::Resume)?.begin("4×4", "column-sets", 3)
    }

    /// Replaces line `line` (1-based) of `path` by `edit` of it.
    fn edit_line(path: &Path, line: usize, edit: impl Fn(&str) -> String) {
        let text = fs::read_to_string(path).unwrap();
        let edited: String = text
            .lines()
            .enumerate()
            .map(|(i, l)| {
                if i + 1 == line {
                    format!("{}\n", edit(l))
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        fs::write(path, edited).unwrap();
    }

    #[test]
    fn parts_written_are_read_back_and_a_torn_line_is_dropped() {
        let dir = temp_dir("torn");
        let path = dir.join("c.txt.partial");
        two_parts(&path);
        let text = fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0].trim_end(),
            format!("{MAGIC}{}", std::process::id())
        );
        assert_eq!(
            lines[1],
            r#"{"census":"4×4","method":"column-sets","parts":3}"#
        );
        assert!(lines[2].starts_with("2\tdone\t7\t"), "{}", lines[2]);
        assert_eq!(lines.len(), 4);
        // A part cut short while being written.
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"1\tdone\t5\t").unwrap();
        drop(file);
        let again = Checkpoint::open(&path, OpenMode::Resume).unwrap();
        assert_eq!(
            again.begin("4×4", "column-sets", 3).unwrap(),
            [(2, 7), (0, u128::MAX)]
        );
        again.record(1, 5).unwrap();
        drop(again);
        let text = fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 5);
        assert!(text.lines().last().unwrap().starts_with("1\tdone\t5\t"));
        assert_eq!(resume(&path).unwrap(), [(2, 7), (0, u128::MAX), (1, 5)]);
        Checkpoint::open(&path, OpenMode::Resume)
            .unwrap()
            .remove()
            .unwrap();
        assert!(!path.exists());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_changed_count_or_status_is_refused_naming_its_line() {
        let dir = temp_dir("tampered");
        let path = dir.join("c.txt.partial");
        for (edit, said) in [
            (
                (|l: &str| l.replacen("\t7\t", "\t8\t", 1)) as fn(&str) -> String,
                "part 2 was changed after it was written",
            ),
            (
                |l: &str| l.replacen("\tdone\t", "\tunknown\t", 1),
                "part 2 was changed after it was written",
            ),
            (|l: &str| l.replacen('\t', " ", 1), "not a part line"),
        ] {
            two_parts(&path);
            edit_line(&path, 3, edit);
            let before = fs::read(&path).unwrap();
            let error = resume(&path).unwrap_err().to_string();
            let at = format!("{}:3: ", path.display());
            assert!(error.starts_with(&at), "{error}");
            assert!(error.contains(said), "{error}");
            assert!(error.ends_with("start again with --force"), "{error}");
            // Refused: the file is as it was, and nothing is left beside it.
            assert_eq!(fs::read(&path).unwrap(), before);
            assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
            fs::remove_file(&path).unwrap();
        }
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_part_of_another_census_is_refused_though_its_hash_is_right() {
        let dir = temp_dir("foreign");
        let path = dir.join("c.txt.partial");
        two_parts(&path);
        let other = part_line(
            r#"{"census":"4×4","method":"band-classes","parts":3}"#,
            1,
            9,
        );
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(other.as_bytes()).unwrap();
        drop(file);
        let error = resume(&path).unwrap_err().to_string();
        assert!(
            error.contains(":5: part 1 was counted for another census"),
            "{error}"
        );
        // A blank line inserted is no part either.
        two_parts(&path);
        edit_line(&path, 3, |l| format!("\n{l}"));
        let error = resume(&path).unwrap_err().to_string();
        assert!(error.contains(":3: not a part line"), "{error}");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn another_census_and_a_fresh_run_over_parts_are_refused() {
        let dir = temp_dir("refusals");
        let path = dir.join("c.txt.partial");
        two_parts(&path);
        let error = Checkpoint::open(&path, OpenMode::Resume)
            .unwrap()
            .begin("4×4", "band-classes", 3)
            .unwrap_err();
        assert!(
            error
                .to_string()
                .contains("not of 4×4 by band-classes in 3 parts"),
            "{error}"
        );
        let error = Checkpoint::open(&path, OpenMode::Fresh).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("holds 2 parts of an interrupted count"),
            "{error}"
        );
        // --force starts again.
        let again = Checkpoint::open(&path, OpenMode::Force).unwrap();
        assert!(again.begin("4×4", "column-sets", 3).unwrap().is_empty());
        drop(again);
        // A file without parts is started again by a new run.
        assert!(Checkpoint::open(&path, OpenMode::Fresh).is_ok());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_of_the_first_format_is_refused_and_force_restarts() {
        let dir = temp_dir("format1");
        let path = dir.join("c.txt.partial");
        let old = "{\"census\":\"x\",\"method\":\"m\",\"parts\":2}\n{\"part\":0,\"count\":\"1\"}\n";
        fs::write(&path, old).unwrap();
        for mode in [OpenMode::Resume, OpenMode::Fresh] {
            let error = Checkpoint::open(&path, mode).unwrap_err().to_string();
            assert!(error.contains("format 1"), "{error}");
            assert!(error.contains("--force"), "{error}");
            assert_eq!(fs::read_to_string(&path).unwrap(), old);
        }
        // A header whose process id could not be rewritten in place.
        fs::write(&path, "sudokit census checkpoint 2 pid 1\n").unwrap();
        let error = Checkpoint::open(&path, OpenMode::Resume).unwrap_err();
        assert!(error.to_string().contains(":1: not the header"), "{error}");
        fs::write(&path, "sudokit census checkpoint 3 pid 1\n").unwrap();
        let error = Checkpoint::open(&path, OpenMode::Resume).unwrap_err();
        assert!(error.to_string().contains("format 3"), "{error}");
        let forced = Checkpoint::open(&path, OpenMode::Force).unwrap();
        assert!(forced.begin("x", "m", 2).unwrap().is_empty());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_batch_result_file_is_named_and_its_lock_respected() {
        let dir = temp_dir("batch");
        let file = dir.join("z.txt");
        let partial = partial_path(&file);
        let identity = json!({"command": "solve", "options": {}, "form": "text"});
        let (mut batch, _) = PartialOutput::open(&file, &identity, OpenMode::Fresh).unwrap();
        batch.write(b"1\n", 1, Status::Done, 7).unwrap();
        batch.flush().unwrap();
        // Running: even --force leaves its file alone, naming the process.
        for mode in [OpenMode::Force, OpenMode::Resume, OpenMode::Fresh] {
            let error = Checkpoint::open(&partial, mode).unwrap_err().to_string();
            assert!(
                error.contains(&format!("(process {})", std::process::id())),
                "{error}"
            );
            assert_eq!(fs::read(&partial).unwrap(), b"1\n");
        }
        batch.finish(false).unwrap();
        // Stopped: named for what it is, and discarded (its index too) only by --force.
        for mode in [OpenMode::Resume, OpenMode::Fresh] {
            let error = Checkpoint::open(&partial, mode).unwrap_err().to_string();
            assert_eq!(
                error,
                format!(
                    "{} holds the results of a batch `solve` run, not a census: count into \
                     another file, or discard them with --force",
                    partial.display()
                )
            );
        }
        let forced = Checkpoint::open(&partial, OpenMode::Force).unwrap();
        assert!(!index_path(&partial).exists());
        drop(forced);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_second_writer_is_refused_naming_the_first() {
        let dir = temp_dir("busy");
        let path = dir.join("c.txt.partial");
        let first = Checkpoint::open(&path, OpenMode::Fresh).unwrap();
        first.begin("4×4", "column-sets", 3).unwrap();
        first.record(1, 4).unwrap();
        let before = fs::read(&path).unwrap();
        for mode in [OpenMode::Force, OpenMode::Resume, OpenMode::Fresh] {
            let error = Checkpoint::open(&path, mode).unwrap_err().to_string();
            assert_eq!(
                error,
                format!(
                    "another sudokit run (process {}) is writing {}: wait for it to end, or \
                     write to another file",
                    std::process::id(),
                    path.display()
                )
            );
        }
        first.record(2, 5).unwrap();
        assert!(fs::read(&path).unwrap().starts_with(&before));
        drop(first);
        assert_eq!(resume(&path).unwrap(), [(1, 4), (2, 5)]);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn links_directories_and_special_files_are_refused() {
        let dir = temp_dir("kinds");
        let inside = dir.join("d.partial");
        fs::create_dir(&inside).unwrap();
        let error = Checkpoint::open(&inside, OpenMode::Force).unwrap_err();
        assert!(
            error.to_string().ends_with(
                "is a directory, not a census resume file: remove it, or count into another file"
            ),
            "{error}"
        );
        #[cfg(unix)]
        {
            let target = dir.join("precious.txt");
            fs::write(&target, "keep me\n").unwrap();
            let link = dir.join("l.partial");
            std::os::unix::fs::symlink(&target, &link).unwrap();
            let error = Checkpoint::open(&link, OpenMode::Force).unwrap_err();
            assert!(error.to_string().contains("is a symbolic link"), "{error}");
            assert_eq!(fs::read_to_string(&target).unwrap(), "keep me\n");
            let fifo = dir.join("f.partial");
            nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
            let error = Checkpoint::open(&fifo, OpenMode::Resume).unwrap_err();
            assert!(error.to_string().contains("is a special file"), "{error}");
        }
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_never_begun_is_removed_and_a_missing_one_resumes_as_new() {
        let dir = temp_dir("unbegun");
        let path = dir.join("c.txt.partial");
        drop(Checkpoint::open(&path, OpenMode::Resume).unwrap());
        assert!(!path.exists());
        assert!(resume(&path).unwrap().is_empty());
        assert!(path.exists());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_resumed_census_counts_only_the_parts_missing() {
        let path = std::env::temp_dir().join(format!("sudokit-census-{}", std::process::id()));
        let shape = Shape::latin(6).unwrap();
        // A full run writes every part.
        let checkpoint = Checkpoint::open(&path, OpenMode::Force).unwrap();
        let mut seen = Vec::new();
        let progress = std::sync::Mutex::new(&mut seen);
        let note = |p: &CensusProgress| progress.lock().unwrap().push(p.parts_done);
        let options = CensusOptions {
            checkpoint: Some(&checkpoint),
            progress: Some(&note),
            ..CensusOptions::default()
        };
        let full = count_grids(&shape, &options).unwrap();
        drop(options);
        drop(checkpoint);
        assert_eq!(full.count, 812_851_200);
        assert_eq!(*seen.last().unwrap(), full.parts);
        // Keep the header, the census line and the first three parts; the rest is counted
        // again.
        let text = std::fs::read_to_string(&path).unwrap();
        let kept: String = text.lines().take(5).map(|l| format!("{l}\n")).collect();
        std::fs::write(&path, kept).unwrap();
        let again = Checkpoint::open(&path, OpenMode::Resume).unwrap();
        let options = CensusOptions {
            checkpoint: Some(&again),
            ..CensusOptions::default()
        };
        let resumed = count_grids(&shape, &options).unwrap();
        assert_eq!((resumed.count, resumed.parts_resumed), (full.count, 3));
        assert_eq!(
            std::fs::read_to_string(&path).unwrap().lines().count(),
            full.parts + 2
        );
        again.remove().unwrap();
    }
}
