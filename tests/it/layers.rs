//! The library's layers (see the crate docs): every module uses only modules of its own layer or
//! the layers below, and no modules form a cycle; and, one level down, no source files import
//! each other in a circle (the command line's files included). Read from the sources, tests left
//! out.
//!
//! # Files
//! Each source file is a node; an edge goes from a file to every file whose items it names: the
//! paths of its `use` declarations and its code (`crate::`, `super::`, `self::`, a child module,
//! a module imported by `use`), resolved to the deepest file that exists, and through the
//! `pub use` re-exports of a module file to the file that defines the item. A module file's
//! edges to its own submodules do not count: declaring, re-exporting and using its children is
//! what a module file is for; a child using its parent's items does count.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first; the crate root (`lib.rs`, and the facade of `grid_solving.rs`) is
/// above them all.
const LAYERS: &[&[&str]] = &[
    &["shape", "grid", "bitset"],
    &["verify", "search", "batch"],
    &["text", "encode"],
    &["format", "proof"],
    &["propagate", "solve", "external"],
    &[
        "reduce",
        "generate",
        "grade",
        "crosscheck",
        "render",
        "bench",
        "census",
    ],
    &["jobs"],
    &["grid_solving"],
];

/// Circles between files tolerated while they are being removed: none. Each entry would be one
/// strongly connected group of files, exactly; a new circle, a file joining a group, or a group
/// that is gone (remove its entry then) fails the test.
const KNOWN_CIRCLES: &[&[&str]] = &[];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// The code of a source file without its test module and comment lines.
fn code(text: &str) -> String {
    let end = text.find("#[cfg(test)]").unwrap_or(text.len());
    text[..end]
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every source file under `src`, relative to it, test files left out.
fn source_files() -> Vec<PathBuf> {
    let root = src();
    let mut files = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs")
                && path.file_name().is_some_and(|n| n != "tests.rs")
            {
                files.push(path.strip_prefix(&root).unwrap().to_path_buf());
            }
        }
    }
    files.sort();
    files
}

/// The top-level modules each top-level module of the library uses.
fn dependencies() -> BTreeMap<String, BTreeSet<String>> {
    let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for relative in source_files() {
        let top = relative
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if ["cli", "main", "lib"].contains(&top.as_str()) {
            continue;
        }
        let text = code(&std::fs::read_to_string(src().join(&relative)).unwrap());
        let used = deps.entry(top.clone()).or_default();
        for (i, _) in text.match_indices("crate::") {
            let rest = &text[i + "crate::".len()..];
            let module: String = rest
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect();
            if !module.is_empty() && module != top {
                used.insert(module);
            }
        }
    }
    deps
}

