//! `sudokit grade FILE...`: which propagation schemes solve each puzzle search-free, per-file
//! tables, the lattice of schemes found to differ, and (`--runtime`) search times per scheme.

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args as ClapArgs, ValueEnum};
use sudokit::Shape;
use sudokit::grade::{Grade, Grader, Spread, Summary, differences};
use sudokit::present::grade::{puzzle_json, samples, summary_json};
use sudokit::propagate::{Scheme, Searcher, Shaving};
use sudokit::search::{CountReport, Limits};
use sudokit::text::TextError;

use super::batch::{self, Tally};
use super::input::InputArgs;
use super::sink::Sink;
use super::solving::ordered_batch;

/// Arguments of `grade`.
#[derive(Debug, ClapArgs)]
#[command(after_help = "\
Schemes (Simonis 2005): FC FCI BC BCI HAC HACS HACC HAC3 HACSC HACS3 HACC3 HACSC3 FCV BCV HACV
(`paper`), and FCV+ BCV+ HACV+, which shave to the fixpoint (`all` is the eighteen). FCV, BCV
and HACV shave once, as in the paper; --shave fixpoint makes them the + schemes.
A puzzle is search-free for a scheme when the scheme's fixpoint leaves one candidate per cell.

Examples:
  sudokit grade models/sudoku/9x9/top95.txt --summary
  sudokit grade --schemes FC,FCI,HAC,HACC models/sudoku/9x9/xwing.txt
  sudokit grade --json --runtime --schemes HAC,HACS models/sudoku/9x9/hard.txt")]
pub struct Args {
    /// Puzzle files (`-` for standard input).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Comma-separated schemes to run (`paper` for the fifteen, `all` for the eighteen).
    #[arg(long, default_value = "all", value_name = "LIST")]
    schemes: String,
    /// How the shaving schemes shave: `once` (the paper's single pass: FCV+ means FCV) or
    /// `fixpoint` (FCV means FCV+); without it, as named (FCV once, FCV+ to the fixpoint).
    #[arg(long, value_enum, value_name = "MODE")]
    shave: Option<ShaveArg>,
    /// One JSON object per puzzle, then one summary object per file.
    #[arg(long)]
    json: bool,
    /// Only the tables (no line per puzzle); ignored with --json.
    #[arg(long)]
    summary: bool,
    /// Also search each puzzle with each scheme (up to 2 solutions: proves uniqueness) and
    /// print the search-time table.
    #[arg(long)]
    runtime: bool,
    /// Time budget per puzzle and scheme for --runtime, in seconds.
    #[arg(long, default_value_t = 10.0, value_name = "SECS")]
    time_limit: f64,
    /// Node budget per puzzle and scheme for --runtime.
    #[arg(long, value_name = "NODES")]
    node_limit: Option<u64>,
    #[command(flatten)]
    input: InputArgs,
}

/// `--shave` values (`grade` and `generate`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum ShaveArg {
    /// One pass over the cells (Simonis' V).
    Once,
    /// Passes until one removes nothing.
    Fixpoint,
}

impl ShaveArg {
    /// `scheme` with the shaving `--shave` asks for (kept as named without the option, and for
    /// a scheme that does not shave).
    pub(super) fn apply(shave: Option<ShaveArg>, scheme: Scheme) -> Scheme {
        match shave {
            None => scheme,
            Some(ShaveArg::Once) => scheme.with_shaving(Shaving::Once),
            Some(ShaveArg::Fixpoint) => scheme.with_shaving(Shaving::Fixpoint),
        }
    }
}

/// One puzzle's results.
struct Row {
    line: usize,
    /// n², the candidates left when search-free.
    cells: usize,
    grade: Grade,
    runs: Vec<CountReport>,
}

