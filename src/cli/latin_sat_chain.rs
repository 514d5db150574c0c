//! `sudokit reduce latin FILE --to cnf --solve`: the chain Latin square → Sudoku → CNF → SAT
//! solver → Sudoku → Latin square, printed level by level and optionally drawn as HTML.

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use sudokit::encode::cnf::CnfOptions;
use sudokit::reduce::encodings::SudokuToCnf;
use sudokit::reduce::latin::carries_latin;
use sudokit::reduce::reduction::{GRID_SIZE_NAMES, Reduction, Size, SizeRow};
use sudokit::reduce::sat_chain::{SatChain, SatVerdict, run_latin_sat_chain};
use sudokit::render::report::{ChainReport, Level};
use sudokit::text::{ReadOptions, to_json};

use super::batch::{self, Answer, Kind};
use super::latin_chain::{
    finish_chain, ms, one_line, push_size_lines, size_rows, sizes_json, sizes_table,
};
use super::sink::Sink;
use sudokit::present::millis;

/// What `--to cnf --solve` was asked to do.
pub struct SatChainOptions {
    pub cnf: CnfOptions,
    pub report: Option<PathBuf>,
    pub json: bool,
}

pub fn run(file: &Path, options: ReadOptions, chain: &SatChainOptions) -> anyhow::Result<ExitCode> {
    // Each square's result is written whole and flushed, in input order: an interruption
    // leaves a valid prefix and says how far it got.
    let sink = Sink::stdout("squares")?;
    let mut items = batch::puzzles(file, options)?.enumerate();
    let to_cnf = SudokuToCnf { options: chain.cnf };
    let mut report =
        ChainReport::new("Latin square completion → Sudoku → CNF → SAT solver → back, verified");
    report.notes.push(format!(
        "Each partial Latin square L of order m becomes a Sudoku S of order m² (the highlighted \
         cells carry L), and S becomes a CNF formula ({}). A SAT solver (varisat) solves the \
         formula; its model is checked against every clause, decoded to a grid and checked by the \
         O(n²) verifier against S, then mapped back by L(i,q) = s(i, m·q)/m and checked again as \
         a Latin square. An unsatisfiable formula means S has no solution, so L has no completion.",
        cnf_label(&to_cnf)
    ));
    let work =
        |(i, item): (usize, batch::Item)| -> (Answer, Option<(usize, SatChain, Vec<SizeRow>)>) {
            let index = i + 1;
            let record = match item {
                Ok(record) => record,
                Err(e) => return (Answer::read_error(chain.json, file, &e), None),
            };
            let run = match run_latin_sat_chain(&record.grid, chain.cnf) {
                Ok(run) => run,
                Err(e) => return (Answer::failure(chain.json, file, record.line, &e), None),
            };
            // A square with no completion is the negative answer.
            let kind = match run.verdict {
                SatVerdict::Completed { .. } => Kind::Positive,
                _ => Kind::Negative,
            };
            let sizes = size_rows(&run.latin, &run.sudoku, chain.cnf);
            let answer = Answer::written(kind, record.line, |out| {
                if chain.json {
                    let mut value = json(&run, record.line);
                    value["sizes"] = sizes_json(&sizes);
                    batch::write_json(out, &value)
                } else {
                    let mut text = text(&run, &to_cnf, index, record.line);
                    push_size_lines(&mut text, &sizes[3..]);
                    out.write_all(text.as_bytes())
                }
            });
            (answer, Some((index, run, sizes)))
        };
    let observe = |done: Option<(usize, SatChain, Vec<SizeRow>)>| {
        if let (Some((index, run, sizes)), Some(_)) = (done, &chain.report) {
            let before_level = report.levels.len();
            add_levels(&mut report, &run, &to_cnf, index);
            report
                .tables
                .push(sizes_table(index, &sizes, &notes(&run), before_level));
        }
    };
    let tally = batch::answer_all_observed(1, &mut items, sink, work, observe)?;
    finish_chain(tally, file, chain.report.as_deref(), &report)
}

/// "extended, pairwise AMO".
fn cnf_label(to_cnf: &SudokuToCnf) -> String {
    format!("{}, {} AMO", to_cnf.options.encoding, to_cnf.options.amo)
}

/// "(as predicted)" when the reduction's size formula matches the built target.
fn predicted(measured: Size, predicted: Size) -> String {
    if measured == predicted {
        "as predicted".into()
    } else {
        format!("predicted {predicted:?}: the size formula is WRONG")
    }
}

fn solve_words(run: &SatChain) -> &'static str {
    match run.verdict {
        SatVerdict::Completed { .. } => "satisfiable",
        SatVerdict::NoCompletion => {
            "unsatisfiable, so the Sudoku has no solution and the Latin square no completion"
        }
    }
}

