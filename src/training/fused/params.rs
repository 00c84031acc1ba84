//! The model's parameters as plain vectors (copied out of the burn model when a
//! session's fused step first needs them, then kept and stepped in place) and the
//! same layout for gradients (handed back to burn by `to_burn`).

use burn::module::{Param, ParamId};
use burn::nn::{LayerNorm, Linear};
use burn::tensor::Tensor;

use crate::config::{Activation, AttentionKind, MaskApplication, ModelFamily, NormPlacement};
use super::recurrent::PlainRecurrent;
use super::recycled::Recycled;
use crate::model::{Block, InAttention, SelfAttention, Transformer};
use rayon::prelude::*;

/// One parameter tensor: its burn id, shape and row-major values.
#[derive(Clone)]
pub struct Plain {
    pub id: ParamId,
    pub shape: Vec<usize>,
    pub data: Vec<f32>,
}

impl Plain {
    fn of<const D: usize>(param: &Param<Tensor<D>>, recycled: &Recycled) -> Self {
        let value = param.val();
        let shape = value.dims().to_vec();
        let read = value.into_data().convert::<f32>();
        let mut data = recycled.values_for(param.id);
        data.extend_from_slice(read.as_slice::<f32>().expect("f32 parameter"));
        Self { id: param.id, shape, data }
    }
}

#[derive(Clone)]
pub struct PlainLinear {
    /// `[d_in, d_out]`
    pub w: Plain,
    /// `[d_out]`
    pub b: Option<Plain>,
    /// `[d_out, d_in]`: `w` transposed, for the backward products of the tiers
    /// with the crate's own kernels (`tiled`), which read their right-hand side
    /// row-major (empty on the portable tier).
    pub w_t: Vec<f32>,
}

impl PlainLinear {
    pub(super) fn of(linear: &Linear, recycled: &Recycled) -> Self {
        let w = Plain::of(&linear.weight, recycled);
        let w_t = recycled.transposed_for(w.id);
        let mut out = Self { w, b: linear.bias.as_ref().map(|b| Plain::of(b, recycled)), w_t };
        out.transpose();
        out
    }

    /// Set `w_t` from `w` on the tiers with their own kernels; empty it on the
    /// portable one (the backward products read `w_t` whenever it is not empty,
    /// and the tier can change between steps: the test of each tier does that).
    fn transpose(&mut self) {
        if !super::tiled::tiled() {
            self.w_t.clear();
            return;
        }
        let (d_in, d_out) = (self.d_in(), self.d_out());
        self.w_t.resize(d_in * d_out, 0.0);
        super::transpose::transpose_matrix(&self.w.data, d_in, d_out, &mut self.w_t);
    }
    pub fn d_in(&self) -> usize {
        self.w.shape[0]
    }
    pub fn d_out(&self) -> usize {
        self.w.shape[1]
    }
}

#[derive(Clone)]
pub struct PlainNorm {
    /// `[d_model]`
    pub gamma: Plain,
    /// `[d_model]`
    pub beta: Option<Plain>,
    /// ε added to the variance (the model's `layer_norm_eps`).
    pub eps: f32,
}

impl PlainNorm {
    fn of(norm: &LayerNorm, eps: f32, recycled: &Recycled) -> Self {
        Self {
            gamma: Plain::of(&norm.gamma, recycled),
            beta: norm.beta.as_ref().map(|b| Plain::of(b, recycled)),
            eps,
        }
    }
}

#[derive(Clone)]
pub struct PlainAttention {
    pub q: PlainLinear,
    pub k: PlainLinear,
    pub v: PlainLinear,
    pub o: PlainLinear,
    pub heads: usize,
    pub scale: bool,
    pub application: MaskApplication,
    pub ablated: Vec<usize>,
    /// Rotary or ALiBi positions applied inside the layer.
    pub positions: InAttention,
    /// Uniform-average attention: every visible key weighs 1/count, so Q and K
    /// are never computed and get no gradient.
    pub uniform: bool,
    /// `[heads, taps]`: the convolution kind's number per head and offset (its
    /// weights are their softmax); None for the other kinds.
    pub kernel: Option<Plain>,
}

#[derive(Clone)]
pub struct PlainFfn {
    pub up: PlainLinear,
    pub down: PlainLinear,
    pub activation: Activation,
}

