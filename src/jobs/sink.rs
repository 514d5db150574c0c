//! Where a run's records go, so that no stop can corrupt them: standard output, a file written
//! directly (a pipe, a device, `/dev/stdout`: see [`super::target`]), or a resumable result file
//! ([`super::partial`]).
//!
//! Every record is written whole, under one lock that a front end's signal handler takes (through
//! a [`SinkHandle`]) before the process ends, so the output always ends at a record boundary: a
//! valid prefix of the full run's output. After [`SinkHandle::interrupt`] no more records are
//! written; [`Sink::finish`] then says how far the run got and how to continue it.
//!
//! Standard output and a file written directly are buffered: a record is written whole into the
//! buffer, and the buffer reaches the output when it fills, at the latest [`FLUSH_EVERY`] after a
//! record (a thread of the sink's flushes it), and at every stop and end. A batch of fast puzzles
//! thus costs a few writes, not one per record, and a slow record is still seen at once.
//!
//! [`Sink::closed`] tells a pipe whose reader is gone (`| head -1`) without writing to it, so the
//! runner stops a run whose next record would take minutes as soon as nobody reads it.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, TryLockError, Weak};
use std::time::{Duration, Instant};

use serde_json::Value;
use thiserror::Error;

use super::partial::{IndexEntry, OldResults, OpenMode, PartialError, PartialOutput};
use super::record::Status;
use super::target::{Target, TargetError};

/// A sink that cannot be opened or finished.
#[derive(Debug, Error)]
pub enum SinkError {
    /// `--resume` without `-o FILE`.
    #[error("--resume needs -o FILE: the results to continue are read from FILE")]
    ResumeWithoutFile,
    /// `--resume` of something that is not a regular file.
    #[error("--resume needs a regular file: {} is not one", .0.display())]
    ResumeSpecial(PathBuf),
    /// `-o -`.
    #[error("-o takes a file name, not - (standard output is the default)")]
    Dash,
    /// The resumable output.
    #[error(transparent)]
    Partial(#[from] PartialError),
    /// The file.
    #[error(transparent)]
    Target(#[from] TargetError),
    /// A write that failed.
    #[error("cannot write the output")]
    Io(#[from] io::Error),
}

/// Where records go.
enum Out {
    /// Standard output, standard error, or a file written directly.
    Stream(Box<dyn Write + Send>),
    /// A resumable result file.
    Partial(Box<PartialOutput>),
}

/// The output of a run, shared with the signal handler.
struct State {
    out: Option<Out>,
    /// What the records are about ("puzzles"), for the stop summary.
    what: &'static str,
    /// Records written by this run.
    written: usize,
    /// Input line of the last record written.
    last_line: usize,
    /// Whether the command takes `-o FILE --resume` (the stop summary suggests it only then).
    resumable: bool,
    /// Set by [`SinkHandle::interrupt`]: no more records are written.
    interrupted: Option<String>,
    /// The records are the parts of one result, placed as they finish ([`Sink::hold_parts`]).
    parts: bool,
    /// What `FILE` gets when the run completes, in place of its records ([`Sink::set_whole`]).
    whole: Option<Vec<u8>>,
    /// The stream is buffered, and a thread flushes it ([`FLUSH_EVERY`]).
    buffered: bool,
    /// A buffered stream holds records not yet flushed (the flusher's cue).
    unflushed: bool,
    /// Why the flusher's last flush failed (a closed pipe), for the next write to return.
    flush_failed: Option<io::ErrorKind>,
}

impl State {
    fn flush(&mut self) -> io::Result<()> {
        match &mut self.out {
            Some(Out::Stream(out)) => out.flush(),
            Some(Out::Partial(partial)) => partial.flush(),
            None => Ok(()),
        }
    }

    /// Old results the output holds (copied so far, and the ones a stop copies).
    fn kept(&self) -> usize {
        match &self.out {
            Some(Out::Partial(partial)) => partial.kept(),
            _ => 0,
        }
    }

    /// The line that says how far a stopped run got.
    fn summary(&self, why: &str) -> String {
        let kept = self.kept();
        let done = kept + self.written;
        let place = if self.written > 0 && !self.parts {
            format!(" (up to input line {})", self.last_line)
        } else {
            String::new()
        };
        let verb = if self.parts { "counted" } else { "answered" };
        let mut text = format!(
            "{why}: {done} {} {verb}{place}, every one written whole",
            self.what
        );
        if kept > 0 {
            text += &format!(" ({kept} kept from before, {} by this run)", self.written);
        }
        match &self.out {
            Some(Out::Partial(partial)) => {
                text += &format!(
                    "; the {} are in {}: continue with the same command and --resume (it \
                     writes {} when complete)",
                    if self.parts { self.what } else { "results" },
                    partial.partial().display(),
                    partial.file().display()
                );
            }
            _ if self.resumable => {
                text += "; add -o FILE to make a run that --resume can continue";
            }
            _ => {}
        }
        text
    }
}

/// How a sink's descriptor is watched for a reader that went away.
enum Watched {
    Stdout,
    #[cfg(unix)]
    File(std::fs::File),
    Nothing,
}

/// The output of a run; see the module docs.
pub struct Sink {
    state: Arc<Mutex<State>>,
    watched: Watched,
}

impl std::fmt::Debug for Sink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sink").finish_non_exhaustive()
    }
}

/// A handle on a sink for a signal handler; see the module docs.
#[derive(Clone)]
pub struct SinkHandle {
    state: Arc<Mutex<State>>,
}

impl std::fmt::Debug for SinkHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SinkHandle").finish_non_exhaustive()
    }
}

