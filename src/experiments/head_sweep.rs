//! Choosing the number of heads (lesson 22, the article's §3.3): the same model
//! with 1, 2, 4, 8 and 16 heads at a fixed d_model, each trained the same steps.
//! For each: accuracy on the validation half of the held-out split (where the
//! choice is made), on the test half (where the choice is checked), and the
//! fastest step's time (the least disturbed by other work). The pick is the best on validation; the test half, never looked at
//! while choosing, says how good the pick really is.

use std::time::Instant;

use serde::Serialize;

use super::length_cost::fastest;
use crate::config::ExperimentConfig;
use crate::t;
use crate::tasks::Split;
use crate::training::{Session, StepOutcome};

/// The head counts the sweep tries.
pub const HEAD_COUNTS: [usize; 5] = [1, 2, 4, 8, 16];

/// One head count, trained and measured.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HeadsPoint {
    pub heads: usize,
    pub validation_accuracy: f64,
    pub validation_loss: f64,
    pub test_accuracy: f64,
    pub test_loss: f64,
    /// Milliseconds of its fastest training step (the least disturbed).
    pub step_ms: f64,
    /// Mean training loss over the last 20 steps.
    pub train_loss: f64,
}

/// A head count that was measured, or refused with the reason.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum HeadsOutcome {
    Measured(HeadsPoint),
    Refused { heads: usize, message: String },
}

/// `base` with every attention layer given `heads` heads (d_model unchanged).
pub fn heads_config(base: &ExperimentConfig, heads: usize) -> ExperimentConfig {
    let mut config = base.clone();
    config.model.layers.iter_mut().chain(config.model.encoder_layers.iter_mut()).for_each(|l| {
        l.heads = heads;
        l.ablated_heads.clear();
    });
    config
}

/// Train `base` with `heads` heads for its `steps`, then measure both halves of the
/// held-out split. `cancel` is asked between steps (true = stop, None returned).
pub fn measure_heads(base: &ExperimentConfig, heads: usize, cancel: &dyn Fn() -> bool) -> Option<HeadsOutcome> {
    let config = heads_config(base, heads);
    let refused = |message: String| Some(HeadsOutcome::Refused { heads, message });
    let mut session = match super::length_cost::session_for(&config) {
        Ok(session) => session,
        Err(message) => return refused(message),
    };
    // Checked before training too (`trained_point` checks again), so that a
    // refusal costs no training.
    if let Err(why) = crate::tasks::check_validation_and_test(session.held_out_task()) {
        return refused(why);
    }
    let mut times = Vec::with_capacity(config.steps);
    for _ in 0..config.steps {
        if cancel() {
            return None;
        }
        let start = Instant::now();
        if let StepOutcome::NonFinite { step, .. } = session.step(false) {
            return refused(t!("err-length-non-finite", step = step));
        }
        times.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    Some(trained_point(&session, heads, fastest(&times)))
}

/// A trained session's point: both halves of the held-out split measured, with
/// `step_ms` as timed by whoever trained it.
pub(super) fn trained_point(session: &Session, heads: usize, step_ms: f64) -> HeadsOutcome {
    if let Err(message) = crate::tasks::check_validation_and_test(session.held_out_task()) {
        return HeadsOutcome::Refused { heads, message };
    }
    let (validation, test) = (session.evaluate_on(Split::Validation), session.evaluate_on(Split::Test));
    HeadsOutcome::Measured(HeadsPoint {
        heads,
        validation_accuracy: validation.accuracy as f64,
        validation_loss: validation.loss as f64,
        test_accuracy: test.accuracy as f64,
        test_loss: test.loss as f64,
        step_ms,
        train_loss: session.recent_train_loss(20).map_or(f64::NAN, f64::from),
    })
}

/// The sweep on a trained session's config. The head count the session already
/// has is measured on the session's own run (`step_times`: its steps' milliseconds)
/// instead of training it again; the others train fresh, at the same time (their
/// accuracies are what a claim reads, not their step times). `go_on()` is called
/// before each of their training steps (so a claim's progress counts them); once
/// it returns false the sweep stops and gives None.
pub fn sweep_with_own_run(session: &Session, step_times: &[f64], go_on: &(dyn Fn() -> bool + Sync)) -> Option<Vec<HeadsOutcome>> {
    use rayon::prelude::*;
    let config = session.config().clone();
    let own = own_head_count(&config);
    let own_point = own.map(|h| trained_point(session, h, fastest(step_times)));
    let mut outcomes: Vec<HeadsOutcome> = HEAD_COUNTS.par_iter().filter(|&&h| Some(h) != own).map(|&h| measure_heads(&config, h, &|| !go_on())).collect::<Option<_>>()?;
    if let (Some(h), Some(point)) = (own, own_point) {
        let at = HEAD_COUNTS.iter().filter(|&&c| c < h).count();
        outcomes.insert(at.min(outcomes.len()), point);
    }
    Some(outcomes)
}

/// The sweep's head count that `config` already has, if any.
fn own_head_count(config: &ExperimentConfig) -> Option<usize> {
    HEAD_COUNTS.iter().copied().find(|&h| heads_config(config, h) == *config)
}

/// Training steps `sweep_with_own_run` takes on a session of `config` trained to
/// `steps`: `steps` for each head count other than its own. (A head count that is
/// refused trains none of them, and the progress then stops short of this; the
/// claim fails, saying why.)
pub fn sweep_steps(config: &ExperimentConfig, steps: usize) -> usize {
    let own = own_head_count(config);
    HEAD_COUNTS.iter().filter(|&&h| Some(h) != own).count() * steps
}

/// The measured points of a sweep.
pub fn measured(outcomes: &[HeadsOutcome]) -> Vec<&HeadsPoint> {
    outcomes
        .iter()
        .filter_map(|o| match o {
            HeadsOutcome::Measured(p) => Some(p),
            HeadsOutcome::Refused { .. } => None,
        })
        .collect()
}

/// The pick: the best validation accuracy; a tie goes to the lower validation loss.
pub fn pick<'a>(points: &[&'a HeadsPoint]) -> Option<&'a HeadsPoint> {
    points.iter().copied().filter(|p| p.validation_accuracy.is_finite()).max_by(|a, b| {
        a.validation_accuracy.total_cmp(&b.validation_accuracy).then(b.validation_loss.total_cmp(&a.validation_loss))
    })
}

