//! Numbers read off a trained model's attention on the probe (and off the leak
//! probes' reports): how concentrated, spread, hidden or different its maps are.
//! The claim metrics and the live checks share them.

use super::metric::Measured;
use crate::t;
use crate::training::AttentionSnapshot;

/// (layer, head, mean largest weight) of the head whose probe rows are most
/// concentrated; rows that see a single key (trivially 1) are skipped.
pub fn sharpest_head(snapshot: &AttentionSnapshot) -> Option<(usize, usize, f64)> {
    let seq = snapshot.tokens.len();
    let mut best: Option<(usize, usize, f64)> = None;
    for (layer, maps) in snapshot.layers.iter().enumerate() {
        let (Some(maps), Some(Some(keep))) = (maps, snapshot.masks.get(layer)) else { continue };
        for (head, weights) in maps.iter().enumerate() {
            let rows: Vec<f64> = (0..seq)
                .filter(|q| keep[q * seq..(q + 1) * seq].iter().filter(|k| **k).count() >= 2)
                .map(|q| weights[q * seq..(q + 1) * seq].iter().fold(0.0f32, |m, w| m.max(*w)) as f64)
                .collect();
            if rows.is_empty() {
                continue;
            }
            let mean = rows.iter().sum::<f64>() / rows.len() as f64;
            if best.is_none_or(|(_, _, b)| mean > b) {
                best = Some((layer, head, mean));
            }
        }
    }
    best
}

pub(super) fn max_score(report: &crate::probe::LeakReport) -> Measured {
    if report.layers.is_empty() {
        return Err(report.note.clone().unwrap_or_else(|| t!("rep-metric-probe-no-layer")));
    }
    if report.layers.iter().any(|l| !l.score.is_finite()) {
        return Err(t!("rep-metric-probe-not-finite"));
    }
    Ok(report.layers.iter().map(|l| l.score as f64).fold(0.0, f64::max))
}

/// Mean over every layer, head and query row of entropy / log(visible keys);
/// rows that see a single key (entropy 0 of 0) are skipped; None when no row is left.
pub fn normalised_entropy(snapshot: &crate::training::AttentionSnapshot) -> Option<f64> {
    let seq = snapshot.tokens.len();
    let (mut sum, mut count) = (0.0f64, 0usize);
    for (layer, maps) in snapshot.layers.iter().enumerate() {
        let (Some(maps), Some(Some(keep))) = (maps, snapshot.masks.get(layer)) else { continue };
        for weights in maps {
            for q in 0..seq {
                let visible = keep[q * seq..(q + 1) * seq].iter().filter(|k| **k).count();
                if visible < 2 {
                    continue;
                }
                let row = &weights[q * seq..(q + 1) * seq];
                let entropy: f64 = row.iter().filter(|p| **p > 0.0).map(|&p| -(p as f64) * (p as f64).ln()).sum();
                sum += entropy / (visible as f64).ln();
                count += 1;
            }
        }
    }
    (count > 0).then(|| sum / count as f64)
}

/// Mean over layers, heads and query rows of the weight on intended-hidden keys.
pub fn hidden_weight(snapshot: &crate::training::AttentionSnapshot) -> Option<f64> {
    let seq = snapshot.tokens.len();
    let (mut sum, mut rows) = (0.0f64, 0usize);
    for (layer, maps) in snapshot.layers.iter().enumerate() {
        let (Some(maps), Some(Some(intended))) = (maps, snapshot.intended_masks.get(layer)) else { continue };
        for weights in maps {
            for q in 0..seq {
                sum += (0..seq).filter(|&k| !intended[q * seq + k]).map(|k| weights[q * seq + k] as f64).sum::<f64>();
                rows += 1;
            }
        }
    }
    (rows > 0).then(|| sum / rows as f64)
}

/// Mean over layers and pairs of heads of the mean per-row total-variation distance.
pub fn head_diversity(snapshot: &crate::training::AttentionSnapshot) -> Option<f64> {
    let seq = snapshot.tokens.len();
    let (mut sum, mut pairs) = (0.0f64, 0usize);
    for maps in snapshot.layers.iter().flatten() {
        for i in 0..maps.len() {
            for j in i + 1..maps.len() {
                let distance: f64 = (0..seq)
                    .map(|q| (0..seq).map(|k| (maps[i][q * seq + k] - maps[j][q * seq + k]).abs() as f64).sum::<f64>() / 2.0)
                    .sum::<f64>()
                    / seq as f64;
                sum += distance;
                pairs += 1;
            }
        }
    }
    (pairs > 0).then(|| sum / pairs as f64)
}

