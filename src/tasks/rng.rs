//! A tiny seeded random number generator (SplitMix64).
//!
//! Written by hand so that batches, initial weights and dropout masks depend only on
//! the seed: not on a crate's version, the backend, or which thread asked first.

/// SplitMix64: fast, small state, good enough statistics for toy data and init.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// A generator for a named purpose, so streams for weights, data and dropout differ.
    pub fn stream(seed: u64, purpose: u64) -> Self {
        let mut mixer = Self::new(seed ^ purpose.wrapping_mul(0xA24B_AED4_963E_E407));
        mixer.next_u64();
        mixer
    }

    /// A generator for one training step of one seed: seed and step are mixed through
    /// SplitMix rounds, so seeds s and s ^ 1 (or s + 1) give unrelated streams, not
    /// the same stream shifted by a step.
    pub fn for_step(seed: u64, step: u64, purpose: u64) -> Self {
        let seed_hash = Self::new(seed).next_u64();
        let step_hash = Self::new(seed_hash ^ step.wrapping_mul(0xD6E8_FEB8_6659_FD93)).next_u64();
        Self::stream(step_hash, purpose)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform integer in 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        ((self.next_u64() >> 11) as u128 * n as u128 >> 53) as usize
    }

    /// Uniform float in [0, 1).
    pub fn unit_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform float in [low, high).
    pub fn uniform(&mut self, low: f64, high: f64) -> f64 {
        low + (high - low) * self.unit_f64()
    }

    /// Standard normal sample (Box–Muller).
    pub fn normal(&mut self) -> f64 {
        let u1 = self.unit_f64().max(f64::MIN_POSITIVE);
        let u2 = self.unit_f64();
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    /// True with probability p.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit_f64() < p
    }

    /// Fisher–Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_streams_differ() {
        let a: Vec<u64> = (0..5).map({ let mut r = Rng::new(7); move |_| r.next_u64() }).collect();
        let b: Vec<u64> = (0..5).map({ let mut r = Rng::new(7); move |_| r.next_u64() }).collect();
        assert_eq!(a, b);
        assert_ne!(Rng::stream(7, 1).next_u64(), Rng::stream(7, 2).next_u64());
    }

    #[test]
    fn step_streams_of_neighbouring_seeds_are_not_shifted_copies() {
        let first = |seed: u64, step: u64| Rng::for_step(seed, step, 2).next_u64();
        for seed in 0..16u64 {
            for step in 0..16u64 {
                // The old scheme (seed ^ step) made these two equal.
                assert_ne!(first(seed, step), first(seed ^ 1, step ^ 1), "seed {seed} step {step}");
                assert_ne!(first(seed, step), first(seed + 1, step + 1));
                assert_ne!(first(seed, step), first(seed, step + 1));
            }
        }
        assert_eq!(first(5, 9), first(5, 9), "reproducible");
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = Rng::new(1);
        let mut seen = [false; 5];
        for _ in 0..200 {
            let v = rng.below(5);
            assert!(v < 5);
            seen[v] = true;
        }
        assert!(seen.iter().all(|s| *s));
    }

    #[test]
    fn normal_has_unit_variance() {
        let mut rng = Rng::new(3);
        let xs: Vec<f64> = (0..20_000).map(|_| rng.normal()).collect();
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / xs.len() as f64;
        assert!(mean.abs() < 0.03, "mean {mean}");
        assert!((var - 1.0).abs() < 0.05, "var {var}");
    }
}
