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
mod recurrent;
pub mod rows;
mod transfer;
mod units;

#[cfg(test)]
mod families_tests;

pub use attention::{BLOCKED_SCORE, HeadTrace, InAttention, SelfAttention};
pub use block::Block;
pub use decode::KvCache;
pub use dropout::Dropout;
pub use transfer::{ParamShape, TransferReport, param_shapes, transfer_matching};
pub use units::{AttentionUnit, UnitName, attention_units};

use std::collections::HashMap;

use burn::module::{Module, Param};
use burn::nn::{LayerNorm, Linear};
use burn::tensor::{Device, Int, Tensor, TensorData};

use attention::MaskTensors;
use block::{CrossInput, FeedForward};
use init::Initializer;
use mask::{KeepMask, Role};
pub use recurrent::{Cell, Recurrent};

use crate::config::{LayerConfig, MaskKind, MaskReading, ModelConfig, ModelFamily, NormPlacement, PaddingMask, PositionalEncoding};
use crate::tasks::Rng;

#[derive(Module, Debug)]
pub struct Transformer {
    /// `[vocab, d_model]`
    pub tok_emb: Param<Tensor<2>>,
    /// `[max_len, d_model]`, learned positions only.
    pub pos_emb: Option<Param<Tensor<2>>>,
    /// `[token_types, d_model]`, the token-type (segment) table; every task token is type 0.
    pub type_emb: Option<Param<Tensor<2>>>,
    /// LayerNorm over the summed embeddings (BERT).
    pub emb_norm: Option<LayerNorm>,
    pub layers: Vec<Block>,
    pub final_norm: Option<LayerNorm>,
    /// The encoder stack (encoder–decoder family only).
    pub encoder: Vec<Block>,
    /// LayerNorm after the encoder stack (when an encoder layer is pre-LN).
    pub encoder_norm: Option<LayerNorm>,
    /// The recurrent encoder and decoder (rnn family only).
    pub rnn: Option<Recurrent>,
    /// BERT's prediction-head transform (dense, activation, LayerNorm).
    pub head_transform: Option<HeadTransform>,
    /// The output layer `[d_model, vocab]`, unless it is tied to `tok_emb`.
    pub head: Option<Linear>,
    /// `[vocab]`, the output bias of a head tied to `tok_emb`.
    pub head_bias: Option<Param<Tensor<1>>>,
    #[module(skip)]
    pub config: ModelConfig,
    /// Where the target starts in every sequence (the task's source length S; the
    /// separator sits at S). Used by the seq2seq families; 0 for a decoder.
    #[module(skip)]
    pub source_len: usize,
}

/// What a forward pass should hand back besides the logits.
#[derive(Clone, Copy, Debug, Default)]
pub struct Capture {
    /// Every attention unit's weights (see `attention_units`).
    pub attention: bool,
    /// One (unit, head)'s intermediates; a unit is a layer for the decoder family.
    pub trace: Option<(usize, usize)>,
    /// Every layer's output (for the causality probe).
    pub hidden: bool,
}

pub struct ForwardOutput {
    /// `[batch, seq, vocab]`
    pub logits: Tensor<3>,
    /// Per attention unit (`attention_units`) `[batch, heads, seq, seq]`; None for
    /// units without attention or when not captured.
    pub attention: Vec<Option<Tensor<4>>>,
    pub trace: Option<HeadTrace>,
    /// Per layer `[batch, seq, d_model]` outputs, when captured.
    pub hidden: Vec<Tensor<3>>,
}

impl Transformer {
    /// Build a fresh model; the same `(config, vocab, seed)` gives the same weights.
    pub fn new(config: &ModelConfig, vocab: usize, seed: u64, device: &Device) -> Self {
        Self::build(config, vocab, seed, false, device)
    }

    /// The same model with every weight zero, built without drawing a number: a
    /// frame for weights read from a file (BERT-base draws 110 M numbers otherwise).
    pub fn zeroed(config: &ModelConfig, vocab: usize, device: &Device) -> Self {
        Self::build(config, vocab, 0, true, device)
    }

