//! The status strip under the top bar: errors (until dismissed), warnings and notes
//! (which fade). It has a fixed height and its own row, so it never covers a control.

use eframe::egui;

use crate::workbench::actions::AppAction;
use crate::workbench::run_view::{Banner, BannerKind};
use crate::t;

/// Height of the strip in points.
pub const STRIP_HEIGHT: f32 = 26.0;

/// With no message, what to do next: `idle_hint` comes from the run's state.
pub fn status_strip_ui(ui: &mut egui::Ui, banner: Option<&Banner>, idle_hint: &str, actions: &mut Vec<AppAction>) {
    let Some(banner) = banner else {
        ui.centered_and_justified(|ui| {
            ui.weak(idle_hint);
        });
        return;
    };
    let (fill, icon) = match banner.kind {
        BannerKind::Info => (egui::Color32::from_rgb(30, 70, 110), "ℹ"),
        BannerKind::Warning => (egui::Color32::from_rgb(120, 90, 20), "⚠"),
        BannerKind::Error => (egui::Color32::from_rgb(130, 30, 30), "⛔"),
    };
    egui::Frame::new().fill(fill).inner_margin(egui::Margin::symmetric(6, 0)).corner_radius(4.0).show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.set_width(ui.available_width());
            if ui.small_button(t!("lesson-banner-dismiss")).clicked() {
                actions.push(AppAction::DismissBanner);
            }
            let text = egui::RichText::new(format!("{icon} {}", banner.text)).color(egui::Color32::WHITE);
            let label = egui::Label::new(text);
            // Errors wrap (the strip grows) so their advice is readable; notes stay on one line.
            let label = if banner.kind == BannerKind::Error { label.wrap() } else { label.truncate() };
            ui.add(label).on_hover_text(&banner.text);
        });
    });
}
