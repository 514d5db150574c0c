//! The resumable result file of `-o FILE`: the results go to `FILE.partial`, under an exclusive
//! lock, with an index of them in `FILE.partial.index`; `FILE.partial` is renamed to `FILE` when
//! the run completes, so `FILE` never exists half written.
//!
//! # The index
//! The index is the structured form of the results, written beside them so that a resumed run
//! never reads rendered text back: a header line (`sudokit partial index 2 pid N`, the process
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
//! index from `FILE.partial` on resume was not chosen: it would read rendered text back.
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
//! `--force`).
//!
//! # Complexity
//! Two write calls per result; `--resume` reads the old results twice (checking, then copying),
//! streaming, in memory O(1) per result.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde_json::Value;
use thiserror::Error;

use super::item::Fnv;
use super::job::Status;
use super::target::{TargetError, open_own, refuse_symlink};

/// The first words of an index's header line.
const MAGIC: &str = "sudokit partial index 2 pid ";

/// The width the process id is padded to in the header, so a resumed run can write its own in
/// place.
const PID_WIDTH: usize = 10;

/// The header lines (a pid line and an identity line) before an index's entries.
const HEADER_LINES: usize = 2;

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
    /// FNV-1a of its bytes, then of its line, status, length and key.
    pub hash: u64,
}

impl IndexEntry {
    /// The entry of the result `text`, answering input line `line` with `status`, for the item
    /// of fingerprint `key`.
    pub fn of(text: &[u8], line: usize, status: Status, key: u64) -> IndexEntry {
        let mut entry = IndexEntry {
            line,
            status,
            bytes: text.len() as u64,
            key,
            hash: 0,
        };
        entry.hash = entry.seal(text);
        entry
    }

    /// The hash of `text` and of the entry's fields: what [`IndexEntry::hash`] must be.
    fn seal(&self, text: &[u8]) -> u64 {
        let mut hash = Fnv::new();
        hash.add(text);
        hash.add(&(self.line as u64).to_le_bytes());
        hash.add(self.status.word().as_bytes());
        hash.add(&[0]);
        hash.add(&self.bytes.to_le_bytes());
        hash.add(&self.key.to_le_bytes());
        hash.finish()
    }

    /// Whether `text` is the result this entry was written for, with this entry's fields.
    pub fn matches(&self, text: &[u8]) -> bool {
        text.len() as u64 == self.bytes && self.seal(text) == self.hash
    }

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
        match results { Some(1) => "1 result".to_string(), Some(n) => format!("{n} results"), None => "the output".to_string() }
    )]
    Leftover {
        /// The partial file.
        partial: PathBuf,
        /// How many results its index lists (`None`: none whole, or no index).
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
        "{} has no index of its results ({} is missing, not an index, or written by another \
         version): it cannot be resumed; start again with --force",
        partial.display(),
        index.display()
    )]
    NoIndex {
        /// The partial file.
        partial: PathBuf,
        /// Its index.
        index: PathBuf,
    },
    /// `--resume` of another command's, other options' or another input's results.
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
    /// A file operation failed, or a file of the run's own is a symbolic link.
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

