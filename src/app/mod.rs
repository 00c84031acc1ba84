//! The window: state, event draining, actions. Drawing lives in `crate::ui`.
//! It sends `TrainCommand`s and reads `TrainEvent`s; it never touches a tensor.

mod background;
mod classroom;
mod file_actions;
pub mod files;
mod perform;
mod pretrained_link;
pub mod frame_times;
mod inbox;
mod launch;
mod trainer_link;
pub mod fonts;
mod env_hooks;
pub mod undo;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use eframe::egui;

pub use fonts::install_fonts;
pub use launch::run;
use frame_times::FrameTimes;
use inbox::Inbox;
use undo::UndoStack;

use crate::config::ExperimentConfig;
use crate::training::TrainerHandle;
use crate::ui::window::Panels;
use crate::workbench::checked::Checked;
use crate::workbench::lesson_runner::LessonRunner;
use crate::workbench::run_view::{self, RunView};
use crate::workbench::state::{PersistedState, STORAGE_KEY};
use crate::workbench::window::{Background, WindowData, WindowState};

/// What the preset menu shows for a config that came from a file or an exercise.
const CUSTOM: &str = "custom";

/// The live run is started (or resumed) once no claim or sweep measures any
/// more: it was paused for the measurement, or Start was pressed meanwhile.
#[derive(Clone, Copy, Debug, PartialEq)]
enum StartAfter {
    /// Only the run of this generation: one replaced meanwhile is not started.
    Run(usize),
    /// The run a lesson's try is setting up, whatever it becomes.
    Next,
}

/// The window's state and its links to the trainer and to background work. It
/// drains events, lends its data to `ui::window::Panels` each frame and applies
/// the actions they return; it draws nothing itself.
pub struct WorkbenchApp {
    pub state: PersistedState,
    /// The config the trainer has.
    applied: ExperimentConfig,
    checked: Checked,
    undo: UndoStack<ExperimentConfig>,
    /// The config when the current (possibly multi-frame) edit started.
    edit_start: Option<ExperimentConfig>,
    pub view: RunView,
    trainer: TrainerHandle,
    events: crate::training::EventReceiver,
    /// An edit that would lose trained weights, waiting for the learner's yes.
    confirm_apply: Option<ExperimentConfig>,
    /// The question above came from Start: a yes starts the run.
    start_after_confirm: bool,
    pub panels: Panels,
    pub window: WindowState,
    pub background: Background,
    pub pretrained: crate::workbench::pretrained_view::PretrainedView,
    /// The pretrained checkpoint's thread, started when one is first opened.
    pretrained_link: Option<std::sync::mpsc::Sender<crate::pretrained::worker::PretrainedCommand>>,
    pub lessons: LessonRunner,
    /// The bug-hunt case whose experiment is loaded, until another experiment is.
    bug_case: Option<String>,
    /// The loaded case's own model is ready (its Ready event came): its steps count.
    bug_case_ready: bool,
    /// Cases loaded and trained at least one step this session.
    bug_cases_trained: std::collections::BTreeSet<String>,
    /// Start (or resume) the live run once no claim or sweep measures any more.
    start_after_measuring: Option<StartAfter>,
    /// The note shown about the live run waiting for a measurement.
    measuring_note: Option<String>,
    /// Set to stop the claim verification that runs.
    claim_cancel: Option<Arc<AtomicBool>>,
    /// Set to stop the length sweep or the head sweep that runs.
    lengths_stop: Option<Arc<AtomicBool>>,
    heads_stop: Option<Arc<AtomicBool>>,
    /// Where the path field starts (the working folder; tests use a temporary one).
    pub files_dir: std::path::PathBuf,
    frame_times: FrameTimes,
    inbox: Inbox,
    /// The trainer runs in lockstep with the frames (tests): every waiting event
    /// is read each frame, not as many as a time budget allows.
    lockstep: bool,
    ctx: egui::Context,
}

impl WorkbenchApp {
    pub fn new(ctx: egui::Context, state: PersistedState) -> Self {
        Self::with_trainer(ctx, state, false)
    }

