//! Matrix products with AVX-512 for CPUs that have it. The `gemm` crate's
//! AVX-512 kernels need a nightly compiler, so on stable it runs its AVX2 ones;
//! these use the full 16-lane registers (twice the lanes per instruction).
//!
//! One tile of C is 8 rows × 32 columns (16 accumulators of 16 lanes) summed over
//! the whole inner dimension in registers; B is read in place (row-major), A is
//! broadcast element by element from any layout. The tiles of a panel of 32
//! columns reuse that panel of B from the cache. Column tails use masked loads and
//! stores; row tails a smaller tile.

use std::arch::x86_64::{__m512, _mm512_add_ps, _mm512_fmadd_ps, _mm512_mask_storeu_ps, _mm512_maskz_loadu_ps, _mm512_set1_ps, _mm512_setzero_ps};

/// Rows per tile.
const MR: usize = 8;
/// Columns per tile: two registers of 16.
const NR: usize = 32;

/// The first `count` of 16 lanes (`count` ≥ 16 gives all).
fn lanes(count: usize) -> u16 {
    if count >= 16 { u16::MAX } else { (1u16 << count) - 1 }
}

/// `c = (accumulate ? c : 0) + A · B (+ bias on every row)` for `A(i, p) =
/// a[i·a_rs + p·a_cs]` (`[m, k]`), `B` stored row-major `[k, n]`, `c` row-major
/// `[m, n]` and `bias` `[n]`.
///
/// # Safety
/// The CPU must have AVX-512 F. `a` must hold every `A(i, p)` index and `b` at
/// least `k·n` values (checked in debug builds); `c` must be valid for writes of
/// `m·n` values (and reads, when `accumulate`). Without `accumulate` every value
/// of `c` is written and none read.
#[target_feature(enable = "avx512f")]
pub unsafe fn matmul(c: *mut f32, a: &[f32], (a_rs, a_cs): (usize, usize), b: &[f32], bias: Option<&[f32]>, (m, k, n): (usize, usize, usize), accumulate: bool) {
    debug_assert!(b.len() >= k * n && bias.is_none_or(|bias| bias.len() >= n));
    let bias = bias.map(<[f32]>::as_ptr);
    debug_assert!(m == 0 || k == 0 || a.len() > (m - 1) * a_rs + (k - 1) * a_cs);
    let (a, b) = (a.as_ptr(), b.as_ptr());
    for j in (0..n).step_by(NR) {
        let masks = (lanes(n - j), lanes((n - j).saturating_sub(16)));
        let mut i = 0;
        while i < m {
            let at = Tile { c, a, a_stride: (a_rs, a_cs), b, bias, n, k, i, j, masks, accumulate };
            // SAFETY: the tile's rows i..i+R and columns j..j+32 (masked to n) lie
            // inside the matrices (the caller's contract).
            unsafe {
                match m - i {
                    8.. => at.run::<8>(),
                    7 => at.run::<7>(),
                    6 => at.run::<6>(),
                    5 => at.run::<5>(),
                    4 => at.run::<4>(),
                    3 => at.run::<3>(),
                    2 => at.run::<2>(),
                    _ => at.run::<1>(),
                }
            }
            i += MR;
        }
    }
}

/// Where one tile of C lies and what it reads.
#[derive(Clone, Copy)]
struct Tile {
    c: *mut f32,
    a: *const f32,
    a_stride: (usize, usize),
    b: *const f32,
    bias: Option<*const f32>,
    n: usize,
    k: usize,
    i: usize,
    j: usize,
    /// Lanes of the two column registers inside the matrix.
    masks: (u16, u16),
    accumulate: bool,
}

impl Tile {
    /// Rows `i..i + R` of the tile.
    ///
    /// # Safety
    /// AVX-512 F, and the tile inside the matrices.
    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn run<const R: usize>(&self) {
        let Tile { c, a, a_stride: (a_rs, a_cs), b, bias, n, k, i, j, masks: (m0, m1), accumulate } = *self;
        let mut left: [__m512; R] = [_mm512_setzero_ps(); R];
        let mut right: [__m512; R] = [_mm512_setzero_ps(); R];
        // SAFETY (whole block): every pointer stays inside the matrices; masked
        // lanes are neither read nor written.
        unsafe {
            for p in 0..k {
                let row = b.add(p * n + j);
                let b0 = _mm512_maskz_loadu_ps(m0, row);
                let b1 = _mm512_maskz_loadu_ps(m1, row.add(16));
                for r in 0..R {
                    let x = _mm512_set1_ps(*a.add((i + r) * a_rs + p * a_cs));
                    left[r] = _mm512_fmadd_ps(x, b0, left[r]);
                    right[r] = _mm512_fmadd_ps(x, b1, right[r]);
                }
            }
            // The bias is added to the finished sum, as when it is the starting value
            // of an accumulating product: the same bits either way.
            let bias = bias.map(|bias| (_mm512_maskz_loadu_ps(m0, bias.add(j)), _mm512_maskz_loadu_ps(m1, bias.add(j + 16))));
            for r in 0..R {
                let out = c.add((i + r) * n + j);
                let (mut l, mut rr) = (left[r], right[r]);
                if let Some((b0, b1)) = bias {
                    l = _mm512_add_ps(b0, l);
                    rr = _mm512_add_ps(b1, rr);
                }
                if accumulate {
                    l = _mm512_add_ps(_mm512_maskz_loadu_ps(m0, out), l);
                    rr = _mm512_add_ps(_mm512_maskz_loadu_ps(m1, out.add(16)), rr);
                }
                _mm512_mask_storeu_ps(out, m0, l);
                _mm512_mask_storeu_ps(out.add(16), m1, rr);
            }
        }
    }
}

