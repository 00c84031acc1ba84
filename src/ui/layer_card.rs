//! One layer of the stack as a card: every per-layer knob with its tooltip,
//! the problems of that layer next to the knobs, and the card's own buttons.

use eframe::egui;

use super::bounded::Bounded;

use crate::t;

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

/// Where a card sits: which stack, its index and how many layers the stack has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardPlace {
    /// The encoder stack of an encoder–decoder (else the decoder / only stack).
    pub encoder: bool,
    /// Whether the stack's layers cross-attend to an encoder (encoder–decoder decoders).
    pub cross: bool,
    pub index: usize,
    pub count: usize,
}

impl CardPlace {
    /// `model.layers` or `model.encoder_layers`.
    pub fn stack_path(self) -> &'static str {
        if self.encoder { "model.encoder_layers" } else { "model.layers" }
    }
}

/// The key of the tooltip on a knob hidden for the bug hunt.
const HIDDEN_FOR_BUG_HUNT: &str = "editor-hidden-for-bug-hunt-tip";

pub fn layer_card_ui(
    ui: &mut egui::Ui,
    place: CardPlace,
    layer: &mut LayerConfig,
    d_model: usize,
    problems: &[&ConfigProblem],
    hide_mask_knobs: bool,
    locks: Option<&crate::lessons::Locks>,
) -> Option<CardAction> {
    let mut action = None;
    let (index, count, stack) = (place.index, place.count, place.stack_path());
    // A knob of this layer the loaded lesson locks: its reason.
    let lock = |name: &str| {
        let knob = format!("{stack}[{index}].{name}");
        locks.filter(|l| l.covers(&knob)).map(|l| t!("lesson-locked-tip", reason = l.reason.as_str()))
    };
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.strong(if place.encoder { t!("editor-encoder-layer", index = index) } else { t!("editor-layer", index = index) });
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui.add_enabled(count > 1, egui::Button::new("✖")).on_hover_text(t!("editor-remove-layer-tip")).clicked() {
                    action = Some(CardAction::Remove);
                }
                if ui.button(t!("editor-copy")).on_hover_text(t!("editor-copy-tip")).clicked() {
                    action = Some(CardAction::Duplicate);
                }
                if ui.add_enabled(index + 1 < count, egui::Button::new("⬇")).on_hover_text(t!("editor-move-down-tip")).clicked() {
                    action = Some(CardAction::MoveDown);
                }
                if ui.add_enabled(index > 0, egui::Button::new("⬆")).on_hover_text(t!("editor-move-up-tip")).clicked() {
                    action = Some(CardAction::MoveUp);
                }
            });
        });
        let problem_for = |name: &str| {
            let knob = format!("{stack}[{index}].{name}");
            problems.iter().find(|p| p.knob == knob).copied()
        };
        // egui's grid lays a row out at the height that row index had last frame: when
        // rows come or go (an inline problem, a switched-off part), a fresh grid keeps
        // an old, taller row from leaving an empty gap for good.
        let rows = (problems.len(), layer.attention, layer.ffn, layer.mask == MaskKind::SlidingWindow, hide_mask_knobs);
        egui::Grid::new(("layer_grid", index, place.encoder, rows)).num_columns(2).spacing([8.0, 4.0]).show(ui, |ui| {
            widget_row(ui, &t!("editor-attention"), &help::text(help::ATTENTION), lock("attention"), egui::Checkbox::new(&mut layer.attention, t!("editor-on")));
            // Cross-attention shares the layer's heads, kind, scaling and ablation.
            if layer.attention || (place.cross && layer.cross_attention) {
                let heads_lock = lock("heads");
                let label = ui.label(super::knob_row::lock_mark(&t!("editor-heads"), heads_lock.as_deref())).on_hover_text(help::text(help::HEADS));
                ui.horizontal(|ui| {
                    ui.add_enabled(heads_lock.is_none(), Bounded::new(&mut layer.heads, 1..=64).key((place.encoder, index, "heads")))
                        .labelled_by(label.id)
                        .on_hover_text(help::text(help::HEADS))
                        .on_disabled_hover_text(heads_lock.clone().unwrap_or_default());
                    if d_model > 0 && layer.heads > 0 && d_model.is_multiple_of(layer.heads) {
                        ui.weak(format!("d_k = {}", d_model / layer.heads));
                    }
                });
                ui.end_row();
                inline_problem(ui, problem_for("heads"));
                choice_row(ui, &t!("editor-kind"), &help::text(help::ATTENTION_KIND), lock("attention_kind"), &mut layer.attention_kind, &[
                    (AttentionKind::Softmax, "softmax"),
                    (AttentionKind::UniformAverage, t!("editor-uniform-average").as_str()),
                    (AttentionKind::Convolution, t!("editor-convolution").as_str()),
                ]);
                if hide_mask_knobs {
                    // A planted bug must be found with the panels, not read off the editor.
                    for name in [t!("editor-scale"), t!("editor-mask")] {
                        hidden_row(ui, &name);
                    }
                } else {
                    widget_row(ui, &t!("editor-scale"), &help::text(help::SCALE), lock("scale"), egui::Checkbox::new(&mut layer.scale, t!("editor-on")));
                    choice_row(ui, &t!("editor-mask"), &help::text(help::MASK), lock("mask"), &mut layer.mask, &[
                        (MaskKind::Causal, t!("editor-causal").as_str()),
                        (MaskKind::Bidirectional, t!("editor-bidirectional").as_str()),
                        (MaskKind::SlidingWindow, t!("editor-sliding-window").as_str()),
                    ]);
                }
                if (layer.mask == MaskKind::SlidingWindow || layer.attention_kind == AttentionKind::Convolution) && !hide_mask_knobs {
                    widget_row(ui, &t!("editor-window"), &help::text(help::WINDOW), lock("window"), Bounded::new(&mut layer.window, 1..=1024).key((place.encoder, index, "window")));
                    inline_problem(ui, problem_for("window"));
                }
                ablation_row(ui, layer);
                inline_problem(ui, problem_for("ablated_heads"));
            }
            if place.cross {
                widget_row(ui, &t!("editor-cross-attention"), &help::text(help::CROSS_ATTENTION), lock("cross_attention"), egui::Checkbox::new(&mut layer.cross_attention, t!("editor-on")));
            }
            widget_row(ui, &t!("editor-feed-forward"), &help::text(help::FFN), lock("ffn"), egui::Checkbox::new(&mut layer.ffn, t!("editor-on")));
            if layer.ffn {
                widget_row(ui, "d_ff", &help::text(help::D_FF), lock("d_ff"), Bounded::new(&mut layer.d_ff, 1..=8192).key((place.encoder, index, "d_ff")));
                inline_problem(ui, problem_for("d_ff"));
                choice_row(ui, &t!("editor-activation"), &help::text(help::ACTIVATION), lock("activation"), &mut layer.activation, &[
                    (Activation::Relu, "ReLU"),
                    (Activation::Gelu, "GELU"),
                    (Activation::GeluTanh, t!("editor-gelu-tanh").as_str()),
                    (Activation::None, t!("editor-none").as_str()),
                ]);
            }
            widget_row(ui, &t!("editor-residual"), &help::text(help::RESIDUAL), lock("residual"), egui::Checkbox::new(&mut layer.residual, t!("editor-on")));
            choice_row(ui, &t!("editor-layernorm"), &help::text(help::NORM), lock("norm"), &mut layer.norm, &[
                (NormPlacement::Post, t!("editor-post").as_str()),
                (NormPlacement::Pre, t!("editor-pre").as_str()),
                (NormPlacement::None, t!("editor-none").as_str()),
            ]);
        });
        let any_attention = layer.attention || (place.cross && layer.cross_attention);
        if any_attention && hide_mask_knobs {
            ui.weak(t!("editor-mask-details-hidden")).on_hover_text(t!(HIDDEN_FOR_BUG_HUNT));
        } else if any_attention {
            egui::CollapsingHeader::new(t!("editor-mask-details")).id_salt(("mask_details", index, place.encoder)).show(ui, |ui| {
                egui::Grid::new(("mask_grid", index, place.encoder)).num_columns(2).spacing([8.0, 4.0]).show(ui, |ui| {
                    choice_row(ui, &t!("editor-mask-read-as"), &help::text(help::MASK_READING), lock("mask_reading"), &mut layer.mask_reading, &[
                        (MaskReading::KeepIsTrue, t!("editor-true-keep").as_str()),
                        (MaskReading::MaskedIsTrue, t!("editor-true-masked").as_str()),
                    ]);
                    choice_row(ui, &t!("editor-mask-applied-by"), &help::text(help::MASK_APPLICATION), lock("mask_application"), &mut layer.mask_application, &[
                        (MaskApplication::FillLargeNegative, t!("editor-fill-large-negative").as_str()),
                        (MaskApplication::AddNegInfinity, t!("editor-add-neg-inf").as_str()),
                        (MaskApplication::MultiplyAfterSoftmax, t!("editor-multiply-after-softmax").as_str()),
                    ]);
                    widget_row(ui, &t!("editor-diagonal-offset"), &help::text(help::DIAGONAL_OFFSET), lock("diagonal_offset"), Bounded::new(&mut layer.diagonal_offset, -3..=3).key((place.encoder, index, "diagonal_offset")));
                    choice_row(ui, &t!("editor-padding-mask-on"), &help::text(help::PADDING_MASK), lock("padding_mask"), &mut layer.padding_mask, &[
                        (PaddingMask::Keys, t!("editor-padding-keys").as_str()),
                        (PaddingMask::Queries, t!("editor-padding-queries").as_str()),
                        (PaddingMask::Off, t!("editor-off").as_str()),
                    ]);
                });
            });
        }
    });
    action
}

