//! `sudokit reduce latin FILE --to TARGET`: Latin square completion → Sudoku (and on to CNF, 0-1
//! ILP, exact cover or graph precolouring), one target instance per input square.
//!
//! Output: standard output, or `-o FILE`, receives every instance in input order. With `--to
//! sudoku` that is one puzzle line (block, JSON object) per square. The other targets are whole
//! files (DIMACS CNF, CPLEX LP, dlx1, DIMACS `.col`); each begins with its own comment line
//! `<comment> sudokit reduce latin: square K (line L) ...` (comment `c` for CNF and `.col`, `\` for
//! LP, `|` for dlx1), so one square gives a valid file and several are split at those lines.
//! `--out-dir DIR` writes one file per square,
//! `DIR/STEM-K.EXT` (STEM = input name without extension, K = 1-based position of the square,
//! EXT `txt`/`json`, `cnf`, `lp`, `dlx`, `col`).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::{Args as ClapArgs, Subcommand, ValueEnum};
use sudokit::Grid;
use sudokit::encode::cnf::{Amo, CnfOptions, Encoding};
use sudokit::format::{ExportFormat, ExportOptions, export, find_format};
use sudokit::reduce::course::{CourseOptions, Level};
use sudokit::reduce::latin::latin_to_sudoku;
use sudokit::text::{ReadOptions, Record, ShapeSpec, to_block, to_json, to_line};

use super::stop::puzzles;
use sudokit::jobs::target::AtomicFile;
use sudokit::jobs::{ItemError, ItemResult, JobRecord, PuzzleItem, Status, options};

use super::args::{FormatArg, OutputArgs, ThreadsArg};
use super::runner as driver;
use super::squares::{SquareJob, Written};

/// Arguments of `reduce`.
#[derive(Debug, ClapArgs)]
pub struct Args {
    #[command(subcommand)]
    source: Source,
}

/// The source problem of a reduction.
#[derive(Debug, Subcommand)]
enum Source {
    /// Partial Latin squares (one per line of m² symbols, or grid blocks) → Sudoku of order m².
    #[command(
        after_help = "The Sudoku has m×m boxes; its cell (i, m·(j − 1) + 1) carries cell (i, j) of \
the square (rows and columns from 1, i, j ≤ m; symbol s is digit m·(s − 1) + 1), and every other \
cell is given by a fixed pattern, so it is completable exactly when the square is. Puzzle lines hold orders up to 35 (m ≤ 5); use --form block or --json for larger m.\n\n\
--to cnf|ilp|exact-cover|colouring (or any export format: lp, dlx, col, mps, hgr, dzn) writes the \
Sudoku's DIMACS CNF, CPLEX LP, dlx1 exact cover, DIMACS .col (precolouring as 'c given' lines), ... \
On standard output (or -o FILE) the instances follow each other, each starting with a comment line \
'sudokit reduce latin: square K'; --out-dir DIR writes DIR/STEM-K.EXT, one file per square.\n\n\
--solve runs the chain: every level (or those of --levels, or the one of --to) is solved by its own \
solver: the square and its Sudoku by --backend (native), the CNF by varisat (an unsatisfiable \
formula with a checked refutation, kept with --proof DIR), the 0-1 ILP by microlp (--mip highs in a \
build with the highs feature), the exact cover by dancing links, the graph by DSATUR. Each answer \
is checked at its level, mapped back to the Sudoku and the square and verified there; the levels \
must agree. A square with no completion (order up to 8) also gets a minimal conflict: givens that \
alone have no completion. --report page.html draws it all as the course page.\n\n\
Examples:\n  \
sudokit reduce latin models/latin/partial.txt --to sudoku --form block\n  \
sudokit reduce latin models/latin/course.txt --to cnf --out-dir course\n  \
sudokit reduce latin models/latin/course.txt --solve --report course.html\n  \
sudokit reduce latin models/latin/course.txt --solve --levels sudoku,cnf --proof proofs/\n  \
sudokit generate-latin --order 4 --holes 9 | sudokit reduce latin - --to sudoku | sudokit info -"
    )]
    Latin(LatinArgs),
}

