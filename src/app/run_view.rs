//! What the window knows about the run, built only from `TrainEvent`s (plain data).
//! Plain tests drive it with hand-made events.

use std::collections::BTreeMap;

use super::series::Series;
use crate::training::{AttentionSnapshot, BackendInfo, TrainEvent};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunStatus {
    /// No session (the config is invalid).
    NoModel,
    /// A fresh or stopped model, not training.
    Ready,
    Running,
    Paused,
    Finished,
}

/// A message across the top of the window until dismissed.
#[derive(Clone, Debug, PartialEq)]
pub struct Banner {
    pub kind: BannerKind,
    pub text: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BannerKind {
    Info,
    Warning,
    Error,
}

#[derive(Clone, Debug)]
pub struct RunView {
    pub status: RunStatus,
    pub step: usize,
    pub steps_per_s: f32,
    pub parameters: usize,
    pub backend: Option<BackendInfo>,
    pub vocab: Vec<String>,
    pub seq_len: usize,
    pub train_loss: Series,
    pub train_accuracy: Series,
    pub eval_loss: Series,
    pub eval_accuracy: Series,
    pub lr: Series,
    pub grad_norm: Series,
    /// Per layer ("embedding", "layer 0", ..., "head").
    pub layer_grad_norms: BTreeMap<String, Series>,
    /// Per layer, the mean ‖Δw‖/‖w‖ of its parameter groups.
    pub layer_update_ratios: BTreeMap<String, Series>,
    pub attention: Option<AttentionSnapshot>,
    pub banner: Option<Banner>,
    pub probe_error: Option<String>,
    pub last_eval_accuracy: Option<f32>,
    /// Bumped whenever the weights were replaced (reset, load, config change).
    pub generation: usize,
}

impl Default for RunView {
    fn default() -> Self {
        Self {
            status: RunStatus::NoModel,
            step: 0,
            steps_per_s: 0.0,
            parameters: 0,
            backend: None,
            vocab: Vec::new(),
            seq_len: 0,
            train_loss: Series::default(),
            train_accuracy: Series::default(),
            eval_loss: Series::default(),
            eval_accuracy: Series::default(),
            lr: Series::default(),
            grad_norm: Series::default(),
            layer_grad_norms: BTreeMap::new(),
            layer_update_ratios: BTreeMap::new(),
            attention: None,
            banner: None,
            probe_error: None,
            last_eval_accuracy: None,
            generation: 0,
        }
    }
}

impl RunView {
    /// Fold one event into the view.
    pub fn apply(&mut self, event: TrainEvent) {
        match event {
            TrainEvent::Ready { parameters, backend, seq_len, vocab } => {
                let keep_banner = self.banner.take().filter(|b| b.kind != BannerKind::Error);
                *self = Self {
                    generation: self.generation + 1,
                    ..Self::default()
                };
                self.banner = match &backend.fallback_reason {
                    Some(reason) => Some(Banner { kind: BannerKind::Warning, text: reason.clone() }),
                    None => keep_banner,
                };
                self.status = RunStatus::Ready;
                self.parameters = parameters;
                self.backend = Some(backend);
                self.seq_len = seq_len;
                self.vocab = vocab;
            }
            TrainEvent::Started { step } | TrainEvent::Resumed { step } => {
                self.status = RunStatus::Running;
                self.step = step;
                if self.banner.as_ref().is_some_and(|b| b.kind == BannerKind::Error) {
                    self.banner = None;
                }
            }
            TrainEvent::Step(m) => {
                self.step = m.step;
                self.steps_per_s = m.steps_per_s;
                let x = m.step as f64;
                self.train_loss.push(x, m.loss as f64);
                self.train_accuracy.push(x, m.accuracy as f64);
                self.lr.push(x, m.lr);
                self.grad_norm.push(x, m.grad_norm as f64);
            }
            TrainEvent::Eval(e) => {
                let x = e.step as f64;
                self.eval_loss.push(x, e.loss as f64);
                self.eval_accuracy.push(x, e.accuracy as f64);
                self.last_eval_accuracy = Some(e.accuracy);
            }
            TrainEvent::Gradients(report) => {
                let x = report.step as f64;
                for (layer, norm) in report.layers {
                    self.layer_grad_norms.entry(layer).or_default().push(x, norm as f64);
                }
                let mut per_layer: BTreeMap<String, (f64, usize)> = BTreeMap::new();
                for group in report.groups {
                    let entry = per_layer.entry(group.layer).or_default();
                    entry.0 += group.update_ratio as f64;
                    entry.1 += 1;
                }
                for (layer, (sum, count)) in per_layer {
                    self.layer_update_ratios.entry(layer).or_default().push(x, sum / count as f64);
                }
            }
            TrainEvent::Attention(snapshot) => {
                self.probe_error = None;
                self.attention = Some(snapshot);
            }
            TrainEvent::NonFinite { hint, .. } => {
                self.banner = Some(Banner { kind: BannerKind::Error, text: hint });
            }
            TrainEvent::Paused { step } => {
                self.status = RunStatus::Paused;
                self.step = step;
                self.steps_per_s = 0.0;
            }
            TrainEvent::Stopped { step } => {
                self.status = RunStatus::Ready;
                self.step = step;
                self.steps_per_s = 0.0;
            }
            TrainEvent::ConfigApplied { message, kept_weights, .. } => {
                if !kept_weights {
                    self.generation += 1;
                }
                self.banner = Some(Banner { kind: BannerKind::Info, text: message });
            }
            TrainEvent::ProbeRejected { message } => self.probe_error = Some(message),
            TrainEvent::Saved { dir } => {
                self.banner = Some(Banner { kind: BannerKind::Info, text: format!("saved the run to {}", dir.display()) });
            }
            TrainEvent::Exported { path } => {
                self.banner = Some(Banner { kind: BannerKind::Info, text: format!("wrote {}", path.display()) });
            }
            TrainEvent::Finished { step, eval_accuracy, .. } => {
                self.status = RunStatus::Finished;
                self.step = step;
                self.steps_per_s = 0.0;
                self.last_eval_accuracy = Some(eval_accuracy);
            }
            TrainEvent::Error { message } => {
                if self.backend.is_none() {
                    self.status = RunStatus::NoModel;
                }
                self.banner = Some(Banner { kind: BannerKind::Error, text: message });
            }
        }
    }

    /// Seconds left at the current speed, when training.
    pub fn eta_secs(&self, total_steps: usize) -> Option<f32> {
        (self.status == RunStatus::Running && self.steps_per_s > 0.0)
            .then(|| total_steps.saturating_sub(self.step) as f32 / self.steps_per_s)
    }
}
