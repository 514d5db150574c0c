//! Batch output that an interruption cannot corrupt, and that `--resume` continues.
//!
//! A batch command opens a [`Sink`] and writes each puzzle's result through it, in input order.
//! Every result is written whole and flushed at once, under one process-wide lock that the
//! signal thread of [`super::stop`] takes before it exits, so the output (a pipe, a terminal or a
//! file) always ends at a result boundary: a valid prefix of the full run's output.
//!
//! With `-o FILE` the results go to `FILE.partial`, renamed to `FILE` when the batch completes,
//! so `FILE` never exists half written. An interrupted run (signal, `--timeout`) leaves
//! `FILE.partial` and says so. `-o FILE --resume` counts the complete results already in
//! `FILE.partial`, drops a trailing incomplete one, checks that the partial file was left by the
//! same run and that each kept result answers its puzzle ([`super::resume`]), skips that many
//! puzzles of the input and appends the rest: the finished file is byte for byte the one an
//! uninterrupted run writes (results do not depend on timing unless a time limit is set). `-o`
//! to something that is not a regular file (`/dev/null`, a FIFO) writes to it directly.
//!
//! On a stop the summary on standard error says how many results were written, up to which input
//! line, and how to continue.
//!
//! # Using it in a command
//! ```text
//! let mut items = batch::puzzles(..)?;
//! let sink = Sink::open_for(&args.output, Framing::Lines, "puzzles", Some(&args.file))?;
//! sink.skip_kept(&mut items, json, batch::line_of, check)?;  // --resume, every kept result checked
//! let finished = ordered_batch(&pool, items.by_ref(), work, |(text, line)| Ok(sink.write(&text, line)?))?;
//! let complete = finished && items.next().is_none();     // false when --timeout stopped it
//! sink.finish(complete)?;
//! ```
//!
//! # Complexity
//! One write and one flush per result; `--resume` reads the existing output once.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use anyhow::{Context, bail};
use clap::Args;

use super::output::Target;
use super::resume::RunRecord;

/// `-o FILE` and `--resume`.
#[derive(Debug, Clone, Default, Args)]
pub struct OutputArgs {
    /// Write results to FILE (through FILE.partial, renamed when complete) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Continue an interrupted run: keep the complete results in FILE.partial (or FILE), skip
    /// that many puzzles, append the rest.
    #[arg(long, requires = "output")]
    pub resume: bool,
}

/// How results are delimited in the output, for counting them on `--resume`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// One line per result (JSON lines, counts, tables).
    Lines,
    /// `solve`'s text output: one line per result, except solutions above order 35, written as
    /// grid-block rows (tokens separated by spaces) closed by a blank line.
    Records,
}

/// The output of the running batch, shared with the signal thread.
pub struct State {
    out: Box<dyn Write + Send>,
    what: &'static str,
    /// Results already present before this run (`--resume`).
    kept: usize,
    /// Results written by this run.
    written: usize,
    /// Input line of the last result written.
    last_line: usize,
    /// `(FILE.partial, FILE)` with `-o` to a regular file.
    files: Option<(PathBuf, PathBuf)>,
    /// Whole results not yet written.
    pending: Vec<u8>,
    /// Whether the command takes `-o FILE --resume` (the stop summary suggests it only then).
    resumable: bool,
    /// Set by a signal: no more results are written (see [`interrupt`]).
    interrupted: Option<String>,
}

impl State {
    /// Writes the gathered results.
    fn drain(&mut self) -> io::Result<()> {
        if !self.pending.is_empty() {
            self.out.write_all(&self.pending)?;
            self.pending.clear();
        }
        self.out.flush()
    }
}

static STATE: Mutex<Option<State>> = Mutex::new(None);

fn state() -> MutexGuard<'static, Option<State>> {
    STATE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A handle on the batch output; see the module docs.
#[derive(Debug)]
pub struct Sink {
    /// With `--resume`: the results kept, for the command to check against its input.
    kept: Vec<String>,
    /// With `-o FILE`: the partial file the results go to.
    partial: Option<PathBuf>,
}

