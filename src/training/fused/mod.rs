//! The fused CPU step: one training step's forward and backward written by hand on
//! plain buffers (llm.c style), for the CPU default backend. burn's composed model
//! (`model/`) stays the definition: the fused pass mirrors it operation for
//! operation, tests compare losses and every gradient with it, and anything the
//! fused pass does not implement runs the composed path instead (`support` says why,
//! and the window's top bar shows which path trains).
//!
//! The batch is split into the same fixed chunks as the composed path
//! (`chunks::CHUNK_ROWS`), run in parallel and summed in chunk order, so a seed gives
//! a bit-identical run on one thread or many. Without dropout a chunk runs in passes
//! of `PASS_ROWS` rows, one after another, adding into the chunk's gradients. The
//! session's step takes the summed gradients where they lie, with the plain weights
//! the pass read
//! (`forward_backward_plain`, `FusedArena::weights_and_gradients`), for the plain
//! optimizer to update those weights in place; `forward_backward` hands the
//! gradients to burn as `GradientsParams` instead (the equivalence tests, and
//! burn's optimizer).

mod attention;
mod chunk;
mod gru;
mod kernels;
mod mask_rows;
mod block_product;
#[cfg(target_arch = "x86_64")]
mod matmul256;
#[cfg(target_arch = "x86_64")]
mod matmul512;
#[cfg(target_arch = "x86_64")]
mod packed;
mod params;
mod recurrent;
#[cfg(target_arch = "x86_64")]
mod register_tile;
mod recycled;
mod row_blocks;
mod scratch;
mod softmax_rows;
pub(crate) mod simd;
mod squash;
mod sublayer;
mod tables;
mod tiled;
mod to_burn;
mod transpose;

use burn::tensor::{Device, Tensor, TensorData};
use rayon::prelude::*;

use super::chunks::{ForwardBackward, chunk_dropout, slice_batch};
use crate::config::{BackendChoice, ExperimentConfig};
use crate::model::{Dropout, Transformer};
use crate::tasks::Batch;
use tables::Tables;

pub use simd::{SimdTier, simd_tier, use_simd_tier};
pub use params::PlainModel;
pub(crate) use to_burn::with_values;

