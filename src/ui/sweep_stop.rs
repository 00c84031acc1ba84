//! The Stop button of a background sweep (sequence length, heads): what was
//! measured stays; it reads "Stopping…" until the sweep's thread has ended.

use eframe::egui;

use crate::t;
use crate::workbench::actions::AppAction;

/// `pressed`: Stop was pressed and the sweep has not ended yet; `tip` says when
/// this sweep stops.
pub fn stop_button(ui: &mut egui::Ui, pressed: bool, tip: String, stop: AppAction, actions: &mut Vec<AppAction>) {
    let label = if pressed { t!("views-sweep-stopping") } else { t!("views-sweep-stop") };
    if ui.add_enabled(!pressed, egui::Button::new(label)).on_hover_text(tip).clicked() {
        actions.push(stop);
    }
}