/// The longest a record stays in a buffered stream's buffer.
pub const FLUSH_EVERY: Duration = Duration::from_millis(50);

/// The buffer of a buffered stream.
const BUFFER_BYTES: usize = 64 * 1024;

/// How long [`SinkHandle::freeze`] waits for a record being written.
const LOCK_WAIT: Duration = Duration::from_secs(2);

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Sink {
    fn new(out: Out, what: &'static str, resumable: bool, watched: Watched) -> Sink {
        Sink {
            state: Arc::new(Mutex::new(State {
                out: Some(out),
                what,
                written: 0,
                last_line: 0,
                resumable,
                interrupted: None,
                parts: false,
                whole: None,
                buffered: false,
                unflushed: false,
                flush_failed: None,
            })),
            watched,
        }
    }

    /// Standard output. `resumable`: the command takes `-o FILE --resume` (a stop summary then
    /// suggests it); `what` names the items ("puzzles").
    pub fn stdout(what: &'static str, resumable: bool) -> Sink {
        Sink::new(
            Out::Stream(Box::new(io::stdout())),
            what,
            resumable,
            Watched::Stdout,
        )
        .buffered()
    }

    /// The sink with its stream buffered ([`FLUSH_EVERY`], see the module docs): a thread
    /// flushes what a record left in the buffer, until the sink and its handles are gone.
    fn buffered(self) -> Sink {
        let weak = Arc::downgrade(&self.state);
        // Without the thread (none can be started) every record is flushed at once.
        let started = std::thread::Builder::new()
            .name("sudokit-flush".into())
            .spawn(move || flush_until_gone(&weak));
        let mut state = lock(&self.state);
        if started.is_ok()
            && let Some(Out::Stream(out)) = state.out.take()
        {
            let buffer = BufWriter::with_capacity(BUFFER_BYTES, out);
            state.out = Some(Out::Stream(Box::new(buffer)));
            state.buffered = true;
        }
        drop(state);
        self
    }

    /// A stream of the caller's (a Python `sys.stdout`, a notebook's cell output) in place of
    /// standard output; as [`Sink::stdout`] otherwise.
    pub fn writer(out: Box<dyn Write + Send>, what: &'static str, resumable: bool) -> Sink {
        Sink::new(Out::Stream(out), what, resumable, Watched::Nothing)
    }

    /// The output of `-o FILE` (standard output without it): a resumable result file for a
    /// regular file, opened as `mode` says for a run of `identity` (see [`super::partial`]),
    /// else written directly. When resuming, also returns the old results to pair with the
    /// input.
    ///
    /// # Errors
    /// See [`SinkError`].
    pub fn open(
        path: Option<&Path>,
        what: &'static str,
        identity: &Value,
        mode: OpenMode,
    ) -> Result<(Sink, Option<OldResults>), SinkError> {
        let Some(path) = path else {
            if mode == OpenMode::Resume {
                return Err(SinkError::ResumeWithoutFile);
            }
            return Ok((Sink::stdout(what, true), None));
        };
        if path.as_os_str() == "-" {
            return Err(SinkError::Dash);
        }
        match Target::resolve(path)? {
            Target::Regular(file) => {
                let (partial, old) = PartialOutput::open(&file, identity, mode)?;
                Ok((
                    Sink::new(
                        Out::Partial(Box::new(partial)),
                        what,
                        true,
                        Watched::Nothing,
                    ),
                    old,
                ))
            }
            _ if mode == OpenMode::Resume => Err(SinkError::ResumeSpecial(path.to_path_buf())),
            Target::Stdout => Ok((Sink::stdout(what, false), None)),
            target => {
                let out = target.open_direct()?;
                let watched = match &target {
                    #[cfg(unix)]
                    Target::Special(p) => std::fs::OpenOptions::new()
                        .append(true)
                        .open(p)
                        .map_or(Watched::Nothing, Watched::File),
                    _ => Watched::Nothing,
                };
                Ok((
                    Sink::new(Out::Stream(out), what, false, watched).buffered(),
                    None,
                ))
            }
        }
    }

    /// A handle for a signal handler.
    pub fn handle(&self) -> SinkHandle {
        SinkHandle {
            state: Arc::clone(&self.state),
        }
    }

    /// Whether records go to a resumable result file (which indexes each by its item's key).
    pub fn is_resumable_file(&self) -> bool {
        matches!(lock(&self.state).out, Some(Out::Partial(_)))
    }

    /// The partial file of a resumable output (`the output` otherwise), for messages.
    pub fn partial_path(&self) -> PathBuf {
        match &lock(&self.state).out {
            Some(Out::Partial(partial)) => partial.partial().to_path_buf(),
            _ => PathBuf::from("the output"),
        }
    }

    /// Writes one record of the item at input line `line` (whole lines), and flushes it; when
    /// resuming, in the place of the old result `replaced` (skipped in the same step, so a stop
    /// never loses both).
    ///
    /// # Errors
    /// The write fails (a closed pipe: the caller stops quietly).
    pub fn write(
        &self,
        text: &str,
        line: usize,
        status: Status,
        key: u64,
        replaced: Option<&IndexEntry>,
    ) -> io::Result<()> {
        let mut state = lock(&self.state);
        if state.interrupted.is_some() && !state.parts {
            // A signal came: records finished after it may have been cut short (a part is
            // counted whole or not at all: one finished after a signal is kept).
            return Ok(());
        }
        // Abandoned (a refused resume): nothing more is written.
        if let Some(kind) = state.flush_failed {
            return Err(kind.into());
        }
        let buffered = state.buffered;
        let Some(out) = state.out.as_mut() else {
            return Ok(());
        };
        match out {
            Out::Stream(out) => {
                if !text.is_empty() {
                    out.write_all(text.as_bytes())?;
                    // A buffered stream is flushed by its flusher; another at once.
                    if buffered {
                        state.unflushed = true;
                    } else {
                        out.flush()?;
                    }
                }
            }
            Out::Partial(partial) => {
                if let Some(entry) = replaced {
                    partial.replace(entry)?;
                }
                partial.write(text.as_bytes(), line, status, key)?;
            }
        }
        state.written += 1;
        state.last_line = line;
        Ok(())
    }

    /// Makes this the output of one result counted in parts (a census): each record is a part,
    /// written as it finishes (in any order), `what` the parts' name. A stream takes no parts
    /// (nothing is written but the result, [`Sink::write_extra`]), a part finished after a
    /// signal is still written (it is counted whole or not at all), and a stopped run's line
    /// does not name an input line.
    pub fn hold_parts(&self, what: &'static str) {
        let mut state = lock(&self.state);
        state.parts = true;
        state.what = what;
    }

    /// What `FILE` gets when the run completes, in place of its records (a census's count):
    /// see [`PartialOutput::finish_whole`]. Only a resumable result file keeps it.
    pub fn set_whole(&self, text: &[u8]) {
        lock(&self.state).whole = Some(text.to_vec());
    }

    /// Copies the next old result of a resumed run and gives its bytes (see
    /// [`PartialOutput::keep_read`]).
    ///
    /// # Errors
    /// The copy fails.
    pub fn keep_read(&self, entry: &IndexEntry) -> io::Result<Vec<u8>> {
        let mut state = lock(&self.state);
        match state.out.as_mut() {
            Some(Out::Partial(partial)) => partial.keep_read(entry),
            _ => Err(io::Error::other("the output keeps no results")),
        }
    }

    /// Copies the next old result of a resumed run.
    ///
    /// # Errors
    /// The copy fails.
    pub fn keep(&self, entry: &IndexEntry) -> io::Result<()> {
        let mut state = lock(&self.state);
        if state.interrupted.is_some() {
            return Ok(());
        }
        if let Some(Out::Partial(partial)) = state.out.as_mut() {
            partial.keep(entry)?;
        }
        Ok(())
    }

    /// Writes text that is no item's record (a per-file summary, a closing table), whole and at
    /// once; not on a resumable output (an error there).
    ///
    /// # Errors
    /// As [`Sink::write`].
    pub fn write_extra(&self, text: &str) -> io::Result<()> {
        let mut state = lock(&self.state);
        let Some(out) = state.out.as_mut() else {
            return Err(io::Error::other("the output was abandoned"));
        };
        match out {
            Out::Stream(out) => {
                out.write_all(text.as_bytes())?;
                out.flush()
            }
            // A resumable output holds one indexed result per item, nothing else.
            Out::Partial(_) => Err(io::Error::other(
                "a resumable output holds the records of the items only",
            )),
        }
    }

    /// Ends a resumed output whose old results were refused (they do not answer the input):
    /// what this run merged is removed and the old results stay as they were (see
    /// [`PartialOutput::abandon`]). The sink takes no more records.
    pub fn abandon(&self) {
        let mut state = lock(&self.state);
        state.interrupted = Some("refused".to_string());
        if let Some(Out::Partial(partial)) = state.out.take() {
            partial.abandon();
        }
    }

    /// Whether the reader of the output went away (a pipe closed by `head`), told without
    /// writing to it. Always `false` for files and terminals.
    pub fn closed(&self) -> bool {
        match &self.watched {
            Watched::Stdout => {
                #[cfg(unix)]
                {
                    use std::os::fd::AsFd;
                    reader_gone(io::stdout().as_fd())
                }
                #[cfg(not(unix))]
                false
            }
            #[cfg(unix)]
            Watched::File(file) => {
                use std::os::fd::AsFd;
                reader_gone(file.as_fd())
            }
            Watched::Nothing => false,
        }
    }

    /// Whether [`Sink::closed`] can ever be true.
    pub fn can_close(&self) -> bool {
        !matches!(self.watched, Watched::Nothing)
    }

    /// Ends the output. When `complete` (and no signal interrupted it), a resumable result file
    /// becomes `FILE` and `Ok(None)` is returned. Otherwise the results stay where a resumed run
    /// finds them, and the line that says how far the run got is returned, after `why` (the
    /// reason of an interruption, or the one `why` gives: `--timeout 5 s reached`).
    ///
    /// # Errors
    /// The final flush, copy or rename fails.
    pub fn finish(
        self,
        complete: bool,
        why: impl FnOnce() -> String,
    ) -> Result<Option<String>, SinkError> {
        let mut state = lock(&self.state);
        state.flush()?;
        let stopped = !complete || state.interrupted.is_some();
        let partial = matches!(state.out, Some(Out::Partial(_)));
        // Parts are kept only in a resumable file: a stream has nothing to continue.
        let summary = (stopped && (partial || !state.parts)).then(|| {
            let why = state.interrupted.clone().unwrap_or_else(why);
            state.summary(&why)
        });
        let whole = state.whole.take();
        let empty = state.written + state.kept() == 0;
        match state.out.take() {
            Some(Out::Partial(partial)) => match whole {
                Some(text) if !stopped => partial.finish_whole(&text)?,
                // A count stopped before its first part: nothing to continue.
                _ if stopped && state.parts && empty => {
                    partial.discard();
                    return Ok(None);
                }
                _ => partial.finish(!stopped)?,
            },
            Some(Out::Stream(mut out)) => out.flush()?,
            None => {}
        }
        Ok(summary)
    }
}

