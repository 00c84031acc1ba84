//! Attention units: every place a model computes attention weights, in the order
//! a forward pass hands them back (`ForwardOutput::attention`) and the attention
//! grid shows them.
//!
//! - decoder: one unit per layer;
//! - encoder_decoder: the encoder's layers, then each decoder layer's
//!   self-attention followed by its cross-attention;
//! - rnn: one unit, the decoder's alignment over the encoder's states.

use super::mask::Role;
use crate::config::{LayerConfig, MaskKind, ModelConfig, ModelFamily, RnnAttention};
use crate::t;

/// One attention unit.
#[derive(Clone, Debug, PartialEq)]
pub struct AttentionUnit {
    /// As the grid labels it: "layer 1", "encoder 0", "decoder 1 · cross", "alignment".
    pub name: String,
    /// The block of the sequence its queries and keys come from.
    pub role: Role,
    /// The layer whose knobs it follows (the RNN's stands in a bidirectional,
    /// one-head layer); None when the unit computes no weights.
    pub layer: Option<LayerConfig>,
    /// Index into `ModelConfig::layers` (or `encoder_layers` for encoder units).
    pub layer_index: usize,
}

impl AttentionUnit {
    pub fn heads(&self) -> usize {
        self.layer.as_ref().map_or(0, |l| l.heads)
    }

    /// Whether this is a cross-attention unit (target queries, source keys).
    pub fn is_cross(&self) -> bool {
        matches!(self.role, Role::Cross { .. })
    }
}

/// Every attention unit of a model built from `config` for a task whose source
/// has `source_len` tokens (0 for the decoder family).
pub fn attention_units(config: &ModelConfig, source_len: usize) -> Vec<AttentionUnit> {
    let s = source_len;
    let with_attention = |layer: &LayerConfig, on: bool| on.then(|| layer.clone());
    match config.family {
        ModelFamily::Decoder => config
            .layers
            .iter()
            .enumerate()
            .map(|(i, layer)| AttentionUnit {
                name: t!("views-unit-layer", layer = i),
                role: Role::Whole,
                layer: with_attention(layer, layer.attention),
                layer_index: i,
            })
            .collect(),
        ModelFamily::EncoderDecoder => {
            let encoder = config.encoder_layers.iter().enumerate().map(|(i, layer)| AttentionUnit {
                name: t!("views-unit-encoder", layer = i),
                role: Role::Encoder { source_len: s },
                layer: with_attention(layer, layer.attention),
                layer_index: i,
            });
            let decoder = config.layers.iter().enumerate().flat_map(|(i, layer)| {
                [
                    AttentionUnit {
                        name: t!("views-unit-decoder-self", layer = i),
                        role: Role::DecoderSelf { source_len: s },
                        layer: with_attention(layer, layer.attention),
                        layer_index: i,
                    },
                    AttentionUnit {
                        name: t!("views-unit-decoder-cross", layer = i),
                        role: Role::Cross { source_len: s },
                        layer: with_attention(layer, layer.cross_attention),
                        layer_index: i,
                    },
                ]
            });
            encoder.chain(decoder).collect()
        }
        ModelFamily::Rnn => {
            let alignment = LayerConfig { heads: 1, mask: MaskKind::Bidirectional, ..LayerConfig::default() };
            vec![AttentionUnit {
                name: t!("views-unit-alignment"),
                role: Role::Cross { source_len: s },
                layer: (config.rnn_attention != RnnAttention::None).then_some(alignment),
                layer_index: 0,
            }]
        }
    }
}
