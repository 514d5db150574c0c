//! `sudokit crosscheck FILE`: every backend (and, with `--external`, the external solvers) on
//! every puzzle, every solution verified, the answers compared; see [`sudokit::crosscheck`].

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::bail;
use clap::Args as ClapArgs;
use sudokit::crosscheck::fault::{Fault, Faulty};
use sudokit::crosscheck::{self, Participant, PuzzleCheck, Run, Verdict};
use sudokit::grid::Grid;
use sudokit::present::crosscheck::{Counts, puzzle_json, puzzle_text, summary_json, summary_text};
use sudokit::present::{json_line, read_error_line};
use sudokit::solve::{self, Limits, StopReason, Verified, registry};
use sudokit::text;

use super::batch::{self, Item};
use super::input::InputArgs;
use super::sink::Sink;
use super::solving::{SolverArgs, ordered_batch};
use super::stop;

/// Arguments of `crosscheck`.
#[derive(Debug, ClapArgs)]
#[command(after_help = "\
Runs every backend on every puzzle (count up to --limit, 2 = uniqueness), verifies every solution
with the certificate verifier, and compares the answers as claims on the number of solutions: a
complete count k claims exactly k, a count that reached the limit claims at least the limit, a
run stopped by a budget claims at least what it found (unknown). The claims must share a value.
Prints one row per puzzle, the puzzle and every answer when they disagree, and a summary table
per backend (agreed, disagreed, unknown, skipped, mean time).

Default backends: every exact backend compiled in (the heuristic grasp only when named, since it
cannot settle a count). --external adds every solver of the solver table found here (`sudokit
solvers` lists them: SAT solvers on the CNF, clasp on OPB, clingo on ASP, z3 and cvc5 on SMT-LIB,
glpsol, cbc, lp_solve, HiGHS and SCIP on LP/MPS, miniexact and dlx1 on the exact cover, MiniZinc), each run on the exported puzzle and
run again with the solutions found ruled out to count; --external z3,clasp picks some (put it
after FILE, or write --external=z3,clasp).
--inject-fault BACKEND:grid|unsat adds a deliberately wrong copy of a backend, to see the checks
catch it.

Exit codes: 0 all answers agree, 1 some disagreement (or --timeout stopped the batch), 2 bad
input.

Examples:
  sudokit crosscheck models/sudoku/9x9/hard.txt --backends native,dlx,sat,colour
  sudokit crosscheck models/sudoku/4x4/kr_4x4_sample.txt --external --json
  sudokit crosscheck models/sudoku/9x9/hard.txt --backends native --external=z3,clasp,minisat
  sudokit crosscheck models/sudoku/9x9/easy.txt --backends native,norvig --inject-fault native:unsat")]
pub struct Args {
    /// Puzzle file (`-` for standard input).
    file: PathBuf,
    #[command(flatten)]
    input: InputArgs,
    /// Comma-separated backends (default: every exact backend compiled in).
    #[arg(long, value_delimiter = ',')]
    backends: Vec<String>,
    /// Also run the external solvers of the solver table: every one found, or those named
    /// (--external z3,clasp).
    #[arg(long, value_name = "NAMES", num_args = 0..=1, value_delimiter = ',')]
    external: Option<Vec<String>>,
    /// Count solutions up to N (2 decides uniqueness).
    #[arg(long, value_name = "N", default_value_t = 2)]
    limit: u64,
    /// Time budget per backend and puzzle, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    time_limit: f64,
    /// Search-node budget per backend and puzzle.
    #[arg(long, value_name = "N")]
    node_limit: Option<u64>,
    /// Puzzles checked at a time (default: all cores).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Add a deliberately faulty copy of a backend: BACKEND:grid (corrupted solutions) or
    /// BACKEND:unsat (claims no solution). Repeatable.
    #[arg(long, value_name = "BACKEND:FAULT")]
    inject_fault: Vec<String>,
    /// One JSON object per puzzle, then one with the summary.
    #[arg(long)]
    json: bool,
}

/// A puzzle's result, or the line that reports why it could not be read.
enum Row {
    Checked {
        line: usize,
        puzzle: String,
        check: PuzzleCheck,
    },
    Bad {
        line: usize,
        text: String,
    },
    /// Not checked: the `--timeout` deadline had passed when its turn came.
    NotRun,
}

