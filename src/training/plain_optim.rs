//! The optimizer step on the CPU as one loop per parameter, with the moments kept
//! as plain vectors: the same arithmetic as burn's Adam, AdamW and SGD, operation
//! for operation, so the weights it gives are the same bits (a test steps both
//! side by side), at a fraction of the cost. burn's optimizers run each update as
//! a dozen tensor operations, each a pass over the weights and a new tensor;
//! that was about 5% of all the time `lesson verify` trained.
//!
//! Used on the CPU backends; the GPU keeps burn's optimizer (its tensors stay on
//! the device). The state is keyed by parameter id, as burn's is, so a weight a
//! config change keeps (same id) keeps its moments.

use std::collections::HashMap;

use burn::module::{ModuleMapper, Param, ParamId};
use burn::optim::GradientsParams;
use burn::tensor::Tensor;

use super::fused::simd::simd_fn;
use super::fused::{PlainModel, with_values};
use crate::config::OptimizerKind;

/// Adam's β₁ and β₂, burn's defaults.
const BETA_1: f32 = 0.9;
const BETA_2: f32 = 0.999;
/// ε of both Adams (`build_optimizer`).
pub const EPSILON: f32 = 1e-8;
/// AdamW's decoupled weight decay (`build_optimizer`).
pub const WEIGHT_DECAY: f32 = 0.01;

/// One parameter's Adam moments and its step count.
#[derive(Clone)]
struct Moments {
    time: i32,
    first: Vec<f32>,
    second: Vec<f32>,
}

/// Adam, AdamW or SGD over plain vectors, with each parameter's moments.
#[derive(Clone)]
pub struct PlainOptimizer {
    kind: OptimizerKind,
    moments: HashMap<ParamId, Moments>,
}

impl PlainOptimizer {
    pub fn new(kind: OptimizerKind) -> Self {
        Self { kind, moments: HashMap::new() }
    }

    /// Which optimizer this is, and how many parameters have moments.
    #[cfg(test)]
    pub fn state(&self) -> (OptimizerKind, usize) {
        (self.kind, self.moments.len())
    }

    /// Apply `grads` to `module` at learning rate `lr`; parameters without a
    /// gradient are left as they are.
    pub fn step<M: burn::module::Module>(&mut self, lr: f64, module: M, mut grads: GradientsParams) -> M {
        module.map(&mut Stepper { optim: self, grads: &mut grads, lr })
    }

    /// `step` for the fused step: its gradients as plain vectors by parameter id
    /// (never copied into burn) and `weights`, the plain copy of the weights that
    /// step read. Each parameter with a gradient is updated in `weights`, in
    /// place (the same values as stepping the module); `PlainModel::write_into`
    /// puts them into the burn model when something reads it.
    pub fn step_plain(&mut self, lr: f64, weights: &mut PlainModel, grads: &[(ParamId, &mut [f32])]) {
        for t in weights.tensors_mut() {
            if let Some((_, grad)) = grads.iter().find(|(of, _)| *of == t.id) {
                self.update(t.id, lr, &mut t.data, grad);
            }
        }
        weights.transpose_weights();
    }

    /// Update `weights` in place with `grad`, as burn's optimizer of this kind
    /// would (see the module comment), for the parameter `id`.
    fn update(&mut self, id: ParamId, lr: f64, weights: &mut [f32], grad: &[f32]) {
        let adam = match self.kind {
            OptimizerKind::Sgd => {
                let lr = lr as f32;
                weights.iter_mut().zip(grad).for_each(|(w, g)| *w -= g * lr);
                return;
            }
            OptimizerKind::Adam => false,
            OptimizerKind::AdamW => true,
        };
        let moments = match self.moments.get_mut(&id) {
            // A moment of another size belongs to a weight this id no longer names.
            Some(m) if m.first.len() == grad.len() => {
                m.time += 1;
                moments_update(&mut m.first, &mut m.second, grad);
                m
            }
            _ => {
                let first = grad.iter().map(|&g| g * (1.0 - BETA_1)).collect();
                let second = grad.iter().map(|&g| (g * g) * (1.0 - BETA_2)).collect();
                self.moments.insert(id, Moments { time: 1, first, second });
                self.moments.get_mut(&id).expect("just inserted")
            }
        };
        let (time, first, second) = (moments.time, &moments.first, &moments.second);
        let step = lr as f32;
        if adam {
            // burn's AdamW: bias-corrected moments, then decoupled decay.
            let corrections = (1.0 - BETA_1.powi(time), 1.0 - BETA_2.powi(time));
            let decay = lr * WEIGHT_DECAY as f64;
            let keep = (decay != 0.0).then_some((1.0 - decay) as f32);
            adamw_apply(weights, first, second, corrections, keep, step);
        } else {
            // burn's Adam: both corrections folded into one factor and ε.
            let correction = (1.0 - BETA_2.powi(time)).sqrt();
            let factor = correction / (1.0 - BETA_1.powi(time));
            adam_apply(weights, first, second, factor, EPSILON * correction, step);
        }
    }
}

