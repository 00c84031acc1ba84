//! The one matrix-product kernel, written once over a vector register
//! ([`Register`]) and compiled for AVX-512 (`matmul512`, 16 lanes) and AVX2 + FMA
//! (`matmul256`, 8 lanes), each from a function with its target features that
//! inlines all of this.
//!
//! One tile of C is `MR` rows × two registers of columns, summed over the whole
//! inner dimension in registers (`2·MR` accumulators, two registers of B and one
//! broadcast of A). B is read in place (row-major), A is broadcast element by
//! element from any layout. The tiles of a panel reuse that panel of B from the
//! cache. Column tails use masked loads and stores (a last panel of at most one
//! register runs tiles one register wide); row tails a smaller tile. B and C may be
//! blocks of larger matrices (rows any distance apart).
//!
//! Every value of C is one chain of fused multiply-adds over the inner dimension
//! in order, from 0, then the bias, then C's old value when accumulating, whatever
//! the register's width: so both tiers give the same bits (a test checks both
//! against a scalar chain).

/// One vector register of `f32` lanes and the instructions the kernel uses. Every
/// method is `#[inline(always)]`: it runs inside the tier's function with the
/// target features, never on its own.
pub(super) trait Register: Copy {
    /// Lanes per register.
    const LANES: usize;
    /// Rows per tile: `2·MR` accumulators leave room for B's two registers and A's
    /// broadcast.
    const MR: usize;
    /// Which lanes of a register lie inside the matrix.
    type Mask: Copy;

    /// The first `count` lanes (`count` ≥ `LANES` gives all).
    ///
    /// # Safety
    /// The CPU has the register's features.
    unsafe fn mask(count: usize) -> Self::Mask;
    /// The lanes `mask` keeps from `at`, zero elsewhere.
    ///
    /// # Safety
    /// The features; the kept lanes lie inside a readable allocation at `at`.
    unsafe fn load(mask: Self::Mask, at: *const f32) -> Self;
    /// Writes the lanes `mask` keeps to `at`, no others.
    ///
    /// # Safety
    /// The features; the kept lanes lie inside a writable allocation at `at`.
    unsafe fn store(self, mask: Self::Mask, at: *mut f32);
    /// `LANES` values from `at`.
    ///
    /// # Safety
    /// The features; `LANES` values readable at `at`.
    unsafe fn load_all(at: *const f32) -> Self;
    /// Writes all lanes to `at`.
    ///
    /// # Safety
    /// The features; `LANES` values writable at `at`.
    unsafe fn store_all(self, at: *mut f32);
    /// # Safety
    /// The features.
    unsafe fn zero() -> Self;
    /// `x` in every lane.
    ///
    /// # Safety
    /// The features.
    unsafe fn splat(x: f32) -> Self;
    /// `a · b + acc`, rounded once.
    ///
    /// # Safety
    /// The features.
    unsafe fn mul_add(a: Self, b: Self, acc: Self) -> Self;
    /// # Safety
    /// The features.
    unsafe fn add(self, other: Self) -> Self;
    /// `matmul_strided::<Self>` as the tier compiles it, with its features on
    /// (`matmul512::matmul_strided` or `matmul256::matmul_strided`): one
    /// out-of-line copy of the kernel for callers that would otherwise inline it a
    /// second time, such as `packed`.
    ///
    /// # Safety
    /// The features; otherwise as `matmul_strided`.
    unsafe fn product(c: (*mut f32, usize), a: &[f32], a_stride: (usize, usize), b: (&[f32], usize), bias: Option<&[f32]>, shape: (usize, usize, usize), accumulate: bool);
}

/// `C = (accumulate ? C : 0) + A · B (+ bias on every row)` for `A(i, p) =
/// a[i·a_rs + p·a_cs]` (`[m, k]`), `B(p, j) = b[p·b_rs + j]` (`[k, n]`), `C(i, j)`
/// at `c + i·c_rs + j` (`[m, n]`) and `bias` `[n]`: B and C may be blocks of
/// larger matrices (the attention loops' products per sample and head). Without
/// `accumulate` every value of C is written and none read.
///
/// # Safety
/// Called only from a function with `V`'s target features (it inlines there). `a`
/// must hold every `A(i, p)` index and `b` every `B(p, j)` (checked in debug
/// builds); `c` must be valid for writes (and reads, when `accumulate`) at every
/// `C(i, j)`.
#[inline(always)]
pub(super) unsafe fn matmul_strided<V: Register>((c, c_rs): (*mut f32, usize), a: &[f32], (a_rs, a_cs): (usize, usize), (b, b_rs): (&[f32], usize), bias: Option<&[f32]>, (m, k, n): (usize, usize, usize), accumulate: bool) {
    debug_assert!(k == 0 || n == 0 || b.len() >= (k - 1) * b_rs + n);
    debug_assert!(bias.is_none_or(|bias| bias.len() >= n));
    let bias = bias.map(<[f32]>::as_ptr);
    debug_assert!(m == 0 || k == 0 || a.len() > (m - 1) * a_rs + (k - 1) * a_cs);
    let (a, b) = (a.as_ptr(), b.as_ptr());
    for j in (0..n).step_by(2 * V::LANES) {
        // SAFETY (whole block): the features (the caller's); the tile's rows
        // i..i+min(MR, m-i) and columns j..j+2·LANES, masked to n, lie inside the
        // matrices (the caller's contract).
        unsafe {
            let masks = (V::mask(n - j), V::mask((n - j).saturating_sub(V::LANES)));
            let mut i = 0;
            while i < m {
                let at = Tile::<V> { c, c_rs, a, a_stride: (a_rs, a_cs), b, b_rs, bias, k, i, j, masks, accumulate };
                // Registers whose lanes all lie inside the matrix load and store
                // without masks (the same values); one register wide, the second
                // is never touched.
                match n - j {
                    full if full >= 2 * V::LANES => at.rows::<2, true>(m - i),
                    one if one == V::LANES => at.rows::<1, true>(m - i),
                    part if part < V::LANES => at.rows::<1, false>(m - i),
                    _ => at.rows::<2, false>(m - i),
                }
                i += V::MR;
            }
        }
    }
}