#[derive(Clone)]
pub struct PlainLayer {
    pub attention: Option<PlainAttention>,
    pub attention_norm: Option<PlainNorm>,
    /// Cross-attention over the encoder's output (an encoder–decoder's decoder layers).
    pub cross: Option<PlainAttention>,
    pub cross_norm: Option<PlainNorm>,
    pub ffn: Option<PlainFfn>,
    pub ffn_norm: Option<PlainNorm>,
    pub residual: bool,
    pub norm: NormPlacement,
}

/// The whole model as plain data. The same type holds gradients (same ids/shapes).
#[derive(Clone)]
pub struct PlainModel {
    /// `[vocab, d_model]`
    pub tok_emb: Plain,
    /// `[max_len, d_model]`, learned positions only.
    pub pos_emb: Option<Plain>,
    /// The encoder's layers (encoder–decoder family; empty for a decoder).
    pub encoder: Vec<PlainLayer>,
    /// The LayerNorm after the encoder, when it has one.
    pub encoder_norm: Option<PlainNorm>,
    pub layers: Vec<PlainLayer>,
    pub final_norm: Option<PlainNorm>,
    pub head: PlainLinear,
    /// The encoder–decoder family: the encoder reads the embedded sequence and
    /// every decoder layer may cross-attend to its output.
    pub seq2seq: bool,
    /// The recurrent encoder and decoder (rnn family, GRU cells).
    pub rnn: Option<PlainRecurrent>,
}

impl PlainLinear {
    pub(super) fn tensors_into<'a>(&'a mut self, out: &mut Vec<&'a mut Plain>) {
        out.push(&mut self.w);
        out.extend(self.b.as_mut());
    }
}

impl PlainNorm {
    pub(super) fn tensors_into<'a>(&'a mut self, out: &mut Vec<&'a mut Plain>) {
        out.push(&mut self.gamma);
        out.extend(self.beta.as_mut());
    }
}

impl PlainAttention {
    fn of(a: &SelfAttention, recycled: &Recycled) -> Self {
        Self {
            q: PlainLinear::of(&a.wq, recycled),
            k: PlainLinear::of(&a.wk, recycled),
            v: PlainLinear::of(&a.wv, recycled),
            o: PlainLinear::of(&a.wo, recycled),
            heads: a.heads,
            scale: a.scale,
            application: a.application,
            ablated: a.ablated.clone(),
            positions: a.positions,
            uniform: a.kind == AttentionKind::UniformAverage,
            kernel: a.kernel.as_ref().filter(|_| a.kind == AttentionKind::Convolution).map(|k| Plain::of(k, recycled)),
        }
    }

    /// Its weights do not depend on the queries (uniform or convolution): Q and K
    /// are never read.
    pub fn fixed(&self) -> bool {
        self.uniform || self.kernel.is_some()
    }
}

impl PlainLayer {
    /// Its tensors in a fixed order: attention, cross-attention, feed-forward,
    /// each followed by its norm.
    pub(super) fn tensors_into<'a>(&'a mut self, out: &mut Vec<&'a mut Plain>) {
        for (attention, norm) in [(&mut self.attention, &mut self.attention_norm), (&mut self.cross, &mut self.cross_norm)] {
            if let Some(a) = attention {
                for l in [&mut a.q, &mut a.k, &mut a.v, &mut a.o] {
                    l.tensors_into(out);
                }
                out.extend(a.kernel.as_mut());
            }
            if let Some(n) = norm {
                n.tensors_into(out);
            }
        }
        if let Some(f) = &mut self.ffn {
            f.up.tensors_into(out);
            f.down.tensors_into(out);
        }
        if let Some(n) = &mut self.ffn_norm {
            n.tensors_into(out);
        }
    }

    fn of(block: &Block, eps: f32, recycled: &Recycled) -> Self {
        Self {
            attention: block.attention.as_ref().map(|a| PlainAttention::of(a, recycled)),
            attention_norm: block.attention_norm.as_ref().map(|n| PlainNorm::of(n, eps, recycled)),
            cross: block.cross_attention.as_ref().map(|a| PlainAttention::of(a, recycled)),
            cross_norm: block.cross_norm.as_ref().map(|n| PlainNorm::of(n, eps, recycled)),
            ffn: block.ffn.as_ref().map(|f| PlainFfn {
                up: PlainLinear::of(&f.up, recycled),
                down: PlainLinear::of(&f.down, recycled),
                activation: f.activation,
            }),
            ffn_norm: block.ffn_norm.as_ref().map(|n| PlainNorm::of(n, eps, recycled)),
            residual: block.residual,
            norm: block.norm,
        }
    }
}