// The loops, one copy per instruction set (`simd_fn`): each operation is IEEE
// rounded the same at any width, so every tier gives burn's bits.
simd_fn! {
    /// m ← β₁m + (1 − β₁)g and v ← β₂v + (1 − β₂)g², as burn orders them.
    fn moments_update(first: &mut [f32], second: &mut [f32], grad: &[f32]) {
        for ((m1, m2), &g) in first.iter_mut().zip(second.iter_mut()).zip(grad) {
            *m1 = *m1 * BETA_1 + g * (1.0 - BETA_1);
            *m2 = *m2 * BETA_2 + (g * g) * (1.0 - BETA_2);
        }
    }
}

simd_fn! {
    /// w ← w − lr · (m · factor) / (√v + ε′).
    fn adam_apply(weights: &mut [f32], first: &[f32], second: &[f32], factor: f32, epsilon: f32, step: f32) {
        for ((w, &m1), &m2) in weights.iter_mut().zip(first).zip(second) {
            let delta = (m1 * factor) / (m2.sqrt() + epsilon);
            *w -= delta * step;
        }
    }
}

simd_fn! {
    /// w ← w · keep − lr · (m / c₁) / (√(v / c₂) + ε) (no decay when `keep` is None).
    fn adamw_apply(weights: &mut [f32], first: &[f32], second: &[f32], corrections: (f32, f32), keep: Option<f32>, step: f32) {
        let (c1, c2) = corrections;
        for ((w, &m1), &m2) in weights.iter_mut().zip(first).zip(second) {
            let delta = (m1 / c1) / ((m2 / c2).sqrt() + EPSILON);
            let decayed = match keep {
                Some(keep) => *w * keep,
                None => *w,
            };
            *w = decayed - delta * step;
        }
    }
}

/// Walks the module's parameters, stepping each that has a gradient.
struct Stepper<'a> {
    optim: &'a mut PlainOptimizer,
    grads: &'a mut GradientsParams,
    lr: f64,
}

