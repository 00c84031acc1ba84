//! The buffers of a forgotten copy of the weights, handed to the next copy
//! (`PlainModel::of_recycling`): after weights are put in place another way (a
//! loaded run, an ablated head) the session's fused step copies them out of burn
//! again, into the old copy's buffers where the sizes still fit.

use std::collections::HashMap;
use std::sync::Mutex;

use burn::module::ParamId;

use super::params::PlainModel;

/// Value buffers by parameter id, and AVX-512's transposed weights by the weight's
/// id; locked only to take one out (the layers are copied in parallel).
#[derive(Default)]
pub struct Recycled {
    values: Mutex<HashMap<ParamId, Vec<f32>>>,
    /// `PlainLinear::w_t`, by the weight's id.
    transposed: Mutex<HashMap<ParamId, Vec<f32>>>,
}

impl Recycled {
    /// The buffers of `model` (a copy no longer needed).
    pub fn of(mut model: PlainModel) -> Self {
        let transposed = model.linears_mut().into_iter().map(|l| (l.w.id, std::mem::take(&mut l.w_t))).collect();
        let values = model.tensors_mut().into_iter().map(|t| (t.id, std::mem::take(&mut t.data))).collect();
        Self { values: Mutex::new(values), transposed: Mutex::new(transposed) }
    }

    /// Parameter `id`'s old value buffer, emptied (a new one when there is none).
    pub(super) fn values_for(&self, id: ParamId) -> Vec<f32> {
        take(&self.values, id)
    }

    /// The old transpose of weight `id`, emptied (a new one when there is none).
    pub(super) fn transposed_for(&self, id: ParamId) -> Vec<f32> {
        take(&self.transposed, id)
    }
}

/// `id`'s old buffer from `pool`, emptied (a new one when there is none).
fn take(pool: &Mutex<HashMap<ParamId, Vec<f32>>>, id: ParamId) -> Vec<f32> {
    let mut v = pool.lock().expect("nothing panics holding the buffers").remove(&id).unwrap_or_default();
    v.clear();
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{PositionalEncoding, preset};
    use crate::model::Transformer;

    /// The weights copied out of burn a second time land in the first copy's
    /// buffers (values and AVX-512's transposes), every value written again: the
    /// old buffers are scribbled over first, and the copy equals a fresh one bit
    /// for bit.
    #[test]
    fn a_second_copy_of_the_weights_fills_the_first_copys_buffers() {
        let mut config = preset("lesson").unwrap();
        config.model.positional = PositionalEncoding::Learned;
        let device = burn::tensor::Device::flex();
        let model = Transformer::new(&config.model, 20, 1, &device);
        let mut first = PlainModel::of(&model);
        let values: Vec<*const f32> = first.tensors_mut().iter().map(|t| t.data.as_ptr()).collect();
        let transposed: Vec<*const f32> = first.linears_mut().iter().filter(|l| !l.w_t.is_empty()).map(|l| l.w_t.as_ptr()).collect();
        for t in first.tensors_mut() {
            t.data.fill(f32::NAN);
        }
        for l in first.linears_mut() {
            l.w_t.fill(f32::NAN);
        }
        let mut second = PlainModel::of_recycling(&model, &Recycled::of(first));
        let mut fresh = PlainModel::of(&model);
        assert_eq!(second.tensors_mut().iter().map(|t| t.data.as_ptr()).collect::<Vec<_>>(), values, "the same value buffers");
        assert_eq!(second.linears_mut().iter().filter(|l| !l.w_t.is_empty()).map(|l| l.w_t.as_ptr()).collect::<Vec<_>>(), transposed, "the same transposes");
        for (a, b) in second.tensors_mut().into_iter().zip(fresh.tensors_mut()) {
            assert_eq!((a.id, &a.shape), (b.id, &b.shape));
            assert!(a.data.iter().zip(&b.data).all(|(x, y)| x.to_bits() == y.to_bits()) && a.data.len() == b.data.len(), "{:?}", a.id);
        }
        for (a, b) in second.linears_mut().into_iter().zip(fresh.linears_mut()) {
            assert!(a.w_t.iter().zip(&b.w_t).all(|(x, y)| x.to_bits() == y.to_bits()) && a.w_t.len() == b.w_t.len());
        }
    }

    /// A kept copy's transposes follow the tier: emptied on the portable tier,
    /// which has no products of its own (the backward products read `w_t`
    /// whenever it is not empty), made again on AVX2 and AVX-512, equal to a fresh
    /// copy's either way.
    #[test]
    fn a_kept_copys_transposes_follow_the_tier() {
        use crate::training::fused::{SimdTier, use_simd_tier};
        let config = preset("lesson").unwrap();
        let model = Transformer::new(&config.model, 20, 1, &burn::tensor::Device::flex());
        let mut kept = PlainModel::of(&model);
        for tier in [SimdTier::Avx512, SimdTier::Portable, SimdTier::Avx2, SimdTier::Portable, SimdTier::Avx512] {
            let tier = use_simd_tier(tier);
            kept.transpose_weights();
            let mut fresh = PlainModel::of(&model);
            for (a, b) in kept.linears_mut().into_iter().zip(fresh.linears_mut()) {
                assert_eq!(a.w_t.is_empty(), tier == SimdTier::Portable, "{tier:?}");
                assert!(a.w_t.len() == b.w_t.len() && a.w_t.iter().zip(&b.w_t).all(|(x, y)| x.to_bits() == y.to_bits()), "{tier:?}");
            }
        }
        use_simd_tier(SimdTier::detected());
    }
}