/// `FILE.partial` beside `FILE`.
pub fn partial_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

impl Sink {
    /// Opens standard output, or `FILE.partial` for `-o FILE` (continued with `--resume`).
    ///
    /// # Errors
    /// The file cannot be created, read or truncated.
    pub fn open(args: &OutputArgs, framing: Framing, what: &'static str) -> anyhow::Result<Sink> {
        Sink::open_for(args, framing, what, None)
    }

    /// [`Sink::open`] for a run that reads `input`: `--resume` continues only a run of the same
    /// command line on the same input (see [`super::resume`]).
    ///
    /// # Errors
    /// As [`Sink::open`], and a `--resume` that cannot continue what is there.
    pub fn open_for(
        args: &OutputArgs,
        framing: Framing,
        what: &'static str,
        input: Option<&Path>,
    ) -> anyhow::Result<Sink> {
        let mut kept = Vec::new();
        let (out, files, direct): (Box<dyn Write + Send>, _, bool) = match &args.output {
            None => {
                if args.resume {
                    bail!("--resume needs -o FILE: the results to continue are read from FILE");
                }
                (Box::new(io::stdout()), None, false)
            }
            Some(path) if path.as_os_str() == "-" => bail!("-o takes a file name, not -"),
            Some(path) => match Target::resolve(path)? {
                Target::Special(device) => {
                    if args.resume {
                        bail!(
                            "--resume needs a regular file: {} is not one",
                            path.display()
                        );
                    }
                    let file = OpenOptions::new()
                        .write(true)
                        .open(&device)
                        .with_context(|| format!("cannot open {}", device.display()))?;
                    (Box::new(file), None, true)
                }
                Target::Regular(path) => {
                    let partial = partial_path(&path);
                    let record = RunRecord::of_this_run(input)?;
                    let file = if args.resume {
                        if !partial.exists() && path.exists() {
                            bail!(
                                "{} is complete (there is no {}): nothing to resume",
                                path.display(),
                                partial.display()
                            );
                        }
                        record.check(&partial)?;
                        let (file, results) = resume_file(&partial, framing)?;
                        kept = results;
                        file
                    } else {
                        let file = File::create(&partial)
                            .with_context(|| format!("cannot create {}", partial.display()))?;
                        record.write(&partial)?;
                        file
                    };
                    (Box::new(file), Some((partial, path)), false)
                }
            },
        };
        let partial = files
            .as_ref()
            .map(|(partial, _): &(PathBuf, PathBuf)| partial.clone());
        *state() = Some(State {
            out,
            what,
            kept: kept.len(),
            written: 0,
            last_line: 0,
            files,
            pending: Vec::new(),
            resumable: !direct,
            interrupted: None,
        });
        Ok(Sink { kept, partial })
    }

    /// With `--resume`: takes the puzzles whose results are kept from `items`, checking each
    /// kept result against its puzzle: the generic checks of [`super::resume::check_result`]
    /// (`json`: the run writes JSON), then `check` (a command's own, such as "the solution
    /// solves its puzzle"). Without `--resume`, takes nothing.
    ///
    /// # Errors
    /// A kept result that fails a check, or more results than the input has puzzles.
    pub fn skip_kept<I, X>(
        &self,
        items: &mut I,
        json: bool,
        line_of: impl Fn(&X) -> usize,
        check: impl Fn(&str, &X) -> Result<(), String>,
    ) -> anyhow::Result<()>
    where
        I: Iterator<Item = X>,
    {
        let partial = || {
            self.partial
                .as_ref()
                .map_or(String::from("the output"), |p| p.display().to_string())
        };
        for (k, text) in self.kept.iter().enumerate() {
            let Some(item) = items.next() else {
                bail!(
                    "{} holds {} results but the input has only {k} puzzles; start again without --resume",
                    partial(),
                    self.kept.len()
                );
            };
            let line = line_of(&item);
            if let Err(reason) =
                super::resume::check_result(text, json, line).and_then(|()| check(text, &item))
            {
                bail!(
                    "{}: result {} does not answer input line {line}: {reason}; start again without --resume",
                    partial(),
                    k + 1
                );
            }
        }
        Ok(())
    }