/// Arguments of `reduce latin`.
#[derive(Debug, ClapArgs)]
struct LatinArgs {
    /// Partial Latin squares (`-` for standard input).
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// The target: sudoku, or the Sudoku's file in any export format (cnf, lp/ilp,
    /// dlx/exact-cover, col/colouring, mps, hgr, dzn).
    #[arg(long, value_name = "TARGET", default_value = "sudoku")]
    to: String,
    #[command(flatten)]
    output: OutputArgs,
    /// Write one file per square into DIR (made if missing): DIR/STEM-K.EXT.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["solve", "output"])]
    out_dir: Option<PathBuf>,
    /// CNF encoding (--to cnf only; default extended).
    #[arg(long, value_name = "ENCODING")]
    encoding: Option<Encoding>,
    /// At-most-one encoding (--to cnf only; default pairwise).
    #[arg(long, value_name = "AMO")]
    amo: Option<Amo>,
    /// Input form; `auto` decides from the first square.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = FormatArg::Auto)]
    format: FormatArg,
    /// How to write each Sudoku of --to sudoku: a puzzle line (m ≤ 5), a grid block (any m), or
    /// JSON.
    #[arg(long, value_enum, value_name = "FORM", default_value_t = Form::Line)]
    form: Form,
    /// Same as `--form json`.
    #[arg(long)]
    json: bool,
    /// Run the chain: reduce, solve every level with its own solver, map each answer back,
    /// verify at every level.
    #[arg(long)]
    solve: bool,
    /// The levels --solve runs: latin, sudoku, cnf, ilp, exact-cover, colouring (comma-separated,
    /// or all; default all, or the level of --to).
    #[arg(long, value_name = "LIST", requires = "solve")]
    levels: Option<String>,
    /// Backend that solves the square and its Sudoku (with --solve; default native).
    #[arg(long, value_name = "BACKEND", requires = "solve")]
    backend: Option<String>,
    /// The MIP backend of the ILP level: mip (microlp) or highs (with the highs feature).
    #[arg(
        long,
        value_name = "BACKEND",
        requires = "solve",
        default_value = "mip"
    )]
    mip: String,
    /// Also count the Sudoku's solutions, at most N (with --solve): the reduction keeps counts.
    #[arg(long, value_name = "N", requires = "solve", alias = "count")]
    limit: Option<u64>,
    /// Seconds allowed to each solver run of each square (with --solve; default: none).
    #[arg(long, value_name = "SECONDS", requires = "solve")]
    time_limit: Option<f64>,
    /// Search nodes allowed to each solver run of each square (with --solve; default: none).
    #[arg(long, value_name = "N", requires = "solve")]
    node_limit: Option<u64>,
    /// Keep the CNF level's refutations in DIR (DIR/squareK.cnf, .varisat, .lrat, .drat).
    #[arg(long, value_name = "DIR", requires = "solve")]
    proof: Option<PathBuf>,
    /// Write the course page to FILE: a self-contained HTML page of every level (with --solve).
    #[arg(long, value_name = "FILE", requires = "solve")]
    report: Option<PathBuf>,
    #[command(flatten)]
    threads: ThreadsArg,
}

/// The forms of `reduce latin --to sudoku`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Form {
    /// One puzzle line per square (orders up to 35).
    Line,
    /// One grid block per square, blocks separated by a blank line.
    Block,
    /// One JSON object per square.
    Json,
}

impl LatinArgs {
    /// The course run `--solve` asks for.
    fn course(&self, target: Target) -> anyhow::Result<super::course::CourseRequest> {
        let limits = options::limits(self.time_limit, self.node_limit)?;
        options::at_least_one("limit", self.limit)?;
        let levels = match (&self.levels, target) {
            (Some(_), Target::File(_)) => {
                bail!("choose the levels with --levels or with --to, not both")
            }
            (Some(list), _) => Level::parse_list(list)?,
            (None, Target::Sudoku(_)) => Level::ALL.to_vec(),
            (None, Target::File(format)) => vec![format.name.parse::<Level>().map_err(|_| {
                anyhow::anyhow!(
                    "--solve has no {} level (levels: latin, sudoku, cnf, ilp, exact-cover, \
                     colouring)",
                    format.name
                )
            })?],
        };
        if levels.is_empty() {
            bail!("--levels names no level");
        }
        let grid_levels = levels.contains(&Level::Latin) || levels.contains(&Level::Sudoku);
        if self.backend.is_some() && !grid_levels {
            bail!("--backend solves the latin and sudoku levels, and neither is chosen");
        }
        if self.limit.is_some() && !levels.contains(&Level::Sudoku) {
            bail!("--limit counts at the sudoku level, which is not chosen");
        }
        if (self.encoding.is_some() || self.amo.is_some()) && !levels.contains(&Level::Cnf) {
            bail!("--encoding and --amo apply to the cnf level, which is not chosen");
        }
        // The registry says which backends find a 0-1 point of the ILP.
        sudokit::solve::registry::point_solver(&self.mip)
            .map_err(|e| anyhow::anyhow!("--mip: {e}"))?;
        let backend = self
            .backend
            .clone()
            .unwrap_or_else(|| sudokit::solve::DEFAULT_BACKEND.to_string());
        sudokit::solve::backend(&backend)?;
        Ok(super::course::CourseRequest {
            options: CourseOptions {
                levels,
                backend,
                cnf: self.cnf_options(),
                mip: self.mip.clone(),
                limits,
                count: self.limit,
                proof_dir: self.proof.clone(),
                ..CourseOptions::default()
            },
            report: self.report.clone(),
            json: self.json || self.form == Form::Json,
            threads: options::threads(self.threads.get())?,
        })
    }

