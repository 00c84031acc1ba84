//! Multi-head self-attention written out by hand ("Attention Is All You Need", 3.2),
//! so every head's weights and every intermediate can be shown to the learner.
//!
//! For each head: Q = xW_q, K = xW_k, V = xW_v; scores = QKᵀ (÷ √d_k when scaling
//! is on); blocked cells are filled with a large negative number; softmax over keys;
//! the weighted sum of V; heads are concatenated and projected by W_o.

use burn::module::{Module, Param};
use burn::nn::Linear;
use burn::tensor::activation::softmax;
use burn::tensor::{Bool, Tensor, TensorData};

use super::mask::KeepMask;
use super::positional;
use super::rows::linear_rows;
use crate::config::{AttentionKind, MaskApplication};

/// What blocked cells are filled with under `MaskApplication::FillLargeNegative`.
/// Finite, so a row with every key blocked stays a number; such rows are then
/// zeroed (see `mask.rs`). When every row keeps a key, the fill is -inf instead:
/// for finite scores the weights and gradients are bit-identical (tested) and exp
/// skips libm's slow underflow path.
pub const BLOCKED_SCORE: f32 = -1.0e9;

/// A mask prepared once per forward pass and shared by the layers that use it.
pub struct MaskTensors {
    /// The keep-mask the attention really applies (planted bugs included).
    pub host: KeepMask,
    /// `[mask_batch, 1, seq, seq]`, true where the key is hidden from the query.
    pub blocked: Tensor<4, Bool>,
    /// `[mask_batch, 1, seq, seq]` 1/0 keep-mask.
    pub keep: Tensor<4>,
    /// `[mask_batch, 1, seq, seq]` additive bias: -inf on blocked cells of rows that
    /// keep at least one key, 0 elsewhere (so no row is all -inf).
    pub neg_inf_bias: Tensor<4>,
}

impl MaskTensors {
    pub fn new(host: KeepMask, device: &burn::tensor::Device) -> Self {
        let shape = [host.batch, 1, host.seq, host.seq];
        let blocked = Tensor::<4, Bool>::from_data(TensorData::new(host.blocked(), shape), device);
        let keep = Tensor::<4>::from_data(TensorData::new(host.as_f32(), shape), device);
        let mut bias = Vec::with_capacity(host.keep.len());
        for row in host.keep.chunks(host.seq) {
            let any = row.iter().any(|k| *k);
            bias.extend(row.iter().map(|&k| if k || !any { 0.0 } else { f32::NEG_INFINITY }));
        }
        let neg_inf_bias = Tensor::<4>::from_data(TensorData::new(bias, shape), device);
        Self {
            host,
            blocked,
            keep,
            neg_inf_bias,
        }
    }
}

/// One head's computation, stage by stage, for the step-through view.
/// Every tensor is `[batch, seq, d_k]` or `[batch, seq, seq]`.
#[derive(Clone, Debug)]
pub struct HeadTrace {
    pub q: Tensor<3>,
    pub k: Tensor<3>,
    pub v: Tensor<3>,
    /// QKᵀ before scaling.
    pub raw_scores: Tensor<3>,
    /// After ÷√d_k (equal to `raw_scores` when scaling is off).
    pub scaled_scores: Tensor<3>,
    /// The keep-mask the head used.
    pub mask: KeepMask,
    /// Softmax output (the attention weights).
    pub weights: Tensor<3>,
    /// weights × V.
    pub output: Tensor<3>,
}

/// Position information a self-attention layer applies itself (rotary to queries
/// and keys, or ALiBi's bias on the scores); `None` when positions are added to
/// the token vectors instead, or not at all, and in cross-attention.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InAttention {
    #[default]
    None,
    Rotary,
    Alibi,
}

impl InAttention {
    pub fn of(positional: crate::config::PositionalEncoding) -> Self {
        match positional {
            crate::config::PositionalEncoding::Rotary => InAttention::Rotary,
            crate::config::PositionalEncoding::Alibi => InAttention::Alibi,
            _ => InAttention::None,
        }
    }
}