    /// Standard output for a command without `-o FILE --resume` (its output ends with tables
    /// over every puzzle, which a resumed run could not rebuild): whole results, and a stop
    /// summary that does not suggest `--resume`.
    ///
    /// # Errors
    /// As [`Sink::open`].
    pub fn stdout(what: &'static str) -> anyhow::Result<Sink> {
        let sink = Sink::open(&OutputArgs::default(), Framing::Lines, what)?;
        if let Some(state) = state().as_mut() {
            state.resumable = false;
        }
        Ok(sink)
    }

    /// Writes one result (whole lines, ending in `\n`) of the puzzle at input line `line`, and
    /// flushes it.
    ///
    /// # Errors
    /// The write fails (a closed pipe: the caller stops quietly).
    pub fn write(&self, text: &str, line: usize) -> io::Result<()> {
        let mut guard = state();
        let state = guard.as_mut().expect("the sink is open");
        if state.interrupted.is_some() {
            // A signal came: results finished after it may have been cut short.
            return Ok(());
        }
        state.pending.extend_from_slice(text.as_bytes());
        state.written += 1;
        state.last_line = line;
        state.drain()?;
        Ok(())
    }

    /// Writes text that is not a puzzle's result (a per-file summary, the closing table), whole
    /// and at once; it is not counted among the results.
    ///
    /// # Errors
    /// As [`Sink::write`].
    pub fn write_extra(&self, text: &str) -> io::Result<()> {
        let mut guard = state();
        let state = guard.as_mut().expect("the sink is open");
        state.pending.extend_from_slice(text.as_bytes());
        state.drain()
    }

    /// Ends the batch. When `complete`, renames `FILE.partial` to `FILE` and returns `true`;
    /// otherwise (`--timeout` stopped the batch) keeps it, prints the summary and returns `false`.
    ///
    /// # Errors
    /// The final flush or rename fails.
    pub fn finish(self, complete: bool) -> anyhow::Result<bool> {
        let mut guard = state();
        let mut state = guard.take().expect("the sink is open");
        state.drain()?;
        // Close the file before the rename.
        state.out = Box::new(io::sink());
        if !complete || state.interrupted.is_some() {
            let why = match (&state.interrupted, super::stop::timeout_seconds()) {
                (Some(why), _) => why.clone(),
                (None, Some(s)) => format!("--timeout {s} s reached"),
                (None, None) => "stopped".to_string(),
            };
            super::note!("sudokit: {}", summary(&why, &state));
            return Ok(false);
        }
        if let Some((partial, path)) = &state.files {
            fs::rename(partial, path).with_context(|| {
                format!("cannot rename {} to {}", partial.display(), path.display())
            })?;
            RunRecord::remove(partial);
        }
        Ok(true)
    }
}

/// The summary line of a stopped batch.
fn summary(why: &str, state: &State) -> String {
    let done = state.kept + state.written;
    let place = if state.written > 0 {
        format!(" (up to input line {})", state.last_line)
    } else {
        String::new()
    };
    let mut text = format!(
        "{why}: {done} {} answered{place}, every one written whole",
        state.what
    );
    if state.kept > 0 {
        text += &format!(
            " ({} kept from before, {} by this run)",
            state.kept, state.written
        );
    }
    match &state.files {
        Some((partial, path)) => {
            text += &format!(
                "; the results are in {}: continue with the same command and --resume (it writes {} when complete)",
                partial.display(),
                path.display()
            )
        }
        None if state.resumable => text += "; add -o FILE to make a run that --resume can continue",
        None => {}
    }
    text
}

/// Stops the output taking results, after a signal: every result already written stays, the
/// ones finished later (perhaps cut short by the stop) are dropped, and the batch's end reports
/// `why`.
pub fn interrupt(why: &str) {
    if let Some(state) = state().as_mut() {
        let _ = state.drain();
        state.interrupted = Some(why.to_string());
    }
}

