//! A claim that reads times, run with nothing else of ours beside it, each side
//! measured alone, one after the other, on its own threads.
//!
//! - Step times (`step_ms`): the seeds one after the other, their sides' steps in
//!   turn (a, b, a, b, …) on one compute thread, each side's time its fastest step.
//! - Only writing times (`uncached_ms_per_token`): every side of every seed
//!   trains at once; then, seed by seed, the sides write in turns (a, b, a, b, …)
//!   and are measured one at a time.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;
use std::sync::Arc;

use super::claim::{Claim, ClaimResult, SideSpec};
use super::share_out::share_out;
use super::claim_side::{SideMeasured, SideTrainer, write_in_turns};
use super::condition::Side;
use super::metric::Metric;
use crate::training::{Session, SessionError};

/// A side in training, with the metrics its conditions read.
type Trainer = (Side, Vec<Metric>, SideTrainer);

impl Claim {
    /// The timed claim with each of `seeds`: `tick()` after every step (false
    /// stops training), `cancelled()` asked once training stops (after each
    /// seed's turns, or after all the seeds' training when only writing is timed).
    pub(super) fn run_timed(&self, seeds: &[u64], tick: &(dyn Fn() -> bool + Sync), cancelled: &dyn Fn() -> bool) -> Result<Option<Vec<ClaimResult>>, SessionError> {
        if !self.times_steps() {
            return self.run_writing_timed(seeds, tick, cancelled);
        }
        let mut results = Vec::with_capacity(seeds.len());
        for &seed in seeds {
            let (mut trainers, shared) = self.trainers(seed)?;
            let mut turns = || {
                while trainers.iter().any(|(_, _, t)| !t.finished()) {
                    for (_, _, trainer) in trainers.iter_mut().filter(|(_, _, t)| !t.finished()) {
                        trainer.step(false);
                        if !tick() {
                            return;
                        }
                    }
                }
            };
            // All the turns run on one compute thread: of the sides' shared pool,
            // else of the process's. Each step handed from here to a pool thread
            // of its side's own could run on another core than the other side's
            // steps and than its own data: on a 2-core EPYC a short step then
            // took up to 1.5 times as long, at random from seed to seed, and
            // lesson 11's ratio fell from about 16 to 10 on some seeds.
            match &shared {
                Some(pool) => pool.install(turns),
                None => rayon::scope(|_| turns()),
            }
            if cancelled() {
                return Ok(None);
            }
            results.push(self.result(seed, measured_one_by_one(trainers)));
        }
        Ok(Some(results))
    }

    /// A claim that reads writing times but no step times: every seed's sides
    /// train at once, each on a thread of its own (sides asking for the same
    /// thread count share their seed's pool; see `share_out`); then, seed by
    /// seed, the sides write in turns and are measured one at a time.
    fn run_writing_timed(&self, seeds: &[u64], tick: &(dyn Fn() -> bool + Sync), cancelled: &dyn Fn() -> bool) -> Result<Option<Vec<ClaimResult>>, SessionError> {
        let mut by_seed = Vec::with_capacity(seeds.len());
        for &seed in seeds {
            by_seed.push(self.trainers(seed)?.0);
        }
        let sides: Vec<&mut SideTrainer> = by_seed.iter_mut().flatten().map(|(_, _, trainer)| trainer).collect();
        share_out(sides.len(), sides, &|trainer, crowded| {
            trainer.train_on(tick, crowded);
        });
        if cancelled() {
            return Ok(None);
        }
        Ok(Some(seeds.iter().zip(by_seed).map(|(&seed, trainers)| self.result(seed, measured_one_by_one(trainers))).collect()))
    }

    /// A session for each side the conditions name, with `seed`; sides asking for
    /// the same thread count share one pool, returned too when every side does.
    fn trainers(&self, seed: u64) -> Result<(Vec<Trainer>, Option<Arc<rayon::ThreadPool>>), SessionError> {
        let specs = self.side_specs(seed);
        let every_side_has_threads = specs.iter().all(|spec| spec.threads.is_some());
        let mut pools: BTreeMap<usize, Arc<rayon::ThreadPool>> = BTreeMap::new();
        let mut trainers = Vec::new();
        for SideSpec { side, metrics, config, steps, threads } in specs {
            let pool = match threads.map(|threads| (threads, pools.entry(threads))) {
                Some((_, Entry::Occupied(shared))) => Some(shared.get().clone()),
                Some((threads, Entry::Vacant(first))) => Some(first.insert(SideTrainer::pool_of(threads)?).clone()),
                None => None,
            };
            trainers.push((side, metrics, SideTrainer::on_pool(Session::new(config)?, steps, pool)));
        }
        let one_pool_for_all = every_side_has_threads && pools.len() == 1;
        let shared = pools.into_values().next().filter(|_| one_pool_for_all);
        Ok((trainers, shared))
    }
}

