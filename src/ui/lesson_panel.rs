//! The lesson area. Lessons arrive with the lessons work; until then the panel says
//! how to use the workbench.

use eframe::egui;

pub fn lesson_panel_ui(ui: &mut egui::Ui) {
    ui.heading("Lesson");
    ui.label("Lessons will appear here.");
    ui.separator();
    ui.label("Start here:");
    ui.label("1. Pick a task in the top bar (reverse is a good first one).");
    ui.label("2. Press Space to train and watch the loss fall.");
    ui.label("3. Watch the attention maps: for reverse, the answer half learns to look at the mirrored position.");
    ui.label("4. Change a knob in the model editor (turn off positions, or the causal mask) and train again.");
}
