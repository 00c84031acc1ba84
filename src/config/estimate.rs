//! Parameter count and a training-memory estimate, computed from the config alone
//! (no model is built), so the editor can show them live and validation can refuse
//! a run that would not fit before it starts.

use super::{ExperimentConfig, ModelConfig};

/// Number of trainable parameters of the model a config builds: the sum over the
/// one description of its weights, `param_layout` (a test checks both against the
/// built model, and `Module::num_params`).
pub fn parameter_count(model: &ModelConfig, vocab: usize) -> usize {
    super::param_layout(model, vocab).iter().map(|(_, shape)| shape.iter().product::<usize>()).sum()
}

/// Rows of the held-out set pushed through the model at once by an evaluation.
pub const EVAL_CHUNK_ROWS: usize = 256;

/// Rough bytes needed to train one step (f32 everywhere).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MemoryEstimate {
    pub parameters: usize,
    /// Weights, gradients and two Adam moments.
    pub parameter_bytes: usize,
    /// Activations kept for the backward pass, attention matrices included.
    pub activation_bytes: usize,
    /// The part of `activation_bytes` that grows with seq²: the attention matrices.
    pub attention_bytes: usize,
    /// One chunk of the held-out set (tokens, targets, weights, padding) and its
    /// forward pass (no gradients).
    pub eval_bytes: usize,
}

impl MemoryEstimate {
    pub fn total_bytes(&self) -> usize {
        self.parameter_bytes + self.activation_bytes + self.eval_bytes
    }

    pub fn total_mib(&self) -> f64 {
        self.total_bytes() as f64 / (1024.0 * 1024.0)
    }
}

/// Estimate for a batch of `seq`-long sequences.
pub fn estimate_memory(config: &ExperimentConfig, vocab: usize, seq: usize) -> MemoryEstimate {
    const F32: usize = 4;
    let model = &config.model;
    let (b, t, d) = (config.batch_size, seq, model.d_model);
    let parameters = parameter_count(model, vocab);
    let mut activations = b * t * d * 2 + b * t * vocab * 3; // embeddings, logits + softmax + grad
    let mut attention = 0;
    let cross = model.family == super::ModelFamily::EncoderDecoder;
    let encoder: &[super::LayerConfig] = if cross { &model.encoder_layers } else { &[] };
    for (layer, decoder) in model.layers.iter().map(|l| (l, true)).chain(encoder.iter().map(|l| (l, false))) {
        // Self-attention, and cross-attention in an encoder–decoder's decoder layers.
        let sublayers = usize::from(layer.attention) + usize::from(cross && decoder && layer.cross_attention);
        for _ in 0..sublayers {
            // scores, scaled, filled, weights (and their gradients) per head
            attention += 4 * b * layer.heads * t * t * 2;
            activations += 8 * b * t * d;
        }
        if layer.ffn {
            activations += 2 * b * t * layer.d_ff + 3 * b * t * d;
        }
    }
    if model.family == super::ModelFamily::Rnn {
        // Every step's gate activations and states, kept for the backward pass;
        // the alignment is one [target × source] map per sequence.
        let cell = if model.rnn_cell == super::RnnCell::Lstm { 14 } else { 12 };
        activations += cell * b * t * d;
        if model.rnn_attention != super::RnnAttention::None {
            attention += 3 * b * t * t;
            if model.rnn_attention == super::RnnAttention::Additive {
                attention += 2 * b * t * t * d / 4;
            }
        }
    }
    // The held-out set, drawn one chunk at a time: two i64 ids, one f32 weight and
    // one flag per position of the chunk, and the chunk through the model: scores
    // and weights per head, and the layers' outputs, nothing kept for a backward pass.
    let eval_rows = config.eval_size.min(EVAL_CHUNK_ROWS);
    let eval_heads = model.attention_maps();
    let eval_forward = eval_rows * (2 * eval_heads * t * t + 4 * t * d.max(1) + t * vocab) * F32;
    MemoryEstimate {
        parameters,
        parameter_bytes: parameters * 4 * F32,
        activation_bytes: (activations + attention) * F32,
        attention_bytes: attention * F32,
        eval_bytes: eval_rows * t * 21 + eval_forward,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::preset;

    #[test]
    fn lesson_preset_count_matches_the_torch_reference_layout() {
        // torch_reference.py reports 104,273 parameters for d64 h4 ff256 L2 with 33
        // learned positions; ours has max_len 64 rows of positions instead of 33.
        let config = preset("lesson").unwrap();
        let expected = 104_273 + (64 - 33) * 64;
        assert_eq!(parameter_count(&config.model, 17), expected);
    }

    #[test]
    fn attention_memory_grows_with_the_square_of_length() {
        let config = preset("lesson").unwrap();
        let short = estimate_memory(&config, 17, 32).attention_bytes;
        let long = estimate_memory(&config, 17, 64).attention_bytes;
        assert_eq!(long, 4 * short);
    }

    #[test]
    fn the_held_out_set_costs_one_chunk_however_large_it_is() {
        let mut config = preset("lesson").unwrap();
        config.eval_size = EVAL_CHUNK_ROWS;
        let one_chunk = estimate_memory(&config, 40, 32).eval_bytes;
        config.eval_size = 100 * EVAL_CHUNK_ROWS;
        assert_eq!(estimate_memory(&config, 40, 32).eval_bytes, one_chunk, "drawn a chunk at a time");
        config.eval_size = 10;
        assert!(estimate_memory(&config, 40, 32).eval_bytes < one_chunk);
    }
}
