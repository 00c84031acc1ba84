//! One step's forward and backward over a batch split into fixed-size chunks of rows.
//!
//! Each chunk runs on its own copy of the parameters (same ids, values detached, so
//! each has its own autodiff graph), on as many threads as rayon has; the losses,
//! hits and gradients are summed in chunk order. The chunk size never depends on the
//! thread count, so a seed gives a bit-identical run on one thread or many.

use burn::module::{Module, ModuleMapper, ModuleVisitor, Param};
use burn::optim::GradientsParams;
use burn::tensor::{Device, Int, Tensor, TensorData};
use rayon::prelude::*;

use super::loss::scored_cross_entropy;
use crate::model::{Capture, Dropout, Transformer};
use crate::tasks::{Batch, Rng};

/// Rows per chunk: large enough that each matrix product stays efficient, small
/// enough that the default batch (64) splits across two cores.
pub const CHUNK_ROWS: usize = 32;

/// Chunk `index`'s dropout at rate `p` in step `step`: chunk 0 uses the step's own
/// stream, later chunks their own (both training paths draw from these).
pub fn chunk_dropout(p: f64, (seed, step): (u64, u64), index: usize) -> Dropout {
    match p {
        p if p > 0.0 => Dropout::train(p, Rng::for_step(seed, step, 3 + 1000 * index as u64)),
        _ => Dropout::off(),
    }
}

/// A step's sums over every chunk.
pub struct ForwardBackward {
    /// `[1]` mean loss over the batch's scored positions (plain tensor).
    pub loss: Tensor<1>,
    /// `[1]` scored positions predicted right (plain tensor).
    pub correct: Tensor<1>,
    pub grads: GradientsParams,
}

/// Forward and backward of `model` on `batch` in chunks of `chunk_rows` rows (the GPU
/// takes the whole batch at once); `dropout` is the step's dropout rate. Dropout
/// masks are drawn per chunk, so they depend on the chunk size (not the threads).
pub fn forward_backward(
    model: &Transformer,
    batch: &Batch,
    device: &Device,
    chunk_rows: usize,
    (seed, step): (u64, u64),
    dropout: f64,
) -> ForwardBackward {
    let total_scored = batch.scored();
    let chunk_rows = chunk_rows.max(1);
    let starts: Vec<usize> = (0..batch.batch_size).step_by(chunk_rows).collect();
    let run = |copy: &Transformer, index: usize, start: usize| {
        let rows = chunk_rows.min(batch.batch_size - start);
        let chunk = slice_batch(batch, start, rows);
        let mut dropout = chunk_dropout(dropout, (seed, step), index);
        let (tokens, targets, weights) = batch_tensors(&chunk, device); // [rows, seq] each
        let padding = chunk.has_padding().then_some(&chunk.padding[..]);
        let out = copy.forward(tokens, padding, Capture::default(), &mut dropout); // logits [rows, seq, vocab]
        // Divided by the whole batch's count, so the chunks' losses sum to its mean.
        let scored = scored_cross_entropy(out.logits, targets, weights, total_scored); // loss, hits: [1]
        let grads = GradientsParams::from_grads(scored.loss.backward(), copy);
        (scored.loss.inner(), scored.correct.inner(), grads)
    };
    let parts: Vec<(Tensor<1>, Tensor<1>, GradientsParams)> = if starts.len() == 1 {
        vec![run(model, 0, 0)]
    } else {
        let copies: Vec<Transformer> = starts.iter().map(|_| detached_copy(model)).collect();
        copies
            .into_par_iter()
            .zip(starts.into_par_iter().enumerate())
            .map(|(copy, (index, start))| run(&copy, index, start))
            .collect()
    };
    let mut parts = parts.into_iter();
    let (mut loss, mut correct, first) = parts.next().expect("a batch has at least one row");
    let mut rest = Vec::new();
    for (l, c, g) in parts {
        loss = loss + l; // [1]
        correct = correct + c; // [1]
        rest.push(g);
    }
    ForwardBackward {
        loss,
        correct,
        grads: sum_in_order(model, first, rest),
    }
}

/// tokens, targets: `[rows, seq]` ints; loss weights: `[rows, seq]`.
pub fn batch_tensors(batch: &Batch, device: &Device) -> (Tensor<2, Int>, Tensor<2, Int>, Tensor<2>) {
    let shape = [batch.batch_size, batch.seq_len];
    let tokens = Tensor::<2, Int>::from_data(TensorData::new(batch.tokens.clone(), shape), device); // [rows, seq]
    let targets = Tensor::<2, Int>::from_data(TensorData::new(batch.targets.clone(), shape), device); // [rows, seq]
    let weights = Tensor::<2>::from_data(TensorData::new(batch.loss_weights.clone(), shape), device); // [rows, seq]
    (tokens, targets, weights)
}

/// Rows `start..start + rows` of a batch.
pub fn slice_batch(batch: &Batch, start: usize, rows: usize) -> Batch {
    let span = start * batch.seq_len..(start + rows) * batch.seq_len;
    Batch {
        batch_size: rows,
        seq_len: batch.seq_len,
        tokens: batch.tokens[span.clone()].to_vec(),
        targets: batch.targets[span.clone()].to_vec(),
        loss_weights: batch.loss_weights[span.clone()].to_vec(),
        padding: batch.padding[span].to_vec(),
    }
}

/// The same parameters (ids and values) as new autodiff leaves: a graph of its own.
fn detached_copy(model: &Transformer) -> Transformer {
    struct Detach;
    impl ModuleMapper for Detach {
        fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
            param.map(|t| t.detach().require_grad())
        }
    }
    model.clone().map(&mut Detach)
}

/// `first + rest[0] + rest[1] + …` for every parameter, always in that order.
fn sum_in_order(model: &Transformer, first: GradientsParams, rest: Vec<GradientsParams>) -> GradientsParams {
    struct Sum {
        total: GradientsParams,
        rest: Vec<GradientsParams>,
    }
    impl ModuleVisitor for Sum {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            let mut sum = self.total.remove::<D>(param.id);
            for grads in &mut self.rest {
                sum = match (sum, grads.remove::<D>(param.id)) {
                    (Some(a), Some(b)) => Some(a + b),
                    (a, b) => a.or(b),
                };
            }
            if let Some(sum) = sum {
                self.total.register(param.id, sum);
            }
        }
    }
    if rest.is_empty() {
        return first;
    }
    let mut sum = Sum { total: first, rest };
    model.visit(&mut sum);
    sum.total
}
