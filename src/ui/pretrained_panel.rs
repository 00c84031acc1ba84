//! The Pretrained tab: a BERT or GPT-2 checkpoint opened from disk (read-only), the
//! sentences to read, and the reading in every view: the model view (each layer ×
//! head as a thumbnail, one enlarged), the mask inspector on the padded batch,
//! step-through of one head on the real weights, the model's own predictions,
//! and for BERT the [CLS] vector against the mean of the token vectors.

use eframe::egui;

use super::Panel;
use super::heatmap::HeatmapView;
use super::mask_inspector::MaskInspector;
use super::step_through::StepThrough;
use crate::pretrained::inspect::Predictions;
use crate::pretrained::reading::{PretrainedInfo, PretrainedReading};
use crate::t;
use crate::workbench::actions::AppAction;
use crate::workbench::pretrained_view::{PretrainedTab, PretrainedView};
use crate::workbench::window::WindowData;

#[derive(Default)]
pub struct PretrainedPanel {
    mask_inspector: MaskInspector,
    step_through: StepThrough,
    /// Thumbnails of the last reading's maps, drawn once into textures, and which
    /// reading and sentence they show.
    thumbnails: Option<((usize, usize), Vec<egui::TextureHandle>)>,
}

const TABS: [(PretrainedTab, &str); 5] = [
    (PretrainedTab::ModelView, "pretrained-tab-model-view"),
    (PretrainedTab::MaskInspector, "pretrained-tab-mask"),
    (PretrainedTab::StepThrough, "pretrained-tab-step"),
    (PretrainedTab::Predictions, "pretrained-tab-predictions"),
    (PretrainedTab::SentenceVectors, "pretrained-tab-vectors"),
];

impl Panel for PretrainedPanel {
    fn show(&mut self, ui: &mut egui::Ui, data: &mut WindowData<'_>, actions: &mut Vec<AppAction>) {
        let view = &mut *data.pretrained;
        ui.horizontal(|ui| {
            ui.heading(t!("pretrained-heading"));
            if ui.button(t!("pretrained-open")).on_hover_text(t!("pretrained-open-tip")).clicked() {
                actions.push(AppAction::OpenPretrained);
            }
        });
        if let Some((dir, fraction, stage)) = &view.opening {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(t!("pretrained-opening", dir = dir.as_str()));
                ui.add(super::progress_bar(*fraction).desired_width(220.0).text(stage.as_str()));
            });
        }
        if let Some(error) = &view.error {
            ui.colored_label(ui.visuals().error_fg_color, format!("⚠ {error}"));
        }
        let Some(info) = view.info.clone() else {
            if view.opening.is_none() {
                ui.label(t!("pretrained-empty"));
            }
            return;
        };
        info_ui(ui, &info);
        sentences_ui(ui, view, &info, actions);
        ui.separator();
        let Some(reading) = view.reading.as_ref() else {
            if view.reading_pending {
                ui.spinner();
            }
            return;
        };
        ui.horizontal_wrapped(|ui| {
            for (tab, key) in TABS {
                if tab == PretrainedTab::SentenceVectors && !info.bert {
                    continue;
                }
                ui.selectable_value(&mut view.tab, tab, crate::i18n::message(key, None));
            }
            if reading.snapshots.len() > 1 {
                ui.separator();
                for s in 0..reading.snapshots.len() {
                    ui.selectable_value(&mut view.sequence, s, t!("pretrained-sentence-n", n = s + 1));
                }
            }
        });
        for (s, cut) in reading.truncated.iter().enumerate().filter(|(_, c)| **c > 0) {
            ui.colored_label(ui.visuals().warn_fg_color, format!("{} {}", t!("pretrained-sentence-n", n = s + 1), t!("msg-pretrained-truncated", count = *cut, max = info.max_len)));
        }
        let sequence = view.sequence.min(reading.snapshots.len() - 1);
        match view.tab {
            PretrainedTab::ModelView => self.model_view(ui, view, sequence),
            PretrainedTab::MaskInspector => {
                self.mask_inspector.without_probes = true;
                let mut ignored = Vec::new();
                egui::ScrollArea::both().id_salt("pretrained_mask").show(ui, |ui| self.mask_inspector.ui(ui, Some(&view.reading.as_ref().expect("read").snapshots[sequence]), [None, None], &mut ignored));
            }
            PretrainedTab::StepThrough => {
                let mut asked = Vec::new();
                let trace = view.trace.as_ref().filter(|(s, _)| *s == sequence).map(|(_, t)| t);
                egui::ScrollArea::both().id_salt("pretrained_step_through").show(ui, |ui| self.step_through.ui(ui, trace, info.layers, info.heads, &mut asked));
                for action in asked {
                    if let AppAction::Trace { layer, head } = action {
                        actions.push(AppAction::TracePretrained { layer, head });
                    }
                }
            }
            PretrainedTab::Predictions => predictions_ui(ui, &reading.predictions),
            PretrainedTab::SentenceVectors => vectors_ui(ui, reading),
        }
    }
}

