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

/// The engine side (and the CLI, and the messages): no drawing.
const ENGINE: [&str; 13] = ["model", "pretrained", "training", "tasks", "config", "runs", "lessons", "experiments", "probe", "progress", "bughunt", "cli", "i18n"];
/// The window: its state and actions, its panels, the plain data between them.
const WINDOW: [&str; 3] = ["app", "ui", "workbench"];

#[test]
fn every_module_is_on_one_side_and_checked() {
    // A new folder or file under src/ fails here until it is put on a side, so no
    // module escapes the checks below.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found: Vec<String> = std::fs::read_dir(&src).unwrap().map(|e| e.unwrap().path().file_stem().unwrap().to_string_lossy().to_string()).filter(|n| n != "lib" && n != "main").collect();
    found.sort();
    let mut listed: Vec<String> = ENGINE.iter().chain(WINDOW.iter()).map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(found, listed, "every top-level module of src/ is listed as engine or window side");
}

#[test]
fn the_engine_and_the_cli_never_import_egui() {
    let found = offenders(&ENGINE, &["egui", "eframe", "rfd::"]);
    assert!(found.is_empty(), "drawing code on the engine side:\n{}", found.join("\n"));
}

#[test]
fn the_window_never_touches_burn() {
    let found = offenders(&WINDOW, &["burn::", "burn_", "Tensor<"]);
    assert!(found.is_empty(), "tensors on the UI side:\n{}", found.join("\n"));
}

#[test]
fn the_window_runs_one_way_panels_never_reach_the_app_and_the_data_never_draws() {
    // `ui/` draws from `workbench/` data and returns actions; only `app/` changes state.
    let found = offenders(&["ui"], &["crate::app", "super::super::app", "std::thread", "spawn("]);
    assert!(found.is_empty(), "the panels reach into the app or start threads:\n{}", found.join("\n"));
    let found = offenders(&["workbench"], &["crate::app", "crate::ui", "egui", "std::thread", "spawn("]);
    assert!(found.is_empty(), "the window's plain data draws, spawns or reaches up:\n{}", found.join("\n"));
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
/// The window's three parts are three nodes: `app` (state, actions applied),
/// `ui` (panels) and `workbench` (the plain data between them).
fn module_edges() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut modules = BTreeSet::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if name != "lib" && name != "main" {
            modules.insert(name);
        }
    }
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let me = path.file_stem().unwrap().to_string_lossy().to_string();
        let files = if path.is_dir() { rust_files(&path) } else { vec![path.clone()] };
        for file in files {
            for name in names_after(&code_of(&file), "crate::") {
                if name != me && modules.contains(&name) {
                    edges.entry(me.clone()).or_default().insert(name);
                }
            }
        }
    }
    edges
}

#[test]
fn the_top_level_modules_import_each_other_in_one_direction_only() {
    let edges = module_edges();
    for module in ["model", "training", "tasks", "config", "runs", "lessons", "experiments", "probe", "cli", "app", "ui", "workbench"] {
        assert!(edges.contains_key(module) || module == "tasks", "{module} is seen by the checker: {edges:#?}");
    }
    assert!(edges["app"].contains("ui") && edges["ui"].contains("workbench"), "the checker sees app → ui → workbench");
    assert_eq!(find_cycle(&edges), None, "an import loop between top-level modules; edges: {edges:#?}");
    // The lower layers never reach up.
    let window = ["app", "ui", "workbench"];
    for (low, high) in [("runs", "training"), ("probe", "training"), ("model", "training"), ("training", "experiments"), ("ui", "app"), ("workbench", "app"), ("workbench", "ui")]
        .into_iter()
        .chain(["experiments", "lessons", "training", "model", "config"].into_iter().flat_map(|low| window.map(|high| (low, high))))
    {
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
