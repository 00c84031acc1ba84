//! translate: a toy language pair written for the workbench, so that an
//! encoder–decoder has something to align.
//!
//! The source is English-like, subject–verb–object with adjectives before their
//! noun: `big cat sees small dog and fox eats bird`. The target language puts the
//! verb at the end of each clause and the adjective after its noun, and has its own
//! word for each source word: `gato granda hundo eta vidas kaj vulpo birdo mangas`.
//! Every source word has exactly one target word, but not in the same place, so
//! the alignment (which source word each target word reads) is not the diagonal.
//!
//! Layout of one example (S = `task.length`, the longest source):
//! `· · w₁ … wₙ | t₁ … tₙ · ·`: the source padded on the left to S words (so a
//! recurrent encoder's last state comes right after the last word), the separator
//! at position S, the target after it padded on the right. Positions S … S+n-1
//! are scored: the separator predicts t₁, and so on.

use super::{Example, Rng, Task, TaskKind, Vocab};

/// Source words and their target words, by part of speech.
const NOUNS: [(&str, &str); 8] = [
    ("cat", "gato"),
    ("dog", "hundo"),
    ("fox", "vulpo"),
    ("bird", "birdo"),
    ("fish", "fiso"),
    ("bear", "urso"),
    ("frog", "rano"),
    ("mouse", "muso"),
];
const ADJECTIVES: [(&str, &str); 5] = [("big", "granda"), ("small", "eta"), ("red", "ruga"), ("old", "maljuna"), ("fast", "rapida")];
const VERBS: [(&str, &str); 5] = [("sees", "vidas"), ("eats", "mangas"), ("likes", "amas"), ("finds", "trovas"), ("chases", "casas")];
const AND: (&str, &str) = ("and", "kaj");

/// The shortest sentence: one clause without adjectives (noun verb noun).
pub const SHORTEST: usize = 3;

/// Source words of a task of `nouns` nouns: every word has a source and a target id.
pub struct TranslateTask {
    length: usize,
    nouns: usize,
    vocab: Vocab,
}

/// One word of a sentence: its part of speech and which word of that part.
#[derive(Clone, Copy, Debug)]
enum Word {
    Noun(usize),
    Adjective(usize),
    Verb(usize),
    And,
}

impl TranslateTask {
    /// Sentences of 3 to `length` source words over the first `nouns` nouns.
    pub fn new(length: usize, nouns: usize) -> Self {
        let pairs: Vec<(&str, &str)> = NOUNS[..nouns].iter().chain(&ADJECTIVES).chain(&VERBS).chain([&AND]).copied().collect();
        let mut labels: Vec<String> = pairs.iter().map(|(source, _)| source.to_string()).collect();
        labels.extend(pairs.iter().map(|(_, target)| target.to_string()));
        labels.push("|".to_string());
        Self {
            length,
            nouns,
            vocab: Vocab::new(labels).with_pad("·"),
        }
    }

    /// Words of one language: source ids come first, target ids after them.
    fn words(&self) -> usize {
        self.nouns + ADJECTIVES.len() + VERBS.len() + 1
    }

    fn source_id(&self, word: Word) -> u32 {
        (match word {
            Word::Noun(i) => i,
            Word::Adjective(i) => self.nouns + i,
            Word::Verb(i) => self.nouns + ADJECTIVES.len() + i,
            Word::And => self.words() - 1,
        }) as u32
    }

    fn target_id(&self, word: Word) -> u32 {
        self.source_id(word) + self.words() as u32
    }

    fn separator(&self) -> u32 {
        2 * self.words() as u32
    }

    /// One clause of at most `budget` (≥ 3) words, in source order, and the
    /// order the target language puts the same words in.
    fn clause(&self, rng: &mut Rng, budget: usize) -> (Vec<Word>, Vec<Word>) {
        let noun = |rng: &mut Rng| Word::Noun(rng.below(self.nouns));
        let adjective = |rng: &mut Rng| Word::Adjective(rng.below(ADJECTIVES.len()));
        let (subject, verb, object) = (noun(rng), Word::Verb(rng.below(VERBS.len())), noun(rng));
        let mut spare = budget - 3;
        let mut phrase = |rng: &mut Rng, noun: Word| {
            let with_adjective = spare > 0 && rng.chance(0.5);
            spare -= usize::from(with_adjective);
            with_adjective.then(|| adjective(rng)).map_or((vec![noun], vec![noun]), |adj| (vec![adj, noun], vec![noun, adj]))
        };
        let (subject_source, subject_target) = phrase(rng, subject);
        let (object_source, object_target) = phrase(rng, object);
        let source = [subject_source, vec![verb], object_source].concat();
        let target = [subject_target, object_target, vec![verb]].concat();
        (source, target)
    }

