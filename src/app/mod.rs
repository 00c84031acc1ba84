//! The window: state, event draining, actions. Drawing lives in `crate::ui`.
//! It sends `TrainCommand`s and reads `TrainEvent`s; it never touches a tensor.

pub mod actions;
mod classroom;
mod file_actions;
pub mod files;
pub mod inspection;
pub mod lesson_runner;
mod perform;
pub mod frame_times;
mod launch;
mod trainer_link;
mod checked;
pub mod fonts;
mod notice;
pub mod run_view;
mod env_hooks;
pub mod series;
pub mod state;
pub mod undo;

use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Instant;

use eframe::egui;

pub use fonts::install_fonts;
pub use launch::run;
use actions::AppAction;
use checked::Checked;
use frame_times::FrameTimes;
use run_view::{Banner, RunStatus, RunView};
use state::{PersistedState, STORAGE_KEY};
use undo::UndoStack;

use crate::config::ExperimentConfig;
use crate::training::TrainerHandle;
use crate::ui;
use crate::ui::attention_panel::{AttentionAction, AttentionPanel};
use crate::ui::bug_hunt::BugHuntPanel;
use crate::ui::mask_inspector::MaskInspector;
use crate::ui::generation_panel::GenerationPanel;
use crate::ui::length_cost_panel::LengthCostPanel;
use crate::ui::saturation_panel::SaturationPanel;
use crate::ui::step_through::StepThrough;
use lesson_runner::LessonRunner;
use state::CentralView;

