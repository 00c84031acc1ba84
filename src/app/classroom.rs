//! The window's classroom side: packs from the command line, the presenter view,
//! lesson locks held against edits, and claim verifications coming back.


use crate::workbench::actions::AppAction;
use crate::workbench::run_view::BannerKind;
use super::WorkbenchApp;
use crate::config::ExperimentConfig;
use crate::t;

impl WorkbenchApp {
    /// Open packs named on the command line (`--pack DIR`), as the menu would.
    /// When the live run was a lesson's (nothing of the learner's), the pack's first
    /// lesson's experiment is loaded, so Start trains what that lesson describes.
    pub fn open_packs(&mut self, paths: &[std::path::PathBuf]) {
        let lesson_run = self.lessons.experiment_of.is_some();
        let before = self.lessons.lesson().map(|l| l.id.clone());
        for path in paths {
            self.add_lesson_pack(path);
        }
        if let Some(lesson) = self.lessons.lesson() {
            self.state.lesson = lesson.id.clone();
        }
        if lesson_run && self.lessons.lesson().map(|l| l.id.clone()) != before {
            self.perform(AppAction::LoadLessonStart);
        }
    }

    pub fn close_getting_started(&mut self) {
        self.window.getting_started_open = false;
    }

    /// Whether the presenter view is on (remembered per pack).
    pub fn presenter(&self) -> bool {
        self.state.presenter_packs.contains(&self.lessons.current_pack().id)
    }

    /// Put back any locked knob an edit changed, and say which and why.
    pub(super) fn hold_locks(&mut self, before: &ExperimentConfig) {
        // Most frames change nothing: compare before serialising anything.
        if *before == self.state.config {
            return;
        }
        let Some(locks) = self.lessons.active_locks() else { return };
        let changed = locks.changed(before, &self.state.config);
        if changed.is_empty() {
            return;
        }
        let restored = locks.restore(before, &self.state.config);
        let text = t!("lesson-msg-locked", knobs = crate::lessons::knob_names(&changed), reason = locks.reason.as_str());
        self.state.config = restored;
        self.notice(BannerKind::Warning, text);
    }
}