    /// A sentence of about `words` source words (never more), and its translation.
    fn sentence(&self, rng: &mut Rng, words: usize) -> (Vec<Word>, Vec<Word>) {
        let (mut source, mut target) = self.clause(rng, words.min(5));
        while source.len() + 1 + SHORTEST <= words {
            let budget = (words - source.len() - 1).min(5);
            let (s, t) = self.clause(rng, budget);
            source.push(Word::And);
            target.push(Word::And);
            source.extend(s);
            target.extend(t);
        }
        (source, target)
    }
}

impl Task for TranslateTask {
    fn kind(&self) -> TaskKind {
        TaskKind::Translate
    }

    fn vocab(&self) -> &Vocab {
        &self.vocab
    }

    fn seq_len(&self) -> usize {
        2 * self.length + 1
    }

    fn source_len(&self) -> Option<usize> {
        Some(self.length)
    }

    fn shortest_source(&self) -> usize {
        SHORTEST
    }

    /// A held-out sentence of about ten words (fewer when the task's sentences are
    /// shorter): long enough for the alignment to show its reordering.
    fn probe(&self) -> Example {
        let mut rng = Rng::new(0x5EED_0F_9A0BE);
        let wanted = self.length.min(10);
        let mut example = self.example(&mut rng, super::Split::Eval);
        for _ in 0..1000 {
            if self.source_words(&example.padding).is_some_and(|w| w >= wanted) {
                break;
            }
            example = self.example(&mut rng, super::Split::Eval);
        }
        example
    }

    fn alignment(&self, example: &Example) -> Option<Vec<Option<usize>>> {
        let s = self.length;
        let first = example.padding[..s].iter().position(|p| !*p)?;
        let kind = |id: u32| {
            let id = id as usize;
            if id < self.nouns {
                0
            } else if id < self.nouns + ADJECTIVES.len() {
                1
            } else if id < self.nouns + ADJECTIVES.len() + VERBS.len() {
                2
            } else {
                3
            }
        };
        // Source positions in target order: per clause, the subject's noun and
        // adjective, the object's noun and adjective, then the verb; "and" stays.
        let mut order = Vec::with_capacity(s);
        let mut clause: Vec<usize> = Vec::new();
        let flush = |clause: &mut Vec<usize>, order: &mut Vec<usize>| {
            let verb = clause.iter().position(|&p| kind(example.tokens[p]) == 2);
            if let Some(verb) = verb {
                let phrase = |part: &[usize]| -> Vec<usize> {
                    let noun = part.iter().copied().filter(|&p| kind(example.tokens[p]) == 0);
                    let adjective = part.iter().copied().filter(|&p| kind(example.tokens[p]) == 1);
                    noun.chain(adjective).collect()
                };
                order.extend(phrase(&clause[..verb]));
                order.extend(phrase(&clause[verb + 1..]));
                order.push(clause[verb]);
            }
            clause.clear();
        };
        for p in first..s {
            if kind(example.tokens[p]) == 3 {
                flush(&mut clause, &mut order);
                order.push(p);
            } else {
                clause.push(p);
            }
        }
        flush(&mut clause, &mut order);
        let mut aligned = vec![None; example.len()];
        for (j, p) in order.into_iter().enumerate() {
            aligned[s + j] = Some(p);
        }
        Some(aligned)
    }

    fn draw(&self, rng: &mut Rng) -> Example {
        let words = SHORTEST + rng.below(self.length - SHORTEST + 1);
        let (source, target) = self.sentence(rng, words);
        let source: Vec<u32> = source.into_iter().map(|w| self.source_id(w)).collect();
        let target: Vec<u32> = target.into_iter().map(|w| self.target_id(w)).collect();
        let pad = self.vocab.pad().expect("translate pads");
        seq2seq_example(&source, &target, self.length, self.separator(), pad)
    }
}

