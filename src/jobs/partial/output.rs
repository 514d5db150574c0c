//! The writer of a resumable output, [`PartialOutput`]: opened fresh, forced or resumed under the
//! lock, each result and its index line written through as it comes, the old results of a
//! resumed run kept or replaced in order, and the end of the run (the results renamed to `FILE`
//! when complete, left for `--resume` otherwise).

use std::fs::{self, File};
use std::io::{self, BufReader, Read, Write};
use std::path::Path;

use serde_json::Value;

use super::OpenMode;
use super::entry::IndexEntry;
use super::error::{PartialError, io_error};
use super::files::{Files, Lock, for_creating, for_writing, try_lock};
use super::header::{claim, create_index, read_header};
use super::merge::{recover, splice};
use super::resume::{OldResults, check_results, differences, refuse_leftover};
use crate::jobs::record::Status;
use crate::jobs::target::{open_own, refuse_symlink, write_atomically};

/// Opens (creating it) and locks `FILE.partial`, never through a symbolic link.
fn lock_partial(files: &Files) -> Result<Lock, PartialError> {
    let handle = open_own(&files.partial, &for_writing())?;
    try_lock(handle).map_err(|_| PartialError::Busy {
        pid: read_header(&files.index).and_then(|header| header.pid),
        partial: files.partial.clone(),
    })
}

/// Refuses a directory or a special file at `path` (a file of the run's own, checked before any
/// work: a FIFO would block or take the results away, a directory cannot hold them).
fn refuse_other_kinds(path: &Path) -> Result<(), PartialError> {
    let Ok(meta) = fs::symlink_metadata(path) else {
        return Ok(());
    };
    let kind = meta.file_type();
    let other = if kind.is_dir() {
        "a directory"
    } else if !kind.is_file() && !kind.is_symlink() {
        "a special file"
    } else {
        return Ok(());
    };
    Err(PartialError::NotAFile {
        path: path.to_path_buf(),
        kind: other,
    })
}

/// The old results a resumed run merges.
struct Merge {
    /// The old `FILE.partial`, read in order.
    data: BufReader<File>,
    /// Results whole in it.
    valid: usize,
    /// Results taken (kept or replaced).
    consumed: usize,
}

/// A resumable output being written; see the [module docs](super).
pub struct PartialOutput {
    files: Files,
    /// The lock on `FILE.partial` (and, in a fresh run, where the results go).
    lock: Lock,
    /// Where the results go when resuming (`FILE.partial.next`).
    data: Option<File>,
    /// The index the results are listed in, written through.
    entries: File,
    merge: Option<Merge>,
    /// Kept results (a resumed run's).
    kept: usize,
}

impl std::fmt::Debug for PartialOutput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PartialOutput")
            .field("file", &self.files.file)
            .field("kept", &self.kept)
            .finish_non_exhaustive()
    }
}

impl PartialOutput {
    /// Opens the resumable output of `file` (a regular file's path) for a run of `identity`;
    /// when resuming, also returns the old results to pair with the input's items.
    ///
    /// # Errors
    /// See [`PartialError`].
    pub fn open(
        file: &Path,
        identity: &Value,
        mode: OpenMode,
    ) -> Result<(PartialOutput, Option<OldResults>), PartialError> {
        let files = Files::of(file);
        for path in files.own() {
            refuse_symlink(path)?;
            refuse_other_kinds(path)?;
        }
        let mut mode = mode;
        if mode == OpenMode::Resume && !files.partial.exists() {
            if file.exists() {
                return Err(PartialError::Complete {
                    file: file.to_path_buf(),
                    partial: files.partial,
                });
            }
            // Nothing to resume: the run starts from the beginning.
            mode = OpenMode::Fresh;
        }
        let lock = lock_partial(&files)?;
        match mode {
            OpenMode::Resume => PartialOutput::resume(files, lock, identity),
            OpenMode::Fresh => {
                refuse_leftover(&files, &lock)?;
                PartialOutput::start(files, lock, identity)
            }
            OpenMode::Force => PartialOutput::start(files, lock, identity),
        }
    }

