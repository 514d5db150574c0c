//! The resumable result file of `-o FILE`: the results go to `FILE.partial`, under an exclusive
//! lock, with an index of them in `FILE.partial.index`; `FILE.partial` is renamed to `FILE` when
//! the run completes, so `FILE` never exists half written.
//!
//! # The index
//! The index is the structured form of the results, written beside them so that a resumed run
//! never reads rendered text back: a header line (`sudokit partial index 1 pid N`, the process
//! that holds the lock), the job's identity as JSON (the command, the options that shape the
//! records, the output form), then one line per result: `LINE STATUS BYTES KEY HASH`
//! (tab-separated): the input line it answers, its [`Status`], its length in `FILE.partial`, the
//! fingerprint of its item ([`JobItem::key`](super::JobItem::key)) and an FNV-1a hash of its
//! bytes.
//!
//! # Resuming
//! `--resume` checks the identity (another command or other options: refused), then streams
//! `FILE.partial` against its index once, checking each result's hash: a result changed since it
//! was written, or a line inserted (a blank line, a line from elsewhere), is refused; bytes after
//! the last indexed result (a result torn by a kill, or one whose index line was lost) are
//! dropped. The run then reads its input again; each item is paired with the old result at its
//! place, whose line and key must match (another input: refused). A `done` or `negative` result
//! is kept; an `unknown` or `error` one is redone. The results go, in order, to
//! `FILE.partial.next` (kept ones copied, redone ones replaced), renamed to `FILE` when complete;
//! a resumed run that stops again copies the old results it did not reach and puts
//! `FILE.partial.next` in the place of `FILE.partial`, so nothing is lost.
//!
//! A run without `--resume` never truncates a `FILE.partial` that holds results: it refuses,
//! naming `--resume` and `--force` (which starts again). A second run writing the same
//! `FILE.partial` refuses, naming the first one's process id.
//!
//! # Complexity
//! One write per result (and an index line, buffered); `--resume` reads the old results twice
//! (checking, then copying), streaming, in memory O(1) per result.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde_json::Value;
use thiserror::Error;

use super::item::Fnv;
use super::job::Status;
use super::target::{TargetError, forget_temporary, register_temporary};

/// The first words of an index's header line.
const MAGIC: &str = "sudokit partial index 1 pid ";

/// The width the process id is padded to in the header, so a resumed run can write its own in
/// place.
const PID_WIDTH: usize = 10;

/// One result in the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexEntry {
    /// The input line the result answers.
    pub line: usize,
    /// How it counts.
    pub status: Status,
    /// Its length in bytes.
    pub bytes: u64,
    /// The fingerprint of its item.
    pub key: u64,
    /// FNV-1a of its bytes.
    pub hash: u64,
}

impl IndexEntry {
    /// The entry's line in the index.
    fn to_line(self) -> String {
        format!(
            "{}\t{}\t{}\t{:016x}\t{:016x}\n",
            self.line,
            self.status.word(),
            self.bytes,
            self.key,
            self.hash
        )
    }

    /// The entry of an index line (without its newline).
    fn parse(line: &str) -> Option<IndexEntry> {
        let mut fields = line.split('\t');
        let entry = IndexEntry {
            line: fields.next()?.parse().ok()?,
            status: Status::from_word(fields.next()?)?,
            bytes: fields.next()?.parse().ok()?,
            key: u64::from_str_radix(fields.next()?, 16).ok()?,
            hash: u64::from_str_radix(fields.next()?, 16).ok()?,
        };
        fields.next().is_none().then_some(entry)
    }
}

