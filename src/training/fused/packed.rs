//! The layers' large products on AVX2 and AVX-512, read from contiguous copies:
//! B's panels (two registers wide: 16 or 32 columns) one after the other, and A
//! across its rows.
//!
//! `register_tile`'s kernel reads B in place, one row of a panel per step of the inner
//! dimension. When B's rows lie 512 bytes or more apart, those rows fall into a
//! handful of the L1 cache's sets and evict each other before the next tile of
//! rows reads them again. A weight gradient xᵀ·dy also reads A (x, [1,056 rows of
//! a chunk, d_in]) down its columns: each step of the inner dimension reads a row
//! of x, d_in values (a power of two of bytes) past the last, and those rows
//! collide the same way. Copying each panel into one contiguous buffer, and A into
//! a row-major copy, costs one pass over each (k·n and m·k values) against 2·m·k·n
//! for the product. Measured by a probe on an AVX2 EPYC, at `large`'s shapes the
//! weight gradients ran 1.3–1.7× faster and products of 512 columns about 1.2×;
//! at `lesson`'s, its weight gradients of 256 rows about 1.5× and the rest about
//! even; products with 32 rows ran slower, so only products with at least 64 rows
//! of C are copied. B's panels are copied whenever A is, whatever B's width.
//! On an Intel Xeon with AVX-512 (2026-12-05), whose L1 cache has 64 sets of 12
//! lines, copying made `bench --preset large` 13–24% faster at one thread and
//! about 15% at two, most of it from the weight gradients; `lesson` stayed within
//! the host's noise (±4%). (On the AMD Zen 4 and Zen 5 hosts AVX-512 had read in
//! place, as copying had been measured on AVX2 CPUs only.)
//!
//! The arithmetic is the kernel's, value for value, so the bits are the same as
//! in place (a test checks). The copies live in per-thread buffers that grow once:
//! no allocation in the steady state.

use std::cell::RefCell;

use super::register_tile::Register;
use super::transpose::transpose_into;

/// Rows of C from which copying pays: each packed panel serves m / MR tiles.
const MIN_ROWS: usize = 64;

/// Columns of B from which its rows collide in the cache (512 bytes apart).
const MIN_COLUMNS: usize = 128;

thread_local! {
    /// One panel of B, [k, panel], reused per thread.
    static PANEL_COPY: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
    /// A read down its columns, copied row-major [m, k], reused per thread.
    static A_ACROSS: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
}

/// Whether A (`m` rows) is read down its columns: stored [k, m], rows `a_cs` ≥ m
/// apart.
fn read_down(m: usize, (a_rs, a_cs): (usize, usize)) -> bool {
    a_rs == 1 && a_cs >= m.max(2)
}

/// Whether a product of `m` rows and `n` columns, A read down or across, runs
/// faster from copies.
pub(super) fn worth_copying((m, _k, n): (usize, usize, usize), a_stride: (usize, usize)) -> bool {
    m >= MIN_ROWS && (read_down(m, a_stride) || n >= MIN_COLUMNS)
}

/// `register_tile::matmul_strided` on `V`'s registers (by `V::product`), reading
/// B's panels from a contiguous copy and A, when it is read down, from a row-major
/// one. The same contract and the same bits. It inlines into the tier's function
/// (`matmul256::matmul_copied`, `matmul512::matmul_copied`).
///
/// # Safety
/// As `register_tile::matmul_strided`: the CPU has `V`'s features; `a` holds every
/// `A(i, p)`, `b` every `B(p, j)`, and `c` is valid for writes (and reads, when
/// `accumulate`) at every `C(i, j)`.
#[inline(always)]
pub(super) unsafe fn matmul_copied<V: Register>((c, c_rs): (*mut f32, usize), a: &[f32], (a_rs, a_cs): (usize, usize), (b, b_rs): (&[f32], usize), bias: Option<&[f32]>, (m, k, n): (usize, usize, usize), accumulate: bool) {
    if m == 0 || k == 0 || n == 0 {
        // SAFETY: the caller's; nothing to copy.
        unsafe { V::product((c, c_rs), a, (a_rs, a_cs), (b, b_rs), bias, (m, k, n), accumulate) };
        return;
    }
    assert!(b.len() >= (k - 1) * b_rs + n, "matmul: B too short");
    // The thread's buffers, taken out and put back (not borrowed in a closure: a
    // closure would be a function of its own, without the tier's features, and its
    // transposes ran out of line, 8 × 8 values a call). A panic in between frees
    // them; the next call grows them again.
    let (mut across, mut panel) = (A_ACROSS.take(), PANEL_COPY.take());
    // A down its columns ([k, m] stored, rows a_cs apart): copy it [m, k]. The
    // buffers only grow; every value used is written before it is read.
    let (a, a_stride) = if read_down(m, (a_rs, a_cs)) {
        grow(&mut across, m * k);
        transpose_into(a, a_cs, (k, m), &mut across, k);
        (&across[..m * k], (k, 1))
    } else {
        (a, (a_rs, a_cs))
    };
    let width_of_panel = 2 * V::LANES;
    grow(&mut panel, k * width_of_panel);
    let copy = &mut panel[..k * width_of_panel];
    for j in (0..n).step_by(width_of_panel) {
        let width = width_of_panel.min(n - j);
        for (p, row) in copy.chunks_exact_mut(width_of_panel).enumerate() {
            // SAFETY: the caller's features.
            unsafe { copy_row::<V>(&mut row[..width], &b[p * b_rs + j..][..width]) };
        }
        // SAFETY: the caller's contract, for the block of columns j..j+width of C
        // and the bias; the copy holds k rows of `width_of_panel` (`width` used).
        unsafe { V::product((c.add(j), c_rs), a, a_stride, (copy, width_of_panel), bias.map(|bias| &bias[j..]), (m, k, width), accumulate) };
    }
    A_ACROSS.set(across);
    PANEL_COPY.set(panel);
}

