//! Counting every complete grid of a shape by symmetry: all 6 670 903 752 021 072 936 960 Sudoku
//! grids of order 9 in under a second, the Latin squares to order 8, each method stating the
//! symmetries it used.
//!
//! A plain enumeration meets every grid once: 28 200 960 grids of order 6 take seconds, the
//! 6.7·10²¹ of order 9 would take millions of years. A symmetry that maps grids to grids
//! (relabelling the values, permuting rows or columns in the ways that keep the boxes) splits
//! them into classes of known size, and only one member of each class needs counting. Each
//! method here reduces a count to a few dozen (or a few thousand) **parts**, counts them on all
//! cores, and multiplies by the symmetries it factored out:
//!
//! | method | shapes | what it counts |
//! |---|---|---|
//! | [`Method::BandClasses`] | 3×3 (default), any box with a side of 2 or 3 up to order 9 | Felgenhauer and Jarvis: the first bands with the first box fixed (`n!` relabellings), in classes under column, stack and row permutations (416 for 3×3), merged by their column sets (44); each merged class's completions from its column sets |
//! | [`Method::ColumnSets`] | boxes with a side of 2 or 3 (2×2, 2×3, 2×4, 3×2, 4×2; 3×3) | the column sets of the first band, up to symmetry: the bands that have them (`f`, a table) times the completions below them |
//! | [`Method::ReducedLatin`] | Latin squares (and boxes `1×n`, `n×1`) to order 10 | reduced squares (first row and column fixed, `n!(n−1)!`) by row-pair classes: the cycle type of the second row |
//!
//! The count of the bands below a first band depends only on the sets of values in its columns
//! (`census/completion.rs`): for 3×3, `Σ_S f(S)·f(R∖S)` over the 56³ ways to split each column's six
//! remaining values between bands 2 and 3, with `f` from a table of band fill counts
//! (`census/band_fill.rs`).
//!
//! Counts are exact 128-bit integers ([`json_count`] writes those above 2⁵³ as JSON strings).
//! [`count_grids`] honours a time limit and a stop token ([`Limits`]): a stopped count is a
//! lower bound, the sum of the parts finished; a [`PartStore`] (the resume file of `-o FILE`) keeps the parts finished,
//! and a later run resumes from it.
//!
//! # Examples
//! ```
//! use sudokit::census::{CensusOptions, Method, count_grids};
//! use sudokit::Shape;
//! let report = count_grids(&Shape::sudoku(2, 3)?, &CensusOptions::default())?;
//! assert_eq!(report.count, 28_200_960);
//! assert_eq!(report.method, Method::ColumnSets);
//! let latin = count_grids(&Shape::latin(7)?, &CensusOptions::default())?;
//! assert_eq!(latin.count, 61_479_419_904_000);
//! assert_eq!(latin.fact("reduced_squares"), Some(16_942_080));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Complexity
//! 3×3 by band classes: the classes' search over 2 612 736 first bands (72 576 searched, one per
//! order of the columns outside the first stack), a table of 78 400 band configurations in 44
//! classes, and 44 completion counts of 56³ table lookups each: a fraction of a second. 2×4 by
//! column sets: 42 875 configurations in 26 classes, one fill count per class. Latin order `n`:
//! one bit-mask search per orbit of third rows under the second row's centralizer, the last two
//! rows counted by cycles (order 7: milliseconds; order 8: about a minute of CPU; order 9: 16 085
//! parts of minutes each, out of reach: see `BENCHMARKS.md`).
//!
//! # References
//! - B. Felgenhauer, F. Jarvis, "Mathematics of Sudoku I", Mathematical Spectrum 39 (2006), and
//!   "Enumerating possible Sudoku grids" (2005): 6 670 903 752 021 072 936 960 grids, the 416 and
//!   44 band classes, the column-contents count of bands 2 and 3.
//! - E. Russell, F. Jarvis, "Mathematics of Sudoku II", Mathematical Spectrum 39 (2006): the
//!   symmetry group of the grid, 5 472 730 538 essentially different grids.
//! - B. D. McKay, I. M. Wanless, "On the number of Latin squares", Annals of Combinatorics 9
//!   (2005): reduced Latin squares to order 11.
//! - H. Simonis, "Sudoku as a constraint problem" (2005), and K. Takano et al. (the course's
//!   sources) cite the 9×9 figure; the 2×4 figure 29 136 487 207 403 520 is in F. Jarvis's
//!   table of Sudoku enumeration results.

