//! What crosses the thread boundary: plain data only (numbers, strings, `Vec<f32>`).
//! The window and the CLI read these; neither ever sees a tensor.

use std::path::PathBuf;

use serde::Serialize;

use crate::config::ExperimentConfig;
use crate::t;

/// Where a run is executing, and why, if not where it was asked to.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BackendInfo {
    /// What the config asked for ("cpu", "gpu", ...).
    pub requested: String,
    /// What is used, e.g. "cpu (ndarray)" or "gpu (wgpu)".
    pub used: String,
    /// The GPU adapter's name, when on a GPU.
    pub adapter: Option<String>,
    /// Why the run is not on the requested backend.
    pub fallback_reason: Option<String>,
    /// None when each step runs the hand-written fused CPU step; otherwise why it
    /// runs burn's composed autodiff instead (e.g. "backend gpu", "model.dropout > 0").
    pub composed_because: Option<String>,
}

impl StepMetrics {
    /// What a run folder keeps of this step.
    pub fn record(&self) -> crate::runs::StepRecord {
        crate::runs::StepRecord { step: self.step, loss: self.loss, accuracy: self.accuracy, lr: self.lr, grad_norm: self.grad_norm }
    }
}

impl EvalMetrics {
    /// What a run folder keeps of this evaluation.
    pub fn record(&self) -> crate::runs::EvalRecord {
        crate::runs::EvalRecord { step: self.step, loss: self.loss, accuracy: self.accuracy, sequence_accuracy: self.sequence_accuracy }
    }
}

/// One training step.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct StepMetrics {
    pub step: usize,
    pub loss: f32,
    /// Token accuracy on the training batch's scored positions.
    pub accuracy: f32,
    pub lr: f64,
    /// Global gradient L2 norm before clipping.
    pub grad_norm: f32,
    pub steps_per_s: f32,
    pub tokens_per_s: f32,
}

/// One pass over the fixed held-out set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EvalMetrics {
    pub step: usize,
    pub loss: f32,
    /// Token accuracy over scored positions.
    pub accuracy: f32,
    /// Share of sequences with every scored position right.
    pub sequence_accuracy: f32,
    /// Held-out loss with every mask made causal: what the model faces when it
    /// writes on its own (equals `loss` for a sound causal model; a model that
    /// peeked at the future during training does far worse here).
    pub generation_loss: f32,
    /// For a task with a source (seq2seq): the held-out sentences grouped by
    /// source length, shortest first (empty for other tasks).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub by_length: Vec<LengthBucket>,
}

/// Held-out sentences whose source has `shortest..=longest` words.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LengthBucket {
    pub shortest: usize,
    pub longest: usize,
    /// Held-out sentences in the bucket (0: the bucket's accuracies are NaN).
    pub sentences: usize,
    /// Share of the bucket's target tokens predicted right.
    pub accuracy: f32,
    /// Share of the bucket's sentences with every target token right: with
    /// teacher forcing this equals what greedy decoding gets right, since a
    /// sentence whose every next token is right from the true prefix is written
    /// exactly by greedy decoding, and one with a wrong token is not.
    pub sequence_accuracy: f32,
}

/// Up to five buckets of source lengths from `shortest` to `longest`, as equal in
/// width as whole words allow.
pub fn length_buckets(shortest: usize, longest: usize) -> Vec<(usize, usize)> {
    let span = longest.saturating_sub(shortest) + 1;
    let count = span.min(5);
    let edge = |i: usize| shortest + i * span / count;
    (0..count).map(|i| (edge(i), edge(i + 1) - 1)).collect()
}

#[cfg(test)]
mod length_tests {
    #[test]
    fn buckets_cover_every_length_once() {
        assert_eq!(super::length_buckets(3, 24), vec![(3, 6), (7, 10), (11, 15), (16, 19), (20, 24)]);
        assert_eq!(super::length_buckets(4, 4), vec![(4, 4)]);
        assert_eq!(super::length_buckets(3, 5), vec![(3, 3), (4, 4), (5, 5)]);
    }
}

/// Gradient health of one parameter group (e.g. `layers.0.attention.wq`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GroupGradient {
    pub group: String,
    /// Which layer it belongs to ("embedding", "layer 0", ..., "head").
    pub layer: String,
    pub grad_norm: f32,
    pub weight_norm: f32,
    /// ‖Δw‖ / ‖w‖ of the optimizer step (how fast the group is changing).
    pub update_ratio: f32,
}

