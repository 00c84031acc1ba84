//! Modular addition `a + b = c (mod p)`. A fifth of all (a, b) pairs is held out
//! for evaluation (by the shared hash split), so eval accuracy measures
//! generalisation, not memory.

use super::{Example, Rng, Task, TaskKind, Vocab};

pub struct ModAddTask {
    modulus: usize,
    vocab: Vocab,
}

pub fn is_prime(n: usize) -> bool {
    n >= 2 && (2..n).take_while(|d| d * d <= n).all(|d| n % d != 0)
}

impl ModAddTask {
    pub fn new(modulus: usize) -> Self {
        let mut labels: Vec<String> = (0..modulus).map(|i| i.to_string()).collect();
        labels.push("+".to_string());
        labels.push("=".to_string());
        Self {
            modulus,
            vocab: Vocab::new(labels),
        }
    }

}

impl Task for ModAddTask {
    fn kind(&self) -> TaskKind {
        TaskKind::ModAdd
    }

    fn vocab(&self) -> &Vocab {
        &self.vocab
    }

    fn seq_len(&self) -> usize {
        4
    }

    fn draw(&self, rng: &mut Rng) -> Example {
        let p = self.modulus;
        let (a, b) = (rng.below(p), rng.below(p));
        let plus = p as u32;
        let equals = p as u32 + 1;
        Example::question(vec![a as u32, plus, b as u32, equals], ((a + b) % p) as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::Split;

    #[test]
    fn sums_are_right_and_splits_do_not_overlap() {
        let task = ModAddTask::new(13);
        let mut rng = Rng::new(1);
        for split in [Split::Train, Split::Eval] {
            for _ in 0..50 {
                let ex = task.example(&mut rng, split);
                let (a, b, c) = (ex.tokens[0], ex.tokens[2], ex.targets[3]);
                assert_eq!((a + b) % 13, c);
                assert_eq!(crate::tasks::is_held_out(&ex), split == Split::Eval);
            }
        }
        assert!(is_prime(13) && !is_prime(12));
    }
}
