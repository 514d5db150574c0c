//! `sudokit reduce latin FILE --to TARGET`: Latin square completion → Sudoku (and on to CNF, 0-1
//! ILP, exact cover or graph precolouring), one target instance per input square.
//!
//! Output: standard output, or `-o FILE`, receives every instance in input order. With `--to
//! sudoku` that is one puzzle line (block, JSON object) per square. The other targets are whole
//! files (DIMACS CNF, CPLEX LP, dlx1, DIMACS `.col`); each begins with its own comment line
//! `<comment> sudokit reduce latin: square K (line L) ...` (comment `c` for CNF and `.col`, `\` for
//! LP, `|` for dlx1), so one square gives a valid file and several are split at those lines.
//! `-o DIR/` (an existing directory, or a path ending in `/`) writes one file per square,
//! `DIR/STEM-K.EXT` (STEM = input name without extension, K = 1-based position of the square,
//! EXT `txt`/`json`, `cnf`, `lp`, `dlx`, `col`).

use std::fs;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::{Args as ClapArgs, Subcommand, ValueEnum};
use sudokit::Grid;
use sudokit::encode::cnf::{Amo, CnfOptions, Encoding};
use sudokit::format::{col, dimacs, dlx, lp};
use sudokit::reduce::encodings::{SudokuToCnf, SudokuToExactCover, SudokuToIlp};
use sudokit::reduce::latin::latin_to_sudoku;
use sudokit::reduce::reduction::Reduction;
use sudokit::text::{Format, ReadOptions, ShapeSpec, to_block, to_json, to_line};

use super::batch::{self, Tally};
use super::output::AtomicFile;
use super::sink::Sink;

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
        after_help = "The Sudoku has m×m boxes; its cells (i, m·q) for i < m carry the Latin \
square and every other cell is given by a fixed pattern, so it is completable exactly when the square \
is. Puzzle lines hold orders up to 35 (m ≤ 5); use --output block or --json for larger m.\n\n\
--to cnf|ilp|exact-cover|colouring writes the Sudoku's DIMACS CNF, CPLEX LP, dlx1 exact cover or \
DIMACS .col (precolouring as 'c given' lines). On standard output (or -o FILE) the instances follow \
each other, each starting with a comment line 'sudokit reduce latin: square K'; -o DIR/ writes \
DIR/STEM-K.EXT, one file per square.\n\n\
--solve runs the chain and prints every level: with --to sudoku (the default) the Sudoku is solved \
by --backend; with --to cnf the CNF is solved by a SAT solver (varisat), the model checked against \
every clause, decoded to the Sudoku and mapped back to the Latin square, verified at each level.\n\n\
Examples:\n  \
sudokit reduce latin models/latin/partial.txt --to sudoku\n  \
sudokit reduce latin models/latin/course.txt --to cnf -o course/\n  \
sudokit reduce latin models/latin/course.txt --to cnf --solve --report course.html\n  \
sudokit generate-latin --order 4 --holes 9 | sudokit reduce latin - --to sudoku | sudokit info -"
    )]
    Latin(LatinArgs),
}

