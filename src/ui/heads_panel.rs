//! Choosing the number of heads (lesson 22): the on-screen experiment trained with
//! 1, 2, 4, 8 and 16 heads at its d_model (the app trains them off the window's
//! thread), with validation accuracy, test accuracy and step time side by side.
//! The pick is made on validation; the test column is there to check it.

use eframe::egui;
use egui_plot::{Line, Plot, PlotPoints, Points};

use crate::experiments::{HEAD_COUNTS, HeadsOutcome, measured, pick};
use crate::t;
use crate::workbench::actions::AppAction;
use crate::workbench::run_view::RunStatus;
use crate::workbench::window::WindowData;

/// Steps per training above which the tab warns that the sweep will be long
/// (lesson 22 trains 300).
const MANY_STEPS: usize = 2000;

/// Steps below which no head count learns a lesson's task: the sweep would
/// compare untrained models (after a one-step try, steps stays at 1).
const FEW_STEPS: usize = 100;

#[derive(Default)]
pub struct HeadsPanel;

impl super::Panel for HeadsPanel {
    fn show(&mut self, ui: &mut egui::Ui, data: &mut WindowData<'_>, actions: &mut Vec<AppAction>) {
        let training = data.view.status == RunStatus::Running;
        let (background, base) = (data.background, data.applied);
        egui::ScrollArea::vertical().show(ui, |ui| heads_ui(ui, background, base, training, actions));
    }
}

