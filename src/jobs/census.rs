//! `count` of an empty grid by a symmetry method, as a job: which method counts it (or whether an
//! enumeration does), the resume file of `-o FILE`, the result file written whole, and the
//! sentences a front end shows for a stopped count. The counting itself is [`crate::census`].
//!
//! `-o FILE` is resolved first, as for every output ([`Target::resolve`]): a directory is refused
//! before anything is counted; a link to a regular file is followed. A regular `FILE` keeps the
//! parts counted in `FILE.partial` (one keyed and hashed line per part, locked while the count
//! runs, see [`Checkpoint`]); a new run over a partial file that holds parts is refused unless it
//! resumes them (`--resume`) or discards them (`--force`), as for every other resumable output.
//! `FILE` gets the count, written whole, once the count is complete; the partial file is then
//! removed. Anything else (`/dev/stdout`, a pipe) gets the count written directly, and keeps no
//! parts: `--resume` of it is refused.

use std::path::{Path, PathBuf};
use std::time::Duration;

use thiserror::Error;

use super::census_checkpoint::{Checkpoint, CheckpointError};
use super::options::{Opt, OptionError, said};
use super::partial::{OpenMode, partial_path};
use super::target::{Target, TargetError, write_atomically};
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
    /// The census itself (no method for the shape, the resume file).
    #[error(transparent)]
    Census(#[from] CensusError),
    /// The result file.
    #[error(transparent)]
    Target(#[from] TargetError),
    /// The resume file of the parts (`FILE.partial`).
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// `--resume` of a path that is not a regular file (it keeps no parts).
    #[error("--resume needs a regular file: {} is not one (it keeps no parts)", .0.display())]
    ResumeSpecial(PathBuf),
}

/// A census run: its report, and the file that keeps the parts of a count that stopped.
#[derive(Debug, Clone)]
pub struct CensusRun {
    /// The count.
    pub report: CensusReport,
    /// `FILE.partial`, when the count stopped and its parts are kept there for `--resume`.
    pub kept_in: Option<PathBuf>,
}

/// Counts the grids of `shape` by `method` on the current rayon pool. With `output` (`-o FILE`
/// and its mode), the path is checked and the partial file opened and locked before anything is
/// counted; the parts go to `FILE.partial` and a complete count is written to `FILE` as
/// `render(report)`. Without, nothing is written. `progress` is called as the count goes.
///
/// # Errors
/// See [`CensusRunError`].
pub fn run_census(
    shape: &Shape,
    method: Option<Method>,
    limits: Limits,
    output: Option<(&Path, OpenMode)>,
    progress: Option<&(dyn Fn(&CensusProgress) + Sync)>,
    render: impl Fn(&CensusReport) -> String,
) -> Result<CensusRun, CensusRunError> {
    let (target, checkpoint) = match output {
        None => (None, None),
        Some((file, mode)) => match Target::resolve(file)? {
            Target::Regular(resolved) => {
                let checkpoint = Checkpoint::open(partial_path(&resolved), mode)?;
                (Some(resolved), Some(checkpoint))
            }
            _ if mode == OpenMode::Resume => {
                return Err(CensusRunError::ResumeSpecial(file.to_path_buf()));
            }
            _ => (Some(file.to_path_buf()), None),
        },
    };
    let options = CensusOptions {
        method,
        limits,
        progress,
        checkpoint: checkpoint.as_ref().map(|c| c as &dyn PartStore),
    };
    let report = count_grids(shape, &options)?;
    let mut kept_in = None;
    if let Some(file) = target {
        if report.complete() {
            write_atomically(&file, render(&report).as_bytes())?;
            if let Some(checkpoint) = checkpoint {
                checkpoint.remove()?;
            }
        } else if report.parts > 0 {
            kept_in = checkpoint.as_ref().map(|c| c.path().to_path_buf());
        }
    }
    Ok(CensusRun { report, kept_in })
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

    #[test]
    fn a_fresh_run_over_parts_is_refused_and_a_complete_one_writes_the_file() {
        let dir = std::env::temp_dir().join(format!("sudokit-census-job-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("count.txt");
        std::fs::write(partial_path(&file), "{}\n").unwrap();
        let shape = Shape::sudoku(2, 2).unwrap();
        let run = |mode| {
            run_census(
                &shape,
                None,
                Limits::default(),
                Some((&file, mode)),
                None,
                |r| format!("{}\n", r.line()),
            )
        };
        assert!(matches!(
            run(OpenMode::Fresh),
            Err(CensusRunError::Checkpoint(CheckpointError::Unknown { .. }))
        ));
        let report = run(OpenMode::Force).unwrap().report;
        assert_eq!(report.count, 288);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "288\n");
        assert!(!partial_path(&file).exists());
        assert_eq!(stop_note(&report), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
