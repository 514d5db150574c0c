//! Grading puzzles by propagation strength: which of Simonis' schemes solve a puzzle search-free.
//!
//! A puzzle is **search-free** for a scheme when the scheme alone, run to its fixpoint, leaves one
//! candidate in every cell. [`Grader::grade`] runs each requested scheme and reports, per scheme,
//! [`FixpointVerdict::SearchFree`], [`FixpointVerdict::Open`] (with the number of candidates left) or
//! [`FixpointVerdict::Refuted`] (the fixpoint is a failure: no solution). The **weakest** schemes that solve
//! a puzzle are the minimal search-free ones in the lattice ([`Scheme::weaker_than`]); there may be
//! several incomparable ones (`FCI` and `BC`, say).
//!
//! A scheme's verdict is defined by its fixpoint computed alone from the givens. Schemes are run
//! weakest first, and the lattice saves work only where it provably gives that same verdict:
//! - a scheme above one that is already search-free (or refuted) is so too and is not run, when
//!   one of the two is order-free ([`Scheme::order_free`]: every scheme not on `BC`'s range
//!   exhaustion, whose fixpoint can depend on the propagation order, see
//!   [`crate::propagate::bounds`]); pairs of two `BC`-based schemes are run both;
//! - an order-free scheme starts from the fixpoint of a weaker scheme already computed instead of
//!   from the givens (its fixpoint is the greatest one inside that store, so the same), except
//!   that a one-pass shaving scheme starts only from a store without shaving: its pass must start
//!   at its base's fixpoint (see [`crate::propagate::shave`]).
//!
//! (The property tests check the lattice cell by cell on fixpoints computed from scratch, and a
//! unit test checks these shortcuts against running every scheme alone.)
//!
//! [`Summary`] aggregates a file (percentage search-free per scheme, givens), and
//! [`differences`] counts, for every edge of the lattice among the chosen schemes, the puzzles
//! that separate its two ends. [`Spread`] is the min/avg/median/max of a sample (for the runtime
//! table made with [`crate::propagate::count_with_scheme()`]).
//!
//! [`Difficulty`] turns a grade into an everyday label (`easy`, `medium`, `hard`, `expert`) by the
//! schemes `FCI`, `HAC` and `HACS`.
//!
//! # Complexity
//! One grade costs at most one fixpoint per scheme (see [`crate::propagate`]); shaving schemes
//! dominate (a base fixpoint per candidate per pass).
//!
//! # References
//! H. Simonis, "Sudoku as a constraint problem", 2005 (search-free puzzles per scheme, Tables 1–3).
//!
//! # Examples
//! ```
//! use sudokit::grade::Grader;
//! use sudokit::propagate::Scheme;
//! use sudokit::text::parse_line;
//! let puzzle = parse_line("1.........4..4..", None).unwrap();
//! let mut grader = Grader::new(puzzle.shape());
//! let grade = grader.grade(&puzzle, &[Scheme::FC, Scheme::FCI, Scheme::HAC]);
//! assert_eq!(grade.givens, 3);
//! assert!(!grade.is_search_free(Scheme::FC));
//! ```

mod difficulty;

pub use difficulty::Difficulty;

use crate::grid::Grid;
use crate::propagate::{Domains, Propagator, Scheme, Shaving};
use crate::search::{Budget, Limits, StopReason};
use crate::shape::Shape;

/// What one scheme's fixpoint says about a puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FixpointVerdict {
    /// Every cell has one candidate.
    SearchFree,
    /// Some cell has several candidates; `candidates` is the total left over all cells.
    Open {
        /// Candidates left over all cells (more than n²).
        candidates: usize,
    },
    /// The fixpoint is a failure: the puzzle has no solution.
    Refuted,
}

/// The grade of one puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grade {
    /// Number of givens.
    pub givens: usize,
    /// The verdict of each requested scheme, in the order requested.
    pub verdicts: Vec<(Scheme, FixpointVerdict)>,
}

impl Grade {
    /// The verdict of `scheme`, if it was requested.
    pub fn verdict(&self, scheme: Scheme) -> Option<FixpointVerdict> {
        self.verdicts
            .iter()
            .find(|(s, _)| *s == scheme)
            .map(|&(_, v)| v)
    }

    /// Whether `scheme` solves the puzzle search-free.
    pub fn is_search_free(&self, scheme: Scheme) -> bool {
        self.verdict(scheme) == Some(FixpointVerdict::SearchFree)
    }