    /// The window with its trainer in lockstep: commands are handled when sent and
    /// each frame trains `LOCKSTEP_STEPS_PER_FRAME` steps, so the same frames and
    /// actions give the same window, whatever the machine's speed (tests replay).
    pub fn new_lockstep(ctx: egui::Context, state: PersistedState) -> Self {
        Self::with_trainer(ctx, state, true)
    }

    fn with_trainer(ctx: egui::Context, state: PersistedState, lockstep: bool) -> Self {
        crate::i18n::set_lang(state.effective_language());
        let (tx, events) = crate::training::event_queue();
        let trainer = if lockstep {
            TrainerHandle::lockstep(state.config.clone(), tx)
        } else {
            let wake_ctx = ctx.clone();
            let waker: crate::training::Waker = Arc::new(move || wake_ctx.request_repaint());
            TrainerHandle::spawn_beside_window(state.config.clone(), tx, waker)
        };
        // A state saved before has a lesson; a first start opens the guide.
        // (A language chosen before anything else, as on the command line, is
        // still a first start.)
        let first_start = PersistedState { language: None, ..state.clone() } == PersistedState::default();
        let mut lessons = LessonRunner::default();
        let reopen_errors = lessons.reopen(&state.packs);
        lessons.open_id(&state.lesson);
        lessons.saved_experiment = state.saved_experiment.clone();
        // The lesson whose experiment is loaded: as saved, or the open lesson when
        // the experiment is exactly its start (a first start loads lesson 01's).
        lessons.experiment_of = state
            .lesson_experiment
            .clone()
            .or_else(|| lessons.lesson().filter(|l| l.start == state.config).map(|l| l.id.clone()));
        let mut app = Self {
            applied: state.config.clone(),
            checked: Checked::of(&state.config),
            state,
            undo: UndoStack::default(),
            edit_start: None,
            view: RunView::default(),
            trainer,
            events,
            confirm_apply: None,
            start_after_confirm: false,
            panels: Panels::default(),
            window: WindowState { getting_started_open: first_start, ..WindowState::default() },
            background: Background::default(),
            pretrained: Default::default(),
            pretrained_link: None,
            lessons,
            bug_case: None,
            bug_case_ready: false,
            bug_cases_trained: Default::default(),
            files_dir: files::documents_dir(),
            start_after_measuring: None,
            measuring_note: None,
            claim_cancel: None,
            lengths_stop: None,
            heads_stop: None,
            frame_times: FrameTimes::from_env(),
            inbox: Inbox::new(ctx.clone(), lockstep),
            lockstep,
            ctx,
        };
        if !reopen_errors.is_empty() {
            app.notice(run_view::BannerKind::Warning, crate::t!("lesson-msg-pack-reopen-failed", errors = reopen_errors.join("; ")));
        }
        app
    }

    pub fn can_start(&self) -> bool {
        self.checked.problems.is_empty()
    }

    /// An edit that would lose trained weights waits for the learner's yes.
    pub fn confirm_pending(&self) -> bool {
        self.confirm_apply.is_some()
    }

    /// Whether edits wait to be sent to the trainer.
    pub fn has_pending_edits(&self) -> bool {
        self.state.config != self.applied
    }


