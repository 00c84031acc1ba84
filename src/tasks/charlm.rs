//! Character-level language modelling over a small text: predict every next
//! character of a window. The last tenth of the text is held out for evaluation.

use super::vocab::char_label;
use super::{Example, Rng, Split, Task, TaskError, TaskKind, Vocab};

/// The corpora shipped in `datasets/`, by name: two short texts (a few KB, for
/// lessons that train in seconds) and two of over 100 KB written for the project
/// (varied stories, letters, explanations; the shipped pretrained models learn them).
pub const BUILTIN_CORPORA: [(&str, &str); 4] = [
    ("english", include_str!("../../datasets/english.txt")),
    ("chinese", include_str!("../../datasets/chinese.txt")),
    ("english_large", include_str!("../../datasets/english_large.txt")),
    ("chinese_large", include_str!("../../datasets/chinese_large.txt")),
];

pub fn builtin_corpus(name: &str) -> Option<&'static str> {
    BUILTIN_CORPORA.iter().find(|(n, _)| *n == name).map(|(_, text)| *text)
}

pub struct CharLmTask {
    window: usize,
    /// The corpus as token ids.
    text: Vec<u32>,
    /// Index where the held-out tail starts.
    eval_start: usize,
    vocab: Vocab,
}

impl CharLmTask {
    /// Load a built-in corpus by name, or a UTF-8 text file by path.
    pub fn load(corpus: &str, window: usize) -> Result<Self, TaskError> {
        let owned;
        let text = match builtin_corpus(corpus) {
            Some(text) => text,
            None => {
                owned = std::fs::read_to_string(corpus).map_err(|e| TaskError::Corpus {
                    path: corpus.to_string(),
                    why: format!(
                        "{e} (use \"english\", \"chinese\", \"english_large\", \"chinese_large\" or the path of a UTF-8 text file)"
                    ),
                })?;
                &owned
            }
        };
        Self::from_text(corpus, text, window)
    }

    pub fn from_text(name: &str, text: &str, window: usize) -> Result<Self, TaskError> {
        let chars: Vec<char> = text.chars().collect();
        let mut alphabet: Vec<char> = chars.clone();
        alphabet.sort_unstable();
        alphabet.dedup();
        let eval_start = chars.len() * 9 / 10;
        let needed = 10 * (window + 1);
        if chars.len() < needed {
            return Err(TaskError::Corpus {
                path: name.to_string(),
                why: format!(
                    "has {} characters; a window of {window} needs at least {needed} \
                     (a tenth is held out); use a longer text or a smaller task.length",
                    chars.len()
                ),
            });
        }
        let ids: Vec<u32> = chars
            .iter()
            .map(|c| alphabet.binary_search(c).expect("char in alphabet") as u32)
            .collect();
        let labels = alphabet.iter().map(|&c| char_label(c)).collect();
        Ok(Self {
            window,
            text: ids,
            eval_start,
            vocab: Vocab::new(labels).char_level(),
        })
    }
}

impl Task for CharLmTask {
    fn kind(&self) -> TaskKind {
        TaskKind::CharLm
    }

    fn vocab(&self) -> &Vocab {
        &self.vocab
    }

    fn seq_len(&self) -> usize {
        self.window
    }

    /// A training window (the held-out tail is only reached through `example`).
    fn draw(&self, rng: &mut Rng) -> Example {
        self.example(rng, Split::Train)
    }
    fn splits_by_hash(&self) -> bool {
        false
    }
    fn example(&self, rng: &mut Rng, split: Split) -> Example {
        let (start, end) = match split {
            Split::Train => (0, self.eval_start),
            Split::Eval => (self.eval_start, self.text.len()),
        };
        let offset = start + rng.below(end - start - self.window + 1);
        Example::next_token(self.text[offset..offset + self.window].to_vec(), 1)
    }

    fn probe(&self) -> Example {
        Example::next_token(self.text[..self.window].to_vec(), 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_corpora_load_and_round_trip() {
        for (name, text) in BUILTIN_CORPORA {
            let task = CharLmTask::load(name, 32).unwrap();
            assert!(text.chars().count() > 2000, "{name} is a few KB");
            let ex = task.example(&mut Rng::new(1), Split::Eval);
            assert_eq!(ex.len(), 32);
            assert_eq!(ex.targets[..31], ex.tokens[1..]);
        }
    }

    #[test]
    fn a_short_or_missing_corpus_is_a_clear_error() {
        let err = CharLmTask::from_text("tiny.txt", "abc", 32).err().unwrap().to_string();
        assert!(err.contains("tiny.txt") && err.contains("characters"), "{err}");
        let err = CharLmTask::load("/no/such/file.txt", 8).err().unwrap().to_string();
        assert!(err.contains("/no/such/file.txt"), "{err}");
    }
}
