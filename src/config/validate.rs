//! Validation: every problem of a config at once, each naming the knob and the fix.
//! The window shows them next to the knobs; the CLI prints them and exits non-zero.

use std::fmt;

use super::{AttentionKind, ExperimentConfig, LayerConfig, MaskKind, ModelFamily, PositionalEncoding, RnnAttention, RnnCell, estimate_memory};
use crate::t;

/// One thing wrong with a config.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigProblem {
    /// The knob's path, e.g. `model.layers[1].heads`.
    pub knob: String,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub fix: String,
}

impl fmt::Display for ConfigProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&t!("msg-problem-line", knob = self.knob.as_str(), message = self.message.as_str(), fix = self.fix.as_str()))
    }
}

fn problem(knob: impl Into<String>, message: impl Into<String>, fix: impl Into<String>) -> ConfigProblem {
    ConfigProblem {
        knob: knob.into(),
        message: message.into(),
        fix: fix.into(),
    }
}

/// A task that cannot be built, as a problem under its knob: the message without
/// the knob's name (the editor shows it beside the knob; `ConfigProblem`'s
/// Display adds it back), and the task's own fix where it has one.
fn task_problem(err: crate::tasks::TaskError) -> ConfigProblem {
    match err {
        crate::tasks::TaskError::BadSize { knob, why, fix } => problem(knob, why, fix.unwrap_or_else(|| t!("msg-validate-task-fix"))),
        corpus @ crate::tasks::TaskError::Corpus { .. } => problem("task.corpus", corpus.to_string(), t!("msg-validate-task-fix")),
    }
}

/// Every problem with `config`; empty means it can be trained.
/// The largest held-out set: about a minute per evaluation on a laptop for the
/// lesson preset.
pub const MAX_EVAL_SIZE: usize = 100_000;

pub fn validate(config: &ExperimentConfig) -> Vec<ConfigProblem> {
    validate_with_facts(config).0
}

/// What the task a config builds has: its vocabulary size and sequence length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskFacts {
    pub vocab: usize,
    pub seq_len: usize,
}

/// Every problem with `config`, and its task's facts when the task builds: the
/// task is built once (a character model's corpus file is read once).
pub fn validate_with_facts(config: &ExperimentConfig) -> (Vec<ConfigProblem>, Option<TaskFacts>) {
    let mut facts = None;
    let problems = problems_of(config, &mut facts);
    (problems, facts)
}

/// Most token-type rows a model may have (BERT has 2).
pub const MAX_TOKEN_TYPES: usize = 16;

