//! The mask inspector: for one layer and head, the mask the config intends, the
//! mask the attention really applied, and the attention weights after the softmax,
//! side by side on the same axes. Leaking cells, rows with no visible key and
//! padding are flagged; the probes measure leaks end to end.

use eframe::egui;
use crate::workbench::window::WindowData;

use super::heatmap::HeatmapView;
use crate::workbench::actions::AppAction;
use crate::workbench::inspection::inspect;
use crate::probe::LeakReport;
use crate::t;
use crate::training::AttentionSnapshot;

#[derive(Default)]
pub struct MaskInspector {
    pub layer: usize,
    pub head: usize,
    /// Hide the leak probes' button (a pretrained checkpoint is not probed here).
    pub without_probes: bool,
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
            ui.heading(t!("views-mask-heading"));
            if !self.without_probes && ui.button(t!("views-mask-probe")).on_hover_text(t!("views-mask-probe-tip")).clicked() {
                actions.push(AppAction::Probe);
            }
        });
        // A model meant to see later positions (bidirectional, or a window reaching
        // ahead) fails the causality probe by design: say so beside the verdict.
        // Only worked out when there is a causality leak to explain (not every frame).
        let leak_shown = probes.iter().flatten().any(|r| r.leak && r.probe == "causality");
        let sees_future = leak_shown && snapshot.is_some_and(intends_to_see_future);
        for report in probes.into_iter().flatten() {
            probe_ui(ui, report, sees_future);
        }
        let Some(snapshot) = snapshot else {
            ui.label(t!("views-mask-not-ready"));
            return;
        };
        let layers = snapshot.layers.len();
        self.layer = self.layer.min(layers.saturating_sub(1));
        ui.horizontal(|ui| {
            // The layer's name says "layer" already ("layer 0", "cross-attention 1");
            // the head's label comes before its box, as it reads.
            egui::ComboBox::from_id_salt("mask_layer").selected_text(snapshot.name(self.layer)).show_ui(ui, |ui| {
                for l in 0..layers {
                    ui.selectable_value(&mut self.layer, l, snapshot.name(l));
                }
            });
            let heads = snapshot.layers[self.layer].as_ref().map_or(0, Vec::len);
            self.head = self.head.min(heads.saturating_sub(1));
            ui.label(t!("views-mask-head"));
            egui::ComboBox::from_id_salt("mask_head").selected_text(self.head.to_string()).show_ui(ui, |ui| {
                for h in 0..heads {
                    ui.selectable_value(&mut self.head, h, h.to_string());
                }
            });
        });
        let Some(inspection) = inspect(snapshot, self.layer, self.head) else {
            ui.label(t!("views-mask-no-attention"));
            return;
        };
        let seq = snapshot.tokens.len();
        let error = ui.visuals().error_fg_color;
        if inspection.leaking_cells.is_empty() {
            ui.label(t!("views-mask-no-leak"));
            if inspection.intended_sees_future {
                ui.weak(t!("views-mask-not-causal"));
            }
        } else {
            ui.colored_label(error, t!("views-mask-leaking-cells", count = inspection.leaking_cells.len()));
        }
        if !inspection.empty_rows.is_empty() {
            let rows: Vec<String> = inspection.empty_rows.iter().map(|r| format!("{r} \"{}\"", snapshot.tokens[*r])).collect();
            let text = if rows.len() == 1 {
                t!("views-mask-empty-row", rows = rows.join(", "))
            } else {
                t!("views-mask-empty-rows", count = rows.len(), rows = rows.join(", "))
            };
            ui.colored_label(error, text);
        }
        if inspection.mask_differences > 0 {
            ui.colored_label(ui.visuals().warn_fg_color, t!("views-mask-differs", count = inspection.mask_differences));
        }
        let short_rows = inspection.row_sums.iter().enumerate().filter(|(q, s)| snapshot.block(self.layer).0.contains(q) && !inspection.empty_rows.contains(q) && (**s - 1.0).abs() > 1e-3).count();
        if short_rows > 0 {
            ui.colored_label(ui.visuals().warn_fg_color, t!("views-mask-short-rows", count = short_rows));
        }
        if snapshot.padding.iter().any(|p| *p) {
            ui.label(t!("views-mask-padding"));
        }
        // Three labelled maps side by side, all three on screen: a long sequence
        // (128 at 1440×900) gets small cells rather than a map off the edge.
        // The whole frame, even for a unit of an encoder–decoder: which blocks its
        // mask blocks is what this view is for (its flags keep to the unit's block).
        let block = (0..seq, 0..seq);
        let drawn = seq;
        let cell = super::heatmap::fit_cell(ui.available_width() - 2.0 * super::heatmap::LABEL_SPACE, ui.available_height().min(900.0), 3, 1, drawn, 1.0, 40.0);
        let intended = snapshot.intended_masks[self.layer].as_deref().unwrap_or(&[]);
        let applied = snapshot.masks[self.layer].as_deref().unwrap_or(&[]);
        let ones = vec![1.0f32; seq * seq];
        let weights = &snapshot.layers[self.layer].as_ref().expect("attention layer")[self.head];
        ui.horizontal(|ui| {
            map(ui, &t!("views-mask-intended"), HeatmapView { padding: &snapshot.padding, ..HeatmapView::plain(&ones, Some(intended), &snapshot.tokens, cell, true) }.block(block.clone()));
            map(ui, &t!("views-mask-applied"), HeatmapView {
                padding: &snapshot.padding,
                marked_rows: &inspection.empty_rows,
                ..HeatmapView::plain(&ones, Some(applied), &snapshot.tokens, cell, true)
            }.block(block.clone()));
            map(ui, &t!("views-mask-effective"), HeatmapView {
                padding: &snapshot.padding,
                highlight: &inspection.leaking_cells,
                marked_rows: &inspection.empty_rows,
                ..HeatmapView::plain(weights, None, &snapshot.tokens, cell, true)
            }.block(block.clone()));
        });
        ui.weak(t!("views-mask-legend"));
    }
}

