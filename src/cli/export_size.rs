//! The size an export will take, estimated before writing a byte, and the cap (`--max-size`)
//! that refuses one too large to be useful (the pairwise CNF of a 100×100 grid is about 3 GB).
//!
//! The estimates come from the closed-form sizes of the encoders (clauses and literals of the
//! CNF, non-zeros of the ILP, options of the exact cover, edges of the graph), times the bytes a
//! literal, term or line takes for the numbers of that instance. They are within a small factor of
//! the real size (the `optimized` CNF is estimated by the `extended` one it simplifies, an upper
//! bound); they decide only whether to ask the user, never what is written.
//!
//! # Complexity
//! O(1) per estimate.

use std::fmt;
use std::str::FromStr;

use anyhow::{Context, bail};
use sudokit::Grid;
use sudokit::encode::cnf::{CnfOptions, Encoding, formula_size};
use sudokit::encode::graph::edge_count;

use super::export::Target;

/// The default cap: 1 GiB.
pub const DEFAULT_MAX_SIZE: u64 = 1 << 30;

/// A byte count given on the command line: `500M`, `2G`, `123456`, or `unlimited`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MaxSize(pub Option<u64>);

impl Default for MaxSize {
    fn default() -> Self {
        MaxSize(Some(DEFAULT_MAX_SIZE))
    }
}

impl fmt::Display for MaxSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            None => f.write_str("unlimited"),
            Some(bytes) => f.write_str(&human(bytes)),
        }
    }
}

impl FromStr for MaxSize {
    type Err = anyhow::Error;

    fn from_str(s: &str) -> anyhow::Result<MaxSize> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("unlimited") || s.eq_ignore_ascii_case("none") {
            return Ok(MaxSize(None));
        }
        let (digits, unit) = s.split_at(s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len()));
        let number: u64 = digits
            .parse()
            .with_context(|| format!("{s:?} is not a size (e.g. 500M, 2G, unlimited)"))?;
        let shift = match unit
            .trim()
            .to_ascii_uppercase()
            .trim_end_matches(['B', 'I'])
        {
            "" => 0,
            "K" => 10,
            "M" => 20,
            "G" => 30,
            "T" => 40,
            _ => bail!("{s:?} is not a size: the units are K, M, G, T (powers of 1024)"),
        };
        number
            .checked_mul(1 << shift)
            .map(|bytes| MaxSize(Some(bytes)))
            .with_context(|| format!("{s:?} is too large a size"))
    }
}

/// `3.2 GB`-style text (powers of 1024, one decimal).
pub fn human(bytes: u64) -> String {
    let units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < units.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{value:.1} {}", units[unit])
    }
}

/// Decimal digits of `x` (at least 1).
fn digits(x: u128) -> u128 {
    x.checked_ilog10().map_or(1, |d| d as u128 + 1)
}

/// The estimated size in bytes of `grid` exported as `to` (saturating; never an overflow).
pub fn estimate(grid: &Grid, to: Target, cnf: CnfOptions) -> u64 {
    let shape = grid.shape();
    let n = shape.order() as u128;
    let cells = n * n;
    let units = shape.unit_count() as u128;
    let givens = grid.filled() as u128;
    let bytes: u128 = match to {
        Target::Cnf => {
            let bound = CnfOptions {
                encoding: match cnf.encoding {
                    Encoding::Optimized => Encoding::Extended,
                    other => other,
                },
                amo: cnf.amo,
            };
            let size = formula_size(shape, bound, grid.filled()).expect("closed form");
            let (vars, clauses, literals) = (
                size.vars as u128,
                size.clauses as u128,
                size.literals as u128,
            );
            let map = if cnf.encoding == Encoding::Optimized {
                // One `c map VAR R C V` line per x variable.
                n * cells * (7 + digits(vars) + 3 * digits(n))
            } else {
                0
            };
            literals * (digits(vars) + 2) + clauses * 2 + map
        }
        Target::Lp | Target::Mps => {
            // Row kinds per cell (cell + one per unit kind), each with n terms, plus givens.
            let kinds = units / n + 1;
            let nonzeros = kinds * n * cells + givens;
            let name = 4 + 3 * digits(n);
            let per_term = if to == Target::Lp {
                name + 3
            } else {
                name + 14
            };
            nonzeros * per_term + (kinds * cells + givens) * 16 + n * cells * (name + 8)
        }
        Target::Dlx => {
            let item = 2 + 2 * digits(n);
            let items = if shape.is_latin() { 3 } else { 4 } * cells;
            items * item + n * cells * (if shape.is_latin() { 3 } else { 4 }) * item
        }
        Target::Col => {
            let edges = edge_count(shape) as u128;
            edges * (4 + 2 * digits(cells)) + 32
        }
        Target::Hgr => units * n * (3 + digits(cells)) + 32,
        Target::Dzn => cells * (2 + digits(n)) + units * n * (2 + digits(cells)) + 64,
    };
    u64::try_from(bytes).unwrap_or(u64::MAX)
}

/// Refuses an export whose estimate is above the cap, naming the estimate and the flag.
///
/// # Errors
/// The estimate is above `cap`.
pub fn check(estimate: u64, cap: MaxSize, what: &str) -> anyhow::Result<()> {
    match cap.0 {
        Some(max) if estimate > max => {
            let suggested = MaxSize(Some(estimate.saturating_mul(2).next_power_of_two()));
            bail!(
                "{what} would be about {} (estimated before writing), above the cap of {}; \
                 raise it with --max-size {} (or --max-size unlimited)",
                human(estimate),
                cap,
                suggested.to_flag()
            )
        }
        _ => Ok(()),
    }
}

impl MaxSize {
    /// The shortest `--max-size` value for this size (`4G`, `512M`, `1000`).
    fn to_flag(self) -> String {
        let Some(bytes) = self.0 else {
            return "unlimited".into();
        };
        for (shift, unit) in [(40, "T"), (30, "G"), (20, "M"), (10, "K")] {
            if bytes >= 1 << shift && bytes % (1 << shift) == 0 {
                return format!("{}{unit}", bytes >> shift);
            }
        }
        bytes.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_binary_units() {
        assert_eq!("2G".parse::<MaxSize>().unwrap(), MaxSize(Some(2 << 30)));
        assert_eq!(
            "512MiB".parse::<MaxSize>().unwrap(),
            MaxSize(Some(512 << 20))
        );
        assert_eq!("1000".parse::<MaxSize>().unwrap(), MaxSize(Some(1000)));
        assert_eq!("unlimited".parse::<MaxSize>().unwrap(), MaxSize(None));
        assert!("2X".parse::<MaxSize>().is_err());
        assert!("99999999999T".parse::<MaxSize>().is_err());
        assert_eq!(MaxSize(Some(4 << 30)).to_flag(), "4G");
    }
}
