//! Masked next-token cross-entropy and accuracy over the scored positions only.

use burn::tensor::activation::log_softmax;
use burn::tensor::{Int, Tensor};

/// Loss and accuracy parts of one batch, still on the device.
pub struct ScoredLoss {
    /// `[1]` mean cross-entropy over scored positions.
    pub loss: Tensor<1>,
    /// `[1]` number of scored positions predicted right.
    pub correct: Tensor<1>,
    /// `[batch, seq]` argmax prediction at every position.
    pub predictions: Tensor<2, Int>,
}

/// logits: `[batch, seq, vocab]`; targets: `[batch, seq]`; weights: `[batch, seq]`
/// 1.0 where scored; `scored` = the number of scored positions the loss is averaged
/// over: this batch's, or the whole batch's when this is one chunk of it (> 0).
pub fn scored_cross_entropy(
    logits: Tensor<3>,
    targets: Tensor<2, Int>,
    weights: Tensor<2>,
    scored: usize,
) -> ScoredLoss {
    let [batch, seq, _vocab] = logits.dims();
    let log_probs = log_softmax(logits.clone(), 2); // [batch, seq, vocab]
    let picked = log_probs
        .gather(2, targets.clone().reshape([batch, seq, 1])) // [batch, seq, 1]
        .reshape([batch, seq]); // [batch, seq]
    let loss = (picked * weights.clone()).sum().neg().div_scalar(scored.max(1) as f32); // [1]
    let predictions = logits.detach().argmax(2).reshape([batch, seq]); // [batch, seq]
    let hits = predictions.clone().equal(targets).float(); // [batch, seq]
    let correct = (hits * weights.detach()).sum(); // [1]
    ScoredLoss {
        loss,
        correct,
        predictions,
    }
}
