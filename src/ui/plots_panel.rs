//! Curves: loss and accuracy (train and eval), per-layer gradient norms and
//! update-to-weight ratios, and the learning rate. Log scale and smoothing apply
//! to every chart.

use eframe::egui;
use egui_plot::{Line, Plot, PlotPoints, Points};

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

/// The charts, in order: name and what each shows.
pub const CHARTS: [(&str, &str); 5] = [
    ("loss", "Training and held-out loss"),
    ("accuracy", "Training and held-out accuracy"),
    ("gradient norm per layer", "How large each layer's gradient is: vanishing or exploding gradients show here"),
    ("update / weight per layer", "How much each step changes each layer's weights, relative to their size"),
    ("learning rate", "The learning rate at each step (warm-up, then constant)"),
];

pub fn plots_ui(ui: &mut egui::Ui, view: &RunView, settings: &mut PlotSettings) {
    ui.horizontal(|ui| {
        ui.checkbox(&mut settings.log_scale, "log scale")
            .on_hover_text("Plot losses, norms and ratios on a log10 axis: slow late progress becomes visible.");
        ui.add(egui::Slider::new(&mut settings.smoothing, 0.0..=0.99).text("smoothing"))
            .on_hover_text(format!(
                "Exponential moving average over steps: 0 shows raw values. Sparse curves (evaluations) decay by the steps between their points, and their measured points are marked. Each curve keeps at most {} points; older ones are merged.",
                Series::default_capacity()
            ));
        ui.menu_button(format!("Charts ({} of {}) ⏷", settings.shown.len(), CHARTS.len()), |ui| {
            for (name, tip) in CHARTS {
                let mut on = settings.shown.contains(name);
                // At least one chart stays: the last one cannot be switched off.
                let last = on && settings.shown.len() == 1;
                if ui.add_enabled(!last, egui::Checkbox::new(&mut on, name)).on_hover_text(tip).changed() {
                    if on {
                        settings.shown.insert(name.to_string());
                    } else {
                        settings.shown.remove(name);
                    }
                }
            }
        })
        .response
        .on_hover_text("Choose which charts to show: fewer charts, each wider");
    });
    let shown: Vec<&str> = CHARTS.iter().map(|(name, _)| *name).filter(|name| settings.shown.contains(*name)).collect();
    let width = (ui.available_width() / shown.len().max(1) as f32 - 10.0).max(140.0);
    // What the panel has left under the toolbar, less the title row: the charts
    // fill the panel and never push it taller.
    let height = (ui.available_height() - 28.0).max(80.0);
    let log = settings.log_scale;
    let norms: Vec<(&str, &Series)> = view.layer_grad_norms.iter().map(|(k, v)| (k.as_str(), v)).collect();
    let ratios: Vec<(&str, &Series)> = view.layer_update_ratios.iter().map(|(k, v)| (k.as_str(), v)).collect();
    egui::ScrollArea::horizontal().id_salt("charts").show(ui, |ui| ui.horizontal(|ui| {
        for name in shown {
            match name {
                "loss" => chart(ui, name, width, height, settings, log, &[("train", &view.train_loss), ("eval", &view.eval_loss)]),
                "accuracy" => chart(ui, name, width, height, settings, false, &[("train", &view.train_accuracy), ("eval", &view.eval_accuracy)]),
                "gradient norm per layer" => chart(ui, name, width, height, settings, log, &norms),
                "update / weight per layer" => chart(ui, name, width, height, settings, log, &ratios),
                _ => chart(ui, name, width, height, settings, false, &[("lr", &view.lr)]),
            }
        }
    }));
}

/// One chart: its title and a legend of coloured names above the plot (so no
/// legend covers the data), then the curves.
fn chart(ui: &mut egui::Ui, title: &str, width: f32, height: f32, settings: &PlotSettings, log: bool, curves: &[(&str, &Series)]) {
    ui.vertical(|ui| {
        ui.set_width(width);
        // The legend wraps (many layers) and the plot gives up that height.
        let legend = ui.horizontal_wrapped(|ui| {
            ui.strong(title);
            for (i, (name, _)) in curves.iter().enumerate() {
                let entry = egui::RichText::new(format!("■ {name}")).color(CURVE_COLORS[i % CURVE_COLORS.len()]).small();
                ui.label(entry);
            }
        });
        let height = (height + 20.0 - legend.response.rect.height()).max(60.0);
        let mut plot = Plot::new(title)
            .width(width)
            .height(height)
            .x_axis_label("step")
            .x_axis_formatter(|mark, _| step_label(mark.value));
        if log {
            // On a narrow range (one step: 2.974 to 2.973) more digits keep the ticks apart.
            plot = plot.y_axis_formatter(|mark, range| {
                let narrow = (range.end() - range.start()).abs() < 0.05;
                if narrow { format!("{:.5}", 10f64.powf(mark.value)).trim_end_matches('0').to_string() } else { format_value(10f64.powf(mark.value)) }
            });
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

/// Step-axis labels: whole, non-negative steps only ("0", "500", "1500").
fn step_label(v: f64) -> String {
    if v < 0.0 || (v - v.round()).abs() > 1e-6 { String::new() } else { format!("{}", v.round() as i64) }
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
