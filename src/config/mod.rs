//! The one source of truth for an experiment: what task, what model, how to train it.
//!
//! `ExperimentConfig` nests a `ModelConfig`, which holds one `LayerConfig` per layer.
//! Everything is plain serde data: lessons, the GUI, the CLI and run folders all read
//! and write these structs as JSON, and the trainer rebuilds the model from them.

mod estimate;
mod init_source;
mod knobs;
mod layout;
mod presets;
mod validate;

pub use estimate::{EVAL_CHUNK_ROWS, MemoryEstimate, estimate_memory, parameter_count};
pub use init_source::{SHIPPED_MODELS, resolve_init_from};
pub use knobs::{Activation, AttentionKind, BackendChoice, MaskApplication, MaskKind, MaskReading, ModelFamily, NormPlacement, OptimizerKind, PaddingMask, PositionalEncoding, RnnAttention, RnnCell};
pub use layout::{keeps_all_weights, param_layout};
pub use presets::{PRESET_NAMES, preset, preset_keeping};
pub use validate::{ConfigProblem, TaskFacts, validate, validate_with_facts};

use serde::{Deserialize, Serialize};

use crate::tasks::TaskConfig;

/// A whole experiment: task + model + training knobs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ExperimentConfig {
    /// Which toy task generates the batches, and its size knobs.
    pub task: TaskConfig,
    /// The Transformer.
    pub model: ModelConfig,
    /// Which optimizer updates the weights.
    pub optimizer: OptimizerKind,
    /// Peak learning rate.
    pub lr: f64,
    /// Steps of linear learning-rate warm-up from 0 to `lr` (0 = none).
    pub warmup_steps: usize,
    /// Clip the global gradient L2 norm to this value (None = no clipping).
    pub clip_grad_norm: Option<f32>,
    /// Sequences per training step.
    pub batch_size: usize,
    /// Training steps of a run.
    pub steps: usize,
    /// Evaluate on the held-out set every this many steps (0 = only at the end).
    pub eval_interval: usize,
    /// Sequences in the fixed held-out evaluation set.
    pub eval_size: usize,
    /// Send an attention snapshot of the probe example every this many steps (0 = never).
    pub attention_interval: usize,
    /// Seed for weights, batches and dropout: the same seed gives the same run on CPU.
    pub seed: u64,
    /// Where the model runs.
    pub backend: BackendChoice,
    /// Refuse configurations whose estimated training memory exceeds this many MiB.
    pub memory_limit_mib: usize,
    /// Start from trained weights instead of random ones: a run folder, or a
    /// shipped model (`pretrained/english`, `pretrained/chinese`). None = random.
    pub init_from: Option<String>,
}

impl Default for ExperimentConfig {
    fn default() -> Self {
        preset("lesson").expect("the lesson preset exists")
    }
}

/// The Transformer: global knobs plus a list of layers the learner can edit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ModelConfig {
    /// Which kind of model: decoder-only Transformer, encoder–decoder Transformer,
    /// or a recurrent encoder–decoder.
    pub family: ModelFamily,
    /// The recurrent cell of the `rnn` family.
    pub rnn_cell: RnnCell,
    /// How the `rnn` family's decoder reads the source: only the encoder's last
    /// state (the fixed vector), or attention over every encoder state.
    pub rnn_attention: RnnAttention,
    /// The encoder stack of the `encoder_decoder` family (its self-attention sees
    /// every source token; `layers` is then the decoder stack).
    pub encoder_layers: Vec<LayerConfig>,
    /// Token vocabulary size. None = take it from the task (the usual case).
    pub vocab_size: Option<usize>,
    /// Longest sequence the model accepts (learned positions have one row per position).
    pub max_len: usize,
    /// Width of every token vector.
    pub d_model: usize,
    /// How the model learns where a token is.
    pub positional: PositionalEncoding,
    /// Probability of zeroing an activation while training (0 = off).
    pub dropout: f64,
    /// Multiplies every initial weight (1.0 = PyTorch's defaults).
    pub init_scale: f64,
    /// ε of every LayerNorm, added to the variance before the square root
    /// (1e-5: PyTorch's and GPT-2's default; BERT uses 1e-12).
    pub layer_norm_eps: f64,
    /// Rows of the token-type (segment) table added to every token vector, as
    /// BERT's sentence A / sentence B embedding (0 = none; tasks use type 0).
    pub token_types: usize,
    /// A LayerNorm right after the embeddings are summed (BERT).
    pub embedding_norm: bool,
    /// The output layer reuses the token embedding table, transposed (GPT-2, BERT):
    /// logits = x Eᵀ + b, so the model has one vector per token, not two.
    pub tied_embeddings: bool,
    /// BERT's prediction-head transform before the output layer: a d_model × d_model
    /// linear map, the last layer's activation, then a LayerNorm.
    pub head_transform: bool,
    /// The layer stack, applied in order.
    pub layers: Vec<LayerConfig>,
}

impl Default for ModelConfig {
    fn default() -> Self {
        preset("lesson").expect("the lesson preset exists").model
    }
}

