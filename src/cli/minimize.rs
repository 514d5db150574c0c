//! `sudokit minimize FILE...`: removes redundant givens until each puzzle is locally minimal,
//! with givens before/after per puzzle and a per-file table of the givens removed.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Args as ClapArgs;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde_json::{Value, json};
use sudokit::generate::puzzle::{MinimizeError, Minimized, minimize, puzzle_rng};
use sudokit::text::{to_json, to_text};

use super::batch::{self, Tally};
use super::input::InputArgs;
use super::output::write_or_print;

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
  sudokit minimize --summary --seed 3 puzzles.txt -o reduced.txt
  sudokit minimize --json models/sudoku/4x4/puzzles.txt")]
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

/// The table of one file.
#[derive(Debug, Default)]
struct FileTable {
    name: String,
    reduced: Vec<Minimized>,
    not_well_posed: usize,
}

impl FileTable {
    fn removed(&self) -> impl Iterator<Item = usize> + Clone + '_ {
        self.reduced.iter().map(|m| m.before - m.after)
    }

    fn spread(values: impl Iterator<Item = usize> + Clone) -> Option<(usize, f64, usize)> {
        let count = values.clone().count();
        if count == 0 {
            return None;
        }
        let min = values.clone().min()?;
        let max = values.clone().max()?;
        let avg = values.sum::<usize>() as f64 / count as f64;
        Some((min, avg, max))
    }

    fn already_minimal(&self) -> usize {
        self.reduced.iter().filter(|m| m.already_minimal()).count()
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    match args.threads {
        Some(0) => anyhow::bail!("--threads must be at least 1"),
        Some(n) => builder = builder.num_threads(n),
        None => {}
    }
    let pool = builder.build().context("cannot start the worker threads")?;
    let options = args.input.read_options();
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut tally = Tally::default();
    let mut tables = Vec::new();
    let mut written = String::new();

    for path in &args.files {
        let items: Vec<batch::Item> = batch::puzzles(path, options)?.collect();
        let bar = if io::stderr().is_terminal() && items.len() > 100 {
            let bar = ProgressBar::new(items.len() as u64);
            bar.set_style(
                ProgressStyle::with_template("{msg} {wide_bar} {pos}/{len} {eta}")
                    .expect("static template"),
            );
            bar.set_message(path.display().to_string());
            bar
        } else {
            ProgressBar::hidden()
        };
        let results: Vec<Result<(usize, Result<Minimized, MinimizeError>), _>> =
            pool.install(|| {
                items
                    .par_iter()
                    .enumerate()
                    .map(|(i, item)| {
                        let record = item.as_ref()?;
                        let result = match args.seed {
                            Some(seed) => minimize(
                                &record.grid,
                                Some(&mut puzzle_rng(seed, i as u64) as &mut dyn rand::Rng),
                            ),
                            None => minimize(&record.grid, None),
                        };
                        bar.inc(1);
                        Ok((record.line, result))
                    })
                    .collect()
            });
        bar.finish_and_clear();

        let mut table = FileTable {
            name: path.display().to_string(),
            ..FileTable::default()
        };
        for result in results {
            tally.total += 1;
            match result {
                Err(e) => {
                    tally.bad_input += 1;
                    batch::write_read_error(&mut out, args.json, path, e)?;
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
                            MinimizeError::TooLarge(_) => "error",
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
                    if args.output.is_some() {
                        written.push_str(&text_record(&reduced.puzzle));
                    }
                    table.reduced.push(reduced);
                }
            }
        }
        if tally.total == 0 {
            tally.require_some(path)?;
        }
        if args.json {
            batch::write_json(&mut out, &summary_json(&table))?;
        }
        tables.push(table);
    }
    if !args.json {
        write_table(&mut out, &tables)?;
    }
    out.flush()?;
    if let Some(path) = &args.output {
        write_or_print(Some(path), written.as_bytes())?;
    }
    tally.report_bad_input("puzzles");
    Ok(tally.exit_code())
}

/// A puzzle as written to a file: a line, or a grid block and a blank line above order 35.
pub fn text_record(grid: &sudokit::Grid) -> String {
    let text = to_text(grid);
    let mut record = text.trim_end().to_string();
    record.push('\n');
    if record.trim_end().contains('\n') {
        record.push('\n');
    }
    record
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
        Some((min, avg, max)) => json!({"min": min, "avg": avg, "max": max}),
        None => Value::Null,
    }
}

fn summary_json(table: &FileTable) -> Value {
    json!({
        "file": table.name,
        "puzzles": table.reduced.len(),
        "before": spread_json(FileTable::spread(table.reduced.iter().map(|m| m.before))),
        "after": spread_json(FileTable::spread(table.reduced.iter().map(|m| m.after))),
        "removed": spread_json(FileTable::spread(table.removed())),
        "already_minimal": table.already_minimal(),
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
            t.reduced.len(),
            cell(FileTable::spread(t.reduced.iter().map(|m| m.before))),
            cell(FileTable::spread(t.reduced.iter().map(|m| m.after))),
            cell(FileTable::spread(t.removed())),
            t.already_minimal(),
            t.not_well_posed,
        )?;
    }
    Ok(())
}
