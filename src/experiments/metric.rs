//! Numbers a claim can be about, each measured from a trained session.

use super::map_measures::{head_diversity, hidden_weight, max_score, normalised_entropy, sharpest_head};

use super::measuring::Measuring;
use crate::t;

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
    /// Mean share of each query's attention that lands on keys the intended mask hides.
    HiddenWeight,
    /// Held-out loss with every layer's mask made causal: what the model faces when
    /// it writes on its own and the future is not there yet.
    GenerationLoss,
    /// Trainable parameters.
    Parameters,
    /// How different the heads' maps are: mean over pairs of heads in a layer of
    /// half the L1 distance between their rows (0 = identical, 1 = disjoint).
    HeadDiversity,
    /// Gradient norm of the first transformer layer over the last one's, at the
    /// last training step (needs two or more layers).
    GradRatio,
    /// 1 if training hit a non-finite loss or gradient, else 0. The only metric a
    /// diverged side still has.
    Diverged,
    /// Largest step-by-step difference between the two sides' training-loss curves
    /// (the same for `a.` and `b.`): 0 when they are identical bit for bit.
    MaxCurveGap,
    /// The sharpest head on the probe (highest mean over query rows of the largest
    /// weight): that mean, 1 = every row puts all its weight on one key.
    SharpHeadWeight,
    /// Held-out accuracy lost when the sharpest head's output is zeroed.
    SharpHeadAblationDrop,
    /// The largest held-out accuracy lost when any one head's output is zeroed
    /// (every head of every layer tried in turn): what the most needed head is worth.
    MaxHeadAblationDrop,
    /// The largest held-out accuracy lost when every head of one layer is zeroed
    /// at once (each layer tried in turn).
    MaxLayerAblationDrop,
    /// The head sweep (1, 2, 4, 8, 16 heads, this side's config and steps): the
    /// head count with the best validation accuracy.
    HeadsPick,
    /// Best test accuracy of any head count minus the pick's test accuracy.
    HeadsPickTestGap,
    /// Best minus worst test accuracy over the head counts: how much the choice matters.
    HeadsTestSpread,
    /// Wall-clock milliseconds of the fastest training step after two warm-up
    /// steps: the one other programs slowed least (see `claim::fastest_step`).
    StepMs,
    /// Mean milliseconds per token when the model writes greedily from the first
    /// 8 probe tokens up to its max_len, re-reading the whole text for every token.
    UncachedMsPerToken,
    /// The same writing with a KV cache (undefined when the model cannot use one).
    CachedMsPerToken,
    /// Positions where the cached and uncached writers chose different tokens.
    CacheMismatches,
    /// The step in the middle of the training loss's steepest fall (see `steepest_fall`).
    PhaseStep,
    /// How far the loss fell there: its 25-step mean, 50 steps apart.
    PhaseDrop,
    /// Held-out token accuracy on the sentences with the longest sources (the
    /// last length bucket; seq2seq tasks).
    LongestAccuracy,
    /// The same on the shortest sources (the first bucket).
    ShortestAccuracy,
    /// Mean weight the best-aligned cross-attention head (or the RNN's alignment)
    /// puts on the source word each target word translates.
    AlignmentWeight,
    /// Gradient of the last output's loss at the first source word, over the
    /// largest at any source word (1 = the first word gets as much as any).
    FirstWordGradient,
}

/// A measurement, or why the metric has no value for this run (which fails every
/// condition that uses it: an undefined number never reads as 0).
pub type Measured = Result<f64, String>;

impl Metric {
    /// Whether the metric reads wall-clock time: then nothing else of ours may
    /// run while it is measured (see `claim_timed`).
    pub fn reads_time(self) -> bool {
        self == Metric::StepMs || self.reads_writing_time()
    }

    /// Whether the metric reads a head sweep, which trains the side's config again
    /// at each other head count while it is measured.
    pub fn reads_head_sweep(self) -> bool {
        matches!(self, Metric::HeadsPick | Metric::HeadsPickTestGap | Metric::HeadsTestSpread)
    }

    /// Whether the metric reads how long writing took.
    pub fn reads_writing_time(self) -> bool {
        matches!(self, Metric::UncachedMsPerToken | Metric::CachedMsPerToken)
    }