/// Why a resumable output cannot be opened, continued or finished.
#[derive(Debug, Error)]
pub enum PartialError {
    /// Another process holds the lock.
    #[error(
        "another sudokit run{} is writing {}: wait for it to end, or write to another file",
        pid.map_or(String::new(), |p| format!(" (process {p})")),
        partial.display()
    )]
    Busy {
        /// The partial file.
        partial: PathBuf,
        /// The other run's process id, as its index says.
        pid: Option<u32>,
    },
    /// A run without `--resume` found results it would destroy.
    #[error(
        "{} holds {} of an interrupted run: continue it with --resume, or start again with \
         --force (or remove it)",
        partial.display(),
        match results { Some(1) => "1 result".to_string(), Some(n) => format!("{n} results"), None => "the results".to_string() }
    )]
    Leftover {
        /// The partial file.
        partial: PathBuf,
        /// How many results its index lists.
        results: Option<usize>,
    },
    /// `--resume` of a file that is complete.
    #[error("{} is complete (there is no {}): nothing to resume", file.display(), partial.display())]
    Complete {
        /// The finished file.
        file: PathBuf,
        /// The partial file that is not there.
        partial: PathBuf,
    },
    /// `--resume` without an index.
    #[error(
        "{} has no index of its results ({} is missing or not an index): it cannot be resumed; \
         start again with --force",
        partial.display(),
        index.display()
    )]
    NoIndex {
        /// The partial file.
        partial: PathBuf,
        /// Its index.
        index: PathBuf,
    },
    /// `--resume` of another command's or other options' results.
    #[error(
        "{} holds the results of another run ({differences}); start again with --force",
        partial.display()
    )]
    OtherRun {
        /// The partial file.
        partial: PathBuf,
        /// What differs.
        differences: String,
    },
    /// The partial file does not match its index.
    #[error(
        "{} was changed after it was written ({reason}); start again with --force",
        partial.display()
    )]
    Damaged {
        /// The partial file.
        partial: PathBuf,
        /// What does not match.
        reason: String,
    },
    /// A kept result does not answer the item at its place.
    #[error(
        "{}: result {result} does not answer input line {line} ({reason}); start again with --force",
        partial.display()
    )]
    Mismatch {
        /// The partial file.
        partial: PathBuf,
        /// The result's position (1-based).
        result: usize,
        /// The input line of the item at that place.
        line: usize,
        /// How it differs.
        reason: String,
    },
    /// More results than the input has items.
    #[error(
        "{} holds {results} results but the input has only {items} items; start again with --force",
        partial.display()
    )]
    TooMany {
        /// The partial file.
        partial: PathBuf,
        /// Results in it.
        results: usize,
        /// Items in the input.
        items: usize,
    },
    /// A file operation failed.
    #[error(transparent)]
    File(#[from] TargetError),
}

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

/// `FILE.partial` beside `FILE`.
pub fn partial_path(file: &Path) -> PathBuf {
    with_suffix(file, ".partial")
}

/// The index beside `FILE.partial`.
pub fn index_path(partial: &Path) -> PathBuf {
    with_suffix(partial, ".index")
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

fn io_error(action: &str, path: &Path) -> impl FnOnce(io::Error) -> PartialError {
    let path = path.to_path_buf();
    let action = action.to_string();
    move |source| PartialError::File(TargetError::io(action, &path, source))
}

/// The exclusive lock on `FILE.partial`, held while the run writes it.
#[cfg(unix)]
pub(crate) type Lock = nix::fcntl::Flock<File>;
#[cfg(not(unix))]
pub(crate) type Lock = File;

/// Takes the lock without waiting; `Err(file)` when another process holds it.
#[cfg(unix)]
pub(crate) fn try_lock(file: File) -> Result<Lock, File> {
    nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockExclusiveNonblock).map_err(|(f, _)| f)
}

#[cfg(not(unix))]
pub(crate) fn try_lock(file: File) -> Result<Lock, File> {
    Ok(file)
}

/// The header of an index: its process id and the identity.
pub(crate) fn read_header(index: &Path) -> Option<(Option<u32>, Value, BufReader<File>)> {
    let mut reader = BufReader::new(File::open(index).ok()?);
    let mut first = String::new();
    reader.read_line(&mut first).ok()?;
    let pid = first.strip_prefix(MAGIC)?.trim().parse().ok();
    let mut second = String::new();
    reader.read_line(&mut second).ok()?;
    let identity = serde_json::from_str(second.trim_end()).ok()?;
    Some((pid, identity, reader))
}

