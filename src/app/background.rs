//! Work the window hands to other threads (claims, sweeps, writes), and folding
//! their reports from the one inbox into the window's data.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::{StartAfter, WorkbenchApp};
use super::inbox::Message;
use crate::experiments::{LENGTH_SWEEP, LENGTH_SWEEP_STEPS, measure_length, saturation_sweep};
use crate::t;
use crate::training::TrainCommand;
use crate::workbench::actions::AppAction;
use crate::workbench::lesson_runner::ClaimEnd;
use crate::workbench::run_view::{Banner, BannerKind, RunStatus};

/// The sweeps a learner can stop.
#[derive(Clone, Copy, Debug)]
pub(super) enum Sweep {
    Lengths,
    Heads,
}

/// Longest time one frame spends folding in background reports.
const INBOX_BUDGET: Duration = Duration::from_millis(2);

impl WorkbenchApp {
    /// Verify a claim of the open lesson on its own thread (the live run pauses
    /// meanwhile); false when another verification still runs.
    pub fn verify_claim(&mut self, id: &str) -> bool {
        let Some((key, claim, seeds)) = self.lessons.begin_claim(id) else { return false };
        let cancel = Arc::new(AtomicBool::new(false));
        self.claim_cancel = Some(cancel.clone());
        self.inbox.spawn_thread("claim", move |out| {
            // Should the verification panic, its end still arrives: the live run
            // resumes and the claim says it failed, instead of running for ever.
            let crashed = out.on_drop(Message::ClaimEnd(key.clone(), Err(t!("lesson-claim-crashed"))));
            crate::training::priority::yield_to_window();
            let mut last_report = Instant::now();
            // Progress counts the steps of every seed together (they may train at once).
            let mut on_step = |done: usize| {
                // A few reports a second: each one repaints the window.
                if last_report.elapsed() > Duration::from_millis(250) {
                    last_report = Instant::now();
                    out.send(Message::ClaimProgress(key.clone(), done));
                }
                !cancel.load(Ordering::Relaxed)
            };
            let outcome = claim.run_seeds_observed(&seeds, &mut on_step).map_err(|e| e.to_string());
            out.send(Message::ClaimEnd(key, outcome));
            crashed.disarm();
        });
        true
    }

    /// Stop the verification that runs (it ends at its next training step).
    pub(super) fn cancel_claim(&mut self) {
        if let Some(cancel) = &self.claim_cancel {
            cancel.store(true, Ordering::Relaxed);
        }
        self.lessons.claim_cancelling();
    }

    /// A claim's verification or a sweep is measuring on the CPU: the live run
    /// does not train beside it.
    pub(super) fn measuring(&self) -> bool {
        self.lessons.claim_running() || self.background.sweeping()
    }

    /// A sweep is about to start: a live run that trains pauses, so the two do
    /// not share the cores (the length sweep times steps), and resumes when it ends.
    pub(super) fn pause_for_sweep(&mut self) {
        if self.view.status == RunStatus::Running {
            self.trainer.send(TrainCommand::Pause);
            self.start_after_measuring = Some(StartAfter::Run(self.view.generation));
            self.measuring_notice(t!("msg-sweep-paused-run"));
        }
    }

    /// A note about the live run waiting for a measurement: it goes when the
    /// measurement ends.
    pub(super) fn measuring_notice(&mut self, text: String) {
        self.measuring_note = Some(text.clone());
        self.notice(BannerKind::Info, text);
    }

    /// A verification or a sweep has ended: once nothing else measures, resume
    /// the live run it paused, or start the one pressed for meanwhile, unless that
    /// run was replaced in between. It goes as a press of Start would, so edits
    /// made meanwhile apply first.
    fn measuring_ended(&mut self) {
        if self.measuring() {
            return;
        }
        // "Paused while … measures" is no longer true.
        if let Some(note) = self.measuring_note.take() {
            self.view.drop_banner_saying(&note);
        }
        let still_there = match self.start_after_measuring.take() {
            Some(StartAfter::Run(generation)) => generation == self.view.generation,
            Some(StartAfter::Next) => true,
            None => false,
        };
        if still_there {
            self.perform(AppAction::StartOrResume);
        }
    }

    /// Time the live model at every length of the sweep, replacing earlier results.
    pub(super) fn measure_lengths(&mut self) {
        if self.background.lengths_running {
            return;
        }
        self.background.lengths.clear();
        self.background.lengths_running = true;
        self.background.lengths_stop_pressed = false;
        let base = self.applied.clone();
        self.background.lengths_base = Some(base.clone());
        let stop = Arc::new(AtomicBool::new(false));
        self.lengths_stop = Some(stop.clone());
        self.inbox.spawn("length sweep", move |out| {
            let _done = out.on_drop(Message::LengthsDone);
            // It trains, so it yields to the window as training does.
            crate::training::priority::yield_to_window();
            for length in LENGTH_SWEEP {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                if !out.send(Message::Length(measure_length(&base, length, LENGTH_SWEEP_STEPS))) {
                    return; // the window closed
                }
            }
        });
    }

