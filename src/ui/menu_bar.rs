//! File, Edit, View and Help menus.

use eframe::egui;

use crate::app::actions::AppAction;
use crate::app::state::PersistedState;

pub fn menu_bar_ui(ui: &mut egui::Ui, state: &mut PersistedState, can_undo: bool, can_redo: bool, actions: &mut Vec<AppAction>) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            let mut item = |ui: &mut egui::Ui, label: &str, shortcut: &str, action: AppAction| {
                if ui.add(egui::Button::new(label).shortcut_text(shortcut)).clicked() {
                    actions.push(action);
                    ui.close();
                }
            };
            item(ui, "Open experiment…", "Ctrl+O", AppAction::OpenExperiment);
            item(ui, "Save experiment…", "Ctrl+S", AppAction::SaveExperiment);
            ui.separator();
            item(ui, "Save run folder…", "", AppAction::SaveRun);
            item(ui, "Load run folder…", "", AppAction::LoadRun);
            ui.separator();
            item(ui, "Export plots as PNG…", "", AppAction::ExportPlots);
            item(ui, "Export attention grid as PNG…", "", AppAction::ExportAttention);
            item(ui, "Export metrics as CSV…", "", AppAction::ExportCsv);
        });
        ui.menu_button("Edit", |ui| {
            if ui.add_enabled(can_undo, egui::Button::new("Undo config edit").shortcut_text("Ctrl+Z")).clicked() {
                actions.push(AppAction::Undo);
                ui.close();
            }
            if ui.add_enabled(can_redo, egui::Button::new("Redo config edit").shortcut_text("Ctrl+Shift+Z")).clicked() {
                actions.push(AppAction::Redo);
                ui.close();
            }
        });
        ui.menu_button("View", |ui| {
            ui.checkbox(&mut state.layout.model_editor, "Model editor");
            ui.checkbox(&mut state.layout.lesson, "Lesson");
            ui.checkbox(&mut state.layout.plots, "Plots");
            ui.checkbox(&mut state.layout.attention, "Attention");
            ui.separator();
            ui.checkbox(&mut state.dark_mode, "Dark theme");
        });
        ui.menu_button("Help", |ui| {
            if ui.button("Keyboard shortcuts").clicked() {
                actions.push(AppAction::ToggleHelp);
                ui.close();
            }
        });
    });
}

/// Every shortcut, as the Help window lists them.
pub const SHORTCUTS: [(&str, &str); 8] = [
    ("Space", "start / pause / resume training"),
    ("S", "train one step"),
    ("R", "reset to fresh weights"),
    ("Ctrl+O", "open an experiment"),
    ("Ctrl+S", "save the experiment"),
    ("Ctrl+Z", "undo a config edit"),
    ("Ctrl+Shift+Z", "redo a config edit"),
    ("F1", "this list"),
];

pub fn help_window(ctx: &egui::Context, open: &mut bool) {
    egui::Window::new("Keyboard shortcuts").open(open).resizable(false).show(ctx, |ui| {
        egui::Grid::new("shortcuts").striped(true).show(ui, |ui| {
            for (key, what) in SHORTCUTS {
                ui.monospace(key);
                ui.label(what);
                ui.end_row();
            }
        });
        ui.label("Shortcuts without Ctrl are ignored while you type in a text box.");
    });
}
