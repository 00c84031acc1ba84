//! Curves: loss and accuracy (train and eval), per-layer gradient norms and
//! update-to-weight ratios, and the learning rate. Log scale and smoothing apply
//! to every chart.

use eframe::egui;
use crate::workbench::actions::AppAction;
use crate::workbench::window::WindowData;
use egui_plot::{Line, LineStyle, Plot, PlotPoints, Points};

use crate::workbench::run_view::RunView;
use crate::workbench::series::Series;
use crate::workbench::state::PlotSettings;
use crate::t;

use super::chart_axes::{LABEL_FADE, LOSS_FLOOR, RATIO_FLOOR, linear_label, linear_marks, log_label, log_marks, on_log_axis};

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

/// The charts, in order: name and the message key of what each shows.
pub const CHARTS: [(&str, &str); 5] = [
    ("loss", "lesson-chart-loss-tip"),
    ("accuracy", "lesson-chart-accuracy-tip"),
    ("gradient norm per layer", "lesson-chart-grad-norm-tip"),
    ("update / weight per layer", "lesson-chart-update-ratio-tip"),
    ("learning rate", "lesson-chart-lr-tip"),
];

/// A chart's title in the current language (its name stays the identifier).
fn chart_title(name: &str) -> String {
    match name {
        "loss" => t!("lesson-chart-loss"),
        "accuracy" => t!("lesson-chart-accuracy"),
        "gradient norm per layer" => t!("lesson-chart-grad-norm"),
        "update / weight per layer" => t!("lesson-chart-update-ratio"),
        "learning rate" => t!("lesson-chart-lr"),
        other => other.to_string(),
    }
}

/// A named curve, dashed when it is the pinned run's.
type Curve<'a> = (String, &'a Series, bool);

/// The toolbar and the charts; returns the toolbar's action and where the charts
/// are (what *Export plots as PNG* writes: the charts, not the toolbar).
pub fn plots_ui(ui: &mut egui::Ui, view: &RunView, settings: &mut PlotSettings) -> (Option<AppAction>, egui::Rect) {
    let mut action = None;
    // Wraps on a narrow window (1280×800) rather than clipping "Pin this run".
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().slider_width = 80.0;
        ui.checkbox(&mut settings.log_scale, t!("lesson-plots-log-scale"))
            .on_hover_text(t!("lesson-plots-log-scale-tip"));
        ui.add(egui::Slider::new(&mut settings.smoothing, 0.0..=0.99).text(t!("lesson-plots-smoothing")))
            .on_hover_text(t!("lesson-plots-smoothing-tip", capacity = Series::default_capacity()));
        ui.menu_button(t!("lesson-plots-charts", shown = settings.shown.len(), total = CHARTS.len()), |ui| {
            for (name, tip) in CHARTS {
                let mut on = settings.shown.contains(name);
                // At least one chart stays: the last one cannot be switched off.
                let last = on && settings.shown.len() == 1;
                if ui.add_enabled(!last, egui::Checkbox::new(&mut on, chart_title(name))).on_hover_text(crate::i18n::message(tip, None)).changed() {
                    if on {
                        settings.shown.insert(name.to_string());
                    } else {
                        settings.shown.remove(name);
                    }
                }
            }
        })
        .response
        .on_hover_text(t!("lesson-plots-charts-tip"));
        let can_pin = !view.train_loss.is_empty();
        if ui
            .add_enabled(can_pin, egui::Button::new(t!("lesson-plots-pin")))
            .on_hover_text(t!("lesson-plots-pin-tip"))
            .clicked()
        {
            action = Some(AppAction::PinRun);
        }
        if let Some(pinned) = view.pinned.as_ref().map(|p| p.label(view.task))
            && ui.button(t!("lesson-plots-unpin")).on_hover_text(t!("lesson-plots-unpin-tip", label = pinned.as_str())).clicked()
        {
            action = Some(AppAction::UnpinRun);
        }
    });
    let shown: Vec<&str> = CHARTS.iter().map(|(name, _)| *name).filter(|name| settings.shown.contains(*name)).collect();
    let (gap, count) = (ui.spacing().item_spacing.x, shown.len().max(1) as f32);
    let width = ((ui.available_width() + gap) / count - gap).max(140.0);
    // Charts that do not fit side by side scroll, with a bar that is always
    // drawn (egui's floating one shows only under the pointer, and the charts
    // past the edge were easy to miss). This Ui is the plots panel's own.
    let overflow = (width + gap) * count - gap > ui.available_width() + 0.5;
    if overflow {
        ui.spacing_mut().scroll = egui::style::ScrollStyle::solid();
    }
    let bar = if overflow { ui.spacing().scroll.allocated_width() } else { 0.0 };
    // What the panel has left under the toolbar, less the title row (and the
    // scroll bar): the charts fill the panel and never push it taller.
    let height = (ui.available_height() - 28.0 - bar).max(80.0);
    let log = settings.log_scale;
    let norms = per_layer(&view.layer_grad_norms);
    let ratios = per_layer(&view.layer_update_ratios);
    let pinned = view.pinned.as_ref();
    // A pin stays across lessons: curves of another task say which.
    let other_task = pinned.and_then(|p| p.task).filter(|task| view.task.is_some_and(|live| live != *task)).map(|task| task.label());
    let loss = with_pinned(&view.train_loss, &view.eval_loss, pinned.map(|p| (&p.train_loss, &p.eval_loss)), other_task.as_deref());
    let accuracy = with_pinned(&view.train_accuracy, &view.eval_accuracy, pinned.map(|p| (&p.train_accuracy, &p.eval_accuracy)), other_task.as_deref());
    let lr = live(vec![(t!("lesson-plots-lr").as_str(), &view.lr)]);
    let charts = egui::ScrollArea::horizontal().id_salt("charts").show(ui, |ui| ui.horizontal(|ui| {
        for name in shown {
            match name {
                "loss" => chart(ui, name, width, height, settings, log.then_some(LOSS_FLOOR), &loss),
                "accuracy" => chart(ui, name, width, height, settings, None, &accuracy),
                "gradient norm per layer" => chart(ui, name, width, height, settings, log.then_some(RATIO_FLOOR), &norms),
                "update / weight per layer" => chart(ui, name, width, height, settings, log.then_some(RATIO_FLOOR), &ratios),
                _ => chart(ui, name, width, height, settings, None, &lr),
            }
        }
    }));
    // A few points of margin beside and under the charts, within the panel.
    let region = egui::Rect::from_min_max(charts.inner_rect.min - egui::vec2(6.0, 0.0), charts.inner_rect.max + egui::vec2(6.0, 4.0));
    (action, region.intersect(ui.clip_rect()))
}

