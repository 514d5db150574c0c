//! `sudokit export FILE --to FORMAT`: one puzzle (or every puzzle, one file each) written in a
//! solver's input format.
//!
//! Output: standard output by default (the file must hold one puzzle, or `--index K` picks
//! one); `-o FILE` writes one file (`--to col` also writes `FILE` with extension `.given`);
//! `--out-dir DIR` writes one file per puzzle named `STEM-K.EXT`, where STEM is the input file's
//! name without extension, K the 1-based position of the puzzle in the input (zero-padded:
//! [`sudokit::format::provenance`]), and EXT `cnf`, `lp`, `mps`, `dlx`, `col` (+ `given`),
//! `hgr`, `dzn`. Every file names its source and the exact `decode` command in its comments.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::Args as ClapArgs;
use sudokit::Grid;
use sudokit::batch::Batch;
use sudokit::format::provenance::{numbered_name, source_header};
use sudokit::format::{ExportFormat, ExportOptions, export, find_format};
use sudokit::jobs::item::{PuzzleItem, puzzles_until};
use sudokit::jobs::target::AtomicFile;
use sudokit::jobs::{JobRecord, Status, Tally};
use sudokit::text::ReadPuzzle;

use super::args::InputArgs;
use super::export_size::{self, MaxSize};
use super::pick::select_one;
use super::stop;

