//! What a session measures about reading a source: where each target word's
//! attention goes (the alignment), and how much gradient reaches each source
//! word from the last output (the path length of §1.1).

use burn::module::Module;
use burn::tensor::{Int, Tensor, TensorData};

use super::chunks::batch_tensors;
use super::loss::scored_cross_entropy;
use super::session::Session;
use crate::model::readback::read_floats;
use crate::model::{Capture, Dropout, attention_units};
use crate::t;
use crate::tasks::{Batch, Example, eval_set};

/// Held-out sentences each measurement reads.
const SENTENCES: usize = 64;

/// The cross-attention head (or the RNN's alignment) that follows the task's
/// alignment most closely.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Alignment {
    /// Index into `attention_units` (and the snapshot's layers).
    pub unit: usize,
    pub head: usize,
    /// Mean over held-out target words of the weight on the source word they
    /// translate (1 = every word reads only its own source word).
    pub weight: f64,
}

/// How much gradient of the last output's loss reaches each source word.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct GradientReach {
    /// By source word (0 = the first real word), the mean over held-out sentences
    /// of ‖∂loss/∂x‖ at that word over the largest at any source word of the sentence.
    pub by_word: Vec<f32>,
    /// The same ratio at the first source word, averaged over the sentences.
    pub first_word: f64,
}

impl Session {
    /// The best-aligned head of any cross-attention unit, on held-out sentences.
    pub fn alignment(&self) -> Result<Alignment, String> {
        let batch = eval_set(self.task.as_ref(), SENTENCES);
        let examples = examples_of(&batch);
        let aligned: Vec<Vec<Option<usize>>> = examples.iter().map(|e| self.task.alignment(e)).collect::<Option<_>>().ok_or_else(|| t!("rep-metric-no-alignment", task = self.config.task.kind.name()))?;
        let units = attention_units(&self.config.model, self.model().source_len);
        let seq = batch.seq_len;
        let model = self.model().valid();
        let (tokens, _, _) = batch_tensors(&batch, &self.backend.device);
        let padding = batch.has_padding().then_some(&batch.padding[..]);
        let out = model.forward(tokens, padding, Capture { attention: true, ..Capture::default() }, &mut Dropout::off());
        let mut best: Option<Alignment> = None;
        for (unit, weights) in out.attention.into_iter().enumerate() {
            let (Some(weights), true) = (weights, units.get(unit).is_some_and(|u| u.is_cross())) else { continue };
            let heads = weights.dims()[1];
            let values = read_floats(weights.flatten::<1>(0, 3)); // [rows · heads · seq · seq]
            for head in 0..heads {
                let (mut sum, mut count) = (0.0f64, 0usize);
                for (r, aligned) in aligned.iter().enumerate() {
                    for (q, source) in aligned.iter().enumerate() {
                        let Some(k) = source else { continue };
                        sum += values[((r * heads + head) * seq + q) * seq + k] as f64;
                        count += 1;
                    }
                }
                if count > 0 && best.as_ref().is_none_or(|b| sum / count as f64 > b.weight) {
                    best = Some(Alignment { unit, head, weight: sum / count as f64 });
                }
            }
        }
        best.ok_or_else(|| t!("rep-metric-no-cross-attention"))
    }

    /// Gradient of the loss at each held-out sentence's last scored position with
    /// respect to the embedded input, at every real source word.
    pub fn gradient_reach(&self) -> Result<GradientReach, String> {
        let source_len = self.task.source_len().ok_or_else(|| t!("rep-metric-no-source", task = self.config.task.kind.name()))?;
        let batch = eval_set(self.task.as_ref(), SENTENCES);
        let (rows, seq) = (batch.batch_size, batch.seq_len);
        let device = self.train_device();
        let model = self.model();
        let tokens = Tensor::<2, Int>::from_data(TensorData::new(batch.tokens.clone(), [rows, seq]), device); // [rows, seq]
        let x = model.embed(tokens, 0).detach().require_grad(); // [rows, seq, d_model]
        let padding = batch.has_padding().then_some(&batch.padding[..]);
        let out = model.forward_embedded(x.clone(), padding, Capture::default(), &mut Dropout::off());
        // Only the last scored position of each sentence counts.
        let mut last_only = vec![0.0f32; rows * seq];
        for r in 0..rows {
            if let Some(t) = (0..seq).rev().find(|&t| batch.loss_weights[r * seq + t] > 0.0) {
                last_only[r * seq + t] = 1.0;
            }
        }
        let (_, targets, _) = batch_tensors(&batch, device);
        let weights = Tensor::<2>::from_data(TensorData::new(last_only, [rows, seq]), device); // [rows, seq]
        let loss = scored_cross_entropy(out.logits, targets, weights, rows).loss;
        let grads = loss.backward();
        let gx = x.grad(&grads).ok_or_else(|| t!("rep-metric-no-gradient"))?; // [rows, seq, d_model]
        let norms = read_floats(gx.powi_scalar(2).sum_dim(2).sqrt().reshape([rows * seq])); // [rows · seq]
        let (mut by_word, mut counts) = (vec![0.0f64; source_len], vec![0usize; source_len]);
        let mut first = Vec::with_capacity(rows);
        for r in 0..rows {
            let words: Vec<usize> = (0..source_len).filter(|&t| !batch.padding[r * seq + t]).collect();
            let largest = words.iter().map(|&t| norms[r * seq + t]).fold(0.0f32, f32::max);
            if words.is_empty() || !(largest > 0.0) {
                continue;
            }
            for (i, &t) in words.iter().enumerate() {
                by_word[i] += (norms[r * seq + t] / largest) as f64;
                counts[i] += 1;
            }
            first.push((norms[r * seq + words[0]] / largest) as f64);
        }
        if first.is_empty() {
            return Err(t!("rep-metric-no-gradient"));
        }
        let used = counts.iter().rposition(|c| *c > 0).map_or(0, |i| i + 1);
        Ok(GradientReach {
            by_word: (0..used).map(|i| (by_word[i] / counts[i].max(1) as f64) as f32).collect(),
            first_word: first.iter().sum::<f64>() / first.len() as f64,
        })
    }
}

