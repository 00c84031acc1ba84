//! The live model: a decoder-style Transformer built from `ModelConfig`, with every
//! knob of the lessons (positions, heads, masks, scaling, FFN, residual, LayerNorm).
//!
//! tokens → token embedding (+ positions) → layers → (final LN) → linear head → logits.
//! Attention is written by hand (`attention.rs`) so the forward pass can hand back
//! each layer's attention weights and one head's intermediates on request.

mod attention;
mod block;
mod decode;
mod dropout;
mod init;
pub mod mask;
pub mod positional;
pub mod readback;
pub mod rows;
mod transfer;

pub use attention::{BLOCKED_SCORE, HeadTrace, SelfAttention};
pub use decode::KvCache;
pub use dropout::Dropout;
pub use transfer::{ParamShape, TransferReport, param_shapes, transfer_matching};

use std::collections::HashMap;

use burn::module::{Module, Param};
use burn::nn::{LayerNorm, Linear};
use burn::tensor::{Device, Int, Tensor, TensorData};

use attention::MaskTensors;
use block::{Block, FeedForward};
use init::Initializer;
use mask::KeepMask;

use crate::config::{LayerConfig, MaskKind, MaskReading, ModelConfig, NormPlacement, PaddingMask, PositionalEncoding};
use crate::tasks::Rng;

#[derive(Module, Debug)]
pub struct Transformer {
    /// `[vocab, d_model]`
    pub tok_emb: Param<Tensor<2>>,
    /// `[max_len, d_model]`, learned positions only.
    pub pos_emb: Option<Param<Tensor<2>>>,
    pub layers: Vec<Block>,
    pub final_norm: Option<LayerNorm>,
    pub head: Linear,
    #[module(skip)]
    pub config: ModelConfig,
}

/// What a forward pass should hand back besides the logits.
#[derive(Clone, Copy, Debug, Default)]
pub struct Capture {
    /// Every layer's attention weights.
    pub attention: bool,
    /// One (layer, head)'s intermediates.
    pub trace: Option<(usize, usize)>,
    /// Every layer's output (for the causality probe).
    pub hidden: bool,
}

pub struct ForwardOutput {
    /// `[batch, seq, vocab]`
    pub logits: Tensor<3>,
    /// Per layer `[batch, heads, seq, seq]`; None for layers without attention or
    /// when not captured.
    pub attention: Vec<Option<Tensor<4>>>,
    pub trace: Option<HeadTrace>,
    /// Per layer `[batch, seq, d_model]` outputs, when captured.
    pub hidden: Vec<Tensor<3>>,
}

impl Transformer {
    /// Build a fresh model; the same `(config, vocab, seed)` gives the same weights.
    pub fn new(config: &ModelConfig, vocab: usize, seed: u64, device: &Device) -> Self {
        let mut rng = Rng::stream(seed, 1);
        let mut init = Initializer {
            rng: &mut rng,
            scale: config.init_scale,
            device,
        };
        let d = config.d_model;
        let tok_emb = init.embedding(vocab, d);
        let pos_emb = (config.positional == PositionalEncoding::Learned)
            .then(|| init.embedding(config.max_len, d));
        let layers = config
            .layers
            .iter()
            .map(|layer| build_block(layer, d, &mut init))
            .collect();
        let final_norm = config.has_final_norm().then(|| init.layer_norm(d));
        let head = init.linear(d, vocab);
        Self {
            tok_emb,
            pos_emb,
            layers,
            final_norm,
            head,
            config: config.clone(),
        }
    }

