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
