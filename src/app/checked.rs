//! The edited config's validation, kept with the config it was computed for.

use crate::config::{ConfigProblem, ExperimentConfig, validate};
use crate::ui::model_editor::TaskFacts;

/// The validation of the edited config, recomputed only when it changes.
pub(super) struct Checked {
    pub(super) config: ExperimentConfig,
    pub(super) problems: Vec<ConfigProblem>,
    pub(super) facts: Option<TaskFacts>,
}

impl Checked {
    pub(super) fn of(config: &ExperimentConfig) -> Self {
        let facts = config.task.build().ok().map(|t| TaskFacts { vocab: t.vocab().len(), seq_len: t.seq_len() });
        Self { config: config.clone(), problems: validate(config), facts }
    }
}
