//! One Transformer layer: an attention sublayer and a feed-forward sublayer, each
//! wrapped by the residual connection and LayerNorm as the layer's knobs say.
//!
//! post-LN: x = LN(x + f(x))   pre-LN: x = x + f(LN(x))   none: x = x + f(x)
//! (without the residual the "x +" disappears).

use burn::module::Module;
use burn::nn::{LayerNorm, Linear};
use burn::tensor::Tensor;
use burn::tensor::activation::{gelu, gelu_approximate, relu};

use super::attention::{AttentionOutput, HeadTrace, MaskTensors, SelfAttention};
use super::rows::linear_rows;
use super::dropout::Dropout;
use crate::config::{Activation, NormPlacement};

/// Position-wise feed-forward network: Linear → activation → Linear.
#[derive(Module, Debug)]
pub struct FeedForward {
    pub up: Linear,
    pub down: Linear,
    #[module(skip)]
    pub activation: Activation,
}

impl FeedForward {
    /// x: `[batch, seq, d_model]` -> `[batch, seq, d_model]`
    pub fn forward(&self, x: Tensor<3>) -> Tensor<3> {
        let hidden = activate(linear_rows(&self.up, x), self.activation); // [batch, seq, d_ff]
        linear_rows(&self.down, hidden) // [batch, seq, d_model]
    }
}

/// The non-linearity, element-wise (any shape).
pub fn activate(x: Tensor<3>, activation: Activation) -> Tensor<3> {
    match activation {
        Activation::Relu => relu(x),
        Activation::Gelu => gelu(x),
        Activation::GeluTanh => gelu_approximate(x),
        Activation::None => x,
    }
}

#[derive(Module, Debug)]
pub struct Block {
    pub attention: Option<SelfAttention>,
    pub attention_norm: Option<LayerNorm>,
    /// Cross-attention over the encoder's output (decoder layers of the
    /// encoder–decoder family only).
    pub cross_attention: Option<SelfAttention>,
    pub cross_norm: Option<LayerNorm>,
    pub ffn: Option<FeedForward>,
    pub ffn_norm: Option<LayerNorm>,
    #[module(skip)]
    pub residual: bool,
    #[module(skip)]
    pub norm: NormPlacement,
}

/// What one layer hands back besides its output.
pub struct BlockExtras {
    /// `[batch, heads, seq, seq]`, when the layer has attention.
    pub weights: Option<Tensor<4>>,
    /// `[batch, heads, seq, seq]`, when the layer has cross-attention.
    pub cross_weights: Option<Tensor<4>>,
    pub trace: Option<HeadTrace>,
}

/// What a decoder layer of the encoder–decoder family reads besides its input.
pub struct CrossInput<'a> {
    /// The encoder's output `[batch, seq, d_model]` (meaningful on source positions).
    pub memory: &'a Tensor<3>,
    pub mask: &'a MaskTensors,
    /// One cross-attention head whose intermediates are wanted.
    pub trace_head: Option<usize>,
}

impl Block {
    /// x: `[batch, seq, d_model]` -> `[batch, seq, d_model]`
    pub fn forward(
        &self,
        x: Tensor<3>,
        mask: &MaskTensors,
        trace_head: Option<usize>,
        dropout: &mut Dropout,
        cross: Option<CrossInput<'_>>,
    ) -> (Tensor<3>, BlockExtras) {
        let mut extras = BlockExtras {
            weights: None,
            cross_weights: None,
            trace: None,
        };
        let mut x = x;
        if let Some(attention) = &self.attention {
            x = self.sublayer(x, self.attention_norm.as_ref(), |h| {
                let AttentionOutput { output, weights, trace } = attention.forward(h, mask, trace_head);
                extras.weights = Some(weights);
                extras.trace = trace;
                dropout.apply(output)
            });
        }
        if let (Some(attention), Some(cross)) = (&self.cross_attention, cross) {
            x = self.sublayer(x, self.cross_norm.as_ref(), |h| {
                let AttentionOutput { output, weights, trace } = attention.forward_from(h, cross.memory.clone(), cross.mask, cross.trace_head);
                extras.cross_weights = Some(weights);
                if trace.is_some() {
                    extras.trace = trace;
                }
                dropout.apply(output)
            });
        }
        if let Some(ffn) = &self.ffn {
            x = self.sublayer(x, self.ffn_norm.as_ref(), |h| dropout.apply(ffn.forward(h)));
        }
        (x, extras)
    }

    pub(super) fn sublayer(
        &self,
        x: Tensor<3>,
        norm: Option<&LayerNorm>,
        f: impl FnOnce(Tensor<3>) -> Tensor<3>,
    ) -> Tensor<3> {
        let add = |x: Tensor<3>, y: Tensor<3>| if self.residual { x + y } else { y };
        match (self.norm, norm) {
            (NormPlacement::Post, Some(ln)) => ln.forward(add(x.clone(), f(x))), // [batch, seq, d_model]
            (NormPlacement::Pre, Some(ln)) => add(x.clone(), f(ln.forward(x))), // [batch, seq, d_model]
            _ => add(x.clone(), f(x)), // [batch, seq, d_model]
        }
    }
}