    /// The requested schemes that solve the puzzle search-free, in the order requested.
    pub fn search_free(&self) -> Vec<Scheme> {
        self.verdicts
            .iter()
            .filter(|(_, v)| *v == FixpointVerdict::SearchFree)
            .map(|&(s, _)| s)
            .collect()
    }

    /// The minimal search-free schemes: no weaker requested scheme is search-free.
    pub fn weakest(&self) -> Vec<Scheme> {
        let free = self.search_free();
        free.iter()
            .copied()
            .filter(|&s| !free.iter().any(|&o| o != s && o.weaker_than(s)))
            .collect()
    }

    /// The minimal refuting schemes: no weaker requested scheme refutes the puzzle.
    pub fn weakest_refuting(&self) -> Vec<Scheme> {
        let refuting: Vec<Scheme> = self
            .verdicts
            .iter()
            .filter(|(_, v)| *v == FixpointVerdict::Refuted)
            .map(|&(s, _)| s)
            .collect();
        refuting
            .iter()
            .copied()
            .filter(|&s| !refuting.iter().any(|&o| o != s && o.weaker_than(s)))
            .collect()
    }

    /// Whether some scheme refuted the puzzle.
    pub fn refuted(&self) -> bool {
        self.verdicts
            .iter()
            .any(|(_, v)| *v == FixpointVerdict::Refuted)
    }
}

/// Grades puzzles of one shape; keeps its engine and stores between puzzles.
pub struct Grader {
    engine: Propagator,
    stores: Vec<Option<Domains>>,
}

impl Grader {
    /// A grader for puzzles of `shape`.
    pub fn new(shape: Shape) -> Grader {
        Grader {
            engine: Propagator::new(shape),
            stores: Vec::new(),
        }
    }

    /// Runs every scheme of `schemes` on `puzzle` (see the module docs).
    ///
    /// # Panics
    /// If the puzzle's shape is not the grader's.
    pub fn grade(&mut self, puzzle: &Grid, schemes: &[Scheme]) -> Grade {
        self.grade_until(puzzle, schemes, None)
            .expect("no budget, no stop")
    }

    /// [`Grader::grade`] within `limits` (their time and stop token): `Err` with the reason
    /// when they end it before every scheme is graded.
    ///
    /// # Errors
    /// The [`StopReason`] of the limits.
    ///
    /// # Panics
    /// If the puzzle's shape is not the grader's.
    pub fn grade_within(
        &mut self,
        puzzle: &Grid,
        schemes: &[Scheme],
        limits: &Limits,
    ) -> Result<Grade, StopReason> {
        let budget = Budget::start(limits);
        let graded = self.grade_until(puzzle, schemes, Some(&budget));
        self.engine.set_stop(None);
        graded
    }

    /// Grades with the engine's shaving bounded by `budget`, stopping between schemes (and
    /// after a shaving cut short) when it runs out.
    fn grade_until(
        &mut self,
        puzzle: &Grid,
        schemes: &[Scheme],
        budget: Option<&Budget>,
    ) -> Result<Grade, StopReason> {
        assert_eq!(puzzle.shape(), self.engine.shape(), "shape of the grader");
        self.engine.set_stop(budget.cloned());
        // Weakest first: a scheme comes after every requested scheme below it.
        let mut order: Vec<usize> = (0..schemes.len()).collect();
        order.sort_by_key(|&i| {
            Scheme::ALL
                .iter()
                .filter(|&&o| o.weaker_than(schemes[i]))
                .count()
        });
        let clash = puzzle.first_clash().is_some();
        let mut verdicts: Vec<Option<FixpointVerdict>> = vec![None; schemes.len()];
        self.stores.resize(schemes.len(), None);
        for &i in &order {
            let scheme = schemes[i];
            let below: Vec<usize> = order
                .iter()
                .copied()
                .filter(|&j| j != i && verdicts[j].is_some() && schemes[j].weaker_than(scheme))
                .filter(|&j| schemes[j].order_free() || scheme.order_free())
                .collect();
            if clash
                || below
                    .iter()
                    .any(|&j| verdicts[j] == Some(FixpointVerdict::Refuted))
            {
                verdicts[i] = Some(FixpointVerdict::Refuted);
                continue;
            }
            if below
                .iter()
                .any(|&j| verdicts[j] == Some(FixpointVerdict::SearchFree))
            {
                verdicts[i] = Some(FixpointVerdict::SearchFree);
                continue;
            }
            // Start from the smallest usable fixpoint below, if any.
            let start = below
                .iter()
                .filter(|_| scheme.order_free())
                .filter(|&&j| {
                    scheme.shaving() != Shaving::Once || schemes[j].shaving() == Shaving::None
                })
                .filter_map(|&j| self.stores[j].as_ref())
                .min_by_key(|d| d.total())
                .cloned();
            let mut d = start.unwrap_or_else(|| Domains::from_puzzle(puzzle));
            let propagated = self.engine.propagate(&mut d, scheme);
            // A shaving pass stops early when the budget runs out: no verdict from that store.
            if let Some(reason) = budget.and_then(Budget::interrupted) {
                for store in &mut self.stores {
                    *store = None;
                }
                return Err(reason);
            }
            let verdict = match propagated {
                Err(_) => FixpointVerdict::Refuted,
                Ok(()) if d.is_solved() => FixpointVerdict::SearchFree,
                Ok(()) => FixpointVerdict::Open {
                    candidates: d.total(),
                },
            };
            verdicts[i] = Some(verdict);
            self.stores[i] = matches!(verdict, FixpointVerdict::Open { .. }).then_some(d);
        }
        for store in &mut self.stores {
            *store = None;
        }
        Ok(Grade {
            givens: puzzle.filled(),
            verdicts: schemes
                .iter()
                .zip(verdicts)
                .map(|(&s, v)| (s, v.expect("every scheme graded")))
                .collect(),
        })
    }
}

