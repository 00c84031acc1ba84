//! Gradient bookkeeping for one step: squared L2 norm of every parameter's gradient
//! (read back once per step together with the loss), global-norm clipping, and
//! weight / update norms for the update-to-weight ratio.

use burn::module::{Module, ModuleVisitor, Param, ParamId};
use burn::optim::GradientsParams;
use burn::tensor::Tensor;

use crate::model::Transformer;

/// A parameter's module path, e.g. `layers.0.attention.wq.weight`.
pub type ParamPath = String;

struct PathVisitor<F> {
    path: Vec<String>,
    on_float: F,
}

impl<F: FnMut(&str, ParamId, Tensor<1>)> ModuleVisitor for PathVisitor<F> {
    fn enter_module(&mut self, name: &str, _: &str) {
        self.path.push(name.to_string());
    }
    fn exit_module(&mut self, _: &str, _: &str) {
        self.path.pop();
    }
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        let path = self.path.join(".");
        let flat = param.val().inner().flatten::<1>(0, D - 1); // [numel]
        (self.on_float)(&path, param.id, flat);
    }
}

/// Call `f(path, id, flattened value)` for every float parameter, in model order.
/// The value is the plain (non-autodiff) tensor.
pub fn for_each_param(model: &Transformer, f: impl FnMut(&str, ParamId, Tensor<1>)) {
    let mut visitor = PathVisitor {
        path: Vec::new(),
        on_float: f,
    };
    model.visit(&mut visitor);
}

/// Call `f(path, id)` for every float parameter, in model order (no tensor is
/// touched).
pub fn for_each_param_id(model: &Transformer, f: impl FnMut(&str, ParamId)) {
    struct Ids<F> {
        path: Vec<String>,
        f: F,
    }
    impl<F: FnMut(&str, ParamId)> ModuleVisitor for Ids<F> {
        fn enter_module(&mut self, name: &str, _: &str) {
            self.path.push(name.to_string());
        }
        fn exit_module(&mut self, _: &str, _: &str) {
            self.path.pop();
        }
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            (self.f)(&self.path.join("."), param.id);
        }
    }
    model.visit(&mut Ids { path: Vec::new(), f });
}

/// Squared gradient norms, one `[1]` tensor per parameter that received a gradient.
/// Parameters without a gradient (e.g. Q and K of a uniform-average layer) are skipped.
pub fn grad_square_sums(model: &Transformer, grads: &GradientsParams) -> Vec<(ParamPath, Tensor<1>)> {
    struct Visitor<'a> {
        path: Vec<String>,
        grads: &'a GradientsParams,
        out: Vec<(ParamPath, Tensor<1>)>,
    }
    impl ModuleVisitor for Visitor<'_> {
        fn enter_module(&mut self, name: &str, _: &str) {
            self.path.push(name.to_string());
        }
        fn exit_module(&mut self, _: &str, _: &str) {
            self.path.pop();
        }
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            if let Some(grad) = self.grads.get::<D>(param.id) {
                self.out.push((self.path.join("."), grad.square().sum())); // [1]
            }
        }
    }
    let mut visitor = Visitor {
        path: Vec::new(),
        grads,
        out: Vec::new(),
    };
    model.visit(&mut visitor);
    visitor.out
}

/// Multiply every gradient by `factor` (global-norm clipping).
pub fn scale_grads(model: &Transformer, grads: GradientsParams, factor: f32) -> GradientsParams {
    struct Visitor {
        grads: GradientsParams,
        factor: f32,
    }
    impl ModuleVisitor for Visitor {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            if let Some(grad) = self.grads.remove::<D>(param.id) {
                self.grads.register(param.id, grad.mul_scalar(self.factor));
            }
        }
    }
    let mut visitor = Visitor { grads, factor };
    model.visit(&mut visitor);
    visitor.grads
}

/// The group a parameter belongs to: its path without the final `weight`/`bias`.
pub fn group_of(path: &str) -> &str {
    path.rsplit_once('.')
        .filter(|(_, last)| matches!(*last, "weight" | "bias" | "gamma" | "beta"))
        .map(|(group, _)| group)
        .unwrap_or(path)
}

/// The layer a parameter belongs to, as the gradient panel names it.
pub fn layer_of(path: &str) -> String {
    let mut parts = path.split('.');
    match (parts.next(), parts.next()) {
        (Some("layers"), Some(index)) => format!("layer {index}"),
        (Some("encoder"), Some(index)) => format!("encoder {index}"),
        (Some("rnn"), _) => "rnn".to_string(),
        (Some("tok_emb" | "pos_emb"), _) => "embedding".to_string(),
        _ => "head".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_and_layers_are_named_from_paths() {
        assert_eq!(group_of("layers.0.attention.wq.weight"), "layers.0.attention.wq");
        assert_eq!(group_of("tok_emb"), "tok_emb");
        assert_eq!(layer_of("layers.1.ffn.up.bias"), "layer 1");
        assert_eq!(layer_of("pos_emb"), "embedding");
        assert_eq!(layer_of("final_norm.gamma"), "head");
        assert_eq!(layer_of("encoder.1.attention.wq.weight"), "encoder 1");
        assert_eq!(layer_of("rnn.encoder.update_gate.input_transform.weight"), "rnn");
    }
}
