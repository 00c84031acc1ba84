//! The parameter layout a config implies (module path and shape of every weight),
//! computed without building a model. The window uses it to tell, before applying
//! an edit, whether trained weights survive it; a test checks it against the model.

use super::{ModelConfig, NormPlacement, PositionalEncoding};

/// `(module path, shape)` of every parameter, in model order.
pub fn param_layout(model: &ModelConfig, vocab: usize) -> Vec<(String, Vec<usize>)> {
    let d = model.d_model;
    let mut out: Vec<(String, Vec<usize>)> = vec![("tok_emb".into(), vec![vocab, d])];
    if model.positional == PositionalEncoding::Learned {
        out.push(("pos_emb".into(), vec![model.max_len, d]));
    }
    let linear = |out: &mut Vec<(String, Vec<usize>)>, path: String, i: usize, o: usize| {
        out.push((format!("{path}.weight"), vec![i, o]));
        out.push((format!("{path}.bias"), vec![o]));
    };
    let norm = |out: &mut Vec<(String, Vec<usize>)>, path: String| {
        out.push((format!("{path}.gamma"), vec![d]));
        out.push((format!("{path}.beta"), vec![d]));
    };
    for (i, layer) in model.layers.iter().enumerate() {
        let with_norm = layer.norm != NormPlacement::None;
        if layer.attention {
            for w in ["wq", "wk", "wv", "wo"] {
                linear(&mut out, format!("layers.{i}.attention.{w}"), d, d);
            }
            if with_norm {
                norm(&mut out, format!("layers.{i}.attention_norm"));
            }
        }
        if layer.ffn {
            linear(&mut out, format!("layers.{i}.ffn.up"), d, layer.d_ff);
            linear(&mut out, format!("layers.{i}.ffn.down"), layer.d_ff, d);
            if with_norm {
                norm(&mut out, format!("layers.{i}.ffn_norm"));
            }
        }
    }
    if model.has_final_norm() {
        norm(&mut out, "final_norm".into());
    }
    linear(&mut out, "head".into(), d, vocab);
    out
}

/// Whether going from `old` to `new` keeps every trained weight.
pub fn keeps_all_weights(old: &ModelConfig, old_vocab: usize, new: &ModelConfig, new_vocab: usize) -> bool {
    let before = param_layout(old, old_vocab);
    param_layout(new, new_vocab)
        .iter()
        .all(|p| before.contains(p))
}
