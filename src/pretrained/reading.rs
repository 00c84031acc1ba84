//! What the window shows of an opened checkpoint, as plain data: the model's
//! description, and one reading of typed sentences as one attention snapshot per
//! sentence (the same kind the toy model's views draw), the predictions and, for
//! BERT, the [CLS] vector against the mean of the token vectors.

use serde::Serialize;

use super::inspect::{Inspection, Predictions};
use super::{Architecture, Pretrained};
use crate::config::MaskKind;
use crate::model::mask::KeepMask;
use crate::training::AttentionSnapshot;

/// The opened model, described.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PretrainedInfo {
    pub dir: String,
    /// `BertForMaskedLM`, `GPT2LMHeadModel`, …
    pub class: String,
    pub bert: bool,
    pub layers: usize,
    pub heads: usize,
    pub d_model: usize,
    pub max_len: usize,
    pub vocab: usize,
    pub parameters: usize,
    /// The file the tokenizer came from.
    pub tokenizer: String,
    pub has_lm_head: bool,
    pub open_ms: f64,
    /// The workbench knobs that express the architecture, as (knob, value).
    pub knobs: Vec<(String, String)>,
}

/// [CLS] against the mean of the token vectors, from the last layer (BERT, §5.1).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SentenceVectors {
    /// Per sentence: cosine between its [CLS] vector and its mean token vector.
    pub cls_vs_mean: Vec<f32>,
    /// Between the two sentences (None with one): cosine of their [CLS] vectors,
    /// and of their mean vectors.
    pub cls_between: Option<f32>,
    pub mean_between: Option<f32>,
    /// Per sentence: the two vectors' lengths.
    pub cls_norms: Vec<f32>,
    pub mean_norms: Vec<f32>,
}

/// One reading of one or two sentences.
#[derive(Clone, Debug, Serialize)]
pub struct PretrainedReading {
    pub texts: Vec<String>,
    /// One per sentence, padded to the batch's length: every layer's heads, and the
    /// masks the model applied and intended.
    pub snapshots: Vec<AttentionSnapshot>,
    pub predictions: Predictions,
    pub vectors: Option<SentenceVectors>,
    pub truncated: Vec<usize>,
    pub forward_ms: f64,
}

impl Pretrained {
    pub fn info(&self, open_ms: f64) -> PretrainedInfo {
        let m = &self.config.model;
        let layer = &m.layers[0];
        let knobs = [
            ("model.layers[*].norm", format!("{:?}", layer.norm).to_lowercase()),
            ("model.layers[*].mask", if layer.mask == MaskKind::Causal { "causal".to_string() } else { "bidirectional".to_string() }),
            ("model.layers[*].activation", format!("{:?}", layer.activation)),
            ("model.layer_norm_eps", format!("{:e}", m.layer_norm_eps)),
            ("model.token_types", m.token_types.to_string()),
            ("model.embedding_norm", m.embedding_norm.to_string()),
            ("model.tied_embeddings", m.tied_embeddings.to_string()),
            ("model.head_transform", m.head_transform.to_string()),
        ];
        PretrainedInfo {
            dir: self.dir.display().to_string(),
            class: self.config.class.clone(),
            bert: self.config.architecture == Architecture::Bert,
            layers: m.layers.len(),
            heads: layer.heads,
            d_model: m.d_model,
            max_len: m.max_len,
            vocab: self.config.vocab_size,
            parameters: burn::module::Module::num_params(&self.model),
            tokenizer: self.tokenizer.source.clone(),
            has_lm_head: self.has_lm_head,
            open_ms,
            knobs: knobs.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        }
    }

    /// Read `texts` and lay the result out for the views.
    pub fn read(&self, texts: &[String]) -> Result<PretrainedReading, String> {
        let started = std::time::Instant::now();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let inspection = self.inspect(&refs)?;
        let forward_ms = started.elapsed().as_secs_f64() * 1e3;
        let snapshots = (0..inspection.tokens.len()).map(|s| self.snapshot(&inspection, s)).collect();
        let vectors = (self.config.architecture == Architecture::Bert).then(|| sentence_vectors(&inspection));
        Ok(PretrainedReading { texts: texts.to_vec(), snapshots, predictions: inspection.predictions.clone(), vectors, truncated: inspection.truncated.clone(), forward_ms })
    }

    /// Sentence `s` of a reading as an attention snapshot.
    fn snapshot(&self, inspection: &Inspection, s: usize) -> AttentionSnapshot {
        let tokens = inspection.tokens[s].clone();
        let seq = tokens.len();
        let padding: Vec<bool> = inspection.attention_mask[s].iter().map(|m| *m == 0).collect();
        let pad = padding.iter().any(|p| *p).then_some((&padding[..], 1));
        let layers = inspection.attentions.iter().map(|layer| Some(layer[s].iter().map(|head| head.iter().flatten().copied().collect()).collect())).collect();
        let config = &self.config.model.layers;
        AttentionSnapshot {
            step: 0,
            tokens,
            predictions: Vec::new(),
            layers,
            masks: config.iter().map(|l| Some(KeepMask::applied(l, seq, pad).keep)).collect(),
            intended_masks: config.iter().map(|l| Some(KeepMask::intended(l, seq, pad).keep)).collect(),
            padding,
            names: Vec::new(),
            blocks: Vec::new(),
        }
    }
}

/// The last layer's [CLS] (position 0) and mean of the real tokens, per sentence.
pub fn sentence_vectors(inspection: &Inspection) -> SentenceVectors {
    let last = inspection.hidden_states.last().expect("at least the embeddings");
    let mut cls = Vec::new();
    let mut mean = Vec::new();
    for (s, tokens) in last.iter().enumerate() {
        let real: Vec<&Vec<f32>> = tokens.iter().zip(&inspection.attention_mask[s]).filter(|(_, m)| **m == 1).map(|(t, _)| t).collect();
        let d = tokens[0].len();
        let mut m = vec![0f32; d];
        for t in &real {
            for (a, b) in m.iter_mut().zip(t.iter()) {
                *a += b / real.len() as f32;
            }
        }
        cls.push(tokens[0].clone());
        mean.push(m);
    }
    let norm = |v: &[f32]| v.iter().map(|x| x * x).sum::<f32>().sqrt();
    let cosine = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f32>() / (norm(a) * norm(b)).max(f32::MIN_POSITIVE);
    SentenceVectors {
        cls_vs_mean: cls.iter().zip(&mean).map(|(c, m)| cosine(c, m)).collect(),
        cls_between: (cls.len() == 2).then(|| cosine(&cls[0], &cls[1])),
        mean_between: (mean.len() == 2).then(|| cosine(&mean[0], &mean[1])),
        cls_norms: cls.iter().map(|c| norm(c)).collect(),
        mean_norms: mean.iter().map(|m| norm(m)).collect(),
    }
}
