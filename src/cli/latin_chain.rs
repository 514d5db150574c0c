//! `sudokit reduce latin FILE --solve`: the NP-completeness chain, printed step by step and
//! optionally drawn as an HTML report.

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use sudokit::Grid;
use sudokit::encode::cnf::CnfOptions;
use sudokit::reduce::chain::{ChainVerdict, LatinChain, run_latin_chain};
use sudokit::reduce::encodings::every_target_size;
use sudokit::reduce::latin::{LatinToSudoku, carries_latin};
use sudokit::reduce::reduction::{GRID_SIZE_NAMES, Reduction, SizeRow, grid_size};
use sudokit::render::report::{ChainReport, Level, Table};
use sudokit::solve::{Limits, backend};
use sudokit::text::{ReadOptions, to_text};

use super::batch::{self, Answer, Kind, Tally};
use super::output::write_atomically;
use super::sink::Sink;
use sudokit::present::millis;

/// What `--solve` was asked to do.
pub struct ChainOptions {
    pub backend: String,
    pub count: Option<u64>,
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
    pub report: Option<PathBuf>,
    pub json: bool,
}

pub(super) fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

pub fn run(file: &Path, options: ReadOptions, chain: &ChainOptions) -> anyhow::Result<ExitCode> {
    let solver = backend(&chain.backend)?;
    let limits = Limits {
        time: chain.time,
        nodes: chain.nodes,
        cancel: None,
    };
    // Each square's result is written whole and flushed, in input order: an interruption
    // leaves a valid prefix and says how far it got.
    let sink = Sink::stdout("squares")?;
    let mut items = batch::puzzles(file, options)?.enumerate();
    let mut report = ChainReport::new("Latin square completion → Sudoku → back, verified");
    report.notes.push(format!(
        "Each partial Latin square L of order m becomes a Sudoku of order m² with m×m boxes: the \
         highlighted cells (i, m·q) carry L, every other cell is given by a fixed pattern. The \
         Sudoku is solved by the {} backend, its solution checked by the O(n²) verifier, mapped \
         back by L(i,q) = s(i, m·q)/m, and checked again as a Latin square.",
        solver.name()
    ));
    let work =
        |(i, item): (usize, batch::Item)| -> (Answer, Option<(usize, LatinChain, Vec<SizeRow>)>) {
            let index = i + 1;
            let record = match item {
                Ok(record) => record,
                Err(e) => return (Answer::read_error(chain.json, file, &e), None),
            };
            let result = run_latin_chain(
                &record.grid,
                solver.as_ref(),
                &super::stop::clip(&limits),
                chain.count.unwrap_or(1),
            );
            let run = match result {
                Ok(run) => run,
                Err(e) => return (Answer::failure(chain.json, file, record.line, &e), None),
            };
            // A square with no completion is the negative answer, as an unknown one is.
            let kind = match run.verdict {
                ChainVerdict::Completed { .. } => Kind::Positive,
                _ => Kind::Negative,
            };
            let sizes = size_rows(&run.latin, &run.sudoku, CnfOptions::default());
            let answer = Answer::written(kind, record.line, |out| {
                if chain.json {
                    let mut value = json(&run, record.line);
                    value["sizes"] = sizes_json(&sizes);
                    batch::write_json(out, &value)
                } else {
                    let mut text = text(&run, index, record.line);
                    push_size_lines(&mut text, &sizes[2..]);
                    out.write_all(text.as_bytes())
                }
            });
            (answer, Some((index, run, sizes)))
        };
    let observe = |done: Option<(usize, LatinChain, Vec<SizeRow>)>| {
        let Some((index, run, sizes)) = done else {
            return;
        };
        if chain.report.is_none() {
            return;
        }
        let before_level = report.levels.len();
        add_levels(&mut report, &run, index);
        let verified = match &run.verdict {
            ChainVerdict::Completed { .. } => "valid",
            _ => "none to verify",
        };
        report.tables.push(sizes_table(
            index,
            &sizes,
            &[
                format!("source; completion: {verified}"),
                format!(
                    "reduced in {}; solved by {}: {}",
                    ms(run.reduce_time),
                    run.backend,
                    verdict_words(&run)
                ),
            ],
            before_level,
        ));
    };
    let tally = batch::answer_all_observed(1, &mut items, sink, work, observe)?;
    finish_chain(tally, file, chain.report.as_deref(), &report)
}