/// Per-thread engines, one per shape met.
#[derive(Default)]
struct Engines {
    graders: HashMap<Shape, Grader>,
    searchers: HashMap<Shape, Searcher>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut schemes: Vec<Scheme> = Vec::new();
    for s in Scheme::parse_list(&args.schemes).context("--schemes")? {
        let s = ShaveArg::apply(args.shave, s);
        if !schemes.contains(&s) {
            schemes.push(s);
        }
    }
    let limits = Limits {
        time: Some(super::solving::seconds("--time-limit", args.time_limit)?),
        nodes: super::solving::at_least_one("--node-limit", args.node_limit)?,
        cancel: None,
    };
    let options = args.input.read_options();
    // Each puzzle's line is written whole and flushed, in input order, as the batch streams
    // through the input: an interruption leaves a valid prefix and says how far it got. The
    // tables at the end need every puzzle's grade (a few bytes per scheme), kept in memory.
    let sink = Sink::stdout("puzzles")?;
    let threads = super::solving::cores();
    let mut tally = Tally::default();
    let mut summaries: Vec<FileResult> = Vec::new();
    let mut out = Vec::new();
    let mut complete = true;

    for path in &args.files {
        let mut items = batch::puzzles(path, options)?;
        let work = |item: batch::Item| -> Result<Row, TextError> {
            let record = item?;
            ENGINES.with_borrow_mut(|engines| {
                let shape = record.grid.shape();
                let grade = engines
                    .graders
                    .entry(shape)
                    .or_insert_with(|| Grader::new(shape))
                    .grade(&record.grid, &schemes);
                let mut runs = Vec::new();
                if args.runtime {
                    let searcher = engines
                        .searchers
                        .entry(shape)
                        .or_insert_with(|| Searcher::new(shape));
                    for &s in &schemes {
                        // A search error is a propagator bug: it aborts with the message.
                        let outcome = searcher
                            .run(&record.grid, s, 2, &super::stop::clip(&limits))
                            .unwrap_or_else(|e| {
                                panic!("{}:{}: {s}: {e}", path.display(), record.line)
                            });
                        runs.push(outcome);
                    }
                }
                Ok(Row {
                    line: record.line,
                    cells: shape.cells(),
                    grade,
                    runs,
                })
            })
        };

        let mut summary = Summary::new(&schemes);
        let mut grades = Vec::new();
        let mut runs_per_scheme: Vec<Vec<CountReport>> = vec![Vec::new(); schemes.len()];
        let emit = |result: Result<Row, TextError>| {
            tally.total += 1;
            out.clear();
            let line = match &result {
                Err(e) => e.line,
                Ok(row) => row.line,
            };
            match result {
                Err(e) => {
                    tally.bad_input += 1;
                    batch::write_read_error(&mut out, args.json, path, &e)?;
                }
                Ok(row) => {
                    summary.add(&row.grade);
                    if args.json {
                        let value = puzzle_json(
                            &path.display().to_string(),
                            row.line,
                            row.cells,
                            &row.grade,
                            &schemes,
                            &row.runs,
                        );
                        batch::write_json(&mut out, &value)?;
                    } else if !args.summary {
                        writeln!(out, "{}", puzzle_text(path, &row))?;
                    }
                    for (i, mut run) in row.runs.into_iter().enumerate() {
                        // The tables use the statistics only.
                        run.solutions.clear();
                        runs_per_scheme[i].push(run);
                    }
                    grades.push(row.grade);
                }
            }
            if !out.is_empty() {
                sink.write(&String::from_utf8_lossy(&out), line)?;
            }
            Ok(())
        };
        let finished = ordered_batch(threads, items.by_ref(), work, emit)?;
        // The input is exhausted unless --timeout stopped the batch.
        if !finished || items.next().is_some() {
            complete = false;
            break;
        }
        if args.json {
            out.clear();
            batch::write_json(
                &mut out,
                &summary_json(
                    &path.display().to_string(),
                    &summary,
                    &differences(&summary.schemes, &grades),
                    &runs_per_scheme,
                ),
            )?;
            sink.write_extra(&String::from_utf8_lossy(&out))?;
        }
        summaries.push((path.display().to_string(), summary, grades, runs_per_scheme));
    }

