//! A checkpoint's safetensors weights put into the workbench's own model, through
//! burn-store: its key remapping renames Hugging Face's tensors to the model's
//! module paths, its PyTorch adapter turns `nn.Linear`'s `[out, in]` into burn's
//! `[in, out]` (BERT; GPT-2's Conv1D is stored `[in, out]` already) and LayerNorm's
//! weight/bias into gamma/beta, and a cast makes f16 and bf16 weights f32. GPT-2's
//! fused query-key-value matrix (`c_attn`) is split by hand into the three.
//!
//! Every tensor's shape is checked against the config first, so a mismatch names
//! the tensor in the file and both shapes.

use crate::t;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use burn::module::Param;
use burn::tensor::{DType, Device, Tensor, TensorData};
use burn_store::{FloatCastAdapter, KeyRemapper, ModuleAdapter, ModuleStore, PyTorchToBurnAdapter, SafetensorsStore};
use regex::Regex;

use super::error::OpenError;
use super::hf_config::Architecture;
use crate::model::Transformer;

/// One renaming: Hugging Face's name (without the `bert.` / `transformer.` prefix)
/// and the model's path; `{n}` stands for a layer number.
type Rule = (&'static str, &'static str);

const BERT_RULES: &[Rule] = &[
    ("embeddings.word_embeddings.weight", "tok_emb"),
    ("embeddings.position_embeddings.weight", "pos_emb"),
    ("embeddings.token_type_embeddings.weight", "type_emb"),
    ("embeddings.LayerNorm.", "emb_norm."),
    ("encoder.layer.{n}.attention.self.query.", "layers.{n}.attention.wq."),
    ("encoder.layer.{n}.attention.self.key.", "layers.{n}.attention.wk."),
    ("encoder.layer.{n}.attention.self.value.", "layers.{n}.attention.wv."),
    ("encoder.layer.{n}.attention.output.dense.", "layers.{n}.attention.wo."),
    ("encoder.layer.{n}.attention.output.LayerNorm.", "layers.{n}.attention_norm."),
    ("encoder.layer.{n}.intermediate.dense.", "layers.{n}.ffn.up."),
    ("encoder.layer.{n}.output.dense.", "layers.{n}.ffn.down."),
    ("encoder.layer.{n}.output.LayerNorm.", "layers.{n}.ffn_norm."),
    ("cls.predictions.transform.dense.", "head_transform.dense."),
    ("cls.predictions.transform.LayerNorm.", "head_transform.norm."),
    ("cls.predictions.bias", "head_bias"),
];

const GPT2_RULES: &[Rule] = &[
    ("wte.weight", "tok_emb"),
    ("wpe.weight", "pos_emb"),
    ("h.{n}.ln_1.weight", "layers.{n}.attention_norm.gamma"),
    ("h.{n}.ln_1.bias", "layers.{n}.attention_norm.beta"),
    ("h.{n}.attn.c_proj.", "layers.{n}.attention.wo."),
    ("h.{n}.ln_2.weight", "layers.{n}.ffn_norm.gamma"),
    ("h.{n}.ln_2.bias", "layers.{n}.ffn_norm.beta"),
    ("h.{n}.mlp.c_fc.", "layers.{n}.ffn.up."),
    ("h.{n}.mlp.c_proj.", "layers.{n}.ffn.down."),
    ("ln_f.weight", "final_norm.gamma"),
    ("ln_f.bias", "final_norm.beta"),
];

/// The renaming table of an architecture (a workbench run folder needs none; it
/// shares GPT-2's, never used, so the match stays total).
fn rules_of(architecture: Architecture) -> &'static [Rule] {
    match architecture {
        Architecture::Bert => BERT_RULES,
        Architecture::Gpt2 | Architecture::Workbench => GPT2_RULES,
    }
}

