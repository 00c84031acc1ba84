//! The message strip under the top bar: errors, warnings and notes, until dismissed.

use eframe::egui;

use crate::app::actions::AppAction;
use crate::app::run_view::{Banner, BannerKind};

pub fn banner_ui(ui: &mut egui::Ui, banner: &Banner, actions: &mut Vec<AppAction>) {
    let (fill, icon) = match banner.kind {
        BannerKind::Info => (egui::Color32::from_rgb(30, 70, 110), "ℹ"),
        BannerKind::Warning => (egui::Color32::from_rgb(120, 90, 20), "⚠"),
        BannerKind::Error => (egui::Color32::from_rgb(130, 30, 30), "⛔"),
    };
    egui::Frame::new().fill(fill).inner_margin(6.0).corner_radius(4.0).show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.colored_label(egui::Color32::WHITE, format!("{icon} {}", banner.text));
            if ui.small_button("Dismiss").clicked() {
                actions.push(AppAction::DismissBanner);
            }
        });
    });
}