/// What a sweep says, for claims and the window: the pick, how far its test
/// accuracy is below the best test accuracy of any head count, and the head count
/// with the lowest training loss.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepVerdict {
    pub pick: usize,
    pub pick_test_accuracy: f64,
    pub best_test_accuracy: f64,
    /// best_test_accuracy - pick_test_accuracy (0 when the pick is the best on test too).
    pub pick_test_gap: f64,
    /// The head count with the lowest training loss.
    pub train_loss_pick: usize,
    /// The worst test accuracy of any head count.
    pub worst_test_accuracy: f64,
}

pub fn verdict(outcomes: &[HeadsOutcome]) -> Option<SweepVerdict> {
    let points = measured(outcomes);
    let chosen = pick(&points)?;
    let best = points.iter().map(|p| p.test_accuracy).fold(f64::NEG_INFINITY, f64::max);
    let worst = points.iter().map(|p| p.test_accuracy).fold(f64::INFINITY, f64::min);
    let by_train = points.iter().filter(|p| p.train_loss.is_finite()).min_by(|a, b| a.train_loss.total_cmp(&b.train_loss))?;
    Some(SweepVerdict {
        pick: chosen.heads,
        pick_test_accuracy: chosen.test_accuracy,
        best_test_accuracy: best,
        pick_test_gap: best - chosen.test_accuracy,
        train_loss_pick: by_train.heads,
        worst_test_accuracy: worst,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(heads: usize, validation: f64, test: f64) -> HeadsOutcome {
        HeadsOutcome::Measured(HeadsPoint { heads, validation_accuracy: validation, validation_loss: 1.0 - validation, test_accuracy: test, test_loss: 1.0 - test, step_ms: 1.0, train_loss: 0.1 * heads as f64 })
    }

    /// The sweep measures the head count the session trained on the session's own
    /// run (its step times show it), and its points are the ones five fresh runs
    /// give.
    #[test]
    fn the_sweep_reuses_the_sessions_own_run_exactly() {
        let mut config = crate::config::preset("tiny").unwrap();
        config.task = crate::tasks::TaskConfig::for_kind(crate::tasks::TaskKind::Lookup);
        config.eval_size = 64;
        config.steps = 25;
        config.model.layers.iter_mut().for_each(|l| l.heads = 4);
        let mut session = Session::new(config.clone()).unwrap();
        for _ in 0..config.steps {
            assert!(matches!(session.step(false), StepOutcome::Done { .. }));
        }
        let marked = vec![1234.0; config.steps]; // no real step takes that long
        let reused = sweep_with_own_run(&session, &marked, &|| true).expect("never stopped");
        let fresh: Vec<HeadsOutcome> = HEAD_COUNTS.iter().filter_map(|&h| measure_heads(&config, h, &|| false)).collect();
        let step_ms = |o: &HeadsOutcome| match o {
            HeadsOutcome::Measured(p) => (p.heads, p.step_ms),
            HeadsOutcome::Refused { heads, .. } => (*heads, f64::NAN),
        };
        assert_eq!(reused.iter().map(step_ms).filter(|(_, ms)| *ms == 1234.0).collect::<Vec<_>>(), vec![(4, 1234.0)], "only the session's own head count is reused");
        assert_eq!(reused.len(), fresh.len());
        for (r, f) in reused.iter().zip(&fresh) {
            let (HeadsOutcome::Measured(r), HeadsOutcome::Measured(f)) = (r, f) else { panic!("{r:?} {f:?}") };
            assert_eq!(HeadsPoint { step_ms: 0.0, ..r.clone() }, HeadsPoint { step_ms: 0.0, ..f.clone() });
        }
        assert_eq!(verdict(&reused), verdict(&fresh));
    }

    #[test]
    fn the_pick_is_made_on_validation_and_judged_on_test() {
        let outcomes = vec![point(1, 0.5, 0.52), point(4, 0.9, 0.86), point(16, 0.88, 0.9), HeadsOutcome::Refused { heads: 3, message: "no".into() }];
        let v = verdict(&outcomes).unwrap();
        assert_eq!(v.pick, 4, "validation decides, not test");
        assert!((v.pick_test_gap - 0.04).abs() < 1e-9);
        assert_eq!(v.train_loss_pick, 1);
        assert_eq!(v.worst_test_accuracy, 0.52);
        assert_eq!(verdict(&[]), None);
    }
}