/// Arguments of `export`.
#[derive(Debug, ClapArgs)]
#[command(after_help = "\
Output: standard output, one puzzle (pick it with --index N if the file has several);
-o FILE: one file (--to col also writes the precolouring beside it: -o d4.col → d4.given);
--out-dir DIR: one file per puzzle, DIR/STEM-K.EXT (STEM = input name without extension, K =
1-based position of the puzzle in the input, zero-padded to the digits of the file's line count:
top95-01.cnf ... top95-95.cnf, so they sort in input order).
Every file starts with comments naming its source (the input file, the puzzle's index and line)
and the exact decode command, with --index, that reads a solver's answer back.
--stats prints variables, clauses or constraints, literals or non-zeros, and bytes on stderr.

Examples:
  sudokit export models/sudoku/9x9/easy.txt --index 1 --to cnf --encoding minimal > easy1.cnf
  minisat easy1.cnf easy1.out; sudokit decode models/sudoku/9x9/easy.txt --index 1 --from minisat easy1.out
  sudokit export models/sudoku/9x9/easy.txt --to lp --out-dir lp
  sudokit export models/sudoku/9x9/hard.txt --index 1 --to cnf --encoding optimized --amo sequential --stats -o puzzle.cnf")]
pub struct Args {
    /// Puzzle file (`-` for standard input).
    file: PathBuf,
    /// Output format (`--help` says which solvers read each).
    #[arg(long, value_name = "FORMAT")]
    to: String,
    /// Encoding: for --to cnf minimal, efficient, extended or optimized (default extended); for
    /// --to smt2 bool (default, the fastest) or int (readable).
    #[arg(long, value_name = "ENCODING")]
    encoding: Option<String>,
    /// At-most-one encoding: pairwise, sequential, product or bimander (--to cnf only; default pairwise).
    #[arg(long, value_name = "AMO")]
    amo: Option<String>,
    /// Export only the N-th puzzle of the file (1-based).
    #[arg(long, value_name = "N")]
    index: Option<usize>,
    /// Write the export to FILE (written whole: a temporary file renamed when complete).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Write one file per puzzle into DIR (made if missing): DIR/STEM-K.EXT.
    #[arg(long, value_name = "DIR", conflicts_with = "output")]
    out_dir: Option<PathBuf>,
    /// Print the size of each export on standard error.
    #[arg(long)]
    stats: bool,
    #[command(flatten)]
    input: InputArgs,
    /// Refuse an export estimated above SIZE (K, M, G, T; `unlimited`): default 1G.
    #[arg(long, value_name = "SIZE", default_value = "1G")]
    max_size: MaxSize,
}

/// Where the exports go.
enum Destination {
    Stdout,
    File(PathBuf),
    Dir(PathBuf),
}

/// Validated options of one export.
#[derive(Debug, Clone, Copy)]
struct Plan {
    to: &'static ExportFormat,
    options: ExportOptions,
    max_size: MaxSize,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let to = find_format(&args.to)?;
    let options = ExportOptions::named(to, args.encoding.as_deref(), args.amo.as_deref())
        .map_err(anyhow::Error::msg)?;
    if args.index == Some(0) {
        bail!("--index counts from 1");
    }
    let plan = Plan {
        to,
        options,
        max_size: args.max_size,
    };
    let destination = match (&args.output, &args.out_dir) {
        (_, Some(dir)) => Destination::Dir(dir.clone()),
        (None, None) => Destination::Stdout,
        (Some(p), None) if p.as_os_str() == "-" => Destination::Stdout,
        (Some(p), None) if p.is_dir() || p.to_string_lossy().ends_with('/') => {
            super::note!(
                "sudokit: -o DIR/ is now --out-dir DIR (the old spelling works until the next release)"
            );
            Destination::Dir(p.clone())
        }
        (Some(p), None) => Destination::File(p.clone()),
    };
    match destination {
        Destination::Dir(dir) => {
            fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
            export_all(&args, plan, &dir)
        }
        single => {
            let puzzle = select_one(
                &args.file,
                args.input.read_options(),
                args.index,
                "pick one with --index N, or write one file each with --out-dir DIR",
            )?;
            check_size(&puzzle, plan)?;
            let (label, stats) = match &single {
                Destination::File(path) => {
                    let mut out = AtomicFile::create(path)?;
                    let header = source(&args, puzzle.line, plan);
                    let stats = export(&puzzle.grid, plan.to, &plan.options, &header, &mut out)?;
                    out.commit()?;
                    write_companion(&puzzle.grid, plan, path)?;
                    (path.display().to_string(), stats)
                }
                _ => {
                    let mut out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
                    let header = source(&args, puzzle.line, plan);
                    let stats = export(&puzzle.grid, plan.to, &plan.options, &header, &mut out)?;
                    out.flush()?;
                    ("standard output".to_string(), stats)
                }
            };
            if args.stats {
                super::note!("puzzle of line {} → {label}: {stats}", puzzle.line);
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn export_all(args: &Args, plan: Plan, dir: &Path) -> anyhow::Result<ExitCode> {
    let reader = puzzles_until(&args.file, args.input.read_options(), &stop::control().stop)?;
    let stem = match args.file.as_os_str() {
        s if s == "-" => "stdin".to_string(),
        _ => args
            .file
            .file_stem()
            .map_or("puzzle".into(), |s| s.to_string_lossy().into_owned()),
    };
    // One file per puzzle, in input order; a bad puzzle is reported on standard error and the
    // others are still written. A size above the cap or a file that cannot be written stops
    // the command.
    // The numbers are zero-padded to the digits of the file's line count (of 999 999 on standard
    // input, which cannot be read twice), so that the files sort in input order.
    let count = match args.file.as_os_str() {
        s if s == "-" => 999_999,
        _ => line_count(&args.file)?,
    };
    let mut items = (1..)
        .zip(reader)
        .filter(|(k, _)| args.index.is_none_or(|i| i == *k));
    let work = |(k, item): (usize, PuzzleItem)| -> anyhow::Result<(Status, String)> {
        let puzzle = match item.read_puzzle() {
            Ok(puzzle) => puzzle,
            Err(e) => return Ok((Status::Error, e.text().trim_end().to_string())),
        };
        let path = dir.join(numbered_name(&stem, k, count, plan.to.extension));
        check_size(puzzle, plan)?;
        let mut out = AtomicFile::create(&path)?;
        let header = source_header(
            &args.file.display().to_string(),
            k,
            puzzle.line,
            plan.to,
            &plan.options,
        );
        let stats = export(&puzzle.grid, plan.to, &plan.options, &header, &mut out)?;
        out.commit()?;
        write_companion(&puzzle.grid, plan, &path)?;
        let note = if args.stats {
            format!(
                "puzzle of line {} → {}: {stats}",
                puzzle.line,
                path.display()
            )
        } else {
            String::new()
        };
        Ok((Status::Done, note))
    };
    let mut tally = Tally::default();
    let batch = Batch::new(1).with_cancel(stop::control().stop);
    batch.run(items.by_ref(), work, |result| {
        let (status, note) = result?;
        tally.add(status);
        if !note.is_empty() {
            super::note!("{note}");
        }
        anyhow::Ok(())
    })?;
    if let Some(k) = args.index
        && tally.total == 0
    {
        bail!("{} has fewer than {k} puzzles", args.file.display());
    }
    if let Some(note) = tally.errors_note("puzzles") {
        super::note!("sudokit: {note}");
    }
    Ok(ExitCode::from(tally.exit_code()))
}

/// The source lines of a single export: the file, the puzzle's index (`--index`, else 1: a
/// single export of a file is its only puzzle) and line, and the exact `decode` command.
fn source(args: &Args, line: usize, plan: Plan) -> Vec<String> {
    let index = args.index.unwrap_or(1);
    source_header(
        &args.file.display().to_string(),
        index,
        line,
        plan.to,
        &plan.options,
    )
}

/// Lines of `file` (a last line without a newline counts), an upper bound of its puzzles.
fn line_count(file: &Path) -> anyhow::Result<usize> {
    let mut reader = io::BufReader::new(
        fs::File::open(file).with_context(|| format!("cannot read {}", file.display()))?,
    );
    let (mut lines, mut last) = (0, b'\n');
    loop {
        let chunk = io::BufRead::fill_buf(&mut reader)?;
        let Some(&end) = chunk.last() else { break };
        lines += chunk.iter().filter(|&&b| b == b'\n').count();
        last = end;
        let taken = chunk.len();
        io::BufRead::consume(&mut reader, taken);
    }
    Ok(lines + usize::from(last != b'\n'))
}

/// The format's second file, if it has one: `path` with the companion's extension.
fn write_companion(grid: &Grid, plan: Plan, path: &Path) -> anyhow::Result<()> {
    let Some(companion) = plan.to.companion else {
        return Ok(());
    };
    let mut out = AtomicFile::create(&path.with_extension(companion.extension))?;
    (companion.write)(grid, &mut out)?;
    Ok(out.commit()?)
}

/// Refuses (exit 2) an export estimated above `--max-size`, before anything is written.
fn check_size(puzzle: &ReadPuzzle, plan: Plan) -> anyhow::Result<()> {
    let estimate = sudokit::format::estimate_size(&puzzle.grid, plan.to, &plan.options);
    let n = puzzle.grid.shape().order();
    let cnf = plan.options.cnf;
    let what = if plan.to.takes_cnf_options {
        format!(
            "the CNF ({}/{}) of the {n}×{n} puzzle on line {}",
            cnf.encoding, cnf.amo, puzzle.line
        )
    } else {
        format!(
            "the {} file of the {n}×{n} puzzle on line {}",
            plan.to.extension, puzzle.line
        )
    };
    export_size::check(estimate, plan.max_size, &what)
}
