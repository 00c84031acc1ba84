//! Run folders: round trip, and a clear error (never a panic) for every bad folder.

use attention_workbench::runs::{CONFIG_FILE, METRICS_FILE, WEIGHTS_FILE};
use attention_workbench::tasks::TaskKind;
use attention_workbench::training::{Session, StepOutcome};

use super::experiment;

fn trained(steps: usize) -> Session {
    let mut session = Session::new(experiment("tiny", TaskKind::Reverse)).unwrap();
    for _ in 0..steps {
        assert!(matches!(session.step(false), StepOutcome::Done { .. }));
    }
    session
}

#[test]
fn a_saved_run_loads_back_with_identical_weights_metrics_and_step() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = trained(20);
    let eval = session.evaluate();
    session.save(dir.path()).unwrap();
    for file in [CONFIG_FILE, WEIGHTS_FILE, METRICS_FILE, "run.json"] {
        assert!(dir.path().join(file).is_file(), "{file} written");
    }
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");

    let mut loaded = Session::load(dir.path()).unwrap();
    assert_eq!(loaded.step_count(), 20);
    assert_eq!(loaded.history().steps.len(), 20);
    assert_eq!(loaded.config(), session.config());
    let again = loaded.evaluate();
    assert_eq!(again.loss, eval.loss);
    assert_eq!(again.accuracy, eval.accuracy);
    // and it keeps training
    assert!(matches!(loaded.step(false), StepOutcome::Done { .. }));
}

fn error_of(dir: &std::path::Path) -> String {
    match Session::load(dir) {
        Ok(_) => panic!("{} should not load", dir.display()),
        Err(err) => err.to_string(),
    }
}

#[test]
fn weights_of_another_architecture_name_the_parameter_and_both_shapes() {
    let dir = tempfile::tempdir().unwrap();
    trained(1).save(dir.path()).unwrap();
    let mut config = experiment("tiny", TaskKind::Reverse);
    config.model.d_model = 64;
    std::fs::write(dir.path().join(CONFIG_FILE), config.to_json()).unwrap();
    let message = error_of(dir.path());
    assert!(message.contains("weights.bpk"), "{message}");
    assert!(message.contains("tok_emb"), "{message}");
    assert!(message.contains("[17, 32]") && message.contains("[17, 64]"), "{message}");

    let mut deeper = experiment("tiny", TaskKind::Reverse);
    deeper.model.layers.push(deeper.model.layers[0].clone());
    std::fs::write(dir.path().join(CONFIG_FILE), deeper.to_json()).unwrap();
    let message = error_of(dir.path());
    assert!(message.contains("layers.1"), "{message}");
}

#[test]
fn truncated_or_foreign_weights_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    trained(1).save(dir.path()).unwrap();
    let weights = dir.path().join(WEIGHTS_FILE);
    let bytes = std::fs::read(&weights).unwrap();
    std::fs::write(&weights, &bytes[..bytes.len() / 2]).unwrap();
    let message = error_of(dir.path());
    assert!(message.contains("weights.bpk"), "{message}");

    std::fs::write(&weights, b"this is not a weights file at all").unwrap();
    let message = error_of(dir.path());
    assert!(message.contains("weights.bpk") && message.contains("not a readable weights file"), "{message}");

    std::fs::remove_file(&weights).unwrap();
    assert!(error_of(dir.path()).contains("missing"));
}

#[test]
fn a_broken_config_or_metrics_file_or_folder_is_named() {
    let dir = tempfile::tempdir().unwrap();
    trained(1).save(dir.path()).unwrap();
    std::fs::write(dir.path().join(METRICS_FILE), "{ not json").unwrap();
    let message = error_of(dir.path());
    assert!(message.contains("metrics.json"), "{message}");

    std::fs::write(dir.path().join(CONFIG_FILE), r#"{"model": {"d_model": "wide"}}"#).unwrap();
    let message = error_of(dir.path());
    assert!(message.contains("config.json") && message.contains("d_model"), "{message}");

    let mut invalid = experiment("tiny", TaskKind::Reverse);
    invalid.model.layers[0].heads = 3;
    std::fs::write(dir.path().join(CONFIG_FILE), invalid.to_json()).unwrap();
    let message = error_of(dir.path());
    assert!(message.contains("config.json") && message.contains("heads"), "{message}");

    let missing = dir.path().join("nope");
    assert!(error_of(&missing).contains("not a run folder"));
}

/// `run.json`'s step and the last step in `metrics.json` come from the same save.
fn consistent_run(dir: &std::path::Path) -> usize {
    let session = Session::load(dir).unwrap_or_else(|e| panic!("{} does not load: {e}", dir.display()));
    let info: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("run.json")).unwrap()).unwrap();
    let step = info["step"].as_u64().unwrap() as usize;
    assert_eq!(session.history().steps.last().map(|s| s.step), Some(step), "run.json and metrics.json come from different saves");
    assert_eq!(session.step_count(), step);
    step
}

