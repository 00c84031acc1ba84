//! One attention map: rows are queries, columns are keys, colour is weight.
//! Masked cells are grey with a diagonal stroke; hovering shows the query token,
//! the key token and the weight.

use eframe::egui::{self, Color32, Pos2, Rect, Sense, Stroke, Vec2};

use super::colormap::{MASKED, diverging, viridis};
use crate::t;

pub struct HeatmapView<'a> {
    /// `seq × seq` row-major weights.
    pub weights: &'a [f32],
    /// `seq × seq` keep-mask, true = visible.
    pub keep: Option<&'a [bool]>,
    pub tokens: &'a [String],
    /// Side of one cell in points.
    pub cell: f32,
    /// Draw token labels along both axes.
    pub labels: bool,
    /// Cells to outline in red (leaks).
    pub highlight: &'a [(usize, usize)],
    /// Query rows to mark in red at the left edge (rows with no visible key).
    pub marked_rows: &'a [usize],
    /// Padded positions, marked in orange along both axes.
    pub padding: &'a [bool],
    /// Weights in [0, 1] (viridis), or differences in [-1, 1] (blue to red).
    pub difference: bool,
    /// The query rows and key columns drawn (a cross-attention map shows its
    /// target rows and source columns only); the whole map by default.
    pub rows: std::ops::Range<usize>,
    pub cols: std::ops::Range<usize>,
}

impl<'a> HeatmapView<'a> {
    /// A plain map: no highlights, marks or padding.
    pub fn plain(weights: &'a [f32], keep: Option<&'a [bool]>, tokens: &'a [String], cell: f32, labels: bool) -> Self {
        let seq = tokens.len();
        Self { weights, keep, tokens, cell, labels, highlight: &[], marked_rows: &[], padding: &[], difference: false, rows: 0..seq, cols: 0..seq }
    }

    /// The same map drawn on `rows` × `cols` only.
    pub fn block(self, (rows, cols): (std::ops::Range<usize>, std::ops::Range<usize>)) -> Self {
        Self { rows, cols, ..self }
    }
}

/// What the pointer is over, for the caller's tooltip.
pub struct HeatmapHover {
    pub query: usize,
    pub key: usize,
}

