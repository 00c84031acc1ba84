//! A Hugging Face `config.json` read into the workbench's own `ModelConfig`: BERT
//! and GPT-2 are both one stack of the workbench's layers with the right knobs
//! (post-LN and bidirectional for BERT, pre-LN and causal for GPT-2); nothing else
//! is accepted.

use crate::t;
use std::path::Path;

use serde::Deserialize;

use super::error::OpenError;
use crate::config::{Activation, LayerConfig, MaskKind, ModelConfig, ModelFamily, NormPlacement, PositionalEncoding};

/// The two architectures the workbench reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Architecture {
    Bert,
    Gpt2,
    /// A run folder of this workbench (`config.json` of an experiment and
    /// `weights.bpk`), such as the shipped character models.
    Workbench,
}

impl Architecture {
    pub fn name(self) -> &'static str {
        match self {
            Architecture::Bert => "BERT",
            Architecture::Gpt2 => "GPT-2",
            Architecture::Workbench => "workbench",
        }
    }
}

/// The fields of `config.json` the two architectures use (others are ignored).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RawConfig {
    architectures: Vec<String>,
    model_type: Option<String>,
    vocab_size: Option<usize>,
    // BERT's names.
    hidden_size: Option<usize>,
    num_hidden_layers: Option<usize>,
    num_attention_heads: Option<usize>,
    intermediate_size: Option<usize>,
    hidden_act: Option<String>,
    max_position_embeddings: Option<usize>,
    type_vocab_size: Option<usize>,
    layer_norm_eps: Option<f64>,
    position_embedding_type: Option<String>,
    tie_word_embeddings: Option<bool>,
    // GPT-2's names.
    n_embd: Option<usize>,
    n_layer: Option<usize>,
    n_head: Option<usize>,
    n_inner: Option<usize>,
    n_positions: Option<usize>,
    activation_function: Option<String>,
    layer_norm_epsilon: Option<f64>,
    scale_attn_by_inverse_layer_idx: Option<bool>,
    scale_attn_weights: Option<bool>,
    reorder_and_upcast_attn: Option<bool>,
}

/// What `config.json` says, in the workbench's terms.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckpointConfig {
    pub architecture: Architecture,
    /// The class named in `architectures` (e.g. `BertForMaskedLM`), or the model type.
    pub class: String,
    pub model: ModelConfig,
    pub vocab_size: usize,
}

pub const SUPPORTED: &str = "BertModel, BertForMaskedLM, GPT2Model, GPT2LMHeadModel";

/// Read and map `dir/config.json`.
pub fn read(dir: &Path) -> Result<CheckpointConfig, OpenError> {
    let path = dir.join("config.json");
    let text = std::fs::read_to_string(&path).map_err(|e| {
        OpenError::new(&path, t!("msg-pretrained-no-config", why = e.to_string()))
    })?;
    let raw: RawConfig = serde_json::from_str(&text).map_err(|e| OpenError::new(&path, t!("msg-pretrained-bad-json", why = e.to_string())))?;
    map(&raw).map_err(|message| OpenError::new(&path, message))
}

