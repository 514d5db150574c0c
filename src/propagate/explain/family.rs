//! Which rules a scheme's explanation may use: the reasoning its propagators contain.
//!
//! | rule | schemes |
//! |---|---|
//! | givens, naked singles, contradictions | all (forward checking is in every scheme) |
//! | hidden singles | channeling (`FCI`, `BCI`) and `HAC` (a value's places are covered by every matching) |
//! | naked sets | `BC` (range exhaustion finds sets of cells) and `HAC` |
//! | hidden sets | `BCI` (range exhaustion of the dual variables) and `HAC` |
//! | locked candidates | `S`, and `3` (a line and a box of a band) |
//! | fish (rows against columns) | `C` |
//! | lines against boxes of a band, two or more | `3` |
//! | shaving probes | `V` (their chains use the base scheme's rules) |
//!
//! # Complexity
//! O(1).

use super::step::{Reason, StepKind};
use crate::propagate::scheme::Consistency;
use crate::propagate::{Scheme, Shaving};
use crate::shape::Shape;

/// The rules of one scheme; see the module docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Family {
    pub hidden_singles: bool,
    pub naked_sets: bool,
    pub hidden_sets: bool,
    pub locked: bool,
    pub fish: bool,
    pub band: bool,
    pub probes: bool,
}

impl Family {
    /// The rules of `scheme`.
    pub fn of(scheme: Scheme) -> Family {
        let level = scheme.level();
        Family {
            hidden_singles: scheme.channeling() || level == Consistency::Hac,
            naked_sets: level >= Consistency::Bc,
            hidden_sets: level == Consistency::Hac
                || (level == Consistency::Bc && scheme.channeling()),
            locked: scheme.same() || scheme.rows_boxes(),
            fish: scheme.colored(),
            band: scheme.rows_boxes(),
            probes: scheme.shaving() != Shaving::None,
        }
    }

    /// The rules of a story of `scheme` told in human order: the scheme's, with every rule of
    /// the singles, locked candidates and sets (see [`super::Order::Human`]).
    pub fn human(scheme: Scheme) -> Family {
        Family {
            hidden_singles: true,
            naked_sets: true,
            hidden_sets: true,
            locked: true,
            ..Family::of(scheme)
        }
    }

    /// The rules of `scheme` for a story told in `order`.
    pub fn for_order(scheme: Scheme, order: super::Order) -> Family {
        match order {
            super::Order::Scheme => Family::of(scheme),
            super::Order::Human => Family::human(scheme),
        }
    }

    /// Whether a step with `reason` is one of the family's.
    pub fn allows(self, shape: Shape, reason: &Reason) -> bool {
        match reason.kind(shape) {
            StepKind::Givens | StepKind::NakedSingle | StepKind::Contradiction => true,
            StepKind::HiddenSingle => self.hidden_singles,
            StepKind::NakedSet => self.naked_sets,
            StepKind::HiddenSet => self.hidden_sets,
            StepKind::LockedCandidates => self.locked,
            StepKind::Fish => self.fish,
            StepKind::BandFish => self.band,
            StepKind::Probe => self.probes,
        }
    }
}