impl HeatmapView<'_> {
    pub fn ui(&self, ui: &mut egui::Ui) -> (egui::Response, Option<HeatmapHover>) {
        let seq = self.tokens.len();
        let (rows, cols) = (self.rows.start.min(seq)..self.rows.end.min(seq), self.cols.start.min(seq)..self.cols.end.min(seq));
        let label_space = if self.labels { LABEL_SPACE } else { 0.0 };
        let size = Vec2::new(label_space + self.cell * cols.len() as f32, label_space + self.cell * rows.len() as f32);
        let (rect, response) = ui.allocate_exact_size(size, Sense::click());
        if !ui.is_rect_visible(rect) || seq == 0 || self.weights.len() < seq * seq || rows.is_empty() || cols.is_empty() {
            return (response, None);
        }
        let painter = ui.painter_at(rect);
        // Where cell (q, k) of the whole map is drawn.
        let origin = rect.min + Vec2::splat(label_space) - Vec2::new(cols.start as f32 * self.cell, rows.start as f32 * self.cell);
        for q in rows.clone() {
            for k in cols.clone() {
                let cell_rect = Rect::from_min_size(
                    origin + Vec2::new(k as f32 * self.cell, q as f32 * self.cell),
                    Vec2::splat(self.cell),
                );
                let visible = self.keep.is_none_or(|keep| keep[q * seq + k]);
                if visible {
                    let value = self.weights[q * seq + k];
                    painter.rect_filled(cell_rect, 0.0, if self.difference { diverging(value) } else { viridis(value) });
                } else {
                    painter.rect_filled(cell_rect, 0.0, MASKED);
                    if self.cell >= 6.0 {
                        painter.line_segment(
                            [cell_rect.left_bottom(), cell_rect.right_top()],
                            Stroke::new(1.0, Color32::from_gray(160)),
                        );
                    }
                }
            }
        }
        if self.labels {
            let font = egui::FontId::monospace((self.cell * 0.8).clamp(7.0, 12.0));
            let color = ui.visuals().text_color();
            // Labels never overlap: with small cells only every k-th is drawn.
            let every = label_stride(self.cell, 9.0);
            let size = font.size;
            for (i, token) in self.tokens.iter().enumerate().filter(|(i, _)| i % every == 0) {
                let centre = i as f32 * self.cell + self.cell / 2.0;
                // Long tokens ("chases") are shortened to the room they have, not cut off.
                if cols.contains(&i) {
                    painter.text(
                        Pos2::new(origin.x + centre, rect.min.y + label_space - 2.0),
                        egui::Align2::CENTER_BOTTOM,
                        fit_label(token, self.cell * every as f32, size),
                        font.clone(),
                        color,
                    );
                }
                if rows.contains(&i) {
                    painter.text(
                        Pos2::new(rect.min.x + label_space - 3.0, origin.y + centre),
                        egui::Align2::RIGHT_CENTER,
                        fit_label(token, label_space - 4.0, size),
                        font.clone(),
                        color,
                    );
                }
            }
        }
        let red = Color32::from_rgb(255, 60, 60);
        for &(q, k) in self.highlight.iter().filter(|(q, k)| rows.contains(q) && cols.contains(k)) {
            let cell_rect = Rect::from_min_size(
                origin + Vec2::new(k as f32 * self.cell, q as f32 * self.cell),
                Vec2::splat(self.cell),
            );
            painter.rect_stroke(cell_rect, 0.0, Stroke::new(1.5, red), egui::StrokeKind::Inside);
        }
        for &q in self.marked_rows.iter().filter(|q| rows.contains(q)) {
            let y = origin.y + q as f32 * self.cell;
            painter.rect_filled(Rect::from_min_size(Pos2::new(origin.x - 4.0, y), Vec2::new(3.0, self.cell)), 0.0, red);
        }
        let orange = Color32::from_rgb(255, 160, 40);
        let top = rect.min.y + label_space;
        let left = rect.min.x + label_space;
        for (i, _) in self.padding.iter().enumerate().filter(|(_, p)| **p) {
            let at = i as f32 * self.cell;
            if cols.contains(&i) {
                painter.rect_filled(Rect::from_min_size(Pos2::new(origin.x + at, top - 3.0), Vec2::new(self.cell, 2.0)), 0.0, orange);
            }
            if rows.contains(&i) {
                painter.rect_filled(Rect::from_min_size(Pos2::new(left - 8.0, origin.y + at), Vec2::new(2.0, self.cell)), 0.0, orange);
            }
        }
        let hover = response.hover_pos().and_then(|pos| {
            let local = pos - origin;
            let (k, q) = ((local.x / self.cell).floor(), (local.y / self.cell).floor());
            (k >= 0.0 && q >= 0.0 && cols.contains(&(k as usize)) && rows.contains(&(q as usize))).then(|| HeatmapHover {
                query: q as usize,
                key: k as usize,
            })
        });
        if let Some(h) = &hover {
            let cell_rect = Rect::from_min_size(
                origin + Vec2::new(h.key as f32 * self.cell, h.query as f32 * self.cell),
                Vec2::splat(self.cell),
            );
            painter.rect_stroke(cell_rect, 0.0, Stroke::new(1.5, Color32::WHITE), egui::StrokeKind::Inside);
        }
        (response, hover)
    }
}

/// `token` shortened with "…" to fit `width` points of monospace text of `size`.
pub fn fit_label(token: &str, width: f32, size: f32) -> String {
    let fits = ((width / (size * 0.6)).floor() as usize).max(1);
    if token.chars().count() <= fits {
        return token.to_string();
    }
    let mut short: String = token.chars().take(fits.saturating_sub(1).max(1)).collect();
    if fits > 1 {
        short.push('…');
    }
    short
}

