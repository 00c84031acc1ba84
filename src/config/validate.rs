//! Validation: every problem of a config at once, each naming the knob and the fix.
//! The window shows them next to the knobs; the CLI prints them and exits non-zero.

use std::fmt;

use super::{ExperimentConfig, MaskKind, estimate_memory};

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
        write!(f, "{}: {}; fix: {}", self.knob, self.message, self.fix)
    }
}

fn problem(knob: impl Into<String>, message: impl Into<String>, fix: impl Into<String>) -> ConfigProblem {
    ConfigProblem {
        knob: knob.into(),
        message: message.into(),
        fix: fix.into(),
    }
}

/// Every problem with `config`; empty means it can be trained.
pub fn validate(config: &ExperimentConfig) -> Vec<ConfigProblem> {
    let mut problems = Vec::new();
    let model = &config.model;
    let d = model.d_model;

    if d == 0 {
        problems.push(problem("model.d_model", "d_model is 0", "use a positive width such as 64"));
    }
    if model.max_len == 0 {
        problems.push(problem("model.max_len", "max_len is 0", "use at least the task's sequence length"));
    }
    if model.layers.is_empty() {
        problems.push(problem("model.layers", "the model has zero layers", "add at least one layer"));
    }
    if !(0.0..1.0).contains(&model.dropout) {
        problems.push(problem(
            "model.dropout",
            format!("dropout {} is outside [0, 1)", model.dropout),
            "use 0 for none, or a probability such as 0.1",
        ));
    }
    if !(model.init_scale.is_finite() && model.init_scale > 0.0) {
        problems.push(problem(
            "model.init_scale",
            format!("init scale {} is not a positive number", model.init_scale),
            "use 1.0 for PyTorch's default initialisation",
        ));
    }
    for (i, layer) in model.layers.iter().enumerate() {
        let knob = |name: &str| format!("model.layers[{i}].{name}");
        if layer.attention {
            if layer.heads == 0 {
                problems.push(problem(knob("heads"), "0 heads", "use at least 1 head"));
            } else if d > 0 && d % layer.heads != 0 {
                let divisors: Vec<String> = (1..=d.min(64)).filter(|h| d % h == 0).map(|h| h.to_string()).collect();
                problems.push(problem(
                    knob("heads"),
                    format!("d_model {d} is not divisible by {} heads (d_k = d_model / heads must be whole)", layer.heads),
                    format!("use one of {} heads, or change d_model", divisors.join(", ")),
                ));
            }
            if let Some(head) = layer.ablated_heads.iter().find(|h| **h >= layer.heads) {
                problems.push(problem(
                    knob("ablated_heads"),
                    format!("head {head} is ablated but the layer has heads 0–{}", layer.heads.saturating_sub(1)),
                    "ablate only heads the layer has, or clear the ablation",
                ));
            }
            if layer.mask == MaskKind::SlidingWindow && layer.window == 0 {
                problems.push(problem(knob("window"), "a sliding window of 0 positions", "use a window of at least 1"));
            }
        }
        if layer.ffn && layer.d_ff == 0 {
            problems.push(problem(knob("d_ff"), "the feed-forward width is 0", "use a width such as 4 × d_model, or turn the FFN off"));
        }
    }
    if !(config.lr.is_finite() && config.lr > 0.0) {
        problems.push(problem("lr", format!("learning rate {} is not a positive number", config.lr), "use a value such as 0.001"));
    }
    if config.batch_size == 0 {
        problems.push(problem("batch_size", "batch size is 0", "use at least 1, such as 64"));
    }
    if config.steps == 0 {
        problems.push(problem("steps", "0 training steps", "use at least 1 step"));
    }
    if config.eval_size == 0 {
        problems.push(problem("eval_size", "the evaluation set is empty", "use at least 1 sequence, such as 256"));
    }
    if let Some(clip) = config.clip_grad_norm
        && !(clip.is_finite() && clip > 0.0)
    {
        problems.push(problem("clip_grad_norm", format!("clip value {clip} is not positive"), "use a value such as 1.0, or remove it"));
    }

    let task = match config.task.build() {
        Ok(task) => task,
        Err(err) => {
            let knob = match &err {
                crate::tasks::TaskError::BadSize { knob, .. } => knob.clone(),
                crate::tasks::TaskError::Corpus { .. } => "task.corpus".to_string(),
            };
            problems.push(problem(knob, err.to_string(), "change the task's settings"));
            return problems;
        }
    };
    let seq = task.seq_len();
    let task_vocab = task.vocab().len();
    if seq > model.max_len {
        problems.push(problem(
            "model.max_len",
            format!("the task's sequences have {seq} tokens but max_len is {}", model.max_len),
            format!("raise max_len to at least {seq}, or shorten task.length"),
        ));
    }
    if let Some(vocab) = model.vocab_size
        && vocab != task_vocab
    {
        problems.push(problem(
            "model.vocab_size",
            format!("the model has {vocab} tokens but task {} uses {task_vocab}", config.task.kind.name()),
            format!("set vocab_size to {task_vocab}, or remove it to follow the task"),
        ));
    }
    let estimate = estimate_memory(config, config.model_vocab_size(task_vocab), seq);
    if estimate.total_mib() > config.memory_limit_mib as f64 {
        // Name the knob that drives it: the length when the n² attention matrices
        // are most of the memory, else the batch.
        let knob = if estimate.attention_bytes * 2 > estimate.total_bytes() { "task.length" } else { "batch_size" };
        problems.push(problem(
            knob,
            format!(
                "training needs about {:.0} MiB ({:.0} MiB of it attention matrices), over the {} MiB limit",
                estimate.total_mib(),
                estimate.attention_bytes as f64 / 1048576.0,
                config.memory_limit_mib
            ),
            "lower batch_size, task.length, heads or layers (attention memory grows with length²)",
        ));
    }
    if let Some(from) = config.init_source() {
        if let Err(why) = super::resolve_init_from(from) {
            problems.push(problem("init_from", why, "choose random weights, a shipped model, or a folder saved by the app"));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
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
    }

    #[test]
    fn several_problems_come_back_together() {
        let mut config = preset("lesson").unwrap();
        config.lr = -1.0;
        config.model.dropout = 1.5;
        config.model.layers[0].d_ff = 0;
        assert_eq!(knobs(&config), vec!["model.dropout", "model.layers[0].d_ff", "lr"]);
    }
}
