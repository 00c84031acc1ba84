//! Matrix products with AVX-512 for CPUs that have it: `register_tile`'s kernel
//! on 16-lane registers, tiles of 8 rows × 32 columns (16 accumulators). The
//! `gemm` crate's AVX-512 kernels need a nightly compiler, so on stable it runs its
//! AVX2 ones; this uses the full registers (twice the lanes per instruction).

use std::arch::x86_64::{__m512, _mm512_add_ps, _mm512_fmadd_ps, _mm512_loadu_ps, _mm512_mask_storeu_ps, _mm512_maskz_loadu_ps, _mm512_set1_ps, _mm512_setzero_ps, _mm512_storeu_ps};

use super::register_tile::{self, Register};

/// One 16-lane register; its mask is a bit per lane.
#[derive(Clone, Copy)]
pub(super) struct Zmm(__m512);

impl Register for Zmm {
    const LANES: usize = 16;
    const MR: usize = 8;
    type Mask = u16;

    #[inline(always)]
    unsafe fn mask(count: usize) -> u16 {
        if count >= 16 { u16::MAX } else { (1u16 << count) - 1 }
    }

    #[inline(always)]
    unsafe fn load(mask: u16, at: *const f32) -> Zmm {
        // SAFETY: the caller's; masked lanes are not read.
        Zmm(unsafe { _mm512_maskz_loadu_ps(mask, at) })
    }

    #[inline(always)]
    unsafe fn store(self, mask: u16, at: *mut f32) {
        // SAFETY: the caller's; masked lanes are not written.
        unsafe { _mm512_mask_storeu_ps(at, mask, self.0) }
    }

    #[inline(always)]
    unsafe fn load_all(at: *const f32) -> Zmm {
        // SAFETY: the caller's.
        Zmm(unsafe { _mm512_loadu_ps(at) })
    }

    #[inline(always)]
    unsafe fn store_all(self, at: *mut f32) {
        // SAFETY: the caller's.
        unsafe { _mm512_storeu_ps(at, self.0) }
    }

    #[inline(always)]
    unsafe fn zero() -> Zmm {
        // SAFETY: the caller's (AVX-512 F).
        Zmm(unsafe { _mm512_setzero_ps() })
    }

    #[inline(always)]
    unsafe fn splat(x: f32) -> Zmm {
        // SAFETY: as above.
        Zmm(unsafe { _mm512_set1_ps(x) })
    }

    #[inline(always)]
    unsafe fn mul_add(a: Zmm, b: Zmm, acc: Zmm) -> Zmm {
        // SAFETY: as above.
        Zmm(unsafe { _mm512_fmadd_ps(a.0, b.0, acc.0) })
    }

    #[inline(always)]
    unsafe fn add(self, other: Zmm) -> Zmm {
        // SAFETY: as above.
        Zmm(unsafe { _mm512_add_ps(self.0, other.0) })
    }

    #[inline(always)]
    unsafe fn product(c: (*mut f32, usize), a: &[f32], a_stride: (usize, usize), b: (&[f32], usize), bias: Option<&[f32]>, shape: (usize, usize, usize), accumulate: bool) {
        // SAFETY: the caller's.
        unsafe { matmul_strided(c, a, a_stride, b, bias, shape, accumulate) }
    }
}

/// `register_tile::matmul_strided` on AVX-512 (its contract, its bits).
///
/// # Safety
/// The CPU must have AVX-512 F; otherwise as `register_tile::matmul_strided`.
#[target_feature(enable = "avx512f")]
pub unsafe fn matmul_strided(c: (*mut f32, usize), a: &[f32], a_stride: (usize, usize), b: (&[f32], usize), bias: Option<&[f32]>, shape: (usize, usize, usize), accumulate: bool) {
    // SAFETY: the features are on here; the rest is the caller's.
    unsafe { register_tile::matmul_strided::<Zmm>(c, a, a_stride, b, bias, shape, accumulate) }
}

/// `packed::matmul_copied` on AVX-512 (the same bits as `matmul_strided`), with
/// the copies compiled for it too.
///
/// # Safety
/// As `matmul_strided`.
#[target_feature(enable = "avx512f")]
pub unsafe fn matmul_copied(c: (*mut f32, usize), a: &[f32], a_stride: (usize, usize), b: (&[f32], usize), bias: Option<&[f32]>, shape: (usize, usize, usize), accumulate: bool) {
    // SAFETY: the features are on here; the rest is the caller's.
    unsafe { super::packed::matmul_copied::<Zmm>(c, a, a_stride, b, bias, shape, accumulate) }
}
