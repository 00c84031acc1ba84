//! The checkpoint's tokenizer, through Hugging Face's own `tokenizers` crate:
//! `tokenizer.json` when the folder has one, else BERT's `vocab.txt` (WordPiece)
//! or GPT-2's `vocab.json` + `merges.txt` (byte-level BPE), built the way
//! `transformers` builds them.

use crate::t;
use std::path::Path;

use tokenizers::Tokenizer;

use super::error::OpenError;
use super::hf_config::Architecture;

/// A tokenizer and the special tokens the views need.
pub struct TextTokenizer {
    inner: Inner,
    /// Which file it came from (for messages and the window's caption).
    pub source: String,
    /// The token that pads a shorter sentence: `[PAD]`, or GPT-2's `<|endoftext|>`.
    pub pad: (u32, String),
    /// BERT's `[MASK]`.
    pub mask: Option<(u32, String)>,
}

/// Hugging Face's tokenizer, or a workbench task's own vocabulary (characters for
/// the character models).
enum Inner {
    Hf(Tokenizer),
    Task(crate::tasks::Vocab),
}

/// One sentence, tokenized.
#[derive(Clone, Debug, PartialEq)]
pub struct Encoded {
    pub ids: Vec<u32>,
    pub tokens: Vec<String>,
    /// How many tokens were cut to fit the model's positions (0 = none).
    pub truncated: usize,
}

impl TextTokenizer {
    /// A Hugging Face folder's tokenizer (BERT's or GPT-2's).
    pub fn load(dir: &Path, architecture: Architecture) -> Result<Self, OpenError> {
        let json = dir.join("tokenizer.json");
        let (inner, source) = if json.is_file() {
            let inner = Tokenizer::from_file(&json).map_err(|e| OpenError::new(&json, t!("msg-pretrained-bad-tokenizer", why = e.to_string())))?;
            (inner, json)
        } else {
            match architecture {
                Architecture::Bert => (word_piece(dir)?, dir.join("vocab.txt")),
                Architecture::Gpt2 | Architecture::Workbench => (byte_level_bpe(dir)?, dir.join("vocab.json")),
            }
        };
        let source_name = source.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let special = |token: &str| inner.token_to_id(token).map(|id| (id, token.to_string()));
        let pad = match architecture {
            Architecture::Bert => special("[PAD]"),
            Architecture::Gpt2 | Architecture::Workbench => special("<|endoftext|>"),
        };
        let Some(pad) = pad else {
            let token = if architecture == Architecture::Bert { "[PAD]" } else { "<|endoftext|>" };
            return Err(OpenError::new(&source, t!("msg-pretrained-no-special", token = token)));
        };
        let mask = if architecture == Architecture::Bert { special("[MASK]") } else { None };
        Ok(Self { inner: Inner::Hf(inner), source: source_name, pad, mask })
    }

    /// A workbench run's tokenizer: its task's vocabulary (one token per character
    /// for the character models); a task without padding pads with token 0.
    pub fn of_task(vocab: crate::tasks::Vocab) -> Self {
        let pad = vocab.pad().unwrap_or(0);
        let label = vocab.label(pad).to_string();
        Self { inner: Inner::Task(vocab), source: "config.json (task)".into(), pad: (pad, label), mask: None }
    }

    /// Token ids past the model's table cannot be looked up: the tokenizer belongs
    /// to another model.
    pub fn check_vocab(&self, vocab_size: usize, file: &Path) -> Result<(), OpenError> {
        let (size, largest) = match &self.inner {
            Inner::Hf(t) => (t.get_vocab_size(true), t.get_vocab(true).values().copied().max().unwrap_or(0) as usize),
            Inner::Task(v) => (v.len(), v.len().saturating_sub(1)),
        };
        if largest >= vocab_size {
            return Err(OpenError::new(file, t!("msg-pretrained-vocab-mismatch", tokenizer = size, source = self.source.as_str(), model = vocab_size)));
        }
        Ok(())
    }

    /// Tokenize one sentence with the model's special tokens, cut to `max_len`.
    pub fn encode(&self, text: &str, max_len: usize) -> Result<Encoded, String> {
        let (mut ids, mut tokens) = match &self.inner {
            Inner::Hf(t) => {
                let encoding = t.encode(text, true).map_err(|e| e.to_string())?;
                if encoding.get_ids().len() > max_len {
                    // Cut as transformers' truncation=True does: the text, never
                    // the special tokens around it ([CLS] … [SEP] stay).
                    let mut cutting = t.clone();
                    let params = tokenizers::TruncationParams { max_length: max_len, ..Default::default() };
                    cutting.with_truncation(Some(params)).map_err(|e| e.to_string())?;
                    let cut = cutting.encode(text, true).map_err(|e| e.to_string())?;
                    let truncated = encoding.get_ids().len() - cut.get_ids().len();
                    return Ok(Encoded { ids: cut.get_ids().to_vec(), tokens: cut.get_tokens().to_vec(), truncated });
                }
                (encoding.get_ids().to_vec(), encoding.get_tokens().to_vec())
            }
            Inner::Task(v) => {
                let ids = v.parse(text)?;
                let tokens = v.render(&ids);
                (ids, tokens)
            }
        };
        let truncated = ids.len().saturating_sub(max_len);
        ids.truncate(max_len);
        tokens.truncate(max_len);
        Ok(Encoded { ids, tokens, truncated })
    }

