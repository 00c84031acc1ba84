//! Tests of `validate`: each problem names its knob and the fix.

use super::*;
use crate::config::preset;

fn knobs(config: &ExperimentConfig) -> Vec<String> {
    validate(config).into_iter().map(|p| p.knob).collect()
}

#[test]
fn presets_are_valid() {
    for name in crate::config::PRESET_NAMES {
        assert_eq!(validate(&preset(name).unwrap()), vec![], "{name}");
    }
}

#[test]
fn a_held_out_length_that_cannot_work_is_named() {
    let mut config = preset("lesson").unwrap();
    config.task = crate::tasks::TaskConfig::for_kind(crate::tasks::TaskKind::CharLm);
    config.task.length = 16;
    config.task.eval_length = 64;
    config.fit_max_len_to_task();
    assert_eq!(knobs(&config), Vec::<String>::new(), "the character model travels to 64");
    config.model.max_len = 32;
    assert_eq!(knobs(&config), vec!["task.eval_length"], "longer than max length");
    // Bracket depth has a label per depth: a longer string brings new tokens.
    config.task = crate::tasks::TaskConfig::for_kind(crate::tasks::TaskKind::BracketDepth);
    config.task.eval_length = 16;
    config.fit_max_len_to_task();
    let problems = validate(&config);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].knob == "task.eval_length" && problems[0].to_string().contains("tokens"), "{problems:?}");
    // Rotary needs pairs: d_k = 64 / 64 = 1 is odd.
    let mut config = preset("lesson").unwrap();
    config.model.positional = crate::config::PositionalEncoding::Rotary;
    config.model.layers[0].heads = 64;
    assert_eq!(knobs(&config), vec!["model.layers[0].heads"]);
}

#[test]
fn heads_not_dividing_d_model_is_named_with_a_fix() {
    let mut config = preset("lesson").unwrap();
    config.model.layers[1].heads = 5;
    let problems = validate(&config);
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].knob, "model.layers[1].heads");
    assert!(problems[0].fix.contains("4"), "{}", problems[0]);
}

#[test]
fn zero_layers_long_sequence_vocab_and_memory_are_each_reported() {
    let mut config = preset("lesson").unwrap();
    config.model.layers.clear();
    assert_eq!(knobs(&config), vec!["model.layers"]);

    let mut config = preset("lesson").unwrap();
    config.model.max_len = 20;
    assert_eq!(knobs(&config), vec!["model.max_len"]);

    let mut config = preset("lesson").unwrap();
    config.model.vocab_size = Some(12);
    assert_eq!(knobs(&config), vec!["model.vocab_size"]);

    let mut config = preset("lesson").unwrap();
    config.batch_size = 100_000;
    let problems = validate(&config);
    assert_eq!(problems.len(), 1);
    assert!(problems[0].message.contains("MiB"), "{}", problems[0]);

    // A held-out set too large to evaluate in reasonable time is refused by name.
    let mut config = preset("lesson").unwrap();
    config.eval_size = 200_000_000;
    assert_eq!(knobs(&config), vec!["eval_size"]);
    assert!(validate(&preset("lesson").unwrap()).is_empty(), "the default held-out set fits");
}

#[test]
fn knobs_of_another_family_are_refused_by_name() {
    let mut config = crate::config::preset("rnn").unwrap();
    assert_eq!(validate(&config), vec![]);
    config.model.layers = vec![LayerConfig::default()];
    config.model.positional = PositionalEncoding::Learned;
    assert_eq!(knobs(&config), vec!["model.layers", "model.positional"]);

    let mut config = crate::config::preset("encoder_decoder").unwrap();
    assert_eq!(validate(&config), vec![]);
    config.model.rnn_attention = RnnAttention::Dot;
    config.model.encoder_layers.clear();
    assert_eq!(knobs(&config), vec!["model.rnn_attention", "model.encoder_layers"]);

    // A seq2seq family on a task without a source is refused, naming the family.
    let mut config = crate::config::preset("rnn").unwrap();
    config.task = crate::tasks::TaskConfig::for_kind(crate::tasks::TaskKind::Lookup);
    config.fit_max_len_to_task();
    assert_eq!(knobs(&config), vec!["model.family"]);
    // An encoder layer is checked like any layer, under its own name.
    let mut config = crate::config::preset("encoder_decoder").unwrap();
    config.model.encoder_layers[0].heads = 5;
    assert_eq!(knobs(&config), vec!["model.encoder_layers[0].heads"]);
    // Cross-attention alone still uses the layer's heads.
    let mut config = crate::config::preset("encoder_decoder").unwrap();
    config.model.layers[0].attention = false;
    config.model.layers[0].heads = 0;
    assert_eq!(knobs(&config), vec!["model.layers[0].heads"]);
    // Switching cross-attention off where there is none is refused.
    let mut config = crate::config::preset("lesson").unwrap();
    config.model.layers[1].cross_attention = false;
    assert_eq!(knobs(&config), vec!["model.layers[1].cross_attention"]);
}

#[test]
fn a_layer_norm_epsilon_must_be_a_small_positive_number() {
    for eps in [0.0, -1e-5, f64::NAN, 2.0] {
        let mut config = preset("lesson").unwrap();
        config.model.layer_norm_eps = eps;
        assert_eq!(knobs(&config), vec!["model.layer_norm_eps"], "{eps}");
    }
    let mut bert = preset("lesson").unwrap();
    bert.model.layer_norm_eps = 1e-12;
    assert_eq!(validate(&bert), vec![]);
}

#[test]
fn several_problems_come_back_together() {
    let mut config = preset("lesson").unwrap();
    config.lr = -1.0;
    config.model.dropout = 1.5;
    config.model.layers[0].d_ff = 0;
    assert_eq!(knobs(&config), vec!["model.dropout", "model.layers[0].d_ff", "lr"]);
}

#[test]
fn a_task_size_problem_reads_as_the_editor_names_its_knobs_and_says_what_to_set() {
    let mut config = preset("lesson").unwrap();
    config.task = crate::tasks::TaskConfig::for_kind(crate::tasks::TaskKind::Lookup);
    config.task.length = 20;
    config.task.symbols = 8;
    config.fit_max_len_to_task();
    let problems = validate(&config);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let p = &problems[0];
    // Shown beside the "length" knob: the message does not repeat "task.length".
    assert_eq!(p.knob, "task.length");
    assert!(!p.message.contains("task."), "{p:?}");
    assert_eq!(p.fix, crate::t!("msg-task-lookup-distinct-keys-fix", pairs = 20, symbols = 8), "the numbers to set, not \"change the task's settings\"");
    // The CLI's line still names the knob.
    assert!(p.to_string().contains("task.length"), "{p}");
    // 64 pairs: more than the symbols knob allows (26), so only the length can give.
    config.task.length = 64;
    config.fit_max_len_to_task();
    let problems = validate(&config);
    assert_eq!(problems.iter().map(|p| p.fix.clone()).collect::<Vec<_>>(), [crate::t!("msg-task-lookup-distinct-keys-fix-length", symbols = 8)], "{problems:?}");
    // mod_add: the nearest prime (24 lies between 23 and 29).
    config.task = crate::tasks::TaskConfig::for_kind(crate::tasks::TaskKind::ModAdd);
    config.task.symbols = 24;
    config.fit_max_len_to_task();
    let problems = validate(&config);
    assert_eq!(problems.iter().map(|p| p.fix.clone()).collect::<Vec<_>>(), [crate::t!("msg-task-mod-add-prime-fix", prime = 23)], "{problems:?}");
}
