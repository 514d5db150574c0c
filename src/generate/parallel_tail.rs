//! The tail of a puzzle reduction in parallel lanes: the removal tests of the next orbits run on
//! several threads at once, and their answers are taken in order, so that the puzzle is exactly
//! the one of the one-by-one pass.
//!
//! # Method
//! The one-by-one pass visits the orbits in order and removes an orbit when the puzzle without it
//! is still well posed. Here each lane (a thread with its own [`RemovalTest`]) takes the first
//! orbit not yet tested and tests it against the puzzle as it is at that moment; the answers are
//! then settled in the order of the orbits:
//! - "needed" (a second solution without the orbit) stays true whatever was removed since the
//!   test began, because removing givens only adds solutions: the orbit is kept;
//! - "removable" holds only for the puzzle it was tested against. It is used when no earlier
//!   orbit was removed since the test began (the puzzle has not changed); otherwise the orbit is
//!   tested again.
//!
//! Near the end of a reduction almost every answer is "needed", so L lanes settle close to L
//! orbits at a time, and a lane never waits for another: as soon as one answers, it takes the
//! next orbit. Only a removal wastes work (the "removable" answers given since the test that
//! led to it began must be redone).
//!
//! Orbits already known to be needed (by a [`super::sweep`] against a larger puzzle) are kept
//! without a test. The pass can stop once the puzzle is down to a number of givens (for the next
//! sweep); it then returns how far it settled, and the "needed" answers it got beyond that point
//! are recorded, since they stay true.
//!
//! # Complexity
//! The same tests as the one-by-one pass, plus one test again per stale "removable" answer; the
//! bookkeeping is O(1) per answer and O(L) per launch for L lanes.

use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use super::progress::Tracker;
use super::well_posed::RemovalTest;
use crate::grid::Grid;

/// Where an orbit of the pass stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Not being tested (never, or its answer went stale).
    Waiting,
    /// Being tested against the puzzle of this version.
    Testing(u64),
    /// Answered for the puzzle of this version: whether the puzzle stays well posed without it.
    Answered { version: u64, removable: bool },
}

/// A test for a lane: the orbit's position, the puzzle's version, the puzzle without the orbit.
struct Job {
    at: usize,
    version: u64,
    without: Grid,
}

/// A lane's answer to a [`Job`].
struct Reply {
    lane: usize,
    at: usize,
    version: u64,
    removable: bool,
}

