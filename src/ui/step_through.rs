//! Step-through: one head's computation on the probe, stage by stage:
//! Q, K, V, QKᵀ, ÷√d_k, mask, softmax, × V.

use eframe::egui::{self, Color32, Pos2, Rect, Sense, Vec2};

use crate::app::actions::AppAction;
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

const STAGES: [(Stage, &str, &str); 8] = [
    (Stage::Q, "Q", "Queries: each row is what a position is looking for (x · W_q, this head's slice)."),
    (Stage::K, "K", "Keys: each row is what a position offers to be found by (x · W_k)."),
    (Stage::V, "V", "Values: each row is what a position hands over when chosen (x · W_v)."),
    (Stage::RawScores, "QKᵀ", "Raw scores: row q, column k is the dot product of query q with key k."),
    (Stage::Scaled, "÷√d_k", "Scaled scores: divided by √d_k so their spread stays near 1 whatever d_k is."),
    (Stage::Mask, "mask", "The mask: which keys each query may see (red, 1) and which are hidden (white, 0)."),
    (Stage::Softmax, "softmax", "Attention weights: softmax over each row of visible scores; each row sums to 1."),
    (Stage::Output, "× V", "Output: each row is the weighted sum of the value rows, using that row's weights."),
];

#[derive(Default)]
pub struct StepThrough {
    pub layer: usize,
    pub head: usize,
    pub stage: Stage,
}

impl StepThrough {
    pub fn ui(&mut self, ui: &mut egui::Ui, trace: Option<&HeadTraceData>, layers: usize, heads: usize, actions: &mut Vec<AppAction>) {
        ui.heading("Step through one head");
        ui.horizontal(|ui| {
            ui.add(egui::DragValue::new(&mut self.layer).range(0..=layers.saturating_sub(1)).prefix("layer "));
            ui.add(egui::DragValue::new(&mut self.head).range(0..=heads.saturating_sub(1)).prefix("head "));
            if ui.button("Trace this head").on_hover_text("Run the probe through the model and keep every stage of this head").clicked() {
                actions.push(AppAction::Trace { layer: self.layer, head: self.head });
            }
        });
        let Some(trace) = trace else {
            ui.label("Press 'Trace this head' to see its computation on the probe sequence.");
            return;
        };
        ui.label(format!("layer {}, head {}, d_k = {}, step {}{}", trace.layer, trace.head, trace.d_k, trace.step, if trace.scaled { "" } else { " (scaling is off)" }));
        ui.horizontal_wrapped(|ui| {
            for (i, (stage, name, _)) in STAGES.iter().enumerate() {
                if i > 0 {
                    ui.label("→");
                }
                ui.selectable_value(&mut self.stage, *stage, *name);
            }
        });
        let (_, _, text) = STAGES.iter().find(|(s, _, _)| *s == self.stage).expect("stage listed");
        ui.label(*text);
        let seq = trace.tokens.len();
        let (values, cols): (Vec<f32>, usize) = match self.stage {
            Stage::Q => (trace.q.clone(), trace.d_k),
            Stage::K => (trace.k.clone(), trace.d_k),
            Stage::V => (trace.v.clone(), trace.d_k),
            Stage::RawScores => (trace.raw_scores.clone(), seq),
            Stage::Scaled => (trace.scaled_scores.clone(), seq),
            Stage::Mask => (trace.mask.iter().map(|&k| if k { 1.0 } else { 0.0 }).collect(), seq),
            Stage::Softmax => (trace.weights.clone(), seq),
            Stage::Output => (trace.output.clone(), trace.d_k),
        };
        let columns_are_tokens = cols == seq && !matches!(self.stage, Stage::Q | Stage::K | Stage::V | Stage::Output);
        matrix_ui(ui, &values, seq, cols, &trace.tokens, columns_are_tokens);
    }
}

/// A matrix as a diverging heatmap (blue negative, white zero, red positive),
/// rows labelled by token; hover shows the value.
pub fn matrix_ui(ui: &mut egui::Ui, values: &[f32], rows: usize, cols: usize, tokens: &[String], column_tokens: bool) {
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
            painter.text(Pos2::new(origin.x - 4.0, origin.y + (r as f32 + 0.5) * cell), egui::Align2::RIGHT_CENTER, &tokens[r], egui::FontId::monospace(10.0), ui.visuals().text_color());
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
    if column_tokens {
        for (c, token) in tokens.iter().enumerate().take(cols).filter(|(c, _)| c % every == 0) {
            painter.text(Pos2::new(origin.x + (c as f32 + 0.5) * cell, origin.y - 2.0), egui::Align2::CENTER_BOTTOM, token, egui::FontId::monospace(10.0), ui.visuals().text_color());
        }
    }
    if let Some(pos) = response.hover_pos() {
        let local = pos - origin;
        let (c, r) = ((local.x / cell).floor(), (local.y / cell).floor());
        if c >= 0.0 && r >= 0.0 && (c as usize) < cols && (r as usize) < rows {
            let (r, c) = (r as usize, c as usize);
            let column = if column_tokens { format!("key {c} \"{}\"", tokens[c]) } else { format!("dimension {c}") };
            response.on_hover_text(format!("row {r} \"{}\", {column}: {:.4}", tokens[r], values[r * cols + c]));
        }
    }
    ui.weak(format!("colour: red positive, blue negative, white zero; largest magnitude {max:.3}"));
}
