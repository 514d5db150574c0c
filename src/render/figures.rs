//! Each figure of a page as a file of its own, to paste into slides: `--svg-dir DIR` of `reduce
//! latin --report` and of `explain`.
//!
//! The figures are read off the finished page, so a file is exactly the picture the page shows:
//! every `<svg>` inside a slide (`<section class="slide" id="ID">`) becomes `DIR/ID.svg` (a
//! second picture of the same slide `ID-2.svg`, and so on), a standalone SVG document: an XML
//! declaration, a width and a height taken from its `viewBox` (the page's pictures are fluid and
//! have none), and the page's stylesheet inside it (an explanation's frames style their cells
//! from the page). A PNG of each is written beside it when `rsvg-convert` (librsvg) is on the
//! `PATH`; without it the SVG files alone are written, and the caller is told.
//!
//! # Complexity
//! Linear in the page's length, plus one converter run per figure for the PNG files.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use thiserror::Error;

/// One figure of a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Figure {
    /// The file name without its extension: the slide's id, `-2`, `-3`, ... for further
    /// pictures of the same slide.
    pub name: String,
    /// The standalone SVG document.
    pub svg: String,
}

/// What [`write_figures`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// The SVG files, in page order.
    pub svg: Vec<PathBuf>,
    /// The PNG files (none without a converter).
    pub png: Vec<PathBuf>,
    /// Whether a converter was found for the PNG files.
    pub converter: bool,
}

impl Written {
    /// What was written into `dir`, in one sentence for the user.
    pub fn describe(&self, dir: &Path) -> String {
        let png = if self.converter {
            format!(" and {} PNG files", self.png.len())
        } else {
            " (no PNG files: rsvg-convert, from librsvg, is not installed)".to_string()
        };
        format!(
            "{} SVG figures{png} written to {}",
            self.svg.len(),
            dir.display()
        )
    }
}

/// Why the figures could not be written.
#[derive(Debug, Error)]
pub enum FiguresError {
    /// The directory cannot be made, or a file written.
    #[error("cannot write {}: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The converter ran and failed on a figure.
    #[error("rsvg-convert failed on {}: {message}", path.display())]
    Converter {
        /// The SVG file.
        path: PathBuf,
        /// What it said.
        message: String,
    },
}

/// The text between `start` and the next `end` after it, from `from`; the position after `end`.
fn between<'a>(text: &'a str, from: usize, start: &str, end: &str) -> Option<(&'a str, usize)> {
    let open = from + text[from..].find(start)?;
    let body = open + start.len();
    let close = body + text[body..].find(end)?;
    Some((&text[body..close], close + end.len()))
}

/// The figures of `page` (an HTML page made by [`crate::render::page`]), in page order; see
/// the module docs.
pub fn figures(page: &str) -> Vec<Figure> {
    let style = between(page, 0, "<style>", "</style>").map_or("", |(css, _)| css);
    let mut out = Vec::new();
    let mut at = 0;
    while let Some((opening, after)) = between(page, at, "<section class=\"", ">") {
        at = after;
        let Some((id, _)) = between(opening, 0, "id=\"", "\"") else {
            continue;
        };
        let end = page[at..].find("</section>").map_or(page.len(), |k| at + k);
        let mut inside = at;
        let mut count = 0;
        while let Some(open) = page[inside..end].find("<svg").map(|k| inside + k) {
            let Some(close) = page[open..end].find("</svg>").map(|k| open + k + 6) else {
                break;
            };
            count += 1;
            let name = if count == 1 {
                id.to_string()
            } else {
                format!("{id}-{count}")
            };
            out.push(Figure {
                name,
                svg: standalone(&page[open..close], style),
            });
            inside = close;
        }
        at = end;
    }
    out
}

/// `svg` (one `<svg ...>...</svg>` element of a page) as a document of its own, with `style`.
fn standalone(svg: &str, style: &str) -> String {
    let tag_end = svg.find('>').unwrap_or(svg.len());
    let (tag, rest) = svg.split_at(tag_end);
    let mut tag = tag.to_string();
    if !tag.contains(" width=")
        && let Some((view_box, _)) = between(&tag, 0, "viewBox=\"", "\"")
    {
        let parts: Vec<&str> = view_box.split_whitespace().collect();
        if let [_, _, width, height] = parts[..] {
            tag.push_str(&format!(" width=\"{width}\" height=\"{height}\""));
        }
    }
    let rest = rest.strip_prefix('>').unwrap_or(rest);
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{tag}><style><![CDATA[{style}]]></style>{rest}\n"
    )
}

/// Whether `rsvg-convert` runs.
fn converter() -> bool {
    Command::new("rsvg-convert")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Writes the figures of `page` into `dir` (made if missing), with a PNG of each when a
/// converter is present; see the module docs.
///
/// # Errors
/// [`FiguresError`] when the directory or a file cannot be written, or the converter fails.
pub fn write_figures(dir: &Path, page: &str) -> Result<Written, FiguresError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| FiguresError::Io { path, source }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let converter = converter();
    let mut written = Written {
        svg: Vec::new(),
        png: Vec::new(),
        converter,
    };
    for figure in figures(page) {
        let svg = dir.join(format!("{}.svg", figure.name));
        std::fs::write(&svg, figure.svg.as_bytes()).map_err(io(&svg))?;
        if converter {
            let png = dir.join(format!("{}.png", figure.name));
            let out = Command::new("rsvg-convert")
                .arg("--zoom=2")
                .arg("-o")
                .arg(&png)
                .arg(&svg)
                .stdin(Stdio::null())
                .output()
                .map_err(io(&png))?;
            if !out.status.success() {
                return Err(FiguresError::Converter {
                    path: svg,
                    message: String::from_utf8_lossy(&out.stderr).trim().to_string(),
                });
            }
            written.png.push(png);
        }
        written.svg.push(svg);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_slide_picture_becomes_a_document_of_its_own() {
        let page = "<html><head><style>.c{fill:red}</style></head><body>\
            <section class=\"slide\" id=\"a\"><div class=\"text\">x</div><div class=\"figure\">\
            <svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 20\"><rect class=\"c\"/></svg>\
            <svg xmlns=\"http://www.w3.org/2000/svg\" width=\"5\" viewBox=\"0 0 5 5\"></svg>\
            </div></section><section class=\"slide\" id=\"b\"><p>no picture</p></section></body></html>";
        let found = figures(page);
        let names: Vec<&str> = found.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["a", "a-2"]);
        assert!(found[0].svg.starts_with("<?xml version=\"1.0\""));
        assert!(
            found[0]
                .svg
                .contains("viewBox=\"0 0 10 20\" width=\"10\" height=\"20\">")
        );
        assert!(
            found[0]
                .svg
                .contains("<style><![CDATA[.c{fill:red}]]></style><rect")
        );
        // A picture that has a size keeps it.
        assert!(!found[1].svg.contains("height=\"5\""));
    }
}
