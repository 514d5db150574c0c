//! `sudokit explain PUZZLE [--scheme S] [--json] [--report page.html]`: the propagation of one
//! scheme on one puzzle, step by step (naked and hidden singles, Hall sets, locked candidates,
//! fish, shaving probes), as text, JSON lines or an HTML page of frames.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;
use sudokit::grade::scheme_to_explain_within;
use sudokit::propagate::Scheme;
use sudokit::propagate::explain::{Ending, ExplainError, Order, explain_in_order};
use sudokit::render::explain::explain_page;
use sudokit::render::figures::write_figures;
use sudokit::search::{Limits, StopReason};
use sudokit::text::ReadOptions;

use sudokit::jobs::record_text::json_line;
use sudokit::jobs::target::write_atomically;

use super::args::InputArgs;
use super::stop;
use sudokit::jobs::pick::file_or_puzzle;

/// Arguments of `explain`.
#[derive(Debug, ClapArgs)]
#[command(
    after_help = "Each step names the rule (naked single, hidden single, a Hall set of a \
unit such as a naked or hidden pair, locked candidates, an X-wing or another fish of the colored \
matrix, the rows and boxes of a band, a shaving probe) and the candidates it removes. Without \
--scheme, the first of Simonis' schemes (FC, FCI, BC, ..., in the order of `grade`) that solves \
the puzzle without search is explained; when none does, HACSC3 up to where a search would start.\n\n\
The global --timeout bounds the choice of the scheme and the telling: when it is reached first, \
explain prints `stopped: time limit` (JSON: an ending `stopped`) and exits 1.\n\n\
Exit codes: 0 solved without search, 1 a search would be needed (or the puzzle has no solution, \
or --timeout stopped it), 2 bad input.\n\n\
Examples:\n  \
sudokit explain models/sudoku/9x9/hidden_singles.txt --scheme FCI\n  \
sudokit explain models/sudoku/9x9/xwing.txt --scheme HACC --report xwing.html\n  \
sudokit explain models/sudoku/9x9/simonis_cases.txt --order human\n  \
sudokit explain 12.434.221.34321 --json"
)]
pub struct Args {
    /// A puzzle file (`-` for standard input), or one puzzle line.
    puzzle: String,
    /// Which puzzle of the file (1-based).
    #[arg(long, value_name = "N", default_value_t = 1)]
    index: usize,
    /// The propagation scheme (without it, the first that solves the puzzle; see below).
    #[arg(long, value_name = "SCHEME")]
    scheme: Option<String>,
    /// Which rules the steps come from: the scheme's own, or every rule, easiest first
    /// (`human`: a hidden single before a naked set, even under BC), to the same end.
    #[arg(long, value_name = "ORDER", value_enum, default_value = "scheme")]
    order: Order,
    /// One JSON object per step, then one for the ending.
    #[arg(long)]
    json: bool,
    /// Also write an HTML page to FILE with one frame per step (the candidates, the step's
    /// units and reason highlighted, the removed candidates struck out).
    #[arg(long, value_name = "FILE", alias = "html")]
    report: Option<PathBuf>,
    /// Also write each frame's picture to DIR as its own SVG file (step-1.svg, ..., end.svg;
    /// and a PNG of each when rsvg-convert is installed), to paste into slides.
    #[arg(long, value_name = "DIR")]
    svg_dir: Option<PathBuf>,
    #[command(flatten)]
    input: InputArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Clashing givens are read: their story is the contradiction they are.
    let options = ReadOptions {
        reject_clashes: false,
        ..args.input.read_options()
    };
    let (puzzle, source) =
        file_or_puzzle(&args.puzzle, options, args.index, &stop::control().stop)?;
    // `--timeout` and the signals: the time left before the deadline, and the stop token.
    let limits = stop::control().limits(&Limits::none());
    let shape = puzzle.shape();
    let chosen = match &args.scheme {
        Some(name) => Ok((name.parse::<Scheme>()?, "as asked")),
        None => scheme_to_explain_within(&puzzle, &limits),
    };
    // Every step is replayed from its rule's definition before anything is shown.
    let told = chosen
        .map_err(ExplainError::Stopped)
        .and_then(|(scheme, why)| {
            let story = explain_in_order(&puzzle, scheme, args.order, &limits)?;
            Ok((scheme, why, story))
        });
    let (scheme, why, story) = match told {
        Ok(told) => told,
        Err(ExplainError::Stopped(reason)) => return stopped(&args, &source, reason),
        Err(e) => return Err(e.into()),
    };
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
    if let Err(e) = written
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        return Err(e.into());
    }
    if args.report.is_some() || args.svg_dir.is_some() {
        let html = explain_page(&story, &format!("{scheme} on {source}"));
        if let Some(page) = &args.report {
            write_atomically(page, html.as_bytes())?;
            super::note!("sudokit: explanation written to {}", page.display());
        }
        if let Some(dir) = &args.svg_dir {
            let written = write_figures(dir, &html)?;
            super::note!("sudokit: {}", written.describe(dir));
        }
    }
    Ok(ExitCode::from(match story.ending {
        Ending::Solved(_) => 0,
        _ => 1,
    }))
}

/// The output of an explanation that the time limit (or a signal) stopped first: a line that
/// says so (JSON: an ending `stopped`), exit 1.
fn stopped(args: &Args, source: &str, reason: StopReason) -> anyhow::Result<ExitCode> {
    let line = if args.json {
        json_line(&serde_json::json!({"ending": "stopped", "reason": reason.to_string()}))
    } else {
        format!("{source}: stopped: {reason} before the explanation was told\n")
    };
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(line.as_bytes()).and_then(|()| out.flush())
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        return Err(e.into());
    }
    if reason == StopReason::TimeLimit {
        super::note!("sudokit: explain {}", stop::why_stopped());
    }
    Ok(ExitCode::from(1))
}