    /// Train the live config with every head count of the sweep, replacing
    /// earlier results; stops early when the window closes.
    pub(super) fn measure_heads(&mut self) {
        if self.background.heads_running {
            return;
        }
        self.background.heads.clear();
        self.background.heads_running = true;
        let base = self.applied.clone();
        self.background.heads_base = Some(base.clone());
        let stop = Arc::new(AtomicBool::new(false));
        self.heads_stop = Some(stop.clone());
        self.background.heads_stop_pressed = false;
        let per_count = base.steps;
        self.background.heads_progress = Some(crate::workbench::step_progress::StepProgress::new(crate::experiments::HEAD_COUNTS.len() * per_count));
        self.inbox.spawn("head sweep", move |out| {
            let _done = out.on_drop(Message::HeadsDone);
            crate::training::priority::yield_to_window();
            let (steps, last_report) = (std::cell::Cell::new(0), std::cell::Cell::new(Instant::now()));
            // Asked before every training step: count it, report a few times a
            // second (each report repaints the window), and say whether to stop.
            let stopped = || {
                steps.set(steps.get() + 1);
                if last_report.get().elapsed() > Duration::from_millis(250) {
                    last_report.set(Instant::now());
                    out.send(Message::HeadsSteps(steps.get()));
                }
                stop.load(Ordering::Relaxed)
            };
            for (i, heads) in crate::experiments::HEAD_COUNTS.into_iter().enumerate() {
                // None: stopped in the middle of this head count's training.
                let Some(outcome) = crate::experiments::measure_heads(&base, heads, &stopped) else { break };
                // Done with this count, trained or refused (which trains nothing).
                steps.set((i + 1) * per_count);
                out.send(Message::HeadsSteps(steps.get()));
                if !out.send(Message::Heads(outcome)) {
                    return; // the window closed
                }
            }
        });
    }

    /// Ask the sweep that runs to stop; it reports its end as a finished one does.
    pub(super) fn stop_sweep(&mut self, sweep: Sweep) {
        let (stop, pressed) = match sweep {
            Sweep::Lengths => (&self.lengths_stop, &mut self.background.lengths_stop_pressed),
            Sweep::Heads => (&self.heads_stop, &mut self.background.heads_stop_pressed),
        };
        if let Some(stop) = stop {
            stop.store(true, Ordering::Relaxed);
            *pressed = true;
        }
    }

    /// The saturation sweep, computed once.
    pub(super) fn compute_saturation(&mut self) {
        if self.background.saturation.is_some() || std::mem::replace(&mut self.background.saturation_running, true) {
            return;
        }
        self.inbox.spawn("saturation sweep", |out| {
            let dims: Vec<usize> = (0..=9).map(|i| 1usize << i).collect();
            out.send(Message::Saturation(saturation_sweep(&dims, 16, 300, 7)));
        });
    }

    /// Write a file off the window's thread; the status strip says how it went.
    pub(super) fn write_in_background(&self, what: &str, work: impl FnOnce() -> Banner + Send + 'static) {
        self.inbox.spawn(what, move |out| {
            out.send(Message::Notice(work()));
        });
    }

    /// Fold in background reports for at most `INBOX_BUDGET` (all of them in
    /// lockstep); what is left waits for the next frame, which is asked for.
    pub(super) fn fold_inbox(&mut self) {
        let start = Instant::now();
        loop {
            if !self.lockstep && start.elapsed() >= INBOX_BUDGET {
                self.ctx.request_repaint();
                break;
            }
            let Some(message) = self.inbox.try_recv() else { break };
            match message {
                // An Info notice says a file was written: a success.
                Message::Notice(banner) if banner.kind == BannerKind::Info => self.view.show_success(banner.text),
                Message::Notice(banner) => self.view.show_banner(banner),
                Message::ClaimProgress(key, done) => self.lessons.claim_advanced(&key, done),
                Message::ClaimEnd(key, result) => {
                    self.claim_cancel = None;
                    let end = self.lessons.claim_ended(key, result, &mut self.state.progress);
                    self.measuring_ended();
                    match end {
                        ClaimEnd::Cancelled => self.notice(BannerKind::Info, t!("lesson-msg-claim-cancelled")),
                        ClaimEnd::CancelledKeepingVerdict => self.notice(BannerKind::Info, t!("lesson-msg-claim-cancelled-kept")),
                        ClaimEnd::Finished => {}
                    }
                }
                Message::Length(outcome) => self.background.lengths.push(outcome),
                Message::LengthsDone => {
                    self.background.lengths_running = false;
                    self.lengths_stop = None;
                    self.measuring_ended();
                }
                Message::Heads(outcome) => self.background.heads.push(outcome),
                Message::HeadsSteps(steps) => {
                    if let Some(progress) = &mut self.background.heads_progress {
                        progress.advance(steps);
                    }
                }
                Message::HeadsDone => {
                    self.background.heads_running = false;
                    self.background.heads_progress = None;
                    self.heads_stop = None;
                    self.measuring_ended();
                }
                Message::Saturation(points) => {
                    self.background.saturation = Some(points);
                    self.background.saturation_running = false;
                }
                Message::Pretrained(event) => self.pretrained_event(event),
                Message::Dialog(request, answer) => {
                    self.background.dialog_open = false;
                    self.dialog_answered(request, answer);
                }
            }
        }
    }
}
