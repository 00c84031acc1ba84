//! What the window does when the learner acts: every `AppAction`, the file
//! commands, lesson buttons, keyboard shortcuts and the confirmation dialog.

use std::path::Path;


use crate::workbench::actions::AppAction;
use crate::workbench::run_view::{Banner, BannerKind, RunStatus};
use crate::workbench::PathRequest;
use super::background::Sweep;
use super::{CUSTOM, Checked, StartAfter, WorkbenchApp};
use crate::config::ExperimentConfig;
use crate::t;
use crate::tasks::TaskConfig;
use crate::training::TrainCommand;

impl WorkbenchApp {
    pub fn perform(&mut self, action: AppAction) {
        self.validate_edit();
        // A lesson's locks hold against a task or preset change, which would
        // otherwise leave the lesson's experiment.
        if let Some(locks) = self.lessons.active_locks() {
            let candidate = match &action {
                AppAction::SetTask(kind) => {
                    let mut c = self.state.config.clone();
                    switch_task(&mut c, *kind);
                    Some(c)
                }
                AppAction::LoadPreset(name) => crate::config::preset_keeping(name, &self.state.config),
                _ => None,
            };
            if let Some(candidate) = candidate {
                let changed = locks.changed(&self.state.config, &candidate);
                if !changed.is_empty() {
                    let text = t!("lesson-msg-locked", knobs = crate::lessons::knob_names(&changed), reason = locks.reason.as_str());
                    return self.notice(BannerKind::Warning, text);
                }
            }
        }
        let before = self.state.config.clone();
        let undoing = matches!(action, AppAction::Undo | AppAction::Redo);
        // Another experiment replaces a loaded bug-hunt case: its knobs need no hiding.
        if matches!(
            action,
            AppAction::SetTask(_) | AppAction::LoadPreset(_) | AppAction::OpenExperiment | AppAction::LoadRun
                | AppAction::LoadLessonStart | AppAction::RestoreExperiment | AppAction::LessonTry(_)
        ) {
            self.bug_case = None;
        }
        // (Opening an experiment or a run leaves the lesson only once it has loaded:
        // a cancelled dialog changes nothing.)
        if matches!(action, AppAction::SetTask(_) | AppAction::LoadPreset(_) | AppAction::RestoreExperiment | AppAction::LoadBugCase(_)) {
            self.lessons.experiment_of = None;
        }
        // A Start kept for after a measurement is dropped by whatever stops or
        // replaces the live run meanwhile (a run replaced another way is a new
        // generation, which the kept Start does not touch either).
        if matches!(
            action,
            AppAction::Pause | AppAction::Reset | AppAction::SetTask(_) | AppAction::LoadPreset(_) | AppAction::RestoreExperiment | AppAction::LoadBugCase(_) | AppAction::LoadLessonStart | AppAction::LessonTry(_)
        ) {
            self.start_after_measuring = None;
        }
        match action {
            AppAction::StartOrResume if self.measuring() => {
                // The two would share the cores (and spoil a sweep's timings): the
                // press is kept for when the measurement ends.
                self.start_after_measuring = Some(StartAfter::Run(self.view.generation));
                let note = if self.lessons.claim_running() { t!("lesson-msg-claim-running") } else { t!("msg-sweep-running") };
                self.measuring_notice(note);
            }
            AppAction::StartOrResume => {
                // A finished run has nothing left to train: continue it rather than
                // silently doing nothing, and say how to start over instead. Not
                // when an edit changes the model's shape: that run starts again from
                // fresh weights (once confirmed) for the steps the learner set.
                let starts_fresh = self.has_pending_edits() && self.view.step > 0 && {
                    self.validate_edit();
                    !self.keeps_weights()
                };
                if self.view.status == RunStatus::Finished && self.state.config.steps <= self.view.step && !starts_fresh {
                    let more = self.state.config.steps.max(100);
                    let total = self.view.step + more;
                    self.edit(|c| c.steps = total);
                    // Validated now: applying reads the validation, and a stale one
                    // would take a longer run for a change of shape.
                    self.validate_edit();
                    self.notice(
                        BannerKind::Info,
                        t!("lesson-msg-continued", more = more, total = total),
                    );
                }
                if self.apply_edits() {
                    // The trainer knows its own state (paused, idle, finished): the
                    // window's view of it may be a few events behind, so it does not
                    // choose between start and resume.
                    self.trainer.send(TrainCommand::Start);
                } else {
                    // Asked first (the change loses trained weights): a yes then
                    // starts, as the press asked.
                    self.start_after_confirm = self.confirm_apply.is_some();
                }
            }
            AppAction::Pause => self.trainer.send(TrainCommand::Pause),
            AppAction::StepOnce if self.measuring() => {
                // Not beside a measurement either (the length sweep times steps).
                self.measuring_notice(t!("msg-step-while-measuring"));
            }
            AppAction::StepOnce => {
                if self.apply_edits() {
                    self.trainer.send(TrainCommand::StepOnce);
                }
            }
            AppAction::Reset => {
                if self.can_start() {
                    if self.has_pending_edits() {
                        self.send_config();
                    }
                    self.trainer.send(TrainCommand::Reset);
                }
            }
            AppAction::Apply => {
                self.apply_edits();
            }
            AppAction::ConfirmApply => {
                if let Some(config) = self.confirm_apply.take() {
                    self.state.config = config;
                    self.send_config();
                    self.trainer.send(TrainCommand::Reset);
                    if std::mem::take(&mut self.start_after_confirm) {
                        self.trainer.send(TrainCommand::Start);
                    }
                }
            }
            AppAction::CancelApply => {
                self.confirm_apply = None;
                self.start_after_confirm = false;
            }
            AppAction::SetTask(kind) => {
                self.edit(|config| switch_task(config, kind));
                self.state.probe_text.clear();
            }
            AppAction::LoadPreset(name) => {
                if let Some(config) = crate::config::preset_keeping(&name, &self.state.config) {
                    self.edit(|c| *c = config);
                    self.state.preset = name;
                }
            }
            AppAction::OpenExperiment => self.ask_path(PathRequest::OpenExperiment),
            AppAction::SaveExperiment => self.ask_path(PathRequest::SaveExperiment),
            AppAction::SaveRun => self.ask_path(PathRequest::SaveRun),
            AppAction::LoadRun => self.ask_path(PathRequest::LoadRun),
            AppAction::ExportCsv => self.ask_path(PathRequest::ExportCsv),
            AppAction::ExportPlots => self.ask_path(PathRequest::ExportPlots),
            AppAction::ExportAttention => self.ask_path(PathRequest::ExportAttention),
            AppAction::UsePath(request, path) => {
                self.window.path_prompt = None;
                // A typed relative path is relative to the folder the field started in.
                let path = if path.is_relative() { self.files_dir.join(path) } else { path };
                self.use_path(request, path);
            }
            AppAction::CancelPath(request) => {
                self.window.path_prompt = None;
                self.notice(BannerKind::Info, request.cancelled().to_string());
            }
            AppAction::Undo => {
                if let Some(previous) = self.undo.undo(&self.state.config) {
                    self.state.config = previous;
                }
            }
            AppAction::Redo => {
                if let Some(next) = self.undo.redo(&self.state.config) {
                    self.state.config = next;
                }
            }
            AppAction::SetProbe(text) => {
                self.state.probe_text = text.clone();
                self.trainer.send(TrainCommand::SetProbe(text));
            }
            AppAction::ToggleHelp => self.window.help_open = !self.window.help_open,
            AppAction::ShowGettingStarted => self.window.getting_started_open = true,
            AppAction::ShowAbout => self.window.about_open = true,
            AppAction::ShowGlossary => self.window.glossary_open = true,
            AppAction::LoadBugCase(id) => {
                if let Some(case) = self.lessons.cases.iter().find(|c| c.id == id).cloned() {
                    let config = case.config.clone();
                    self.edit(|c| *c = config);
                    self.state.preset = CUSTOM.to_string();
                    self.state.probe_text.clear();
                    self.success(t!("lesson-msg-bug-case-loaded", title = case.title.as_str()));
                    self.bug_case = Some(case.id.to_string());
                    self.bug_case_ready = false;
                    if self.can_start() {
                        self.send_config();
                        self.trainer.send(TrainCommand::Reset);
                    }
                }
            }
            AppAction::Probe => self.trainer.send(TrainCommand::Probe),
            AppAction::Trace { layer, head } => self.trainer.send(TrainCommand::Trace { layer, head }),
            AppAction::MeasureGradientReach => self.trainer.send(TrainCommand::GradientReach),
            AppAction::SetLanguage(lang) => {
                self.state.language = Some(lang);
                crate::i18n::set_lang(lang);
                self.lessons.set_language(lang);
            }
            AppAction::Generate { prompt, tokens } => {
                self.view.generating = true;
                self.trainer.send(TrainCommand::Generate { prompt, tokens });
            }
            AppAction::OpenLesson(index) => {
                if index < self.lessons.lessons.len() {
                    self.lessons.current = index;
                    if let Some(lesson) = self.lessons.lesson() {
                        self.state.lesson = lesson.id.clone();
                    }
                    // Reading a lesson never replaces the run on screen (a trained run,
                    // a teacher's locked experiment): the lesson panel says when the
                    // model is not this lesson's and offers to load it. A model that is
                    // exactly the lesson's start, untouched, is the lesson's already.
                    let untouched = self.state.config == self.applied && self.view.step == 0;
                    let own = self.lessons.lesson().filter(|l| untouched && l.start == self.applied).map(|l| l.id.clone());
                    if own.is_some() && self.lessons.active_locks().is_none() {
                        self.lessons.experiment_of = own;
                    }
                }
            }
            AppAction::OpenLessonPack => self.ask_path(PathRequest::OpenLessonPack),
            AppAction::OpenPretrained => self.ask_path(PathRequest::OpenPretrained),
            AppAction::ReadPretrained => self.read_pretrained(),
            AppAction::TracePretrained { layer, head } => self.trace_pretrained(layer, head),
            AppAction::LoadLessonStart => self.load_lesson_start(),
            AppAction::RestoreExperiment => {
                if let Some(saved) = self.lessons.saved_experiment.take() {
                    self.edit(|c| *c = saved);
                    self.success(t!("lesson-msg-restored"));
                }
            }
            AppAction::LessonTry(line) => {
                let block = self.lessons.lesson().and_then(|l| l.tries().find(|t| t.line == line).cloned().map(|t| (l.id.clone(), t, l.start.clone())));
                if let Some((id, block, start)) = block {
                    // A try builds on this lesson's experiment: the live one when it is
                    // already this lesson's, else the lesson's start (whatever was
                    // loaded before, another lesson's model or the learner's own,
                    // would make the try show something else; the learner's own is
                    // kept aside to restore).
                    let base = if self.lessons.runs_this_lesson() {
                        self.state.config.clone()
                    } else {
                        if self.lessons.saved_experiment.is_none() && self.lessons.experiment_of.is_none() {
                            self.lessons.saved_experiment = Some(self.state.config.clone());
                        }
                        start
                    };
                    self.lessons.experiment_of = Some(id.clone());
                    match block.apply_to(&base) {
                        Ok(config) => {
                            // What the try changed in this lesson's experiment (not in
                            // whatever was loaded before), in the editor's words.
                            let diff = crate::lessons::config_diff(&base, &config);
                            self.lessons.last_diff = Some(((id, line), diff));
                            let note = match block.steps {
                                Some(1) => t!("lesson-msg-try-one-step", label = block.label.as_str()),
                                Some(steps) => t!("lesson-msg-try-steps", label = block.label.as_str(), steps = steps),
                                None => t!("lesson-msg-try-no-steps", label = block.label.as_str()),
                            };
                            self.view.note_after_reset = Some(note);
                            self.run_lesson_config(config, block.steps);
                        }
                        Err(err) => self.notice(BannerKind::Error, t!("lesson-msg-try-failed", error = err.to_string())),
                    }
                }
            }
            AppAction::LessonCheck(check) => {
                if let Some(id) = self.lessons.lesson().map(|l| l.id.clone()) {
                    self.lessons.hints_shown.insert((id, check));
                }
            }
            AppAction::LessonVerifyClaim(_) if self.background.sweeping() => {
                self.notice(BannerKind::Info, t!("msg-measure-while-sweep", tab = self.background.sweeping_tab().unwrap_or_default()));
            }
            AppAction::LessonVerifyClaim(claim) => {
                // The verification trains in place of the live run, not beside it.
                let running = self.view.status == RunStatus::Running;
                if self.verify_claim(&claim) && running {
                    self.trainer.send(TrainCommand::Pause);
                    self.start_after_measuring = Some(StartAfter::Run(self.view.generation));
                    self.measuring_notice(t!("lesson-msg-claim-paused-run"));
                }
            }
            AppAction::CancelClaim => self.cancel_claim(),
            AppAction::RevealAnswer(answer) => {
                if let Some(id) = self.lessons.lesson().map(|l| l.id.clone()) {
                    self.state.progress.reveal_answer(&id, &answer, crate::progress::now());
                }
            }
            AppAction::RevealBugAnswer(case) => self.state.progress.reveal_bug(&case, crate::progress::now()),
            AppAction::SolvedBug(case) => self.state.progress.solve_bug(&case, crate::progress::now()),
            AppAction::ExportProgress => self.ask_path(PathRequest::ExportProgress),
            AppAction::ExportHandout => self.ask_path(PathRequest::ExportHandout),
            AppAction::ClosePack(index) => {
                if let Some(root) = self.lessons.packs.get(index).and_then(|p| p.root.clone()) {
                    self.state.packs.retain(|p| *p != root);
                    self.lessons.remove_pack(index);
                    if let Some(lesson) = self.lessons.lesson() {
                        self.state.lesson = lesson.id.clone();
                    }
                }
            }
            AppAction::ForgetPack(path) => self.state.packs.retain(|p| *p != path),
            AppAction::TogglePresenter => {
                let id = self.lessons.current_pack().id.clone();
                if !self.state.presenter_packs.remove(&id) {
                    self.state.presenter_packs.insert(id);
                }
            }
            AppAction::DismissBanner => self.view.banner = None,
            AppAction::PinRun => self.view.pin(),
            AppAction::UnpinRun => self.view.pinned = None,
            // One measurement at a time: they would share the cores (and the
            // length sweep times steps). The live run pauses before it starts.
            AppAction::MeasureLengths | AppAction::MeasureHeads if self.lessons.claim_running() => {
                self.notice(BannerKind::Info, t!("msg-measure-while-claim"));
            }
            AppAction::MeasureLengths | AppAction::MeasureHeads if self.background.sweeping() => {
                self.notice(BannerKind::Info, t!("msg-measure-while-sweep", tab = self.background.sweeping_tab().unwrap_or_default()));
            }
            AppAction::MeasureLengths => {
                self.pause_for_sweep();
                self.measure_lengths();
            }
            AppAction::MeasureHeads => {
                self.pause_for_sweep();
                self.measure_heads();
            }
            AppAction::StopMeasureLengths => self.stop_sweep(Sweep::Lengths),
            AppAction::StopMeasureHeads => self.stop_sweep(Sweep::Heads),
            AppAction::ComputeSaturation => self.compute_saturation(),
            AppAction::Dropped(paths) => {
                for path in paths {
                    // A checkpoint folder has its config.json; a pack has lessons.
                    if path.join("config.json").is_file() {
                        self.open_pretrained(&path);
                    } else {
                        self.add_lesson_pack(&path);
                    }
                }
            }
        }
        if undoing {
            self.hold_locks(&before);
        }
        self.validate_edit();
    }

