//! The two methods for Sudoku grids, as plans of parts: the orientation, the symmetry factors,
//! and the count of each part.
//!
//! - **Band classes** ([`BandClassPlan`], Felgenhauer and Jarvis): `n!` × Σ over the classes of
//!   first bands (first box fixed) of the class size × the completions of its representative.
//! - **Column sets** ([`ColumnSetsPlan`]): every first band is one of `f(C)` bands with its
//!   column sets `C`, and its completions depend on `C` alone; so the count is Σ over the
//!   column-set classes of the band fill table of (entries × `f` × completions), times the
//!   configurations each entry stands for: `n!/(p!^q)` orders of stack 1's partition and
//!   `(q!)^(p−1)` column orders in the other stacks.
//!
//! Both need a grid of two or three bands ([`super::completion`]); a shape whose bands are more
//! is turned on its side when its box has a side of 2 or 3 (transposing a grid maps `p×q` boxes
//! to `q×p` boxes, one to one). Two bands are preferred: their completions are a table lookup.
//!
//! # Complexity
//! Band classes: the classes' search (O(bands · generators)) plus one completion count per class.
//! Column sets: the table's classes plus one completion count per class. See the files of each
//! step.

use super::band_classes::BandClasses;
use super::band_fill::BandFill;
use super::completion::Completions;
use super::latin::factorial;
use super::{Fact, PartError, Plan, Stopped};
use crate::search::Budget;

/// The orientation a `p×q` box shape is counted in: `(rows per box, columns per box,
/// transposed)` with two or three bands, two preferred; `None` when neither side is 2 or 3.
pub(crate) fn orientation(p: usize, q: usize) -> Option<(usize, usize, bool)> {
    let native = matches!(q, 2 | 3).then_some((p, q, false));
    let turned = matches!(p, 2 | 3).then_some((q, p, true));
    match (native, turned) {
        (Some(n), Some(t)) if n.1 != 2 && t.1 == 2 => Some(t),
        (Some(n), _) => Some(n),
        (None, t) => t,
    }
}

/// The transposition line of the symmetries, when the shape was turned to be counted with
/// `p×q` boxes.
fn transposition(p: usize, q: usize, transposed: bool) -> Option<String> {
    transposed.then(|| {
        format!(
            "transposition: the grids with {q}×{p} boxes are the transposes of the grids with \
             {p}×{q} boxes, one to one; counted as {p}×{q}"
        )
    })
}

/// Completions line of the symmetries.
fn completions_line(table: &BandFill) -> String {
    let (p, q) = (table.stacks(), table.columns_per_stack());
    let how = if q == 2 {
        "the second band fills the first band's column complements: f(complement)".to_string()
    } else {
        "bands 2 and 3 from the first band's column complements R: Σ f(S)·f(R∖S) over the \
         second band's column sets S"
            .to_string()
    };
    format!(
        "{how}; f from a table of the {} column-set configurations of a band ({p} rows) in {} \
         classes",
        table.entries(),
        table.classes().len()
    )
}

/// The column-sets method for one shape.
#[derive(Debug)]
pub(crate) struct ColumnSetsPlan {
    table: BandFill,
    /// `n!/(p!^q) · (q!)^(p−1)`: the column-set configurations each table entry stands for.
    per_entry: u128,
    transposed: bool,
}

impl ColumnSetsPlan {
    /// The plan for `p×q` boxes, or `Ok(None)` when the method does not reach the shape.
    ///
    /// # Errors
    /// The budget stopped the table's construction.
    pub(crate) fn new(p: usize, q: usize, budget: &Budget) -> Result<Option<Self>, Stopped> {
        let Some((p, q, transposed)) = orientation(p, q) else {
            return Ok(None);
        };
        let Some(table) = BandFill::new(p, q, budget)? else {
            return Ok(None);
        };
        let n = p * q;
        let per_entry = factorial(n) / factorial(p).pow(q as u32) * factorial(q).pow(p as u32 - 1);
        Ok(Some(ColumnSetsPlan {
            table,
            per_entry,
            transposed,
        }))
    }

    /// All first bands, from the table: Σ entries × f × the configurations per entry.
    pub(crate) fn first_bands(&self) -> u128 {
        self.table
            .classes()
            .iter()
            .map(|c| u128::from(c.size) * u128::from(c.fill))
            .sum::<u128>()
            * self.per_entry
    }
}

impl Plan for ColumnSetsPlan {
    fn parts(&self) -> usize {
        self.table.classes().len()
    }

    fn count_part(&self, part: usize, _budget: &Budget) -> Result<u128, PartError> {
        let class = self.table.classes()[part];
        let completions = Completions::new(&self.table)
            .expect("the orientation has two or three bands")
            .count(&self.table.column_sets(class.representative));
        [u128::from(class.size), u128::from(class.fill), completions]
            .into_iter()
            .try_fold(self.per_entry, u128::checked_mul)
            .ok_or(PartError::Overflow)
    }

