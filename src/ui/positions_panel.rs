//! How the model's positions look as numbers (lessons 05 and 21): the sinusoidal
//! table added to the token vectors, rotary's turning angles, or ALiBi's distance
//! penalty per head.

use eframe::egui;

use super::step_through::matrix_ui;
use crate::config::PositionalEncoding;
use crate::model::positional::{alibi_slopes, rotary_tables, sinusoidal_table};
use crate::t;
use crate::workbench::actions::AppAction;
use crate::workbench::window::WindowData;

/// What the tab draws, kept until the model's encoding or sizes change.
struct Picture {
    /// (encoding, positions, d_model, heads) it was made for.
    made_for: (PositionalEncoding, usize, usize, usize),
    values: Vec<f32>,
    rows: usize,
    cols: usize,
    row_labels: Vec<String>,
    column_labels: Option<Vec<String>>,
}

#[derive(Default)]
pub struct PositionsPanel {
    picture: Option<Picture>,
}

/// The picture for one encoding: the sinusoidal table `[positions, d_model]`; rotary's
/// cos(angle) `[positions, d_k/2]`; ALiBi's penalty of the last query for each key,
/// one row per head `[heads, positions]`.
fn picture(made_for: (PositionalEncoding, usize, usize, usize)) -> Picture {
    let (encoding, positions, d_model, heads) = made_for;
    let numbered = |n: usize| (0..n).map(|p| p.to_string()).collect::<Vec<_>>();
    match encoding {
        PositionalEncoding::Rotary => {
            let d_k = (d_model / heads.max(1)).max(2);
            let (cos, _) = rotary_tables(0..positions, d_k);
            Picture { made_for, values: cos, rows: positions, cols: d_k / 2, row_labels: numbered(positions), column_labels: None }
        }
        PositionalEncoding::Alibi => {
            let last = positions - 1;
            let values = alibi_slopes(heads.max(1)).iter().flat_map(|m| (0..positions).map(move |j| -m * (last - j) as f32)).collect();
            let row_labels = alibi_slopes(heads.max(1)).iter().enumerate().map(|(h, m)| format!("{h}: {m:.3}")).collect();
            Picture { made_for, values, rows: heads.max(1), cols: positions, row_labels, column_labels: Some(numbered(positions)) }
        }
        _ => Picture { made_for, values: sinusoidal_table(positions, d_model), rows: positions, cols: d_model, row_labels: numbered(positions), column_labels: None },
    }
}

impl super::Panel for PositionsPanel {
    fn show(&mut self, ui: &mut egui::Ui, data: &mut WindowData<'_>, _actions: &mut Vec<AppAction>) {
        let model = &data.applied.model;
        let (max_len, d_model, encoding) = (model.max_len, model.d_model, model.positional);
        let heads = model.layers.iter().find(|l| l.attention).map_or(1, |l| l.heads.max(1));
        let positions = match encoding {
            PositionalEncoding::Alibi => max_len.clamp(1, 64),
            _ => max_len.clamp(1, 128),
        };
        match encoding {
            PositionalEncoding::Rotary => {
                ui.heading(t!("views-positions-rotary-heading"));
                ui.label(t!("views-positions-rotary-intro", last = positions - 1, pairs = (d_model / heads).max(2) / 2));
            }
            PositionalEncoding::Alibi => {
                ui.heading(t!("views-positions-alibi-heading"));
                ui.label(t!("views-positions-alibi-intro", heads = heads, last = positions - 1));
            }
            _ => {
                ui.heading(t!("views-positions-heading"));
                ui.label(t!("views-positions-intro", last = positions - 1, d_model = d_model));
                if encoding != PositionalEncoding::Sinusoidal {
                    ui.weak(t!("views-positions-not-used"));
                }
            }
        }
        let made_for = (encoding, positions, d_model, heads);
        if self.picture.as_ref().is_none_or(|p| p.made_for != made_for) {
            self.picture = Some(picture(made_for));
        }
        let p = self.picture.as_ref().expect("built above");
        egui::ScrollArea::both().show(ui, |ui| matrix_ui(ui, &p.values, p.rows, p.cols, &p.row_labels, p.column_labels.as_deref()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_encoding_draws_its_own_numbers() {
        let sinusoidal = picture((PositionalEncoding::Sinusoidal, 8, 16, 4));
        assert_eq!((sinusoidal.rows, sinusoidal.cols), (8, 16));
        let rotary = picture((PositionalEncoding::Rotary, 8, 16, 4));
        assert_eq!((rotary.rows, rotary.cols), (8, 2), "d_k 4: two pairs");
        assert_eq!(rotary.values[0], 1.0, "position 0 is not turned");
        let alibi = picture((PositionalEncoding::Alibi, 8, 16, 4));
        assert_eq!((alibi.rows, alibi.cols), (4, 8));
        assert_eq!(alibi.values[7], 0.0, "the last query is not penalised for itself");
        assert!(alibi.values[0] < alibi.values[8], "head 0 has the steepest slope");
    }
}