/// One Transformer block: attention sublayer then feed-forward sublayer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LayerConfig {
    /// Number of attention heads; each gets d_k = d_model / heads dimensions.
    pub heads: usize,
    /// Whether the attention sublayer runs at all.
    pub attention: bool,
    /// Softmax attention, or a plain average over visible positions.
    pub attention_kind: AttentionKind,
    /// Divide scores by sqrt(d_k) before the softmax.
    pub scale: bool,
    /// Which key positions each query may see.
    pub mask: MaskKind,
    /// Width of the sliding window (only used by `MaskKind::SlidingWindow`).
    pub window: usize,
    /// Whether the feed-forward sublayer runs at all.
    pub ffn: bool,
    /// Hidden width of the feed-forward sublayer.
    pub d_ff: usize,
    /// Non-linearity inside the feed-forward sublayer.
    pub activation: Activation,
    /// Add each sublayer's input to its output.
    pub residual: bool,
    /// Where LayerNorm sits relative to each sublayer.
    pub norm: NormPlacement,
    /// How the attention code reads the boolean mask it is given (the builder
    /// always makes true = keep). `masked_is_true` is the classic inverted-mask bug.
    pub mask_reading: MaskReading,
    /// How blocked cells are kept out of the weights.
    pub mask_application: MaskApplication,
    /// Shift of the causal diagonal: 0 is right; -1 hides each position from
    /// itself; +1 lets each position see one token ahead (planted bugs).
    pub diagonal_offset: i32,
    /// Which axis the padding mask hides: keys (right), queries (wrong axis), or off.
    pub padding_mask: PaddingMask,
    /// Heads whose output is zeroed before the output projection (an ablation:
    /// their attention maps are still computed and shown).
    pub ablated_heads: Vec<usize>,
    /// In a decoder layer of the `encoder_decoder` family: the cross-attention
    /// sublayer, whose queries come from the decoder and keys and values from the
    /// encoder's output. Unused by the other families.
    pub cross_attention: bool,
}

impl Default for LayerConfig {
    fn default() -> Self {
        Self {
            heads: 4,
            attention: true,
            attention_kind: AttentionKind::Softmax,
            scale: true,
            mask: MaskKind::Causal,
            window: 4,
            ffn: true,
            d_ff: 256,
            activation: Activation::Gelu,
            residual: true,
            norm: NormPlacement::Post,
            mask_reading: MaskReading::KeepIsTrue,
            mask_application: MaskApplication::FillLargeNegative,
            diagonal_offset: 0,
            padding_mask: PaddingMask::Keys,
            ablated_heads: Vec::new(),
            cross_attention: true,
        }
    }
}

impl ExperimentConfig {
    /// Grow `model.max_len` to the task's sequence length (never shrink it): a longer
    /// task needs room for its positions. The one place this rule lives.
    pub fn fit_max_len_to_task(&mut self) {
        if let Ok(task) = self.task.build() {
            self.model.max_len = self.model.max_len.max(task.seq_len());
        }
        if let Ok(Some(held_out)) = self.task.build_held_out() {
            self.model.max_len = self.model.max_len.max(held_out.seq_len());
        }
    }

    /// Pretty JSON, the format of experiment files and run folders.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("config serialises")
    }

    /// The vocabulary size the model is built with, given the task's vocabulary size.
    /// The trained weights to start from (`init_from`), None for random ones
    /// (an empty string counts as none).
    pub fn init_source(&self) -> Option<&str> {
        self.init_from.as_deref().filter(|s| !s.is_empty())
    }

    pub fn model_vocab_size(&self, task_vocab_size: usize) -> usize {
        self.model.vocab_size.unwrap_or(task_vocab_size)
    }
}

impl ModelConfig {
    /// d_k of a layer; only meaningful when the config is valid.
    pub fn head_dim(&self, layer: &LayerConfig) -> usize {
        self.d_model / layer.heads.max(1)
    }

    /// Change the family the way the editor's family knob does: the knobs only the
    /// old family used go back to their defaults, and the new family gets what it
    /// needs (an encoder layer, a decoder layer, no positions for the RNN), so the
    /// result is valid whenever the task suits the family.
    pub fn switch_family(&mut self, family: ModelFamily) {
        if family == self.family {
            return;
        }
        let template = self.layers.first().cloned().unwrap_or_default();
        self.family = family;
        if family != ModelFamily::Rnn {
            self.rnn_cell = RnnCell::Gru;
            self.rnn_attention = RnnAttention::None;
            if self.layers.is_empty() {
                self.layers.push(LayerConfig { mask: MaskKind::Causal, ..template.clone() });
            }
            if self.positional == PositionalEncoding::None {
                self.positional = PositionalEncoding::Learned;
            }
        }
        if family != ModelFamily::EncoderDecoder {
            // Only an encoder–decoder's decoder layers have cross-attention to switch off.
            self.layers.iter_mut().for_each(|l| l.cross_attention = true);
        }
        match family {
            ModelFamily::Decoder => self.encoder_layers.clear(),
            ModelFamily::EncoderDecoder => {
                if self.encoder_layers.is_empty() {
                    self.encoder_layers.push(LayerConfig { mask: MaskKind::Bidirectional, ..template });
                }
            }
            ModelFamily::Rnn => {
                self.layers.clear();
                self.encoder_layers.clear();
                self.positional = PositionalEncoding::None;
            }
        }
    }

    /// Attention maps one sequence makes, over every sublayer of every family
    /// (self-, cross- and encoder attention heads, the RNN's one alignment).
    pub fn attention_maps(&self) -> usize {
        let cross = self.family == ModelFamily::EncoderDecoder;
        let decoder: usize = self.layers.iter().map(|l| l.heads * (usize::from(l.attention) + usize::from(cross && l.cross_attention))).sum();
        let encoder: usize = if cross { self.encoder_layers.iter().filter(|l| l.attention).map(|l| l.heads).sum() } else { 0 };
        let rnn = usize::from(self.family == ModelFamily::Rnn && self.rnn_attention != RnnAttention::None);
        decoder + encoder + rnn
    }

    /// Whether a final LayerNorm follows the stack (any pre-LN layer asks for one).
    pub fn has_final_norm(&self) -> bool {
        self.layers.iter().any(|l| l.norm == NormPlacement::Pre)
    }
}
