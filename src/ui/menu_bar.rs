//! File, Edit, View and Help menus.

use eframe::egui;

use crate::workbench::window::WindowData;

use crate::workbench::actions::AppAction;
use crate::i18n::Lang;
use crate::t;

/// File, Edit, View and Help.
#[derive(Default)]
pub struct MenuBar;

impl super::Panel for MenuBar {
    fn show(&mut self, ui: &mut egui::Ui, data: &mut WindowData<'_>, actions: &mut Vec<AppAction>) {
        let packs: Vec<(String, bool)> = data.lessons.packs.iter().map(|p| (p.title.clone(), p.root.is_some())).collect();
        let missing_packs = data.lessons.not_open(&data.state.packs);
        let missing_packs = missing_packs.as_slice();
        let (can_undo, can_redo, presenter) = (data.can_undo, data.can_redo, data.presenter);
        let state = &mut *data.state;
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button(t!("menu-file"), |ui| {
                let mut item = |ui: &mut egui::Ui, label: String, shortcut: &str, action: AppAction| {
                    if ui.add(egui::Button::new(label).shortcut_text(shortcut)).clicked() {
                        actions.push(action);
                        ui.close();
                    }
                };
                item(ui, t!("menu-open-experiment"), "Ctrl+O", AppAction::OpenExperiment);
                item(ui, t!("menu-save-experiment"), "Ctrl+S", AppAction::SaveExperiment);
                ui.separator();
                item(ui, t!("menu-save-run"), "", AppAction::SaveRun);
                item(ui, t!("menu-load-run"), "", AppAction::LoadRun);
                item(ui, t!("menu-open-pretrained"), "", AppAction::OpenPretrained);
                ui.separator();
                item(ui, t!("menu-export-plots"), "", AppAction::ExportPlots);
                item(ui, t!("menu-export-attention"), "", AppAction::ExportAttention);
                item(ui, t!("menu-export-csv"), "", AppAction::ExportCsv);
            });
            ui.menu_button(t!("menu-edit"), |ui| {
                if ui.add_enabled(can_undo, egui::Button::new(t!("menu-undo")).shortcut_text("Ctrl+Z")).clicked() {
                    actions.push(AppAction::Undo);
                    ui.close();
                }
                if ui.add_enabled(can_redo, egui::Button::new(t!("menu-redo")).shortcut_text("Ctrl+Shift+Z")).clicked() {
                    actions.push(AppAction::Redo);
                    ui.close();
                }
            });
            ui.menu_button(t!("menu-lessons"), |ui| {
                if ui.button(t!("lesson-open-pack")).on_hover_text(t!("lesson-open-pack-tip")).clicked() {
                    actions.push(AppAction::OpenLessonPack);
                    ui.close();
                }
                ui.separator();
                ui.weak(t!("menu-packs-open"));
                for (index, (title, closable)) in packs.iter().enumerate() {
                    ui.horizontal(|ui| {
                        ui.label(title);
                        if *closable && ui.small_button("✖").on_hover_text(t!("menu-pack-close-tip")).clicked() {
                            actions.push(AppAction::ClosePack(index));
                            ui.close();
                        }
                    });
                }
                for path in missing_packs {
                    ui.horizontal(|ui| {
                        ui.colored_label(ui.visuals().warn_fg_color, t!("menu-pack-missing", path = path.display().to_string()));
                        if ui.small_button("✖").on_hover_text(t!("menu-pack-forget-tip")).clicked() {
                            actions.push(AppAction::ForgetPack(path.clone()));
                            ui.close();
                        }
                    });
                }
                ui.separator();
                for (label, action) in [(t!("lesson-export-progress"), AppAction::ExportProgress), (t!("menu-export-handout"), AppAction::ExportHandout)] {
                    if ui.button(label).clicked() {
                        actions.push(action);
                        ui.close();
                    }
                }
                if ui.add(egui::Button::selectable(presenter, t!("menu-presenter")).shortcut_text("F5")).on_hover_text(t!("menu-presenter-tip")).clicked() {
                    actions.push(AppAction::TogglePresenter);
                    ui.close();
                }
            });
            ui.menu_button(t!("menu-view"), |ui| {
                ui.checkbox(&mut state.layout.model_editor, t!("menu-view-editor"));
                ui.checkbox(&mut state.layout.lesson, t!("menu-view-lesson"));
                ui.checkbox(&mut state.layout.plots, t!("menu-view-plots"));
                ui.checkbox(&mut state.layout.attention, t!("menu-view-attention"));
                ui.separator();
                ui.checkbox(&mut state.dark_mode, t!("menu-view-dark"));
                if ui.add(egui::Button::selectable(presenter, t!("menu-presenter")).shortcut_text("F5")).on_hover_text(t!("menu-presenter-tip")).clicked() {
                    actions.push(AppAction::TogglePresenter);
                    ui.close();
                }
            });
            ui.menu_button(t!("menu-language"), |ui| {
                for lang in Lang::ALL {
                    if ui.radio(state.effective_language() == lang, lang.native_name()).clicked() {
                        actions.push(AppAction::SetLanguage(lang));
                        ui.close();
                    }
                }
            });
            ui.menu_button(t!("menu-help"), |ui| {
                for (label, shortcut, action) in [
                    (t!("menu-getting-started"), "", AppAction::ShowGettingStarted),
                    (t!("menu-glossary"), "", AppAction::ShowGlossary),
                    (t!("menu-shortcuts"), "F1", AppAction::ToggleHelp),
                    (t!("menu-about"), "", AppAction::ShowAbout),
                ] {
                    if ui.add(egui::Button::new(label).shortcut_text(shortcut)).clicked() {
                        actions.push(action);
                        ui.close();
                    }
                }
            });
        });
    }
}