#[test]
fn every_module_uses_only_its_layer_and_those_below() {
    let deps = dependencies();
    let mut wrong = Vec::new();
    for (module, used) in &deps {
        let Some(own) = layer(module) else {
            wrong.push(format!(
                "{module} is in no layer: add it to LAYERS and the crate docs"
            ));
            continue;
        };
        for dep in used {
            match layer(dep) {
                Some(l) if l <= own => {}
                Some(l) => wrong.push(format!(
                    "{module} (layer {}) uses {dep} (layer {})",
                    own + 1,
                    l + 1
                )),
                // Items re-exported at the crate root (`crate::Grid`, `crate::verify`) are fine.
                None => {}
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn no_modules_form_a_cycle() {
    let deps = dependencies();
    // Depth-first search for a back edge.
    fn visit(
        module: &str,
        deps: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|m| m == module) {
            let mut cycle = path[i..].to_vec();
            cycle.push(module.to_string());
            return Some(cycle);
        }
        if !done.insert(module.to_string()) {
            return None;
        }
        path.push(module.to_string());
        for dep in deps.get(module).into_iter().flatten() {
            if let Some(cycle) = visit(dep, deps, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    for module in deps.keys() {
        if let Some(cycle) = visit(module, &deps, &mut Vec::new(), &mut done) {
            panic!("modules form a cycle: {}", cycle.join(" -> "));
        }
    }
}

/// A source file as a module: its crate (`lib` or `bin`) and its module path.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Module {
    krate: &'static str,
    path: Vec<String>,
}

/// The module of a file (`solve/mod.rs` is `solve`, `cli/solve.rs` is `cli::solve` in `bin`).
fn module_of(relative: &Path) -> Module {
    let mut path: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = path.pop().unwrap();
    let krate = if path.first().is_some_and(|p| p == "cli") || last == "main.rs" {
        "bin"
    } else {
        "lib"
    };
    match last.as_str() {
        "mod.rs" | "lib.rs" | "main.rs" => {}
        name => path.push(name.trim_end_matches(".rs").to_string()),
    }
    Module { krate, path }
}

/// The file of a module, if there is one.
fn file_of(module: &Module, files: &BTreeSet<PathBuf>) -> Option<PathBuf> {
    if module.path.is_empty() {
        return Some(PathBuf::from(if module.krate == "bin" {
            "main.rs"
        } else {
            "lib.rs"
        }));
    }
    let joined = module.path.join("/");
    [format!("{joined}.rs"), format!("{joined}/mod.rs")]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| files.contains(p))
}

/// The deepest module file a path inside `krate` leads to, and the segments after it.
fn resolve(
    krate: &'static str,
    segments: &[String],
    files: &BTreeSet<PathBuf>,
) -> Option<(PathBuf, Vec<String>)> {
    for n in (0..=segments.len()).rev() {
        let module = Module {
            krate,
            path: segments[..n].to_vec(),
        };
        if let Some(file) = file_of(&module, files) {
            return Some((file, segments[n..].to_vec()));
        }
    }
    None
}

/// The `use` paths of a code text, groups expanded (`a::{b, c::{d, self}}` gives `a::b`,
/// `a::c::d`, `a::c`), with whether each is a `pub use`.
fn use_paths(code: &str) -> Vec<(bool, Vec<String>)> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before = &rest[..at];
        let starts_statement = before
            .chars()
            .last()
            .is_none_or(|c| c.is_whitespace() || c == ';' || c == '{' || c == '}');
        let public = before.trim_end().ends_with("pub") || before.trim_end().ends_with(')');
        let after = &rest[at + 4..];
        let Some(end) = after.find(';') else { break };
        if starts_statement {
            let tree = after[..end]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            let mut tree = tree.clone();
            for (from, to) in [
                (" ::", "::"),
                (":: ", "::"),
                ("{ ", "{"),
                (" }", "}"),
                (" ,", ","),
                (", ", ","),
            ] {
                tree = tree.replace(from, to);
            }
            expand(&tree, &mut Vec::new(), &mut |p| out.push((public, p)));
        }
        rest = &after[end..];
    }
    out
}

/// Expands a use tree (without spaces) under `prefix`.
fn expand(tree: &str, prefix: &mut Vec<String>, emit: &mut impl FnMut(Vec<String>)) {
    let tree = tree.trim_start_matches("::");
    if let Some(open) = tree.find('{') {
        let head: Vec<String> = tree[..open]
            .split("::")
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let depth = prefix.len();
        prefix.extend(head);
        // Split the group at its top-level commas.
        let (mut level, mut start) = (0, 0);
        let bytes = inner.as_bytes();
        for i in 0..=bytes.len() {
            match bytes.get(i) {
                Some(b'{') => level += 1,
                Some(b'}') => level -= 1,
                Some(b',') | None if level == 0 => {
                    let part = &inner[start..i];
                    if part == "self" {
                        emit(prefix.clone());
                    } else if !part.is_empty() {
                        expand(part, prefix, emit);
                    }
                    start = i + 1;
                }
                _ => {}
            }
        }
        prefix.truncate(depth);
        return;
    }
    let name = tree.split(" as ").next().unwrap_or(tree);
    let mut path = prefix.clone();
    path.extend(
        name.split("::")
            .filter(|s| !s.is_empty() && *s != "*")
            .map(String::from),
    );
    emit(path);
}

/// The paths a code text names outside its `use` declarations that start with `start::`.
fn code_paths(code: &str, start: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let needle = format!("{start}::");
    for (i, _) in code.match_indices(&needle) {
        let boundary = code[..i]
            .chars()
            .last()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == ':'));
        if !boundary {
            continue;
        }
        let rest = &code[i..];
        let text: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        out.push(
            text.split("::")
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect(),
        );
    }
    out
}

/// The child modules a file declares (`mod x;`, `pub mod x;`, `pub(crate) mod x;`).
fn child_modules(code: &str) -> BTreeSet<String> {
    code.lines()
        .filter_map(|line| {
            let line = line.trim();
            let rest = line.split("mod ").nth(1)?;
            let is_decl = line.starts_with("mod ")
                || line.starts_with("pub mod ")
                || line.starts_with("pub(crate) mod ")
                || line.starts_with("pub(super) mod ");
            let name = rest.strip_suffix(';')?;
            is_decl.then(|| name.trim().to_string())
        })
        .collect()
}

