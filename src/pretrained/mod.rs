//! Real checkpoints from disk: a Hugging Face folder (or a run folder of this
//! workbench, `run_folder`) (`config.json`,
//! `model.safetensors` or its shards, and a tokenizer) opened as the workbench's
//! own model, so every attention view works on BERT and GPT-2. Offline only:
//! nothing is ever downloaded.
//!
//! folder → `hf_config` (the knobs) → `Transformer::new` → `weights` (burn-store)
//! → `tokenize` → `inspect` (plain data for the CLI and the window).

pub mod error;
pub mod hf_config;
pub mod inspect;
pub mod tokenize;
pub mod reading;
pub mod run_folder;
pub mod weights;
pub mod worker;

use crate::t;
use std::path::{Path, PathBuf};

use burn::tensor::Device;

pub use error::OpenError;
pub use hf_config::{Architecture, CheckpointConfig};
pub use inspect::{Inspection, MaskGuess, Predictions};
pub use tokenize::TextTokenizer;

use crate::model::Transformer;

/// An opened checkpoint: its config, the workbench's model holding its weights,
/// and its tokenizer. Read-only: nothing trains it.
pub struct Pretrained {
    pub dir: PathBuf,
    pub config: CheckpointConfig,
    pub model: Transformer,
    pub tokenizer: TextTokenizer,
    /// BERT's masked-LM head is in the file (BertForMaskedLM); GPT-2's output
    /// layer is its token table, so it always predicts.
    pub has_lm_head: bool,
    pub device: Device,
}

/// The stages of opening, for a progress bar: (fraction done, what is happening).
pub type Progress<'a> = &'a mut dyn FnMut(f32, &str);

/// Open a checkpoint folder on the CPU backend.
pub fn open(dir: &Path, progress: Progress<'_>) -> Result<Pretrained, OpenError> {
    if !dir.is_dir() {
        return Err(OpenError::new(dir, t!("msg-pretrained-not-a-folder")));
    }
    if run_folder::is_run_folder(dir) {
        progress(0.3, "weights.bpk");
        let device = crate::training::backend::resolve(crate::config::BackendChoice::Cpu).device;
        let opened = run_folder::open(dir, &device)?;
        progress(1.0, "ready");
        return Ok(opened);
    }
    progress(0.05, "config.json");
    let mut config = hf_config::read(dir)?;
    let files = weights::weight_files(dir)?;
    progress(0.1, "tokenizer");
    let tokenizer = TextTokenizer::load(dir, config.architecture)?;
    tokenizer.check_vocab(config.vocab_size, &dir.join(&tokenizer.source))?;
    progress(0.2, "safetensors");
    let stored = weights::read_shapes(&files)?;
    let naming = weights::naming(config.architecture, &stored, &files);
    // BertModel has no masked-LM head: the model is built without its transform.
    let has_lm_head = match config.architecture {
        Architecture::Bert => stored.keys().any(|n| n.starts_with("cls.predictions.")),
        Architecture::Gpt2 | Architecture::Workbench => true,
    };
    config.model.head_transform = config.architecture == Architecture::Bert && has_lm_head;
    let device = crate::training::backend::resolve(crate::config::BackendChoice::Cpu).device;
    progress(0.3, "model");
    let mut model = Transformer::zeroed(&config.model, config.vocab_size, &device);
    // BertModel has no masked-LM bias either: its (unused) output is the token table alone.
    if !has_lm_head {
        model.head_bias = None;
    }
    progress(0.5, "weights");
    weights::load_into(&mut model, &files, &naming, &stored, config.vocab_size, &device)?;
    progress(1.0, "ready");
    Ok(Pretrained { dir: dir.to_path_buf(), config, model, tokenizer, has_lm_head, device })
}
