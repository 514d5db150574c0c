//! Which empty grids an enumeration can count to the end, and the error that refuses the others
//! before any search.
//!
//! An enumeration of the empty grid visits every completion of its first row `1, …, n` (the
//! grids divided by the `n!` relabellings; `solve::count_parallel`). The symmetry methods
//! ([`super::methods_for`]) count Latin squares to order 10 and the grids of 2×2, 2×3, 2×4 and
//! 3×3 boxes (either way round); every other shape has so many grids that the enumeration could
//! not finish: the 16×16 grids of 4×4 boxes number about 5.96·10⁹⁸ (an estimate: the count is
//! not known), the Latin squares of order 11 are 7.8·10⁴⁷ (McKay and Wanless). [`enumeration_reach`] refuses an
//! enumeration without a limit when a proven lower bound puts more than
//! 10^[`ENUMERATION_REACH_LOG10`] completions in its way; every shape no method reaches is
//! refused so (the tests check each order to 100).
//!
//! The bounds, proven, in base-10 logarithms:
//! - **Latin squares** `L(n) ≥ max((n!)^(2n)/n^(n²), 1!·2!⋯n!)`: van der Waerden's permanent
//!   bound (Egorychev, Falikman) for each row added, and Hall's `t!` systems of distinct
//!   representatives for sets of size `t`.
//! - **Boxes of `p×q`** (`n = pq`, values written as pairs `(x, y)`, `x < p`, `y < q`): for each
//!   band `b` a Latin square `X_b` of order `p` (rows in the band × stacks), for each stack `s`
//!   and each `x` a Latin square `M_{s,x}` of order `q` (bands × columns in the stack); the cell
//!   at row `i` of band `b`, column `j` of stack `s` holds `(x, M_{s,x}(b, j))` with
//!   `x = X_b(i, s)`. Every row, column and box then holds every pair once, and different
//!   squares give different grids: `L(p)^q · L(q)^(p²)` grids. The relabellings that keep this
//!   family are `(x, y) ↦ (α(x), β_x(y))`, `p!·(q!)^p` of the `n!`, so the family's
//!   relabellings are at least `n! · L(p)^q · L(q)^(p²) / (p!·(q!)^p)` grids; the same with `p`
//!   and `q` exchanged (the transposed grids) also holds, and the larger is taken.
//!
//! # References
//! - G. P. Egorychev (1981), D. I. Falikman (1981): van der Waerden's permanent conjecture;
//!   J. H. van Lint, R. M. Wilson, "A Course in Combinatorics", ch. 17 (the Latin square bound).
//! - M. Hall, "Distinct representatives of subsets", Bull. AMS 54 (1948).
//! - B. D. McKay, I. M. Wanless, "On the number of Latin squares", Annals of Combinatorics 9
//!   (2005): the Latin squares of order 11.

use std::fmt;

use thiserror::Error;

use crate::shape::Shape;

/// The most completions an enumeration of the empty grid is let run over without a limit:
/// 10¹² (days of search at ten million completions a second), as a base-10 logarithm.
pub const ENUMERATION_REACH_LOG10: f64 = 12.0;

/// The shapes the symmetry methods count, in words (kept equal to [`super::methods_for`] by
/// the tests).
pub(crate) const METHODS_REACH: &str =
    "the symmetry methods count Latin squares to order 10 and boxes of 2×2, 2×3, 2×4 and 3×3";

/// An enumeration of an empty grid, refused before it starts: it could not finish.
#[derive(Debug, Clone, PartialEq, Error)]
pub struct OutOfReach {
    /// The shape.
    pub shape: Shape,
    /// A proven lower bound on the number of complete grids, as a base-10 logarithm.
    pub grids_log10: f64,
    /// A proven lower bound on the completions the enumeration would visit (the grids with
    /// the first row fixed), as a base-10 logarithm.
    pub completions_log10: f64,
    /// Whether a symmetry method counts the shape (then the census is the way to count it).
    pub has_method: bool,
    /// Whether the shape has regions (a map, extra units), for which no lower bound is proven:
    /// enumeration is refused above order 6 (`MAX_REGIONS_ENUMERATION_ORDER`) without a limit.
    pub regions: bool,
}

