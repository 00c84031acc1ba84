//! Word order: `cat chases dog ? → cat`. The answer is whoever does the chasing,
//! which only word order tells: without positions, "cat chases dog" and
//! "dog chases cat" are the same bag of tokens.

use super::{Example, Rng, Split, Task, TaskKind, Vocab};

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
        5
    }

    fn example(&self, rng: &mut Rng, _split: Split) -> Example {
        let subject = rng.below(self.nouns);
        let object = (subject + 1 + rng.below(self.nouns - 1)) % self.nouns;
        let verb = self.nouns + rng.below(VERBS.len());
        let question = self.nouns + VERBS.len();
        let sequence = [subject, verb, object, question, subject].map(|t| t as u32);
        Example::next_token(sequence.to_vec(), 4)
    }

    fn probe(&self) -> Example {
        // "cat chases dog ?"
        Example::next_token(vec![0, self.nouns as u32, 1, (self.nouns + 4) as u32, 0], 4)
    }
}
