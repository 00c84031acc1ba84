//! Word order: `cat chases dog ? → cat`. The answer is whoever does the chasing,
//! which only word order tells: without positions, "cat chases dog" and
//! "dog chases cat" are the same bag of tokens.

use super::{Example, Rng, Task, TaskKind, Vocab};

pub const NOUNS: [&str; 12] = [
    "cat", "dog", "fox", "owl", "bee", "ant", "cow", "pig", "hen", "rat", "bat", "elk",
];
const VERBS: [&str; 4] = ["chases", "sees", "bites", "helps"];

pub struct WordOrderTask {
    nouns: usize,
    vocab: Vocab,
}

impl WordOrderTask {
    pub fn new(nouns: usize) -> Self {
        let mut labels: Vec<String> = NOUNS[..nouns].iter().map(|s| s.to_string()).collect();
        labels.extend(VERBS.iter().map(|s| s.to_string()));
        labels.push("?".to_string());
        Self {
            nouns,
            vocab: Vocab::new(labels),
        }
    }
}

impl Task for WordOrderTask {
    fn kind(&self) -> TaskKind {
        TaskKind::WordOrder
    }

    fn vocab(&self) -> &Vocab {
        &self.vocab
    }

    fn seq_len(&self) -> usize {
        4
    }

    fn draw(&self, rng: &mut Rng) -> Example {
        let subject = rng.below(self.nouns);
        let object = (subject + 1 + rng.below(self.nouns - 1)) % self.nouns;
        let verb = self.nouns + rng.below(VERBS.len());
        let question = self.nouns + VERBS.len();
        let prompt = [subject, verb, object, question].map(|t| t as u32);
        Example::question(prompt.to_vec(), subject as u32)
    }

    fn probe(&self) -> Example {
        // "cat chases dog ?" → cat
        Example::question(vec![0, self.nouns as u32, 1, (self.nouns + VERBS.len()) as u32], 0)
    }
}