    /// A new run, with the lock held: `FILE.partial` emptied, a new index, no merged files.
    fn start(
        files: Files,
        lock: Lock,
        identity: &Value,
    ) -> Result<(PartialOutput, Option<OldResults>), PartialError> {
        lock.set_len(0)
            .map_err(io_error("truncate", &files.partial))?;
        files.remove_merged();
        let entries = create_index(&files.index, identity)?;
        Ok((
            PartialOutput {
                files,
                lock,
                data: None,
                entries,
                merge: None,
                kept: 0,
            },
            None,
        ))
    }

    /// The `--resume` half of [`PartialOutput::open`], with the lock held.
    fn resume(
        files: Files,
        lock: Lock,
        identity: &Value,
    ) -> Result<(PartialOutput, Option<OldResults>), PartialError> {
        let old = read_header(&files.index).ok_or_else(|| files.no_index())?;
        if &old.identity != identity {
            return Err(PartialError::OtherRun {
                differences: differences(identity, &old.identity),
                partial: files.partial,
            });
        }
        drop(old);
        let lock = if recover(&files, identity)? {
            // The lock was on the `FILE.partial` the merge replaced.
            drop(lock);
            lock_partial(&files)?
        } else {
            lock
        };
        claim(&files.index)?;
        let old = read_header(&files.index).ok_or_else(|| files.no_index())?;
        let valid = check_results(&files.partial, &files.index, old)?.results;
        let reader = read_header(&files.index)
            .ok_or_else(|| files.no_index())?
            .entries;
        // The merged index first: a merged data file never exists without one.
        let entries = create_index(&files.next_index, identity)?;
        let data = open_own(&files.next, &for_creating())?;
        let old = File::open(&files.partial).map_err(io_error("open", &files.partial))?;
        Ok((
            PartialOutput {
                files,
                lock,
                data: Some(data),
                entries,
                merge: Some(Merge {
                    data: BufReader::with_capacity(1 << 16, old),
                    valid,
                    consumed: 0,
                }),
                kept: 0,
            },
            Some(OldResults {
                reader,
                left: valid,
                line: String::new(),
            }),
        ))
    }

    /// The partial file.
    pub fn partial(&self) -> &Path {
        &self.files.partial
    }

    /// The finished file.
    pub fn file(&self) -> &Path {
        &self.files.file
    }

    /// Results kept from before (a resumed run): those copied so far, and those a stop copies
    /// (not reached yet).
    pub fn kept(&self) -> usize {
        self.kept
            + self
                .merge
                .as_ref()
                .map_or(0, |merge| merge.valid - merge.consumed)
    }

    /// Writes one result, then its index line (each with one write call, unbuffered: see the
    /// [module docs](super)).
    ///
    /// # Errors
    /// The write fails.
    pub fn write(&mut self, text: &[u8], line: usize, status: Status, key: u64) -> io::Result<()> {
        let entry = IndexEntry::of(text, line, status, key);
        match &mut self.data {
            Some(data) => data.write_all(text)?,
            None => (&*self.lock).write_all(text)?,
        }
        self.entries.write_all(entry.to_line().as_bytes())
    }

    /// Copies the next old result (a resumed run keeps it), then its index line.
    ///
    /// # Errors
    /// The copy fails.
    pub fn keep(&mut self, entry: &IndexEntry) -> io::Result<()> {
        self.keep_into(entry, None)
    }

    /// As [`PartialOutput::keep`], also giving the kept result's bytes (checked against its
    /// hash when the output was opened): a census reads the count of a part it keeps.
    ///
    /// # Errors
    /// The copy fails.
    pub fn keep_read(&mut self, entry: &IndexEntry) -> io::Result<Vec<u8>> {
        let mut text = Vec::with_capacity(entry.bytes as usize);
        self.keep_into(entry, Some(&mut text))?;
        Ok(text)
    }

