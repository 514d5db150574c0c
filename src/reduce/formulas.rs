//! The size of every level of the course as a formula in the shape's numbers, next to the count
//! measured on the instance: the polynomial half of the NP-completeness argument.
//!
//! Notation: the square has order `m` and `g` givens; its Sudoku has order `n = m²`, boxes of
//! `p × q = m × m` cells and `G = n² − m² + g` givens (every cell outside the square's `m²`
//! carrying cells is given by the pattern). The formulas, each derived from what the level's
//! encoder writes:
//!
//! | level | variables | constraints | entries | fixed |
//! |---|---|---|---|---|
//! | Latin square | m² cells | 2m units | 2m² cell–unit incidences | g |
//! | Sudoku | n² cells | 3n units | 3n² incidences | G = n² − m² + g |
//! | CNF | n³ + S·X | n² + S·A + E + G | n³ + 2·S·A + n·E + G | G |
//! | 0-1 ILP | n³ | 4n² + G rows | 4n³ + G non-zeros | G |
//! | exact cover | G + a options | 4n² items | 4·(G + a) | G + s |
//! | precolouring | n² vertices | n²(3n − p − q − 1)/2 edges | n²(3n − p − q − 1) ends | G |
//!
//! - **CNF**: every cell takes a value (`n²` clauses of `n` literals); `S` at-most-one
//!   constraints of `n` literals each, written with `A` two-literal clauses and `X` auxiliary
//!   variables (`A = n(n−1)/2`, `X = 0` pairwise; `A = 3n − 4`, `X = n − 1` sequential; the
//!   encoder's own counts for product and bimander); `S = 3n²` (one per unit and value,
//!   minimal) or `4n²` (and one per cell, efficient and extended); `E = 3n²` at-least-one
//!   clauses of `n` literals (extended only, else 0); one unit clause per given. The optimized
//!   encoding drops what the givens settle, so its size is only measured.
//! - **0-1 ILP**: one column per (cell, value); an equality row per cell and per unit and value
//!   (`4n²` rows of `n` non-zeros) and one row fixing each given.
//! - **exact cover**: items cell, row–value, column–value, box–value (`4n²`); one option per
//!   allowed (cell, value), of four items: a given allows one, and an empty carrying cell allows
//!   the digits of the symbols its row and column of the square leave — `a` in all, the options
//!   of the square itself; `s` of the empty cells have one option only.
//! - **precolouring**: a vertex per cell, an edge per pair of peers: each cell has
//!   `2(n − 1) + (p − 1)(q − 1) = 3n − p − q − 1` peers (as `pq = n`), so `n²(3n − p − q − 1)/2`
//!   edges.
//!
//! # Complexity
//! O(m³) for `a` and `s`, O(1) for the rest.

use crate::encode::cnf::{Amo, CnfOptions, Encoding};
use crate::grid::Grid;
use crate::reduce::course_data::Level;
use crate::reduce::reduction::InstanceSize;

/// One size as a formula and its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Formula {
    /// The formula, e.g. `n²(3n − p − q − 1)/2`.
    pub text: String,
    /// Its value for this instance.
    pub value: usize,
}

/// The four sizes of a level as formulas, and what their letters stand for here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SizeFormulas {
    /// Variables, constraints, entries, fixed (the order of [`InstanceSize::numbers`]).
    pub formulas: [Formula; 4],
    /// The letters' values, e.g. `n = 9, p = q = 3, G = 74`.
    pub letters: String,
}

impl SizeFormulas {
    /// The values as an [`InstanceSize`].
    pub fn size(&self) -> InstanceSize {
        InstanceSize {
            variables: self.formulas[0].value,
            constraints: self.formulas[1].value,
            entries: self.formulas[2].value,
            fixed: self.formulas[3].value,
        }
    }
}

/// "n(n−1)/2 = 36", or "0" when the formula is its value.
fn equals(text: &str, value: usize) -> String {
    if text == value.to_string() {
        text.to_string()
    } else {
        format!("{text} = {value}")
    }
}

fn f(text: impl Into<String>, value: usize) -> Formula {
    Formula {
        text: text.into(),
        value,
    }
}

/// The symbols the empty cells of the square `latin` can take (its row and column leave them),
/// summed (`a`), and the empty cells left with exactly one (`s`).
fn open_symbols(latin: &Grid) -> (usize, usize) {
    let m = latin.shape().order();
    let (mut a, mut s) = (0, 0);
    for i in 0..m {
        for j in 0..m {
            if latin.at(i, j).is_some() {
                continue;
            }
            let k = (0..m)
                .filter(|&v| (0..m).all(|t| latin.at(i, t) != Some(v) && latin.at(t, j) != Some(v)))
                .count();
            a += k;
            s += usize::from(k == 1);
        }
    }
    (a, s)
}

