//! The Stop button of a background sweep (sequence length, heads): what was
//! measured stays; it reads "Stopping…" until the sweep's thread has ended.

use eframe::egui;

use crate::t;
use crate::workbench::actions::AppAction;

pub fn stop_button(ui: &mut egui::Ui, stopping: bool, stop: AppAction, actions: &mut Vec<AppAction>) {
    let label = if stopping { t!("views-sweep-stopping") } else { t!("views-sweep-stop") };
    if ui.add_enabled(!stopping, egui::Button::new(label)).on_hover_text(t!("views-sweep-stop-tip")).clicked() {
        actions.push(stop);
    }
}