/// Where one tile of C lies and what it reads.
#[derive(Clone, Copy)]
struct Tile<V: Register> {
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
    masks: (V::Mask, V::Mask),
    accumulate: bool,
}

impl<V: Register> Tile<V> {
    /// The tile's first `left` rows (at most `MR`), `W` registers wide.
    ///
    /// # Safety
    /// As `run`.
    #[inline(always)]
    unsafe fn rows<const W: usize, const FULL: bool>(&self, left: usize) {
        // The caller steps MR rows at a time: every one of them must run.
        const { assert!(V::MR <= 8, "rows runs tiles of at most 8 rows") };
        // SAFETY: the caller's.
        unsafe {
            match left.min(V::MR) {
                8.. => self.run::<8, W, FULL>(),
                7 => self.run::<7, W, FULL>(),
                6 => self.run::<6, W, FULL>(),
                5 => self.run::<5, W, FULL>(),
                4 => self.run::<4, W, FULL>(),
                3 => self.run::<3, W, FULL>(),
                2 => self.run::<2, W, FULL>(),
                _ => self.run::<1, W, FULL>(),
            }
        }
    }

    /// Rows `i..i + R` of the tile, `W` (1 or 2) registers wide (with one, the
    /// second register's columns lie outside the matrix); `FULL`: every lane of
    /// both registers inside the matrix (no masks).
    ///
    /// # Safety
    /// `V`'s features, and the tile inside the matrices.
    #[inline(always)]
    unsafe fn run<const R: usize, const W: usize, const FULL: bool>(&self) {
        let Tile { c, c_rs, a, a_stride: (a_rs, a_cs), b, b_rs, bias, k, i, j, masks: (m0, m1), accumulate } = *self;
        // SAFETY (whole block): the features (the caller's); every pointer stays
        // inside the matrices; masked lanes are neither read nor written.
        unsafe {
            let mut left: [V; R] = [V::zero(); R];
            let mut right: [V; R] = [V::zero(); R];
            for p in 0..k {
                let row = b.add(p * b_rs + j);
                let b0 = load::<V, FULL>(m0, row);
                if W == 1 {
                    for (r, acc) in left.iter_mut().enumerate() {
                        let x = V::splat(*a.add((i + r) * a_rs + p * a_cs));
                        *acc = V::mul_add(x, b0, *acc);
                    }
                    continue;
                }
                let b1 = load::<V, FULL>(m1, row.add(V::LANES));
                for r in 0..R {
                    let x = V::splat(*a.add((i + r) * a_rs + p * a_cs));
                    left[r] = V::mul_add(x, b0, left[r]);
                    right[r] = V::mul_add(x, b1, right[r]);
                }
            }
            // The bias is added to the finished sum, as when it is the starting value
            // of an accumulating product: the same bits either way. With one
            // register the second's pointers (LANES columns on) are never formed:
            // they may lie past the end of the matrix.
            // (A `match`, not a closure: a closure would be a function of its own,
            // without the features.)
            let bias = match bias {
                Some(bias) => Some((load::<V, FULL>(m0, bias.add(j)), if W == 2 { load::<V, FULL>(m1, bias.add(j + V::LANES)) } else { V::zero() })),
                None => None,
            };
            for r in 0..R {
                let out = c.add((i + r) * c_rs + j);
                let (mut l, mut rr) = (left[r], right[r]);
                if let Some((b0, b1)) = bias {
                    l = b0.add(l);
                    rr = b1.add(rr);
                }
                if accumulate {
                    l = load::<V, FULL>(m0, out).add(l);
                    if W == 2 {
                        rr = load::<V, FULL>(m1, out.add(V::LANES)).add(rr);
                    }
                }
                store::<V, FULL>(l, m0, out);
                if W == 2 {
                    store::<V, FULL>(rr, m1, out.add(V::LANES));
                }
            }
        }
    }
}

/// The lanes `mask` keeps from `at` (all of them when `FULL`).
///
/// # Safety
/// As `Register::load` (`load_all` when `FULL`).
#[inline(always)]
unsafe fn load<V: Register, const FULL: bool>(mask: V::Mask, at: *const f32) -> V {
    // SAFETY: the caller's.
    unsafe { if FULL { V::load_all(at) } else { V::load(mask, at) } }
}

/// Writes the lanes `mask` keeps to `at` (all of them when `FULL`).
///
/// # Safety
/// As `Register::store` (`store_all` when `FULL`).
#[inline(always)]
unsafe fn store<V: Register, const FULL: bool>(value: V, mask: V::Mask, at: *mut f32) {
    // SAFETY: the caller's.
    unsafe { if FULL { value.store_all(at) } else { value.store(mask, at) } }
}
