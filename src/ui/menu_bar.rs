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
            for (label, shortcut, action) in [
                ("Getting started", "", AppAction::ShowGettingStarted),
                ("Keyboard shortcuts", "F1", AppAction::ToggleHelp),
                ("About Attention Workbench", "", AppAction::ShowAbout),
            ] {
                if ui.add(egui::Button::new(label).shortcut_text(shortcut)).clicked() {
                    actions.push(action);
                    ui.close();
                }
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
    egui::Window::new("Keyboard shortcuts").open(open).resizable(false).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
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

/// The first steps, in the order a newcomer takes them.
pub const GETTING_STARTED: [&str; 5] = [
    "The lesson on the right explains one idea at a time. Lesson 1's experiment is already loaded.",
    "Press Start (or Space) to train it, and watch the loss fall in the plots at the bottom.",
    "Press a ▶ Try it button in the lesson: it changes the model (the lesson shows what changed) and trains it again.",
    "Open the attention grid (Attention tab) to see where each head looks; hover a cell for its weight.",
    "Checks in the lesson tick by themselves when your run shows the idea; each claim can be verified with three seeds.",
];

pub fn getting_started_window(ctx: &egui::Context, open: &mut bool) {
    egui::Window::new("Getting started").open(open).resizable(false).collapsible(false).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
        ui.set_max_width(440.0);
        for (i, step) in GETTING_STARTED.iter().enumerate() {
            ui.label(format!("{}. {step}", i + 1));
        }
        ui.add_space(6.0);
        ui.weak("Close this window to begin; Help → Getting started brings it back.");
    });
}

pub fn about_window(ctx: &egui::Context, open: &mut bool) {
    egui::Window::new("About Attention Workbench").open(open).resizable(false).collapsible(false).show(ctx, |ui| {
        ui.strong(format!("Attention Workbench {}", env!("CARGO_PKG_VERSION")));
        ui.label(env!("CARGO_PKG_DESCRIPTION"));
        ui.label(format!("Licence: {}", env!("CARGO_PKG_LICENSE")));
        ui.label("Built with egui, egui_plot, egui_commonmark and burn.");
    });
}
