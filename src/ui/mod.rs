//! Panels and widgets. Drawing only: they read the frame's plain data
//! (`crate::workbench`), edit the learner's settings in place and return actions;
//! they never import `crate::app`, spawn a thread or touch a tensor.

pub mod ab_maps;
pub mod attention_image;
pub mod attention_panel;
pub mod banner;
pub mod bounded;
pub mod bug_hunt;
pub mod colormap;
pub mod heatmap;
pub mod knob_help;
pub mod knob_row;
pub mod layer_card;
pub mod generation_panel;
pub mod glossary_window;
pub mod lesson_panel;
pub mod mask_inspector;
pub mod menu_bar;
pub mod model_editor;
pub mod path_prompt;
pub mod presenter;
pub mod refused_row;
pub mod pretrained_panel;
pub mod plots_panel;
pub mod positions_panel;
pub mod by_length_panel;
pub mod chart_axes;
pub mod heads_panel;
pub mod length_cost_panel;
pub mod saturation_panel;
pub mod scroll_anchor;
pub mod step_through;
pub mod sweep_stop;
pub mod task_knobs;
pub mod top_bar;
pub mod window;

use eframe::egui;

use crate::workbench::actions::AppAction;
use crate::workbench::window::WindowData;

/// One panel of the window: it draws from the frame's data and pushes what the
/// learner asked for onto `actions`, which the app applies after the frame.
pub trait Panel {
    fn show(&mut self, ui: &mut egui::Ui, data: &mut WindowData<'_>, actions: &mut Vec<AppAction>);
}

/// Numbers as a sentence lists them: "1, 2, 4, 8, 16" (seeds, lengths, head
/// counts), not Rust's "[1, 2, 4, 8, 16]".
pub fn number_list<T: ToString>(numbers: &[T]) -> String {
    numbers.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
}

/// A progress bar whose fill begins as a sliver: egui's round ends fill a
/// circle as wide as the bar is tall from 0%, under the start of its text
/// ("14 / 900").
pub fn progress_bar(fraction: f32) -> egui::ProgressBar {
    egui::ProgressBar::new(fraction).corner_radius(2)
}
