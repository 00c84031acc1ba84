//! One forward pass of an opened checkpoint over one or two sentences, handed back
//! as plain numbers laid out as `transformers` lays them out, so the two can be
//! compared entry by entry: attentions `[layer][sequence][head][query][key]`,
//! hidden states `[layer + 1][sequence][token][d_model]` (index 0: the embeddings).

use crate::t;
use burn::tensor::{Int, Tensor, TensorData};
use serde::Serialize;

use super::Pretrained;
use super::hf_config::Architecture;
use crate::model::{Capture, Dropout};

/// Everything `inspect` prints.
#[derive(Clone, Debug, Serialize)]
pub struct Inspection {
    /// Per sequence, padded to the longest with the pad token.
    pub tokens: Vec<Vec<String>>,
    pub input_ids: Vec<Vec<u32>>,
    /// 1 for a real token, 0 for padding.
    pub attention_mask: Vec<Vec<u8>>,
    /// `[layer][sequence][head][query][key]`
    pub attentions: Vec<Vec<Vec<Vec<Vec<f32>>>>>,
    /// `[layer + 1][sequence][token][d_model]`; GPT-2's last entry is after its final LayerNorm.
    pub hidden_states: Vec<Vec<Vec<Vec<f32>>>>,
    /// Tokens cut per sequence to fit the model's positions.
    pub truncated: Vec<usize>,
    pub predictions: Predictions,
}

/// What the model itself says about the text.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Predictions {
    /// BERT: the five likeliest tokens at each `[MASK]`.
    MaskFill(Vec<MaskGuess>),
    /// GPT-2: the first sentence continued greedily (with the KV cache).
    Continuation { tokens: Vec<String>, text: String },
    /// Why there are none (no `[MASK]` typed, no masked-LM head).
    None(String),
}

#[derive(Clone, Debug, Serialize)]
pub struct MaskGuess {
    /// Which sequence and position holds the `[MASK]`.
    pub sequence: usize,
    pub position: usize,
    /// (token, probability), likeliest first.
    pub top: Vec<(String, f32)>,
}

/// How many tokens GPT-2 writes after the text.
pub const CONTINUATION_TOKENS: usize = 10;

impl Pretrained {
    /// Tokenize `texts` (one or two), pad them to one length, and run the model.
    pub fn inspect(&self, texts: &[&str]) -> Result<Inspection, String> {
        let max_len = self.config.model.max_len;
        let encoded = texts.iter().map(|t| self.tokenizer.encode(t, max_len)).collect::<Result<Vec<_>, _>>()?;
        if encoded.is_empty() || encoded.iter().any(|e| e.ids.is_empty()) {
            return Err(t!("msg-pretrained-empty-text"));
        }
        let seq = encoded.iter().map(|e| e.ids.len()).max().unwrap_or(0);
        let batch = encoded.len();
        let (pad_id, pad_token) = self.tokenizer.pad.clone();
        let mut tokens = Vec::new();
        let mut input_ids = Vec::new();
        let mut attention_mask = Vec::new();
        for e in &encoded {
            let pad = seq - e.ids.len();
            input_ids.push(e.ids.iter().copied().chain(std::iter::repeat_n(pad_id, pad)).collect::<Vec<u32>>());
            tokens.push(e.tokens.iter().cloned().chain(std::iter::repeat_n(pad_token.clone(), pad)).collect::<Vec<String>>());
            attention_mask.push(std::iter::repeat_n(1u8, e.ids.len()).chain(std::iter::repeat_n(0, pad)).collect::<Vec<u8>>());
        }
        let padding: Vec<bool> = attention_mask.iter().flatten().map(|m| *m == 0).collect();
        let flat: Vec<i64> = input_ids.iter().flatten().map(|id| *id as i64).collect();
        let ids = Tensor::<2, Int>::from_data(TensorData::new(flat, [batch, seq]), &self.device); // [batch, seq]

        let model = &self.model;
        let embedded = model.embed(ids, 0); // [batch, seq, d_model]
        let capture = Capture { attention: true, trace: None, hidden: true };
        let out = model.forward_embedded(embedded.clone(), Some(&padding), capture, &mut Dropout::off());
        let mut layers_out = out.hidden;
        // transformers hands back GPT-2's last hidden state after ln_f.
        if let Some(norm) = &model.final_norm
            && let Some(last) = layers_out.pop()
        {
            layers_out.push(norm.forward(last)); // [batch, seq, d_model]
        }
        let hidden_states = std::iter::once(embedded).chain(layers_out).map(to_nested3).collect();
        let attentions = out.attention.into_iter().map(|a| a.map(to_nested4).unwrap_or_default()).collect();
        let predictions = self.predictions(&encoded, &input_ids, out.logits)?;
        Ok(Inspection {
            tokens,
            input_ids,
            attention_mask,
            attentions,
            hidden_states,
            truncated: encoded.iter().map(|e| e.truncated).collect(),
            predictions,
        })
    }