/// `  size of LEVEL: …` for each row, appended to a square's text.
pub(super) fn push_size_lines(text: &mut String, rows: &[SizeRow]) {
    for row in rows {
        let _ = writeln!(
            text,
            "  size of {}: {}",
            row.level,
            row.size.describe(&row.names)
        );
    }
}

/// The end of a chain's batch: exit 1 when `--timeout` stopped it (`tally` is `None`), else the
/// HTML report written and the closing line on bad input.
pub(super) fn finish_chain(
    tally: Option<Tally>,
    file: &Path,
    report_path: Option<&Path>,
    report: &ChainReport,
) -> anyhow::Result<ExitCode> {
    let Some(tally) = tally else {
        return Ok(ExitCode::from(1));
    };
    tally.require_some(file)?;
    if let Some(path) = report_path {
        write_atomically(path, report.to_html().as_bytes())?;
        super::note!("sudokit: report written to {}", path.display());
    }
    tally.report_bad_input("squares");
    Ok(tally.exit_code())
}

fn verdict_words(run: &LatinChain) -> String {
    match &run.verdict {
        ChainVerdict::Completed { .. } => "solution found".into(),
        ChainVerdict::NoCompletion => "no solution, so the Latin square has no completion".into(),
        ChainVerdict::Unknown(reason) => format!("unknown ({reason})"),
    }
}

fn text(run: &LatinChain, index: usize, line: usize) -> String {
    let (m, n) = (run.latin.shape().order(), run.sudoku.shape().order());
    let mut s = String::new();
    let _ = writeln!(
        s,
        "square {index} (line {line}): order {m}, {} givens",
        run.latin.filled()
    );
    let _ = writeln!(
        s,
        "  reduce: Sudoku {n}×{n} with {m}×{m} boxes, {} givens = {n}² − {m}² + {}, {}",
        run.sudoku.filled(),
        run.latin.filled(),
        ms(run.reduce_time)
    );
    let _ = writeln!(
        s,
        "  solve ({}): {}, {}",
        run.backend,
        verdict_words(run),
        ms(run.solve_time)
    );
    if let Some(count) = run.sudoku_count {
        let bound = if run.count_hit_limit { "at least " } else { "" };
        let _ = writeln!(
            s,
            "  count: {bound}{count} Sudoku solutions = {bound}{count} completions"
        );
    }
    if let ChainVerdict::Completed {
        sudoku_solution,
        completion,
    } = &run.verdict
    {
        let _ = writeln!(s, "  Sudoku solution: {}", one_line(sudoku_solution));
        let _ = writeln!(s, "  verify Sudoku solution: valid");
        let _ = writeln!(s, "  map back: completion {}", one_line(completion));
        let _ = writeln!(s, "  verify completion: valid ({})", ms(run.check_time));
    }
    s
}

/// A grid on one line: the puzzle line, or the grid block's rows joined by ` / `.
pub(super) fn one_line(grid: &sudokit::Grid) -> String {
    to_text(grid).trim_end().replace('\n', " / ")
}

fn json(run: &LatinChain, line: usize) -> serde_json::Value {
    let (status, sudoku_solution, completion) = match &run.verdict {
        ChainVerdict::Completed {
            sudoku_solution,
            completion,
        } => (
            "completed",
            Some(sudokit::text::to_json(sudoku_solution)),
            Some(sudokit::text::to_json(completion)),
        ),
        ChainVerdict::NoCompletion => ("no-completion", None, None),
        ChainVerdict::Unknown(_) => ("unknown", None, None),
    };
    serde_json::json!({
        "line": line,
        "status": status,
        "latin_order": run.latin.shape().order(),
        "latin_givens": run.latin.filled(),
        "sudoku": sudokit::text::to_json(&run.sudoku),
        "sudoku_givens": run.sudoku.filled(),
        "backend": run.backend,
        "sudoku_solution": sudoku_solution,
        "completion": completion,
        "verified": status == "completed",
        "count": run.sudoku_count,
        "count_hit_limit": run.count_hit_limit,
        "reduce_ms": millis(run.reduce_time),
        "solve_ms": millis(run.solve_time),
        "check_ms": millis(run.check_time),
    })
}