mod band_classes;
mod band_fill;
mod big_count;
mod completion;
mod latin;
mod part_store;
mod partition;
mod reach;
mod sudoku;
mod sum_parts;

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};
use thiserror::Error;

use big_count::checked_factorial;
pub use big_count::{JSON_EXACT_LIMIT, count_from_json, json_count};
pub use part_store::{PartStore, PartStoreError};
pub use reach::{ENUMERATION_REACH_LOG10, OutOfReach, enumeration_reach, grids_lower_bound_log10};

use crate::search::{Budget, Limits, StopReason};
use crate::shape::Shape;
use latin::{LatinPlan, MAX_LATIN_ORDER};
use sudoku::{BandClassPlan, ColumnSetsPlan, orientation};

/// Largest order the Sudoku methods handle: value sets are 16-bit masks.
pub(crate) const MAX_ORDER: usize = 16;

/// A counting method; see the module docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// Felgenhauer and Jarvis: classes of first bands, weighted by their sizes.
    BandClasses,
    /// Classes of the first band's column sets, weighted by the bands that have them.
    ColumnSets,
    /// Reduced Latin squares by row-pair classes.
    ReducedLatin,
}

impl Method {
    /// Every method.
    pub const ALL: [Method; 3] = [
        Method::BandClasses,
        Method::ColumnSets,
        Method::ReducedLatin,
    ];

    /// The name users type: `band-classes`, `column-sets`, `reduced-latin`.
    pub fn name(self) -> &'static str {
        match self {
            Method::BandClasses => "band-classes",
            Method::ColumnSets => "column-sets",
            Method::ReducedLatin => "reduced-latin",
        }
    }

    /// One line on what the method counts.
    pub fn summary(self) -> &'static str {
        match self {
            Method::BandClasses => {
                "Felgenhauer–Jarvis: first bands (first box fixed) in classes under column, stack \
                 and row permutations, each class's completions counted from its column sets"
            }
            Method::ColumnSets => {
                "the first band's column sets up to symmetry: the bands that have them times the \
                 completions below them"
            }
            Method::ReducedLatin => {
                "reduced squares (first row and column fixed) by the cycle type of the second row, \
                 times n!·(n−1)!"
            }
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A method name that is not one of [`Method::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown counting method {0:?} (band-classes, column-sets, reduced-latin)")]
pub struct UnknownMethod(pub String);

impl FromStr for Method {
    type Err = UnknownMethod;

    fn from_str(name: &str) -> Result<Method, UnknownMethod> {
        Method::ALL
            .into_iter()
            .find(|m| m.name() == name)
            .ok_or_else(|| UnknownMethod(name.to_string()))
    }
}

/// The methods that count the complete grids of `shape`, the default first; empty when none
/// does (then only an enumeration counts them).
///
/// # Examples
/// ```
/// use sudokit::census::{Method, methods_for};
/// use sudokit::Shape;
/// assert_eq!(methods_for(&Shape::sudoku(3, 3)?), [Method::BandClasses, Method::ColumnSets]);
/// assert_eq!(methods_for(&Shape::sudoku(2, 4)?), [Method::ColumnSets, Method::BandClasses]);
/// assert_eq!(methods_for(&Shape::latin(8)?), [Method::ReducedLatin]);
/// assert!(methods_for(&Shape::sudoku(4, 4)?).is_empty());
/// # Ok::<(), sudokit::ShapeError>(())
/// ```
pub fn methods_for(shape: &Shape) -> Vec<Method> {
    // The methods count p×q boxes and Latin squares only: their symmetries are the boxes'.
    if !shape.has_box_geometry() {
        return Vec::new();
    }
    let (p, q, n) = (shape.box_rows(), shape.box_cols(), shape.order());
    if shape.is_latin() || p == 1 || q == 1 {
        return if n <= MAX_LATIN_ORDER {
            vec![Method::ReducedLatin]
        } else {
            Vec::new()
        };
    }
    let Some((p, q, _)) = orientation(p, q) else {
        return Vec::new();
    };
    // The band fill table: U^(p−1) entries for U = n!/(p!^q q!) partitions of a stack (none
    // past 128 bits: 35! does not fit).
    let partitions = || {
        let ways = checked_factorial(p)?
            .checked_pow(q as u32)?
            .checked_mul(checked_factorial(q)?)?;
        checked_factorial(n)?.checked_div(ways)
    };
    let table_fits = n <= MAX_ORDER
        && p <= 8
        && partitions()
            .and_then(|u| u.checked_pow(p as u32 - 1))
            .is_some_and(|e| e <= 1 << 22);
    match (table_fits, n <= 9, (p, q) == (3, 3)) {
        (false, _, _) => Vec::new(),
        (true, true, true) => vec![Method::BandClasses, Method::ColumnSets],
        (true, true, false) => vec![Method::ColumnSets, Method::BandClasses],
        (true, false, _) => vec![Method::ColumnSets],
    }
}

/// How [`count_grids`] runs. The default: the shape's default method, no limits, no progress,
/// no resume file.
#[derive(Default, Clone)]
pub struct CensusOptions<'a> {
    /// The method; `None` for the default of the shape ([`methods_for`]).
    pub method: Option<Method>,
    /// The time budget and the stop token (the node budget is not used).
    pub limits: Limits,
    /// Called as the count progresses (from the worker threads).
    pub progress: Option<&'a (dyn Fn(&CensusProgress) + Sync)>,
    /// Where the parts go (the resume file of `-o FILE`): parts already in it are not counted
    /// again, and each part finished is added to it.
    pub store: Option<&'a dyn PartStore>,
}

impl fmt::Debug for CensusOptions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CensusOptions")
            .field("method", &self.method)
            .field("limits", &self.limits)
            .field("progress", &self.progress.is_some())
            .field("store", &self.store)
            .finish()
    }
}