    /// Load the open lesson's experiment (the learner's own is kept to restore).
    fn load_lesson_start(&mut self) {
        if let Some(start) = self.lessons.lesson().map(|l| l.start.clone()) {
            if self.lessons.saved_experiment.is_none() && self.lessons.experiment_of.is_none() {
                self.lessons.saved_experiment = Some(self.state.config.clone());
            }
            self.view.note_after_reset = Some(t!("lesson-msg-lesson-loaded"));
            self.lessons.experiment_of = self.lessons.lesson().map(|l| l.id.clone());
            self.run_lesson_config(start, None);
        }
    }

    /// Put a lesson's experiment in place: fresh weights, and train `steps` if given.
    fn run_lesson_config(&mut self, config: ExperimentConfig, steps: Option<usize>) {
        // The old run's numbers must not judge the new one while it starts.
        self.view.forget_run();
        self.edit(|c| *c = config);
        self.state.preset = CUSTOM.to_string();
        self.state.probe_text.clear();
        self.checked = Checked::of(&self.state.config);
        if !self.can_start() {
            return self.notice(BannerKind::Error, t!("lesson-msg-lesson-invalid"));
        }
        self.send_config();
        self.trainer.send(TrainCommand::Reset);
        if steps.is_some() {
            if self.measuring() {
                // Not beside a measurement: the try trains once it ends.
                self.start_after_measuring = Some(StartAfter::Next);
                self.measuring_notice(t!("msg-try-after-measuring"));
            } else {
                self.trainer.send(TrainCommand::Start);
            }
        }
    }

