//! Many claims with many seeds at once (`lesson verify`): every side of every
//! claim and seed becomes part of a track, and the tracks share the cores.
//!
//! Sides that train the same config with the same seed and thread count share one
//! track: it trains once, to the largest budget any of them asks for, and each is
//! measured when the track reaches its own budget. That is exact: nothing in
//! training reads the budget, so the first 400 steps of a 1500-step run are the
//! 400-step run. Measuring leaves the model as it was: its only trace is one more
//! evaluation in the history, which neither training nor a metric reads, and head
//! ablations are undone. Sharing never hides a difference between two runs: two
//! sides share a track only if they would train the same steps bit for bit anyway
//! (same config, seed and threads; `lesson check` refuses a `[b]` identical to
//! `[a]`, and a claim comparing thread counts gets two tracks).
//!
//! A claim that reads times (of steps or of writing) must have the cores to
//! itself: it runs alone, as `Claim::run_seeds_observed` runs it (see
//! `claim_timed`), before the pool of all the others. The pool starts its longest tracks first. Results come
//! back in claim order, each as soon as it and every claim before it are done.
//!
//! The window's *Verify it* runs one claim's seeds the same way (`run_one_claim`):
//! its tracks as a pool of their own, with progress after every step and a cancel.

use std::sync::Mutex;
use std::time::Instant;

use super::claim::{Claim, ClaimResult, SideSpec};
use super::claim_side::{SideMeasured, SideTrainer};
use super::condition::Side;
use super::share_out::share_out;
use super::metric::Metric;
use crate::config::ExperimentConfig;
use crate::training::{Session, SessionError};

/// A claim's results, one per seed in the seeds' order, or why it could not run;
/// and per seed its seconds: the time its sides take to train and be measured,
/// spread over the cores (each side counted as if it trained alone).
pub struct ClaimOutcome {
    pub results: Result<Vec<ClaimResult>, String>,
    pub seconds: Vec<f32>,
}

/// One side of one claim and seed, waiting for its track to reach `steps`.
struct Stop {
    steps: usize,
    claim: usize,
    seed: usize,
    side: Side,
    metrics: Vec<Metric>,
}

/// One training run that one or more sides share: a config (its budget the largest
/// asked for), a thread count, and where to stop and measure (ascending budgets).
pub(super) struct Track {
    config: ExperimentConfig,
    threads: Option<usize>,
    stops: Vec<Stop>,
}

/// The tracks for `claims` with `seeds` (none for a claim that reads times),
/// in the order their first side appears.
pub(super) fn tracks(claims: &[&Claim], seeds: &[u64]) -> Vec<Track> {
    let mut tracks: Vec<Track> = Vec::new();
    for (claim, c) in claims.iter().enumerate().filter(|(_, c)| !c.timed()) {
        for (seed, &value) in seeds.iter().enumerate() {
            for SideSpec { side, metrics, mut config, steps, threads } in c.side_specs(value) {
                let stop = Stop { steps, claim, seed, side, metrics };
                config.steps = 0; // compared without the budget
                match tracks.iter_mut().find(|t| t.threads == threads && t.config == config) {
                    Some(track) => track.stops.push(stop),
                    None => tracks.push(Track { config, threads, stops: vec![stop] }),
                }
            }
        }
    }
    for track in &mut tracks {
        track.stops.sort_by_key(|s| s.steps); // stable: ties keep claim order
        track.config.steps = track.steps().max(1);
    }
    tracks
}

impl Track {
    /// The steps it trains: the largest budget of its sides.
    pub(super) fn steps(&self) -> usize {
        self.stops.last().map_or(0, |s| s.steps)
    }

    /// The steps it trains with those its sides' measuring trains: a side that
    /// reads a head sweep trains its config again at every other head count.
    /// The sweep trains each head count for the side's own budget.
    pub(super) fn steps_with_measuring(&self) -> usize {
        let sweeping = self.stops.iter().filter(|stop| stop.metrics.iter().any(|m| m.reads_head_sweep()));
        self.steps() + sweeping.map(|stop| super::head_sweep::sweep_steps(&self.config, stop.steps.max(1))).sum::<usize>()
    }

    /// A rough count of the multiply-adds it trains (steps × tokens × the
    /// layers' work per token), to start the longest tracks first. A head sweep's
    /// runs are left out: counted in, they start lesson 22's tracks first, where
    /// their four runs at once crowd the other tracks (measured: no faster).
    fn work(&self) -> f64 {
        let (model, seq) = (&self.config.model, self.config.task.length.max(1) as f64);
        let d = model.d_model as f64;
        let per_token: f64 = model.layers.iter().chain(&model.encoder_layers).map(|l| 4.0 * d * d + 2.0 * d * l.d_ff as f64 + 2.0 * seq * d).sum::<f64>().max(d * d);
        self.steps() as f64 * self.config.batch_size as f64 * seq * per_token
    }

