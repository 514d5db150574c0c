//! How Python says how to read puzzles: `box`, `latin`, `regions`, `extra` and `format` as the
//! library's reading options.

use pyo3::prelude::*;
use sudokit::shape::{ExtraSet, RegionSpec};
use sudokit::text::{ReadOptions, ShapeSpec, TextLayout};

use crate::errors::option_value_error;

/// `regions=`: a region map as one text (n lines of n labels) or as a list of its rows.
#[derive(Debug, FromPyObject)]
pub enum MapArg {
    /// The whole map.
    Text(String),
    /// Its rows.
    Rows(Vec<String>),
}

/// `extra=`: one keyword (`"diagonals"`) or a list of them.
#[derive(Debug, FromPyObject)]
pub enum ExtraArg {
    /// One set.
    One(String),
    /// Several.
    Many(Vec<String>),
}

/// The regions `regions=` and `extra=` ask for (empty when neither is given).
///
/// # Errors
/// `OptionError` naming the keyword: a map with a bad row (line and column in the map), an
/// unknown or repeated extra set.
pub fn region_spec(regions: Option<MapArg>, extra: Option<ExtraArg>) -> PyResult<RegionSpec> {
    let names = match extra {
        None => Vec::new(),
        Some(ExtraArg::One(name)) => vec![name],
        Some(ExtraArg::Many(names)) => names,
    };
    let sets = names
        .iter()
        .map(|name| name.parse::<ExtraSet>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| option_value_error(format!("extra: {e}")))?;
    let text = regions.map(|map| match map {
        MapArg::Text(text) => text,
        MapArg::Rows(rows) => rows.join("\n"),
    });
    RegionSpec::new(text.as_deref(), &sets).map_err(|e| {
        let keyword = if text.is_some() { "regions" } else { "extra" };
        option_value_error(format!("{keyword}: {e}"))
    })
}

/// The shape a `box`/`latin` pair and the regions ask for.
pub fn shape_spec(
    r#box: Option<(usize, usize)>,
    latin: bool,
    regions: RegionSpec,
) -> PyResult<Option<ShapeSpec>> {
    let spec = match (r#box, latin) {
        (Some(_), true) => return Err(option_value_error("give box or latin, not both")),
        (Some((p, q)), false) => Some(ShapeSpec::Box(p, q)),
        (None, true) => Some(ShapeSpec::Latin),
        (None, false) => None,
    };
    ShapeSpec::with_regions(spec, regions)
        .map_err(|_| option_value_error("give latin or regions/extra, not both"))
}

/// The reading options of `box`, `latin`, the regions and a form name.
pub fn read_options(
    r#box: Option<(usize, usize)>,
    latin: bool,
    format: Option<&str>,
    regions: RegionSpec,
) -> PyResult<ReadOptions> {
    let format = match format {
        None => TextLayout::Auto,
        Some(name) => name.parse::<TextLayout>().map_err(option_value_error)?,
    };
    Ok(ReadOptions {
        format,
        shape: shape_spec(r#box, latin, regions)?,
        ..ReadOptions::default()
    })
}
