//! One training step of a session: batch → forward → masked cross-entropy →
//! backward (in fixed-size chunks of rows, in parallel: `chunks.rs`, or the fused
//! CPU step: `fused/`) → the loss, the hits and every gradient's squared norm (one
//! read-back from burn, or plain sums of the fused step's gradients) → non-finite
//! check → clip → optimizer (on the CPU the plain one, which takes the fused step's
//! gradients as they are).

use burn::tensor::Tensor;

use super::optimizer::{Optimizer, StepGrads, plain_square_sums};
use super::weights::release_autodiff_graph;
use super::{Session, StepOutcome};
use crate::model::readback::read_floats;
use crate::tasks::{Rng, Split};
use crate::training::chunks::{CHUNK_ROWS, ForwardBackward, forward_backward};
use crate::training::events::{NonFiniteKind, StepMetrics};
use crate::training::grad_report::{gradient_report, weight_snapshot};
use crate::training::grad_stats::{grad_square_sums, group_of, layer_of, scale_grads};

impl Session {
    /// One optimizer step; `report_gradients` also measures update/weight ratios.
    ///
    /// On the CPU the step runs on a compute thread of the current pool from
    /// start to end. Called from another thread (the window's trainer, the CLI),
    /// its parallel loops were each handed to the pool and waited for, and the
    /// parts between them ran on the caller, so a step's data moved between two
    /// threads, often on two cores: on a 2-core EPYC, `bench --lengths 32` on one
    /// thread took 3.9 to 6.5 ms a step from run to run (4.0 to 4.2 ms on the
    /// pool), and `lesson verify` about 8% more CPU time (two runs each, taking
    /// turns). A GPU step stays on the caller's thread: the GPU runtime keeps a
    /// stream and a memory pool per thread, and the session's evaluations and
    /// snapshots run on the caller's.
    pub fn step(&mut self, report_gradients: bool) -> StepOutcome {
        if self.backend.is_gpu() {
            self.step_in_place(report_gradients)
        } else {
            // On a pool's thread already, `scope` runs it in place.
            rayon::scope(|_| self.step_in_place(report_gradients))
        }
    }

