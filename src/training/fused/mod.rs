//! The fused CPU step: one training step's forward and backward written by hand on
//! plain buffers (llm.c style), for the CPU default backend. burn's composed model
//! (`model/`) stays the definition: the fused pass mirrors it operation for
//! operation, tests compare losses and every gradient with it, and anything the
//! fused pass does not implement runs the composed path instead (`support` says why,
//! and the window's top bar shows which path trains).
//!
//! The batch is split into the same fixed chunks as the composed path
//! (`chunks::CHUNK_ROWS`), run in parallel and summed in chunk order, so a seed gives
//! a bit-identical run on one thread or many. Gradients go back to burn as
//! `GradientsParams`, so clipping, the optimizer and the gradient report are shared.

mod attention;
mod kernels;
#[cfg(target_arch = "x86_64")]
mod matmul512;
mod params;
mod pass;

use burn::tensor::{Device, Tensor, TensorData};
use rayon::prelude::*;

use super::chunks::{ForwardBackward, chunk_dropout, slice_batch};
use crate::config::{AttentionKind, BackendChoice, ExperimentConfig};
use crate::model::Transformer;
use crate::tasks::Batch;

pub use kernels::{SimdTier, simd_tier, use_simd_tier};
pub use params::PlainModel;

/// Whether the fused step can train this experiment: `Err` names the knob that
/// sends it to burn's composed path.
pub fn support(config: &ExperimentConfig, backend_used: BackendChoice) -> Result<(), String> {
    if backend_used != BackendChoice::Flex {
        return Err(format!("backend {}", crate::training::backend::name(backend_used)));
    }
    if config.model.family == crate::config::ModelFamily::Rnn {
        return Err(format!("model.family = {}", config.model.family.name()));
    }
    // The pretrained architectures' extras run composed (they are opened to be read,
    // not trained for speed).
    let model = &config.model;
    for (on, knob) in [
        (model.token_types > 0, "model.token_types > 0"),
        (model.embedding_norm, "model.embedding_norm"),
        (model.tied_embeddings, "model.tied_embeddings"),
        (model.head_transform, "model.head_transform"),
    ] {
        if on {
            return Err(knob.to_string());
        }
    }
    let encoder = (config.model.family == crate::config::ModelFamily::EncoderDecoder).then_some(&config.model.encoder_layers);
    for (stack, layers) in [("layers", Some(&config.model.layers)), ("encoder_layers", encoder)] {
        for (index, layer) in layers.into_iter().flatten().enumerate() {
            if layer.attention && layer.attention_kind == AttentionKind::Convolution {
                return Err(format!("model.{stack}[{index}].attention_kind = {}", layer.attention_kind.name()));
            }
        }
    }
    Ok(())
}

/// Forward and backward of `model` on `batch` in chunks of `chunk_rows` rows, on the
/// rayon pool; the same sums, and the same dropout masks from the same `(seed,
/// step)` streams, as `chunks::forward_backward`. `device` is the plain
/// (non-autodiff) device the gradients are handed back on.
pub fn forward_backward(model: &Transformer, batch: &Batch, device: &Device, chunk_rows: usize, (seed, step): (u64, u64), dropout: f64) -> ForwardBackward {
    let plain = PlainModel::of(model);
    let total_scored = batch.scored();
    let chunk_rows = chunk_rows.max(1);
    let starts: Vec<usize> = (0..batch.batch_size).step_by(chunk_rows).collect();
    let positional = model.config.positional;
    let results: Vec<pass::ChunkResult> = starts
        .par_iter()
        .enumerate()
        .map(|(index, &start)| {
            let chunk = slice_batch(batch, start, chunk_rows.min(batch.batch_size - start));
            let masks = pass::chunk_masks(&model.config, model.source_len, &chunk);
            let mut dropout = chunk_dropout(dropout, (seed, step), index);
            pass::run_chunk(&plain, positional, &masks, &chunk, total_scored, &mut dropout)
        })
        .collect();
    let mut results = results.into_iter();
    let first = results.next().expect("a batch has at least one row");
    let (mut loss, mut correct, mut grads) = (first.loss, first.correct, first.grads);
    for mut next in results {
        loss += next.loss;
        correct += next.correct;
        grads.add(&mut next.grads);
    }
    let scalar = |v: f32| Tensor::<1>::from_data(TensorData::new(vec![v], [1]), device); // [1]
    ForwardBackward {
        loss: scalar(loss),
        correct: scalar(correct),
        grads: grads.into_gradients(device),
    }
}