/// Visits `order` once, as the one-by-one pass does, removing each orbit (all of whose cells are
/// given in `puzzle`) while the puzzle stays well posed, with one thread per test of `lanes`.
/// `puzzle` is well posed with solution `solution` on entry and on return.
///
/// Orbits marked in `needed` are kept untested; orbits found needed are marked. The pass stops
/// early, after the removal that takes the puzzle to `stop_at` givens or fewer; it returns the
/// number of orbits settled (`order.len()` when it went through). Every answer is counted by
/// `tracker`.
pub(crate) fn reduce_in_lanes(
    puzzle: &mut Grid,
    solution: &Grid,
    order: &[&[usize]],
    needed: &mut [bool],
    stop_at: usize,
    lanes: &mut [&mut RemovalTest],
    tracker: &Tracker,
) -> usize {
    debug_assert_eq!(needed.len(), order.len());
    let mut state: Vec<State> = needed
        .iter()
        .map(|&known| {
            if known {
                State::Answered {
                    version: 0,
                    removable: false,
                }
            } else {
                State::Waiting
            }
        })
        .collect();
    let count = lanes.len();
    let mut givens = puzzle.filled();
    std::thread::scope(|scope| {
        let (reply_to, replies) = mpsc::channel::<Reply>();
        let mut jobs = Vec::with_capacity(count);
        let mut threads = Vec::with_capacity(count);
        for (lane, test) in lanes.iter_mut().enumerate() {
            let (job_to, lane_jobs) = mpsc::channel::<Job>();
            jobs.push(job_to);
            let reply_to = reply_to.clone();
            threads.push(scope.spawn(move || {
                for job in lane_jobs {
                    let removable = test.still_unique(&job.without, solution, order[job.at]);
                    let reply = Reply {
                        lane,
                        at: job.at,
                        version: job.version,
                        removable,
                    };
                    if reply_to.send(reply).is_err() {
                        return;
                    }
                }
            }));
        }
        drop(reply_to);
        let mut idle: Vec<usize> = (0..count).rev().collect();
        // `version` counts the removals; `head` is the first orbit not settled.
        let (mut version, mut head) = (0u64, 0usize);
        loop {
            while head < order.len() {
                match state[head] {
                    State::Answered {
                        removable: false, ..
                    } => head += 1,
                    State::Answered {
                        version: v,
                        removable: true,
                    } if v == version => {
                        for &c in order[head] {
                            puzzle.set(c, None);
                        }
                        givens -= order[head].len();
                        version += 1;
                        head += 1;
                        // The "removable" answers given so far are stale: test them again.
                        for s in &mut state[head..] {
                            if matches!(
                                s,
                                State::Answered {
                                    removable: true,
                                    ..
                                }
                            ) {
                                *s = State::Waiting;
                            }
                        }
                    }
                    State::Answered { .. } => state[head] = State::Waiting,
                    State::Waiting | State::Testing(_) => break,
                }
            }
            if head == order.len() || givens <= stop_at || tracker.cancelled() {
                break;
            }
            // Every idle lane takes the first orbit waiting from the head on.
            let mut next = head;
            while let Some(&lane) = idle.last() {
                while next < order.len() && state[next] != State::Waiting {
                    next += 1;
                }
                if next == order.len() {
                    break;
                }
                let mut without = puzzle.clone();
                for &c in order[next] {
                    without.set(c, None);
                }
                let job = Job {
                    at: next,
                    version,
                    without,
                };
                jobs[lane]
                    .send(job)
                    .expect("a lane runs until its jobs end");
                state[next] = State::Testing(version);
                idle.pop();
            }
            // A lane ends only when its jobs do, or by a panic (a bug): then stop too, so that
            // the scope passes the panic on instead of waiting for its answer.
            let reply = loop {
                match replies.recv_timeout(Duration::from_millis(100)) {
                    Ok(reply) => break reply,
                    Err(RecvTimeoutError::Timeout) => {
                        assert!(
                            !threads.iter().any(|t| t.is_finished()),
                            "a lane of the reduction stopped"
                        );
                    }
                    Err(RecvTimeoutError::Disconnected) => panic!("every lane stopped"),
                }
            };
            idle.push(reply.lane);
            tracker.tested(givens);
            state[reply.at] = match state[reply.at] {
                // Tested against a puzzle that has lost givens since: test it again.
                State::Testing(v) if reply.removable && v < version => State::Waiting,
                State::Testing(v) if v == reply.version => State::Answered {
                    version: reply.version,
                    removable: reply.removable,
                },
                other => unreachable!("a reply for an orbit in state {other:?}"),
            };
        }
        // Closing the job channels ends the lanes once their tests are done; the "needed"
        // answers of those tests, and of the orbits answered beyond the head, stay true.
        drop(jobs);
        for reply in replies {
            if !reply.removable {
                needed[reply.at] = true;
            }
        }
        for (known, s) in needed.iter_mut().zip(&state) {
            if let State::Answered {
                removable: false, ..
            } = s
            {
                *known = true;
            }
        }
        head
    })
}

#[cfg(test)]
mod tests {
    use rand::seq::SliceRandom;

    use super::*;
    use crate::generate::puzzle::puzzle_rng;
    use crate::generate::random_grid::random_grid;
    use crate::generate::well_posed::UniquenessEngine;
    use crate::shape::Shape;

    /// The one-by-one pass, for comparison.
    fn one_by_one(puzzle: &mut Grid, solution: &Grid, order: &[&[usize]], test: &mut RemovalTest) {
        for orbit in order {
            for &c in *orbit {
                puzzle.set(c, None);
            }
            if !test.still_unique(puzzle, solution, orbit) {
                for &c in *orbit {
                    puzzle.set(c, solution.get(c));
                }
            }
        }
    }

    /// A random grid of `shape`, its cells in random order (one orbit each), and the puzzle
    /// of the one-by-one pass over them.
    fn reduction_case(shape: Shape, seed: u64) -> (Grid, Vec<[usize; 1]>, Grid) {
        let mut rng = puzzle_rng(seed, 0);
        let solution = random_grid(&Grid::empty(shape), &mut rng).unwrap().unwrap();
        let mut cells: Vec<[usize; 1]> = (0..shape.cells()).map(|c| [c]).collect();
        cells.shuffle(&mut rng);
        let order: Vec<&[usize]> = cells.iter().map(|c| c.as_slice()).collect();
        let mut single = solution.clone();
        let mut test = RemovalTest::new(shape, UniquenessEngine::Sat);
        one_by_one(&mut single, &solution, &order, &mut test);
        (solution, cells, single)
    }