/// Grades one puzzle (a convenience over [`Grader`]).
pub fn grade(puzzle: &Grid, schemes: &[Scheme]) -> Grade {
    Grader::new(puzzle.shape()).grade(puzzle, schemes)
}

/// The scheme that best explains `puzzle`, and why it was chosen: the first of the paper's
/// schemes (in the order of [`Scheme::ALL`]) among the weakest that solve it without search;
/// else the first among the weakest that refute it (prove it has no solution); else `HACSC3`,
/// the strongest without shaving, up to where a search would start.
///
/// # Examples
/// ```
/// use sudokit::grade::scheme_to_explain;
/// use sudokit::propagate::Scheme;
/// use sudokit::text::{ShapeSpec, parse_line};
/// let square = parse_line("12...3...", Some(ShapeSpec::Latin)).unwrap();
/// assert_eq!(scheme_to_explain(&square).0, Scheme::FC);
/// ```
pub fn scheme_to_explain(puzzle: &Grid) -> (Scheme, &'static str) {
    scheme_of_grade(&grade(puzzle, &Scheme::ALL))
}

/// [`scheme_to_explain`] within `limits` (their time and stop token): grading every scheme of
/// a large puzzle takes long (the shaving schemes probe every candidate).
///
/// # Errors
/// The [`StopReason`] of the limits, when they end the grading first.
pub fn scheme_to_explain_within(
    puzzle: &Grid,
    limits: &Limits,
) -> Result<(Scheme, &'static str), StopReason> {
    let graded = Grader::new(puzzle.shape()).grade_within(puzzle, &Scheme::ALL, limits)?;
    Ok(scheme_of_grade(&graded))
}

/// The scheme to explain of a puzzle graded on every scheme; see [`scheme_to_explain`].
fn scheme_of_grade(graded: &Grade) -> (Scheme, &'static str) {
    if let Some(&scheme) = graded.weakest().first() {
        return (scheme, "the first scheme that solves it without search");
    }
    if let Some(&scheme) = graded.weakest_refuting().first() {
        return (scheme, "the first scheme that proves it has no solution");
    }
    (
        Scheme::HACSC3,
        "no scheme solves or refutes it without search; the strongest without shaving",
    )
}

/// The aggregate of a file's grades.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Summary {
    /// The schemes, in the order of the grades.
    pub schemes: Vec<Scheme>,
    /// Puzzles graded.
    pub puzzles: usize,
    /// Fewest givens.
    pub givens_min: usize,
    /// Most givens.
    pub givens_max: usize,
    /// Sum of the givens.
    pub givens_sum: usize,
    /// Puzzles search-free for each scheme.
    pub search_free: Vec<usize>,
}

impl Summary {
    /// An empty summary for `schemes`.
    pub fn new(schemes: &[Scheme]) -> Summary {
        Summary {
            schemes: schemes.to_vec(),
            puzzles: 0,
            givens_min: usize::MAX,
            givens_max: 0,
            givens_sum: 0,
            search_free: vec![0; schemes.len()],
        }
    }

    /// Adds one grade (made with the same schemes).
    pub fn add(&mut self, grade: &Grade) {
        self.puzzles += 1;
        self.givens_min = self.givens_min.min(grade.givens);
        self.givens_max = self.givens_max.max(grade.givens);
        self.givens_sum += grade.givens;
        for (i, &s) in self.schemes.iter().enumerate() {
            if grade.is_search_free(s) {
                self.search_free[i] += 1;
            }
        }
    }

