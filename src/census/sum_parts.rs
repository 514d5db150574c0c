//! Summing the parts of a plan: counts them on the current rayon pool, adds their counts, and
//! stops cleanly at the time limit or the stop token.
//!
//! Parts are independent: each is counted whole or not at all (a part the budget interrupts is
//! dropped, so the sum stays an exact lower bound). Each finished part is reported at once — to
//! the progress callback and to the resume file — and parts already in the resume file are not
//! counted again.
//!
//! # Complexity
//! The sum of the parts' costs, spread over the pool's threads (one part at a time per thread,
//! taken in order); O(1) locked work per part.

use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;

use super::{CensusError, CensusProgress, PartError, Phase, Plan};
use crate::search::{Budget, StopReason};

/// What the parts added up to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PartsSum {
    /// The sum of the parts counted (now and before a resume): the count when every part is.
    pub(crate) total: u128,
    /// Parts counted, those resumed included.
    pub(crate) done: usize,
    /// Parts taken from the resume file.
    pub(crate) resumed: usize,
    /// The share of work done in the parts a stop interrupted, added up.
    pub(crate) interrupted_work: f64,
    /// Why parts are missing, if they are.
    pub(crate) stopped: Option<StopReason>,
}

/// Where [`sum_parts`] reports each finished part.
pub(crate) struct Reporting<'a> {
    /// Progress after each part.
    pub(crate) progress: Option<&'a (dyn Fn(&CensusProgress) + Sync)>,
    /// Records a finished part (the resume file).
    pub(crate) record: &'a (dyn Fn(usize, u128) -> Result<(), CensusError> + Sync),
    /// When the census started.
    pub(crate) started: Instant,
}

struct Tally {
    done: usize,
    total: u128,
    interrupted_work: f64,
    stopped: Option<StopReason>,
    error: Option<CensusError>,
}

/// Counts the parts of `plan` not in `resumed` and adds everything up.
///
/// # Errors
/// A part's count or the sum overflows 128 bits; the resume file cannot be written.
pub(crate) fn sum_parts(
    plan: &dyn Plan,
    budget: &Budget,
    resumed: &[(usize, u128)],
    reporting: &Reporting<'_>,
) -> Result<PartsSum, CensusError> {
    let parts = plan.parts();
    let mut finished = vec![false; parts];
    let mut total = 0u128;
    for &(part, count) in resumed {
        finished[part] = true;
        total = total.checked_add(count).ok_or(CensusError::Overflow)?;
    }
    let pending: Vec<usize> = (0..parts).filter(|&k| !finished[k]).collect();
    let tally = Mutex::new(Tally {
        done: resumed.len(),
        total,
        interrupted_work: 0.0,
        stopped: None,
        error: None,
    });
    let lock = || tally.lock().unwrap_or_else(|p| p.into_inner());
    let report = |tally: &Tally| {
        if let Some(progress) = reporting.progress {
            progress(&CensusProgress {
                phase: Phase::Counting,
                parts_done: tally.done,
                parts,
                lower_bound: tally.total,
                elapsed: reporting.started.elapsed(),
            });
        }
    };
    report(&lock());
    pending.par_iter().with_max_len(1).for_each(|&part| {
        {
            let mut t = lock();
            if t.error.is_some() || t.stopped.is_some() {
                return;
            }
            if let Some(reason) = budget.interrupted() {
                t.stopped = Some(reason);
                return;
            }
        }
        let counted = plan.count_part(part, budget);
        let mut t = lock();
        match counted {
            Ok(count) => match t.total.checked_add(count) {
                Some(sum) => {
                    if let Err(e) = (reporting.record)(part, count) {
                        t.error.get_or_insert(e);
                        return;
                    }
                    t.total = sum;
                    t.done += 1;
                    report(&t);
                }
                None => {
                    t.error.get_or_insert(CensusError::Overflow);
                }
            },
            Err(PartError::Stopped(reason, share)) => {
                t.stopped.get_or_insert(reason);
                t.interrupted_work += share;
            }
            Err(PartError::Overflow) => {
                t.error.get_or_insert(CensusError::Overflow);
            }
        }
    });
    let tally = tally.into_inner().unwrap_or_else(|p| p.into_inner());
    if let Some(error) = tally.error {
        return Err(error);
    }
    let stopped = (tally.done < parts).then(|| {
        tally
            .stopped
            .or_else(|| budget.interrupted())
            .unwrap_or(StopReason::Cancelled)
    });
    Ok(PartsSum {
        total: tally.total,
        done: tally.done,
        resumed: resumed.len(),
        interrupted_work: tally.interrupted_work,
        stopped,
    })
}
