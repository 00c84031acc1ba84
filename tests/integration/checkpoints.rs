//! Real checkpoints: tiny BERT and GPT-2 folders written by `transformers`
//! (tests/fixtures/hf/make_fixtures.py), opened by the workbench and compared with
//! what `transformers` computed on them (reference.json beside each), entry by
//! entry: tokens, every attention weight, every hidden state, the predictions.
//! Then every kind of bad folder, each named in its message.

use std::path::{Path, PathBuf};

use attention_workbench::pretrained::{self, Predictions};
use serde_json::Value;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hf").join(name)
}

fn reference(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("reference.json")).unwrap()).unwrap()
}

fn open(dir: &Path) -> Result<pretrained::Pretrained, pretrained::OpenError> {
    pretrained::open(dir, &mut |_, _| {})
}

/// Every number of `ours` within 1e-4 of `theirs`, relative to the largest
/// magnitude of the reference tensor (at least 1): flattened side by side.
fn assert_close(what: &str, ours: &Value, theirs: &Value) {
    fn flat(v: &Value, out: &mut Vec<f64>) {
        match v {
            Value::Array(items) => items.iter().for_each(|i| flat(i, out)),
            Value::Number(n) => out.push(n.as_f64().unwrap()),
            other => panic!("not a number: {other}"),
        }
    }
    let (mut a, mut b) = (Vec::new(), Vec::new());
    flat(ours, &mut a);
    flat(theirs, &mut b);
    assert_eq!(a.len(), b.len(), "{what}: {} numbers against {}", a.len(), b.len());
    assert!(!b.is_empty(), "{what}: nothing to compare");
    let scale = b.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    let (worst, at) = a.iter().zip(&b).enumerate().map(|(i, (x, y))| ((x - y).abs(), i)).fold((0.0, 0), |m, d| if d.0 > m.0 { d } else { m });
    assert!(worst <= 1e-4 * scale && a.iter().all(|x| x.is_finite()), "{what}: entry {at} is {} against {} (largest gap {worst:e}, scale {scale})", a[at], b[at]);
}

fn matches_transformers(name: &str, dir: &Path) {
    let model = open(dir).unwrap_or_else(|e| panic!("{name}: {e}"));
    let reference = reference(dir);
    let cases = reference["cases"].as_array().unwrap();
    assert!(cases.len() >= 3);
    for case in cases {
        let texts: Vec<&str> = case["texts"].as_array().unwrap().iter().map(|t| t.as_str().unwrap()).collect();
        let ours = serde_json::to_value(model.inspect(&texts).unwrap()).unwrap();
        let what = format!("{name} {texts:?}");
        for key in ["tokens", "input_ids", "attention_mask"] {
            assert_eq!(ours[key], case[key], "{what}: {key}");
        }
        assert_close(&format!("{what} attentions"), &ours["attentions"], &case["attentions"]);
        assert_close(&format!("{what} hidden_states"), &ours["hidden_states"], &case["hidden_states"]);
        if let Some(fills) = case["mask_fill"].as_array() {
            let none = Vec::new();
            let guesses = ours["predictions"]["mask_fill"].as_array().unwrap_or(&none);
            assert_eq!(guesses.len(), fills.len(), "{what}");
            for (ours, theirs) in guesses.iter().zip(fills) {
                assert_eq!(ours["position"], theirs["position"]);
                let names = |v: &Value| v["top"].as_array().unwrap().iter().map(|p| p[0].clone()).collect::<Vec<_>>();
                assert_eq!(names(ours), names(theirs), "{what}: the five likeliest tokens");
                let probs = |v: &Value| Value::Array(v["top"].as_array().unwrap().iter().map(|p| p[1].clone()).collect());
                assert_close(&format!("{what} mask probabilities"), &probs(ours), &probs(theirs));
            }
        }
        if name.starts_with("gpt2") {
            let continuation = case.get("continuation").unwrap_or_else(|| panic!("{what}: the reference has GPT-2's continuation"));
            assert_eq!(ours["predictions"]["continuation"]["tokens"], *continuation, "{what}: the greedy continuation (KV cache)");
        }
    }
}

#[test]
fn a_tiny_bert_written_by_transformers_gives_its_attentions_hidden_states_and_mask_guesses() {
    matches_transformers("bert-tiny", &fixture("bert-tiny"));
}

#[test]
fn a_tiny_gpt2_in_f16_shards_gives_its_attentions_hidden_states_and_continuation() {
    matches_transformers("gpt2-tiny", &fixture("gpt2-tiny"));
}

