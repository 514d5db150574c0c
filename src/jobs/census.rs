//! `count` of an empty grid by a symmetry method, as a job: which method counts it (or whether an
//! enumeration does), the census run into a [`Sink`] (its parts kept in the resumable result file
//! of `-o FILE`, its report written whole), and the sentences a front end shows for a stopped
//! count. The counting itself is [`crate::census`]; the command that picks the census or an
//! enumeration for `count` without input is [`super::census_command`].
//!
//! # Output
//! The output is opened as every command's ([`Sink::open`]: `-o FILE` resolved first, a
//! directory refused before anything is counted, a link to a regular file followed). A regular
//! `FILE` keeps the parts counted in `FILE.partial` and its index, the one resumable format of
//! every command ([`super::partial`]; how parts are keyed, written out of order and read back:
//! [`super::census_parts`]), locked while the count runs; a new run over a partial file that
//! holds parts is refused unless it resumes them (`--resume`) or discards them (`--force`).
//! `FILE` gets the count, written whole, once the count is complete; the partial file and its
//! index are then removed. A count stopped before its first part leaves no partial file.
//! Anything else (`/dev/stdout`, a pipe) gets the count written directly, complete or a lower
//! bound, and keeps no parts: `--resume` of it is refused.

use std::time::Duration;

use thiserror::Error;

use super::census_parts::RecordedParts;
use super::options::{Opt, OptionError, said};
use super::partial::OldResults;
use super::recorder::Recorder;
use super::run_error::RunError;
use super::sink::Sink;
use crate::census::{
    CensusError, CensusOptions, CensusProgress, CensusReport, Method, OutOfReach, PartStore,
    count_grids, enumeration_reach, methods_for,
};
use crate::search::Limits;
use crate::shape::Shape;

/// How `count` counts an empty grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmptyGridCount {
    /// By a symmetry method (`None`: the shape's default).
    Census(Option<Method>),
    /// Every completion, by the job's backend.
    Enumerate,
}