    /// `step`, on the thread it is called on.
    fn step_in_place(&mut self, report_gradients: bool) -> StepOutcome {
        #[cfg(test)]
        super::tests::STEPS_ON_THIS_THREAD.with(|steps| steps.set(steps.get() + 1));
        // Each step's batch and dropout come from (seed, step) alone: a resumed or
        // reconfigured run draws the same data, and every seed is its own run.
        let (seed, step) = (self.config.seed, self.step as u64);
        let batch = self.task.batch(&mut Rng::for_step(seed, step, 2), Split::Train, self.config.batch_size);
        let chunk_rows = if self.backend.is_gpu() { batch.batch_size } else { CHUNK_ROWS };
        let fused = self.backend.info.composed_because.is_none();
        // The fused step reads its plain copy of the weights: the burn model then
        // only gives the layout, and its values may lag. Anything else reads them,
        // as does the gradient report (before and after).
        let model = if fused && matches!(self.optim, Optimizer::Plain(_)) && !report_gradients {
            // Either has the layout; one written up to date is as good as the other.
            let model = self.model.take().expect("model present between steps");
            self.model_now.take().unwrap_or(model)
        } else {
            self.take_model()
        };
        let lr = self.lr_at(self.step);
        let dropout = self.config.model.dropout;
        // The fused step's gradients go to the plain optimizer as they are; the
        // composed step's come back as burn tensors, read back once with the loss.
        let (loss, hits, mut grads, squares) = match &self.optim {
            Optimizer::Plain(_) if fused => {
                let (loss, correct) = crate::training::fused::forward_backward_plain(&model, &batch, chunk_rows, (seed, step), dropout, &mut self.fused_arena);
                let (weights, grads) = self.fused_arena.weights_and_gradients();
                let squares = plain_square_sums(&model, &grads);
                (loss, correct, StepGrads::Plain { grads, weights: weights.expect("the fused step keeps the weights it read") }, squares)
            }
            _ => {
                let ForwardBackward { loss, correct, grads } = if fused {
                    crate::training::fused::forward_backward(&model, &batch, &self.backend.device, chunk_rows, (seed, step), dropout, &mut self.fused_arena)
                } else {
                    forward_backward(&model, &batch, &self.train_device, chunk_rows, (seed, step), dropout)
                };
                let squares = grad_square_sums(&model, &grads);
                // One read-back per step: [loss, hits, ‖g‖² of every parameter...]
                let mut parts = vec![loss, correct];
                parts.extend(squares.iter().map(|(_, sq)| sq.clone()));
                let values = read_floats(Tensor::cat(parts, 0));
                let squares = squares.into_iter().map(|(path, _)| path).zip(values[2..].iter().copied()).collect();
                (values[0], values[1], StepGrads::Burn(grads), squares)
            }
        };
        let grad_sq: Vec<f32> = squares.iter().map(|(_, v)| *v).collect();
        let grad_sq = &grad_sq[..];

        if !loss.is_finite() || grad_sq.iter().any(|v| !v.is_finite()) {
            let group = squares.iter().find(|(_, v)| !v.is_finite()).map(|(path, _)| group_of(path).to_string());
            self.model = Some(model);
            let kind = if loss.is_finite() { NonFiniteKind::Gradient } else { NonFiniteKind::Loss };
            return StepOutcome::NonFinite {
                step: self.step + 1,
                kind,
                group,
            };
        }

        let grad_norm = grad_sq.iter().sum::<f32>().sqrt();
        self.last_layer_grad_norms = layer_norms(&squares);
        if let Some(clip) = self.config.clip_grad_norm.filter(|&clip| grad_norm > clip) {
            let factor = clip / grad_norm;
            grads = match grads {
                StepGrads::Burn(grads) => StepGrads::Burn(scale_grads(&model, grads, factor)),
                StepGrads::Plain { mut grads, weights } => {
                    grads.iter_mut().for_each(|(_, g)| g.iter_mut().for_each(|v| *v *= factor));
                    StepGrads::Plain { grads, weights }
                }
            };
        }
        let before = report_gradients.then(|| weight_snapshot(&model));
        let (model, behind) = match (&mut self.optim, grads) {
            (Optimizer::Burn(optim), StepGrads::Burn(grads)) => (optim.step(lr, model, grads), false),
            (Optimizer::Plain(optim), StepGrads::Burn(grads)) => (optim.step(lr, model, grads), false),
            (Optimizer::Plain(optim), StepGrads::Plain { grads, weights }) => {
                optim.step_plain(lr, weights, &grads);
                // The burn model gets the new values when something reads it, or
                // now for the gradient report.
                match report_gradients {
                    true => (weights.write_into(model), false),
                    false => (model, true),
                }
            }
            (Optimizer::Burn(_), StepGrads::Plain { .. }) => unreachable!("plain gradients go only to the plain optimizer"),
        };
        self.model_behind = behind;
        if fused {
            release_autodiff_graph(&self.train_device);
        }
        let gradients = before.map(|before| {
            gradient_report(self.step + 1, &model, before, &squares)
        });
        self.model = Some(model);
        self.step += 1;

        let steps_per_s = self.timer.tick();
        let metrics = StepMetrics {
            step: self.step,
            loss,
            accuracy: hits / batch.scored().max(1) as f32,
            lr,
            grad_norm,
            steps_per_s,
            tokens_per_s: steps_per_s * (batch.batch_size * batch.seq_len) as f32,
        };
        self.history.push_step(metrics.record());
        StepOutcome::Done { metrics, gradients }
    }
}

/// Gradient norm per transformer layer, in layer order, from per-parameter ‖g‖².
fn layer_norms(squares: &[(String, f32)]) -> Vec<(String, f32)> {
    let mut layers: Vec<(String, f32)> = Vec::new();
    for (path, g2) in squares {
        let layer = layer_of(path);
        if !layer.starts_with("layer ") {
            continue;
        }
        match layers.iter_mut().find(|(name, _)| *name == layer) {
            Some((_, sum)) => *sum += g2,
            None => layers.push((layer, *g2)),
        }
    }
    layers.iter_mut().for_each(|(_, sum)| *sum = sum.sqrt());
    layers
}
