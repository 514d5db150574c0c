//! `sudokit explain PUZZLE [--scheme S] [--json] [--report page.html]`: the propagation of one
//! scheme on one puzzle, step by step (naked and hidden singles, Hall sets, locked candidates,
//! fish, shaving probes), as text, JSON lines or an HTML page of frames.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::Args as ClapArgs;
use sudokit::grade::scheme_to_explain;
use sudokit::propagate::Scheme;
use sudokit::propagate::explain::{Ending, explain};
use sudokit::render::explain::explain_page;
use sudokit::text::PuzzleReader;

use sudokit::jobs::render::json_line;
use sudokit::jobs::target::write_atomically;

use super::args::InputArgs;
use super::pick::nth_puzzle;

/// Arguments of `explain`.
#[derive(Debug, ClapArgs)]
#[command(
    after_help = "Each step names the rule (naked single, hidden single, a Hall set of a \
unit such as a naked or hidden pair, locked candidates, an X-wing or another fish of the colored \
matrix, the rows and boxes of a band, a shaving probe) and the candidates it removes. Without \
--scheme, the first of Simonis' schemes (FC, FCI, BC, ..., in the order of `grade`) that solves \
the puzzle without search is explained; when none does, HACSC3 up to where a search would start.\n\n\
Exit codes: 0 solved without search, 1 a search would be needed (or the puzzle has no solution), \
2 bad input.\n\n\
Examples:\n  \
sudokit explain models/sudoku/9x9/hidden_singles.txt --scheme FCI\n  \
sudokit explain models/sudoku/9x9/xwing.txt --scheme HACC --report xwing.html\n  \
sudokit explain 12.434.221.34321 --json"
)]
pub struct Args {
    /// A puzzle file (`-` for standard input), or one puzzle line.
    puzzle: String,
    /// Which puzzle of the file (1-based).
    #[arg(long, value_name = "N", default_value_t = 1)]
    index: usize,
    /// The propagation scheme (FC, FCI, BC, BCI, HAC, HACS, HACC, HAC3, ..., FCV+, BCV+, HACV+).
    #[arg(long, value_name = "SCHEME")]
    scheme: Option<String>,
    /// One JSON object per step, then one for the ending.
    #[arg(long)]
    json: bool,
    /// Also write an HTML page to FILE with one frame per step (the candidates, the step's
    /// units and reason highlighted, the removed candidates struck out).
    #[arg(long, value_name = "FILE", alias = "html")]
    report: Option<PathBuf>,
    #[command(flatten)]
    input: InputArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.index == 0 {
        bail!("--index counts from 1");
    }
    let options = args.input.read_options();
    let path = PathBuf::from(&args.puzzle);
    let (puzzle, source) = if args.puzzle == "-" || path.exists() {
        let puzzle = nth_puzzle(&path, options, args.index)?;
        (
            puzzle,
            format!("puzzle {} of {}", args.index, path.display()),
        )
    } else {
        let record = PuzzleReader::new(args.puzzle.as_bytes(), options)
            .next()
            .with_context(|| format!("cannot open {}: no such file", args.puzzle))?
            .map_err(|e| {
                anyhow::anyhow!(
                    "cannot open {}: no such file, and not a puzzle ({}:{}: {})",
                    args.puzzle,
                    e.line,
                    e.column,
                    e.kind
                )
            })?;
        (record.grid, "the puzzle given".to_string())
    };
    let (scheme, why) = match &args.scheme {
        Some(name) => (name.parse::<Scheme>()?, "as asked"),
        None => scheme_to_explain(&puzzle),
    };
    // Every step is replayed from its rule's definition before anything is shown.
    let story = explain(&puzzle, scheme)?;
    let shape = puzzle.shape();
    let mut out = std::io::stdout().lock();
    let written = (|| -> std::io::Result<()> {
        if args.json {
            for value in story.json_lines() {
                out.write_all(json_line(&value).as_bytes())?;
            }
        } else {
            writeln!(
                out,
                "{source}: {shape}, {} givens; scheme {scheme} ({why})",
                puzzle.filled()
            )?;
            for line in story.text_lines() {
                writeln!(out, "{line}")?;
            }
        }
        out.flush()
    })();
    if let Err(e) = written {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return Err(e.into());
        }
    }
    if let Some(page) = &args.report {
        let title = format!("{scheme} on {source}");
        write_atomically(page, explain_page(&story, &title).as_bytes())?;
        super::note!("sudokit: explanation written to {}", page.display());
    }
    Ok(ExitCode::from(match story.ending {
        Ending::Solved(_) => 0,
        _ => 1,
    }))
}
