//! A sweep's refused row (a length or head count that could not run): short in
//! the table, with its reason, which is long, wrapped under the table.

use eframe::egui;

use crate::t;

/// The row's two cells: what was refused, and "refused (why below)" (the reason
/// on hover too).
pub fn cells(ui: &mut egui::Ui, what: String, reason: &str) {
    ui.label(what);
    ui.colored_label(ui.visuals().warn_fg_color, t!("views-refused-short")).on_hover_text(reason);
}

/// The reason under the table, wrapped inside the view.
pub fn reason(ui: &mut egui::Ui, text: String) {
    ui.add(egui::Label::new(egui::RichText::new(text).color(ui.visuals().warn_fg_color)).wrap());
}
