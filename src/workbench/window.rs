//! What the panels read in one frame: the app lends its state as `WindowData`, the
//! panels draw from it, edit the learner's settings in place and return actions.

use crate::config::ExperimentConfig;
use crate::experiments::{HeadsOutcome, LengthOutcome, SaturationPoint};

use super::PathRequest;
use super::checked::Checked;
use super::lesson_runner::LessonRunner;
use super::run_view::RunView;
use super::state::PersistedState;

/// Which windows are open over the panels, and the small choices they hold.
#[derive(Default)]
pub struct WindowState {
    pub help_open: bool,
    pub about_open: bool,
    pub glossary_open: bool,
    pub glossary_search: String,
    /// Open on the first start, and from the Help menu.
    pub getting_started_open: bool,
    /// The Attention tab shows the pinned run's maps beside this run's.
    pub compare_pinned: bool,
    /// Where no file dialog can open: what is asked for and the typed path.
    pub path_prompt: Option<(PathRequest, String)>,
}

/// Results of work done off the window's thread, as the panels show them.
#[derive(Clone, Default)]
pub struct Background {
    /// The sequence-length sweep (lesson 11): lengths measured so far, in order.
    pub lengths: Vec<LengthOutcome>,
    pub lengths_running: bool,
    /// Stop was pressed in this sweep (it ends after the length it times).
    pub lengths_stop_pressed: bool,
    /// The experiment it timed.
    pub lengths_base: Option<ExperimentConfig>,
    /// The head sweep (lesson 22): head counts measured so far, in order, and the
    /// experiment it trained (before its head counts were set).
    pub heads: Vec<HeadsOutcome>,
    pub heads_running: bool,
    /// Stop was pressed in this sweep (it ends at its next training step).
    pub heads_stop_pressed: bool,
    /// Its training steps so far, all head counts together (a refused one counts
    /// as done).
    pub heads_progress: Option<crate::workbench::step_progress::StepProgress>,
    pub heads_base: Option<ExperimentConfig>,
    /// The softmax-saturation sweep (lesson 03), computed once when first shown.
    pub saturation: Option<Vec<SaturationPoint>>,
    pub saturation_running: bool,
    /// A file dialog is open (the window stays live behind it).
    pub dialog_open: bool,
}

impl Background {
    /// A sweep (lengths or head counts) is measuring on the CPU.
    pub fn sweeping(&self) -> bool {
        self.lengths_running || self.heads_running
    }

    /// The tab whose sweep measures, as the interface names it (its Stop is
    /// there), for a note that says why something waits.
    pub fn sweeping_tab(&self) -> Option<String> {
        if self.lengths_running {
            Some(crate::t!("tab-sequence-length"))
        } else if self.heads_running {
            Some(crate::t!("tab-heads"))
        } else {
            None
        }
    }
}

/// One frame's view of the app, lent to the panels.
pub struct WindowData<'a> {
    /// The learner's settings and edited config (the editor changes it in place).
    pub state: &'a mut PersistedState,
    pub window: &'a mut WindowState,
    pub view: &'a RunView,
    pub lessons: &'a LessonRunner,
    pub background: &'a Background,
    /// The opened pretrained checkpoint and the sentences typed for it.
    pub pretrained: &'a mut super::pretrained_view::PretrainedView,
    /// The config the trainer has (the views describe the live model).
    pub applied: &'a ExperimentConfig,
    pub checked: &'a Checked,
    /// The edited config can be trained.
    pub can_start: bool,
    /// Edits wait to be sent to the trainer.
    pub pending_edits: bool,
    /// An edit that would lose trained weights waits for the learner's yes.
    pub confirm_apply: bool,
    pub can_undo: bool,
    pub can_redo: bool,
    /// The presenter (projector) layout is on for the open pack.
    pub presenter: bool,
    /// A bug-hunt case is loaded and unsolved: its planted knobs stay hidden.
    pub hide_mask_knobs: bool,
    /// A bug-hunt case's experiment is loaded.
    pub bug_case_loaded: bool,
    /// Bug-hunt cases that were loaded and trained this session: a guess waits
    /// until the learner has seen the symptom.
    pub bug_cases_trained: &'a std::collections::BTreeSet<String>,
}

/// Every head count was measured (a stopped sweep has only some: no pick is made
/// from those).
pub fn heads_sweep_complete(background: &Background) -> bool {
    background.heads.len() == crate::experiments::HEAD_COUNTS.len()
}

/// Whether the head sweep has finished, whole, and was run on `applied` (any head
/// count): an older sweep's pick says nothing about this experiment.
pub fn heads_sweep_done_for(background: &Background, applied: &ExperimentConfig) -> bool {
    let same = |base: &ExperimentConfig| crate::experiments::heads_config(base, 1) == crate::experiments::heads_config(applied, 1);
    !background.heads_running && heads_sweep_complete(background) && background.heads_base.as_ref().is_some_and(same)
}

/// Whether the length sweep's results were timed on what `applied` would time:
/// the same model (its position table's length aside, which the sweep sets, and
/// its initial scale), batch, optimizer, backend and memory limit (which decides
/// the lengths refused). The task is the sweep's own; the rest changes no step's
/// time or memory. Other results describe another experiment.
pub fn lengths_sweep_done_for(background: &Background, applied: &ExperimentConfig) -> bool {
    let Some(base) = background.lengths_base.as_ref() else { return false };
    let same_run = (base.batch_size, base.optimizer, base.backend, base.memory_limit_mib) == (applied.batch_size, applied.optimizer, applied.backend, applied.memory_limit_mib);
    // Read every frame (the lesson's facts): a copy of the model only when the
    // two differ somewhere, to see whether it is only in the timing-neutral knobs.
    same_run
        && (base.model == applied.model || {
            let mut model = base.model.clone();
            (model.max_len, model.init_scale) = (applied.model.max_len, applied.model.init_scale);
            model == applied.model
        })
}

/// The run's live facts with what the trainer's config and the background
/// measurements (lesson 11's sweep) add.
pub fn live_facts<'a>(view: &'a RunView, applied: &ExperimentConfig, background: &Background) -> crate::lessons::LiveFacts<'a> {
    let task = &applied.task;
    let held_out = task.held_out().map_or(task.length, |h| h.length);
    crate::lessons::LiveFacts {
        // Another experiment's times say nothing about this one (as the head sweep's).
        length_growth: lengths_sweep_done_for(background, applied).then(|| crate::experiments::length_growth(&background.lengths)).flatten().map(|g| g as f32),
        held_out_stretch: (task.length > 0).then(|| held_out as f32 / task.length as f32),
        heads_pick_match: heads_sweep_done_for(background, applied).then(|| crate::experiments::pick(&crate::experiments::measured(&background.heads))).flatten().map(|p| {
            let layers = &applied.model.layers;
            let all = !layers.is_empty() && layers.iter().all(|l| l.heads == p.heads);
            if all { 1.0 } else { 0.0 }
        }),
        ..view.live_facts()
    }
}
