//! The parameter layout a config implies (module path and shape of every weight),
//! computed without building a model. The window uses it to tell, before applying
//! an edit, whether trained weights survive it; a test checks it against the model.

use super::{LayerConfig, ModelConfig, ModelFamily, NormPlacement, PositionalEncoding, RnnAttention, RnnCell};

/// `(module path, shape)` of every parameter, in model order.
pub fn param_layout(model: &ModelConfig, vocab: usize) -> Vec<(String, Vec<usize>)> {
    let d = model.d_model;
    let mut out: Vec<(String, Vec<usize>)> = vec![("tok_emb".into(), vec![vocab, d])];
    if model.positional == PositionalEncoding::Learned {
        out.push(("pos_emb".into(), vec![model.max_len, d]));
    }
    if model.token_types > 0 {
        out.push(("type_emb".into(), vec![model.token_types, d]));
    }
    let linear = |out: &mut Vec<(String, Vec<usize>)>, path: String, i: usize, o: usize| {
        out.push((format!("{path}.weight"), vec![i, o]));
        out.push((format!("{path}.bias"), vec![o]));
    };
    let norm = |out: &mut Vec<(String, Vec<usize>)>, path: String| {
        out.push((format!("{path}.gamma"), vec![d]));
        out.push((format!("{path}.beta"), vec![d]));
    };
    let block = |out: &mut Vec<(String, Vec<usize>)>, path: String, layer: &LayerConfig, cross: bool| {
        let with_norm = layer.norm != NormPlacement::None;
        let attention = |out: &mut Vec<(String, Vec<usize>)>, name: &str, norm_name: &str| {
            for w in ["wq", "wk", "wv", "wo"] {
                linear(out, format!("{path}.{name}.{w}"), d, d);
            }
            if name == "attention" && layer.attention_kind == super::AttentionKind::Convolution {
                out.push((format!("{path}.{name}.kernel"), vec![layer.heads, layer.window.max(1)]));
            }
            if with_norm {
                norm(out, format!("{path}.{norm_name}"));
            }
        };
        if layer.attention {
            attention(out, "attention", "attention_norm");
        }
        if cross && layer.cross_attention {
            attention(out, "cross_attention", "cross_norm");
        }
        if layer.ffn {
            linear(out, format!("{path}.ffn.up"), d, layer.d_ff);
            linear(out, format!("{path}.ffn.down"), layer.d_ff, d);
            if with_norm {
                norm(out, format!("{path}.ffn_norm"));
            }
        }
    };
    if model.embedding_norm {
        norm(&mut out, "emb_norm".into());
    }
    let family = model.family;
    for (i, layer) in model.layers.iter().enumerate() {
        block(&mut out, format!("layers.{i}"), layer, family == ModelFamily::EncoderDecoder);
    }
    if model.has_final_norm() {
        norm(&mut out, "final_norm".into());
    }
    if family == ModelFamily::EncoderDecoder {
        for (i, layer) in model.encoder_layers.iter().enumerate() {
            block(&mut out, format!("encoder.{i}"), layer, false);
        }
        if model.encoder_layers.iter().any(|l| l.norm == NormPlacement::Pre) {
            norm(&mut out, "encoder_norm".into());
        }
    }
    if family == ModelFamily::Rnn {
        // burn names the cell's enum variant in the path: `rnn.encoder.Gru.update_gate…`.
        let (cell, gates): (&str, &[&str]) = match model.rnn_cell {
            RnnCell::Gru => ("Gru", &["update_gate", "reset_gate", "new_gate"]),
            RnnCell::Lstm => ("Lstm", &["input_gate", "forget_gate", "output_gate", "cell_gate"]),
        };
        for side in ["encoder", "decoder"] {
            for gate in gates {
                linear(&mut out, format!("rnn.{side}.{cell}.{gate}.input_transform"), d, d);
                linear(&mut out, format!("rnn.{side}.{cell}.{gate}.hidden_transform"), d, d);
            }
        }
        if model.rnn_attention == RnnAttention::Additive {
            linear(&mut out, "rnn.score_query".into(), d, d);
            linear(&mut out, "rnn.score_key".into(), d, d);
            linear(&mut out, "rnn.score_v".into(), d, 1);
        }
        if model.rnn_attention != RnnAttention::None {
            linear(&mut out, "rnn.combine".into(), 2 * d, d);
        }
    }
    if model.head_transform {
        linear(&mut out, "head_transform.dense".into(), d, d);
        norm(&mut out, "head_transform.norm".into());
    }
    if model.tied_embeddings {
        out.push(("head_bias".into(), vec![vocab]));
    } else {
        linear(&mut out, "head".into(), d, vocab);
    }
    out
}

/// Whether going from `old` to `new` keeps every trained weight.
pub fn keeps_all_weights(old: &ModelConfig, old_vocab: usize, new: &ModelConfig, new_vocab: usize) -> bool {
    let before = param_layout(old, old_vocab);
    param_layout(new, new_vocab)
        .iter()
        .all(|p| before.contains(p))
}
