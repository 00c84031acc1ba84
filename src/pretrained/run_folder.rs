//! A run folder of this workbench opened like a checkpoint: the shipped character
//! models (`assets/pretrained/english`, `…/chinese`) and any saved run of the
//! decoder family, so `inspect` and the Pretrained tab read them the same way.

use std::path::Path;

use burn::tensor::Device;

use super::error::OpenError;
use super::hf_config::{Architecture, CheckpointConfig};
use super::tokenize::TextTokenizer;
use super::Pretrained;
use crate::config::{ExperimentConfig, ModelFamily};
use crate::model::Transformer;
use crate::runs::{CONFIG_FILE, WEIGHTS_FILE, read_json, read_weights};
use crate::t;

/// Whether `dir` is a workbench run folder rather than a Hugging Face one.
pub fn is_run_folder(dir: &Path) -> bool {
    dir.join(WEIGHTS_FILE).is_file()
}

pub fn open(dir: &Path, device: &Device) -> Result<Pretrained, OpenError> {
    let config_path = dir.join(CONFIG_FILE);
    let config: ExperimentConfig = read_json(&config_path).map_err(|e| OpenError::new(&config_path, e.to_string()))?;
    if config.model.family != ModelFamily::Decoder {
        return Err(OpenError::new(&config_path, t!("msg-pretrained-run-family", family = config.model.family.name())));
    }
    let task = config.task.build().map_err(|e| OpenError::new(&config_path, e.to_string()))?;
    let vocab = task.vocab().clone();
    let vocab_size = config.model_vocab_size(vocab.len());
    let template = Transformer::zeroed(&config.model, vocab_size, device);
    let weights = dir.join(WEIGHTS_FILE);
    let model = read_weights(&weights, &template).map_err(|e| OpenError::new(&weights, e.to_string()))?;
    let class = t!("msg-pretrained-run-class", task = config.task.kind.name());
    let checkpoint = CheckpointConfig { architecture: Architecture::Workbench, class, model: config.model.clone(), vocab_size };
    Ok(Pretrained { dir: dir.to_path_buf(), config: checkpoint, model, tokenizer: TextTokenizer::of_task(vocab), has_lm_head: true, device: device.clone() })
}
