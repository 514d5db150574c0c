//! Everyday difficulty labels (`easy`, `medium`, `hard`, `expert`) defined by Simonis'
//! propagation schemes, so that a label means what a human solver needs:
//!
//! | label | search-free for | not search-free for | what a solver needs |
//! |---|---|---|---|
//! | `easy` | `FCI` | | naked and hidden singles (forward checking with channeling) |
//! | `medium` | `HAC` | `FCI` | naked and hidden subsets within one row, column or box (hyper-arc consistency of each `alldifferent`) |
//! | `hard` | `HACS` | `HAC` | the interactions of a box with a row or column as well (the redundant constraints `S`: pointing and claiming) |
//! | `expert` | | `HACS` | trial of single values (shaving, `HACV`) or search |
//!
//! The schemes form a chain (`FCI ⊑ HAC ⊑ HACS`, see [`Scheme::weaker_than`]), so the label of a
//! puzzle is the first level whose scheme solves it without search, and a puzzle generated for
//! a label ([`Difficulty::target`]: search-free for its scheme, not for the one below) is graded
//! with that label again.
//!
//! The cut points follow the grading tables of the collections (BENCHMARKS.md, "Grading", the
//! percentages search-free): royle17 (minimal 17-given puzzles) spreads over every label (44.6 %
//! `FCI`, 70.1 % `HAC`, 84.7 % `HACS`: 44.6 % easy, 25.5 % medium, 14.6 % hard, 15.3 % expert);
//! magictour_top95, a collection of hard puzzles, has no easy one (0.0 % `FCI`, 15.8 % `HAC`,
//! 30.5 % `HACS`); forum_hardest, the hardest known, is all expert (no scheme without shaving
//! solves any). `BC` and `BCI` are left out: ECLiPSe's range exhaustion is not a technique
//! human solvers name, and its fixpoint depends on the propagation order.
//!
//! A label says how hard a puzzle is *if* it has one solution: propagation does not prove
//! uniqueness (`solve --unique` does), and a puzzle with several solutions is `expert` here
//! (every scheme leaves a choice). A refuted puzzle (no solution) has no label.
//!
//! # Complexity
//! [`Difficulty::of`] reads verdicts already computed: O(number of schemes graded).
//!
//! # References
//! H. Simonis, "Sudoku as a constraint problem", 2005 (the schemes, Tables 1–3).
//!
//! # Examples
//! ```
//! use sudokit::grade::{Difficulty, Grader};
//! use sudokit::text::parse_line;
//! let puzzle = parse_line("...3..4114..3...", None).unwrap();
//! let mut grader = Grader::new(puzzle.shape());
//! let grade = grader.grade(&puzzle, &Difficulty::SCHEMES);
//! let label = Difficulty::of(&grade).unwrap();
//! assert_eq!(label.to_string(), "easy");
//! assert_eq!("hard".parse::<Difficulty>().unwrap().target(), (Some(sudokit::propagate::Scheme::HACS), Some(sudokit::propagate::Scheme::HAC)));
//! ```

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::{FixpointVerdict, Grade};
use crate::propagate::Scheme;

/// An everyday difficulty label; see the module docs for its definition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Difficulty {
    /// Search-free for `FCI`.
    Easy,
    /// Search-free for `HAC`, not for `FCI`.
    Medium,
    /// Search-free for `HACS`, not for `HAC`.
    Hard,
    /// Not search-free for `HACS`.
    Expert,
}

impl Difficulty {
    /// Every label, easiest first.
    pub const ALL: [Difficulty; 4] = [
        Difficulty::Easy,
        Difficulty::Medium,
        Difficulty::Hard,
        Difficulty::Expert,
    ];

    /// The schemes a grade needs for [`Difficulty::of`] to give a label, weakest first.
    pub const SCHEMES: [Scheme; 3] = [Scheme::FCI, Scheme::HAC, Scheme::HACS];

    /// The label's name (`easy`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
            Difficulty::Expert => "expert",
        }
    }

    /// What a generator aims at for this label: the scheme the puzzle must be search-free for
    /// (`--scheme`) and the scheme it must not be search-free for (`--not-scheme`).
    pub fn target(self) -> (Option<Scheme>, Option<Scheme>) {
        match self {
            Difficulty::Easy => (Some(Scheme::FCI), None),
            Difficulty::Medium => (Some(Scheme::HAC), Some(Scheme::FCI)),
            Difficulty::Hard => (Some(Scheme::HACS), Some(Scheme::HAC)),
            Difficulty::Expert => (None, Some(Scheme::HACS)),
        }
    }

    /// The label of a graded puzzle: the first label whose scheme is search-free. `None` when
    /// the puzzle was refuted, or when the grade lacks a verdict the label depends on (the
    /// grade was made without every scheme of [`Difficulty::SCHEMES`] that decides it).
    pub fn of(grade: &Grade) -> Option<Difficulty> {
        if grade.refuted() {
            return None;
        }
        for (label, scheme) in Difficulty::ALL.into_iter().zip(Difficulty::SCHEMES) {
            match grade.verdict(scheme)? {
                FixpointVerdict::SearchFree => return Some(label),
                FixpointVerdict::Open { .. } => {}
                FixpointVerdict::Refuted => return None,
            }
        }
        Some(Difficulty::Expert)
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Difficulty {
    type Err = String;

    fn from_str(s: &str) -> Result<Difficulty, String> {
        Difficulty::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("difficulty must be easy, medium, hard or expert, not {s}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::Grader;
    use crate::text::parse_line;

    #[test]
    fn a_generated_target_is_graded_with_its_label() {
        for (k, label) in Difficulty::ALL.into_iter().enumerate() {
            // Search-free from the label's scheme up (the chain), open below it.
            let verdicts = Difficulty::SCHEMES
                .iter()
                .enumerate()
                .map(|(i, &s)| {
                    let verdict = if i >= k {
                        FixpointVerdict::SearchFree
                    } else {
                        FixpointVerdict::Open { candidates: 100 }
                    };
                    (s, verdict)
                })
                .collect();
            let grade = Grade {
                givens: 20,
                verdicts,
            };
            assert_eq!(Difficulty::of(&grade), Some(label), "{label}");
            let below = k.checked_sub(1).map(|i| Difficulty::SCHEMES[i]);
            assert_eq!(
                label.target(),
                (Difficulty::SCHEMES.get(k).copied(), below),
                "{label}"
            );
        }
        for pair in Difficulty::SCHEMES.windows(2) {
            assert!(pair[0].weaker_than(pair[1]) && pair[0] != pair[1]);
        }
    }

    #[test]
    fn a_grade_without_the_deciding_schemes_has_no_label() {
        let puzzle = parse_line("...3..4114..3...", None).unwrap();
        let mut grader = Grader::new(puzzle.shape());
        assert_eq!(
            Difficulty::of(&grader.grade(&puzzle, &[Scheme::FCI])),
            Some(Difficulty::Easy)
        );
        // top95, line 4: not search-free for FC, and no verdict for FCI: undecided.
        let hard = parse_line(
            "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....",
            None,
        )
        .unwrap();
        let mut grader = Grader::new(hard.shape());
        assert_eq!(Difficulty::of(&grader.grade(&hard, &[Scheme::FC])), None);
        assert_eq!(
            Difficulty::of(&grader.grade(&hard, &Difficulty::SCHEMES)),
            Some(Difficulty::Expert)
        );
    }

    #[test]
    fn names_round_trip() {
        for label in Difficulty::ALL {
            assert_eq!(label.name().parse::<Difficulty>(), Ok(label));
        }
        assert!("trivial".parse::<Difficulty>().is_err());
    }
}
