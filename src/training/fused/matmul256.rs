//! Matrix products with AVX2 and FMA, for CPUs without AVX-512: `register_tile`'s
//! kernel on 8-lane registers, tiles of 6 rows × 16 columns (12 accumulators, plus
//! two registers of B and one broadcast of A: 15 of the 16 registers). The same
//! arithmetic as `matmul512`, so the two tiers give the same bits.

use std::arch::x86_64::{__m256, __m256i, _mm256_add_ps, _mm256_fmadd_ps, _mm256_loadu_ps, _mm256_maskload_ps, _mm256_maskstore_ps, _mm256_set1_ps, _mm256_setr_epi32, _mm256_setzero_ps, _mm256_storeu_ps};

use super::register_tile::{self, Register};

/// One 8-lane register.
#[derive(Clone, Copy)]
pub(super) struct Ymm(__m256);

/// The columns of one register inside the matrix: all 8 (plain loads and
/// stores), or the first few (a mask for the masked ones).
#[derive(Clone, Copy)]
pub(super) enum Lanes {
    All,
    First(__m256i),
}

impl Register for Ymm {
    const LANES: usize = 8;
    const MR: usize = 6;
    type Mask = Lanes;

    #[inline(always)]
    unsafe fn mask(count: usize) -> Lanes {
        if count >= 8 {
            return Lanes::All;
        }
        let c = count as i32;
        // A lane is on when its sign bit is set: lane l < count gives l - count < 0.
        // SAFETY: the caller's (AVX2).
        Lanes::First(unsafe { _mm256_setr_epi32(-c, 1 - c, 2 - c, 3 - c, 4 - c, 5 - c, 6 - c, 7 - c) })
    }

    #[inline(always)]
    unsafe fn load(mask: Lanes, at: *const f32) -> Ymm {
        // SAFETY: the caller's; masked lanes are not read.
        Ymm(unsafe {
            match mask {
                Lanes::All => _mm256_loadu_ps(at),
                Lanes::First(mask) => _mm256_maskload_ps(at, mask),
            }
        })
    }

    #[inline(always)]
    unsafe fn store(self, mask: Lanes, at: *mut f32) {
        // SAFETY: the caller's; masked lanes are not written.
        unsafe {
            match mask {
                Lanes::All => _mm256_storeu_ps(at, self.0),
                Lanes::First(mask) => _mm256_maskstore_ps(at, mask, self.0),
            }
        }
    }

    #[inline(always)]
    unsafe fn load_all(at: *const f32) -> Ymm {
        // SAFETY: the caller's.
        Ymm(unsafe { _mm256_loadu_ps(at) })
    }

    #[inline(always)]
    unsafe fn store_all(self, at: *mut f32) {
        // SAFETY: the caller's.
        unsafe { _mm256_storeu_ps(at, self.0) }
    }

    #[inline(always)]
    unsafe fn zero() -> Ymm {
        // SAFETY: the caller's (AVX).
        Ymm(unsafe { _mm256_setzero_ps() })
    }

    #[inline(always)]
    unsafe fn splat(x: f32) -> Ymm {
        // SAFETY: as above.
        Ymm(unsafe { _mm256_set1_ps(x) })
    }

    #[inline(always)]
    unsafe fn mul_add(a: Ymm, b: Ymm, acc: Ymm) -> Ymm {
        // SAFETY: the caller's (FMA).
        Ymm(unsafe { _mm256_fmadd_ps(a.0, b.0, acc.0) })
    }

    #[inline(always)]
    unsafe fn add(self, other: Ymm) -> Ymm {
        // SAFETY: the caller's (AVX).
        Ymm(unsafe { _mm256_add_ps(self.0, other.0) })
    }

    #[inline(always)]
    unsafe fn product(c: (*mut f32, usize), a: &[f32], a_stride: (usize, usize), b: (&[f32], usize), bias: Option<&[f32]>, shape: (usize, usize, usize), accumulate: bool) {
        // SAFETY: the caller's.
        unsafe { matmul_strided(c, a, a_stride, b, bias, shape, accumulate) }
    }
}

/// `register_tile::matmul_strided` on AVX2 and FMA (its contract, its bits).
///
/// # Safety
/// The CPU must have AVX2 and FMA; otherwise as `register_tile::matmul_strided`.
#[target_feature(enable = "avx2,fma")]
pub unsafe fn matmul_strided(c: (*mut f32, usize), a: &[f32], a_stride: (usize, usize), b: (&[f32], usize), bias: Option<&[f32]>, shape: (usize, usize, usize), accumulate: bool) {
    // SAFETY: the features are on here; the rest is the caller's.
    unsafe { register_tile::matmul_strided::<Ymm>(c, a, a_stride, b, bias, shape, accumulate) }
}

/// `packed::matmul_copied` on AVX2 and FMA (the same bits as `matmul_strided`), with
/// the copies compiled for it too.
///
/// # Safety
/// As `matmul_strided`.
#[target_feature(enable = "avx2,fma")]
pub unsafe fn matmul_copied(c: (*mut f32, usize), a: &[f32], a_stride: (usize, usize), b: (&[f32], usize), bias: Option<&[f32]>, shape: (usize, usize, usize), accumulate: bool) {
    // SAFETY: the features are on here; the rest is the caller's.
    unsafe { super::packed::matmul_copied::<Ymm>(c, a, a_stride, b, bias, shape, accumulate) }
}
