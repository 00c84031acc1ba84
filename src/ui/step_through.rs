//! Step-through: one head's computation on the probe, stage by stage:
//! Q, K, V, QKᵀ, ÷√d_k, mask, softmax, × V.

use eframe::egui::{self, Color32, Pos2, Rect, Sense, Vec2};

use super::bounded::Bounded;

use crate::workbench::actions::AppAction;
use crate::workbench::window::WindowData;
use crate::t;
use crate::training::HeadTraceData;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Stage {
    Q,
    K,
    V,
    #[default]
    RawScores,
    Scaled,
    Mask,
    Softmax,
    Output,
}

/// Each stage with the message keys of its button name and its explanation.
const STAGES: [(Stage, &str, &str); 8] = [
    (Stage::Q, "views-step-q", "views-step-q-text"),
    (Stage::K, "views-step-k", "views-step-k-text"),
    (Stage::V, "views-step-v", "views-step-v-text"),
    (Stage::RawScores, "views-step-raw", "views-step-raw-text"),
    (Stage::Scaled, "views-step-scaled", "views-step-scaled-text"),
    (Stage::Mask, "views-step-mask", "views-step-mask-text"),
    (Stage::Softmax, "views-step-softmax", "views-step-softmax-text"),
    (Stage::Output, "views-step-output", "views-step-output-text"),
];

#[derive(Default)]
pub struct StepThrough {
    pub layer: usize,
    pub head: usize,
    pub stage: Stage,
}

impl StepThrough {
    pub fn ui(&mut self, ui: &mut egui::Ui, trace: Option<&HeadTraceData>, layers: usize, heads: usize, actions: &mut Vec<AppAction>) {
        ui.heading(t!("views-step-heading"));
        ui.horizontal(|ui| {
            ui.add(Bounded::new(&mut self.layer, 0..=layers.saturating_sub(1)).prefix(t!("views-step-layer-prefix")));
            ui.add(Bounded::new(&mut self.head, 0..=heads.saturating_sub(1)).prefix(t!("views-step-head-prefix")));
            if ui.button(t!("views-step-trace")).on_hover_text(t!("views-step-trace-tip")).clicked() {
                actions.push(AppAction::Trace { layer: self.layer, head: self.head });
            }
        });
        let Some(trace) = trace else {
            ui.label(t!("views-step-not-traced"));
            return;
        };
        let layer = trace.name.label();
        ui.label(if trace.scaled {
            t!("views-step-summary", layer = layer.as_str(), head = trace.head, dk = trace.d_k, step = trace.step)
        } else {
            t!("views-step-summary-unscaled", layer = layer.as_str(), head = trace.head, dk = trace.d_k, step = trace.step)
        });
        ui.horizontal_wrapped(|ui| {
            for (i, (stage, name, _)) in STAGES.iter().enumerate() {
                if i > 0 {
                    ui.label("→");
                }
                ui.selectable_value(&mut self.stage, *stage, crate::i18n::message(name, None));
            }
        });
        let (_, _, text) = STAGES.iter().find(|(s, _, _)| *s == self.stage).expect("stage listed");
        ui.label(crate::i18n::message(text, None));
        let seq = trace.tokens.len();
        // An encoder–decoder's unit is shown on its block: queries on its rows
        // (target steps for cross-attention), keys on its columns (source words).
        let (queries, keys) = match trace.block {
            Some([r0, r1, c0, c1]) if r0 < r1 && c0 < c1 && r1 <= seq && c1 <= seq => (r0..r1, c0..c1),
            _ => (0..seq, 0..seq),
        };
        let mask: Vec<f32> = trace.mask.iter().map(|&k| if k { 1.0 } else { 0.0 }).collect();
        let (matrix, rows, by_key): (&[f32], &std::ops::Range<usize>, bool) = match self.stage {
            Stage::Q => (&trace.q, &queries, false),
            Stage::K => (&trace.k, &keys, false),
            Stage::V => (&trace.v, &keys, false),
            Stage::RawScores => (&trace.raw_scores, &queries, true),
            Stage::Scaled => (&trace.scaled_scores, &queries, true),
            Stage::Mask => (&mask, &queries, true),
            Stage::Softmax => (&trace.weights, &queries, true),
            Stage::Output => (&trace.output, &queries, false),
        };
        let (width, columns) = if by_key { (seq, keys.clone()) } else { (trace.d_k, 0..trace.d_k) };
        let values: Vec<f32> = rows.clone().flat_map(|r| columns.clone().map(move |c| matrix[r * width + c])).collect();
        let column_tokens = by_key.then(|| &trace.tokens[keys.clone()]);
        matrix_ui(ui, &values, rows.len(), columns.len(), &trace.tokens[rows.clone()], column_tokens);
    }
}

