//! `sudokit minimize FILE...`: removes redundant givens until each puzzle is locally minimal,
//! with givens before/after per puzzle and a per-file table of the givens removed.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args as ClapArgs;
use serde_json::{Value, json};
use sudokit::generate::progress::{OnProgress, Progress};
use sudokit::generate::puzzle::{MinimizeError, Minimized, minimize_cancellable, puzzle_rng};
use sudokit::text::{TextError, to_json, to_text};

use super::batch::{self, Tally};
use super::input::InputArgs;
use super::output::AtomicFile;
use super::sink::Sink;
use super::solving::ordered_batch;
use sudokit::present::grid_record;

/// Arguments of `minimize`.
#[derive(Debug, ClapArgs)]
#[command(after_help = "\
Each well-posed puzzle loses givens by committed choice (in cell order, or a random order with
--seed): a given is removed when the puzzle stays well posed without it. One pass leaves the
puzzle locally minimal (every remaining given is needed), and the solution never changes.
A puzzle with no solution or several is reported on its line and left out of the table.

Exit codes: 0 every puzzle reduced, 1 some puzzle not well posed, 2 unreadable input.

Examples:
  sudokit minimize models/sudoku/9x9/easy.txt
  sudokit minimize --summary --seed 3 models/sudoku/9x9/easy.txt -o reduced.txt
  sudokit minimize --json models/sudoku/4x4/kr_4x4_sample.txt")]
pub struct Args {
    /// Puzzle files (`-` for standard input).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Remove givens in a random order drawn from this seed (puzzle i of a file from (seed, i))
    /// instead of cell order.
    #[arg(long)]
    seed: Option<u64>,
    /// One JSON object per puzzle, then one summary object per file.
    #[arg(long)]
    json: bool,
    /// Only the table (no line per puzzle); ignored with --json.
    #[arg(long)]
    summary: bool,
    /// Also write the reduced puzzles to this file, one per well-posed input puzzle, in order.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    #[command(flatten)]
    input: InputArgs,
}

/// The table of one file, kept as running figures (memory does not grow with the input).
#[derive(Debug, Default)]
struct FileTable {
    name: String,
    before: Spread,
    after: Spread,
    removed: Spread,
    already_minimal: usize,
    not_well_posed: usize,
}

/// Min, sum and max of a stream of counts.
#[derive(Debug, Default, Clone, Copy)]
struct Spread {
    count: usize,
    min: usize,
    max: usize,
    sum: usize,
}

impl Spread {
    fn add(&mut self, value: usize) {
        self.min = if self.count == 0 {
            value
        } else {
            self.min.min(value)
        };
        self.max = self.max.max(value);
        self.sum += value;
        self.count += 1;
    }

    /// `(min, average, max)`, or `None` before any value.
    fn get(self) -> Option<(usize, f64, usize)> {
        (self.count > 0).then(|| (self.min, self.sum as f64 / self.count as f64, self.max))
    }
}

impl FileTable {
    fn add(&mut self, m: &Minimized) {
        self.before.add(m.before);
        self.after.add(m.after);
        self.removed.add(m.before - m.after);
        self.already_minimal += usize::from(m.already_minimal());
    }