/// Why the empty grid is not counted.
#[derive(Debug, Error)]
pub enum EmptyGridError {
    /// The options (an unknown method, a symmetry method with an enumeration's options).
    #[error(transparent)]
    Option(#[from] OptionError),
    /// An enumeration without `--limit` that could not finish, refused before it starts.
    #[error(transparent)]
    OutOfReach(#[from] OutOfReach),
}

/// The way to count the empty `shape` for `--method NAME` (`auto`, `enumerate` or a method of
/// [`Method`]). `enumeration_options` says whether options only an enumeration takes were given
/// (`--limit`, `--node-limit`, another backend): `auto` then enumerates, and a named symmetry
/// method refuses them. `auto` also enumerates the shapes no method reaches. `limited` says
/// whether `--limit` was given: without it, an enumeration must be able to finish
/// ([`enumeration_reach`]; every shape no method reaches is out of its reach), whatever the time
/// or node budget, or it is refused before any search.
///
/// # Errors
/// An unknown method name, a symmetry method with an enumeration's options, an enumeration out
/// of reach.
pub fn empty_grid_count(
    method: &str,
    shape: &Shape,
    enumeration_options: bool,
    limited: bool,
) -> Result<EmptyGridCount, EmptyGridError> {
    let enumerate = || {
        if !limited {
            enumeration_reach(shape)?;
        }
        Ok(EmptyGridCount::Enumerate)
    };
    match method {
        "enumerate" => enumerate(),
        "auto" if enumeration_options || methods_for(shape).is_empty() => enumerate(),
        "auto" => Ok(EmptyGridCount::Census(None)),
        name => {
            let method: Method =
                name.parse()
                    .map_err(|e: crate::census::UnknownMethod| OptionError::Invalid {
                        option: "method",
                        message: e.to_string(),
                    })?;
            if enumeration_options {
                return Err(OptionError::Conflict(said!(
                    Opt("method"),
                    format!(" {name} counts whole classes: "),
                    Opt("limit"),
                    ", ",
                    Opt("node_limit"),
                    " and ",
                    Opt("backend"),
                    " go with ",
                    Opt("method"),
                    " enumerate",
                ))
                .into());
            }
            Ok(EmptyGridCount::Census(Some(method)))
        }
    }
}

/// Why a census run failed.
#[derive(Debug, Error)]
pub enum CensusRunError {
    /// The census itself (no method for the shape, a resumed part that does not fit).
    #[error(transparent)]
    Census(#[from] CensusError),
    /// The output.
    #[error(transparent)]
    Run(#[from] RunError),
}

/// The report as a front end writes it: its line (`6670903752021072936960`, `at least N
/// (unknown: time limit)`), or its JSON object with `json`, ending in a newline.
pub fn report_text(report: &CensusReport, json: bool) -> String {
    if json {
        format!("{}\n", report.to_json())
    } else {
        format!("{}\n", report.line())
    }
}

/// Counts the grids of `shape` by `method` (`None`: the shape's default) on the current rayon
/// pool, into `sink` (continuing the `old` parts of a resumed output). A resumable result file
/// keeps the parts as they finish ([`super::census_parts`]) and gets the report (as
/// [`report_text`] writes it) in place of them when the count is complete
/// ([`Sink::set_whole`]); a stream gets the report, complete or not, and keeps no parts.
/// `progress` is called as the count goes. The sink stays open: a front end ends it
/// ([`super::command::finish`]).
///
/// # Errors
/// See [`CensusRunError`]; a refused resume leaves the old parts as they were.
pub fn run_census(
    shape: &Shape,
    method: Option<Method>,
    limits: Limits,
    sink: &Sink,
    old: Option<OldResults>,
    progress: Option<&(dyn Fn(&CensusProgress) + Sync)>,
    json: bool,
) -> Result<CensusReport, CensusRunError> {
    sink.hold_parts("parts");
    let recorder = Recorder::new(sink, old, false);
    let parts = sink
        .is_resumable_file()
        .then(|| RecordedParts::new(&recorder));
    let options = CensusOptions {
        method,
        limits,
        progress,
        store: parts.as_ref().map(|p| p as &dyn PartStore),
    };
    // A run that fails leaves a resumed output's old parts as they were.
    let report = count_grids(shape, &options).inspect_err(|_| sink.abandon())?;
    drop(parts);
    recorder.finish(report.complete())?;
    let text = report_text(&report, json);
    if sink.is_resumable_file() {
        if report.complete() {
            sink.set_whole(text.as_bytes());
        }
    } else {
        sink.write_extra(&text).map_err(RunError::Io)?;
    }
    Ok(report)
}

/// The sentence a front end shows for a stopped count (`None` for a complete one): where it
/// stopped, that the count is a lower bound, and the time the parts left would take.
pub fn stop_note(report: &CensusReport) -> Option<String> {
    let reason = report.stopped?;
    let estimate = match report.remaining_estimate() {
        Some(left) => format!(
            "; the {} parts left would take about {} at this rate",
            report.parts - report.parts_done,
            duration_words(left)
        ),
        None => String::new(),
    };
    let progress = if report.parts == 0 {
        "while preparing the parts".to_string()
    } else {
        format!("after {} of {} parts", report.parts_done, report.parts)
    };
    Some(format!(
        "stopped ({reason}) {progress}: the count is a lower bound{estimate}"
    ))
}

/// `3 h 20 min`, `12 min`, `40 s`.
fn duration_words(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..=119 => format!("{s} s"),
        120..=7199 => format!("{} min", s / 60),
        7200..=172_799 => format!("{} h {} min", s / 3600, s % 3600 / 60),
        _ => format!("{} days", s / 86_400),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::partial::{OpenMode, index_path, partial_path};

    #[test]
    fn auto_counts_by_symmetry_unless_an_enumeration_is_asked_for() {
        let nine = Shape::sudoku(3, 3).unwrap();
        assert_eq!(
            empty_grid_count("auto", &nine, false, false).unwrap(),
            EmptyGridCount::Census(None)
        );
        assert_eq!(
            empty_grid_count("auto", &nine, true, true).unwrap(),
            EmptyGridCount::Enumerate
        );
        assert!(empty_grid_count("band-classes", &nine, true, true).is_err());
        assert!(empty_grid_count("rows", &nine, false, false).is_err());
        // No method reaches 16×16: an enumeration up to a limit, or a refusal without one.
        let sixteen = Shape::sudoku(4, 4).unwrap();
        assert_eq!(
            empty_grid_count("auto", &sixteen, true, true).unwrap(),
            EmptyGridCount::Enumerate
        );
        for method in ["auto", "enumerate"] {
            let refused = empty_grid_count(method, &sixteen, false, false).unwrap_err();
            assert!(
                matches!(refused, EmptyGridError::OutOfReach(_)),
                "{refused}"
            );
        }
        // A node budget (an enumeration option) is no limit.
        assert!(empty_grid_count("auto", &sixteen, true, false).is_err());
        // The Latin squares of order 9 have a method; enumerating them is refused.
        let nine_latin = Shape::latin(9).unwrap();
        assert!(empty_grid_count("auto", &nine_latin, false, false).is_ok());
        let refused = empty_grid_count("enumerate", &nine_latin, false, false).unwrap_err();
        assert!(
            refused.to_string().contains("count it by symmetry"),
            "{refused}"
        );
        let six = Shape::sudoku(2, 3).unwrap();
        assert_eq!(
            empty_grid_count("enumerate", &six, false, false).unwrap(),
            EmptyGridCount::Enumerate
        );
    }

    /// A fresh directory for one test, and `FILE` in it.
    fn scratch(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("sudokit-census-job-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("count.txt")
    }

    fn open(file: &std::path::Path, mode: OpenMode) -> (Sink, Option<OldResults>) {
        let identity = serde_json::json!({"command": "count", "options": {}, "form": "text"});
        Sink::open(Some(file), "puzzles", &identity, mode).unwrap()
    }

    /// Counts the Latin squares of order `n` into `file`, stopped after `stop_after` parts of
    /// this run (none: to the end); the sink is then ended.
    fn count_latin(
        file: &std::path::Path,
        n: usize,
        mode: OpenMode,
        stop_after: Option<usize>,
    ) -> Result<CensusReport, CensusRunError> {
        let (sink, old) = open(file, mode);
        let cancel = crate::search::Cancel::new();
        let limits = Limits::none().with_cancel(cancel.clone());
        let counted = std::sync::atomic::AtomicUsize::new(0);
        let progress = |p: &CensusProgress| {
            if p.phase == crate::census::Phase::Counting {
                let now = counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if stop_after.is_some_and(|k| now >= k) {
                    cancel.cancel();
                }
            }
        };
        let report = run_census(
            &Shape::latin(n).unwrap(),
            None,
            limits,
            &sink,
            old,
            Some(&progress),
            false,
        )?;
        sink.finish(report.complete(), || "stopped".into()).unwrap();
        Ok(report)
    }

    #[test]
    fn a_complete_count_writes_the_file_whole_and_removes_its_parts() {
        let file = scratch("complete");
        let (sink, old) = open(&file, OpenMode::Fresh);
        let report = run_census(
            &Shape::sudoku(2, 2).unwrap(),
            None,
            Limits::none(),
            &sink,
            old,
            None,
            false,
        )
        .unwrap();
        assert_eq!(report.count, 288);
        assert_eq!(sink.finish(true, String::new).unwrap(), None);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "288\n");
        let partial = partial_path(&file);
        assert!(!partial.exists() && !index_path(&partial).exists());
        assert_eq!(stop_note(&report), None);
        let _ = std::fs::remove_dir_all(file.parent().unwrap());
    }

    #[test]
    fn a_stopped_count_keeps_its_parts_and_a_resume_counts_only_the_rest() {
        let file = scratch("resume");
        let partial = partial_path(&file);
        let stopped = count_latin(&file, 6, OpenMode::Fresh, Some(3)).unwrap();
        assert!(
            !stopped.complete() && stopped.parts_done >= 3,
            "{stopped:?}"
        );
        assert!(!file.exists());
        let text = std::fs::read_to_string(&partial).unwrap();
        assert_eq!(text.lines().count(), stopped.parts_done);
        assert!(
            text.lines()
                .all(|l| l.starts_with("part ") && l.contains(" of 49: ")),
            "{text}"
        );
        assert!(stop_note(&stopped).unwrap().contains("lower bound"));
        // Another census over the same output: its parts are not this one's.
        let refused = count_latin(&file, 5, OpenMode::Resume, None)
            .unwrap_err()
            .to_string();
        assert!(refused.contains("line 3 of its index is a part of another census, not of 5×5 Latin square by reduced-latin"), "{refused}");
        assert_eq!(std::fs::read_to_string(&partial).unwrap(), text);
        let resumed = count_latin(&file, 6, OpenMode::Resume, None).unwrap();
        assert_eq!(
            (resumed.count, resumed.parts_resumed),
            (812_851_200, stopped.parts_done)
        );
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "812851200\n");
        assert!(!partial.exists() && !index_path(&partial).exists());
        let _ = std::fs::remove_dir_all(file.parent().unwrap());
    }

    #[test]
    fn a_count_stopped_before_its_first_part_leaves_nothing() {
        let file = scratch("nothing");
        let stopped = count_latin(&file, 6, OpenMode::Fresh, Some(0)).unwrap();
        assert_eq!((stopped.complete(), stopped.parts_done), (false, 0));
        let partial = partial_path(&file);
        assert!(!partial.exists() && !index_path(&partial).exists() && !file.exists());
        let _ = std::fs::remove_dir_all(file.parent().unwrap());
    }

    #[test]
    fn a_stream_gets_the_count_and_keeps_no_parts() {
        let cancel = crate::search::Cancel::new();
        cancel.cancel();
        let sink = Sink::stdout("puzzles", true);
        let report = run_census(
            &Shape::latin(6).unwrap(),
            None,
            Limits::none().with_cancel(cancel),
            &sink,
            None,
            None,
            true,
        )
        .unwrap();
        assert!(!report.complete());
        assert!(report_text(&report, true).starts_with("{"));
        assert!(report_text(&report, false).starts_with("at least "));
        // Nothing to continue: no line on how far it got.
        assert_eq!(sink.finish(false, || "stopped".into()).unwrap(), None);
    }
}
