//! Reading a source (lessons 18–20): held-out accuracy against source length for
//! the live run and the pinned one (Bahdanau et al. 2015, Figure 2, in
//! miniature), and how much gradient of the last output reaches each source word.

use eframe::egui;
use egui_plot::{Bar, BarChart, Corner, Line, Plot, PlotPoints, Points};

use crate::t;
use crate::training::{GradientReach, LengthBucket};
use crate::workbench::actions::AppAction;
use crate::workbench::window::WindowData;

#[derive(Default)]
pub struct ByLengthPanel;

impl super::Panel for ByLengthPanel {
    fn show(&mut self, ui: &mut egui::Ui, data: &mut WindowData<'_>, actions: &mut Vec<AppAction>) {
        let view = data.view;
        let live = view.last_eval.as_ref().map(|e| (view.step, e.by_length.as_slice()));
        let pinned_label = view.pinned.as_ref().map(|p| p.label(view.task)).unwrap_or_default();
        let pinned = view.pinned.as_ref().filter(|p| !p.by_length.is_empty()).map(|p| (pinned_label.as_str(), p.by_length.as_slice()));
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.heading(t!("views-by-length-heading"));
            ui.label(t!("views-by-length-intro"));
            let measured = live.is_some_and(|(_, b)| !b.is_empty()) || pinned.is_some();
            if !view.task.is_some_and(|t| t.has_source()) && !measured {
                ui.colored_label(ui.visuals().warn_fg_color, t!("views-by-length-no-source"));
            } else if !measured {
                ui.weak(t!("views-by-length-not-yet"));
            } else {
                accuracy_chart(ui, live, pinned);
            }
            ui.separator();
            reach_ui(ui, view.reach.as_ref(), actions);
        });
    }
}

/// Token accuracy per length bucket: one line for the live run, one for the pinned.
fn accuracy_chart(ui: &mut egui::Ui, live: Option<(usize, &[LengthBucket])>, pinned: Option<(&str, &[LengthBucket])>) {
    let points = |buckets: &[LengthBucket]| -> Vec<[f64; 2]> {
        buckets.iter().filter(|b| b.sentences > 0).map(|b| [(b.shortest + b.longest) as f64 / 2.0, 100.0 * b.accuracy as f64]).collect()
    };
    let height = (ui.available_height() * 0.45).clamp(180.0, 360.0);
    // The x axis spans the lengths there are (a fixed-length task has one point).
    let all = live.map(|(_, b)| b).into_iter().chain(pinned.map(|(_, b)| b)).flatten();
    let (shortest, longest) = all.fold((usize::MAX, 0), |(lo, hi), b| (lo.min(b.shortest), hi.max(b.longest)));
    let (pinned_colour, live_colour) = (egui::Color32::from_gray(150), ui.visuals().selection.bg_fill);
    Plot::new("accuracy_by_length")
        .height(height)
        .include_x(shortest.min(longest) as f64 - 1.0)
        .include_x(longest as f64 + 1.0)
        .legend(super::chart_axes::legend().position(Corner::LeftBottom))
        .x_axis_label(t!("views-by-length-axis"))
        .y_axis_label(t!("views-by-length-accuracy"))
        .include_y(0.0)
        .include_y(100.0)
        .show(ui, |plot| {
            if let Some((label, buckets)) = pinned {
                let name = t!("views-by-length-pinned", label = label);
                plot.line(Line::new(name.clone(), PlotPoints::from(points(buckets))).style(egui_plot::LineStyle::dashed_loose()).color(pinned_colour));
                plot.points(Points::new(name, PlotPoints::from(points(buckets))).radius(3.0).color(pinned_colour));
            }
            if let Some((step, buckets)) = live.filter(|(_, b)| !b.is_empty()) {
                let name = t!("views-by-length-now", step = step);
                plot.line(Line::new(name.clone(), PlotPoints::from(points(buckets))).width(2.0).color(live_colour));
                plot.points(Points::new(name, PlotPoints::from(points(buckets))).radius(4.0).color(live_colour));
            }
        });
    // The numbers behind the chart, including buckets with no held-out sentence.
    let (title, shown) = match (live.filter(|(_, b)| !b.is_empty()), pinned) {
        (Some((step, b)), _) => (t!("views-by-length-now", step = step), b),
        (None, Some((label, b))) => (t!("views-by-length-pinned", label = label), b),
        (None, None) => (String::new(), &[][..]),
    };
    ui.strong(title);
    egui::Grid::new("by_length_table").striped(true).show(ui, |ui| {
        for header in [t!("views-by-length-words"), t!("views-by-length-sentences"), t!("views-by-length-accuracy"), t!("views-by-length-whole")] {
            ui.strong(header);
        }
        ui.end_row();
        for b in shown {
            ui.label(format!("{}–{}", b.shortest, b.longest));
            ui.label(b.sentences.to_string());
            if b.sentences == 0 {
                ui.colored_label(ui.visuals().warn_fg_color, t!("views-by-length-empty"));
                ui.label("");
            } else {
                ui.label(format!("{:.1}%", 100.0 * b.accuracy));
                ui.label(format!("{:.1}%", 100.0 * b.sequence_accuracy));
            }
            ui.end_row();
        }
    });
}

/// The gradient-reach measurement: a button, then one bar per source word.
fn reach_ui(ui: &mut egui::Ui, reach: Option<&(usize, Result<GradientReach, String>)>, actions: &mut Vec<AppAction>) {
    ui.heading(t!("views-reach-heading"));
    ui.label(t!("views-reach-intro"));
    if ui.button(t!("views-reach-measure")).on_hover_text(t!("views-reach-measure-tip")).clicked() {
        actions.push(AppAction::MeasureGradientReach);
    }
    match reach {
        None => {
            ui.weak(t!("views-reach-not-measured"));
        }
        Some((_, Err(why))) => {
            ui.colored_label(ui.visuals().warn_fg_color, why);
        }
        Some((step, Ok(reach))) => {
            ui.label(t!("views-reach-result", step = *step, first = crate::experiments::plain_number(reach.first_word)));
            let bars: Vec<Bar> = reach.by_word.iter().enumerate().map(|(i, v)| Bar::new(i as f64 + 1.0, *v as f64).width(0.8)).collect();
            let height = (ui.available_height() - 20.0).clamp(160.0, 300.0);
            Plot::new("gradient_reach")
                .height(height)
                .x_axis_label(t!("views-reach-axis"))
                .y_axis_label(t!("views-reach-share"))
                .include_y(0.0)
                .include_y(1.0)
                .show(ui, |plot| plot.bar_chart(BarChart::new(t!("views-reach-share"), bars)));
        }
    }
}