/// The largest order whose empty grid with regions is enumerated without `--limit` (no bound
/// on their grids is proven; order 6 has fewer than the 8.1·10⁸ Latin squares of order 6).
pub const MAX_REGIONS_ENUMERATION_ORDER: usize = 6;

impl fmt::Display for OutOfReach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.regions {
            return write!(
                f,
                "counting the empty {} by enumeration is refused: no bound on the grids of a \
                 shape with regions is proven above order {MAX_REGIONS_ENUMERATION_ORDER}, and \
                 no symmetry method counts one; give --limit N to count up to N",
                self.shape
            );
        }
        write!(
            f,
            "counting the empty {} by enumeration is out of reach: the grids number more than \
             10^{}, and with the first row fixed it would visit more than 10^{} completions \
             (refused above 10^{}); ",
            self.shape,
            whole_power(self.grids_log10),
            whole_power(self.completions_log10),
            ENUMERATION_REACH_LOG10,
        )?;
        if self.has_method {
            write!(
                f,
                "count it by symmetry (--method auto), or give --limit N to count up to N"
            )
        } else {
            write!(
                f,
                "no symmetry method counts it ({METHODS_REACH}); give --limit N to count up \
                 to N"
            )
        }
    }
}

/// The largest whole power of ten the proven bound `log10` is sure to pass (the float's
/// rounding taken off).
fn whole_power(log10: f64) -> u64 {
    (log10 - 1e-9 * log10.abs().max(1.0)).floor().max(0.0) as u64
}

/// Whether an enumeration of the empty grid of `shape` without a limit can finish; see the
/// module docs.
///
/// # Errors
/// [`OutOfReach`] when a proven lower bound puts more than 10^[`ENUMERATION_REACH_LOG10`]
/// completions in its way.
///
/// # Examples
/// ```
/// use sudokit::census::enumeration_reach;
/// use sudokit::Shape;
/// assert!(enumeration_reach(&Shape::sudoku(2, 3)?).is_ok());
/// let refused = enumeration_reach(&Shape::sudoku(4, 4)?).unwrap_err();
/// assert!(refused.grids_log10 > 55.0 && !refused.has_method);
/// # Ok::<(), sudokit::ShapeError>(())
/// ```
pub fn enumeration_reach(shape: &Shape) -> Result<(), OutOfReach> {
    if !shape.has_box_geometry() {
        if shape.order() <= MAX_REGIONS_ENUMERATION_ORDER {
            return Ok(());
        }
        return Err(OutOfReach {
            shape: *shape,
            grids_log10: 0.0,
            completions_log10: 0.0,
            has_method: false,
            regions: true,
        });
    }
    let grids_log10 = grids_lower_bound_log10(shape);
    let completions_log10 = grids_log10 - log10_factorial(shape.order());
    if completions_log10 <= ENUMERATION_REACH_LOG10 {
        return Ok(());
    }
    Err(OutOfReach {
        shape: *shape,
        grids_log10,
        completions_log10,
        has_method: !super::methods_for(shape).is_empty(),
        regions: false,
    })
}

/// A proven lower bound on the number of complete grids of `shape`, as a base-10 logarithm;
/// see the module docs.
pub fn grids_lower_bound_log10(shape: &Shape) -> f64 {
    let (p, q, n) = (shape.box_rows(), shape.box_cols(), shape.order());
    if shape.is_latin() || p == 1 || q == 1 {
        return latin_lower_bound_log10(n);
    }
    let one_way = |p: usize, q: usize| {
        q as f64 * latin_lower_bound_log10(p)
            + (p * p) as f64 * latin_lower_bound_log10(q)
            + log10_factorial(n)
            - log10_factorial(p)
            - p as f64 * log10_factorial(q)
    };
    one_way(p, q).max(one_way(q, p))
}

/// A proven lower bound on the Latin squares of order `n`, as a base-10 logarithm: the larger
/// of van der Waerden's and Hall's (module docs).
fn latin_lower_bound_log10(n: usize) -> f64 {
    let van_der_waerden = 2.0 * n as f64 * log10_factorial(n) - (n * n) as f64 * (n as f64).log10();
    let hall: f64 = (1..=n).map(log10_factorial).sum();
    van_der_waerden.max(hall)
}

