//! Bracket depth, a tagging task (lesson 23): `( ( ) ( ) )` → `1 2 1 2 1 0`. Every
//! position is scored, and its label is the depth after that bracket. The token
//! alone cannot say it (a `(` can open any depth); the brackets before it can. So
//! every token's own output vector carries an answer, not only the last one's.

use super::{Example, Rng, Task, TaskKind, Vocab};

const OPEN: u32 = 0;
const CLOSE: u32 = 1;
/// Label tokens follow the two brackets: depth d is token `LABELS + d`.
const LABELS: u32 = 2;

pub struct DepthTask {
    length: usize,
    vocab: Vocab,
}

impl DepthTask {
    pub fn new(length: usize) -> Self {
        let mut labels = vec!["(".to_string(), ")".to_string()];
        labels.extend((0..=length).map(|d| d.to_string()));
        Self { length, vocab: Vocab::new(labels) }
    }

    /// A string that never closes more than it opened, tagged with its depths.
    fn tagged(&self, brackets: Vec<u32>) -> Example {
        let targets = depths(&brackets).into_iter().map(|d| LABELS + d).collect();
        let n = brackets.len();
        Example { tokens: brackets, targets, loss_mask: vec![true; n], padding: vec![false; n] }
    }
}

/// The depth after each bracket of `tokens`.
pub fn depths(tokens: &[u32]) -> Vec<u32> {
    let mut depth = 0u32;
    tokens.iter().map(|&b| {
        depth = if b == OPEN { depth + 1 } else { depth.saturating_sub(1) };
        depth
    }).collect()
}

impl Task for DepthTask {
    fn kind(&self) -> TaskKind {
        TaskKind::BracketDepth
    }

    fn vocab(&self) -> &Vocab {
        &self.vocab
    }

    fn seq_len(&self) -> usize {
        self.length
    }

    fn draw(&self, rng: &mut Rng) -> Example {
        let mut depth = 0usize;
        let brackets = (0..self.length)
            .map(|_| {
                let open = depth == 0 || rng.chance(0.5);
                if open { depth += 1 } else { depth -= 1 }
                if open { OPEN } else { CLOSE }
            })
            .collect();
        self.tagged(brackets)
    }

    /// `( ( ) ( ( ) ) ) ( ) …`, cut to the length: depths 1 2 1 2 3 2 1 0 1 0 ….
    fn probe(&self) -> Example {
        let pattern = [OPEN, OPEN, CLOSE, OPEN, OPEN, CLOSE, CLOSE, CLOSE, OPEN, CLOSE];
        self.tagged(pattern.iter().copied().cycle().take(self.length).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::Split;

    #[test]
    fn every_position_is_tagged_with_its_depth() {
        let task = DepthTask::new(10);
        let probe = task.probe();
        let labels: Vec<u32> = probe.targets.iter().map(|t| t - LABELS).collect();
        assert_eq!(labels, vec![1, 2, 1, 2, 3, 2, 1, 0, 1, 0]);
        assert!(probe.loss_mask.iter().all(|m| *m));
        let mut rng = Rng::new(4);
        for _ in 0..100 {
            let ex = task.example(&mut rng, Split::Train);
            assert_eq!(ex.targets.iter().map(|t| t - LABELS).collect::<Vec<_>>(), depths(&ex.tokens));
        }
    }
}
