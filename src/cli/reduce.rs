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

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;
use clap::{Args as ClapArgs, Subcommand};
use sudokit::encode::cnf::{Amo, CnfOptions, Encoding};
use sudokit::jobs::course::CourseChoice;
use sudokit::jobs::options;
use sudokit::jobs::record_text::json_line;
use sudokit::jobs::reduce_latin::{ReduceLatinJob, ReduceLatinOptions, SudokuForm};
use sudokit::reduce::size_table::{parse_orders, size_table};
use sudokit::text::{ReadOptions, ShapeSpec, TextLayout};

use super::args::{OutputArgs, ThreadsArg};
use super::{lists, runner};

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
    Latin(LatinArgs),
}

/// The text after the options of `reduce latin`: the map, the targets (from the registries),
/// the chain, examples.
pub(super) fn latin_after_help() -> String {
    format!(
        "The Sudoku has m×m boxes; its cell (i, m·(j − 1) + 1) carries cell (i, j) of \
the square (rows and columns from 1, i, j ≤ m; symbol s is digit m·(s − 1) + 1), and every other \
cell is given by a fixed pattern, so it is completable exactly when the square is. Puzzle lines hold orders up to 35 (m ≤ 5); use --form block or --json for larger m.\n\n\
{} writes the \
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
sudokit generate-latin --order 4 --holes 9 | sudokit reduce latin - --to sudoku | sudokit info -",
        lists::latin_targets()
    )
}

/// Arguments of `reduce latin`.
#[derive(Debug, ClapArgs)]
struct LatinArgs {
    /// Partial Latin squares (`-` for standard input).
    #[arg(value_name = "FILE", required_unless_present = "sizes")]
    file: Option<PathBuf>,
    /// Print instead the sizes of every level for the empty square of each order in A..B
    /// (such as 2..8), each with its formula: the reduction's polynomial growth on one page.
    #[arg(long, value_name = "A..B", conflicts_with_all = ["solve", "out_dir"])]
    sizes: Option<String>,
    /// The target: sudoku, or the Sudoku's file in any export format.
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
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = TextLayout::Auto)]
    format: TextLayout,
    /// How to write each Sudoku of --to sudoku: a puzzle line (m ≤ 5), a grid block (any m), or
    /// JSON.
    #[arg(long, value_enum, value_name = "FORM", default_value_t = SudokuForm::Line)]
    form: SudokuForm,
    /// Same as `--form json`.
    #[arg(long)]
    json: bool,
    /// Run the chain: reduce, solve every level with its own solver, map each answer back,
    /// verify at every level.
    #[arg(long)]
    solve: bool,
    /// The levels --solve runs (comma-separated, or all; default all, or the level of --to).
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
    #[arg(long, value_name = "N", requires = "solve")]
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
    /// Also write each picture of the course page to DIR as its own SVG file, named by its
    /// slide (square-1.svg, square-1-sudoku.svg, ...; and a PNG of each when rsvg-convert is
    /// installed), to paste into slides (with --solve).
    #[arg(long, value_name = "DIR", requires = "solve")]
    svg_dir: Option<PathBuf>,
    #[command(flatten)]
    threads: ThreadsArg,
}

impl LatinArgs {
    /// The course run `--solve` asks for.
    fn course(&self) -> anyhow::Result<super::course::CourseRequest> {
        let choice = CourseChoice {
            levels: self.levels.clone(),
            target: (self.to != "sudoku").then(|| self.to.clone()),
            backend: self.backend.clone(),
            mip: self.mip.clone(),
            encoding: self.encoding,
            amo: self.amo,
            limit: self.limit,
            time_limit: self.time_limit,
            node_limit: self.node_limit,
            proof_dir: self.proof.clone(),
        };
        Ok(super::course::CourseRequest {
            options: choice.options()?,
            report: self.report.clone(),
            svg_dir: self.svg_dir.clone(),
            json: self.json || self.form == SudokuForm::Json,
            threads: options::threads(self.threads.get())?,
        })
    }

    /// The CNF options of `--encoding` and `--amo` (of `--sizes`).
    fn cnf_options(&self) -> CnfOptions {
        CnfOptions {
            encoding: self.encoding.unwrap_or_default(),
            amo: self.amo.unwrap_or_default(),
        }
    }

    /// `--form`, with `--json`.
    fn form(&self) -> SudokuForm {
        if self.json {
            SudokuForm::Json
        } else {
            self.form
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
        format: args.format,
        shape: Some(ShapeSpec::Latin),
        ..ReadOptions::default()
    }
}

fn run_latin(args: LatinArgs) -> anyhow::Result<ExitCode> {
    if let Some(orders) = &args.sizes {
        let table = size_table(parse_orders(orders)?, args.cnf_options())?;
        let text = if args.json {
            table.json_lines().iter().map(json_line).collect()
        } else {
            table.text()
        };
        std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    let Some(file) = args.file.clone() else {
        bail!("reduce latin needs a FILE of squares (or --sizes A..B)");
    };
    if args.solve {
        if args.output.output.is_some() {
            bail!("--solve prints the course; -o writes the instances of --to (without --solve)");
        }
        return super::course::run(&file, latin_options(&args), &args.course()?);
    }
    let out_dir = match (&args.out_dir, &args.output.output) {
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
    let json = args.to == "sudoku" && args.form() == SudokuForm::Json;
    let job = ReduceLatinJob::new(ReduceLatinOptions {
        to: args.to.clone(),
        form: args.form(),
        encoding: args.encoding,
        amo: args.amo,
        threads: args.threads.get(),
        out_dir: out_dir.clone(),
    })?;
    // -o FILE: the instances in a resumable result file (the run's identity: the target, its
    // form, its encoding and the input).
    let output = OutputArgs {
        output: args.output.output.clone().filter(|_| out_dir.is_none()),
        ..args.output.clone()
    };
    runner::plain(
        &job,
        std::slice::from_ref(&file),
        latin_options(&args),
        Some(&output),
        json,
    )
}