fn map(ui: &mut egui::Ui, title: &str, view: HeatmapView) {
    ui.vertical(|ui| {
        ui.label(title);
        let (response, hover) = view.ui(ui);
        if let Some(h) = hover {
            let seq = view.tokens.len();
            response.on_hover_text(t!("views-mask-cell",
                query = h.query,
                q = view.tokens[h.query].as_str(),
                key = h.key,
                k = view.tokens[h.key].as_str(),
                weight = format!("{:.3}", view.weights[h.query * seq + h.key]),
            ));
        }
    });
}

/// Whether some layer's intended mask lets a query see a later, real position.
fn intends_to_see_future(snapshot: &AttentionSnapshot) -> bool {
    let seq = snapshot.tokens.len();
    snapshot.intended_masks.iter().flatten().any(|mask| {
        (0..seq).any(|q| (q + 1..seq).any(|k| !snapshot.padding.get(k).copied().unwrap_or(false) && mask.get(q * seq + k).copied().unwrap_or(false)))
    })
}

fn probe_ui(ui: &mut egui::Ui, report: &LeakReport, sees_future: bool) {
    if let Some(note) = &report.note {
        ui.label(t!("views-probe-note", probe = probe_name(report.probe), note = note.as_str()));
        return;
    }
    let text = report
        .layers
        .iter()
        .map(|l| match l.first_leaking_position {
            Some(p) if report.probe == "padding" => {
                t!("views-probe-layer-padding-leak", layer = l.layer, position = p, score = crate::experiments::plain_number(l.score as f64))
            }
            Some(p) => t!("views-probe-layer-leak", layer = l.layer, position = p, score = crate::experiments::plain_number(l.score as f64)),
            None => t!("views-probe-layer-ok", layer = l.layer),
        })
        .collect::<Vec<_>>()
        .join(" · ");
    if report.leak && report.probe == "causality" && sees_future {
        ui.colored_label(ui.visuals().warn_fg_color, t!("views-probe-leak-by-design", probe = probe_name(report.probe), layers = text))
            .on_hover_text(t!("views-mask-not-causal"));
    } else if report.leak {
        ui.colored_label(ui.visuals().error_fg_color, t!("views-probe-leak", probe = probe_name(report.probe), layers = text));
    } else {
        ui.label(t!("views-probe-no-leak", probe = probe_name(report.probe), layers = text));
    }
}

/// The name of a probe ("causality", "padding") in the interface language.
fn probe_name(probe: &str) -> String {
    match probe {
        "causality" => t!("views-probe-causality"),
        "padding" => t!("views-probe-padding"),
        other => other.to_string(),
    }
}

impl super::Panel for MaskInspector {
    fn show(&mut self, ui: &mut egui::Ui, data: &mut WindowData<'_>, actions: &mut Vec<AppAction>) {
        let view = data.view;
        let probes = [view.causality.as_ref(), view.padding_probe.as_ref()];
        egui::ScrollArea::both().show(ui, |ui| self.ui(ui, view.attention.as_ref(), probes, actions));
    }
}
