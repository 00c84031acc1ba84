//! What a longer sequence costs (lesson 11): the same model trained for a few steps
//! of the character model at several sequence lengths, with the fastest step time
//! measured and the memory the attention matrices need estimated. A length whose
//! memory would not fit is refused with the validator's message, naming the knob.

use std::time::Instant;

use serde::Serialize;

use crate::config::{ExperimentConfig, estimate_memory, validate};
use crate::t;
use crate::tasks::{TaskConfig, TaskKind};
use crate::training::{Session, StepOutcome};

/// One length's measurement.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LengthCost {
    pub length: usize,
    /// Wall-clock time of one training step (forward, backward, update): the
    /// fastest of the timed steps (see `LEAST_TIMED`).
    pub step_ms: f64,
    /// Estimated memory of the attention score and weight matrices (and their gradients).
    pub attention_mib: f64,
    /// Estimated memory of the whole training step.
    pub total_mib: f64,
}

/// A length that was measured, or refused before training with the reason.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum LengthOutcome {
    Measured(LengthCost),
    Refused { length: usize, message: String },
}

impl LengthOutcome {
    pub fn length(&self) -> usize {
        match self {
            LengthOutcome::Measured(cost) => cost.length,
            LengthOutcome::Refused { length, .. } => *length,
        }
    }
}

/// `base` on the character model with sequences of `length` characters (positions
/// widened to fit).
pub fn length_config(base: &ExperimentConfig, length: usize) -> ExperimentConfig {
    let mut config = base.clone();
    config.task = TaskConfig::for_kind(TaskKind::CharLm);
    config.task.length = length;
    config.model.max_len = config.model.max_len.max(length);
    config
}