/// The batch's rows as examples again (the alignment reads examples).
fn examples_of(batch: &Batch) -> Vec<Example> {
    let seq = batch.seq_len;
    (0..batch.batch_size)
        .map(|r| {
            let span = r * seq..(r + 1) * seq;
            Example {
                tokens: batch.tokens[span.clone()].iter().map(|&t| t as u32).collect(),
                targets: batch.targets[span.clone()].iter().map(|&t| t as u32).collect(),
                loss_mask: batch.loss_weights[span.clone()].iter().map(|&w| w > 0.0).collect(),
                padding: batch.padding[span].to_vec(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::config::preset;
    use crate::training::Session;

    #[test]
    fn a_cross_attention_head_is_traced_on_its_own_mask_and_the_source_measures_are_defined() {
        let mut config = preset("encoder_decoder").unwrap();
        config.task.length = 6;
        config.fit_max_len_to_task();
        let session = Session::new(config).unwrap();
        // Units: encoder 0, decoder 0 · self, decoder 0 · cross.
        let trace = session.trace_head(2, 1).expect("a cross-attention head");
        assert_eq!(trace.name, crate::model::UnitName::DecoderCross(0));
        let seq = trace.tokens.len();
        assert_eq!(seq, 13);
        let visible: Vec<(usize, usize)> = (0..seq * seq).filter(|i| trace.mask[*i]).map(|i| (i / seq, i % seq)).collect();
        assert!(!visible.is_empty() && visible.iter().all(|&(q, k)| q >= 6 && k < 6), "target rows read source columns only: {visible:?}");
        // Step-through draws it on that block: target rows, source columns.
        let [r0, r1, c0, c1] = trace.block.expect("a cross unit has a block");
        assert!(r0 == 6 && r1 <= seq && c1 <= 6 && c0 < c1, "{:?}", trace.block);
        let alignment = session.alignment().expect("translate has an alignment");
        assert_eq!(alignment.unit, 2);
        assert!((0.0..=1.0).contains(&alignment.weight));
        let reach = session.gradient_reach().expect("a seq2seq task has a reach");
        assert!((3..=6).contains(&reach.by_word.len()) && (0.0..=1.0).contains(&reach.first_word), "{reach:?}");
        // A seq2seq model reads whole frames: a probe without its target, or a
        // prompt to write on from, is refused by name (never a crash).
        let mut rnn = preset("rnn").unwrap();
        rnn.task.length = 6;
        rnn.fit_max_len_to_task();
        let mut rnn = Session::new(rnn).unwrap();
        assert!(rnn.set_probe("cat sees dog").unwrap_err().contains('|'));
        assert!(rnn.set_probe("cat sees dog | gato hundo vidas").is_ok());
        let _ = rnn.attention_snapshot();
        // Named as the model family menu names it.
        assert!(rnn.compare_writing("cat sees", 3).unwrap_err().contains(&crate::config::ModelFamily::Rnn.label()));
        // A decoder-only model on a task with no source has neither.
        let mut config = preset("lesson").unwrap();
        config.task = crate::tasks::TaskConfig::for_kind(crate::tasks::TaskKind::Lookup);
        let lookup = Session::new(config).unwrap();
        assert!(lookup.gradient_reach().is_err());
        assert!(lookup.alignment().is_err());
    }
}