    fn symmetries(&self) -> Vec<String> {
        let (p, q, n) = (
            self.table.stacks(),
            self.table.columns_per_stack(),
            self.table.order(),
        );
        let mut lines: Vec<String> = transposition(p, q, self.transposed).into_iter().collect();
        lines.push(format!(
            "value relabelling: the first stack's column sets fixed, times {n}!/({p}!^{q}) = {}",
            factorial(n) / factorial(p).pow(q as u32)
        ));
        lines.push(format!(
            "column order inside the other stacks: times ({q}!)^{} = {}",
            p - 1,
            factorial(q).pow(p as u32 - 1)
        ));
        lines.push(
            "relabellings that keep the first stack's column sets, stack permutations: the \
             configurations fall into classes of equal fill and equal completions (the parts)"
                .to_string(),
        );
        lines.push(completions_line(&self.table));
        lines
    }

    fn facts(&self, _total: Option<u128>) -> Vec<Fact> {
        vec![
            Fact::new("first_bands", self.first_bands()),
            Fact::new("configurations", self.table.entries() as u128),
            Fact::new("configuration_classes", self.table.classes().len() as u128),
        ]
    }
}

/// The band-classes method (Felgenhauer and Jarvis) for one shape.
#[derive(Debug)]
pub(crate) struct BandClassPlan {
    /// The classes of first bands under column, stack and row permutations (416 for 3×3).
    classes: BandClasses,
    /// The band classes merged by their column-set class (44 for 3×3): the parts. Each is a
    /// list of band classes (indices into `classes`), the first one counted.
    merged: Vec<Vec<usize>>,
    table: BandFill,
    /// `n!`: the relabellings that fix the first box.
    relabellings: u128,
    transposed: bool,
}

impl BandClassPlan {
    /// The plan for `p×q` boxes, or `Ok(None)` when the method does not reach the shape.
    ///
    /// # Errors
    /// The budget stopped the classes' search or the table's construction.
    pub(crate) fn new(p: usize, q: usize, budget: &Budget) -> Result<Option<Self>, Stopped> {
        let Some((p, q, transposed)) = orientation(p, q) else {
            return Ok(None);
        };
        let Some(table) = BandFill::new(p, q, budget)? else {
            return Ok(None);
        };
        let Some(classes) = BandClasses::new(p, q, budget)? else {
            return Ok(None);
        };
        // Merge the band classes whose column sets fall in one class of the table.
        let mut slot_of_table_class: Vec<Option<usize>> = vec![None; table.classes().len()];
        let mut merged: Vec<Vec<usize>> = Vec::new();
        for (k, class) in classes.classes().iter().enumerate() {
            let entry = table.index_of(&classes.column_sets(class.representative));
            let slot = slot_of_table_class[table.class_of(entry)].get_or_insert_with(|| {
                merged.push(Vec::new());
                merged.len() - 1
            });
            merged[*slot].push(k);
        }
        Ok(Some(BandClassPlan {
            classes,
            merged,
            table,
            relabellings: factorial(p * q),
            transposed,
        }))
    }
}

impl Plan for BandClassPlan {
    fn parts(&self) -> usize {
        self.merged.len()
    }

    fn count_part(&self, part: usize, _budget: &Budget) -> Result<u128, PartError> {
        let members = &self.merged[part];
        let bands: u128 = members
            .iter()
            .map(|&k| u128::from(self.classes.classes()[k].size))
            .sum();
        let first = self.classes.classes()[members[0]];
        let completions = Completions::new(&self.table)
            .expect("the orientation has two or three bands")
            .count(&self.classes.column_sets(first.representative));
        self.relabellings
            .checked_mul(bands)
            .and_then(|x| x.checked_mul(completions))
            .ok_or(PartError::Overflow)
    }

    fn symmetries(&self) -> Vec<String> {
        let (p, q, n) = (
            self.table.stacks(),
            self.table.columns_per_stack(),
            self.table.order(),
        );
        let mut lines: Vec<String> = transposition(p, q, self.transposed).into_iter().collect();
        lines.push(format!(
            "value relabelling: the first box fixed, times {n}! = {}",
            self.relabellings
        ));
        lines.push(format!(
            "column permutations inside each stack, permutations of the stacks and of the band's \
             rows, each followed by the relabelling that fixes the first box: the {} first bands \
             in {} classes",
            self.classes.bands(),
            self.classes.classes().len()
        ));
        lines.push(format!(
            "the completions depend only on the band's column sets: the classes with equivalent \
             column sets merged into {} (the parts), one completion count each",
            self.merged.len()
        ));
        lines.push(completions_line(&self.table));
        lines
    }

    fn facts(&self, _total: Option<u128>) -> Vec<Fact> {
        vec![
            Fact::new("first_bands", u128::from(self.classes.bands())),
            Fact::new("band_structures", self.classes.structures() as u128),
            Fact::new("band_classes", self.classes.classes().len() as u128),
            Fact::new("column_set_classes", self.merged.len() as u128),
        ]
    }
}
