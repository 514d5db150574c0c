//! `sudokit export FILE --to FORMAT`: one puzzle (or every puzzle, one file each) written in a
//! solver's input format.
//!
//! Output: standard output by default (the file must hold one puzzle, or `--index K` picks
//! one); `-o FILE` writes one file (`--to col` also writes `FILE` with extension `.given`);
//! `-o DIR/` (an existing directory, or a path ending in `/`) writes one file per puzzle named
//! `STEM-K.EXT`, where STEM is the input file's name without extension, K the 1-based position of
//! the puzzle in the input, and EXT `cnf`, `lp`, `mps`, `dlx`, `col` (+ `given`), `hgr`, `dzn`.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::{Args as ClapArgs, ValueEnum};
use sudokit::Grid;
use sudokit::encode::cnf::{Amo, CnfOptions, Encoding};
use sudokit::encode::csp::Csp;
use sudokit::encode::exact_cover::ExactCover;
use sudokit::encode::graph::edge_count;
use sudokit::encode::ilp::Ilp;
use sudokit::format::{col, dimacs, dlx, hgr, lp, minizinc, mps};
use sudokit::text::{PuzzleReader, Record};

use super::batch::{self, Tally};
use super::export_size::{self, MaxSize};
use super::input::InputArgs;
use super::output::AtomicFile;

/// Arguments of `export`.
#[derive(Debug, ClapArgs)]
#[command(after_help = "\
Output: standard output, one puzzle (pick it with --index K if the file has several);
-o FILE: one file (--to col also writes FILE.given); -o DIR/: one file per puzzle, DIR/STEM-K.EXT
(STEM = input name without extension, K = 1-based position of the puzzle in the input).
--stats prints variables, clauses or constraints, literals or non-zeros, and bytes on stderr.

Examples:
  sudokit export models/sudoku/9x9/easy.txt --index 1 --to cnf --encoding minimal > easy1.cnf
  minisat easy1.cnf easy1.out; sudokit decode models/sudoku/9x9/easy.txt --index 1 --from minisat easy1.out
  sudokit export models/sudoku/9x9/easy.txt --to lp -o lp/
  sudokit export puzzle.txt --to cnf --encoding optimized --amo sequential --stats -o puzzle.cnf")]
pub struct Args {
    /// Puzzle file (`-` for standard input).
    file: PathBuf,
    /// Output format.
    #[arg(long, value_enum)]
    to: Target,
    /// CNF encoding: minimal, efficient, extended or optimized (--to cnf only; default extended).
    #[arg(long)]
    encoding: Option<Encoding>,
    /// At-most-one encoding: pairwise, sequential, product or bimander (--to cnf only; default pairwise).
    #[arg(long)]
    amo: Option<Amo>,
    /// Export only the K-th puzzle of the file (1-based).
    #[arg(long, value_name = "K")]
    index: Option<usize>,
    /// Output file, or directory (existing, or ending in `/`) for one file per puzzle.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// Print the size of each export on standard error.
    #[arg(long)]
    stats: bool,
    #[command(flatten)]
    input: InputArgs,
    /// Refuse an export estimated above SIZE (K, M, G, T; `unlimited`): default 1G.
    #[arg(long, value_name = "SIZE", default_value = "1G")]
    max_size: MaxSize,
}

/// `--to` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Target {
    /// DIMACS CNF.
    Cnf,
    /// CPLEX LP (0-1 ILP).
    Lp,
    /// Free MPS (0-1 ILP).
    Mps,
    /// Knuth's exact-cover (dlx1) input.
    Dlx,
    /// DIMACS graph colouring with precolouring (and a .given file).
    Col,
    /// hMETIS hypergraph.
    Hgr,
    /// MiniZinc data for models/sudoku.mzn.
    Dzn,
}

impl Target {
    fn extension(self) -> &'static str {
        match self {
            Target::Cnf => "cnf",
            Target::Lp => "lp",
            Target::Mps => "mps",
            Target::Dlx => "dlx",
            Target::Col => "col",
            Target::Hgr => "hgr",
            Target::Dzn => "dzn",
        }
    }
}