    fn build(config: &ModelConfig, vocab: usize, seed: u64, zeros: bool, device: &Device) -> Self {
        let mut rng = Rng::stream(seed, 1);
        let mut init = Initializer {
            rng: &mut rng,
            scale: config.init_scale,
            layer_norm_eps: config.layer_norm_eps,
            zeros,
            device,
        };
        let d = config.d_model;
        let tok_emb = init.embedding(vocab, d);
        let pos_emb = (config.positional == PositionalEncoding::Learned)
            .then(|| init.embedding(config.max_len, d));
        let type_emb = (config.token_types > 0).then(|| init.embedding(config.token_types, d));
        let emb_norm = config.embedding_norm.then(|| init.layer_norm(d));
        let cross = config.family == ModelFamily::EncoderDecoder;
        let layers = config
            .layers
            .iter()
            .map(|layer| build_block(layer, d, cross, config.positional, &mut init))
            .collect();
        let final_norm = config.has_final_norm().then(|| init.layer_norm(d));
        let encoder_layers: &[LayerConfig] = if cross { &config.encoder_layers } else { &[] };
        let encoder = encoder_layers.iter().map(|layer| build_block(layer, d, false, config.positional, &mut init)).collect();
        let encoder_norm = encoder_layers.iter().any(|l| l.norm == NormPlacement::Pre).then(|| init.layer_norm(d));
        let rnn = (config.family == ModelFamily::Rnn).then(|| Recurrent::new(config.rnn_cell, config.rnn_attention, d, &mut init));
        let activation = config.layers.last().map_or(crate::config::Activation::Gelu, |l| l.activation);
        let head_transform = config.head_transform.then(|| HeadTransform {
            dense: init.linear(d, d),
            norm: init.layer_norm(d),
            activation,
        });
        let (head, head_bias) = if config.tied_embeddings {
            (None, Some(init.bias(d, vocab)))
        } else {
            (Some(init.linear(d, vocab)), None)
        };
        Self {
            tok_emb,
            pos_emb,
            type_emb,
            emb_norm,
            layers,
            final_norm,
            encoder,
            encoder_norm,
            rnn,
            head_transform,
            head,
            head_bias,
            config: config.clone(),
            source_len: 0,
        }
    }

    /// The same model told where its tasks' targets start (seq2seq families).
    pub fn with_source_len(mut self, source_len: Option<usize>) -> Self {
        self.source_len = source_len.unwrap_or(0);
        self
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
        let x = self.embed(tokens, 0); // [batch, seq, d_model]
        let x = dropout.apply(x);
        self.forward_embedded(x, padding, capture, dropout)
    }

    /// The forward pass from the embedded sequence x `[batch, seq, d_model]` on
    /// (the gradient-reach measurement differentiates with respect to x).
    pub fn forward_embedded(
        &self,
        x: Tensor<3>,
        padding: Option<&[bool]>,
        capture: Capture,
        dropout: &mut Dropout,
    ) -> ForwardOutput {
        let [batch, _, _] = x.dims();
        let padding = padding.filter(|p| p.iter().any(|v| *v)).map(|p| (p, batch));
        let (x, attention, trace, hidden) = match self.config.family {
            ModelFamily::Decoder => self.decoder_stack(x, padding, capture, dropout, None),
            ModelFamily::EncoderDecoder => {
                let (memory, mut attention, mut trace) = self.encoder_stack(x.clone(), padding, capture, dropout);
                let (x, decoder_attention, decoder_trace, hidden) = self.decoder_stack(x, padding, capture, dropout, Some(&memory));
                attention.extend(decoder_attention);
                trace = trace.or(decoder_trace);
                (x, attention, trace, hidden)
            }
            ModelFamily::Rnn => {
                let rnn = self.rnn.as_ref().expect("the rnn family has a recurrent core");
                let out = rnn.forward(x, self.source_len, padding.map(|(p, _)| p), capture.attention);
                let attention = if self.config.rnn_attention == crate::config::RnnAttention::None { vec![None] } else { vec![out.weights] };
                // The decoder's output stands in for the layer outputs the probes compare.
                let hidden = if capture.hidden { vec![out.output.clone()] } else { Vec::new() };
                (out.output, attention, None, hidden)
            }
        };
        ForwardOutput {
            logits: self.output(x), // [batch, seq, vocab]
            attention,
            trace,
            hidden,
        }
    }