/// Arguments of `reduce latin`.
#[derive(Debug, ClapArgs)]
struct LatinArgs {
    /// Partial Latin squares (`-` for standard input).
    file: PathBuf,
    /// The target formalism.
    #[arg(long, value_enum, default_value_t = Target::Sudoku)]
    to: Target,
    /// Output file, or directory (existing, or ending in `/`) for one file per square.
    #[arg(
        short = 'o',
        long = "out",
        value_name = "OUT",
        conflicts_with = "solve"
    )]
    out: Option<PathBuf>,
    /// CNF encoding: minimal, efficient, extended or optimized (--to cnf only; default extended).
    #[arg(long)]
    encoding: Option<Encoding>,
    /// At-most-one encoding: pairwise, sequential, product or bimander (--to cnf only; default pairwise).
    #[arg(long)]
    amo: Option<Amo>,
    /// Input form; `auto` decides from the first square.
    #[arg(long, value_enum, default_value_t = super::input::FormatArg::Auto)]
    format: super::input::FormatArg,
    /// How to write each Sudoku: a puzzle line (m ≤ 5), a grid block (any m), or JSON.
    #[arg(long, value_enum, default_value_t = Output::Line)]
    output: Output,
    /// Same as `--output json`.
    #[arg(long)]
    json: bool,
    /// Run the whole chain: reduce, solve (the Sudoku with --backend, or with --to cnf the CNF with a
    /// SAT solver), map the solution back, verify each level.
    #[arg(long)]
    solve: bool,
    /// Backend that solves the Sudoku (with --solve and --to sudoku; default native).
    #[arg(long, requires = "solve")]
    backend: Option<String>,
    /// Also count Sudoku solutions up to this limit (with --solve): the reduction keeps counts.
    #[arg(long, requires = "solve")]
    count: Option<u64>,
    /// Seconds allowed to the solve step of each square (with --solve).
    #[arg(long, requires = "solve")]
    time_limit: Option<f64>,
    /// Search nodes allowed to the solve step of each square (with --solve).
    #[arg(long, value_name = "N", requires = "solve")]
    node_limit: Option<u64>,
    /// Write a self-contained HTML page of the chain (with --solve).
    #[arg(long, value_name = "FILE.html", requires = "solve")]
    report: Option<PathBuf>,
}

/// Output forms of `reduce latin --to sudoku`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Output {
    /// One puzzle line per square (orders up to 35).
    Line,
    /// One grid block per square, blocks separated by a blank line.
    Block,
    /// One JSON object per square.
    Json,
}

impl LatinArgs {
    fn chain_options(&self) -> anyhow::Result<super::latin_chain::ChainOptions> {
        let time = match self.time_limit {
            None => None,
            Some(s) if s.is_finite() && s > 0.0 => Some(std::time::Duration::from_secs_f64(s)),
            Some(s) => anyhow::bail!("--time-limit must be a positive number of seconds, not {s}"),
        };
        Ok(super::latin_chain::ChainOptions {
            backend: self
                .backend
                .clone()
                .unwrap_or_else(|| sudokit::solve::DEFAULT_BACKEND.to_string()),
            count: self.count,
            time,
            nodes: self.node_limit,
            report: self.report.clone(),
            json: self.json || self.output == Output::Json,
        })
    }
}

/// Targets of the Latin-square reduction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Target {
    /// A Sudoku puzzle of order m².
    Sudoku,
    /// The Sudoku's CNF, as DIMACS.
    Cnf,
    /// The Sudoku's 0-1 integer program, as CPLEX LP.
    Ilp,
    /// The Sudoku's exact-cover problem, in Knuth's dlx1 format.
    ExactCover,
    /// The Sudoku's precoloured graph, as DIMACS .col with 'c given' lines.
    #[value(alias = "coloring")]
    Colouring,
}

impl Target {
    /// The extension of the files `-o DIR/` writes.
    fn extension(self, output: Output) -> &'static str {
        match (self, output) {
            (Target::Sudoku, Output::Json) => "json",
            (Target::Sudoku, _) => "txt",
            (Target::Cnf, _) => "cnf",
            (Target::Ilp, _) => "lp",
            (Target::ExactCover, _) => "dlx",
            (Target::Colouring, _) => "col",
        }
    }

    /// The comment mark of the target's file format.
    fn comment(self) -> &'static str {
        match self {
            Target::Sudoku => "#",
            Target::Cnf | Target::Colouring => "c",
            Target::Ilp => "\\",
            Target::ExactCover => "|",
        }
    }
}

/// Where the instances go.
enum Destination {
    /// Standard output: every instance, in order, each written whole.
    Stdout(Sink),
    /// One file (under a temporary name until complete): every instance, in order.
    File(AtomicFile),
    /// One file per square.
    Dir(PathBuf),
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.source {
        Source::Latin(latin) => run_latin(latin),
    }
}

fn latin_options(args: &LatinArgs) -> ReadOptions {
    ReadOptions {
        format: match args.format {
            super::input::FormatArg::Auto => Format::Auto,
            super::input::FormatArg::Line => Format::Line,
            super::input::FormatArg::Block => Format::Block,
            super::input::FormatArg::Json => Format::Json,
        },
        shape: Some(ShapeSpec::Latin),
        reject_clashes: true,
    }
}

