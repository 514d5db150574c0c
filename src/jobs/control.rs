//! How a run is stopped from outside: the [`Control`] a front end's signal handler, its
//! `--timeout` or a closed output sets.

use std::time::{Duration, Instant};

use crate::search::{Cancel, Limits};

/// How a run is stopped from outside: a front end's signal handler, its `--timeout`, or a closed
/// output. Cloning shares the tokens.
#[derive(Debug, Clone, Default)]
pub struct Control {
    /// Stops the batch before its next item (the items in flight finish).
    pub stop: Cancel,
    /// Stops the searches in flight too (they answer `unknown (cancelled)`).
    pub abort: Cancel,
    /// No item starts after this instant, and every search's time budget ends at it (so the
    /// items in flight end `unknown (time limit)`).
    pub deadline: Option<Instant>,
}

impl Control {
    /// A control that never stops anything by itself.
    pub fn new() -> Control {
        Control::default()
    }

    /// This control with a deadline.
    pub fn with_deadline(mut self, deadline: Instant) -> Control {
        self.deadline = Some(deadline);
        self
    }

    /// Whether the run must start no more items: stopped, aborted, or past the deadline.
    pub fn stopped(&self) -> bool {
        self.stop.is_cancelled() || self.abort.is_cancelled() || self.expired()
    }

    /// Whether the deadline has passed.
    pub fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// `limits` under this control: the abort token as their stop token, and the time budget
    /// cut to what is left before the deadline (zero once it has passed, so a search started
    /// late answers `unknown (time limit)` at once).
    pub fn limits(&self, limits: &Limits) -> Limits {
        Limits {
            time: self.time(limits.time),
            nodes: limits.nodes,
            cancel: Some(self.abort.clone()),
        }
    }

    /// A time budget cut to what is left before the deadline.
    pub fn time(&self, time: Option<Duration>) -> Option<Duration> {
        let Some(deadline) = self.deadline else {
            return time;
        };
        let left = deadline.saturating_duration_since(Instant::now());
        Some(time.map_or(left, |t| t.min(left)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deadline_clips_the_budget() {
        let control = Control::new().with_deadline(Instant::now());
        assert!(control.stopped());
        let limits = control.limits(&Limits::time(Duration::from_secs(5)));
        assert_eq!(limits.time, Some(Duration::ZERO));
        assert!(limits.cancel.is_some());
        assert_eq!(Control::new().time(None), None);
    }
}
