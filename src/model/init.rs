//! Initial weights drawn from our own seeded generator, so a seed gives the same
//! model on every backend and in every thread. The defaults match PyTorch's:
//! linear weights and biases U(-1/√fan_in, 1/√fan_in), embeddings N(0, 1).

use burn::module::Param;
use burn::nn::{LayerNorm, LayerNormConfig, Linear};
use burn::tensor::{Device, Tensor, TensorData};

use crate::tasks::Rng;

/// Draws every initial tensor; `scale` multiplies all of them (the init-scale knob).
pub struct Initializer<'a> {
    pub rng: &'a mut Rng,
    pub scale: f64,
    /// ε of every LayerNorm (`ModelConfig::layer_norm_eps`).
    pub layer_norm_eps: f64,
    /// Every weight zero instead of drawn (a frame for weights read from a file).
    pub zeros: bool,
    pub device: &'a Device,
}

impl Initializer<'_> {
    /// A `[d_in, d_out]` linear layer with bias.
    pub fn linear(&mut self, d_in: usize, d_out: usize) -> Linear {
        let bound = 1.0 / (d_in as f64).sqrt();
        let weight = self.uniform(vec![d_in, d_out], bound);
        let bias = self.uniform(vec![d_out], bound);
        Linear {
            weight: Param::from_data(weight, self.device),
            bias: Some(Param::from_data(bias, self.device)),
        }
    }

    /// A `[d_out]` bias drawn as a `[d_in, d_out]` linear layer's would be.
    pub fn bias(&mut self, d_in: usize, d_out: usize) -> Param<Tensor<1>> {
        let bound = 1.0 / (d_in as f64).sqrt();
        Param::from_data(self.uniform(vec![d_out], bound), self.device)
    }

    /// A `[rows, cols]` table of N(0, scale²) entries (token and position embeddings).
    pub fn embedding(&mut self, rows: usize, cols: usize) -> Param<Tensor<2>> {
        if self.zeros {
            return Param::from_data(TensorData::new(vec![0f32; rows * cols], [rows, cols]), self.device);
        }
        let values: Vec<f32> = (0..rows * cols)
            .map(|_| (self.rng.normal() * self.scale) as f32)
            .collect();
        Param::from_data(TensorData::new(values, [rows, cols]), self.device)
    }

    /// A `[rows, cols]` parameter of zeros (a convolution's kernel: its softmax starts even).
    pub fn zeros(&mut self, rows: usize, cols: usize) -> Param<Tensor<2>> {
        Param::from_data(TensorData::new(vec![0f32; rows * cols], [rows, cols]), self.device)
    }

    /// LayerNorm starts as the identity (gain 1, bias 0) whatever the scale.
    pub fn layer_norm(&mut self, d_model: usize) -> LayerNorm {
        LayerNormConfig::new(d_model).with_epsilon(self.layer_norm_eps).init(self.device)
    }

    fn uniform(&mut self, shape: Vec<usize>, bound: f64) -> TensorData {
        let n: usize = shape.iter().product();
        if self.zeros {
            return TensorData::new(vec![0f32; n], shape);
        }
        let bound = bound * self.scale;
        let values: Vec<f32> = (0..n)
            .map(|_| self.rng.uniform(-bound, bound) as f32)
            .collect();
        TensorData::new(values, shape)
    }
}
