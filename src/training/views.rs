//! What a session shows about itself besides training: attention snapshots on the
//! probe, one head's trace, greedy generation, the leak probes, and its causal twin.

use burn::module::Module;
use burn::tensor::{Int, Tensor, TensorData};

use super::events::AttentionSnapshot;
use super::session::{Session, SessionError};
use crate::model::readback::{read_floats, read_ints};
use crate::model::{Capture, Dropout, attention_units, mask::KeepMask, transfer_matching};

impl Session {
    /// Greedy generation accuracy on (up to 64 of) the held-out sequences.
    pub fn generation_accuracy(&self) -> f32 {
        let batch = crate::tasks::eval_set(self.task.as_ref(), self.config.eval_size.min(64));
        super::generate::generation_accuracy(&self.model().valid(), &batch, &self.backend.device)
    }

    /// The causality probe on this session's model and task.
    pub fn causality_probe(&self) -> crate::probe::LeakReport {
        crate::probe::causality(self.model(), self.task.as_ref(), &self.backend.device, 4, self.config.seed)
    }

    /// The padding probe on this session's model and task.
    pub fn padding_probe(&self) -> crate::probe::LeakReport {
        crate::probe::padding(self.model(), self.task.as_ref(), &self.backend.device, 8, self.config.seed)
    }

    /// This experiment with every layer's mask made causal (and no planted mask bug).
    fn causal_twin_config(&self) -> crate::config::ExperimentConfig {
        let mut config = self.config.clone();
        for layer in &mut config.model.layers {
            let window = layer.mask == crate::config::MaskKind::SlidingWindow;
            *layer = crate::config::LayerConfig {
                mask: if window { layer.mask } else { crate::config::MaskKind::Causal },
                mask_reading: crate::config::MaskReading::KeepIsTrue,
                mask_application: crate::config::MaskApplication::FillLargeNegative,
                diagonal_offset: 0,
                ..layer.clone()
            };
        }
        config
    }

    /// The same weights with every layer's mask made causal (and no planted mask
    /// bug): how the model does when the future is not there to read.
    pub fn causal_twin(&self) -> Result<Session, SessionError> {
        // The weights come from this model: no need to read `init_from`'s.
        let twin_config = crate::config::ExperimentConfig { init_from: None, ..self.causal_twin_config() };
        let mut twin = Session::new(twin_config)?;
        // It evaluates on the same path as this session (composed when asked for).
        if self.backend().info.composed_because.is_some() {
            twin.force_composed();
        }
        let fresh = twin.model().clone();
        twin.set_model(transfer_matching(self.model(), fresh).0);
        Ok(twin)
    }

    /// The held-out loss of the causal twin, given this model's own held-out loss
    /// (the same number when the masks are already causal and sound).
    pub(super) fn generation_loss_given(&self, eval_loss: f32) -> f32 {
        if self.causal_twin_config() == self.config {
            return eval_loss;
        }
        self.causal_twin().map_or(f32::NAN, |mut twin| twin.evaluate().loss)
    }

    /// Mean training loss over the last `n` steps (a steadier number than the last
    /// step); None before the first step.
    pub fn recent_train_loss(&self, n: usize) -> Option<f32> {
        let steps = &self.history().steps;
        let tail = &steps[steps.len().saturating_sub(n)..];
        (!tail.is_empty()).then(|| tail.iter().map(|s| s.loss).sum::<f32>() / tail.len() as f32)
    }

