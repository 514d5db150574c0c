//! The values of the commands' options in words, written from the library's registries: the
//! backends, encodings, at-most-one encodings, schemes, export formats, answer readers and
//! their aliases, counting methods, course levels, and the solvers of the table that
//! enumerate. A value added to its registry is listed without editing any text; the command
//! line's help is made of these lists, and any other front end can show the same.
//!
//! # Examples
//! ```
//! use sudokit::jobs::lists;
//! assert!(lists::readers().contains("dimacs"));
//! assert!(lists::method_names().contains(&"enumerate"));
//! assert_eq!(lists::words(&["a", "b", "c"]), "a, b and c");
//! assert_eq!(lists::wrap("a b", 0), "a b\n");
//! ```

use crate::census::{Method, methods_for};
use crate::encode::cnf::{Amo, Encoding};
use crate::external::SolverTable;
use crate::format::{FORMATS, READER_ALIASES, READERS, find_format};
use crate::propagate::{Scheme, Shaving};
use crate::reduce::course::Level;
use crate::shape::Shape;
use crate::solve::registry;

/// The width the generated paragraphs and rows are wrapped to.
pub const WIDTH: usize = 100;

/// The backend families that find a 0-1 point of an ILP.
pub fn point_families() -> Vec<&'static str> {
    registry::ENTRIES
        .iter()
        .filter(|e| e.finds_points())
        .map(|e| e.family)
        .collect()
}

/// Every backend family: its syntax and what it is (`ext:NAME` with the solver table).
pub fn backends() -> String {
    format!(
        "Backends (a spec is FAMILY or FAMILY:OPTIONS):\n{}",
        indent(&registry::help())
    )
}

/// The families that find a 0-1 point of the ILP (the ILP level of `reduce latin`).
pub fn point_backends() -> String {
    let names: Vec<String> = registry::ENTRIES
        .iter()
        .filter(|e| e.finds_points())
        .map(|e| {
            if e.is_built() {
                e.family.to_string()
            } else {
                format!(
                    "{} (needs the cargo feature {})",
                    e.family,
                    e.feature.unwrap_or("?")
                )
            }
        })
        .collect();
    format!("ILP backends: {}", names.join(", "))
}

/// The CNF encodings, each with what it is.
pub fn encodings() -> String {
    let rows: Vec<(&str, &str)> = Encoding::ALL
        .iter()
        .map(|e| (e.name(), e.summary()))
        .collect();
    table("Encodings:", &rows)
}

/// The at-most-one encodings, each with what it is.
pub fn amos() -> String {
    let rows: Vec<(&str, &str)> = Amo::ALL.iter().map(|a| (a.name(), a.summary())).collect();
    table("At-most-one encodings:", &rows)
}

/// `title`, then a row per `(name, what it is)`, the names in a column.
fn table(title: &str, rows: &[(&str, &str)]) -> String {
    let width = rows.iter().map(|(name, _)| name.len()).max().unwrap_or(0);
    let rows: String = rows
        .iter()
        .map(|(name, text)| format!("  {name:<width$}  {text}\n"))
        .collect();
    format!("{title}\n{rows}")
}

/// The propagation schemes, in one line.
pub fn schemes() -> String {
    let names: Vec<&str> = Scheme::EVERY.iter().map(|s| s.name()).collect();
    format!("Schemes (Simonis 2005): {}", names.join(" "))
}

/// The export formats, each with what it is and its aliases; `first` is a row put first.
pub fn formats(first: &str) -> String {
    let rows: String = FORMATS
        .iter()
        .map(|f| {
            let aliases = if f.aliases.is_empty() {
                String::new()
            } else {
                format!(" (also {})", f.aliases.join(", "))
            };
            format!("  {:<9} {}{aliases}\n", f.name, f.summary)
        })
        .collect();
    format!("Formats; `sudokit decode --from` reads the answers:\n{first}{rows}")
}