/// The clauses `A` and auxiliary variables `X` of one at-most-one constraint of `n` literals
/// written with `amo`, as formulas where the encoding has a short one (pairwise, sequential),
/// else as the encoder's own counts.
pub fn amo_formulas(amo: Amo, n: usize) -> (String, String) {
    match amo {
        Amo::Pairwise => ("n(n−1)/2".to_string(), "0".to_string()),
        Amo::Sequential if n >= 3 => ("3n − 4".to_string(), "n − 1".to_string()),
        other => (
            format!("{} ({other})", other.clauses(n)),
            other.aux(n).to_string(),
        ),
    }
}

/// The formulas of `level` for the square `latin` (its Sudoku has order m²), with the CNF
/// options `cnf`; `None` for the optimized CNF encoding, whose size depends on where the givens
/// are. See the module docs.
pub fn size_formulas(level: Level, latin: &Grid, cnf: CnfOptions) -> Option<SizeFormulas> {
    let m = latin.shape().order();
    let g = latin.filled();
    let n = m * m;
    let (p, q) = (m, m);
    let big_g = n * n - m * m + g;
    let sudoku_letters = format!("n = m² = {n}, p = q = m = {m}, G = n² − m² + g = {big_g}");
    Some(match level {
        Level::Latin => SizeFormulas {
            formulas: [
                f("m²", m * m),
                f("2m", 2 * m),
                f("2m²", 2 * m * m),
                f("g", g),
            ],
            letters: format!("m = {m}, g = {g}"),
        },
        Level::Sudoku => SizeFormulas {
            formulas: [
                f("n² = m⁴", n * n),
                f("3n", 3 * n),
                f("3n²", 3 * n * n),
                f("G = n² − m² + g", big_g),
            ],
            letters: sudoku_letters,
        },
        Level::Cnf => {
            // The encoder's own counts; their formulas where the encoding has a short one.
            let (a, x) = (cnf.amo.clauses(n), cnf.amo.aux(n));
            let (a_text, x_text) = amo_formulas(cnf.amo, n);
            let (s_text, s, e_text, e) = match cnf.encoding {
                Encoding::Minimal => ("3n²", 3 * n * n, "", 0),
                Encoding::Efficient => ("4n²", 4 * n * n, "", 0),
                Encoding::Extended => ("4n²", 4 * n * n, "3n²", 3 * n * n),
                Encoding::Optimized => return None,
            };
            let plus_e = |text: &str| {
                if e == 0 {
                    String::new()
                } else {
                    format!(" + {text}")
                }
            };
            let aux = if x == 0 {
                String::new()
            } else {
                format!(" + {s_text}·X")
            };
            SizeFormulas {
                formulas: [
                    f(format!("n³{aux}"), n * n * n + s * x),
                    f(
                        format!("n² + {s_text}·A{} + G", plus_e(e_text)),
                        n * n + s * a + e + big_g,
                    ),
                    f(
                        format!("n³ + 2·{s_text}·A{} + G", plus_e(&format!("n·{e_text}"))),
                        n * n * n + 2 * s * a + n * e + big_g,
                    ),
                    f("G", big_g),
                ],
                letters: format!(
                    "{sudoku_letters}; A = {} clauses and X = {} auxiliary variables per \
                     at-most-one of n literals",
                    equals(&a_text, a),
                    equals(&x_text, x)
                ),
            }
        }
        Level::Ilp => SizeFormulas {
            formulas: [
                f("n³", n * n * n),
                f("4n² + G", 4 * n * n + big_g),
                f("4n³ + G", 4 * n * n * n + big_g),
                f("G", big_g),
            ],
            letters: sudoku_letters,
        },
        Level::ExactCover => {
            let (a, s) = open_symbols(latin);
            SizeFormulas {
                formulas: [
                    f("G + a", big_g + a),
                    f("4n²", 4 * n * n),
                    f("4(G + a)", 4 * (big_g + a)),
                    f("G + s", big_g + s),
                ],
                letters: format!(
                    "{sudoku_letters}; a = {a} symbols left to the square's empty cells, s = {s} \
                     of them with one left"
                ),
            }
        }
        Level::Colouring => {
            let degree = 3 * n - p - q - 1;
            SizeFormulas {
                formulas: [
                    f("n²", n * n),
                    f("n²(3n − p − q − 1)/2", n * n * degree / 2),
                    f("n²(3n − p − q − 1)", n * n * degree),
                    f("G", big_g),
                ],
                letters: format!("{sudoku_letters}; 3n − p − q − 1 = {degree} peers per cell"),
            }
        }
    })
}