/// Whether the fused step can train this experiment: `Err` names the knob that
/// sends it to burn's composed path.
pub fn support(config: &ExperimentConfig, backend_used: BackendChoice) -> Result<(), String> {
    if backend_used != BackendChoice::Flex {
        return Err(format!("backend {}", crate::training::backend::name(backend_used)));
    }
    if config.model.family == crate::config::ModelFamily::Rnn && config.model.rnn_cell != crate::config::RnnCell::Gru {
        return Err("model.rnn_cell = lstm".to_string());
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
    Ok(())
}

/// What the fused step keeps between steps, sized once per configuration: the
/// weights as plain vectors, the position tables and one gradient buffer per chunk (the buffers each chunk's
/// pass borrows live in per-thread pools, `scratch`).
#[derive(Default)]
pub struct FusedArena {
    /// The weights the last step read, as plain vectors. The session's plain
    /// optimizer updates them in place (`PlainOptimizer::step_plain`), so the next
    /// step reads them without copying the model out again, and the burn model
    /// gets their values when read (`write_weights`); None until the first step
    /// and after `forget_weights`.
    weights: Option<PlainModel>,
    /// The buffers of a forgotten copy of the weights, for the next copy
    /// (`PlainModel::of_recycling`).
    recycled: recycled::Recycled,
    tables: Option<Tables>,
    grads: Vec<PlainModel>,
    /// The ids and shapes `grads` was made for.
    layout: Vec<(burn::module::ParamId, Vec<usize>)>,
}

/// Forward and backward of `model` on `batch` in chunks of `chunk_rows` rows, on the
/// rayon pool; the same sums as `chunks::forward_backward` up to rounding (a
/// chunk's passes add in another order), and the same dropout masks from the same
/// `(seed, step)` streams. `device` is the plain (non-autodiff) device the
/// gradients are handed back on.
#[allow(clippy::too_many_arguments)]
pub fn forward_backward(model: &Transformer, batch: &Batch, device: &Device, chunk_rows: usize, (seed, step): (u64, u64), dropout: f64, arena: &mut FusedArena) -> ForwardBackward {
    // burn's optimizer steps the burn model, not the plain copy: read it afresh.
    arena.forget_weights();
    let (loss, correct) = forward_backward_plain(model, batch, chunk_rows, (seed, step), dropout, arena);
    arena.forget_weights();
    let grads = arena.grads[0].to_gradients(device);
    let scalar = |v: f32| Tensor::<1>::from_data(TensorData::new(vec![v], [1]), device); // [1]
    ForwardBackward {
        loss: scalar(loss),
        correct: scalar(correct),
        grads,
    }
}

/// Rows a chunk sends through the model at once when no dropout is drawn: a
/// chunk's passes add their gradients into its buffer one after another, in the
/// same order on any number of threads. A quarter of a chunk saves a quarter of
/// its activations (about 12 of `large`'s 50 MB), which stay nearer the cache for
/// the backward products that read them again (README: `large` 8–10% more steps/s
/// on one thread, `lesson` 3–7%).
const PASS_ROWS: usize = 8;

/// `forward_backward` that leaves the gradients in `arena` as plain vectors
/// (`FusedArena::gradients`), for the plain optimizer: the loss and the count
/// predicted right. It reads the arena's plain weights when it has them (the
/// caller vouches that they are `model`'s: see `FusedArena::forget_weights`),
/// else copies them out of `model`.
pub fn forward_backward_plain(model: &Transformer, batch: &Batch, chunk_rows: usize, (seed, step): (u64, u64), dropout: f64, arena: &mut FusedArena) -> (f32, f32) {
    let plain = match arena.weights.take() {
        Some(plain) => plain,
        None => PlainModel::of_recycling(model, &std::mem::take(&mut arena.recycled)),
    };
    let total_scored = batch.scored();
    let chunk_rows = chunk_rows.max(1);
    let starts: Vec<usize> = (0..batch.batch_size).step_by(chunk_rows).collect();
    let positional = model.config.positional;
    if !arena.tables.as_ref().is_some_and(|t| t.fit(&plain, positional, batch.seq_len)) {
        arena.tables = Some(Tables::new(&plain, positional, batch.seq_len));
    }
    let tables = arena.tables.as_ref().expect("tables set just above");
    if arena.grads.len() != starts.len() || !plain.has_layout(&arena.layout) {
        arena.layout = plain.layout();
        arena.grads = starts.iter().map(|_| plain.zeros_like()).collect();
    }
    let results: Vec<chunk::ChunkResult> = starts
        .par_iter()
        .zip(arena.grads.par_iter_mut())
        .enumerate()
        .map(|(index, (&start, grads))| {
            grads.fill_zero();
            let rows = chunk_rows.min(batch.batch_size - start);
            let mut dropout = chunk_dropout(dropout, (seed, step), index);
            // Dropout draws each site's mask over the whole chunk, as the composed path does.
            let pass_rows = if dropout.is_on() { rows } else { PASS_ROWS };
            let mut sums = chunk::ChunkResult { loss: 0.0, correct: 0.0 };
            for offset in (0..rows).step_by(pass_rows) {
                let part = slice_batch(batch, start + offset, pass_rows.min(rows - offset));
                let masks = chunk::chunk_masks(&model.config, model.source_len, &part);
                let result = chunk::run_chunk(&plain, tables, &masks, &part, total_scored, &mut dropout, chunk::Pass::Train(grads));
                sums.loss += result.loss;
                sums.correct += result.correct;
            }
            sums
        })
        .collect();
    let (loss, correct) = results.iter().fold((0.0, 0.0), |(l, c), r| (l + r.loss, c + r.correct));
    let (first, rest) = arena.grads.split_first_mut().expect("a batch has at least one row");
    for next in rest {
        first.add(next);
    }
    arena.weights = Some(plain);
    (loss, correct)
}

impl FusedArena {
    /// The last `forward_backward_plain`'s gradients by parameter id (every
    /// parameter some computation read; the others get none, as from burn's
    /// autodiff), with the plain weights that pass read (None when it kept none),
    /// for the plain optimizer to update in place.
    pub fn weights_and_gradients(&mut self) -> (Option<&mut PlainModel>, Vec<(burn::module::ParamId, &mut [f32])>) {
        (self.weights.as_mut(), self.grads.first_mut().map(PlainModel::read_gradients).unwrap_or_default())
    }

    /// `model` with the plain weights' values (the newest, when the plain
    /// optimizer stepped them alone).
    pub fn write_weights(&self, model: Transformer) -> Transformer {
        self.weights.as_ref().expect("a fused step kept its weights").write_into(model)
    }

    /// Drop the plain weights: the next step copies them out of the burn model
    /// again. Whoever changes the burn model other than by stepping both (new or
    /// loaded weights, an ablated head) calls this.
    pub fn forget_weights(&mut self) {
        if let Some(old) = self.weights.take() {
            self.recycled = recycled::Recycled::of(old);
        }
    }
}

/// One chunk of a held-out set through the fused forward pass (no dropout, no
/// gradients), the same sums as the composed evaluation: the weighted loss summed
/// over the scored positions, the weighted count predicted right, and the predicted
/// token of every scored position (None elsewhere). Rows of `chunk_rows` run in
/// parallel and are summed in order.
pub fn evaluate(model: &Transformer, batch: &Batch, chunk_rows: usize) -> Evaluated {
    let plain = PlainModel::of(model);
    let tables = Tables::new(&plain, model.config.positional, batch.seq_len);
    let chunk_rows = chunk_rows.max(1);
    let starts: Vec<usize> = (0..batch.batch_size).step_by(chunk_rows).collect();
    let results: Vec<(chunk::ChunkResult, Vec<(usize, u32)>)> = starts
        .par_iter()
        .map(|&start| {
            let chunk = slice_batch(batch, start, chunk_rows.min(batch.batch_size - start));
            let masks = chunk::chunk_masks(&model.config, model.source_len, &chunk);
            let mut predicted = Vec::new();
            // A total of 1: the chunk's loss comes back as its sum.
            let result = chunk::run_chunk(&plain, &tables, &masks, &chunk, 1, &mut Dropout::off(), chunk::Pass::Evaluate(&mut predicted));
            (result, predicted)
        })
        .collect();
    let mut evaluated = Evaluated { loss_sum: 0.0, correct: 0.0, predictions: vec![None; batch.batch_size * batch.seq_len] };
    for (&start, (result, predicted)) in starts.iter().zip(results) {
        evaluated.loss_sum += result.loss as f64;
        evaluated.correct += result.correct as f64;
        for (at, token) in predicted {
            evaluated.predictions[start * batch.seq_len + at] = Some(token);
        }
    }
    evaluated
}

/// A held-out chunk's sums on the fused path (`evaluate`).
pub struct Evaluated {
    pub loss_sum: f64,
    pub correct: f64,
    /// By position in the chunk (row · seq + column); None where nothing is scored.
    pub predictions: Vec<Option<u32>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{ExperimentConfig, PositionalEncoding, preset};
    use crate::tasks::{Rng, Split, TaskConfig, TaskKind};
    use crate::training::allocations;

    /// A chunk's forward and backward pass, over 100 steps of batches it has seen
    /// before (the steady state), allocates nothing: every buffer comes back from
    /// the pools.
    #[test]
    fn a_chunks_pass_allocates_nothing_in_the_steady_state() {
        type Edit = fn(&mut ExperimentConfig);
        let configs: [(&str, Edit); 4] = [
            ("the lesson preset on reverse", |_| {}),
            ("dropout 0.1, rotary and ALiBi-free pre-LN on the character model", |c| {
                c.task = TaskConfig::for_kind(TaskKind::CharLm);
                c.model.dropout = 0.1;
                c.model.positional = PositionalEncoding::Rotary;
                for l in &mut c.model.layers {
                    l.norm = crate::config::NormPlacement::Pre;
                }
            }),
            ("the encoder–decoder on translate (padded, scored counts vary)", |c| *c = preset("encoder_decoder").unwrap()),
            ("the GRU with additive attention on translate (padded)", |c| {
                *c = preset("rnn").unwrap();
                c.model.rnn_attention = crate::config::RnnAttention::Additive;
            }),
        ];
        // Every tier with product kernels of its own (on AVX2, large products copy
        // their operands into per-thread buffers, which must grow once only).
        let tiers = [simd::SimdTier::Avx2, simd::SimdTier::Avx512].into_iter().filter(|t| *t <= simd::SimdTier::detected());
        for ((name, edit), tier) in tiers.flat_map(|tier| configs.iter().map(move |c| (*c, tier))) {
            assert_eq!(simd::use_simd_tier(tier), tier);
            let name = format!("{name} ({tier:?})");
            let mut config = preset("lesson").unwrap();
            config.task = TaskConfig::for_kind(TaskKind::Reverse);
            edit(&mut config);
            let task = config.task.build().unwrap();
            let device = Device::flex();
            let model = Transformer::new(&config.model, config.model_vocab_size(task.vocab().len()), 1, &device).with_source_len(task.source_len());
            let plain = PlainModel::of(&model);
            let mut rng = Rng::new(3);
            let batches: Vec<(Batch, chunk::ChunkMasks)> = (0..100)
                .map(|_| {
                    let batch = task.batch(&mut rng, Split::Train, 32);
                    let masks = chunk::chunk_masks(&model.config, model.source_len, &batch);
                    (batch, masks)
                })
                .collect();
            let tables = Tables::new(&plain, config.model.positional, batches[0].0.seq_len);
            let mut grads = plain.zeros_like();
            let mut losses = Vec::with_capacity(200);
            let pass = |grads: &mut PlainModel, losses: &mut Vec<f32>| {
                for (step, (batch, masks)) in batches.iter().enumerate() {
                    grads.fill_zero();
                    let mut dropout = chunk_dropout(config.model.dropout, (0, step as u64), 0);
                    losses.push(chunk::run_chunk(&plain, &tables, masks, batch, batch.scored(), &mut dropout, chunk::Pass::Train(grads)).loss);
                }
            };
            pass(&mut grads, &mut losses); // fills the pools
            let before = allocations::on_this_thread();
            pass(&mut grads, &mut losses);
            let made = allocations::on_this_thread() - before;
            assert_eq!(made, 0, "{name}: {made} allocations in 100 steps");
            assert!(losses.iter().all(|l| l.is_finite() && *l > 0.0), "{name}: the steps computed losses");
            assert_eq!(losses[..100], losses[100..], "{name}: the second pass repeats the first");
        }
        simd::use_simd_tier(simd::SimdTier::detected());
    }
}