/// A template as an anchored regex and its replacement (`{n}` -> `(\d+)` / `${1}`).
/// BERT's masked-LM head (`cls.…`) sits beside the `bert.` prefix, not under it.
fn compile(from: &str, to: &str, prefix: &str) -> (Regex, String) {
    let prefix = if from.starts_with("cls.") { "" } else { prefix };
    let pattern = format!("^{}{}", regex::escape(prefix), regex::escape(from).replace(r"\{n\}", r"(\d+)"));
    let pattern = if from.ends_with('.') { pattern } else { format!("{pattern}$") };
    (Regex::new(&pattern).expect("a valid rule"), to.replace("{n}", "${1}"))
}

/// The checkpoint's tensor names, and how they map.
pub struct Naming {
    architecture: Architecture,
    /// The file that lists the tensors: `model.safetensors`, or the shards' index
    /// (named when a tensor is missing).
    pub listing: PathBuf,
    /// `bert.` / `transformer.` when the file has it (the *ForMaskedLM / *LMHeadModel classes).
    prefix: String,
    /// The rules backwards (model path -> the file's name, without the prefix),
    /// compiled once: `file_name` runs for every parameter.
    backwards: Vec<(Regex, String, &'static str)>,
}

impl Naming {
    fn rules(&self) -> &'static [Rule] {
        rules_of(self.architecture)
    }

    /// Hugging Face names to model paths, for burn-store.
    fn remapper(&self) -> KeyRemapper {
        KeyRemapper::from_compiled_patterns(self.rules().iter().map(|(from, to)| compile(from, to, &self.prefix)).collect())
    }

    /// A model path back to the name the file would use (for messages).
    pub fn file_name(&self, path: &str) -> String {
        let path = path.replace(".gamma", ".weight").replace(".beta", ".bias");
        let path = match self.architecture {
            Architecture::Gpt2 | Architecture::Workbench => path.replace(".attention.wq.", ".attention.c_attn.").replace(".attention.wk.", ".attention.c_attn.").replace(".attention.wv.", ".attention.c_attn."),
            Architecture::Bert => path,
        };
        for (to_pattern, from_replacement, from) in &self.backwards {
            if to_pattern.is_match(&path) {
                let prefix = if from.starts_with("cls.") { "" } else { self.prefix.as_str() };
                return format!("{prefix}{}", to_pattern.replace(&path, from_replacement.as_str()));
            }
        }
        if let Some(rest) = path.strip_prefix("layers.").and_then(|r| r.split_once(".attention.c_attn.")) {
            return format!("{}h.{}.attn.c_attn.{}", self.prefix, rest.0, rest.1);
        }
        format!("{}{path}", self.prefix)
    }
}

/// The safetensors files of a folder: `model.safetensors`, or the shards that
/// `model.safetensors.index.json` lists.
pub fn weight_files(dir: &Path) -> Result<Vec<PathBuf>, OpenError> {
    let single = dir.join("model.safetensors");
    if single.is_file() {
        return Ok(vec![single]);
    }
    let index = dir.join("model.safetensors.index.json");
    if !index.is_file() {
        return Err(OpenError::new(dir, t!("msg-pretrained-no-weights")));
    }
    let text = std::fs::read_to_string(&index).map_err(|e| OpenError::new(&index, e.to_string()))?;
    #[derive(serde::Deserialize)]
    struct Index {
        weight_map: BTreeMap<String, String>,
    }
    let parsed: Index = serde_json::from_str(&text).map_err(|e| OpenError::new(&index, t!("msg-pretrained-bad-json", why = e.to_string())))?;
    let mut files: Vec<PathBuf> = parsed.weight_map.values().map(|f| dir.join(f)).collect();
    files.sort();
    files.dedup();
    for file in &files {
        if !file.is_file() {
            return Err(OpenError::new(&index, t!("msg-pretrained-missing-shard", file = file.display().to_string())));
        }
    }
    Ok(files)
}

