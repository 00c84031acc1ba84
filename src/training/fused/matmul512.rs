//! Matrix products with AVX-512 for CPUs that have it. The `gemm` crate's
//! AVX-512 kernels need a nightly compiler, so on stable it runs its AVX2 ones;
//! these use the full 16-lane registers (twice the lanes per instruction).
//!
//! One tile of C is 8 rows × 32 columns (16 accumulators of 16 lanes) summed over
//! the whole inner dimension in registers; B is read in place (row-major), A is
//! broadcast element by element from any layout. The tiles of a panel of 32
//! columns reuse that panel of B from the cache. Column tails use masked loads and
//! stores (a last panel of at most 16 columns, one register); row tails a smaller
//! tile. B and C may be blocks of larger matrices (rows any distance apart).

use std::arch::x86_64::{__m512, _mm512_add_ps, _mm512_fmadd_ps, _mm512_mask_storeu_ps, _mm512_maskz_loadu_ps, _mm512_set1_ps, _mm512_setzero_ps};

/// Rows per tile.
const MR: usize = 8;
/// Columns per tile: two registers of 16.
const NR: usize = 32;

/// The first `count` of 16 lanes (`count` ≥ 16 gives all).
fn lanes(count: usize) -> u16 {
    if count >= 16 { u16::MAX } else { (1u16 << count) - 1 }
}

/// `C = (accumulate ? C : 0) + A · B (+ bias on every row)` for `A(i, p) =
/// a[i·a_rs + p·a_cs]` (`[m, k]`), `B(p, j) = b[p·b_rs + j]` (`[k, n]`), `C(i, j)`
/// at `c + i·c_rs + j` (`[m, n]`) and `bias` `[n]`: B and C may be blocks of
/// larger matrices (the attention loops' products per sample and head). Without
/// `accumulate` every value of C is written and none read. A panel of
/// at most 16 columns runs tiles of one register.
///
/// # Safety
/// The CPU must have AVX-512 F. `a` must hold every `A(i, p)` index and `b` every
/// `B(p, j)` (checked in debug builds); `c` must be valid for writes (and reads,
/// when `accumulate`) at every `C(i, j)`.
#[target_feature(enable = "avx512f")]
pub unsafe fn matmul_strided((c, c_rs): (*mut f32, usize), a: &[f32], (a_rs, a_cs): (usize, usize), (b, b_rs): (&[f32], usize), bias: Option<&[f32]>, (m, k, n): (usize, usize, usize), accumulate: bool) {
    debug_assert!(k == 0 || n == 0 || b.len() >= (k - 1) * b_rs + n);
    debug_assert!(bias.is_none_or(|bias| bias.len() >= n));
    let bias = bias.map(<[f32]>::as_ptr);
    debug_assert!(m == 0 || k == 0 || a.len() > (m - 1) * a_rs + (k - 1) * a_cs);
    let (a, b) = (a.as_ptr(), b.as_ptr());
    for j in (0..n).step_by(NR) {
        let masks = (lanes(n - j), lanes((n - j).saturating_sub(16)));
        let mut i = 0;
        while i < m {
            let at = Tile { c, c_rs, a, a_stride: (a_rs, a_cs), b, b_rs, bias, k, i, j, masks, accumulate };
            // SAFETY: the tile's rows i..i+R and columns j..j+32 (masked to n) lie
            // inside the matrices (the caller's contract).
            unsafe {
                if n - j <= 16 {
                    at.rows::<1>(m - i);
                } else {
                    at.rows::<2>(m - i);
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
    c_rs: usize,
    a: *const f32,
    a_stride: (usize, usize),
    b: *const f32,
    b_rs: usize,
    bias: Option<*const f32>,
    k: usize,
    i: usize,
    j: usize,
    /// Lanes of the two column registers inside the matrix.
    masks: (u16, u16),
    accumulate: bool,
}

impl Tile {
    /// The tile's first `left` rows (at most 8), `W` registers wide.
    ///
    /// # Safety
    /// As `run`.
    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn rows<const W: usize>(&self, left: usize) {
        // SAFETY: the caller's.
        unsafe {
            match left {
                8.. => self.run::<8, W>(),
                7 => self.run::<7, W>(),
                6 => self.run::<6, W>(),
                5 => self.run::<5, W>(),
                4 => self.run::<4, W>(),
                3 => self.run::<3, W>(),
                2 => self.run::<2, W>(),
                _ => self.run::<1, W>(),
            }
        }
    }

    /// Rows `i..i + R` of the tile, `W` (1 or 2) registers of 16 columns wide (with
    /// one, the second mask's columns lie outside the matrix).
    ///
    /// # Safety
    /// AVX-512 F, and the tile inside the matrices.
    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn run<const R: usize, const W: usize>(&self) {
        let Tile { c, c_rs, a, a_stride: (a_rs, a_cs), b, b_rs, bias, k, i, j, masks: (m0, m1), accumulate } = *self;
        let mut left: [__m512; R] = [_mm512_setzero_ps(); R];
        let mut right: [__m512; R] = [_mm512_setzero_ps(); R];
        // SAFETY (whole block): every pointer stays inside the matrices; masked
        // lanes are neither read nor written.
        unsafe {
            for p in 0..k {
                let row = b.add(p * b_rs + j);
                let b0 = _mm512_maskz_loadu_ps(m0, row);
                if W == 1 {
                    for (r, acc) in left.iter_mut().enumerate() {
                        let x = _mm512_set1_ps(*a.add((i + r) * a_rs + p * a_cs));
                        *acc = _mm512_fmadd_ps(x, b0, *acc);
                    }
                    continue;
                }
                let b1 = _mm512_maskz_loadu_ps(m1, row.add(16));
                for r in 0..R {
                    let x = _mm512_set1_ps(*a.add((i + r) * a_rs + p * a_cs));
                    left[r] = _mm512_fmadd_ps(x, b0, left[r]);
                    right[r] = _mm512_fmadd_ps(x, b1, right[r]);
                }
            }
            // The bias is added to the finished sum, as when it is the starting value
            // of an accumulating product: the same bits either way.
            // With one register the second's pointers (16 columns on) are never
            // formed: they may lie past the end of the matrix.
            let bias = bias.map(|bias| (_mm512_maskz_loadu_ps(m0, bias.add(j)), if W == 2 { _mm512_maskz_loadu_ps(m1, bias.add(j + 16)) } else { _mm512_setzero_ps() }));
            for r in 0..R {
                let out = c.add((i + r) * c_rs + j);
                let (mut l, mut rr) = (left[r], right[r]);
                if let Some((b0, b1)) = bias {
                    l = _mm512_add_ps(b0, l);
                    rr = _mm512_add_ps(b1, rr);
                }
                if accumulate {
                    l = _mm512_add_ps(_mm512_maskz_loadu_ps(m0, out), l);
                    if W == 2 {
                        rr = _mm512_add_ps(_mm512_maskz_loadu_ps(m1, out.add(16)), rr);
                    }
                }
                _mm512_mask_storeu_ps(out, m0, l);
                if W == 2 {
                    _mm512_mask_storeu_ps(out.add(16), m1, rr);
                }
            }
        }
    }
}