fn problems_of(config: &ExperimentConfig, facts: &mut Option<TaskFacts>) -> Vec<ConfigProblem> {
    let mut problems = Vec::new();
    let model = &config.model;
    let d = model.d_model;

    if d == 0 {
        problems.push(problem("model.d_model", t!("msg-validate-d-model-zero"), t!("msg-validate-d-model-zero-fix")));
    }
    if model.max_len == 0 {
        problems.push(problem("model.max_len", t!("msg-validate-max-len-zero"), t!("msg-validate-max-len-zero-fix")));
    }
    family_problems(config, &mut problems);
    if model.layers.is_empty() && model.family != ModelFamily::Rnn {
        problems.push(problem("model.layers", t!("msg-validate-no-layers"), t!("msg-validate-no-layers-fix")));
    }
    if !(0.0..1.0).contains(&model.dropout) {
        problems.push(problem(
            "model.dropout",
            t!("msg-validate-dropout", value = model.dropout.to_string()),
            t!("msg-validate-dropout-fix"),
        ));
    }
    if !(model.layer_norm_eps.is_finite() && model.layer_norm_eps > 0.0 && model.layer_norm_eps <= 1.0) {
        problems.push(problem(
            "model.layer_norm_eps",
            t!("msg-validate-layer-norm-eps", value = model.layer_norm_eps.to_string()),
            t!("msg-validate-layer-norm-eps-fix"),
        ));
    }
    if model.token_types > MAX_TOKEN_TYPES {
        problems.push(problem(
            "model.token_types",
            t!("msg-validate-token-types", value = model.token_types, max = MAX_TOKEN_TYPES),
            t!("msg-validate-token-types-fix"),
        ));
    }
    if !(model.init_scale.is_finite() && model.init_scale > 0.0) {
        problems.push(problem(
            "model.init_scale",
            t!("msg-validate-init-scale", value = model.init_scale.to_string()),
            t!("msg-validate-init-scale-fix"),
        ));
    }
    let cross = model.family == ModelFamily::EncoderDecoder;
    for (i, layer) in model.layers.iter().enumerate() {
        layer_problems(&format!("model.layers[{i}]"), layer, d, cross, config.model.positional, &mut problems);
    }
    for (i, layer) in model.encoder_layers.iter().enumerate() {
        layer_problems(&format!("model.encoder_layers[{i}]"), layer, d, false, config.model.positional, &mut problems);
    }
    if !(config.lr.is_finite() && config.lr > 0.0) {
        problems.push(problem("lr", t!("msg-validate-lr", value = config.lr.to_string()), t!("msg-validate-lr-fix")));
    }
    if config.batch_size == 0 {
        problems.push(problem("batch_size", t!("msg-validate-batch-zero"), t!("msg-validate-batch-zero-fix")));
    }
    if config.steps == 0 {
        problems.push(problem("steps", t!("msg-validate-steps-zero"), t!("msg-validate-steps-zero-fix")));
    }
    if config.eval_size == 0 {
        problems.push(problem("eval_size", t!("msg-validate-eval-empty"), t!("msg-validate-eval-empty-fix")));
    }
    // Memory stays bounded (the set is drawn a chunk at a time), but every
    // evaluation reads all of it: past this, evaluating outlasts training.
    if config.eval_size > MAX_EVAL_SIZE {
        problems.push(problem(
            "eval_size",
            t!("msg-validate-eval-huge", size = config.eval_size, max = MAX_EVAL_SIZE),
            t!("msg-validate-eval-huge-fix", max = MAX_EVAL_SIZE),
        ));
    }
    if let Some(clip) = config.clip_grad_norm
        && !(clip.is_finite() && clip > 0.0)
    {
        problems.push(problem("clip_grad_norm", t!("msg-validate-clip", value = clip.to_string()), t!("msg-validate-clip-fix")));
    }

    let task = match config.task.build() {
        Ok(task) => task,
        Err(err) => {
            problems.push(task_problem(err));
            return problems;
        }
    };
    let seq = task.seq_len();
    let task_vocab = task.vocab().len();
    if model.family.is_seq2seq() && task.source_len().is_none() {
        problems.push(problem(
            "model.family",
            t!("msg-validate-family-needs-source", family = model.family.name(), task = config.task.kind.name()),
            t!("msg-validate-family-needs-source-fix"),
        ));
    }
    *facts = Some(TaskFacts { vocab: task_vocab, seq_len: seq });
    if seq > model.max_len {
        problems.push(problem(
            "model.max_len",
            t!("msg-validate-seq-too-long", seq = seq, max_len = model.max_len),
            t!("msg-validate-seq-too-long-fix", seq = seq),
        ));
    }
    match config.task.build_held_out() {
        // The encoder–decoder families are built for one source length.
        Ok(Some(_)) if model.family.is_seq2seq() => problems.push(problem(
            "task.eval_length",
            t!("msg-validate-eval-length-seq2seq", family = model.family.name()),
            t!("msg-validate-eval-length-seq2seq-fix"),
        )),
        Ok(Some(held_out)) if held_out.vocab().len() != task_vocab => problems.push(problem(
            "task.eval_length",
            t!("msg-validate-eval-length-vocab", task = config.task.kind.name(), held_out = held_out.vocab().len(), train = task_vocab),
            t!("msg-validate-eval-length-vocab-fix"),
        )),
        Ok(Some(held_out)) if held_out.seq_len() > model.max_len => problems.push(problem(
            "task.eval_length",
            t!("msg-validate-eval-length-too-long", length = config.task.eval_length, seq = held_out.seq_len(), max_len = model.max_len),
            t!("msg-validate-eval-length-too-long-fix", seq = held_out.seq_len()),
        )),
        Ok(_) => {}
        Err(err) => problems.push(task_problem(err)),
    }
    if let Some(vocab) = model.vocab_size
        && vocab != task_vocab
    {
        problems.push(problem(
            "model.vocab_size",
            t!("msg-validate-vocab", vocab = vocab, task = config.task.kind.name(), task_vocab = task_vocab),
            t!("msg-validate-vocab-fix", task_vocab = task_vocab),
        ));
    }
    let estimate = estimate_memory(config, config.model_vocab_size(task_vocab), seq);
    if estimate.total_mib() > config.memory_limit_mib as f64 {
        // Name the knob that drives it: the length when the n² attention matrices
        // are most of the memory, else the batch.
        let knob = if estimate.eval_bytes * 2 > estimate.total_bytes() {
            "eval_size"
        } else if estimate.attention_bytes * 2 > estimate.total_bytes() {
            "task.length"
        } else {
            "batch_size"
        };
        problems.push(problem(
            knob,
            t!(
                "msg-validate-memory",
                total = format!("{:.0}", estimate.total_mib()),
                attention = format!("{:.0}", estimate.attention_bytes as f64 / 1048576.0),
                limit = config.memory_limit_mib
            ),
            t!("msg-validate-memory-fix"),
        ));
    }
    if let Some(from) = config.init_source() {
        if let Err(why) = super::resolve_init_from(from) {
            problems.push(problem("init_from", why, t!("msg-validate-init-from-fix")));
        }
    }
    problems
}

