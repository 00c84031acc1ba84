//! The edited config's validation, kept with the config it was computed for.

use crate::config::{ConfigProblem, ExperimentConfig, TaskFacts, validate_with_facts};

/// The validation of the edited config, recomputed once per edit (never per frame
/// of a drag): the app calls `of` when an edit ends.
pub struct Checked {
    pub config: ExperimentConfig,
    pub problems: Vec<ConfigProblem>,
    /// The task's vocabulary and length, when the task builds.
    pub facts: Option<TaskFacts>,
}

impl Checked {
    pub fn of(config: &ExperimentConfig) -> Self {
        let (problems, facts) = validate_with_facts(config);
        Self { config: config.clone(), problems, facts }
    }
}