fn info_ui(ui: &mut egui::Ui, info: &PretrainedInfo) {
    ui.label(t!("pretrained-info", class = info.class.as_str(), layers = info.layers, heads = info.heads, d = info.d_model, parameters = format!("{:.1}", info.parameters as f64 / 1e6), tokenizer = info.tokenizer.as_str(), ms = format!("{:.0}", info.open_ms)));
    ui.weak(info.dir.as_str());
    // The knobs that express the architecture, shown but not editable: the
    // checkpoint is read, not trained.
    egui::CollapsingHeader::new(t!("pretrained-knobs")).show(ui, |ui| {
        ui.weak(t!("pretrained-read-only"));
        egui::Grid::new("pretrained_knobs").num_columns(2).show(ui, |ui| {
            for (knob, value) in &info.knobs {
                ui.add_enabled(false, egui::Label::new(knob.as_str())).on_disabled_hover_text(t!("pretrained-read-only"));
                ui.add_enabled(false, egui::Label::new(value.as_str())).on_disabled_hover_text(t!("pretrained-read-only"));
                ui.end_row();
            }
        });
    });
}

fn sentences_ui(ui: &mut egui::Ui, view: &mut PretrainedView, info: &PretrainedInfo, actions: &mut Vec<AppAction>) {
    let hint = if info.bert { t!("pretrained-text-hint-bert") } else { t!("pretrained-text-hint-gpt2") };
    let mut enter = false;
    ui.horizontal(|ui| {
        ui.label(t!("pretrained-text"));
        let r = ui.add(egui::TextEdit::singleline(&mut view.text).desired_width(360.0).hint_text(hint.as_str()));
        enter |= r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
    });
    ui.horizontal(|ui| {
        ui.label(t!("pretrained-text2"));
        let r = ui.add(egui::TextEdit::singleline(&mut view.text2).desired_width(360.0).hint_text(t!("pretrained-text2-hint")));
        enter |= r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.add_enabled(!view.reading_pending, egui::Button::new(t!("pretrained-read"))).on_hover_text(t!("pretrained-read-tip")).clicked() || enter {
            actions.push(AppAction::ReadPretrained);
        }
        if let Some(reading) = &view.reading {
            ui.weak(t!("pretrained-forward-ms", ms = format!("{:.0}", reading.forward_ms)));
        }
    });
}