fn heads_ui(ui: &mut egui::Ui, background: &crate::workbench::window::Background, base: &crate::config::ExperimentConfig, training: bool, actions: &mut Vec<AppAction>) {
    let (results, running) = (&background.heads[..], background.heads_running);
    ui.heading(t!("views-heads-heading"));
    ui.label(t!("views-heads-intro", d_model = base.model.d_model, task = base.task.kind.label(), steps = base.steps));
    ui.horizontal(|ui| {
        let label = if running { t!("views-heads-measuring") } else { t!("views-heads-measure") };
        let tip = t!("views-heads-measure-tip", counts = super::number_list(&HEAD_COUNTS), steps = base.steps);
        if ui.add_enabled(!running, egui::Button::new(label)).on_hover_text(tip).clicked() {
            actions.push(AppAction::MeasureHeads);
        }
        if running {
            // Stop first: the text after it changes width as the time left counts
            // down, and would move a button after it under the pointer.
            super::sweep_stop::stop_button(ui, background.heads_stop_pressed, t!("views-heads-stop-tip"), AppAction::StopMeasureHeads, actions);
            // No spinner: its animation repaints every frame, which takes CPU from
            // the steps being timed. The bar moves with each progress report.
            let steps = background.heads_progress.as_ref();
            ui.add(super::progress_bar(steps.map_or(0.0, |s| s.fraction())).desired_width(160.0));
            let mut progress = t!("views-heads-progress", done = results.len(), total = HEAD_COUNTS.len());
            if let Some(eta) = steps.and_then(super::top_bar::eta_text) {
                progress += &format!(" · {eta}");
            }
            ui.label(progress);
        }
        if training {
            ui.weak(t!("views-length-training"));
        }
    });
    // Trainings too short to learn compare untrained models.
    if !running && base.steps < FEW_STEPS {
        ui.colored_label(ui.visuals().warn_fg_color, t!("views-heads-few-steps", steps = base.steps));
    }
    // Five trainings of the experiment's steps: a run set up for a long training
    // makes a sweep of many minutes, which the learner should know before pressing.
    if !running && base.steps > MANY_STEPS {
        ui.colored_label(ui.visuals().warn_fg_color, t!("views-heads-many-steps", steps = base.steps, total = base.steps.saturating_mul(HEAD_COUNTS.len())));
    }
    let complete = crate::workbench::window::heads_sweep_complete(background);
    if !running && background.heads_stop_pressed && !complete {
        ui.colored_label(ui.visuals().warn_fg_color, t!("views-heads-stopped", done = results.len(), total = HEAD_COUNTS.len()));
    } else if !running && !results.is_empty() && !crate::workbench::window::heads_sweep_done_for(background, base) {
        ui.colored_label(ui.visuals().warn_fg_color, t!("views-heads-stale"));
    }
    let points = measured(results);
    // No pick from part of the sweep: the head count left out might have won.
    let chosen = if complete { pick(&points).map(|p| p.heads) } else { None };
    if !points.is_empty() {
        let width = (ui.available_width() / 2.0 - 10.0).max(200.0);
        let height = (ui.available_height() - 200.0).clamp(150.0, 320.0);
        // x is log2(heads): label whole powers of two only.
        let axis = |mark: egui_plot::GridMark, _: &std::ops::RangeInclusive<f64>| {
            if (mark.value - mark.value.round()).abs() < 1e-6 && mark.value >= 0.0 { format!("{}", 1u64 << mark.value.round() as u32) } else { String::new() }
        };
        let series = |f: &dyn Fn(&crate::experiments::HeadsPoint) -> f64| -> Vec<[f64; 2]> { points.iter().map(|p| [(p.heads as f64).log2(), f(p)]).collect() };
        ui.horizontal(|ui| {
            Plot::new("heads_accuracy")
                .width(width)
                .height(height)
                .legend(super::chart_axes::legend())
                .x_axis_label(t!("views-heads-axis"))
                .y_axis_label(t!("views-heads-accuracy"))
                .x_axis_formatter(axis)
                .include_y(0.0)
                .include_y(1.0)
                .show(ui, |plot| {
                    plot.line(Line::new(t!("views-heads-validation"), PlotPoints::from(series(&|p| p.validation_accuracy))));
                    plot.line(Line::new(t!("views-heads-test"), PlotPoints::from(series(&|p| p.test_accuracy))));
                    if let Some(p) = points.iter().find(|p| Some(p.heads) == chosen) {
                        plot.points(Points::new(t!("views-heads-pick"), vec![[(p.heads as f64).log2(), p.validation_accuracy]]).radius(6.0));
                    }
                });
            Plot::new("heads_step_ms")
                .width(width)
                .height(height)
                .x_axis_label(t!("views-heads-axis"))
                .y_axis_label(t!("views-length-ms-per-step"))
                .x_axis_formatter(axis)
                .include_y(0.0)
                .show(ui, |plot| {
                    plot.line(Line::new(t!("views-length-ms-per-step"), PlotPoints::from(series(&|p| p.step_ms))));
                });
        });
    }
    if results.is_empty() {
        return;
    }
    egui::Grid::new("heads_table").striped(true).show(ui, |ui| {
        for header in [t!("views-heads-axis"), "d_k".to_string(), t!("views-heads-validation"), t!("views-heads-test"), t!("views-length-ms-per-step"), t!("cli-bench-train-loss")] {
            ui.strong(header);
        }
        ui.end_row();
        for outcome in results {
            match outcome {
                HeadsOutcome::Measured(p) => {
                    let mark = if Some(p.heads) == chosen { format!("{} ◀ {}", p.heads, t!("views-heads-pick")) } else { p.heads.to_string() };
                    ui.label(mark);
                    ui.label((base.model.d_model / p.heads.max(1)).to_string());
                    ui.label(format!("{:.3}", p.validation_accuracy));
                    ui.label(format!("{:.3}", p.test_accuracy));
                    ui.label(format!("{:.2}", p.step_ms));
                    ui.label(format!("{:.3}", p.train_loss));
                }
                HeadsOutcome::Refused { heads, message } => {
                    // The reason is long: it wraps under the table, not in a cell.
                    super::refused_row::cells(ui, heads.to_string(), message);
                }
            }
            ui.end_row();
        }
    });
    for outcome in results {
        if let HeadsOutcome::Refused { heads, message } = outcome {
            super::refused_row::reason(ui, t!("views-heads-refused", heads = *heads, message = message.as_str()));
        }
    }
    if let (Some(heads), false) = (chosen, running) {
        let best = points.iter().map(|p| p.test_accuracy).fold(f64::NEG_INFINITY, f64::max);
        let test = points.iter().find(|p| p.heads == heads).map_or(f64::NAN, |p| p.test_accuracy);
        ui.label(t!("views-heads-verdict", heads = heads, test = format!("{test:.3}"), best = format!("{best:.3}")));
    }
}
