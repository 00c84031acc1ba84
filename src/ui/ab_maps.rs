//! Two runs' attention side by side: run a's map, run b's map and their
//! difference (b − a, red where b attends more, blue where it attends less), for
//! one layer and head. Used under a verified claim and for "Compare with pinned".

use eframe::egui;

use super::heatmap::{HeatmapView, fit_cell};
use crate::training::AttentionSnapshot;

/// The layer and head being compared (kept per comparison in egui's memory).
#[derive(Clone, Copy, Default)]
struct Choice {
    layer: usize,
    head: usize,
}

/// `id` keeps each comparison's layer/head choice apart; `names` label the two runs.
pub fn ab_maps_ui(ui: &mut egui::Ui, id: egui::Id, a: &AttentionSnapshot, b: &AttentionSnapshot, names: [&str; 2]) {
    let layers = a.layers.len().max(b.layers.len());
    let mut choice: Choice = ui.data(|d| d.get_temp(id)).unwrap_or_default();
    let heads = |s: &AttentionSnapshot, l: usize| s.layers.get(l).and_then(|m| m.as_ref()).map_or(0, Vec::len);
    ui.horizontal(|ui| {
        ui.label("layer");
        egui::ComboBox::from_id_salt(id.with("layer")).selected_text(choice.layer.to_string()).show_ui(ui, |ui| {
            for l in 0..layers {
                ui.selectable_value(&mut choice.layer, l, l.to_string());
            }
        });
        let most = heads(a, choice.layer).max(heads(b, choice.layer));
        ui.label("head");
        egui::ComboBox::from_id_salt(id.with("head")).selected_text(choice.head.to_string()).show_ui(ui, |ui| {
            for h in 0..most.max(1) {
                ui.selectable_value(&mut choice.head, h, h.to_string());
            }
        });
    });
    ui.data_mut(|d| d.insert_temp(id, choice));
    let map = |s: &AttentionSnapshot| s.layers.get(choice.layer)?.as_ref()?.get(choice.head).cloned();
    let keep = |s: &AttentionSnapshot| s.masks.get(choice.layer).cloned().flatten();
    let (map_a, map_b) = (map(a), map(b));
    let seq = a.tokens.len();
    let cell = fit_cell(ui.available_width(), 400.0, 3, 1, seq, 3.0, 14.0);
    ui.horizontal_wrapped(|ui| {
        for (name, snapshot, weights) in [(names[0], a, &map_a), (names[1], b, &map_b)] {
            ui.vertical(|ui| {
                ui.label(name);
                match weights {
                    Some(w) => {
                        let keep = keep(snapshot);
                        HeatmapView::plain(w, keep.as_deref(), &snapshot.tokens, cell, true).ui(ui);
                    }
                    None => {
                        ui.weak(format!("no head {} in layer {}", choice.head, choice.layer));
                    }
                }
            });
        }
        ui.vertical(|ui| {
            ui.label(format!("{} − {}", names[1], names[0]));
            match (&map_a, &map_b) {
                (Some(wa), Some(wb)) if b.tokens == a.tokens && wa.len() == wb.len() => {
                    let diff: Vec<f32> = wa.iter().zip(wb).map(|(x, y)| y - x).collect();
                    let largest = diff.iter().fold(0.0f32, |m, d| m.max(d.abs()));
                    HeatmapView { difference: true, ..HeatmapView::plain(&diff, None, &a.tokens, cell, true) }.ui(ui);
                    ui.weak(format!("largest change {largest:.2}; red: {} attends more", names[1]));
                }
                (Some(_), Some(_)) => {
                    ui.weak("the two runs looked at different probe sequences, so cells do not line up");
                }
                _ => {
                    ui.weak("one run has no such head");
                }
            }
        });
    });
}

#[cfg(test)]
mod tests {
    use super::super::colormap::diverging;

    #[test]
    fn no_difference_is_grey_and_signs_take_opposite_hues() {
        let zero = diverging(0.0);
        assert_eq!((zero.r(), zero.g(), zero.b()), (64, 64, 64));
        let (up, down) = (diverging(0.5), diverging(-0.5));
        assert!(up.r() > up.b() && down.b() > down.r(), "red for more, blue for less");
        assert_eq!(diverging(f32::NAN), zero);
    }
}
