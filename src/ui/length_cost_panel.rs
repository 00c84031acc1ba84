//! The cost of sequence length (lesson 11): the model on screen timed for a few
//! training steps at several lengths of the character model (the app measures it
//! off the window's thread), with step time and attention memory plotted against
//! length.

use eframe::egui;
use egui_plot::{Corner, Line, LineStyle, Plot, PlotPoints, Points};

use crate::experiments::{LENGTH_SWEEP, LENGTH_SWEEP_STEPS, LengthOutcome};
use crate::t;
use crate::workbench::actions::AppAction;
use crate::workbench::run_view::RunStatus;
use crate::workbench::window::{Background, WindowData};

#[derive(Default)]
pub struct LengthCostPanel;

impl super::Panel for LengthCostPanel {
    fn show(&mut self, ui: &mut egui::Ui, data: &mut WindowData<'_>, actions: &mut Vec<AppAction>) {
        let background = data.background;
        let training = data.view.status == RunStatus::Running;
        let base = data.applied;
        egui::ScrollArea::vertical().show(ui, |ui| length_cost_ui(ui, background, base, training, actions));
    }
}

fn length_cost_ui(ui: &mut egui::Ui, background: &Background, base: &crate::config::ExperimentConfig, training: bool, actions: &mut Vec<AppAction>) {
    let batch = base.batch_size;
    let (results, running) = (&background.lengths[..], background.lengths_running);
    ui.heading(t!("views-length-heading"));
    ui.label(t!("views-length-intro"));
    ui.horizontal(|ui| {
        let label = if running { t!("views-length-measuring") } else { t!("views-length-measure") };
        let tip = t!("views-length-measure-tip", steps = LENGTH_SWEEP_STEPS, lengths = super::number_list(&LENGTH_SWEEP), batch = batch);
        if ui.add_enabled(!running, egui::Button::new(label)).on_hover_text(tip).clicked() {
            actions.push(AppAction::MeasureLengths);
        }
        if running {
            // Stop first, where the text after it cannot move it (as in the Heads tab).
            super::sweep_stop::stop_button(ui, background.lengths_stop_pressed, t!("views-length-stop-tip"), AppAction::StopMeasureLengths, actions);
            // No spinner: its animation repaints every frame, which takes CPU from
            // the steps being timed; each length's result repaints the window.
            // A bar over the lengths (no time left: each length costs more than the last).
            ui.add(super::progress_bar(results.len() as f32 / LENGTH_SWEEP.len() as f32).desired_width(120.0));
            ui.label(t!("views-length-progress", done = results.len(), total = LENGTH_SWEEP.len()));
        }
        if training {
            ui.weak(t!("views-length-training"));
        }
    });
    if !running && background.lengths_stop_pressed && results.len() < LENGTH_SWEEP.len() {
        ui.colored_label(ui.visuals().warn_fg_color, t!("views-length-stopped", done = results.len(), total = LENGTH_SWEEP.len()));
    } else if !running && !results.is_empty() && !crate::workbench::window::lengths_sweep_done_for(background, base) {
        ui.colored_label(ui.visuals().warn_fg_color, t!("views-length-stale"));
    }
    let measured: Vec<_> = results.iter().filter_map(|o| match o {
        LengthOutcome::Measured(c) => Some(c),
        LengthOutcome::Refused { .. } => None,
    }).collect();
    if !measured.is_empty() {
        let width = (ui.available_width() / 2.0 - 10.0).max(200.0);
        let height = (ui.available_height() - 150.0).clamp(150.0, 360.0);
        // x is log2(length): label whole powers of two only.
        let axis = |mark: egui_plot::GridMark, _: &std::ops::RangeInclusive<f64>| {
            if (mark.value - mark.value.round()).abs() < 1e-6 && mark.value >= 0.0 { format!("{}", 1u64 << mark.value.round() as u32) } else { String::new() }
        };
        let series = |f: &dyn Fn(&crate::experiments::LengthCost) -> f64| -> Vec<[f64; 2]> {
            measured.iter().map(|c| [(c.length as f64).log2(), f(c)]).collect()
        };
        // n^power through the first point, for comparison.
        let through_first = |f: &dyn Fn(&crate::experiments::LengthCost) -> f64, power: i32| -> Vec<[f64; 2]> {
            let first = measured[0];
            measured.iter().map(|c| [(c.length as f64).log2(), f(first) * (c.length as f64 / first.length as f64).powi(power)]).collect()
        };
        let plot = |ui: &mut egui::Ui, id: &str, y: &str, f: &dyn Fn(&crate::experiments::LengthCost) -> f64, with_linear: bool| {
            // The points in the line's colour: the legend's swatch is the line's.
            let measured = ui.visuals().hyperlink_color;
            Plot::new(id.to_string())
                .width(width)
                .height(height)
                .legend(super::chart_axes::legend().position(Corner::LeftTop))
                .x_axis_label(t!("views-length-axis"))
                .y_axis_label(y.to_string())
                .x_axis_formatter(axis)
                .x_grid_spacer(egui_plot::uniform_grid_spacer(|_| [1.0, 3.0, 9.0]))
                .include_y(0.0)
                .show(ui, |plot| {
                    plot.line(Line::new(t!("views-length-measured"), PlotPoints::from(series(f))).color(measured));
                    plot.points(Points::new("", PlotPoints::from(series(f))).radius(3.0).color(measured));
                    plot.line(Line::new(t!("views-length-quadratic"), PlotPoints::from(through_first(f, 2))).style(LineStyle::dashed_loose()));
                    if with_linear {
                        plot.line(Line::new(t!("views-length-linear"), PlotPoints::from(through_first(f, 1))).style(LineStyle::dotted_loose()));
                    }
                });
        };
        ui.horizontal(|ui| {
            plot(ui, "length_step_ms", &t!("views-length-ms-per-step"), &|c| c.step_ms, true);
            plot(ui, "length_attention_mib", &t!("views-length-attention-mib"), &|c| c.attention_mib, false);
        });
    }
    egui::Grid::new("length_cost_table").striped(true).show(ui, |ui| {
        for header in [t!("views-length-length"), t!("views-length-ms-per-step"), t!("views-length-previous"), t!("views-length-attention-mib"), t!("views-length-total-mib")] {
            ui.strong(header);
        }
        ui.end_row();
        let mut previous: Option<f64> = None;
        for outcome in results {
            match outcome {
                LengthOutcome::Measured(c) => {
                    ui.label(c.length.to_string());
                    ui.label(format!("{:.1}", c.step_ms));
                    ui.label(previous.map_or(String::new(), |p| format!("×{:.1}", c.step_ms / p)));
                    ui.label(format!("{:.1}", c.attention_mib));
                    ui.label(format!("{:.1}", c.total_mib));
                    previous = Some(c.step_ms);
                }
                LengthOutcome::Refused { length, message } => {
                    // The reason is long: it wraps under the table, not in a cell.
                    super::refused_row::cells(ui, length.to_string(), message);
                    previous = None;
                }
            }
            ui.end_row();
        }
    });
    for outcome in results {
        if let LengthOutcome::Refused { length, message } = outcome {
            super::refused_row::reason(ui, t!("views-length-refused", length = *length, message = message.as_str()));
        }
    }
}
