//! Sinusoidal positional encoding ("Attention Is All You Need", section 3.5):
//! PE[pos, 2i] = sin(pos / 10000^(2i/d)), PE[pos, 2i+1] = cos(pos / 10000^(2i/d)).
//! Plain data, so the window can draw the matrix as a heatmap.

/// The `[positions, d_model]` table, row-major.
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
}
