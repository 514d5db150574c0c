//! A whole explanation: the puzzle, the scheme, the steps and how they end, with the sentences,
//! the JSON and the stores before each step ([`Explanation::frames`]) that the front ends show.
//!
//! # Complexity
//! [`Explanation::frames`] replays the removals: O(steps + removals) store operations.

use super::step::Deduction;
use super::words::{cell_name, count, symbol, values_text};
use crate::grid::Grid;
use crate::propagate::{Domains, Scheme};

/// Where the story ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// Every cell has one candidate: the solution, verified.
    Solved(Grid),
    /// The fixpoint leaves open cells: a search would start here.
    Stuck {
        /// Cells with more than one candidate.
        open_cells: usize,
        /// Candidates left in all cells.
        candidates: usize,
        /// Where a search on this scheme would branch first: the open cell with the fewest
        /// candidates (first in row-major order), and its smallest candidate, tried first.
        branch: (usize, usize),
    },
    /// A cell, a set of cells or values, or a value lost its last candidate: no solution.
    Contradiction,
}

/// Which rules a story may take its steps from; either way it goes to the scheme's own
/// fixpoint (or contradiction), the easiest applicable rule first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Order {
    /// The scheme's own rules ([`super::family`]): a hidden single only under a scheme that
    /// has it.
    #[default]
    Scheme,
    /// Every rule the explanations know, easiest first (singles, then locked candidates, then
    /// sets, then the scheme's stronger reasoning), as a human solver would: under `BC` a hidden
    /// single comes before a naked set. The steps never remove what the scheme's fixpoint
    /// keeps, so the story ends where the scheme does.
    Human,
}

impl Order {
    /// `scheme` or `human`.
    pub fn name(self) -> &'static str {
        match self {
            Order::Scheme => "scheme",
            Order::Human => "human",
        }
    }
}

/// The whole story of one scheme's fixpoint on one puzzle.
#[derive(Debug, Clone)]
pub struct Explanation {
    /// The puzzle.
    pub puzzle: Grid,
    /// The scheme.
    pub scheme: Scheme,
    /// Which rules the steps come from.
    pub order: Order,
    /// The steps, in order.
    pub steps: Vec<Deduction>,
    /// How it ended.
    pub ending: Ending,
}

impl Explanation {
    /// One sentence on how the story ended: solved (and in how many steps), where a search
    /// would start (the branch cell and value), or a contradiction.
    pub fn ending_text(&self) -> String {
        let steps = count(self.steps.len(), "step");
        let shape = self.puzzle.shape();
        let scheme = match self.order {
            Order::Scheme => self.scheme.to_string(),
            Order::Human => format!("{}, told in human order,", self.scheme),
        };
        match &self.ending {
            Ending::Solved(_) => {
                format!("{scheme} solves the puzzle without search in {steps}")
            }
            Ending::Stuck {
                open_cells,
                candidates,
                branch: (cell, value),
            } => {
                let d = self.final_store();
                let options: Vec<usize> = d.values(*cell).collect();
                format!(
                    "{scheme} stops after {steps} with {} ({} left): a search would start here, \
                     branching on {} (candidates {}) and trying {} first",
                    count(*open_cells, "open cell"),
                    count(*candidates, "candidate"),
                    cell_name(shape, *cell),
                    values_text(shape, options),
                    symbol(shape.order(), *value)
                )
            }
            Ending::Contradiction => format!(
                "{scheme} reaches a contradiction after {steps}: the puzzle has no solution"
            ),
        }
    }

    /// The verified solution, when the scheme solved the puzzle without search.
    pub fn solution(&self) -> Option<&Grid> {
        match &self.ending {
            Ending::Solved(grid) => Some(grid),
            _ => None,
        }
    }

    /// The candidates after the last step.
    pub fn final_store(&self) -> Domains {
        let mut d = Domains::from_puzzle(&self.puzzle);
        for step in &self.steps {
            for &(cell, v) in &step.removed {
                d.remove(cell, v);
            }
        }
        d
    }

    /// Calls `frame` with each step and the candidates just before it, then once with `None`
    /// and the final candidates.
    pub fn frames(&self, mut frame: impl FnMut(Option<&Deduction>, &Domains)) {
        let mut d = Domains::from_puzzle(&self.puzzle);
        for step in &self.steps {
            frame(Some(step), &d);
            for &(cell, v) in &step.removed {
                d.remove(cell, v);
            }
        }
        frame(None, &d);
    }

    /// The story as text lines: `step K, NAME: TEXT` per step, a probe's chain indented below it
    /// (`  step K.J, NAME: TEXT`), then the ending (with the solution's puzzle line, when
    /// solved and the order allows one).
    pub fn text_lines(&self) -> Vec<String> {
        fn push(lines: &mut Vec<String>, steps: &[Deduction], prefix: &str, indent: &str) {
            for (i, step) in steps.iter().enumerate() {
                let number = format!("{prefix}{}", i + 1);
                lines.push(format!(
                    "{indent}step {number}, {}: {}",
                    step.name, step.text
                ));
                push(
                    lines,
                    step.chain(),
                    &format!("{number}."),
                    &format!("{indent}  "),
                );
            }
        }
        let mut lines = Vec::new();
        push(&mut lines, &self.steps, "", "");
        lines.push(match self.solution().and_then(crate::text::to_line) {
            Some(line) => format!("{}: {line}", self.ending_text()),
            None => self.ending_text(),
        });
        lines
    }

    /// The story as JSON objects: one per step ([`Deduction::to_json`], numbered from 1), then
    /// the ending ([`Explanation::ending_json`]).
    pub fn json_lines(&self) -> Vec<serde_json::Value> {
        let shape = self.puzzle.shape();
        let mut out: Vec<serde_json::Value> = self
            .steps
            .iter()
            .enumerate()
            .map(|(i, step)| step.to_json(shape, i + 1))
            .collect();
        out.push(self.ending_json());
        out
    }

    /// The ending as a JSON object: `ending` (`solved`, `search`, `contradiction`), `scheme`,
    /// `steps`, `text`, `solution` (a grid object, when solved), and for `search` the
    /// `open_cells`, `candidates` and `branch` (`[row, column, value]`, 1-based).
    pub fn ending_json(&self) -> serde_json::Value {
        let shape = self.puzzle.shape();
        let (ending, solution) = match &self.ending {
            Ending::Solved(grid) => ("solved", Some(crate::text::to_json(grid))),
            Ending::Stuck { .. } => ("search", None),
            Ending::Contradiction => ("contradiction", None),
        };
        let mut value = serde_json::json!({
            "ending": ending,
            "scheme": self.scheme.name(),
            "steps": self.steps.len(),
            "text": self.ending_text(),
            "solution": solution,
        });
        if self.order == Order::Human {
            value["order"] = self.order.name().into();
        }
        if let Ending::Stuck {
            open_cells,
            candidates,
            branch: (cell, v),
        } = self.ending
        {
            value["open_cells"] = open_cells.into();
            value["candidates"] = candidates.into();
            value["branch"] =
                serde_json::json!([shape.row_of(cell) + 1, shape.col_of(cell) + 1, v + 1]);
        }
        value
    }
}