impl PretrainedPanel {
    /// Every layer × head as a thumbnail (rows: layers, columns: heads); the chosen
    /// one enlarged beside them with its tokens. Both fit the space they are given.
    fn model_view(&mut self, ui: &mut egui::Ui, view: &mut PretrainedView, sequence: usize) {
        let reading = view.reading.as_ref().expect("a reading");
        let snapshot = &reading.snapshots[sequence];
        let layers = snapshot.layers.len();
        let heads = snapshot.layers.first().and_then(|l| l.as_ref()).map_or(0, Vec::len);
        let seq = snapshot.tokens.len();
        let key = (view.readings, sequence);
        if self.thumbnails.as_ref().is_none_or(|(k, _)| *k != key) {
            let mut textures = Vec::with_capacity(layers * heads);
            for (l, layer) in snapshot.layers.iter().enumerate() {
                for (h, weights) in layer.iter().flatten().enumerate() {
                    let keep = snapshot.masks[l].as_deref();
                    let pixels: Vec<egui::Color32> = (0..seq * seq)
                        .map(|i| if keep.is_some_and(|k| !k[i]) { super::colormap::MASKED } else { super::colormap::viridis(weights[i].clamp(0.0, 1.0)) })
                        .collect();
                    let image = egui::ColorImage { size: [seq, seq], source_size: egui::vec2(seq as f32, seq as f32), pixels };
                    textures.push(ui.ctx().load_texture(format!("pretrained-{l}-{h}"), image, egui::TextureOptions::NEAREST));
                }
            }
            self.thumbnails = Some((key, textures));
        }
        let textures = &self.thumbnails.as_ref().expect("drawn").1;
        let (mut layer, mut head) = view.selected;
        layer = layer.min(layers.saturating_sub(1));
        head = head.min(heads.saturating_sub(1));
        let width = ui.available_width();
        let height = ui.available_height() - 24.0; // less the hint line
        // Thumbnails take about half the width; the enlarged map the rest.
        let grid_width = (width * 0.5).max(200.0);
        let thumb = ((grid_width - 30.0) / heads.max(1) as f32 - 4.0).min((height - 40.0) / layers.max(1) as f32 - 4.0).clamp(8.0, 96.0);
        ui.weak(t!("pretrained-model-view-hint"));
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| {
                egui::ScrollArea::both().id_salt("thumbnails").max_width(grid_width).show(ui, |ui| {
                    egui::Grid::new("pretrained_grid").spacing([4.0, 4.0]).min_col_width(thumb).show(ui, |ui| {
                        ui.label("");
                        for h in 0..heads {
                            ui.weak(format!("h{h}"));
                        }
                        ui.end_row();
                        for l in 0..layers {
                            ui.weak(format!("L{l}"));
                            for h in 0..heads {
                                let texture = &textures[l * heads + h];
                                let image = egui::Image::new(texture).fit_to_exact_size(egui::vec2(thumb, thumb)).sense(egui::Sense::click());
                                let selected = (l, h) == (layer, head);
                                let response = ui.add(image).on_hover_text(t!("pretrained-thumb-tip", layer = l, head = h));
                                if selected {
                                    ui.painter().rect_stroke(response.rect.expand(1.5), 0.0, egui::Stroke::new(2.0, ui.visuals().selection.stroke.color), egui::StrokeKind::Outside);
                                }
                                if response.clicked() {
                                    view.selected = (l, h);
                                }
                            }
                            ui.end_row();
                        }
                    });
                });
            });
            ui.separator();
            ui.vertical(|ui| {
                ui.strong(t!("pretrained-enlarged", layer = layer, head = head));
                let room = ui.available_width().min(ui.available_height() - 30.0) - super::heatmap::LABEL_SPACE;
                let cell = (room / seq.max(1) as f32).clamp(4.0, 40.0);
                if let Some(weights) = snapshot.layers[layer].as_ref().and_then(|l| l.get(head)) {
                    let keep = snapshot.masks[layer].as_deref();
                    let map = HeatmapView { padding: &snapshot.padding, ..HeatmapView::plain(weights, keep, &snapshot.tokens, cell, true) };
                    let (_, hover) = map.ui(ui);
                    if let Some(hover) = hover {
                        let w = weights[hover.query * seq + hover.key];
                        ui.label(t!("pretrained-hover", query = snapshot.tokens[hover.query].as_str(), key = snapshot.tokens[hover.key].as_str(), weight = format!("{w:.3}")));
                    }
                }
            });
        });
    }
}

fn predictions_ui(ui: &mut egui::Ui, predictions: &Predictions) {
    match predictions {
        Predictions::MaskFill(guesses) => {
            for guess in guesses {
                ui.strong(t!("pretrained-mask-at", sentence = guess.sequence + 1, position = guess.position));
                egui::Grid::new(("mask_fill", guess.sequence, guess.position)).num_columns(2).show(ui, |ui| {
                    for (token, p) in &guess.top {
                        ui.label(token.as_str());
                        ui.add(super::progress_bar(*p).desired_width(200.0).text(format!("{:.1}%", 100.0 * p)));
                        ui.end_row();
                    }
                });
            }
        }
        Predictions::Continuation { text, tokens } => {
            ui.strong(t!("pretrained-continuation"));
            ui.label(egui::RichText::new(text.as_str()).monospace());
            ui.weak(tokens.join(" · "));
            ui.weak(t!("pretrained-continuation-note"));
        }
        Predictions::None(why) => {
            ui.label(why.as_str());
        }
    }
}

fn vectors_ui(ui: &mut egui::Ui, reading: &PretrainedReading) {
    let Some(vectors) = &reading.vectors else { return };
    ui.label(t!("pretrained-vectors-intro"));
    egui::Grid::new("sentence_vectors").num_columns(4).striped(true).show(ui, |ui| {
        ui.strong(t!("pretrained-vectors-sentence"));
        ui.strong(t!("pretrained-vectors-cls-mean"));
        ui.strong(t!("pretrained-vectors-cls-norm"));
        ui.strong(t!("pretrained-vectors-mean-norm"));
        ui.end_row();
        for (s, text) in reading.texts.iter().enumerate() {
            ui.label(text.as_str());
            ui.label(format!("{:.3}", vectors.cls_vs_mean[s]));
            ui.label(format!("{:.2}", vectors.cls_norms[s]));
            ui.label(format!("{:.2}", vectors.mean_norms[s]));
            ui.end_row();
        }
    });
    match (vectors.cls_between, vectors.mean_between) {
        (Some(cls), Some(mean)) => {
            ui.label(t!("pretrained-vectors-between", cls = format!("{cls:.3}"), mean = format!("{mean:.3}")));
        }
        _ => {
            ui.weak(t!("pretrained-vectors-type-two"));
        }
    }
    ui.weak(t!("pretrained-vectors-caveat"));
}
