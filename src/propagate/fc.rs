//! Forward checking (`FC`) and channeling (the `I` of `FCI` and `BCI`).
//!
//! **Forward checking** works on the binary decomposition of each `alldifferent`: once a cell has a
//! single candidate `v`, `v` leaves every peer. **Channeling** adds the dual view of a unit, one
//! variable per value saying where in the unit it goes: a value with one place left in a unit is
//! placed there (a "hidden single"), and a value with no place left is a failure.
//!
//! # Complexity
//! Forwarding one fixed cell is O(peers) = O(n). Channeling one unit is O(n·⌈n/64⌉) word
//! operations: two running unions ("seen once", "seen twice") over the unit's cells find every
//! value with zero or one place at once.
//!
//! # References
//! H. Simonis, "Sudoku as a constraint problem", 2005, §3 (FC and the channeling of the dual
//! "position" variables).

use super::{Domains, Failure, Propagator};

impl Propagator {
    /// Removes the single candidate of `cell` from every peer.
    pub(super) fn forward(&mut self, d: &mut Domains, cell: usize) -> Result<(), Failure> {
        let Some(v) = d.value(cell) else {
            // The cell was queued when it reached one candidate; it cannot have lost it without
            // a failure, which clears the queue.
            return if d.count(cell) == 0 {
                Err(Failure)
            } else {
                Ok(())
            };
        };
        for i in self.peer_start[cell] as usize..self.peer_start[cell + 1] as usize {
            let peer = self.peers[i] as usize;
            self.remove(d, peer, v)?;
        }
        Ok(())
    }

    /// Channeling on unit `u`: places values with one place left, fails on values with none.
    pub(super) fn channel(&mut self, d: &mut Domains, u: usize) -> Result<(), Failure> {
        let (n, w) = (self.n, self.words);
        // once = values seen in at least one cell, twice = in at least two.
        let mut once = std::mem::take(&mut self.scratch);
        let mut twice = std::mem::take(&mut self.scratch2);
        once.fill(0);
        twice[..w].fill(0);
        for i in 0..n {
            let cell = self.unit_cells[u * n + i] as usize;
            for (k, &word) in d.cell_words(cell).iter().enumerate() {
                twice[k] |= once[k] & word;
                once[k] |= word;
            }
        }
        let mut result = Ok(());
        // Every value must have a place.
        for (k, &word) in once.iter().enumerate() {
            let expect = if (k + 1) * 64 <= n {
                u64::MAX
            } else {
                (1u64 << (n % 64)) - 1
            };
            if word != expect {
                result = Err(Failure);
            }
        }
        if result.is_ok() {
            for k in 0..w {
                let mut singles = once[k] & !twice[k];
                while singles != 0 {
                    let v = k * 64 + singles.trailing_zeros() as usize;
                    singles &= singles - 1;
                    for i in 0..n {
                        let cell = self.unit_cells[u * n + i] as usize;
                        if d.contains(cell, v) {
                            if d.count(cell) > 1 {
                                self.restrict_to_value(d, cell, v);
                            }
                            break;
                        }
                    }
                    // Placing a value removes candidates of that cell only, so the other
                    // singles stay single; one that vanished with them (two singles in one cell)
                    // is caught as a failure when the unit, marked dirty, is revised again.
                }
            }
        }
        self.scratch = once;
        self.scratch2 = twice;
        result
    }
}