    fn predictions(&self, encoded: &[super::tokenize::Encoded], input_ids: &[Vec<u32>], logits: Tensor<3>) -> Result<Predictions, String> {
        match self.config.architecture {
            Architecture::Bert => {
                if !self.has_lm_head {
                    return Ok(Predictions::None(t!("msg-pretrained-no-mlm-head", class = self.config.class.as_str())));
                }
                let Some((mask_id, mask_token)) = self.tokenizer.mask.clone() else {
                    return Ok(Predictions::None(t!("msg-pretrained-no-mask-token")));
                };
                let [_, seq, vocab] = logits.dims();
                let values: Vec<f32> = logits.into_data().convert::<f32>().try_to_vec::<f32>().expect("f32 logits");
                let mut guesses = Vec::new();
                for (s, ids) in input_ids.iter().enumerate() {
                    for (position, _) in ids.iter().enumerate().take(encoded[s].ids.len()).filter(|(_, id)| **id == mask_id) {
                        let row = &values[(s * seq + position) * vocab..(s * seq + position + 1) * vocab];
                        guesses.push(MaskGuess { sequence: s, position, top: self.top5(row) });
                    }
                }
                if guesses.is_empty() {
                    return Ok(Predictions::None(t!("msg-pretrained-type-mask", mask = mask_token.as_str())));
                }
                Ok(Predictions::MaskFill(guesses))
            }
            Architecture::Gpt2 | Architecture::Workbench => self.continue_greedily(&encoded[0].ids),
        }
    }

    /// Softmax over a row of logits, the five likeliest tokens.
    fn top5(&self, row: &[f32]) -> Vec<(String, f32)> {
        let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let sum: f32 = row.iter().map(|v| (v - max).exp()).sum();
        let mut order: Vec<usize> = (0..row.len()).collect();
        order.sort_by(|a, b| row[*b].total_cmp(&row[*a]));
        order.into_iter().take(5).map(|i| (self.tokenizer.token(i as u32), (row[i] - max).exp() / sum)).collect()
    }

    /// GPT-2 writes on after `ids`, one token at a time, reading its KV cache.
    fn continue_greedily(&self, ids: &[u32]) -> Result<Predictions, String> {
        let model = &self.model;
        model.cache_support()?;
        let room = self.config.model.max_len.saturating_sub(ids.len()).min(CONTINUATION_TOKENS);
        let mut cache = model.new_cache();
        let prompt = Tensor::<2, Int>::from_data(TensorData::new(ids.iter().map(|i| *i as i64).collect::<Vec<_>>(), [1, ids.len()]), &self.device); // [1, n]
        let mut logits = model.forward_cached(prompt, &mut cache); // [1, n, vocab]
        let mut written = Vec::new();
        for _ in 0..room {
            let [_, n, vocab] = logits.dims();
            let last: Vec<f32> = logits.slice_dim(1, n - 1..n).into_data().convert::<f32>().try_to_vec::<f32>().expect("f32 logits");
            let next = (0..vocab).max_by(|a, b| last[*a].total_cmp(&last[*b]).then(b.cmp(a))).unwrap_or(0) as u32;
            written.push(next);
            let step = Tensor::<2, Int>::from_data(TensorData::new(vec![next as i64], [1, 1]), &self.device); // [1, 1]
            logits = model.forward_cached(step, &mut cache); // [1, 1, vocab]
        }
        Ok(Predictions::Continuation { tokens: written.iter().map(|id| self.tokenizer.token(*id)).collect(), text: self.tokenizer.decode(&written) })
    }
}

/// `[batch, seq, d]` -> nested vectors.
fn to_nested3(t: Tensor<3>) -> Vec<Vec<Vec<f32>>> {
    let [b, s, d] = t.dims();
    let v: Vec<f32> = t.into_data().convert::<f32>().try_to_vec::<f32>().expect("f32");
    (0..b).map(|i| (0..s).map(|j| v[(i * s + j) * d..(i * s + j + 1) * d].to_vec()).collect()).collect()
}

/// `[batch, heads, seq, seq]` -> nested vectors.
fn to_nested4(t: Tensor<4>) -> Vec<Vec<Vec<Vec<f32>>>> {
    let [b, h, q, k] = t.dims();
    let v: Vec<f32> = t.into_data().convert::<f32>().try_to_vec::<f32>().expect("f32");
    (0..b)
        .map(|i| (0..h).map(|j| (0..q).map(|r| {
            let start = ((i * h + j) * q + r) * k;
            v[start..start + k].to_vec()
        }).collect()).collect())
        .collect()
}