/// Another pair written with `make_fixtures.py --out DIR --seed N --d D --layers L
/// --heads H --dtype T` (not committed): run with `AW_CHECKPOINT_DIR=DIR cargo
/// nextest run --run-ignored only checkpoints`.
#[test]
#[ignore = "needs a pair written by make_fixtures.py --out, named by AW_CHECKPOINT_DIR"]
fn checkpoints_in_aw_checkpoint_dir_match_too() {
    let dir = std::env::var("AW_CHECKPOINT_DIR").expect("AW_CHECKPOINT_DIR names the folder make_fixtures.py --out wrote");
    for name in ["bert-tiny", "gpt2-tiny"] {
        matches_transformers(name, &Path::new(&dir).join(name));
    }
}

/// A copy of a fixture folder in a temporary directory, with `edit` applied.
fn edited_copy(name: &str, edit: impl FnOnce(&Path)) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(fixture(name)).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), dir.path().join(entry.file_name())).unwrap();
    }
    edit(dir.path());
    dir
}

#[test]
fn without_tokenizer_json_the_vocabulary_files_tokenize_the_same() {
    for (name, text) in [("bert-tiny", "the cat sat on the mat."), ("bert-tiny", "注意力就是你所需要的一切"), ("gpt2-tiny", "attention is all you need"), ("gpt2-tiny", "我爱猫")] {
        let whole = open(&fixture(name)).unwrap();
        let copy = edited_copy(name, |d| std::fs::remove_file(d.join("tokenizer.json")).unwrap());
        let from_vocab = open(copy.path()).unwrap();
        assert_eq!(from_vocab.tokenizer.source, if name == "bert-tiny" { "vocab.txt" } else { "vocab.json" });
        assert_eq!(from_vocab.tokenizer.encode(text, 512).unwrap(), whole.tokenizer.encode(text, 512).unwrap(), "{name}: {text}");
    }
}

fn open_error(name: &str, edit: impl FnOnce(&Path)) -> String {
    let copy = edited_copy(name, edit);
    match open(copy.path()) {
        Ok(_) => panic!("{name}: the broken folder opened"),
        Err(e) => e.to_string(),
    }
}

fn edit_config(dir: &Path, edit: impl FnOnce(&mut Value)) {
    let path = dir.join("config.json");
    let mut config: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    edit(&mut config);
    std::fs::write(path, config.to_string()).unwrap();
}

#[test]
fn each_broken_folder_is_refused_with_the_file_and_what_is_wrong() {
    let missing_config = open_error("bert-tiny", |d| std::fs::remove_file(d.join("config.json")).unwrap());
    assert!(missing_config.contains("config.json"), "{missing_config}");

    let unknown = open_error("bert-tiny", |d| edit_config(d, |c| c["architectures"] = serde_json::json!(["LlamaForCausalLM"])));
    assert!(unknown.contains("LlamaForCausalLM") && unknown.contains("GPT2LMHeadModel"), "{unknown}");

    let no_weights = open_error("bert-tiny", |d| std::fs::remove_file(d.join("model.safetensors")).unwrap());
    assert!(no_weights.contains("model.safetensors"), "{no_weights}");

    let no_tokenizer = open_error("bert-tiny", |d| {
        std::fs::remove_file(d.join("tokenizer.json")).unwrap();
        std::fs::remove_file(d.join("vocab.txt")).unwrap();
    });
    assert!(no_tokenizer.contains("vocab.txt") && no_tokenizer.contains("tokenizer.json"), "{no_tokenizer}");

    let truncated = open_error("bert-tiny", |d| {
        let path = d.join("model.safetensors");
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    });
    assert!(truncated.contains("model.safetensors:") && truncated.contains("not a readable safetensors file"), "{truncated}");

    let garbage = open_error("gpt2-tiny", |d| std::fs::write(d.join("model-00002-of-00003.safetensors"), b"not a safetensors file at all").unwrap());
    assert!(garbage.contains("model-00002-of-00003.safetensors"), "{garbage}");

    let shape = open_error("bert-tiny", |d| edit_config(d, |c| c["intermediate_size"] = serde_json::json!(48)));
    assert!(shape.contains("bert.encoder.layer.0.intermediate.dense.weight") && shape.contains("[64, 16]") && shape.contains("[48, 16]"), "{shape}");

    let vocab = open_error("gpt2-tiny", |d| edit_config(d, |c| c["vocab_size"] = serde_json::json!(100)));
    assert!(vocab.contains("tokenizer") && vocab.contains("100"), "{vocab}");
}

