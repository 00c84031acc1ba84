//! The recurrent models' squashing functions (tanh, the logistic sigmoid) and
//! softmax numerators, written so loops over them vectorise (`kernels::exp`
//! inside) and dispatched like the other element-wise loops. libm's scalar
//! `tanhf` and `expf` took about a twentieth of all claim time before, most of it
//! in the GRU's gates. (The cross-entropy keeps libm's `exp`: lesson 10's claim
//! trains to a loss near 0.0001, where a last-bit change in the loss moves seed
//! 2's run from 0.00014 to 0.015.)

use super::kernels::exp;
use super::simd::simd_fn;

/// tanh(x) for f32, within a few ulp: Cephes' odd polynomial for |x| ≤ 0.625,
/// 1 − 2/(e^{2|x|} + 1) with x's sign above. Both are computed and one is
/// picked, so a loop over it vectorises. NaN stays NaN; ±∞ gives ±1.
#[inline(always)]
pub fn tanh(x: f32) -> f32 {
    let z = x * x;
    let small = ((((-5.704_988_7e-3 * z + 2.063_909e-2) * z - 5.373_971_6e-2) * z + 1.333_144_2e-1) * z - 3.333_328e-1) * z * x + x;
    let large = (1.0 - 2.0 / (exp(2.0 * x.abs()) + 1.0)).copysign(x);
    if x.abs() > 0.625 { large } else { small }
}

/// The logistic sigmoid 1/(1 + e^{−x}), vectorisable.
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + exp(-x))
}

simd_fn! {
    /// `v = e^(v − shift)`, element by element (a softmax's numerators, `shift` the row's maximum).
    fn exp_shifted_in_place(v: &mut [f32], shift: f32) {
        for x in v.iter_mut() {
            *x = exp(*x - shift);
        }
    }
}

simd_fn! {
    /// `v = tanh(v)`, element by element.
    fn tanh_in_place(v: &mut [f32]) {
        for x in v.iter_mut() {
            *x = tanh(*x);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::training::fused::simd::{SimdTier, use_simd_tier};

    #[test]
    fn tanh_and_sigmoid_match_references_and_keep_their_limits() {
        let (mut worst_tanh, mut worst_sigmoid) = (0.0f64, 0.0f64);
        for i in -20_000..=20_000 {
            let x = i as f32 * 0.001;
            let exact = (x as f64).tanh();
            worst_tanh = worst_tanh.max((tanh(x) as f64 - exact).abs() / exact.abs().max(1e-30));
            let exact = 1.0 / (1.0 + (-(x as f64)).exp());
            worst_sigmoid = worst_sigmoid.max((sigmoid(x) as f64 - exact).abs() / exact);
        }
        assert!(worst_tanh < 1e-6, "tanh relative error {worst_tanh}");
        assert!(worst_sigmoid < 1e-6, "sigmoid relative error {worst_sigmoid}");
        for x in [1.0e-30f32, 1.0e-6, 0.3] {
            assert!(((tanh(x) as f64) - (x as f64).tanh()).abs() <= 1e-7 * (x as f64), "tanh({x}) = {}", tanh(x));
        }
        assert_eq!((tanh(f32::INFINITY), tanh(f32::NEG_INFINITY), tanh(100.0), tanh(-100.0)), (1.0, -1.0, 1.0, -1.0));
        assert_eq!(sigmoid(f32::INFINITY), 1.0);
        assert!((0.0..1e-38).contains(&sigmoid(f32::NEG_INFINITY)), "e^88.37 is the largest exp gives");
        assert!(tanh(f32::NAN).is_nan() && sigmoid(f32::NAN).is_nan(), "a diverged value stays visible");
    }

    /// Each instruction set's copy of the loops gives the portable copy's bits.
    #[test]
    fn the_vectorised_loops_give_the_portable_bits() {
        let input: Vec<f32> = (0..1003).map(|i| ((i * 7919) % 2001) as f32 * 0.01 - 10.0).collect();
        let run = |tier: SimdTier| {
            assert_eq!(use_simd_tier(tier), tier);
            let mut shifted = input.clone();
            exp_shifted_in_place(&mut shifted, 3.5);
            let mut squashed = input.clone();
            tanh_in_place(&mut squashed);
            (shifted, squashed)
        };
        let portable = run(SimdTier::Portable);
        for (j, &x) in input.iter().enumerate() {
            assert_eq!(portable.0[j].to_bits(), exp(x - 3.5).to_bits());
            assert_eq!(portable.1[j].to_bits(), tanh(x).to_bits());
        }
        for tier in SimdTier::ALL.into_iter().filter(|t| *t <= SimdTier::detected()) {
            let (shifted, squashed) = run(tier);
            assert!(shifted.iter().zip(&portable.0).all(|(a, b)| a.to_bits() == b.to_bits()), "{tier:?} exp");
            assert!(squashed.iter().zip(&portable.1).all(|(a, b)| a.to_bits() == b.to_bits()), "{tier:?} tanh");
        }
    }
}