/// Every tensor's name (as stored) and shape, across the files; a file that is not
/// safetensors is named.
pub fn read_shapes(files: &[PathBuf]) -> Result<BTreeMap<String, (PathBuf, Vec<usize>, DType)>, OpenError> {
    let mut out = BTreeMap::new();
    for file in files {
        let mut store = SafetensorsStore::from_file(file);
        let tensors = store.get_all_tensors().map_err(|e| OpenError::new(file, t!("msg-pretrained-bad-safetensors", why = e.to_string())))?;
        for (name, tensor) in tensors {
            out.insert(name.clone(), (file.clone(), tensor.shape.to_vec(), tensor.dtype));
        }
    }
    Ok(out)
}

/// How the stored names are prefixed, and whether BERT's masked-LM head is there.
pub fn naming(architecture: Architecture, names: &BTreeMap<String, (PathBuf, Vec<usize>, DType)>, files: &[PathBuf]) -> Naming {
    let prefix = match architecture {
        Architecture::Bert if names.keys().any(|n| n.starts_with("bert.")) => "bert.",
        Architecture::Gpt2 if names.keys().any(|n| n.starts_with("transformer.")) => "transformer.",
        _ => "",
    };
    let listing = match files {
        [one] => one.clone(),
        _ => files.first().and_then(|f| f.parent()).map_or_else(PathBuf::new, |d| d.join("model.safetensors.index.json")),
    };
    let backwards = rules_of(architecture)
        .iter()
        .map(|(from, to)| {
            let (to_pattern, from_replacement) = compile(to, from, "");
            // Paths name LayerNorm's parameters gamma/beta; file_name asks with weight/bias.
            let to_pattern = Regex::new(&to_pattern.as_str().replace(r"\.gamma", r"\.weight").replace(r"\.beta", r"\.bias")).expect("valid");
            (to_pattern, from_replacement, *from)
        })
        .collect();
    Naming { architecture, prefix: prefix.to_string(), listing, backwards }
}

/// Fill `model` (built from the checkpoint's config) with the files' weights.
pub fn load_into(model: &mut Transformer, files: &[PathBuf], naming: &Naming, stored: &BTreeMap<String, (PathBuf, Vec<usize>, DType)>, vocab: usize, device: &Device) -> Result<(), OpenError> {
    check_shapes(model, naming, stored, vocab)?;
    for file in files {
        match naming.architecture {
            Architecture::Bert => apply_file(model, file, naming, PyTorchToBurnAdapter.chain(FloatCastAdapter::to(DType::F32)))?,
            Architecture::Gpt2 | Architecture::Workbench => apply_file(model, file, naming, FloatCastAdapter::to(DType::F32))?,
        }
    }
    if naming.architecture == Architecture::Gpt2 {
        split_fused_qkv(model, files, naming, device)?;
        // GPT-2's output layer is the token table alone: no bias.
        if let Some(bias) = model.head_bias.as_mut() {
            *bias = Param::from_data(TensorData::new(vec![0f32; vocab], [vocab]), device);
        }
    }
    Ok(())
}

/// Every tensor the model needs is in the files with the shape the config implies.
fn check_shapes(model: &Transformer, naming: &Naming, stored: &BTreeMap<String, (PathBuf, Vec<usize>, DType)>, vocab: usize) -> Result<(), OpenError> {
    let gpt2 = naming.architecture == Architecture::Gpt2;
    let d = model.config.d_model;
    for (path, shape) in crate::config::param_layout(&model.config, vocab) {
        // GPT-2's tied output has no bias, nor has BertModel's (no masked-LM head).
        if path == "head_bias" && (gpt2 || model.head_bias.is_none()) {
            continue;
        }
        let name = naming.file_name(&path);
        let expected = if gpt2 && path.contains(".attention.w") && !path.contains(".wo.") {
            // c_attn holds q, k and v side by side: [d, 3d] and [3d].
            if path.ends_with(".weight") { vec![d, 3 * d] } else { vec![3 * d] }
        } else if !gpt2 && shape.len() == 2 && path.ends_with(".weight") {
            vec![shape[1], shape[0]] // nn.Linear stores [out, in]
        } else {
            shape.clone()
        };
        let found = stored.get(&name).or_else(|| stored.get(&name.replace(".weight", ".gamma").replace(".bias", ".beta")).filter(|_| path.ends_with("gamma") || path.ends_with("beta")));
        let Some((file, found, dtype)) = found else {
            return Err(OpenError::new(&naming.listing, t!("msg-pretrained-missing-tensor", name = name, path = path)));
        };
        if *found != expected {
            return Err(OpenError::new(file, t!("msg-pretrained-shape", name = name, found = format!("{found:?}"), expected = format!("{expected:?}"))));
        }
        if !dtype.is_float() {
            return Err(OpenError::new(file, t!("msg-pretrained-dtype", name = name, dtype = format!("{dtype:?}"))));
        }
    }
    Ok(())
}