/// One checkbox per head: ticked heads have their output zeroed.
fn ablation_row(ui: &mut egui::Ui, layer: &mut LayerConfig) {
    ui.label(t!("editor-ablate-heads")).on_hover_text(help::text(help::ABLATE));
    // Lines of boxes in a vertical block: a wrapped row inside a grid cell is
    // centred on the row height of the frame before and spills over the next knob.
    ui.vertical(|ui| {
        let heads: Vec<usize> = (0..layer.heads.min(16)).collect();
        // As many boxes a line as the column has room for (a box with "15" is
        // about 38 points), spread evenly: 16 heads in lines of 6 are 6, 5, 5.
        let room = ((ui.available_width() / 38.0).floor() as usize).clamp(4, 8);
        let lines = heads.len().div_ceil(room).max(1);
        for row in heads.chunks(heads.len().div_ceil(lines).max(1)) {
            ui.horizontal(|ui| {
                for &head in row {
                    let mut off = layer.ablated_heads.contains(&head);
                    let response = ui.checkbox(&mut off, format!("{head}")).on_hover_text(help::text(help::ABLATE));
                    if response.changed() {
                        layer.ablated_heads.retain(|h| *h != head);
                        if off {
                            layer.ablated_heads.push(head);
                            layer.ablated_heads.sort_unstable();
                        }
                    }
                }
            });
        }
        if layer.heads > 16 {
            ui.weak(t!("editor-first-16-shown"));
        }
    });
    ui.end_row();
}

/// A knob row whose value is hidden while a bug-hunt case is unsolved.
pub fn hidden_row(ui: &mut egui::Ui, name: &str) {
    ui.label(name);
    ui.weak(t!("editor-hidden")).on_hover_text(t!(HIDDEN_FOR_BUG_HUNT));
    ui.end_row();
}

/// A problem under its knob, in the error colour, with the fix.
pub fn inline_problem(ui: &mut egui::Ui, problem: Option<&ConfigProblem>) {
    if let Some(p) = problem {
        ui.label("");
        // Wrapped within the column: a grid cell would otherwise grow to the
        // message's length and widen the whole panel, for good.
        let text = egui::RichText::new(t!("editor-problem-inline", message = p.message.as_str(), fix = p.fix.as_str())).color(ui.visuals().error_fg_color);
        let width = ui.available_width().clamp(120.0, 240.0);
        // Top-down, so the cell is as tall as the message (see `ablation_row`).
        ui.vertical(|ui| {
            ui.set_max_width(width);
            ui.add(egui::Label::new(text).wrap());
        });
        ui.end_row();
    }
}
