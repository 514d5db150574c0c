//! Shaving (the `V` of `FCV`, `BCV`, `HACV`): try each candidate, and remove it if the base scheme
//! refutes it.
//!
//! For every cell with several candidates and every candidate `v` of it, a copy of the store gets
//! `v` assigned and is propagated with the base scheme (`FC`, `BC` or `HAC`); if that fails, `v` is
//! in no solution and is removed from the real store, which is propagated again. Rounds repeat
//! until one removes nothing, so the result is the fixpoint of "base + singleton consistency with
//! respect to base". Shaving is stronger than its base (`X ⊑ XV`) and costs a base propagation per
//! candidate per round.
//!
//! # Complexity
//! A round is O(candidates) probes, each a base fixpoint; at most one round per removed candidate
//! plus one, so O(n³) rounds in the worst case (a handful in practice).
//!
//! # References
//! H. Simonis, "Sudoku as a constraint problem", 2005, §5 (shaving); the method is the singleton
//! consistency of P. Prosser, K. Stergiou, T. Walsh, "Singleton consistencies", CP 2000.

use super::{Domains, Failure, Propagator, Scheme};

impl Propagator {
    /// Shaves `d`, which is at the fixpoint of `base`, to the shaving fixpoint of `base`.
    pub(super) fn shave(&mut self, d: &mut Domains, base: Scheme) -> Result<(), Failure> {
        let mut probe = self
            .probe
            .take()
            .filter(|p| p.shape() == d.shape())
            .unwrap_or_else(|| Box::new(d.clone()));
        let result = self.shave_rounds(d, base, &mut probe);
        self.probe = Some(probe);
        result
    }

    fn shave_rounds(
        &mut self,
        d: &mut Domains,
        base: Scheme,
        probe: &mut Domains,
    ) -> Result<(), Failure> {
        let cells = d.shape().cells();
        let n = self.n;
        loop {
            let mut removed = false;
            for cell in 0..cells {
                if d.count(cell) < 2 {
                    continue;
                }
                for v in 0..n {
                    if !d.contains(cell, v) {
                        continue;
                    }
                    probe.copy_from(d);
                    self.propagations += 1;
                    if self.assign(probe, base, cell, v).is_err() {
                        removed = true;
                        self.exclude(d, base, cell, v)?;
                        if d.count(cell) < 2 {
                            break;
                        }
                    }
                }
            }
            if !removed {
                return Ok(());
            }
        }
    }
}
