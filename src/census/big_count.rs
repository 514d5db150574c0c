//! Exact counts beyond 64 bits, and how they are written.
//!
//! Every count the census makes fits in 128 bits: the 9×9 grids (6.67·10²¹), the Latin squares
//! of order 9 (5.52·10²⁷) and 10 (9.98·10³⁶) do; the largest `u128` is 3.4·10³⁸. The arithmetic
//! is checked, so a count that would not fit is an error, never a wrapped number.
//!
//! In JSON a count is a number while it is at most 2⁵³ (every such integer is exact in a
//! double, what most JSON readers parse numbers into), and a string of decimal digits above it
//! (`"6670903752021072936960"`), so that no reader rounds it.

use serde_json::Value;

/// The largest integer every JSON reader holds exactly: 2⁵³.
pub const JSON_EXACT_LIMIT: u128 = 1 << 53;

/// A count as JSON: a number up to [`JSON_EXACT_LIMIT`], a string of digits above.
///
/// # Examples
/// ```
/// use sudokit::census::json_count;
/// assert_eq!(json_count(288), serde_json::json!(288));
/// assert_eq!(json_count(6670903752021072936960), serde_json::json!("6670903752021072936960"));
/// ```
pub fn json_count(count: u128) -> Value {
    if count <= JSON_EXACT_LIMIT {
        Value::from(count as u64)
    } else {
        Value::String(count.to_string())
    }
}

/// `k!`, or `None` when it does not fit in 128 bits (from `35!` on).
pub(crate) fn checked_factorial(k: usize) -> Option<u128> {
    (2..=k as u128).try_fold(1u128, u128::checked_mul)
}

/// Reads a count written by [`json_count`] (a number or a string of digits).
pub fn count_from_json(value: &Value) -> Option<u128> {
    match value {
        Value::Number(n) => n.as_u64().map(u128::from),
        Value::String(s) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => {
            s.parse().ok()
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_switch_to_strings_above_two_to_the_53() {
        assert!(json_count(JSON_EXACT_LIMIT).is_number());
        assert!(json_count(JSON_EXACT_LIMIT + 1).is_string());
        for count in [0, 1, JSON_EXACT_LIMIT, JSON_EXACT_LIMIT + 1, u128::MAX] {
            assert_eq!(count_from_json(&json_count(count)), Some(count));
        }
        assert_eq!(count_from_json(&Value::from("12a")), None);
        assert_eq!(count_from_json(&Value::from(-1)), None);
    }

    #[test]
    fn factorials_past_128_bits_are_none() {
        assert_eq!(checked_factorial(0), Some(1));
        assert_eq!(checked_factorial(20), Some(2_432_902_008_176_640_000));
        assert!(checked_factorial(34).is_some());
        assert_eq!(checked_factorial(35), None);
        assert_eq!(checked_factorial(1000), None);
    }
}
