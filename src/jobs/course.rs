//! `reduce latin --solve` as a job ([`CourseJob`]): one square through every level of the chain
//! ([`crate::reduce::course`]), its record the text a reader follows level by level or one
//! JSON object. The command line and Python print these; the course page draws the same course
//! ([`crate::render::course`]) from the records.

use std::fmt::Write as _;
use std::path::PathBuf;

use crate::reduce::course::{
    Course, CourseVerdict, Evidence, Level, LevelAnswer, LevelRun, count_sentence,
};
use crate::reduce::distinct_completions::DistinctCompletions;
use crate::reduce::formulas::{SizeFormulas, size_formulas};
use crate::render::course::evidence_words;
use crate::text::{to_json, to_text};

use super::control::Control;
use super::item::{InputError, PuzzleItem};
use super::job::Job;
use super::lists::level_names;
use super::options::{self, Opt, OptionError, said};
use super::record::{ItemError, ItemResult, JobRecord, Status};
use super::record_text::millis;
use super::source::{Items, Source, puzzles_of};
use super::summary::NoSummary;
use crate::encode::cnf::{Amo, CnfOptions, Encoding};
use crate::format::find_format;
use crate::reduce::course::{CourseOptions, run_course};

/// The `reduce latin --solve` job: each square's course under `options`, on `threads` threads.
#[derive(Debug, Clone)]
pub struct CourseJob {
    /// The chain's options.
    pub options: CourseOptions,
    /// Worker threads.
    pub threads: usize,
}

/// What `reduce latin --solve` is asked, as the command line gives it: checked into the
/// chain's options by [`CourseChoice::options`].
#[derive(Debug, Clone, PartialEq)]
pub struct CourseChoice {
    /// The levels, comma-separated (`all` for every one); none: every level, or the one of
    /// `target`.
    pub levels: Option<String>,
    /// The export format the levels were chosen by (`--to`; none for the Sudoku itself).
    pub target: Option<String>,
    /// The backend of the Latin and Sudoku levels (default: the registry's default).
    pub backend: Option<String>,
    /// The MIP backend of the ILP level.
    pub mip: String,
    /// The CNF encoding and at-most-one encoding, when chosen.
    pub encoding: Option<Encoding>,
    /// The at-most-one encoding, when chosen.
    pub amo: Option<Amo>,
    /// Count the Sudoku's solutions up to this limit.
    pub limit: Option<u64>,
    /// Seconds allowed to each solver run of each square.
    pub time_limit: Option<f64>,
    /// Search nodes allowed to each solver run of each square.
    pub node_limit: Option<u64>,
    /// Where to keep the CNF level's refutations.
    pub proof_dir: Option<PathBuf>,
}

impl Default for CourseChoice {
    /// Every level, the default backends, no limit.
    fn default() -> CourseChoice {
        CourseChoice {
            levels: None,
            target: None,
            backend: None,
            mip: CourseOptions::default().mip,
            encoding: None,
            amo: None,
            limit: None,
            time_limit: None,
            node_limit: None,
            proof_dir: None,
        }
    }
}

