//! `sudokit reduce latin FILE --solve [--levels ...]`: each square through every chosen level of
//! the chain (the library's `reduce::course`), printed level by level, as JSON lines, and drawn as
//! the course page (`render::course`) with `--report`.

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use sudokit::jobs::PuzzleItem;
use sudokit::reduce::course::{
    Answer, Course, CourseOptions, Evidence, Level, LevelRun, Verdict, run_course,
};
use sudokit::render::course::{CoursePage, evidence_words};
use sudokit::text::{ReadOptions, to_json, to_text};

use super::stop::puzzles;
use sudokit::jobs::render::{json_line, millis};
use sudokit::jobs::target::AtomicFile;
use sudokit::jobs::{ItemError, ItemResult, Status};

use super::runner as driver;
use super::squares::{SquareJob, Written};

/// What `--solve` was asked to do.
pub struct Run {
    pub options: CourseOptions,
    pub report: Option<PathBuf>,
    pub json: bool,
    pub threads: usize,
}

pub fn run(file: &Path, read: ReadOptions, run: &Run) -> anyhow::Result<ExitCode> {
    // Each square's result is written whole, in input order: an interruption leaves a valid
    // prefix and says how far it got.
    let items = puzzles(file, read)?;
    // The --report file is opened before any work, so an unwritable path is an error at once.
    let mut report_file = run.report.as_deref().map(AtomicFile::create).transpose()?;
    let sink = driver::stdout("squares");
    let mut page = CoursePage::new("Latin square completion through every formalism");
    let job = SquareJob {
        name: "reduce latin --solve",
        identity: serde_json::Value::Null,
        threads: run.threads,
        work: |item: PuzzleItem, control: &sudokit::jobs::Control| {
            let index = item.index + 1;
            let record = match item.record() {
                Ok(record) => record,
                Err(e) => return ItemResult::Failed(e),
            };
            let mut options = run.options.clone();
            options.limits = control.limits(&options.limits);
            let course = match run_course(&record.grid, &options, &format!("square{index}")) {
                Ok(course) => course,
                Err(e) => return ItemResult::Failed(ItemError::failed(&item.file, record.line, e)),
            };
            // A square with no completion is the negative answer; an undecided one, unknown.
            let status = match course.verdict {
                Verdict::Completed(_) => Status::Done,
                Verdict::NoCompletion => Status::Negative,
                Verdict::Unknown => Status::Unknown,
            };
            let text = if run.json {
                json_line(&json(&course, record.line))
            } else {
                text(&course, index, record.line)
            };
            ItemResult::Done(Written {
                status,
                text,
                extra: Some((index, record.line, course)),
            })
        },
    };
    let ran = driver::drive(&job, items, &sink, None, run.json, false, |result| {
        if let (ItemResult::Done(done), Some(_)) = (result, &run.report)
            && let Some((index, line, course)) = done.extra
        {
            page.push(index, line, course);
        }
    })?;
    let complete = ran.complete;
    let code = driver::finish(sink, ran, "squares")?;
    if !complete {
        return Ok(code);
    }
    if let (Some(mut report), Some(path)) = (report_file.take(), &run.report) {
        report.write_all(page.to_html().as_bytes())?;
        report.commit()?;
        super::note!("sudokit: report written to {}", path.display());
    }
    Ok(code)
}

/// A grid as its puzzle line (the grid block's rows joined by " / " above order 35).
fn one_line(grid: &sudokit::Grid) -> String {
    to_text(grid).trim_end().replace('\n', " / ")
}