/// A fresh session of `config` for a sweep, or every problem that refuses it, in one line.
pub(super) fn session_for(config: &ExperimentConfig) -> Result<Session, String> {
    let problems = validate(config);
    if !problems.is_empty() {
        return Err(problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "));
    }
    Session::new(config.clone()).map_err(|err| err.to_string())
}

/// Lengths the window's sweep measures (the built-in corpus is long enough for 256).
pub const LENGTH_SWEEP: [usize; 5] = [16, 32, 64, 128, 256];
/// Timed steps per length in the window's sweep (after two untimed ones).
pub const LENGTH_SWEEP_STEPS: usize = 8;

/// Least time the timed steps of one length take together: a short length's
/// steps go on until then, and the fastest is kept. Other work only slows a step
/// down, so the fastest is the least disturbed. In the window under software
/// rendering (llvmpipe), drawing each result took both cores for a while; the
/// median of eight steps then read 15–24 ms at length 16, where the CLI read 3.3,
/// and the lengths after it came out faster (×0.6–0.9). The fastest of a second
/// of steps read 3.6–4.3 ms there, and every length slower than the one before.
const LEAST_TIMED: std::time::Duration = std::time::Duration::from_millis(1000);
/// Most timed steps of one length, however short.
const MOST_TIMED_STEPS: usize = 400;

/// Train at least `steps` timed steps (after two untimed ones) at `length`, and
/// more while they have taken less than `LEAST_TIMED` (at most `MOST_TIMED_STEPS`);
/// the fastest is its step time.
pub fn measure_length(base: &ExperimentConfig, length: usize, steps: usize) -> LengthOutcome {
    let config = length_config(base, length);
    let refused = |message: String| LengthOutcome::Refused { length, message };
    let mut session = match session_for(&config) {
        Ok(session) => session,
        Err(message) => return refused(message),
    };
    let vocab = config.model_vocab_size(session.task().vocab().len());
    let estimate = estimate_memory(&config, vocab, session.task().seq_len());
    let mut times = Vec::with_capacity(steps);
    let mut timing: Option<Instant> = None;
    for index in 0.. {
        if !keep_timing(times.len(), steps, timing.map(|t| t.elapsed())) {
            break;
        }
        let start = Instant::now();
        if let StepOutcome::NonFinite { step, .. } = session.step(false) {
            return refused(t!("err-length-non-finite", step = step));
        }
        if index >= 2 {
            timing.get_or_insert(start);
            times.push(start.elapsed().as_secs_f64() * 1000.0);
        }
    }
    LengthOutcome::Measured(LengthCost {
        length,
        step_ms: fastest(&times),
        attention_mib: estimate.attention_bytes as f64 / 1048576.0,
        total_mib: estimate.total_mib(),
    })
}

/// Whether to time another step, with `timed` done of the `steps` asked for,
/// in `elapsed` since the first timed step began (None before it).
fn keep_timing(timed: usize, steps: usize, elapsed: Option<std::time::Duration>) -> bool {
    if timed >= MOST_TIMED_STEPS.max(steps) {
        return false;
    }
    timed < steps.max(1) || elapsed.is_none_or(|e| e < LEAST_TIMED)
}

/// The fastest of `times` (NaN when empty): other work only slows a step down,
/// so the fastest is the least disturbed (see `LEAST_TIMED`).
pub(super) fn fastest(times: &[f64]) -> f64 {
    times.iter().copied().reduce(f64::min).unwrap_or(f64::NAN)
}

/// Step time at the longest swept length over the time at a quarter of it (256
/// against 64): above 4 when the cost grows faster than the length. None until
/// both were measured.
pub fn length_growth(results: &[LengthOutcome]) -> Option<f64> {
    let (long, short) = (LENGTH_SWEEP[LENGTH_SWEEP.len() - 1], LENGTH_SWEEP[LENGTH_SWEEP.len() - 1] / 4);
    let time = |length: usize| {
        results.iter().find_map(|r| match r {
            LengthOutcome::Measured(c) if c.length == length && c.step_ms > 0.0 => Some(c.step_ms),
            _ => None,
        })
    };
    let growth = time(long)? / time(short)?;
    growth.is_finite().then_some(growth)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::preset;

    #[test]
    fn each_length_is_timed_for_its_steps_and_a_second_and_reads_its_fastest_step() {
        use std::time::Duration;
        let second = Some(LEAST_TIMED);
        assert!(keep_timing(0, 8, None), "nothing timed yet");
        assert!(keep_timing(3, 8, second), "fewer than the steps asked for");
        assert!(keep_timing(8, 8, Some(Duration::from_millis(40))), "eight short steps are not a second");
        assert!(!keep_timing(8, 8, second));
        assert!(!keep_timing(MOST_TIMED_STEPS, 8, Some(Duration::from_millis(10))), "however short the steps");
        assert!(keep_timing(MOST_TIMED_STEPS, 1000, second), "the steps asked for come first");
        assert_eq!(fastest(&[4.1, 19.5, 3.6, 22.0]), 3.6, "a step slowed by other work does not count");
        assert!(fastest(&[]).is_nan());
    }

    #[test]
    fn a_length_that_does_not_fit_is_refused_naming_the_length_knob() {
        let mut base = preset("lesson").unwrap();
        base.batch_size = 512;
        match measure_length(&base, 256, 1) {
            LengthOutcome::Refused { length, message } => {
                assert_eq!(length, 256);
                assert!(message.starts_with("task.length") && message.contains("MiB"), "{message}");
            }
            other => panic!("256 characters with batch 512 should not fit in 4 GiB: {other:?}"),
        }
        // The same batch at 64 characters fits: it is the length that does not.
        assert!(matches!(measure_length(&base, 64, 1), LengthOutcome::Measured(_)));
    }

    #[test]
    fn a_short_length_is_measured_with_a_positive_time_and_quadratic_attention_memory() {
        let base = preset("tiny").unwrap();
        let (LengthOutcome::Measured(short), LengthOutcome::Measured(long)) = (measure_length(&base, 16, 2), measure_length(&base, 32, 2)) else {
            panic!("both lengths fit")
        };
        assert!(short.step_ms > 0.0 && short.step_ms.is_finite());
        assert!((long.attention_mib / short.attention_mib - 4.0).abs() < 1e-9, "twice the length, four times the matrices");
    }
}
