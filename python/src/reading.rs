//! How Python says how to read puzzles: `box`, `latin` and `format` as the library's reading
//! options.

use pyo3::prelude::*;
use sudokit::text::{ReadOptions, ShapeSpec, TextLayout};

use crate::errors::option_value_error;

/// The shape a `box`/`latin` pair asks for.
pub fn shape_spec(r#box: Option<(usize, usize)>, latin: bool) -> PyResult<Option<ShapeSpec>> {
    match (r#box, latin) {
        (Some(_), true) => Err(option_value_error("give box or latin, not both")),
        (Some((p, q)), false) => Ok(Some(ShapeSpec::Box(p, q))),
        (None, true) => Ok(Some(ShapeSpec::Latin)),
        (None, false) => Ok(None),
    }
}

/// The reading options of `box`, `latin` and a form name.
pub fn read_options(
    r#box: Option<(usize, usize)>,
    latin: bool,
    format: Option<&str>,
) -> PyResult<ReadOptions> {
    let format = match format {
        None => TextLayout::Auto,
        Some(name) => name.parse::<TextLayout>().map_err(option_value_error)?,
    };
    Ok(ReadOptions {
        format,
        shape: shape_spec(r#box, latin)?,
        ..ReadOptions::default()
    })
}