fn text(run: &SatChain, to_cnf: &SudokuToCnf, index: usize, line: usize) -> String {
    let (m, n) = (run.latin.shape().order(), run.sudoku.shape().order());
    let mut s = String::new();
    let _ = writeln!(
        s,
        "square {index} (line {line}): order {m}, {} givens",
        run.latin.filled()
    );
    let _ = writeln!(
        s,
        "  Latin square: {}",
        run.latin_size.describe(&GRID_SIZE_NAMES)
    );
    let _ = writeln!(
        s,
        "  reduce → Sudoku {n}×{n} with {m}×{m} boxes: {} ({}; givens = {n}² − {m}² + {}), {}",
        run.sudoku_size.describe(&GRID_SIZE_NAMES),
        predicted(run.sudoku_size, run.sudoku_predicted),
        run.latin.filled(),
        ms(run.reduce_sudoku_time)
    );
    let _ = writeln!(
        s,
        "  reduce → CNF ({}): {} ({}), {}",
        cnf_label(to_cnf),
        run.cnf_size.describe(&to_cnf.size_names()),
        predicted(run.cnf_size, run.cnf_predicted),
        ms(run.reduce_cnf_time)
    );
    let _ = writeln!(
        s,
        "  solve CNF (varisat): {}, {}",
        solve_words(run),
        ms(run.solve_time)
    );
    if let SatVerdict::Completed {
        true_vars,
        sudoku_solution,
        completion,
    } = &run.verdict
    {
        let _ = writeln!(
            s,
            "  verify CNF model: satisfies all {} clauses ({true_vars} of {} variables true)",
            run.cnf_size.constraints, run.cnf_size.variables
        );
        let _ = writeln!(s, "  back → Sudoku solution: {}", one_line(sudoku_solution));
        let _ = writeln!(
            s,
            "  verify Sudoku solution: valid ({})",
            ms(run.back_sudoku_time)
        );
        let _ = writeln!(
            s,
            "  back → Latin square: completion {}",
            one_line(completion)
        );
        let _ = writeln!(
            s,
            "  verify completion: valid ({})",
            ms(run.back_latin_time)
        );
    }
    s
}

fn size_json(size: Size) -> serde_json::Value {
    serde_json::to_value(size).unwrap_or_default()
}

fn json(run: &SatChain, line: usize) -> serde_json::Value {
    let (status, sudoku_solution, completion) = match &run.verdict {
        SatVerdict::Completed {
            sudoku_solution,
            completion,
            ..
        } => (
            "completed",
            Some(to_json(sudoku_solution)),
            Some(to_json(completion)),
        ),
        SatVerdict::NoCompletion => ("no-completion", None, None),
    };
    serde_json::json!({
        "line": line,
        "status": status,
        "latin_order": run.latin.shape().order(),
        "latin_givens": run.latin.filled(),
        "sudoku": to_json(&run.sudoku),
        "sudoku_givens": run.sudoku.filled(),
        "solver": "varisat",
        "cnf": {
            "encoding": run.cnf.options.encoding.name(),
            "amo": run.cnf.options.amo.name(),
            "size": size_json(run.cnf_size),
            "predicted": size_json(run.cnf_predicted),
        },
        "sudoku_solution": sudoku_solution,
        "completion": completion,
        "verified": status == "completed",
        "reduce_sudoku_ms": millis(run.reduce_sudoku_time),
        "reduce_cnf_ms": millis(run.reduce_cnf_time),
        "solve_ms": millis(run.solve_time),
        "back_sudoku_ms": millis(run.back_sudoku_time),
        "back_latin_ms": millis(run.back_latin_time),
    })
}

/// What the chain did at the Latin, Sudoku and CNF levels (the "in this chain" column).
fn notes(run: &SatChain) -> Vec<String> {
    let solved = matches!(run.verdict, SatVerdict::Completed { .. });
    vec![
        if solved {
            format!(
                "source; completion mapped back, verified: valid ({})",
                ms(run.back_latin_time)
            )
        } else {
            "source; no completion".into()
        },
        if solved {
            format!(
                "reduced in {}; solution decoded, verified: valid ({})",
                ms(run.reduce_sudoku_time),
                ms(run.back_sudoku_time)
            )
        } else {
            format!("reduced in {}; no solution", ms(run.reduce_sudoku_time))
        },
        format!(
            "encoded in {}; varisat: {} in {}{}",
            ms(run.reduce_cnf_time),
            if solved {
                "satisfiable"
            } else {
                "unsatisfiable"
            },
            ms(run.solve_time),
            if solved {
                "; the model satisfies every clause"
            } else {
                ""
            }
        ),
    ]
}

fn add_levels(report: &mut ChainReport, run: &SatChain, to_cnf: &SudokuToCnf, index: usize) {
    let (m, n) = (run.latin.shape().order(), run.sudoku.shape().order());
    let shape = run.sudoku.shape();
    let (sudoku_solution, completion) = match &run.verdict {
        SatVerdict::Completed {
            sudoku_solution,
            completion,
            ..
        } => (Some(sudoku_solution.clone()), Some(completion.clone())),
        SatVerdict::NoCompletion => (None, None),
    };
    let mut latin = Level::new(
        &format!("Square {index}: partial Latin square L"),
        &run.latin,
    )
    .fact("order m", m)
    .fact("givens", run.latin.filled());
    let mut sudoku = Level::new(
        &format!("Square {index}: the Sudoku of L, solved through CNF"),
        &run.sudoku,
    )
    .fact("order n = m²", n)
    .fact("givens = n² − m² + givens(L)", run.sudoku.filled())
    .fact(
        &format!("CNF ({})", cnf_label(to_cnf)),
        run.cnf_size.describe(&to_cnf.size_names()),
    )
    .fact("SAT solver (varisat)", solve_words(run))
    .fact("solve time", ms(run.solve_time));
    sudoku.highlight = (0..shape.cells())
        .filter(|&c| carries_latin(m, shape.row_of(c), shape.col_of(c)))
        .collect();
    if completion.is_some() {
        sudoku = sudoku
            .fact("verify CNF model", "valid: every clause satisfied")
            .fact("verify Sudoku solution", "valid");
        latin = latin.fact("verify completion", "valid");
    }
    sudoku.solution = sudoku_solution;
    latin.solution = completion;
    report.summary.push((
        format!("square {index}"),
        format!(
            "L: order {m}, {} givens → Sudoku: order {n}, {} givens → CNF: {} variables, {} \
             clauses → varisat: {}",
            run.latin.filled(),
            run.sudoku.filled(),
            run.cnf_size.variables,
            run.cnf_size.constraints,
            solve_words(run)
        ),
    ));
    report.levels.push(latin);
    report.levels.push(sudoku);
}
