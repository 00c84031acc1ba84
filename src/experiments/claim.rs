//! Falsifiable claims: an experiment pair (A and B), a step budget, and
//! conditions on measured metrics such as `a.eval_accuracy >= 0.95` or
//! `b.train_loss < a.train_loss - 0.3`. Lessons state their claims this way, and
//! `lesson verify` runs them headlessly.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Mutex;

use serde::Serialize;

use super::condition::{Condition, ConditionResult, Operand, Side};
use super::metric::{Measured, Metric};
use crate::config::ExperimentConfig;
use crate::t;
use super::claim_side::SideMeasured;
use crate::training::{AttentionSnapshot, SessionError};

/// One side of a claim for one seed: its config (seed and step budget set), its
/// steps, its own thread count if it has one, and the metrics its conditions read.
pub(super) struct SideSpec {
    pub side: Side,
    pub metrics: Vec<Metric>,
    pub config: ExperimentConfig,
    pub steps: usize,
    pub threads: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Claim {
    /// The statement in words, as the lesson shows it.
    pub statement: String,
    pub a: ExperimentConfig,
    pub b: Option<ExperimentConfig>,
    pub steps: usize,
    /// How each side is run, beyond its config.
    pub run_a: SideRun,
    pub run_b: SideRun,
    pub conditions: Vec<Condition>,
}

/// How one side of a claim is trained, beyond its config.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideRun {
    /// A step budget of its own (else the claim's `steps`).
    pub steps: Option<usize>,
    /// Added to the verify seed: `seed_offset = 1` trains this side with seed + 1.
    pub seed_offset: u64,
    /// CPU threads for this side's training (else the process's).
    pub threads: Option<usize>,
}

