//! Start-up hooks for screenshots, demos and CI, read from the environment:
//! `AW_LANG=zh` switches the language, `AW_EXPERIMENT=FILE` opens an experiment,
//! `AW_VIEW` opens a view (`generate`, `sequence_length`, …), `AW_LESSON=15` opens a lesson and loads its experiment,
//! `AW_PRESET` loads a preset, `AW_BUG_CASE` loads a bug-hunt case,
//! `AW_PRESENTER` switches to the presenter view (guide closed, as a teacher has
//! it), `AW_PRETRAINED=DIR` opens a checkpoint folder (`AW_PRETRAINED_TEXT` and
//! `AW_PRETRAINED_TEXT2` the sentences), and `AW_AUTOSTART` starts training.

use super::WorkbenchApp;
use crate::workbench::actions::AppAction;
use crate::workbench::state::CentralView;

pub fn apply(app: &mut WorkbenchApp) {
    if let Some(lang) = std::env::var("AW_LANG").ok().as_deref().and_then(crate::i18n::Lang::from_code) {
        app.perform(AppAction::SetLanguage(lang));
    }
    // For screenshots and demos: open a view or a lesson (AW_LESSON=15 loads its
    // experiment), load a bug case, start training.
    match std::env::var("AW_VIEW").as_deref() {
        Ok("mask_inspector") => app.state.central = CentralView::MaskInspector,
        Ok("bug_hunt") => app.state.central = CentralView::BugHunt,
        Ok("step_through") => app.state.central = CentralView::StepThrough,
        Ok("positions") => app.state.central = CentralView::Positions,
        Ok("saturation") => app.state.central = CentralView::Saturation,
        Ok("sequence_length") => app.state.central = CentralView::SequenceLength,
        Ok("heads") => app.state.central = CentralView::Heads,
        Ok("by_length") => app.state.central = CentralView::ByLength,
        Ok("generate") => app.state.central = CentralView::Generate,
        Ok("attention") => app.state.central = CentralView::Attention,
        _ => {}
    }
    if let Ok(prefix) = std::env::var("AW_LESSON") {
        let index = app.lessons.lessons.iter().position(|l| l.as_ref().is_ok_and(|l| l.id.starts_with(&prefix)));
        if let Some(index) = index {
            app.perform(AppAction::OpenLesson(index));
            app.perform(AppAction::LoadLessonStart);
        }
    }
    if let Ok(path) = std::env::var("AW_EXPERIMENT") {
        app.open_experiment(std::path::Path::new(&path));
    }
    if let Ok(name) = std::env::var("AW_PRESET") {
        app.perform(AppAction::LoadPreset(name));
    }
    if let Ok(id) = std::env::var("AW_BUG_CASE") {
        app.perform(AppAction::LoadBugCase(id));
    }
    if std::env::var_os("AW_PRESENTER").is_some() && !app.presenter() {
        app.perform(AppAction::TogglePresenter);
        app.close_getting_started();
    }
    if let Ok(dir) = std::env::var("AW_PRETRAINED") {
        app.pretrained.text = std::env::var("AW_PRETRAINED_TEXT").unwrap_or_default();
        app.pretrained.text2 = std::env::var("AW_PRETRAINED_TEXT2").unwrap_or_default();
        app.open_pretrained(std::path::Path::new(&dir));
        app.close_getting_started();
    }
    if std::env::var_os("AW_AUTOSTART").is_some() {
        app.perform(AppAction::StartOrResume);
    }
}