fn add_levels(report: &mut ChainReport, run: &LatinChain, index: usize) {
    let (m, n) = (run.latin.shape().order(), run.sudoku.shape().order());
    let shape = run.sudoku.shape();
    let highlight: Vec<usize> = (0..shape.cells())
        .filter(|&c| carries_latin(m, shape.row_of(c), shape.col_of(c)))
        .collect();
    let (sudoku_solution, completion) = match &run.verdict {
        ChainVerdict::Completed {
            sudoku_solution,
            completion,
        } => (Some(sudoku_solution.clone()), Some(completion.clone())),
        _ => (None, None),
    };
    let mut latin = Level::new(
        &format!("Square {index}: partial Latin square L"),
        &run.latin,
    )
    .fact("order m", m)
    .fact("givens", run.latin.filled())
    .fact("empty cells", m * m - run.latin.filled());
    let mut sudoku = Level::new(&format!("Square {index}: the Sudoku of L"), &run.sudoku)
        .fact("order n = m²", n)
        .fact("givens = n² − m² + givens(L)", run.sudoku.filled())
        .fact("reduction time", ms(run.reduce_time))
        .fact(&format!("solve ({})", run.backend), verdict_words(run))
        .fact("solve time", ms(run.solve_time));
    sudoku.highlight = highlight;
    if let Some(count) = run.sudoku_count {
        sudoku = sudoku.fact("solutions counted", count);
    }
    if sudoku_solution.is_some() {
        sudoku = sudoku.fact("verify Sudoku solution", "valid");
        latin = latin.fact("verify completion", "valid");
    }
    sudoku.solution = sudoku_solution;
    latin.solution = completion;
    report.summary.push((
        format!("square {index}"),
        format!(
            "L: order {m}, {} givens → Sudoku: order {n}, {} givens → {}",
            run.latin.filled(),
            run.sudoku.filled(),
            verdict_words(run)
        ),
    ));
    report.levels.push(latin);
    report.levels.push(sudoku);
}

/// The size rows of one square: the Latin square, its Sudoku, and every target of the Sudoku
/// (CNF with `cnf`, 0-1 ILP, exact cover, precolouring), as predicted by the reductions.
pub(super) fn size_rows(latin: &Grid, sudoku: &Grid, cnf: CnfOptions) -> Vec<SizeRow> {
    let mut rows = vec![
        SizeRow {
            level: "partial Latin square".into(),
            names: GRID_SIZE_NAMES,
            size: grid_size(latin),
        },
        SizeRow {
            level: LatinToSudoku.name(),
            names: GRID_SIZE_NAMES,
            size: LatinToSudoku
                .target_size(latin)
                .unwrap_or_else(|_| grid_size(sudoku)),
        },
    ];
    // The Sudoku was built, so its targets exist; a failure here would be a bug worth showing.
    match every_target_size(sudoku, cnf) {
        Ok(targets) => rows.extend(targets),
        Err(e) => super::note!("sudokit: sizes of the targets: {e}"),
    }
    rows
}

/// The sizes table of one square: one row per level, with what the chain did there (`notes`,
/// one per row from the top; the remaining rows are the targets `reduce latin --to` writes).
pub(super) fn sizes_table(
    index: usize,
    rows: &[SizeRow],
    notes: &[String],
    before_level: usize,
) -> Table {
    let written = ["--to cnf", "--to ilp", "--to exact-cover", "--to colouring"];
    Table {
        title: format!("Square {index}: instance sizes at every level"),
        header: [
            "level",
            "variables",
            "constraints",
            "entries",
            "fixed",
            "in this chain",
        ]
        .map(String::from)
        .to_vec(),
        rows: rows
            .iter()
            .enumerate()
            .map(|(i, row)| {
                let mut cells = vec![row.level.clone()];
                cells.extend(
                    row.size
                        .numbers()
                        .iter()
                        .zip(row.names)
                        .map(|(k, name)| format!("{k} {name}")),
                );
                cells.push(notes.get(i).cloned().unwrap_or_else(|| {
                    format!(
                        "size predicted from the Sudoku; written by {}",
                        written
                            .get(i.saturating_sub(2))
                            .unwrap_or(&"reduce latin --to")
                    )
                }));
                cells
            })
            .collect(),
        before_level,
    }
}

/// The size rows as JSON objects.
pub(super) fn sizes_json(rows: &[SizeRow]) -> serde_json::Value {
    rows.iter()
        .map(|row| {
            let mut value = serde_json::json!({ "level": row.level });
            for (name, k) in ["variables", "constraints", "entries", "fixed"]
                .iter()
                .zip(row.size.numbers())
            {
                value[*name] = k.into();
            }
            value["names"] = row.names.to_vec().into();
            value
        })
        .collect()
}