    fn keep_into(&mut self, entry: &IndexEntry, text: Option<&mut Vec<u8>>) -> io::Result<()> {
        let merge = self.merge.as_mut().expect("keep only when resuming");
        let data = self.data.as_mut().expect("resuming");
        let mut old = (&mut merge.data).take(entry.bytes);
        let copied = match text {
            Some(text) => {
                old.read_to_end(text)?;
                data.write_all(text)?;
                text.len() as u64
            }
            None => io::copy(&mut old, data)?,
        };
        if copied != entry.bytes {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the partial file ended inside a kept result",
            ));
        }
        merge.consumed += 1;
        self.kept += 1;
        self.entries.write_all(entry.to_line().as_bytes())
    }

    /// Skips the next old result (a resumed run redoes it).
    ///
    /// # Errors
    /// The read fails.
    pub fn replace(&mut self, entry: &IndexEntry) -> io::Result<()> {
        let merge = self.merge.as_mut().expect("replace only when resuming");
        io::copy(&mut (&mut merge.data).take(entry.bytes), &mut io::sink())?;
        merge.consumed += 1;
        Ok(())
    }

    /// Nothing to do: every result and index line is written through as it comes (kept for the
    /// callers that flush before the process ends at once).
    ///
    /// # Errors
    /// None.
    pub fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }

    /// Ends the run: when `complete`, the results become `FILE` and the partial file and its
    /// index are removed; otherwise they stay for `--resume` (a resumed run first copies the old
    /// results it did not reach).
    ///
    /// # Errors
    /// A copy, sync or rename fails.
    pub fn finish(mut self, complete: bool) -> Result<(), PartialError> {
        let files = self.files.clone();
        let Some(merge) = self.merge.take() else {
            if complete {
                self.lock
                    .sync_all()
                    .map_err(io_error("write", &files.partial))?;
                fs::rename(&files.partial, &files.file).map_err(io_error(
                    &format!("rename {} to", files.partial.display()),
                    &files.file,
                ))?;
                let _ = fs::remove_file(&files.index);
            }
            return Ok(());
        };
        let mut data = self.data.take().expect("resuming");
        if complete {
            data.sync_all().map_err(io_error("write", &files.next))?;
            fs::rename(&files.next, &files.file).map_err(io_error(
                &format!("rename {} to", files.next.display()),
                &files.file,
            ))?;
            for path in [&files.partial, &files.index, &files.next_index] {
                let _ = fs::remove_file(path);
            }
            return Ok(());
        }
        // Stopped again: the old results not reached follow the new ones.
        splice(
            &files,
            &mut data,
            &mut self.entries,
            merge.consumed,
            merge.valid - merge.consumed,
        )?;
        files.install_merged(&data)
    }

    /// Ends a complete run whose output is not its results but `text` made from them (a
    /// census's count, from its parts): `FILE` gets `text`, written whole, then the partial
    /// file, its index and any merged files are removed (a kill in between leaves `FILE` and
    /// the results beside it, which a `--resume` turns into `FILE` again).
    ///
    /// # Errors
    /// `FILE` cannot be written.
    pub fn finish_whole(mut self, text: &[u8]) -> Result<(), PartialError> {
        write_atomically(&self.files.file, text)?;
        self.merge = None;
        self.remove_own();
        Ok(())
    }

    /// Ends a run that holds no result (nothing kept, nothing written: a census stopped before
    /// its first part): its files are removed, as if it had never started.
    pub fn discard(mut self) {
        self.merge = None;
        self.remove_own();
    }

    /// Removes the run's own files, the lock last (merged data first, then the index of
    /// `FILE.partial`, then `FILE.partial` itself).
    fn remove_own(&self) {
        self.files.remove_merged();
        let _ = fs::remove_file(&self.files.index);
        let _ = fs::remove_file(&self.files.partial);
    }

    /// Ends a resumed run that was refused: what it merged is removed, the old results stay as
    /// they were.
    pub fn abandon(self) {
        drop(self);
    }
}