    /// The text of one token id (for predictions).
    pub fn token(&self, id: u32) -> String {
        match &self.inner {
            Inner::Hf(t) => t.id_to_token(id).unwrap_or_else(|| format!("#{id}")),
            Inner::Task(v) => v.label(id).to_string(),
        }
    }

    /// Decoded text of ids (GPT-2's continuation).
    pub fn decode(&self, ids: &[u32]) -> String {
        match &self.inner {
            Inner::Hf(t) => t.decode(ids, false).unwrap_or_default(),
            Inner::Task(v) => v.text(ids),
        }
    }
}

/// BERT's tokenizer from `vocab.txt`: normalise (lower-casing as
/// `tokenizer_config.json` says, default on; CJK characters split apart), split on
/// spaces and punctuation, WordPiece, then `[CLS] … [SEP]`.
fn word_piece(dir: &Path) -> Result<Tokenizer, OpenError> {
    use tokenizers::models::wordpiece::WordPiece;
    use tokenizers::normalizers::bert::BertNormalizer;
    use tokenizers::pre_tokenizers::bert::BertPreTokenizer;
    use tokenizers::processors::bert::BertProcessing;
    let vocab = dir.join("vocab.txt");
    if !vocab.is_file() {
        return Err(OpenError::new(dir, t!("msg-pretrained-no-tokenizer")));
    }
    let model = WordPiece::from_file(&vocab.to_string_lossy()).unk_token("[UNK]".into()).build().map_err(|e| OpenError::new(&vocab, t!("msg-pretrained-bad-tokenizer", why = e.to_string())))?;
    let lowercase = tokenizer_config_flag(dir, "do_lower_case").unwrap_or(true);
    let mut tokenizer = Tokenizer::new(model);
    let id = |t: &Tokenizer, token: &str| t.token_to_id(token).ok_or_else(|| OpenError::new(&vocab, t!("msg-pretrained-no-special", token = token)));
    let (cls, sep) = (id(&tokenizer, "[CLS]")?, id(&tokenizer, "[SEP]")?);
    tokenizer
        .with_normalizer(Some(BertNormalizer::new(true, true, None, lowercase)))
        .with_pre_tokenizer(Some(BertPreTokenizer))
        .with_post_processor(Some(BertProcessing::new(("[SEP]".into(), sep), ("[CLS]".into(), cls))))
        .with_decoder(Some(tokenizers::decoders::wordpiece::WordPiece::default()));
    Ok(tokenizer)
}

/// GPT-2's byte-level BPE from `vocab.json` and `merges.txt` (no special tokens added).
fn byte_level_bpe(dir: &Path) -> Result<Tokenizer, OpenError> {
    use tokenizers::models::bpe::BPE;
    use tokenizers::pre_tokenizers::byte_level::ByteLevel;
    let (vocab, merges) = (dir.join("vocab.json"), dir.join("merges.txt"));
    if !vocab.is_file() || !merges.is_file() {
        return Err(OpenError::new(dir, t!("msg-pretrained-no-tokenizer")));
    }
    let both = dir.join("vocab.json + merges.txt");
    let model = BPE::from_file(&vocab.to_string_lossy(), &merges.to_string_lossy()).build().map_err(|e| OpenError::new(&both, t!("msg-pretrained-bad-tokenizer", why = e.to_string())))?;
    let mut tokenizer = Tokenizer::new(model);
    tokenizer
        .with_pre_tokenizer(Some(ByteLevel::default().add_prefix_space(false)))
        .with_post_processor(Some(ByteLevel::default().trim_offsets(false)))
        .with_decoder(Some(ByteLevel::default()));
    Ok(tokenizer)
}

/// A boolean of `tokenizer_config.json`, when the file and the key are there.
fn tokenizer_config_flag(dir: &Path, key: &str) -> Option<bool> {
    let text = std::fs::read_to_string(dir.join("tokenizer_config.json")).ok()?;
    serde_json::from_str::<serde_json::Value>(&text).ok()?.get(key)?.as_bool()
}
