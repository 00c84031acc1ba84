//! Key-value lookup, the "dictionary" view of Q, K and V:
//! `A 3 C 1 B 7 ? C → 1`. The query must find its key and read the value beside it.
//! The answer is not part of the input.

use super::vocab::symbol_labels;
use super::{Example, Rng, Task, TaskKind, Vocab};

pub struct LookupTask {
    pairs: usize,
    symbols: usize,
    vocab: Vocab,
}

impl LookupTask {
    /// Keys are capital letters, values are digits/lower-case letters (`symbols` of each).
    pub fn new(pairs: usize, symbols: usize) -> Self {
        let keys = (0..symbols).map(|i| ((b'A' + i as u8) as char).to_string());
        let values = if symbols <= 10 {
            (0..symbols).map(|i| i.to_string()).collect()
        } else {
            symbol_labels(symbols)
        };
        let mut labels: Vec<String> = keys.collect();
        labels.extend(values);
        labels.push("?".to_string());
        Self {
            pairs,
            symbols,
            vocab: Vocab::new(labels),
        }
    }
}

impl Task for LookupTask {
    fn kind(&self) -> TaskKind {
        TaskKind::Lookup
    }

    fn vocab(&self) -> &Vocab {
        &self.vocab
    }

    fn seq_len(&self) -> usize {
        2 * self.pairs + 2
    }

    fn draw(&self, rng: &mut Rng) -> Example {
        let mut keys: Vec<u32> = (0..self.symbols as u32).collect();
        rng.shuffle(&mut keys);
        keys.truncate(self.pairs);
        let values: Vec<u32> = (0..self.pairs)
            .map(|_| (self.symbols + rng.below(self.symbols)) as u32)
            .collect();
        let asked = rng.below(self.pairs);
        let mut sequence = Vec::with_capacity(self.seq_len());
        for (k, v) in keys.iter().zip(&values) {
            sequence.push(*k);
            sequence.push(*v);
        }
        sequence.push(2 * self.symbols as u32);
        sequence.push(keys[asked]);
        Example::question(sequence, values[asked])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::Split;

    #[test]
    fn the_answer_is_the_value_of_the_asked_key() {
        let task = LookupTask::new(4, 8);
        let mut rng = Rng::new(5);
        for _ in 0..20 {
            let ex = task.example(&mut rng, Split::Train);
            let n = ex.len();
            assert_eq!(n, task.seq_len());
            let asked = ex.tokens[n - 1];
            let pos = (0..8).step_by(2).find(|&i| ex.tokens[i] == asked).unwrap();
            assert_eq!(ex.targets[n - 1], ex.tokens[pos + 1]);
            assert_eq!(ex.loss_mask.iter().filter(|m| **m).count(), 1);
            assert!(ex.loss_mask[n - 1]);
        }
    }
}