    #[test]
    #[should_panic = "a lane of the reduction stopped"]
    fn a_lane_that_panics_stops_the_reduction() {
        // The first lane's test is for another shape, so it panics on its first orbit while the
        // second lane goes on: the panic must come through instead of leaving the reduction
        // waiting for that lane's answer.
        let shape = Shape::sudoku(3, 3).unwrap();
        let solution = random_grid(&Grid::empty(shape), &mut puzzle_rng(1, 0))
            .unwrap()
            .unwrap();
        let cells: Vec<[usize; 1]> = (0..81).map(|c| [c]).collect();
        let order: Vec<&[usize]> = cells.iter().map(|c| c.as_slice()).collect();
        let mut wrong = RemovalTest::new(Shape::sudoku(2, 2).unwrap(), UniquenessEngine::Sat);
        let mut right = RemovalTest::new(shape, UniquenessEngine::Sat);
        let mut puzzle = solution.clone();
        reduce_in_lanes(
            &mut puzzle,
            &solution,
            &order,
            &mut [false; 81],
            0,
            &mut [&mut wrong, &mut right],
            &Tracker::new(None),
        );
    }

    #[test]
    fn lanes_give_the_one_by_one_puzzle() {
        let shape = Shape::sudoku(3, 3).unwrap();
        for seed in 0..6 {
            let (solution, cells, single) = reduction_case(shape, seed);
            let order: Vec<&[usize]> = cells.iter().map(|c| c.as_slice()).collect();
            for lanes in [1, 2, 3] {
                let mut tests: Vec<RemovalTest> = (0..lanes)
                    .map(|_| RemovalTest::new(shape, UniquenessEngine::Sat))
                    .collect();
                let mut refs: Vec<&mut RemovalTest> = tests.iter_mut().collect();
                let mut parallel = solution.clone();
                let mut needed = vec![false; order.len()];
                let tracker = Tracker::new(None);
                let settled = reduce_in_lanes(
                    &mut parallel,
                    &solution,
                    &order,
                    &mut needed,
                    0,
                    &mut refs,
                    &tracker,
                );
                // Every answer is counted: at least one test per orbit settled.
                assert!(tracker.tests() >= order.len() as u64);
                assert_eq!(parallel, single, "seed {seed}, {lanes} lanes");
                assert_eq!(settled, order.len());
                // Every orbit marked needed is a given of the puzzle (needed at the end too).
                assert!(
                    (0..order.len())
                        .filter(|&j| needed[j])
                        .all(|j| single.get(order[j][0]).is_some())
                );
            }
        }
    }

    #[test]
    fn stopped_and_resumed_lanes_give_the_one_by_one_puzzle() {
        // Stop every 3 givens, resume from where the lanes settled, with the marks they left
        // (as the reduction does between sweeps): the same puzzle as one by one.
        let shape = Shape::sudoku(3, 3).unwrap();
        for seed in 10..14 {
            let (solution, cells, single) = reduction_case(shape, seed);
            let order: Vec<&[usize]> = cells.iter().map(|c| c.as_slice()).collect();
            let mut tests: Vec<RemovalTest> = (0..2)
                .map(|_| RemovalTest::new(shape, UniquenessEngine::Sat))
                .collect();
            let mut refs: Vec<&mut RemovalTest> = tests.iter_mut().collect();
            let mut parallel = solution.clone();
            let mut needed = vec![false; order.len()];
            let (mut at, mut stops) = (0, 0);
            while at < order.len() {
                let stop_at = parallel.filled().saturating_sub(3);
                at += reduce_in_lanes(
                    &mut parallel,
                    &solution,
                    &order[at..],
                    &mut needed[at..],
                    stop_at,
                    &mut refs,
                    &Tracker::new(None),
                );
                stops += 1;
            }
            assert_eq!(parallel, single, "seed {seed}");
            assert!(stops > 10, "seed {seed}: {stops} stops");
        }
    }
}
