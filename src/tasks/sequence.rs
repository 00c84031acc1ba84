//! copy, reverse and sort: `x₁ … xₙ | f(x)₁ … f(x)ₙ`, scored on the answer half.
//!
//! With n = 16 and 16 symbols this is exactly the task of `bench/torch_reference.py`:
//! sequence length 33, vocabulary 17, logits at positions 16..31 predict 17..32.

use super::vocab::symbol_labels;
use super::{Example, Rng, Task, TaskKind, Vocab};

pub struct SequenceTask {
    kind: TaskKind,
    length: usize,
    symbols: usize,
    vocab: Vocab,
}

impl SequenceTask {
    pub fn new(kind: TaskKind, length: usize, symbols: usize) -> Self {
        let mut labels = symbol_labels(symbols);
        labels.push("|".to_string());
        Self {
            kind,
            length,
            symbols,
            vocab: Vocab::new(labels),
        }
    }

    fn separator(&self) -> u32 {
        self.symbols as u32
    }
}

impl Task for SequenceTask {
    fn kind(&self) -> TaskKind {
        self.kind
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

    /// Copy writes source word j at target position j, reverse writes word n-1-j;
    /// a sorted target has no single source word per position.
    fn alignment(&self, example: &Example) -> Option<Vec<Option<usize>>> {
        let n = self.length;
        let source_of = |j: usize| match self.kind {
            TaskKind::Copy => Some(j),
            TaskKind::Reverse => Some(n - 1 - j),
            _ => None,
        };
        source_of(0)?;
        Some((0..example.len()).map(|t| (n..2 * n).contains(&t).then(|| source_of(t - n)).flatten()).collect())
    }

    fn draw(&self, rng: &mut Rng) -> Example {
        let source: Vec<u32> = (0..self.length)
            .map(|_| rng.below(self.symbols) as u32)
            .collect();
        let mut answer = source.clone();
        match self.kind {
            TaskKind::Reverse => answer.reverse(),
            TaskKind::Sort => answer.sort_unstable(),
            _ => {}
        }
        let mut sequence = source;
        sequence.push(self.separator());
        sequence.extend(answer);
        Example::next_token(sequence, self.length + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::Split;

    #[test]
    fn reverse_matches_the_reference_layout() {
        let task = SequenceTask::new(TaskKind::Reverse, 16, 16);
        let ex = task.example(&mut Rng::new(1), Split::Train);
        assert_eq!(ex.len(), 33);
        assert_eq!(task.vocab().len(), 17);
        assert_eq!(ex.tokens[16], 16);
        for i in 0..16 {
            assert_eq!(ex.tokens[17 + i], ex.tokens[15 - i]);
        }
        // logits at 16..=31 are scored, predicting tokens 17..=32
        let scored: Vec<usize> = (0..33).filter(|&t| ex.loss_mask[t]).collect();
        assert_eq!(scored, (16..32).collect::<Vec<_>>());
    }

    #[test]
    fn sort_sorts_and_copy_copies() {
        let sort = SequenceTask::new(TaskKind::Sort, 8, 5);
        let ex = sort.example(&mut Rng::new(2), Split::Train);
        assert!(ex.tokens[9..].windows(2).all(|w| w[0] <= w[1]));
        let copy = SequenceTask::new(TaskKind::Copy, 8, 5);
        let ex = copy.example(&mut Rng::new(2), Split::Train);
        assert_eq!(ex.tokens[..8], ex.tokens[9..]);
    }
}
