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

/// Which unit it is, as the grid labels it: "layer 1", "encoder 0", "decoder 1 ·
/// cross", "alignment". Kept as data and put into words where it is shown, so a
/// run trained in one language reads in the other after a switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitName {
    Layer(usize),
    Encoder(usize),
    DecoderSelf(usize),
    DecoderCross(usize),
    Alignment,
}

impl UnitName {
    /// The name in the interface's language now.
    pub fn label(&self) -> String {
        match *self {
            Self::Layer(layer) => t!("views-unit-layer", layer = layer),
            Self::Encoder(layer) => t!("views-unit-encoder", layer = layer),
            Self::DecoderSelf(layer) => t!("views-unit-decoder-self", layer = layer),
            Self::DecoderCross(layer) => t!("views-unit-decoder-cross", layer = layer),
            Self::Alignment => t!("views-unit-alignment"),
        }
    }
}

/// Layer 0: what a head trace made before any was asked for reads as.
impl Default for UnitName {
    fn default() -> Self {
        Self::Layer(0)
    }
}

impl std::fmt::Display for UnitName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.label())
    }
}

/// Written as its label, as the CLI's JSON has always shown it.
impl serde::Serialize for UnitName {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.label())
    }
}

/// One attention unit.
#[derive(Clone, Debug, PartialEq)]
pub struct AttentionUnit {
    /// As the grid labels it (see `UnitName`).
    pub name: UnitName,
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
                name: UnitName::Layer(i),
                role: Role::Whole,
                layer: with_attention(layer, layer.attention),
                layer_index: i,
            })
            .collect(),
        ModelFamily::EncoderDecoder => {
            let encoder = config.encoder_layers.iter().enumerate().map(|(i, layer)| AttentionUnit {
                name: UnitName::Encoder(i),
                role: Role::Encoder { source_len: s },
                layer: with_attention(layer, layer.attention),
                layer_index: i,
            });
            let decoder = config.layers.iter().enumerate().flat_map(|(i, layer)| {
                [
                    AttentionUnit {
                        name: UnitName::DecoderSelf(i),
                        role: Role::DecoderSelf { source_len: s },
                        layer: with_attention(layer, layer.attention),
                        layer_index: i,
                    },
                    AttentionUnit {
                        name: UnitName::DecoderCross(i),
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
                name: UnitName::Alignment,
                role: Role::Cross { source_len: s },
                layer: (config.rnn_attention != RnnAttention::None).then_some(alignment),
                layer_index: 0,
            }]
        }
    }
}
