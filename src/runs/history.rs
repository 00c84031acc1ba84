//! The metrics of a run as plain data: what run folders save and plots read.

use serde::{Deserialize, Serialize};

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
    pub fn push_step(&mut self, record: StepRecord) {
        self.steps.push(record);
    }

    pub fn push_eval(&mut self, record: EvalRecord) {
        self.evals.push(record);
    }
}