/// The merged results of a resumed run, `FILE.partial.next`, beside `FILE.partial`.
pub fn next_path(partial: &Path) -> PathBuf {
    with_suffix(partial, ".next")
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

/// The files of a resumable output.
#[derive(Debug, Clone)]
struct Files {
    /// `FILE`, written when the run completes.
    file: PathBuf,
    /// `FILE.partial` and its index.
    partial: PathBuf,
    index: PathBuf,
    /// `FILE.partial.next` and its index: a resumed run's merged results.
    next: PathBuf,
    next_index: PathBuf,
}

impl Files {
    fn of(file: &Path) -> Files {
        let partial = partial_path(file);
        let next = next_path(&partial);
        Files {
            file: file.to_path_buf(),
            index: index_path(&partial),
            next_index: index_path(&next),
            partial,
            next,
        }
    }

    /// The files the run writes (every one but `FILE`).
    fn own(&self) -> [&PathBuf; 4] {
        [&self.partial, &self.index, &self.next, &self.next_index]
    }

    fn no_index(&self) -> PartialError {
        PartialError::NoIndex {
            partial: self.partial.clone(),
            index: self.index.clone(),
        }
    }

    /// Removes the merged files (the data first: a merged index alone is known to be stale).
    fn remove_merged(&self) {
        let _ = fs::remove_file(&self.next);
        let _ = fs::remove_file(&self.next_index);
    }

    /// Puts the merged files, complete, in the place of `FILE.partial` and its index: the index
    /// first (a merged data file without its index is one whose index is already in place).
    fn install_merged(&self, data: &File) -> Result<(), PartialError> {
        data.sync_all().map_err(io_error("write", &self.next))?;
        fs::rename(&self.next_index, &self.index).map_err(io_error(
            &format!("rename {} to", self.next_index.display()),
            &self.index,
        ))?;
        fs::rename(&self.next, &self.partial).map_err(io_error(
            &format!("rename {} to", self.next.display()),
            &self.partial,
        ))
    }
}

/// Options that open a file for writing, creating it, keeping what it holds.
fn for_writing() -> OpenOptions {
    let mut options = OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    options
}

/// Options that create a file for writing, empty.
fn for_creating() -> OpenOptions {
    let mut options = OpenOptions::new();
    options.write(true).create(true).truncate(true);
    options
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

/// Opens (creating it) and locks `FILE.partial`, never through a symbolic link.
fn lock_partial(files: &Files) -> Result<Lock, PartialError> {
    let handle = open_own(&files.partial, &for_writing())?;
    try_lock(handle).map_err(|_| PartialError::Busy {
        pid: read_header(&files.index).and_then(|header| header.pid),
        partial: files.partial.clone(),
    })
}

/// The header of an index, and its entries after it.
pub(crate) struct Header {
    /// The process that wrote (or claimed) the index.
    pub(crate) pid: Option<u32>,
    /// The identity of its run.
    pub(crate) identity: Value,
    /// The entry lines, read from here.
    entries: BufReader<File>,
    /// The header's length in bytes (where the entries start).
    length: u64,
}

/// The header of an index; `None` when it is missing or not an index of this version.
pub(crate) fn read_header(index: &Path) -> Option<Header> {
    let mut entries = BufReader::new(File::open(index).ok()?);
    let mut first = String::new();
    entries.read_line(&mut first).ok()?;
    let pid = first.strip_prefix(MAGIC)?.trim().parse().ok();
    let mut second = String::new();
    entries.read_line(&mut second).ok()?;
    let identity = second
        .strip_suffix('\n')
        .and_then(|line| serde_json::from_str(line).ok())?;
    Some(Header {
        pid,
        identity,
        entries,
        length: (first.len() + second.len()) as u64,
    })
}

/// The header lines of a new index.
fn header(identity: &Value) -> String {
    format!("{MAGIC}{:<PID_WIDTH$}\n{identity}\n", std::process::id())
}

/// Creates the index `path` holding the header of `identity` (one write), never through a
/// symbolic link.
fn create_index(path: &Path, identity: &Value) -> Result<File, PartialError> {
    let mut index = open_own(path, &for_creating())?;
    index
        .write_all(header(identity).as_bytes())
        .map_err(io_error("write", path))?;
    Ok(index)
}

/// Writes this process's id into the header of an existing index, in place.
fn claim(index: &Path) -> Result<(), PartialError> {
    let mut options = OpenOptions::new();
    options.write(true);
    let mut file = open_own(index, &options)?;
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
                (Some(x), Some(y)) if key == super::run_identity::INPUTS => {
                    said.push(super::run_identity::input_differences(x, y));
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
}

/// A resumable output being written; see the module docs.
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
    /// module docs).
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

/// Refuses a new run over `FILE.partial` (or merged results) holding anything: see
/// [`PartialError::Leftover`].
fn refuse_leftover(files: &Files, lock: &Lock) -> Result<(), PartialError> {
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

/// Finishes the merge a killed resumed run left (see the module docs), with the lock held:
/// whether it put merged files in the place of `FILE.partial` and its index.
///
/// # Errors
/// Merged results of another run, or changed since they were written; a copy or rename fails.
fn recover(files: &Files, identity: &Value) -> Result<bool, PartialError> {
    match (files.next.exists(), files.next_index.exists()) {
        (false, false) => Ok(false),
        // Killed as the merged files were made or removed: nothing in them.
        (false, true) => {
            let _ = fs::remove_file(&files.next_index);
            Ok(false)
        }
        // Killed between the two renames of a stop: the index already lists the merged results.
        (true, false) => {
            let header = read_header(&files.index).ok_or_else(|| files.no_index())?;
            let checked = check_results(&files.next, &files.index, header)?;
            if checked.whole {
                fs::rename(&files.next, &files.partial).map_err(io_error(
                    &format!("rename {} to", files.next.display()),
                    &files.partial,
                ))?;
                return Ok(true);
            }
            let _ = fs::remove_file(&files.next);
            Ok(false)
        }
        (true, true) => {
            let Some(header) = read_header(&files.next_index) else {
                // Killed before its header was written.
                files.remove_merged();
                return Ok(false);
            };
            if &header.identity != identity {
                return Err(PartialError::OtherRun {
                    differences: differences(identity, &header.identity),
                    partial: files.next.clone(),
                });
            }
            let merged = check_results(&files.next, &files.next_index, header)?;
            let old = read_header(&files.index).ok_or_else(|| files.no_index())?;
            let old = check_results(&files.partial, &files.index, old)?;
            let mut options = OpenOptions::new();
            options.write(true);
            let mut data = open_own(&files.next, &options)?;
            let mut entries = open_own(&files.next_index, &options)?;
            // What a kill tore is dropped.
            data.set_len(merged.data_end)
                .and_then(|()| data.seek(SeekFrom::End(0)))
                .map_err(io_error("truncate", &files.next))?;
            entries
                .set_len(merged.index_end)
                .and_then(|()| entries.seek(SeekFrom::End(0)))
                .map_err(io_error("truncate", &files.next_index))?;
            let rest = old.results.saturating_sub(merged.results);
            splice(files, &mut data, &mut entries, merged.results, rest)?;
            files.install_merged(&data)?;
            Ok(true)
        }
    }
}

/// Appends the old results `from..from + count` of `FILE.partial` (their bytes and index lines)
/// to the merged files `data` and `entries`.
///
/// # Errors
/// The old index changed since it was checked; a read or write fails.
fn splice(
    files: &Files,
    data: &mut File,
    entries: &mut File,
    from: usize,
    count: usize,
) -> Result<(), PartialError> {
    let changed = || PartialError::Damaged {
        partial: files.partial.clone(),
        reason: "its index changed during the run".into(),
    };
    if count == 0 {
        return Ok(());
    }
    let mut lines = read_header(&files.index)
        .ok_or_else(|| files.no_index())?
        .entries
        .lines();
    let mut offset = 0;
    for _ in 0..from {
        let line = lines.next().ok_or_else(changed)?;
        let line = line.map_err(io_error("read", &files.index))?;
        offset += IndexEntry::parse(&line).ok_or_else(changed)?.bytes;
    }
    let mut old = File::open(&files.partial).map_err(io_error("open", &files.partial))?;
    old.seek(SeekFrom::Start(offset))
        .map_err(io_error("read", &files.partial))?;
    let mut old = BufReader::with_capacity(1 << 16, old);
    let mut data_out = BufWriter::with_capacity(1 << 16, data);
    // Index lines are written in batches, each after the results it lists: a kill never leaves
    // an index line whose result is not in the data file.
    let mut pending = String::new();
    let mut write_pending = |data_out: &mut BufWriter<&mut File>, pending: &mut String| {
        data_out.flush().map_err(io_error("write", &files.next))?;
        entries
            .write_all(pending.as_bytes())
            .map_err(io_error("write", &files.next_index))?;
        pending.clear();
        Ok::<(), PartialError>(())
    };
    for _ in 0..count {
        let line = lines.next().ok_or_else(changed)?;
        let line = line.map_err(io_error("read", &files.index))?;
        let entry = IndexEntry::parse(&line).ok_or_else(changed)?;
        let copied = io::copy(&mut (&mut old).take(entry.bytes), &mut data_out)
            .map_err(io_error("write", &files.next))?;
        if copied != entry.bytes {
            return Err(changed());
        }
        pending += &entry.to_line();
        if pending.len() >= 1 << 16 {
            write_pending(&mut data_out, &mut pending)?;
        }
    }
    write_pending(&mut data_out, &mut pending)
}

/// How far a data file and its index agree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Checked {
    /// The results whole in the data file and listed in the index.
    results: usize,
    /// Where they end in the data file,
    data_end: u64,
    /// and in the index.
    index_end: u64,
    /// Whether nothing follows them (no torn result, no index line without its result).
    whole: bool,
}

/// Streams the data file `partial` against its index `index` (its `header` read, its entries
/// next): how many results are whole in it. What follows the last one (a result or index line
/// torn by a kill) is dropped.
///
/// # Errors
/// [`PartialError::Damaged`]: a result or index line that is not the one written, a damaged
/// index line.
fn check_results(partial: &Path, index: &Path, header: Header) -> Result<Checked, PartialError> {
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
    fn entries_round_trip() {
        let entry = IndexEntry::of(b"unknown (time limit)\n", 17, Status::Unknown, 0xdead_beef);
        let line = entry.to_line();
        assert_eq!(IndexEntry::parse(line.trim_end()), Some(entry));
        assert_eq!(IndexEntry::parse("17\tdone\t3"), None);
        assert_eq!(IndexEntry::parse("x\tdone\t3\t0\t0"), None);
    }

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