/// Where a side's training went non-finite.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Divergence {
    pub step: usize,
    /// The first parameter group whose gradient was not finite, if one was.
    pub group: Option<String>,
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.group {
            Some(group) => f.write_str(&t!("rep-diverged-at-in", step = self.step, group = group.as_str())),
            None => f.write_str(&t!("rep-diverged-at", step = self.step)),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClaimResult {
    pub statement: String,
    pub seed: u64,
    pub passed: bool,
    /// e.g. "a.eval_accuracy" → 0.98; undefined measurements are NaN here and
    /// explained in `undefined`.
    pub measured: BTreeMap<String, f64>,
    /// e.g. "b.padding_leak" → "this task's sequences have no padding".
    pub undefined: BTreeMap<String, String>,
    /// "a" / "b" → where that side diverged.
    pub diverged: BTreeMap<String, Divergence>,
    pub conditions: Vec<ConditionResult>,
    /// "a" / "b" → that side's training loss at each step, for drawing the two runs
    /// on one chart (not written to JSON).
    #[serde(skip)]
    pub curves: BTreeMap<String, Vec<f32>>,
    /// "a" / "b" → that side's attention on its probe after training, for showing
    /// the two runs' maps side by side (not written to JSON).
    #[serde(skip)]
    pub maps: BTreeMap<String, AttentionSnapshot>,
}


impl Claim {
    /// Metrics each side needs, in a stable order.
    fn needed(&self) -> BTreeMap<Side, Vec<Metric>> {
        let mut needed: BTreeMap<Side, Vec<Metric>> = BTreeMap::new();
        for c in &self.conditions {
            for operand in [&c.lhs, &c.rhs] {
                if let Operand::Metric(side, metric) = operand {
                    let list = needed.entry(*side).or_default();
                    if !list.contains(metric) {
                        list.push(*metric);
                    }
                }
            }
        }
        // The curve gap compares the two sides' curves, so both must train.
        if needed.values().flatten().any(|m| *m == Metric::MaxCurveGap) {
            needed.entry(Side::A).or_default();
            needed.entry(Side::B).or_default();
        }
        needed
    }

    /// The sides the conditions name.
    pub fn sides(&self) -> Vec<Side> {
        self.needed().into_keys().collect()
    }

    pub(super) fn side_label(side: Side) -> &'static str {
        if side == Side::A { "a" } else { "b" }
    }

    /// Training steps `run_seeds_observed` takes with `seeds`, all together: every
    /// side's when the claim reads times (it runs alone), else every run's, where
    /// sides that train the same config share one run, with the runs a head sweep
    /// trains while a side is measured.
    pub fn steps_in_all(&self, seeds: &[u64]) -> usize {
        if self.timed() {
            seeds.iter().flat_map(|&seed| self.side_specs(seed)).map(|spec| spec.steps).sum()
        } else {
            super::claim_pool::tracks(&[self], seeds).iter().map(|track| track.steps_with_measuring()).sum()
        }
    }

    /// Train each side for its steps with `seed` and check every condition. A
    /// metric with no value, or any metric of a side that diverged (except
    /// `diverged` itself), fails the conditions that use it.
    pub fn run(&self, seed: u64) -> Result<ClaimResult, SessionError> {
        Ok(self.run_observed(seed, &mut |_| true)?.expect("never cancelled"))
    }

    /// `run`, calling `step_done(steps done this seed)` after every training step;
    /// when it returns false the run stops and the result is None (cancelled).
    pub fn run_observed(&self, seed: u64, step_done: &mut (dyn FnMut(usize) -> bool + Send)) -> Result<Option<ClaimResult>, SessionError> {
        Ok(self.run_seeds_observed(&[seed], step_done)?.map(|mut results| results.remove(0)))
    }

    /// Whether a condition reads a time (of training steps or of writing): then
    /// nothing else may run while a side is timed.
    pub(super) fn timed(&self) -> bool {
        self.needed().values().flatten().any(|metric| metric.reads_time())
    }

    /// Whether a condition reads step times: then the sides train in turns.
    pub(super) fn times_steps(&self) -> bool {
        self.needed().values().any(|metrics| metrics.contains(&Metric::StepMs))
    }

    /// The claim with each of `seeds`, a result per seed in their order, calling
    /// `step_done(steps done so far, all seeds together)` after every training
    /// step; when it returns false the run stops and the result is None.
    ///
    /// When a condition reads step times, the seeds run one after the other and
    /// their sides' steps alternate (a, b, a, b, …), on one pool's threads when
    /// the sides ask for the same thread count: load from another program then
    /// slows both sides alike, and each side's fastest step is the one it slowed
    /// least (see `claim_timed`). When a condition reads writing times, every
    /// seed's sides train at once, then each seed's sides write in turns and are
    /// measured one at a time, nothing else of ours running. Otherwise the
    /// sides of every seed train as one pool, as in `lesson verify`: a side that
    /// trains the same config as another (a shorter budget of the same run) is
    /// measured on the way, and each side's numbers stay those of training it alone.
    pub fn run_seeds_observed(&self, seeds: &[u64], step_done: &mut (dyn FnMut(usize) -> bool + Send)) -> Result<Option<Vec<ClaimResult>>, SessionError> {
        // Counted and reported under one lock, so progress never goes backwards.
        let progress = Mutex::new((0usize, step_done, false));
        let tick = || {
            let mut guard = progress.lock().expect("no side panicked holding the callback");
            let (count, step_done, cancelled) = &mut *guard;
            *count += 1;
            *cancelled |= !step_done(*count);
            !*cancelled
        };
        if !self.timed() {
            return super::claim_pool::run_one_claim(self, seeds, &tick);
        }
        self.run_timed(seeds, &tick, &|| progress.lock().expect("no side panicked holding the callback").2)
    }

    /// What each side the conditions name trains with `seed`, and measures.
    pub(super) fn side_specs(&self, seed: u64) -> Vec<SideSpec> {
        self.needed()
            .into_iter()
            .map(|(side, metrics)| {
                let (config, run) = match side {
                    Side::A => (&self.a, &self.run_a),
                    Side::B => (self.b.as_ref().unwrap_or(&self.a), &self.run_b),
                };
                let steps = run.steps.unwrap_or(self.steps);
                let mut config = config.clone();
                config.seed = seed.wrapping_add(run.seed_offset);
                config.steps = steps.max(1);
                SideSpec { side, metrics, config, steps, threads: run.threads }
            })
            .collect()
    }

    /// The result of `seed` from its measured sides.
    pub(super) fn result(&self, seed: u64, sides: Vec<SideMeasured>) -> ClaimResult {
        let mut measured: BTreeMap<(Side, Metric), Measured> = BTreeMap::new();
        let mut diverged: BTreeMap<String, Divergence> = BTreeMap::new();
        let mut curves: BTreeMap<Side, Vec<f32>> = BTreeMap::new();
        let mut step_times: BTreeMap<Side, Vec<f64>> = BTreeMap::new();
        let mut maps: BTreeMap<String, AttentionSnapshot> = BTreeMap::new();
        for SideMeasured { side, curve, times, map, values, divergence } in sides {
            curves.insert(side, curve);
            step_times.insert(side, times);
            maps.insert(Self::side_label(side).to_string(), map);
            for (metric, value) in values {
                measured.insert((side, metric), value);
            }
            if let Some(d) = divergence {
                diverged.insert(Self::side_label(side).to_string(), d);
            }
        }
        // Step times come from the training loop itself.
        for (side, times) in &step_times {
            if let Some(Ok(_)) = measured.get(&(*side, Metric::StepMs)) {
                let value = super::claim_timed::fastest_step(times).ok_or_else(|| t!("err-claim-no-step-timed"));
                measured.insert((*side, Metric::StepMs), value);
            }
        }
        // The curve gap needs both sides, so it is filled in once both have trained.
        for side in [Side::A, Side::B] {
            if let Some(Ok(_)) = measured.get(&(side, Metric::MaxCurveGap)) {
                let gap = match (curves.get(&Side::A), curves.get(&Side::B)) {
                    _ if !diverged.is_empty() => Err(t!("err-claim-curve-diverged")),
                    (Some(a), Some(b)) => Some(max_curve_gap(a, b)).filter(|g| g.is_finite()).ok_or_else(|| t!("err-claim-curve-not-finite")),
                    _ => Err(t!("err-claim-curve-needs-b")),
                };
                measured.insert((side, Metric::MaxCurveGap), gap);
            }
        }
        let value = |operand: &Operand| -> Measured {
            match operand {
                Operand::Number(n) => Ok(*n),
                Operand::Metric(side, metric) => measured
                    .get(&(*side, *metric))
                    .cloned()
                    .unwrap_or_else(|| Err(t!("err-claim-not-measured"))),
            }
        };
        let conditions: Vec<ConditionResult> = self
            .conditions
            .iter()
            .map(|c| match (value(&c.lhs), value(&c.rhs)) {
                (Ok(lhs), Ok(rhs)) => {
                    let rhs = c.factor * rhs + c.offset;
                    let passed = c.op.holds(lhs, rhs);
                    ConditionResult { condition: c.text.clone(), plain: c.plain(), lhs, rhs, passed, undefined: None }
                }
                (lhs, rhs) => {
                    let why = [lhs.as_ref().err(), rhs.as_ref().err()].into_iter().flatten().cloned().collect::<Vec<_>>().join("; ");
                    ConditionResult {
                        condition: c.text.clone(),
                        plain: c.plain(),
                        lhs: lhs.unwrap_or(f64::NAN),
                        rhs: rhs.map_or(f64::NAN, |r| c.factor * r + c.offset),
                        passed: false,
                        undefined: Some(why),
                    }
                }
            })
            .collect();
        let name = |(side, metric): &(Side, Metric)| format!("{}.{}", Self::side_label(*side), metric.name());
        ClaimResult {
            statement: self.statement.clone(),
            seed,
            passed: !conditions.is_empty() && conditions.iter().all(|c| c.passed),
            measured: measured.iter().map(|(k, v)| (name(k), *v.as_ref().unwrap_or(&f64::NAN))).collect(),
            undefined: measured.iter().filter_map(|(k, v)| v.as_ref().err().map(|e| (name(k), e.clone()))).collect(),
            diverged,
            conditions,
            curves: curves.into_iter().map(|(side, curve)| (Self::side_label(side).to_string(), curve)).collect(),
            maps,
        }
    }
}