impl CourseChoice {
    /// The chain's options, checked: levels that exist, and options that apply to a chosen
    /// level (a message names the flag that does not).
    ///
    /// # Errors
    /// Levels chosen twice or not at all, an unknown level, backend or MIP backend, an option
    /// of a level that is not chosen, a limit that is not positive.
    pub fn options(&self) -> Result<CourseOptions, OptionError> {
        let limits = options::limits(self.time_limit, self.node_limit)?;
        options::at_least_one("limit", self.limit)?;
        let target = self
            .target
            .as_deref()
            .map(find_format)
            .transpose()
            .map_err(|e| OptionError::Invalid {
                option: "to",
                message: e.to_string(),
            })?;
        let levels = match (&self.levels, target) {
            (Some(_), Some(_)) => {
                return Err(OptionError::Conflict(said!(
                    "choose the levels with ",
                    Opt("levels"),
                    " or with ",
                    Opt("to"),
                    ", not both"
                )));
            }
            (Some(list), _) => Level::parse_list(list).map_err(|e| OptionError::Invalid {
                option: "levels",
                message: e.to_string(),
            })?,
            (None, None) => Level::ALL.to_vec(),
            (None, Some(format)) => vec![format.name.parse::<Level>().map_err(|_| {
                OptionError::Conflict(said!(
                    Opt("solve"),
                    format!(" has no {} level (levels: {})", format.name, level_names())
                ))
            })?],
        };
        if levels.is_empty() {
            return Err(OptionError::Conflict(said!(
                Opt("levels"),
                " names no level"
            )));
        }
        let grid_levels = levels.contains(&Level::Latin) || levels.contains(&Level::Sudoku);
        if self.backend.is_some() && !grid_levels {
            return Err(OptionError::Conflict(said!(
                Opt("backend"),
                " solves the latin and sudoku levels, and neither is chosen"
            )));
        }
        if self.limit.is_some() && !levels.contains(&Level::Sudoku) {
            return Err(OptionError::Conflict(said!(
                Opt("limit"),
                " counts at the sudoku level, which is not chosen"
            )));
        }
        if (self.encoding.is_some() || self.amo.is_some()) && !levels.contains(&Level::Cnf) {
            return Err(OptionError::Conflict(said!(
                Opt("encoding"),
                " and ",
                Opt("amo"),
                " apply to the cnf level, which is not chosen"
            )));
        }
        // The registry says which backends find a 0-1 point of the ILP.
        crate::solve::registry::point_solver(&self.mip).map_err(|e| OptionError::Invalid {
            option: "mip",
            message: e.to_string(),
        })?;
        let backend = self
            .backend
            .clone()
            .unwrap_or_else(|| crate::solve::DEFAULT_BACKEND.to_string());
        crate::solve::backend(&backend)?;
        Ok(CourseOptions {
            levels,
            backend,
            cnf: CnfOptions {
                encoding: self.encoding.unwrap_or_default(),
                amo: self.amo.unwrap_or_default(),
            },
            mip: self.mip.clone(),
            limits,
            count: self.limit,
            proof_dir: self.proof_dir.clone(),
            ..CourseOptions::default()
        })
    }
}

/// One square's course.
#[derive(Debug, Clone)]
pub struct CourseRecord {
    /// The square's position in its input (1-based).
    pub index: usize,
    /// Its input line.
    pub line: usize,
    /// Its course.
    pub course: Course,
}

impl JobRecord for CourseRecord {
    /// Completed (done), no completion (negative), undecided (unknown).
    fn status(&self) -> Status {
        course_status(&self.course)
    }

    fn text(&self) -> String {
        course_text(&self.course, self.index, self.line)
    }

    fn json(&self) -> serde_json::Value {
        course_json(&self.course, self.line)
    }
}

impl Job for CourseJob {
    type Item = PuzzleItem;
    type Record = CourseRecord;
    type Summary = NoSummary;

    fn name(&self) -> &'static str {
        "reduce latin --solve"
    }

    fn identity(&self) -> serde_json::Value {
        serde_json::Value::Null
    }

    fn workers(&self) -> usize {
        self.threads
    }

    fn summary(&self) -> NoSummary {
        NoSummary
    }

    fn items(&self, sources: Vec<Source>) -> Result<Items<PuzzleItem>, InputError> {
        puzzles_of(sources)
    }

    fn run(&self, item: PuzzleItem, control: &Control) -> ItemResult<CourseRecord> {
        let index = item.index + 1;
        let puzzle = match item.read_puzzle() {
            Ok(puzzle) => puzzle,
            Err(e) => return ItemResult::Failed(e),
        };
        let mut options = self.options.clone();
        options.limits = control.limits(&options.limits);
        match run_course(&puzzle.grid, &options, &format!("square{index}")) {
            Ok(course) => ItemResult::Done(CourseRecord {
                index,
                line: puzzle.line,
                course,
            }),
            Err(e) => ItemResult::Failed(ItemError::failed(&item.file, puzzle.line, e)),
        }
    }
}

/// The status of a square's course: completed (done), no completion (the negative answer), or
/// undecided (unknown).
pub fn course_status(course: &Course) -> Status {
    match course.verdict {
        CourseVerdict::Completed(_) => Status::Done,
        CourseVerdict::NoCompletion => Status::Negative,
        CourseVerdict::Unknown => Status::Unknown,
    }
}

/// A grid as its puzzle line (the grid block's rows joined by " / " above order 35).
fn one_line(grid: &crate::Grid) -> String {
    to_text(grid).trim_end().replace('\n', " / ")
}