impl Drop for PartialOutput {
    /// A resumed run that ends without [`PartialOutput::finish`] (a refusal, an error) leaves
    /// the old results as they were: the merged files are removed.
    fn drop(&mut self) {
        if self.merge.take().is_some() {
            self.files.remove_merged();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::jobs::partial::header::HEADER_LINES;
    use crate::jobs::partial::{index_path, next_path, partial_path};
    use crate::jobs::target::TargetError;

    /// A fresh directory for one test, and `FILE` in it.
    fn scratch(name: &str) -> (PathBuf, PathBuf) {
        let dir =
            std::env::temp_dir().join(format!("sudokit-partial-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let file = dir.join("out.txt");
        (dir, file)
    }

    fn identity() -> Value {
        serde_json::json!({"command": "solve", "options": {}, "form": "text", "inputs": []})
    }

    /// Writes results 1..=n (`done`, or `unknown` when `unknown(i)`) to a fresh output.
    fn fresh_run(file: &Path, n: usize, unknown: impl Fn(usize) -> bool) -> PartialOutput {
        let (mut output, old) = PartialOutput::open(file, &identity(), OpenMode::Force).unwrap();
        assert!(old.is_none());
        for i in 1..=n {
            let status = if unknown(i) {
                Status::Unknown
            } else {
                Status::Done
            };
            output
                .write(format!("result {i}\n").as_bytes(), i, status, i as u64)
                .unwrap();
        }
        output
    }

    /// Ends a run as a kill would: no finish, no clean-up, the lock released.
    fn kill(mut output: PartialOutput) {
        output.merge = None;
        drop(output);
    }

    fn index_lines(file: &Path) -> usize {
        fs::read_to_string(index_path(&partial_path(file)))
            .unwrap()
            .lines()
            .count()
            - HEADER_LINES
    }

    #[test]
    fn every_result_is_indexed_as_it_is_written() {
        let (dir, file) = scratch("through");
        let output = fresh_run(&file, 3, |_| false);
        // Not finished, not flushed: a kill now loses nothing.
        assert_eq!(index_lines(&file), 3);
        kill(output);
        let (output, old) = PartialOutput::open(&file, &identity(), OpenMode::Resume).unwrap();
        assert_eq!(old.unwrap().count(), 3);
        output.finish(false).unwrap();
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_new_run_refuses_a_partial_file_holding_anything() {
        let (dir, file) = scratch("leftover");
        kill(fresh_run(&file, 2, |_| false));
        // The index lost (or never written): the results are still there.
        fs::write(index_path(&partial_path(&file)), "").unwrap();
        let refused = PartialOutput::open(&file, &identity(), OpenMode::Fresh).unwrap_err();
        assert!(
            matches!(refused, PartialError::Leftover { results: None, .. }),
            "{refused}"
        );
        assert!(refused.to_string().contains("--resume"), "{refused}");
        assert_eq!(
            fs::read_to_string(partial_path(&file)).unwrap(),
            "result 1\nresult 2\n"
        );
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_edited_status_is_refused_naming_its_index_line() {
        let (dir, file) = scratch("status");
        kill(fresh_run(&file, 4, |i| i == 3));
        let index = index_path(&partial_path(&file));
        let text = fs::read_to_string(&index).unwrap();
        fs::write(&index, text.replace("\tunknown\t", "\tdone\t")).unwrap();
        let refused = PartialOutput::open(&file, &identity(), OpenMode::Resume).unwrap_err();
        let said = refused.to_string();
        assert!(matches!(refused, PartialError::Damaged { .. }), "{said}");
        assert!(said.contains("line 5 of its index"), "{said}");
        // The input line and key are sealed too.
        fs::write(&index, text.replacen("\n2\tdone", "\n7\tdone", 1)).unwrap();
        let refused = PartialOutput::open(&file, &identity(), OpenMode::Resume).unwrap_err();
        assert!(
            refused.to_string().contains("line 4 of its index"),
            "{refused}"
        );
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_killed_resume_loses_only_its_result_in_flight() {
        let (dir, file) = scratch("killed-resume");
        kill(fresh_run(&file, 4, |i| i == 2));
        let (mut output, old) = PartialOutput::open(&file, &identity(), OpenMode::Resume).unwrap();
        let old: Vec<IndexEntry> = old.unwrap().collect();
        output.keep(&old[0]).unwrap();
        output.replace(&old[1]).unwrap();
        output.write(b"solved 2\n", 2, Status::Done, 2).unwrap();
        // Killed inside the next result.
        output.data.as_mut().unwrap().write_all(b"res").unwrap();
        kill(output);
        assert!(next_path(&partial_path(&file)).exists());
        let (output, old) = PartialOutput::open(&file, &identity(), OpenMode::Resume).unwrap();
        let statuses: Vec<Status> = old.unwrap().map(|e| e.status).collect();
        assert_eq!(statuses, [Status::Done; 4]);
        output.finish(false).unwrap();
        assert_eq!(
            fs::read_to_string(partial_path(&file)).unwrap(),
            "result 1\nsolved 2\nresult 3\nresult 4\n"
        );
        assert!(!next_path(&partial_path(&file)).exists());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_refused_resume_leaves_no_merged_files() {
        let (dir, file) = scratch("refused");
        kill(fresh_run(&file, 2, |_| false));
        let (mut output, old) = PartialOutput::open(&file, &identity(), OpenMode::Resume).unwrap();
        output.keep(&old.unwrap().next().unwrap()).unwrap();
        output.abandon();
        let partial = partial_path(&file);
        assert!(!next_path(&partial).exists());
        assert!(!index_path(&next_path(&partial)).exists());
        assert_eq!(
            fs::read_to_string(&partial).unwrap(),
            "result 1\nresult 2\n"
        );
        let _ = fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn directories_and_special_files_are_refused_before_anything_is_written() {
        let (dir, file) = scratch("kinds");
        let partial = partial_path(&file);
        fs::create_dir(&partial).unwrap();
        let refused = PartialOutput::open(&file, &identity(), OpenMode::Force).unwrap_err();
        assert!(
            refused
                .to_string()
                .contains("is a directory, not a file sudokit keeps"),
            "{refused}"
        );
        fs::remove_dir(&partial).unwrap();
        nix::unistd::mkfifo(&partial, nix::sys::stat::Mode::S_IRWXU).unwrap();
        for mode in [OpenMode::Fresh, OpenMode::Force, OpenMode::Resume] {
            let refused = PartialOutput::open(&file, &identity(), mode).unwrap_err();
            assert!(
                refused.to_string().contains("is a special file"),
                "{refused}"
            );
        }
        assert!(!index_path(&partial).exists());
        let _ = fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn force_never_writes_through_a_symbolic_link() {
        let (dir, file) = scratch("link");
        let victim = dir.join("victim.txt");
        fs::write(&victim, "keep\n").unwrap();
        let partial = partial_path(&file);
        for own in [
            partial.clone(),
            index_path(&partial),
            next_path(&partial),
            index_path(&next_path(&partial)),
        ] {
            std::os::unix::fs::symlink(&victim, &own).unwrap();
            let refused = PartialOutput::open(&file, &identity(), OpenMode::Force).unwrap_err();
            assert!(
                matches!(refused, PartialError::File(TargetError::Symlink(_))),
                "{}: {refused}",
                own.display()
            );
            fs::remove_file(&own).unwrap();
            assert_eq!(fs::read_to_string(&victim).unwrap(), "keep\n");
        }
        let _ = fs::remove_dir_all(&dir);
    }
}
