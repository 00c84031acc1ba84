//! The shipped pretrained models and `init_from`: they load from a clean clone,
//! their recipe reproduces them step for step, and weights move across texts by
//! character.

use std::process::Command;

use attention_workbench::config::{ExperimentConfig, preset, validate};
use attention_workbench::runs::read_json;
use attention_workbench::tasks::{TaskConfig, TaskKind};
use attention_workbench::training::{MetricsHistory, Session, SessionError, StepOutcome, read_floats};

fn train(session: &mut Session, steps: usize) {
    for _ in 0..steps {
        assert!(matches!(session.step(false), StepOutcome::Done { .. }));
    }
}

#[test]
fn each_shipped_model_is_reproduced_step_for_step_by_its_recipe() {
    for name in ["english", "chinese"] {
        let recipe = format!("assets/pretrained/{name}.json");
        let shipped: MetricsHistory = read_json(format!("assets/pretrained/{name}/metrics.json").as_ref()).unwrap();
        let saved: ExperimentConfig = read_json(format!("assets/pretrained/{name}/config.json").as_ref()).unwrap();
        let config: ExperimentConfig = read_json(recipe.as_ref()).unwrap();
        assert_eq!(config, saved, "{recipe} is the config the shipped run was trained with");
        assert_eq!(shipped.steps.len(), config.steps, "the shipped run trained all of its steps");
        // The recipe's first steps, on any thread count, give the shipped losses bit for bit.
        let out = Command::new(env!("CARGO_BIN_EXE_attention-workbench"))
            .args(["train", "--config", &recipe, "--steps", "5", "--json", "--threads", "1"])
            .env("AW_DISABLE_GPU", "1")
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let losses: Vec<f32> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter(|v| v["event"] == "step")
            .map(|v| v["loss"].as_f64().unwrap() as f32)
            .collect();
        let expected: Vec<f32> = shipped.steps[..5].iter().map(|s| s.loss).collect();
        assert_eq!(losses, expected, "{name}: the first five losses of the recipe equal the shipped run's");
    }
}

#[test]
fn a_shipped_model_starts_far_below_a_fresh_one_on_text_it_never_saw() {
    for (model, corpus) in [("pretrained/english", "english"), ("pretrained/chinese", "chinese")] {
        let mut config: ExperimentConfig = read_json(format!("assets/{model}.json").as_ref()).unwrap();
        config.task.corpus = corpus.to_string();
        let mut fresh = Session::new(config.clone()).unwrap();
        config.init_from = Some(model.to_string());
        let mut pretrained = Session::new(config).unwrap();
        let report = pretrained.init_report().expect("started from the shipped weights");
        assert!(report.fresh.is_empty(), "{model}: every layer fits: {:?}", report.fresh);
        assert!(report.tokens_known > 0);
        let (before, after) = (fresh.evaluate().loss, pretrained.evaluate().loss);
        assert!(after < 0.8 * before, "{model} on {corpus}: {after} vs fresh {before}");
    }
}

