//! What the window remembers between launches (eframe persistence): the experiment
//! being edited, which panels are shown, the theme, the probe and plot settings.
//! `serde(default)` lets an older or damaged save load with defaults filled in.

use serde::{Deserialize, Serialize};

use crate::config::ExperimentConfig;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PersistedState {
    /// The experiment as edited (applied to the model when valid).
    pub config: ExperimentConfig,
    /// The preset the config started from, for the preset menu.
    pub preset: String,
    pub layout: Layout,
    pub dark_mode: bool,
    pub probe_text: String,
    pub plots: PlotSettings,
    /// Which view fills the centre.
    pub central: CentralView,
    /// What the learner has done (checks, claims, answers, bug-hunt cases), by id.
    pub progress: crate::progress::Progress,
    /// The lesson open last.
    pub lesson: String,
    /// Lesson packs opened, opened again at launch (in this order).
    pub packs: Vec<std::path::PathBuf>,
    /// The packs shown in the presenter view, by pack id.
    pub presenter_packs: std::collections::BTreeSet<String>,
    /// The name a progress export carries, for the teacher's report.
    pub student_name: String,
    /// The learner's own experiment, set aside while a lesson's is loaded
    /// ("Restore my experiment" brings it back, also after a restart).
    pub saved_experiment: Option<ExperimentConfig>,
    /// The lesson whose experiment `config` is (its checks may judge the run).
    pub lesson_experiment: Option<String>,
    /// The interface language the learner chose; None follows the system's.
    pub language: Option<crate::i18n::Lang>,
}

impl PersistedState {
    /// The language to show: the chosen one, else the system's.
    pub fn effective_language(&self) -> crate::i18n::Lang {
        self.language.unwrap_or_else(crate::i18n::Lang::system)
    }
}

/// The views of the central area.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CentralView {
    #[default]
    Attention,
    MaskInspector,
    StepThrough,
    Positions,
    Saturation,
    SequenceLength,
    /// The same model with 1 to 16 heads, chosen on validation, checked on test.
    Heads,
    /// Accuracy against source length and the gradient reach (seq2seq tasks).
    ByLength,
    Generate,
    BugHunt,
    /// An opened BERT or GPT-2 checkpoint, in every view.
    Pretrained,
}

impl Default for PersistedState {
    /// The first start: lesson 01 open with its experiment loaded, so the screen
    /// matches what the lesson describes.
    fn default() -> Self {
        let first = crate::lessons::builtin().into_iter().next().and_then(Result::ok);
        Self {
            config: first.as_ref().map_or_else(ExperimentConfig::default, |l| l.start.clone()),
            preset: if first.is_some() { "custom".to_string() } else { "lesson".to_string() },
            lesson_experiment: None,
            lesson: first.map(|l| l.id).unwrap_or_default(),
            layout: Layout::default(),
            dark_mode: true,
            probe_text: String::new(),
            plots: PlotSettings::default(),
            central: CentralView::default(),
            language: None,
            progress: Default::default(),
            packs: Vec::new(),
            presenter_packs: Default::default(),
            student_name: String::new(),
            saved_experiment: None,
        }
    }
}

/// Which panels are shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Layout {
    pub model_editor: bool,
    pub lesson: bool,
    pub plots: bool,
    pub attention: bool,
}