fn ms(d: std::time::Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

/// One square, level by level: each size with its formula, each answer with the completion it
/// maps back to (the same as the first, or another), the completions found and counted.
pub fn course_text(course: &Course, index: usize, line: usize) -> String {
    let (m, n) = (course.latin.shape().order(), course.sudoku.shape().order());
    let distinct = course.distinct_completions();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "square {index} (line {line}): order {m}, {} givens; Sudoku {n}×{n} with {m}×{m} boxes, \
         {} givens = {n}² − {m}² + {}",
        course.latin.filled(),
        course.sudoku.filled(),
        course.latin.filled()
    );
    let mut letters = None;
    for (i, run) in course.levels.iter().enumerate() {
        let formulas = size_formulas(run.level, &course.latin, course.cnf);
        if letters.is_none() && run.level != Level::Latin {
            letters = formulas
                .as_ref()
                .map(|f| f.letters.split("; ").next().unwrap_or("").to_string());
        }
        let _ = writeln!(
            s,
            "  {}",
            level_line(run, formulas.as_ref(), distinct.relation(i))
        );
    }
    if let Some(letters) = letters {
        let _ = writeln!(
            s,
            "  where m = {m}, g = {}, {letters}",
            course.latin.filled()
        );
    }
    match &course.verdict {
        CourseVerdict::Completed(_) if distinct.one_completion() => {
            let _ = writeln!(
                s,
                "  every level: the same completion {} (verified at every level)",
                one_line(&distinct.completions[0])
            );
        }
        CourseVerdict::Completed(_) => {
            let found: Vec<String> = distinct
                .completions
                .iter()
                .enumerate()
                .map(|(k, completion)| {
                    let levels: Vec<&str> = distinct
                        .found
                        .iter()
                        .filter(|(_, f)| *f == Some(k))
                        .map(|(level, _)| level.name())
                        .collect();
                    format!("{} ({})", one_line(completion), levels.join(", "))
                })
                .collect();
            let _ = writeln!(
                s,
                "  the levels found {} different completions, each verified: {}",
                distinct.completions.len(),
                found.join("; ")
            );
        }
        CourseVerdict::NoCompletion => {
            let _ = writeln!(s, "  every level: no completion");
        }
        CourseVerdict::Unknown => {
            let _ = writeln!(s, "  undecided (limits)");
        }
    }
    if let Some(sentence) = count_sentence(course.completions, course.count) {
        let _ = writeln!(s, "  count: {sentence}");
    }
    if let Some((_, solution)) = course.shown().filter(|_| n <= 25) {
        let _ = writeln!(
            s,
            "  the Sudoku solution of the {}completion: {}",
            if distinct.one_completion() {
                ""
            } else {
                "first "
            },
            one_line(&solution)
        );
    }
    if let Some(conflict) = &course.conflict {
        let _ = writeln!(
            s,
            "  a minimal conflict: {} alone have no completion; without any one of them the \
             rest completes",
            conflict.describe()
        );
        if let Some(why) = conflict.hall_violation() {
            let _ = writeln!(s, "  why: {why}");
        }
    }
    s
}

