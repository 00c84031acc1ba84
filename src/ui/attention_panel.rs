//! The attention grid: one heatmap per layer and head on the probe sequence,
//! a box to type your own probe, and a click to enlarge one map.

use eframe::egui;
use crate::workbench::actions::AppAction;
use crate::workbench::window::WindowData;

use super::heatmap::{HeatmapView, legend_ui};
use crate::t;
use crate::training::AttentionSnapshot;

/// Height of a unit's name above its maps (and of a unit without attention),
/// with the space after the unit.
const UNIT_TITLE: f32 = 26.0;

#[derive(Default)]
pub struct AttentionPanel {
    /// (layer, head) shown enlarged in its own window.
    pub enlarged: Option<(usize, usize)>,
}

impl AttentionPanel {
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        snapshot: Option<&AttentionSnapshot>,
        probe_text: &mut String,
        probe_error: Option<&str>,
    ) -> Option<AppAction> {
        let mut action = None;
        // The central area this panel fills: the enlarged map stays inside it.
        let area = ui.max_rect();
        ui.horizontal(|ui| {
            ui.heading(t!("views-attention-heading"));
            ui.label(t!("views-attention-probe"));
            let edit = ui.add(
                egui::TextEdit::singleline(probe_text)
                    .hint_text(t!("views-attention-probe-hint"))
                    // Room left for the Show button in a narrow view.
                    .desired_width((ui.available_width() - 64.0).clamp(80.0, 260.0)),
            );
            edit.clone().on_hover_text(t!("views-attention-probe-tip"));
            let entered = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if entered || ui.button(t!("views-attention-show")).on_hover_text(t!("views-attention-show-tip")).clicked() {
                action = Some(AppAction::SetProbe(probe_text.clone()));
            }
        });
        if let Some(error) = probe_error {
            ui.colored_label(ui.visuals().error_fg_color, error);
        }
        let Some(snapshot) = snapshot else {
            ui.label(t!("views-attention-not-ready"));
            return action;
        };
        legend_ui(ui);
        ui.label(t!("views-attention-caption", step = snapshot.step));
        // The largest block drawn (a cross-attention map is target rows × source columns).
        let seq = (0..snapshot.layers.len()).map(|l| { let (r, c) = snapshot.block(l); r.len().max(c.len()) }).max().unwrap_or(snapshot.tokens.len());
        let heads_max = snapshot.layers.iter().flatten().map(Vec::len).max().unwrap_or(1);
        // Layers without attention take one line, not a row of maps.
        let layers = snapshot.layers.iter().filter(|l| l.is_some()).count().max(1);
        let off_lines = UNIT_TITLE * (snapshot.layers.len() - snapshot.layers.iter().filter(|l| l.is_some()).count()) as f32;
        // A head's title is "head 12" where its map is that wide, else just "12".
        let title_width = |text: String| ui.painter().layout_no_wrap(text, egui::TextStyle::Body.resolve(ui.style()), egui::Color32::WHITE).size().x;
        let short_title = title_width(format!("{}", heads_max.saturating_sub(1)));
        let space = super::heatmap::GridSpace { width: ui.available_width() - 16.0, height: ui.available_height() - off_lines, maps: heads_max, units: layers, seq, title_width: short_title, unit_title: UNIT_TITLE };
        let fit = grid_fit(&space);
        let long_title = title_width(t!("views-attention-head", head = heads_max.saturating_sub(1)));
        egui::ScrollArea::both().auto_shrink([false, false]).show(ui, |ui| {
            for (layer, maps) in snapshot.layers.iter().enumerate() {
                let Some(maps) = maps else {
                    ui.horizontal(|ui| {
                        ui.strong(snapshot.name(layer));
                        ui.label(t!("views-attention-off"));
                    });
                    continue;
                };
                ui.strong(snapshot.name(layer));
                let keep = snapshot.masks.get(layer).and_then(|m| m.as_deref());
                for (line, heads) in maps.chunks(fit.columns).enumerate() {
                    ui.horizontal(|ui| {
                        // The unit's maps share their keys: labelled once, on its first
                        // map, unless every map is large enough to carry them.
                        let labelled_line = line == 0 || fit.labels_everywhere;
                        if !labelled_line {
                            // In the column of the labelled map above.
                            ui.add_space(super::heatmap::LABEL_SPACE);
                        }
                        for (column, weights) in heads.iter().enumerate() {
                            let head = line * fit.columns + column;
                            let labels = fit.labels_everywhere || (line == 0 && column == 0);
                            let map_width = fit.cell * seq as f32 + if labels { super::heatmap::LABEL_SPACE } else { 0.0 };
                            ui.vertical(|ui| {
                                let title = t!("views-attention-head", head = head);
                                let shown = if long_title <= map_width { title.clone() } else { head.to_string() };
                                ui.add(egui::Label::new(shown).extend()).on_hover_text(title);
                                if !labels && labelled_line {
                                    // Keep the line level with the labelled map beside it.
                                    ui.add_space(super::heatmap::LABEL_SPACE);
                                }
                                let view = HeatmapView { padding: &snapshot.padding, ..HeatmapView::plain(weights, keep, &snapshot.tokens, fit.cell, labels) }.block(snapshot.block(layer));
                                let (response, hover) = view.ui(ui);
                                if let Some(h) = hover {
                                    response.clone().on_hover_text(cell_text(snapshot, layer, head, h.query, h.key));
                                }
                                if response.clicked() {
                                    self.enlarged = Some((layer, head));
                                }
                            });
                        }
                    });
                }
                ui.add_space(6.0);
            }
        });
        self.enlarged_window(ui.ctx(), snapshot, area);
        action
    }

    fn enlarged_window(&mut self, ctx: &egui::Context, snapshot: &AttentionSnapshot, area: egui::Rect) {
        let Some((layer, head)) = self.enlarged else { return };
        let Some(weights) = snapshot.layers.get(layer).and_then(|l| l.as_ref()).and_then(|m| m.get(head)) else {
            self.enlarged = None;
            return;
        };
        let mut open = true;
        egui::Window::new(t!("views-attention-window", layer = snapshot.name(layer), head = head))
            .open(&mut open)
            // Inside the central area: never over the top bar or the lesson.
            .constrain_to(area)
            .default_size([520.0, 560.0])
            .show(ctx, |ui| {
                legend_ui(ui);
                let block = snapshot.block(layer);
                let seq = block.0.len().max(block.1.len()).max(1);
                // As wide as the window, and no taller than the area it stays in
                // (its title, legend and predictions take about 140 points).
                let room = (ui.available_width() - super::heatmap::LABEL_SPACE).min(area.height() - 140.0 - super::heatmap::LABEL_SPACE);
                let cell = (room / seq as f32).clamp(3.0, 36.0);
                let keep = snapshot.masks.get(layer).and_then(|m| m.as_deref());
                let view = HeatmapView { padding: &snapshot.padding, ..HeatmapView::plain(weights, keep, &snapshot.tokens, cell, true) }.block(block.clone());
                let (response, hover) = view.ui(ui);
                if let Some(h) = hover {
                    response.on_hover_text(cell_text(snapshot, layer, head, h.query, h.key));
                }
                // The predictions of the rows drawn (a cross map's target steps).
                let shown = snapshot.predictions.get(block.0.clone()).unwrap_or(&snapshot.predictions);
                ui.label(t!("views-attention-predictions", tokens = shown.join(" ")));
            });
        if !open {
            self.enlarged = None;
        }
    }
}