impl Default for Layout {
    fn default() -> Self {
        Self {
            model_editor: true,
            lesson: true,
            plots: true,
            attention: true,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PlotSettings {
    pub log_scale: bool,
    /// EMA factor, 0 = raw.
    pub smoothing: f32,
    /// Which charts are shown, by name (see `plots_panel::CHARTS`).
    pub shown: std::collections::BTreeSet<String>,
}

impl Default for PlotSettings {
    fn default() -> Self {
        Self {
            log_scale: true,
            smoothing: 0.6,
            shown: ["loss", "accuracy", "gradient norm per layer"].map(String::from).into(),
        }
    }
}

/// The key eframe stores the state under.
pub const STORAGE_KEY: &str = "attention-workbench-state";

impl PersistedState {
    pub fn to_stored(&self) -> String {
        serde_json::to_string(self).expect("state serialises")
    }

    /// Parse a stored state; what cannot be read gives the defaults.
    pub fn from_stored(text: &str) -> Self {
        Self::from_stored_keeping(text).0
    }

    /// Parse a stored state part by part: each top-level part that reads is kept
    /// (lesson progress survives a renamed knob in the experiment), and the names
    /// of the parts that were dropped come back so the window can say so once.
    pub fn from_stored_keeping(text: &str) -> (Self, Vec<String>) {
        use serde_json::Value;
        let Ok(Value::Object(stored)) = serde_json::from_str::<Value>(text) else {
            return (Self::default(), vec!["everything (the saved state is not readable JSON)".to_string()]);
        };
        let Ok(Value::Object(mut kept)) = serde_json::to_value(Self::default()) else {
            return (Self::default(), Vec::new());
        };
        let mut dropped = Vec::new();
        // Before progress was kept by id: solved bug-hunt cases carry over (their
        // ids did not change); check ticks were kept by line and cannot.
        let old_solved: Vec<String> = stored.get("solved_bugs").and_then(|v| v.as_array()).map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect()).unwrap_or_default();
        if stored.get("lesson_progress").and_then(|v| v.as_object()).is_some_and(|m| !m.is_empty()) && !stored.contains_key("progress") {
            dropped.push("lesson_progress (ticks from before checks had ids)".to_string());
        }
        for (part, value) in stored {
            if !kept.contains_key(&part) {
                continue; // a part this version no longer has
            }
            let mut trial = kept.clone();
            trial.insert(part.clone(), value);
            if serde_json::from_value::<Self>(Value::Object(trial.clone())).is_ok() {
                kept = trial;
            } else {
                dropped.push(part);
            }
        }
        let mut state: Self = serde_json::from_value(Value::Object(kept)).unwrap_or_default();
        for case in old_solved {
            state.progress.solve_bug(&case, crate::progress::now());
        }
        (state, dropped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_round_trips_and_damaged_saves_fall_back() {
        let mut state = PersistedState::default();
        state.layout.plots = false;
        state.config.model.d_model = 32;
        state.probe_text = "a b |".into();
        assert_eq!(PersistedState::from_stored(&state.to_stored()), state);
        assert_eq!(PersistedState::from_stored("{ broken"), PersistedState::default());
        // a save from an older version without some fields still loads
        // One unreadable part (a knob renamed inside the experiment) drops that part
        // only: lesson progress and solved bugs survive, and the part is named.
        let mut progress = PersistedState::default();
        progress.progress.solve_bug("inverted", 9);
        progress.progress.pass_check("01-why-attention", "learns", 10);
        let mut stored: serde_json::Value = serde_json::from_str(&progress.to_stored()).unwrap();
        stored["config"]["model"]["renamed_knob"] = serde_json::json!(3);
        stored["dark_mode"] = serde_json::json!("not a bool");
        let (kept, dropped) = PersistedState::from_stored_keeping(&stored.to_string());
        assert_eq!(kept.progress, progress.progress);
        assert_eq!(kept.config, PersistedState::default().config, "the unreadable experiment falls back");
        let mut dropped = dropped;
        dropped.sort();
        assert_eq!(dropped, ["config", "dark_mode"]);
        let (old, dropped) = PersistedState::from_stored_keeping(r#"{"solved_bugs": ["inverted"], "lesson_progress": {"01-why-attention": [55]}}"#);
        assert!(old.progress.bugs_solved.contains_key("inverted"), "solved cases from before ids carry over");
        assert_eq!(dropped.len(), 1, "line-keyed ticks are named as dropped: {dropped:?}");
        let partial = PersistedState::from_stored(r#"{"dark_mode": false}"#);
        assert!(!partial.dark_mode);
        assert!(partial.layout.attention);
    }
}
