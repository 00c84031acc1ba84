//! Examples and batches as plain data (no tensors): the trainer turns them into tensors.

/// One training sequence.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    /// Input tokens, one per position.
    pub tokens: Vec<u32>,
    /// The token each position must predict (ignored where `loss_mask` is false).
    pub targets: Vec<u32>,
    /// Which positions count in the loss and the accuracy.
    pub loss_mask: Vec<bool>,
    /// Which positions are padding (masked out as keys by the padding mask).
    pub padding: Vec<bool>,
}

impl Example {
    /// Next-token framing of a whole sequence: position t predicts `sequence[t + 1]`,
    /// and targets from index `first_scored` on are scored (the last position has
    /// no next token and is never scored).
    pub fn next_token(sequence: Vec<u32>, first_scored: usize) -> Self {
        let n = sequence.len();
        let mut targets = vec![0; n];
        let mut loss_mask = vec![false; n];
        for t in 0..n.saturating_sub(1) {
            targets[t] = sequence[t + 1];
            loss_mask[t] = t + 1 >= first_scored;
        }
        Self {
            tokens: sequence,
            targets,
            loss_mask,
            padding: vec![false; n],
        }
    }

    /// A question with one answer: the model reads `prompt` and its last position
    /// must predict `answer`. The answer is not part of the input, so no mask can
    /// let the model read it.
    pub fn question(prompt: Vec<u32>, answer: u32) -> Self {
        let n = prompt.len();
        let mut targets = vec![0; n];
        let mut loss_mask = vec![false; n];
        targets[n - 1] = answer;
        loss_mask[n - 1] = true;
        Self {
            tokens: prompt,
            targets,
            loss_mask,
            padding: vec![false; n],
        }
    }

    /// Pad on the right to `len` with `pad`; padded positions are neither scored nor seen.
    pub fn pad_to(mut self, len: usize, pad: u32) -> Self {
        while self.tokens.len() < len {
            self.tokens.push(pad);
            self.targets.push(pad);
            self.loss_mask.push(false);
            self.padding.push(true);
        }
        self
    }

    /// Pad on the left to `len` (the "padding on the wrong side" setting).
    pub fn pad_left_to(mut self, len: usize, pad: u32) -> Self {
        let extra = len.saturating_sub(self.tokens.len());
        let prepend = |v: &mut Vec<u32>| v.splice(0..0, std::iter::repeat_n(pad, extra)).for_each(drop);
        prepend(&mut self.tokens);
        prepend(&mut self.targets);
        self.loss_mask.splice(0..0, std::iter::repeat_n(false, extra));
        self.padding.splice(0..0, std::iter::repeat_n(true, extra));
        self
    }

    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }
}

/// A batch of examples, flattened row-major as `[batch, seq]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Batch {
    pub batch_size: usize,
    pub seq_len: usize,
    pub tokens: Vec<i64>,
    pub targets: Vec<i64>,
    /// 1.0 where the position is scored, else 0.0.
    pub loss_weights: Vec<f32>,
    /// true where the position is padding.
    pub padding: Vec<bool>,
}

impl Batch {
    /// Stack examples; each must be exactly `seq_len` long.
    pub fn from_examples(examples: &[Example], seq_len: usize) -> Self {
        let n = examples.len() * seq_len;
        let mut batch = Self {
            batch_size: examples.len(),
            seq_len,
            tokens: Vec::with_capacity(n),
            targets: Vec::with_capacity(n),
            loss_weights: Vec::with_capacity(n),
            padding: Vec::with_capacity(n),
        };
        for ex in examples {
            assert_eq!(ex.len(), seq_len, "every example of a batch has the task's length");
            batch.tokens.extend(ex.tokens.iter().map(|&t| t as i64));
            batch.targets.extend(ex.targets.iter().map(|&t| t as i64));
            batch
                .loss_weights
                .extend(ex.loss_mask.iter().map(|&m| if m { 1.0 } else { 0.0 }));
            batch.padding.extend_from_slice(&ex.padding);
        }
        batch
    }

    /// Number of scored positions.
    pub fn scored(&self) -> usize {
        self.loss_weights.iter().filter(|w| **w > 0.0).count()
    }

    pub fn has_padding(&self) -> bool {
        self.padding.iter().any(|p| *p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_token_shifts_and_scores_from_index() {
        let ex = Example::next_token(vec![5, 6, 7, 8], 2);
        assert_eq!(ex.targets[..3], [6, 7, 8]);
        assert_eq!(ex.loss_mask, vec![false, true, true, false]);
    }

    #[test]
    fn a_question_hides_its_answer_from_the_input() {
        let ex = Example::question(vec![1, 2, 3], 9);
        assert_eq!(ex.tokens, vec![1, 2, 3]);
        assert_eq!(ex.targets[2], 9);
        assert_eq!(ex.loss_mask, vec![false, false, true]);
    }

    #[test]
    fn left_padding_goes_first() {
        let ex = Example::next_token(vec![1, 2], 1).pad_left_to(4, 9);
        assert_eq!(ex.tokens, vec![9, 9, 1, 2]);
        assert_eq!(ex.loss_mask, vec![false, false, true, false]);
        assert_eq!(ex.padding, vec![true, true, false, false]);
    }

    #[test]
    fn padding_is_never_scored() {
        let ex = Example::next_token(vec![1, 2], 1).pad_to(4, 9);
        assert_eq!(ex.tokens, vec![1, 2, 9, 9]);
        assert_eq!(ex.loss_mask, vec![true, false, false, false]);
        assert_eq!(ex.padding, vec![false, false, true, true]);
    }
}