/// Every shortcut (key, message key of what it does), as the Help window lists them.
pub const SHORTCUTS: [(&str, &str); 9] = [
    ("Space", "key-space"),
    ("S", "key-s"),
    ("R", "key-r"),
    ("Ctrl+O", "key-open"),
    ("Ctrl+S", "key-save"),
    ("Ctrl+Z", "key-undo"),
    ("Ctrl+Shift+Z", "key-redo"),
    ("F1", "key-f1"),
    ("F5", "key-f5"),
];

pub fn help_window(ctx: &egui::Context, open: &mut bool) {
    egui::Window::new(t!("menu-shortcuts")).open(open).resizable(false).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
        egui::Grid::new("shortcuts").striped(true).show(ui, |ui| {
            for (key, what) in SHORTCUTS {
                ui.monospace(key);
                ui.label(crate::i18n::message(what, None));
                ui.end_row();
            }
        });
        ui.label(t!("keys-note"));
    });
}

/// The first steps (message keys), in the order a newcomer takes them.
pub const GETTING_STARTED: [&str; 5] = ["start-1", "start-2", "start-3", "start-4", "start-5"];

/// The guide; `lesson_loaded` says whether the open lesson's experiment is the one
/// on screen (the first step says so, or says how to load it).
pub fn getting_started_window(ctx: &egui::Context, open: &mut bool, lesson_loaded: bool) {
    egui::Window::new(t!("menu-getting-started")).open(open).resizable(false).collapsible(false).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
        ui.set_max_width(440.0);
        for (i, step) in GETTING_STARTED.iter().enumerate() {
            let step = if *step == "start-1" && !lesson_loaded { "start-1-not-loaded" } else { step };
            ui.label(format!("{}. {}", i + 1, crate::i18n::message(step, None)));
        }
        ui.add_space(6.0);
        ui.weak(t!("start-close"));
    });
}

pub fn about_window(ctx: &egui::Context, open: &mut bool) {
    egui::Window::new(t!("menu-about")).open(open).resizable(false).collapsible(false).default_pos([420.0, 160.0]).show(ctx, |ui| {
        ui.strong(format!("Attention Workbench {}", env!("CARGO_PKG_VERSION")));
        ui.label(t!("about-description"));
        ui.label(t!("about-licence", licence = env!("CARGO_PKG_LICENSE")));
        ui.label(t!("about-built"));
    });
}