/// GPT-2's `c_attn` `[d, 3d]` (and bias `[3d]`) into the layer's wq, wk and wv `[d, d]`.
fn split_fused_qkv(model: &mut Transformer, files: &[PathBuf], naming: &Naming, device: &Device) -> Result<(), OpenError> {
    let d = model.config.d_model;
    let mut fused: BTreeMap<String, TensorData> = BTreeMap::new();
    for file in files {
        let mut store = SafetensorsStore::from_file(file);
        let tensors = store.get_all_tensors().map_err(|e| OpenError::new(file, t!("msg-pretrained-bad-safetensors", why = e.to_string())))?;
        for (name, tensor) in tensors.iter().filter(|(n, _)| n.contains(".attn.c_attn.")) {
            let data = burn_store::bridge::to_data(tensor).map_err(|e| OpenError::new(file, t!("msg-pretrained-bad-safetensors", why = e.to_string())))?;
            fused.insert(name.clone(), data.convert::<f32>());
        }
    }
    for (index, block) in model.layers.iter_mut().enumerate() {
        let Some(attention) = block.attention.as_mut() else { continue };
        let weight_name = format!("{}h.{index}.attn.c_attn.weight", naming.prefix);
        let bias_name = format!("{}h.{index}.attn.c_attn.bias", naming.prefix);
        let (Some(weight), Some(bias)) = (fused.get(&weight_name), fused.get(&bias_name)) else {
            return Err(OpenError::new(&naming.listing, t!("msg-pretrained-missing-tensor", name = weight_name, path = format!("layers.{index}.attention"))));
        };
        let weight: Vec<f32> = weight.try_to_vec::<f32>().expect("f32 after convert");
        let bias: Vec<f32> = bias.try_to_vec::<f32>().expect("f32 after convert");
        for (part, linear) in [&mut attention.wq, &mut attention.wk, &mut attention.wv].into_iter().enumerate() {
            // Columns part*d..(part+1)*d of the row-major [d, 3d] matrix.
            let w: Vec<f32> = (0..d).flat_map(|row| weight[row * 3 * d + part * d..row * 3 * d + (part + 1) * d].iter().copied()).collect();
            linear.weight = Param::from_tensor(Tensor::<2>::from_data(TensorData::new(w, [d, d]), device));
            let b = bias[part * d..(part + 1) * d].to_vec();
            linear.bias = Some(Param::from_tensor(Tensor::<1>::from_data(TensorData::new(b, [d]), device)));
        }
    }
    Ok(())
}

/// One file's tensors into the model, renamed and adapted; an error names the file.
fn apply_file(model: &mut Transformer, file: &Path, naming: &Naming, adapter: impl ModuleAdapter + 'static) -> Result<(), OpenError> {
    let mut store = SafetensorsStore::from_file(file).remap(naming.remapper()).with_from_adapter(adapter).allow_partial(true).validate(true);
    let result = store.apply_to(model).map_err(|e| OpenError::new(file, t!("msg-pretrained-bad-safetensors", why = e.to_string())))?;
    match result.errors.first() {
        Some(error) => Err(OpenError::new(file, error.to_string())),
        None => Ok(()),
    }
}