/// Each head's vectors `t` (`[batch, heads, seq, d_k]`, at positions `first..first +
/// seq`) turned pair by pair by their position's rotary angles.
pub fn rotary(t: Tensor<4>, first: usize) -> Tensor<4> {
    let [batch, heads, seq, d_k] = t.dims();
    let half = d_k / 2;
    let (cos, sin) = positional::rotary_tables(first..first + seq, d_k);
    let device = t.device();
    let cos = Tensor::<5>::from_data(TensorData::new(cos, [1, 1, seq, half, 1]), &device); // [1, 1, seq, d_k/2, 1]
    let sin = Tensor::<5>::from_data(TensorData::new(sin, [1, 1, seq, half, 1]), &device); // [1, 1, seq, d_k/2, 1]
    let pairs = t.reshape([batch, heads, seq, half, 2]); // [batch, heads, seq, d_k/2, 2]
    let even = pairs.clone().slice_dim(4, 0..1); // [batch, heads, seq, d_k/2, 1]
    let odd = pairs.slice_dim(4, 1..2); // [batch, heads, seq, d_k/2, 1]
    let turned_even = even.clone() * cos.clone() - odd.clone() * sin.clone(); // [batch, heads, seq, d_k/2, 1]
    let turned_odd = even * sin + odd * cos; // [batch, heads, seq, d_k/2, 1]
    Tensor::cat(vec![turned_even, turned_odd], 4).reshape([batch, heads, seq, d_k]) // [batch, heads, seq, d_k]
}

/// ALiBi's bias `[1, heads, queries, keys]` for queries at `first_query..` and keys at `0..keys`.
pub fn alibi(heads: usize, first_query: usize, queries: usize, keys: usize, device: &burn::tensor::Device) -> Tensor<4> {
    let bias = positional::alibi_bias(heads, first_query, queries, keys);
    Tensor::<4>::from_data(TensorData::new(bias, [1, heads, queries, keys]), device)
}

#[derive(Module, Debug)]
pub struct SelfAttention {
    pub wq: Linear,
    pub wk: Linear,
    pub wv: Linear,
    pub wo: Linear,
    #[module(skip)]
    pub heads: usize,
    #[module(skip)]
    pub kind: AttentionKind,
    #[module(skip)]
    pub scale: bool,
    #[module(skip)]
    pub application: MaskApplication,
    /// Heads whose output is zeroed (their weights are still computed and shown).
    #[module(skip)]
    pub ablated: Vec<usize>,
    /// Rotary or ALiBi positions, applied here (self-attention only).
    #[module(skip)]
    pub positions: InAttention,
    /// `[heads, window]`: the convolution kind's one number per head and offset
    /// (None for the other kinds).
    pub kernel: Option<Param<Tensor<2>>>,
}

pub struct AttentionOutput {
    /// `[batch, seq, d_model]`
    pub output: Tensor<3>,
    /// `[batch, heads, seq, seq]`
    pub weights: Tensor<4>,
    pub trace: Option<HeadTrace>,
}

impl SelfAttention {
    /// context: `[batch, heads, seq, d_k]` with the ablated heads' rows zeroed.
    pub(super) fn silence_ablated(&self, context: Tensor<4>) -> Tensor<4> {
        if self.ablated.is_empty() {
            return context;
        }
        let heads = self.heads;
        let keep: Vec<f32> = (0..heads).map(|h| if self.ablated.contains(&h) { 0.0 } else { 1.0 }).collect();
        let keep = Tensor::<4>::from_data(TensorData::new(keep, [1, heads, 1, 1]), &context.device()); // [1, heads, 1, 1]
        context * keep // [batch, heads, seq, d_k]: ablated heads give 0
    }

    /// Self-attention: queries, keys and values all come from x `[batch, seq, d_model]`;
    /// `trace_head` asks for one head's intermediates.
    pub fn forward(&self, x: Tensor<3>, mask: &MaskTensors, trace_head: Option<usize>) -> AttentionOutput {
        self.forward_from(x.clone(), x, mask, trace_head)
    }

