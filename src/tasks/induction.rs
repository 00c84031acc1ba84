//! Induction: a random segment shown twice among random tokens. The segment's length
//! (half the task length up to all of it) and where it first appears are random, and
//! its repeat ends the sequence, so no fixed positional offset finds the earlier
//! copy. After the first repeated token the model can predict every next one by
//! finding where the current token appeared before and copying what followed it:
//! the job of an "induction head".

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
        let n = 2 * self.length;
        let shortest = (self.length / 2).max(2);
        let segment = shortest + rng.below(self.length - shortest + 1); // [length/2, length]
        let repeat_at = n - segment;
        let first_at = rng.below(repeat_at - segment + 1);
        let mut sequence: Vec<u32> = (0..n).map(|_| rng.below(self.symbols) as u32).collect();
        let copied: Vec<u32> = sequence[first_at..first_at + segment].to_vec();
        sequence[repeat_at..].copy_from_slice(&copied);
        // The first token of the repeat cannot be known; the rest can.
        Example::next_token(sequence, repeat_at + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_repeat_ends_the_sequence_copies_an_earlier_segment_and_its_offset_varies() {
        let task = InductionTask::new(12, 16);
        let mut rng = Rng::new(3);
        let mut offsets = std::collections::BTreeSet::new();
        for _ in 0..200 {
            let example = task.draw(&mut rng);
            let n = example.tokens.len();
            assert_eq!(n, 24);
            let first_scored = example.loss_mask.iter().position(|m| *m).unwrap() + 1; // target index + 1
            let repeat_at = first_scored - 1;
            let segment = n - repeat_at;
            assert!((6..=12).contains(&segment), "segment of {segment}");
            let copy = &example.tokens[repeat_at..];
            let earlier = (0..=repeat_at - segment).find(|&a| &example.tokens[a..a + segment] == copy);
            let first_at = earlier.expect("the repeat copies an earlier segment");
            offsets.insert(repeat_at - first_at);
            assert!(example.loss_mask[repeat_at..n - 1].iter().all(|m| *m), "every repeated token after the first is scored");
            assert!(example.loss_mask[..repeat_at].iter().all(|m| !*m), "nothing before the repeat is scored");
        }
        assert!(offsets.len() > 5, "a fixed positional offset cannot solve it: {offsets:?}");
    }
}