impl PlainModel {
    /// Copy every parameter out of the burn model.
    pub fn of(model: &Transformer) -> Self {
        Self::of_recycling(model, &Recycled::default())
    }

    /// `of`, into the buffers of an earlier copy where it has them.
    pub fn of_recycling(model: &Transformer, recycled: &Recycled) -> Self {
        let eps = model.config.layer_norm_eps as f32;
        // Layer by layer on the compute threads: a step's only other serial part.
        let layers = model.layers.par_iter().map(|block| PlainLayer::of(block, eps, recycled)).collect();
        Self {
            tok_emb: Plain::of(&model.tok_emb, recycled),
            pos_emb: model.pos_emb.as_ref().map(|p| Plain::of(p, recycled)),
            encoder: model.encoder.par_iter().map(|block| PlainLayer::of(block, eps, recycled)).collect(),
            encoder_norm: model.encoder_norm.as_ref().map(|n| PlainNorm::of(n, eps, recycled)),
            layers,
            final_norm: model.final_norm.as_ref().map(|n| PlainNorm::of(n, eps, recycled)),
            head: PlainLinear::of(model.head.as_ref().expect("the fused step refuses a tied head (fused::support)"), recycled),
            seq2seq: model.config.family == ModelFamily::EncoderDecoder,
            rnn: model.rnn.as_ref().map(|r| PlainRecurrent::of(r, model.source_len, recycled)),
        }
    }

    pub fn d_model(&self) -> usize {
        self.tok_emb.shape[1]
    }

    pub fn vocab(&self) -> usize {
        self.head.d_out()
    }

    /// The same layout filled with zeros: a gradient accumulator (without the
    /// transposed weights, which only the forward values need).
    pub fn zeros_like(&self) -> Self {
        let mut zeros = self.clone();
        zeros.fill_zero();
        for l in zeros.linears_mut() {
            l.w_t = Vec::new();
        }
        zeros
    }

    /// Every linear map's `w_t` set from its weights (after they change).
    pub fn transpose_weights(&mut self) {
        self.linears_mut().into_par_iter().for_each(PlainLinear::transpose);
    }

    /// Every linear map of the model.
    pub(super) fn linears_mut(&mut self) -> Vec<&mut PlainLinear> {
        let mut out = Vec::new();
        for layer in self.encoder.iter_mut().chain(&mut self.layers) {
            for a in [&mut layer.attention, &mut layer.cross].into_iter().flatten() {
                out.extend([&mut a.q, &mut a.k, &mut a.v, &mut a.o]);
            }
            if let Some(f) = &mut layer.ffn {
                out.extend([&mut f.up, &mut f.down]);
            }
        }
        if let Some(r) = &mut self.rnn {
            out.extend(r.linears_mut());
        }
        out.push(&mut self.head);
        out
    }

    /// Every tensor, always in the same order.
    pub fn tensors_mut(&mut self) -> Vec<&mut Plain> {
        let mut out = vec![&mut self.tok_emb];
        out.extend(self.pos_emb.as_mut());
        for layer in self.encoder.iter_mut().chain(&mut self.layers) {
            layer.tensors_into(&mut out);
        }
        if let Some(r) = &mut self.rnn {
            for l in r.linears_mut() {
                l.tensors_into(&mut out);
            }
        }
        for n in [&mut self.encoder_norm, &mut self.final_norm].into_iter().flatten() {
            n.tensors_into(&mut out);
        }
        self.head.tensors_into(&mut out);
        out
    }

    /// Whether the encoder's output reaches the loss: some decoder layer
    /// cross-attends to it.
    pub fn encoder_read(&self) -> bool {
        self.seq2seq && self.layers.iter().any(|l| l.cross.is_some())
    }

