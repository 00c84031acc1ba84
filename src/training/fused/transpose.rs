//! A block of a row-major matrix copied transposed, 8 × 8 values at a time: each
//! block's rows are read whole and its columns written whole, so neither side
//! steps through memory one value per row (the weights' transposes for the
//! backward products, and attention's keys and values per sample).

use super::simd::simd_fn;

/// Values per side of a block.
const B: usize = 8;

/// `dst[c·dst_stride + r] = src[r·src_stride + c]` for `r < rows`, `c < cols`
/// (blocks of larger matrices on either side).
#[inline(always)]
pub(super) fn transpose_into(src: &[f32], src_stride: usize, (rows, cols): (usize, usize), dst: &mut [f32], dst_stride: usize) {
    if rows == 0 || cols == 0 {
        return;
    }
    assert!(cols <= src_stride && src.len() >= (rows - 1) * src_stride + cols, "transpose: source too short");
    assert!(rows <= dst_stride && dst.len() >= (cols - 1) * dst_stride + rows, "transpose: destination too short");
    let (full_rows, full_cols) = (rows / B * B, cols / B * B);
    #[cfg(target_arch = "x86_64")]
    let avx = super::simd::simd_tier() >= super::simd::SimdTier::Avx2;
    for r0 in (0..full_rows).step_by(B) {
        for c0 in (0..full_cols).step_by(B) {
            #[cfg(target_arch = "x86_64")]
            if avx {
                // SAFETY: the tier is only chosen when the CPU has AVX2; the asserts
                // above keep rows r0..r0+8 × columns c0..c0+8 inside `src` and their
                // transposes inside `dst`.
                unsafe { block_avx(src.as_ptr().add(r0 * src_stride + c0), src_stride, dst.as_mut_ptr().add(c0 * dst_stride + r0), dst_stride) };
                continue;
            }
            let block: [[f32; B]; B] = std::array::from_fn(|r| src[(r0 + r) * src_stride + c0..][..B].try_into().expect("B values"));
            for c in 0..B {
                let out: &mut [f32; B] = (&mut dst[(c0 + c) * dst_stride + r0..][..B]).try_into().expect("B values");
                *out = std::array::from_fn(|r| block[r][c]);
            }
        }
    }
    // The edges: the columns past the last whole block in the blocks' rows, and
    // every column of the rows past them.
    for r in 0..rows {
        let from = if r < full_rows { full_cols } else { 0 };
        for c in from..cols {
            dst[c * dst_stride + r] = src[r * src_stride + c];
        }
    }
}

/// One 8 × 8 block transposed in registers: eight rows in, interleaved in pairs,
/// then in fours, then across the two halves, eight columns out.
///
/// # Safety
/// The CPU must have AVX; rows `src + r·src_stride` and `dst + c·dst_stride` (r, c
/// < 8) must each hold 8 values.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
#[inline]
unsafe fn block_avx(src: *const f32, src_stride: usize, dst: *mut f32, dst_stride: usize) {
    use std::arch::x86_64::{_mm256_loadu_ps, _mm256_permute2f128_ps, _mm256_shuffle_ps, _mm256_storeu_ps, _mm256_unpackhi_ps, _mm256_unpacklo_ps};
    // SAFETY: the caller's contract.
    unsafe {
        let r: [_; B] = std::array::from_fn(|i| _mm256_loadu_ps(src.add(i * src_stride)));
        // Pairs: (r0 r1), (r2 r3), … interleaved by lane within each half.
        let pair = [
            _mm256_unpacklo_ps(r[0], r[1]),
            _mm256_unpackhi_ps(r[0], r[1]),
            _mm256_unpacklo_ps(r[2], r[3]),
            _mm256_unpackhi_ps(r[2], r[3]),
            _mm256_unpacklo_ps(r[4], r[5]),
            _mm256_unpackhi_ps(r[4], r[5]),
            _mm256_unpacklo_ps(r[6], r[7]),
            _mm256_unpackhi_ps(r[6], r[7]),
        ];
        // Fours: each column's four values of rows 0–3 (and 4–7) within a half.
        let four = [
            _mm256_shuffle_ps::<0x44>(pair[0], pair[2]),
            _mm256_shuffle_ps::<0xEE>(pair[0], pair[2]),
            _mm256_shuffle_ps::<0x44>(pair[1], pair[3]),
            _mm256_shuffle_ps::<0xEE>(pair[1], pair[3]),
            _mm256_shuffle_ps::<0x44>(pair[4], pair[6]),
            _mm256_shuffle_ps::<0xEE>(pair[4], pair[6]),
            _mm256_shuffle_ps::<0x44>(pair[5], pair[7]),
            _mm256_shuffle_ps::<0xEE>(pair[5], pair[7]),
        ];
        // Columns 0–3 from the low halves, 4–7 from the high ones.
        for c in 0..4 {
            _mm256_storeu_ps(dst.add(c * dst_stride), _mm256_permute2f128_ps::<0x20>(four[c], four[c + 4]));
            _mm256_storeu_ps(dst.add((c + 4) * dst_stride), _mm256_permute2f128_ps::<0x31>(four[c], four[c + 4]));
        }
    }
}

simd_fn! {
    /// `w_t = wᵀ` for `w`: `[d_in, d_out]` row-major (`w_t`: `[d_out, d_in]`).
    fn transpose_matrix(w: &[f32], d_in: usize, d_out: usize, w_t: &mut [f32]) {
        transpose_into(w, d_out, (d_in, d_out), w_t, d_in)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shape from 1 × 1 to 19 × 19 (whole blocks, edges, both), with wider
    /// strides on both sides: each value lands where the one-by-one loop puts it,
    /// and nothing outside the block is written.
    #[test]
    fn a_block_transpose_puts_every_value_where_the_plain_loop_does() {
        use super::super::simd::{SimdTier, use_simd_tier};
        // On every instruction set this CPU has (AVX2 and AVX-512 move blocks in registers).
        for tier in SimdTier::ALL.into_iter().filter(|&t| use_simd_tier(t) == t) {
            for_every_shape(tier);
        }
        use_simd_tier(SimdTier::detected());
    }

    fn for_every_shape(tier: super::super::simd::SimdTier) {
        for rows in 1..20 {
            for cols in 1..20 {
                let (src_stride, dst_stride) = (cols + 3, rows + 5);
                let src: Vec<f32> = (0..rows * src_stride).map(|i| i as f32 + 0.5).collect();
                let mut expected = vec![-1.0; cols * dst_stride];
                for r in 0..rows {
                    for c in 0..cols {
                        expected[c * dst_stride + r] = src[r * src_stride + c];
                    }
                }
                let mut got = vec![-1.0; cols * dst_stride];
                transpose_into(&src, src_stride, (rows, cols), &mut got, dst_stride);
                assert_eq!(got, expected, "{rows} × {cols} on {tier:?}");
            }
        }
    }
}