fn run_latin(args: LatinArgs) -> anyhow::Result<ExitCode> {
    if args.to != Target::Cnf && (args.encoding.is_some() || args.amo.is_some()) {
        bail!("--encoding and --amo apply to --to cnf only");
    }
    let output = if args.json { Output::Json } else { args.output };
    if args.solve {
        return match args.to {
            Target::Sudoku => {
                super::latin_chain::run(&args.file, latin_options(&args), &args.chain_options()?)
            }
            Target::Cnf => {
                if args.backend.is_some() || args.count.is_some() || args.time_limit.is_some() {
                    bail!(
                        "--backend, --count and --time-limit apply to --to sudoku: with --to cnf \
                         the SAT solver (varisat) solves the CNF"
                    );
                }
                super::latin_sat_chain::run(
                    &args.file,
                    latin_options(&args),
                    &super::latin_sat_chain::SatChainOptions {
                        cnf: cnf_options(&args),
                        report: args.report.clone(),
                        json: output == Output::Json,
                    },
                )
            }
            other => bail!(
                "--solve runs the chain through --to sudoku (any --backend) or --to cnf (SAT); \
                 write the {} instance with -o and solve it with an external tool",
                other
                    .to_possible_value()
                    .map(|v| v.get_name().to_owned())
                    .unwrap_or_default()
            ),
        };
    }
    if args.to != Target::Sudoku && output != Output::Line {
        bail!("--output and --json choose the form of --to sudoku only");
    }
    let mut destination = match &args.out {
        Some(p) if p.as_os_str() != "-" && (p.is_dir() || p.to_string_lossy().ends_with('/')) => {
            fs::create_dir_all(p).with_context(|| format!("cannot create {}", p.display()))?;
            Destination::Dir(p.clone())
        }
        Some(p) if p.as_os_str() != "-" => Destination::File(AtomicFile::create(p)?),
        _ => Destination::Stdout(Sink::stdout("squares")?),
    };
    let stem = match args.file.as_os_str() {
        s if s == "-" => "stdin".to_string(),
        _ => args
            .file
            .file_stem()
            .map_or("squares".into(), |s| s.to_string_lossy().into_owned()),
    };
    let streaming = !matches!(destination, Destination::Dir(_));
    // Errors go in place on standard output for Sudoku lines (one line per square, in order),
    // to standard error otherwise (so that the output stays a sequence of valid files).
    let errors_in_place = args.to == Target::Sudoku && streaming;
    let mut tally = Tally::default();
    let mut items = batch::puzzles(&args.file, latin_options(&args))?;
    // One square's output, written whole.
    let mut square = Vec::new();
    while !super::stop::expired() {
        let Some(item) = items.next() else { break };
        tally.total += 1;
        let k = tally.total;
        square.clear();
        let line = batch::line_of(&item);
        let result = item
            .map_err(|e| batch::located(&args.file, &e))
            .and_then(|record| match latin_to_sudoku(&record.grid) {
                Ok(sudoku) => Ok((record, sudoku)),
                Err(e) => Err(format!("{}:{}:1: {e}", args.file.display(), record.line)),
            });
        let written = match result {
            Err(message) => Err(message),
            Ok((record, sudoku)) => match &destination {
                Destination::Dir(dir) => {
                    let path = dir.join(format!("{stem}-{k}.{}", args.to.extension(output)));
                    let mut file = AtomicFile::create(&path)?;
                    let written = write_instance(&args, output, k, &record, &sudoku, &mut file)?;
                    if written.is_ok() {
                        file.commit()?;
                    }
                    written
                }
                _ => write_instance(&args, output, k, &record, &sudoku, &mut square)?,
            },
        };
        if let Err(message) = written {
            tally.bad_input += 1;
            report_error(&mut square, errors_in_place, output, &message)?;
        }
        match &mut destination {
            Destination::Stdout(sink) => sink.write(&String::from_utf8_lossy(&square), line)?,
            Destination::File(file) => file.write_all(&square)?,
            Destination::Dir(_) => {}
        }
    }
    // The input is exhausted unless --timeout stopped the batch.
    let complete = items.next().is_none();
    match destination {
        Destination::Stdout(sink) => {
            if !sink.finish(complete)? {
                return Ok(ExitCode::from(1));
            }
        }
        Destination::File(file) if complete => file.commit()?,
        Destination::Dir(_) if complete => {}
        // A stopped run leaves no half-written file under the asked name.
        Destination::File(_) | Destination::Dir(_) => {
            eprintln!(
                "sudokit: --timeout {} s reached after {} squares; the output was not written",
                super::stop::timeout_seconds().unwrap_or_default(),
                tally.total
            );
            return Ok(ExitCode::from(1));
        }
    }
    tally.require_some(&args.file)?;
    tally.report_bad_input("squares");
    Ok(tally.exit_code())
}

