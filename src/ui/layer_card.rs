//! One layer of the stack as a card: every per-layer knob with its tooltip,
//! the problems of that layer next to the knobs, and the card's own buttons.

use eframe::egui;

use super::knob_help as help;
use crate::config::{Activation, AttentionKind, ConfigProblem, LayerConfig, MaskKind, NormPlacement};

/// What a card asks the stack to do with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardAction {
    Remove,
    Duplicate,
    MoveUp,
    MoveDown,
}

pub fn layer_card_ui(
    ui: &mut egui::Ui,
    index: usize,
    count: usize,
    layer: &mut LayerConfig,
    d_model: usize,
    problems: &[&ConfigProblem],
) -> Option<CardAction> {
    let mut action = None;
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.strong(format!("Layer {index}"));
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui.add_enabled(count > 1, egui::Button::new("✖")).on_hover_text("Remove this layer").clicked() {
                    action = Some(CardAction::Remove);
                }
                if ui.button("copy").on_hover_text("Duplicate this layer (the copy goes below it)").clicked() {
                    action = Some(CardAction::Duplicate);
                }
                if ui.add_enabled(index + 1 < count, egui::Button::new("↓")).on_hover_text("Move this layer down").clicked() {
                    action = Some(CardAction::MoveDown);
                }
                if ui.add_enabled(index > 0, egui::Button::new("↑")).on_hover_text("Move this layer up").clicked() {
                    action = Some(CardAction::MoveUp);
                }
            });
        });
        let problem_for = |name: &str| {
            let knob = format!("model.layers[{index}].{name}");
            problems.iter().find(|p| p.knob == knob).copied()
        };
        egui::Grid::new(("layer_grid", index)).num_columns(2).spacing([8.0, 4.0]).show(ui, |ui| {
            ui.label("attention").on_hover_text(help::ATTENTION);
            ui.checkbox(&mut layer.attention, "on").on_hover_text(help::ATTENTION);
            ui.end_row();
            if layer.attention {
                ui.label("heads").on_hover_text(help::HEADS);
                ui.horizontal(|ui| {
                    ui.add(egui::DragValue::new(&mut layer.heads).range(1..=64)).on_hover_text(help::HEADS);
                    if d_model > 0 && layer.heads > 0 && d_model.is_multiple_of(layer.heads) {
                        ui.weak(format!("d_k = {}", d_model / layer.heads));
                    }
                });
                ui.end_row();
                inline_problem(ui, problem_for("heads"));
                ui.label("kind").on_hover_text(help::ATTENTION_KIND);
                egui::ComboBox::from_id_salt(("kind", index))
                    .selected_text(match layer.attention_kind {
                        AttentionKind::Softmax => "softmax",
                        AttentionKind::UniformAverage => "uniform average",
                    })
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut layer.attention_kind, AttentionKind::Softmax, "softmax");
                        ui.selectable_value(&mut layer.attention_kind, AttentionKind::UniformAverage, "uniform average");
                    })
                    .response
                    .on_hover_text(help::ATTENTION_KIND);
                ui.end_row();
                ui.label("scale by 1/√d_k").on_hover_text(help::SCALE);
                ui.checkbox(&mut layer.scale, "on").on_hover_text(help::SCALE);
                ui.end_row();
                ui.label("mask").on_hover_text(help::MASK);
                egui::ComboBox::from_id_salt(("mask", index))
                    .selected_text(match layer.mask {
                        MaskKind::Causal => "causal",
                        MaskKind::Bidirectional => "bidirectional",
                        MaskKind::SlidingWindow => "sliding window",
                    })
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut layer.mask, MaskKind::Causal, "causal");
                        ui.selectable_value(&mut layer.mask, MaskKind::Bidirectional, "bidirectional");
                        ui.selectable_value(&mut layer.mask, MaskKind::SlidingWindow, "sliding window");
                    })
                    .response
                    .on_hover_text(help::MASK);
                ui.end_row();
                if layer.mask == MaskKind::SlidingWindow {
                    ui.label("window").on_hover_text(help::WINDOW);
                    ui.add(egui::DragValue::new(&mut layer.window).range(1..=1024)).on_hover_text(help::WINDOW);
                    ui.end_row();
                    inline_problem(ui, problem_for("window"));
                }
            }
            ui.label("feed-forward").on_hover_text(help::FFN);
            ui.checkbox(&mut layer.ffn, "on").on_hover_text(help::FFN);
            ui.end_row();
            if layer.ffn {
                ui.label("d_ff").on_hover_text(help::D_FF);
                ui.add(egui::DragValue::new(&mut layer.d_ff).range(1..=8192)).on_hover_text(help::D_FF);
                ui.end_row();
                inline_problem(ui, problem_for("d_ff"));
                ui.label("activation").on_hover_text(help::ACTIVATION);
                egui::ComboBox::from_id_salt(("activation", index))
                    .selected_text(match layer.activation {
                        Activation::Relu => "ReLU",
                        Activation::Gelu => "GELU",
                        Activation::None => "none",
                    })
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut layer.activation, Activation::Relu, "ReLU");
                        ui.selectable_value(&mut layer.activation, Activation::Gelu, "GELU");
                        ui.selectable_value(&mut layer.activation, Activation::None, "none");
                    })
                    .response
                    .on_hover_text(help::ACTIVATION);
                ui.end_row();
            }
            ui.label("residual").on_hover_text(help::RESIDUAL);
            ui.checkbox(&mut layer.residual, "on").on_hover_text(help::RESIDUAL);
            ui.end_row();
            ui.label("LayerNorm").on_hover_text(help::NORM);
            egui::ComboBox::from_id_salt(("norm", index))
                .selected_text(match layer.norm {
                    NormPlacement::Post => "post",
                    NormPlacement::Pre => "pre",
                    NormPlacement::None => "none",
                })
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut layer.norm, NormPlacement::Post, "post");
                    ui.selectable_value(&mut layer.norm, NormPlacement::Pre, "pre");
                    ui.selectable_value(&mut layer.norm, NormPlacement::None, "none");
                })
                .response
                .on_hover_text(help::NORM);
            ui.end_row();
        });
    });
    action
}

/// A problem under its knob, in the error colour, with the fix.
pub fn inline_problem(ui: &mut egui::Ui, problem: Option<&ConfigProblem>) {
    if let Some(p) = problem {
        ui.label("");
        ui.colored_label(ui.visuals().error_fg_color, format!("⚠ {}\nfix: {}", p.message, p.fix));
        ui.end_row();
    }
}
