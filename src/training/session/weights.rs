//! Where a session's weights live: the burn model, and the fused step's plain
//! copy (`FusedArena`), which the plain optimizer steps alone. After such a step
//! the burn model's values lag the copy (`model_behind`) until something reads
//! it; whoever changes the burn model another way makes the next step copy it
//! out afresh.

use burn::tensor::{Device, Tensor};

use super::{Session, Transformer};

impl Session {
    /// The model with its current weights.
    pub fn model(&self) -> &Transformer {
        let model = self.model.as_ref().expect("the model is only taken during a step");
        if !self.model_behind {
            return model;
        }
        self.model_now.get_or_init(|| self.fused_arena.write_weights(model.clone()))
    }

    /// The model taken out, with its current weights.
    pub(super) fn take_model(&mut self) -> Transformer {
        let model = self.model.take().expect("the model is only taken during a step");
        if !std::mem::take(&mut self.model_behind) {
            return model;
        }
        self.model_now.take().unwrap_or_else(|| self.fused_arena.write_weights(model))
    }

    /// Put other weights in place (the fused step then copies them out afresh).
    pub(in crate::training) fn set_model(&mut self, model: Transformer) {
        self.fused_arena.forget_weights();
        (self.model_behind, self.model_now) = (false, Default::default());
        self.model = Some(model);
    }

    /// The model with its current weights, to change in place (the fused step
    /// then copies it out afresh).
    pub(in crate::training) fn model_mut(&mut self) -> Option<&mut Transformer> {
        let model = self.take_model();
        self.fused_arena.forget_weights();
        self.model = Some(model);
        self.model.as_mut()
    }
}

/// burn's autodiff frees the bookkeeping of tensors that are gone only when a
/// backward pass runs. The fused step never runs one on the model, while new
/// tracked parameters are made whenever the new values are written into it (each
/// read of the model after a step, or the gradient report), so without this the
/// memory would grow with the steps. A backward pass over one fresh number runs
/// that clean-up and nothing else.
pub(super) fn release_autodiff_graph(device: &Device) {
    let one = Tensor::<1>::zeros([1], device).require_grad(); // [1]
    let _ = one.sum().backward();
}