fn ms(d: std::time::Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

/// One square, level by level.
fn text(course: &Course, index: usize, line: usize) -> String {
    let (m, n) = (course.latin.shape().order(), course.sudoku.shape().order());
    let mut s = String::new();
    let _ = writeln!(
        s,
        "square {index} (line {line}): order {m}, {} givens; Sudoku {n}×{n} with {m}×{m} boxes, \
         {} givens = {n}² − {m}² + {}",
        course.latin.filled(),
        course.sudoku.filled(),
        course.latin.filled()
    );
    for run in &course.levels {
        let _ = writeln!(s, "  {}", level_line(run));
    }
    if let Some((count, stopped)) = course.count {
        let bound = if stopped { "at least " } else { "" };
        let _ = writeln!(
            s,
            "  count: {bound}{count} Sudoku solutions = {bound}{count} completions"
        );
    }
    let _ = match &course.verdict {
        Verdict::Completed(completion) => {
            if let Some(solution) = course.levels.iter().find_map(|l| match &l.answer {
                Answer::Completed {
                    sudoku_solution: Some(grid),
                    ..
                } => Some(grid),
                _ => None,
            }) && n <= 25
            {
                let _ = writeln!(s, "  Sudoku solution: {}", one_line(solution));
            }
            writeln!(
                s,
                "  every level: completion {} (verified)",
                one_line(completion)
            )
        }
        Verdict::NoCompletion => writeln!(s, "  every level: no completion"),
        Verdict::Unknown => writeln!(s, "  undecided (limits)"),
    };
    if let Some(conflict) = &course.conflict {
        let _ = writeln!(
            s,
            "  a minimal conflict: {} alone have no completion; without any one of them the \
             rest completes",
            conflict.describe()
        );
    }
    s
}

/// "CNF (extended, pairwise AMO): 729 variables, … (as predicted); varisat: …; mapped back: …".
fn level_line(run: &LevelRun) -> String {
    let mut s = format!("{}: ", run.instance);
    if let Answer::Skipped(why) = &run.answer {
        let _ = write!(s, "not run ({why})");
        return s;
    }
    s.push_str(&run.size.describe(&run.names));
    match run.predicted {
        Some(p) if p == run.size => s.push_str(" (as predicted)"),
        Some(p) => {
            let _ = write!(
                s,
                " (predicted {}: the formula is WRONG)",
                p.describe(&run.names)
            );
        }
        None => {}
    }
    let _ = write!(s, "; {}: ", run.solver);
    match &run.answer {
        Answer::Completed {
            witness,
            completion,
            sudoku_solution,
        } => {
            let via = match (run.level, sudoku_solution) {
                (Level::Sudoku, _) | (_, None) => "",
                _ => "to a Sudoku solution (verified), then ",
            };
            let _ = if run.level == Level::Latin {
                write!(s, "the completion {} (verified)", one_line(completion))
            } else {
                write!(
                    s,
                    "{witness}; map back {via}to the completion {} (verified)",
                    one_line(completion)
                )
            };
        }
        Answer::NoCompletion(evidence) => {
            let _ = write!(
                s,
                "no solution, so no completion: {}",
                evidence_words(evidence)
            );
        }
        Answer::Unknown(reason) => {
            let _ = write!(s, "unknown ({reason})");
        }
        Answer::Skipped(_) => {}
    }
    let build = if run.level == Level::Latin {
        String::new()
    } else {
        format!("{} build, ", ms(run.reduce_time))
    };
    let _ = write!(
        s,
        " ({build}{} solve, {} check)",
        ms(run.solve_time),
        ms(run.check_time)
    );
    s
}

fn level_json(run: &LevelRun) -> serde_json::Value {
    let (answer, completion, evidence) = match &run.answer {
        Answer::Completed { completion, .. } => ("completed", Some(to_json(completion)), None),
        Answer::NoCompletion(evidence) => ("no-completion", None, Some(evidence_json(evidence))),
        Answer::Unknown(_) => ("unknown", None, None),
        Answer::Skipped(_) => ("skipped", None, None),
    };
    let mut value = serde_json::json!({
        "level": run.level.name(),
        "instance": run.instance,
        "solver": run.solver,
        "answer": answer,
        "names": run.names.to_vec(),
        "size": run.size,
        "predicted": run.predicted,
        "completion": completion,
        "evidence": evidence,
        "build_ms": millis(run.reduce_time),
        "solve_ms": millis(run.solve_time),
        "check_ms": millis(run.check_time),
        "nodes": run.stats.nodes,
    });
    match &run.answer {
        Answer::Completed { witness, .. } => value["witness"] = witness.as_str().into(),
        Answer::Unknown(reason) => value["reason"] = reason.to_string().into(),
        Answer::Skipped(why) => value["reason"] = why.as_str().into(),
        Answer::NoCompletion(_) => {}
    }
    value
}

fn evidence_json(evidence: &Evidence) -> serde_json::Value {
    match evidence {
        Evidence::Proof {
            lrat_steps,
            lrat_bytes,
            drat_lemmas,
            lrat,
            time,
        } => serde_json::json!({
            "kind": "proof",
            "checked": true,
            "lrat_steps": lrat_steps,
            "lrat_bytes": lrat_bytes,
            "drat_lemmas": drat_lemmas,
            "lrat": lrat.as_ref().map(|p| p.display().to_string()),
            "ms": millis(*time),
        }),
        Evidence::Search { what, nodes } => {
            serde_json::json!({"kind": "search", "what": what, "nodes": nodes})
        }
        Evidence::Presolve => serde_json::json!({"kind": "presolve"}),
        Evidence::Missing => serde_json::json!({"kind": "missing"}),
    }
}

fn json(course: &Course, line: usize) -> serde_json::Value {
    let (status, completion) = match &course.verdict {
        Verdict::Completed(grid) => ("completed", Some(to_json(grid))),
        Verdict::NoCompletion => ("no-completion", None),
        Verdict::Unknown => ("unknown", None),
    };
    let sudoku_solution = course.levels.iter().find_map(|l| match &l.answer {
        Answer::Completed {
            sudoku_solution: Some(s),
            ..
        } => Some(to_json(s)),
        _ => None,
    });
    serde_json::json!({
        "line": line,
        "status": status,
        "latin_order": course.latin.shape().order(),
        "latin_givens": course.latin.filled(),
        "sudoku": to_json(&course.sudoku),
        "sudoku_givens": course.sudoku.filled(),
        "backend": course.level(sudokit::reduce::course::Level::Sudoku)
            .or(course.level(sudokit::reduce::course::Level::Latin))
            .map(|l| l.solver.clone()),
        "completion": completion,
        "sudoku_solution": sudoku_solution,
        "verified": status == "completed",
        "count": course.count.map(|c| c.0),
        "count_hit_limit": course.count.map(|c| c.1),
        "reduce_ms": millis(course.reduce_time),
        "levels": course.levels.iter().map(level_json).collect::<Vec<_>>(),
        "conflict": course.conflict.as_ref().map(|c| {
            let shape = c.givens.shape();
            c.givens
                .givens()
                .map(|(cell, v)| [shape.row_of(cell) + 1, shape.col_of(cell) + 1, v + 1])
                .collect::<Vec<_>>()
        }),
    })
}
