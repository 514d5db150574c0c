//! `sudokit export FILE --to FORMAT`: one puzzle (or every puzzle, one file each) written in a
//! solver's input format.
//!
//! Output: standard output by default (the file must hold one puzzle, or `--index K` picks
//! one); `-o FILE` writes one file (`--to col` also writes `FILE` with extension `.given`);
//! `--out-dir DIR` writes one file per puzzle named `STEM-K.EXT`, where STEM is the input file's
//! name without extension, K the 1-based position of the puzzle in the input (zero-padded:
//! [`sudokit::format::provenance`]), and EXT `cnf`, `lp`, `mps`, `dlx`, `col` (+ `given`),
//! `hgr`, `dzn`. Every file names its source and the exact `decode` command in its comments.

use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args as ClapArgs;
use sudokit::encode::cnf::symbolic_listing;
use sudokit::format::{ExportOptions, find_format};
use sudokit::jobs::Form;
use sudokit::jobs::export::{Destination as To, ExportBatchOptions, ExportJob, OneExport};
use sudokit::jobs::pick::select_one;
use sudokit::jobs::size_cap::MaxSize;
use sudokit::jobs::target::write_atomically;

use super::args::{InputArgs, ThreadsArg};
use super::runner;

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
    /// With --to cnf: the clauses for people, each over the variables x(r,c,v) under the name
    /// of its constraint (for a small puzzle on a slide), instead of DIMACS.
    #[arg(long, conflicts_with = "out_dir")]
    symbolic: bool,
    #[command(flatten)]
    input: InputArgs,
    /// Refuse an export estimated above SIZE (K, M, G, T; `unlimited`): default 1G.
    #[arg(long, value_name = "SIZE", default_value = "1G")]
    max_size: MaxSize,
    #[command(flatten)]
    threads: ThreadsArg,
}

/// Where the exports go.
enum Destination {
    Stdout,
    File(PathBuf),
    Dir(PathBuf),
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let to = find_format(&args.to)?;
    let options = ExportOptions::named(to, args.encoding.as_deref(), args.amo.as_deref())
        .map_err(anyhow::Error::msg)?;
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
        Destination::Dir(dir) => export_all(&args, &dir),
        single => {
            let puzzle = select_one(
                &args.file,
                args.input.read_options(),
                args.index,
                "pick one with --index N, or write one file each with --out-dir DIR",
                &super::stop::control().stop,
            )?;
            if args.symbolic {
                if to.name != "cnf" {
                    anyhow::bail!("--symbolic lists a CNF: use it with --to cnf");
                }
                let text = symbolic_listing(&puzzle.grid, options.cnf);
                match &single {
                    Destination::File(path) => write_atomically(path, text.as_bytes())?,
                    _ => io::Write::write_all(&mut io::stdout().lock(), text.as_bytes())?,
                }
                return Ok(ExitCode::SUCCESS);
            }
            let one = OneExport {
                file: &args.file.display().to_string(),
                index: args.index.unwrap_or(1),
                to,
                options: &options,
                cap: args.max_size,
            };
            let (label, stats) = match &single {
                Destination::File(path) => (
                    path.display().to_string(),
                    one.write(&puzzle, To::File(path))?,
                ),
                _ => {
                    let mut out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
                    let stats = one.write(&puzzle, To::Stream(&mut out))?;
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

/// Every puzzle (or the one of `--index`), one file each: the library's export job.
fn export_all(args: &Args, dir: &Path) -> anyhow::Result<ExitCode> {
    let job = ExportJob::new(ExportBatchOptions {
        to: args.to.clone(),
        encoding: args.encoding.clone(),
        amo: args.amo.clone(),
        out_dir: dir.to_path_buf(),
        index: args.index,
        stats: args.stats,
        max_size: args.max_size,
        threads: args.threads.get(),
    })?;
    runner::command(
        &job,
        std::slice::from_ref(&args.file),
        args.input.read_options(),
        None,
        Form::default(),
        None,
        |_| {},
    )
}