/// A matrix as a diverging heatmap (blue negative, white zero, red positive),
/// rows labelled by token; hover shows the value.
/// `column_tokens` labels the columns when they are tokens (else they are dimensions).
pub fn matrix_ui(ui: &mut egui::Ui, values: &[f32], rows: usize, cols: usize, tokens: &[String], column_tokens: Option<&[String]>) {
    let max = values.iter().fold(0.0f32, |m, v| m.max(v.abs())).max(1e-9);
    let by_width = (ui.available_width() - 60.0) / cols.max(1) as f32;
    let by_height = (ui.available_height() - 50.0) / rows.max(1) as f32;
    let cell = by_width.min(by_height).clamp(4.0, 22.0);
    let size = Vec2::new(50.0 + cell * cols as f32, 20.0 + cell * rows as f32);
    let (rect, response) = ui.allocate_exact_size(size, Sense::hover());
    let painter = ui.painter_at(rect);
    let origin = rect.min + Vec2::new(50.0, 20.0);
    let every = super::heatmap::label_stride(cell, 11.0);
    for r in 0..rows {
        if r % every == 0 {
            let label = super::heatmap::fit_label(&tokens[r], 46.0, 10.0);
            painter.text(Pos2::new(origin.x - 4.0, origin.y + (r as f32 + 0.5) * cell), egui::Align2::RIGHT_CENTER, label, egui::FontId::monospace(10.0), ui.visuals().text_color());
        }
        for c in 0..cols {
            let v = values[r * cols + c] / max;
            let color = if v >= 0.0 {
                Color32::from_rgb(255, (255.0 * (1.0 - v)) as u8, (255.0 * (1.0 - v)) as u8)
            } else {
                Color32::from_rgb((255.0 * (1.0 + v)) as u8, (255.0 * (1.0 + v)) as u8, 255)
            };
            painter.rect_filled(Rect::from_min_size(origin + Vec2::new(c as f32 * cell, r as f32 * cell), Vec2::splat(cell)), 0.0, color);
        }
    }
    if let Some(column_tokens) = column_tokens {
        for (c, token) in column_tokens.iter().enumerate().take(cols).filter(|(c, _)| c % every == 0) {
            // Shortened to the room its columns have, so neighbours never overlap.
            let label = super::heatmap::fit_label(token, cell * every as f32, 10.0);
            painter.text(Pos2::new(origin.x + (c as f32 + 0.5) * cell, origin.y - 2.0), egui::Align2::CENTER_BOTTOM, label, egui::FontId::monospace(10.0), ui.visuals().text_color());
        }
    }
    if let Some(pos) = response.hover_pos() {
        let local = pos - origin;
        let (c, r) = ((local.x / cell).floor(), (local.y / cell).floor());
        if c >= 0.0 && r >= 0.0 && (c as usize) < cols && (r as usize) < rows {
            let (r, c) = (r as usize, c as usize);
            let column = match column_tokens {
                Some(column_tokens) => t!("views-matrix-key", key = c, token = column_tokens[c].as_str()),
                None => t!("views-matrix-dimension", dimension = c),
            };
            response.on_hover_text(t!("views-matrix-cell", row = r, token = tokens[r].as_str(), column = column, value = format!("{:.4}", values[r * cols + c])));
        }
    }
    ui.weak(t!("views-matrix-legend", max = format!("{max:.3}")));
}

impl super::Panel for StepThrough {
    fn show(&mut self, ui: &mut egui::Ui, data: &mut WindowData<'_>, actions: &mut Vec<AppAction>) {
        // Layers here are attention units (an encoder–decoder has self- and
        // cross-attention per decoder layer), as the attention grid shows them.
        let snapshot = data.view.attention.as_ref();
        let layers = snapshot.map_or(data.applied.model.layers.len(), |s| s.layers.len());
        let heads = match snapshot {
            Some(s) => s.layers.get(self.layer).and_then(|l| l.as_ref()).map_or(1, Vec::len),
            None => data.applied.model.layers.get(self.layer).map_or(1, |l| l.heads),
        };
        egui::ScrollArea::both().show(ui, |ui| self.ui(ui, data.view.trace.as_ref(), layers, heads, actions));
    }
}
