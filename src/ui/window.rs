//! The whole window, laid out: menus, top bar, status strip, the editor and lesson
//! side panels, the plots, the central tabs and the windows over them. It draws
//! from the frame's `WindowData` and returns the learner's actions.

use eframe::egui;

use super::Panel;
use super::attention_panel::AttentionPanel;
use super::bug_hunt::BugHuntPanel;
use super::generation_panel::GenerationPanel;
use super::by_length_panel::ByLengthPanel;
use super::heads_panel::HeadsPanel;
use super::length_cost_panel::LengthCostPanel;
use super::lesson_panel::LessonPanel;
use super::mask_inspector::MaskInspector;
use super::menu_bar::MenuBar;
use super::model_editor::ModelEditor;
use super::plots_panel::PlotsPanel;
use super::positions_panel::PositionsPanel;
use super::pretrained_panel::PretrainedPanel;
use super::saturation_panel::SaturationPanel;
use super::step_through::StepThrough;
use super::top_bar::TopBar;
use crate::t;
use crate::workbench::actions::AppAction;
use crate::workbench::run_view::{BannerKind, RunStatus};
use crate::workbench::state::CentralView;
use crate::workbench::window::WindowData;

/// Every panel's own state (what is enlarged, which head is picked), kept between
/// frames, and where the last frame put the plots and the central view.
#[derive(Default)]
pub struct Panels {
    menu_bar: MenuBar,
    top_bar: TopBar,
    editor: ModelEditor,
    lesson: LessonPanel,
    plots: PlotsPanel,
    attention: AttentionPanel,
    mask_inspector: MaskInspector,
    step_through: StepThrough,
    positions: PositionsPanel,
    saturation: SaturationPanel,
    length_cost: LengthCostPanel,
    heads: HeadsPanel,
    by_length: ByLengthPanel,
    pub generation: GenerationPanel,
    bug_hunt: BugHuntPanel,
    pretrained: PretrainedPanel,
    /// Whether the last frame was drawn in the presenter view (None before the first).
    presenter_shown: Option<bool>,
    /// The plots panel's charts (not its toolbar) and the central view in the
    /// last frame, for PNG exports.
    pub plots_rect: Option<egui::Rect>,
    pub central_rect: Option<egui::Rect>,
}

/// The central tabs, in order, with their message keys.
const TABS: [(CentralView, &str); 11] = [
    (CentralView::Attention, "tab-attention"),
    (CentralView::MaskInspector, "tab-mask-inspector"),
    (CentralView::StepThrough, "tab-step-through"),
    (CentralView::Positions, "tab-positions"),
    (CentralView::Saturation, "tab-saturation"),
    (CentralView::SequenceLength, "tab-sequence-length"),
    (CentralView::Heads, "tab-heads"),
    (CentralView::ByLength, "tab-by-length"),
    (CentralView::Generate, "tab-generate"),
    (CentralView::BugHunt, "tab-bug-hunt"),
    (CentralView::Pretrained, "tab-pretrained"),
];

