//! One side of a claim in training and after it: its session, step budget and
//! thread pool while it trains (`SideTrainer`), then the metrics its conditions
//! read (`SideMeasured`).

use std::sync::Arc;

use super::claim::{Claim, Divergence};
use super::condition::Side;
use super::measuring::{Measuring, writing_to_write};
use super::metric::{Measured, Metric};
use crate::t;
use crate::training::{AttentionSnapshot, GenerationReport, Session, SessionError, StepOutcome, WRITES};

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
    /// Measure `metrics` on the trained side, leaving the trainer as it was, so
    /// that it can train on to a larger budget: measuring reads the model, head
    /// ablations are undone, and its only trace is one more evaluation in the
    /// history, which training does not read. A diverged side's metrics have no
    /// value (except `diverged` itself).
    pub(super) fn at(side: Side, metrics: Vec<Metric>, trainer: &mut SideTrainer) -> Self {
        Self::at_observed(side, metrics, trainer, &|| true).expect("never stopped")
    }

    /// `at`, calling `go_on()` before each training step that measuring takes (the
    /// head sweep's); None once it returns false.
    pub(super) fn at_observed(side: Side, metrics: Vec<Metric>, trainer: &mut SideTrainer, go_on: &(dyn Fn() -> bool + Sync)) -> Option<Self> {
        let label = Claim::side_label(side);
        let SideTrainer { session, curve, times, divergence, writing, .. } = trainer;
        let map = session.attention_snapshot();
        let mut measuring = Measuring::new(session).with_step_times(times).with_writing(writing.take()).with_go_on(go_on);
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
        if measuring.stopped {
            return None;
        }
        Some(Self { side, curve: curve.clone(), times: times.clone(), map, values, divergence: divergence.clone() })
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
    /// Its writing, when timed before measuring (`write_in_turns`).
    writing: Option<Result<GenerationReport, String>>,
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
        Self { session, steps, pool, single: std::sync::OnceLock::new(), curve: Vec::with_capacity(steps), times: Vec::with_capacity(steps), divergence: None, writing: None }
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

    /// Train on to its budget: `train_to` its own steps.
    pub(super) fn train_on(&mut self, go_on: &dyn Fn() -> bool, crowded: &dyn Fn() -> bool) -> bool {
        self.train_to(self.steps, go_on, crowded)
    }

    /// Its metrics, measured on its own threads.
    pub(super) fn measured(mut self, side: Side, metrics: Vec<Metric>) -> SideMeasured {
        self.on_threads(|trainer| SideMeasured::at(side, metrics, trainer))
    }

    /// `work` on its own threads: its pool's, else the caller's.
    fn on_threads<R: Send>(&mut self, work: impl FnOnce(&mut Self) -> R + Send) -> R {
        match self.pool.clone() {
            Some(pool) => pool.install(|| work(self)),
            None => work(self),
        }
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

/// Time the writing of `sides` (the writing metrics' prompt and length) in rounds
/// taken in turn, a, b, a, b, … (`TimedWriting`), each on its own threads: a slow
/// spell of the machine then slows every side alike, and each token keeps its
/// fastest time. Lesson 12 on seeds 0–5 with one or two busy programs beside:
/// written one side after the other, its cached writers' ratio swung 0.6–1.8
/// (about 1.1 without them) and its claim failed on 4 of 30 runs (the uncached
/// writers' ratio fell to 1.8–2.0, more than 2 asked); written in turns, those
/// ratios read 0.85–1.4 and 2.9–3.6, and none of 24 runs failed.
pub(super) fn write_in_turns(sides: Vec<&mut SideTrainer>) {
    let mut writing = Vec::new();
    for side in sides.into_iter().filter(|side| side.divergence.is_none()) {
        let start = |t: &mut SideTrainer| {
            let (prompt, count) = writing_to_write(&t.session);
            t.session.start_writing(&prompt, count)
        };
        match side.on_threads(start) {
            Ok(started) => writing.push((side, started)),
            Err(why) => side.writing = Some(Err(why)),
        }
    }
    for _ in 1..WRITES {
        for (side, started) in &mut writing {
            side.on_threads(|t| t.session.write_round(started));
        }
    }
    for (side, started) in writing {
        side.writing = Some(Ok(side.session.writing_report(started)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::claim::tests::short_and_long;

    /// Sides that read writing times write in turns before they are measured:
    /// each gets the writing its session writes alone (the same tokens both
    /// ways, a time for every token), measuring reads that writing rather than
    /// writing again, a decoder that cannot use a cache writes without one and
    /// says why, a model that cannot write says why, and a diverged side writes
    /// nothing.
    #[test]
    fn sides_writing_in_turns_each_get_their_own_writing() {
        let (short, long) = short_and_long();
        let seq2seq = crate::config::preset("encoder_decoder").unwrap();
        let mut uncacheable = short.clone();
        uncacheable.model.layers[0].mask = crate::config::MaskKind::Bidirectional;
        let mut trainers: Vec<SideTrainer> = [short.clone(), long, seq2seq, uncacheable]
            .into_iter()
            .map(|config| SideTrainer::new(Session::new(config).unwrap(), 2, Some(1)).unwrap())
            .collect();
        for trainer in &mut trainers {
            assert!(trainer.train_on(&|| true, &|| false));
        }
        write_in_turns(trainers.iter_mut().collect());
        for trainer in &mut trainers[..2] {
            let (prompt, count) = writing_to_write(&trainer.session);
            let alone = trainer.session.compare_writing_ids(&prompt, count).unwrap();
            let report = trainer.writing.clone().expect("written").expect("a decoder writes");
            assert_eq!(report.uncached.tokens, alone.uncached.tokens);
            assert_eq!(report.cached.as_ref().map(|c| &c.tokens), alone.cached.as_ref().map(|c| &c.tokens));
            assert_eq!(report.mismatches, Some(0));
            assert_eq!(report.uncached.ms_per_token.len(), count);
            assert!(report.uncached.ms_per_token.iter().chain(&report.cached.as_ref().unwrap().ms_per_token).all(|ms| ms.is_finite() && *ms > 0.0));
            let measured = SideMeasured::at(Side::A, vec![Metric::UncachedMsPerToken, Metric::CachedMsPerToken], trainer);
            let read: Vec<f64> = measured.values.iter().map(|(_, v)| *v.as_ref().unwrap()).collect();
            assert_eq!(read, vec![report.uncached.mean_ms, report.cached.unwrap().mean_ms], "measuring reads the writing taken in turns");
            assert!(trainer.writing.is_none(), "and takes it");
        }
        let refused = trainers[2].writing.clone().expect("tried").expect_err("a seq2seq model does not write on from a prompt");
        let (prompt, count) = writing_to_write(&trainers[2].session);
        assert_eq!(Err(refused), trainers[2].session.check_writing(&prompt, count));
        let no_cache = trainers[3].writing.clone().expect("written").expect("it writes without a cache");
        assert!(no_cache.cached.is_none() && no_cache.uncached.ms_per_token.len() == writing_to_write(&trainers[3].session).1);
        let why = trainers[3].session.model().cache_support().unwrap_err();
        assert_eq!(no_cache.no_cache_reason.as_ref(), Some(&why));
        let measured = SideMeasured::at(Side::B, vec![Metric::UncachedMsPerToken, Metric::CachedMsPerToken], &mut trainers[3]);
        assert_eq!(measured.values[0].1, Ok(no_cache.uncached.mean_ms));
        assert_eq!(measured.values[1].1, Err(why));

        let mut diverged = SideTrainer::new(Session::new(short).unwrap(), 0, None).unwrap();
        diverged.divergence = Some(Divergence { step: 1, group: None });
        write_in_turns(vec![&mut diverged]);
        assert!(diverged.writing.is_none());
    }
}