/// "CNF (extended, pairwise AMO): 729 variables = n³, … ; varisat: …; mapped back: …".
fn level_line(run: &LevelRun, formulas: Option<&SizeFormulas>, relation: Option<String>) -> String {
    let mut s = format!("{}: ", run.instance);
    if let LevelAnswer::Skipped(why) = &run.answer {
        let _ = write!(s, "not run ({why})");
        return s;
    }
    let sizes: Vec<String> = run
        .size
        .numbers()
        .iter()
        .zip(run.names)
        .enumerate()
        .map(|(k, (count, name))| match formulas {
            Some(f) if f.formulas[k].value == *count => {
                format!("{count} {name} = {}", f.formulas[k].text)
            }
            Some(f) => format!(
                "{count} {name} (the formula {} gives {}: WRONG)",
                f.formulas[k].text, f.formulas[k].value
            ),
            None => format!("{count} {name}"),
        })
        .collect();
    s.push_str(&sizes.join(", "));
    if let Some(extra) = formulas
        .and_then(|f| f.letters.split_once("; "))
        .map(|(_, e)| e)
    {
        let _ = write!(s, " ({extra})");
    }
    match run.predicted {
        Some(p) if p == run.size => {}
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
    let relation = relation.map_or(String::new(), |r| format!("; {r}"));
    match &run.answer {
        LevelAnswer::Completed {
            witness,
            completion,
            sudoku_solution,
        } => {
            let via = match (run.level, sudoku_solution) {
                (Level::Sudoku, _) | (_, None) => "",
                _ => "to a Sudoku solution (verified), then ",
            };
            let _ = if run.level == Level::Latin {
                write!(
                    s,
                    "the completion {} (verified{relation})",
                    one_line(completion)
                )
            } else {
                write!(
                    s,
                    "{witness}; map back {via}to the completion {} (verified{relation})",
                    one_line(completion)
                )
            };
        }
        LevelAnswer::NoCompletion(evidence) => {
            let _ = write!(
                s,
                "no solution, so no completion: {}",
                evidence_words(evidence)
            );
        }
        LevelAnswer::Unknown(reason) => {
            let _ = write!(s, "unknown ({reason})");
        }
        LevelAnswer::Skipped(_) => {}
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

fn level_json(
    course: &Course,
    distinct: &DistinctCompletions,
    i: usize,
    run: &LevelRun,
) -> serde_json::Value {
    let (answer, completion, evidence) = match &run.answer {
        LevelAnswer::Completed { completion, .. } => ("completed", Some(to_json(completion)), None),
        LevelAnswer::NoCompletion(evidence) => {
            ("no-completion", None, Some(evidence_json(evidence)))
        }
        LevelAnswer::Unknown(_) => ("unknown", None, None),
        LevelAnswer::Skipped(_) => ("skipped", None, None),
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
        "formulas": size_formulas(run.level, &course.latin, course.cnf).map(|f| {
            serde_json::json!({
                "letters": f.letters,
                "variables": f.formulas[0].text,
                "constraints": f.formulas[1].text,
                "entries": f.formulas[2].text,
                "fixed": f.formulas[3].text,
                "values": f.size(),
            })
        }),
        "completion_index": distinct.found.get(i).and_then(|(_, k)| *k),
    });
    match &run.answer {
        LevelAnswer::Completed { witness, .. } => value["witness"] = witness.as_str().into(),
        LevelAnswer::Unknown(reason) => value["reason"] = reason.to_string().into(),
        LevelAnswer::Skipped(why) => value["reason"] = why.as_str().into(),
        LevelAnswer::NoCompletion(_) => {}
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

/// One square's course as one JSON object: its input line, the verdict and completion, each
/// level's sizes, answer, evidence and times, and the completions found and counted.
pub fn course_json(course: &Course, line: usize) -> serde_json::Value {
    let distinct = course.distinct_completions();
    let (status, completion) = match &course.verdict {
        CourseVerdict::Completed(grid) => ("completed", Some(to_json(grid))),
        CourseVerdict::NoCompletion => ("no-completion", None),
        CourseVerdict::Unknown => ("unknown", None),
    };
    let sudoku_solution = course.shown().map(|(_, s)| to_json(&s));
    serde_json::json!({
        "line": line,
        "status": status,
        "latin_order": course.latin.shape().order(),
        "latin_givens": course.latin.filled(),
        "sudoku": to_json(&course.sudoku),
        "sudoku_givens": course.sudoku.filled(),
        "backend": course.level(crate::reduce::course::Level::Sudoku)
            .or(course.level(crate::reduce::course::Level::Latin))
            .map(|l| l.solver.clone()),
        "completion": completion,
        "sudoku_solution": sudoku_solution,
        "verified": status == "completed",
        "completions_found": distinct.completions.iter().map(to_json).collect::<Vec<_>>(),
        "count": course.count.map(|c| c.count),
        "count_exact": course.count.map(|c| c.exact),
        "completion_count": course.completions.map(|c| c.count),
        "completion_count_exact": course.completions.map(|c| c.exact),
        "reduce_ms": millis(course.reduce_time),
        "levels": course
            .levels
            .iter()
            .enumerate()
            .map(|(i, run)| level_json(course, &distinct, i, run))
            .collect::<Vec<_>>(),
        "conflict": course.conflict.as_ref().map(|c| {
            let shape = c.givens.shape();
            c.givens
                .givens()
                .map(|(cell, v)| [shape.row_of(cell) + 1, shape.col_of(cell) + 1, v + 1])
                .collect::<Vec<_>>()
        }),
        "conflict_why": course.conflict.as_ref().and_then(|c| c.hall_violation()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_choice_is_checked_against_its_levels() {
        let all = CourseChoice::default().options().unwrap();
        assert_eq!(all.levels, Level::ALL.to_vec());
        let by_target = CourseChoice {
            target: Some("cnf".into()),
            ..CourseChoice::default()
        };
        assert_eq!(by_target.options().unwrap().levels, vec![Level::Cnf]);
        let refused = |choice: CourseChoice| choice.options().unwrap_err().to_string();
        let limit_without_sudoku = CourseChoice {
            levels: Some("cnf".into()),
            limit: Some(2),
            ..CourseChoice::default()
        };
        assert!(refused(limit_without_sudoku).contains("limit counts at the sudoku level"));
        let both = CourseChoice {
            levels: Some("cnf".into()),
            target: Some("cnf".into()),
            ..CourseChoice::default()
        };
        assert!(refused(both).contains("not both"));
    }
}
