//! The lists of the help: which list of the library's ([`sudokit::jobs::lists`]) goes with
//! which flag; a backend, scheme, format, reader, counting method or course level added to its
//! registry is listed without editing any help text.

use sudokit::encode::cnf::{Amo, Encoding};
use sudokit::format::{FORMATS, READERS};
use sudokit::jobs::lists::{
    amos, backends, encodings, formats, levels, method_names, point_backends, point_families,
    readers, schemes,
};
pub use sudokit::jobs::lists::{
    count_methods, enumerating_solvers, latin_targets, scheme_groups, wrap,
};
use sudokit::propagate::Scheme;
use sudokit::reduce::course::Level;
use sudokit::solve::registry;

/// The names and the list for the argument `id` of `command`, if its values come from a
/// registry.
pub fn for_arg(command: &str, id: &str) -> Option<(Vec<String>, String)> {
    let owned = |names: Vec<&str>| names.into_iter().map(String::from).collect::<Vec<_>>();
    Some(match (command, id) {
        (_, "backend" | "backends") => (
            registry::ENTRIES
                .iter()
                .map(|e| e.syntax.to_string())
                .collect(),
            backends(),
        ),
        ("latin", "mip") => (owned(point_families()), point_backends()),
        (_, "encoding") => (
            owned(Encoding::ALL.iter().map(|e| e.name()).collect()),
            encodings(),
        ),
        (_, "amo") => (owned(Amo::ALL.iter().map(|a| a.name()).collect()), amos()),
        ("solve" | "count" | "explain" | "generate", "scheme" | "not_scheme")
        | ("grade", "schemes") => (
            owned(Scheme::EVERY.iter().map(|s| s.name()).collect()),
            schemes(),
        ),
        ("export", "to") => (owned(FORMATS.iter().map(|f| f.name).collect()), formats("")),
        ("latin", "to") => (
            owned(
                std::iter::once("sudoku")
                    .chain(FORMATS.iter().map(|f| f.name))
                    .collect(),
            ),
            formats("  sudoku    the Sudoku itself (see --form)\n"),
        ),
        ("decode", "from") => (owned(READERS.iter().map(|r| r.name).collect()), readers()),
        // The methods are described in count's after-help (`count_methods`).
        ("count", "method") => (owned(method_names()), String::new()),
        ("latin", "levels") => (
            owned(Level::ALL.iter().map(|l| l.name()).collect()),
            levels(),
        ),
        _ => return None,
    })
}
