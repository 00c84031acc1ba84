//! Panels and widgets. Drawing only: they read plain data and return actions;
//! they never touch a tensor.

pub mod ab_maps;
pub mod attention_image;
pub mod attention_panel;
pub mod banner;
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
pub mod plots_panel;
pub mod positions_panel;
pub mod length_cost_panel;
pub mod saturation_panel;
pub mod step_through;
pub mod task_knobs;
pub mod top_bar;