/// `source` padded on the left to `source_len`, the separator, then `target`
/// padded on the right to `source_len`; the separator and the target's positions
/// (but the last) are scored, each predicting the next target token.
pub fn seq2seq_example(source: &[u32], target: &[u32], source_len: usize, separator: u32, pad: u32) -> Example {
    let seq = 2 * source_len + 1;
    let left = source_len - source.len();
    let mut tokens = vec![pad; left];
    tokens.extend_from_slice(source);
    tokens.push(separator);
    tokens.extend_from_slice(target);
    tokens.resize(seq, pad);
    let padding: Vec<bool> = (0..seq).map(|t| t < left || t > source_len + target.len()).collect();
    let mut targets = vec![pad; seq];
    let mut loss_mask = vec![false; seq];
    for t in source_len..source_len + target.len() {
        targets[t] = tokens[t + 1];
        loss_mask[t] = true;
    }
    Example { tokens, targets, loss_mask, padding }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::Split;

    #[test]
    fn the_target_reorders_each_clause_and_keeps_every_word() {
        let task = TranslateTask::new(20, 8);
        let vocab = task.vocab();
        let mut rng = Rng::new(3);
        for _ in 0..50 {
            let ex = task.example(&mut rng, Split::Train);
            assert_eq!(ex.len(), 41);
            assert_eq!(ex.tokens[20], task.separator());
            let source: Vec<&str> = ex.tokens[..20].iter().zip(&ex.padding).filter(|(_, p)| !**p).map(|(t, _)| vocab.label(*t)).collect();
            let target: Vec<&str> = ex.tokens[21..].iter().zip(&ex.padding[21..]).filter(|(_, p)| !**p).map(|(t, _)| vocab.label(*t)).collect();
            assert!((SHORTEST..=20).contains(&source.len()), "{source:?}");
            assert_eq!(source.len(), target.len());
            // The verb ends every clause of the target, and "and" joins the same clauses.
            for clause in target.split(|w| *w == "kaj") {
                assert!(VERBS.iter().any(|(_, v)| v == clause.last().unwrap()), "{target:?}");
            }
            assert_eq!(source.iter().filter(|w| **w == "and").count(), target.iter().filter(|w| **w == "kaj").count());
            // Scored: the separator and every target word but the last predict the next target word.
            let scored: Vec<usize> = (0..41).filter(|&t| ex.loss_mask[t]).collect();
            assert_eq!(scored, (20..20 + target.len()).collect::<Vec<_>>());
            for &t in &scored {
                assert_eq!(ex.targets[t], ex.tokens[t + 1]);
                assert!(!ex.padding[t + 1]);
            }
        }
    }

    #[test]
    fn the_alignment_points_each_query_at_the_source_word_it_must_write() {
        let task = TranslateTask::new(20, 8);
        let mut rng = Rng::new(5);
        for _ in 0..100 {
            let ex = task.example(&mut rng, Split::Train);
            let aligned = task.alignment(&ex).unwrap();
            let words = (0..20).filter(|&t| !ex.padding[t]).count();
            for t in 0..ex.len() {
                match aligned[t] {
                    // The query at t writes the target word at t + 1: the translation of its source word.
                    Some(p) => assert_eq!(ex.tokens[t + 1], ex.tokens[p] + task.words() as u32, "{t}"),
                    None => assert!(!(20..20 + words).contains(&t)),
                }
            }
        }
    }

    #[test]
    fn adjectives_follow_their_noun_in_the_target() {
        let task = TranslateTask::new(8, 8);
        let vocab = task.vocab();
        let mut rng = Rng::new(9);
        let mut checked = 0;
        for _ in 0..200 {
            let ex = task.example(&mut rng, Split::Train);
            let source: Vec<&str> = (0..8).filter(|&t| !ex.padding[t]).map(|t| vocab.label(ex.tokens[t])).collect();
            let target: Vec<&str> = (9..17).filter(|&t| !ex.padding[t]).map(|t| vocab.label(ex.tokens[t])).collect();
            // Each adjective comes right before its noun in the source and right
            // after it in the target, and the (adjective, noun) pairs are the same.
            let is_adjective = |w: &str| ADJECTIVES.iter().any(|(s, t)| *s == w || *t == w);
            let translate = |w: &str| NOUNS.iter().chain(&ADJECTIVES).find(|(s, _)| *s == w).map(|(_, t)| *t).unwrap();
            let mut source_pairs: Vec<(&str, &str)> = (0..source.len()).filter(|&i| is_adjective(source[i])).map(|i| (translate(source[i]), translate(source[i + 1]))).collect();
            let mut target_pairs: Vec<(&str, &str)> = (1..target.len()).filter(|&i| is_adjective(target[i])).map(|i| (target[i], target[i - 1])).collect();
            source_pairs.sort_unstable();
            target_pairs.sort_unstable();
            assert_eq!(source_pairs, target_pairs, "{source:?} -> {target:?}");
            assert!(!is_adjective(target[0]), "{target:?}");
            checked += source_pairs.len();
        }
        assert!(checked > 20, "adjectives appear often enough to be checked");
    }
}