/// One chart: its title and a legend of coloured names above the plot (so no
/// legend covers the data), then the curves; `log`: a log10 axis whose values
/// sit no lower than this floor.
fn chart(ui: &mut egui::Ui, title: &str, width: f32, height: f32, settings: &PlotSettings, log: Option<f64>, curves: &[Curve]) {
    ui.vertical(|ui| {
        ui.set_width(width);
        // The legend wraps (many layers) and the plot gives up that height.
        let legend = ui.horizontal_wrapped(|ui| {
            ui.strong(chart_title(title));
            for (i, (name, _, dashed)) in curves.iter().enumerate() {
                let mark = if *dashed { "┅" } else { "■" };
                let entry = egui::RichText::new(format!("{mark} {name}")).color(CURVE_COLORS[color_index(curves, i) % CURVE_COLORS.len()]).small();
                // One entry is never split over two lines ("Layer" here, "0" there).
                ui.add(egui::Label::new(entry).wrap_mode(egui::TextWrapMode::Extend));
            }
        });
        let height = (height + 20.0 - legend.response.rect.height()).max(60.0);
        let mut plot = Plot::new(title)
            .width(width)
            .height(height)
            .custom_y_axes(vec![egui_plot::AxisHints::new_y().label_spacing(LABEL_FADE)])
            .x_axis_label(t!("lesson-plots-step"))
            .x_axis_formatter(|mark, _| step_label(mark.value));
        if log.is_some() {
            // Ticks at round values (1, 2, 5, 10 or 2.5, 3, 3.5), not at round
            // logarithms (10^0.5 = 3.162).
            plot = plot.y_grid_spacer(log_marks);
            if y_range(curves).is_none() {
                // Before the first point, one decade (1 to 10): egui's empty span of
                // 10^±0.4 crowds its tenths' labels into each other.
                plot = plot.include_y(0.0).include_y(1.0);
            }
            plot = plot.y_axis_formatter(log_label);
        } else {
            // egui's labels round 0.5 to "0" on a step of 0.5.
            plot = plot.y_grid_spacer(linear_marks).y_axis_formatter(|mark, _| linear_label(mark));
            // Before the first point, 0 to 1 (egui's empty plot spans −0.4 to 0.4,
            // which reads as a negative accuracy).
            let (low, high) = y_range(curves).unwrap_or((0.0, 1.0));
            plot = plot.include_y(low).include_y(high);
        }
        plot.show(ui, |plot_ui| {
            for (i, (name, series, dashed)) in curves.iter().enumerate() {
                let on_axis = |points: Vec<[f64; 2]>| match log {
                    Some(floor) => on_log_axis(points, floor),
                    None => points,
                };
                let color = CURVE_COLORS[color_index(curves, i) % CURVE_COLORS.len()];
                let style = if *dashed { LineStyle::dashed_dense() } else { LineStyle::Solid };
                let line = Line::new(name.as_str(), PlotPoints::from(on_axis(series.smoothed(settings.smoothing as f64))));
                plot_ui.line(line.color(if *dashed { color.gamma_multiply(0.6) } else { color }).style(style));
                if series.is_sparse() && !dashed {
                    // Evaluations are few: show each measured value, not only the curve.
                    plot_ui.points(Points::new(name.as_str(), PlotPoints::from(on_axis(series.points()))).color(color).radius(2.5));
                }
            }
        });
    });
}