/// The answer readers (`decode --from`), each with the solvers that write it and its aliases.
pub fn readers() -> String {
    let rows: String = READERS
        .iter()
        .map(|r| {
            let aliases: Vec<&str> = READER_ALIASES
                .iter()
                .filter(|(_, reader)| *reader == r.name)
                .map(|(alias, _)| *alias)
                .collect();
            let aliases = if aliases.is_empty() {
                String::new()
            } else {
                format!(" (also {})", aliases.join(", "))
            };
            format!("  {:<9} {}{aliases}\n", r.name, r.summary)
        })
        .collect();
    format!("Answer forms (the solver's output):\n{rows}")
}

/// The course levels of `reduce latin --solve`, in chain order, each with what it is.
pub fn levels() -> String {
    let rows: Vec<(&str, &str)> = Level::ALL.iter().map(|l| (l.name(), l.title())).collect();
    table("Levels, in chain order:", &rows)
}

/// The level names, for a message: `latin, sudoku, cnf, ...`.
pub fn level_names() -> String {
    let names: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
    names.join(", ")
}

/// What `reduce latin --to` takes besides `sudoku`: the files of the chain's levels
/// (`cnf|ilp|exact-cover|colouring`), then every other export format.
pub fn latin_targets() -> String {
    let level_formats: Vec<(&str, &str)> = Level::ALL
        .iter()
        .filter_map(|l| find_format(l.name()).ok().map(|f| (l.name(), f.name)))
        .collect();
    let levels: Vec<&str> = level_formats.iter().map(|(level, _)| *level).collect();
    let others: Vec<&str> = FORMATS
        .iter()
        .map(|f| f.name)
        .filter(|name| level_formats.iter().all(|(_, format)| format != name))
        .collect();
    format!(
        "--to {} (the files of the levels) or any other export format ({})",
        levels.join("|"),
        others.join(", ")
    )
}

/// The schemes of `grade` in a paragraph: the paper's, those that shave to the fixpoint, and
/// those that shave once.
pub fn scheme_groups() -> String {
    let named = |keep: &dyn Fn(&Scheme) -> bool| -> Vec<&'static str> {
        Scheme::EVERY
            .iter()
            .filter(|s| keep(s))
            .map(|s| s.name())
            .collect()
    };
    let paper = named(&|s| Scheme::ALL.contains(s));
    let beyond = named(&|s| !Scheme::ALL.contains(s));
    let once = named(&|s| s.shaving() == Shaving::Once);
    let fixpoint = named(&|s| s.shaving() == Shaving::Fixpoint);
    let beyond = if beyond == fixpoint {
        format!("{}, which shave to the fixpoint", beyond.join(" "))
    } else {
        beyond.join(" ")
    };
    wrap(
        &format!(
            "Schemes (Simonis 2005): {} (`paper`), and {beyond} (`all` is every one). {} shave \
             once, as in the paper; --shave fixpoint makes them the + schemes.",
            paper.join(" "),
            words(&once)
        ),
        0,
    )
}

/// The names `count --method` takes: `auto`, the symmetry methods, `enumerate`.
pub fn method_names() -> Vec<&'static str> {
    std::iter::once("auto")
        .chain(Method::ALL.iter().map(|m| m.name()))
        .chain(std::iter::once("enumerate"))
        .collect()
}

/// The rows of `count --method`: `auto`, each symmetry method with what it counts and the
/// shapes it counts (as [`methods_for`] answers), and `enumerate`.
pub fn count_methods() -> String {
    let mut rows = vec![(
        "auto",
        "the default: the shape's first method below, or enumerate where none counts the shape \
         or with --limit, --node-limit or another --backend"
            .to_string(),
    )];
    for method in Method::ALL {
        rows.push((
            method.name(),
            format!("{}; {}", method.summary(), method_shapes(method)),
        ));
    }
    rows.push((
        "enumerate",
        "every completion, up to value relabelling (n! times those of the first row 1..n), by \
         --backend. Without --limit, an enumeration that could not finish (more than 10^12 \
         completions of the first row, by a proven bound: every shape no method reaches, 4×4 \
         boxes, 2×5, 3×4, Latin order 11 and up) is refused (exit 2)"
            .to_string(),
    ));
    let width = rows.iter().map(|(name, _)| name.len()).max().unwrap_or(0);
    rows.iter()
        .map(|(name, text)| wrap(&format!("  {name:<width$}  {text}"), width + 4))
        .collect()
}

