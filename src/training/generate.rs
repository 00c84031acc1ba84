//! Greedy autoregressive generation, measured against the true continuation.
//!
//! For each held-out example: keep the prompt (everything up to the first scored
//! position), then let the model write the rest one token at a time from its own
//! output, and count how many written tokens match the real sequence. Unlike
//! teacher-forced accuracy, this cannot be fooled by a model that peeks ahead or
//! by labels that were not shifted.

use burn::tensor::{Device, Int, Tensor, TensorData};

use crate::model::{Capture, Dropout, Transformer};
use crate::tasks::Batch;

/// Share of scored positions whose greedily generated token equals the real one
/// (NaN when no position could be scored).
pub fn generation_accuracy(model: &Transformer, batch: &Batch, device: &Device) -> f32 {
    let (rows, seq) = (batch.batch_size, batch.seq_len);
    let scored_at = |r: usize, t: usize| batch.loss_weights[r * seq + t] > 0.0;
    // Positions t whose next token (t + 1) is scored; the prompt ends at the first one,
    // but is at least half the sequence when every position is scored (language models).
    let first = (0..seq.saturating_sub(1)).filter(|&t| (0..rows).any(|r| scored_at(r, t) && !batch.padding[r * seq + t + 1])).min().unwrap_or(seq - 1);
    let prompt_end = if first == 0 { seq / 2 } else { first };
    let mut tokens = batch.tokens.clone();
    for position in prompt_end..seq - 1 {
        let width = position + 1;
        let mut prefix = Vec::with_capacity(rows * width);
        for r in 0..rows {
            prefix.extend_from_slice(&tokens[r * seq..r * seq + width]);
        }
        let padding: Vec<bool> = (0..rows).flat_map(|r| batch.padding[r * seq..r * seq + width].to_vec()).collect();
        let input = Tensor::<2, Int>::from_data(TensorData::new(prefix, [rows, width]), device);
        let padding = padding.iter().any(|p| *p).then_some(&padding[..]);
        let out = model.forward(input, padding, Capture::default(), &mut Dropout::off());
        let next = out.logits.slice_dim(1, position..position + 1).argmax(2).reshape([rows]); // [rows]
        let next: Vec<i64> = next.into_data().convert::<i64>().try_into_vec::<i64>().expect("int data");
        for r in 0..rows {
            if !batch.padding[r * seq + position + 1] {
                tokens[r * seq + position + 1] = next[r];
            }
        }
    }
    // A question's answer is not in the input (its next position is the end or
    // padding): compare the model's prediction there with the target instead.
    let input = Tensor::<2, Int>::from_data(TensorData::new(tokens.clone(), [rows, seq]), device);
    let padding: Option<&[bool]> = batch.padding.iter().any(|p| *p).then_some(&batch.padding[..]);
    let out = model.forward(input, padding, Capture::default(), &mut Dropout::off());
    let predictions: Vec<i64> = out.logits.argmax(2).into_data().convert::<i64>().try_into_vec::<i64>().expect("int data");
    let (mut right, mut total) = (0usize, 0usize);
    for r in 0..rows {
        for t in 0..seq {
            if !scored_at(r, t) {
                continue;
            }
            let question = t + 1 == seq || batch.padding[r * seq + t + 1];
            if question {
                total += 1;
                right += usize::from(predictions[r * seq + t] == batch.targets[r * seq + t]);
            } else if t >= prompt_end {
                total += 1;
                right += usize::from(tokens[r * seq + t + 1] == batch.tokens[r * seq + t + 1]);
            }
        }
    }
    if total == 0 { f32::NAN } else { right as f32 / total as f32 }
}

/// Greedy text a model wrote from a prompt, and what each new token cost.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Written {
    /// The new tokens (the prompt not included).
    pub tokens: Vec<u32>,
    /// Wall-clock milliseconds of each new token, the prompt's pass in the first.
    pub ms_per_token: Vec<f64>,
}

impl Written {
    /// Mean milliseconds per new token (NaN for none).
    pub fn mean_ms(&self) -> f64 {
        self.ms_per_token.iter().sum::<f64>() / self.ms_per_token.len() as f64
    }
}

/// Write `count` tokens after `prompt`, always taking the most likely one.
/// Without the cache every token runs the whole text so far through the model;
/// with it, only the new token (the caller checks `cache_support`).
pub fn write_greedy(model: &Transformer, prompt: &[u32], count: usize, cached: bool, device: &Device) -> Written {
    let to_tensor = |ids: &[u32]| {
        let ids: Vec<i64> = ids.iter().map(|&t| t as i64).collect();
        let len = ids.len();
        Tensor::<2, Int>::from_data(TensorData::new(ids, [1, len]), device) // [1, len]
    };
    let last_argmax = |logits: Tensor<3>| {
        let [_, len, _] = logits.dims();
        let next = logits.slice_dim(1, len - 1..len).argmax(2).reshape([1]); // [1]
        next.into_data().convert::<i64>().try_into_vec::<i64>().expect("int data")[0] as u32
    };
    let mut text = prompt.to_vec();
    let mut written = Written { tokens: Vec::with_capacity(count), ms_per_token: Vec::with_capacity(count) };
    let mut cache = model.new_cache();
    for _ in 0..count {
        let started = std::time::Instant::now();
        let logits = if cached {
            // The first call reads the whole prompt; later ones only the newest token.
            let fresh = &text[cache.len()..];
            model.forward_cached(to_tensor(fresh), &mut cache) // [1, fresh, vocab]
        } else {
            model.forward(to_tensor(&text), None, Capture::default(), &mut Dropout::off()).logits // [1, len, vocab]
        };
        let next = last_argmax(logits);
        written.ms_per_token.push(started.elapsed().as_secs_f64() * 1000.0);
        written.tokens.push(next);
        text.push(next);
    }
    written
}