impl ModuleMapper for Stepper<'_> {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        let (id, tensor, mapper) = param.consume();
        let Some(grad) = self.grads.remove::<D>(id) else {
            return Param::from_mapped_value(id, tensor, mapper);
        };
        let grad = grad.into_data().try_into_vec::<f32>().expect("gradients are f32");
        let mut weights: Vec<f32> = tensor.clone().into_data().try_into_vec::<f32>().expect("weights are f32");
        self.optim.update(id, self.lr, &mut weights, &grad);
        Param::from_mapped_value(id, with_values(tensor, weights), mapper)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn::optim::ModuleOptimizer;
    use burn::tensor::{Distribution, Device};
    use crate::training::fused::{SimdTier, use_simd_tier};
    use crate::training::grad_stats::for_each_param;

    /// Three steps of each optimizer, on each instruction set, on a model with randomised weights and
    /// gradients (some zero, some large): burn's optimizer and the plain one give
    /// the same bits, parameter for parameter, at every step.
    #[test]
    fn plain_steps_match_burns_bit_for_bit() {
        // The CPU (flex), the reference the fused step mirrors: `Device::default()`
        // would pick the GPU where one is compiled in and found.
        let device = Device::flex().autodiff();
        // On every instruction set this CPU has (`simd_fn`'s copies of the loops).
        let tiers = SimdTier::ALL.into_iter().filter(|&t| use_simd_tier(t) == t);
        for (tier, kind) in tiers.flat_map(|t| [OptimizerKind::Adam, OptimizerKind::AdamW, OptimizerKind::Sgd].map(|k| (t, k))) {
            use_simd_tier(tier);
            let config = crate::config::preset("tiny").unwrap();
            let model = crate::model::Transformer::new(&config.model, 11, 7, &device);
            let mut burn_optim: ModuleOptimizer = crate::training::session::build_optimizer(kind);
            let mut plain = PlainOptimizer::new(kind);
            // The fused step's way too: a plain copy of the weights, made once and
            // stepped in place beside the model it writes into.
            let mut copied = PlainOptimizer::new(kind);
            let mut weights = crate::training::fused::PlainModel::of(&model);
            let (mut theirs, mut ours, mut written) = (model.clone(), model.clone(), model);
            for step in 0..3 {
                let lr = [1e-3, 3e-2, 0.5][step];
                // Every parameter's gradient: normal values times a scale that
                // varies by parameter and step (zero included).
                struct Draw<'a>(&'a mut Vec<(ParamId, Tensor<1>, Vec<usize>)>, usize, &'a Device);
                impl burn::module::ModuleVisitor for Draw<'_> {
                    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
                        let scale = [0.0, 1e-6, 1.0, 50.0][(self.0.len() + self.1) % 4];
                        let shape = param.val().shape();
                        let g = Tensor::<1>::random([shape.num_elements()], Distribution::Normal(0.0, 1.0), self.2).mul_scalar(scale); // [n]
                        self.0.push((param.id, g, shape.to_vec()));
                    }
                }
                let mut drawn = Vec::new();
                burn::module::Module::visit(&theirs, &mut Draw(&mut drawn, step, &device.clone().inner()));
                let grads = || {
                    let mut grads = GradientsParams::new();
                    struct Put<'a>(&'a [(ParamId, Tensor<1>, Vec<usize>)], &'a mut GradientsParams);
                    impl burn::module::ModuleVisitor for Put<'_> {
                        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
                            let (_, g, shape) = self.0.iter().find(|(id, ..)| *id == param.id).expect("drawn");
                            let shape: [usize; D] = shape.clone().try_into().expect("rank D");
                            self.1.register::<D>(param.id, g.clone().reshape(shape));
                        }
                    }
                    burn::module::Module::visit(&theirs, &mut Put(&drawn, &mut grads));
                    grads
                };
                let (g1, g2) = (grads(), grads());
                theirs = burn_optim.step(lr, theirs, g1);
                ours = plain.step(lr, ours, g2);
                let mut vectors: Vec<(ParamId, Vec<f32>)> = drawn.iter().map(|(id, g, _)| (*id, g.clone().into_data().try_into_vec::<f32>().unwrap())).collect();
                let slices: Vec<(ParamId, &mut [f32])> = vectors.iter_mut().map(|(id, g)| (*id, g.as_mut_slice())).collect();
                copied.step_plain(lr, &mut weights, &slices);
                written = weights.write_into(written);
                let values = |model: &crate::model::Transformer| {
                    let mut out = Vec::new();
                    for_each_param(model, |path, _, value| out.push((path.to_string(), value.into_data().try_into_vec::<f32>().unwrap())));
                    out
                };
                let expected = values(&theirs);
                for (how, got) in [("stepping the model", values(&ours)), ("the plain copy", values(&written))] {
                    for ((path, a), (_, b)) in expected.iter().zip(got) {
                        let same = a.len() == b.len() && a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits());
                        assert!(same, "{kind:?} on {tier:?}, step {step}, {how}: {path} differs");
                    }
                }
                // The copy itself holds the new values too (the next fused step reads it).
                assert!(weights.has_same_values(&crate::training::fused::PlainModel::of(&written)), "{kind:?} on {tier:?}, step {step}: the plain copy lags the model");
            }
        }
    }
}