    /// Its session and thread pool, ready to train.
    fn trainer(&self) -> Result<SideTrainer, SessionError> {
        SideTrainer::new(Session::new(self.config.clone())?, 0, self.threads)
    }
}

/// What has come back for one claim so far.
struct Slot {
    sides: Vec<Vec<SideMeasured>>,
    seconds: Vec<f64>,
    expected: usize,
    arrived: usize,
    /// Why sides could not run, by (seed, side): the first in that order is the
    /// one reported, as when the claim runs alone.
    errors: std::collections::BTreeMap<(usize, Side), String>,
    /// A timed claim's outcome, measured before the pool ran.
    timed: Option<ClaimOutcome>,
}

/// Run `claims` with each of `seeds`; `done(index, outcome)` is called once per
/// claim, in claim order. The claims that read times run first, alone, one
/// after the other; then every other claim shares one pool, so no core waits at
/// a timed claim for the pool's last track to end.
pub fn run_claims(claims: &[&Claim], seeds: &[u64], done: &mut (dyn FnMut(usize, ClaimOutcome) + Send)) {
    let workers = rayon::current_num_threads().max(1);
    let timed: Vec<Option<ClaimOutcome>> = claims
        .iter()
        .map(|claim| {
            claim.timed().then(|| {
                let start = Instant::now();
                let results = claim.run_seeds_observed(seeds, &mut |_| true).map(|r| r.expect("never cancelled")).map_err(|e| e.to_string());
                let share = start.elapsed().as_secs_f32() / seeds.len().max(1) as f32;
                ClaimOutcome { results, seconds: vec![share; seeds.len()] }
            })
        })
        .collect();
    run_pool(claims, timed, seeds, workers, done);
}

/// The untimed `claims` as one pool worked through by `workers` threads, the
/// longest tracks first (so the last to end is a short one); `timed` holds the
/// outcomes of the timed claims, handed on in their places.
fn run_pool(claims: &[&Claim], mut timed: Vec<Option<ClaimOutcome>>, seeds: &[u64], workers: usize, done: &mut (dyn FnMut(usize, ClaimOutcome) + Send)) {
    let mut tracks = tracks(claims, seeds);
    tracks.sort_by(|a, b| b.work().total_cmp(&a.work())); // stable: ties keep claim order
    let slots: Vec<Slot> = claims
        .iter()
        .zip(&mut timed)
        .map(|(c, timed)| Slot {
            sides: seeds.iter().map(|_| Vec::new()).collect(),
            seconds: vec![0.0; seeds.len()],
            expected: if timed.is_some() { 0 } else { c.sides().len() * seeds.len() },
            arrived: 0,
            errors: Default::default(),
            timed: timed.take(),
        })
        .collect();
    let state = Mutex::new((slots, 0usize, done));
    // One side measured (or failed): file it, then hand on the claims now complete.
    let arrive = |stop: &Stop, measured: Result<SideMeasured, String>, seconds: f64| {
        let mut guard = state.lock().expect("no track panicked while filing");
        let (slots, next, done) = &mut *guard;
        let slot = &mut slots[stop.claim];
        slot.arrived += 1;
        slot.seconds[stop.seed] += seconds / workers as f64;
        match measured {
            Ok(side) => slot.sides[stop.seed].push(side),
            Err(why) => {
                slot.errors.insert((stop.seed, stop.side), why);
            }
        }
        hand_on(claims, seeds, slots, next, &mut **done);
    };
    // The claims before the first track's sides arrive (timed, or with no side).
    {
        let mut guard = state.lock().expect("nothing has run yet");
        let (slots, next, done) = &mut *guard;
        hand_on(claims, seeds, slots, next, &mut **done);
    }
    share_out(workers, tracks, &|track: Track, crowded| {
        let start = Instant::now();
        match track.trainer() {
            Ok(trainer) => {
                train_track(trainer, track.stops, start, (&|| true, crowded), &|stop, side, seconds| arrive(stop, Ok(side), seconds));
            }
            Err(why) => track.stops.iter().for_each(|stop| arrive(stop, Err(why.to_string()), 0.0)),
        }
    });
    // Claims with no side to train (none arrives for them) are complete too.
    let (mut slots, mut next, done) = state.into_inner().expect("no track panicked while filing");
    hand_on(claims, seeds, &mut slots, &mut next, done);
    assert_eq!(next, slots.len(), "every side of every claim came back");
}

