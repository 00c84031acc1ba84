//! The crate's own matrix-product kernels, for the tiers that have one: AVX-512
//! (`matmul512`) and AVX2 + FMA (`matmul256`), one kernel (`register_tile`) on
//! registers of 16 and 8 lanes, which give the same bits. The portable tier runs
//! the `gemm` crate for the layers' products and a register tile of plain Rust for
//! the attention core's. (On AVX2, gemm's packed kernels are faster on large
//! products, but they allocate their packing buffers on every call; there, and on
//! AVX-512, the layers' large products read copies of their operands instead,
//! `packed`.)

use super::simd::{SimdTier, simd_tier};

/// Whether the chosen tier runs the crate's own product kernels.
#[inline]
pub(super) fn tiled() -> bool {
    cfg!(target_arch = "x86_64") && simd_tier() >= SimdTier::Avx2
}

/// `C = (accumulate ? C : 0) + A · B (+ bias on every row)`, as
/// `matmul512::matmul_strided`, by the chosen tier's kernel.
///
/// # Safety
/// `tiled()` must hold; otherwise the contract of `matmul512::matmul_strided`.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(super) unsafe fn matmul_strided(c: (*mut f32, usize), a: &[f32], a_stride: (usize, usize), b: (&[f32], usize), bias: Option<&[f32]>, shape: (usize, usize, usize), accumulate: bool) {
    // SAFETY: each tier is only chosen when the CPU has its features; the rest is
    // the caller's contract.
    unsafe {
        match simd_tier() {
            SimdTier::Avx512 => super::matmul512::matmul_strided(c, a, a_stride, b, bias, shape, accumulate),
            SimdTier::Avx2 => super::matmul256::matmul_strided(c, a, a_stride, b, bias, shape, accumulate),
            SimdTier::Portable => unreachable!("the portable tier has no kernel of its own (check `tiled()`)"),
        }
    }
}

/// `matmul_strided` for a layer's product (not attention's small blocks): a
/// large one reads B's panels and A from contiguous copies
/// (`packed::matmul_copied`). The same bits either way.
///
/// # Safety
/// As `matmul_strided`.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(super) unsafe fn matmul_layer(c: (*mut f32, usize), a: &[f32], a_stride: (usize, usize), b: (&[f32], usize), bias: Option<&[f32]>, shape: (usize, usize, usize), accumulate: bool) {
    // SAFETY: each tier is only chosen when the CPU has its features; the rest is
    // the caller's contract.
    unsafe {
        match simd_tier() {
            SimdTier::Avx512 if super::packed::worth_copying(shape, a_stride) => super::matmul512::matmul_copied(c, a, a_stride, b, bias, shape, accumulate),
            SimdTier::Avx2 if super::packed::worth_copying(shape, a_stride) => super::matmul256::matmul_copied(c, a, a_stride, b, bias, shape, accumulate),
            _ => matmul_strided(c, a, a_stride, b, bias, shape, accumulate),
        }
    }
}

/// Random operands for a product's tests: A read across (rows k + 3 apart) or
/// down (columns m + 2 apart), B and C as blocks of wider matrices (rows n + 5
/// and n + 7 apart), a bias, and C with one row more than the block.
#[cfg(test)]
pub(super) struct Operands {
    pub a: Vec<f32>,
    pub a_stride: (usize, usize),
    pub b: Vec<f32>,
    pub b_rs: usize,
    pub bias: Vec<f32>,
    pub c: Vec<f32>,
    pub c_rs: usize,
}

#[cfg(test)]
impl Operands {
    pub(super) fn random(rng: &mut crate::tasks::Rng, (m, k, n): (usize, usize, usize), across: bool) -> Operands {
        let mut random = |len: usize| (0..len).map(|_| rng.uniform(-1.0, 1.0) as f32).collect::<Vec<f32>>();
        let (a_rs, a_cs) = if across { (k + 3, 1) } else { (1, m + 2) };
        let (b_rs, c_rs) = (n + 5, n + 7);
        Operands { a: random(m * a_rs + k * a_cs + 4), a_stride: (a_rs, a_cs), b: random(k * b_rs), b_rs, bias: random(n), c: random((m + 1) * c_rs), c_rs }
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;
    use crate::training::fused::simd::use_simd_tier;

    /// Each tier's own kernel against one scalar chain of fused multiply-adds per
    /// value (from 0 over p in order, then + bias, then + C's old value), bit for
    /// bit: so AVX2 and AVX-512 give the same bits. Blocks of larger matrices, A
    /// read across or down, one register, two, and tails, with and without a bias,
    /// writing or accumulating; C around the block untouched.
    #[test]
    fn every_tiers_kernel_gives_the_bits_of_a_scalar_chain() {
        let mut rng = crate::tasks::Rng::new(11);
        let shapes = [(1, 1, 1), (6, 16, 16), (7, 16, 17), (13, 64, 64), (5, 9, 3), (12, 33, 40), (9, 7, 8), (2, 130, 31), (4, 300, 24), (17, 16, 192)];
        let tiers: Vec<SimdTier> = [SimdTier::Avx2, SimdTier::Avx512].into_iter().filter(|t| *t <= SimdTier::detected()).collect();
        assert!(!tiers.is_empty() || !std::is_x86_feature_detected!("avx2"), "a CPU with AVX2 and FMA runs the AVX2 kernel");
        for tier in tiers {
            assert_eq!(use_simd_tier(tier), tier);
            assert!(tiled());
            for &(m, k, n) in &shapes {
                for (across, accumulate, with_bias) in [(true, false, false), (false, false, true), (true, true, true), (false, true, false)] {
                    let Operands { a, a_stride: (a_rs, a_cs), b, b_rs, bias, c: before, c_rs } = Operands::random(&mut rng, (m, k, n), across);
                    let mut c = before.clone();
                    // SAFETY: `tiled()` holds; A, B and C hold every index of the block.
                    unsafe { matmul_strided((c.as_mut_ptr(), c_rs), &a, (a_rs, a_cs), (&b, b_rs), with_bias.then_some(&bias[..]), (m, k, n), accumulate) };
                    for i in 0..m + 1 {
                        for j in 0..c_rs {
                            let got = c[i * c_rs + j];
                            let what = format!("{tier:?} ({m},{k},{n}) across {across} accumulate {accumulate} bias {with_bias} at ({i},{j})");
                            if i >= m || j >= n {
                                assert_eq!(got.to_bits(), before[i * c_rs + j].to_bits(), "{what}: outside the block");
                                continue;
                            }
                            let mut want = (0..k).fold(0.0f32, |acc, p| a[i * a_rs + p * a_cs].mul_add(b[p * b_rs + j], acc));
                            if with_bias {
                                want += bias[j];
                            }
                            if accumulate {
                                want += before[i * c_rs + j];
                            }
                            assert_eq!(got.to_bits(), want.to_bits(), "{what}: {got} vs {want}");
                        }
                    }
                }
            }
        }
        use_simd_tier(SimdTier::detected());
    }
}
