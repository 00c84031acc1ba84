//! A config change in the words of the interface: "Layer 0 · mask: causal →
//! bidirectional", "层 0 · 掩码：因果 → 双向". The knob and value names are the
//! model editor's and top bar's own labels in the current language, so the note
//! after a try names what the learner sees on screen, not a JSON path.

use crate::t;

/// One changed knob (`path` as `patch::diff` writes it) with its old and new
/// values (JSON text), in the interface's words.
pub fn describe(path: &str, old: &str, new: &str) -> String {
    let (layer, knob) = split_layer(path);
    let name = knob_label(knob).unwrap_or_else(|| knob.to_string());
    let name = match layer {
        Some(layer) => t!("change-in-layer", layer = layer, knob = name),
        None => name,
    };
    t!("change-line", knob = name, old = value_label(knob, old), new = value_label(knob, new))
}

/// One knob at one value in the interface's words: "Layer 0 · kind: softmax".
pub fn setting(path: &str, value: &str) -> String {
    if path == "model.layers" {
        return t!("change-layer-setting", count = value);
    }
    if path == "model.encoder_layers" {
        return t!("change-encoder-layer-setting", count = value);
    }
    let knob = path.strip_prefix("model.layers[*].").unwrap_or_else(|| split_layer(path).1);
    t!("change-setting", knob = knob_name(path), value = value_label(knob, value))
}

/// A knob path as the interface names it: `model.layers[*].heads` → "every layer ·
/// heads", `seed` → "Seed" (for the lock notices).
pub fn knob_name(path: &str) -> String {
    if let Some(knob) = path.strip_prefix("model.layers[*].") {
        return t!("change-in-layer", layer = t!("change-every-layer"), knob = knob_label(knob).unwrap_or_else(|| knob.to_string()));
    }
    let (layer, knob) = split_layer(path);
    let knob = if knob == "task" { "task.kind" } else { knob };
    let name = knob_label(knob).unwrap_or_else(|| knob.to_string());
    match layer {
        Some(layer) => t!("change-in-layer", layer = layer, knob = name),
        None => name,
    }
}

/// Several knob paths, named as the interface names them, comma-separated.
pub fn knob_names(paths: &[String]) -> String {
    paths.iter().map(|p| knob_name(p)).collect::<Vec<_>>().join(t!("change-list-separator").as_str())
}

/// `model.layers[2].mask` → (Some("Layer 2"), "mask"), `model.encoder_layers[0].heads`
/// → (Some("Encoder layer 0"), "heads"), `lr` → (None, "lr"): the layer as its card names it.
fn split_layer(path: &str) -> (Option<String>, &str) {
    for (prefix, key) in [("model.layers[", "editor-layer"), ("model.encoder_layers[", "editor-encoder-layer")] {
        if let Some(rest) = path.strip_prefix(prefix)
            && let Some((index, knob)) = rest.split_once("].")
            && let Ok(index) = index.parse::<usize>()
        {
            return (Some(t!(key, index = index)), knob);
        }
    }
    (None, path)
}

/// The label the editor or the top bar shows for a knob.
fn knob_label(knob: &str) -> Option<String> {
    let key = match knob {
        "task.kind" => "top-task",
        "task.length" => "task-length",
        "task.symbols" => "task-symbols",
        "task.corpus" => "task-corpus",
        "seed" => "top-seed",
        "backend" => "top-backend",
        "model.positional" => "editor-positions",
        "model.family" => "editor-family",
        "model.rnn_cell" => "editor-rnn-cell",
        "model.rnn_attention" => "editor-rnn-attention",
        "cross_attention" => "editor-cross-attention",
        "model.max_len" => "editor-max-length",
        "model.dropout" => "editor-dropout",
        "model.layer_norm_eps" => "editor-layer-norm-eps",
        "model.token_types" => "editor-token-types",
        "model.embedding_norm" => "editor-embedding-norm",
        "model.tied_embeddings" => "editor-tied-embeddings",
        "model.head_transform" => "editor-head-transform",
        "model.init_scale" => "editor-init-scale",
        "optimizer" => "editor-optimizer",
        "lr" => "editor-learning-rate",
        "warmup_steps" => "editor-warmup-steps",
        "batch_size" => "editor-batch",
        "steps" => "editor-steps",
        "init_from" => "editor-start-from",
        "heads" => "editor-heads",
        "attention" => "editor-attention",
        "attention_kind" => "editor-kind",
        "scale" => "editor-scale",
        "mask" => "editor-mask",
        "window" => "editor-window",
        "ffn" => "editor-feed-forward",
        "activation" => "editor-activation",
        "residual" => "editor-residual",
        "norm" => "editor-layernorm",
        "mask_reading" => "editor-mask-read-as",
        "mask_application" => "editor-mask-applied-by",
        "diagonal_offset" => "editor-diagonal-offset",
        "padding_mask" => "editor-padding-mask-on",
        "ablated_heads" => "editor-ablate-heads",
        "model.d_model" | "d_ff" => return Some(knob.trim_start_matches("model.").to_string()),
        _ => return None,
    };
    Some(t!(key))
}