/// Gradient norms per layer and per group at one step.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GradientReport {
    pub step: usize,
    /// (layer name, gradient L2 norm) in model order.
    pub layers: Vec<(String, f32)>,
    pub groups: Vec<GroupGradient>,
}

/// Attention weights of every layer and head on the probe sequence.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AttentionSnapshot {
    pub step: usize,
    /// Labels of the probe tokens (both axes of every map).
    pub tokens: Vec<String>,
    /// The model's prediction for the token after each position.
    pub predictions: Vec<String>,
    /// Per layer: None when the layer has no attention, else one `seq × seq`
    /// row-major matrix (rows = queries, columns = keys) per head.
    pub layers: Vec<Option<Vec<Vec<f32>>>>,
    /// Per layer `seq × seq` keep-mask the attention really applied
    /// (true = the query may see the key), planted bugs included.
    pub masks: Vec<Option<Vec<bool>>>,
    /// Per layer `seq × seq` keep-mask the config intends (causal ∧ window ∧ padding).
    pub intended_masks: Vec<Option<Vec<bool>>>,
    /// Which probe positions are padding.
    pub padding: Vec<bool>,
    /// Per layer (attention unit): its name, "layer 0", "encoder 0", "decoder 0 ·
    /// cross"; empty means "layer i" for each.
    pub names: Vec<crate::model::UnitName>,
    /// Per layer: the block of the probe its queries and keys come from, `[first
    /// row, end row, first column, end column]` (real tokens only), for the units
    /// of an encoder–decoder or an RNN; None (or missing) = the whole map.
    pub blocks: Vec<Option<[usize; 4]>>,
}

impl AttentionSnapshot {
    /// The name of unit `layer` as the grid labels it.
    pub fn name(&self, layer: usize) -> String {
        self.names.get(layer).copied().unwrap_or(crate::model::UnitName::Layer(layer)).label()
    }

    /// The rows and columns of unit `layer` worth drawing: its block, or everything.
    pub fn block(&self, layer: usize) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
        let seq = self.tokens.len();
        match self.blocks.get(layer).copied().flatten() {
            Some([r0, r1, c0, c1]) if r0 < r1 && c0 < c1 && r1 <= seq && c1 <= seq => (r0..r1, c0..c1),
            _ => (0..seq, 0..seq),
        }
    }
}

/// One head's computation on the probe, stage by stage (plain numbers).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct HeadTraceData {
    pub step: usize,
    /// The attention unit (a layer for the decoder family).
    pub layer: usize,
    /// The unit's name, "layer 1" or "decoder 0 · cross".
    pub name: crate::model::UnitName,
    /// The block of the probe the unit reads (`[first row, end row, first column,
    /// end column]`, real tokens only), for an encoder–decoder's units; None = all.
    pub block: Option<[usize; 4]>,
    pub head: usize,
    pub d_k: usize,
    pub tokens: Vec<String>,
    /// `seq × d_k` row-major.
    pub q: Vec<f32>,
    pub k: Vec<f32>,
    pub v: Vec<f32>,
    /// `seq × seq` row-major: QKᵀ, then ÷√d_k (equal when scaling is off).
    pub raw_scores: Vec<f32>,
    pub scaled_scores: Vec<f32>,
    /// `seq × seq` keep-mask the head applied.
    pub mask: Vec<bool>,
    /// `seq × seq` softmax output.
    pub weights: Vec<f32>,
    /// `seq × d_k` weights × V.
    pub output: Vec<f32>,
    pub scaled: bool,
}

/// Greedy text one decoder wrote, in labels, with its timings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WrittenText {
    pub tokens: Vec<String>,
    /// The tokens as text (characters as they are for a character model).
    pub text: String,
    /// Milliseconds of each new token (the first includes reading the prompt).
    pub ms_per_token: Vec<f64>,
    pub mean_ms: f64,
}

