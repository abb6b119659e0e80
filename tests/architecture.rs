//! The layering of every crate, read from its source: the modules of a
//! crate (and the files of a folder module) import one another without a
//! circle, so each sits in a layer and no arrow points back up. Found by
//! reading `crate::x` (and, at the top, `super::x`) outside the tests.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Module name to the modules it uses.
type Graph = BTreeMap<String, BTreeSet<String>>;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The `.rs` files under `dir`, every depth.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// The code of a file before its unit tests, without line comments.
fn code_of(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or_default();
    text.lines().map(|l| l.split("//").next().unwrap_or_default()).collect::<Vec<_>>().join("\n")
}

fn ident_at(s: &str) -> &str {
    let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(s.len());
    &s[..end]
}

/// The first name of each path after `prefix` (`prefix::a`,
/// `prefix::{a, b::c}`).
fn used_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    for (at, _) in code.match_indices(prefix) {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let rest = &code[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let (mut depth, mut start) = (0, 0);
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        used.insert(ident_at(group[start..].trim_start()).to_string());
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        used.insert(ident_at(group[start..].trim_start()).to_string());
                        start = i + 1;
                    }
                    _ => {}
                }
            }
        } else {
            used.insert(ident_at(rest).to_string());
        }
    }
    used.retain(|m| !m.is_empty());
    used
}

/// The graph of the crate's top-level modules, and of the files of each
/// folder module.
fn graphs(src: &Path) -> BTreeMap<String, Graph> {
    let mut out: BTreeMap<String, Graph> = BTreeMap::new();
    for path in sources(src) {
        let rel = path.strip_prefix(src).unwrap().with_extension("");
        let parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
        if parts.len() == 1 && (parts[0] == "lib" || parts[0] == "main") {
            continue;
        }
        let code = code_of(&path);
        let top = parts[0].clone();
        let at_top = parts.len() == 1 || parts[1] == "mod";
        let mut deps = used_after(&code, "crate::");
        if at_top {
            deps.extend(used_after(&code, "super::"));
        }
        out.entry("crate".into()).or_default().entry(top.clone()).or_default().extend(deps);
        if parts.len() == 2 && parts[1] != "mod" {
            let folder = out.entry(top).or_default();
            folder.entry(parts[1].clone()).or_default().extend(used_after(&code, "super::"));
        }
    }
    for graph in out.values_mut() {
        let names: BTreeSet<String> = graph.keys().cloned().collect();
        for (name, deps) in graph.iter_mut() {
            deps.retain(|d| names.contains(d) && d != name);
        }
    }
    out
}

/// A circle in the graph, if there is one.
fn circle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(graph: &Graph, at: &str, path: &mut Vec<String>, done: &mut BTreeSet<String>) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == at) {
            let mut found = path[i..].to_vec();
            found.push(at.to_string());
            return Some(found);
        }
        if done.contains(at) {
            return None;
        }
        path.push(at.to_string());
        for next in &graph[at] {
            if let Some(found) = visit(graph, next, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(at.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|m| visit(graph, m, &mut Vec::new(), &mut done))
}

#[test]
fn no_module_imports_back_up_its_crate() {
    let crates = ["query", "builder", "cli", "web", "python", "bench"];
    let mut modules = 0;
    for name in crates {
        let src = repo().join("crates").join(name).join("src");
        for (scope, graph) in graphs(&src) {
            modules += graph.len();
            if let Some(found) = circle(&graph) {
                panic!("crates/{name}, {scope}: a circle of imports: {}", found.join(" -> "));
            }
        }
    }
    assert!(modules > 40, "only {modules} modules read");
}

#[test]
fn the_reader_finds_circles_and_group_imports() {
    let code = "use crate::{alpha, beta::{x, y}, gamma::z};\nfn f() { crate::delta::g(); super::eps::h(); }";
    let used: Vec<String> = used_after(code, "crate::").into_iter().collect();
    assert_eq!(used, ["alpha", "beta", "delta", "gamma"]);
    assert_eq!(used_after(code, "super::").into_iter().collect::<Vec<_>>(), ["eps"]);
    let graph: Graph = [("a", vec!["b"]), ("b", vec!["c"]), ("c", vec!["a"]), ("d", vec![])]
        .into_iter()
        .map(|(m, ds)| (m.to_string(), ds.into_iter().map(String::from).collect()))
        .collect();
    assert_eq!(circle(&graph).unwrap(), ["a", "b", "c", "a"]);
    let mut acyclic = graph.clone();
    acyclic.get_mut("c").unwrap().clear();
    assert_eq!(circle(&acyclic), None);
}