/// Takes the output lock for good (the process is about to exit) and prints the summary of the
/// running batch, if any, after `why` (`interrupted by SIGTERM`, ...).
///
/// A writer blocked on a full pipe holds the lock; after [`LOCK_WAIT`] the summary is printed
/// without it and `None` returned, so a signal always ends the process.
pub fn lock_and_summarize(why: &str) -> Option<MutexGuard<'static, Option<State>>> {
    let start = std::time::Instant::now();
    let mut guard = loop {
        match STATE.try_lock() {
            Ok(guard) => break guard,
            Err(std::sync::TryLockError::Poisoned(poisoned)) => break poisoned.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) if start.elapsed() < LOCK_WAIT => {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            Err(std::sync::TryLockError::WouldBlock) => {
                super::note!(
                    "sudokit: {why} (while writing a result: the output may end inside it)"
                );
                return None;
            }
        }
    };
    match guard.as_mut() {
        Some(state) => {
            let _ = state.drain();
            super::note!("sudokit: {}", summary(why, state));
        }
        None => super::note!("sudokit: {why}"),
    }
    Some(guard)
}

/// How long a signal waits for a result being written before the process exits anyway.
const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// Opens `partial` for appending after its complete results, dropping a trailing incomplete
/// one, and returns the results kept.
fn resume_file(partial: &Path, framing: Framing) -> anyhow::Result<(File, Vec<String>)> {
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(partial)
        .with_context(|| format!("cannot open {}", partial.display()))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", partial.display()))?;
    let (ends, length) = result_ends(&bytes, framing);
    file.set_len(length as u64)
        .with_context(|| format!("cannot truncate {}", partial.display()))?;
    file.seek(SeekFrom::Start(length as u64))?;
    let mut start = 0;
    let results = ends
        .into_iter()
        .map(|end| {
            let text = String::from_utf8_lossy(&bytes[start..end]).into_owned();
            start = end;
            text
        })
        .collect();
    Ok((file, results))
}

/// Where each complete result at the start of `bytes` ends, and the length they take.
fn result_ends(bytes: &[u8], framing: Framing) -> (Vec<usize>, usize) {
    let mut ends = Vec::new();
    let mut length = 0;
    let mut in_block = false;
    let mut start = 0;
    while let Some(end) = bytes[start..].iter().position(|&b| b == b'\n') {
        let line = &bytes[start..start + end];
        let next = start + end + 1;
        match framing {
            Framing::Lines => {
                ends.push(next);
                length = next;
            }
            Framing::Records => {
                let block_row =
                    line.contains(&b' ') && !line.first().is_some_and(u8::is_ascii_lowercase);
                if line.is_empty() {
                    if in_block {
                        ends.push(next);
                    }
                    in_block = false;
                    length = next;
                } else if block_row {
                    in_block = true;
                } else {
                    ends.push(next);
                    length = next;
                }
            }
        }
        start = next;
    }
    (ends, length)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The number of complete results at the start of `bytes` and the length they take.
    fn complete_prefix(bytes: &[u8], framing: Framing) -> (usize, usize) {
        let (ends, length) = result_ends(bytes, framing);
        (ends.len(), length)
    }

    #[test]
    fn lines_drop_a_trailing_fragment() {
        assert_eq!(complete_prefix(b"a\nb\nc", Framing::Lines), (2, 4));
        assert_eq!(complete_prefix(b"", Framing::Lines), (0, 0));
    }

    #[test]
    fn records_count_blocks_once_and_drop_an_open_block() {
        let text = b"123\nunsat\n 1  2\n 2  1\n\nunknown (time limit)\n 1  2\n";
        // 123, unsat, the closed block, unknown; the open block's row is dropped.
        assert_eq!(complete_prefix(text, Framing::Records), (4, 44));
        assert_eq!(
            complete_prefix(b"error: f:1:2: bad symbol\n", Framing::Records),
            (1, 25)
        );
    }
}
