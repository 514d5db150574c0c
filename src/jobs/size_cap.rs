//! The cap (`--max-size`) that refuses an export too large to be useful (the pairwise CNF of a
//! 100×100 grid is about 3 GB), checked against the size each format estimates before writing a
//! byte ([`crate::format::ExportFormat::estimate`]). The estimates decide only whether to ask
//! the user, never what is written.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::format::human_size as human;

/// A size that cannot be read (`--max-size 2X`), or an export above the cap.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SizeError {
    /// Not a number of bytes with a unit.
    #[error("{0:?} is not a size (e.g. 500M, 2G, unlimited)")]
    NotASize(String),
    /// A unit other than K, M, G, T.
    #[error("{0:?} is not a size: the units are K, M, G, T (powers of 1024)")]
    Unit(String),
    /// More bytes than fit.
    #[error("{0:?} is too large a size")]
    TooLarge(String),
    /// An export above the cap.
    #[error(
        "{what} would be about {estimate} (estimated before writing), above the cap of {cap}; \
         raise it with --max-size {suggested} (or --max-size unlimited)"
    )]
    AboveCap {
        /// What would be written.
        what: String,
        /// Its estimated size, in words.
        estimate: String,
        /// The cap, in words.
        cap: String,
        /// A cap that would do, as the flag takes it.
        suggested: String,
    },
}

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
    type Err = SizeError;

    fn from_str(s: &str) -> Result<MaxSize, SizeError> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("unlimited") || s.eq_ignore_ascii_case("none") {
            return Ok(MaxSize(None));
        }
        let (digits, unit) = s.split_at(s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len()));
        let number: u64 = digits
            .parse()
            .map_err(|_| SizeError::NotASize(s.to_string()))?;
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
            _ => return Err(SizeError::Unit(s.to_string())),
        };
        number
            .checked_mul(1 << shift)
            .map(|bytes| MaxSize(Some(bytes)))
            .ok_or_else(|| SizeError::TooLarge(s.to_string()))
    }
}

/// Refuses an export whose estimate is above the cap, naming the estimate and the flag.
///
/// # Errors
/// The estimate is above `cap`.
pub fn check(estimate: u64, cap: MaxSize, what: &str) -> Result<(), SizeError> {
    match cap.0 {
        Some(max) if estimate > max => {
            let suggested = MaxSize(Some(estimate.saturating_mul(2).next_power_of_two()));
            Err(SizeError::AboveCap {
                what: what.to_string(),
                estimate: human(estimate),
                cap: cap.to_string(),
                suggested: suggested.to_flag(),
            })
        }
        _ => Ok(()),
    }
}

/// The serde form of a cap is its flag's: `"1G"`, `"unlimited"`.
impl serde::Serialize for MaxSize {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_flag())
    }
}

impl<'de> serde::Deserialize<'de> for MaxSize {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<MaxSize, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl MaxSize {
    /// The shortest `--max-size` value for this size (`4G`, `512M`, `1000`, `unlimited`).
    pub fn to_flag(self) -> String {
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
