//! The window's link to the trainer: edits go out as configs (at once while
//! nothing trained would be lost, else after the learner's yes), events come back
//! within a time budget each frame.

use std::time::{Duration, Instant};

use crate::workbench::run_view::RunStatus;
use super::WorkbenchApp;
use crate::config::keeps_all_weights;
use crate::training::{TrainCommand, TrainEvent};

/// Longest time one frame spends folding in trainer events.
const EVENT_BUDGET: Duration = Duration::from_millis(4);
/// Training steps per frame when the trainer runs in lockstep (tests).
const LOCKSTEP_STEPS_PER_FRAME: usize = 2;

impl WorkbenchApp {
    /// Fold in trainer events for at most `EVENT_BUDGET` (all of them in lockstep,
    /// after training its steps for this frame).
    pub fn drain_events(&mut self) {
        self.trainer.pump(LOCKSTEP_STEPS_PER_FRAME);
        let start = Instant::now();
        while self.lockstep || start.elapsed() < EVENT_BUDGET {
            match self.events.try_recv() {
                Ok(event) => {
                    // A loaded case counts as trained once its own model (the
                    // Ready after the load) has taken a step.
                    match &event {
                        TrainEvent::Ready { .. } => self.bug_case_ready = self.bug_case.is_some(),
                        TrainEvent::Step(_) if self.bug_case_ready => {
                            if let Some(case) = self.bug_case.as_ref().filter(|c| !self.bug_cases_trained.contains(*c)) {
                                self.bug_cases_trained.insert(case.clone());
                            }
                        }
                        _ => {}
                    }
                    let unsolved = self.bug_case_unsolved();
                    // (A Ready event resets the view: set it for every event.)
                    self.view.hide_spoilers = unsolved;
                    self.view.apply(event)
                }
                Err(_) => break,
            }
        }
        // A reset (or a new model) while the learner was being asked: nothing
        // trained is left to lose, so the question is moot and the edit applies.
        if self.view.step == 0 && self.confirm_apply.take().is_some() {
            self.start_after_confirm = false;
            self.auto_apply();
        }
        if self.view.status == RunStatus::Running {
            // keep the progress bar and ETA moving even between events
            self.ctx.request_repaint_after(Duration::from_millis(250));
        }
    }

    /// With no training progress to lose, the live model follows edits at once.
    pub(super) fn auto_apply(&mut self) {
        let untouched = self.view.step == 0 && self.view.status != RunStatus::Running;
        if untouched && self.can_start() && self.has_pending_edits() {
            self.send_config();
        }
    }

    pub(super) fn send_config(&mut self) {
        self.applied = self.state.config.clone();
        self.trainer.send(TrainCommand::ApplyConfig(Box::new(self.applied.clone())));
    }

    /// Apply edits; asks first when trained weights would be lost.
    pub(super) fn apply_edits(&mut self) -> bool {
        if !self.has_pending_edits() {
            return true;
        }
        if !self.can_start() {
            return false;
        }
        if self.view.step > 0 && !self.keeps_weights() {
            self.confirm_apply = Some(self.state.config.clone());
            return false;
        }
        self.send_config();
        true
    }

    /// Whether the edits keep every trained weight. The same task has the same
    /// vocabulary, read from the edit's validation (the task is not built again).
    pub(super) fn keeps_weights(&self) -> bool {
        let Some(facts) = self.checked.facts.filter(|_| self.applied.task == self.state.config.task && self.checked.config == self.state.config) else {
            return false;
        };
        let (old, new) = (&self.applied, &self.state.config);
        keeps_all_weights(&old.model, old.model_vocab_size(facts.vocab), &new.model, new.model_vocab_size(facts.vocab))
    }
}