    if !complete {
        sink.finish(false)?;
        return Ok(ExitCode::from(1));
    }
    // Tables of nothing say nothing: without a single graded puzzle, the errors above are all.
    let graded = summaries
        .iter()
        .any(|(_, summary, _, _)| summary.puzzles > 0);
    if !args.json && graded {
        out.clear();
        write_tables(&mut out, &schemes, &summaries, args.runtime)?;
        sink.write_extra(&String::from_utf8_lossy(&out))?;
    }
    sink.finish(true)?;
    tally.report_bad_input("puzzles");
    Ok(tally.exit_code())
}

thread_local! {
    /// Each worker thread's engines, one per shape met.
    static ENGINES: std::cell::RefCell<Engines> = std::cell::RefCell::new(Engines::default());
}

fn puzzle_text(path: &Path, row: &Row) -> String {
    let names = |v: Vec<Scheme>| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.iter().map(|s| s.name()).collect::<Vec<_>>().join(" ")
        }
    };
    let mut text = format!(
        "{}:{}: {} givens; weakest: {}; search-free: {}",
        path.display(),
        row.line,
        row.grade.givens,
        names(row.grade.weakest()),
        names(row.grade.search_free()),
    );
    if row.grade.refuted() {
        text.push_str("; refuted (no solution)");
    }
    text
}

type FileResult = (String, Summary, Vec<Grade>, Vec<Vec<CountReport>>);

fn write_tables(
    out: &mut impl Write,
    schemes: &[Scheme],
    files: &[FileResult],
    runtime: bool,
) -> io::Result<()> {
    let width = files.iter().map(|f| f.0.len()).max().unwrap_or(4).max(4);
    writeln!(out)?;
    writeln!(
        out,
        "Search-free puzzles (% of each file) per scheme; givens min/avg/max:"
    )?;
    write!(out, "{:<width$} {:>7} {:>14}", "file", "puzzles", "givens")?;
    for s in schemes {
        write!(out, " {:>6}", s.name())?;
    }
    writeln!(out)?;
    for (name, summary, _, _) in files {
        let givens = if summary.puzzles == 0 {
            "-".to_string()
        } else {
            format!(
                "{}/{:.1}/{}",
                summary.givens_min,
                summary.givens_avg(),
                summary.givens_max
            )
        };
        write!(out, "{name:<width$} {:>7} {givens:>14}", summary.puzzles)?;
        for i in 0..schemes.len() {
            write!(out, " {:>6.1}", summary.percent(i))?;
        }
        writeln!(out)?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "Lattice (weaker ⊏ stronger, covering pairs among the chosen schemes): puzzles search-free for the stronger only"
    )?;
    let all: Vec<&Grade> = files.iter().flat_map(|f| f.2.iter()).collect();
    let edges = differences(schemes, all.iter().copied());
    for (a, b, count) in &edges {
        let note = if *count == 0 {
            "  (no difference found)"
        } else {
            ""
        };
        writeln!(out, "  {:<6} ⊏ {:<6} {count:>7}{note}", a.name(), b.name())?;
    }
    if runtime {
        for (name, _, _, runs) in files {
            writeln!(out)?;
            writeln!(
                out,
                "Search time per puzzle (ms; search for up to 2 solutions) and nodes: {name}"
            )?;
            writeln!(
                out,
                "{:<7} {:>9} {:>9} {:>9} {:>9} {:>10} {:>10} {:>8}",
                "scheme", "min", "median", "avg", "max", "avg nodes", "max nodes", "unknown"
            )?;
            for (s, sample) in schemes.iter().zip(runs) {
                let (ms, nodes) = samples(sample);
                let (Some(t), Some(k)) = (Spread::of(&ms), Spread::of(&nodes)) else {
                    continue;
                };
                writeln!(
                    out,
                    "{:<7} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>10.1} {:>10.0} {:>8}",
                    s.name(),
                    t.min,
                    t.median,
                    t.avg,
                    t.max,
                    k.avg,
                    k.max,
                    sample.iter().filter(|r| r.stopped.is_some()).count()
                )?;
            }
        }
    }
    Ok(())
}