/// The stage a census is at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Building the classes and tables.
    Preparing,
    /// Counting the parts.
    Counting,
}

/// How far a census has got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CensusProgress {
    /// The stage.
    pub phase: Phase,
    /// Parts counted (those taken from a resume file included).
    pub parts_done: usize,
    /// Parts in all (0 while preparing).
    pub parts: usize,
    /// The sum of the parts counted: a lower bound of the count.
    pub lower_bound: u128,
    /// Time since the census started.
    pub elapsed: Duration,
}

/// A named figure of a census (`first_bands`, `band_classes`, `reduced_squares`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fact {
    /// The name, as in the JSON output.
    pub name: &'static str,
    /// The value.
    pub value: u128,
}

impl Fact {
    pub(crate) fn new(name: &'static str, value: u128) -> Fact {
        Fact { name, value }
    }
}

/// The result of [`count_grids`].
#[derive(Debug, Clone, PartialEq)]
pub struct CensusReport {
    /// The shape whose grids were counted.
    pub shape: Shape,
    /// The method that counted them.
    pub method: Method,
    /// The number of grids when [`CensusReport::complete`], else a lower bound (the parts
    /// counted).
    pub count: u128,
    /// Why parts are missing, if they are.
    pub stopped: Option<StopReason>,
    /// Parts of the count (0 when it stopped before they were known).
    pub parts: usize,
    /// Parts counted, those resumed included.
    pub parts_done: usize,
    /// Parts taken from the resume file.
    pub parts_resumed: usize,
    /// The share of the work of the parts a stop interrupted, added up (a part half done counts
    /// ½): with the parts counted, what [`CensusReport::remaining_estimate`] measures.
    pub parts_interrupted_work: f64,
    /// The symmetries the method used, one sentence each, with the factors they contributed.
    pub symmetries: Vec<String>,
    /// Figures of the method (class counts, first bands, reduced squares).
    pub facts: Vec<Fact>,
    /// Wall-clock time.
    pub elapsed: Duration,
}

impl CensusReport {
    /// Whether `count` is the number of grids.
    pub fn complete(&self) -> bool {
        self.stopped.is_none()
    }

    /// The figure named `name`, if the method has it.
    pub fn fact(&self, name: &str) -> Option<u128> {
        self.facts.iter().find(|f| f.name == name).map(|f| f.value)
    }