    /// Every value set to 0 (a gradient accumulator, emptied for the next step).
    pub fn fill_zero(&mut self) {
        // Layer by layer, so emptying the buffers allocates nothing.
        let zero = |l: &mut PlainLinear| {
            l.w.data.fill(0.0);
            l.b.iter_mut().for_each(|b| b.data.fill(0.0));
        };
        let zero_norm = |n: &mut PlainNorm| {
            n.gamma.data.fill(0.0);
            n.beta.iter_mut().for_each(|b| b.data.fill(0.0));
        };
        self.tok_emb.data.fill(0.0);
        self.pos_emb.iter_mut().for_each(|p| p.data.fill(0.0));
        for layer in self.encoder.iter_mut().chain(&mut self.layers) {
            for a in [&mut layer.attention, &mut layer.cross].into_iter().flatten() {
                [&mut a.q, &mut a.k, &mut a.v, &mut a.o].into_iter().for_each(zero);
                a.kernel.iter_mut().for_each(|k| k.data.fill(0.0));
            }
            if let Some(f) = &mut layer.ffn {
                zero(&mut f.up);
                zero(&mut f.down);
            }
            [&mut layer.attention_norm, &mut layer.cross_norm, &mut layer.ffn_norm].into_iter().flatten().for_each(zero_norm);
        }
        [&mut self.encoder_norm, &mut self.final_norm].into_iter().flatten().for_each(zero_norm);
        if let Some(r) = &mut self.rnn {
            r.linears_mut().for_each(zero);
        }
        zero(&mut self.head);
    }

    /// Every tensor's id and shape, in the order of `tensors_mut`.
    pub fn layout(&self) -> Vec<(ParamId, Vec<usize>)> {
        let mut ids = Vec::new();
        self.visit(&mut |t: &Plain| ids.push((t.id, t.shape.clone())));
        ids
    }

    /// Whether these tensors have `layout` (compared without allocating).
    pub fn has_layout(&self, layout: &[(ParamId, Vec<usize>)]) -> bool {
        let (mut at, mut same) = (0, true);
        self.visit(&mut |t: &Plain| {
            same &= layout.get(at).is_some_and(|(id, shape)| *id == t.id && *shape == t.shape);
            at += 1;
        });
        same && at == layout.len()
    }

    /// Every tensor, read-only, in the order of `tensors_mut`.
    pub(super) fn visit<'a>(&'a self, f: &mut impl FnMut(&'a Plain)) {
        let linear = |l: &'a PlainLinear, f: &mut dyn FnMut(&'a Plain)| {
            f(&l.w);
            l.b.iter().for_each(&mut *f);
        };
        let norm = |n: &'a PlainNorm, f: &mut dyn FnMut(&'a Plain)| {
            f(&n.gamma);
            n.beta.iter().for_each(&mut *f);
        };
        f(&self.tok_emb);
        self.pos_emb.iter().for_each(&mut *f);
        for layer in self.encoder.iter().chain(&self.layers) {
            for (attention, attention_norm) in [(&layer.attention, &layer.attention_norm), (&layer.cross, &layer.cross_norm)] {
                if let Some(a) = attention {
                    for l in [&a.q, &a.k, &a.v, &a.o] {
                        linear(l, f);
                    }
                    a.kernel.iter().for_each(&mut *f);
                }
                attention_norm.iter().for_each(|n| norm(n, f));
            }
            if let Some(ffn) = &layer.ffn {
                linear(&ffn.up, f);
                linear(&ffn.down, f);
            }
            layer.ffn_norm.iter().for_each(|n| norm(n, f));
        }
        if let Some(r) = &self.rnn {
            r.linears().for_each(|l| linear(l, f));
        }
        for n in [&self.encoder_norm, &self.final_norm].into_iter().flatten() {
            norm(n, f);
        }
        linear(&self.head, f);
    }

    /// Every tensor (and every transposed weight) equal to `other`'s bit for bit.
    #[cfg(test)]
    pub fn has_same_values(&mut self, other: &PlainModel) -> bool {
        let mut theirs = Vec::new();
        other.visit(&mut |t: &Plain| theirs.push(t.data.clone()));
        let same = |a: &[f32], b: &[f32]| a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits());
        let mut other = other.clone();
        let transposes_agree = self.linears_mut().into_iter().zip(other.linears_mut()).all(|(a, b)| same(&a.w_t, &b.w_t));
        transposes_agree && self.tensors_mut().len() == theirs.len() && self.tensors_mut().into_iter().zip(&theirs).all(|(t, v)| same(&t.data, v))
    }

    /// `self += other`, tensor by tensor (both from the same model).
    pub fn add(&mut self, other: &mut PlainModel) {
        // Tensor by tensor on the compute threads; each value's sum is the same.
        self.tensors_mut().into_par_iter().zip(other.tensors_mut()).for_each(|(a, b)| {
            a.data.iter_mut().zip(&b.data).for_each(|(a, b)| *a += b);
        });
    }
}