    pub const ALL: [Metric; 33] = [
        Metric::TrainLoss,
        Metric::EvalLoss,
        Metric::EvalAccuracy,
        Metric::SequenceAccuracy,
        Metric::GenerationAccuracy,
        Metric::CausalLeak,
        Metric::PaddingLeak,
        Metric::AttentionEntropy,
        Metric::FirstGradNorm,
        Metric::HiddenWeight,
        Metric::HeadDiversity,
        Metric::GenerationLoss,
        Metric::Parameters,
        Metric::GradRatio,
        Metric::Diverged,
        Metric::MaxCurveGap,
        Metric::SharpHeadWeight,
        Metric::SharpHeadAblationDrop,
        Metric::MaxHeadAblationDrop,
        Metric::MaxLayerAblationDrop,
        Metric::HeadsPick,
        Metric::HeadsPickTestGap,
        Metric::HeadsTestSpread,
        Metric::StepMs,
        Metric::UncachedMsPerToken,
        Metric::CachedMsPerToken,
        Metric::CacheMismatches,
        Metric::PhaseStep,
        Metric::PhaseDrop,
        Metric::LongestAccuracy,
        Metric::ShortestAccuracy,
        Metric::AlignmentWeight,
        Metric::FirstWordGradient,
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
            Metric::HiddenWeight => "hidden_weight",
            Metric::HeadDiversity => "head_diversity",
            Metric::GenerationLoss => "generation_loss",
            Metric::Parameters => "parameters",
            Metric::GradRatio => "grad_ratio",
            Metric::Diverged => "diverged",
            Metric::MaxCurveGap => "max_curve_gap",
            Metric::SharpHeadWeight => "sharp_head_weight",
            Metric::SharpHeadAblationDrop => "sharp_head_ablation_drop",
            Metric::MaxHeadAblationDrop => "max_head_ablation_drop",
            Metric::MaxLayerAblationDrop => "max_layer_ablation_drop",
            Metric::HeadsPick => "heads_pick",
            Metric::HeadsPickTestGap => "heads_pick_test_gap",
            Metric::HeadsTestSpread => "heads_test_spread",
            Metric::StepMs => "step_ms",
            Metric::UncachedMsPerToken => "uncached_ms_per_token",
            Metric::CachedMsPerToken => "cached_ms_per_token",
            Metric::CacheMismatches => "cache_mismatches",
            Metric::PhaseStep => "phase_step",
            Metric::PhaseDrop => "phase_drop",
            Metric::LongestAccuracy => "longest_accuracy",
            Metric::ShortestAccuracy => "shortest_accuracy",
            Metric::AlignmentWeight => "alignment_weight",
            Metric::FirstWordGradient => "first_word_gradient",
        }
    }

    /// The metric in plain words, as the window's claim reports say it (in the
    /// current language; `name` is the one conditions use).
    pub fn words(self) -> String {
        match self {
            Metric::TrainLoss => t!("rep-metric-train-loss"),
            Metric::EvalLoss => t!("rep-metric-eval-loss"),
            Metric::EvalAccuracy => t!("rep-metric-eval-accuracy"),
            Metric::SequenceAccuracy => t!("rep-metric-sequence-accuracy"),
            Metric::GenerationAccuracy => t!("rep-metric-generation-accuracy"),
            Metric::CausalLeak => t!("rep-metric-causal-leak"),
            Metric::PaddingLeak => t!("rep-metric-padding-leak"),
            Metric::AttentionEntropy => t!("rep-metric-attention-entropy"),
            Metric::FirstGradNorm => t!("rep-metric-first-grad-norm"),
            Metric::HiddenWeight => t!("rep-metric-hidden-weight"),
            Metric::HeadDiversity => t!("rep-metric-head-diversity"),
            Metric::GenerationLoss => t!("rep-metric-generation-loss"),
            Metric::Parameters => t!("rep-metric-parameters"),
            Metric::GradRatio => t!("rep-metric-grad-ratio"),
            Metric::Diverged => t!("rep-metric-diverged"),
            Metric::MaxCurveGap => t!("rep-metric-max-curve-gap"),
            Metric::SharpHeadWeight => t!("rep-metric-sharp-head-weight"),
            Metric::SharpHeadAblationDrop => t!("rep-metric-sharp-head-ablation-drop"),
            Metric::MaxHeadAblationDrop => t!("rep-metric-max-head-ablation-drop"),
            Metric::MaxLayerAblationDrop => t!("rep-metric-max-layer-ablation-drop"),
            Metric::HeadsPick => t!("rep-metric-heads-pick"),
            Metric::HeadsPickTestGap => t!("rep-metric-heads-pick-test-gap"),
            Metric::HeadsTestSpread => t!("rep-metric-heads-test-spread"),
            Metric::StepMs => t!("rep-metric-step-ms"),
            Metric::UncachedMsPerToken => t!("rep-metric-uncached-ms-per-token"),
            Metric::CachedMsPerToken => t!("rep-metric-cached-ms-per-token"),
            Metric::CacheMismatches => t!("rep-metric-cache-mismatches"),
            Metric::PhaseStep => t!("rep-metric-phase-step"),
            Metric::PhaseDrop => t!("rep-metric-phase-drop"),
            Metric::LongestAccuracy => t!("rep-metric-longest-accuracy"),
            Metric::ShortestAccuracy => t!("rep-metric-shortest-accuracy"),
            Metric::AlignmentWeight => t!("rep-metric-alignment-weight"),
            Metric::FirstWordGradient => t!("rep-metric-first-word-gradient"),
        }
    }

    pub fn from_name(name: &str) -> Option<Metric> {
        Self::ALL.into_iter().find(|m| m.name() == name)
    }

    /// Measure on a session that has been trained (and did not diverge; the claim
    /// runner answers `diverged` itself).
    pub fn measure(self, on: &mut Measuring) -> Measured {
        let value = match self {
            Metric::TrainLoss => on.session.recent_train_loss(20).ok_or_else(|| t!("rep-metric-no-step"))? as f64,
            Metric::EvalLoss => on.eval().loss as f64,
            Metric::EvalAccuracy => on.eval().accuracy as f64,
            Metric::SequenceAccuracy => on.eval().sequence_accuracy as f64,
            // The same evaluation measures it, on the causal twin of the model.
            Metric::GenerationLoss => on.eval().generation_loss as f64,
            Metric::GenerationAccuracy => on.session.generation_accuracy() as f64,
            Metric::CausalLeak => max_score(&on.session.causality_probe())?,
            Metric::PaddingLeak => max_score(&on.session.padding_probe())?,
            Metric::AttentionEntropy => normalised_entropy(on.snapshot()).ok_or_else(|| t!("rep-metric-no-wide-row"))?,
            Metric::FirstGradNorm => on.session.history().steps.first().ok_or_else(|| t!("rep-metric-no-step"))?.grad_norm as f64,
            Metric::HiddenWeight => hidden_weight(on.snapshot()).ok_or_else(|| t!("rep-metric-no-attention"))?,
            Metric::HeadDiversity => head_diversity(on.snapshot()).ok_or_else(|| t!("rep-metric-one-head"))?,
            Metric::Parameters => on.session.parameters() as f64,
            Metric::GradRatio => on.session.first_to_last_grad_ratio().ok_or_else(|| t!("rep-metric-grad-ratio-needs"))? as f64,
            Metric::Diverged => 0.0,
            // The claim fills these in from its training loop (both sides' curves;
            // this side's step times).
            Metric::MaxCurveGap | Metric::StepMs => 0.0,
            Metric::SharpHeadWeight => sharpest_head(on.snapshot()).ok_or_else(|| crate::i18n::message(NO_SHARP_HEAD, None))?.2,
            Metric::UncachedMsPerToken => on.writing()?.uncached.mean_ms,
            Metric::CachedMsPerToken => {
                let report = on.writing()?;
                let reason = report.no_cache_reason.clone().unwrap_or_default();
                report.cached.as_ref().ok_or(reason)?.mean_ms
            }
            Metric::CacheMismatches => {
                let report = on.writing()?;
                let reason = report.no_cache_reason.clone().unwrap_or_default();
                report.mismatches.ok_or(reason)? as f64
            }
            Metric::PhaseStep | Metric::PhaseDrop => {
                let losses: Vec<f32> = on.session.history().steps.iter().map(|s| s.loss).collect();
                let (step, drop) = steepest_fall(&losses).ok_or_else(|| t!("rep-metric-needs-steps", steps = FALL_WINDOW + FALL_SPAN))?;
                if self == Metric::PhaseStep { step as f64 } else { drop }
            }
            Metric::LongestAccuracy | Metric::ShortestAccuracy => {
                let eval = on.eval();
                let bucket = if self == Metric::LongestAccuracy { eval.by_length.last() } else { eval.by_length.first() };
                let bucket = bucket.ok_or_else(|| t!("rep-metric-no-source", task = on.session.config().task.kind.name()))?;
                if bucket.sentences == 0 {
                    return Err(t!("rep-metric-empty-bucket", shortest = bucket.shortest, longest = bucket.longest));
                }
                bucket.accuracy as f64
            }
            Metric::AlignmentWeight => on.session.alignment()?.weight,
            Metric::FirstWordGradient => on.session.gradient_reach()?.first_word,
            Metric::SharpHeadAblationDrop => {
                let (layer, head, _) = sharpest_head(on.snapshot()).ok_or_else(|| crate::i18n::message(NO_SHARP_HEAD, None))?;
                let full = on.eval().accuracy as f64;
                let ablated = on.session.evaluate_with_head_ablated(layer, head).ok_or_else(|| crate::i18n::message(NO_SHARP_HEAD, None))?;
                full - ablated.accuracy as f64
            }
            Metric::HeadsPick | Metric::HeadsPickTestGap | Metric::HeadsTestSpread => {
                let verdict = on.head_sweep()?;
                match self {
                    Metric::HeadsPick => verdict.pick as f64,
                    Metric::HeadsPickTestGap => verdict.pick_test_gap,
                    _ => verdict.best_test_accuracy - verdict.worst_test_accuracy,
                }
            }
            Metric::MaxHeadAblationDrop | Metric::MaxLayerAblationDrop => {
                // Per attention layer, the groups of heads to zero together: each head
                // alone, or the whole layer.
                let layers: Vec<(usize, usize)> = on.snapshot().layers.iter().enumerate().filter_map(|(l, maps)| Some((l, maps.as_ref()?.len()))).collect();
                let groups: Vec<(usize, Vec<usize>)> = match self {
                    Metric::MaxHeadAblationDrop => layers.iter().flat_map(|&(l, n)| (0..n).map(move |h| (l, vec![h]))).collect(),
                    _ => layers.iter().map(|&(l, n)| (l, (0..n).collect())).collect(),
                };
                let full = on.eval().accuracy as f64;
                let mut largest: Option<f64> = None;
                for (layer, heads) in groups {
                    let ablated = on.session.evaluate_with_heads_ablated(layer, &heads).ok_or_else(|| crate::i18n::message(NO_SHARP_HEAD, None))?;
                    let drop = full - ablated.accuracy as f64;
                    largest = Some(largest.map_or(drop, |l: f64| l.max(drop)));
                }
                largest.ok_or_else(|| crate::i18n::message(NO_SHARP_HEAD, None))?
            }
        };
        if value.is_finite() { Ok(value) } else { Err(t!("rep-metric-not-finite", value = value.to_string())) }
    }
}

