//! The JSON line of a generated puzzle: `{"index", "seed", "givens", "attempts", <puzzle
//! fields>, "solution": {...}}` (the plain output is its [`grid_record`](super::grid_record)).

use serde_json::{Value, json};

use crate::generate::puzzle::Generated;
use crate::text::to_json;

/// The JSON object of puzzle `index` (0-based; written from 1, as the lines of the output are)
/// of a run seeded with `seed`.
pub fn puzzle_json(generated: &Generated, seed: u64, index: u64) -> Value {
    let mut value = to_json(&generated.puzzle);
    value["index"] = json!(index + 1);
    value["seed"] = json!(seed);
    value["givens"] = json!(generated.puzzle.filled());
    value["attempts"] = json!(generated.attempts);
    value["solution"] = to_json(&generated.solution);
    value
}
