//! Curves: loss and accuracy (train and eval), per-layer gradient norms and
//! update-to-weight ratios, and the learning rate. Log scale and smoothing apply
//! to every chart.

use eframe::egui;
use egui_plot::{Corner, Legend, Line, Plot, PlotPoints, Points};

use crate::app::run_view::RunView;
use crate::app::series::Series;
use crate::app::state::PlotSettings;

/// The palette for curves: distinct in hue and lightness.
const CURVE_COLORS: [egui::Color32; 8] = [
    egui::Color32::from_rgb(31, 119, 180),
    egui::Color32::from_rgb(255, 127, 14),
    egui::Color32::from_rgb(44, 160, 44),
    egui::Color32::from_rgb(214, 39, 40),
    egui::Color32::from_rgb(148, 103, 189),
    egui::Color32::from_rgb(140, 86, 75),
    egui::Color32::from_rgb(227, 119, 194),
    egui::Color32::from_rgb(23, 190, 207),
];

pub fn plots_ui(ui: &mut egui::Ui, view: &RunView, settings: &mut PlotSettings) {
    // The panel's own height (resizable), not what the content asked for last frame.
    let chart_height = (ui.max_rect().height() - 56.0).clamp(140.0, 320.0);
    ui.horizontal(|ui| {
        ui.checkbox(&mut settings.log_scale, "log scale")
            .on_hover_text("Plot losses, norms and ratios on a log10 axis: slow late progress becomes visible.");
        ui.add(egui::Slider::new(&mut settings.smoothing, 0.0..=0.99).text("smoothing"))
            .on_hover_text("Exponential moving average over steps: 0 shows raw values. Sparse curves (evaluations) decay by the steps between their points, and their measured points are marked.");
        ui.weak(format!("(each curve keeps at most {} points; older ones are merged)", Series::default_capacity()));
    });
    let width = (ui.available_width() / 5.0 - 8.0).max(140.0);
    let log = settings.log_scale;
    egui::ScrollArea::horizontal().id_salt("charts").show(ui, |ui| ui.horizontal(|ui| {
        chart(ui, "loss_chart", "loss", width, chart_height, settings, log, Corner::RightTop, &[
            ("train", &view.train_loss),
            ("eval", &view.eval_loss),
        ]);
        chart(ui, "accuracy_chart", "accuracy", width, chart_height, settings, false, Corner::RightBottom, &[
            ("train", &view.train_accuracy),
            ("eval", &view.eval_accuracy),
        ]);
        let norms: Vec<(&str, &Series)> = view.layer_grad_norms.iter().map(|(k, v)| (k.as_str(), v)).collect();
        chart(ui, "grad_chart", "gradient norm per layer", width, chart_height, settings, log, Corner::LeftBottom, &norms);
        let ratios: Vec<(&str, &Series)> = view.layer_update_ratios.iter().map(|(k, v)| (k.as_str(), v)).collect();
        chart(ui, "ratio_chart", "update / weight per layer", width, chart_height, settings, log, Corner::LeftBottom, &ratios);
        chart(ui, "lr_chart", "learning rate", width, chart_height, settings, false, Corner::RightBottom, &[("lr", &view.lr)]);
    }));
}

#[allow(clippy::too_many_arguments)]
fn chart(
    ui: &mut egui::Ui,
    id: &str,
    title: &str,
    width: f32,
    height: f32,
    settings: &PlotSettings,
    log: bool,
    corner: Corner,
    curves: &[(&str, &Series)],
) {
    ui.vertical(|ui| {
        ui.label(title);
        let mut plot = Plot::new(id)
            .width(width)
            .height(height)
            .legend(Legend::default().position(corner))
            .x_axis_label("step");
        if log {
            plot = plot.y_axis_formatter(|mark, _| format_value(10f64.powf(mark.value)));
        } else if let Some((low, high)) = y_range(curves) {
            plot = plot.include_y(low).include_y(high);
        }
        plot.show(ui, |plot_ui| {
            for (i, (name, series)) in curves.iter().enumerate() {
                let on_axis = |mut points: Vec<[f64; 2]>| {
                    if log {
                        points.retain(|p| p[1] > 0.0);
                        points.iter_mut().for_each(|p| p[1] = p[1].log10());
                    }
                    points
                };
                let color = CURVE_COLORS[i % CURVE_COLORS.len()];
                plot_ui.line(Line::new(*name, PlotPoints::from(on_axis(series.smoothed(settings.smoothing as f64)))).color(color));
                if series.is_sparse() {
                    // Evaluations are few: show each measured value, not only the curve.
                    plot_ui.points(Points::new(*name, PlotPoints::from(on_axis(series.points()))).color(color).radius(2.5));
                }
            }
        });
    });
}

/// Axis labels that stay readable from 1e-6 to 1e3.
fn format_value(v: f64) -> String {
    if v == 0.0 || (1e-2..1e3).contains(&v.abs()) {
        format!("{v:.3}").trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        format!("{v:.0e}")
    }
}

/// On a linear axis, always show zero and a little headroom above the highest value,
/// so a constant curve (a fixed learning rate) is not stretched into noise.
fn y_range(curves: &[(&str, &Series)]) -> Option<(f64, f64)> {
    let high = curves.iter().filter_map(|(_, s)| s.max_y()).fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))?;
    Some((0.0, if high > 0.0 { high * 1.1 } else { 1.0 }))
}