/// [`crosscheck::check`] under `--timeout`: each run's budget is cut to the time left when it
/// starts, and a participant whose turn comes after the deadline is not started (it stands
/// `unknown (time limit)`, as a run stopped by the clock does).
fn check_before_deadline(
    puzzle: &Grid,
    participants: &[Participant],
    limit: u64,
    limits: &Limits,
) -> PuzzleCheck {
    let runs = participants
        .iter()
        .map(|participant| {
            if stop::expired() {
                Run {
                    name: participant.name(),
                    verdict: Verdict::Counted {
                        count: 0,
                        exact: false,
                        stopped: Some(StopReason::TimeLimit),
                        solutions: Vec::new(),
                    },
                    elapsed: Duration::ZERO,
                }
            } else {
                participant.run(puzzle, limit, &stop::clip(limits))
            }
        })
        .collect();
    crosscheck::compare(runs, limit)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.limit == 0 {
        bail!("--limit must be at least 1");
    }
    let settings = SolverArgs {
        backend: String::new(),
        scheme: None,
        time_limit: Some(args.time_limit),
        node_limit: args.node_limit,
        threads: args.threads,
        require_certificate: false,
    };
    let limits = settings.limits()?;
    let threads = settings.threads()?;
    let participants = participants(&args)?;
    let mut items = batch::puzzles(&args.file, args.input.read_options())?;
    let (file, json, limit) = (&args.file, args.json, args.limit);
    let work = |item: Item| -> Row {
        match item {
            Err(e) => Row::Bad {
                line: e.line,
                text: read_error_line(json, &file.display().to_string(), &e),
            },
            // --timeout: nothing starts after the deadline (its answers would all be unknown).
            Ok(_) if stop::expired() => Row::NotRun,
            Ok(record) => Row::Checked {
                line: record.line,
                puzzle: text::to_text(&record.grid),
                // --timeout: every run's budget ends at the deadline.
                check: check_before_deadline(&record.grid, &participants, limit, &limits),
            },
        }
    };
    let mut tallies = crosscheck::tallies(&participants);
    // Each row is written whole and flushed, in input order: an interruption leaves a valid
    // prefix and says how far it got.
    let sink = Sink::stdout("puzzles")?;
    let (mut total, mut bad, mut disagreements, mut undecided) = (0usize, 0usize, 0usize, 0usize);
    // Rows after the first one not run are dropped too, so the output stays a prefix.
    let mut cut = false;
    let finished = ordered_batch(threads, items.by_ref(), work, |row| {
        cut |= matches!(row, Row::NotRun);
        if cut {
            return Ok(());
        }
        total += 1;
        let (text, at) = match row {
            Row::NotRun => unreachable!("cut above"),
            Row::Bad { line, text } => {
                bad += 1;
                (text, line)
            }
            Row::Checked {
                line,
                puzzle,
                check,
            } => {
                for ((tally, run), standing) in
                    tallies.iter_mut().zip(&check.runs).zip(&check.standings)
                {
                    tally.add(run, *standing);
                }
                if !check.agreed() {
                    disagreements += 1;
                } else if !check.decided() {
                    undecided += 1;
                }
                let text = if json {
                    json_line(&puzzle_json(line, &puzzle, &check, limit))
                } else {
                    puzzle_text(&file.display().to_string(), line, &puzzle, &check, limit)
                };
                (text, line)
            }
        };
        sink.write(&text, at)?;
        Ok(())
    })?;
    // The input is exhausted unless --timeout stopped the batch.
    let stopped = cut || !finished || items.next().is_some();
    if total == 0 && !stopped {
        bail!(
            "{}: no puzzles found (the input is empty or holds only blank and # comment lines)",
            file.display()
        );
    }
    let checked = total - bad;
    let counts = Counts {
        checked,
        errors: bad,
        disagreements,
        undecided,
    };
    if json {
        sink.write_extra(&json_line(&summary_json(&tallies, counts)))?;
    } else {
        sink.write_extra(&summary_text(&tallies, counts))?;
    }
    // The summary covers the puzzles checked; a stop is reported below.
    sink.finish(true)?;
    if bad > 0 {
        super::note!(
            "sudokit: {bad} of {total} puzzles gave an error (reported in place, in input order)"
        );
    }
    if disagreements > 0 {
        super::note!(
            "sudokit: {disagreements} of {checked} puzzles have answers that disagree (printed above with the puzzle)"
        );
    }
    if stopped {
        super::note!(
            "sudokit: --timeout {} s reached: stopped after {total} puzzles (the summary covers those)",
            stop::timeout_seconds().unwrap_or_default()
        );
    }
    Ok(ExitCode::from(if bad > 0 {
        2
    } else if disagreements > 0 || stopped {
        1
    } else {
        0
    }))
}

/// The backends, the external tools and the faulty copies, in that order.
fn participants(args: &Args) -> anyhow::Result<Vec<Participant>> {
    let mut participants = Vec::new();
    if args.backends.is_empty() {
        // Every family of the build, in its default form, but the heuristics: a heuristic
        // can never settle a count, so with the default limit of 2 it would spend its whole
        // budget on every unique puzzle looking for a second solution. Name one in
        // `--backends` to include it.
        for entry in registry::ENTRIES.iter().filter(|e| {
            e.is_built() && e.capabilities.complete && e.family != registry::EXTERNAL_FAMILY
        }) {
            participants.push(Participant::backend(entry.family)?);
        }
    } else {
        for name in &args.backends {
            participants.push(Participant::backend(name)?);
        }
    }
    if let Some(names) = &args.external {
        let table = super::solvers::table()?;
        let names: Vec<String> = if names.is_empty() {
            let found: Vec<String> = table
                .found()
                .into_iter()
                .map(|(e, _)| e.name.clone())
                .collect();
            if found.is_empty() {
                eprintln!(
                    "sudokit: --external: no solver of the table is installed (sudokit solvers lists them)"
                );
            }
            found
        } else {
            names.clone()
        };
        for name in names {
            participants.push(Participant::backend(&format!("ext:{name}"))?);
        }
    }
    for spec in &args.inject_fault {
        let Some((name, fault)) = spec.rsplit_once(':') else {
            bail!("--inject-fault takes BACKEND:FAULT (grid or unsat), not {spec}");
        };
        let fault: Fault = fault.parse().map_err(anyhow::Error::msg)?;
        let inner = solve::backend(name)?;
        participants.push(Participant::Backend(Box::new(Verified(Faulty::new(
            inner, fault,
        )))));
    }
    Ok(participants)
}