impl Panels {
    /// Draw one frame of the window; returns what the learner asked for.
    pub fn show(&mut self, ui: &mut egui::Ui, data: &mut WindowData<'_>) -> Vec<AppAction> {
        let mut actions = Vec::new();
        let dropped: Vec<std::path::PathBuf> = ui.ctx().input(|i| {
            i.raw.dropped_files.iter().map(|f| f.path().to_path_buf()).filter(|p| !p.as_os_str().is_empty()).collect()
        });
        if !dropped.is_empty() {
            actions.push(AppAction::Dropped(dropped));
        }
        shortcuts(ui.ctx(), data.view.status, &mut actions);
        let presenter = data.presenter;
        let switched = self.presenter_shown.replace(presenter) != Some(presenter);
        super::presenter::apply_look(ui.ctx(), data.state.dark_mode, presenter, switched);

        egui::Panel::top("menu").show(ui, |ui| self.menu_bar.show(ui, data, &mut actions));
        egui::Panel::top("top_bar").show(ui, |ui| self.top_bar.show(ui, data, &mut actions));
        status_strip(ui, data, &mut actions);
        // On a narrow window the side panels give way, so the maps keep some room.
        let width = ui.ctx().content_rect().width();
        let (editor_max, lesson_max) = side_panel_limits(width);
        // The editor opens wide enough for "decoder only" beside its longest label.
        if data.state.layout.model_editor && !presenter {
            egui::Panel::left("model_editor").resizable(true).default_size(360.0).min_size(EDITOR_MIN).max_size(editor_max).show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.editor.show(ui, data, &mut actions));
            });
        }
        if data.state.layout.lesson {
            // The presenter view gives the lesson its own, wider panel: 480 points at
            // the presenter's 1.5× zoom, about 38% of a 1920-pixel projector.
            let panel = if presenter {
                egui::Panel::right("lesson_presenter").resizable(true).default_size(480.0).min_size(300.0).max_size((width - CENTRAL_MIN).max(300.0))
            } else {
                egui::Panel::right("lesson").resizable(true).default_size(380.0).min_size(300.0_f32.min(lesson_max)).max_size(lesson_max)
            };
            panel.show(ui, |ui| self.lesson.show(ui, data, &mut actions));
        }
        if data.state.layout.plots && !presenter {
            egui::Panel::bottom("plots").resizable(true).default_size(280.0).min_size(200.0).show(ui, |ui| {
                self.plots.show(ui, data, &mut actions);
            });
            self.plots_rect = self.plots.charts_rect;
        } else {
            // Hidden: an export says so instead of writing whatever is there now.
            self.plots_rect = None;
        }
        let central = egui::CentralPanel::default().show(ui, |ui| self.central(ui, data, &mut actions));
        self.central_rect = Some(central.response.rect);
        windows(ui.ctx(), data, &mut actions);
        actions
    }

    /// The tabs and the view the learner picked.
    fn central(&mut self, ui: &mut egui::Ui, data: &mut WindowData<'_>, actions: &mut Vec<AppAction>) {
        // The tabs wrap onto a second row in a narrow window rather than run under the lesson.
        ui.horizontal_wrapped(|ui| {
            for (view, key) in TABS {
                let tip = crate::i18n::message(&format!("{key}-tip"), None);
                ui.selectable_value(&mut data.state.central, view, crate::i18n::message(key, None)).on_hover_text(tip);
            }
        });
        ui.separator();
        let panel: &mut dyn Panel = match data.state.central {
            CentralView::Attention if !data.state.layout.attention => {
                ui.label(t!("attention-hidden"));
                return;
            }
            CentralView::Attention => &mut self.attention,
            CentralView::MaskInspector => &mut self.mask_inspector,
            CentralView::StepThrough => &mut self.step_through,
            CentralView::Positions => &mut self.positions,
            CentralView::Saturation => &mut self.saturation,
            CentralView::SequenceLength => &mut self.length_cost,
            CentralView::Heads => &mut self.heads,
            CentralView::ByLength => &mut self.by_length,
            CentralView::Generate => &mut self.generation,
            CentralView::BugHunt => &mut self.bug_hunt,
            CentralView::Pretrained => &mut self.pretrained,
        };
        // Each tab under its own id: their scroll areas would otherwise share one
        // position (the Bug hunt opened scrolled as far as the Attention grid was).
        let tab = data.state.central;
        ui.push_id(tab, |ui| panel.show(ui, data, actions));
    }
}

/// The status strip: always there and always the same height, so a message never
/// covers a control nor moves the widgets under the pointer.
fn status_strip(ui: &mut egui::Ui, data: &WindowData<'_>, actions: &mut Vec<AppAction>) {
    let strip = egui::Panel::top("status_strip");
    // An error may need several lines to say what to do; notes fit one.
    let error = data.view.banner.as_ref().is_some_and(|b| b.kind == BannerKind::Error);
    let strip = if error { strip.min_size(super::banner::STRIP_HEIGHT) } else { strip.exact_size(super::banner::STRIP_HEIGHT) };
    strip.show(ui, |ui| {
        let hint = match data.view.status {
            // Start, Step and Reset are disabled: say why before anything else.
            _ if !data.can_start => t!("top-fix-first"),
            // A lesson's try would replace the bug case: point at the case instead.
            RunStatus::Ready if data.view.step == 0 && data.bug_case_loaded => t!("hint-ready-bug-case"),
            RunStatus::Ready if data.view.step == 0 => t!("hint-ready"),
            RunStatus::Finished => t!("hint-finished"),
            RunStatus::Paused => t!("hint-paused"),
            _ => t!("hint-other"),
        };
        super::banner::status_strip_ui(ui, data.view.banner.as_ref(), &hint, actions);
    });
}