#[test]
fn text_longer_than_the_positions_is_cut_and_says_how_much() {
    let model = open(&fixture("bert-tiny")).unwrap();
    let long = "the cat sat on the mat. ".repeat(10);
    let inspection = model.inspect(&[&long]).unwrap();
    assert_eq!(inspection.tokens[0].len(), model.config.model.max_len);
    assert!(inspection.truncated[0] > 0);
    assert_eq!((inspection.tokens[0][0].as_str(), inspection.tokens[0].last().unwrap().as_str()), ("[CLS]", "[SEP]"), "cut inside, as transformers' truncation does");
    assert!(model.inspect(&[]).is_err());
    assert!(model.inspect(&[""]).is_ok_and(|i| i.tokens[0].len() == 2), "an empty sentence is still [CLS] [SEP]");
}

#[test]
fn bert_without_a_typed_mask_says_how_to_get_guesses() {
    let model = open(&fixture("bert-tiny")).unwrap();
    match model.inspect(&["the cat sat"]).unwrap().predictions {
        Predictions::None(why) => assert!(why.contains("[MASK]"), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_inspect_command_prints_one_json_object_shaped_as_transformers_outputs() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_attention-workbench"))
        .env("LC_ALL", "C.UTF-8")
        .args(["inspect", "--model", fixture("gpt2-tiny").to_str().unwrap(), "--text", "the cat sat", "--text2", "我爱猫", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let (layers, heads) = (2, 2);
    let tokens = json["tokens"].as_array().unwrap();
    assert_eq!(tokens.len(), 2, "two sequences");
    let seq = tokens[0].as_array().unwrap().len();
    assert_eq!(tokens[1].as_array().unwrap().len(), seq, "padded to one length");
    let attentions = json["attentions"].as_array().unwrap();
    assert_eq!(attentions.len(), layers);
    assert_eq!(attentions[0].as_array().unwrap().len(), 2);
    assert_eq!(attentions[0][0].as_array().unwrap().len(), heads);
    assert_eq!(attentions[0][0][0].as_array().unwrap().len(), seq);
    assert_eq!(json["hidden_states"].as_array().unwrap().len(), layers + 1, "embeddings, then each layer");
    assert_eq!(json["hidden_states"][0][0][0].as_array().unwrap().len(), 16, "d_model");

    let broken = std::process::Command::new(env!("CARGO_BIN_EXE_attention-workbench"))
        .env("LC_ALL", "C.UTF-8")
        .args(["inspect", "--model", "/nonexistent/folder", "--text", "hi"])
        .output()
        .unwrap();
    assert_eq!(broken.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&broken.stderr).contains("/nonexistent/folder"));
}

/// The window: a checkpoint dropped on it opens in the Pretrained tab, reads the
/// typed sentences as a padded batch, and each view is a click away.
#[test]
fn a_dropped_checkpoint_opens_in_the_pretrained_tab_and_every_view_shows_it() {
    use attention_workbench::app::WorkbenchApp;
    use attention_workbench::workbench::actions::AppAction;
    use eframe::egui;
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

    let mut app = WorkbenchApp::new(egui::Context::default(), super::window::small_state());
    app.close_getting_started();
    app.pretrained.text = "the cat [MASK] on the mat.".into();
    app.pretrained.text2 = "我爱猫".into();
    app.perform(AppAction::Dropped(vec![fixture("bert-tiny")]));
    let mut harness = Harness::builder()
        .with_size([1440.0, 900.0])
        .with_context_setup(attention_workbench::app::install_fonts)
        .build_ui_state(|ui, app: &mut WorkbenchApp| app.show(ui), app);
    super::window::step_until(&mut harness, "the checkpoint's reading", |app| app.pretrained.reading.is_some());
    assert!(harness.query_by_label_contains("BertForMaskedLM: 2 layers × 2 heads").is_some(), "the model is described");
    assert_eq!(harness.state().pretrained.reading.as_ref().unwrap().snapshots.len(), 2, "two sentences, one padded batch");
    assert!(harness.query_by_label("Layer 0, head 0").is_some(), "the model view enlarges the first map");

    // The central tabs come first; the checkpoint's own views follow.
    harness.get_all_by_label("Mask inspector").last().unwrap().click();
    harness.run_steps(2);
    harness.get_by_label("Sentence 2").click();
    harness.run_steps(2);
    assert!(harness.query_by_label_contains("no weight reaches a position the intended mask hides").is_some());
    assert!(harness.query_by_label_contains("padding positions").is_some(), "the padded sentence's padding is marked");
    assert!(harness.query_by_label("Probe for leaks").is_none(), "no probe button for a checkpoint");

    harness.get_by_label("Predictions").click();
    harness.run_steps(2);
    assert!(harness.query_by_label_contains("BERT's five likeliest tokens").is_some());

    harness.get_all_by_label("Step-through").last().unwrap().click();
    harness.run_steps(2);
    harness.get_by_label("Trace this head").click();
    super::window::step_until(&mut harness, "the traced head", |app| app.pretrained.trace.is_some());
    let (sequence, trace) = harness.state().pretrained.trace.clone().unwrap();
    assert_eq!((sequence, trace.tokens.as_slice()), (1, &["[CLS]", "我", "爱", "猫", "[SEP]"].map(String::from)[..]), "sentence 2, unpadded");

    // A broken folder says what is wrong and keeps the open model.
    let broken = tempfile::tempdir().unwrap();
    harness.state_mut().open_pretrained(broken.path());
    super::window::step_until(&mut harness, "the error", |app| app.pretrained.error.is_some());
    assert!(harness.state().pretrained.error.as_ref().unwrap().contains("config.json"));
    assert!(harness.state().pretrained.info.is_some(), "the open model stays");
}

/// The shipped character models open like a checkpoint (their run folders), and
/// what `inspect` reads of them is what the trainer's own attention snapshot shows.
#[test]
fn a_shipped_character_model_opens_like_a_checkpoint_with_the_trainers_own_maps() {
    use attention_workbench::training::Session;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/pretrained/english");
    let model = open(&dir).unwrap();
    let text = "the lamp was lit";
    let inspection = model.inspect(&[text]).unwrap();
    assert_eq!(inspection.tokens[0].concat(), text.replace(' ', "␣"), "one token per character (a space shows as ␣)");
    assert_eq!(inspection.hidden_states.len(), model.config.model.layers.len() + 1);
    match &inspection.predictions {
        Predictions::Continuation { tokens, .. } => assert_eq!(tokens.len(), pretrained::inspect::CONTINUATION_TOKENS),
        other => panic!("{other:?}"),
    }
    let mut session = Session::load(&dir).unwrap();
    session.set_probe(text).unwrap();
    let snapshot = session.attention_snapshot();
    for (layer, heads) in snapshot.layers.iter().enumerate() {
        for (head, map) in heads.as_ref().unwrap().iter().enumerate() {
            let ours: Vec<f32> = inspection.attentions[layer][0][head].iter().flatten().copied().collect();
            let gap = ours.iter().zip(map).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
            assert!(ours.len() == map.len() && gap < 1e-5, "layer {layer} head {head}: largest gap {gap}");
        }
    }
    let unknown = model.inspect(&["the lamp ☃"]).unwrap_err();
    assert!(unknown.contains('☃'), "{unknown}");
}

/// A `BertModel` file (no `bert.` prefix, no masked-LM head): the same encoder
/// gives the same numbers, and the predictions say why there are none.
#[test]
fn a_bert_model_without_its_masked_lm_head_reads_the_same_and_says_it_cannot_guess() {
    let copy = edited_copy("bert-tiny", |d| {
        let bytes = std::fs::read(d.join("model.safetensors")).unwrap();
        let file = safetensors::SafeTensors::deserialize(&bytes).unwrap();
        let kept: Vec<(String, safetensors::tensor::TensorView<'_>)> =
            file.tensors().into_iter().filter(|(n, _)| !n.starts_with("cls.")).map(|(n, v)| (n.trim_start_matches("bert.").to_string(), v)).collect();
        assert!(kept.len() < file.len(), "the head was in the file");
        std::fs::write(d.join("model.safetensors"), safetensors::serialize(kept, None).unwrap()).unwrap();
        edit_config(d, |c| c["architectures"] = serde_json::json!(["BertModel"]));
    });
    let model = open(copy.path()).unwrap_or_else(|e| panic!("{e}"));
    assert!(!model.has_lm_head);
    let reference = reference(&fixture("bert-tiny"));
    let case = reference["cases"].as_array().unwrap().iter().find(|c| c["texts"].as_array().unwrap().len() == 2).expect("the padded pair");
    let texts: Vec<&str> = case["texts"].as_array().unwrap().iter().map(|t| t.as_str().unwrap()).collect();
    let inspection = model.inspect(&texts).unwrap();
    let ours = serde_json::to_value(&inspection).unwrap();
    assert_close("BertModel attentions", &ours["attentions"], &case["attentions"]);
    assert_close("BertModel hidden_states", &ours["hidden_states"], &case["hidden_states"]);
    match inspection.predictions {
        Predictions::None(why) => assert!(why.contains("BertModel"), "{why}"),
        other => panic!("{other:?}"),
    }
}
