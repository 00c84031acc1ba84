//! Two runs' attention side by side: run a's map, run b's map and their
//! difference (b − a, red where b attends more, blue where it attends less), for
//! one layer and head. Used under a verified claim and for "Compare with pinned".

use eframe::egui;

use super::heatmap::{HeatmapView, LABEL_SPACE};
use crate::t;
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
        ui.label(t!("lesson-ab-layer"));
        // Units by name ("decoder 0 · cross"), as the attention grid shows them.
        let named = if a.layers.len() >= b.layers.len() { a } else { b };
        egui::ComboBox::from_id_salt(id.with("layer")).selected_text(named.name(choice.layer)).show_ui(ui, |ui| {
            for l in 0..layers {
                ui.selectable_value(&mut choice.layer, l, named.name(l));
            }
        });
        let most = heads(a, choice.layer).max(heads(b, choice.layer));
        ui.label(t!("lesson-ab-head"));
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
    // Three maps side by side, each with its own label margin, sized from the width
    // there is and never the other way round: a panel that grew to fit its maps
    // would offer more width on the next frame and grow again.
    let width = ui.available_width();
    let labels = width / 3.0 - 16.0 - LABEL_SPACE >= 8.0 * seq as f32;
    let margin = if labels { LABEL_SPACE } else { 0.0 };
    // As large as the attention grid's maps where there is room (a window).
    let cell = ((width / 3.0 - 16.0 - margin) / seq.max(1) as f32).clamp(1.0, 40.0);
    let column = cell * seq as f32 + margin;
    ui.horizontal_top(|ui| {
        for (name, snapshot, weights) in [(names[0], a, &map_a), (names[1], b, &map_b)] {
            ui.vertical(|ui| {
                ui.set_max_width(column);
                ui.label(name);
                match weights {
                    Some(w) => {
                        let keep = keep(snapshot);
                        HeatmapView::plain(w, keep.as_deref(), &snapshot.tokens, cell, labels).ui(ui);
                    }
                    None => {
                        ui.weak(t!("lesson-ab-no-head", head = choice.head, layer = choice.layer));
                    }
                }
            });
        }
        ui.vertical(|ui| {
            ui.set_max_width(column.max(120.0));
            ui.label(format!("{} − {}", names[1], names[0]));
            match (&map_a, &map_b) {
                (Some(wa), Some(wb)) if b.tokens == a.tokens && wa.len() == wb.len() => {
                    let diff: Vec<f32> = wa.iter().zip(wb).map(|(x, y)| y - x).collect();
                    let largest = diff.iter().fold(0.0f32, |m, d| m.max(d.abs()));
                    HeatmapView { difference: true, ..HeatmapView::plain(&diff, None, &a.tokens, cell, labels) }.ui(ui);
                    let mean = diff.iter().map(|d| d.abs()).sum::<f32>() / diff.len().max(1) as f32;
                    ui.weak(t!("lesson-ab-largest-change", largest = format!("{largest:.2}"), mean = format!("{mean:.3}"), name = names[1]));
                }
                (Some(_), Some(_)) => {
                    ui.weak(t!("lesson-ab-different-probes"));
                }
                _ => {
                    ui.weak(t!("lesson-ab-missing-head"));
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