    /// Every layer's and head's attention on the probe sequence.
    pub fn attention_snapshot(&self) -> AttentionSnapshot {
        let model = self.model().valid();
        let device = &self.backend.device;
        let probe = &self.probe;
        let seq = probe.len();
        let tokens = Tensor::<2, Int>::from_data(
            TensorData::new(probe.tokens.iter().map(|&t| t as i64).collect::<Vec<_>>(), [1, seq]),
            device,
        );
        let padding = probe.padding.iter().any(|p| *p).then_some(&probe.padding[..]);
        let capture = Capture {
            attention: true,
            ..Capture::default()
        };
        let out = model.forward(tokens, padding, capture, &mut Dropout::off());
        let predictions = read_ints(out.logits.argmax(2).reshape([seq]));
        let heads: Vec<usize> = out.attention.iter().map(|a| a.as_ref().map_or(0, |w| w.dims()[1])).collect();
        let flat: Vec<Tensor<1>> = out.attention.into_iter().flatten().map(|w| w.flatten::<1>(0, 3)).collect();
        let values = if flat.is_empty() { Vec::new() } else { read_floats(Tensor::cat(flat, 0)) };
        let units = attention_units(&self.config.model, self.model().source_len);
        let mut offset = 0;
        let mut layers = Vec::with_capacity(heads.len());
        let mut masks = Vec::with_capacity(heads.len());
        let mut intended_masks = Vec::with_capacity(heads.len());
        for (unit, &h) in units.iter().zip(&heads) {
            let Some(layer) = unit.layer.as_ref().filter(|_| h > 0) else {
                layers.push(None);
                masks.push(None);
                intended_masks.push(None);
                continue;
            };
            let per_head = seq * seq;
            let maps = (0..h).map(|i| values[offset + i * per_head..offset + (i + 1) * per_head].to_vec()).collect();
            offset += h * per_head;
            layers.push(Some(maps));
            let padding = padding.map(|p| (p, 1));
            masks.push(Some(KeepMask::applied_in(layer, unit.role, seq, padding).keep));
            intended_masks.push(Some(KeepMask::intended_in(layer, unit.role, seq, padding).keep));
        }
        let vocab = self.task.vocab();
        AttentionSnapshot {
            step: self.step,
            tokens: vocab.render(&probe.tokens),
            predictions: predictions.iter().map(|&p| vocab.label(p as u32).to_string()).collect(),
            layers,
            masks,
            intended_masks,
            padding: probe.padding.clone(),
            blocks: units.iter().map(|u| block_of(u.role, &probe.padding)).collect(),
            names: units.into_iter().map(|u| u.name).collect(),
        }
    }

    /// One head's computation on the probe, stage by stage; None if the layer has
    /// no attention or no such head.
    pub fn trace_head(&self, layer: usize, head: usize) -> Option<super::events::HeadTraceData> {
        // `layer` is an attention unit: a layer for the decoder family, an encoder
        // layer or a decoder layer's self- or cross-attention for the encoder–decoder.
        let unit = attention_units(&self.config.model, self.model().source_len).into_iter().nth(layer)?;
        let layer_config = unit.layer.as_ref()?;
        if head >= layer_config.heads || self.config.model.family == crate::config::ModelFamily::Rnn {
            return None;
        }
        let model = self.model().valid();
        let probe = &self.probe;
        let seq = probe.len();
        let tokens = Tensor::<2, Int>::from_data(
            TensorData::new(probe.tokens.iter().map(|&t| t as i64).collect::<Vec<_>>(), [1, seq]),
            &self.backend.device,
        );
        let padding = probe.padding.iter().any(|p| *p).then_some(&probe.padding[..]);
        let capture = Capture { trace: Some((layer, head)), ..Capture::default() };
        let trace = model.forward(tokens, padding, capture, &mut Dropout::off()).trace?;
        let about = super::events::HeadTraceData {
            step: self.step,
            layer,
            name: unit.name,
            block: block_of(unit.role, &probe.padding),
            head,
            d_k: self.config.model.head_dim(layer_config),
            tokens: self.task.vocab().render(&probe.tokens),
            scaled: layer_config.scale,
            ..Default::default()
        };
        Some(with_stages(about, trace, seq))
    }
}

/// `about` (which head, on what) with the stages of `trace` read back, for a
/// sequence of `seq` tokens (batch row 0).
pub fn with_stages(about: super::events::HeadTraceData, trace: crate::model::HeadTrace, seq: usize) -> super::events::HeadTraceData {
    super::events::HeadTraceData {
        q: read_floats(trace.q),
        k: read_floats(trace.k),
        v: read_floats(trace.v),
        raw_scores: read_floats(trace.raw_scores),
        scaled_scores: read_floats(trace.scaled_scores),
        mask: trace.mask.keep[..seq * seq].to_vec(),
        weights: read_floats(trace.weights),
        output: read_floats(trace.output),
        ..about
    }
}

/// The real tokens of a unit's block of the probe, `[rows, columns]` as
/// `[first row, end row, first column, end column]`; None for a whole-sequence unit.
fn block_of(role: crate::model::mask::Role, padding: &[bool]) -> Option<[usize; 4]> {
    use crate::model::mask::Role;
    let real = |range: std::ops::Range<usize>| {
        let mut real = range.filter(|&t| !padding[t]);
        let first = real.next()?;
        Some((first, real.last().unwrap_or(first) + 1))
    };
    let seq = padding.len();
    let (rows, cols) = match role {
        Role::Whole => return None,
        Role::Encoder { source_len } => (real(0..source_len)?, real(0..source_len)?),
        Role::DecoderSelf { source_len } => (real(source_len..seq)?, real(source_len..seq)?),
        Role::Cross { source_len } => (real(source_len..seq)?, real(0..source_len)?),
    };
    Some([rows.0, rows.1, cols.0, cols.1])
}
