//! Position information, as plain numbers shared by the burn model, the fused CPU
//! step and the window's pictures.
//!
//! - Sinusoidal ("Attention Is All You Need", section 3.5), added to the token
//!   vectors: PE[pos, 2i] = sin(pos / 10000^(2i/d)), PE[pos, 2i+1] = cos(pos / 10000^(2i/d)).
//! - Rotary (RoPE, Su et al. 2021), applied to each head's queries and keys: the
//!   pair (x[2i], x[2i+1]) at position p is turned by the angle p · 10000^(-2i/d_k).
//!   A query at p and a key at p' then score q·R(p'-p)·k: only their distance counts.
//! - ALiBi (Press et al. 2022), added to the scores: head h subtracts
//!   m_h · |i - j| from the score of query i for key j, with slopes m_h =
//!   2^(-8(h+1)/H), a geometric series from 2^(-8/H) down to 2^(-8).

/// The `[positions, d_model]` sinusoidal table, row-major.
pub fn sinusoidal_table(positions: usize, d_model: usize) -> Vec<f32> {
    let mut table = vec![0.0f32; positions * d_model];
    for pos in 0..positions {
        for i in 0..d_model {
            let pair = (i / 2) as f64;
            let angle = pos as f64 / 10_000f64.powf(2.0 * pair / d_model as f64);
            table[pos * d_model + i] = if i % 2 == 0 { angle.sin() } else { angle.cos() } as f32;
        }
    }
    table
}

/// Rotary angles for `positions` (any list, e.g. `start..start + n`) and a head
/// width `d_k` (even): `(cos, sin)`, each `[positions, d_k / 2]` row-major.
pub fn rotary_tables(positions: impl IntoIterator<Item = usize>, d_k: usize) -> (Vec<f32>, Vec<f32>) {
    let half = d_k / 2;
    let (mut cos, mut sin) = (Vec::new(), Vec::new());
    for pos in positions {
        for i in 0..half {
            let angle = pos as f64 * 10_000f64.powf(-2.0 * i as f64 / d_k as f64);
            cos.push(angle.cos() as f32);
            sin.push(angle.sin() as f32);
        }
    }
    (cos, sin)
}

/// Turn one head's vector `x` (`[d_k]`) by its position's angles (`cos`, `sin`:
/// `[d_k / 2]`); `inverse` turns it back (the transpose, used by the gradient).
#[inline]
pub fn rotate(x: &mut [f32], cos: &[f32], sin: &[f32], inverse: bool) {
    for ((pair, &c), &s) in x.chunks_exact_mut(2).zip(cos).zip(sin) {
        let s = if inverse { -s } else { s };
        let (even, odd) = (pair[0], pair[1]);
        pair[0] = even * c - odd * s;
        pair[1] = even * s + odd * c;
    }
}

/// ALiBi's slope for each of `heads` heads: 2^(-8(h+1)/heads).
pub fn alibi_slopes(heads: usize) -> Vec<f32> {
    (0..heads).map(|h| 2f64.powf(-8.0 * (h + 1) as f64 / heads as f64) as f32).collect()
}

/// ALiBi's `[heads, queries, keys]` bias for queries at `first_query..first_query +
/// queries` and keys at `0..keys`: -m_h · |i - j|.
pub fn alibi_bias(heads: usize, first_query: usize, queries: usize, keys: usize) -> Vec<f32> {
    let mut bias = Vec::with_capacity(heads * queries * keys);
    for m in alibi_slopes(heads) {
        for i in first_query..first_query + queries {
            bias.extend((0..keys).map(|j| -m * i.abs_diff(j) as f32));
        }
    }
    bias
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_row_alternates_zero_and_one_and_rows_differ() {
        let t = sinusoidal_table(4, 8);
        assert_eq!(&t[..4], &[0.0, 1.0, 0.0, 1.0]);
        assert!(t[8..16] != t[16..24]);
        assert!(t.iter().all(|v| (-1.0..=1.0).contains(v)));
    }

    #[test]
    fn rotary_scores_depend_only_on_the_distance() {
        let d_k = 8;
        let q: Vec<f32> = (0..d_k).map(|i| (i as f32 * 0.7).sin()).collect();
        let k: Vec<f32> = (0..d_k).map(|i| (i as f32 * 1.3).cos()).collect();
        let score = |pq: usize, pk: usize| {
            let (cos, sin) = rotary_tables([pq, pk], d_k);
            let (mut q, mut k) = (q.clone(), k.clone());
            rotate(&mut q, &cos[..d_k / 2], &sin[..d_k / 2], false);
            rotate(&mut k, &cos[d_k / 2..], &sin[d_k / 2..], false);
            q.iter().zip(&k).map(|(a, b)| a * b).sum::<f32>()
        };
        assert!((score(3, 1) - score(10, 8)).abs() < 1e-4, "same distance, same score");
        assert!((score(3, 1) - score(3, 2)).abs() > 1e-3, "another distance, another score");
        let (cos, sin) = rotary_tables([5], d_k);
        let mut x = q.clone();
        rotate(&mut x, &cos, &sin, false);
        rotate(&mut x, &cos, &sin, true);
        assert!(x.iter().zip(&q).all(|(a, b)| (a - b).abs() < 1e-6), "inverse undoes the turn");
    }

    #[test]
    fn alibi_slopes_halve_down_to_one_256th() {
        let slopes = alibi_slopes(8);
        assert_eq!(slopes[0], 0.5);
        assert_eq!(slopes[7], 1.0 / 256.0);
        let bias = alibi_bias(2, 2, 1, 4); // slopes 1/16 and 1/256
        assert_eq!(&bias[..4], &[-0.125, -0.0625, 0.0, -0.0625]);
        assert_eq!(bias[4], -2.0 / 256.0);
    }
}
