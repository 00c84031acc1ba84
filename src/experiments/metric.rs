//! Numbers a claim can be about, each measured from a trained session.

use crate::training::Session;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Metric {
    /// Mean training loss over the last 20 steps.
    TrainLoss,
    EvalLoss,
    EvalAccuracy,
    /// Share of held-out sequences with every scored token right.
    SequenceAccuracy,
    /// Greedy autoregressive accuracy against the real continuation.
    GenerationAccuracy,
    /// Largest output change the causality probe found (0 = no leak).
    CausalLeak,
    /// Largest output change the padding probe found (0 = no leak).
    PaddingLeak,
    /// Mean attention entropy on the probe, divided by log(visible keys): 1 = uniform.
    AttentionEntropy,
    /// Global gradient norm at the first step.
    FirstGradNorm,
}

impl Metric {
    pub const ALL: [Metric; 9] = [
        Metric::TrainLoss,
        Metric::EvalLoss,
        Metric::EvalAccuracy,
        Metric::SequenceAccuracy,
        Metric::GenerationAccuracy,
        Metric::CausalLeak,
        Metric::PaddingLeak,
        Metric::AttentionEntropy,
        Metric::FirstGradNorm,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Metric::TrainLoss => "train_loss",
            Metric::EvalLoss => "eval_loss",
            Metric::EvalAccuracy => "eval_accuracy",
            Metric::SequenceAccuracy => "sequence_accuracy",
            Metric::GenerationAccuracy => "generation_accuracy",
            Metric::CausalLeak => "causal_leak",
            Metric::PaddingLeak => "padding_leak",
            Metric::AttentionEntropy => "attention_entropy",
            Metric::FirstGradNorm => "first_grad_norm",
        }
    }

    pub fn from_name(name: &str) -> Option<Metric> {
        Self::ALL.into_iter().find(|m| m.name() == name)
    }

    /// Measure on a session that has been trained.
    pub fn measure(self, session: &mut Session) -> f64 {
        match self {
            Metric::TrainLoss => session.recent_train_loss(20) as f64,
            Metric::EvalLoss => session.evaluate().loss as f64,
            Metric::EvalAccuracy => session.evaluate().accuracy as f64,
            Metric::SequenceAccuracy => session.evaluate().sequence_accuracy as f64,
            Metric::GenerationAccuracy => session.generation_accuracy() as f64,
            Metric::CausalLeak => max_score(&session.causality_probe()),
            Metric::PaddingLeak => max_score(&session.padding_probe()),
            Metric::AttentionEntropy => normalised_entropy(&session.attention_snapshot()),
            Metric::FirstGradNorm => session.history().steps.first().map_or(0.0, |s| s.grad_norm as f64),
        }
    }
}

fn max_score(report: &crate::probe::LeakReport) -> f64 {
    report.layers.iter().map(|l| l.score as f64).fold(0.0, f64::max)
}

/// Mean over every layer, head and query row of entropy / log(visible keys);
/// rows that see a single key (entropy 0 of 0) are skipped.
pub fn normalised_entropy(snapshot: &crate::training::AttentionSnapshot) -> f64 {
    let seq = snapshot.tokens.len();
    let (mut sum, mut count) = (0.0f64, 0usize);
    for (layer, maps) in snapshot.layers.iter().enumerate() {
        let (Some(maps), Some(Some(keep))) = (maps, snapshot.masks.get(layer)) else { continue };
        for weights in maps {
            for q in 0..seq {
                let visible = keep[q * seq..(q + 1) * seq].iter().filter(|k| **k).count();
                if visible < 2 {
                    continue;
                }
                let row = &weights[q * seq..(q + 1) * seq];
                let entropy: f64 = row.iter().filter(|p| **p > 0.0).map(|&p| -(p as f64) * (p as f64).ln()).sum();
                sum += entropy / (visible as f64).ln();
                count += 1;
            }
        }
    }
    if count == 0 { 0.0 } else { sum / count as f64 }
}