    /// For a stopped count: the time the missing parts would take at the rate of the work this
    /// run did (the parts it counted and the share done of those it was counting; `None`
    /// before any work is measured).
    pub fn remaining_estimate(&self) -> Option<Duration> {
        let counted_now = self.parts_done.checked_sub(self.parts_resumed)?;
        let work = counted_now as f64 + self.parts_interrupted_work;
        if self.complete() || work <= 0.0 {
            return None;
        }
        let left = (self.parts - self.parts_done) as f64 - self.parts_interrupted_work;
        Some(self.elapsed.mul_f64(left.max(0.0) / work))
    }

    /// The line a user reads: the count, or `at least N (unknown: REASON)`.
    pub fn line(&self) -> String {
        match self.stopped {
            None => self.count.to_string(),
            Some(reason) => format!("at least {} (unknown: {reason})", self.count),
        }
    }

    /// The JSON object of the report: `count` (a string above 2⁵³), `complete`, `stopped`,
    /// `method`, `symmetries`, `parts`, `parts_done`, `parts_resumed`, `facts`, `elapsed_us`,
    /// and `remaining_estimate_s` for a stopped count.
    pub fn to_json(&self) -> Value {
        let facts: Map<String, Value> = self
            .facts
            .iter()
            .map(|f| (f.name.to_string(), json_count(f.value)))
            .collect();
        json!({
            "shape": self.shape.to_string(),
            "count": json_count(self.count),
            "complete": self.complete(),
            "stopped": self.stopped.map(|r| r.to_string()),
            "method": self.method.name(),
            "method_summary": self.method.summary(),
            "symmetries": self.symmetries,
            "parts": self.parts,
            "parts_done": self.parts_done,
            "parts_resumed": self.parts_resumed,
            "facts": facts,
            "elapsed_us": self.elapsed.as_micros() as u64,
            "remaining_estimate_s": self.remaining_estimate().map(|d| d.as_secs_f64().round()),
        })
    }
}

/// Why [`count_grids`] could not count.
#[derive(Debug, Error)]
pub enum CensusError {
    /// No symmetry method reaches the shape.
    #[error(
        "no counting method reaches the grids of {0} ({reach}); an enumeration counts them \
         only up to a limit",
        reach = reach::METHODS_REACH
    )]
    NoMethod(Shape),
    /// The method asked for does not reach the shape.
    #[error(
        "--method {method} does not count the grids of {shape}{}",
        available(shape)
    )]
    MethodDoesNotApply {
        /// The method.
        method: Method,
        /// The shape.
        shape: Shape,
    },
    /// A count does not fit in 128 bits.
    #[error("the count does not fit in 128 bits")]
    Overflow,
    /// The store of counted parts (the resumable output of `-o FILE`).
    #[error(transparent)]
    PartStore(#[from] PartStoreError),
}

fn available(shape: &Shape) -> String {
    let methods: Vec<&str> = methods_for(shape).iter().map(|m| m.name()).collect();
    match methods.as_slice() {
        [] => String::new(),
        names => format!(" ({} does)", names.join(", ")),
    }
}

/// The internal stop of a search: the budget ran out or was cancelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stopped(pub(crate) StopReason);

/// Why a part has no count.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum PartError {
    /// The budget stopped it, with the share of its work done (for the estimate of the time
    /// left; 0 when the part cannot tell).
    Stopped(StopReason, f64),
    /// Its count does not fit in 128 bits.
    Overflow,
}

impl From<Stopped> for PartError {
    fn from(stopped: Stopped) -> PartError {
        PartError::Stopped(stopped.0, 0.0)
    }
}

/// A census prepared for one shape: parts, each counted on its own, that add up to the count.
pub(crate) trait Plan: Sync {
    /// Number of parts.
    fn parts(&self) -> usize;
    /// Part `part`'s contribution to the count (the symmetry factors included).
    fn count_part(&self, part: usize, budget: &Budget) -> Result<u128, PartError>;
    /// The symmetries used, one sentence each.
    fn symmetries(&self) -> Vec<String>;
    /// The method's figures, given the count when it is complete.
    fn facts(&self, total: Option<u128>) -> Vec<Fact>;
}