/// The file-level import graph: file → files it uses.
fn file_graph() -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let files: BTreeSet<PathBuf> = source_files().into_iter().collect();
    let texts: BTreeMap<PathBuf, String> = files
        .iter()
        .map(|f| {
            (
                f.clone(),
                code(&std::fs::read_to_string(src().join(f)).unwrap()),
            )
        })
        .collect();
    // The re-exports of each file: name → the path it re-exports (absolute, in its crate).
    let mut reexports: BTreeMap<PathBuf, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    let absolute = |file: &Path, path: &[String]| -> Option<Vec<String>> {
        let module = module_of(file);
        let children = child_modules(&texts[file]);
        let first = path.first()?;
        let mut base = match first.as_str() {
            "crate" => Vec::new(),
            "self" => module.path.clone(),
            "super" => {
                let mut base = module.path.clone();
                let mut rest = path;
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop();
                    rest = &rest[1..];
                }
                base.extend(rest.iter().cloned());
                return Some(base);
            }
            name if children.contains(name) => {
                let mut base = module.path.clone();
                base.push(name.to_string());
                base.extend(path[1..].iter().cloned());
                return Some(base);
            }
            _ => return None,
        };
        base.extend(path[1..].iter().cloned());
        Some(base)
    };
    for file in &files {
        for (public, path) in use_paths(&texts[file]) {
            if !public {
                continue;
            }
            if let Some(target) = absolute(file, &path)
                && let Some(name) = target.last()
            {
                reexports
                    .entry(file.clone())
                    .or_default()
                    .insert(name.clone(), target.clone());
            }
        }
    }
    let mut graph: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for file in &files {
        let module = module_of(file);
        let text = &texts[file];
        let mut paths: Vec<Vec<String>> = Vec::new();
        let mut aliases: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (_, path) in use_paths(text) {
            if let Some(target) = absolute(file, &path) {
                if let Some(name) = path.last() {
                    aliases.insert(name.clone(), target.clone());
                }
                paths.push(target);
            }
        }
        let mut starts: BTreeSet<String> = ["crate", "super", "self"].map(String::from).into();
        starts.extend(child_modules(text));
        for start in &starts {
            for path in code_paths(text, start) {
                if let Some(target) = absolute(file, &path) {
                    paths.push(target);
                }
            }
        }
        for (alias, target) in &aliases {
            for path in code_paths(text, alias) {
                let mut full = target.clone();
                full.extend(path[1..].iter().cloned());
                paths.push(full);
            }
        }
        let edges = graph.entry(file.clone()).or_default();
        for path in paths {
            let Some((mut target, mut rest)) = resolve(module.krate, &path, &files) else {
                continue;
            };
            // Through the re-exports of module files to the file that defines the item.
            for _ in 0..4 {
                let Some(name) = rest.first() else { break };
                let Some(again) = reexports.get(&target).and_then(|r| r.get(name)) else {
                    break;
                };
                let Some((next, next_rest)) = resolve(module.krate, again, &files) else {
                    break;
                };
                if next == target {
                    break;
                }
                (target, rest) = (next, next_rest);
            }
            let owns = {
                let target_module = module_of(&target);
                target_module.krate == module.krate
                    && target_module.path.len() > module.path.len()
                    && target_module.path.starts_with(&module.path)
                    && file
                        .file_name()
                        .is_some_and(|n| n == "mod.rs" || n == "lib.rs" || n == "main.rs")
            };
            if target != *file && !owns {
                edges.insert(target);
            }
        }
    }
    graph
}

/// The strongly connected groups of more than one file (Tarjan).
fn circles(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<BTreeSet<PathBuf>> {
    struct State<'a> {
        graph: &'a BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        index: BTreeMap<&'a PathBuf, usize>,
        low: BTreeMap<&'a PathBuf, usize>,
        stack: Vec<&'a PathBuf>,
        on_stack: BTreeSet<&'a PathBuf>,
        next: usize,
        out: Vec<BTreeSet<PathBuf>>,
    }
    fn connect<'a>(v: &'a PathBuf, s: &mut State<'a>) {
        s.index.insert(v, s.next);
        s.low.insert(v, s.next);
        s.next += 1;
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.graph.get(v).into_iter().flatten() {
            let Some((w, _)) = s.graph.get_key_value(w) else {
                continue;
            };
            if !s.index.contains_key(w) {
                connect(w, s);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut group = BTreeSet::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                group.insert(w.clone());
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                s.out.push(group);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !state.index.contains_key(v) {
            connect(v, &mut state);
        }
    }
    state.out
}

#[test]
fn no_files_import_each_other_in_a_circle() {
    let graph = file_graph();
    // The analysis sees what it must: a child's use of its parent, a re-export, a sibling.
    let edge = |a: &str, b: &str| graph[Path::new(a)].contains(Path::new(b));
    assert!(
        edge("solve/native.rs", "solve/mod.rs"),
        "super:: to the parent"
    );
    assert!(edge("jobs/solve.rs", "jobs/job.rs"), "super:: to a sibling");
    assert!(
        edge("jobs/runner.rs", "batch.rs"),
        "crate:: to another module"
    );
    assert!(
        edge("cli/solve.rs", "cli/runner.rs"),
        "the command line's files"
    );
    let known: Vec<BTreeSet<PathBuf>> = KNOWN_CIRCLES
        .iter()
        .map(|group| group.iter().map(PathBuf::from).collect())
        .collect();
    let found = circles(&graph);
    let mut wrong = Vec::new();
    for group in &found {
        if !known.contains(group) {
            let names: Vec<String> = group.iter().map(|p| p.display().to_string()).collect();
            let detail: Vec<String> = group
                .iter()
                .map(|f| {
                    let uses: Vec<String> = graph[f]
                        .iter()
                        .filter(|g| group.contains(*g))
                        .map(|g| g.display().to_string())
                        .collect();
                    format!("  {} uses {}", f.display(), uses.join(", "))
                })
                .collect();
            wrong.push(format!(
                "these files import each other in a circle: {}\n{}",
                names.join(", "),
                detail.join("\n")
            ));
        }
    }
    for group in &known {
        if !found.contains(group) {
            let names: Vec<String> = group.iter().map(|p| p.display().to_string()).collect();
            wrong.push(format!(
                "the known circle {} is gone: remove it from KNOWN_CIRCLES",
                names.join(", ")
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}