/// Draw every k-th label so labels at least `min_gap` points apart never overlap.
pub fn label_stride(cell: f32, min_gap: f32) -> usize {
    (min_gap / cell.max(0.1)).ceil().max(1.0) as usize
}

/// Room for a map's axis labels, in points.
pub const LABEL_SPACE: f32 = 34.0;

/// How the attention grid lays its maps out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridFit {
    /// Maps per line: a unit with more heads takes several lines.
    pub columns: usize,
    /// Side of one cell, in points.
    pub cell: f32,
    /// Token labels on every map, not only on the first map of each unit.
    pub labels_everywhere: bool,
}

/// Room around each map of the grid: between maps across, and per line down
/// (the head's title and the spacing).
pub const GRID_GAP: Vec2 = Vec2::new(8.0, 26.0);

/// What the attention grid has to lay out, and where.
#[derive(Clone, Copy, Debug)]
pub struct GridSpace {
    pub width: f32,
    pub height: f32,
    /// Maps per unit (the most heads of any layer).
    pub maps: usize,
    /// Units with maps (layers, or an encoder–decoder's attention units).
    pub units: usize,
    /// Cells along each side of a map.
    pub seq: usize,
    /// The narrowest a head's title can be: no map's column is narrower.
    pub title_width: f32,
    /// Height of a unit's name above its maps.
    pub unit_title: f32,
}

impl GridSpace {
    /// The layout that draws every map as large as the area allows, wrapping a
    /// unit's maps onto more lines when that makes them larger (16 heads on one
    /// line are thumbnails), with as few lines as give that size and no line
    /// longer than the first. Each line takes `GRID_GAP.y` (the heads' titles)
    /// plus its maps; each unit its name and once the key labels (`LABEL_SPACE`),
    /// which the first map of its first line carries, or every map when labelled
    /// maps keep cells of 10 points and four fifths of the size unlabelled ones
    /// would have. The cell lies in [min, max]; at `min` the grid may need
    /// scrolling, but it scrolls down, not across, wherever one map a line fits.
    pub fn fit(&self, min: f32, max: f32) -> GridFit {
        self.fit_scrolling_down(min, min, max)
    }

    /// `fit`, but where the height alone would make cells smaller than
    /// `min_down`, they keep `min_down` and the grid scrolls down (the width may
    /// still shrink them to `min`: a grid never scrolls across).
    pub fn fit_scrolling_down(&self, min_down: f32, min: f32, max: f32) -> GridFit {
        let (maps, units, seq) = (self.maps.max(1), self.units.max(1), self.seq.max(1) as f32);
        // The best layout with labels on the first map only, and with labels on all.
        let mut best: [Option<GridFit>; 2] = [None, None];
        for lines_per_unit in 1..=maps {
            let columns = maps.div_ceil(lines_per_unit);
            if maps.div_ceil(columns) != lines_per_unit {
                continue; // the same columns as a layout with fewer lines
            }
            let lines = (lines_per_unit * units) as f32;
            for (slot, labels_everywhere) in [false, true].into_iter().enumerate() {
                let (per_map, label_lines) = if labels_everywhere { (LABEL_SPACE, lines) } else { (0.0, units as f32) };
                let down = (self.height - units as f32 * self.unit_title - label_lines * LABEL_SPACE - lines * GRID_GAP.y) / (lines * seq);
                // The first column always has room for its labels.
                let room = self.width - (LABEL_SPACE - per_map) - columns as f32 * (GRID_GAP.x + per_map);
                let cell = (room / (columns as f32 * seq)).min(down.max(min_down)).clamp(min, max);
                let map_width = (cell * seq + per_map).max(self.title_width);
                let fits_across = columns as f32 * (map_width + GRID_GAP.x) + LABEL_SPACE - per_map <= self.width;
                if !fits_across && columns > 1 {
                    continue;
                }
                // Ties keep the layout found first: the one with fewer lines.
                if best[slot].is_none_or(|b| cell > b.cell + 0.01) {
                    best[slot] = Some(GridFit { columns, cell, labels_everywhere });
                }
            }
        }
        match best {
            [Some(plain), Some(labelled)] if labelled.cell >= 10.0 && labelled.cell >= 0.8 * plain.cell => labelled,
            [Some(plain), _] => plain,
            _ => GridFit { columns: 1, cell: min, labels_everywhere: false },
        }
    }
}

