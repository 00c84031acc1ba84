//! Matrix products with AVX2 and FMA, for CPUs without AVX-512: the same
//! arithmetic as `matmul512`, eight lanes at a time. Every value of C is one
//! chain of fused multiply-adds over the inner dimension in order, from 0, then
//! the bias, then C's old value when accumulating: exactly `matmul512`'s steps, so
//! the two tiers give the same bits (a test checks both against a scalar chain).
//!
//! One tile of C is 6 rows × 16 columns (12 accumulators of 8 lanes, plus two
//! registers of B and one broadcast of A: 15 of the 16 registers). B is read in
//! place (row-major), A is broadcast element by element from any layout. Column
//! tails use masked loads and stores (a last panel of at most 8 columns, one
//! register); row tails a smaller tile. B and C may be blocks of larger matrices.

use std::arch::x86_64::{__m256, __m256i, _mm256_add_ps, _mm256_fmadd_ps, _mm256_loadu_ps, _mm256_maskload_ps, _mm256_maskstore_ps, _mm256_set1_ps, _mm256_setr_epi32, _mm256_setzero_ps, _mm256_storeu_ps};

/// Rows per tile.
const MR: usize = 6;
/// Columns per tile: two registers of 8.
const NR: usize = 16;

/// The columns of one register inside the matrix: all 8, or the first `count`
/// (a mask for the masked loads and stores).
#[derive(Clone, Copy)]
enum Lanes {
    All,
    First(__m256i),
}

impl Lanes {
    /// The first `count` of 8 lanes (`count` ≥ 8 gives all).
    #[target_feature(enable = "avx2")]
    fn of(count: usize) -> Lanes {
        if count >= 8 {
            return Lanes::All;
        }
        let c = count as i32;
        // A lane is on when its sign bit is set: lane l < count gives l - count < 0.
        Lanes::First(_mm256_setr_epi32(-c, 1 - c, 2 - c, 3 - c, 4 - c, 5 - c, 6 - c, 7 - c))
    }

    /// # Safety
    /// AVX2; the lanes this mask keeps lie inside a readable allocation at `at`.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn load(self, at: *const f32) -> __m256 {
        // SAFETY: the caller's; masked lanes are not read.
        unsafe {
            match self {
                Lanes::All => _mm256_loadu_ps(at),
                Lanes::First(mask) => _mm256_maskload_ps(at, mask),
            }
        }
    }

    /// # Safety
    /// AVX2; the lanes this mask keeps lie inside a writable allocation at `at`.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn store(self, at: *mut f32, value: __m256) {
        // SAFETY: the caller's; masked lanes are not written.
        unsafe {
            match self {
                Lanes::All => _mm256_storeu_ps(at, value),
                Lanes::First(mask) => _mm256_maskstore_ps(at, mask, value),
            }
        }
    }
}