/// The same prompt written token by token without and with the KV cache.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GenerationReport {
    pub step: usize,
    pub prompt: Vec<String>,
    pub prompt_text: String,
    pub uncached: WrittenText,
    /// None when the model cannot use a cache; `no_cache_reason` says why.
    pub cached: Option<WrittenText>,
    pub no_cache_reason: Option<String>,
    /// Positions where the two decoders chose different tokens (0 = identical).
    pub mismatches: Option<usize>,
    /// Bytes the cache held at the end (K and V of every attention layer, f32).
    pub cache_bytes: usize,
}

/// Which quantity went non-finite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NonFiniteKind {
    Loss,
    Gradient,
}

impl NonFiniteKind {
    /// "the loss became NaN or infinite", in plain words.
    pub fn describe(self) -> String {
        match self {
            NonFiniteKind::Loss => t!("msg-non-finite-loss"),
            NonFiniteKind::Gradient => t!("msg-non-finite-gradient"),
        }
    }
}

/// Everything the trainer reports.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum TrainEvent {
    /// A session was built (fresh, reset, or loaded); the run has not started yet.
    Ready {
        /// The task the model is trained on (a check judges only its own task's run).
        task: crate::tasks::TaskKind,
        parameters: usize,
        backend: BackendInfo,
        seq_len: usize,
        vocab: Vec<String>,
    },
    Started { step: usize },
    Step(StepMetrics),
    Eval(EvalMetrics),
    Gradients(GradientReport),
    Attention(AttentionSnapshot),
    /// The loss or a gradient became NaN/inf: the step was not applied and the run
    /// is paused. `group` names the first parameter group whose gradient went bad.
    NonFinite {
        step: usize,
        kind: NonFiniteKind,
        group: Option<String>,
        hint: String,
    },
    Paused { step: usize },
    Resumed { step: usize },
    Stopped { step: usize },
    /// A new config took effect. `kept_weights` says whether every parameter was
    /// carried over; `reset_groups` lists those that start fresh.
    ConfigApplied {
        /// Where the session now trains (the step path can change with the config).
        backend: BackendInfo,
        /// The task the model now trains on (it may have changed with the config).
        task: crate::tasks::TaskKind,
        kept_weights: bool,
        reset_params: Vec<String>,
        message: String,
    },
    /// Something the learner should know that is not a problem (shown as a note).
    Note { message: String },
    /// The typed probe was refused; the message says why.
    ProbeRejected { message: String },
    Saved { dir: PathBuf },
    /// The metrics were written as CSV.
    Exported { path: PathBuf },
    /// A leak probe's result.
    Probed(crate::probe::LeakReport),
    /// One head's stage-by-stage computation on the probe.
    Trace(HeadTraceData),
    /// Text written from a prompt, without and with the KV cache.
    Generated(GenerationReport),
    /// A generation request was refused; the message says why.
    GenerationRejected { message: String },
    /// How much gradient of the last output reaches each source word, or why it
    /// could not be measured.
    GradientReach { step: usize, result: Result<super::GradientReach, String> },
    Finished {
        step: usize,
        loss: f32,
        accuracy: f32,
        eval_loss: f32,
        eval_accuracy: f32,
        eval_sequence_accuracy: f32,
        elapsed_secs: f32,
    },
    Error { message: String },
}

/// What the window or the CLI asks the trainer to do.
#[derive(Clone, Debug)]
pub enum TrainCommand {
    /// Train until `steps` (from where the run is).
    Start,
    Pause,
    Resume,
    /// Train exactly one step, then pause.
    StepOnce,
    /// Stop training; the model is kept.
    Stop,
    /// Fresh weights from the current config.
    Reset,
    /// Switch to a new config, keeping weights whose shapes still match.
    ApplyConfig(Box<ExperimentConfig>),
    /// Use this typed sequence as the probe for attention pictures.
    SetProbe(String),
    /// Save the run folder.
    Save(PathBuf),
    /// Load a run folder (config, weights, metrics) in place of the current run.
    Load(PathBuf),
    /// Write every step's and evaluation's metrics as CSV.
    ExportMetrics(PathBuf),
    /// Run the causality and padding probes on the current model.
    Probe,
    /// Trace one head's computation on the probe.
    Trace { layer: usize, head: usize },
    /// Measure how much gradient reaches each source word (seq2seq tasks).
    GradientReach,
    /// Write `tokens` tokens greedily after the typed `prompt`, without and with
    /// the KV cache, and report both.
    Generate { prompt: String, tokens: usize },
    /// End the worker thread.
    Shutdown,
}
