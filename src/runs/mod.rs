//! Run folders: one folder per saved run, holding
//!
//! - `config.json`  the `ExperimentConfig` (the source of truth for the architecture)
//! - `weights.bpk`  the weights, in burn's burnpack format
//! - `metrics.json` every step's and evaluation's metrics
//! - `run.json`     what saved it, at which step, on which backend
//!
//! Every file is written to a temporary name and renamed into place, so a crash
//! mid-save never leaves a half-written file behind. Loading checks each file and
//! names the file and the problem; nothing here panics on bad input.

mod atomic;
mod history;
mod swap;
mod weights;

pub use atomic::write_atomic;
pub use history::{EvalRecord, MetricsHistory, StepRecord};
pub use weights::load as read_weights;

use std::path::{Path, PathBuf};

use burn::module::Module;
use serde::{Deserialize, Serialize};

use crate::config::ExperimentConfig;
use crate::t;
use crate::model::Transformer;

pub const CONFIG_FILE: &str = "config.json";
pub const WEIGHTS_FILE: &str = "weights.bpk";
pub const METRICS_FILE: &str = "metrics.json";
pub const RUN_FILE: &str = "run.json";

/// What `run.json` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    pub format: String,
    pub version: u32,
    pub step: usize,
    pub parameters: usize,
    pub backend: String,
    pub saved_unix_secs: u64,
}

const FORMAT: &str = "attention-workbench run";

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("{}", not_a_run_folder(.0))]
    NotAFolder(PathBuf),
    #[error("{path}: {why}")]
    File { path: PathBuf, why: String },
    /// The config file reads but describes an experiment that cannot be built.
    #[error("{path}: {why}")]
    Config { path: PathBuf, why: String },
    #[error("{}", weights_mismatch(.path, .why))]
    Mismatch { path: PathBuf, why: String },
}

fn not_a_run_folder(path: &Path) -> String {
    format!("{}: {}", path.display(), t!("err-run-not-a-folder"))
}

fn weights_mismatch(path: &Path, why: &str) -> String {
    format!("{}: {}", path.display(), t!("err-run-weights-mismatch", why = why))
}

fn file_error(path: &Path, why: impl Into<String>) -> RunError {
    RunError::File {
        path: path.to_path_buf(),
        why: why.into(),
    }
}

/// What a run folder holds, as plain parts (the training side hands these over).
pub struct RunParts<'a> {
    pub config: &'a ExperimentConfig,
    pub history: &'a MetricsHistory,
    pub model: &'a Transformer,
    pub step: usize,
    pub parameters: usize,
    /// The backend that trained it, e.g. "cpu (flex)".
    pub backend: &'a str,
}

/// The files of a run folder, `RUN_FILE` written last.
const LAYOUT: swap::Layout = swap::Layout { files: &[CONFIG_FILE, WEIGHTS_FILE, METRICS_FILE, RUN_FILE], last: RUN_FILE };

/// Save a run folder. A kill at any moment leaves the old run or the new one in
/// `dir`, never a mix (see `swap.rs`).
pub fn save_run(dir: &Path, run: &RunParts) -> Result<(), RunError> {
    let io_error = |path: &Path, e: std::io::Error| file_error(path, t!("err-run-cannot-create-folder", why = e.to_string()));
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| io_error(parent, e))?;
    }
    swap::save_folder(dir, &LAYOUT, |folder| write_run_files(folder, run), io_error)
}

fn write_run_files(dir: &Path, run: &RunParts) -> Result<(), RunError> {
    write_json(&dir.join(CONFIG_FILE), run.config)?;
    write_json(&dir.join(METRICS_FILE), run.history)?;
    weights::save(&dir.join(WEIGHTS_FILE), run.model.valid())?;
    let info = RunInfo {
        format: FORMAT.to_string(),
        version: 1,
        step: run.step,
        parameters: run.parameters,
        backend: run.backend.to_string(),
        saved_unix_secs: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
    };
    write_json(&dir.join(RUN_FILE), &info)
}

fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<(), RunError> {
    let text = serde_json::to_string_pretty(value).expect("plain data serialises");
    write_atomic(path, text.as_bytes()).map_err(|e| file_error(path, e.to_string()))
}

/// A run folder with its config read. The training side builds the experiment
/// from the config (whose problems it names), then reads the metrics and the weights
/// into the model it built (`read_weights`).
pub struct StoredRun {
    pub config: ExperimentConfig,
    pub config_path: PathBuf,
    pub metrics_path: PathBuf,
    pub weights_path: PathBuf,
}

/// Read a run folder's config.
pub fn read_run(dir: &Path) -> Result<StoredRun, RunError> {
    swap::recover_folder(dir, &LAYOUT);
    if !dir.is_dir() {
        return Err(RunError::NotAFolder(dir.to_path_buf()));
    }
    let config_path = dir.join(CONFIG_FILE);
    let config: ExperimentConfig = read_json(&config_path)?;
    Ok(StoredRun { config, config_path, metrics_path: dir.join(METRICS_FILE), weights_path: dir.join(WEIGHTS_FILE) })
}

impl StoredRun {
    /// The run's metrics (a folder without them has none yet).
    pub fn read_history(&self) -> Result<MetricsHistory, RunError> {
        if self.metrics_path.exists() { read_json(&self.metrics_path) } else { Ok(MetricsHistory::default()) }
    }
}

/// Read the config of a run folder (or an experiment file) with file-named errors.
pub fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, RunError> {
    let text = std::fs::read_to_string(path).map_err(|e| file_error(path, t!("err-cannot-read", why = e.to_string())))?;
    parse_json(&text).map_err(|why| file_error(path, why))
}

/// Parse JSON; the error names the field path (e.g. `model.layers[0].heads`), the
/// problem, and the line and column.
pub fn parse_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut deserializer).map_err(|err| {
        let field = err.path().to_string();
        let inner = err.into_inner();
        if field.is_empty() || field == "." || field == "?" {
            t!("err-run-invalid-json", why = inner.to_string())
        } else {
            format!("{field}: {inner}")
        }
    })
}

/// Every step and evaluation as CSV: `step,loss,accuracy,lr,grad_norm,eval_loss,eval_accuracy,eval_sequence_accuracy`
/// (eval columns are empty on steps without an evaluation).
pub fn metrics_csv(history: &MetricsHistory) -> String {
    let mut out = csv::Writer::from_writer(Vec::new());
    let header = ["step", "loss", "accuracy", "lr", "grad_norm", "eval_loss", "eval_accuracy", "eval_sequence_accuracy"];
    out.write_record(header).expect("a CSV row into memory");
    let mut evals = history.evals.iter().peekable();
    for s in &history.steps {
        let eval = evals.next_if(|e| e.step == s.step);
        let cell = |v: Option<f32>| v.map_or(String::new(), |v| v.to_string());
        out.write_record([
            s.step.to_string(),
            s.loss.to_string(),
            s.accuracy.to_string(),
            s.lr.to_string(),
            s.grad_norm.to_string(),
            cell(eval.map(|e| e.loss)),
            cell(eval.map(|e| e.accuracy)),
            cell(eval.map(|e| e.sequence_accuracy)),
        ])
        .expect("a CSV row into memory");
    }
    String::from_utf8(out.into_inner().expect("CSV into memory")).expect("numbers are UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_csv_has_a_row_per_step_and_eval_columns_where_evaluated() {
        let step = |n| StepRecord { step: n, loss: 1.0 / n as f32, accuracy: 0.5, lr: 0.001, grad_norm: 2.0 };
        let history = MetricsHistory {
            steps: vec![step(1), step(2)],
            evals: vec![EvalRecord { step: 2, loss: 0.4, accuracy: 0.9, sequence_accuracy: 0.25 }],
        };
        let csv = metrics_csv(&history);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[0].starts_with("step,loss"));
        assert_eq!(lines[1], "1,1,0.5,0.001,2,,,");
        assert_eq!(lines[2], "2,0.5,0.5,0.001,2,0.4,0.9,0.25");
    }
}
