//! The way back to burn: a plain gradient set as `GradientsParams`, keyed by each
//! parameter's id, for burn's optimizer and the equivalence tests; the same
//! gradients as plain slices by id (`read_gradients`), for the plain optimizer;
//! and the plain weights it updated, written into the burn model (`write_into`).

use burn::module::{ModuleMapper, Param, ParamId};
use burn::optim::GradientsParams;
use burn::tensor::{Device, Tensor, TensorData};
use rayon::prelude::*;

use super::params::{Plain, PlainModel};

/// One parameter's gradient as a burn tensor of its rank.
enum Gradient {
    Vector(Tensor<1>),
    Matrix(Tensor<2>),
}

impl Gradient {
    /// A copy of `t`'s values on `device`.
    fn of(t: &Plain, device: &Device) -> Self {
        let data = t.data.clone();
        match t.shape.len() {
            1 => Gradient::Vector(Tensor::from_data(TensorData::new(data, [t.shape[0]]), device)),
            2 => Gradient::Matrix(Tensor::from_data(TensorData::new(data, [t.shape[0], t.shape[1]]), device)),
            rank => unreachable!("the model has only rank-1 and rank-2 parameters, not rank {rank}"),
        }
    }

    fn register_in(self, id: ParamId, grads: &mut GradientsParams) {
        match self {
            Gradient::Vector(t) => grads.register(id, t),
            Gradient::Matrix(t) => grads.register(id, t),
        }
    }
}

impl PlainModel {
    /// The parameters no computation reads (Q and K of a uniform or convolution
    /// layer, an encoder nothing cross-attends to): burn's
    /// autodiff gives them no gradient, and neither does the fused step.
    fn unread(&mut self) -> Vec<ParamId> {
        let mut out = Vec::new();
        if self.seq2seq && !self.encoder_read() {
            let mut encoder = Vec::new();
            for layer in &mut self.encoder {
                layer.tensors_into(&mut encoder);
            }
            if let Some(n) = &mut self.encoder_norm {
                n.tensors_into(&mut encoder);
            }
            out.extend(encoder.into_iter().map(|t| t.id));
        }
        let units = self.encoder.iter().chain(&self.layers).flat_map(|l| [l.attention.as_ref(), l.cross.as_ref()]);
        for a in units.flatten().filter(|a| a.fixed()) {
            for l in [&a.q, &a.k] {
                out.push(l.w.id);
                out.extend(l.b.as_ref().map(|b| b.id));
            }
        }
        out
    }

    /// These values by parameter id, the unread parameters left out (as in
    /// `to_gradients`).
    pub(super) fn read_gradients(&mut self) -> Vec<(ParamId, &mut [f32])> {
        let unread = self.unread();
        self.tensors_mut().into_iter().filter(|t| !unread.contains(&t.id)).map(|t| (t.id, t.data.as_mut_slice())).collect()
    }

    /// A copy of these values as burn gradients on `device` (the plain,
    /// non-autodiff device); burn keeps the copies, the buffers stay for the next step.
    pub fn to_gradients(&mut self, device: &Device) -> GradientsParams {
        let unread = self.unread();
        // The copies into burn's tensors on the compute threads, registered in order.
        let made: Vec<(ParamId, Gradient)> = self.tensors_mut().into_par_iter().filter(|t| !unread.contains(&t.id)).map(|t| (t.id, Gradient::of(t, device))).collect();
        let mut grads = GradientsParams::new();
        for (id, gradient) in made {
            gradient.register_in(id, &mut grads);
        }
        grads
    }

    /// `module` with these values in place of its parameters' (by id; a
    /// parameter this copy lacks keeps its own).
    pub fn write_into<M: burn::module::Module>(&self, module: M) -> M {
        let mut values = Vec::new();
        self.visit(&mut |t| values.push(t));
        module.map(&mut Writer { values })
    }
}

/// Puts the plain values of `values` (by id) into a module's parameters.
struct Writer<'a> {
    values: Vec<&'a Plain>,
}

impl ModuleMapper for Writer<'_> {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        let (id, tensor, mapper) = param.consume();
        let Some(plain) = self.values.iter().find(|t| t.id == id) else {
            return Param::from_mapped_value(id, tensor, mapper);
        };
        Param::from_mapped_value(id, with_values(tensor, plain.data.clone()), mapper)
    }
}

/// A parameter's tensor with `values` in place of its own (same shape, device and
/// tracking).
pub(crate) fn with_values<const D: usize>(tensor: Tensor<D>, values: Vec<f32>) -> Tensor<D> {
    let (tracked, inner) = (tensor.is_require_grad(), tensor.inner());
    let (shape, device) = (inner.shape(), inner.device());
    assert_eq!(shape.num_elements(), values.len(), "a parameter's new values have its shape");
    let updated = Tensor::<D>::from_inner(Tensor::from_data(TensorData::new(values, shape), &device));
    if tracked { updated.require_grad() } else { updated }
}