/// The side of a map's cell that fits `count` maps of `seq` cells across `width`
/// (the key labels drawn once, on the first map of a row) and `rows` maps down
/// `height` (each with its title and key labels), within [min, max].
pub fn fit_cell(width: f32, height: f32, count: usize, rows: usize, seq: usize, min: f32, max: f32) -> f32 {
    let across = (width - LABEL_SPACE - count as f32 * 20.0) / (count.max(1) * seq.max(1)) as f32;
    let down = (height - rows as f32 * (LABEL_SPACE + 28.0)) / (rows.max(1) * seq.max(1)) as f32;
    across.min(down).clamp(min, max)
}

/// The colour bar: 0 to 1 and the masked swatch (on a second line when the view
/// is too narrow for both).
pub fn legend_ui(ui: &mut egui::Ui) {
    ui.horizontal_wrapped(|ui| {
        ui.label(t!("views-legend-weight-zero"));
        let (rect, _) = ui.allocate_exact_size(Vec2::new(140.0, 12.0), Sense::hover());
        let painter = ui.painter_at(rect);
        let steps = 70;
        for i in 0..steps {
            let x0 = rect.min.x + rect.width() * i as f32 / steps as f32;
            let x1 = rect.min.x + rect.width() * (i + 1) as f32 / steps as f32;
            painter.rect_filled(
                Rect::from_min_max(Pos2::new(x0, rect.min.y), Pos2::new(x1, rect.max.y)),
                0.0,
                viridis(i as f32 / (steps - 1) as f32),
            );
        }
        ui.label("1");
        // The swatch and its word stay together.
        let masked = t!("views-legend-masked");
        let word = ui.painter().layout_no_wrap(masked.clone(), egui::TextStyle::Body.resolve(ui.style()), Color32::WHITE).size().x;
        if fits_on_line(ui, 12.0 + 12.0 + 2.0 * ui.spacing().item_spacing.x + word) {
            ui.add_space(12.0);
        } else {
            ui.end_row();
        }
        let (swatch, _) = ui.allocate_exact_size(Vec2::splat(12.0), Sense::hover());
        ui.painter().rect_filled(swatch, 0.0, MASKED);
        ui.painter().line_segment([swatch.left_bottom(), swatch.right_top()], Stroke::new(1.0, Color32::from_gray(160)));
        ui.add(egui::Label::new(masked).extend());
    });
}