/// The windows over the panels: the confirmation, the guide, about, the glossary,
/// the path field and the shortcuts.
fn windows(ctx: &egui::Context, data: &mut WindowData<'_>, actions: &mut Vec<AppAction>) {
    if data.confirm_apply {
        egui::Modal::new(egui::Id::unique("confirm_apply")).show(ctx, |ui| {
            ui.heading(t!("lesson-confirm-title"));
            ui.label(t!("lesson-confirm-text", steps = data.view.step));
            ui.horizontal(|ui| {
                if ui.button(t!("lesson-confirm-apply")).clicked() {
                    actions.push(AppAction::ConfirmApply);
                }
                if ui.button(t!("lesson-confirm-keep")).clicked() {
                    actions.push(AppAction::CancelApply);
                }
            });
        });
    }
    let window = &mut *data.window;
    super::menu_bar::getting_started_window(ctx, &mut window.getting_started_open, data.lessons.runs_this_lesson());
    super::menu_bar::about_window(ctx, &mut window.about_open);
    super::glossary_window::glossary_window(ctx, &mut window.glossary_open, &mut window.glossary_search);
    if let Some((request, text)) = &mut window.path_prompt {
        super::path_prompt::path_prompt_ui(ctx, *request, text, actions);
    }
    if window.help_open {
        super::menu_bar::help_window(ctx, &mut window.help_open);
    }
}

/// The keyboard shortcuts (the Help window lists them).
fn shortcuts(ctx: &egui::Context, status: RunStatus, actions: &mut Vec<AppAction>) {
    use egui::{Key, KeyboardShortcut, Modifiers};
    let typing = ctx.text_edit_focused();
    ctx.input_mut(|input| {
        if input.consume_shortcut(&KeyboardShortcut::new(Modifiers::COMMAND, Key::O)) {
            actions.push(AppAction::OpenExperiment);
        }
        if input.consume_shortcut(&KeyboardShortcut::new(Modifiers::COMMAND, Key::S)) {
            actions.push(AppAction::SaveExperiment);
        }
        if !typing {
            if input.consume_shortcut(&KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z)) {
                actions.push(AppAction::Redo);
            }
            if input.consume_shortcut(&KeyboardShortcut::new(Modifiers::COMMAND, Key::Z)) {
                actions.push(AppAction::Undo);
            }
            if input.consume_key(Modifiers::NONE, Key::Space) {
                actions.push(if status == RunStatus::Running { AppAction::Pause } else { AppAction::StartOrResume });
            }
            if input.consume_key(Modifiers::NONE, Key::S) {
                actions.push(AppAction::StepOnce);
            }
            if input.consume_key(Modifiers::NONE, Key::R) {
                actions.push(AppAction::Reset);
            }
        }
        if input.consume_key(Modifiers::NONE, Key::F1) {
            actions.push(AppAction::ToggleHelp);
        }
        if input.consume_key(Modifiers::NONE, Key::F5) {
            actions.push(AppAction::TogglePresenter);
        }
    });
}

/// The narrowest the model editor gets: its knobs' combo boxes still fit beside
/// their longest label.
const EDITOR_MIN: f32 = 300.0;

/// What the central view keeps between the side panels while the window allows:
/// its tabs, the probe with its Show button and two charts side by side.
const CENTRAL_MIN: f32 = 340.0;

/// The widest the model editor and the lesson may be on a window `width` points
/// wide: 460 and 640 on a wide one, 30% and 36% of a narrow one (at 1024 points
/// the central view keeps about 350, where it had 265), and never so wide that
/// the central view gets less than `CENTRAL_MIN` (at the smallest window, 900
/// points, it had 306 and its content spread over the lesson).
fn side_panel_limits(width: f32) -> (f32, f32) {
    let lesson = (width * 0.36).clamp(240.0, 640.0).min(width - EDITOR_MIN - CENTRAL_MIN).max(240.0);
    let editor = (width * 0.30).clamp(EDITOR_MIN, 460.0).min(width - lesson - CENTRAL_MIN).max(EDITOR_MIN);
    (editor, lesson)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Side panels at their widest leave the central view its room from the
    /// smallest window up (900 points, `launch`'s minimum), and grow no further
    /// than 460 and 640 on a wide screen.
    #[test]
    fn the_side_panels_leave_the_central_view_its_room() {
        for width in [900.0, 960.0, 1024.0, 1280.0, 1440.0, 1920.0] {
            let (editor, lesson) = side_panel_limits(width);
            assert!(width - editor - lesson >= CENTRAL_MIN - 0.01, "{width}: {editor} + {lesson} leave too little");
            assert!(editor >= EDITOR_MIN && lesson >= 240.0, "{width}: {editor}, {lesson}");
        }
        assert_eq!(side_panel_limits(1024.0), (1024.0 * 0.30, 1024.0 * 0.36), "unchanged where there is room");
        assert_eq!(side_panel_limits(2560.0), (460.0, 640.0));
    }
}