/// The header lines of a new index.
fn header(identity: &Value) -> String {
    format!("{MAGIC}{:<PID_WIDTH$}\n{identity}\n", std::process::id())
}

/// Writes this process's id into the header of an existing index, in place.
fn claim(index: &Path) -> Result<(), PartialError> {
    let mut file = OpenOptions::new()
        .write(true)
        .open(index)
        .map_err(io_error("open", index))?;
    file.seek(SeekFrom::Start(MAGIC.len() as u64))
        .and_then(|_| write!(file, "{:<PID_WIDTH$}", std::process::id()))
        .map_err(io_error("write", index))
}

/// What differs between two identities, in words: `unique: true here, false in the file`.
fn differences(here: &Value, there: &Value) -> String {
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
    reader: BufReader<File>,
    left: usize,
    line: String,
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

/// The old results a resumed run merges.
struct Merge {
    /// The old `FILE.partial`, read in order.
    data: BufReader<File>,
    /// Results whole in it.
    valid: usize,
    /// Results taken (kept or replaced).
    consumed: usize,
    /// Where the merged results go: `FILE.partial.next` and its index.
    next: PathBuf,
    next_index: PathBuf,
}

/// A resumable output being written; see the module docs.
pub struct PartialOutput {
    file: PathBuf,
    partial: PathBuf,
    index: PathBuf,
    /// The lock on `FILE.partial` (and, in a fresh run, where the results go).
    lock: Lock,
    /// Where the results go when resuming.
    data: Option<File>,
    entries: BufWriter<File>,
    merge: Option<Merge>,
    /// Kept results (a resumed run's).
    kept: usize,
}

impl std::fmt::Debug for PartialOutput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PartialOutput")
            .field("file", &self.file)
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
        let partial = partial_path(file);
        let index = index_path(&partial);
        let existed = partial.exists();
        let mut mode = mode;
        if mode == OpenMode::Resume && !existed {
            if file.exists() {
                return Err(PartialError::Complete {
                    file: file.to_path_buf(),
                    partial,
                });
            }
            // Nothing to resume: the run starts from the beginning.
            mode = OpenMode::Fresh;
        }
        let handle = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&partial)
            .map_err(io_error("create", &partial))?;
        let lock = try_lock(handle).map_err(|_| PartialError::Busy {
            pid: read_header(&index).and_then(|(pid, _, _)| pid),
            partial: partial.clone(),
        })?;
        if mode == OpenMode::Resume {
            return PartialOutput::resume(file, partial, index, lock, identity);
        }
        let length = lock
            .metadata()
            .map_err(io_error("inspect", &partial))?
            .len();
        if mode == OpenMode::Fresh && length > 0 {
            // A partial file whose index lists no whole result holds nothing to resume.
            let results = read_header(&index).map(|(_, _, reader)| reader.lines().count());
            if results != Some(0) {
                return Err(PartialError::Leftover { partial, results });
            }
        }
        lock.set_len(0).map_err(io_error("truncate", &partial))?;
        let mut entries = BufWriter::new(File::create(&index).map_err(io_error("create", &index))?);
        entries
            .write_all(header(identity).as_bytes())
            .and_then(|()| entries.flush())
            .map_err(io_error("write", &index))?;
        Ok((
            PartialOutput {
                file: file.to_path_buf(),
                partial,
                index,
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
        file: &Path,
        partial: PathBuf,
        index: PathBuf,
        lock: Lock,
        identity: &Value,
    ) -> Result<(PartialOutput, Option<OldResults>), PartialError> {
        let no_index = || PartialError::NoIndex {
            partial: partial.clone(),
            index: index.clone(),
        };
        let (_, old_identity, entries) = read_header(&index).ok_or_else(no_index)?;
        if &old_identity != identity {
            return Err(PartialError::OtherRun {
                differences: differences(identity, &old_identity),
                partial,
            });
        }
        claim(&index)?;
        let valid = check_results(&partial, entries)?;
        let (_, _, reader) = read_header(&index).ok_or_else(no_index)?;
        let next = with_suffix(&partial, ".next");
        let next_index = index_path(&next);
        let data = File::create(&next).map_err(io_error("create", &next))?;
        register_temporary(&next);
        let mut entries =
            BufWriter::new(File::create(&next_index).map_err(io_error("create", &next_index))?);
        register_temporary(&next_index);
        entries
            .write_all(header(identity).as_bytes())
            .map_err(io_error("write", &next_index))?;
        let old = File::open(&partial).map_err(io_error("open", &partial))?;
        Ok((
            PartialOutput {
                file: file.to_path_buf(),
                partial,
                index,
                lock,
                data: Some(data),
                entries,
                merge: Some(Merge {
                    data: BufReader::with_capacity(1 << 16, old),
                    valid,
                    consumed: 0,
                    next,
                    next_index,
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
        &self.partial
    }

    /// The finished file.
    pub fn file(&self) -> &Path {
        &self.file
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

    /// Writes one result.
    ///
    /// # Errors
    /// The write fails.
    pub fn write(&mut self, text: &[u8], line: usize, status: Status, key: u64) -> io::Result<()> {
        let entry = IndexEntry {
            line,
            status,
            bytes: text.len() as u64,
            key,
            hash: Fnv::of(text),
        };
        match &mut self.data {
            Some(data) => data.write_all(text)?,
            None => (&*self.lock).write_all(text)?,
        }
        self.entries.write_all(entry.to_line().as_bytes())
    }

    /// Copies the next old result (a resumed run keeps it).
    ///
    /// # Errors
    /// The copy fails.
    pub fn keep(&mut self, entry: &IndexEntry) -> io::Result<()> {
        let merge = self.merge.as_mut().expect("keep only when resuming");
        let data = self.data.as_mut().expect("resuming");
        let copied = io::copy(&mut (&mut merge.data).take(entry.bytes), data)?;
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

    /// Flushes what is written (before the process ends at once).
    ///
    /// # Errors
    /// The flush fails.
    pub fn flush(&mut self) -> io::Result<()> {
        self.entries.flush()
    }

    /// Ends the run: when `complete`, the results become `FILE` and the partial file and its
    /// index are removed; otherwise they stay for `--resume` (a resumed run first copies the old
    /// results it did not reach).
    ///
    /// # Errors
    /// A flush, copy or rename fails.
    pub fn finish(mut self, complete: bool) -> Result<(), PartialError> {
        let index = self.index.clone();
        let Some(mut merge) = self.merge.take() else {
            self.entries.flush().map_err(io_error("write", &index))?;
            if complete {
                self.lock
                    .sync_all()
                    .map_err(io_error("write", &self.partial))?;
                fs::rename(&self.partial, &self.file).map_err(io_error(
                    &format!("rename {} to", self.partial.display()),
                    &self.file,
                ))?;
                let _ = fs::remove_file(&index);
            }
            return Ok(());
        };
        let mut data = self.data.take().expect("resuming");
        if complete {
            self.entries
                .flush()
                .map_err(io_error("write", &merge.next_index))?;
            data.sync_all().map_err(io_error("write", &merge.next))?;
            fs::rename(&merge.next, &self.file).map_err(io_error(
                &format!("rename {} to", merge.next.display()),
                &self.file,
            ))?;
            forget_temporary(&merge.next);
            for path in [&merge.next_index, &index, &self.partial] {
                let _ = fs::remove_file(path);
            }
            forget_temporary(&merge.next_index);
            return Ok(());
        }
        // Stopped again: the old results not reached follow the new ones.
        let rest = merge.valid - merge.consumed;
        let (_, _, old) = read_header(&index).ok_or_else(|| PartialError::NoIndex {
            partial: self.partial.clone(),
            index: index.clone(),
        })?;
        for line in old.lines().skip(merge.consumed).take(rest) {
            let line = line.map_err(io_error("read", &index))?;
            let entry = IndexEntry::parse(&line).ok_or_else(|| PartialError::Damaged {
                partial: self.partial.clone(),
                reason: "its index changed during the run".into(),
            })?;
            io::copy(&mut (&mut merge.data).take(entry.bytes), &mut data)
                .map_err(io_error("write", &merge.next))?;
            self.entries
                .write_all(entry.to_line().as_bytes())
                .map_err(io_error("write", &merge.next_index))?;
        }
        self.entries
            .flush()
            .map_err(io_error("write", &merge.next_index))?;
        data.sync_all().map_err(io_error("write", &merge.next))?;
        fs::rename(&merge.next_index, &index).map_err(io_error(
            &format!("rename {} to", merge.next_index.display()),
            &index,
        ))?;
        forget_temporary(&merge.next_index);
        fs::rename(&merge.next, &self.partial).map_err(io_error(
            &format!("rename {} to", merge.next.display()),
            &self.partial,
        ))?;
        forget_temporary(&merge.next);
        Ok(())
    }
}

impl Drop for PartialOutput {
    /// A resumed run that ends without [`PartialOutput::finish`] (an error) leaves the old
    /// results as they were: the merged copy is removed.
    fn drop(&mut self) {
        if let Some(merge) = self.merge.take() {
            for path in [&merge.next, &merge.next_index] {
                let _ = fs::remove_file(path);
                forget_temporary(path);
            }
        }
    }
}

/// Streams `partial` against its index `entries` (after the header): the number of results
/// whole in it. Bytes after the last one are a torn result, dropped.
///
/// # Errors
/// [`PartialError::Damaged`]: a result whose bytes are not those written, a damaged index line.
fn check_results(partial: &Path, mut entries: BufReader<File>) -> Result<usize, PartialError> {
    let damaged = |reason: String| PartialError::Damaged {
        partial: partial.to_path_buf(),
        reason,
    };
    let file = File::open(partial).map_err(io_error("open", partial))?;
    let length = file.metadata().map_err(io_error("inspect", partial))?.len();
    let mut data = BufReader::with_capacity(1 << 16, file);
    let mut buffer = Vec::new();
    let (mut valid, mut offset) = (0usize, 0u64);
    let mut line = String::new();
    loop {
        line.clear();
        entries
            .read_line(&mut line)
            .map_err(io_error("read", partial))?;
        // The last line without its newline was torn by a kill: it and what follows are
        // redone.
        let Some(text) = line.strip_suffix('\n') else {
            break;
        };
        let Some(entry) = IndexEntry::parse(text) else {
            return Err(damaged(format!(
                "line {} of its index is damaged",
                valid + 3
            )));
        };
        if offset + entry.bytes > length {
            // A result torn by a kill: it and what follows are redone.
            break;
        }
        buffer.clear();
        (&mut data)
            .take(entry.bytes)
            .read_to_end(&mut buffer)
            .map_err(io_error("read", partial))?;
        if Fnv::of(&buffer) != entry.hash {
            let first = String::from_utf8_lossy(&buffer);
            let first = first.lines().next().unwrap_or("");
            return Err(damaged(format!(
                "result {} (input line {}) is not the one written: it reads {:?}",
                valid + 1,
                entry.line,
                first.chars().take(60).collect::<String>()
            )));
        }
        offset += entry.bytes;
        valid += 1;
    }
    Ok(valid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        let entry = IndexEntry {
            line: 17,
            status: Status::Unknown,
            bytes: 82,
            key: 0xdead_beef,
            hash: u64::MAX,
        };
        let line = entry.to_line();
        assert_eq!(IndexEntry::parse(line.trim_end()), Some(entry));
        assert_eq!(IndexEntry::parse("17\tdone\t3"), None);
        assert_eq!(IndexEntry::parse("x\tdone\t3\t0\t0"), None);
    }

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