/// Saves one folder again and again, a step apart. With `AW_SAVE_LOOP_DIR` set it
/// runs until killed (the child of the kill test below); without, 20 saves.
#[test]
fn a_folder_saved_again_and_again_always_loads() {
    let looping = std::env::var_os("AW_SAVE_LOOP_DIR");
    let temp = tempfile::tempdir().unwrap();
    let dir = looping.as_ref().map(std::path::PathBuf::from).unwrap_or_else(|| temp.path().join("run"));
    let mut session = trained(1);
    let mut saves = 0;
    while looping.is_some() || saves < 20 {
        session.save(&dir).unwrap();
        saves += 1;
        assert!(matches!(session.step(false), StepOutcome::Done { .. }));
    }
    assert_eq!(consistent_run(&dir), 20);
}

#[test]
fn killing_a_save_at_any_moment_leaves_the_old_or_the_new_run() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("run");
    let mut rng = attention_workbench::tasks::Rng::new(14);
    let mut last_step = 0;
    let (mut mid_save, mut between_renames) = (0, 0);
    for kill in 0..30 {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args(["runs::a_folder_saved_again_and_again_always_loads", "--exact", "--test-threads=1"])
            .env("AW_SAVE_LOOP_DIR", &dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Let it save at least once (the first round) or a little while, then kill it
        // at a random moment: saves take most of its time.
        let start = Instant::now();
        while kill == 0 && !dir.join("run.json").exists() && start.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(5));
        }
        std::thread::sleep(Duration::from_millis(20 + rng.below(200) as u64));
        let pid = child.id();
        child.kill().unwrap();
        child.wait().unwrap();
        // Where the kill landed: this child's staging folder left beside the run
        // means in the middle of a save; no run folder at all means between its two
        // renames, which the load must repair.
        if temp.path().join(format!(".run.saving-{pid}")).exists() {
            mid_save += 1;
        }
        if !dir.exists() {
            between_renames += 1;
        }
        let step = consistent_run(&dir);
        assert!(step >= 1, "kill {kill}: a run was saved");
        last_step = last_step.max(step);
    }
    // Evidence the kills tested something: most landed during a save (its writes
    // take most of the child's time), not all during start-up.
    eprintln!("{mid_save} of 30 kills landed mid-save, {between_renames} between the renames");
    assert!(mid_save >= 5, "only {mid_save} of 30 kills landed during a save");
    let strays: Vec<String> = std::fs::read_dir(temp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".old-"))
        .collect();
    assert!(strays.len() <= 1, "old folders are cleared by the next save: {strays:?}");
    assert!(last_step > 1);

    // A kill between the two renames is a window too narrow to hit at random: leave
    // exactly what it leaves, and watch the load put the run back.
    let step = consistent_run(&dir);
    for stale in hidden_siblings(&dir, "saving-").into_iter().chain(hidden_siblings(&dir, "old-")) {
        std::fs::remove_dir_all(stale).unwrap();
    }
    let staged = temp.path().join(".run.saving-999");
    std::fs::rename(&dir, &staged).unwrap(); // the complete new folder, not yet renamed in
    assert_eq!(consistent_run(&dir), step, "the complete staging folder is put in place");
    assert!(!staged.exists());
    let aside = temp.path().join(".run.old-999");
    std::fs::rename(&dir, &aside).unwrap(); // the old folder renamed aside...
    std::fs::create_dir(temp.path().join(".run.saving-998")).unwrap(); // ...and a staging folder without run.json
    assert_eq!(consistent_run(&dir), step, "the old folder comes back when the new one is incomplete");
    assert!(!aside.exists());
}

/// Hidden siblings of a run folder left by a save: `.run.{tag}<pid>`.
fn hidden_siblings(dir: &std::path::Path, tag: &str) -> Vec<std::path::PathBuf> {
    let prefix = format!(".{}.{tag}", dir.file_name().unwrap().to_string_lossy());
    std::fs::read_dir(dir.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(&prefix))
        .collect()
}
