//! Opening inputs and writing per-puzzle results: shared by every batch command.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::Path;

use anyhow::{Context, bail};
use sudokit::present;
use sudokit::text::{PuzzleReader, ReadOptions, Record, TextError};

use super::sink::Sink;

/// Opens a file, or standard input for `-`.
pub fn open(path: &Path) -> anyhow::Result<Box<dyn BufRead + Send>> {
    if path.as_os_str() == "-" {
        return Ok(Box::new(BufReader::new(io::stdin())));
    }
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    Ok(Box::new(BufReader::with_capacity(1 << 16, file)))
}

/// The puzzles of a file, read as they are needed.
pub type Puzzles = std::iter::Peekable<PuzzleReader<Box<dyn BufRead + Send>>>;

/// A streaming reader of the puzzles of a file. An input without a single puzzle (empty, only
/// blank and `#` comment lines, closed standard input) is an error for every command: nothing a
/// user asked for is silently done. The first puzzle is read here, the rest as they are needed.
pub fn puzzles(path: &Path, options: ReadOptions) -> anyhow::Result<Puzzles> {
    // A signal or the --timeout deadline stops the reading even in a stream of blank lines.
    let mut reader = PuzzleReader::new(open(path)?, options)
        .with_cancel(super::stop::batch_cancel())
        .peekable();
    if reader.peek().is_none() {
        if super::stop::batch_cancel().is_cancelled() {
            bail!("stopped (--timeout or a signal) before the first puzzle was read");
        }
        let name = match path.as_os_str() {
            s if s == "-" => "standard input".to_string(),
            _ => path.display().to_string(),
        };
        bail!(
            "{name}: no puzzles found (the input is empty or holds only blank and # comment lines)"
        );
    }
    Ok(reader)
}

/// The text users see for a bad puzzle: `FILE:LINE:COLUMN: message`.
pub fn located(path: &Path, error: &TextError) -> String {
    present::located(&path.display().to_string(), error)
}

/// Writes the in-place report of a puzzle that could not be read: `error: FILE:LINE:COLUMN:
/// message`, or its JSON object with `--json`.
pub fn write_read_error(
    out: &mut impl Write,
    json: bool,
    path: &Path,
    error: &TextError,
) -> io::Result<()> {
    out.write_all(present::read_error_line(json, &path.display().to_string(), error).as_bytes())
}

/// Writes one JSON line.
pub fn write_json(out: &mut impl Write, value: &serde_json::Value) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    out.write_all(b"\n")
}

/// One read result: a puzzle or the error that replaced it.
pub type Item = Result<Record, TextError>;

/// The input line of a read result (where the puzzle or the error is).
pub fn line_of(item: &Item) -> usize {
    match item {
        Ok(record) => record.line,
        Err(e) => e.line,
    }
}

/// One item's result: its whole text, how it counts, and the input line it answers.
#[derive(Debug)]
pub struct Answer {
    /// The text written for the item (whole lines).
    pub text: String,
    /// How it counts.
    pub kind: Kind,
    /// The input line of the item.
    pub line: usize,
}

impl Answer {
    /// An answer built by `write` into a buffer.
    pub fn written(
        kind: Kind,
        line: usize,
        write: impl FnOnce(&mut Vec<u8>) -> io::Result<()>,
    ) -> Answer {
        let mut out = Vec::new();
        write(&mut out).expect("writing to memory");
        Answer {
            text: String::from_utf8_lossy(&out).into_owned(),
            kind,
            line,
        }
    }

    /// The in-place report of an item that could not be read.
    pub fn read_error(json: bool, path: &Path, error: &TextError) -> Answer {
        Answer::written(Kind::Bad, error.line, |out| {
            write_read_error(out, json, path, error)
        })
    }

    /// The in-place report of an item that was read but could not be handled.
    pub fn failure(json: bool, path: &Path, line: usize, error: &dyn std::fmt::Display) -> Answer {
        Answer {
            text: present::failure_line(json, &path.display().to_string(), line, error),
            kind: Kind::Bad,
            line,
        }
    }
}

/// The one per-item loop of the batch commands: runs `work` on every item with the library's
/// batch driver on `threads` threads, writes each answer whole through `sink` in input order,
/// and closes the sink. Returns the tally, or `None` when `--timeout` stopped the batch (the
/// sink has then printed how far it got: exit 1).
///
/// # Errors
/// A write that fails (a closed pipe: a normal end), or the sink's closing.
pub fn answer_all<I, X>(
    threads: usize,
    items: &mut I,
    sink: Sink,
    work: impl Fn(X) -> Answer + Sync,
) -> anyhow::Result<Option<Tally>>
where
    I: Iterator<Item = X> + Send,
    X: Send,
{
    answer_all_observed(threads, items, sink, |x| (work(x), ()), |()| {})
}

/// [`answer_all`], where `work` also returns a value that `observe` sees, in input order, after
/// the answer is written (the rows of a closing table, the pages of a report).
///
/// # Errors
/// As [`answer_all`].
pub fn answer_all_observed<I, X, E>(
    threads: usize,
    items: &mut I,
    sink: Sink,
    work: impl Fn(X) -> (Answer, E) + Sync,
    mut observe: impl FnMut(E) + Send,
) -> anyhow::Result<Option<Tally>>
where
    I: Iterator<Item = X> + Send,
    X: Send,
    E: Send,
{
    let mut tally = Tally::default();
    let finished =
        super::solving::ordered_batch(threads, items.by_ref(), work, |(answer, extra)| {
            tally.add(answer.kind);
            sink.write(&answer.text, answer.line)?;
            observe(extra);
            Ok(())
        })?;
    // The input is exhausted unless --timeout stopped the batch.
    let complete = finished && items.next().is_none();
    Ok(sink.finish(complete)?.then_some(tally))
}

/// What a result counts as in the tally.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The answer asked for (a solution, a valid certificate, ...).
    Positive,
    /// A negative answer the command exists to detect (unsat, invalid, unknown): exit 1.
    Negative,
    /// Bad input, reported in place: exit 2.
    Bad,
}

/// Counts of a finished batch, for the closing summary and the exit code.
#[derive(Debug, Default)]
pub struct Tally {
    pub total: usize,
    pub bad_input: usize,
    pub negative: usize,
}

impl Tally {
    /// Counts one result.
    pub fn add(&mut self, kind: Kind) {
        self.total += 1;
        match kind {
            Kind::Positive => {}
            Kind::Negative => self.negative += 1,
            Kind::Bad => self.bad_input += 1,
        }
    }

    /// 2 if any input was bad, else 1 if any answer was negative, else 0.
    pub fn exit_code(&self) -> std::process::ExitCode {
        std::process::ExitCode::from(if self.bad_input > 0 {
            2
        } else if self.negative > 0 {
            1
        } else {
            0
        })
    }

    /// The closing line on standard error when some puzzles could not be read or handled.
    pub fn report_bad_input(&self, what: &str) {
        if self.bad_input > 0 {
            super::note!(
                "sudokit: {} of {} {what} gave an error (reported in place, in input order)",
                self.bad_input,
                self.total
            );
        }
    }
}
