//! `init_from`: start an experiment from trained weights instead of random ones,
//! from a saved run folder or a model shipped in `assets/pretrained/`.
//!
//! Every parameter whose path and shape match is copied. Token embeddings and the
//! output head are matched by token *label*, not by id, so a model trained on one
//! text can be fine-tuned on another whose alphabet differs: characters both know
//! keep what was learned, characters new to the model start fresh. Learned
//! position rows are copied as far as both models reach.

use std::collections::HashMap;

use burn::module::Param;
use burn::tensor::{Device, Tensor, TensorData};

use crate::model::readback::read_floats;
use crate::config::{ExperimentConfig, resolve_init_from};
use crate::model::{Transformer, transfer_matching};
use crate::runs::{CONFIG_FILE, WEIGHTS_FILE, read_json, read_weights};
use crate::t;
use crate::tasks::Vocab;

/// What starting from trained weights kept.
#[derive(Clone, Debug, PartialEq)]
pub struct InitReport {
    /// Where the weights came from, as `init_from` names it.
    pub from: String,
    /// Parameters copied whole.
    pub kept: usize,
    /// Parameters that start fresh (shape or path differ).
    pub fresh: Vec<String>,
    /// Tokens of this task the source model knew, and tokens new to it.
    pub tokens_known: usize,
    pub tokens_new: usize,
}

impl InitReport {
    /// One line for the status strip or the CLI.
    pub fn describe(&self) -> String {
        let fresh = if self.fresh.is_empty() {
            t!("msg-init-every-weight")
        } else {
            t!("msg-init-some-weights", kept = self.kept, fresh = self.fresh.len(), names = self.fresh.join(", "))
        };
        t!(
            "msg-init-report",
            from = self.from.as_str(),
            kept = fresh,
            known = self.tokens_known,
            new = self.tokens_new
        )
    }
}

/// `fresh` with the trained weights of the run `from` copied in, for a task whose
/// tokens are `vocab`. Fails when the run cannot be read or when nothing of it
/// fits this model.
pub fn start_from(from: &str, vocab: &Vocab, fresh: Transformer, device: &Device) -> Result<(Transformer, InitReport), String> {
    let dir = resolve_init_from(from)?;
    let config: ExperimentConfig = read_json(&dir.join(CONFIG_FILE)).map_err(|e| e.to_string())?;
    let source_task = config.task.build().map_err(|e| format!("{}: {e}", dir.display()))?;
    let source_vocab = source_task.vocab();
    let template = Transformer::new(&config.model, config.model_vocab_size(source_vocab.len()), 0, device).with_source_len(source_task.source_len());
    let source = read_weights(&dir.join(WEIGHTS_FILE), &template).map_err(|e| e.to_string())?;

    // Same-shape tables would be copied by id below; keep their fresh values, since
    // the token and position rows are matched by label and position instead.
    let (fresh_tok, fresh_head, fresh_head_bias, fresh_pos) =
        (fresh.tok_emb.clone(), fresh.head.clone(), fresh.head_bias.clone(), fresh.pos_emb.clone());
    let (mut model, transfer) = transfer_matching(&source, fresh);
    let d = model.config.d_model;
    if d != source.config.d_model {
        return Err(t!(
            "msg-init-d-model-differs",
            dir = dir.display().to_string(),
            source = source.config.d_model,
            d = d
        ));
    }
    let rows = label_rows(source_vocab, vocab);
    // [vocab, d_model]: one row per token.
    model.tok_emb = remap_rows(&source.tok_emb, &fresh_tok, &rows, d, device);
    // [d_model, vocab]: one column per token (and one bias entry).
    if let (Some(from), Some(to), Some(head)) = (&source.head, &fresh_head, model.head.as_mut()) {
        head.weight = remap_columns(&from.weight, &to.weight, &rows, device);
        if let (Some(from_bias), Some(to_bias)) = (&from.bias, &to.bias) {
            head.bias = Some(remap_columns_1d(from_bias, to_bias, &rows, device));
        }
    }
    // A head tied to the token table has only its bias of its own.
    if let (Some(from_bias), Some(to_bias)) = (&source.head_bias, &fresh_head_bias) {
        model.head_bias = Some(remap_columns_1d(from_bias, to_bias, &rows, device));
    }
    if let (Some(from_pos), Some(to_pos)) = (&source.pos_emb, &fresh_pos) {
        let reach = source.config.max_len.min(model.config.max_len);
        let same: Vec<Option<usize>> = (0..model.config.max_len).map(|i| (i < reach).then_some(i)).collect();
        model.pos_emb = Some(remap_rows(from_pos, to_pos, &same, d, device));
    }
    // The token and position tables were just filled in by label and by position.
    let remapped = ["tok_emb", "head.weight", "head.bias", "head_bias", "pos_emb"];
    let total = transfer.kept.len() + transfer.fresh.len();
    let fresh: Vec<String> = transfer.fresh.into_iter().filter(|p| !remapped.contains(&p.as_str())).collect();
    let kept = total - fresh.len();
    if fresh.len() > kept {
        return Err(t!(
            "msg-init-different-model",
            dir = dir.display().to_string(),
            count = fresh.len(),
            names = fresh.join(", ")
        ));
    }
    let tokens_known = rows.iter().filter(|r| r.is_some()).count();
    let report = InitReport { from: from.to_string(), kept, fresh, tokens_known, tokens_new: vocab.len() - tokens_known };
    Ok((model, report))
}