    /// Open a pack (menu, `--pack`, a dropped folder) and remember it for the next launch.
    pub fn add_lesson_pack(&mut self, path: &Path) {
        let result = self.lessons.add_pack(path);
        if result.is_ok() {
            let root = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
            if !self.state.packs.contains(&root) {
                self.state.packs.push(root);
            }
            if let Some(lesson) = self.lessons.lesson() {
                self.state.lesson = lesson.id.clone();
            }
        }
        match result {
            Ok((count, errors)) if errors.is_empty() => self.success(t!("lesson-msg-pack-added", count = count, path = path.display().to_string())),
            Ok((count, errors)) => self.notice(BannerKind::Warning, t!("lesson-msg-pack-partly", count = count, path = path.display().to_string(), failed = errors.len(), errors = errors.join("; "))),
            Err(err) => self.notice(BannerKind::Error, err),
        }
    }

    /// A one-shot edit (menu, task, preset): recorded for undo at once.
    pub(super) fn edit(&mut self, change: impl FnOnce(&mut ExperimentConfig)) {
        let before = self.state.config.clone();
        change(&mut self.state.config);
        if before != self.state.config {
            self.undo.record(before);
        }
    }

    /// Show a message in the status strip.
    pub(super) fn notice(&mut self, kind: BannerKind, text: String) {
        self.view.show_banner(Banner { kind, text });
    }

    /// Say that something the learner did worked: it replaces an error it
    /// answers (`RunView::show_success`).
    pub(super) fn success(&mut self, text: String) {
        self.view.show_success(text);
    }
}

/// The task menu's change: the task's own defaults, and a max length that fits them.
fn switch_task(config: &mut ExperimentConfig, kind: crate::tasks::TaskKind) {
    config.task = TaskConfig::for_kind(kind);
    config.fit_max_len_to_task();
}