    /// Average number of givens (0 for no puzzle).
    pub fn givens_avg(&self) -> f64 {
        if self.puzzles == 0 {
            0.0
        } else {
            self.givens_sum as f64 / self.puzzles as f64
        }
    }

    /// Percentage (0–100) of the puzzles search-free for the `i`-th scheme.
    pub fn percent(&self, i: usize) -> f64 {
        if self.puzzles == 0 {
            0.0
        } else {
            100.0 * self.search_free[i] as f64 / self.puzzles as f64
        }
    }
}

/// For every edge `a ⊏ b` of the lattice restricted to `schemes` (see [`Scheme::covers`]): the
/// number of grades search-free for `b` but not for `a`.
pub fn differences<'a>(
    schemes: &[Scheme],
    grades: impl IntoIterator<Item = &'a Grade>,
) -> Vec<(Scheme, Scheme, usize)> {
    let mut edges: Vec<(Scheme, Scheme, usize)> = schemes
        .iter()
        .flat_map(|&a| schemes.iter().map(move |&b| (a, b)))
        .filter(|&(a, b)| a.covers(b, schemes))
        .map(|(a, b)| (a, b, 0))
        .collect();
    for grade in grades {
        for (a, b, count) in &mut edges {
            if grade.is_search_free(*b) && !grade.is_search_free(*a) {
                *count += 1;
            }
        }
    }
    edges
}

/// Min, average, median and max of a sample.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spread {
    /// Smallest value.
    pub min: f64,
    /// Mean.
    pub avg: f64,
    /// Median (mean of the two middle values for an even count).
    pub median: f64,
    /// Largest value.
    pub max: f64,
}

impl Spread {
    /// The spread of `sample`; `None` if it is empty.
    pub fn of(sample: &[f64]) -> Option<Spread> {
        if sample.is_empty() {
            return None;
        }
        let mut sorted = sample.to_vec();
        sorted.sort_by(f64::total_cmp);
        let k = sorted.len();
        let median = if k % 2 == 1 {
            sorted[k / 2]
        } else {
            (sorted[k / 2 - 1] + sorted[k / 2]) / 2.0
        };
        Some(Spread {
            min: sorted[0],
            avg: sorted.iter().sum::<f64>() / k as f64,
            median,
            max: sorted[k - 1],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_line;

    #[test]
    fn lattice_shortcuts_agree_with_running_every_scheme_alone() {
        let root = env!("CARGO_MANIFEST_DIR");
        let text = std::fs::read_to_string(format!("{root}/models/sudoku/9x9/top95.txt")).unwrap();
        for line in text.lines().step_by(6) {
            let puzzle = parse_line(line, None).unwrap();
            let all = grade(&puzzle, &Scheme::EVERY);
            for s in Scheme::EVERY {
                let alone = grade(&puzzle, &[s]);
                assert_eq!(alone.verdict(s), all.verdict(s), "{s} on {line}");
            }
        }
    }

    #[test]
    fn weakest_are_the_minimal_search_free_schemes() {
        let g = Grade {
            givens: 20,
            verdicts: vec![
                (Scheme::FC, FixpointVerdict::Open { candidates: 100 }),
                (Scheme::FCI, FixpointVerdict::SearchFree),
                (Scheme::BC, FixpointVerdict::SearchFree),
                (Scheme::BCI, FixpointVerdict::SearchFree),
                (Scheme::HAC, FixpointVerdict::SearchFree),
            ],
        };
        assert_eq!(g.weakest(), vec![Scheme::FCI, Scheme::BC]);
        let mut summary = Summary::new(&[Scheme::FC, Scheme::FCI, Scheme::BC]);
        summary.add(&g);
        assert_eq!(summary.percent(0), 0.0);
        assert_eq!(summary.percent(1), 100.0);
        let diffs = differences(&[Scheme::FC, Scheme::FCI, Scheme::BC, Scheme::BCI], [&g]);
        assert!(diffs.contains(&(Scheme::FC, Scheme::FCI, 1)));
        assert!(diffs.contains(&(Scheme::FCI, Scheme::BCI, 0)));
        assert!(
            !diffs
                .iter()
                .any(|&(a, b, _)| (a, b) == (Scheme::FC, Scheme::BCI))
        );
    }

    #[test]
    fn spread_of_a_sample() {
        let s = Spread::of(&[4.0, 1.0, 3.0, 2.0]).unwrap();
        assert_eq!((s.min, s.avg, s.median, s.max), (1.0, 2.5, 2.5, 4.0));
        assert_eq!(Spread::of(&[]), None);
    }
}
