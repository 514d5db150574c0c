//! The distinct completions the levels of one square found: which completion each level found,
//! and how many the square has.
//!
//! A square with several completions lets each level's solver find another one (the Sudoku's
//! solver, varisat, the MIP solver, dancing links and DSATUR each pick their own). Every one is
//! verified, but a page that shows one completion beside a Sudoku solution and a map of another
//! one tells two stories. [`Course::distinct_completions`] lists the **distinct completions** the
//! levels found, in the order found, and which of them each level found (the same as the first,
//! or another); the pictures and the map of the course page all show the first one, and the
//! Sudoku solution drawn is the one it maps to (built forward and verified).
//!
//! **Counts.** Where it is cheap (a solution limit and a node budget; see
//! [`super::course::CHEAP_COUNT`]) the course counts the square's completions and its Sudoku's
//! solutions separately (the fields `completions` and `count` of [`Course`]): the reduction maps
//! solutions one to one, so the two counts agree — a point worth making in class, and a check
//! ([`super::course::run_course`] refuses counts that differ).
//!
//! # Complexity
//! O(levels² · m²) grid comparisons.

use crate::grid::Grid;
pub use crate::reduce::course_data::Count;
use crate::reduce::course_data::{Course, Level, LevelAnswer};
use crate::reduce::latin::latin_to_sudoku_solution;

/// The completions the levels of one square found; see the module docs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DistinctCompletions {
    /// The distinct completions found, in the order of the levels that first found each.
    pub completions: Vec<Grid>,
    /// For each level run (in the course's order), which of [`DistinctCompletions::completions`] it found.
    pub found: Vec<(Level, Option<usize>)>,
}

impl DistinctCompletions {
    /// How the `i`-th level's completion relates to the first: "the first completion found",
    /// "the same completion as the first", "another completion: the 2nd of 3 different ones
    /// found"; `None` for a level without one.
    pub fn relation(&self, i: usize) -> Option<String> {
        let k = self.found.get(i)?.1?;
        let first_level = self.found.iter().position(|(_, f)| f.is_some())?;
        Some(if i == first_level {
            "the first completion found".into()
        } else if k == 0 {
            "the same completion as the first".into()
        } else {
            format!(
                "another completion: the {} of {} different ones found",
                ordinal(k + 1),
                self.completions.len()
            )
        })
    }

    /// Whether every level that found a completion found the same one.
    pub fn one_completion(&self) -> bool {
        self.completions.len() <= 1
    }
}

/// "2nd", "3rd", "11th".
pub fn ordinal(k: usize) -> String {
    let suffix = match (k % 10, k % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{k}{suffix}")
}

impl Course {
    /// The distinct completions the levels found; see the module docs.
    pub fn distinct_completions(&self) -> DistinctCompletions {
        let mut completions: Vec<Grid> = Vec::new();
        let found = self
            .levels
            .iter()
            .map(|run| {
                let k = match &run.answer {
                    LevelAnswer::Completed { completion, .. } => {
                        Some(match completions.iter().position(|c| c == completion) {
                            Some(k) => k,
                            None => {
                                completions.push(completion.clone());
                                completions.len() - 1
                            }
                        })
                    }
                    _ => None,
                };
                (run.level, k)
            })
            .collect();
        DistinctCompletions { completions, found }
    }

    /// The first completion found and the Sudoku solution it maps to (built by the forward map,
    /// verified): what the pictures and the map of the course page show.
    pub fn shown(&self) -> Option<(Grid, Grid)> {
        let first = self.distinct_completions().completions.into_iter().next()?;
        let sudoku = latin_to_sudoku_solution(&self.latin, &first).ok()?;
        crate::verify::verify(&self.sudoku, &sudoku).ok()?;
        Some((first, sudoku))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals() {
        let words: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(ordinal).to_vec();
        assert_eq!(
            words,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"
            ]
        );
    }
}
