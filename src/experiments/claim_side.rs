//! One side of a claim in training and after it: its session, step budget and
//! thread pool while it trains (`SideTrainer`), then the metrics its conditions
//! read (`SideMeasured`).

use std::sync::Arc;

use super::claim::{Claim, Divergence};
use super::condition::Side;
use super::metric::{Measured, Measuring, Metric};
use crate::t;
use crate::training::{AttentionSnapshot, Session, SessionError, StepOutcome};

/// One side after training: its loss curve, step times, attention map, the metrics
/// its conditions read, and where it diverged if it did.
pub(super) struct SideMeasured {
    pub side: Side,
    pub curve: Vec<f32>,
    pub times: Vec<f64>,
    pub map: AttentionSnapshot,
    pub values: Vec<(Metric, Measured)>,
    pub divergence: Option<Divergence>,
}

impl SideMeasured {
    /// Measure `metrics` on the trained side. A diverged side's metrics have no
    /// value (except `diverged` itself).
    pub(super) fn of(side: Side, metrics: Vec<Metric>, mut trainer: SideTrainer) -> Self {
        Self::at(side, metrics, &mut trainer)
    }

    /// `of`, leaving the trainer as it was, so that it can train on to a larger
    /// budget: measuring reads the model, head ablations are undone, and its only
    /// trace is one more evaluation in the history, which training does not read.
    pub(super) fn at(side: Side, metrics: Vec<Metric>, trainer: &mut SideTrainer) -> Self {
        let label = Claim::side_label(side);
        let SideTrainer { session, curve, times, divergence, .. } = trainer;
        let map = session.attention_snapshot();
        let mut measuring = Measuring::new(session).with_step_times(times);
        let values = metrics
            .into_iter()
            .map(|metric| {
                let value = match (&*divergence, metric) {
                    (_, Metric::Diverged) => Ok(if divergence.is_some() { 1.0 } else { 0.0 }),
                    (Some(d), _) => Err(format!("{label} {d}")),
                    (None, _) => metric.measure(&mut measuring),
                };
                (metric, value)
            })
            .collect();
        Self { side, curve: curve.clone(), times: times.clone(), map, values, divergence: divergence.clone() }
    }
}

/// One side in training: its session, its step budget and thread pool, and what
/// training has left so far (each step's loss and wall-clock milliseconds, and
/// where it went non-finite if it did).
pub(super) struct SideTrainer {
    session: Session,
    steps: usize,
    pool: Option<Arc<rayon::ThreadPool>>,
    /// A pool of one thread, made the first time the side trains while every core
    /// has a side of its own (None inside when it could not be made).
    single: std::sync::OnceLock<Option<rayon::ThreadPool>>,
    curve: Vec<f32>,
    times: Vec<f64>,
    divergence: Option<Divergence>,
}

impl SideTrainer {
    /// `threads`: a pool of its own for this side's steps (else the process's).
    pub(super) fn new(session: Session, steps: usize, threads: Option<usize>) -> Result<Self, SessionError> {
        let pool = threads.map(Self::pool_of).transpose()?;
        Ok(Self::on_pool(session, steps, pool))
    }

    /// A side whose steps run on `pool` (else the process's), which other sides
    /// may share.
    pub(super) fn on_pool(session: Session, steps: usize, pool: Option<Arc<rayon::ThreadPool>>) -> Self {
        Self { session, steps, pool, single: std::sync::OnceLock::new(), curve: Vec::with_capacity(steps), times: Vec::with_capacity(steps), divergence: None }
    }

    /// A pool of `threads` compute threads for sides' steps.
    pub(super) fn pool_of(threads: usize) -> Result<Arc<rayon::ThreadPool>, SessionError> {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build()
            .map(Arc::new)
            .map_err(|e| SessionError::Runtime(t!("err-claim-threads-failed", threads = threads, why = e.to_string())))
    }

    /// Whether its steps run on a pool of their own (not the process's).
    #[cfg(test)]
    pub(super) fn has_pool(&self) -> bool {
        self.pool.is_some()
    }

    /// Whether its steps run on `pool`.
    #[cfg(test)]
    pub(super) fn runs_on(&self, pool: &Arc<rayon::ThreadPool>) -> bool {
        self.pool.as_ref().is_some_and(|own| Arc::ptr_eq(own, pool))
    }

    /// Train on to `steps` in all (or until training goes non-finite); the
    /// session's budget becomes `steps`, as if it had been asked for from the
    /// start (a longer run's first steps are the shorter run's steps).
    /// `go_on()` is asked after every step: false stops training there, and
    /// `train_to` returns false. `crowded()` is asked before every step: true when
    /// every core has a side training on it, and this side (without threads of its
    /// own) then trains on one thread, not the process's pool. Sides sharing that
    /// pool step for step wait on each other's chunks (about a tenth slower on
    /// two cores); the numbers are the same either way, as the fused step's are
    /// on any thread count.
    pub(super) fn train_to(&mut self, steps: usize, go_on: &dyn Fn() -> bool, crowded: &dyn Fn() -> bool) -> bool {
        self.steps = steps;
        self.session.set_step_budget(steps.max(1));
        while !self.finished() {
            self.step(crowded());
            if !go_on() {
                return false;
            }
        }
        true
    }

    /// All its steps are done, or training went non-finite.
    pub(super) fn finished(&self) -> bool {
        self.divergence.is_some() || self.curve.len() >= self.steps
    }

    /// Train one step, timed; on one thread when `alone` and the side has no
    /// threads of its own.
    pub(super) fn step(&mut self, alone: bool) {
        let single = (alone && self.pool.is_none()).then(|| self.single.get_or_init(|| rayon::ThreadPoolBuilder::new().num_threads(1).build().ok()).as_ref()).flatten();
        let Self { session, pool, curve, times, divergence, .. } = self;
        let mut one = || {
            let start = std::time::Instant::now();
            match session.step(false) {
                StepOutcome::Done { metrics, .. } => {
                    curve.push(metrics.loss);
                    times.push(start.elapsed().as_secs_f64() * 1000.0);
                }
                StepOutcome::NonFinite { step, group, .. } => *divergence = Some(Divergence { step, group }),
            }
        };
        match pool.as_deref().or(single) {
            Some(pool) => pool.install(one),
            None => one(),
        }
    }
}