/// What the preset menu shows for a config that came from a file or an exercise.
const CUSTOM: &str = "custom";



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
    attention_panel: AttentionPanel,
    mask_inspector: MaskInspector,
    step_through: StepThrough,
    saturation: Option<SaturationPanel>,
    pub length_cost: LengthCostPanel,
    pub generation: GenerationPanel,
    /// The Attention tab shows the pinned run's maps beside this run's.
    pub compare_pinned: bool,
    pub lessons: LessonRunner,
    markdown: egui_commonmark::CommonMarkCache,
    bug_hunt: BugHuntPanel,
    /// The bug-hunt case whose experiment is loaded, until another experiment is.
    bug_case: Option<String>,
    help_open: bool,
    about_open: bool,
    glossary_open: bool,
    glossary_search: String,
    /// Where no file dialog can open: what is asked for and the typed path.
    pub path_prompt: Option<(files::PathRequest, String)>,
    /// The live run was paused for a claim's verification: resume it after.
    resume_after_claim: bool,
    /// Whether the last frame was drawn in the presenter view (None before the first).
    presenter_shown: Option<bool>,
    /// Where the path field starts (the working folder; tests use a temporary one).
    pub files_dir: std::path::PathBuf,
    /// Open on the first start, and from the Help menu.
    getting_started_open: bool,
    frame_times: FrameTimes,
    notices_tx: Sender<Banner>,
    notices: Receiver<Banner>,
    /// The trainer runs in lockstep with the frames (tests): every waiting event
    /// is read each frame, not as many as a time budget allows.
    lockstep: bool,
    plots_rect: Option<egui::Rect>,
    attention_rect: Option<egui::Rect>,
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
            TrainerHandle::spawn(state.config.clone(), tx, Some(waker))
        };
        let (notices_tx, notices) = channel();
        // A state saved before has a lesson; a first start opens the guide.
        let first_start = state == PersistedState::default();
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
            attention_panel: AttentionPanel::default(),
            mask_inspector: MaskInspector::default(),
            step_through: StepThrough::default(),
            saturation: None,
            length_cost: LengthCostPanel::default(),
            generation: GenerationPanel::default(),
            compare_pinned: false,
            lessons,
            markdown: egui_commonmark::CommonMarkCache::default(),
            bug_hunt: BugHuntPanel::default(),
            bug_case: None,
            help_open: false,
            about_open: false,
            glossary_open: false,
            glossary_search: String::new(),
            path_prompt: None,
            files_dir: crate::app::files::documents_dir(),
            presenter_shown: None,
            resume_after_claim: false,
            getting_started_open: first_start,
            frame_times: FrameTimes::from_env(),
            notices_tx,
            notices,
            lockstep,
            plots_rect: None,
            attention_rect: None,
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

    /// Whether edits wait to be sent to the trainer.
    pub fn has_pending_edits(&self) -> bool {
        self.state.config != self.applied
    }


    /// Draw the whole window and apply what the learner did. Tests call this directly.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let frame_start = Instant::now();
        self.drain_events();
        self.collect_claims();
        let facts = self.view.live_facts();
        self.lessons.tick_checks(&facts, &mut self.state.progress);
        let dropped: Vec<std::path::PathBuf> = ui.ctx().input(|i| i.raw.dropped_files.iter().map(|f| f.path().to_path_buf()).filter(|p| !p.as_os_str().is_empty()).collect());
        let before = self.state.config.clone();
        let mut actions = Vec::new();
        for path in dropped {
            self.add_lesson_pack(&path);
        }
        self.shortcuts(ui.ctx(), &mut actions);
        let presenter = self.presenter();
        let switched = self.presenter_shown.replace(presenter) != Some(presenter);
        ui::presenter::apply_look(ui.ctx(), self.state.dark_mode, presenter, switched);

        egui::Panel::top("menu").show(ui, |ui| {
            let packs: Vec<(String, bool)> = self.lessons.packs.iter().map(|p| (p.title.clone(), p.root.is_some())).collect();
            let missing = self.lessons.not_open(&self.state.packs);
            ui::menu_bar::menu_bar_ui(ui, &mut self.state, self.undo.can_undo(), self.undo.can_redo(), &packs, &missing, presenter, &mut actions);
        });
        egui::Panel::top("top_bar").show(ui, |ui| {
            let can_start = self.can_start();
            let pending = self.has_pending_edits();
            let locks = self.lessons.active_locks();
            let claim = self.lessons.claim_progress();
            ui::top_bar::top_bar_ui(ui, &mut self.state.config, &self.state.preset, &self.view, can_start, pending, locks, claim, &mut actions);
        });
        // The status strip: always there and always the same height, so a message
        // never covers a control nor moves the widgets under the pointer.
        let now = ui.ctx().input(|i| i.time);
        if let Some(left) = self.view.fade_banner(now) {
            ui.ctx().request_repaint_after(std::time::Duration::from_secs_f64(left));
        }
        let strip = egui::Panel::top("status_strip");
        // An error may need several lines to say what to do; notes fit one.
        let error = self.view.banner.as_ref().is_some_and(|b| b.kind == crate::app::run_view::BannerKind::Error);
        let strip = if error { strip.min_size(ui::banner::STRIP_HEIGHT) } else { strip.exact_size(ui::banner::STRIP_HEIGHT) };
        strip.show(ui, |ui| {
            let hint = match self.view.status {
                // Start, Step and Reset are disabled: say why before anything else.
                _ if !self.can_start() => crate::t!("top-fix-first"),
                // A lesson's try would replace the bug case: point at the case instead.
                RunStatus::Ready if self.view.step == 0 && self.bug_case.is_some() => crate::t!("hint-ready-bug-case"),
                RunStatus::Ready if self.view.step == 0 => crate::t!("hint-ready"),
                RunStatus::Finished => crate::t!("hint-finished"),
                RunStatus::Paused => crate::t!("hint-paused"),
                _ => crate::t!("hint-other"),
            };
            ui::banner::status_strip_ui(ui, self.view.banner.as_ref(), &hint, &mut actions);
        });
        let hide_mask_knobs = self.bug_case_unsolved();
        if self.state.layout.model_editor && !presenter {
            let locks = self.lessons.active_locks();
            egui::Panel::left("model_editor").resizable(true).default_size(330.0).min_size(260.0).max_size(460.0).show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    ui::model_editor::model_editor_ui(ui, &mut self.state.config, &self.checked.problems, self.checked.facts.as_ref(), hide_mask_knobs, locks);
                });
            });
        }
        if self.state.layout.lesson {
            let facts = self.view.live_facts();
            // The presenter view gives the lesson its own, wider panel.
            let panel = if presenter {
                // 480 points at the presenter's 1.5× zoom: about 38% of a 1920-pixel
                // projector, leaving the attention maps the larger part.
                egui::Panel::right("lesson_presenter").resizable(true).default_size(480.0).min_size(300.0)
            } else {
                egui::Panel::right("lesson").resizable(true).default_size(380.0).min_size(300.0).max_size(640.0)
            };
            panel.show(ui, |ui| {
                let student = &mut self.state.student_name;
                ui::lesson_panel::lesson_panel_ui(ui, &self.lessons, &self.state.progress, &facts, student, presenter, &mut self.markdown, &mut actions);
            });
        }
        if self.state.layout.plots && !presenter {
            let response = egui::Panel::bottom("plots").resizable(true).default_size(280.0).min_size(200.0).show(ui, |ui| {
                match ui::plots_panel::plots_ui(ui, &self.view, &mut self.state.plots) {
                    Some(ui::plots_panel::PlotAction::Pin) => self.view.pin(),
                    Some(ui::plots_panel::PlotAction::Unpin) => self.view.pinned = None,
                    None => {}
                }
            });
            self.plots_rect = Some(response.response.rect);
        }
        let central = egui::CentralPanel::default().show(ui, |ui| {
            // The tabs wrap onto a second row in a narrow window rather than run under the lesson.
            ui.horizontal_wrapped(|ui| {
                let tabs = [
                    (CentralView::Attention, "tab-attention"),
                    (CentralView::MaskInspector, "tab-mask-inspector"),
                    (CentralView::StepThrough, "tab-step-through"),
                    (CentralView::Positions, "tab-positions"),
                    (CentralView::Saturation, "tab-saturation"),
                    (CentralView::SequenceLength, "tab-sequence-length"),
                    (CentralView::Generate, "tab-generate"),
                    (CentralView::BugHunt, "tab-bug-hunt"),
                ];
                for (view, key) in tabs {
                    let tip = crate::i18n::message(&format!("{key}-tip"), None);
                    ui.selectable_value(&mut self.state.central, view, crate::i18n::message(key, None)).on_hover_text(tip);
                }
            });
            ui.separator();
            match self.state.central {
                CentralView::Attention if self.state.layout.attention => {
                    let pinned = self.view.pinned.as_ref().and_then(|p| p.attention.as_ref().map(|a| (p.label.clone(), a)));
                    if let (Some((label, pinned)), Some(now)) = (pinned, self.view.attention.as_ref()) {
                        ui.checkbox(&mut self.compare_pinned, crate::t!("lesson-compare-pinned", label = label.as_str()))
                            .on_hover_text(crate::t!("lesson-compare-pinned-tip"));
                        if self.compare_pinned {
                            let (pinned_name, now_name) = (crate::t!("compare-pinned"), crate::t!("compare-now"));
                            let names = [pinned_name.as_str(), now_name.as_str()];
                            egui::ScrollArea::both().show(ui, |ui| ui::ab_maps::ab_maps_ui(ui, egui::Id::unique("pinned_maps"), pinned, now, names));
                            return;
                        }
                    }
                    let action = self.attention_panel.ui(ui, self.view.attention.as_ref(), &mut self.state.probe_text, self.view.probe_error.as_deref());
                    if let Some(AttentionAction::SetProbe(text)) = action {
                        actions.push(AppAction::SetProbe(text));
                    }
                }
                CentralView::Attention => {
                    ui.label(crate::t!("attention-hidden"));
                }
                CentralView::MaskInspector => {
                    let probes = [self.view.causality.as_ref(), self.view.padding_probe.as_ref()];
                    egui::ScrollArea::both().show(ui, |ui| self.mask_inspector.ui(ui, self.view.attention.as_ref(), probes, &mut actions));
                }
                CentralView::StepThrough => {
                    let layers = self.applied.model.layers.len();
                    let heads = self.applied.model.layers.get(self.step_through.layer).map_or(1, |l| l.heads);
                    egui::ScrollArea::both().show(ui, |ui| self.step_through.ui(ui, self.view.trace.as_ref(), layers, heads, &mut actions));
                }
                CentralView::Positions => {
                    ui::positions_panel::positions_ui(ui, self.applied.model.max_len, self.applied.model.d_model);
                }
                CentralView::Saturation => {
                    self.saturation.get_or_insert_with(SaturationPanel::default).ui(ui);
                }
                CentralView::SequenceLength => {
                    let training = self.view.status == RunStatus::Running;
                    egui::ScrollArea::vertical().show(ui, |ui| self.length_cost.ui(ui, &self.applied, training));
                }
                CentralView::Generate => {
                    let view = &self.view;
                    let max_len = self.applied.model.max_len;
                    egui::ScrollArea::vertical().show(ui, |ui| self.generation.ui(ui, view, max_len, &mut actions));
                }
                CentralView::BugHunt => {
                    let packs: Vec<&str> = self.lessons.case_pack.iter().map(|&p| self.lessons.packs[p].title.as_str()).collect();
                    egui::ScrollArea::vertical().show(ui, |ui| self.bug_hunt.ui(ui, &self.lessons.cases, &packs, &self.state.progress, &mut actions));
                }
            }
        });
        self.attention_rect = Some(central.response.rect);
        self.confirm_modal(ui.ctx(), &mut actions);
        ui::menu_bar::getting_started_window(ui.ctx(), &mut self.getting_started_open, self.lessons.runs_this_lesson());
        ui::menu_bar::about_window(ui.ctx(), &mut self.about_open);
        ui::glossary_window::glossary_window(ui.ctx(), &mut self.glossary_open, &mut self.glossary_search);
        if let Some((request, text)) = &mut self.path_prompt {
            ui::path_prompt::path_prompt_ui(ui.ctx(), *request, text, &mut actions);
        }
        if self.help_open {
            ui::menu_bar::help_window(ui.ctx(), &mut self.help_open);
        }

        let pointer_down = ui.ctx().input(|i| i.pointer.any_down());
        self.track_edit(before, pointer_down);
        for action in actions {
            self.perform(action);
        }
        self.frame_times.record(frame_start.elapsed());
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
        if self.checked.config != self.state.config {
            self.checked = Checked::of(&self.state.config);
            self.auto_apply();
        }
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
