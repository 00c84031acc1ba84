//! The attention core's small matrix products, one (sample, head) block at a
//! time: scores `Q Kᵀ`, the context `P V` and their gradients. Each reads and
//! writes blocks of larger row-major matrices in place (rows any distance apart),
//! so no head is copied out. AVX-512 and AVX2 + FMA run the crate's own product
//! kernels (`tiled`, the same bits on both); the portable tier a register tile of
//! plain Rust, compiled into its copy of the attention loops (nothing fused).

/// `C = A · B`, or `C += A · B` when `accumulate` (else every value of C is
/// written and none read), for `A(i, p) = a[i·a_rs + p·a_cs]` (`[m, k]`), `B(p, j)
/// = b[p·b_rs + j]` (`[k, n]`) and `C(i, j) = c[i·c_rs + j]` (`[m, n]`).
#[inline(always)]
pub(super) fn block_product((c, c_rs): (&mut [f32], usize), a: &[f32], a_stride: (usize, usize), (b, b_rs): (&[f32], usize), (m, k, n): (usize, usize, usize), accumulate: bool) {
    if m == 0 || n == 0 {
        return;
    }
    assert!(n <= c_rs && c.len() >= (m - 1) * c_rs + n, "block product: C too short");
    if k == 0 {
        if !accumulate {
            (0..m).for_each(|i| c[i * c_rs..][..n].fill(0.0));
        }
        return;
    }
    assert!(a.len() > (m - 1) * a_stride.0 + (k - 1) * a_stride.1, "block product: A too short");
    assert!(b.len() >= (k - 1) * b_rs + n, "block product: B too short");
    #[cfg(target_arch = "x86_64")]
    if super::tiled::tiled() {
        // SAFETY: `tiled()` holds; the asserts keep every A(i, p), B(p, j) and
        // C(i, j) inside `a`, `b` and `c`.
        unsafe { super::tiled::matmul_strided((c.as_mut_ptr(), c_rs), a, a_stride, (b, b_rs), None, (m, k, n), accumulate) };
        return;
    }
    let mut j = 0;
    while j + 16 <= n {
        tiles::<16>((c, c_rs), a, a_stride, (b, b_rs), (m, k), j, accumulate);
        j += 16;
    }
    while j + 8 <= n {
        tiles::<8>((c, c_rs), a, a_stride, (b, b_rs), (m, k), j, accumulate);
        j += 8;
    }
    while j < n {
        tiles::<1>((c, c_rs), a, a_stride, (b, b_rs), (m, k), j, accumulate);
        j += 1;
    }
}

/// Columns `j..j + W` of C, four rows at a time.
#[inline(always)]
fn tiles<const W: usize>((c, c_rs): (&mut [f32], usize), a: &[f32], a_stride: (usize, usize), (b, b_rs): (&[f32], usize), (m, k): (usize, usize), j: usize, accumulate: bool) {
    let mut i = 0;
    while i + 4 <= m {
        tile::<4, W>((c, c_rs), a, a_stride, (b, b_rs), k, (i, j), accumulate);
        i += 4;
    }
    while i < m {
        tile::<1, W>((c, c_rs), a, a_stride, (b, b_rs), k, (i, j), accumulate);
        i += 1;
    }
}

/// Rows `i..i + R`, columns `j..j + W` of C, summed over p in order in registers
/// (then added to C's values when `accumulate`).
#[inline(always)]
fn tile<const R: usize, const W: usize>((c, c_rs): (&mut [f32], usize), a: &[f32], (a_rs, a_cs): (usize, usize), (b, b_rs): (&[f32], usize), k: usize, (i, j): (usize, usize), accumulate: bool) {
    let mut acc = [[0.0f32; W]; R];
    for p in 0..k {
        let bv: &[f32; W] = b[p * b_rs + j..][..W].try_into().expect("a row of W");
        for (r, acc) in acc.iter_mut().enumerate() {
            let x = a[(i + r) * a_rs + p * a_cs];
            for l in 0..W {
                acc[l] += x * bv[l];
            }
        }
    }
    for (r, acc) in acc.iter().enumerate() {
        let out = &mut c[(i + r) * c_rs + j..][..W];
        if accumulate {
            out.iter_mut().zip(acc).for_each(|(o, a)| *o += a);
        } else {
            out.copy_from_slice(acc);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::training::fused::simd::{SimdTier, use_simd_tier};

    /// Every tier's block products against a plain loop in f64: blocks of larger
    /// matrices on every side, A read across or down, widths of one register, two,
    /// and with tails, an empty inner dimension (C all zeros, or as it was when
    /// accumulating), no rows or no columns, writing or accumulating; the values of
    /// C around the block and in two rows after it untouched.
    #[test]
    fn every_tiers_block_products_match_a_plain_loop() {
        let mut rng = crate::tasks::Rng::new(7);
        let mut random = |len: usize| (0..len).map(|_| rng.uniform(-1.0, 1.0) as f32).collect::<Vec<f32>>();
        let shapes = [(1, 1, 1), (3, 16, 16), (9, 16, 24), (16, 16, 64), (64, 16, 64), (13, 7, 12), (5, 40, 33), (8, 64, 17), (4, 0, 16), (0, 16, 16), (6, 16, 0)];
        for tier in SimdTier::ALL.into_iter().filter(|t| *t <= SimdTier::detected()) {
            assert_eq!(use_simd_tier(tier), tier);
            for &(m, k, n) in &shapes {
                for (across, accumulate) in [(true, false), (false, false), (true, true), (false, true)] {
                    let (a_rs, a_cs) = if across { (k + 5, 1) } else { (1, m + 3) };
                    let (b_rs, c_rs) = (n + 6, n + 4);
                    let a = random(m * a_rs.max(1) + k * a_cs + 8);
                    let b = random(k * b_rs);
                    // Two rows of guard after the block's last row.
                    let before = random((m + 2) * c_rs);
                    let mut c = before.clone();
                    block_product((&mut c, c_rs), &a, (a_rs, a_cs), (&b, b_rs), (m, k, n), accumulate);
                    for i in 0..m + 2 {
                        for j in 0..c_rs {
                            let got = c[i * c_rs + j];
                            let what = format!("{tier:?} ({m},{k},{n}) across {across} accumulate {accumulate} at ({i},{j})");
                            if i >= m || j >= n {
                                assert_eq!(got.to_bits(), before[i * c_rs + j].to_bits(), "{what}: outside the block");
                                continue;
                            }
                            let terms = (0..k).map(|p| a[i * a_rs + p * a_cs] as f64 * b[p * b_rs + j] as f64);
                            let exact: f64 = terms.clone().sum::<f64>() + if accumulate { before[i * c_rs + j] as f64 } else { 0.0 };
                            let scale = terms.map(f64::abs).sum::<f64>().max(1.0);
                            assert!((got as f64 - exact).abs() < 1e-5 * scale, "{what}: {got} vs {exact}");
                        }
                    }
                }
            }
        }
    }
}