/// Steps averaged for each point of `steepest_fall`, and the distance between the two points.
const FALL_WINDOW: usize = 25;
const FALL_SPAN: usize = 50;

/// Where a loss curve falls fastest: the mean of `FALL_WINDOW` steps is compared with
/// the mean `FALL_SPAN` steps later, and the largest fall wins. Returns the step
/// halfway between the two windows (1-based, like the charts) and the fall. A
/// "phase change" is a fall far steeper than the rest of the curve.
pub fn steepest_fall(losses: &[f32]) -> Option<(usize, f64)> {
    if losses.len() < FALL_WINDOW + FALL_SPAN || losses.iter().any(|l| !l.is_finite()) {
        return None;
    }
    let means: Vec<f64> = losses.windows(FALL_WINDOW).map(|w| w.iter().map(|&l| l as f64).sum::<f64>() / FALL_WINDOW as f64).collect();
    let (start, fall) = (0..means.len() - FALL_SPAN)
        .map(|i| (i, means[i] - means[i + FALL_SPAN]))
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    Some((start + (FALL_WINDOW + FALL_SPAN) / 2 + 1, fall))
}

/// Message key of the reason the sharp-head metrics have no value.
const NO_SHARP_HEAD: &str = "rep-metric-no-sharp-head";

#[cfg(test)]
mod tests {
    use super::*;