/// Each side measured in turn on its own threads, nothing else of ours running:
/// a writing time read while the other side wrote, or trained, shared the cores
/// with it (in `lesson verify 12`, its seeds' sides training beside, lesson 12's
/// cached writer at length 128 read 1.81 times its time at 32, under the 2 its
/// claim allows only just). The sides that read writing times write first, in
/// turns (`write_in_turns`).
fn measured_one_by_one(mut trainers: Vec<Trainer>) -> Vec<SideMeasured> {
    let writers = trainers.iter_mut().filter(|(_, metrics, _)| metrics.iter().any(|m| m.reads_writing_time()));
    write_in_turns(writers.map(|(_, _, trainer)| trainer).collect());
    trainers.into_iter().map(|(side, metrics, trainer)| trainer.measured(side, metrics)).collect()
}

/// A side's step time: its fastest step after the first two, which warm up (of
/// all its steps when it trained two or fewer). The fastest step is the one other
/// programs slowed least, so it holds under load. Lesson 11 on a 2-core EPYC:
/// with two busy programs on both cores, its ratio of medians ranged 11–18 on
/// seeds 3–5 and its flip's (attention off) 6–18; the ratio of the fastest
/// steps stayed 15.4–16.6 on seeds 0–5 (12.5–16.7 without the load) and its
/// flip's 9.1–11.7 (8.5–9.7).
pub(super) fn fastest_step(times: &[f64]) -> Option<f64> {
    let skip = if times.len() > 2 { 2 } else { 0 };
    times[skip..].iter().copied().reduce(f64::min).filter(|ms| ms.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::claim::SideRun;
    use crate::experiments::claim::tests::{short_and_long, trained_alone};

    #[test]
    fn a_sides_step_time_is_its_fastest_step_after_two_warm_up_steps() {
        assert_eq!(fastest_step(&[1.0, 1.0, 6.0, 3.0, 4.0, 9.0, 5.0]), Some(3.0), "the warm-up steps are not counted");
        assert_eq!(fastest_step(&[9.0, 2.0]), Some(2.0), "two or fewer steps: all of them");
        assert_eq!(fastest_step(&[]), None);
    }

    /// A timed claim whose sides ask for the same thread count gives both one
    /// pool; sides with different counts, or without threads of their own, share
    /// none. Either way all the turns run on one compute thread, each side trains
    /// the run it would train alone, and a cancel stops the turns.
    #[test]
    fn timed_sides_with_one_thread_count_share_one_pool() {
        let (a, b) = short_and_long();
        let timed = |a_threads: Option<usize>, b_threads: Option<usize>| Claim {
            statement: String::new(),
            a: a.clone(),
            b: Some(b.clone()),
            steps: 3,
            run_a: SideRun { threads: a_threads, ..SideRun::default() },
            run_b: SideRun { threads: b_threads, ..SideRun::default() },
            conditions: vec![super::super::parse_condition("b.step_ms > 0 * a.step_ms").unwrap()],
        };
        let (trainers, shared) = timed(Some(1), Some(1)).trainers(0).unwrap();
        let shared = shared.expect("both sides on one thread share its pool");
        assert!(trainers.iter().all(|(_, _, t)| t.runs_on(&shared)), "each side's steps run on the shared pool");
        for (a_threads, b_threads) in [(Some(1), Some(2)), (Some(1), None), (None, None)] {
            let (trainers, shared) = timed(a_threads, b_threads).trainers(0).unwrap();
            assert!(shared.is_none(), "{a_threads:?} and {b_threads:?}");
            assert_eq!(trainers.iter().filter(|(_, _, t)| t.has_pool()).count(), [a_threads, b_threads].iter().flatten().count());
        }
        // Where the turns ran: progress is reported from the thread that took them,
        // one compute thread (the shared pool's, else the process's), not this one.
        for threads in [(Some(1), Some(1)), (Some(1), Some(2)), (None, None)] {
            let mut ticks = Vec::new();
            let result = timed(threads.0, threads.1).run_observed(4, &mut |_| { ticks.push((std::thread::current().id(), rayon::current_thread_index())); true }).unwrap().unwrap();
            assert_eq!(ticks.len(), 6, "{threads:?}");
            assert!(ticks.iter().all(|&tick| tick == ticks[0]), "{threads:?}: every turn on one thread: {ticks:?}");
            assert!(ticks[0].0 != std::thread::current().id() && ticks[0].1.is_some(), "{threads:?}: on a compute thread");
            assert_eq!(result.curves["a"], trained_alone(&a, 4, 3), "{threads:?}");
            assert_eq!(result.curves["b"], trained_alone(&b, 4, 3), "{threads:?}");
            assert!(result.passed, "{result:?}");
            let mut calls = 0;
            assert!(timed(threads.0, threads.1).run_seeds_observed(&[4, 5], &mut |done| { calls += 1; done < 2 }).unwrap().is_none(), "{threads:?}");
            assert_eq!(calls, 2, "{threads:?}: a cancel stops the turns at once");
        }
    }
}
