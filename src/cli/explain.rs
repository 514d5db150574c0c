//! `sudokit explain PUZZLE [--scheme S] [--json] [--report page.html]`: the propagation of one
//! scheme on one puzzle, step by step (naked and hidden singles, Hall sets, locked candidates,
//! fish, shaving probes), as text, JSON lines or an HTML page of frames.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::Args as ClapArgs;
use sudokit::grade::scheme_to_explain_within;
use sudokit::propagate::Scheme;
use sudokit::propagate::explain::{Ending, ExplainError, explain_within};
use sudokit::render::explain::explain_page;
use sudokit::search::{Limits, StopReason};
use sudokit::text::PuzzleReader;

use sudokit::jobs::record_text::json_line;
use sudokit::jobs::target::write_atomically;

use super::args::InputArgs;
use super::stop;
use sudokit::jobs::pick::nth_puzzle;

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
        let puzzle = nth_puzzle(&path, options, args.index, &stop::control().stop)?;
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
        .and_then(|(scheme, why)| Ok((scheme, why, explain_within(&puzzle, scheme, &limits)?)));
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