    /// The decoder (or decoder-only) stack and the final LayerNorm; with `memory`
    /// (the encoder's output) each layer also cross-attends to the source.
    /// Attention comes back per unit: self, then cross when there is a memory.
    fn decoder_stack(
        &self,
        mut x: Tensor<3>,
        padding: Option<(&[bool], usize)>,
        capture: Capture,
        dropout: &mut Dropout,
        memory: Option<&Tensor<3>>,
    ) -> (Tensor<3>, Vec<Option<Tensor<4>>>, Option<HeadTrace>, Vec<Tensor<3>>) {
        let [_, seq, _] = x.dims();
        let device = x.device();
        let s = self.source_len;
        let (self_role, cross_role) = match memory {
            Some(_) => (Role::DecoderSelf { source_len: s }, Role::Cross { source_len: s }),
            None => (Role::Whole, Role::Whole),
        };
        let first_unit = if memory.is_some() { self.encoder.len() } else { 0 };
        let units_per_layer = if memory.is_some() { 2 } else { 1 };
        let mut masks: HashMap<MaskKey, MaskTensors> = HashMap::new();
        let mut attention = Vec::with_capacity(self.layers.len() * units_per_layer);
        let mut trace = None;
        let mut hidden = Vec::new();
        for (index, (block, layer)) in self.layers.iter().zip(&self.config.layers).enumerate() {
            let unit = first_unit + index * units_per_layer;
            let mut prepare = |role: Role| {
                let key = (role, layer.mask, layer.window, layer.diagonal_offset, layer.padding_mask, layer.mask_reading);
                masks.entry(key).or_insert_with(|| MaskTensors::new(KeepMask::applied_in(layer, role, seq, padding), &device));
                key
            };
            let (self_key, cross_key) = (prepare(self_role), memory.map(|_| prepare(cross_role)));
            let (self_mask, cross_mask) = (&masks[&self_key], cross_key.map(|key| &masks[&key]));
            let traced = |u: usize| capture.trace.filter(|(t, _)| *t == u).map(|(_, h)| h);
            let cross = memory.zip(cross_mask).map(|(memory, mask)| CrossInput { memory, mask, trace_head: traced(unit + 1) });
            let (out, extras) = block.forward(x, self_mask, traced(unit), dropout, cross);
            if capture.hidden {
                hidden.push(out.clone());
            }
            x = out;
            attention.push(extras.weights.filter(|_| capture.attention));
            if memory.is_some() {
                attention.push(extras.cross_weights.filter(|_| capture.attention));
            }
            if extras.trace.is_some() {
                trace = extras.trace;
            }
        }
        if let Some(norm) = &self.final_norm {
            x = norm.forward(x); // [batch, seq, d_model]
        }
        (x, attention, trace, hidden)
    }

    /// The encoder stack over the source (its LayerNorm after it when pre-LN).
    fn encoder_stack(
        &self,
        mut x: Tensor<3>,
        padding: Option<(&[bool], usize)>,
        capture: Capture,
        dropout: &mut Dropout,
    ) -> (Tensor<3>, Vec<Option<Tensor<4>>>, Option<HeadTrace>) {
        let [_, seq, _] = x.dims();
        let device = x.device();
        let role = Role::Encoder { source_len: self.source_len };
        let mut attention = Vec::with_capacity(self.encoder.len());
        let mut trace = None;
        for (unit, (block, layer)) in self.encoder.iter().zip(&self.config.encoder_layers).enumerate() {
            let mask = MaskTensors::new(KeepMask::applied_in(layer, role, seq, padding), &device);
            let traced = capture.trace.filter(|(t, _)| *t == unit).map(|(_, h)| h);
            let (out, extras) = block.forward(x, &mask, traced, dropout, None);
            x = out;
            attention.push(extras.weights.filter(|_| capture.attention));
            if extras.trace.is_some() {
                trace = extras.trace;
            }
        }
        if let Some(norm) = &self.encoder_norm {
            x = norm.forward(x); // [batch, seq, d_model]
        }
        (x, attention, trace)
    }
}

impl Transformer {
    /// Token embeddings plus the positions `start..start + seq`:
    /// tokens `[batch, seq]` -> `[batch, seq, d_model]`.
    pub fn embed(&self, tokens: Tensor<2, Int>, start: usize) -> Tensor<3> {
        let [_, seq] = tokens.dims();
        let device = tokens.device();
        let d = self.config.d_model;
        let x = burn::tensor::module::embedding(self.tok_emb.val(), tokens); // [batch, seq, d_model]
        // Every token of a task is of type 0: its row is added everywhere.
        let x = match &self.type_emb {
            Some(types) => x + types.val().slice_dim(0, 0..1).unsqueeze_dim::<3>(0), // [batch, seq, d_model]
            None => x,
        };
        let x = match self.config.positional {
            PositionalEncoding::Learned => {
                let pos = self.pos_emb.as_ref().expect("learned positions").val();
                x + pos.slice_dim(0, start..start + seq).unsqueeze_dim::<3>(0) // [batch, seq, d_model]
            }
            PositionalEncoding::Sinusoidal => {
                let table = positional::sinusoidal_table(start + seq, d)[start * d..].to_vec();
                let pos = Tensor::<2>::from_data(TensorData::new(table, [seq, d]), &device); // [seq, d_model]
                x + pos.unsqueeze_dim::<3>(0) // [batch, seq, d_model]
            }
            // Rotary and ALiBi positions enter inside each attention layer instead.
            PositionalEncoding::None | PositionalEncoding::Rotary | PositionalEncoding::Alibi => x,
        };
        match &self.emb_norm {
            Some(norm) => norm.forward(x), // [batch, seq, d_model]
            None => x,
        }
    }