/// `to = from` (equal lengths). A whole panel's row (two registers) moves through
/// two registers inline: `copy_from_slice` called libc's `memcpy` once per row of
/// 64 bytes, 2.6–4% of lessons 16 and 21 on the Zen 1 EPYC. A narrower last panel
/// copies as before.
///
/// # Safety
/// The CPU has `V`'s features.
#[inline(always)]
unsafe fn copy_row<V: Register>(to: &mut [f32], from: &[f32]) {
    if to.len() == 2 * V::LANES && from.len() == to.len() {
        // SAFETY: the features are the caller's; both slices hold two registers.
        unsafe {
            V::load_all(from.as_ptr()).store_all(to.as_mut_ptr());
            V::load_all(from.as_ptr().add(V::LANES)).store_all(to.as_mut_ptr().add(V::LANES));
        }
    } else {
        to.copy_from_slice(from);
    }
}

/// `buffer` at least `len` long (grown once per thread, never cleared).
fn grow(buffer: &mut Vec<f32>, len: usize) {
    if buffer.len() < len {
        buffer.resize(len, 0.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::training::fused::simd::SimdTier;
    use crate::training::fused::tiled::Operands;

    /// A product's signature, copied or in place.
    type Product = unsafe fn((*mut f32, usize), &[f32], (usize, usize), (&[f32], usize), Option<&[f32]>, (usize, usize, usize), bool);

    /// Copied and in place give the same bits (the kernel in place is checked
    /// against a scalar chain in `tiled`), for A read across and down, with and
    /// without a bias, writing and accumulating, tails of rows and columns, and
    /// blocks of larger matrices: on AVX2, and on AVX-512 where the CPU has it.
    #[test]
    fn copies_give_the_bits_of_reading_in_place() {
        if SimdTier::detected() < SimdTier::Avx2 {
            assert!(!std::is_x86_feature_detected!("avx2") || !std::is_x86_feature_detected!("fma"), "a CPU with AVX2 and FMA runs this test");
            return; // no AVX2 kernel to copy for on this CPU
        }
        let mut tiers: Vec<(&str, Product, Product)> = vec![("avx2", super::super::matmul256::matmul_copied, super::super::matmul256::matmul_strided)];
        if SimdTier::detected() >= SimdTier::Avx512 {
            tiers.push(("avx512", super::super::matmul512::matmul_copied, super::super::matmul512::matmul_strided));
        }
        for (tier, matmul_copied, matmul_strided) in tiers {
            copied_against_in_place(tier, matmul_copied, matmul_strided);
        }
    }

    fn copied_against_in_place(tier: &str, matmul_copied: Product, matmul_strided: Product) {
        let mut rng = crate::tasks::Rng::new(5);
        for (m, k, n) in [(64, 40, 128), (70, 33, 140), (65, 130, 17), (128, 7, 5), (66, 9, 129), (64, 5, 33)] {
            for (across, accumulate, with_bias) in [(true, false, true), (false, true, false), (false, false, true), (true, true, false)] {
                let Operands { a, a_stride: (a_rs, a_cs), b, b_rs, bias, c: before, c_rs } = Operands::random(&mut rng, (m, k, n), across);
                let (mut copied, mut in_place) = (before.clone(), before.clone());
                let bias = with_bias.then_some(&bias[..]);
                // SAFETY: the tier's features (checked by the caller); A, B and C
                // hold every index.
                unsafe {
                    matmul_copied((copied.as_mut_ptr(), c_rs), &a, (a_rs, a_cs), (&b, b_rs), bias, (m, k, n), accumulate);
                    matmul_strided((in_place.as_mut_ptr(), c_rs), &a, (a_rs, a_cs), (&b, b_rs), bias, (m, k, n), accumulate);
                }
                let what = format!("{tier} ({m},{k},{n}) across {across} accumulate {accumulate} bias {with_bias}");
                // Every value of the larger matrix, so C around the block too.
                assert!(copied.iter().zip(&in_place).all(|(x, y)| x.to_bits() == y.to_bits()), "{what}: copied and in place differ");
            }
        }
    }

    /// Copied from 64 rows of C, when A is read down (stored [k, m]) or B has 128
    /// columns or more; never for A read across a narrow B, nor below 64 rows.
    #[test]
    fn large_products_and_down_read_operands_are_copied() {
        assert!(worth_copying((64, 1056, 64), (1, 64)), "a weight gradient of 64 rows");
        assert!(worth_copying((64, 1056, 16), (1, 70)), "A read down, rows further apart");
        assert!(worth_copying((64, 64, 128), (64, 1)), "B of 128 columns");
        assert!(!worth_copying((63, 1056, 512), (1, 63)), "63 rows");
        assert!(!worth_copying((1056, 64, 127), (64, 1)), "A across, B of 127 columns");
        assert!(!worth_copying((64, 1, 64), (1, 1)), "A of one column is not read down");
        assert!(!worth_copying((64, 8, 64), (1, 32)), "A's rows overlapping is not read down");
    }
}
