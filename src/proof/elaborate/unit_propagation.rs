//! The elaborator's unit propagation: setting literals (and writing the unit clause of each one
//! set at the top level), two watched literals with blocking literals, going back to the top
//! level, the RUP check of a clause and the conflict analysis that gives its LRAT hints.
//!
//! # Complexity
//! Propagation is amortised over the watches; the analysis walks back over the literals set by
//! the clause under test only.

use std::io::{self, Write};

use super::{Elaborator, NONE, Watch, var};

impl<W: Write> Elaborator<W> {
    /// Records the top-level failure of clause `index` (all its literals false at the top).
    pub(super) fn fail_top(&mut self, index: u32) {
        let c = self.clauses[index as usize];
        let mut hints: Vec<u64> = self
            .literals(c)
            .iter()
            .map(|&l| self.unit_id[var(l)])
            .collect();
        hints.push(c.id);
        self.refutation = Some(hints);
    }

    /// Sets `lit` true with reason `reason`; at the top level, writes its unit clause.
    pub(super) fn assign(&mut self, lit: u32, reason: u32) -> io::Result<()> {
        self.value[lit as usize] = 1;
        self.value[(lit ^ 1) as usize] = -1;
        self.reason[var(lit)] = reason;
        self.trail.push(lit);
        if self.at_top {
            self.top = self.trail.len();
            let c = self.clauses[reason as usize];
            if c.len == 1 {
                self.unit_id[var(lit)] = c.id;
            } else {
                self.hints.clear();
                for k in c.start..c.start + c.len {
                    let other = self.arena[k as usize];
                    if other != lit {
                        self.hints.push(self.unit_id[var(other)]);
                    }
                }
                self.hints.push(c.id);
                let unit = self.store(&[lit], false);
                let id = self.clauses[unit as usize].id;
                self.unit_id[var(lit)] = id;
                self.write_step(id, &[lit])?;
            }
        }
        Ok(())
    }

    /// Propagates at the top level; a failure is recorded as the refutation.
    pub(super) fn propagate_top(&mut self) -> io::Result<()> {
        if let Some(conflict) = self.propagate()? {
            self.fail_top(conflict);
        }
        Ok(())
    }

    /// Unit propagation from the trail's head: the clause that became false, if any.
    pub(super) fn propagate(&mut self) -> io::Result<Option<u32>> {
        while self.head < self.trail.len() {
            let falsified = self.trail[self.head] ^ 1;
            self.head += 1;
            let mut watching = std::mem::take(&mut self.watches[falsified as usize]);
            let mut kept = 0;
            let mut at = 0;
            let mut conflict = None;
            while at < watching.len() {
                let watch = watching[at];
                at += 1;
                if self.value[watch.blocker as usize] == 1 {
                    watching[kept] = watch;
                    kept += 1;
                    continue;
                }
                let index = watch.clause;
                let c = self.clauses[index as usize];
                if !c.live {
                    continue;
                }
                let start = c.start as usize;
                let len = c.len as usize;
                if self.arena[start] == falsified {
                    self.arena.swap(start, start + 1);
                }
                let other = self.arena[start];
                if self.value[other as usize] == 1 {
                    watching[kept] = Watch {
                        clause: index,
                        blocker: other,
                    };
                    kept += 1;
                    continue;
                }
                let mut moved = false;
                for k in 2..len {
                    let l = self.arena[start + k];
                    if self.value[l as usize] != -1 {
                        self.arena.swap(start + 1, start + k);
                        self.watches[l as usize].push(Watch {
                            clause: index,
                            blocker: other,
                        });
                        moved = true;
                        break;
                    }
                }
                if moved {
                    continue;
                }
                watching[kept] = watch;
                kept += 1;
                if self.value[other as usize] == -1 {
                    conflict = Some(index);
                    break;
                }
                self.assign(other, index)?;
            }
            while at < watching.len() {
                watching[kept] = watching[at];
                kept += 1;
                at += 1;
            }
            watching.truncate(kept);
            self.watches[falsified as usize] = watching;
            if conflict.is_some() {
                return Ok(conflict);
            }
        }
        Ok(None)
    }

    /// Undoes everything set since the top level.
    pub(super) fn backtrack(&mut self) {
        for &lit in &self.trail[self.top..] {
            self.value[lit as usize] = 0;
            self.value[(lit ^ 1) as usize] = 0;
            self.reason[var(lit)] = NONE;
        }
        self.trail.truncate(self.top);
        self.head = self.top;
        self.at_top = true;
    }

    /// Whether `clause` (duplicate-free codes, no tautology) is RUP; its hints in `self.hints`.
    pub(super) fn rup(&mut self, clause: &[u32]) -> bool {
        debug_assert!(self.at_top && self.head == self.trail.len());
        self.hints.clear();
        for &l in clause {
            self.in_clause[var(l)] = true;
        }
        let mut found = None;
        // A literal of the clause true at the top level: its unit is falsified at once.
        for &l in clause {
            if self.value[l as usize] == 1 {
                found = Some(self.unit_id[var(l)]);
                break;
            }
        }
        let proven = if let Some(unit) = found {
            self.hints.push(unit);
            true
        } else {
            self.at_top = false;
            for &l in clause {
                if self.value[l as usize] == 0 {
                    // Cannot fail: no unit is written below the top level.
                    let _ = self.assign(l ^ 1, NONE);
                }
            }
            let conflict = self.propagate().unwrap_or(None);
            let proven = if let Some(conflict) = conflict {
                self.analyse(conflict);
                true
            } else {
                false
            };
            self.backtrack();
            proven
        };
        for &l in clause {
            self.in_clause[var(l)] = false;
        }
        proven
    }

    /// The hints of a conflict in clause `conflict` below the top level: the top-level units it
    /// rests on, the reasons in the order they propagated, then the clause.
    pub(super) fn analyse(&mut self, conflict: u32) {
        self.chain.clear();
        self.marked.clear();
        let mut pending = 0usize;
        let mark = |this: &mut Self, lit: u32, pending: &mut usize| {
            let v = var(lit);
            if this.seen[v] {
                return;
            }
            this.seen[v] = true;
            this.marked.push(v as u32);
            if this.unit_id[v] != 0 {
                if !this.in_clause[v] {
                    this.hints.push(this.unit_id[v]);
                }
            } else if this.reason[v] != NONE {
                *pending += 1;
            }
        };
        let c = self.clauses[conflict as usize];
        for k in 0..c.len {
            let lit = self.arena[(c.start + k) as usize];
            mark(self, lit, &mut pending);
        }
        let mut at = self.trail.len();
        while pending > 0 && at > self.top {
            at -= 1;
            let lit = self.trail[at];
            let v = var(lit);
            let reason = self.reason[v];
            if !self.seen[v] || reason == NONE {
                continue;
            }
            pending -= 1;
            let r = self.clauses[reason as usize];
            self.chain.push(r.id);
            for k in 0..r.len {
                let other = self.arena[(r.start + k) as usize];
                if other != lit {
                    mark(self, other, &mut pending);
                }
            }
        }
        for &v in &self.marked {
            self.seen[v as usize] = false;
        }
        self.hints.extend(self.chain.iter().rev());
        self.hints.push(c.id);
    }
}