    #[test]
    fn the_steepest_fall_is_found_where_a_plateau_breaks() {
        // Slow decline, then a cliff between steps 300 and 320, then flat.
        let losses: Vec<f32> = (1..=600)
            .map(|step| match step {
                s if s <= 300 => 3.0 - 0.001 * s as f32,
                s if s <= 320 => 2.7 - 0.1 * (s - 300) as f32,
                _ => 0.7,
            })
            .collect();
        let (step, fall) = steepest_fall(&losses).unwrap();
        assert!((290..=330).contains(&step), "the cliff is near step 310, found {step}");
        assert!((fall - 2.0).abs() < 0.1, "it fell by about 2: {fall}");
        assert_eq!(steepest_fall(&losses[..60]), None, "too short to tell");
        let mut broken = losses.clone();
        broken[100] = f32::NAN;
        assert_eq!(steepest_fall(&broken), None, "a diverged curve has no phase step");
    }
}

#[cfg(test)]
mod length_metric_tests {
    use super::*;
    use crate::training::Session;

    /// A length bucket with no held-out sentence has no accuracy: the metric says
    /// so and names the knob to raise, never reading as 0.
    #[test]
    fn an_empty_length_bucket_is_undefined_and_names_eval_size() {
        let mut config = crate::config::preset("rnn").unwrap();
        config.task.length = 40;
        config.eval_size = 3;
        config.steps = 1;
        config.fit_max_len_to_task();
        let mut session = Session::new(config).unwrap();
        let _ = session.step(false);
        let mut measuring = Measuring::new(&mut session);
        let empty = Metric::LongestAccuracy.measure(&mut measuring).unwrap_err();
        assert!(empty.contains("eval_size"), "{empty}");
        // The same model on a held-out set large enough has a number there.
        let mut config = crate::config::preset("rnn").unwrap();
        config.steps = 1;
        let mut session = Session::new(config).unwrap();
        let _ = session.step(false);
        assert!(Metric::LongestAccuracy.measure(&mut Measuring::new(&mut session)).is_ok());
    }
}
