//! A session's held-out evaluations: of the model as trained, or with heads
//! ablated, on the evaluation split or one half of the held-out split. No
//! dropout, no gradients; a chunk of the held-out set at a time.

use burn::module::Module;
use burn::tensor::Tensor;

use super::Session;
use crate::model::readback::{read_floats, read_ints};
use crate::model::{Capture, Dropout, SelfAttention, Transformer};
use crate::tasks::Split;
use crate::training::chunks::batch_tensors;
use crate::training::events::EvalMetrics;
use crate::training::loss::scored_cross_entropy;

/// Largest evaluation chunk pushed through the model at once.
const EVAL_CHUNK: usize = crate::config::EVAL_CHUNK_ROWS;

impl Session {
    /// Held-out evaluation of the trained model with one head's output zeroed
    /// (None when that layer has no such head). The model is left as it was.
    pub fn evaluate_with_head_ablated(&mut self, layer: usize, head: usize) -> Option<EvalMetrics> {
        self.evaluate_with_heads_ablated(layer, &[head])
    }

    /// The held-out evaluation with the listed heads of one layer zeroed together
    /// (None when the layer has no attention or a head is not there).
    pub fn evaluate_with_heads_ablated(&mut self, layer: usize, heads: &[usize]) -> Option<EvalMetrics> {
        fn attention<'m>(model: &'m mut Transformer, layer: usize, heads: &[usize]) -> Option<&'m mut SelfAttention> {
            model.layers.get_mut(layer)?.attention.as_mut().filter(|a| heads.iter().all(|h| *h < a.heads))
        }
        // Snapshot layers are attention units; only a decoder's are its layers.
        if self.config.model.family != crate::config::ModelFamily::Decoder {
            return None;
        }
        let before = attention(self.model_mut()?, layer, heads)?.ablated.clone();
        attention(self.model_mut()?, layer, heads)?.ablated.extend_from_slice(heads);
        // Measured, not recorded: the run's history keeps the model's own evaluations.
        let eval = self.measure_held_out(Split::Eval);
        attention(self.model_mut()?, layer, heads)?.ablated = before;
        Some(eval)
    }

    /// Loss and accuracy on the fixed held-out set (no dropout, no gradients).
    pub fn evaluate(&mut self) -> EvalMetrics {
        let metrics = self.measure_held_out(Split::Eval);
        let metrics = EvalMetrics { generation_loss: self.generation_loss_given(metrics.loss), ..metrics };
        self.history.push_eval(metrics.record());
        metrics
    }

    /// Loss and accuracy on `eval_size` examples of one half of the held-out
    /// split (`Validation` or `Test`), without recording them in the history.
    pub fn evaluate_on(&self, split: Split) -> EvalMetrics {
        self.measure_held_out(split)
    }

    pub(super) fn measure_held_out(&self, split: Split) -> EvalMetrics {
        let device = &self.backend.device;
        let (mut loss_sum, mut hits, mut scored_total) = (0.0f64, 0.0f64, 0usize);
        let mut sequences_right = 0usize;
        let mut lengths = crate::training::length_tally::LengthTally::new(self.held_out_task());
        // The held-out set is drawn a chunk at a time: never all in memory at once.
        // The fused CPU step's forward pass where it trains (the same sums to
        // rounding, several times faster), else the composed model's.
        let fused = self.backend.info.composed_because.is_none();
        let model = (!fused).then(|| self.model().valid());
        for chunk in crate::tasks::held_out_chunks(self.held_out_task(), split, self.config.eval_size, EVAL_CHUNK) {
            let (rows, seq) = (chunk.batch_size, chunk.seq_len);
            let scored = chunk.scored();
            let predictions: Vec<Option<u32>> = if fused {
                let evaluated = crate::training::fused::evaluate(self.model(), &chunk, crate::training::chunks::CHUNK_ROWS);
                loss_sum += evaluated.loss_sum;
                hits += evaluated.correct;
                evaluated.predictions
            } else {
                let (tokens, targets, weights) = batch_tensors(&chunk, device);
                let padding = chunk.has_padding().then_some(&chunk.padding[..]);
                let out = model.as_ref().expect("the composed model").forward(tokens, padding, Capture::default(), &mut Dropout::off());
                let result = scored_cross_entropy(out.logits, targets, weights, scored);
                let summary = read_floats(Tensor::cat(vec![result.loss, result.correct], 0));
                loss_sum += summary[0] as f64 * scored as f64;
                hits += summary[1] as f64;
                read_ints(result.predictions).into_iter().map(|p| u32::try_from(p).ok()).collect()
            };
            scored_total += scored;
            let right_at = |i: usize| predictions[i].map(i64::from) == Some(chunk.targets[i]);
            for row in 0..rows {
                let span = row * seq..(row + 1) * seq;
                let right = span.clone().all(|i| chunk.loss_weights[i] == 0.0 || right_at(i));
                sequences_right += right as usize;
                if let Some(words) = self.held_out_task().source_words(&chunk.padding[span.clone()]) {
                    let scored: Vec<bool> = span.clone().filter(|&i| chunk.loss_weights[i] > 0.0).map(right_at).collect();
                    lengths.add(words, &scored);
                }
            }
        }
        // With nothing scored the numbers are undefined: NaN, never 0.
        let per_scored = |x: f64| if scored_total == 0 { f32::NAN } else { (x / scored_total as f64) as f32 };
        let metrics = EvalMetrics {
            step: self.step,
            loss: per_scored(loss_sum),
            accuracy: per_scored(hits),
            sequence_accuracy: if self.config.eval_size == 0 { f32::NAN } else { sequences_right as f32 / self.config.eval_size as f32 },
            generation_loss: f32::NAN,
            by_length: lengths.buckets(),
        };
        metrics
    }
}