    /// Puzzles reduced (well posed).
    fn puzzles(&self) -> usize {
        self.before.count
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let threads = super::solving::threads(args.threads)?;
    let options = args.input.read_options();
    // Each puzzle's line is written whole and flushed, in input order, as the batch streams
    // through the input: an interruption leaves a valid prefix and says how far it got.
    let sink = Sink::stdout("puzzles")?;
    let mut reduced_file = args.output.as_deref().map(AtomicFile::create).transpose()?;
    let mut tally = Tally::default();
    let mut tables = Vec::new();
    let mut out = Vec::new();
    let mut complete = true;
    let mut cut = false;

    for path in &args.files {
        let mut items = batch::puzzles(path, options)?.enumerate();
        let work = |(i, item): (usize, batch::Item)| {
            let record = item?;
            let progress = progress_line(path, record.line);
            let progress = progress.as_ref();
            // A signal or the --timeout deadline stops the reduction between two tests.
            let cancel = Some(super::stop::batch_cancel());
            let result = match args.seed {
                Some(seed) => minimize_cancellable(
                    &record.grid,
                    Some(&mut puzzle_rng(seed, i as u64) as &mut dyn rand::Rng),
                    progress,
                    cancel.as_ref(),
                ),
                None => minimize_cancellable(&record.grid, None, progress, cancel.as_ref()),
            };
            Ok((record.line, result))
        };
        let mut table = FileTable {
            name: path.display().to_string(),
            ..FileTable::default()
        };
        let emit = |result: Result<(usize, Result<Minimized, MinimizeError>), TextError>| {
            // A puzzle the stop cancelled is not written, nor any after it: a valid prefix.
            if cut || matches!(result, Ok((_, Err(MinimizeError::Cancelled)))) {
                cut = true;
                return Ok(());
            }
            tally.total += 1;
            out.clear();
            let line = match &result {
                Err(e) => e.line,
                Ok((line, _)) => *line,
            };
            match result {
                Err(e) => {
                    tally.bad_input += 1;
                    batch::write_read_error(&mut out, args.json, path, &e)?;
                }
                Ok((line, Err(e))) => {
                    if matches!(e, MinimizeError::TooLarge(_)) {
                        tally.bad_input += 1;
                    } else {
                        tally.negative += 1;
                        table.not_well_posed += 1;
                    }
                    if args.json {
                        let status = match e {
                            MinimizeError::Unsat => "unsat",
                            MinimizeError::Multiple => "multiple",
                            MinimizeError::TooLarge(_) | MinimizeError::Cancelled => "error",
                        };
                        batch::write_json(
                            &mut out,
                            &json!({"file": table.name, "line": line, "status": status,
                                "error": e.to_string()}),
                        )?;
                    } else {
                        writeln!(out, "{}:{line}: not reduced: {e}", path.display())?;
                    }
                }
                Ok((line, Ok(reduced))) => {
                    if args.json {
                        batch::write_json(&mut out, &puzzle_json(path, line, &reduced))?;
                    } else if !args.summary {
                        writeln!(out, "{}", puzzle_text(path, line, &reduced))?;
                    }
                    if let Some(file) = reduced_file.as_mut() {
                        file.write_all(grid_record(&reduced.puzzle).as_bytes())?;
                    }
                    table.add(&reduced);
                }
            }
            if !out.is_empty() {
                sink.write(&String::from_utf8_lossy(&out), line)?;
            }
            Ok(())
        };
        let finished = ordered_batch(threads, items.by_ref(), work, emit)?;
        // The input is exhausted unless --timeout or a signal stopped the batch.
        if cut || !finished || items.next().is_some() {
            complete = false;
            break;
        }
        if args.json {
            out.clear();
            batch::write_json(&mut out, &summary_json(&table))?;
            sink.write_extra(&String::from_utf8_lossy(&out))?;
        }
        tables.push(table);
    }
    if !complete {
        // The reduced-puzzle file is not written (its temporary file is removed).
        drop(reduced_file);
        sink.finish(false)?;
        return Ok(ExitCode::from(1));
    }
    if !args.json {
        out.clear();
        write_table(&mut out, &tables)?;
        sink.write_extra(&String::from_utf8_lossy(&out))?;
    }
    sink.finish(true)?;
    if let Some(file) = reduced_file {
        file.commit()?;
    }
    tally.report_bad_input("puzzles");
    Ok(tally.exit_code())
}

fn puzzle_text(path: &Path, line: usize, m: &Minimized) -> String {
    let what = if m.already_minimal() {
        format!("{} givens, already locally minimal", m.after)
    } else {
        format!("{} -> {} givens", m.before, m.after)
    };
    let grid = to_text(&m.puzzle);
    if grid.contains('\n') {
        format!("{}:{line}: {what}\n{}", path.display(), grid.trim_end())
    } else {
        format!("{}:{line}: {what}: {grid}", path.display())
    }
}

fn puzzle_json(path: &Path, line: usize, m: &Minimized) -> Value {
    let mut value = to_json(&m.puzzle);
    value["file"] = json!(path.display().to_string());
    value["line"] = json!(line);
    value["status"] = json!("reduced");
    value["before"] = json!(m.before);
    value["after"] = json!(m.after);
    value["removed"] = json!(m.before - m.after);
    value["already_minimal"] = json!(m.already_minimal());
    value
}

fn spread_json(spread: Option<(usize, f64, usize)>) -> Value {
    match spread {
        Some((min, avg, max)) => {
            json!({"min": min, "avg": sudokit::present::rounded(avg, 2), "max": max})
        }
        None => Value::Null,
    }
}

fn summary_json(table: &FileTable) -> Value {
    json!({
        "file": table.name,
        "puzzles": table.puzzles(),
        "before": spread_json(table.before.get()),
        "after": spread_json(table.after.get()),
        "removed": spread_json(table.removed.get()),
        "already_minimal": table.already_minimal,
        "not_well_posed": table.not_well_posed,
    })
}

fn write_table(out: &mut impl Write, tables: &[FileTable]) -> io::Result<()> {
    let width = tables
        .iter()
        .map(|t| t.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    writeln!(out)?;
    writeln!(
        out,
        "Givens removed per file (min/avg/max), givens before and after, puzzles already locally minimal:"
    )?;
    writeln!(
        out,
        "{:<width$} {:>7} {:>16} {:>16} {:>16} {:>8} {:>14}",
        "file", "puzzles", "before", "after", "removed", "minimal", "not well posed"
    )?;
    let cell = |s: Option<(usize, f64, usize)>| match s {
        Some((min, avg, max)) => format!("{min}/{avg:.1}/{max}"),
        None => "-".to_string(),
    };
    for t in tables {
        writeln!(
            out,
            "{:<width$} {:>7} {:>16} {:>16} {:>16} {:>8} {:>14}",
            t.name,
            t.puzzles(),
            cell(t.before.get()),
            cell(t.after.get()),
            cell(t.removed.get()),
            t.already_minimal,
            t.not_well_posed,
        )?;
    }
    Ok(())
}

/// On a terminal, a progress line on standard error for a puzzle whose reduction runs past
/// 2 s (givens left, removals tested, time), cleared when it ends.
fn progress_line(path: &std::path::Path, line: usize) -> Option<OnProgress> {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let name = path.display().to_string();
    Some(OnProgress::new(move |p: &Progress| {
        if p.elapsed.as_secs_f64() < 2.0 {
            return;
        }
        if p.done {
            eprint!("\r\x1b[K");
        } else {
            eprint!(
                "\r\x1b[Kminimize {name}:{line}: {} givens left, {} removals tested, {:.1} s",
                p.givens,
                p.tested,
                p.elapsed.as_secs_f64()
            );
        }
    }))
}
