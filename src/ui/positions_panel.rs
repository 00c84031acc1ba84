//! The sinusoidal positional-encoding matrix as a heatmap (lesson 05).

use eframe::egui;
use crate::workbench::actions::AppAction;
use crate::workbench::window::WindowData;

use super::step_through::matrix_ui;
use crate::model::positional::sinusoidal_table;
use crate::t;

pub fn positions_ui(ui: &mut egui::Ui, positions: usize, d_model: usize) {
    ui.heading(t!("views-positions-heading"));
    ui.label(t!("views-positions-intro", last = positions.saturating_sub(1), d_model = d_model));
    let positions = positions.clamp(1, 128);
    let table = sinusoidal_table(positions, d_model);
    let labels: Vec<String> = (0..positions).map(|p| p.to_string()).collect();
    egui::ScrollArea::both().show(ui, |ui| matrix_ui(ui, &table, positions, d_model, &labels, false));
}

/// The Positions tab.
#[derive(Default)]
pub struct PositionsPanel;

impl super::Panel for PositionsPanel {
    fn show(&mut self, ui: &mut egui::Ui, data: &mut WindowData<'_>, _actions: &mut Vec<AppAction>) {
        positions_ui(ui, data.applied.model.max_len, data.applied.model.d_model);
    }
}
