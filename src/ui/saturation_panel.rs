//! The softmax saturation sweep (lesson 03): as d_k grows, unscaled scores make
//! the softmax one-hot and its gradient vanishes; scaled scores do not.

use eframe::egui;
use egui_plot::{Corner, Line, Plot, PlotPoints};

use crate::experiments::SaturationPoint;
use crate::t;
use crate::workbench::actions::AppAction;
use crate::workbench::window::WindowData;

/// The Softmax saturation tab: it asks for the sweep when first shown.
#[derive(Default)]
pub struct SaturationPanel;

impl super::Panel for SaturationPanel {
    fn show(&mut self, ui: &mut egui::Ui, data: &mut WindowData<'_>, actions: &mut Vec<AppAction>) {
        ui.heading(t!("views-saturation-heading"));
        ui.label(t!("views-saturation-intro"));
        match &data.background.saturation {
            Some(points) => saturation_plots(ui, points),
            None => {
                if !data.background.saturation_running {
                    actions.push(AppAction::ComputeSaturation);
                }
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(t!("views-saturation-computing"));
                });
            }
        }
    }
}

fn saturation_plots(ui: &mut egui::Ui, points: &[SaturationPoint]) {
    let line = |name: &str, f: &dyn Fn(&SaturationPoint) -> f64| {
        Line::new(name.to_string(), PlotPoints::from(points.iter().map(|p| [(p.d_k as f64).log2(), f(p)]).collect::<Vec<_>>()))
    };
    let width = (ui.available_width() / 2.0 - 10.0).max(200.0);
    let height = (ui.available_height() - 30.0).clamp(150.0, 400.0);
    // The x axis is log2(d_k): label the whole powers of two only.
    let axis = |mark: egui_plot::GridMark, _: &std::ops::RangeInclusive<f64>| {
        if (mark.value - mark.value.round()).abs() < 1e-6 && mark.value >= 0.0 { format!("{}", 1u64 << mark.value.round() as u32) } else { String::new() }
    };
    ui.horizontal(|ui| {
        Plot::new("saturation_weight").width(width).height(height).legend(super::chart_axes::legend().position(Corner::LeftTop)).x_axis_label("d_k").x_axis_formatter(axis).x_grid_spacer(egui_plot::uniform_grid_spacer(|_| [1.0, 3.0, 9.0])).include_y(0.0).include_y(1.0).show(ui, |plot| {
            plot.line(line(&t!("views-saturation-unscaled"), &|p| p.max_weight_unscaled));
            plot.line(line(&t!("views-saturation-scaled"), &|p| p.max_weight_scaled));
        });
        Plot::new("saturation_gradient").width(width).height(height).legend(super::chart_axes::legend().position(Corner::LeftBottom)).x_axis_label("d_k").x_axis_formatter(axis).x_grid_spacer(egui_plot::uniform_grid_spacer(|_| [1.0, 3.0, 9.0])).include_y(0.0).show(ui, |plot| {
            plot.line(line(&t!("views-saturation-unscaled"), &|p| p.gradient_unscaled));
            plot.line(line(&t!("views-saturation-scaled"), &|p| p.gradient_scaled));
        });
    });
}