/// The grid's layout: fitted to the view, or scrolling down where that would
/// make maps smaller than `smallest_cell`.
fn grid_fit(space: &super::heatmap::GridSpace) -> super::heatmap::GridFit {
    match space.fit(2.0, 48.0) {
        fit if fit.cell < smallest_cell(space.seq) => space.fit_scrolling_down(smallest_cell(space.seq), 2.0, 48.0),
        fit => fit,
    }
}

/// The smallest cell the height leaves a map: small enough for long sequences,
/// but a map at least `SMALLEST_MAP` points across. When the grid fitted to the
/// view has smaller maps, it scrolls down rather than shrink short sequences'
/// maps to unreadable thumbnails (a narrow view still shrinks them: the grid
/// never scrolls across).
fn smallest_cell(seq: usize) -> f32 {
    const SMALLEST_MAP: f32 = 48.0;
    (SMALLEST_MAP / seq.max(1) as f32).max(2.0)
}

/// Tooltip of one cell: query token, key token, weight (or why it is masked).
pub fn cell_text(snapshot: &AttentionSnapshot, layer: usize, head: usize, query: usize, key: usize) -> String {
    let seq = snapshot.tokens.len();
    let weight = snapshot.layers[layer].as_ref().map_or(0.0, |m| m[head][query * seq + key]);
    let visible = snapshot.masks[layer].as_ref().is_none_or(|m| m[query * seq + key]);
    let q = &snapshot.tokens[query];
    let k = &snapshot.tokens[key];
    let weight = format!("{weight:.3}");
    if visible {
        t!("views-attention-cell", query = query, q = q.as_str(), key = key, k = k.as_str(), weight = weight)
    } else {
        t!("views-attention-cell-masked", query = query, q = q.as_str(), key = key, k = k.as_str(), weight = weight)
    }
}

impl super::Panel for AttentionPanel {
    fn show(&mut self, ui: &mut egui::Ui, data: &mut WindowData<'_>, actions: &mut Vec<AppAction>) {
        let view = data.view;
        let pinned = view.pinned.as_ref().and_then(|p| p.attention.as_ref().map(|a| (p.label(view.task), a)));
        if let (Some((label, pinned)), Some(now)) = (pinned, view.attention.as_ref()) {
            ui.checkbox(&mut data.window.compare_pinned, t!("lesson-compare-pinned", label = label.as_str()))
                .on_hover_text(t!("lesson-compare-pinned-tip"));
            if data.window.compare_pinned {
                let (pinned_name, now_name) = (t!("compare-pinned"), t!("compare-now"));
                let names = [pinned_name.as_str(), now_name.as_str()];
                egui::ScrollArea::both().id_salt("compare_pinned").show(ui, |ui| super::ab_maps::ab_maps_ui(ui, egui::Id::unique("pinned_maps"), pinned, now, names));
                return;
            }
        }
        actions.extend(self.ui(ui, view.attention.as_ref(), &mut data.state.probe_text, view.probe_error.as_deref()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::heatmap::GridSpace;

    /// In a short view, two layers of a 10-token map stay 48 points across (the
    /// grid scrolls), where the height alone would give 3-point cells; a
    /// 256-token map may still shrink to 2-point cells.
    #[test]
    fn short_views_scroll_rather_than_shrink_maps_to_thumbnails() {
        let short = |seq: usize| GridSpace { width: 330.0, height: 170.0, maps: 2, units: 2, seq, title_width: 8.0, unit_title: UNIT_TITLE };
        let fit = grid_fit(&short(10));
        assert!(fit.cell * 10.0 >= 48.0, "{fit:?}");
        assert!(short(10).fit(2.0, 48.0).cell < 4.0, "the height alone leaves thumbnails");
        assert_eq!(grid_fit(&short(256)).cell, 2.0);
        // Where the view holds maps of that size, it is fitted as before.
        let tall = GridSpace { height: 1000.0, ..short(10) };
        assert_eq!(grid_fit(&tall), tall.fit(2.0, 48.0));
    }
}
