//! How the model's positions look as numbers (lessons 05 and 21): the sinusoidal
//! table added to the token vectors, rotary's turning angles, or ALiBi's distance
//! penalty per head.

use eframe::egui;
use egui_plot::{Line, Plot, PlotPoints};

use super::step_through::matrix_ui;
use crate::config::PositionalEncoding;
use crate::model::positional::{alibi_slopes, rotary_tables, sinusoidal_table};
use crate::t;
use crate::workbench::actions::AppAction;
use crate::workbench::window::WindowData;

/// The sinusoidal table, kept until the model's length or width changes.
struct Table {
    /// (positions, d_model) it was made for.
    made_for: (usize, usize),
    values: Vec<f32>,
    row_labels: Vec<String>,
}

#[derive(Default)]
pub struct PositionsPanel {
    table: Option<Table>,
}

/// Rotary: for each pair i of a head's `d_k` numbers, cos of its angle at every
/// position, as (pair, [[position, cos]]).
fn rotary_lines(positions: usize, d_k: usize) -> Vec<(usize, Vec<[f64; 2]>)> {
    let half = d_k / 2;
    let (cos, _) = rotary_tables(0..positions, d_k); // [positions, d_k/2]
    (0..half).map(|i| (i, (0..positions).map(|p| [p as f64, cos[p * half + i] as f64]).collect())).collect()
}

/// ALiBi: for each head, its slope and the penalty -m·d at every distance d.
fn alibi_lines(positions: usize, heads: usize) -> Vec<(f32, Vec<[f64; 2]>)> {
    alibi_slopes(heads).into_iter().map(|m| (m, (0..positions).map(|d| [d as f64, -(m as f64) * d as f64]).collect())).collect()
}

fn line_plot(ui: &mut egui::Ui, id: &str, x: String, y: String, lines: Vec<(String, Vec<[f64; 2]>)>) {
    let height = (ui.available_height() - 10.0).clamp(200.0, 520.0);
    Plot::new(id).height(height).legend(super::chart_axes::legend()).x_axis_label(x).y_axis_label(y).show(ui, |plot| {
        for (name, points) in lines {
            plot.line(Line::new(name, PlotPoints::from(points)));
        }
    });
}

impl super::Panel for PositionsPanel {
    fn show(&mut self, ui: &mut egui::Ui, data: &mut WindowData<'_>, _actions: &mut Vec<AppAction>) {
        let model = &data.applied.model;
        let (max_len, d_model, encoding) = (model.max_len, model.d_model, model.positional);
        let heads = model.layers.iter().find(|l| l.attention).map_or(1, |l| l.heads.max(1));
        let positions = max_len.clamp(1, 128);
        match encoding {
            PositionalEncoding::Rotary => {
                let d_k = (d_model / heads).max(2);
                ui.heading(t!("views-positions-rotary-heading"));
                ui.label(t!("views-positions-rotary-intro", last = positions - 1, pairs = d_k / 2));
                let lines = rotary_lines(positions, d_k).into_iter().map(|(i, points)| (t!("views-positions-pair", pair = i), points)).collect();
                line_plot(ui, "rotary_angles", t!("views-positions-position"), "cos(angle)".to_string(), lines);
            }
            PositionalEncoding::Alibi => {
                ui.heading(t!("views-positions-alibi-heading"));
                ui.label(t!("views-positions-alibi-intro", heads = heads, last = positions - 1));
                let lines = alibi_lines(positions, heads).into_iter().enumerate().map(|(h, (m, points))| (t!("views-positions-head-slope", head = h, slope = format!("{m:.4}")), points)).collect();
                line_plot(ui, "alibi_penalty", t!("views-positions-distance"), t!("views-positions-penalty"), lines);
            }
            _ => {
                ui.heading(t!("views-positions-heading"));
                ui.label(t!("views-positions-intro", last = positions - 1, d_model = d_model));
                if encoding != PositionalEncoding::Sinusoidal {
                    ui.weak(t!("views-positions-not-used"));
                }
                if self.table.as_ref().is_none_or(|t| t.made_for != (positions, d_model)) {
                    let row_labels = (0..positions).map(|p| p.to_string()).collect();
                    self.table = Some(Table { made_for: (positions, d_model), values: sinusoidal_table(positions, d_model), row_labels });
                }
                let table = self.table.as_ref().expect("built above");
                egui::ScrollArea::both().show(ui, |ui| matrix_ui(ui, &table.values, positions, d_model, &table.row_labels, None));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotary_pairs_turn_from_fast_to_slow_and_alibi_heads_from_steep_to_flat() {
        let rotary = rotary_lines(8, 16);
        assert_eq!(rotary.len(), 8, "d_k 16: eight pairs");
        assert_eq!(rotary[0].1[0][1], 1.0, "position 0 is not turned");
        assert!(rotary[0].1[1][1] < rotary[7].1[1][1], "the first pair turns fastest");
        let alibi = alibi_lines(8, 4);
        assert_eq!(alibi.len(), 4);
        assert_eq!(alibi[0].1[0][1], 0.0, "no penalty at distance 0");
        assert!(alibi[0].1[7][1] < alibi[3].1[7][1], "head 0 has the steepest slope");
    }
}
