//! The sinusoidal positional-encoding matrix as a heatmap (lesson 05).

use eframe::egui;

use super::step_through::matrix_ui;
use crate::model::positional::sinusoidal_table;
use crate::t;
use crate::workbench::actions::AppAction;
use crate::workbench::window::WindowData;

/// The Positions tab, with the table it draws kept until the model's length or
/// width changes.
#[derive(Default)]
pub struct PositionsPanel {
    /// (positions, d_model), the table, and its row labels.
    table: Option<((usize, usize), Vec<f32>, Vec<String>)>,
}

impl super::Panel for PositionsPanel {
    fn show(&mut self, ui: &mut egui::Ui, data: &mut WindowData<'_>, _actions: &mut Vec<AppAction>) {
        let (max_len, d_model) = (data.applied.model.max_len, data.applied.model.d_model);
        ui.heading(t!("views-positions-heading"));
        ui.label(t!("views-positions-intro", last = max_len.saturating_sub(1), d_model = d_model));
        let positions = max_len.clamp(1, 128);
        if self.table.as_ref().is_none_or(|(shape, _, _)| *shape != (positions, d_model)) {
            let labels = (0..positions).map(|p| p.to_string()).collect();
            self.table = Some(((positions, d_model), sinusoidal_table(positions, d_model), labels));
        }
        let (_, table, labels) = self.table.as_ref().expect("built above");
        egui::ScrollArea::both().show(ui, |ui| matrix_ui(ui, table, positions, d_model, labels, None));
    }
}