#[test]
fn init_from_carries_each_character_to_its_new_id_and_new_characters_start_fresh() {
    let dir = tempfile::tempdir().unwrap();
    // Source: a character model of "abc d" text.
    let source_text = dir.path().join("source.txt");
    std::fs::write(&source_text, "abc d ".repeat(200)).unwrap();
    let mut config = preset("tiny").unwrap();
    config.task = TaskConfig::for_kind(TaskKind::CharLm);
    config.task.length = 8;
    config.model.max_len = 8;
    config.task.corpus = source_text.to_str().unwrap().to_string();
    let mut source = Session::new(config.clone()).unwrap();
    train(&mut source, 3);
    let run = dir.path().join("run");
    source.save(&run).unwrap();

    // Target: "c", "d", " " known (at other ids), "x" and "z" new.
    let target_text = dir.path().join("target.txt");
    std::fs::write(&target_text, "x c z d ".repeat(200)).unwrap();
    config.task.corpus = target_text.to_str().unwrap().to_string();
    config.seed = 9;
    let fresh = Session::new(config.clone()).unwrap();
    config.init_from = Some(run.to_str().unwrap().to_string());
    let target = Session::new(config).unwrap();
    let report = target.init_report().unwrap();
    assert_eq!((report.tokens_known, report.tokens_new), (3, 2), "{}", report.describe());
    assert!(report.fresh.is_empty());

    let d = 32;
    let rows = |s: &Session| read_floats(s.model().tok_emb.val());
    let (src, dst, new) = (rows(&source), rows(&target), rows(&fresh));
    let id = |s: &Session, label: &str| s.task().vocab().id(label).unwrap() as usize;
    for label in ["c", "d", "␣"] {
        let (i, j) = (id(&target, label), id(&source, label));
        assert_eq!(dst[i * d..(i + 1) * d], src[j * d..(j + 1) * d], "{label} keeps its trained row");
    }
    for label in ["x", "z"] {
        let i = id(&target, label);
        assert_eq!(dst[i * d..(i + 1) * d], new[i * d..(i + 1) * d], "{label} starts as a fresh model's row");
    }
    // The head's column for "c" moved with it too.
    let head = |s: &Session| read_floats(s.model().head.weight.val());
    let (src_head, dst_head) = (head(&source), head(&target));
    let (vs, vt) = (source.task().vocab().len(), target.task().vocab().len());
    let (i, j) = (id(&target, "c"), id(&source, "c"));
    for r in 0..d {
        assert_eq!(dst_head[r * vt + i], src_head[r * vs + j]);
    }
}

#[test]
fn init_from_problems_name_the_knob_and_what_to_give() {
    let mut config = preset("tiny").unwrap();
    config.task = TaskConfig::for_kind(TaskKind::CharLm);
    config.init_from = Some("/no/such/run".to_string());
    let problems = validate(&config);
    let problem = problems.iter().find(|p| p.knob == "init_from").expect("the knob is named");
    assert!(problem.message.contains("not a run folder"), "{problem}");
    config.init_from = Some("pretrained/klingon".to_string());
    assert!(validate(&config).iter().any(|p| p.knob == "init_from" && p.message.contains("pretrained/english")));
    config.init_from = Some(String::new());
    assert!(validate(&config).iter().all(|p| p.knob != "init_from"), "an empty init_from means random weights");

    // A model of another width is refused with both widths named.
    config.init_from = Some("pretrained/english".to_string());
    config.model.d_model = 32;
    match Session::new(config) {
        Err(SessionError::InitFrom(why)) => assert!(why.contains("d_model 64") && why.contains("32"), "{why}"),
        Err(other) => panic!("expected an init_from error, got {other}"),
        Ok(_) => panic!("a d_model 32 model cannot start from a d_model 64 one"),
    }
}

#[test]
fn switching_init_from_starts_from_the_new_weights_and_keeps_nothing_of_the_old_model() {
    let mut english: ExperimentConfig = read_json("assets/pretrained/english.json".as_ref()).unwrap();
    english.init_from = Some("pretrained/english".to_string());
    let mut chinese: ExperimentConfig = read_json("assets/pretrained/chinese.json".as_ref()).unwrap();
    chinese.task.corpus = "chinese".to_string();
    chinese.init_from = Some("pretrained/chinese".to_string());
    let mut session = Session::new(english).unwrap();
    train(&mut session, 2);
    let report = session.apply_config(chinese.clone()).unwrap();
    assert!(report.kept.is_empty(), "no English weight is carried onto the Chinese model: {:?}", report.kept);
    let direct = Session::new(chinese).unwrap();
    let layer = |s: &Session| read_floats(s.model().layers[0].attention.as_ref().unwrap().wq.weight.val());
    assert_eq!(layer(&session), layer(&direct), "the layers are the shipped Chinese model's");
    assert_eq!(session.step_count(), 0, "a new start");
}
