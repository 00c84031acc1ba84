//! The cost of sequence length (lesson 11): the model on screen timed for a few
//! training steps at several lengths of the character model, in a background
//! thread, with step time and attention memory plotted against length.

use std::sync::mpsc::{Receiver, channel};

use eframe::egui;
use egui_plot::{Corner, Legend, Line, LineStyle, Plot, PlotPoints, Points};

use crate::config::ExperimentConfig;
use crate::experiments::{LengthOutcome, measure_length};
use crate::t;

/// Lengths the sweep measures (the built-in corpus is long enough for 256).
pub const LENGTHS: [usize; 5] = [16, 32, 64, 128, 256];
/// Timed steps per length (after two untimed ones).
const STEPS: usize = 8;

#[derive(Default)]
pub struct LengthCostPanel {
    results: Vec<LengthOutcome>,
    running: Option<Receiver<LengthOutcome>>,
}

impl LengthCostPanel {
    /// Start measuring `base` at every length, replacing earlier results.
    pub fn start(&mut self, base: &ExperimentConfig) {
        let (tx, rx) = channel();
        let base = base.clone();
        std::thread::spawn(move || {
            for length in LENGTHS {
                if tx.send(measure_length(&base, length, STEPS)).is_err() {
                    return; // the window closed
                }
            }
        });
        self.results.clear();
        self.running = Some(rx);
    }

    /// The lengths measured (or refused) so far, in order.
    pub fn results(&self) -> &[LengthOutcome] {
        &self.results
    }

    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// Collect finished lengths; the sweep ends when every length has reported.
    fn poll(&mut self) {
        if let Some(rx) = &self.running {
            while let Ok(outcome) = rx.try_recv() {
                self.results.push(outcome);
            }
            if self.results.len() >= LENGTHS.len() {
                self.running = None;
            }
        }
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, base: &ExperimentConfig, training: bool) {
        self.poll();
        ui.heading(t!("views-length-heading"));
        ui.label(t!("views-length-intro"));
        ui.horizontal(|ui| {
            let label = if self.is_running() { t!("views-length-measuring") } else { t!("views-length-measure") };
            let tip = t!("views-length-measure-tip", steps = STEPS, lengths = format!("{LENGTHS:?}"), batch = base.batch_size);
            if ui.add_enabled(!self.is_running(), egui::Button::new(label)).on_hover_text(tip).clicked() {
                self.start(base);
            }
            if self.is_running() {
                ui.spinner();
                ui.label(t!("views-length-progress", done = self.results.len(), total = LENGTHS.len()));
                ui.ctx().request_repaint_after(std::time::Duration::from_millis(100));
            }
            if training {
                ui.weak(t!("views-length-training"));
            }
        });
        let measured: Vec<_> = self.results.iter().filter_map(|o| match o {
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
                Plot::new(id.to_string())
                    .width(width)
                    .height(height)
                    .legend(Legend::default().position(Corner::LeftTop))
                    .x_axis_label(t!("views-length-axis"))
                    .y_axis_label(y.to_string())
                    .x_axis_formatter(axis)
                    .x_grid_spacer(egui_plot::uniform_grid_spacer(|_| [1.0, 3.0, 9.0]))
                    .include_y(0.0)
                    .show(ui, |plot| {
                        plot.line(Line::new(t!("views-length-measured"), PlotPoints::from(series(f))));
                        plot.points(Points::new("", PlotPoints::from(series(f))).radius(3.0));
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
            for outcome in &self.results {
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
                        ui.label(length.to_string());
                        ui.colored_label(ui.visuals().warn_fg_color, t!("views-length-refused", message = message.as_str()));
                        previous = None;
                    }
                }
                ui.end_row();
            }
        });
    }
}