fn cnf_options(args: &LatinArgs) -> CnfOptions {
    CnfOptions {
        encoding: args.encoding.unwrap_or_default(),
        amo: args.amo.unwrap_or_default(),
    }
}

/// Reports one bad square: in place in its output, or on standard error.
fn report_error(
    out: &mut Vec<u8>,
    in_place: bool,
    output: Output,
    message: &str,
) -> anyhow::Result<()> {
    match (in_place, output) {
        (true, Output::Json) => batch::write_json(
            out,
            &serde_json::json!({"status": "error", "error": message}),
        )?,
        (true, _) => writeln!(out, "error: {message}")?,
        (false, _) => eprintln!("error: {message}"),
    }
    Ok(())
}

/// Writes the target instance of one square. The outer error is I/O; the inner one a square
/// that cannot be written in the asked form (reported in place).
fn write_instance(
    args: &LatinArgs,
    output: Output,
    k: usize,
    record: &sudokit::text::Record,
    sudoku: &Grid,
    out: &mut dyn Write,
) -> anyhow::Result<Result<(), String>> {
    let latin = &record.grid;
    let m = latin.shape().order();
    let header = format!(
        "sudokit reduce latin: square {k} (line {} of {}), order {m}, {} givens{}\n\
         the Sudoku of order {} ({m}×{m} boxes) whose cells (i, {m}·q), i < {m}, carry the square",
        record.line,
        args.file.display(),
        latin.filled(),
        to_line(latin).map_or(String::new(), |l| format!(": {l}")),
        m * m,
    );
    let comment = |out: &mut dyn Write| -> io::Result<()> {
        for line in header.lines() {
            writeln!(out, "{} {line}", args.to.comment())?;
        }
        Ok(())
    };
    match args.to {
        Target::Sudoku => {
            let text = match output {
                Output::Json => {
                    let mut value = to_json(sudoku);
                    value["line"] = record.line.into();
                    value["latin_order"] = m.into();
                    value.to_string() + "\n"
                }
                Output::Block => to_block(sudoku) + "\n",
                Output::Line => match to_line(sudoku) {
                    Some(line) => line + "\n",
                    None => {
                        return Ok(Err(format!(
                            "{}:{}:1: the Sudoku of order {} cannot be a puzzle line (values \
                             above Z = 35); use --output block or --json",
                            args.file.display(),
                            record.line,
                            sudoku.shape().order()
                        )));
                    }
                },
            };
            out.write_all(text.as_bytes())?;
        }
        Target::Cnf => {
            let options = cnf_options(args);
            let target = SudokuToCnf { options }
                .reduce(sudoku)
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            let mut comments: Vec<String> = header.lines().map(str::to_owned).collect();
            comments.extend(dimacs::cnf_comments(sudoku, options, &target.encoded));
            dimacs::write_formula(&target.cnf, &comments, &mut *out)?;
        }
        Target::Ilp => {
            comment(out)?;
            let ilp = SudokuToIlp
                .reduce(sudoku)
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            lp::write_lp(&ilp, &mut *out)?;
        }
        Target::ExactCover => {
            comment(out)?;
            let problem = SudokuToExactCover
                .reduce(sudoku)
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            dlx::write_dlx(&problem, &mut *out)?;
        }
        Target::Colouring => {
            comment(out)?;
            col::write_col(sudoku, &mut *out)?;
        }
    }
    Ok(Ok(()))
}