/// The shapes `method` counts, and those it is the default for, in words.
fn method_shapes(method: Method) -> String {
    let counts = |shape: &Shape| methods_for(shape).contains(&method);
    let first = |shape: &Shape| methods_for(shape).first() == Some(&method);
    // Boxes up to transposition (2×3 stands for 3×2).
    let boxes: Vec<(usize, usize)> = (2..=8)
        .flat_map(|p| (p..=64 / p).map(move |q| (p, q)))
        .filter(|&(p, q)| Shape::sudoku(p, q).is_ok_and(|s| counts(&s)))
        .collect();
    let named = |shapes: &[(usize, usize)]| -> Vec<String> {
        shapes.iter().map(|(p, q)| format!("{p}×{q}")).collect()
    };
    let defaults: Vec<(usize, usize)> = boxes
        .iter()
        .copied()
        .filter(|&(p, q)| Shape::sudoku(p, q).is_ok_and(|s| first(&s)))
        .collect();
    let latin = (1..=64)
        .take_while(|&n| Shape::latin(n).is_ok_and(|s| counts(&s)))
        .last();
    let mut parts = Vec::new();
    if !boxes.is_empty() {
        parts.push(format!("boxes of {}", words(&named(&boxes))));
    }
    if let Some(n) = latin {
        let rows_of_one = Shape::sudoku(1, 2).is_ok_and(|s| counts(&s));
        let also = if rows_of_one { " (and 1×n boxes)" } else { "" };
        parts.push(format!("Latin squares{also} to order {n}"));
    }
    let mut text = format!("counts {}", words(&parts));
    if boxes.is_empty() && latin.is_some() {
        text.push_str(", the default for them");
    } else if !defaults.is_empty() {
        text.push_str(&format!(" (the default for {})", words(&named(&defaults))));
    }
    text
}

/// The solvers of the built-in table that enumerate, by the answer reader (`decode --from`) of
/// their output: `picosat --all and cryptominisat5 --maxsol N for --from dimacs, ...`.
pub fn enumerating_solvers() -> String {
    let table = SolverTable::builtin();
    let mut groups: Vec<(&str, Vec<String>)> = Vec::new();
    for entry in table.entries() {
        let Some(flags) = &entry.enumerate else {
            continue;
        };
        let flags: Vec<String> = flags.iter().map(|f| f.replace("{limit}", "N")).collect();
        let run = format!("{} {}", entry.program, flags.join(" "));
        match groups
            .iter_mut()
            .find(|(reader, _)| *reader == entry.answer)
        {
            Some((_, runs)) if runs.contains(&run) => {}
            Some((_, runs)) => runs.push(run),
            None => groups.push((&entry.answer, vec![run])),
        }
    }
    let groups: Vec<String> = groups
        .iter()
        .enumerate()
        .map(|(i, (reader, runs))| {
            let from = if i == 0 { "--from " } else { "" };
            format!("{} for {from}{reader}", words(runs))
        })
        .collect();
    groups.join(", ")
}

/// `a`, `a and b`, `a, b and c`.
pub fn words<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [rest @ .., last] => {
            let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
            format!("{} and {}", rest.join(", "), last.as_ref())
        }
    }
}

/// `text` wrapped at spaces to [`WIDTH`] columns, the lines after the first indented by
/// `hang` spaces (runs of spaces kept); ends with a newline.
pub fn wrap(text: &str, hang: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for (i, word) in text.split(' ').enumerate() {
        if i > 0 {
            let long = line.chars().count() + 1 + word.chars().count() > WIDTH;
            if long && !word.is_empty() && !line.trim().is_empty() {
                out.push_str(line.trim_end());
                out.push('\n');
                line = " ".repeat(hang);
                line.push_str(word);
                continue;
            }
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

/// `text` with every line indented by two spaces.
fn indent(text: &str) -> String {
    text.lines().map(|l| format!("  {l}\n")).collect()
}
