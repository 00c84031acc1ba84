//! Named starting points that lessons, the CLI and the window refer to by name.
//!
//! `lesson` and `large` match `.ci/bench/torch_reference.py` exactly (post-LN,
//! GELU, learned positions, causal mask, biases everywhere, Adam at 1e-3, batch 64)
//! so throughput can be compared one to one.

use super::{
    BackendChoice, ExperimentConfig, LayerConfig, ModelConfig, OptimizerKind, PositionalEncoding,
};
use crate::tasks::TaskConfig;

/// Every preset name, in the order menus show them.
pub const PRESET_NAMES: &[&str] = &["tiny", "lesson", "large", "encoder_decoder", "rnn"];

/// Preset `name` with the task, seed and backend of `current`, as the preset menu and
/// a lesson's preset buttons switch models; `max_len` grows to the task.
pub fn preset_keeping(name: &str, current: &ExperimentConfig) -> Option<ExperimentConfig> {
    let mut config = preset(name)?;
    // A seq2seq preset keeps the task only when it has a source to read.
    let task_fits = !config.model.family.is_seq2seq() || current.task.build().is_ok_and(|t| t.source_len().is_some());
    if task_fits {
        config.task = current.task.clone();
    }
    config.seed = current.seed;
    config.backend = current.backend;
    config.fit_max_len_to_task();
    Some(config)
}

/// The experiment a preset names, or None for an unknown name.
pub fn preset(name: &str) -> Option<ExperimentConfig> {
    let (d_model, heads, d_ff, layers) = match name {
        // Fast enough for classroom demos and tests: trains in a couple of seconds.
        "tiny" => (32, 2, 64, 1),
        // The default model of the lessons (d_model 64, 4 heads, d_ff 256, 2 layers).
        "lesson" => (64, 4, 256, 2),
        // The bigger benchmark model (d_model 128, 8 heads, d_ff 512, 4 layers).
        "large" => (128, 8, 512, 4),
        "encoder_decoder" | "rnn" => return Some(seq2seq_preset(name)),
        _ => return None,
    };
    let layer = LayerConfig {
        heads,
        d_ff,
        ..LayerConfig::default()
    };
    Some(ExperimentConfig {
        task: TaskConfig::default(),
        model: ModelConfig {
            family: super::ModelFamily::Decoder,
            rnn_cell: super::RnnCell::Gru,
            rnn_attention: super::RnnAttention::None,
            encoder_layers: Vec::new(),
            vocab_size: None,
            max_len: 64,
            d_model,
            positional: PositionalEncoding::Learned,
            dropout: 0.0,
            init_scale: 1.0,
            layer_norm_eps: 1e-5,
            token_types: 0,
            embedding_norm: false,
            tied_embeddings: false,
            head_transform: false,
            layers: vec![layer; layers],
        },
        optimizer: OptimizerKind::Adam,
        lr: 1e-3,
        warmup_steps: 0,
        clip_grad_norm: None,
        batch_size: 64,
        steps: 1500,
        eval_interval: 100,
        eval_size: 256,
        attention_interval: 25,
        seed: 0,
        backend: BackendChoice::Cpu,
        memory_limit_mib: 4096,
        init_from: None,
    })
}

/// The seq2seq starting points, on `translate`: a one-layer encoder–decoder
/// Transformer (d_model 64, 4 heads, d_ff 128, an encoder and a decoder layer) and a
/// GRU encoder–decoder without attention (d_model 64: the fixed vector).
fn seq2seq_preset(name: &str) -> ExperimentConfig {
    let mut config = preset("lesson").expect("the lesson preset exists");
    config.task = TaskConfig::for_kind(crate::tasks::TaskKind::Translate);
    let layer = LayerConfig { d_ff: 128, ..LayerConfig::default() };
    if name == "rnn" {
        config.model.family = super::ModelFamily::Rnn;
        config.model.layers.clear();
        config.model.positional = PositionalEncoding::None;
    } else {
        config.model.family = super::ModelFamily::EncoderDecoder;
        config.model.encoder_layers = vec![LayerConfig { mask: super::MaskKind::Bidirectional, ..layer.clone() }];
        config.model.layers = vec![layer];
    }
    config.batch_size = 32;
    config.steps = 600;
    config.eval_interval = 100;
    config.fit_max_len_to_task();
    config
}