    /// Queries from `x` and keys and values from `memory` (both `[batch, seq, d_model]`):
    /// cross-attention when `memory` is the encoder's output, self-attention when
    /// it is `x` itself.
    pub fn forward_from(&self, x: Tensor<3>, memory: Tensor<3>, mask: &MaskTensors, trace_head: Option<usize>) -> AttentionOutput {
        let [batch, seq, d_model] = x.dims();
        let heads = self.heads;
        let d_k = d_model / heads;
        let split = |t: Tensor<3>| t.reshape([batch, seq, heads, d_k]).swap_dims(1, 2); // [batch, heads, seq, d_k]

        let v = split(linear_rows(&self.wv, memory.clone())); // [batch, heads, seq, d_k]
        // Intermediates are kept only when a trace asks for them, so the common
        // step lets each op reuse its input's buffer.
        let tracing = trace_head.is_some_and(|h| h < heads);
        let (q, k, raw, scaled, weights) = match self.kind {
            AttentionKind::Softmax => {
                let q = split(linear_rows(&self.wq, x)); // [batch, heads, seq, d_k]
                let k = split(linear_rows(&self.wk, memory)); // [batch, heads, seq, d_k]
                let (q, k) = match self.positions {
                    InAttention::Rotary => (rotary(q, 0), rotary(k, 0)), // [batch, heads, seq, d_k] each
                    _ => (q, k),
                };
                let kept = |t: &Tensor<4>| tracing.then(|| t.clone());
                let (q_kept, k_kept) = (kept(&q), kept(&k)); // [batch, heads, seq, d_k] when tracing
                let raw = q.matmul(k.swap_dims(2, 3)); // [batch, heads, seq, seq]
                let raw_kept = kept(&raw); // [batch, heads, seq, seq] when tracing
                let scaled = if self.scale {
                    raw.div_scalar((d_k as f32).sqrt()) // [batch, heads, seq, seq]
                } else {
                    raw
                };
                let scaled = match self.positions {
                    InAttention::Alibi => scaled + alibi(heads, 0, seq, seq, &v.device()), // [batch, heads, seq, seq]
                    _ => scaled,
                };
                let scaled_kept = kept(&scaled); // [batch, heads, seq, seq] when tracing
                let empty_rows = mask.host.has_empty_row();
                let weights = match self.application {
                    MaskApplication::FillLargeNegative => {
                        // With a visible key in every row and finite scores, exp(-1e9 - max)
                        // and exp(-inf) are both exactly 0: see `BLOCKED_SCORE`.
                        let fill = if empty_rows { BLOCKED_SCORE } else { f32::NEG_INFINITY };
                        let filled = scaled.mask_fill(mask.blocked.clone(), fill); // [batch, heads, seq, seq]
                        let weights = softmax(filled, 3); // [batch, heads, seq, seq]
                        if empty_rows { weights * mask.keep.clone() } else { weights } // empty rows -> 0
                    }
                    MaskApplication::AddNegInfinity => {
                        let biased = scaled + mask.neg_inf_bias.clone(); // [batch, heads, seq, seq]
                        let weights = softmax(biased, 3); // [batch, heads, seq, seq]
                        if empty_rows { weights * mask.keep.clone() } else { weights } // empty rows -> 0
                    }
                    // Masking after the softmax: hidden keys get 0, but rows no longer sum to 1.
                    MaskApplication::MultiplyAfterSoftmax => softmax(scaled, 3) * mask.keep.clone(),
                };
                (q_kept, k_kept, raw_kept, scaled_kept, weights)
            }
            AttentionKind::Convolution => {
                let kernel = self.kernel.as_ref().expect("a convolution layer has a kernel").val(); // [heads, window]
                let taps = kernel.dims()[1];
                let weights = softmax(kernel, 1); // [heads, window]
                // offsets[o, i·seq + j] = 1 where key j is o places before query i.
                let mut offsets = vec![0.0f32; taps * seq * seq];
                for o in 0..taps {
                    for i in o..seq {
                        offsets[o * seq * seq + i * seq + i - o] = 1.0;
                    }
                }
                let offsets = Tensor::<2>::from_data(TensorData::new(offsets, [taps, seq * seq]), &v.device()); // [window, seq·seq]
                let banded = weights.matmul(offsets).reshape([1, heads, seq, seq]); // [1, heads, seq, seq]
                let weights = (banded * mask.keep.clone()).expand([batch, heads, seq, seq]); // [batch, heads, seq, seq]
                (None, None, None, None, weights)
            }
            AttentionKind::UniformAverage => {
                let host = &mask.host;
                let shape = [host.batch, 1, seq, seq];
                let uniform = Tensor::<4>::from_data(TensorData::new(host.uniform_weights(), shape), &v.device());
                let weights = uniform.expand([batch, heads, seq, seq]); // [batch, heads, seq, seq]
                (None, None, None, None, weights)
            }
        };
        let context = weights.clone().matmul(v.clone()); // [batch, heads, seq, d_k]
        let context = self.silence_ablated(context); // [batch, heads, seq, d_k]
        let trace = trace_head.filter(|_| tracing).map(|h| {
            let head = |t: Tensor<4>| t.slice_dim(1, h..h + 1).squeeze_dim::<3>(1); // [batch, seq, *]
            let zeros = || Tensor::<3>::zeros([batch, seq, seq], &v.device());
            HeadTrace {
                q: q.clone().map(head).unwrap_or_else(|| Tensor::zeros([batch, seq, d_k], &v.device())),
                k: k.clone().map(head).unwrap_or_else(|| Tensor::zeros([batch, seq, d_k], &v.device())),
                v: head(v.clone()),
                raw_scores: raw.clone().map(head).unwrap_or_else(zeros),
                scaled_scores: scaled.clone().map(head).unwrap_or_else(zeros),
                mask: mask.host.clone(),
                weights: head(weights.clone()),
                output: head(context.clone()),
            }
        });
        let merged = context.swap_dims(1, 2).reshape([batch, seq, d_model]); // [batch, seq, d_model]
        AttentionOutput {
            output: linear_rows(&self.wo, merged), // [batch, seq, d_model]
            weights,
            trace,
        }
    }
}
