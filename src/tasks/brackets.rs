//! Balanced brackets: `( ( ) ) ( ) =` → `Y`. Strings have different lengths, so every
//! batch is padded on the right, and the padding mask decides whether the model can
//! see the padding.

use super::{Example, PadSide, Rng, Task, TaskKind, Vocab};

const OPEN: u32 = 0;
const CLOSE: u32 = 1;
const EQUALS: u32 = 2;
const YES: u32 = 3;
const NO: u32 = 4;

pub struct BracketsTask {
    max_length: usize,
    pad_side: PadSide,
    vocab: Vocab,
}

impl BracketsTask {
    pub fn new(max_length: usize, pad_side: PadSide) -> Self {
        let labels = ["(", ")", "=", "Y", "N"].map(String::from).to_vec();
        Self {
            max_length,
            pad_side,
            vocab: Vocab::new(labels).with_pad("·"),
        }
    }
}

impl BracketsTask {
    fn padded(&self, sequence: Vec<u32>, answer: u32) -> Example {
        let pad = self.vocab.pad().expect("brackets pads");
        let example = Example::question(sequence, answer);
        match self.pad_side {
            PadSide::Right => example.pad_to(self.seq_len(), pad),
            PadSide::Left => example.pad_left_to(self.seq_len(), pad),
        }
    }
}

pub fn is_balanced(tokens: &[u32]) -> bool {
    let mut depth = 0i64;
    for &t in tokens {
        depth += if t == OPEN { 1 } else { -1 };
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}

/// A random balanced string of `pairs` bracket pairs.
fn balanced(rng: &mut Rng, pairs: usize) -> Vec<u32> {
    let (mut open_left, mut depth) = (pairs, 0usize);
    let mut out = Vec::with_capacity(2 * pairs);
    while out.len() < 2 * pairs {
        let must_open = depth == 0;
        let must_close = open_left == 0;
        if must_open || (!must_close && rng.chance(0.5)) {
            out.push(OPEN);
            open_left -= 1;
            depth += 1;
        } else {
            out.push(CLOSE);
            depth -= 1;
        }
    }
    out
}

/// A near miss: a balanced string with one '(' and one ')' swapped (or, rarely, random).
fn unbalanced(rng: &mut Rng, pairs: usize) -> Vec<u32> {
    let mut s = balanced(rng, pairs);
    for _ in 0..8 {
        let (i, j) = (rng.below(s.len()), rng.below(s.len()));
        if s[i] != s[j] {
            s.swap(i, j);
            if !is_balanced(&s) {
                return s;
            }
            s.swap(i, j);
        }
    }
    s.iter_mut().for_each(|t| *t = rng.below(2) as u32);
    s[0] = CLOSE; // starts with ')': never balanced
    s
}

impl Task for BracketsTask {
    fn kind(&self) -> TaskKind {
        TaskKind::Brackets
    }

    fn vocab(&self) -> &Vocab {
        &self.vocab
    }

    fn seq_len(&self) -> usize {
        self.max_length + 1
    }

    fn draw(&self, rng: &mut Rng) -> Example {
        let pairs = 1 + rng.below(self.max_length / 2);
        let want_balanced = rng.chance(0.5);
        let mut sequence = if want_balanced {
            balanced(rng, pairs)
        } else {
            unbalanced(rng, pairs)
        };
        let answer = if is_balanced(&sequence) { YES } else { NO };
        sequence.push(EQUALS);
        self.padded(sequence, answer)
    }

    /// "( ( ) ) ( ) = Y", padded: short enough to show the padding in the pictures.
    fn probe(&self) -> Example {
        let mut sequence = vec![OPEN, OPEN, CLOSE, CLOSE, OPEN, CLOSE];
        sequence.truncate(2 * (self.max_length / 2).min(3));
        let answer = if is_balanced(&sequence) { YES } else { NO };
        sequence.push(EQUALS);
        self.padded(sequence, answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::Split;

    #[test]
    fn answers_are_right_lengths_vary_and_padding_is_marked() {
        let task = BracketsTask::new(12, PadSide::Right);
        let mut rng = Rng::new(9);
        let (mut yes, mut lengths) = (0, std::collections::BTreeSet::new());
        for _ in 0..200 {
            let ex = task.example(&mut rng, Split::Train);
            assert_eq!(ex.len(), 13);
            let eq = ex.tokens.iter().position(|&t| t == EQUALS).unwrap();
            lengths.insert(eq);
            assert!(ex.loss_mask[eq] && ex.loss_mask.iter().filter(|m| **m).count() == 1);
            let answer = ex.targets[eq];
            assert_eq!(answer == YES, is_balanced(&ex.tokens[..eq]));
            yes += (answer == YES) as usize;
            assert!(ex.padding[eq + 1..].iter().all(|p| *p));
            assert!(!ex.padding[..eq + 1].iter().any(|p| *p));
        }
        assert!((60..140).contains(&yes), "{yes} balanced of 200");
        assert!(lengths.len() >= 4);
    }
}
