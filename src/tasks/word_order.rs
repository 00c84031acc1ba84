//! Word order: `cat chases dog ? → cat`. The answer is whoever does the chasing,
//! which only word order tells: without positions, "cat chases dog" and
//! "dog chases cat" are the same bag of tokens. Also in Chinese (`猫 追 狗 ？ → 猫`),
//! where word order carries the roles just the same (Chinese has no case endings).

use super::{Example, Rng, Task, TaskKind, Vocab};

pub const NOUNS: [&str; 12] = [
    "cat", "dog", "fox", "owl", "bee", "ant", "cow", "pig", "hen", "rat", "bat", "elk",
];
const VERBS: [&str; 4] = ["chases", "sees", "bites", "helps"];

/// The same words in Chinese, one character each.
pub const NOUNS_ZH: [&str; 12] = ["猫", "狗", "狐", "鸟", "蜂", "蚁", "牛", "猪", "鸡", "鼠", "鹿", "羊"];
const VERBS_ZH: [&str; 4] = ["追", "看", "咬", "帮"];

/// Which words the task uses (`task.corpus`: "chinese" picks the Chinese ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Words {
    English,
    Chinese,
}

impl Words {
    pub fn from_corpus(corpus: &str) -> Self {
        if corpus == "chinese" { Words::Chinese } else { Words::English }
    }
}

pub struct WordOrderTask {
    nouns: usize,
    vocab: Vocab,
}

impl WordOrderTask {
    pub fn new(nouns: usize, words: Words) -> Self {
        let (noun_words, verb_words, question) = match words {
            Words::English => (&NOUNS, &VERBS, "?"),
            Words::Chinese => (&NOUNS_ZH, &VERBS_ZH, "？"),
        };
        let mut labels: Vec<String> = noun_words[..nouns].iter().map(|s| s.to_string()).collect();
        labels.extend(verb_words.iter().map(|s| s.to_string()));
        labels.push(question.to_string());
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chinese_words_ask_the_same_question() {
        let (en, zh) = (WordOrderTask::new(4, Words::English), WordOrderTask::new(4, Words::Chinese));
        assert_eq!(en.vocab().render(&en.probe().tokens), ["cat", "chases", "dog", "?"]);
        assert_eq!(zh.vocab().render(&zh.probe().tokens), ["猫", "追", "狗", "？"]);
        let (a, b) = (en.draw(&mut Rng::new(5)), zh.draw(&mut Rng::new(5)));
        assert_eq!(a.tokens, b.tokens, "the same examples, in other words");
        assert_eq!(zh.vocab().parse("狗 咬 猫 ？").unwrap().len(), 4, "typed probes use the Chinese words");
    }
}