/// `C = (accumulate ? C : 0) + A · B (+ bias on every row)` for `A(i, p) =
/// a[i·a_rs + p·a_cs]` (`[m, k]`), `B(p, j) = b[p·b_rs + j]` (`[k, n]`), `C(i, j)`
/// at `c + i·c_rs + j` (`[m, n]`) and `bias` `[n]`. Without `accumulate` every
/// value of C is written and none read. A panel of at most 8 columns
/// runs tiles of one register.
///
/// # Safety
/// The CPU must have AVX2 and FMA. `a` must hold every `A(i, p)` index and `b`
/// every `B(p, j)` (checked in debug builds); `c` must be valid for writes (and
/// reads, when `accumulate`) at every `C(i, j)`.
#[target_feature(enable = "avx2,fma")]
pub unsafe fn matmul_strided((c, c_rs): (*mut f32, usize), a: &[f32], (a_rs, a_cs): (usize, usize), (b, b_rs): (&[f32], usize), bias: Option<&[f32]>, (m, k, n): (usize, usize, usize), accumulate: bool) {
    debug_assert!(k == 0 || n == 0 || b.len() >= (k - 1) * b_rs + n);
    debug_assert!(bias.is_none_or(|bias| bias.len() >= n));
    let bias = bias.map(<[f32]>::as_ptr);
    debug_assert!(m == 0 || k == 0 || a.len() > (m - 1) * a_rs + (k - 1) * a_cs);
    let (a, b) = (a.as_ptr(), b.as_ptr());
    for j in (0..n).step_by(NR) {
        let lanes = (Lanes::of(n - j), Lanes::of((n - j).saturating_sub(8)));
        let mut i = 0;
        while i < m {
            let at = Tile { c, c_rs, a, a_stride: (a_rs, a_cs), b, b_rs, bias, k, i, j, lanes, accumulate };
            // SAFETY: the tile's rows i..i+R and columns j..j+16 (masked to n) lie
            // inside the matrices (the caller's contract).
            unsafe {
                if n - j <= 8 {
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
    lanes: (Lanes, Lanes),
    accumulate: bool,
}

impl Tile {
    /// The tile's first `left` rows (at most 6), `W` registers wide.
    ///
    /// # Safety
    /// As `run`.
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    unsafe fn rows<const W: usize>(&self, left: usize) {
        // SAFETY: the caller's.
        unsafe {
            match left {
                6.. => self.run::<6, W>(),
                5 => self.run::<5, W>(),
                4 => self.run::<4, W>(),
                3 => self.run::<3, W>(),
                2 => self.run::<2, W>(),
                _ => self.run::<1, W>(),
            }
        }
    }

    /// Rows `i..i + R` of the tile, `W` (1 or 2) registers of 8 columns wide (with
    /// one, the second register's columns lie outside the matrix).
    ///
    /// # Safety
    /// AVX2 and FMA, and the tile inside the matrices.
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    unsafe fn run<const R: usize, const W: usize>(&self) {
        let Tile { c, c_rs, a, a_stride: (a_rs, a_cs), b, b_rs, bias, k, i, j, lanes: (l0, l1), accumulate } = *self;
        let mut left: [__m256; R] = [_mm256_setzero_ps(); R];
        let mut right: [__m256; R] = [_mm256_setzero_ps(); R];
        // SAFETY (whole block): every pointer stays inside the matrices; masked
        // lanes are neither read nor written.
        unsafe {
            for p in 0..k {
                let row = b.add(p * b_rs + j);
                let b0 = l0.load(row);
                if W == 1 {
                    for (r, acc) in left.iter_mut().enumerate() {
                        let x = _mm256_set1_ps(*a.add((i + r) * a_rs + p * a_cs));
                        *acc = _mm256_fmadd_ps(x, b0, *acc);
                    }
                    continue;
                }
                let b1 = l1.load(row.add(8));
                for r in 0..R {
                    let x = _mm256_set1_ps(*a.add((i + r) * a_rs + p * a_cs));
                    left[r] = _mm256_fmadd_ps(x, b0, left[r]);
                    right[r] = _mm256_fmadd_ps(x, b1, right[r]);
                }
            }
            // The bias is added to the finished sum, as `matmul512` does. With one
            // register the second's pointers (8 columns on) are never formed.
            let bias = bias.map(|bias| (l0.load(bias.add(j)), if W == 2 { l1.load(bias.add(j + 8)) } else { _mm256_setzero_ps() }));
            for r in 0..R {
                let out = c.add((i + r) * c_rs + j);
                let (mut l, mut rr) = (left[r], right[r]);
                if let Some((b0, b1)) = bias {
                    l = _mm256_add_ps(b0, l);
                    rr = _mm256_add_ps(b1, rr);
                }
                if accumulate {
                    l = _mm256_add_ps(l0.load(out), l);
                    if W == 2 {
                        rr = _mm256_add_ps(l1.load(out.add(8)), rr);
                    }
                }
                l0.store(out, l);
                if W == 2 {
                    l1.store(out.add(8), rr);
                }
            }
        }
    }
}
