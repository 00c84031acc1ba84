//! Character-level language modelling over a small text: predict every next
//! character of a window. The last tenth of the text is held out for evaluation.

use super::vocab::char_label;
use super::{Example, Rng, Split, Task, TaskError, TaskKind, Vocab};
use crate::t;

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
        match builtin_corpus(corpus) {
            Some(text) => Self::from_text(corpus, text, window),
            None => Self::from_text(corpus, &read_text_file_once(corpus)?, window),
        }
    }

    pub fn from_text(name: &str, text: &str, window: usize) -> Result<Self, TaskError> {
        let chars: Vec<char> = text.chars().collect();
        let alphabet = sorted_alphabet(&chars);
        let eval_start = chars.len() * 9 / 10;
        let needed = 10 * (window + 1);
        if chars.len() < needed {
            return Err(TaskError::Corpus {
                path: name.to_string(),
                why: t!("msg-corpus-too-short", chars = chars.len(), window = window, needed = needed),
            });
        }
        // An ASCII character's id from a table; any other's by a search.
        let mut ascii_ids = [u32::MAX; 128];
        for (id, &c) in alphabet.iter().enumerate().take_while(|(_, c)| c.is_ascii()) {
            ascii_ids[c as usize] = id as u32;
        }
        let ids: Vec<u32> = chars
            .iter()
            .map(|&c| match c.is_ascii() {
                true => ascii_ids[c as usize],
                false => alphabet.binary_search(&c).expect("char in alphabet") as u32,
            })
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

/// The distinct characters of `chars`, in code-point order: ASCII marked in a table, the rest
/// in a set (sorting a copy of the whole text took 1.3% of lesson 21's claims,
/// which build the task once per run).
fn sorted_alphabet(chars: &[char]) -> Vec<char> {
    let mut ascii = [false; 128];
    let mut others = std::collections::BTreeSet::new();
    for &c in chars {
        match c.is_ascii() {
            true => ascii[c as usize] = true,
            false => {
                others.insert(c);
            }
        }
    }
    (0..128u8).filter(|&b| ascii[b as usize]).map(char::from).chain(others).collect()
}

/// A learner's text file, read again only when its path, size or modification time
/// changes (the editor validates, and the trainer builds, the same task often).
/// A file modified within `RACY` of being read is read again every time, as git
/// does: a same-size rewrite inside one tick of the file system's clock (a few
/// milliseconds here, two seconds on FAT) would otherwise keep the old text.
fn read_text_file_once(path: &str) -> Result<std::sync::Arc<String>, TaskError> {
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, SystemTime};
    const RACY: Duration = Duration::from_secs(3);
    type Kept = (String, (u64, SystemTime), Arc<String>);
    static LAST: Mutex<Option<Kept>> = Mutex::new(None);
    let lock = || LAST.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let stamp = std::fs::metadata(path).ok().and_then(|m| Some((m.len(), m.modified().ok()?)));
    if let (Some(stamp), Some((kept_path, kept_stamp, text))) = (stamp, lock().as_ref())
        && kept_path == path
        && *kept_stamp == stamp
    {
        return Ok(text.clone());
    }
    // Read without holding the lock: the window's validation never waits on the
    // trainer's read.
    let read_at = SystemTime::now();
    let text = Arc::new(read_text_file(path)?);
    let settled = stamp.filter(|(_, modified)| read_at.duration_since(*modified).is_ok_and(|age| age > RACY));
    *lock() = settled.map(|stamp| (path.to_string(), stamp, text.clone()));
    Ok(text)
}