/// For each token of `to`, the id of the token with the same label in `from`.
fn label_rows(from: &Vocab, to: &Vocab) -> Vec<Option<usize>> {
    let index: HashMap<&str, usize> = from.labels().iter().enumerate().map(|(i, l)| (l.as_str(), i)).collect();
    to.labels().iter().map(|l| index.get(l.as_str()).copied()).collect()
}

/// `to`'s `[rows, d]` table with row i replaced by `from`'s row `map[i]` where there is one.
fn remap_rows(from: &Param<Tensor<2>>, to: &Param<Tensor<2>>, map: &[Option<usize>], d: usize, device: &Device) -> Param<Tensor<2>> {
    let source = read_floats(from.val()); // [rows_from · d]
    let mut target = read_floats(to.val()); // [rows_to · d]
    let rows = target.len() / d;
    for (i, j) in map.iter().enumerate().take(rows) {
        if let Some(j) = j {
            target[i * d..(i + 1) * d].copy_from_slice(&source[j * d..(j + 1) * d]);
        }
    }
    Param::from_data(TensorData::new(target, [rows, d]), device)
}

/// `to`'s `[d, cols]` matrix with column i replaced by `from`'s column `map[i]`.
fn remap_columns(from: &Param<Tensor<2>>, to: &Param<Tensor<2>>, map: &[Option<usize>], device: &Device) -> Param<Tensor<2>> {
    let [d, cols_from] = from.val().dims();
    let [_, cols_to] = to.val().dims();
    let source = read_floats(from.val()); // [d · cols_from]
    let mut target = read_floats(to.val()); // [d · cols_to]
    for r in 0..d {
        for (i, j) in map.iter().enumerate().take(cols_to) {
            if let Some(j) = j {
                target[r * cols_to + i] = source[r * cols_from + j];
            }
        }
    }
    Param::from_data(TensorData::new(target, [d, cols_to]), device)
}

/// `to`'s `[cols]` vector with entry i replaced by `from`'s entry `map[i]`.
fn remap_columns_1d(from: &Param<Tensor<1>>, to: &Param<Tensor<1>>, map: &[Option<usize>], device: &Device) -> Param<Tensor<1>> {
    let source = read_floats(from.val()); // [cols_from]
    let mut target = read_floats(to.val()); // [cols_to]
    let cols = target.len();
    for (i, j) in map.iter().enumerate().take(cols) {
        if let Some(j) = j {
            target[i] = source[*j];
        }
    }
    Param::from_data(TensorData::new(target, [cols]), device)
}