/// Whether `width` more points fit on the current line of a wrapping row (whose
/// available width is the whole row's, not what is left of the line).
fn fits_on_line(ui: &egui::Ui, width: f32) -> bool {
    ui.max_rect().right() - ui.cursor().min.x >= width
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_thin_out_on_small_cells_and_maps_grow_into_space() {
        assert_eq!(label_stride(14.0, 9.0), 1);
        assert_eq!(fit_label("cat", 30.0, 12.0), "cat");
        assert_eq!(fit_label("chases", 30.0, 12.0), "cha…", "four characters fit in 30 points");
        assert_eq!(fit_label("chases", 5.0, 12.0), "c");
        assert_eq!(label_stride(4.0, 9.0), 3, "64 labels on 4-point cells: every third");
        // Three tokens in a large area: big cells, not 14-point thumbnails.
        assert!(fit_cell(600.0, 500.0, 2, 1, 3, 3.0, 48.0) >= 40.0);
        // Many tokens: cells shrink to fit the width.
        let cell = fit_cell(600.0, 500.0, 4, 2, 33, 3.0, 48.0);
        assert!(cell * 33.0 * 4.0 <= 600.0, "{cell}");
    }

    /// The width and height a fit's grid takes (as `GridSpace::fit` counts them).
    fn grid_size(fit: GridFit, maps: usize, units: usize, seq: usize, title: f32, unit_title: f32) -> (f32, f32) {
        let lines = (maps.div_ceil(fit.columns) * units) as f32;
        let (per_map, label_lines) = if fit.labels_everywhere { (LABEL_SPACE, lines) } else { (0.0, units as f32) };
        let map = (fit.cell * seq as f32 + per_map).max(title);
        let width = fit.columns as f32 * (map + GRID_GAP.x) + LABEL_SPACE - per_map;
        let height = units as f32 * unit_title + label_lines * LABEL_SPACE + lines * (GRID_GAP.y + fit.cell * seq as f32);
        (width, height)
    }

    fn fit_grid(width: f32, height: f32, maps: usize, units: usize, seq: usize, min: f32, max: f32) -> GridFit {
        GridSpace { width, height, maps, units, seq, title_width: 16.0, unit_title: 20.0 }.fit(min, max)
    }

    #[test]
    fn the_grid_wraps_many_heads_into_lines_and_stays_inside_its_area() {
        // Lesson 22: 16 heads, 2 layers, 9 tokens, in a 620 × 420 area.
        let fit = fit_grid(620.0, 420.0, 16, 2, 9, 2.0, 48.0);
        assert_eq!(fit.columns, 8, "two lines of 8, not 16 in one line or 11 and 5: {fit:?}");
        let (w, h) = grid_size(fit, 16, 2, 9, 16.0, 20.0);
        assert!(w <= 620.0 && h <= 420.0, "{fit:?} takes {w} × {h}");
        // Larger than one line of 16 would allow.
        assert!(fit.cell * 9.0 > (620.0 - 16.0 * GRID_GAP.x) / 16.0, "{fit:?}");
        // Lesson 16: 4 heads, 2 layers, 64 tokens: all four across, inside the area.
        let fit = fit_grid(620.0, 560.0, 4, 2, 64, 2.0, 48.0);
        let (w, h) = grid_size(fit, 4, 2, 64, 16.0, 20.0);
        assert!(w <= 620.0 && h <= 560.0 && fit.cell >= 2.0, "{fit:?} takes {w} × {h}");
        // One head of three tokens in a large area: one big map, labelled.
        let fit = fit_grid(600.0, 500.0, 1, 1, 3, 2.0, 48.0);
        assert_eq!((fit.columns, fit.cell, fit.labels_everywhere), (1, 48.0, true));
        // The lesson preset's 4 heads of 9 tokens have room for labels on each.
        let fit = fit_grid(590.0, 500.0, 4, 2, 9, 2.0, 48.0);
        assert!(fit.labels_everywhere && fit.cell >= 10.0 && fit.columns == 4, "{fit:?}");
        // Too little room for anything: the smallest cell, one map a line (scrolls down).
        let fit = fit_grid(40.0, 40.0, 8, 4, 64, 2.0, 48.0);
        assert_eq!((fit.cell, fit.columns), (2.0, 1));
    }

    #[test]
    fn at_the_smallest_cell_the_grid_keeps_its_width_and_its_fewest_lines() {
        // Too narrow for 16 maps of 64 cells even at 2 points: as many across as
        // fit, never past the right edge.
        let fit = fit_grid(588.0, 420.0, 16, 2, 64, 2.0, 48.0);
        let (w, _) = grid_size(fit, 16, 2, 64, 16.0, 20.0);
        assert!(fit.cell == 2.0 && w <= 588.0, "{fit:?} is {w} wide");
        // Too short for anything (the large preset, 8 heads × 4 layers, in 230
        // points): still 8 across, not one map a line.
        let fit = fit_grid(700.0, 230.0, 8, 4, 17, 2.0, 48.0);
        assert_eq!((fit.cell, fit.columns), (2.0, 8), "{fit:?}");
    }
}
