//! The one-direction rule: the model/training side never draws, the window never
//! touches a tensor. Checked on the source text of every file.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

fn offenders(dirs: &[&str], forbidden: &[&str]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for name in dirs {
        // A module is a folder or one file (`bughunt.rs`); a name that is neither is
        // a mistake in this test, never a silent pass.
        let (dir, file) = (root.join(name), root.join(format!("{name}.rs")));
        let files = if dir.is_dir() {
            rust_files(&dir)
        } else if file.is_file() {
            vec![file]
        } else {
            panic!("src/{name} is neither a folder nor a file: the check would see nothing");
        };
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                if forbidden.iter().any(|word| code.contains(word)) {
                    found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                }
            }
        }
    }
    found
}

#[test]
fn the_engine_and_the_cli_never_import_egui() {
    let found = offenders(
        &["model", "training", "tasks", "config", "runs", "lessons", "experiments", "probe", "progress", "bughunt", "cli"],
        &["egui", "eframe", "rfd::"],
    );
    assert!(found.is_empty(), "drawing code on the engine side:\n{}", found.join("\n"));
}

#[test]
fn the_window_never_touches_burn() {
    let found = offenders(&["app", "ui"], &["burn::", "burn_", "Tensor<"]);
    assert!(found.is_empty(), "tensors on the UI side:\n{}", found.join("\n"));
}

#[test]
fn the_checker_sees_the_sources_it_checks() {
    // Guard against the test passing because it looked in the wrong place.
    let found = offenders(&["model"], &["burn::"]);
    assert!(found.len() > 5, "expected to find burn imports under src/model");
    // A one-file module is read too, and a name that is not there is refused.
    assert!(!offenders(&["bughunt"], &["fn "]).is_empty(), "src/bughunt.rs is read");
    assert!(std::panic::catch_unwind(|| offenders(&["no_such_module"], &["egui"])).is_err(), "a missing module fails the check");
}

use std::collections::{BTreeMap, BTreeSet};

/// The part of a file before its unit tests, without comments.
fn code_of(file: &Path) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// Names used after each `prefix` in `code`, including those inside `prefix{a, b}`.
fn names_after(code: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices(prefix) {
        let rest = &code[at + prefix.len()..];
        let group = rest.strip_prefix('{').map(|g| &g[..g.find('}').unwrap_or(g.len())]);
        for part in group.map_or(vec![rest], |g| g.split(',').collect()) {
            let name: String = part.trim_start().chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                out.push(name);
            }
        }
    }
    out
}

/// A cycle in `edges`, if there is one (as the list of nodes around it).
fn find_cycle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(node: &str, edges: &BTreeMap<String, BTreeSet<String>>, path: &mut Vec<String>, done: &mut BTreeSet<String>) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|n| n == node) {
            return Some(path[start..].to_vec());
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, edges, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    edges.keys().find_map(|node| visit(node, edges, &mut Vec::new(), &mut done))
}

/// Top-level module → the top-level modules its code names through `crate::`.
/// The window's two halves (`app` state and `ui` panels) count as one, `window`.
fn module_edges() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let window = |name: &str| if name == "app" || name == "ui" { "window".to_string() } else { name.to_string() };
    let mut modules = BTreeSet::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if name != "lib" && name != "main" {
            modules.insert(window(&name));
        }
    }
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let me = window(&path.file_stem().unwrap().to_string_lossy());
        let files = if path.is_dir() { rust_files(&path) } else { vec![path.clone()] };
        for file in files {
            for name in names_after(&code_of(&file), "crate::") {
                let target = window(&name);
                if target != me && modules.contains(&target) {
                    edges.entry(me.clone()).or_default().insert(target);
                }
            }
        }
    }
    edges
}

#[test]
fn the_top_level_modules_import_each_other_in_one_direction_only() {
    let edges = module_edges();
    for engine in ["model", "training", "tasks", "config", "runs", "lessons", "experiments", "probe", "cli"] {
        assert!(edges.contains_key(engine) || engine == "tasks", "{engine} is seen by the checker");
    }
    assert_eq!(find_cycle(&edges), None, "an import loop between top-level modules; edges: {edges:#?}");
    // The lower layers never reach up.
    for (low, high) in [("runs", "training"), ("probe", "training"), ("model", "training"), ("experiments", "window"), ("training", "experiments")] {
        assert!(!edges.get(low).is_some_and(|e| e.contains(high)), "{low} imports {high}");
    }
}

#[test]
fn the_files_of_training_import_each_other_in_one_direction_only() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/training");
    let mut names = BTreeSet::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        names.insert(path.file_stem().unwrap().to_string_lossy().to_string());
    }
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let me = path.file_stem().unwrap().to_string_lossy().to_string();
        if me == "mod" {
            continue; // mod.rs only declares
        }
        // A folder (`fused/`) is one node: its files reach the others through
        // `super::super::` or `crate::training::`.
        let (files, up) = if path.is_dir() { (rust_files(&path), "super::super::") } else { (vec![path.clone()], "super::") };
        for file in files {
            let code = code_of(&file);
            for name in names_after(&code, up).into_iter().chain(names_after(&code, "crate::training::")) {
                if name != me && names.contains(&name) {
                    edges.entry(me.clone()).or_default().insert(name);
                }
            }
        }
    }
    assert!(edges.get("session").is_some_and(|e| e.contains("grad_report")), "the checker sees session → grad_report");
    assert!(edges.contains_key("fused"), "the checker sees what fused/ imports: {edges:#?}");
    assert_eq!(find_cycle(&edges), None, "an import loop inside src/training; edges: {edges:#?}");
}

#[test]
fn the_loop_finder_finds_a_planted_loop_and_reads_grouped_imports() {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (a, b) in [("a", "b"), ("b", "c"), ("c", "d")] {
        edges.entry(a.into()).or_default().insert(b.into());
    }
    assert_eq!(find_cycle(&edges), None);
    edges.entry("d".into()).or_default().insert("b".into());
    assert_eq!(find_cycle(&edges), Some(vec!["b".to_string(), "c".into(), "d".into()]));
    assert_eq!(names_after("use crate::{model::X, runs};", "crate::"), vec!["model", "runs"]);
}
