//! The way back to burn: a plain gradient set as `GradientsParams`, keyed by each
//! parameter's id, for burn's optimizer and the equivalence tests; and the same
//! gradients as plain slices by id (`read_gradients`), for the plain optimizer.

use burn::module::ParamId;
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
}