/// One layer's knobs (a decoder, decoder-only or encoder layer), under `prefix`;
/// `cross`: the layer's cross-attention is built (it shares the layer's heads).
fn layer_problems(prefix: &str, layer: &LayerConfig, d: usize, cross: bool, positional: PositionalEncoding, problems: &mut Vec<ConfigProblem>) {
    let knob = |name: &str| format!("{prefix}.{name}");
    if !cross && !layer.cross_attention {
        problems.push(problem(knob("cross_attention"), t!("msg-validate-cross-unused"), t!("msg-validate-cross-unused-fix")));
    }
    if layer.attention || (cross && layer.cross_attention) {
        if layer.heads == 0 {
            problems.push(problem(knob("heads"), t!("msg-validate-zero-heads"), t!("msg-validate-zero-heads-fix")));
        } else if d > 0 && d % layer.heads != 0 {
            let divisors: Vec<String> = (1..=d.min(64)).filter(|h| d % h == 0).map(|h| h.to_string()).collect();
            problems.push(problem(
                knob("heads"),
                t!("msg-validate-heads-divide", d = d, heads = layer.heads),
                t!("msg-validate-heads-divide-fix", divisors = divisors.join(", ")),
            ));
        } else if layer.attention && positional == PositionalEncoding::Rotary && d > 0 && (d / layer.heads) % 2 != 0 {
            // Rotary turns each head's numbers in pairs.
            let even: Vec<String> = (1..=d.min(64)).filter(|h| d % h == 0 && (d / h) % 2 == 0).map(|h| h.to_string()).collect();
            problems.push(problem(
                knob("heads"),
                t!("msg-validate-rotary-odd", d = d, heads = layer.heads, d_k = d / layer.heads),
                t!("msg-validate-rotary-odd-fix", heads = even.join(", ")),
            ));
        }
        if let Some(head) = layer.ablated_heads.iter().find(|h| **h >= layer.heads) {
            problems.push(problem(
                knob("ablated_heads"),
                t!("msg-validate-ablated", head = *head, last = layer.heads.saturating_sub(1)),
                t!("msg-validate-ablated-fix"),
            ));
        }
        if (layer.mask == MaskKind::SlidingWindow || layer.attention_kind == AttentionKind::Convolution) && layer.window == 0 {
            problems.push(problem(knob("window"), t!("msg-validate-window-zero"), t!("msg-validate-window-zero-fix")));
        }
    }
    if layer.ffn && layer.d_ff == 0 {
        problems.push(problem(knob("d_ff"), t!("msg-validate-d-ff-zero"), t!("msg-validate-d-ff-zero-fix")));
    }
}

/// Knobs that belong to another model family than the one chosen: each is
/// refused by name, never silently ignored.
fn family_problems(config: &ExperimentConfig, problems: &mut Vec<ConfigProblem>) {
    let model = &config.model;
    let family = model.family.name();
    match model.family {
        ModelFamily::Rnn => {
            if !model.layers.is_empty() {
                problems.push(problem("model.layers", t!("msg-validate-rnn-layers", count = model.layers.len()), t!("msg-validate-rnn-layers-fix")));
            }
            if model.positional != PositionalEncoding::None {
                problems.push(problem("model.positional", t!("msg-validate-rnn-positions"), t!("msg-validate-rnn-positions-fix")));
            }
        }
        ModelFamily::Decoder | ModelFamily::EncoderDecoder => {
            if model.rnn_attention != RnnAttention::None {
                problems.push(problem("model.rnn_attention", t!("msg-validate-not-rnn", knob = "model.rnn_attention", family = family), t!("msg-validate-not-rnn-fix")));
            }
            if model.rnn_cell != RnnCell::Gru {
                problems.push(problem("model.rnn_cell", t!("msg-validate-not-rnn", knob = "model.rnn_cell", family = family), t!("msg-validate-not-rnn-fix")));
            }
        }
    }
    match model.family {
        ModelFamily::EncoderDecoder if model.encoder_layers.is_empty() => {
            problems.push(problem("model.encoder_layers", t!("msg-validate-no-encoder"), t!("msg-validate-no-encoder-fix")));
        }
        ModelFamily::Decoder | ModelFamily::Rnn if !model.encoder_layers.is_empty() => {
            problems.push(problem(
                "model.encoder_layers",
                t!("msg-validate-encoder-unused", family = family, count = model.encoder_layers.len()),
                t!("msg-validate-encoder-unused-fix"),
            ));
        }
        _ => {}
    }
}

#[cfg(test)]
#[path = "validate_tests.rs"]
mod tests;

#[cfg(test)]
mod family_switch_tests {
    use crate::config::{ModelFamily, preset, validate};

    #[test]
    fn switching_family_leaves_a_valid_config_and_back() {
        let mut config = preset("lesson").unwrap();
        config.task = crate::tasks::TaskConfig::for_kind(crate::tasks::TaskKind::Translate);
        config.fit_max_len_to_task();
        for family in [ModelFamily::Rnn, ModelFamily::EncoderDecoder, ModelFamily::Decoder, ModelFamily::EncoderDecoder, ModelFamily::Rnn, ModelFamily::Decoder] {
            config.model.switch_family(family);
            assert_eq!(config.model.family, family);
            assert_eq!(validate(&config), vec![], "{family:?}");
        }
    }
}
