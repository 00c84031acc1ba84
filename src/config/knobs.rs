//! The choices a knob can take: model family, recurrent cell and attention,
//! positions, attention kind, masks and their conventions, activation, LayerNorm
//! placement, optimizer and backend. Plain serde enums, named in snake_case in
//! JSON, lessons and the CLI.

use serde::{Deserialize, Serialize};

/// Which kind of model the experiment builds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModelFamily {
    /// One stack with causal self-attention, reading the whole sequence (GPT-style).
    #[default]
    Decoder,
    /// An encoder stack over the source and a decoder stack over the target whose
    /// layers also attend to the encoder's output (the original Transformer).
    EncoderDecoder,
    /// A recurrent encoder and decoder (GRU or LSTM), with or without attention.
    Rnn,
}

impl ModelFamily {
    pub const ALL: [ModelFamily; 3] = [ModelFamily::Decoder, ModelFamily::EncoderDecoder, ModelFamily::Rnn];

    /// The name used in JSON and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ModelFamily::Decoder => "decoder",
            ModelFamily::EncoderDecoder => "encoder_decoder",
            ModelFamily::Rnn => "rnn",
        }
    }

    /// The name the editor's *model family* menu shows, in the interface's language.
    pub fn label(self) -> String {
        match self {
            ModelFamily::Decoder => crate::t!("editor-family-decoder"),
            ModelFamily::EncoderDecoder => crate::t!("editor-family-encoder-decoder"),
            ModelFamily::Rnn => crate::t!("editor-family-rnn"),
        }
    }

    /// Whether the family reads a source and writes a target (needs a seq2seq task).
    pub fn is_seq2seq(self) -> bool {
        self != ModelFamily::Decoder
    }
}

/// The recurrent cell of the `rnn` family (burn's own modules).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RnnCell {
    #[default]
    Gru,
    Lstm,
}

/// How the `rnn` family's decoder reads the encoder.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RnnAttention {
    /// Only the encoder's last state, handed to the decoder as its first state.
    #[default]
    None,
    /// Scores are dot products of the decoder state with each encoder state.
    Dot,
    /// Scores come from a small network, vᵀ tanh(W_d h + W_e e) (Bahdanau et al.).
    Additive,
}

/// How position information enters the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PositionalEncoding {
    /// No position information: attention sees a bag of tokens.
    None,
    /// Fixed sine/cosine waves added to the token vectors.
    Sinusoidal,
    /// One trained vector per position.
    Learned,
    /// Rotary (RoPE): each head's queries and keys are turned by an angle that grows
    /// with the position, so a score depends on how far apart the two tokens are.
    Rotary,
    /// ALiBi: each head subtracts a penalty in proportion to the distance from
    /// every score, with its own slope; nothing is added to the token vectors.
    Alibi,
}

/// How attention weights are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttentionKind {
    /// softmax(QKᵀ/√d_k): each query chooses what to read.
    Softmax,
    /// Every visible position gets the same weight: the "fixed vector" of pre-attention models.
    UniformAverage,
    /// A small learned 1-D convolution instead of attention: each head reads the
    /// current and the `window - 1` previous positions with weights that depend only
    /// on the offset (a softmax over one learned number per offset), whatever the
    /// tokens are (a lightweight convolution, Wu et al. 2019).
    Convolution,
}

impl AttentionKind {
    /// The name used in configs and messages.
    pub fn name(self) -> &'static str {
        match self {
            AttentionKind::Softmax => "softmax",
            AttentionKind::UniformAverage => "uniform_average",
            AttentionKind::Convolution => "convolution",
        }
    }
}

/// Which keys a query may attend to (always combined with the padding mask).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MaskKind {
    /// Position i sees positions 0..=i.
    Causal,
    /// Every position sees every position.
    Bidirectional,
    /// Position i sees the `window` positions i-window+1..=i (causal and local).
    SlidingWindow,
}

/// How a boolean mask is read by the attention code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MaskReading {
    /// true = the query may see the key (what our mask builder produces).
    KeepIsTrue,
    /// true = the key is hidden: with a true-=-keep mask this hides exactly what
    /// should be seen and shows what should be hidden.
    MaskedIsTrue,
}

/// How blocked cells are kept out of the attention weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MaskApplication {
    /// Fill blocked scores with -1e9 before the softmax (-inf when every row keeps a
    /// key, which gives the same weights; see `model::BLOCKED_SCORE`).
    FillLargeNegative,
    /// Add -inf to blocked scores before the softmax.
    AddNegInfinity,
    /// Multiply the softmax output by the mask (rows then sum to less than 1).
    MultiplyAfterSoftmax,
}

/// Which positions the padding mask hides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PaddingMask {
    /// Padded keys are hidden from every query (right).
    Keys,
    /// Padded queries see nothing, but every query still sees padded keys (wrong axis).
    Queries,
    /// No padding mask at all.
    Off,
}

/// Non-linearity of the feed-forward sublayer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Activation {
    Relu,
    /// Exact GELU, x Φ(x) (BERT, and PyTorch's default).
    Gelu,
    /// GELU by its tanh approximation, 0.5 x (1 + tanh(√(2/π) (x + 0.044715 x³))),
    /// as GPT-2 computes it.
    GeluTanh,
    /// No non-linearity: the FFN collapses to one linear map.
    None,
}

/// Where LayerNorm is applied in a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NormPlacement {
    /// x = LN(x + f(x)), as in the original Transformer.
    Post,
    /// x = x + f(LN(x)), as in GPT-2; a final LN follows the stack.
    Pre,
    /// No normalisation.
    None,
}

/// The optimizer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OptimizerKind {
    Adam,
    AdamW,
    Sgd,
}

/// Where training runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BackendChoice {
    /// The default CPU backend.
    Cpu,
    /// The GPU through wgpu (Vulkan / Metal / DX12); falls back to CPU when no adapter exists.
    Gpu,
    /// burn's ndarray CPU backend, by name.
    Ndarray,
    /// burn's flex CPU backend, by name.
    Flex,
}