/// Hand on, from `next`, every claim whose sides have all arrived, stopping at the
/// first that has not.
fn hand_on(claims: &[&Claim], seeds: &[u64], slots: &mut [Slot], next: &mut usize, done: &mut (dyn FnMut(usize, ClaimOutcome) + Send)) {
    while *next < slots.len() && slots[*next].arrived == slots[*next].expected {
        let slot = &mut slots[*next];
        if let Some(outcome) = slot.timed.take() {
            done(*next, outcome);
            *next += 1;
            continue;
        }
        let results = match std::mem::take(&mut slot.errors).into_values().next() {
            Some(why) => Err(why),
            None => Ok(seeds.iter().zip(std::mem::take(&mut slot.sides)).map(|(&seed, sides)| claims[*next].result(seed, sides)).collect()),
        };
        done(*next, ClaimOutcome { results, seconds: slot.seconds.iter().map(|s| *s as f32).collect() });
        *next += 1;
    }
}

/// One claim with each of `seeds`, its tracks as a pool of their own (the
/// window's *Verify it*; a claim that reads times runs alone instead, in
/// `Claim::run_seeds_observed`). Every session is made first, so a side that
/// cannot start says so before anything trains. Each track trains on a thread of
/// its own, so all of them finish together (a track of one chunk keeps to one
/// core; as many workers as cores would leave one idle while the last track of
/// an odd count trains). `tick()` is called after every training step (and before
/// each step a head sweep trains while a side is measured); once it returns
/// false each track stops at its next step and the result is None.
pub(super) fn run_one_claim(claim: &Claim, seeds: &[u64], tick: &(dyn Fn() -> bool + Sync)) -> Result<Option<Vec<ClaimResult>>, SessionError> {
    debug_assert!(!claim.timed(), "a claim that reads times runs alone");
    let mut ready = Vec::new();
    for track in tracks(&[claim], seeds) {
        ready.push((track.trainer()?, track.stops));
    }
    let sides = Mutex::new((seeds.iter().map(|_| Vec::new()).collect::<Vec<Vec<SideMeasured>>>(), true));
    let arrive = |stop: &Stop, side: SideMeasured, _: f64| sides.lock().expect("no track panicked while filing").0[stop.seed].push(side);
    share_out(ready.len(), ready, &|(trainer, stops), crowded| {
        if !train_track(trainer, stops, Instant::now(), (tick, crowded), &arrive) {
            sides.lock().expect("no track panicked while filing").1 = false;
        }
    });
    let (by_seed, finished) = sides.into_inner().expect("no track panicked while filing");
    Ok(finished.then(|| seeds.iter().zip(by_seed).map(|(&seed, sides)| claim.result(seed, sides)).collect()))
}

