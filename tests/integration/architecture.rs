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
    for dir in dirs {
        let dir = root.join(dir);
        if !dir.exists() {
            continue;
        }
        for file in rust_files(&dir) {
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
fn model_training_tasks_config_runs_and_lessons_never_import_egui() {
    let found = offenders(
        &["model", "training", "tasks", "config", "runs", "lessons"],
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
}
