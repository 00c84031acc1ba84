//! Curves: loss and accuracy (train and eval), per-layer gradient norms and
//! update-to-weight ratios, and the learning rate. Log scale and smoothing apply
//! to every chart.

use eframe::egui;
use egui_plot::{Legend, Line, Plot, PlotPoints};

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
    ui.horizontal(|ui| {
        ui.checkbox(&mut settings.log_scale, "log scale")
            .on_hover_text("Plot losses and norms on a log₁₀ axis: slow late progress becomes visible.");
        ui.add(egui::Slider::new(&mut settings.smoothing, 0.0..=0.99).text("smoothing"))
            .on_hover_text("Exponential moving average over steps: 0 shows raw values.");
        ui.separator();
        ui.label(format!("{} points kept per curve at most", Series::default_capacity()));
    });
    let height = (ui.available_height() - 8.0).max(120.0);
    let width = (ui.available_width() / 4.0 - 8.0).max(160.0);
    ui.horizontal(|ui| {
        let log = settings.log_scale;
        chart(ui, "loss_chart", "loss (train, eval)", width, height, settings, log, &[
            ("train loss", &view.train_loss),
            ("eval loss", &view.eval_loss),
        ]);
        chart(ui, "accuracy_chart", "accuracy (train, eval)", width, height, settings, false, &[
            ("train accuracy", &view.train_accuracy),
            ("eval accuracy", &view.eval_accuracy),
        ]);
        let layers: Vec<(String, &Series)> = view.layer_grad_norms.iter().map(|(k, v)| (format!("‖∇‖ {k}"), v)).collect();
        let ratios: Vec<(String, &Series)> = top_ratios(view);
        let grads: Vec<(&str, &Series)> = layers.iter().chain(&ratios).map(|(n, s)| (n.as_str(), *s)).collect();
        chart(ui, "grad_chart", "gradient norm per layer · update/weight", width, height, settings, log, &grads);
        chart(ui, "lr_chart", "learning rate · global gradient norm", width, height, settings, log, &[
            ("learning rate", &view.lr),
            ("global grad norm", &view.grad_norm),
        ]);
    });
}

/// Update ratios of the attention and FFN input projections (the rest would crowd the chart).
fn top_ratios(view: &RunView) -> Vec<(String, &Series)> {
    view.update_ratios
        .iter()
        .filter(|(name, _)| name.ends_with(".wq") || name.ends_with(".up") || name.as_str() == "tok_emb")
        .map(|(name, s)| (format!("Δ/w {name}"), s))
        .collect()
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
    curves: &[(&str, &Series)],
) {
    ui.vertical(|ui| {
        ui.label(title);
        let mut plot = Plot::new(id)
            .width(width)
            .height(height - 20.0)
            .legend(Legend::default())
            .x_axis_label("step");
        if log {
            plot = plot.y_axis_formatter(|mark, _| format!("{:.3}", 10f64.powf(mark.value)));
        }
        plot.show(ui, |plot_ui| {
            for (i, (name, series)) in curves.iter().enumerate() {
                let mut points = series.smoothed(settings.smoothing as f64);
                if log {
                    points.retain(|p| p[1] > 0.0);
                    points.iter_mut().for_each(|p| p[1] = p[1].log10());
                }
                let color = CURVE_COLORS[i % CURVE_COLORS.len()];
                plot_ui.line(Line::new(*name, PlotPoints::from(points)).color(color));
            }
        });
    });
}