/// A value as the editor names it: enum choices and on/off in the interface's
/// language, task kinds by their shown name, numbers and text as they are.
fn value_label(knob: &str, json: &str) -> String {
    let plain = json.trim_matches('"');
    if knob == "task.kind" {
        return crate::tasks::TaskKind::from_name(plain).map_or_else(|| plain.to_string(), |k| k.label());
    }
    let key = match plain {
        "true" => "editor-on",
        "false" => "editor-off",
        "null" if knob == "init_from" => "editor-random-weights",
        "causal" => "editor-causal",
        "bidirectional" => "editor-bidirectional",
        "sliding_window" => "editor-sliding-window",
        "uniform_average" => "editor-uniform-average",
        "sinusoidal" => "editor-sinusoidal",
        "learned" => "editor-learned",
        "none" if knob == "model.rnn_attention" => "editor-rnn-fixed-vector",
        "none" => "editor-none",
        "decoder" => "editor-family-decoder",
        "encoder_decoder" => "editor-family-encoder-decoder",
        "rnn" => "editor-family-rnn",
        "dot" => "editor-rnn-dot",
        "additive" => "editor-rnn-additive",
        "gru" => return "GRU".into(),
        "lstm" => return "LSTM".into(),
        "post" => "editor-post",
        "pre" => "editor-pre",
        "keep_is_true" => "editor-true-keep",
        "masked_is_true" => "editor-true-masked",
        "fill_large_negative" => "editor-fill-large-negative",
        "add_neg_infinity" => "editor-add-neg-inf",
        "multiply_after_softmax" => "editor-multiply-after-softmax",
        "keys" => "editor-padding-keys",
        "queries" => "editor-padding-queries",
        "off" => "editor-off",
        "relu" => return "ReLU".into(),
        "gelu" => return "GELU".into(),
        "gelu_tanh" => "editor-gelu-tanh",
        "adam" => return "Adam".into(),
        "adam_w" | "adamw" => return "AdamW".into(),
        "sgd" => return "SGD".into(),
        _ => return plain.to_string(),
    };
    t!(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layer_knob_reads_as_the_editor_labels_it() {
        crate::i18n::set_lang(crate::i18n::Lang::En);
        assert_eq!(describe("model.layers[1].mask", "\"causal\"", "\"bidirectional\""), "Layer 1 · mask: causal → bidirectional");
        assert_eq!(describe("model.encoder_layers[0].mask", "\"bidirectional\"", "\"causal\""), "Encoder layer 0 · mask: bidirectional → causal");
        assert_eq!(describe("model.rnn_attention", "\"none\"", "\"dot\""), "RNN attention: none (fixed vector) → dot product");
        assert_eq!(describe("model.layers[0].cross_attention", "true", "false"), "Layer 0 · cross-attention: on → off");
        assert_eq!(describe("lr", "0.001", "0.0001"), "learning rate: 0.001 → 0.0001");
        assert_eq!(describe("task.kind", "\"char_lm\"", "\"brackets\""), "Task: char_lm → brackets");
        assert_eq!(describe("model.layers[0].scale", "true", "false"), "Layer 0 · scale by 1/√d_k: on → off");
        assert_eq!(knob_names(&["seed".into(), "model.layers[*].heads".into(), "task".into()]), "Seed, every layer · heads, Task");
    }
}
