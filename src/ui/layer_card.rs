//! One layer of the stack as a card: every per-layer knob with its tooltip,
//! the problems of that layer next to the knobs, and the card's own buttons.

use eframe::egui;

use super::knob_help as help;
use super::knob_row::{choice_row, widget_row};
use crate::config::{Activation, AttentionKind, ConfigProblem, LayerConfig, MaskApplication, MaskKind, MaskReading, NormPlacement, PaddingMask};

/// What a card asks the stack to do with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardAction {
    Remove,
    Duplicate,
    MoveUp,
    MoveDown,
}

const HIDDEN_FOR_BUG_HUNT: &str =
    "The bug-hunt case you loaded plants its bug in one of these knobs. Find it with the panels; the knobs show again once you name the bug or reveal the answer.";

pub fn layer_card_ui(
    ui: &mut egui::Ui,
    index: usize,
    count: usize,
    layer: &mut LayerConfig,
    d_model: usize,
    problems: &[&ConfigProblem],
    hide_mask_knobs: bool,
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
                if ui.add_enabled(index + 1 < count, egui::Button::new("⬇")).on_hover_text("Move this layer down").clicked() {
                    action = Some(CardAction::MoveDown);
                }
                if ui.add_enabled(index > 0, egui::Button::new("⬆")).on_hover_text("Move this layer up").clicked() {
                    action = Some(CardAction::MoveUp);
                }
            });
        });
        let problem_for = |name: &str| {
            let knob = format!("model.layers[{index}].{name}");
            problems.iter().find(|p| p.knob == knob).copied()
        };
        egui::Grid::new(("layer_grid", index)).num_columns(2).spacing([8.0, 4.0]).show(ui, |ui| {
            widget_row(ui, "attention", help::ATTENTION, egui::Checkbox::new(&mut layer.attention, "on"));
            if layer.attention {
                let label = ui.label("heads").on_hover_text(help::HEADS);
                ui.horizontal(|ui| {
                    ui.add(egui::DragValue::new(&mut layer.heads).range(1..=64)).labelled_by(label.id).on_hover_text(help::HEADS);
                    if d_model > 0 && layer.heads > 0 && d_model.is_multiple_of(layer.heads) {
                        ui.weak(format!("d_k = {}", d_model / layer.heads));
                    }
                });
                ui.end_row();
                inline_problem(ui, problem_for("heads"));
                choice_row(ui, "kind", help::ATTENTION_KIND, &mut layer.attention_kind, &[
                    (AttentionKind::Softmax, "softmax"),
                    (AttentionKind::UniformAverage, "uniform average"),
                ]);
                if hide_mask_knobs {
                    // A planted bug must be found with the panels, not read off the editor.
                    for name in ["scale by 1/√d_k", "mask"] {
                        hidden_row(ui, name);
                    }
                } else {
                    widget_row(ui, "scale by 1/√d_k", help::SCALE, egui::Checkbox::new(&mut layer.scale, "on"));
                    choice_row(ui, "mask", help::MASK, &mut layer.mask, &[
                        (MaskKind::Causal, "causal"),
                        (MaskKind::Bidirectional, "bidirectional"),
                        (MaskKind::SlidingWindow, "sliding window"),
                    ]);
                }
                if layer.mask == MaskKind::SlidingWindow && !hide_mask_knobs {
                    widget_row(ui, "window", help::WINDOW, egui::DragValue::new(&mut layer.window).range(1..=1024));
                    inline_problem(ui, problem_for("window"));
                }
                ablation_row(ui, layer);
                inline_problem(ui, problem_for("ablated_heads"));
            }
            widget_row(ui, "feed-forward", help::FFN, egui::Checkbox::new(&mut layer.ffn, "on"));
            if layer.ffn {
                widget_row(ui, "d_ff", help::D_FF, egui::DragValue::new(&mut layer.d_ff).range(1..=8192));
                inline_problem(ui, problem_for("d_ff"));
                choice_row(ui, "activation", help::ACTIVATION, &mut layer.activation, &[
                    (Activation::Relu, "ReLU"),
                    (Activation::Gelu, "GELU"),
                    (Activation::None, "none"),
                ]);
            }
            widget_row(ui, "residual", help::RESIDUAL, egui::Checkbox::new(&mut layer.residual, "on"));
            choice_row(ui, "LayerNorm", help::NORM, &mut layer.norm, &[
                (NormPlacement::Post, "post"),
                (NormPlacement::Pre, "pre"),
                (NormPlacement::None, "none"),
            ]);
        });
        if layer.attention && hide_mask_knobs {
            ui.weak("mask details: hidden for the bug hunt").on_hover_text(HIDDEN_FOR_BUG_HUNT);
        } else if layer.attention {
            egui::CollapsingHeader::new("mask details (for bug hunting)").id_salt(("mask_details", index)).show(ui, |ui| {
                egui::Grid::new(("mask_grid", index)).num_columns(2).spacing([8.0, 4.0]).show(ui, |ui| {
                    choice_row(ui, "mask is read as", help::MASK_READING, &mut layer.mask_reading, &[
                        (MaskReading::KeepIsTrue, "true = keep"),
                        (MaskReading::MaskedIsTrue, "true = masked"),
                    ]);
                    choice_row(ui, "mask applied by", help::MASK_APPLICATION, &mut layer.mask_application, &[
                        (MaskApplication::FillLargeNegative, "fill with -1e9"),
                        (MaskApplication::AddNegInfinity, "add -inf"),
                        (MaskApplication::MultiplyAfterSoftmax, "multiply after softmax"),
                    ]);
                    widget_row(ui, "diagonal offset", help::DIAGONAL_OFFSET, egui::DragValue::new(&mut layer.diagonal_offset).range(-3..=3));
                    choice_row(ui, "padding mask on", help::PADDING_MASK, &mut layer.padding_mask, &[
                        (PaddingMask::Keys, "keys (right)"),
                        (PaddingMask::Queries, "queries (wrong axis)"),
                        (PaddingMask::Off, "off"),
                    ]);
                });
            });
        }
    });
    action
}

/// One checkbox per head: ticked heads have their output zeroed.
fn ablation_row(ui: &mut egui::Ui, layer: &mut LayerConfig) {
    ui.label("ablate heads").on_hover_text(help::ABLATE);
    ui.horizontal_wrapped(|ui| {
        for head in 0..layer.heads.min(16) {
            let mut off = layer.ablated_heads.contains(&head);
            let response = ui.checkbox(&mut off, format!("{head}")).on_hover_text(help::ABLATE);
            if response.changed() {
                layer.ablated_heads.retain(|h| *h != head);
                if off {
                    layer.ablated_heads.push(head);
                    layer.ablated_heads.sort_unstable();
                }
            }
        }
        if layer.heads > 16 {
            ui.weak("(first 16 shown)");
        }
    });
    ui.end_row();
}

/// A knob row whose value is hidden while a bug-hunt case is unsolved.
pub fn hidden_row(ui: &mut egui::Ui, name: &str) {
    ui.label(name);
    ui.weak("hidden for the bug hunt").on_hover_text(HIDDEN_FOR_BUG_HUNT);
    ui.end_row();
}

/// A problem under its knob, in the error colour, with the fix.
pub fn inline_problem(ui: &mut egui::Ui, problem: Option<&ConfigProblem>) {
    if let Some(p) = problem {
        ui.label("");
        ui.colored_label(ui.visuals().error_fg_color, format!("⚠ {}\nfix: {}", p.message, p.fix));
        ui.end_row();
    }
}
