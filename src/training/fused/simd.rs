//! Which compiled copy of the fused step's loops runs: AVX-512, AVX2 + FMA or
//! portable, chosen once at run time from what the CPU has (`AW_SIMD` caps it),
//! and the macro that compiles a loop three times.

/// Which compiled copy of the element-wise and attention loops runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SimdTier {
    /// Any CPU (on x86-64: SSE2).
    Portable,
    /// AVX2 with FMA.
    Avx2,
    /// AVX-512 (F and VL) with AVX2 and FMA.
    Avx512,
}

impl SimdTier {
    pub const ALL: [SimdTier; 3] = [SimdTier::Portable, SimdTier::Avx2, SimdTier::Avx512];

    /// The name `AW_SIMD` and the benchmark use.
    pub fn name(self) -> &'static str {
        match self {
            SimdTier::Portable => "portable",
            SimdTier::Avx2 => "avx2",
            SimdTier::Avx512 => "avx512",
        }
    }

    /// The widest tier this CPU has.
    pub fn detected() -> SimdTier {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512vl") && std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
                return SimdTier::Avx512;
            }
            if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
                return SimdTier::Avx2;
            }
        }
        SimdTier::Portable
    }
}

/// 0: not chosen yet; else 1 + the tier's index in `SimdTier::ALL`.
static CHOSEN_TIER: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// The tier the loops run: the widest the CPU has, or a narrower one asked for
/// with `AW_SIMD=portable|avx2|avx512` (a wider one than the CPU has is ignored),
/// or by `use_simd_tier`. Chosen once.
#[inline]
pub fn simd_tier() -> SimdTier {
    use std::sync::atomic::Ordering;
    match CHOSEN_TIER.load(Ordering::Relaxed) {
        0 => {
            let asked = std::env::var("AW_SIMD").ok().and_then(|name| SimdTier::ALL.into_iter().find(|t| t.name() == name));
            let tier = asked.map_or(SimdTier::detected(), |asked| asked.min(SimdTier::detected()));
            CHOSEN_TIER.store(1 + tier as u8, Ordering::Relaxed);
            tier
        }
        n => SimdTier::ALL[n as usize - 1],
    }
}

/// Run the loops at `tier` (capped at what the CPU has) from now on: for the test
/// that compares each tier with the portable one.
pub fn use_simd_tier(tier: SimdTier) -> SimdTier {
    let tier = tier.min(SimdTier::detected());
    CHOSEN_TIER.store(1 + tier as u8, std::sync::atomic::Ordering::Relaxed);
    tier
}

/// Defines `pub fn $name` three times over one body: an AVX-512 copy, an AVX2 +
/// FMA copy and a portable copy; `simd_tier` picks one at run time. Rust never
/// fuses a multiply and an add on its own, so the three give the same bits.
macro_rules! simd_fn {
    ($(#[$meta:meta])* fn $name:ident($($arg:ident: $ty:ty),*) $body:block) => {
        $(#[$meta])*
        pub fn $name($($arg: $ty),*) {
            #[inline(always)]
            fn body($($arg: $ty),*) $body
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx512f,avx512vl,avx2,fma")]
                unsafe fn avx512($($arg: $ty),*) {
                    body($($arg),*)
                }
                #[target_feature(enable = "avx2,fma")]
                unsafe fn avx2($($arg: $ty),*) {
                    body($($arg),*)
                }
                match $crate::training::fused::simd::simd_tier() {
                    // SAFETY: `simd_tier` never picks a tier the CPU lacks.
                    $crate::training::fused::simd::SimdTier::Avx512 => return unsafe { avx512($($arg),*) },
                    // SAFETY: as above.
                    $crate::training::fused::simd::SimdTier::Avx2 => return unsafe { avx2($($arg),*) },
                    $crate::training::fused::simd::SimdTier::Portable => {}
                }
            }
            body($($arg),*)
        }
    };
}
pub(crate) use simd_fn;