    /// `--form`, with `--json`.
    fn form(&self) -> Form {
        if self.json { Form::Json } else { self.form }
    }

    fn cnf_options(&self) -> CnfOptions {
        CnfOptions {
            encoding: self.encoding.unwrap_or_default(),
            amo: self.amo.unwrap_or_default(),
        }
    }
}

/// The target of the reduction: the Sudoku itself, or its file in an export format.
#[derive(Debug, Clone, Copy)]
enum Target {
    Sudoku(Form),
    File(&'static ExportFormat),
}

impl Target {
    /// The extension of the files `-o DIR/` writes.
    fn extension(self) -> &'static str {
        match self {
            Target::Sudoku(Form::Json) => "json",
            Target::Sudoku(_) => "txt",
            Target::File(format) => format.extension,
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.source {
        Source::Latin(latin) => run_latin(latin),
    }
}

fn latin_options(args: &LatinArgs) -> ReadOptions {
    ReadOptions {
        format: args.format.into(),
        shape: Some(ShapeSpec::Latin),
        reject_clashes: true,
    }
}

fn run_latin(args: LatinArgs) -> anyhow::Result<ExitCode> {
    let target = match args.to.as_str() {
        "sudoku" => Target::Sudoku(args.form()),
        name => Target::File(find_format(name)?),
    };
    if args.solve {
        if args.output.output.is_some() {
            bail!("--solve prints the course; -o writes the instances of --to (without --solve)");
        }
        return super::course::run(&args.file, latin_options(&args), &args.course(target)?);
    }
    let takes_cnf = matches!(target, Target::File(f) if f.takes_cnf_options);
    if !takes_cnf && (args.encoding.is_some() || args.amo.is_some()) {
        bail!("--encoding and --amo apply to --to cnf only");
    }
    if matches!(target, Target::File(_)) && (args.form != Form::Line || args.json) {
        bail!("--form and --json choose the form of --to sudoku only");
    }
    let options = ExportOptions {
        cnf: args.cnf_options(),
        ..ExportOptions::default()
    };
    let dir = match (&args.out_dir, &args.output.output) {
        (Some(dir), _) => Some(dir.clone()),
        (None, Some(p))
            if p.as_os_str() != "-" && (p.is_dir() || p.to_string_lossy().ends_with('/')) =>
        {
            super::note!(
                "sudokit: -o DIR/ is now --out-dir DIR (the old spelling works until the next release)"
            );
            Some(p.clone())
        }
        _ => None,
    };
    if let Some(dir) = &dir {
        fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let stem = match args.file.as_os_str() {
        s if s == "-" => "stdin".to_string(),
        _ => args
            .file
            .file_stem()
            .map_or("squares".into(), |s| s.to_string_lossy().into_owned()),
    };
    // Errors go in place for Sudoku lines (one result per square, in order), to standard error
    // for files (so that the output stays a sequence of valid files).
    let errors_in_place = matches!(target, Target::Sudoku(_)) && dir.is_none();
    let json = matches!(target, Target::Sudoku(Form::Json));
    let items = puzzles(&args.file, latin_options(&args))?;
    // One form for every error, as every command writes it (`error: FILE:LINE:COLUMN: ...`).
    let failed = |error: ItemError| -> ItemResult<Written<Option<String>>> {
        let (text, extra) = if errors_in_place {
            (error.render(json), None)
        } else {
            (String::new(), Some(error.text().trim_end().to_string()))
        };
        ItemResult::Done(Written {
            status: Status::Error,
            text,
            extra,
        })
    };
    let job = SquareJob {
        name: "reduce latin",
        identity: serde_json::json!({
            "to": args.to,
            "form": format!("{:?}", args.form()),
            "encoding": options.cnf.encoding.name(),
            "amo": options.cnf.amo.name(),
        }),
        threads: options::threads(args.threads.get())?,
        work: |item: PuzzleItem, _: &sudokit::jobs::Control| {
            let k = item.index + 1;
            let record = match item.record() {
                Ok(record) => record,
                Err(e) => return failed(e),
            };
            let sudoku = match latin_to_sudoku(&record.grid) {
                Ok(sudoku) => sudoku,
                Err(e) => return failed(ItemError::failed(&item.file, record.line, e)),
            };
            let mut text = Vec::new();
            let written =
                match write_instance(&args.file, target, &options, k, record, &sudoku, &mut text) {
                    Ok(written) => written,
                    Err(e) => return failed(ItemError::failed(&item.file, record.line, e)),
                };
            if let Err(message) = written {
                return failed(ItemError::failed(&item.file, record.line, message));
            }
            match &dir {
                Some(dir) => {
                    let path = dir.join(format!("{stem}-{k}.{}", target.extension()));
                    let saved = AtomicFile::create(&path).and_then(|mut file| {
                        file.write_all(&text).map_err(|e| {
                            sudokit::jobs::target::TargetError::io("write", &path, e)
                        })?;
                        file.commit()
                    });
                    match saved {
                        Ok(()) => ItemResult::Done(Written {
                            status: Status::Done,
                            text: String::new(),
                            extra: None,
                        }),
                        Err(e) => failed(ItemError::failed(
                            &item.file,
                            record.line,
                            format!("{:#}", anyhow::Error::from(e)),
                        )),
                    }
                }
                None => ItemResult::Done(Written {
                    status: Status::Done,
                    text: String::from_utf8_lossy(&text).into_owned(),
                    extra: None,
                }),
            }
        },
    };
    // -o FILE: the instances in a resumable result file (the run's identity: the target, its
    // form, its encoding and the input).
    let output = OutputArgs {
        output: args.output.output.clone().filter(|_| dir.is_none()),
        ..args.output.clone()
    };
    let opened = driver::open(&job, &[&args.file], &output, "squares", json)?;
    driver::squares(&job, items, opened, json, |placed| {
        if let ItemResult::Done(done) = placed.result
            && let Some(note) = done.extra
        {
            super::note!("{note}");
        }
    })
}

/// Writes the target instance of one square. The outer error is I/O; the inner one a square
/// that cannot be written in the asked form (reported in place).
fn write_instance(
    file: &Path,
    target: Target,
    options: &ExportOptions,
    k: usize,
    record: &Record,
    sudoku: &Grid,
    out: &mut Vec<u8>,
) -> anyhow::Result<Result<(), String>> {
    let latin = &record.grid;
    let m = latin.shape().order();
    let header = format!(
        "sudokit reduce latin: square {k} (line {} of {}), order {m}, {} givens{}\n\
         the Sudoku of order {} ({m}×{m} boxes) whose cell (i, {m}·(j − 1) + 1) carries cell (i, j) \
         of the square (1-based, i, j ≤ {m}; symbol s is digit {m}·(s − 1) + 1)",
        record.line,
        file.display(),
        latin.filled(),
        to_line(latin).map_or(String::new(), |l| format!(": {l}")),
        m * m,
    );
    match target {
        Target::Sudoku(form) => {
            let text = match form {
                Form::Json => {
                    let mut value = to_json(sudoku);
                    value["line"] = record.line.into();
                    value["latin_order"] = m.into();
                    value.to_string() + "\n"
                }
                Form::Block => to_block(sudoku) + "\n",
                Form::Line => match to_line(sudoku) {
                    Some(line) => line + "\n",
                    None => {
                        return Ok(Err(format!(
                            "the Sudoku of order {} cannot be a puzzle line (values above Z = \
                             35); use --form block or --json",
                            sudoku.shape().order()
                        )));
                    }
                },
            };
            out.write_all(text.as_bytes())?;
        }
        Target::File(format) => {
            export(sudoku, format, options, &[header], out)?;
        }
    }
    Ok(Ok(()))
}
