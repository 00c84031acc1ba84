//! Held-out results counted by source length, for `Session::evaluate` on a
//! seq2seq task: the buckets of `EvalMetrics::by_length`.

use crate::tasks::Task;

/// Held-out results counted by source length (seq2seq tasks only).
pub(super) struct LengthTally {
    /// (shortest, longest, sentences, sentences right, tokens, tokens right)
    buckets: Vec<(usize, usize, usize, usize, usize, usize)>,
}

impl LengthTally {
    pub(super) fn new(task: &dyn Task) -> Self {
        let buckets = match task.source_len() {
            Some(longest) => super::length_buckets(task.shortest_source(), longest).into_iter().map(|(lo, hi)| (lo, hi, 0, 0, 0, 0)).collect(),
            None => Vec::new(),
        };
        Self { buckets }
    }

    /// One sentence of `words` source words; `right` says, per scored target token,
    /// whether it was predicted right.
    pub(super) fn add(&mut self, words: usize, right: &[bool]) {
        if let Some(bucket) = self.buckets.iter_mut().find(|b| (b.0..=b.1).contains(&words)) {
            let hits = right.iter().filter(|r| **r).count();
            bucket.2 += 1;
            bucket.3 += usize::from(hits == right.len());
            bucket.4 += right.len();
            bucket.5 += hits;
        }
    }

    pub(super) fn buckets(self) -> Vec<super::LengthBucket> {
        let share = |part: usize, whole: usize| if whole == 0 { f32::NAN } else { part as f32 / whole as f32 };
        self.buckets
            .into_iter()
            .map(|(shortest, longest, sentences, right, tokens, hits)| super::LengthBucket {
                shortest,
                longest,
                sentences,
                accuracy: share(hits, tokens),
                sequence_accuracy: share(right, sentences),
            })
            .collect()
    }
}

