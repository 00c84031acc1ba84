//! Integration tests: one test binary (one link) with a module per area.

mod architecture;
mod attention;
mod bughunt;
mod checkpoints;
mod claims;
mod classroom;
mod cli;
mod fast_path;
mod fuzz;
mod knobs;
mod lesson_names;
mod lessons;
mod monkey;
mod plot_export;
mod pretrained;
mod run_buttons;
mod runs;
mod status_strip;
mod sweeps;
mod training;
mod window;

use attention_workbench::config::{ExperimentConfig, preset};
use attention_workbench::tasks::{TaskConfig, TaskKind};

/// A preset with a task, its max_len grown to fit.
pub fn experiment(preset_name: &str, task: TaskKind) -> ExperimentConfig {
    let mut config = preset(preset_name).expect("preset");
    config.task = TaskConfig::for_kind(task);
    config
}