    /// tokens: `[batch, seq]`; `padding` is the `[batch * seq]` padding flags of the
    /// batch (None = no padding anywhere).
    pub fn forward(
        &self,
        tokens: Tensor<2, Int>,
        padding: Option<&[bool]>,
        capture: Capture,
        dropout: &mut Dropout,
    ) -> ForwardOutput {
        let [batch, seq] = tokens.dims();
        let device = tokens.device();

        let mut x = self.embed(tokens, 0); // [batch, seq, d_model]
        x = dropout.apply(x);

        let padding = padding.filter(|p| p.iter().any(|v| *v)).map(|p| (p, batch));
        let mut masks: HashMap<MaskKey, MaskTensors> = HashMap::new();
        let mut attention = Vec::with_capacity(self.layers.len());
        let mut trace = None;
        let mut hidden = Vec::new();
        for (index, (block, layer)) in self.layers.iter().zip(&self.config.layers).enumerate() {
            let key = (layer.mask, layer.window, layer.diagonal_offset, layer.padding_mask, layer.mask_reading);
            let mask = masks
                .entry(key)
                .or_insert_with(|| MaskTensors::new(KeepMask::applied(layer, seq, padding), &device));
            let trace_head = capture.trace.filter(|(l, _)| *l == index).map(|(_, h)| h);
            let (out, extras) = block.forward(x, mask, trace_head, dropout);
            if capture.hidden {
                hidden.push(out.clone());
            }
            x = out;
            attention.push(extras.weights.filter(|_| capture.attention));
            if extras.trace.is_some() {
                trace = extras.trace;
            }
        }
        if let Some(norm) = &self.final_norm {
            x = norm.forward(x); // [batch, seq, d_model]
        }
        ForwardOutput {
            logits: rows::linear_rows(&self.head, x), // [batch, seq, vocab]
            attention,
            trace,
            hidden,
        }
    }
}

impl Transformer {
    /// Token embeddings plus the positions `start..start + seq`:
    /// tokens `[batch, seq]` -> `[batch, seq, d_model]`.
    fn embed(&self, tokens: Tensor<2, Int>, start: usize) -> Tensor<3> {
        let [_, seq] = tokens.dims();
        let device = tokens.device();
        let d = self.config.d_model;
        let x = burn::tensor::module::embedding(self.tok_emb.val(), tokens); // [batch, seq, d_model]
        match self.config.positional {
            PositionalEncoding::Learned => {
                let pos = self.pos_emb.as_ref().expect("learned positions").val();
                x + pos.slice_dim(0, start..start + seq).unsqueeze_dim::<3>(0) // [batch, seq, d_model]
            }
            PositionalEncoding::Sinusoidal => {
                let table = positional::sinusoidal_table(start + seq, d)[start * d..].to_vec();
                let pos = Tensor::<2>::from_data(TensorData::new(table, [seq, d]), &device); // [seq, d_model]
                x + pos.unsqueeze_dim::<3>(0) // [batch, seq, d_model]
            }
            PositionalEncoding::None => x,
        }
    }
}

/// Layers with the same mask knobs share one prepared mask.
type MaskKey = (MaskKind, usize, i32, PaddingMask, MaskReading);

fn build_block(layer: &LayerConfig, d: usize, init: &mut Initializer) -> Block {
    let wants_norm = layer.norm != NormPlacement::None;
    let attention = layer.attention.then(|| SelfAttention {
        wq: init.linear(d, d),
        wk: init.linear(d, d),
        wv: init.linear(d, d),
        wo: init.linear(d, d),
        heads: layer.heads,
        kind: layer.attention_kind,
        scale: layer.scale,
        application: layer.mask_application,
        ablated: layer.ablated_heads.clone(),
    });
    let attention_norm = (layer.attention && wants_norm).then(|| init.layer_norm(d));
    let ffn = layer.ffn.then(|| FeedForward {
        up: init.linear(d, layer.d_ff),
        down: init.linear(layer.d_ff, d),
        activation: layer.activation,
    });
    let ffn_norm = (layer.ffn && wants_norm).then(|| init.layer_norm(d));
    Block {
        attention,
        attention_norm,
        ffn,
        ffn_norm,
        residual: layer.residual,
        norm: layer.norm,
    }
}