/// Train one track, measuring each of its sides at its own budget; false when
/// `go_on()` stopped it first. A side's seconds are the track's training (from
/// `start`, so making the session counts) up to its budget plus its own measuring:
/// what it would take alone.
fn train_track(mut trainer: SideTrainer, stops: Vec<Stop>, start: Instant, (go_on, crowded): (&(dyn Fn() -> bool + Sync), &dyn Fn() -> bool), arrive: &(dyn Fn(&Stop, SideMeasured, f64) + Sync)) -> bool {
    let mut training = start.elapsed().as_secs_f64();
    for mut stop in stops {
        let trained = Instant::now();
        if !trainer.train_to(stop.steps, go_on, crowded) {
            return false;
        }
        training += trained.elapsed().as_secs_f64();
        let measuring = Instant::now();
        let Some(measured) = SideMeasured::at_observed(stop.side, std::mem::take(&mut stop.metrics), &mut trainer, go_on) else {
            return false;
        };
        arrive(&stop, measured, training + measuring.elapsed().as_secs_f64());
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::{SideRun, parse_condition};

    fn claim(a: &ExperimentConfig, b: &ExperimentConfig, steps: usize, conditions: &[&str]) -> Claim {
        Claim {
            statement: conditions.join(", "),
            a: a.clone(),
            b: Some(b.clone()),
            steps,
            run_a: SideRun::default(),
            run_b: SideRun::default(),
            conditions: conditions.iter().map(|c| parse_condition(c).unwrap()).collect(),
        }
    }

    /// The claim as the plainest runner would: each side of each seed trained on
    /// its own, to its own budget, then measured (no tracks, no threads; the same
    /// session, step and measuring code).
    fn one_side_at_a_time(claim: &Claim, seeds: &[u64]) -> Result<Vec<ClaimResult>, String> {
        let mut results = Vec::new();
        for &seed in seeds {
            let mut sides = Vec::new();
            for SideSpec { side, metrics, config, steps, threads } in claim.side_specs(seed) {
                let mut trainer = Session::new(config).and_then(|session| SideTrainer::new(session, 0, threads)).map_err(|e| e.to_string())?;
                assert!(trainer.train_to(steps, &|| true, &|| false));
                sides.push(trainer.measured(side, metrics));
            }
            results.push(claim.result(seed, sides));
        }
        Ok(results)
    }

    /// A side that reads a head sweep trains its config again at each other head
    /// count while it is measured: the window's progress counts those steps (it
    /// sat at "300 / 300" while four times as many trained), and a cancel stops
    /// the sweep at its next step.
    #[test]
    fn a_head_sweep_counts_in_the_progress_and_a_cancel_stops_it() {
        let mut a = crate::config::preset("tiny").unwrap();
        a.task = crate::tasks::TaskConfig::for_kind(crate::tasks::TaskKind::Lookup);
        a.eval_size = 64;
        a.model.layers.iter_mut().for_each(|l| l.heads = 2);
        let steps = 12;
        let mut claim = claim(&a, &a, steps, &["a.heads_test_spread >= 0"]);
        claim.b = None;
        let seeds = [0u64, 1];
        // Two runs of 12 steps, and for each the four other head counts.
        assert_eq!(claim.steps_in_all(&seeds), 2 * steps + 2 * 4 * steps);
        let mut reported = 0;
        let results = claim.run_seeds_observed(&seeds, &mut |done| { reported = done; true }).unwrap().expect("not cancelled");
        assert_eq!(results.len(), 2);
        assert_eq!(reported, claim.steps_in_all(&seeds), "progress reaches the total the window shows");
        // Cancelled once both runs are trained, inside the sweeps: it ends early.
        let mut after_cancel = 0;
        let cancelled = claim.run_seeds_observed(&seeds, &mut |done| {
            if done > 2 * steps + 3 {
                after_cancel += 1;
            }
            done <= 2 * steps + 3
        });
        assert!(cancelled.unwrap().is_none(), "a cancel in the sweep is a cancel");
        assert!(after_cancel <= 16, "each sweep's runs stop at their next step: {after_cancel} steps after the cancel");
    }

    /// Claims run together, sharing tracks (the same side in two claims, a shorter
    /// budget on the way to a longer one, a side measured with heads ablated and
    /// then trained on, a track that diverges between two budgets), give each claim
    /// exactly the results it gives alone, in claim order; a timed claim runs
    /// before the pool, and one that cannot start says why without stopping the
    /// claims after it.
    #[test]
    fn shared_tracks_give_each_claim_its_own_results() {
        let mut a = crate::config::preset("tiny").unwrap();
        a.task.length = 6;
        a.eval_size = 32;
        let mut b = a.clone();
        b.task.length = 12;
        b.model.max_len = 32;
        let mut broken = a.clone();
        broken.model.layers[0].heads = 3; // d_model 32 has no 3 equal heads
        let mut wild = a.clone();
        wild.optimizer = crate::config::OptimizerKind::Sgd;
        wild.lr = 10.0;
        let measures = ["a.eval_loss > 0 * b.eval_loss", "a.train_loss > 0", "b.eval_accuracy >= 0", "a.phase_drop >= 0"];
        let together = claim(&a, &b, 120, &measures);
        // Its b cannot start; its a (5 steps on a's track) could, and comes first.
        let refused = claim(&a, &broken, 5, &["a.eval_loss > 0", "b.eval_loss > 0"]);
        let timed = claim(&a, &b, 4, &["b.step_ms > 0 * a.step_ms"]);
        // Reads writing times: alone too, its sides measured one at a time.
        let writing = claim(&a, &b, 3, &["b.uncached_ms_per_token > 0 * a.cached_ms_per_token", "a.cache_mismatches <= 0"]);
        // Side a stops at 60 on a's track (its heads zeroed one at a time there),
        // side b at 120 on the same track.
        let mut prefix = claim(&a, &a, 60, &["a.max_head_ablation_drop >= 0", "a.eval_loss > 0", "b.train_loss > 0"]);
        prefix.run_b.steps = Some(120);
        // One thread of its own: a track of its own.
        let mut own_threads = claim(&a, &b, 60, &["a.eval_loss > 0"]);
        own_threads.run_a.threads = Some(1);
        // Plain SGD at learning rate 10: fine after one step, diverged by 200.
        let mut diverging = claim(&wild, &wild, 1, &["a.train_loss > 0", "b.diverged >= 1"]);
        diverging.run_b.steps = Some(200);
        let claims = [&together, &refused, &timed, &prefix, &own_threads, &diverging, &writing];
        let seeds = [0, 2];

        let untimed = [&together, &refused, &prefix, &own_threads, &diverging];
        let planned = tracks(&untimed, &seeds);
        assert!(timed.timed() && timed.times_steps() && writing.timed() && !writing.times_steps());
        let all_stops = |tracks: Vec<Track>| tracks.into_iter().map(|t| t.stops.len()).collect::<Vec<_>>();
        assert_eq!(all_stops(tracks(&claims, &seeds)), all_stops(tracks(&untimed, &seeds)), "a claim that reads times has no track in the pool");
        // Per seed: a (four sides), b, the broken b, a on one thread, and the
        // diverging pair, in the order their first side appears (a claim trains
        // only the sides its conditions name).
        let stops: Vec<Vec<usize>> = planned.iter().map(|t| t.stops.iter().map(|s| s.steps).collect()).collect();
        let a_track = vec![5, 60, 120, 120];
        assert_eq!(stops, vec![a_track.clone(), vec![120], a_track, vec![120], vec![5], vec![5], vec![60], vec![60], vec![1, 200], vec![1, 200]]);

        let mut outcomes = Vec::new();
        run_claims(&claims, &seeds, &mut |index, outcome| outcomes.push((index, outcome)));
        assert_eq!(outcomes.iter().map(|(i, _)| *i).collect::<Vec<_>>(), vec![0, 1, 2, 3, 4, 5, 6], "claim order");
        // The same results, value for value (step times aside).
        let same = |got: &[ClaimResult], alone: &[ClaimResult], at: &str, timed: bool| {
            assert_eq!(got.len(), alone.len(), "{at}");
            for (p, s) in got.iter().zip(alone) {
                let at = format!("{at} seed {}", p.seed);
                assert_eq!((p.seed, p.passed), (s.seed, s.passed), "{at}");
                assert_eq!(p.curves, s.curves, "{at}");
                assert_eq!(p.maps, s.maps, "{at}");
                assert_eq!(p.diverged, s.diverged, "{at}");
                assert_eq!(p.undefined, s.undefined, "{at}");
                assert_eq!(p.measured.len(), s.measured.len(), "{at}");
                for (name, value) in p.measured.iter().filter(|(name, _)| !name.ends_with("_ms") && !name.ends_with("_ms_per_token")) {
                    assert_eq!(value.to_bits(), s.measured[name].to_bits(), "{at} {name}");
                }
                if !timed {
                    // As text: an undefined condition's NaN is not equal to itself.
                    assert_eq!(format!("{:?}", p.conditions), format!("{:?}", s.conditions), "{at}");
                }
            }
        };
        for (index, outcome) in outcomes {
            let claim = claims[index];
            // Claims on step times take turns outside the pool: their reference is that.
            let alone = if claim.times_steps() {
                claim.run_seeds_observed(&seeds, &mut |_| true).map(|r| r.unwrap()).map_err(|e| e.to_string())
            } else {
                one_side_at_a_time(claim, &seeds)
            };
            // The window's Verify it: this claim's tracks alone, progress after every step.
            let mut reported = 0;
            let window = claim.run_seeds_observed(&seeds, &mut |done| { reported = done; true }).map(|r| r.unwrap()).map_err(|e| e.to_string());
            let (Ok(pooled), Ok(alone), Ok(window)) = (&outcome.results, &alone, &window) else {
                assert_eq!(index, 1, "only the broken claim fails");
                assert_eq!(outcome.results.as_ref().err(), alone.as_ref().err(), "the same reason as alone");
                assert_eq!(window.as_ref().err(), alone.as_ref().err(), "the same reason in the window");
                assert_eq!(reported, 0, "nothing trains when a side cannot start, not even the side before it");
                assert!(alone.as_ref().unwrap_err().contains("heads"), "{alone:?}");
                continue;
            };
            assert_eq!(outcome.seconds.len(), seeds.len());
            same(pooled, alone, &format!("claim {index}"), claim.timed());
            same(window, alone, &format!("claim {index} in the window"), claim.timed());
            if index == 5 {
                assert!(pooled.iter().all(|r| r.diverged.contains_key("b") && !r.diverged.contains_key("a")), "{pooled:?}");
                assert!(reported < claim.steps_in_all(&seeds), "a diverged run stops early: {reported}");
            } else {
                assert_eq!(reported, claim.steps_in_all(&seeds), "claim {index}: progress reaches the total the window shows");
            }
        }
    }
}