/// Where the exports go.
enum Destination {
    Stdout,
    File(PathBuf),
    Dir(PathBuf),
}

/// A writer that counts the bytes it passes on.
struct Counting<W> {
    inner: W,
    bytes: u64,
}

impl<W: Write> Write for Counting<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Validated options of one export.
#[derive(Debug, Clone, Copy)]
struct Plan {
    to: Target,
    cnf: CnfOptions,
    max_size: MaxSize,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.to != Target::Cnf && (args.encoding.is_some() || args.amo.is_some()) {
        bail!("--encoding and --amo apply to --to cnf only");
    }
    if args.index == Some(0) {
        bail!("--index counts from 1");
    }
    let plan = Plan {
        to: args.to,
        cnf: CnfOptions {
            encoding: args.encoding.unwrap_or_default(),
            amo: args.amo.unwrap_or_default(),
        },
        max_size: args.max_size,
    };
    let destination = match &args.output {
        None => Destination::Stdout,
        Some(p) if p.as_os_str() == "-" => Destination::Stdout,
        Some(p) if p.is_dir() || p.to_string_lossy().ends_with('/') => {
            fs::create_dir_all(p).with_context(|| format!("cannot create {}", p.display()))?;
            Destination::Dir(p.clone())
        }
        Some(p) => Destination::File(p.clone()),
    };
    let reader = batch::puzzles(&args.file, args.input.read_options())?;
    match destination {
        Destination::Dir(dir) => export_all(&args, plan, reader, &dir),
        single => {
            let record = select_one(&args.file, reader, args.index)?;
            check_size(&record, plan)?;
            let (label, stats) = match &single {
                Destination::File(path) => {
                    let mut out = AtomicFile::create(path)?;
                    let stats = export_one(&record.grid, plan, &mut out)?;
                    out.commit()?;
                    if plan.to == Target::Col {
                        write_given_beside(&record.grid, path)?;
                    }
                    (path.display().to_string(), stats)
                }
                _ => {
                    let mut out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
                    let stats = export_one(&record.grid, plan, &mut out)?;
                    out.flush()?;
                    ("stdout".to_string(), stats)
                }
            };
            if args.stats {
                eprintln!("{}: line {}: {stats}", label, record.line);
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The one puzzle a single-output command works on: the `index`-th (1-based), or the only one.
pub(super) fn select_one<R: io::BufRead>(
    file: &Path,
    mut reader: PuzzleReader<R>,
    index: Option<usize>,
) -> anyhow::Result<Record> {
    let item = match index {
        Some(k) => {
            let mut seen = 0;
            loop {
                match reader.next() {
                    None => bail!("{} has {seen} puzzles, not {k}", file.display()),
                    Some(item) => {
                        seen += 1;
                        if seen == k {
                            break item;
                        }
                    }
                }
            }
        }
        None => {
            let Some(first) = reader.next() else {
                bail!("{} has no puzzle", file.display());
            };
            if reader.next().is_some() {
                bail!(
                    "{} has several puzzles: pick one with --index K, or write one file each with -o DIR/",
                    file.display()
                );
            }
            first
        }
    };
    item.map_err(|e| anyhow::anyhow!("{}", batch::located(file, &e)))
}

fn export_all<R: io::BufRead>(
    args: &Args,
    plan: Plan,
    reader: PuzzleReader<R>,
    dir: &Path,
) -> anyhow::Result<ExitCode> {
    let stem = match args.file.as_os_str() {
        s if s == "-" => "stdin".to_string(),
        _ => args
            .file
            .file_stem()
            .map_or("puzzle".into(), |s| s.to_string_lossy().into_owned()),
    };
    let mut tally = Tally::default();
    for (k, item) in (1..).zip(reader) {
        if args.index.is_some_and(|i| i != k) {
            continue;
        }
        tally.total += 1;
        let record = match item {
            Ok(record) => record,
            Err(e) => {
                tally.bad_input += 1;
                eprintln!("error: {}", batch::located(&args.file, &e));
                continue;
            }
        };
        let path = dir.join(format!("{stem}-{k}.{}", plan.to.extension()));
        check_size(&record, plan)?;
        let mut out = AtomicFile::create(&path)?;
        let stats = export_one(&record.grid, plan, &mut out)?;
        out.commit()?;
        if plan.to == Target::Col {
            write_given_beside(&record.grid, &path)?;
        }
        if args.stats {
            eprintln!("{}: line {}: {stats}", path.display(), record.line);
        }
    }
    if let Some(k) = args.index
        && tally.total == 0
    {
        bail!("{} has fewer than {k} puzzles", args.file.display());
    }
    tally.report_bad_input("puzzles");
    Ok(tally.exit_code())
}

fn write_given_beside(grid: &Grid, path: &Path) -> anyhow::Result<()> {
    let given = path.with_extension("given");
    let mut out = AtomicFile::create(&given)?;
    col::write_given(grid, &mut out)?;
    out.commit()
}

/// Refuses (exit 2) an export estimated above `--max-size`, before anything is written.
fn check_size(record: &Record, plan: Plan) -> anyhow::Result<()> {
    let estimate = export_size::estimate(&record.grid, plan.to, plan.cnf);
    let n = record.grid.shape().order();
    let what = match plan.to {
        Target::Cnf => format!(
            "the CNF ({}/{}) of the {n}×{n} puzzle on line {}",
            plan.cnf.encoding, plan.cnf.amo, record.line
        ),
        other => format!(
            "the {} file of the {n}×{n} puzzle on line {}",
            other.extension(),
            record.line
        ),
    };
    export_size::check(estimate, plan.max_size, &what)
}

/// Writes one export and returns its `--stats` text.
fn export_one(grid: &Grid, plan: Plan, out: &mut dyn Write) -> anyhow::Result<String> {
    let mut out = Counting {
        inner: out,
        bytes: 0,
    };
    let shape = grid.shape();
    let n = shape.order();
    let text = match plan.to {
        Target::Cnf => {
            let written = dimacs::write_cnf(grid, plan.cnf, &mut out)?;
            let mut text = format!(
                "cnf {}/{}: {} variables, {} clauses, {} literals",
                plan.cnf.encoding,
                plan.cnf.amo,
                written.size.vars,
                written.size.clauses,
                written.size.literals
            );
            if plan.cnf.encoding == Encoding::Optimized {
                text.push_str(&format!(
                    ", {} open x variables; dropped {} box pairs that repeat a row or column pair",
                    written.encoded.map.x_vars(),
                    written.encoded.dropped_box_pairs,
                ));
                if plan.cnf.amo != Amo::Pairwise {
                    text.push_str(" (only pairwise AMO drops pairs)");
                }
            }
            text
        }
        Target::Lp | Target::Mps => {
            let ilp = Ilp::new(grid);
            if plan.to == Target::Lp {
                lp::write_lp(&ilp, &mut out)?;
            } else {
                mps::write_mps(&ilp, &mut out)?;
            }
            format!(
                "{}: {} variables, {} constraints, {} non-zeros",
                plan.to.extension(),
                ilp.var_count(),
                ilp.row_count(),
                ilp.nonzeros()
            )
        }
        Target::Dlx => {
            let problem = ExactCover::new(grid);
            dlx::write_dlx(&problem, &mut out)?;
            format!(
                "dlx: {} items, {} options",
                problem.item_count(),
                problem.options().count()
            )
        }
        Target::Col => {
            col::write_col(grid, &mut out)?;
            format!(
                "col: {} vertices, {} edges, {} precoloured",
                shape.cells(),
                edge_count(shape),
                grid.filled()
            )
        }
        Target::Hgr => {
            hgr::write_hgr(grid, &mut out)?;
            format!(
                "hgr: {} hyperedges, {} vertices",
                shape.unit_count(),
                shape.cells()
            )
        }
        Target::Dzn => {
            minizinc::write_dzn(&Csp::new(grid), &mut out)?;
            format!(
                "dzn: {} variables, {} alldifferent constraints, {} givens",
                n * n,
                shape.unit_count(),
                grid.filled()
            )
        }
    };
    Ok(format!("{text}, {} bytes", out.bytes))
}
