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

    /// Zero each element with probability p and scale the rest by 1/(1-p).
    pub fn apply<const D: usize>(&mut self, x: Tensor<D>) -> Tensor<D> {
        let Some(rng) = self.rng.as_mut().filter(|_| self.prob > 0.0) else {
            return x;
        };
        let keep = 1.0 - self.prob;
        let shape = x.dims();
        let n: usize = shape.iter().product();
        let scale = (1.0 / keep) as f32;
        let mask: Vec<f32> = (0..n)
            .map(|_| if rng.chance(keep) { scale } else { 0.0 })
            .collect();
        let mask = Tensor::<D>::from_data(TensorData::new(mask, shape), &x.device()); // same shape as x
        x * mask
    }
}
