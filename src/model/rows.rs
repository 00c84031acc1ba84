//! A `Linear` applied to every position as one matrix product.
//!
//! burn's `linear` keeps a `[batch, seq, d]` input's batch dimension when `seq` is not
//! a multiple of its tile, which runs `batch` small products forward and backward.
//! Folding the positions into rows first gives one `[batch·seq, d_in] @ [d_in, d_out]`
//! product (and one for each gradient) with the same result.

use burn::nn::Linear;
use burn::tensor::Tensor;

/// x: `[batch, seq, d_in]` -> `[batch, seq, d_out]`
pub fn linear_rows(layer: &Linear, x: Tensor<3>) -> Tensor<3> {
    let [batch, seq, d_in] = x.dims();
    let out = layer.forward(x.reshape([batch * seq, d_in])); // [batch·seq, d_out]
    let [_, d_out] = out.dims();
    out.reshape([batch, seq, d_out]) // [batch, seq, d_out]
}