/// A learner's text file, with a reason in words when it is not usable text.
fn read_text_file(path: &str) -> Result<String, TaskError> {
    let fail = |why: String| TaskError::Corpus { path: path.to_string(), why };
    let bytes = std::fs::read(path).map_err(|e| {
        fail(t!("msg-corpus-unreadable", error = e.to_string()))
    })?;
    if bytes.is_empty() {
        return Err(fail(t!("msg-corpus-empty")));
    }
    if bytes.contains(&0) {
        return Err(fail(t!("msg-corpus-binary")));
    }
    String::from_utf8(bytes).map_err(|e| {
        fail(t!("msg-corpus-not-utf8", position = e.utf8_error().valid_up_to()))
    })
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
        // The held-out tail's first half validates, its second half tests.
        let middle = self.eval_start + (self.text.len() - self.eval_start) / 2;
        let (start, end) = match split {
            Split::Train => (0, self.eval_start),
            Split::Eval => (self.eval_start, self.text.len()),
            Split::Validation => (self.eval_start, middle),
            Split::Test => (middle, self.text.len()),
        };
        // A window starts inside its part; in a very short corpus a validation
        // window may run on into the test half.
        let starts = (end - start).saturating_sub(self.window) + 1;
        let offset = (start + rng.below(starts)).min(self.text.len() - self.window);
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

    /// Every corpus's ids are the places of its characters in the sorted list of
    /// distinct characters (ASCII and not), as sorting the whole text gives it.
    #[test]
    fn ids_are_places_in_the_sorted_alphabet() {
        let mixed = "注意力 is all you need: 注意, attention! é ü 𝛼 ~\x7f".repeat(20);
        for (name, text) in BUILTIN_CORPORA.iter().copied().chain([("mixed", mixed.as_str())]) {
            let chars: Vec<char> = text.chars().collect();
            let mut sorted = chars.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted_alphabet(&chars), sorted, "{name}");
            let task = CharLmTask::from_text(name, text, 8).unwrap();
            assert!(task.text.iter().zip(&chars).all(|(&id, c)| sorted[id as usize] == *c), "{name}");
            assert_eq!(task.text.len(), chars.len(), "{name}");
        }
    }

    #[test]
    fn a_text_file_is_read_again_only_when_it_changes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mine.txt");
        let name = path.to_str().unwrap().to_string();
        let text = "the cat sat on the mat. ".repeat(40);
        let mut binary = text.clone().into_bytes();
        binary[5] = 0;
        let set_time = |at: std::time::SystemTime| std::fs::File::options().write(true).open(&path).unwrap().set_modified(at).unwrap();
        let a_minute_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
        // Written a minute ago: kept once read. The same size and time with other
        // bytes is then not read again.
        std::fs::write(&path, &text).unwrap();
        set_time(a_minute_ago);
        assert!(CharLmTask::load(&name, 8).is_ok());
        std::fs::write(&path, &binary).unwrap();
        set_time(a_minute_ago);
        assert!(CharLmTask::load(&name, 8).is_ok(), "an unchanged file is not read again");
        // A new modification time: read again, and now refused.
        set_time(a_minute_ago + std::time::Duration::from_secs(5));
        let err = CharLmTask::load(&name, 8).err().expect("the changed file is read again").to_string();
        assert!(err.contains("binary"), "{err}");
        // Written just now: a same-size rewrite within the file system's clock tick
        // (here: the same time set again) is still seen, because a fresh file is
        // never kept.
        std::fs::write(&path, &text).unwrap();
        let now = std::fs::metadata(&path).unwrap().modified().unwrap();
        assert!(CharLmTask::load(&name, 8).is_ok());
        std::fs::write(&path, &binary).unwrap();
        set_time(now);
        assert!(CharLmTask::load(&name, 8).is_err(), "a file modified just now is read again");
    }

    #[test]
    fn a_short_or_missing_corpus_is_a_clear_error() {
        let err = CharLmTask::from_text("tiny.txt", "abc", 32).err().unwrap().to_string();
        assert!(err.contains("tiny.txt") && err.contains("characters"), "{err}");
        let err = CharLmTask::load("/no/such/file.txt", 8).err().unwrap().to_string();
        assert!(err.contains("/no/such/file.txt"), "{err}");
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, bytes: &[u8]| {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            path.to_str().unwrap().to_string()
        };
        let cases = [
            (write("empty.txt", b""), "is empty"),
            (write("image.png", &[0x89, b'P', b'N', b'G', 0, 0, 0, 13]), "binary"),
            (write("latin1.txt", &[b'c', b'a', b'f', 0xe9, b' ', b'x']), "not UTF-8"),
        ];
        for (path, why) in cases {
            let err = CharLmTask::load(&path, 8).err().unwrap().to_string();
            assert!(err.contains(&path) && err.contains(why), "{err}");
        }
    }
}
