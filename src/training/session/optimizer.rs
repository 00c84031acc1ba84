//! The session's optimizer (burn's on the GPU, the plain one on the CPU) and a
//! step's gradients on their way to it.

use burn::optim::{AdamConfig, AdamWConfig, ModuleOptimizer, SgdConfig};

use super::Transformer;
use crate::config::OptimizerKind;
use crate::training::plain_optim::{EPSILON, PlainOptimizer, WEIGHT_DECAY};

/// A step's gradients: burn tensors (the composed step, or the fused one for
/// burn's optimizer), or the fused step's plain vectors by parameter id, with the
/// plain copy of the weights that step read (updated beside the burn model).
pub(super) enum StepGrads<'a> {
    Burn(burn::optim::GradientsParams),
    Plain {
        grads: Vec<(burn::module::ParamId, &'a mut [f32])>,
        weights: &'a mut crate::training::fused::PlainModel,
    },
}

/// ‖g‖² of each parameter with a gradient, in the model's order, with its path.
pub(super) fn plain_square_sums(model: &Transformer, grads: &[(burn::module::ParamId, &mut [f32])]) -> Vec<(String, f32)> {
    let mut out = Vec::new();
    crate::training::grad_stats::for_each_param_id(model, |path, id| {
        if let Some((_, g)) = grads.iter().find(|(of, _)| *of == id) {
            out.push((path.to_string(), square_sum(g)));
        }
    });
    out
}

/// Σ v² in 16 running sums (so it vectorises), added up at the end.
fn square_sum(values: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 16];
    let chunks = values.chunks_exact(16);
    let tail: f32 = chunks.remainder().iter().map(|v| v * v).sum();
    for chunk in chunks {
        lanes.iter_mut().zip(chunk).for_each(|(s, v)| *s += v * v);
    }
    lanes.iter().sum::<f32>() + tail
}

/// The optimizer: burn's on the GPU, where the weights stay; on the CPU the same
/// arithmetic as one plain loop per parameter (`plain_optim`).
#[derive(Clone)]
pub(super) enum Optimizer {
    Burn(ModuleOptimizer),
    Plain(PlainOptimizer),
}

/// burn's optimizer of `kind`, with the constants the plain one mirrors.
pub(in crate::training) fn build_optimizer(kind: OptimizerKind) -> ModuleOptimizer {
    match kind {
        OptimizerKind::Adam => AdamConfig::new().with_epsilon(EPSILON).init(),
        OptimizerKind::AdamW => AdamWConfig::new().with_epsilon(EPSILON).with_weight_decay(WEIGHT_DECAY).init(),
        OptimizerKind::Sgd => SgdConfig::new().init(),
    }
}


#[cfg(test)]
mod tests {
    use super::*;
    use crate::training::{Session, StepOutcome};

    /// A config change keeps the optimizer's moments only while its kind (and
    /// the device) stays: Adam's moments never drive AdamW's steps.
    #[test]
    fn a_new_optimizer_kind_starts_with_no_moments() {
        let mut config = crate::config::preset("tiny").unwrap();
        config.eval_size = 32;
        let mut session = Session::new(config.clone()).unwrap();
        let state = |s: &Session| match &s.optim {
            Optimizer::Plain(optim) => optim.state(),
            Optimizer::Burn(_) => panic!("the CPU steps with the plain optimizer"),
        };
        assert_eq!(state(&session), (OptimizerKind::Adam, 0));
        assert!(matches!(session.step(false), StepOutcome::Done { .. }));
        let moments = state(&session).1;
        assert!(moments > 0, "Adam keeps moments after a step");
        config.lr = 5e-4;
        session.apply_config(config.clone()).unwrap();
        assert_eq!(state(&session), (OptimizerKind::Adam, moments), "same kind: moments kept");
        config.optimizer = OptimizerKind::AdamW;
        session.apply_config(config).unwrap();
        assert_eq!(state(&session), (OptimizerKind::AdamW, 0), "another kind starts fresh");
        assert!(matches!(session.step(false), StepOutcome::Done { .. }));
        assert_eq!(state(&session), (OptimizerKind::AdamW, moments));
    }

    /// After fused steps the burn model gets the plain optimizer's values only
    /// when read (`Session::model`): read after any number of steps, it holds the
    /// values a session writing them in at every step (the gradient report's way)
    /// holds, bit for bit, and a read between steps does not pin it to that step.
    #[test]
    fn the_model_read_after_fused_steps_holds_the_newest_weights() {
        let mut config = crate::config::preset("lesson").unwrap();
        config.task = crate::tasks::TaskConfig::for_kind(crate::tasks::TaskKind::Reverse);
        let values = |s: &Session| {
            let mut out = Vec::new();
            crate::training::grad_stats::for_each_param(s.model(), |path, _, value| out.push((path.to_string(), value.into_data().try_into_vec::<f32>().unwrap())));
            out
        };
        let (mut lazy, mut eager) = (Session::new(config.clone()).unwrap(), Session::new(config).unwrap());
        assert!(lazy.backend().info.composed_because.is_none(), "the lesson preset trains on the fused step");
        let initial = values(&lazy);
        for step in 1..=5 {
            assert!(matches!(lazy.step(false), StepOutcome::Done { .. }));
            assert!(matches!(eager.step(true), StepOutcome::Done { .. }));
            if step == 2 || step == 5 {
                same(&values(&lazy), &values(&eager), &format!("step {step}"));
                assert_ne!(values(&lazy), initial, "step {step}: the weights moved");
            }
        }
        // The gradient report takes the model with its values written in, before
        // the step (its update ratios compare the weights before and after) and after.
        let report = |s: &mut Session| match s.step(true) {
            StepOutcome::Done { gradients: Some(report), .. } => report.groups.iter().map(|g| (g.grad_norm.to_bits(), g.update_ratio.to_bits())).collect::<Vec<_>>(),
            _ => panic!("a reported step"),
        };
        assert_eq!(report(&mut lazy), report(&mut eager), "the report after steps not written in");
        same(&values(&lazy), &values(&eager), "a reported step after steps not written in");
    }

    fn same(got: &[(String, Vec<f32>)], expected: &[(String, Vec<f32>)], at: &str) {
        assert_eq!(got.len(), expected.len());
        for ((path, a), (_, b)) in got.iter().zip(expected) {
            assert!(a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits()), "{at}: {path} differs");
        }
    }
}