/// The largest step-by-step difference between two training-loss curves (over the
/// steps both have): 0 when they are the same bit for bit.
pub fn max_curve_gap(a: &[f32], b: &[f32]) -> f64 {
    let gap = a.iter().zip(b).map(|(x, y)| (x - y).abs() as f64).fold(0.0, f64::max);
    if a.iter().chain(b).any(|v| !v.is_finite()) { f64::NAN } else { gap }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::training::Session;
    use crate::training::StepOutcome;

    #[test]
    fn the_curve_gap_is_zero_only_for_identical_curves() {
        assert_eq!(max_curve_gap(&[1.0, 0.5, 0.25], &[1.0, 0.5, 0.25]), 0.0);
        assert_eq!(max_curve_gap(&[1.0, 0.5, 0.25], &[1.0, 0.75, 0.25]), 0.25);
        assert_eq!(max_curve_gap(&[1.0, 0.5], &[1.0, 0.5, 9.0]), 0.0, "only the steps both have");
        assert!(max_curve_gap(&[1.0, f32::NAN], &[1.0, 0.5]).is_nan());
    }

    /// Two small configs a timed claim can compare: the tiny model on sequences
    /// of 6 and of 12.
    pub(crate) fn short_and_long() -> (ExperimentConfig, ExperimentConfig) {
        let mut short = crate::config::preset("tiny").unwrap();
        short.task.length = 6;
        let mut long = short.clone();
        long.task.length = 12;
        long.model.max_len = 32;
        (short, long)
    }

    /// The training-loss curve of `config` trained alone with `seed` for `steps`.
    pub(crate) fn trained_alone(config: &ExperimentConfig, seed: u64, steps: usize) -> Vec<f32> {
        let mut config = config.clone();
        config.seed = seed;
        config.steps = steps;
        let mut session = Session::new(config).unwrap();
        (0..steps).map(|_| match session.step(false) { StepOutcome::Done { metrics, .. } => metrics.loss, StepOutcome::NonFinite { step, .. } => panic!("non-finite at step {step}") }).collect()
    }

    /// A claim on step times trains its sides in turn, a step each; a claim on
    /// writing times trains them side by side (as lesson 12 does, both on one
    /// thread of the seed's own); a claim on neither trains its sides as a pool.
    /// Each way each side's curve is the one its session alone would train, and
    /// progress counts every step once.
    #[test]
    fn alternating_or_concurrent_sides_leave_each_sides_run_unchanged() {
        let (a, b) = short_and_long();
        let alone_with = |config: &ExperimentConfig, seed: u64| trained_alone(config, seed, 7);
        let alone = |config: &ExperimentConfig| alone_with(config, 3);
        let writing = "b.uncached_ms_per_token > 0 * a.cached_ms_per_token";
        for (expect, threads) in [("b.step_ms > 0 * a.step_ms", None), ("b.train_loss > 0 * a.train_loss", None), (writing, None), (writing, Some(1))] {
            let claim = Claim {
                statement: String::new(),
                a: a.clone(),
                b: Some(b.clone()),
                steps: 7,
                run_a: SideRun { threads, ..SideRun::default() },
                run_b: SideRun { threads, ..SideRun::default() },
                conditions: vec![super::super::parse_condition(expect).unwrap()],
            };
            let mut progress = Vec::new();
            let result = claim.run_observed(3, &mut |done| { progress.push(done); true }).unwrap().unwrap();
            assert_eq!(progress, (1..=14).collect::<Vec<_>>(), "{expect}");
            assert_eq!(result.curves["a"], alone(&a), "{expect}");
            assert_eq!(result.curves["b"], alone(&b), "{expect}");
            assert!(result.passed, "{expect}: {result:?}");
            // Several seeds at once (all four sessions share the cores when
            // untimed): each seed's result is its own run's, in the seeds' order.
            let mut steps = 0;
            let results = claim.run_seeds_observed(&[5, 3], &mut |done| { steps = done; true }).unwrap().unwrap();
            assert_eq!(steps, 28, "{expect}: progress counts every seed's steps");
            assert_eq!((results[0].seed, results[1].seed), (5, 3), "{expect}");
            assert_eq!(results[0].curves["a"], alone_with(&a, 5), "{expect}");
            assert_eq!(results[0].curves["b"], alone_with(&b, 5), "{expect}");
            assert_eq!(results[1].curves, result.curves, "{expect}");
            assert_eq!(results[1].measured.keys().collect::<Vec<_>>(), result.measured.keys().collect::<Vec<_>>(), "{expect}");
            // Cancelling stops both ways (untimed, every run trains on a thread of
            // its own, so a step already under way in each of the others may still
            // finish: at most one more per other run).
            for seeds in [&[3][..], &[3, 4, 5]] {
                let mut calls = 0;
                let cancelled = claim.run_seeds_observed(seeds, &mut |done| { calls += 1; done < 4 }).unwrap();
                assert!(cancelled.is_none(), "{expect}");
                let others = claim.sides().len() * seeds.len() - 1;
                assert!(calls <= 4 + others, "{expect}: {calls} steps reported after the cancel with {} seeds", seeds.len());
            }
        }
    }


}
