//! Dropout with masks drawn from our own seeded generator, so a run with dropout is
//! still reproducible from its seed, whatever else runs in the process.

use burn::tensor::{Tensor, TensorData};

use crate::tasks::Rng;

pub struct Dropout {
    prob: f64,
    rng: Option<Rng>,
}

impl Dropout {
    /// No dropout (evaluation, probes, or a probability of 0).
    pub fn off() -> Self {
        Self { prob: 0.0, rng: None }
    }

    /// Training dropout with probability `prob`, masks drawn from `rng`.
    pub fn train(prob: f64, rng: Rng) -> Self {
        Self { prob, rng: Some(rng) }
    }

    /// The next `n` mask values in the stream's order: 0 with probability p,
    /// 1/(1-p) otherwise; None when off. The fused CPU step draws the same masks
    /// through this, in the same order, so both paths drop the same elements.
    pub fn mask(&mut self, n: usize) -> Option<Vec<f32>> {
        let mut mask = Vec::new();
        self.mask_into(&mut mask, n).then_some(mask)
    }

    /// Whether it drops anything (training with p > 0).
    pub fn is_on(&self) -> bool {
        self.rng.is_some() && self.prob > 0.0
    }

    /// `mask`, written into `out` (cleared first); false (and `out` untouched) when off.
    pub fn mask_into(&mut self, out: &mut Vec<f32>, n: usize) -> bool {
        let Some(rng) = self.rng.as_mut().filter(|_| self.prob > 0.0) else {
            return false;
        };
        let keep = 1.0 - self.prob;
        let scale = (1.0 / keep) as f32;
        out.clear();
        out.extend((0..n).map(|_| if rng.chance(keep) { scale } else { 0.0 }));
        true
    }

    /// Zero each element with probability p and scale the rest by 1/(1-p).
    pub fn apply<const D: usize>(&mut self, x: Tensor<D>) -> Tensor<D> {
        let shape = x.dims();
        let Some(mask) = self.mask(shape.iter().product()) else {
            return x;
        };
        let mask = Tensor::<D>::from_data(TensorData::new(mask, shape), &x.device()); // same shape as x
        x * mask
    }
}