impl SinkHandle {
    /// Stops the output taking records, after a signal: every record already written stays, the
    /// ones finished later (perhaps cut short by the stop) are dropped, and [`Sink::finish`]
    /// reports `why`.
    pub fn interrupt(&self, why: &str) {
        let mut state = lock(&self.state);
        let _ = state.flush();
        state.interrupted = Some(why.to_string());
    }

    /// Takes the output for good (the process is about to end), flushes it and returns the line
    /// that says how far the run got. A writer blocked on a full pipe holds the output; after
    /// two seconds the line is returned without it, saying so.
    pub fn freeze(&self, why: &str) -> String {
        let start = Instant::now();
        let mut guard = loop {
            match self.state.try_lock() {
                Ok(guard) => break guard,
                Err(TryLockError::Poisoned(poisoned)) => break poisoned.into_inner(),
                Err(TryLockError::WouldBlock) if start.elapsed() < LOCK_WAIT => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                Err(TryLockError::WouldBlock) => {
                    return format!("{why} (while writing a result: the output may end inside it)");
                }
            }
        };
        let _ = guard.flush();
        let summary = guard.summary(why);
        // Nothing more is written: the process ends.
        std::mem::forget(guard);
        summary
    }
}

/// The flusher of a buffered stream: every [`FLUSH_EVERY`], flushes what records left in the
/// buffer (a failure is kept for the next write to return); ends when the sink is gone.
fn flush_until_gone(state: &Weak<Mutex<State>>) {
    loop {
        std::thread::sleep(FLUSH_EVERY);
        let Some(state) = state.upgrade() else {
            return;
        };
        let mut state = lock(&state);
        if std::mem::take(&mut state.unflushed)
            && let Err(e) = state.flush()
        {
            state.flush_failed = Some(e.kind());
        }
        if state.out.is_none() {
            return;
        }
    }
}

