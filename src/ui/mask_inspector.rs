//! The mask inspector: for one layer and head, the mask the config intends, the
//! mask the attention really applied, and the attention weights after the softmax,
//! side by side on the same axes. Leaking cells, rows with no visible key and
//! padding are flagged; the probes measure leaks end to end.

use eframe::egui;

use super::heatmap::HeatmapView;
use crate::app::actions::AppAction;
use crate::app::inspection::inspect;
use crate::probe::LeakReport;
use crate::training::AttentionSnapshot;

#[derive(Default)]
pub struct MaskInspector {
    pub layer: usize,
    pub head: usize,
}

impl MaskInspector {
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        snapshot: Option<&AttentionSnapshot>,
        probes: [Option<&LeakReport>; 2],
        actions: &mut Vec<AppAction>,
    ) {
        ui.horizontal(|ui| {
            ui.heading("Mask inspector");
            if ui.button("Probe for leaks").on_hover_text(
                "Change the tokens after each position (and the padding tokens) and measure how much \
                 earlier (and real) outputs move, layer by layer. A sound mask moves nothing.",
            ).clicked() {
                actions.push(AppAction::Probe);
            }
        });
        for report in probes.into_iter().flatten() {
            probe_ui(ui, report);
        }
        let Some(snapshot) = snapshot else {
            ui.label("The inspector fills in when the model is ready.");
            return;
        };
        let layers = snapshot.layers.len();
        self.layer = self.layer.min(layers.saturating_sub(1));
        ui.horizontal(|ui| {
            egui::ComboBox::from_label("layer").selected_text(self.layer.to_string()).show_ui(ui, |ui| {
                for l in 0..layers {
                    ui.selectable_value(&mut self.layer, l, l.to_string());
                }
            });
            let heads = snapshot.layers[self.layer].as_ref().map_or(0, Vec::len);
            self.head = self.head.min(heads.saturating_sub(1));
            egui::ComboBox::from_label("head").selected_text(self.head.to_string()).show_ui(ui, |ui| {
                for h in 0..heads {
                    ui.selectable_value(&mut self.head, h, h.to_string());
                }
            });
        });
        let Some(inspection) = inspect(snapshot, self.layer, self.head) else {
            ui.label("This layer has no attention.");
            return;
        };
        let seq = snapshot.tokens.len();
        let error = ui.visuals().error_fg_color;
        if inspection.leaking_cells.is_empty() {
            ui.label("✔ no weight reaches a position the intended mask hides");
            if inspection.intended_sees_future {
                ui.weak(
                    "This layer's intended mask is not causal (bidirectional or a window reaching ahead): positions are meant to see later ones, \
                     so the causality probe reports a leak here by design. It matters only for a model that must write one token at a time.",
                );
            }
        } else {
            ui.colored_label(error, format!(
                "⚠ {} cells leak: weight reaches a position the intended mask hides (outlined in red)",
                inspection.leaking_cells.len()
            ));
        }
        if !inspection.empty_rows.is_empty() {
            let rows: Vec<String> = inspection.empty_rows.iter().map(|r| format!("{r} \"{}\"", snapshot.tokens[*r])).collect();
            let count = if rows.len() == 1 { "1 row sees".to_string() } else { format!("{} rows see", rows.len()) };
            ui.colored_label(error, format!(
                "⚠ {count} no key at all: {} (red mark). Defined result: zero weight everywhere, so the attention output there is the zero vector.",
                rows.join(", ")
            ));
        }
        if inspection.mask_differences > 0 {
            ui.colored_label(ui.visuals().warn_fg_color, format!("the applied mask differs from the intended one in {} cells", inspection.mask_differences));
        }
        let short_rows = inspection.row_sums.iter().enumerate().filter(|(q, s)| !inspection.empty_rows.contains(q) && (**s - 1.0).abs() > 1e-3).count();
        if short_rows > 0 {
            ui.colored_label(ui.visuals().warn_fg_color, format!("{short_rows} rows sum to less than 1: the mask was applied after the softmax"));
        }
        if snapshot.padding.iter().any(|p| *p) {
            ui.label("orange marks on the axes: padding positions");
        }
        // Three labelled maps side by side.
        let cell = super::heatmap::fit_cell(ui.available_width() - 2.0 * super::heatmap::LABEL_SPACE, ui.available_height().min(900.0), 3, 1, seq, 4.0, 40.0);
        let intended = snapshot.intended_masks[self.layer].as_deref().unwrap_or(&[]);
        let applied = snapshot.masks[self.layer].as_deref().unwrap_or(&[]);
        let ones = vec![1.0f32; seq * seq];
        let weights = &snapshot.layers[self.layer].as_ref().expect("attention layer")[self.head];
        ui.horizontal(|ui| {
            map(ui, "intended mask (config)", HeatmapView { padding: &snapshot.padding, ..HeatmapView::plain(&ones, Some(intended), &snapshot.tokens, cell, true) });
            map(ui, "applied mask (inside attention)", HeatmapView {
                padding: &snapshot.padding,
                marked_rows: &inspection.empty_rows,
                ..HeatmapView::plain(&ones, Some(applied), &snapshot.tokens, cell, true)
            });
            map(ui, "effective attention (after softmax)", HeatmapView {
                padding: &snapshot.padding,
                highlight: &inspection.leaking_cells,
                marked_rows: &inspection.empty_rows,
                ..HeatmapView::plain(weights, None, &snapshot.tokens, cell, true)
            });
        });
        ui.weak("Masks: yellow = the query may see the key, grey and hatched = hidden. Attention: colour = weight.");
    }
}

fn map(ui: &mut egui::Ui, title: &str, view: HeatmapView) {
    ui.vertical(|ui| {
        ui.label(title);
        let (response, hover) = view.ui(ui);
        if let Some(h) = hover {
            let seq = view.tokens.len();
            response.on_hover_text(format!(
                "query {} \"{}\" looks at key {} \"{}\": {:.3}",
                h.query, view.tokens[h.query], h.key, view.tokens[h.key], view.weights[h.query * seq + h.key]
            ));
        }
    });
}

fn probe_ui(ui: &mut egui::Ui, report: &LeakReport) {
    if let Some(note) = &report.note {
        ui.label(format!("{} probe: {note}", report.probe));
        return;
    }
    let text = report
        .layers
        .iter()
        .map(|l| match l.first_leaking_position {
            Some(p) => format!("layer {}: leaks from position {p} (outputs move by up to {})", l.layer, crate::experiments::plain_number(l.score as f64)),
            None => format!("layer {}: no leak", l.layer),
        })
        .collect::<Vec<_>>()
        .join(" · ");
    if report.leak {
        ui.colored_label(ui.visuals().error_fg_color, format!("⚠ {} probe: LEAK · {text}", report.probe));
    } else {
        ui.label(format!("✔ {} probe: no leak · {text}", report.probe));
    }
}