/// `log10(k!)`.
fn log10_factorial(k: usize) -> f64 {
    (2..=k).map(|i| (i as f64).log10()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::census::methods_for;

    /// Every shape of order 1 to `max`: the Latin squares and each box shape.
    fn shapes(max: usize) -> Vec<Shape> {
        let mut all = Vec::new();
        for n in 1..=max {
            all.push(Shape::latin(n).unwrap());
            for p in 1..=n {
                if n % p == 0 {
                    all.push(Shape::sudoku(p, n / p).unwrap());
                }
            }
        }
        all
    }

    #[test]
    fn the_bounds_stay_below_the_known_counts() {
        // Counts: 288, 28 200 960, the Latin squares to order 8, and 9×9's 6.67·10²¹.
        let known: [(Shape, f64); 11] = [
            (Shape::sudoku(2, 2).unwrap(), 288.0),
            (Shape::sudoku(2, 3).unwrap(), 28_200_960.0),
            (Shape::sudoku(3, 2).unwrap(), 28_200_960.0),
            (Shape::sudoku(2, 4).unwrap(), 29_136_487_207_403_520.0),
            (Shape::sudoku(3, 3).unwrap(), 6.670_903_752_021_073e21),
            (Shape::latin(2).unwrap(), 2.0),
            (Shape::latin(3).unwrap(), 12.0),
            (Shape::latin(4).unwrap(), 576.0),
            (Shape::latin(5).unwrap(), 161_280.0),
            (Shape::latin(7).unwrap(), 61_479_419_904_000.0),
            (Shape::latin(8).unwrap(), 1.087_760_324_590_829_6e20),
        ];
        for (shape, count) in known {
            let bound = grids_lower_bound_log10(&shape);
            assert!(bound <= f64::log10(count), "{shape}: 10^{bound} > {count}");
            assert!(bound > 0.0, "{shape}");
        }
        // The family of the module docs is exact where it is the whole: 2×2 has 192 of 288.
        let two = grids_lower_bound_log10(&Shape::sudoku(2, 2).unwrap());
        assert!((10f64.powf(two) - 192.0).abs() < 1e-6, "{two}");
    }

    #[test]
    fn every_shape_no_method_reaches_is_refused_and_the_words_name_those_it_does() {
        let mut counted = Vec::new();
        for shape in shapes(100) {
            if methods_for(&shape).is_empty() {
                let refused = enumeration_reach(&shape).expect_err(&shape.to_string());
                assert!(!refused.has_method);
                assert!(refused.to_string().contains(METHODS_REACH), "{refused}");
            } else if shape.is_latin() || shape.box_rows() == 1 || shape.box_cols() == 1 {
                counted.push(format!("latin {}", shape.order()));
            } else {
                counted.push(format!("{}x{}", shape.box_rows(), shape.box_cols()));
            }
        }
        counted.sort();
        counted.dedup();
        let mut expected: Vec<String> = (1..=10).map(|n| format!("latin {n}")).collect();
        expected.extend(["2x2", "2x3", "3x2", "2x4", "4x2", "3x3"].map(String::from));
        expected.sort();
        assert_eq!(counted, expected);
    }

    #[test]
    fn small_enumerations_run_and_the_refusal_says_what_would_do() {
        for shape in [Shape::sudoku(2, 3).unwrap(), Shape::latin(6).unwrap()] {
            assert_eq!(enumeration_reach(&shape), Ok(()), "{shape}");
        }
        let sixteen = enumeration_reach(&Shape::sudoku(4, 4).unwrap()).unwrap_err();
        assert_eq!(
            sixteen.to_string(),
            format!(
                "counting the empty 16×16 (4×4 boxes) by enumeration is out of reach: the grids \
                 number more than 10^55, and with the first row fixed it would visit more than \
                 10^42 completions (refused above 10^12); no symmetry method counts it \
                 ({METHODS_REACH}); give --limit N to count up to N"
            )
        );
        assert_eq!(whole_power(55.0), 54);
        assert_eq!(whole_power(55.5), 55);
    }
}
