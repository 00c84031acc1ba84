//! The metrics of a run as plain data: what run folders save and plots read.

use serde::{Deserialize, Serialize};

use super::events::{EvalMetrics, StepMetrics};

/// One training step, as stored in `metrics.json`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepRecord {
    pub step: usize,
    pub loss: f32,
    pub accuracy: f32,
    pub lr: f64,
    pub grad_norm: f32,
}

/// One evaluation, as stored in `metrics.json`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvalRecord {
    pub step: usize,
    pub loss: f32,
    pub accuracy: f32,
    pub sequence_accuracy: f32,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MetricsHistory {
    pub steps: Vec<StepRecord>,
    pub evals: Vec<EvalRecord>,
}

impl MetricsHistory {
    pub fn push_step(&mut self, m: &StepMetrics) {
        self.steps.push(StepRecord {
            step: m.step,
            loss: m.loss,
            accuracy: m.accuracy,
            lr: m.lr,
            grad_norm: m.grad_norm,
        });
    }

    pub fn push_eval(&mut self, m: &EvalMetrics) {
        self.evals.push(EvalRecord {
            step: m.step,
            loss: m.loss,
            accuracy: m.accuracy,
            sequence_accuracy: m.sequence_accuracy,
        });
    }
}