/// Whether the reader of the pipe (or socket) behind `fd` went away: `poll` reports an error or
/// a hang-up on it, at once.
#[cfg(unix)]
fn reader_gone(fd: std::os::fd::BorrowedFd<'_>) -> bool {
    use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
    let mut fds = [PollFd::new(fd, PollFlags::POLLOUT)];
    match poll(&mut fds, PollTimeout::ZERO) {
        Ok(_) => fds[0]
            .revents()
            .is_some_and(|r| r.intersects(PollFlags::POLLERR | PollFlags::POLLHUP)),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record in a buffered stream reaches the reader within [`FLUSH_EVERY`] (asserted with
    /// a 10× margin) though no record follows it and the run goes on.
    #[cfg(unix)]
    #[test]
    fn a_record_left_in_the_buffer_is_flushed_by_the_flusher() {
        use std::io::BufRead;
        let dir = std::env::temp_dir().join(format!("sudokit-flush-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("out");
        let _ = std::fs::remove_file(&fifo);
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let (lines, received) = std::sync::mpsc::channel();
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                let file = std::fs::File::open(fifo).unwrap();
                for line in io::BufReader::new(file).lines() {
                    lines.send(line.unwrap()).unwrap();
                }
            })
        };
        let (sink, _) = Sink::open(Some(&fifo), "puzzles", &Value::Null, OpenMode::Fresh).unwrap();
        assert!(lock(&sink.state).buffered);
        sink.write("first\n", 1, Status::Done, 0, None).unwrap();
        let wait = FLUSH_EVERY * 10;
        assert_eq!(received.recv_timeout(wait).as_deref(), Ok("first"));
        sink.write("second\n", 2, Status::Done, 0, None).unwrap();
        assert_eq!(received.recv_timeout(wait).as_deref(), Ok("second"));
        assert_eq!(sink.finish(true, String::new).unwrap(), None);
        reader.join().unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_pipe_without_reader_is_closed() {
        use std::os::fd::AsFd;
        let (reader, writer) = std::io::pipe().unwrap();
        assert!(!reader_gone(writer.as_fd()));
        drop(reader);
        assert!(reader_gone(writer.as_fd()));
    }
}
