//! One or two sentences per knob for tooltips: what it does, and which lesson
//! shows it happening. Each constant is the key of its Fluent message (assets/i18n/*/editor.ftl):
//! show it with `help::text(help::NAME)`, which adds the glossary's terms for the knob.

/// The tooltip of the knob whose help key is `key`, in the current language,
/// followed by the glossary entries that explain that knob (built once per
/// language: the editor shows dozens every frame).
pub fn text(key: &str) -> String {
    let lang = crate::i18n::lang();
    // Its own key space: the tooltip is the message plus the glossary lines.
    crate::i18n::cached(lang, &format!("knob-help:{key}"), || text_in(key, lang))
}

/// `text` in a given language.
pub fn text_in(key: &str, lang: crate::i18n::Lang) -> String {
    let mut text = crate::i18n::format_in(lang, key, None).unwrap_or_else(|| crate::i18n::message(key, None));
    let knob = key.trim_start_matches("editor-help-").replace('-', "_");
    let knob = match knob.as_str() {
        "ablate" => "ablated_heads".to_string(),
        "warmup" => "warmup_steps".to_string(),
        other => other.to_string(),
    };
    for term in crate::i18n::glossary::for_knob(&knob) {
        text.push_str(&format!("\n• {}: {}", term.name(lang), term.meaning(lang)));
    }
    text
}

pub const D_MODEL: &str = "editor-help-d-model";
pub const MAX_LEN: &str = "editor-help-max-len";
pub const POSITIONAL: &str = "editor-help-positional";
pub const DROPOUT: &str = "editor-help-dropout";
pub const INIT_SCALE: &str = "editor-help-init-scale";
pub const SEED: &str = "editor-help-seed";
pub const HEADS: &str = "editor-help-heads";
pub const ATTENTION: &str = "editor-help-attention";
pub const ATTENTION_KIND: &str = "editor-help-attention-kind";
pub const SCALE: &str = "editor-help-scale";
pub const MASK: &str = "editor-help-mask";
pub const WINDOW: &str = "editor-help-window";
pub const FFN: &str = "editor-help-ffn";
pub const D_FF: &str = "editor-help-d-ff";
pub const ACTIVATION: &str = "editor-help-activation";
pub const RESIDUAL: &str = "editor-help-residual";
pub const NORM: &str = "editor-help-norm";
pub const TASK: &str = "editor-help-task";
pub const PRESET: &str = "editor-help-preset";
pub const BACKEND: &str = "editor-help-backend";
pub const LR: &str = "editor-help-lr";
pub const BATCH: &str = "editor-help-batch";
pub const STEPS: &str = "editor-help-steps";
pub const INIT_FROM: &str = "editor-help-init-from";
pub const MASK_READING: &str = "editor-help-mask-reading";
pub const MASK_APPLICATION: &str = "editor-help-mask-application";
pub const DIAGONAL_OFFSET: &str = "editor-help-diagonal-offset";
pub const PADDING_MASK: &str = "editor-help-padding-mask";
pub const OPTIMIZER: &str = "editor-help-optimizer";
pub const WARMUP: &str = "editor-help-warmup";

pub const ABLATE: &str = "editor-help-ablate";
pub const FAMILY: &str = "editor-help-family";
pub const LAYER_NORM_EPS: &str = "editor-help-layer-norm-eps";
pub const TOKEN_TYPES: &str = "editor-help-token-types";
pub const EMBEDDING_NORM: &str = "editor-help-embedding-norm";
pub const TIED_EMBEDDINGS: &str = "editor-help-tied-embeddings";
pub const HEAD_TRANSFORM: &str = "editor-help-head-transform";
pub const RNN_CELL: &str = "editor-help-rnn-cell";
pub const RNN_ATTENTION: &str = "editor-help-rnn-attention";
pub const CROSS_ATTENTION: &str = "editor-help-cross-attention";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_knob_tooltip_carries_the_glossary_terms_for_it() {
        use crate::i18n::Lang;
        let tip = text_in(MASK, Lang::En);
        assert!(tip.starts_with(&crate::i18n::format_in(Lang::En, MASK, None).unwrap()));
        assert!(tip.contains("causal mask (因果掩码)"), "{tip}");
        let zh = text_in(HEADS, Lang::Zh);
        assert!(zh.contains("多头注意力（multi-head attention）"), "{zh}");
    }
}