    /// One frame: fold in what the trainer and background work reported, let the
    /// panels draw from the window's data, then apply what the learner did. Tests
    /// call this directly.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let frame_start = Instant::now();
        let cpu_start = self.frame_times.thread_cpu();
        self.drain_events();
        self.fold_inbox();
        if !self.can_start() {
            // A note about a value one keystroke earlier would contradict the disabled Start.
            self.view.drop_apply_note();
        }
        let facts = crate::workbench::window::live_facts(&self.view, &self.applied, &self.background);
        self.lessons.tick_checks(&facts, &mut self.state.progress);
        let now = ui.ctx().input(|i| i.time);
        if let Some(left) = self.view.fade_banner(now) {
            ui.ctx().request_repaint_after(std::time::Duration::from_secs_f64(left));
        }
        let before = self.state.config.clone();
        let (presenter, hide_mask_knobs) = (self.presenter(), self.bug_case_unsolved());
        let (can_start, pending_edits) = (self.can_start(), self.has_pending_edits());
        let mut data = WindowData {
            state: &mut self.state,
            window: &mut self.window,
            view: &self.view,
            lessons: &self.lessons,
            background: &self.background,
            pretrained: &mut self.pretrained,
            applied: &self.applied,
            checked: &self.checked,
            can_start,
            pending_edits,
            confirm_apply: self.confirm_apply.is_some(),
            can_undo: self.undo.can_undo(),
            can_redo: self.undo.can_redo(),
            presenter,
            hide_mask_knobs,
            bug_case_loaded: self.bug_case.is_some(),
            bug_cases_trained: &self.bug_cases_trained,
        };
        let actions = self.panels.show(ui, &mut data);
        let pointer_down = ui.ctx().input(|i| i.pointer.any_down());
        self.track_edit(before, pointer_down);
        for action in actions {
            self.perform(action);
        }
        let cpu = self.frame_times.thread_cpu().zip(cpu_start).map(|(end, start)| end.saturating_sub(start));
        self.frame_times.record(frame_start.elapsed(), cpu, pointer_down);
    }

    /// Undo bookkeeping and validation after the panels changed the config.
    fn track_edit(&mut self, before: ExperimentConfig, pointer_down: bool) {
        self.hold_locks(&before);
        if self.state.config != before && self.edit_start.is_none() {
            self.edit_start = Some(before);
        }
        if !pointer_down && let Some(start) = self.edit_start.take() {
            if start != self.state.config {
                self.undo.record(start);
            } else {
                return;
            }
        }
        // Validate once per edit: a drag is one edit, checked when it ends (the
        // task, and a corpus file, are built once, not every frame of the drag).
        if !pointer_down {
            self.validate_edit();
        }
    }

    /// Validate the edited config if it changed since it was last validated, and
    /// let an untrained model follow it. Every action starts here too, so what a
    /// key press does in the middle of a drag reads the config as it is.
    fn validate_edit(&mut self) {
        if self.checked.config != self.state.config {
            self.checked = Checked::of(&self.state.config);
            self.auto_apply();
            // The note was about the change before: while this one cannot apply, or
            // waits for Apply edits, it would read as if this one had applied too.
            if !self.can_start() || self.has_pending_edits() {
                self.view.drop_apply_note();
            }
        }
    }

    /// What must hold after every frame, whatever the learner did (the monkey test
    /// checks it after each action): None when all holds, else what broke.
    pub fn broken_invariant(&self, pointer_held: bool) -> Option<String> {
        if !pointer_held && self.checked.config != self.state.config {
            return Some("an edit ended but the edited config was not validated".into());
        }
        if self.lessons.claims.values().filter(|c| matches!(c, crate::workbench::lesson_runner::ClaimState::Running { .. })).count() > 1 {
            return Some("more than one claim verification runs".into());
        }
        if self.claim_cancel.is_some() != self.lessons.claim_running() {
            return Some("the running claim and its thread disagree".into());
        }
        if self.confirm_apply.is_some() && self.view.step == 0 {
            return Some("a confirmation waits though no trained weights would be lost".into());
        }
        if self.has_pending_edits() && self.can_start() && self.view.step == 0 && self.view.status != run_view::RunStatus::Running && !pointer_held {
            return Some("an edit to an untrained model was not applied".into());
        }
        None
    }

    /// What is remembered for the next launch, including the experiment kept aside
    /// while a lesson's is loaded.
    pub fn state_to_save(&mut self) -> &PersistedState {
        self.state.saved_experiment = self.lessons.saved_experiment.clone();
        self.state.lesson_experiment = self.lessons.experiment_of.clone();
        &self.state
    }

    /// A bug-hunt case is loaded and not yet named or revealed: its planted knobs stay hidden.
    pub fn bug_case_unsolved(&self) -> bool {
        self.bug_case.as_ref().is_some_and(|id| !self.state.progress.bugs_solved.contains_key(id) && !self.state.progress.bugs_revealed.contains_key(id))
    }
}

impl eframe::App for WorkbenchApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        storage.set_string(STORAGE_KEY, self.state_to_save().to_stored());
    }

    fn on_exit(&mut self) {
        self.frame_times.report("at exit");
    }
}
