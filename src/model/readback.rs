//! Tensors back to plain numbers: one device read each. Everything that hands
//! numbers to the window, the CLI or a run folder reads them through here.

use burn::tensor::{Int, Tensor};

/// A float tensor's values, row-major.
pub fn read_floats<const D: usize>(tensor: Tensor<D>) -> Vec<f32> {
    tensor.into_data().convert::<f32>().try_into_vec::<f32>().expect("f32 data")
}

/// An int tensor's values, row-major.
pub fn read_ints<const D: usize>(tensor: Tensor<D, Int>) -> Vec<i64> {
    tensor.into_data().convert::<i64>().try_into_vec::<i64>().expect("int data")
}
