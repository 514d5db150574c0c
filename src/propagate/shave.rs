//! Shaving (the `V` of `FCV`, `BCV`, `HACV`, and of their `+` forms): try each candidate, and
//! remove it if the base scheme refutes it.
//!
//! Simonis (2005): "a simple program, which operates on a list of variables, and which removes
//! any value in the domain of each variable which directly leads to a failure", run as "one
//! shaving step before search". One **pass** ([`Shaving::Once`], the paper's `V`): the cells in
//! row-major order, and for each cell with several candidates its candidates in increasing
//! order; a copy of the store gets the candidate assigned and is propagated with the base scheme
//! (`FC`, `BC` or `HAC`); if that fails, the candidate is in no solution, is removed from the
//! real store at once (later probes see the removal) and the base propagation is run again.
//! The pass ends after the last cell. [`Shaving::Fixpoint`] (`FCV+`, `BCV+`, `HACV+`) repeats
//! passes until one removes nothing: the fixpoint of "base + singleton consistency with respect
//! to base", stronger than one pass (top100's 18th puzzle needs the repeats under `FC`).
//!
//! Both are stronger than their base (`X ⊑ XV ⊑ XV+`). With a monotone base a single pass is
//! monotone in its start and in the base, so `FCV ⊑ BCV ⊑ HACV` holds pass for pass; one pass
//! depends on where it starts, which is why a shaving scheme always starts its pass from its
//! base's fixpoint of the givens (never from a stronger store: that would be more than one pass).
//!
//! # Complexity
//! A pass is O(candidates) probes, each a base fixpoint (plus a base fixpoint per removal); the
//! fixpoint form runs at most one pass per removed candidate plus one, so O(n³) passes in the
//! worst case (a handful in practice).
//!
//! # References
//! H. Simonis, "Sudoku as a constraint problem", 2005 (shaving, the `V` schemes); the method is
//! the singleton consistency of P. Prosser, K. Stergiou, T. Walsh, "Singleton consistencies",
//! CP 2000, and the shaving of P. Martin, D. B. Shmoys, "A new approach to computing optimal
//! schedules for the job-shop scheduling problem", IPCO 1996.

use super::trace::Rule;
use super::{Domains, Failure, Propagator, Scheme, Shaving};

impl Propagator {
    /// Shaves `d`, which is at the fixpoint of `base`: one pass, or passes to the fixpoint.
    pub(super) fn shave(
        &mut self,
        d: &mut Domains,
        base: Scheme,
        mode: Shaving,
    ) -> Result<(), Failure> {
        let mut probe = self
            .probe
            .take()
            .filter(|p| p.shape() == d.shape())
            .unwrap_or_else(|| Box::new(d.clone()));
        let mut result = Ok(());
        loop {
            match self.shave_pass(d, base, &mut probe) {
                Ok(true) if mode == Shaving::Fixpoint => continue,
                Ok(_) => break,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.probe = Some(probe);
        result
    }

    /// One pass over the cells; returns whether it removed a candidate.
    fn shave_pass(
        &mut self,
        d: &mut Domains,
        base: Scheme,
        probe: &mut Domains,
    ) -> Result<bool, Failure> {
        let cells = d.shape().cells();
        let n = self.n;
        let mut removed = false;
        for cell in 0..cells {
            if d.count(cell) < 2 {
                continue;
            }
            // A search's budget ran out: the pass stops here (what it removed is sound).
            if self
                .stop
                .as_ref()
                .is_some_and(|b| b.interrupted().is_some())
            {
                return Ok(false);
            }
            for v in 0..n {
                if !d.contains(cell, v) {
                    continue;
                }
                probe.copy_from(d);
                self.propagations += 1;
                if self.untraced(|e| e.assign(probe, base, cell, v)).is_err() {
                    removed = true;
                    self.trace_event(Rule::Shave { cell, value: v }, &[(cell, v)]);
                    self.exclude(d, base, cell, v)?;
                    if d.count(cell) < 2 {
                        break;
                    }
                }
            }
        }
        Ok(removed)
    }
}