/// Counts the complete grids of `shape` (the completions of its empty grid) by a symmetry
/// method; see the module docs.
///
/// # Errors
/// [`CensusError::NoMethod`] when no method reaches the shape (an enumeration must count it),
/// [`CensusError::MethodDoesNotApply`] for a method that does not reach it, and the resume
/// file's errors. A time limit or a stop token is no error: the report is then a lower bound.
///
/// # Examples
/// ```
/// use sudokit::census::{CensusOptions, count_grids};
/// use sudokit::Shape;
/// let grids = count_grids(&Shape::sudoku(2, 2)?, &CensusOptions::default())?;
/// assert_eq!((grids.count, grids.complete()), (288, true));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn count_grids(
    shape: &Shape,
    options: &CensusOptions<'_>,
) -> Result<CensusReport, CensusError> {
    let started = Instant::now();
    let budget = Budget::start(&options.limits);
    let available = methods_for(shape);
    let method = match options.method {
        Some(method) if available.contains(&method) => method,
        Some(method) => {
            return Err(CensusError::MethodDoesNotApply {
                method,
                shape: *shape,
            });
        }
        None => *available.first().ok_or(CensusError::NoMethod(*shape))?,
    };
    if let Some(progress) = options.progress {
        progress(&CensusProgress {
            phase: Phase::Preparing,
            parts_done: 0,
            parts: 0,
            lower_bound: 0,
            elapsed: started.elapsed(),
        });
    }
    let (p, q, n) = (shape.box_rows(), shape.box_cols(), shape.order());
    let prepared: Result<Option<Box<dyn Plan>>, Stopped> = match method {
        Method::ReducedLatin => {
            LatinPlan::new(n, &budget).map(|plan| plan.map(|plan| Box::new(plan) as Box<dyn Plan>))
        }
        Method::ColumnSets => ColumnSetsPlan::new(p, q, &budget)
            .map(|plan| plan.map(|plan| Box::new(plan) as Box<dyn Plan>)),
        Method::BandClasses => BandClassPlan::new(p, q, &budget)
            .map(|plan| plan.map(|plan| Box::new(plan) as Box<dyn Plan>)),
    };
    let report =
        |count, stopped, parts, done, resumed, interrupted, symmetries, facts| CensusReport {
            shape: *shape,
            method,
            count,
            stopped,
            parts,
            parts_done: done,
            parts_resumed: resumed,
            parts_interrupted_work: interrupted,
            symmetries,
            facts,
            elapsed: started.elapsed(),
        };
    let plan = match prepared {
        Ok(Some(plan)) => plan,
        Ok(None) => {
            return Err(CensusError::MethodDoesNotApply {
                method,
                shape: *shape,
            });
        }
        Err(Stopped(reason)) => {
            return Ok(report(
                0,
                Some(reason),
                0,
                0,
                0,
                0.0,
                Vec::new(),
                Vec::new(),
            ));
        }
    };
    let resumed = match options.store {
        Some(store) => store.begin(&shape.to_string(), method.name(), plan.parts())?,
        None => Vec::new(),
    };
    let record = |part: usize, count: u128| -> Result<(), CensusError> {
        match options.store {
            Some(store) => Ok(store.record(part, count)?),
            None => Ok(()),
        }
    };
    let sum = sum_parts::sum_parts(
        plan.as_ref(),
        &budget,
        &resumed,
        &sum_parts::Reporting {
            progress: options.progress,
            record: &record,
            started,
        },
    )?;
    let mut symmetries = plan.symmetries();
    if !shape.is_latin() && method == Method::ReducedLatin {
        symmetries.insert(
            0,
            format!(
                "boxes of {p}×{q} cells are the {}: the grids are the Latin squares of order {n}",
                if p == 1 { "rows" } else { "columns" }
            ),
        );
    }
    Ok(report(
        sum.total,
        sum.stopped,
        plan.parts(),
        sum.done,
        sum.resumed,
        sum.interrupted_work,
        symmetries,
        plan.facts(sum.stopped.is_none().then_some(sum.total)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::search::Cancel;
    use crate::solve::{Dlx, Solver};

    fn census(shape: Shape, method: Option<Method>) -> CensusReport {
        let options = CensusOptions {
            method,
            ..CensusOptions::default()
        };
        count_grids(&shape, &options).unwrap()
    }

    #[test]
    fn every_method_agrees_with_a_plain_enumeration_on_small_shapes() {
        let shapes = [
            Shape::sudoku(2, 2).unwrap(),
            Shape::sudoku(1, 3).unwrap(),
            Shape::sudoku(4, 1).unwrap(),
            Shape::latin(1).unwrap(),
            Shape::latin(2).unwrap(),
            Shape::latin(3).unwrap(),
            Shape::latin(4).unwrap(),
        ];
        for shape in shapes {
            let plain = Dlx
                .count(&Grid::empty(shape), u64::MAX, &Limits::none())
                .unwrap();
            assert!(plain.complete());
            let methods = methods_for(&shape);
            assert!(!methods.is_empty(), "{shape}");
            for method in methods {
                let report = census(shape, Some(method));
                assert!(report.complete());
                assert_eq!(report.count, u128::from(plain.count), "{shape} by {method}");
                assert_eq!(report.parts_done, report.parts);
            }
        }
    }

    #[test]
    fn both_orientations_and_both_sudoku_methods_count_the_6x6_grids_alike() {
        for shape in [Shape::sudoku(2, 3).unwrap(), Shape::sudoku(3, 2).unwrap()] {
            for method in [Method::ColumnSets, Method::BandClasses] {
                let report = census(shape, Some(method));
                assert_eq!(report.count, 28_200_960, "{shape} by {method}");
            }
        }
        // The column sets' classes weigh every first band once: 6! · 10 · 2⁶ bands of 3 rows.
        let report = census(Shape::sudoku(2, 3).unwrap(), Some(Method::ColumnSets));
        assert_eq!(report.fact("first_bands"), Some(720 * 10 * 64));
        assert!(report.symmetries[0].starts_with("transposition"));
        let bands = census(Shape::sudoku(3, 2).unwrap(), Some(Method::BandClasses));
        assert_eq!(bands.fact("first_bands"), Some(10 * 64));
    }

    #[test]
    fn methods_that_do_not_reach_a_shape_say_which_do() {
        let latin = Shape::latin(5).unwrap();
        let options = CensusOptions {
            method: Some(Method::BandClasses),
            ..CensusOptions::default()
        };
        let error = count_grids(&latin, &options).unwrap_err();
        assert_eq!(
            error.to_string(),
            "--method band-classes does not count the grids of 5×5 Latin square (reduced-latin does)"
        );
        let big = Shape::sudoku(4, 4).unwrap();
        let error = count_grids(&big, &CensusOptions::default()).unwrap_err();
        assert!(matches!(error, CensusError::NoMethod(_)), "{error}");
        assert!(count_grids(&Shape::latin(11).unwrap(), &CensusOptions::default()).is_err());
        assert_eq!("column-sets".parse(), Ok(Method::ColumnSets));
        assert!("rows".parse::<Method>().is_err());
    }

    #[test]
    fn a_stopped_census_is_a_lower_bound_with_its_parts() {
        let cancel = Cancel::new();
        cancel.cancel();
        let options = CensusOptions {
            limits: Limits::none().with_cancel(cancel),
            ..CensusOptions::default()
        };
        let report = count_grids(&Shape::latin(6).unwrap(), &options).unwrap();
        assert_eq!(report.stopped, Some(StopReason::Cancelled));
        assert!(!report.complete());
        assert!(report.parts_done < report.parts || report.parts == 0);
        assert!(report.count < 812_851_200);
        assert!(report.line().starts_with("at least "));
        assert_eq!(report.to_json()["complete"], false);
        // No reduced-square figure for a count that is not complete.
        assert_eq!(report.fact("reduced_squares"), None);
    }

    #[test]
    fn the_json_report_writes_big_counts_as_strings() {
        let report = census(Shape::latin(5).unwrap(), None);
        let json = report.to_json();
        assert_eq!(json["count"], 161_280);
        assert_eq!(json["method"], "reduced-latin");
        assert_eq!(json["facts"]["reduced_squares"], 56);
        assert!(json["symmetries"].as_array().unwrap().len() >= 3);
        let mut big = report.clone();
        big.count = 6_670_903_752_021_072_936_960;
        assert_eq!(big.to_json()["count"], "6670903752021072936960");
    }
}
