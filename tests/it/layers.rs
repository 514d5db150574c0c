//! The library's layers (see the crate docs): every module uses only modules of its own layer or
//! the layers below, and no modules form a cycle. Read from the sources, tests left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers, lowest first; the crate root (`lib.rs`, the facade) is above them all.
const LAYERS: &[&[&str]] = &[
    &["shape", "grid", "bitset"],
    &["verify", "search", "batch"],
    &["text", "encode"],
    &["format"],
    &["propagate", "solve", "external"],
    &[
        "reduce",
        "generate",
        "grade",
        "crosscheck",
        "render",
        "bench",
        "present",
        "census",
    ],
    &["facade"],
];

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

/// The top-level modules each top-level module of the library uses.
fn dependencies() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let relative = path.strip_prefix(&src).unwrap();
            let top = relative
                .components()
                .next()
                .unwrap()
                .as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string();
            let name = path.file_name().unwrap().to_string_lossy();
            if ["cli", "main", "lib"].contains(&top.as_str()) || name == "tests.rs" {
                continue;
            }
            let text = code(&std::fs::read_to_string(&path).unwrap());
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