    /// The last layer's output x `[batch, seq, d_model]` to logits `[batch, seq, vocab]`:
    /// through the head transform when there is one, then the output layer, or the
    /// token embeddings transposed plus a bias when the two are tied.
    pub fn output(&self, x: Tensor<3>) -> Tensor<3> {
        let x = match &self.head_transform {
            Some(transform) => transform.forward(x), // [batch, seq, d_model]
            None => x,
        };
        match (&self.head, &self.head_bias) {
            (Some(head), _) => rows::linear_rows(head, x), // [batch, seq, vocab]
            (None, bias) => {
                let [batch, seq, d] = x.dims();
                let table = self.tok_emb.val(); // [vocab, d_model]
                let vocab = table.dims()[0];
                let logits = x.reshape([batch * seq, d]).matmul(table.transpose()); // [batch * seq, vocab]
                let logits = match bias {
                    Some(bias) => logits + bias.val().unsqueeze_dim::<2>(0), // [batch * seq, vocab]
                    None => logits,
                };
                logits.reshape([batch, seq, vocab])
            }
        }
    }
}

/// BERT's prediction-head transform: x -> LN(act(x W + b)), `[batch, seq, d_model]` both sides.
#[derive(Module, Debug)]
pub struct HeadTransform {
    pub dense: Linear,
    pub norm: LayerNorm,
    #[module(skip)]
    pub activation: crate::config::Activation,
}

impl HeadTransform {
    pub fn forward(&self, x: Tensor<3>) -> Tensor<3> {
        let h = block::activate(rows::linear_rows(&self.dense, x), self.activation); // [batch, seq, d_model]
        self.norm.forward(h) // [batch, seq, d_model]
    }
}

/// Sublayers with the same role and mask knobs share one prepared mask.
type MaskKey = (Role, MaskKind, usize, i32, PaddingMask, MaskReading);

/// One layer; `cross` adds the cross-attention sublayer when the layer asks for it.
fn build_block(layer: &LayerConfig, d: usize, cross: bool, positional: PositionalEncoding, init: &mut Initializer) -> Block {
    let wants_norm = layer.norm != NormPlacement::None;
    // Self- and cross-attention follow the same knobs of the layer; rotary and
    // ALiBi positions are for self-attention (a target word's position says
    // nothing about how far it is from a source word), and so is the convolution:
    // offsets between a target word and the source mean nothing, so a convolution
    // layer's cross-attention stays softmax (it is the decoder's only view of the source).
    let sublayer = |init: &mut Initializer, positions: attention::InAttention, kernel: bool| SelfAttention {
        wq: init.linear(d, d),
        wk: init.linear(d, d),
        wv: init.linear(d, d),
        wo: init.linear(d, d),
        heads: layer.heads,
        kind: match layer.attention_kind {
            crate::config::AttentionKind::Convolution if !kernel => crate::config::AttentionKind::Softmax,
            kind => kind,
        },
        scale: layer.scale,
        application: layer.mask_application,
        ablated: layer.ablated_heads.clone(),
        positions,
        kernel: kernel.then(|| init.zeros(layer.heads, layer.window.max(1))),
    };
    let convolution = layer.attention_kind == crate::config::AttentionKind::Convolution;
    let attention = layer.attention.then(|| sublayer(init, attention::InAttention::of(positional), convolution));
    let attention_norm = (layer.attention && wants_norm).then(|| init.layer_norm(d));
    let cross = cross && layer.cross_attention;
    let cross_attention = cross.then(|| sublayer(init, attention::InAttention::None, false));
    let cross_norm = (cross && wants_norm).then(|| init.layer_norm(d));
    let ffn = layer.ffn.then(|| FeedForward {
        up: init.linear(d, layer.d_ff),
        down: init.linear(layer.d_ff, d),
        activation: layer.activation,
    });
    let ffn_norm = (layer.ffn && wants_norm).then(|| init.layer_norm(d));
    Block {
        attention,
        attention_norm,
        cross_attention,
        cross_norm,
        ffn,
        ffn_norm,
        residual: layer.residual,
        norm: layer.norm,
    }
}