fn map(raw: &RawConfig) -> Result<CheckpointConfig, String> {
    let class = raw.architectures.first().cloned().or_else(|| raw.model_type.clone()).unwrap_or_default();
    let architecture = match (class.as_str(), raw.model_type.as_deref()) {
        ("BertModel" | "BertForMaskedLM", _) => Architecture::Bert,
        ("GPT2Model" | "GPT2LMHeadModel", _) => Architecture::Gpt2,
        ("" | "bert", Some("bert")) if raw.architectures.is_empty() => Architecture::Bert,
        ("" | "gpt2", Some("gpt2")) if raw.architectures.is_empty() => Architecture::Gpt2,
        _ => {
            let found = if class.is_empty() { "?".to_string() } else { class.clone() };
            return Err(t!("msg-pretrained-unknown-architecture", found = found, supported = SUPPORTED));
        }
    };
    if raw.tie_word_embeddings == Some(false) {
        return Err(t!("msg-pretrained-unsupported-field", field = "tie_word_embeddings", value = "false"));
    }
    let need = |value: Option<usize>, name: &str| match value {
        Some(0) => Err(t!("msg-pretrained-zero-field", field = name)),
        Some(v) => Ok(v),
        None => Err(t!("msg-pretrained-missing-field", field = name)),
    };
    let vocab_size = need(raw.vocab_size, "vocab_size")?;
    let model = match architecture {
        // Never named by a config.json (a run folder is read by `run_folder`).
        Architecture::Workbench => return Err(t!("msg-pretrained-unknown-architecture", found = class.as_str(), supported = SUPPORTED)),
        Architecture::Bert => {
            if raw.position_embedding_type.as_deref().is_some_and(|t| t != "absolute") {
                return Err(t!("msg-pretrained-unsupported-field", field = "position_embedding_type", value = raw.position_embedding_type.clone().unwrap_or_default()));
            }
            let activation = activation(raw.hidden_act.as_deref().unwrap_or("gelu"), "hidden_act")?;
            let d = need(raw.hidden_size, "hidden_size")?;
            let heads = need(raw.num_attention_heads, "num_attention_heads")?;
            let layer = LayerConfig {
                heads,
                mask: MaskKind::Bidirectional,
                d_ff: need(raw.intermediate_size, "intermediate_size")?,
                activation,
                norm: NormPlacement::Post,
                ..LayerConfig::default()
            };
            ModelConfig {
                family: ModelFamily::Decoder,
                vocab_size: Some(vocab_size),
                max_len: need(raw.max_position_embeddings, "max_position_embeddings")?,
                d_model: d,
                positional: PositionalEncoding::Learned,
                dropout: 0.0,
                layer_norm_eps: raw.layer_norm_eps.unwrap_or(1e-12),
                token_types: raw.type_vocab_size.unwrap_or(2),
                embedding_norm: true,
                tied_embeddings: true,
                head_transform: true,
                layers: vec![layer; need(raw.num_hidden_layers, "num_hidden_layers")?],
                ..ModelConfig::default()
            }
        }
        Architecture::Gpt2 => {
            for (field, value, usual) in [
                ("scale_attn_by_inverse_layer_idx", raw.scale_attn_by_inverse_layer_idx, false),
                ("scale_attn_weights", raw.scale_attn_weights, true),
                ("reorder_and_upcast_attn", raw.reorder_and_upcast_attn, false),
            ] {
                if value.is_some_and(|v| v != usual) {
                    return Err(t!("msg-pretrained-unsupported-field", field = field, value = value.unwrap_or_default().to_string()));
                }
            }
            let activation = activation(raw.activation_function.as_deref().unwrap_or("gelu_new"), "activation_function")?;
            let d = need(raw.n_embd, "n_embd")?;
            let layer = LayerConfig {
                heads: need(raw.n_head, "n_head")?,
                mask: MaskKind::Causal,
                d_ff: raw.n_inner.unwrap_or(4 * d),
                activation,
                norm: NormPlacement::Pre,
                ..LayerConfig::default()
            };
            ModelConfig {
                family: ModelFamily::Decoder,
                vocab_size: Some(vocab_size),
                max_len: need(raw.n_positions, "n_positions")?,
                d_model: d,
                positional: PositionalEncoding::Learned,
                dropout: 0.0,
                layer_norm_eps: raw.layer_norm_epsilon.unwrap_or(1e-5),
                token_types: 0,
                embedding_norm: false,
                tied_embeddings: true,
                head_transform: false,
                layers: vec![layer; need(raw.n_layer, "n_layer")?],
                ..ModelConfig::default()
            }
        }
    };
    if model.d_model % model.layers[0].heads != 0 {
        return Err(t!("msg-pretrained-heads-divide", d = model.d_model, heads = model.layers[0].heads));
    }
    Ok(CheckpointConfig { architecture, class, model, vocab_size })
}

/// Hugging Face's activation names: exact GELU, or its tanh approximation.
fn activation(name: &str, field: &str) -> Result<Activation, String> {
    match name {
        "gelu" => Ok(Activation::Gelu),
        "gelu_new" | "gelu_pytorch_tanh" | "gelu_fast" => Ok(Activation::GeluTanh),
        "relu" => Ok(Activation::Relu),
        other => Err(t!("msg-pretrained-unsupported-field", field = field, value = other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Result<CheckpointConfig, String> {
        map(&serde_json::from_str(json).unwrap())
    }

    #[test]
    fn bert_is_post_ln_bidirectional_with_token_types_and_gpt2_pre_ln_causal() {
        let bert = parse(r#"{"architectures":["BertForMaskedLM"],"vocab_size":30,"hidden_size":8,"num_hidden_layers":2,"num_attention_heads":2,"intermediate_size":16,"max_position_embeddings":20,"type_vocab_size":2,"layer_norm_eps":1e-12,"hidden_act":"gelu"}"#).unwrap();
        assert_eq!(bert.architecture, Architecture::Bert);
        let m = &bert.model;
        assert_eq!((m.d_model, m.layers.len(), m.max_len, m.token_types, m.layer_norm_eps), (8, 2, 20, 2, 1e-12));
        assert!(m.embedding_norm && m.tied_embeddings && m.head_transform);
        assert_eq!((m.layers[0].mask, m.layers[0].norm, m.layers[0].activation), (MaskKind::Bidirectional, NormPlacement::Post, Activation::Gelu));
        let gpt2 = parse(r#"{"architectures":["GPT2LMHeadModel"],"vocab_size":30,"n_embd":8,"n_layer":3,"n_head":2,"n_positions":16,"activation_function":"gelu_new"}"#).unwrap();
        let m = &gpt2.model;
        assert_eq!((m.d_model, m.layers.len(), m.layers[0].d_ff, m.layer_norm_eps), (8, 3, 32, 1e-5));
        assert_eq!((m.layers[0].mask, m.layers[0].norm, m.layers[0].activation), (MaskKind::Causal, NormPlacement::Pre, Activation::GeluTanh));
        assert!(m.tied_embeddings && !m.head_transform && !m.embedding_norm && m.token_types == 0);
    }

    #[test]
    fn another_architecture_is_refused_by_name() {
        let err = parse(r#"{"architectures":["LlamaForCausalLM"],"vocab_size":30}"#).unwrap_err();
        assert!(err.contains("LlamaForCausalLM") && err.contains("BertForMaskedLM") && err.contains("GPT2LMHeadModel"), "{err}");
        let err = parse(r#"{"architectures":["BertForMaskedLM"],"vocab_size":30,"hidden_size":8,"num_attention_heads":2,"intermediate_size":16,"max_position_embeddings":20}"#).unwrap_err();
        assert!(err.contains("num_hidden_layers"), "{err}");
    }
}
