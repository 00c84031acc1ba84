//! Induction: a random block shown twice. After the first repeated token the model
//! can predict every next one by finding where the current token appeared before
//! and copying what followed it: the job of an "induction head".

use super::vocab::symbol_labels;
use super::{Example, Rng, Task, TaskKind, Vocab};

pub struct InductionTask {
    length: usize,
    symbols: usize,
    vocab: Vocab,
}

impl InductionTask {
    pub fn new(length: usize, symbols: usize) -> Self {
        Self {
            length,
            symbols,
            vocab: Vocab::new(symbol_labels(symbols)),
        }
    }
}

impl Task for InductionTask {
    fn kind(&self) -> TaskKind {
        TaskKind::Induction
    }

    fn vocab(&self) -> &Vocab {
        &self.vocab
    }

    fn seq_len(&self) -> usize {
        2 * self.length
    }

    fn draw(&self, rng: &mut Rng) -> Example {
        let block: Vec<u32> = (0..self.length)
            .map(|_| rng.below(self.symbols) as u32)
            .collect();
        let mut sequence = block.clone();
        sequence.extend(block);
        // The first token of the repeat cannot be known; the rest can.
        Example::next_token(sequence, self.length + 1)
    }
}