/// Per-layer curves named as the interface names the layers ("Layer 0", "层 0").
fn per_layer(series: &std::collections::BTreeMap<String, Series>) -> Vec<Curve<'_>> {
    let mut layers: Vec<(&String, &Series)> = series.iter().collect();
    // In the network's order, which the legend follows: embedding, the encoder's
    // layers, the decoder's, the output head ("layer 10" after "layer 2").
    layers.sort_by_key(|(key, _)| network_order(key));
    layers.into_iter().map(|(key, s)| (layer_label(key), s, false)).collect()
}

/// Where the trainer's layer key sits from input to output.
fn network_order(key: &str) -> (u8, usize) {
    let index = |prefix: &str| key.strip_prefix(prefix).and_then(|i| i.parse::<usize>().ok());
    match key {
        "embedding" => (0, 0),
        "rnn" => (1, 0),
        "head" => (5, 0),
        _ => match (index("encoder "), index("layer ")) {
            (Some(i), _) => (2, i),
            (_, Some(i)) => (3, i),
            _ => (4, 0),
        },
    }
}

/// The trainer's layer key ("embedding", "layer 0", "head") in the interface's words.
fn layer_label(key: &str) -> String {
    if let Some(index) = key.strip_prefix("encoder ").and_then(|i| i.parse::<usize>().ok()) {
        return t!("editor-encoder-layer", index = index);
    }
    match key.strip_prefix("layer ").and_then(|i| i.parse::<usize>().ok()) {
        Some(index) => t!("editor-layer", index = index),
        None if key == "embedding" => t!("lesson-plots-embedding"),
        None if key == "rnn" => t!("lesson-plots-rnn"),
        None if key == "head" => t!("lesson-plots-output-head"),
        None => key.to_string(),
    }
}

fn live<'a>(pairs: Vec<(&str, &'a Series)>) -> Vec<Curve<'a>> {
    pairs.into_iter().map(|(name, series)| (name.to_string(), series, false)).collect()
}

/// Train and eval curves, then the pinned run's (dashed, in the same colours),
/// named with its task when it is not the live run's (`other_task`).
fn with_pinned<'a>(train: &'a Series, eval: &'a Series, pinned: Option<(&'a Series, &'a Series)>, other_task: Option<&str>) -> Vec<Curve<'a>> {
    let mut curves = live(vec![(t!("lesson-plots-train").as_str(), train), (t!("lesson-plots-eval").as_str(), eval)]);
    let name = |name: String| match other_task {
        Some(task) => format!("{name} ({task})"),
        None => name,
    };
    if let Some((train, eval)) = pinned {
        curves.push((name(t!("lesson-plots-pinned-train")), train, true));
        curves.push((name(t!("lesson-plots-pinned-eval")), eval, true));
    }
    curves
}

/// A pinned curve takes the colour of the live curve it pairs with.
fn color_index(curves: &[Curve], i: usize) -> usize {
    let live = curves.iter().filter(|c| !c.2).count();
    if curves[i].2 { i - live } else { i }
}

/// Step-axis labels: whole, non-negative steps only ("0", "500", "1500").
fn step_label(v: f64) -> String {
    if v < 0.0 || (v - v.round()).abs() > 1e-6 { String::new() } else { format!("{}", v.round() as i64) }
}

/// On a linear axis, always show zero and a little headroom above the highest value,
/// so a constant curve (a fixed learning rate) is not stretched into noise.
fn y_range(curves: &[Curve]) -> Option<(f64, f64)> {
    let high = curves.iter().filter_map(|(_, s, _)| s.max_y()).fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))?;
    Some((0.0, if high > 0.0 { high * 1.1 } else { 1.0 }))
}

/// The plots panel under the views.
#[derive(Default)]
pub struct PlotsPanel {
    /// Where its charts were drawn last, below the toolbar.
    pub charts_rect: Option<egui::Rect>,
}

impl super::Panel for PlotsPanel {
    fn show(&mut self, ui: &mut egui::Ui, data: &mut WindowData<'_>, actions: &mut Vec<AppAction>) {
        let (action, charts) = plots_ui(ui, data.view, &mut data.state.plots);
        actions.extend(action);
        self.charts_rect = Some(charts);
    }
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn pinned_curves_of_another_task_say_which() {
        let (train, eval) = (Series::default(), Series::default());
        let names = |other: Option<&str>| with_pinned(&train, &eval, Some((&train, &eval)), other).into_iter().map(|c| c.0).collect::<Vec<_>>();
        assert_eq!(names(None), ["train", "eval", "pinned train", "pinned eval"]);
        assert_eq!(names(Some("lookup")), ["train", "eval", "pinned train (lookup)", "pinned eval (lookup)"]);
    }

    #[test]
    fn per_layer_curves_run_from_input_to_output() {
        crate::i18n::set_lang(crate::i18n::Lang::En);
        let keys = ["head", "layer 10", "embedding", "layer 2", "encoder 0"];
        let series: std::collections::BTreeMap<String, Series> = keys.iter().map(|k| (k.to_string(), Series::default())).collect();
        let names: Vec<String> = per_layer(&series).into_iter().map(|c| c.0).collect();
        assert_eq!(names, ["embedding", "Encoder layer 0", "Layer 2", "Layer 10", "output layer"]);
    }
}
